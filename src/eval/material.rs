//! Material and the game's phase: the non-pawn material that tapers the middlegame
//! into the endgame, and the endgame scale for a side ahead with few pawn-rule pieces.

use super::{Eval, SCALE_FULL};
use crate::core::geometry::{Bitboard, Word};
use crate::core::moves::{Color, PieceType};
use crate::position::Position;

impl Eval {
    /// Non-pawn, non-royal material of both sides, on the board and in hand.
    pub(super) fn phase_material<W: Word>(&self, pos: &Position<W>) -> i32 {
        let counted = self.counted_types();
        let mut total = self.board_material(pos, pos.occupied());
        // Most games never hold a piece in hand: one test a side for all the types.
        for c in Color::BOTH {
            if pos.has_hand(c) {
                let mut types = counted;
                while types != 0 {
                    let t = types.trailing_zeros() as usize;
                    types &= types - 1;
                    total += pos.hand(c, t as PieceType) as i32 * self.values[t];
                }
            }
        }
        total
    }

    /// How far the game is from its start toward the endgame: (phase, full phase); the
    /// middlegame weights count `phase / full`, the endgame ones the rest.
    pub fn phase<W: Word>(&self, pos: &Position<W>) -> (i32, i32) {
        (
            self.phase_material(pos).min(self.start_phase),
            self.start_phase,
        )
    }

    /// This evaluation with the endgame score never scaled: one term's weight then shows
    /// whole in a position with few pawns.
    pub fn without_endgame_scale(mut self) -> Eval {
        self.scaled = false;
        self
    }

    /// The types neither pawn-rule nor royal, as a mask (what the phase and the endgame
    /// scale count as material).
    #[inline]
    fn counted_types(&self) -> u64 {
        ((1u64 << self.values.len()) - 1) & !((self.pawn_mask | self.royal_mask) as u64)
    }

    /// Value of the pieces of [`Eval::counted_types`] on the squares of `side` (one
    /// colour's pieces, or every piece).
    fn board_material<W: Word>(&self, pos: &Position<W>, side: Bitboard<W>) -> i32 {
        let mut types = self.counted_types();
        let mut total = 0;
        while types != 0 {
            let t = types.trailing_zeros() as usize;
            types &= types - 1;
            let on_board = (pos.pieces(t as PieceType, Color::White)
                | pos.pieces(t as PieceType, Color::Black))
                & side;
            total += on_board.count() as i32 * self.values[t];
        }
        total
    }

    /// How much of the endgame score counts (out of [`SCALE_FULL`]) when White, then
    /// when Black, is the side ahead (Stockfish's scale factor). A side ahead with few
    /// pawn-rule pieces wins less often than its material says: with none, and no more
    /// than a minor piece to the good, it seldom wins at all (a lone minor never); with
    /// one to three, each pawn it has left is what its winning chances rest on. Pieces in
    /// hand can be dropped anywhere, so with any in hand nothing is scaled.
    pub fn eg_scales<W: Word>(&self, pos: &Position<W>) -> [i32; 2] {
        if !self.scaled {
            return [SCALE_FULL; 2];
        }
        let pawns = Color::BOTH.map(|c| {
            let mut types = self.pawn_mask as u64;
            let mut n = 0;
            while types != 0 {
                let t = types.trailing_zeros() as usize;
                types &= types - 1;
                n += pos.pieces(t as PieceType, c).count() as i32;
            }
            n
        });
        // Most positions: enough pawns on both sides to leave the endgame whole.
        if pawns[0] >= 4 && pawns[1] >= 4 {
            return [SCALE_FULL; 2];
        }
        if pos.has_hand(Color::White) || pos.has_hand(Color::Black) {
            return [SCALE_FULL; 2];
        }
        let npm = Color::BOTH.map(|c| self.board_material(pos, pos.color_bb(c)));
        [0, 1].map(|s| {
            let w = 1 - s;
            if pawns[s] == 0 && self.minor_margin > 0 && npm[s] - npm[w] <= self.minor_margin {
                if npm[s] <= self.minor_margin {
                    0
                } else if npm[w] <= self.minor_margin {
                    4
                } else {
                    14
                }
            } else {
                (36 + 7 * pawns[s]).min(SCALE_FULL)
            }
        })
    }

    /// True when `c` has material other than pawns and royals (null move is unsafe
    /// without: zugzwang).
    pub fn has_pieces<W: Word>(&self, pos: &Position<W>, c: Color) -> bool {
        (0..self.values.len()).any(|t| {
            self.pawn_mask >> t & 1 == 0
                && self.royal_mask >> t & 1 == 0
                && (pos.pieces(t as PieceType, c).any() || pos.hand(c, t as PieceType) > 0)
        })
    }

    /// True when either side has a piece in hand.
    pub fn any_in_hand<W: Word>(&self, pos: &Position<W>) -> bool {
        (0..self.values.len()).any(|t| {
            pos.hand(Color::White, t as PieceType) > 0 || pos.hand(Color::Black, t as PieceType) > 0
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;
    use crate::variant::Variant;
    use std::sync::Arc;

    /// Stockfish's scale factor, read for each side as the one ahead: a lone minor piece
    /// cannot win, a minor more without pawns seldom does, and with one to three pawns
    /// the winning chances rest on those pawns; pieces in hand leave everything whole,
    /// and only a table that switches it on (`eval.endgame_scale`) is scaled at all.
    #[test]
    fn the_endgame_counts_less_for_a_side_ahead_with_few_pawns() {
        let v = registry::get("chess").unwrap();
        let e = Eval::new(&v);
        let scales = |fen: &str| e.eg_scales(&Position::from_fen(&v, fen).unwrap());
        // King and bishop against king: no win for either side.
        assert_eq!(scales("8/8/4k3/8/8/3BK3/8/8 w - - 0 1"), [0, 0]);
        // Rook against bishop, rook and bishop against rook: a minor to the good.
        assert_eq!(scales("8/8/4k3/3b4/8/3RK3/8/8 w - - 0 1")[0], 4);
        assert_eq!(scales("8/8/4k3/3r4/8/3RKB2/8/8 w - - 0 1")[0], 14);
        // Queen against rook: more than a minor ahead, but no pawn.
        assert_eq!(scales("8/8/4k3/3r4/8/3QK3/8/8 w - - 0 1")[0], 36);
        // Rook and pawn against pawn: one pawn; four pawns: the endgame whole.
        assert_eq!(scales("8/5p2/4k3/8/8/3RK3/5P2/8 w - - 0 1")[0], 43);
        assert_eq!(
            scales("8/pppp4/4k3/8/8/3RK3/PPPP4/8 w - - 0 1"),
            [SCALE_FULL; 2]
        );
        // The bishop's side keeps only its evaluation's middlegame share.
        let p = Position::from_fen(&v, "8/8/4k3/8/8/3BK3/8/8 w - - 0 1").unwrap();
        let unscaled = Eval::new(&v).without_endgame_scale().evaluate(&p);
        assert!(
            e.evaluate(&p) * 4 < unscaled,
            "{} against {unscaled}",
            e.evaluate(&p)
        );
        // A table without the switch is never scaled: Grand's king and bishop count whole.
        let g = registry::get("grand").unwrap();
        let fen = "10/10/10/5k4/10/10/4BK4/10/10/10 w - - 0 1";
        assert_eq!(
            Eval::new(&g).eg_scales(&Position::from_fen(&g, fen).unwrap()),
            [SCALE_FULL; 2]
        );
        // With the switch on, a piece in hand can be dropped anywhere: nothing is
        // scaled; the same position with the hand empty is.
        let text = "extends = \"archmage\"\nname = \"scaled\"\n[eval]\nendgame_scale = true\n";
        let a = Arc::new(Variant::from_toml(text, "scaled").unwrap());
        let ea = Eval::new(&a);
        let at = |fen: &str| ea.eg_scales(&Position::from_fen(&a, fen).unwrap());
        assert_eq!(
            at("k9/10/10/10/10/10/10/10/10/3QK5[D] w - - 0 1"),
            [SCALE_FULL; 2]
        );
        assert_eq!(at("k9/10/10/10/10/10/10/10/10/3QK5 w - - 0 1"), [36, 0]);
    }
}
