//! Castling generation, classic and zone castling alike (rule: `rules/castling.rs`).
//!
//! One generator: each rule names its candidates (king and rook squares, the squares
//! that must be empty, the squares the king crosses), and the shared part tests them
//! the same way — empty squares, crossed squares not attacked with the king still at
//! home, and, where asked, the landing by the strategy's full test. Under the
//! occupy-capture strategy "attacked" means "could be occupy-captured", the side must
//! not be in check, and the landing is left to that strategy's final filter.

use crate::core::geometry::{Bitboard, Square, Word};
use crate::core::moves::{Color, Move, MoveKind, MoveList, Piece};
use crate::position::Position;
use crate::rules::en_passant::between;

/// One castling the rules allow on this board, before the safety tests.
struct Candidate<W: Word> {
    king_from: Square,
    king_to: Square,
    /// Squares that must be empty.
    empty: Bitboard<W>,
    /// Squares the king crosses that must not be attacked.
    crossed: Bitboard<W>,
}

impl<W: Word> Position<W> {
    /// Every castling of the side to move; the caller has made sure it is not in check
    /// (the occupy-capture strategy tests that here). With `verify` each castling's
    /// landing is tested here; otherwise the caller's filter does it.
    pub(super) fn gen_castling(&self, list: &mut MoveList, verify: bool) {
        let ext = self.v.occupy.as_deref();
        let mut found = [None, None, None, None];
        let n = self.castling_candidates(&mut found, ext.is_some());
        if n == 0 {
            return;
        }
        if ext.is_some() && self.in_check() {
            return;
        }
        let us = self.side;
        let them = us.flip();
        let occ = self.occupied();
        let theirs = self.by_color[them.idx()];
        let shield = ext.map(|x| self.shield(x, self.by_color[us.idx()]));
        for c in found.iter().take(n).flatten() {
            if (c.empty & occ).any() {
                continue;
            }
            let attacked = |s: Square| match (ext, shield) {
                (Some(x), Some(sh)) => {
                    self.occupy_attacked(x, s, occ ^ c.king_from.bb() | s.bb(), theirs, them, sh)
                }
                _ => self.is_attacked(s, occ, theirs, them),
            };
            if c.crossed.iter().any(attacked) {
                continue;
            }
            let mv = Move::new(c.king_from, c.king_to, MoveKind::Castle);
            if !verify || self.leaves_royals_safe(mv) {
                list.push(mv);
            }
        }
    }

    /// The castlings whose rights (or start squares) are in place and whose squares
    /// between are empty (the caller tests zone castlings for it), into `out`; returns
    /// how many.
    /// `landing_later`: the king's landing square is tested elsewhere.
    fn castling_candidates(
        &self,
        out: &mut [Option<Candidate<W>>; 4],
        landing_later: bool,
    ) -> usize {
        let v = &*self.v;
        let us = self.side;
        let mut n = 0;
        if let Some(cs) = &v.castling {
            for side in 0..2 {
                let i = us.idx() * 2 + side;
                if !self.castle_ready(i) {
                    continue;
                }
                let r = &cs.rules[i];
                // Mostly something still stands between: no candidate to build.
                if (r.must_be_empty.narrow() & self.occupied()).any() {
                    continue;
                }
                let mut crossed = r.king_path.narrow::<W>() & !r.king_from.bb();
                if landing_later {
                    crossed &= !r.king_to.bb();
                }
                out[n] = Some(Candidate {
                    king_from: r.king_from,
                    king_to: r.king_to,
                    empty: r.must_be_empty.narrow(),
                    crossed,
                });
                n += 1;
            }
        }
        let Some(zc) = &v.zone_castling else {
            return n;
        };
        let rights = self.castle_rooks;
        if rights.is_empty() {
            return n;
        }
        let bd = &v.board;
        for k in self.royals(us) {
            if !zc.king_zone[us.idx()].has(k) {
                continue;
            }
            let rank = bd.rank_of(k);
            for side in &zc.sides {
                let r = rights & (side.rook_zone[us.idx()] & bd.rank_mask(rank)).narrow();
                if r.is_empty() || n == out.len() {
                    continue;
                }
                let r = r.lsb();
                let (Some(kt), Some(rt)) =
                    (bd.square(side.king_to, rank), bd.square(side.rook_to, rank))
                else {
                    continue;
                };
                // King and rook leave their squares, so only others may block.
                let landing = (kt.bb() | rt.bb()) & !k.bb() & !r.bb();
                out[n] = Some(Candidate {
                    king_from: k,
                    king_to: kt,
                    empty: between(bd, k, r).narrow() | landing,
                    crossed: between(bd, k, kt).narrow(),
                });
                n += 1;
            }
        }
        n
    }

    /// True when castling `i` (`color * 2 + side`) may be considered: its right is held,
    /// or, without rights, king and rook stand on their start squares.
    pub(crate) fn castle_ready(&self, i: usize) -> bool {
        let Some(cs) = self.v.castling.as_ref() else {
            return false;
        };
        if cs.rights {
            return self.castling & (1 << i) != 0;
        }
        let r = &cs.rules[i];
        let c = if i < 2 { Color::White } else { Color::Black };
        r.pieces.is_some_and(|(k, rk)| {
            self.board[r.king_from.idx()] == Piece::new(k, c)
                && self.board[r.rook_from.idx()] == Piece::new(rk, c)
        })
    }
}
