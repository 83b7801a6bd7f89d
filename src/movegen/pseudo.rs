//! Pseudo-legal moves of the ordinary pieces, with promotion choices (rule:
//! `rules/promotion.rs`) and double-step marking.

use super::Pins;
use crate::core::geometry::{Bitboard, Square, Word};
use crate::core::moves::{Color, Move, MoveKind, MoveList, PieceType};
use crate::position::Position;

impl<W: Word> Position<W> {
    /// Pseudo-legal moves of every piece; castling (only when not `checked`) is only
    /// checked for empty and unattacked squares.
    pub(super) fn gen_pseudo(&self, list: &mut MoveList, checked: bool) {
        self.gen_pseudo_except(list, checked, 0);
    }

    /// As [`Position::gen_pseudo`], without the ordinary moves of the types in the mask
    /// `skip` (a caller that counts those itself).
    pub(super) fn gen_pseudo_except(&self, list: &mut MoveList, checked: bool, skip: u32) {
        let v = &*self.v;
        let us = self.side;
        let occ = self.occupied();
        let theirs = self.by_color[us.flip().idx()];
        let stacked = v.stacking.as_ref().map_or(0, |st| st.stackable);
        // Perft's leaves skip all but a type or two of twenty: walk the mask, not the types.
        let all = u32::MAX >> (32 - v.pieces.len() as u32);
        let mut types = all & !(stacked | skip);
        while types != 0 {
            let t = types.trailing_zeros() as usize;
            types &= types - 1;
            let bb = self.pieces(t as PieceType, us);
            let pa = &v.attacks[us.idx()][t];
            for from in bb {
                let tg = pa.targets(&v.rays, from, occ);
                self.emit(list, t as PieceType, from, tg.quiet | (tg.capture & theirs));
            }
        }
        if let Some(st) = &v.stacking {
            self.gen_stacks(list, st, Bitboard::FULL, &Pins::none());
        }
        self.gen_en_passant(list, false);
        if !checked {
            self.gen_castling(list, false);
        }
    }

    /// Adds the moves of a piece of type `t` from `from` to each square of `dest`,
    /// with promotion choices and double-step marking.
    // Inlined into the generators for the common case (a piece that neither promotes
    // here nor changes type): the call per piece showed in time profiles of generation.
    #[inline(always)]
    pub(crate) fn emit(&self, list: &mut MoveList, t: PieceType, from: Square, dest: Bitboard<W>) {
        let v = &*self.v;
        let def = &v.pieces[t as usize];
        let us = self.side.idx();
        let promotes = def
            .promotion
            .as_ref()
            .is_some_and(|pr| (pr.zone[us].narrow() & dest).any());
        if !promotes && def.becomes.is_none() {
            if !def.pawn {
                list.push_each(from, dest, |_| MoveKind::Normal);
            } else {
                let long = v.long_pushes[us][from.idx()].narrow::<W>() & !self.occupied();
                list.push_each(from, dest, |to| {
                    if long.has(to) {
                        MoveKind::DoubleStep
                    } else {
                        MoveKind::Normal
                    }
                });
            }
            return;
        }
        self.emit_special(list, t, from, dest);
    }

    /// [`Position::emit`] for a piece that promotes or changes type on some square of
    /// `dest`.
    #[inline(never)]
    fn emit_special(&self, list: &mut MoveList, t: PieceType, from: Square, dest: Bitboard<W>) {
        let v = &*self.v;
        let def = &v.pieces[t as usize];
        let us = self.side.idx();
        let long = v.long_pushes[us][from.idx()].narrow::<W>() & !self.occupied();
        for to in dest {
            // Only a straight multi-step forward along the file skips squares en
            // passant can take: the FEN field names the square behind a pawn that went
            // straight ahead (C5); a sideways, slanting or backward long move leaves none.
            let kind = if def.pawn && long.has(to) {
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
}
