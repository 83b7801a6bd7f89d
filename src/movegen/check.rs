//! Attack tests: who attacks a square on a given occupancy (with facing royals as
//! attackers, the legality view), and whether a side is in check.

use crate::core::geometry::{Bitboard, Square, Word};
use crate::core::moves::{Color, Move, MoveKind};
use crate::movement::attacks::{AttackerMap, BentGroup, HopGroup, RayGroup};
use crate::position::Position;

impl<W: Word> Position<W> {
    /// The pieces in `them` (of colour `by`) that attack `sq` on occupancy `occ`.
    ///
    /// Where the variant forbids royals to face each other, an enemy royal that would
    /// face a royal on `sq` counts as an attacker: this is the legality view (a move into
    /// facing is as illegal as a move into check), not a list of possible captures.
    /// `occ` and `them` may describe a board after a hypothetical move, as long as every
    /// square of `them` still holds the piece the mailbox says.
    pub fn attackers_to(
        &self,
        sq: Square,
        occ: Bitboard<W>,
        them: Bitboard<W>,
        by: Color,
    ) -> Bitboard<W> {
        self.scan_attackers::<false>(sq, occ, them, by)
    }

    /// The pieces in `them` (of colour `by`) that attack `sq` by a leap: the
    /// attackers of a variant whose other attacks all run along rays, but for those.
    #[inline(always)]
    pub(super) fn leap_attackers(&self, sq: Square, them: Bitboard<W>, by: Color) -> Bitboard<W> {
        let v = &*self.v;
        let map = &v.attackers[by.idx()];
        let n = map.leap_types.len();
        let row = &map.leap_rev[sq.idx() * n..(sq.idx() + 1) * n];
        let mut att = Bitboard::EMPTY;
        for (&t, &from) in map.leap_types.iter().zip(row) {
            att |= from.narrow() & self.by_type[t as usize];
        }
        att & them
    }

    /// True when `by`'s pieces in `them` attack `sq` on occupancy `occ` (the view of
    /// [`Position::attackers_to`]); stops at the first attacker found.
    #[inline]
    pub fn is_attacked(&self, sq: Square, occ: Bitboard<W>, them: Bitboard<W>, by: Color) -> bool {
        self.scan_attackers::<true>(sq, occ, them, by).any()
    }

    /// The attackers of `sq`; with `FIRST`, only until one is found (legality tests ask
    /// whether, not who, and the cheap leaps are looked at first).
    #[inline(always)]
    fn scan_attackers<const FIRST: bool>(
        &self,
        sq: Square,
        occ: Bitboard<W>,
        them: Bitboard<W>,
        by: Color,
    ) -> Bitboard<W> {
        let v = &*self.v;
        let map = &v.attackers[by.idx()];
        // Types confined to a region cannot capture outside it.
        let reach = map.reach[sq.idx()];
        let mut att = self.leap_attackers(sq, them, by);
        if FIRST && att.any() {
            return att;
        }
        // Most rays from a square meet no enemy rider at all: those are not followed.
        let riders = self.typed(map.ray_types) & them;
        let w = map.seg_ascending.len();
        if riders.any() && w > 0 {
            // The rays through `sq` side by side (`AttackerMap::index_rays`): a few cache
            // lines for all of them, where each ray's own table is another line.
            let row = &map.seg_rows[sq.idx() * w..][..map.rays.len()];
            for ((g, &[ray, _]), &up) in map.rays.iter().zip(row).zip(&map.seg_ascending) {
                let ray = ray.narrow::<W>();
                let hit = ray & occ;
                if (ray & riders).is_empty() || hit.is_empty() {
                    continue;
                }
                let b = if up { hit.lsb() } else { hit.msb() };
                if them.has(b)
                    && (g.types & reach) >> self.board[b.idx()].kind() & 1 != 0
                    && g.from.has(b)
                {
                    att.set(b);
                    if FIRST {
                        return att;
                    }
                }
            }
        } else if riders.any() {
            for g in &map.rays {
                if (v.rays.get(g.ray).at(sq) & riders).is_empty() {
                    continue;
                }
                if let Some(b) = self.ray_attacker(g, sq, occ, them, reach) {
                    att.set(b);
                    if FIRST {
                        return att;
                    }
                }
            }
        }
        // Facing is no capture: regions do not limit it.
        let facing = if map.facing.is_empty() {
            Bitboard::EMPTY
        } else {
            self.typed(map.facing_types) & them
        };
        for g in &map.facing {
            let ray = v.rays.get(g.ray);
            if (ray.at(sq) & facing).is_empty() {
                continue;
            }
            if let Some(b) = ray.first_blocker(sq, occ) {
                if them.has(b) && g.types >> self.board[b.idx()].kind() & 1 != 0 {
                    att.set(b);
                }
            }
        }
        let hoppers = self.typed(map.hop_types) & them;
        if hoppers.any() {
            for g in &map.hops {
                if (v.rays.get(g.full).at(sq) & hoppers).is_empty() {
                    continue;
                }
                if let Some(h) = self.hop_attacker(g, sq, occ, them, reach) {
                    att.set(h);
                }
            }
        }
        for g in self.bents_near(map, sq, them) {
            if reach >> g.ptype & 1 == 0
                || (g.origins[sq.idx()].narrow() & them & self.by_type[g.ptype as usize]).is_empty()
            {
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

    /// The piece of `them` that the ride group `g` brings onto `sq`: the first one on
    /// its ray, of a type of the group that may capture there (`reach`).
    #[inline(always)]
    fn ray_attacker(
        &self,
        g: &RayGroup,
        sq: Square,
        occ: Bitboard<W>,
        them: Bitboard<W>,
        reach: u32,
    ) -> Option<Square> {
        let b = self.v.rays.get(g.ray).first_blocker(sq, occ)?;
        (them.has(b) && (g.types & reach) >> self.board[b.idx()].kind() & 1 != 0 && g.from.has(b))
            .then_some(b)
    }

    /// The hopper of `them` that the hop group `g` brings onto `sq`: the piece just
    /// beyond the first screen, within the hop's range, of a type of the group, on a
    /// square it may hop from; for a grasshopper group the screen must stand next to `sq`.
    #[inline(always)]
    fn hop_attacker(
        &self,
        g: &HopGroup,
        sq: Square,
        occ: Bitboard<W>,
        them: Bitboard<W>,
        reach: u32,
    ) -> Option<Square> {
        let full = self.v.rays.get(g.full);
        let screen = full.first_blocker(sq, occ)?;
        if g.grasshopper && full.next::<W>(sq) != Some(screen) {
            return None;
        }
        let h = full.first_blocker(screen, occ)?;
        (them.has(h)
            && self.v.rays.get(g.ray).at::<W>(sq).has(h)
            && g.from.has(h)
            && (g.types & reach) >> self.board[h.idx()].kind() & 1 != 0)
            .then_some(h)
    }

    /// The bent-rider groups of `map` worth walking toward `sq`: none where no bent
    /// rider of `them` stands anywhere one could attack `sq` from.
    #[inline(always)]
    pub(super) fn bents_near<'a>(
        &self,
        map: &'a AttackerMap,
        sq: Square,
        them: Bitboard<W>,
    ) -> &'a [BentGroup] {
        if map.bents.is_empty()
            || (self.typed(map.bent_types) & them & map.bent_origins[sq.idx()].narrow()).is_empty()
        {
            &[]
        } else {
            &map.bents
        }
    }

    /// The squares of every piece, of either colour, of the types in `types` (bit mask).
    #[inline(always)]
    pub(super) fn typed(&self, mut types: u32) -> Bitboard<W> {
        let mut bb = Bitboard::EMPTY;
        while types != 0 {
            bb |= self.by_type[types.trailing_zeros() as usize];
            types &= types - 1;
        }
        bb
    }

    /// True when a ride, hop or facing of `by` reaches `sq` along a ray that passes
    /// through `touched` (the rest of the board is known not to attack `sq`).
    pub(super) fn attacked_along(
        &self,
        sq: Square,
        occ: Bitboard<W>,
        them: Bitboard<W>,
        by: Color,
        touched: Bitboard<W>,
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
        // A ray that holds no enemy piece of the right kind cannot attack along it.
        let riders = self.typed(map.ray_types) & them;
        let hoppers = self.typed(map.hop_types) & them;
        while groups != 0 {
            let i = groups.trailing_zeros() as usize;
            groups &= groups - 1;
            if i < nr + nf {
                let (g, reach) = if i < nr {
                    (&map.rays[i], reach)
                } else {
                    (&map.facing[i - nr], !0)
                };
                let mask = v.rays.get(g.ray).at(sq);
                if (mask & touched).is_empty() || (i < nr && (mask & riders).is_empty()) {
                    continue;
                }
                if self.ray_attacker(g, sq, occ, them, reach).is_some() {
                    return true;
                }
            } else {
                let g = &map.hops[i - nr - nf];
                let mask = v.rays.get(g.full).at(sq);
                if (mask & touched).is_empty() || (mask & hoppers).is_empty() {
                    continue;
                }
                if self.hop_attacker(g, sq, occ, them, reach).is_some() {
                    return true;
                }
            }
        }
        false
    }

    /// The royal pieces in `them` that would face a royal standing on `sq`
    /// (same line, nothing between) where the variant forbids facing.
    pub fn facing_royals(&self, sq: Square, occ: Bitboard<W>, them: Bitboard<W>) -> Bitboard<W> {
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

    /// The same as [`Position::in_check`] right after a move, found from that move alone
    /// where it can be: the search asks after every move, and a full attack test looks
    /// at every line to the royal where the move touched at most two. Before the move
    /// the side now to move was not attacked, so an ordinary move or drop can only check
    /// with the piece that arrived (its leaps; its rides run through its square) or
    /// along a ray through a square it left or entered.
    /// Moves that change more squares (castling, en passant, kills, stacks, switches),
    /// and variants whose attacks do not all run along rays, take the full test.
    pub fn gave_check(&self) -> bool {
        let Some(last) = self.history.last() else {
            return self.in_check();
        };
        let m = last.mv;
        let touched = match m.kind() {
            MoveKind::Normal | MoveKind::DoubleStep if !m.has_kills() => {
                m.from().bb() | m.to().bb()
            }
            MoveKind::Drop => m.to().bb(),
            _ => return self.in_check(),
        };
        if self.v.lines.is_none() || self.v.occupy.is_some() || m == Move::NULL {
            return self.in_check();
        }
        let us = self.side;
        let by = us.flip();
        let to = m.to();
        let arrived = self.board[to.idx()].kind() as usize;
        let leaps = &self.v.attacks[by.idx()][arrived].leap_capture_rev;
        let occ = self.occupied();
        let them = self.by_color[by.idx()];
        self.royals(us)
            .iter()
            .any(|k| leaps[k.idx()].has(to) || self.attacked_along(k, occ, them, by, touched))
    }

    /// False only when the move `m`, not yet made, cannot give check: an ordinary move
    /// of a non-royal piece is judged exactly, as [`Position::gave_check`] would after it;
    /// everything else answers true. The search prunes most late moves near the leaves
    /// unless they check; this spares them the make and unmake that `gave_check` needs.
    #[inline]
    pub fn may_give_check(&self, m: Move) -> bool {
        let v = &*self.v;
        if !matches!(m.kind(), MoveKind::Normal | MoveKind::DoubleStep)
            || m.has_kills()
            || m.promotion().is_some()
            || v.lines.is_none()
            || v.occupy.is_some()
            || v.stacking.is_some()
        {
            return true;
        }
        let us = self.side;
        let map = &v.attackers[us.idx()];
        if map.along.is_empty() {
            return true;
        }
        let t = self.board[m.from().idx()].kind() as usize;
        if v.pieces[t].becomes.is_some() {
            return true;
        }
        let n = v.board.squares();
        let leaps = &v.attacks[us.idx()][t].leap_capture_rev;
        let (from, to) = (m.from().idx(), m.to().idx());
        let near = self.royals(us.flip()).iter().any(|k| {
            let k = k.idx();
            leaps[k].has(m.to()) || map.along[k * n + to] != 0 || map.along[k * n + from] != 0
        });
        // On a line, but does it check? Found on the board after the move without making
        // it: the piece's own attack from its new square, and the lines through the two
        // squares it touched (a rider uncovered, a hopper given or left a screen). A royal
        // that moves may check by facing, which this does not follow.
        if !near || v.royal_mask >> t & 1 != 0 {
            return near;
        }
        let occ = (self.occupied() & !m.from().bb()) | m.to().bb();
        // The mover is left out of the attackers: the board still shows it on `from`.
        let ours = self.by_color[us.idx()] & !m.from().bb();
        let own = v.attacks[us.idx()][t].targets(&v.rays, m.to(), occ).capture;
        let touched = m.from().bb() | m.to().bb();
        self.royals(us.flip())
            .iter()
            .any(|k| own.has(k) || self.attacked_along(k, occ, ours, us, touched))
    }
}
