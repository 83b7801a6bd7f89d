//! En passant captures (rule: `rules/en_passant.rs`).

use crate::core::geometry::Word;
use crate::core::moves::{Move, MoveKind, MoveList, PieceType};
use crate::position::Position;

impl<W: Word> Position<W> {
    /// En passant captures; with `verify` each is tested for king safety here.
    pub(super) fn gen_en_passant(&self, list: &mut MoveList, verify: bool) {
        if self.ep.is_empty() {
            return;
        }
        let v = &*self.v;
        let us = self.side;
        let mut m = v.pawn_mask;
        while m != 0 {
            let t = m.trailing_zeros() as usize;
            m &= m - 1;
            for from in self.pieces(t as PieceType, us) {
                let hits = v.attacks[us.idx()][t].leap_capture(from.idx()).narrow() & self.ep;
                for to in hits {
                    let mv = Move::new(from, to, MoveKind::EnPassant);
                    if !verify || self.leaves_royals_safe(mv) {
                        list.push(mv);
                    }
                }
            }
        }
    }
}
