//! Space: the safe central squares of a side's own half, weighed by its piece count.

use super::Eval;
use crate::core::geometry::{Bitboard, Word};
use crate::core::moves::Color;
use crate::position::Position;

impl Eval {
    /// Side `ci`'s space: the squares of its area no enemy pawn-rule piece attacks and no
    /// own one stands on, plus those of them up to two ranks behind an own pawn-rule
    /// piece that no enemy piece attacks, times the square of its piece count less three,
    /// over 64 (a weight of 2 is Stockfish's scale).
    pub(super) fn space<W: Word>(
        &self,
        pos: &Position<W>,
        ci: usize,
        pawns: &[Bitboard<W>; 2],
        pawn_att: &[Bitboard<W>; 2],
        reach_all: &[Bitboard<W>; 2],
    ) -> i32 {
        let safe = self.space_area[ci].narrow() & !pawns[ci] & !pawn_att[1 - ci];
        if safe.is_empty() {
            return 0;
        }
        let bd = &pos.variant().board;
        let back = |b: Bitboard<W>| {
            if ci == 0 {
                Bitboard(b.0 >> bd.files as u32)
            } else {
                Bitboard(b.0 << bd.files as u32) & bd.all.narrow()
            }
        };
        let one = back(pawns[ci]);
        let behind = one | back(one);
        let bonus = safe.count() + (behind & safe & !reach_all[1 - ci]).count();
        let pieces = pos.color_bb(Color::BOTH[ci]).count() as i32;
        let w = (pieces - 3).max(0);
        bonus as i32 * w * w / 64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::assert_counts;
    use crate::eval::weights;
    use crate::registry;

    #[test]
    fn space_counts_safe_central_squares_and_those_behind_own_pawns_twice() {
        // Stockfish's space: the central files on the own second to fourth ranks (c-f
        // on 8x8), not holding an own pawn nor attacked by an enemy one; those behind an
        // own pawn and attacked by nothing count twice; times (pieces - 3)^2 / 64.
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::SPACE),
            &[
                (
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                    0,
                    "the start is level: 8 safe squares a side",
                ),
                (
                    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                    15 - 26,
                    "after e4 White has e2 and e3 behind its pawn (8 + 2 = 10, 10 * 169 / 64 \
                     = 26); Black loses d5 and f5 to the pawn (6, 6 * 169 / 64 = 15)",
                ),
                (
                    "4k3/8/8/8/3p4/8/PPPPPPPP/4K3 w - - 0 1",
                    3,
                    "the d4 pawn takes c3 and e3 from White's 8, and nine pieces weigh \
                     6^2: 6 * 36 / 64 = 3; Black's two pieces weigh nothing",
                ),
            ],
        );
        let g = registry::get("grand").unwrap();
        let e = Eval::new(&g);
        // On 10x10 the area is files c-h on the own second to fifth ranks.
        assert_eq!(e.space_area[0].count(), 24);
        assert_eq!((e.space_area[0] & e.space_area[1]).count(), 0);
    }
}
