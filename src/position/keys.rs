//! The position's Zobrist keys: its own, kept by make/unmake and compared with one
//! computed from scratch, the material's by group (the pawn-rule pieces; each colour's
//! other pieces with its hand) for the search's caches and corrections, and the guess at
//! a move's key that the table prefetch reads.

use super::Position;
use crate::core::geometry::Word;
use crate::core::moves::{Color, Move, Piece, PieceType, MAX_PIECE_TYPES};
use crate::core::zobrist::{MAX_HAND_COUNT, ZOBRIST};

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

    /// A guess at the key after `m`, for prefetching the table before the move is made:
    /// exact for a plain move (one piece moving, perhaps capturing on its square and so
    /// filling a hand, castling rights lost) unless an en passant square comes or goes or
    /// zone castling's rights change; other moves get a key that may be wrong, which
    /// costs a wasted prefetch and nothing else.
    #[inline(always)]
    pub fn key_after(&self, m: Move) -> u64 {
        let k = self.key ^ ZOBRIST.side;
        if !m.is_plain() {
            return k;
        }
        let (from, to) = (m.from().idx(), m.to().idx());
        let p = self.board[from];
        if p.is_none() {
            return k;
        }
        let c = self.board[to];
        let mut k = k ^ ZOBRIST.piece[p.idx()][from] ^ ZOBRIST.piece[p.idx()][to];
        if !c.is_none() {
            k ^= ZOBRIST.piece[c.idx()][to];
            let to_hand = self.v.drops.as_ref().map_or(0, |d| d.to_hand);
            if to_hand >> c.kind() & 1 != 0 {
                let (us, t) = (self.side, c.kind());
                let n = self.hands[us.idx()][t as usize];
                k ^= Self::hand_key(us, t, n) ^ Self::hand_key(us, t, n.saturating_add(1));
            }
        }
        let lost = self.castling & (self.v.castle_mask[from] | self.v.castle_mask[to]);
        if lost != 0 {
            k ^= ZOBRIST.castling[self.castling as usize]
                ^ ZOBRIST.castling[(self.castling & !lost) as usize];
        }
        k
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
        let us = self.side;
        let mut m = self.v.pawn_mask;
        while m != 0 {
            let t = m.trailing_zeros() as usize;
            m &= m - 1;
            let pawns = self.pieces(t as PieceType, us);
            if pawns.is_empty() {
                continue;
            }
            for e in self.ep.iter() {
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
    use crate::core::moves::MoveList;

    /// The prefetch's guess is the key the move makes, for every plain move along
    /// pseudo-random games of every built-in variant where no en passant square counts
    /// on either side of it and zone castling's rights stay.
    #[test]
    fn the_key_guessed_for_a_plain_move_is_the_key_it_makes() {
        let mut checked = 0;
        crate::testing::seeded_games(
            120,
            0x6B65_795F_6166_7465,
            |_| (),
            |_, name, _, p| {
                let mut list = MoveList::new();
                p.legal_moves(&mut list);
                for &m in list.iter().filter(|m| m.is_plain()) {
                    let mut q = p.clone();
                    q.make_move(m);
                    if p.ep_key() != 0 || q.ep_key() != 0 || p.castle_rooks != q.castle_rooks {
                        continue;
                    }
                    let mv = p.move_to_string(m);
                    assert_eq!(p.key_after(m), q.key(), "{name}: {mv} in {}", p.fen());
                    checked += 1;
                }
            },
        );
        assert!(checked > 10_000, "{checked} moves");
    }
}
