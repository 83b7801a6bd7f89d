//! Attack tests: who attacks a square on a given occupancy (with facing royals as
//! attackers, the legality view), and whether a side is in check.

use crate::core::geometry::{Bitboard, Square};
use crate::core::moves::Color;
use crate::position::Position;

impl Position {
    /// The pieces in `them` (of colour `by`) that attack `sq` on occupancy `occ`.
    ///
    /// Where the variant forbids royals to face each other, an enemy royal that would
    /// face a royal on `sq` counts as an attacker: this is the legality view (a move into
    /// facing is as illegal as a move into check), not a list of possible captures.
    /// `occ` and `them` may describe a board after a hypothetical move, as long as every
    /// square of `them` still holds the piece the mailbox says.
    pub fn attackers_to(&self, sq: Square, occ: Bitboard, them: Bitboard, by: Color) -> Bitboard {
        let v = &*self.v;
        let map = &v.attackers[by.idx()];
        let tables = &v.attacks[by.idx()];
        // Types confined to a region cannot capture outside it.
        let reach = map.reach[sq.idx()];
        let mut att = Bitboard::EMPTY;
        for &t in &map.leap_types {
            att |= tables[t as usize].leap_capture_rev[sq.idx()] & self.by_type[t as usize];
        }
        att &= them;
        for g in &map.rays {
            if let Some(b) = v.rays.get(g.ray).first_blocker(sq, occ) {
                if them.has(b)
                    && (g.types & reach) >> self.board[b.idx()].kind() & 1 != 0
                    && g.from.has(b)
                {
                    att.set(b);
                }
            }
        }
        // Facing is no capture: regions do not limit it.
        for g in &map.facing {
            if let Some(b) = v.rays.get(g.ray).first_blocker(sq, occ) {
                if them.has(b) && g.types >> self.board[b.idx()].kind() & 1 != 0 {
                    att.set(b);
                }
            }
        }
        for g in &map.hops {
            let full = v.rays.get(g.full);
            if let Some(screen) = full.first_blocker(sq, occ) {
                if let Some(h) = full.first_blocker(screen, occ) {
                    if them.has(h)
                        && v.rays.get(g.ray).mask[sq.idx()].has(h)
                        && (g.types & reach) >> self.board[h.idx()].kind() & 1 != 0
                    {
                        att.set(h);
                    }
                }
            }
        }
        for g in &map.bents {
            if reach >> g.ptype & 1 == 0 {
                continue;
            }
            let mids = v.rays.get(g.ray).attacks(sq, occ) & !occ;
            for m in mids {
                if let Some(o) = g.origin[m.idx()] {
                    if them.has(o) && self.board[o.idx()].kind() == g.ptype {
                        att.set(o);
                    }
                }
            }
        }
        for g in &map.lames {
            if reach >> g.ptype & 1 == 0 {
                continue;
            }
            if let Some((f, via)) = g.from[sq.idx()] {
                if them.has(f) && self.board[f.idx()].kind() == g.ptype && !occ.has(via) {
                    att.set(f);
                }
            }
        }
        att
    }

    /// True when a ride, hop or facing of `by` reaches `sq` along a ray that passes
    /// through `touched` (the rest of the board is known not to attack `sq`).
    pub(super) fn attacked_along(
        &self,
        sq: Square,
        occ: Bitboard,
        them: Bitboard,
        by: Color,
        touched: Bitboard,
    ) -> bool {
        let v = &*self.v;
        let map = &v.attackers[by.idx()];
        let reach = map.reach[sq.idx()];
        let (nr, nf) = (map.rays.len(), map.facing.len());
        let mut groups = if map.along.is_empty() {
            u64::MAX >> (64 - (nr + nf + map.hops.len()).clamp(1, 64))
        } else {
            let n = v.board.squares();
            touched
                .iter()
                .fold(0, |g, s| g | map.along[sq.idx() * n + s.idx()])
        };
        while groups != 0 {
            let i = groups.trailing_zeros() as usize;
            groups &= groups - 1;
            if i < nr + nf {
                let (g, reach) = if i < nr {
                    (&map.rays[i], reach)
                } else {
                    (&map.facing[i - nr], !0)
                };
                let ray = v.rays.get(g.ray);
                if (ray.mask[sq.idx()] & touched).is_empty() {
                    continue;
                }
                if let Some(b) = ray.first_blocker(sq, occ) {
                    if them.has(b)
                        && (g.types & reach) >> self.board[b.idx()].kind() & 1 != 0
                        && g.from.has(b)
                    {
                        return true;
                    }
                }
            } else {
                let g = &map.hops[i - nr - nf];
                let full = v.rays.get(g.full);
                if (full.mask[sq.idx()] & touched).is_empty() {
                    continue;
                }
                if let Some(screen) = full.first_blocker(sq, occ) {
                    if let Some(h) = full.first_blocker(screen, occ) {
                        if them.has(h)
                            && v.rays.get(g.ray).mask[sq.idx()].has(h)
                            && (g.types & reach) >> self.board[h.idx()].kind() & 1 != 0
                        {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// The royal pieces in `them` that would face a royal standing on `sq`
    /// (same line, nothing between) where the variant forbids facing.
    pub fn facing_royals(&self, sq: Square, occ: Bitboard, them: Bitboard) -> Bitboard {
        let v = &*self.v;
        let mut out = Bitboard::EMPTY;
        for g in &v.attackers[0].facing {
            if let Some(b) = v.rays.get(g.ray).first_blocker(sq, occ) {
                if them.has(b) && g.types >> self.board[b.idx()].kind() & 1 != 0 {
                    out.set(b);
                }
            }
        }
        out
    }

    /// True when `by`'s pieces in `them` attack `sq` on occupancy `occ`.
    #[inline]
    pub fn is_attacked(&self, sq: Square, occ: Bitboard, them: Bitboard, by: Color) -> bool {
        self.attackers_to(sq, occ, them, by).any()
    }

    /// True when a royal piece of `c` is attacked.
    pub fn is_attacked_royal(&self, c: Color) -> bool {
        if let Some(x) = self.v.occupy.as_deref() {
            return self.royal_occupy_attacked(x, c);
        }
        let occ = self.occupied();
        let them = self.by_color[c.flip().idx()];
        self.royals(c)
            .iter()
            .any(|k| self.is_attacked(k, occ, them, c.flip()))
    }

    /// True when the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.is_attacked_royal(self.side)
    }
}
