//! Legal move generation by mechanism.
//!
//! Two ways to legality, chosen per variant from its pieces (not its name):
//! - when every capture is a leap or a straight ride, checks and pins are read off the
//!   rays from the king, so ordinary moves need no test at all;
//! - otherwise (hoppers, whose screens make any move a possible discovered attack; bent
//!   riders; lame captures) each pseudo-legal move is tested by asking whether the king
//!   would be attacked on the board it leaves behind — still bitboards only, no make.

pub mod occupy;

use crate::core::geometry::{Bitboard, Square};
use crate::core::moves::{Color, Move, MoveKind, MoveList, Piece, PieceType};
use crate::position::Position;
use crate::rules::stacking::Stacking;

/// Pieces pinned to the king and the line each may still move along.
struct Pins {
    bb: Bitboard,
    sq: [Square; 32],
    line: [Bitboard; 32],
    n: usize,
}

impl Pins {
    #[inline(always)]
    fn line(&self, s: Square) -> Bitboard {
        let mut l = Bitboard(!0);
        for i in 0..self.n {
            if self.sq[i] == s {
                l &= self.line[i];
            }
        }
        l
    }
}

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
    fn attacked_along(
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
        if let Some(x) = self.v.ext.as_deref() {
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

    /// Every legal move of the side to move.
    pub fn legal_moves(&self, list: &mut MoveList) {
        let v = &*self.v;
        if let Some(x) = v.ext.as_deref() {
            self.legal_moves_ext(x, list);
            return;
        }
        list.clear();
        let us = self.side;
        let royals = self.royals(us);
        if v.ray_legality && royals.count() == 1 {
            self.gen_ray_legal(list, royals.lsb());
        } else {
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
    }

    /// Drops from the hand onto empty squares of `allowed` (near a listed piece when the
    /// variant says so); with `verify` each is tested for king safety.
    fn gen_drops(&self, list: &mut MoveList, allowed: Bitboard, verify: bool) {
        let v = &*self.v;
        let Some(d) = &v.drops else {
            return;
        };
        let us = self.side;
        let hand = &self.hands[us.idx()];
        if hand.iter().all(|&n| n == 0) {
            return;
        }
        let mut zone = if d.near_types == 0 {
            v.board.all
        } else {
            let mut z = Bitboard::EMPTY;
            let mut m = d.near_types;
            while m != 0 {
                let t = m.trailing_zeros();
                m &= m - 1;
                for s in self.pieces(t as PieceType, us) {
                    z |= d.near[s.idx()];
                }
            }
            z
        };
        zone &= !self.occupied() & allowed;
        if zone.is_empty() {
            return;
        }
        for (t, &n) in hand.iter().enumerate().take(v.pieces.len()) {
            if n == 0 {
                continue;
            }
            for to in zone {
                let mv = Move::drop(t as PieceType, to);
                if !verify || self.leaves_royals_safe(mv) {
                    list.push(mv);
                }
            }
        }
    }

    /// Positional switches. They leave every square as occupied as before, so a
    /// non-royal switcher's switch is legal exactly when its side is not in check.
    fn gen_switches(&self, list: &mut MoveList, in_check: bool) {
        let v = &*self.v;
        let Some(sw) = &v.switch else {
            return;
        };
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
                .map_or(Bitboard::EMPTY, |pr| pr.zone[us.idx()]);
            for from in own {
                let partners = sw.reach[from.idx()] & partners_all & !own;
                let mut special = partners & own_zone;
                if sw.promotion_zones[us.idx()].has(from) {
                    special = partners;
                }
                if !royal {
                    // Neither piece can promote: one move per partner.
                    for to in partners & !special {
                        list.push(Move::new(from, to, MoveKind::Swap));
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
    }

    /// The promotions a piece of type `t` arriving on `sq` may or must make, and whether
    /// staying unpromoted is allowed.
    #[inline]
    fn promo_options(&self, t: PieceType, sq: Square) -> (&[PieceType], bool) {
        match &self.v.pieces[t as usize].promotion {
            Some(pr) if pr.zone[self.side.idx()].has(sq) => {
                (&pr.to, !pr.mandatory[self.side.idx()].has(sq))
            }
            _ => (&[], true),
        }
    }

    /// One switch of the type-`t` piece on `from` with its partner on `to`, once per
    /// combination of the promotions the two arrivals allow (M1, M4).
    fn emit_switch(&self, list: &mut MoveList, t: PieceType, from: Square, to: Square) {
        let base = Move::new(from, to, MoveKind::Swap);
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

    /// Whether a royal piece is attacked now, the squares a non-royal piece may not leave
    /// without a test, and the squares it may not enter without one. A move that does
    /// neither cannot expose a royal piece that is not already attacked.
    ///
    /// Without hoppers an arrival can only block, and a departure matters only for a
    /// piece of ours that is the sole blocker between a royal piece and an enemy rider
    /// (a pin), or whose square would open a bent rider's path or a lame leap's via
    /// square. Hopper screens make any square on a line matter both ways.
    fn king_sensitivity(&self, royals: Bitboard) -> (bool, Bitboard, Bitboard) {
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

    /// Number of legal moves (perft's leaf count).
    pub fn count_legal(&self) -> usize {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        list.len()
    }

    /// Fast path: checks and pins from the rays around the single royal piece.
    fn gen_ray_legal(&self, list: &mut MoveList, ksq: Square) {
        let v = &*self.v;
        let us = self.side;
        let them = us.flip();
        let occ = self.occupied();
        let ours = self.by_color[us.idx()];
        let theirs = self.by_color[them.idx()];
        let checkers = self.attackers_to(ksq, occ, theirs, them);
        let mut pins = Pins {
            bb: Bitboard::EMPTY,
            sq: [Square(0); 32],
            line: [Bitboard::EMPTY; 32],
            n: 0,
        };
        let mut evasion = Bitboard(!0);
        let map = &v.attackers[them.idx()];
        let reach = map.reach[ksq.idx()];
        let limited = map.rays.iter().map(|g| (g, reach));
        for (g, reach) in limited.chain(map.facing.iter().map(|g| (g, !0u32))) {
            let ray = v.rays.get(g.ray);
            let blockers = ray.mask[ksq.idx()] & occ;
            if blockers.is_empty() {
                continue;
            }
            let b1 = if ray.ascending {
                blockers.lsb()
            } else {
                blockers.msb()
            };
            let rest = blockers ^ b1.bb();
            if ours.has(b1) && rest.any() {
                let b2 = if ray.ascending {
                    rest.lsb()
                } else {
                    rest.msb()
                };
                if theirs.has(b2)
                    && (g.types & reach) >> self.board[b2.idx()].kind() & 1 != 0
                    && g.from.has(b2)
                    && pins.n < 32
                {
                    pins.bb.set(b1);
                    pins.sq[pins.n] = b1;
                    pins.line[pins.n] = ray.attacks(ksq, occ ^ b1.bb());
                    pins.n += 1;
                }
            } else if checkers.has(b1) && !checkers.more_than_one() {
                // The check comes along this ray: blocking squares are on it.
                if (g.types & reach) >> self.board[b1.idx()].kind() & 1 != 0 && g.from.has(b1) {
                    evasion = ray.attacks(ksq, occ);
                }
            }
        }
        if checkers.any() {
            if checkers.more_than_one() {
                evasion = Bitboard::EMPTY;
            } else if evasion.0 == !0 {
                evasion = checkers;
            } else {
                // A rider that also leaps onto the king along its line (the ArchMage's
                // two- and three-square jumps) cannot be blocked, only captured.
                let c = checkers.lsb();
                let ct = self.board[c.idx()].kind() as usize;
                if v.attacks[them.idx()][ct].leap_capture_rev[ksq.idx()].has(c) {
                    evasion = checkers;
                }
            }
        }
        let royal_mask = v.royal_mask;
        let stacked = v.stacking.as_ref().map_or(0, |st| st.stackable);
        for t in 0..v.pieces.len() {
            let bb = self.pieces(t as PieceType, us);
            if bb.is_empty() || (royal_mask | stacked) >> t & 1 != 0 || evasion.is_empty() {
                continue;
            }
            let pa = &v.attacks[us.idx()][t];
            for from in bb {
                let tg = pa.targets(&v.rays, from, occ);
                let mut dest = (tg.quiet | (tg.capture & theirs)) & evasion;
                if pins.bb.has(from) {
                    dest &= pins.line(from);
                }
                self.emit(list, t as PieceType, from, dest);
            }
        }
        if let Some(st) = &v.stacking {
            if evasion.any() {
                self.gen_stacks(list, st, evasion, &pins);
            }
        }
        self.gen_en_passant(list, true);
        // Royal moves: the destination must not be attacked once the king has left.
        let occ_wo = occ ^ ksq.bb();
        let kt = self.board[ksq.idx()].kind();
        let tg = v.attacks[us.idx()][kt as usize].targets(&v.rays, ksq, occ);
        for to in tg.quiet | (tg.capture & theirs) {
            if !self.is_attacked(to, occ_wo, theirs & !to.bb(), them) {
                self.emit(list, kt, ksq, to.bb());
            }
        }
        if checkers.is_empty() {
            self.gen_castling(list, true);
            if self.castle_rooks.any() {
                self.gen_zone_castling(list, true);
            }
        }
        // A drop only adds a blocker: legal where it blocks the check, or anywhere
        // when there is none (ray-legal games have no hopper screens).
        self.gen_drops(list, evasion, false);
        self.gen_switches(list, checkers.any());
    }

    /// Pseudo-legal moves of every piece; castling (only when not `checked`) is only
    /// checked for empty and unattacked squares.
    fn gen_pseudo(&self, list: &mut MoveList, checked: bool) {
        let v = &*self.v;
        let us = self.side;
        let occ = self.occupied();
        let theirs = self.by_color[us.flip().idx()];
        let stacked = v.stacking.as_ref().map_or(0, |st| st.stackable);
        for t in 0..v.pieces.len() {
            let bb = self.pieces(t as PieceType, us);
            if bb.is_empty() || stacked >> t & 1 != 0 {
                continue;
            }
            let pa = &v.attacks[us.idx()][t];
            for from in bb {
                let tg = pa.targets(&v.rays, from, occ);
                self.emit(list, t as PieceType, from, tg.quiet | (tg.capture & theirs));
            }
        }
        if let Some(st) = &v.stacking {
            let no_pins = Pins {
                bb: Bitboard::EMPTY,
                sq: [Square(0); 32],
                line: [Bitboard::EMPTY; 32],
                n: 0,
            };
            self.gen_stacks(list, st, Bitboard(!0), &no_pins);
        }
        self.gen_en_passant(list, false);
        if !checked {
            self.gen_castling(list, false);
            if self.castle_rooks.any() {
                self.gen_zone_castling(list, false);
            }
        }
    }

    /// Adds the moves of a piece of type `t` from `from` to each square of `dest`,
    /// with promotion choices and double-step marking.
    #[inline]
    pub(crate) fn emit(&self, list: &mut MoveList, t: PieceType, from: Square, dest: Bitboard) {
        let v = &*self.v;
        let def = &v.pieces[t as usize];
        let us = self.side.idx();
        let promotes = def
            .promotion
            .as_ref()
            .is_some_and(|pr| (pr.zone[us] & dest).any());
        if !promotes && !def.pawn && def.becomes.is_none() {
            for to in dest {
                list.push(Move::new(from, to, MoveKind::Normal));
            }
            return;
        }
        for to in dest {
            let kind = if def.pawn
                && v.en_passant
                && self.board[to.idx()].is_none()
                && v.board.distance(from, to) >= 2
            {
                MoveKind::DoubleStep
            } else {
                MoveKind::Normal
            };
            let base = Move::new(from, to, kind);
            match &def.promotion {
                Some(pr) if pr.zone[us].has(to) => {
                    for (i, &p) in pr.to.iter().enumerate() {
                        if pr.choice_zone[i][us].has(to) && (!pr.pool || self.in_pool(self.side, p))
                        {
                            list.push(base.with_promotion(p));
                        }
                    }
                    if !pr.mandatory[us].has(to) {
                        list.push(base);
                    }
                }
                _ => match def.becomes {
                    Some(b) if b.region[us].has(to) => list.push(base.with_promotion(b.to)),
                    _ => list.push(base),
                },
            }
        }
    }

    /// True when `c` has lost a piece of type `t` that a pool promotion may bring back:
    /// fewer on the board than the start position holds.
    #[inline]
    pub fn in_pool(&self, c: Color, t: PieceType) -> bool {
        (self.pieces(t, c).count() as usize) < self.v.start_count[c.idx()][t as usize] as usize
    }

    /// Zone castling (history-based rights, see `ZoneCastling`): the king and a rook
    /// that hold rights, on one rank with nothing between, move towards each other to
    /// the rule's files. Not out of check (the caller tests it); the squares the king
    /// crosses must not be attacked (or facing) with the king still at home; with
    /// `verify` the landing square is tested on the final board here.
    fn gen_zone_castling(&self, list: &mut MoveList, verify: bool) {
        let v = &*self.v;
        let Some(zc) = v.zone_castling.as_ref() else {
            return;
        };
        let us = self.side;
        let rights = self.castle_rooks;
        if rights.is_empty() {
            return;
        }
        let bd = &v.board;
        let them = us.flip();
        let occ = self.occupied();
        let theirs = self.by_color[them.idx()];
        for k in self.royals(us) {
            if !zc.king_zone[us.idx()].has(k) {
                continue;
            }
            let rank = bd.rank_of(k);
            for side in &zc.sides {
                let r = rights & side.rook_zone[us.idx()] & bd.rank_mask(rank);
                if r.is_empty() {
                    continue;
                }
                let r = r.lsb();
                if (v.board_between(k, r) & occ).any() {
                    continue;
                }
                let (Some(kt), Some(rt)) =
                    (bd.square(side.king_to, rank), bd.square(side.rook_to, rank))
                else {
                    continue;
                };
                let others = occ & !k.bb() & !r.bb();
                if others.has(kt) || others.has(rt) {
                    continue;
                }
                if v.board_between(k, kt)
                    .iter()
                    .any(|s| self.is_attacked(s, occ, theirs, them))
                {
                    continue;
                }
                let mv = Move::new(k, kt, MoveKind::Castle);
                if !verify || self.leaves_royals_safe(mv) {
                    list.push(mv);
                }
            }
        }
    }

    /// Every move of the side to move's stackable pieces: plain moves and captures, then
    /// combines, splits and transforms, in one pass over them; the ordinary loop skips
    /// these types, so games without stacks pay nothing. `evasion` holds the squares
    /// that answer a check (all when there is none) and `pins` the pinned pieces' lines.
    ///
    /// A combine vacates its start square like any move, so a pin confines it to the pin
    /// line, and it cannot answer a check (its square was ours already, so it neither
    /// blocks nor captures). A split keeps its remainder on the start square: only a
    /// check limits it, which a split answers by landing in the way; a pin never does
    /// (Augsburg A8). A transform is a plain move and obeys both.
    fn gen_stacks(&self, list: &mut MoveList, st: &Stacking, evasion: Bitboard, pins: &Pins) {
        let v = &*self.v;
        let us = self.side;
        let occ = self.occupied();
        let ours = self.by_color[us.idx()];
        let theirs = self.by_color[us.flip().idx()];
        let mut types = st.stackable;
        while types != 0 {
            let t = types.trailing_zeros() as PieceType;
            types &= types - 1;
            let bb = self.pieces(t, us);
            if bb.is_empty() {
                continue;
            }
            let (joins, parts, twins) = (
                st.partners[t as usize],
                st.splits[t as usize],
                st.transforms(t),
            );
            let mut partners = Bitboard::EMPTY;
            let mut js = joins;
            while js != 0 {
                partners |= self.by_type[js.trailing_zeros() as usize];
                js &= js - 1;
            }
            partners &= ours;
            let pa = &v.attacks[us.idx()][t as usize];
            for from in bb {
                let tg = pa.targets(&v.rays, from, occ);
                let line = if pins.bb.has(from) {
                    pins.line(from)
                } else {
                    Bitboard(!0)
                };
                let quiet = tg.quiet & evasion;
                let dest = (quiet | (tg.capture & theirs & evasion)) & line;
                self.emit(list, t, from, dest);
                for to in tg.capture & partners & evasion & line {
                    let into = st.combine(t, self.board[to.idx()].kind());
                    push_each(list, Move::new(from, to, MoveKind::Combine), into);
                }
                if parts != 0 {
                    for to in quiet {
                        push_each(list, Move::new(from, to, MoveKind::Split), parts);
                    }
                }
                if twins != 0 {
                    for to in quiet & line {
                        push_each(list, Move::new(from, to, MoveKind::Normal), twins);
                    }
                }
            }
        }
    }

    /// En passant captures; with `verify` each is tested for king safety here.
    fn gen_en_passant(&self, list: &mut MoveList, verify: bool) {
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
                let hits = v.attacks[us.idx()][t].leap_capture[from.idx()] & self.ep;
                for to in hits {
                    let mv = Move::new(from, to, MoveKind::EnPassant);
                    if !verify || self.leaves_royals_safe(mv) {
                        list.push(mv);
                    }
                }
            }
        }
    }

    /// Castling moves; with `verify` the king's safety on arrival is tested here.
    fn gen_castling(&self, list: &mut MoveList, verify: bool) {
        let Some(rules) = self.v.castling.as_ref() else {
            return;
        };
        let us = self.side;
        let them = us.flip();
        let occ = self.occupied();
        let theirs = self.by_color[them.idx()];
        for side in 0..2 {
            let i = us.idx() * 2 + side;
            if !self.castle_ready(i) {
                continue;
            }
            let r = &rules[i];
            if (r.must_be_empty & occ).any() {
                continue;
            }
            let crossed = r.king_path & !r.king_from.bb();
            if crossed
                .iter()
                .any(|s| self.is_attacked(s, occ, theirs, them))
            {
                continue;
            }
            let mv = Move::new(r.king_from, r.king_to, MoveKind::Castle);
            if !verify || self.leaves_royals_safe(mv) {
                list.push(mv);
            }
        }
    }

    /// True when castling `i` (`color * 2 + side`) may be considered: its right is held,
    /// or, without rights, king and rook stand on their start squares.
    pub(crate) fn castle_ready(&self, i: usize) -> bool {
        if self.v.castling_rights {
            return self.castling & (1 << i) != 0;
        }
        let Some(r) = self.v.castling.as_ref().map(|rs| &rs[i]) else {
            return false;
        };
        let c = if i < 2 { Color::White } else { Color::Black };
        r.pieces.is_some_and(|(k, rk)| {
            self.board[r.king_from.idx()] == Piece::new(k, c)
                && self.board[r.rook_from.idx()] == Piece::new(rk, c)
        })
    }

    /// True when, after `m`, no royal piece of the mover is attacked (tested on the
    /// bitboards the move would leave, without making it).
    pub(crate) fn leaves_royals_safe(&self, m: Move) -> bool {
        let v = &*self.v;
        let us = self.side;
        let them = us.flip();
        let mut occ = self.occupied();
        let mut theirs = self.by_color[them.idx()];
        let mut royals = self.royals(us);
        let (from, to) = (m.from(), m.to());
        match m.kind() {
            MoveKind::Drop => occ.set(to),
            MoveKind::Swap => {
                if royals.has(from) {
                    royals.clear(from);
                    royals.set(to);
                }
            }
            // The remainder stays on `from`; only the landing square fills.
            MoveKind::Split => occ.set(to),
            MoveKind::Castle => {
                let Some((kf, kt, rf, rt)) = self.castle_squares(m, us, self.castle_rooks) else {
                    return false;
                };
                occ.clear(kf);
                occ.clear(rf);
                occ.set(kt);
                occ.set(rt);
                royals.clear(kf);
                royals.set(kt);
            }
            MoveKind::EnPassant => {
                occ.clear(from);
                occ.set(to);
                occ.clear(self.ep_victim);
                theirs.clear(self.ep_victim);
            }
            _ => {
                occ.clear(from);
                occ.set(to);
                theirs.clear(to);
                if royals.has(from) {
                    royals.clear(from);
                    if m.promotion().is_none_or(|p| v.royal_mask >> p & 1 != 0) {
                        royals.set(to);
                    }
                }
            }
        }
        royals
            .iter()
            .all(|k| !self.is_attacked(k, occ, theirs, them))
    }
}

/// Pushes `base` once per type in the mask `types`, that type in its promotion field.
#[inline]
fn push_each(list: &mut MoveList, base: Move, mut types: u32) {
    while types != 0 {
        list.push(base.with_promotion(types.trailing_zeros() as PieceType));
        types &= types - 1;
    }
}

#[cfg(test)]
mod tests {
    use crate::core::moves::MoveList;
    use crate::position::Position;
    use crate::variant::registry;
    use crate::variant::Variant;

    /// Leapers and riders only (so the ray fast path is on), with confinement, an
    /// automatic type change and facing kings.
    const RIDERS: &str = r#"
name = "riders-and-river"
files = 10
ranks = 10
start = "r1n1qgk1nr/3b6/pppp2pppp/10/10/10/10/PPPP2PPPP/3B6/R1N1QGK1NR w - - 0 1"
facing = ["file", "diagonal"]
[[piece]]
letter = "K"
betza = "K"
royal = true
confine = "a1:j5"
[[piece]]
letter = "Q"
betza = "Q"
confine = "a1:j5"
[[piece]]
letter = "G"
betza = "NC"
confine = "a1:j5"
[[piece]]
letter = "R"
betza = "R"
[[piece]]
letter = "B"
betza = "B"
[[piece]]
letter = "N"
betza = "N"
[[piece]]
letter = "P"
betza = "fmWfcF"
pawn = true
becomes = { to = "W", region = "a6:j10" }
[[piece]]
letter = "W"
betza = "W"
"#;

    /// Grand Chess style: optional pool promotion on ranks 8-9, mandatory on 10.
    const POOL: &str = r#"
name = "pool"
files = 10
ranks = 10
start = "r3k4r/10/10/10/10/10/10/10/10/R3K4R w - - 0 1"
[[piece]]
letter = "K"
betza = "K"
royal = true
[[piece]]
letter = "R"
betza = "R"
[[piece]]
letter = "P"
betza = "fmWfcF"
pawn = true
promotion = { ranks = [8, 9, 10], mandatory_ranks = [10], to = "R", pool = true }
"#;

    fn moves_of(p: &Position, from: &str) -> Vec<String> {
        let mut list = MoveList::new();
        p.legal_moves(&mut list);
        let mut v: Vec<String> = list
            .iter()
            .map(|&m| p.move_to_string(m))
            .filter(|m| m.starts_with(from))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn pool_promotion_optional_then_mandatory_and_blocked_when_empty() {
        let v = Variant::from_toml(POOL, "test").unwrap().shared();
        // Both Rooks on the board: nothing to promote to, so e9-e10 is impossible.
        let full = Position::from_fen(&v, "4k5/10/4P5/10/10/10/10/10/10/R3K4R w - - 0 1").unwrap();
        assert_eq!(moves_of(&full, "e8"), ["e8e9"]);
        let full9 = Position::from_fen(&v, "2k7/4P5/10/10/10/10/10/10/10/R3K4R w - - 0 1").unwrap();
        assert!(moves_of(&full9, "e9").is_empty());
        // A Rook lost: optional on rank 9, mandatory on rank 10.
        let lost = Position::from_fen(&v, "4k5/10/4P5/10/10/10/10/10/10/4K4R w - - 0 1").unwrap();
        assert_eq!(moves_of(&lost, "e8"), ["e8e9", "e8e9r"]);
        let lost9 = Position::from_fen(&v, "2k7/4P5/10/10/10/10/10/10/10/4K4R w - - 0 1").unwrap();
        assert_eq!(moves_of(&lost9, "e9"), ["e9e10r"]);
    }

    fn sorted(list: &MoveList) -> Vec<u64> {
        let mut v: Vec<u64> = list.iter().map(|m| m.0).collect();
        v.sort();
        v
    }

    #[test]
    fn ray_fast_path_agrees_with_the_full_test_under_confinement_and_facing() {
        let v = Variant::from_toml(RIDERS, "test").unwrap().shared();
        assert!(v.ray_legality);
        let mut seed = 0x1234_5678_9ABC_DEF1u64;
        let mut positions = 0;
        for _game in 0..40 {
            let mut p = Position::startpos(&v);
            for _ply in 0..80 {
                let mut fast = MoveList::new();
                p.legal_moves(&mut fast);
                let mut slow = MoveList::new();
                p.gen_pseudo(&mut slow, p.in_check());
                let kept: Vec<_> = slow
                    .iter()
                    .copied()
                    .filter(|&m| p.leaves_royals_safe(m))
                    .collect();
                let mut slow_sorted: Vec<u64> = kept.iter().map(|m| m.0).collect();
                slow_sorted.sort();
                assert_eq!(sorted(&fast), slow_sorted, "{}", p.fen());
                positions += 1;
                if fast.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                p.make_move(fast.as_slice()[(seed % fast.len() as u64) as usize]);
            }
        }
        assert!(positions > 1500);
    }

    /// The ray fast path and the generic path (pseudo-legal moves, each tested on the board
    /// it leaves) agree where combines vacate a square and splits fill one.
    #[test]
    fn ray_and_generic_legality_agree_on_stack_moves() {
        let v = registry::get("augsburg").unwrap();
        let mut seed = 0x0A65_B0C6_u64;
        let mut checked = 0;
        for _ in 0..30 {
            let mut p = Position::startpos(&v);
            for _ in 0..90 {
                let mut fast = MoveList::new();
                p.legal_moves(&mut fast);
                let mut slow = MoveList::new();
                p.gen_pseudo(&mut slow, p.in_check());
                let mut a: Vec<u64> = fast.iter().map(|m| m.0).collect();
                let mut b: Vec<u64> = slow
                    .iter()
                    .filter(|&&m| p.leaves_royals_safe(m))
                    .map(|m| m.0)
                    .collect();
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b, "{}", p.fen());
                checked += a.len();
                if fast.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                p.make_move(fast.as_slice()[(seed % fast.len() as u64) as usize]);
            }
        }
        assert!(checked > 50_000, "{checked}");
    }
}
