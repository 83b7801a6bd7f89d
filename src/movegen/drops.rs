//! Drop generation (rule: `rules/drops.rs`).

use crate::core::geometry::{Bitboard, Word};
use crate::core::moves::{Move, MoveList, PieceType};
use crate::position::Position;

impl<W: Word> Position<W> {
    /// Drops from the hand onto empty squares of `allowed` (near a listed piece when the
    /// variant says so); with `verify` each is tested for king safety. With `count` the
    /// drops that need no test are counted, not listed (returns how many).
    pub(super) fn gen_drops(
        &self,
        list: &mut MoveList,
        allowed: Bitboard<W>,
        verify: bool,
        count: bool,
    ) -> usize {
        let v = &*self.v;
        let Some(d) = &v.drops else {
            return 0;
        };
        let us = self.side;
        let hand = &self.hands[us.idx()];
        if hand.iter().all(|&n| n == 0) {
            return 0;
        }
        let mut zone = if d.near_types == 0 {
            v.board.all.narrow()
        } else {
            let mut z = Bitboard::EMPTY;
            let mut m = d.near_types;
            while m != 0 {
                let t = m.trailing_zeros();
                m &= m - 1;
                for s in self.pieces(t as PieceType, us) {
                    z |= d.near[s.idx()].narrow();
                }
            }
            z
        };
        zone &= !self.occupied() & allowed;
        if zone.is_empty() {
            return 0;
        }
        let mut counted = 0;
        for (t, &n) in hand.iter().enumerate().take(v.pieces.len()) {
            if n == 0 {
                continue;
            }
            // A drop cannot promote: where arriving must promote, the piece cannot be put.
            let spots = match &v.pieces[t].promotion {
                Some(pr) => zone & !pr.must_promote(us.idx()).narrow(),
                None => zone,
            };
            if count && !verify {
                counted += spots.count() as usize;
                continue;
            }
            for to in spots {
                let mv = Move::drop(t as PieceType, to);
                if !verify || self.leaves_royals_safe(mv) {
                    list.push(mv);
                }
            }
        }
        counted
    }
}
