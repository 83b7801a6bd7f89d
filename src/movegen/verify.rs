//! The `Verify` and `Lines` strategies: which pseudo-legal moves need a full attack test.

use crate::core::geometry::{Bitboard, Square, Word};
use crate::core::moves::{Move, MoveKind, MoveList, PieceType};
use crate::movement::attacks::through_second;
use crate::position::Position;

/// What decides which moves of the side to move need a legality test.
pub(super) struct Sensitivity<W: Word> {
    /// A royal piece is attacked now.
    checked: bool,
    /// Squares a non-royal piece may not leave untested (no line masks).
    leave: Bitboard<W>,
    /// Squares a non-royal piece may not enter untested (no line masks).
    enter: Bitboard<W>,
    /// Out of check with one royal piece: the squares of the lines through it that a
    /// move must touch to matter (see [`Position::line_segments`]).
    lines: Option<Bitboard<W>>,
    /// With `lines`: those lines whole.
    full_lines: Bitboard<W>,
}

impl<W: Word> Position<W> {
    /// Pseudo-legal moves, then each move that could expose a royal tested: along the
    /// lines through its squares where the variant has line masks, else in full.
    pub(super) fn gen_verified(&self, list: &mut MoveList, royals: Bitboard<W>) {
        let sens = self.sensitivity(royals);
        self.gen_pseudo(list, sens.checked);
        self.retain_safe(list, royals, &sens);
        self.gen_verified_rest(list, royals, sens.checked, false);
    }

    /// Drops and switches, which test their own legality; with `count_plain` the drops
    /// that need no test and the switches that are one move each are counted, not
    /// listed (returns how many).
    fn gen_verified_rest(
        &self,
        list: &mut MoveList,
        royals: Bitboard<W>,
        checked: bool,
        count_plain: bool,
    ) -> usize {
        let screens = !self.v.attackers[self.side.flip().idx()].hops.is_empty();
        let verify = royals.any() && (checked || screens);
        self.gen_drops(list, Bitboard::FULL, verify, count_plain)
            + self.switches(list, checked, count_plain)
    }

    /// What decides which moves need a test (see [`Sensitivity`]).
    fn sensitivity(&self, royals: Bitboard<W>) -> Sensitivity<W> {
        let (checked, leave, enter) = if royals.any() {
            self.king_sensitivity(royals)
        } else {
            (false, Bitboard::EMPTY, Bitboard::EMPTY)
        };
        // Out of check, an ordinary move of a non-royal piece can only expose the
        // royal along the rays through its two squares: no leap attack appears, and
        // every ride, hop or facing runs along a ray.
        let (lines, full_lines) = match &self.v.lines {
            Some(l) if royals.count() == 1 && !checked => {
                let full = l[royals.lsb().idx()].narrow();
                (Some(full & self.line_segments(royals.lsb())), full)
            }
            _ => (None, Bitboard::EMPTY),
        };
        Sensitivity {
            checked,
            leave,
            enter,
            lines,
            full_lines,
        }
    }

    /// The squares, on each ray an enemy ride, hop or facing could reach `ksq` along,
    /// from `ksq` out to the second piece standing on it. Every such attack is decided
    /// by the first two pieces on its ray (a rider is the first, a hopper the second
    /// behind its screen), and a move that neither leaves nor enters one of these
    /// squares leaves the first two pieces of every ray where they were.
    fn line_segments(&self, ksq: Square) -> Bitboard<W> {
        let v = &*self.v;
        let map = &v.attackers[self.side.flip().idx()];
        let occ = self.occupied();
        let theirs = self.by_color[self.side.flip().idx()];
        let riders = self.typed(map.ray_types | map.facing_types) & theirs;
        let hoppers = self.typed(map.hop_types) & theirs;
        let i = ksq.idx();
        let mut seg = Bitboard::EMPTY;
        // A line with no enemy piece that could attack along it within its reach carries
        // no attack whatever moves, so it has no segment (most lines, most of the time).
        let w = map.seg_ascending.len();
        let split = map.rays.len() + map.facing.len();
        let row = &map.seg_rows[i * w..(i + 1) * w];
        for (j, (&[reach, line], &ascending)) in row.iter().zip(&map.seg_ascending).enumerate() {
            let attackers = if j < split { riders } else { hoppers };
            if (reach.narrow() & attackers).any() {
                seg |= through_second(line.narrow(), ascending, occ);
            }
        }
        seg
    }

    /// Whether the ordinary move of a non-royal piece from `from` to `to` (no capture en
    /// passant, no stack) leaves the royal pieces safe, out of check.
    #[inline]
    fn plain_move_safe(
        &self,
        from: Square,
        to: Square,
        royals: Bitboard<W>,
        sens: &Sensitivity<W>,
    ) -> bool {
        match sens.lines {
            Some(lines) => {
                let touched = from.bb() | to.bb();
                (lines & touched).is_empty() || {
                    let them = self.side.flip();
                    !self.attacked_along(
                        royals.lsb(),
                        (self.occupied() & !from.bb()) | to.bb(),
                        self.by_color[them.idx()] & !to.bb(),
                        them,
                        touched,
                    )
                }
            }
            None => {
                (!sens.leave.has(from) && !sens.enter.has(to))
                    || self.leaves_royals_safe(Move::new(from, to, MoveKind::Normal))
            }
        }
    }

    /// Keeps the moves of `list` that leave the royal pieces safe.
    fn retain_safe(&self, list: &mut MoveList, royals: Bitboard<W>, sens: &Sensitivity<W>) {
        if royals.is_empty() {
            return;
        }
        let ksq = royals.lsb();
        let moves = list.as_mut_slice();
        let mut keep = 0;
        for i in 0..moves.len() {
            let m = moves[i];
            let safe = match sens.lines {
                Some(_) if m.kind() == MoveKind::Normal && m.from() != ksq => {
                    self.plain_move_safe(m.from(), m.to(), royals, sens)
                }
                // Without line masks (bent riders, lame leaps), a move that neither
                // leaves a square the king's safety hangs on nor enters one cannot
                // expose it.
                _ => {
                    let quiet_for_king = !sens.checked
                        && matches!(m.kind(), MoveKind::Normal | MoveKind::DoubleStep)
                        && !royals.has(m.from())
                        && !sens.leave.has(m.from())
                        && !sens.enter.has(m.to());
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

    /// The number of legal moves by the same tests as [`Position::gen_verified`], without
    /// listing the ordinary moves of non-royal pieces (perft's leaves): a destination
    /// that no test concerns counts by popcount, the others are tested one by one, and
    /// promotions, royal moves, stacks, castling, drops and switches are listed.
    #[inline(never)]
    pub(super) fn count_verified(&self, royals: Bitboard<W>) -> usize {
        let v = &*self.v;
        let sens = self.sensitivity(royals);
        let mut list = MoveList::new();
        if royals.is_empty() || sens.checked {
            self.gen_verified(&mut list, royals);
            return list.len();
        }
        let us = self.side;
        let occ = self.occupied();
        let theirs = self.by_color[us.flip().idx()];
        let stacked = v.stacking.as_ref().map_or(0, |st| st.stackable);
        let (from_sens, to_sens) = match sens.lines {
            Some(l) => (l, l),
            None => (sens.leave, sens.enter),
        };
        let mut counted = 0u32;
        let mut n = 0usize;
        let (mut known, mut safe) = (Bitboard::EMPTY, Bitboard::EMPTY);
        for t in 0..v.pieces.len() {
            let bb = self.pieces(t as PieceType, us);
            if bb.is_empty() || (v.royal_mask | stacked) >> t & 1 != 0 {
                continue;
            }
            counted |= 1 << t;
            let pa = &v.attacks[us.idx()][t];
            // Off the promotion zone every destination is exactly one move.
            let zone = super::promotion_zone(v, t, us.idx());
            // A leaper's pieces that no test concerns (off the sensitive squares, unable
            // to land on one or in the promotion zone) are counted together, one shift
            // per leap (mostly pawns); two or fewer are cheaper one by one.
            let mut each = bb;
            if bb.count() > 2 {
                let alone = bb & (from_sens | pa.set_sources(zone | to_sens));
                if let Some(c) = pa.count_set(bb & !alone, occ, theirs, Bitboard::FULL) {
                    n += c as usize;
                    each = alone;
                }
            }
            for from in each {
                let tg = pa.targets(&v.rays, from, occ);
                let dest = tg.quiet | (tg.capture & theirs);
                if (dest & zone).any() {
                    self.emit(&mut list, t as PieceType, from, dest & zone);
                }
                let plain = dest & !zone;
                if from_sens.has(from) && sens.lines.is_none() {
                    for to in plain {
                        n += self.plain_move_safe(from, to, royals, &sens) as usize;
                    }
                    continue;
                }
                if from_sens.has(from) {
                    // Leaving a line changes only the lines through `from`, arriving only
                    // those through `to`: where no line holds both, the move is safe when
                    // the departure is (one test for the piece) and the arrival is (one
                    // test per square, shared by every piece). Off the lines whole the
                    // arrival changes nothing; off their near segments neither does it
                    // (it lands behind the second piece).
                    let ksq = royals.lsb();
                    let depart = self.departure_safe(ksq, from);
                    if depart {
                        n += (plain & !sens.full_lines).count() as usize;
                    }
                    for to in plain & sens.full_lines {
                        let ok = if self.share_line(ksq, from, to) {
                            self.plain_move_safe(from, to, royals, &sens)
                        } else {
                            depart
                                && (!to_sens.has(to)
                                    || self.arrival_safe_cached(ksq, to, &mut known, &mut safe))
                        };
                        n += ok as usize;
                    }
                    continue;
                }
                n += (plain & !to_sens).count() as usize;
                if sens.lines.is_none() {
                    for to in plain & to_sens {
                        n += self.plain_move_safe(from, to, royals, &sens) as usize;
                    }
                    continue;
                }
                // From off every line through the royal piece, only the arrival changes
                // those lines: whether it exposes the royal depends on `to` alone, so
                // each square is tested once for all the pieces that reach it.
                for to in plain & to_sens & !known {
                    self.arrival_safe_cached(royals.lsb(), to, &mut known, &mut safe);
                }
                n += (plain & to_sens & safe).count() as usize;
            }
        }
        // The promotions listed above and every other kind of move are tested as a list.
        self.gen_pseudo_except(&mut list, false, counted);
        self.retain_safe(&mut list, royals, &sens);
        n += self.gen_verified_rest(&mut list, royals, false, true);
        n + list.len()
    }

    /// Out of check, whether a piece of the side to move leaving `from` (for a square on
    /// no line through it) keeps the royal on `ksq` safe.
    fn departure_safe(&self, ksq: Square, from: Square) -> bool {
        let them = self.side.flip();
        let occ = self.occupied() & !from.bb();
        !self.attacked_along(ksq, occ, self.by_color[them.idx()], them, from.bb())
    }

    /// Out of check, whether a piece of the side to move arriving on `to` (from a square
    /// on no line through it) keeps the royal on `ksq` safe; remembered per square in
    /// `safe` once `known`.
    fn arrival_safe_cached(
        &self,
        ksq: Square,
        to: Square,
        known: &mut Bitboard<W>,
        safe: &mut Bitboard<W>,
    ) -> bool {
        if !known.has(to) {
            known.set(to);
            let them = self.side.flip();
            let occ = self.occupied() | to.bb();
            let theirs = self.by_color[them.idx()] & !to.bb();
            if !self.attacked_along(ksq, occ, theirs, them, to.bb()) {
                safe.set(to);
            }
        }
        safe.has(to)
    }

    /// Whether some enemy ride, hop or facing toward `ksq` runs through both `a` and `b`
    /// (true when the variant keeps no such table).
    fn share_line(&self, ksq: Square, a: Square, b: Square) -> bool {
        let v = &*self.v;
        let along = &v.attackers[self.side.flip().idx()].along;
        if along.is_empty() {
            return true;
        }
        let n = v.board.squares();
        along[ksq.idx() * n + a.idx()] & along[ksq.idx() * n + b.idx()] != 0
    }

    /// Whether a royal piece is attacked now, the squares a non-royal piece may not leave
    /// without a test, and the squares it may not enter without one. A move that does
    /// neither cannot expose a royal piece that is not already attacked.
    ///
    /// Without hoppers an arrival can only block, and a departure matters only for a
    /// piece of ours that is the sole blocker between a royal piece and an enemy rider
    /// (a pin), or whose square would open a bent rider's path or a lame leap's via
    /// square. Hopper screens make any square on a line matter both ways.
    pub(super) fn king_sensitivity(&self, royals: Bitboard<W>) -> (bool, Bitboard<W>, Bitboard<W>) {
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
        let first = |ray: &crate::movement::attacks::Ray, bb: Bitboard<W>| {
            if ray.ascending {
                bb.lsb()
            } else {
                bb.msb()
            }
        };
        for k in royals {
            check |= self.is_attacked(k, occ, theirs, them);
            if let (true, Some(lines)) = (hoppers, &v.lines) {
                // The union of the masks below (and of the other side's): one lookup.
                leave |= lines[k.idx()].narrow();
            } else if hoppers {
                for g in &map.rays {
                    leave |= v.rays.get(g.ray).at(k);
                }
                for g in &map.hops {
                    leave |= v.rays.get(g.full).at(k);
                }
                for g in &map.facing {
                    leave |= v.rays.get(g.ray).at(k);
                }
                for g in &map.bents {
                    leave |= v.rays.get(g.ray).at(k);
                }
            } else {
                for g in &map.rays {
                    let ray = v.rays.get(g.ray);
                    let blockers = ray.at(k) & occ;
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
                for g in self.bents_near(map, k, theirs) {
                    if (g.origins[k.idx()].narrow() & theirs & self.by_type[g.ptype as usize])
                        .is_empty()
                    {
                        continue;
                    }
                    let ray = v.rays.get(g.ray);
                    let blockers = ray.at(k) & occ;
                    if blockers.is_empty() {
                        continue;
                    }
                    let b1 = first(ray, blockers);
                    if !ours.has(b1) || leave.has(b1) {
                        continue;
                    }
                    // With b1 gone, b1 and the empty squares behind it could be the
                    // rider's first-step square.
                    let mids = (b1.bb() | (ray.attacks(b1, occ) & !occ)) & ray.at(k);
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
