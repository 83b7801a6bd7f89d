//! The position's Zobrist keys: its own, kept by make/unmake and compared with one
//! computed from scratch, the material's by group (the pawn-rule pieces; each colour's
//! other pieces with its hand) for the search's caches and corrections, and the guess at
//! a move's key that the table prefetch reads.

use super::Position;
use crate::core::geometry::Bitboard;
use crate::core::geometry::Word;
use crate::core::moves::{Color, Move, MoveKind, Piece, PieceType, MAX_PIECE_TYPES};
use crate::core::zobrist::{MAX_HAND_COUNT, ZOBRIST};
use crate::rules::en_passant;

/// The pawn-rule pieces' key of an empty board: not 0, which marks an empty pawn-cache
/// entry, so that a pawnless position's structure is cached too.
pub(super) const PAWN_KEY_SEED: u64 = 0x243F_6A88_85A3_08D3;

impl<W: Word> Position<W> {
    /// The Zobrist key.
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The key of the pawn-rule pieces of both colours and their squares (never 0): what
    /// the pawn-structure caches and corrections are found by.
    #[inline(always)]
    pub fn pawn_key(&self) -> u64 {
        self.material[2]
    }

    /// Per colour, the key of its pieces other than pawn-rule ones, with its hand.
    #[inline(always)]
    pub fn piece_keys(&self) -> [u64; 2] {
        [self.material[0], self.material[1]]
    }

    /// The key after `m`, for prefetching the table before the move is made: exact for
    /// every move of one piece (captures, promotions, en passant, double steps), castling,
    /// drops, switches, combinations and kills, zone castling's rights included; a split
    /// gets a guess, and a wrong key costs a wasted prefetch and nothing else.
    #[inline(always)]
    pub fn key_after(&self, m: Move) -> u64 {
        let mut k = self.key ^ ZOBRIST.side;
        if self.ep.any() {
            // Whatever the move, the en passant square goes.
            k ^= self.ep_key();
        }
        if !m.is_plain() {
            return self.key_after_special(m, k);
        }
        let (from, to) = (m.from().idx(), m.to().idx());
        let p = self.board[from];
        if p.is_none() {
            return k;
        }
        k ^= ZOBRIST.piece[p.idx()][from] ^ ZOBRIST.piece[p.idx()][to];
        if self.castle_rooks.any() {
            k ^= self.zone_rights_key(m, p);
        }
        k ^ self.taken_key(to)
            ^ self.rights_lost_key(self.v.castle_mask[from] | self.v.castle_mask[to])
    }

    /// The key after a null move (the side to move passes), for the prefetch.
    #[inline(always)]
    pub fn null_key(&self) -> u64 {
        let k = self.key ^ ZOBRIST.side;
        if self.ep.any() {
            k ^ self.ep_key()
        } else {
            k
        }
    }

    /// [`Position::key_after`] for the moves that are not plain, out of line so that the
    /// plain move's guess stays small. `k` is the key with the side and en passant square
    /// already changed.
    #[inline(never)]
    fn key_after_special(&self, m: Move, k: u64) -> u64 {
        let k = self.key_after_unusual(m, k);
        if !self.castle_rooks.any() {
            return k;
        }
        let moved = match m.kind() {
            MoveKind::Castle | MoveKind::Drop => Piece::NONE,
            _ => self.board[m.from().idx()],
        };
        k ^ self.zone_rights_key(m, moved)
    }

    /// The key change of zone castling's rights through `m`, which moves `moved` (see
    /// `make_move`).
    fn zone_rights_key(&self, m: Move, moved: Piece) -> u64 {
        let before = self.castle_rooks;
        let after = self.zone_rights_after(m, self.side, moved, before);
        (after ^ before)
            .iter()
            .fold(0, |k, s| k ^ ZOBRIST.castle_square[s.idx()])
    }

    /// [`Position::key_after_special`] but for zone castling's rights.
    #[inline(always)]
    fn key_after_unusual(&self, m: Move, mut k: u64) -> u64 {
        let us = self.side;
        let (from, to) = (m.from(), m.to());
        let (f, t) = (from.idx(), to.idx());
        let mask = &self.v.castle_mask;
        match m.kind() {
            MoveKind::Drop => {
                let d = m.drop_type();
                let n = self.hands[us.idx()][d as usize];
                k ^= ZOBRIST.piece[Piece::new(d, us).idx()][t]
                    ^ Self::hand_key(us, d, n)
                    ^ Self::hand_key(us, d, n.saturating_sub(1));
                return k;
            }
            MoveKind::Castle => {
                let Some((kf, kt, rf, rt)) = self.castle_squares(m, us, self.castle_rooks) else {
                    return k;
                };
                let (king, rook) = (self.board[kf.idx()], self.board[rf.idx()]);
                k ^= ZOBRIST.piece[king.idx()][kf.idx()]
                    ^ ZOBRIST.piece[king.idx()][kt.idx()]
                    ^ ZOBRIST.piece[rook.idx()][rf.idx()]
                    ^ ZOBRIST.piece[rook.idx()][rt.idx()];
            }
            MoveKind::Switch => {
                let (a, b) = (self.board[f], self.board[t]);
                let a2 = m.promotion().map_or(a, |x| Piece::new(x, us));
                let b2 = m.partner_promotion().map_or(b, |x| Piece::new(x, us));
                k ^= ZOBRIST.piece[a.idx()][f]
                    ^ ZOBRIST.piece[b.idx()][t]
                    ^ ZOBRIST.piece[a2.idx()][t]
                    ^ ZOBRIST.piece[b2.idx()][f];
            }
            MoveKind::Combine => {
                let (a, b) = (self.board[f], self.board[t]);
                let Some(c) = m.promotion() else { return k };
                k ^= ZOBRIST.piece[a.idx()][f]
                    ^ ZOBRIST.piece[b.idx()][t]
                    ^ ZOBRIST.piece[Piece::new(c, us).idx()][t];
            }
            // What a split leaves behind is read off the stack planes, which costs more
            // than the probe it would save (Augsburg's bench: 4.5% of its time against
            // 0.8%): its key is left a guess.
            MoveKind::Split => return k,
            kind => {
                for s in m.kills() {
                    k ^= self.taken_key(s.idx());
                }
                let mut lost = mask[f] | mask[t];
                for s in m.kills() {
                    lost |= mask[s.idx()];
                }
                if from == to {
                    // A shot that does not move its shooter.
                    return k ^ self.rights_lost_key(lost);
                }
                let p = self.board[f];
                if p.is_none() {
                    return k;
                }
                if kind == MoveKind::EnPassant {
                    k ^= self.taken_key(self.ep_victim.idx());
                } else {
                    k ^= self.taken_key(t);
                }
                let landed = m.promotion().map_or(p, |x| Piece::new(x, us));
                k ^= ZOBRIST.piece[p.idx()][f] ^ ZOBRIST.piece[landed.idx()][t];
                if kind == MoveKind::DoubleStep && self.v.pawn_mask >> landed.kind() & 1 != 0 {
                    // As `make_move` sets it: the squares passed over, if all are empty,
                    // count when a pawn of the side then to move could take there.
                    let skipped = en_passant::between(&self.v.board, from, to).narrow::<W>();
                    if skipped.any()
                        && !(skipped & self.occupied()).any()
                        && self.ep_capturable(us.flip(), skipped)
                    {
                        k ^= ZOBRIST.ep[skipped.lsb().idx()];
                    }
                }
                return k ^ self.rights_lost_key(lost);
            }
        }
        k ^ self.rights_lost_key(mask[f] | mask[t])
    }

    /// The key change of taking whatever stands on `sq` (nothing if empty), the mover's
    /// hand filled where captures go to it.
    #[inline(always)]
    fn taken_key(&self, sq: usize) -> u64 {
        let c = self.board[sq];
        if c.is_none() {
            return 0;
        }
        let mut k = ZOBRIST.piece[c.idx()][sq];
        let to_hand = self.v.drops.as_ref().map_or(0, |d| d.to_hand);
        if to_hand >> c.kind() & 1 != 0 {
            let (us, t) = (self.side, c.kind());
            let n = self.hands[us.idx()][t as usize];
            k ^= Self::hand_key(us, t, n) ^ Self::hand_key(us, t, n.saturating_add(1));
        }
        k
    }

    /// The key change of losing the castling rights in `lost`.
    #[inline(always)]
    fn rights_lost_key(&self, lost: u8) -> u64 {
        let lost = self.castling & lost;
        if lost == 0 {
            return 0;
        }
        ZOBRIST.castling[self.castling as usize]
            ^ ZOBRIST.castling[(self.castling & !lost) as usize]
    }

    /// Which [`Position::material`] key a piece's square key goes into.
    #[inline(always)]
    pub(super) fn group(&self, p: Piece) -> usize {
        if self.v.pawn_mask >> p.kind() & 1 != 0 {
            2
        } else {
            p.color().idx()
        }
    }

    #[inline(always)]
    pub(super) fn hand_key(c: Color, t: PieceType, n: u8) -> u64 {
        ZOBRIST.hand[c.idx() * MAX_PIECE_TYPES + t as usize][(n as usize).min(MAX_HAND_COUNT - 1)]
    }

    /// The en passant part of the key: only when a capture there is possible, so that
    /// positions that differ only by a useless skipped square repeat.
    #[inline(always)]
    pub(crate) fn ep_key(&self) -> u64 {
        if self.ep.any() && self.ep_capture_possible() {
            ZOBRIST.ep[self.ep.lsb().idx()]
        } else {
            0
        }
    }

    /// True when a pawn of the side to move attacks an en passant square.
    pub(crate) fn ep_capture_possible(&self) -> bool {
        self.ep_capturable(self.side, self.ep)
    }

    /// True when a pawn of `us` attacks one of the squares `ep`.
    fn ep_capturable(&self, us: Color, ep: Bitboard<W>) -> bool {
        let mut m = self.v.pawn_mask;
        while m != 0 {
            let t = m.trailing_zeros() as usize;
            m &= m - 1;
            let pawns = self.pieces(t as PieceType, us);
            if pawns.is_empty() {
                continue;
            }
            for e in ep.iter() {
                if (self.v.attacks[us.idx()][t].leap_capture_rev[e.idx()].narrow() & pawns).any() {
                    return true;
                }
            }
        }
        false
    }

    /// The key computed from scratch (tests compare it with the incremental one).
    pub fn compute_key(&self) -> u64 {
        // The pieces' and hands' part is the three material keys together, less the
        // pawn key's seed.
        let [white, black, pawns] = self.compute_material();
        let mut k = white ^ black ^ pawns ^ PAWN_KEY_SEED;
        k ^= ZOBRIST.castling[self.castling as usize];
        for s in self.castle_rooks.iter() {
            k ^= ZOBRIST.castle_square[s.idx()];
        }
        k ^= self.ep_key();
        if self.side == Color::Black {
            k ^= ZOBRIST.side;
        }
        k
    }

    /// [`Position::material`] computed from scratch (the FEN reader's, and the invariants').
    pub fn compute_material(&self) -> [u64; 3] {
        let mut m = [0, 0, PAWN_KEY_SEED];
        for sq in self.occupied().iter() {
            let p = self.board[sq.idx()];
            m[self.group(p)] ^= ZOBRIST.piece[p.idx()][sq.idx()];
        }
        for c in Color::BOTH {
            for t in 0..self.v.pieces.len() {
                m[c.idx()] ^= Self::hand_key(c, t as PieceType, self.hands[c.idx()][t]);
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use crate::core::moves::{MoveKind, MoveList};

    /// The prefetch's key is the key the move makes, for every move along pseudo-random
    /// games of every built-in variant but moves that change zone castling's rights, and the null move's for every position of them.
    #[test]
    fn the_key_foreseen_for_a_move_is_the_key_it_makes() {
        let mut checked = 0;
        crate::testing::seeded_games(
            120,
            0x6B65_795F_6166_7465,
            |_| (),
            |_, name, _, p| {
                let mut passed = p.clone();
                passed.make_null();
                assert_eq!(
                    p.null_key(),
                    passed.key(),
                    "{name}: null move in {}",
                    p.fen()
                );
                let mut list = MoveList::new();
                p.legal_moves(&mut list);
                for &m in list.iter().filter(|m| m.kind() != MoveKind::Split) {
                    let mut q = p.clone();
                    q.make_move(m);
                    let mv = p.move_to_string(m);
                    assert_eq!(p.key_after(m), q.key(), "{name}: {mv} in {}", p.fen());
                    checked += 1;
                }
            },
        );
        assert!(checked > 10_000, "{checked} moves");
    }
}
