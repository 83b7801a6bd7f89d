//! The `Rays` strategy: legal moves straight from the checks and pins on the rays
//! around the single royal piece (every capture is a leap or a straight ride).

use super::{promotion_zone, Pins};
use crate::core::geometry::{Bitboard, Square, Word};
use crate::core::moves::{MoveList, PieceType};
use crate::movement::attacks::PieceAttacks;
use crate::position::Position;

impl<W: Word> Position<W> {
    /// The checkers of the royal piece on `ksq`, the pinned pieces with their lines, and
    /// the squares a non-royal move must reach to answer the check (all when none).
    fn ray_checks(&self, ksq: Square) -> (Bitboard<W>, Pins<W>, Bitboard<W>) {
        let v = &*self.v;
        let us = self.side;
        let them = us.flip();
        let occ = self.occupied();
        let theirs = self.by_color[them.idx()];
        // The strategy's pieces attack by leaps and along rays only: the leaps are
        // looked up here, the rays walked once below for checks and pins together.
        let mut checkers = self.leap_attackers(ksq, theirs, them);
        let mut ray_checkers = Bitboard::EMPTY;
        let mut ray_evasion = Bitboard::FULL;
        let mut pins = Pins {
            ksq,
            occ,
            ..Pins::none()
        };
        let mut evasion = Bitboard::FULL;
        let map = &v.attackers[them.idx()];
        let reach = map.reach[ksq.idx()];
        // A ray with no enemy rider on it neither checks nor pins (most of them).
        let riders = self.typed(map.ray_types) & theirs;
        let limited = map.rays.iter().map(|g| (g, reach, riders));
        let facing = map.facing.iter().map(|g| (g, !0u32, Bitboard::FULL));
        for (g, reach, wanted) in limited.chain(facing) {
            let ray = v.rays.get(g.ray);
            let mask = ray.at(ksq);
            if (mask & wanted).is_empty() {
                continue;
            }
            let blockers = mask & occ;
            if blockers.is_empty() {
                continue;
            }
            let b1 = if ray.ascending {
                blockers.lsb()
            } else {
                blockers.msb()
            };
            let rest = blockers ^ b1.bb();
            if theirs.has(b1) {
                if (g.types & reach) >> self.board[b1.idx()].kind() & 1 != 0 && g.from.has(b1) {
                    // The check comes along this ray: blocking squares are on it.
                    ray_checkers.set(b1);
                    ray_evasion = ray.attacks(ksq, occ);
                }
            } else if rest.any() {
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
                    pins.ray[pins.n] = g.ray;
                    pins.n += 1;
                }
            }
        }
        checkers |= ray_checkers;
        if checkers.any() {
            if checkers.more_than_one() {
                evasion = Bitboard::EMPTY;
            } else if ray_checkers.is_empty() {
                evasion = checkers;
            } else {
                evasion = ray_evasion;
                // A rider that also leaps onto the king along its line (the ArchMage's
                // two- and three-square jumps) cannot be blocked, only captured.
                let c = checkers.lsb();
                let ct = self.board[c.idx()].kind() as usize;
                if v.attacks[them.idx()][ct].leap_capture_rev[ksq.idx()]
                    .narrow::<W>()
                    .has(c)
                {
                    evasion = checkers;
                }
            }
        }
        (checkers, pins, evasion)
    }

    /// The legal destinations of a non-royal piece on `from`: its targets, answering
    /// the check (`evasion`) and staying on its pin line.
    #[inline(always)]
    fn ray_legal_dest(
        &self,
        pa: &PieceAttacks,
        from: Square,
        occ: Bitboard<W>,
        theirs: Bitboard<W>,
        evasion: Bitboard<W>,
        pins: &Pins<W>,
    ) -> Bitboard<W> {
        let tg = pa.targets(&self.v.rays, from, occ);
        let mut dest = (tg.quiet | (tg.capture & theirs)) & evasion;
        if pins.bb.has(from) {
            dest &= pins.line(&self.v.rays, from);
        }
        dest
    }

    /// Fast path: checks and pins from the rays around the single royal piece. With
    /// `tactical`, out of check, ordinary and royal moves are kept only where they could
    /// capture or promote, and castling and drops are left out (quiescence's moves).
    pub(super) fn gen_ray_legal(&self, list: &mut MoveList, ksq: Square, tactical: bool) {
        let v = &*self.v;
        let us = self.side;
        let them = us.flip();
        let occ = self.occupied();
        let theirs = self.by_color[them.idx()];
        let (checkers, pins, evasion) = self.ray_checks(ksq);
        let royal_mask = v.royal_mask;
        let stacked = v.stacking.as_ref().map_or(0, |st| st.stackable);
        for t in 0..v.pieces.len() {
            let bb = self.pieces(t as PieceType, us);
            if bb.is_empty() || (royal_mask | stacked) >> t & 1 != 0 || evasion.is_empty() {
                continue;
            }
            let pa = &v.attacks[us.idx()][t];
            let wanted = if tactical {
                theirs | promotion_zone(v, t, us.idx())
            } else {
                Bitboard::FULL
            };
            for from in bb {
                let dest = self.ray_legal_dest(pa, from, occ, theirs, evasion, &pins) & wanted;
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
        let mut dest = tg.quiet | (tg.capture & theirs);
        if tactical {
            dest &= theirs | promotion_zone(v, kt as usize, us.idx());
        }
        for to in dest {
            if !self.is_attacked(to, occ_wo, theirs & !to.bb(), them) {
                self.emit(list, kt, ksq, to.bb());
            }
        }
        if tactical {
            self.gen_switches(list, false);
            return;
        }
        if checkers.is_empty() {
            self.gen_castling(list, true);
        }
        // A drop only adds a blocker: legal where it blocks the check, or anywhere
        // when there is none (ray-legal games have no hopper screens).
        self.gen_drops(list, evasion, false, false);
        self.gen_switches(list, checkers.any());
    }

    /// Whether the side to move has a legal move, by the fast path: usually decided by
    /// the first piece that has a destination.
    pub(super) fn any_ray_legal(&self, ksq: Square) -> bool {
        let v = &*self.v;
        let us = self.side;
        let occ = self.occupied();
        let theirs = self.by_color[us.flip().idx()];
        let (_, pins, evasion) = self.ray_checks(ksq);
        let stacked = v.stacking.as_ref().map_or(0, |st| st.stackable);
        if evasion.any() {
            for t in 0..v.pieces.len() {
                let bb = self.pieces(t as PieceType, us);
                if bb.is_empty() || (v.royal_mask | stacked) >> t & 1 != 0 {
                    continue;
                }
                let pa = &v.attacks[us.idx()][t];
                let zone = promotion_zone(v, t, us.idx());
                for from in bb {
                    let dest = self.ray_legal_dest(pa, from, occ, theirs, evasion, &pins);
                    // A promotion square may offer no choice (an empty pool).
                    if (dest & !zone).any() {
                        return true;
                    }
                }
            }
        }
        let mut list = MoveList::new();
        self.gen_ray_legal(&mut list, ksq, false);
        !list.is_empty()
    }

    /// The number of legal moves by the fast path, without listing the ordinary ones: a
    /// piece that cannot promote has one move per destination, so its count is a
    /// popcount (perft's leaves). Everything else is listed, as `gen_ray_legal` does.
    pub(super) fn count_ray_legal(&self, ksq: Square) -> usize {
        let v = &*self.v;
        let us = self.side;
        let them = us.flip();
        let occ = self.occupied();
        let theirs = self.by_color[them.idx()];
        let (checkers, pins, evasion) = self.ray_checks(ksq);
        let mut n = 0usize;
        let mut list = MoveList::new();
        let royal_mask = v.royal_mask;
        let stacked = v.stacking.as_ref().map_or(0, |st| st.stackable);
        if evasion.any() {
            for t in 0..v.pieces.len() {
                let bb = self.pieces(t as PieceType, us);
                if bb.is_empty() || (royal_mask | stacked) >> t & 1 != 0 {
                    continue;
                }
                let pa = &v.attacks[us.idx()][t];
                let zone = promotion_zone(v, t, us.idx());
                // A leaper's unpinned pieces that cannot reach the promotion zone are
                // counted together (a pawn's pushes: one shift for all of them).
                // Two or fewer are cheaper one by one: a table lookup each, against one
                // shift per leap (a knight's eight).
                let mut each = bb;
                if bb.count() > 2 {
                    let alone = bb & (pins.bb | pa.set_sources(zone));
                    if let Some(c) = pa.count_set(bb & !alone, occ, theirs, evasion) {
                        n += c as usize;
                        each = alone;
                    }
                }
                for from in each {
                    let dest = self.ray_legal_dest(pa, from, occ, theirs, evasion, &pins);
                    n += (dest & !zone).count() as usize;
                    if (dest & zone).any() {
                        self.emit(&mut list, t as PieceType, from, dest & zone);
                    }
                }
            }
            if let Some(st) = &v.stacking {
                n += self.stack_moves(&mut list, st, evasion, &pins, true);
            }
        }
        if self.ep.any() {
            self.gen_en_passant(&mut list, true);
        }
        let occ_wo = occ ^ ksq.bb();
        let kt = self.board[ksq.idx()].kind();
        let tg = v.attacks[us.idx()][kt as usize].targets(&v.rays, ksq, occ);
        let king_zone = promotion_zone::<W>(v, kt as usize, us.idx());
        for to in tg.quiet | (tg.capture & theirs) {
            if !self.is_attacked(to, occ_wo, theirs & !to.bb(), them) {
                if king_zone.has(to) {
                    self.emit(&mut list, kt, ksq, to.bb());
                } else {
                    n += 1;
                }
            }
        }
        if checkers.is_empty() {
            self.gen_castling(&mut list, true);
        }
        n += self.gen_drops(&mut list, evasion, false, true);
        n += self.switches(&mut list, checkers.any(), true);
        n + list.len()
    }
}
