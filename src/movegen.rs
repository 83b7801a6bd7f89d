//! Legal move generation by mechanism.
//!
//! Two ways to legality, chosen per variant from its pieces (not its name):
//! - when every capture is a leap or a straight ride, checks and pins are read off the
//!   rays from the king, so ordinary moves need no test at all;
//! - otherwise (hoppers, whose screens make any move a possible discovered attack; bent
//!   riders; lame captures) each pseudo-legal move is tested by asking whether the king
//!   would be attacked on the board it leaves behind — still bitboards only, no make.

use crate::geometry::{Bitboard, Square};
use crate::moves::{Color, Move, MoveKind, MoveList, PieceType};
use crate::position::Position;

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
    /// `occ` and `them` may describe a board after a hypothetical move, as long as every
    /// square of `them` still holds the piece the mailbox says.
    pub fn attackers_to(&self, sq: Square, occ: Bitboard, them: Bitboard, by: Color) -> Bitboard {
        let v = &*self.v;
        let map = &v.attackers[by.idx()];
        let tables = &v.attacks[by.idx()];
        let mut att = Bitboard::EMPTY;
        for &t in &map.leap_types {
            att |= tables[t as usize].leap_capture_rev[sq.idx()] & self.by_type[t as usize];
        }
        att &= them;
        for g in &map.rays {
            if let Some(b) = v.rays.get(g.ray).first_blocker(sq, occ) {
                if them.has(b) && g.types >> self.board[b.idx()].kind() & 1 != 0 && g.from.has(b) {
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
                        && g.types >> self.board[h.idx()].kind() & 1 != 0
                    {
                        att.set(h);
                    }
                }
            }
        }
        for g in &map.bents {
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
            if let Some((f, via)) = g.from[sq.idx()] {
                if them.has(f) && self.board[f.idx()].kind() == g.ptype && !occ.has(via) {
                    att.set(f);
                }
            }
        }
        att
    }

    /// True when `by`'s pieces in `them` attack `sq` on occupancy `occ`.
    #[inline]
    pub fn is_attacked(&self, sq: Square, occ: Bitboard, them: Bitboard, by: Color) -> bool {
        self.attackers_to(sq, occ, them, by).any()
    }

    /// True when a royal piece of `c` is attacked.
    pub fn is_attacked_royal(&self, c: Color) -> bool {
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
        list.clear();
        let v = &*self.v;
        let us = self.side;
        let royals = self.royals(us);
        if v.ray_legality && royals.count() == 1 {
            self.gen_ray_legal(list, royals.lsb());
        } else {
            self.gen_pseudo(list);
            if royals.any() {
                let (check, sensitive) = self.king_sensitivity(royals);
                let moves = list.as_mut_slice();
                let mut keep = 0;
                for i in 0..moves.len() {
                    let m = moves[i];
                    let quiet_for_king = !check
                        && matches!(m.kind(), MoveKind::Normal | MoveKind::DoubleStep)
                        && !royals.has(m.from())
                        && !sensitive.has(m.from())
                        && !sensitive.has(m.to());
                    if quiet_for_king || self.leaves_royals_safe(m) {
                        moves[keep] = m;
                        keep += 1;
                    }
                }
                list.truncate(keep);
            }
        }
    }

    /// Whether a royal piece is attacked now, and the squares whose occupancy can change
    /// an attack on a royal piece: every line a rider, hopper or bent rider could use to
    /// reach it, and every lame leap's via square. A non-royal move that neither leaves
    /// nor enters such a square cannot expose a royal piece that is not already attacked.
    fn king_sensitivity(&self, royals: Bitboard) -> (bool, Bitboard) {
        let v = &*self.v;
        let them = self.side.flip();
        let map = &v.attackers[them.idx()];
        let occ = self.occupied();
        let theirs = self.by_color[them.idx()];
        let mut check = false;
        let mut sensitive = Bitboard::EMPTY;
        for k in royals {
            check |= self.is_attacked(k, occ, theirs, them);
            for g in &map.rays {
                sensitive |= v.rays.get(g.ray).mask[k.idx()];
            }
            for g in &map.hops {
                sensitive |= v.rays.get(g.full).mask[k.idx()];
            }
            for g in &map.bents {
                sensitive |= v.rays.get(g.ray).mask[k.idx()];
            }
            for g in &map.lames {
                if let Some((_, via)) = g.from[k.idx()] {
                    sensitive.set(via);
                }
            }
        }
        (check, sensitive)
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
        for g in &v.attackers[them.idx()].rays {
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
                    && g.types >> self.board[b2.idx()].kind() & 1 != 0
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
                if g.types >> self.board[b1.idx()].kind() & 1 != 0 && g.from.has(b1) {
                    evasion = ray.attacks(ksq, occ);
                }
            }
        }
        if checkers.any() {
            if checkers.more_than_one() {
                evasion = Bitboard::EMPTY;
            } else if evasion.0 == !0 {
                evasion = checkers;
            }
        }
        let royal_mask = v.royal_mask;
        for t in 0..v.pieces.len() {
            let bb = self.pieces(t as PieceType, us);
            if bb.is_empty() || royal_mask >> t & 1 != 0 || evasion.is_empty() {
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
        }
    }

    /// Pseudo-legal moves of every piece; castling is only checked for empty and
    /// unattacked squares.
    fn gen_pseudo(&self, list: &mut MoveList) {
        let v = &*self.v;
        let us = self.side;
        let occ = self.occupied();
        let theirs = self.by_color[us.flip().idx()];
        for t in 0..v.pieces.len() {
            let bb = self.pieces(t as PieceType, us);
            if bb.is_empty() {
                continue;
            }
            let pa = &v.attacks[us.idx()][t];
            for from in bb {
                let tg = pa.targets(&v.rays, from, occ);
                self.emit(list, t as PieceType, from, tg.quiet | (tg.capture & theirs));
            }
        }
        self.gen_en_passant(list, false);
        if !self.in_check() {
            self.gen_castling(list, false);
        }
    }

    /// Adds the moves of a piece of type `t` from `from` to each square of `dest`,
    /// with promotion choices and double-step marking.
    #[inline]
    fn emit(&self, list: &mut MoveList, t: PieceType, from: Square, dest: Bitboard) {
        let v = &*self.v;
        let def = &v.pieces[t as usize];
        let us = self.side.idx();
        if def.promotion.is_none() && !def.pawn {
            for to in dest {
                list.push(Move::new(from, to, MoveKind::Normal));
            }
            return;
        }
        for to in dest {
            let kind =
                if def.pawn && self.board[to.idx()].is_none() && v.board.distance(from, to) >= 2 {
                    MoveKind::DoubleStep
                } else {
                    MoveKind::Normal
                };
            let base = Move::new(from, to, kind);
            match &def.promotion {
                Some(pr) if pr.zone[us].has(to) => {
                    for &p in &pr.to {
                        list.push(base.with_promotion(p));
                    }
                    if !pr.mandatory[us].has(to) {
                        list.push(base);
                    }
                }
                _ => list.push(base),
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
            if self.castling & (1 << i) == 0 {
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
            MoveKind::Castle => {
                let Some(r) = v
                    .castling
                    .as_ref()
                    .and_then(|rs| rs.iter().find(|r| r.king_from == from && r.king_to == to))
                else {
                    return false;
                };
                occ.clear(r.king_from);
                occ.clear(r.rook_from);
                occ.set(r.king_to);
                occ.set(r.rook_to);
                royals.clear(r.king_from);
                royals.set(r.king_to);
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
