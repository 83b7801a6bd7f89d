//! The `Verify` and `Lines` strategies: which pseudo-legal moves need a full attack test.

use crate::core::geometry::Bitboard;
use crate::core::moves::{MoveKind, MoveList};
use crate::position::Position;

impl Position {
    /// Pseudo-legal moves, then each move that could expose a royal tested: along the
    /// lines through its squares where the variant has line masks, else in full.
    pub(super) fn gen_verified(&self, list: &mut MoveList, royals: Bitboard) {
        let v = &*self.v;
        let us = self.side;
        let (checked, leave, enter) = if royals.any() {
            self.king_sensitivity(royals)
        } else {
            (false, Bitboard::EMPTY, Bitboard::EMPTY)
        };
        self.gen_pseudo(list, checked);
        if royals.any() {
            // Out of check, an ordinary move of a non-royal piece can only expose
            // the royal along the rays through its two squares: no leap attack
            // appears, and every ride, hop or facing runs along a ray.
            let ksq = royals.lsb();
            let lines = match &v.lines {
                Some(l) if royals.count() == 1 && !checked => Some(l[ksq.idx()]),
                _ => None,
            };
            let occ = self.occupied();
            let theirs = self.by_color[us.flip().idx()];
            let moves = list.as_mut_slice();
            let mut keep = 0;
            for i in 0..moves.len() {
                let m = moves[i];
                let safe = match lines {
                    Some(lines) if m.kind() == MoveKind::Normal && m.from() != ksq => {
                        let touched = m.from().bb() | m.to().bb();
                        (lines & touched).is_empty()
                            || !self.attacked_along(
                                ksq,
                                (occ & !m.from().bb()) | m.to().bb(),
                                theirs & !m.to().bb(),
                                us.flip(),
                                touched,
                            )
                    }
                    // Without line masks (bent riders, lame leaps), a move that
                    // neither leaves a square the king's safety hangs on nor enters
                    // one cannot expose it.
                    _ => {
                        let quiet_for_king = !checked
                            && matches!(m.kind(), MoveKind::Normal | MoveKind::DoubleStep)
                            && !royals.has(m.from())
                            && !leave.has(m.from())
                            && !enter.has(m.to());
                        quiet_for_king || self.leaves_royals_safe(m)
                    }
                };
                if safe {
                    moves[keep] = m;
                    keep += 1;
                }
            }
            list.truncate(keep);
        }
        let screens = !v.attackers[us.flip().idx()].hops.is_empty();
        self.gen_drops(list, Bitboard(!0), royals.any() && (checked || screens));
        self.gen_switches(list, checked);
    }

    /// Whether a royal piece is attacked now, the squares a non-royal piece may not leave
    /// without a test, and the squares it may not enter without one. A move that does
    /// neither cannot expose a royal piece that is not already attacked.
    ///
    /// Without hoppers an arrival can only block, and a departure matters only for a
    /// piece of ours that is the sole blocker between a royal piece and an enemy rider
    /// (a pin), or whose square would open a bent rider's path or a lame leap's via
    /// square. Hopper screens make any square on a line matter both ways.
    pub(super) fn king_sensitivity(&self, royals: Bitboard) -> (bool, Bitboard, Bitboard) {
        let v = &*self.v;
        let them = self.side.flip();
        let map = &v.attackers[them.idx()];
        let occ = self.occupied();
        let theirs = self.by_color[them.idx()];
        let ours = self.by_color[self.side.idx()];
        let mut check = false;
        let mut leave = Bitboard::EMPTY;
        // Facing lines behave like hopper lines here: any move along them may matter.
        let hoppers = !map.hops.is_empty() || !map.facing.is_empty();
        let first = |ray: &crate::movement::attacks::Ray, bb: Bitboard| {
            if ray.ascending {
                bb.lsb()
            } else {
                bb.msb()
            }
        };
        for k in royals {
            check |= self.is_attacked(k, occ, theirs, them);
            if hoppers {
                for g in &map.rays {
                    leave |= v.rays.get(g.ray).mask[k.idx()];
                }
                for g in &map.hops {
                    leave |= v.rays.get(g.full).mask[k.idx()];
                }
                for g in &map.facing {
                    leave |= v.rays.get(g.ray).mask[k.idx()];
                }
                for g in &map.bents {
                    leave |= v.rays.get(g.ray).mask[k.idx()];
                }
            } else {
                for g in &map.rays {
                    let ray = v.rays.get(g.ray);
                    let blockers = ray.mask[k.idx()] & occ;
                    if blockers.is_empty() {
                        continue;
                    }
                    let b1 = first(ray, blockers);
                    let rest = blockers ^ b1.bb();
                    if !ours.has(b1) || rest.is_empty() {
                        continue;
                    }
                    let b2 = first(ray, rest);
                    if theirs.has(b2)
                        && g.types >> self.board[b2.idx()].kind() & 1 != 0
                        && g.from.has(b2)
                    {
                        leave.set(b1);
                    }
                }
                for g in &map.bents {
                    let ray = v.rays.get(g.ray);
                    let blockers = ray.mask[k.idx()] & occ;
                    if blockers.is_empty() {
                        continue;
                    }
                    let b1 = first(ray, blockers);
                    if !ours.has(b1) || leave.has(b1) {
                        continue;
                    }
                    // With b1 gone, b1 and the empty squares behind it could be the
                    // rider's first-step square.
                    let mids = (b1.bb() | (ray.attacks(b1, occ) & !occ)) & ray.mask[k.idx()];
                    let opens = mids.iter().any(|m| {
                        g.origin[m.idx()]
                            .is_some_and(|o| theirs.has(o) && self.board[o.idx()].kind() == g.ptype)
                    });
                    if opens {
                        leave.set(b1);
                    }
                }
            }
            for g in &map.lames {
                if let Some((_, via)) = g.from[k.idx()] {
                    leave.set(via);
                }
            }
        }
        let enter = if hoppers { leave } else { Bitboard::EMPTY };
        (check, leave, enter)
    }
}
