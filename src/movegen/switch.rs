//! Positional switch generation (rule: `rules/switch.rs`): each switch once per
//! combination of the promotions its two arrivals allow.

use crate::core::geometry::{Square, Word};
use crate::core::moves::{Move, MoveKind, MoveList, PieceType};
use crate::position::Position;

impl<W: Word> Position<W> {
    /// Positional switches. They leave every square as occupied as before, so a
    /// non-royal switcher's switch is legal exactly when its side is not in check.
    pub(super) fn gen_switches(&self, list: &mut MoveList, in_check: bool) {
        self.switches(list, in_check, false);
    }

    /// [`Position::gen_switches`], or with `count_plain` the switches that are one move
    /// each (neither piece may promote, no royal) counted rather than listed (perft's
    /// leaves); returns how many were counted.
    pub(super) fn switches(&self, list: &mut MoveList, in_check: bool, count_plain: bool) -> usize {
        let v = &*self.v;
        let Some(sw) = &v.switch else {
            return 0;
        };
        let mut counted = 0;
        let us = self.side;
        let partners_all = self.by_color[us.idx()] & !self.royals(us);
        let mut m = sw.types;
        while m != 0 {
            let t = m.trailing_zeros() as PieceType;
            m &= m - 1;
            let royal = v.royal_mask >> t & 1 != 0;
            if in_check && !royal {
                continue;
            }
            let own = self.pieces(t, us);
            let own_zone = v.pieces[t as usize]
                .promotion
                .as_ref()
                .map_or(crate::core::geometry::Bitboard::EMPTY, |pr| {
                    pr.zone[us.idx()].narrow()
                });
            for from in own {
                let partners = sw.reach[from.idx()].narrow() & partners_all & !own;
                let mut special = partners & own_zone;
                if sw.promotion_zones[us.idx()].has(from) {
                    special = partners;
                }
                if !royal && count_plain {
                    counted += (partners & !special).count() as usize;
                } else if !royal {
                    // Neither piece can promote: one move per partner.
                    for to in partners & !special {
                        list.push(Move::new(from, to, MoveKind::Switch));
                    }
                }
                let rest = if royal { partners } else { special };
                for to in rest {
                    let start = list.len();
                    self.emit_switch(list, t, from, to);
                    if royal {
                        let moves = list.as_mut_slice();
                        let mut keep = start;
                        for i in start..moves.len() {
                            if self.leaves_royals_safe(moves[i]) {
                                moves[keep] = moves[i];
                                keep += 1;
                            }
                        }
                        list.truncate(keep);
                    }
                }
            }
        }
        counted
    }

    /// The promotions a piece of type `t` arriving on `sq` may or must make, and whether
    /// staying unpromoted is allowed.
    #[inline]
    pub(super) fn promo_options(&self, t: PieceType, sq: Square) -> (&[PieceType], bool) {
        match &self.v.pieces[t as usize].promotion {
            Some(pr) if pr.zone[self.side.idx()].has(sq) => {
                (&pr.to, !pr.mandatory[self.side.idx()].has(sq))
            }
            _ => (&[], true),
        }
    }

    /// One switch of the type-`t` piece on `from` with its partner on `to`, once per
    /// combination of the promotions the two arrivals allow (M1, M4).
    pub(super) fn emit_switch(&self, list: &mut MoveList, t: PieceType, from: Square, to: Square) {
        let base = Move::new(from, to, MoveKind::Switch);
        let partner = self.board[to.idx()].kind();
        let (pa, a_plain) = self.promo_options(t, to);
        let (pb, b_plain) = self.promo_options(partner, from);
        let a_opts = pa.iter().map(|&p| Some(p)).chain(a_plain.then_some(None));
        for a in a_opts {
            let with_a = a.map_or(base, |p| base.with_promotion(p));
            for b in pb.iter().map(|&p| Some(p)).chain(b_plain.then_some(None)) {
                list.push(b.map_or(with_a, |p| with_a.with_partner_promotion(p)));
            }
        }
    }
}
