//! Stack moves: plain moves, combines, splits and transforms (rule: `rules/stacking.rs`).

use super::{push_each, Pins};
use crate::core::geometry::{Bitboard, Word};
use crate::core::moves::{Move, MoveKind, MoveList, PieceType};
use crate::position::Position;
use crate::rules::stacking::Stacking;

impl<W: Word> Position<W> {
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
    pub(super) fn gen_stacks(
        &self,
        list: &mut MoveList,
        st: &Stacking,
        evasion: Bitboard<W>,
        pins: &Pins<W>,
    ) {
        self.stack_moves(list, st, evasion, pins, false);
    }

    /// [`Position::gen_stacks`], or with `count` every move that needs no choice of
    /// promotion counted rather than listed (perft's leaves); returns how many were
    /// counted. A combine, split or transform is one move per type it may become.
    pub(super) fn stack_moves(
        &self,
        list: &mut MoveList,
        st: &Stacking,
        evasion: Bitboard<W>,
        pins: &Pins<W>,
        count: bool,
    ) -> usize {
        let mut n = 0usize;
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
            let zone = super::promotion_zone(v, t as usize, us.idx());
            for from in bb {
                let tg = pa.targets(&v.rays, from, occ);
                let line = if pins.bb.has(from) {
                    pins.line(&self.v.rays, from)
                } else {
                    Bitboard::FULL
                };
                let quiet = tg.quiet & evasion;
                let dest = (quiet | (tg.capture & theirs & evasion)) & line;
                let joins_at = tg.capture & partners & evasion & line;
                if count {
                    n += (dest & !zone).count() as usize;
                    if (dest & zone).any() {
                        self.emit(list, t, from, dest & zone);
                    }
                    for to in joins_at {
                        n += st.combine(t, self.board[to.idx()].kind()).count_ones() as usize;
                    }
                    n += quiet.count() as usize * parts.count_ones() as usize;
                    n += (quiet & line).count() as usize * twins.count_ones() as usize;
                    continue;
                }
                self.emit(list, t, from, dest);
                for to in joins_at {
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
        n
    }
}
