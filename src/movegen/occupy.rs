//! Moves that do more than go to one square and take what stands there: rifle shots
//! (kill without moving), path movers (a fixed number of unit steps with free turning
//! that kill what they pass) and flights (to any empty square, then one follow-up
//! borrowed from other pieces, avoiding the enemy's shot ranges).
//!
//! A variant switches them on per piece with the table keys `shot`, `path` and
//! `flight` (see `tables/README.md`). One move may then kill several pieces and be
//! reached by many action sequences; a move is identified by its start, its end, the
//! squares it killed without ending on them, and its promotion, so the generator
//! collects each piece's outcomes and keeps each identity once.
//!
//! Royal pieces are never shot and never killed in passing: they fall only to a piece
//! that ends its move on them. Check is therefore "the royal piece could be
//! occupy-captured next move", and [`Position::occupy_attacked`] answers it with
//! bitboards only (reverse reach of paths and flights), fast enough for search.

use crate::core::geometry::{Bitboard, Square, Word};
use crate::core::moves::{Color, Move, MoveKind, MoveList, PieceType, MAX_KILLS, MAX_MOVES};
use crate::position::Position;
use crate::rules::occupy::OccupyRules;
use crate::rules::path::PathDef;

/// Fixed inputs of one path walk.
struct Walk<'a, W: Word> {
    path: &'a PathDef,
    color: usize,
    /// The mover's own pieces, its start square excluded (it is empty once left).
    blockers: Bitboard<W>,
    /// Entered squares must be outside the enemy's shot ranges (flight follow-up).
    avoid: bool,
    /// The move's start square.
    origin: Square,
    /// The moving piece's type (for promotion).
    ptype: PieceType,
}

/// Collected outcomes of one piece: kill-free destinations as a set, kill moves in the
/// list (deduplicated at the end).
struct Out<'l, W: Word> {
    list: &'l mut MoveList,
    start: usize,
    plain: Bitboard<W>,
}

impl<W: Word> Out<'_, W> {
    /// Sorts and deduplicates this piece's kill moves.
    fn compact(&mut self) {
        let all = self.list.as_mut_slice();
        let seg = &mut all[self.start..];
        seg.sort_unstable();
        let mut keep = 0;
        for i in 0..seg.len() {
            if i == 0 || seg[i] != seg[keep - 1] {
                seg[keep] = seg[i];
                keep += 1;
            }
        }
        self.list.truncate(self.start + keep);
    }
}

impl<W: Word> Position<W> {
    /// The squares the shooters of `c` on `pieces` would hit.
    #[inline]
    pub(super) fn shield(&self, x: &OccupyRules, pieces: Bitboard<W>) -> Bitboard<W> {
        let mut s = Bitboard::EMPTY;
        let mut m = x.shooter_mask;
        while m != 0 {
            let t = m.trailing_zeros() as usize;
            m &= m - 1;
            if let Some(sd) = &x.shots[t] {
                for sq in self.by_type[t] & pieces {
                    s |= sd.range[sq.idx()].narrow();
                }
            }
        }
        s
    }

    /// Pushes a kill move, with the promotion choices its end square offers.
    fn push_kill(
        &self,
        out: &mut Out<W>,
        t: PieceType,
        from: Square,
        to: Square,
        kills: &[Square],
    ) {
        if out.list.len() + 8 > MAX_MOVES {
            // Many sequences share an identity: squeeze the duplicates out before the
            // list fills up.
            out.compact();
        }
        let base = Move::new(from, to, MoveKind::Normal).with_kills(kills);
        match &self.v.pieces[t as usize].promotion {
            Some(pr) if pr.zone[self.side.idx()].has(to) => {
                for &p in &pr.to {
                    out.list.push(base.with_promotion(p));
                }
                if !pr.mandatory[self.side.idx()].has(to) {
                    out.list.push(base);
                }
            }
            _ => out.list.push(base),
        }
    }

    /// Every legal move, for variants with shots, paths or flights.
    pub(crate) fn legal_moves_ext(&self, x: &OccupyRules, list: &mut MoveList) {
        list.clear();
        let v = &*self.v;
        let us = self.side;
        let them = us.flip();
        let occ = self.occupied();
        let ours = self.by_color[us.idx()];
        let theirs = self.by_color[them.idx()];
        let prey = theirs & !self.royals(them);
        let their_shield = if x.flight_mask & self.pieces_mask(us) != 0 {
            self.shield(x, theirs)
        } else {
            Bitboard::EMPTY
        };
        for t in 0..v.pieces.len() {
            let bb = self.pieces(t as PieceType, us);
            if bb.is_empty() {
                continue;
            }
            let pt = t as PieceType;
            let pa = &v.attacks[us.idx()][t];
            for from in bb {
                let start = list.len();
                let tg = pa.targets(&v.rays, from, occ);
                let moves = tg.quiet | (tg.capture & theirs);
                let mut out = Out {
                    list: &mut *list,
                    start,
                    plain: moves,
                };
                if let Some(s) = &x.shots[t] {
                    let targets = s.range[from.idx()].narrow() & prey;
                    for k in targets {
                        self.push_kill(&mut out, pt, from, from, &[k]);
                    }
                    if s.with_move {
                        for d in moves {
                            for k in s.range[d.idx()].narrow() & prey & !d.bb() {
                                self.push_kill(&mut out, pt, from, d, &[k]);
                            }
                        }
                        // Shoot first: the kill may open the way (Combined Arms R13).
                        for k in targets {
                            let tg = pa.targets(&v.rays, from, occ ^ k.bb());
                            for d in tg.quiet | (tg.capture & theirs) {
                                if d == k {
                                    out.plain.set(d);
                                } else {
                                    self.push_kill(&mut out, pt, from, d, &[k]);
                                }
                            }
                        }
                    }
                }
                if let Some(p) = &x.paths[t] {
                    let w = Walk {
                        path: p,
                        color: us.idx(),
                        blockers: ours & !from.bb(),
                        avoid: false,
                        origin: from,
                        ptype: pt,
                    };
                    self.walk(
                        x,
                        &w,
                        &mut out,
                        from,
                        p.steps,
                        [Square(0); MAX_KILLS],
                        0,
                        theirs,
                        Bitboard::EMPTY,
                    );
                }
                if let Some(f) = &x.flights[t] {
                    self.gen_flight(x, f, pt, from, &mut out, prey, their_shield);
                }
                out.compact();
                let plain = out.plain & !from.bb();
                self.emit(list, pt, from, plain);
            }
        }
        self.gen_castling(list, false);
        let royals = self.royals(us);
        if royals.any() {
            let our_shield = self.shield(x, ours);
            let moves = list.as_mut_slice();
            let mut keep = 0;
            for i in 0..moves.len() {
                if self.ext_safe(x, moves[i], our_shield) {
                    moves[keep] = moves[i];
                    keep += 1;
                }
            }
            list.truncate(keep);
        }
    }

    /// Bit mask of the types `c` has on the board.
    fn pieces_mask(&self, c: Color) -> u32 {
        let mut m = 0;
        for t in 0..self.v.pieces.len() {
            if self.pieces(t as PieceType, c).any() {
                m |= 1 << t;
            }
        }
        m
    }

    /// Walks every path of `left` more steps from `cur`, recording each outcome.
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        x: &OccupyRules,
        w: &Walk<W>,
        out: &mut Out<W>,
        cur: Square,
        left: u8,
        kills: [Square; MAX_KILLS],
        nk: usize,
        alive: Bitboard<W>,
        shield: Bitboard<W>,
    ) {
        let mut free = !w.blockers;
        if w.avoid {
            free &= !shield;
        }
        // No enemy left to kill on the way: every walk from here ends as its kills so far
        // say, so the end squares are one flood of the steps left (an empty board's
        // corners are walked once, not once per route).
        let passed = match left {
            0 | 1 => Bitboard::EMPTY,
            l => w.path.within[w.color][l as usize - 2][cur.idx()].narrow(),
        };
        if (passed & alive & !self.royals(self.side.flip())).is_empty() {
            let mut ends = cur.bb();
            for _ in 0..left {
                ends = w.path.forward(w.color, ends) & free;
            }
            if nk == 0 {
                out.plain |= ends;
                return;
            }
            for n in ends {
                self.end_walk(w, out, n, &kills[..nk]);
            }
            return;
        }
        let next = w.path.one[w.color][cur.idx()].narrow() & free;
        for n in next {
            if left == 1 {
                self.end_walk(w, out, n, &kills[..nk]);
                continue;
            }
            let (mut kills2, mut nk2, mut alive2, mut shield2) = (kills, nk, alive, shield);
            let p = self.board[n.idx()];
            if alive.has(n) && self.v.royal_mask >> p.kind() & 1 == 0 {
                kills2[nk2] = n;
                nk2 += 1;
                alive2.clear(n);
                if w.avoid && x.shooter_mask >> p.kind() & 1 != 0 {
                    // Artillery killed earlier in the turn no longer counts (R5).
                    shield2 = self.shield(x, alive2);
                }
            }
            self.walk(x, w, out, n, left - 1, kills2, nk2, alive2, shield2);
        }
    }

    /// Records a path ending on `n` with `kills` made on the way: an enemy still on `n`
    /// is occupy-captured; a kill on `n` earlier in the path is not written (it equals
    /// the end square).
    fn end_walk(&self, w: &Walk<W>, out: &mut Out<W>, n: Square, kills: &[Square]) {
        let mut ks = [Square(0); MAX_KILLS];
        let mut m = 0;
        for &k in kills {
            if k != n {
                ks[m] = k;
                m += 1;
            }
        }
        if m == 0 {
            out.plain.set(n);
        } else {
            self.push_kill(out, w.ptype, w.origin, n, &ks[..m]);
        }
    }

    /// A flight from `from`: land on any empty square outside the enemy's shot ranges,
    /// then optionally one borrowed move, path or shot.
    #[allow(clippy::too_many_arguments)]
    fn gen_flight(
        &self,
        x: &OccupyRules,
        f: &crate::rules::flight::FlightDef,
        pt: PieceType,
        from: Square,
        out: &mut Out<W>,
        prey: Bitboard<W>,
        their_shield: Bitboard<W>,
    ) {
        let v = &*self.v;
        let us = self.side;
        let theirs = self.by_color[us.flip().idx()];
        let occ = self.occupied();
        let shield = if f.avoid_shots {
            their_shield
        } else {
            Bitboard::EMPTY
        };
        let occ_wo = occ ^ from.bb();
        let blocked = occ_wo | shield;
        let land = v.board.all.narrow() & !occ & !shield;
        let fa = &f.follow[us.idx()];
        // Landing squares with no enemy to kill within a borrowed path's reach: their
        // paths end without kills, so all of them are one flood (as in `walk`).
        let mut clean_land = [Bitboard::EMPTY; 4];
        let free = !(self.by_color[us.idx()] & !from.bb()) & !shield;
        for (&p, clean) in f.paths.iter().zip(clean_land.iter_mut()) {
            let Some(pd) = &x.paths[p as usize] else {
                continue;
            };
            let (mut ring, mut dirty) = (prey, Bitboard::EMPTY);
            for _ in 1..pd.steps {
                ring = pd.backward(us.idx(), ring);
                dirty |= ring;
            }
            *clean = land & !dirty;
            let mut ends = *clean;
            for _ in 0..pd.steps {
                ends = pd.forward(us.idx(), ends) & free;
            }
            out.plain |= ends;
        }
        for s in land {
            out.plain.set(s);
            // Forbidden squares block borrowed rides like pieces do: they cannot be entered.
            let tg = fa.targets(&v.rays, s, blocked);
            out.plain |= (tg.quiet & !blocked) | (tg.capture & theirs & !shield);
            for &st in &f.shots {
                if let Some(sd) = &x.shots[st as usize] {
                    for k in sd.range[s.idx()].narrow() & prey {
                        self.push_kill(out, pt, from, s, &[k]);
                    }
                }
            }
            for (i, &p) in f.paths.iter().enumerate() {
                if clean_land.get(i).is_some_and(|c| c.has(s)) {
                    continue;
                }
                if let Some(pd) = &x.paths[p as usize] {
                    let w = Walk {
                        path: pd,
                        color: us.idx(),
                        blockers: self.by_color[us.idx()] & !from.bb(),
                        avoid: f.avoid_shots,
                        origin: from,
                        ptype: pt,
                    };
                    self.walk(
                        x,
                        &w,
                        out,
                        s,
                        pd.steps,
                        [Square(0); MAX_KILLS],
                        0,
                        theirs,
                        shield,
                    );
                }
            }
        }
    }

    /// True when, after `m`, no royal piece of the mover could be occupy-captured;
    /// `our_shield` is the mover's shot range before the move (kept when no shooter moves).
    fn ext_safe(&self, x: &OccupyRules, m: Move, our_shield: Bitboard<W>) -> bool {
        let v = &*self.v;
        let us = self.side;
        let them = us.flip();
        let mut occ = self.occupied();
        let mut theirs = self.by_color[them.idx()];
        let mut royals = self.royals(us);
        for k in m.kills() {
            occ.clear(k);
            theirs.clear(k);
        }
        let (from, to) = (m.from(), m.to());
        // Our shooters decide where an enemy flight may go: follow the ones that move.
        // Each entry: start, end, type before, type after.
        let mut moved = [(from, from, 0 as PieceType, 0 as PieceType); 2];
        let mut n_moved = 0;
        if m.kind() == MoveKind::Castle {
            let Some(r) = v.castling.as_ref().and_then(|cs| {
                cs.rules
                    .iter()
                    .find(|r| r.king_from == from && r.king_to == to)
            }) else {
                return false;
            };
            for (a, b) in [(r.king_from, r.king_to), (r.rook_from, r.rook_to)] {
                let t = self.board[a.idx()].kind();
                moved[n_moved] = (a, b, t, t);
                n_moved += 1;
            }
            occ = occ ^ r.king_from.bb() ^ r.rook_from.bb() | r.king_to.bb() | r.rook_to.bb();
            royals.clear(r.king_from);
            royals.set(r.king_to);
        } else if m.kind() == MoveKind::Drop {
            occ.set(to);
            moved[0] = (to, to, PieceType::MAX, m.drop_type());
            n_moved = 1;
        } else if from != to {
            occ.clear(from);
            occ.set(to);
            theirs.clear(to);
            let t = self.board[from.idx()].kind();
            let nt = m.promotion().unwrap_or(t);
            moved[0] = (from, to, t, nt);
            n_moved = 1;
            if royals.has(from) {
                royals.clear(from);
                if v.royal_mask >> nt & 1 != 0 {
                    royals.set(to);
                }
            }
        }
        let shooter = |t: PieceType| (t as u32) < 32 && x.shooter_mask >> t & 1 != 0;
        let moves_shooter = moved[..n_moved]
            .iter()
            .any(|&(_, _, ot, nt)| shooter(ot) || shooter(nt));
        if !moves_shooter {
            return royals
                .iter()
                .all(|k| !self.occupy_attacked(x, k, occ, theirs, them, our_shield));
        }
        let mut shield = Bitboard::EMPTY;
        let mut sm = x.shooter_mask;
        while sm != 0 {
            let t = sm.trailing_zeros() as usize;
            sm &= sm - 1;
            let Some(sd) = &x.shots[t] else { continue };
            let mut bb = self.pieces(t as PieceType, us);
            for &(a, b, ot, nt) in &moved[..n_moved] {
                if ot as usize == t {
                    bb.clear(a);
                }
                if nt as usize == t {
                    bb.set(b);
                }
            }
            for s in bb {
                shield |= sd.range[s.idx()].narrow();
            }
        }
        royals
            .iter()
            .all(|k| !self.occupy_attacked(x, k, occ, theirs, them, shield))
    }

    /// True when one of `by`'s pieces in `attackers` could end its move on `sq`, on
    /// occupancy `occ`, where `shield` is the defender's shot range (forbidden to
    /// flights). Every square of `attackers` must still hold what the mailbox says.
    pub(crate) fn occupy_attacked(
        &self,
        x: &OccupyRules,
        sq: Square,
        occ: Bitboard<W>,
        attackers: Bitboard<W>,
        by: Color,
        shield: Bitboard<W>,
    ) -> bool {
        if self.is_attacked(sq, occ, attackers, by) {
            return true;
        }
        let v = &*self.v;
        let c = by.idx();
        let mut sm = x.shoot_capture_mask;
        while sm != 0 {
            let t = sm.trailing_zeros() as usize;
            sm &= sm - 1;
            let Some(sd) = &x.shots[t] else { continue };
            let pa = &v.attacks[c][t];
            // Shoot a piece out of the way, then capture by moving.
            let prey = occ & !attackers & !sq.bb();
            for s in self.by_type[t] & attackers {
                for k in sd.range[s.idx()].narrow() & prey {
                    if pa.targets(&v.rays, s, occ ^ k.bb()).capture.has(sq) {
                        return true;
                    }
                }
            }
        }
        let mut pm = x.path_mask;
        while pm != 0 {
            let t = pm.trailing_zeros() as usize;
            pm &= pm - 1;
            let Some(p) = &x.paths[t] else { continue };
            for n in self.by_type[t] & attackers & p.near[c][sq.idx()].narrow() {
                // Own pieces block; enemies are killed in passing and do not.
                let blk = attackers ^ n.bb();
                let mut reach = n.bb();
                for _ in 0..p.steps {
                    reach = p.forward(c, reach) & !blk;
                }
                if reach.has(sq) {
                    return true;
                }
            }
        }
        let mut fm = x.flight_mask;
        while fm != 0 {
            let t = fm.trailing_zeros() as usize;
            fm &= fm - 1;
            let Some(f) = &x.flights[t] else { continue };
            let sh = if f.avoid_shots {
                shield
            } else {
                Bitboard::EMPTY
            };
            if sh.has(sq) {
                continue;
            }
            let land = v.board.all.narrow() & !occ & !sh;
            for q in self.by_type[t] & attackers {
                let occ_q = occ ^ q.bb();
                let blk = attackers ^ q.bb();
                let fa = &f.follow[c];
                if (fa.leap_capture_rev[sq.idx()].narrow() & land).any() {
                    return true;
                }
                let o = occ_q | sh;
                for &id in &f.capture_rays_rev[c] {
                    if (v.rays.get(id).attacks(sq, o) & !o & land).any() {
                        return true;
                    }
                }
                for &p in &f.paths {
                    let Some(pd) = &x.paths[p as usize] else {
                        continue;
                    };
                    let mut t = sq.bb();
                    for _ in 1..pd.steps {
                        t = pd.backward(c, t) & !blk & !sh;
                    }
                    if (pd.backward(c, t) & land).any() {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// True when a royal piece of `c` could be occupy-captured (the check of variants
    /// with shots, paths or flights).
    pub(crate) fn royal_occupy_attacked(&self, x: &OccupyRules, c: Color) -> bool {
        let occ = self.occupied();
        let them = self.by_color[c.flip().idx()];
        let shield = self.shield(x, self.by_color[c.idx()]);
        self.royals(c)
            .iter()
            .any(|k| self.occupy_attacked(x, k, occ, them, c.flip(), shield))
    }
}
