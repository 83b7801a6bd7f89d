//! A passed pawn-rule piece's own terms: a blocker, the royals' distance to its stop
//! square, and how free its way ahead is.

use super::{weights, Eval, Sink};
use crate::core::geometry::{Bitboard, Square, Word};
use crate::core::moves::Color;
use crate::position::Position;

impl Eval {
    /// A passed pawn-rule piece of side `ci` on `sq`: whether the square ahead is taken,
    /// and how near each side's royal stands to it, weighed by how far the passer has come;
    /// given every piece's `reach`, how free it is to run (Stockfish's passed-pawn ladder):
    /// its empty square ahead out of the enemy's reach, then the whole file ahead, then the
    /// three files ahead free of enemy reach and enemy pieces, each a step up; and that
    /// square in an own piece's reach. Each rung counts the relative rank.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn passer_terms<W: Word, S: Sink>(
        &self,
        pos: &Position<W>,
        occ: Bitboard<W>,
        ci: usize,
        sq: Square,
        royal_sq: &[Bitboard<W>; 2],
        reach: Option<&[Bitboard<W>; 2]>,
        sink: &mut S,
    ) {
        let Some(stop) = self.stop_square::<W>(ci, sq) else {
            return;
        };
        let blocked = occ.has(stop);
        if blocked {
            sink.scalar(ci, weights::PASSED_BLOCKED, 1);
        }
        let bd = &pos.variant().board;
        let rank = bd.rank_of(Square(self.relative(ci, sq) as u8));
        let dist = |k: Square| bd.distance(k, stop).min(5);
        if let Some(k) = royal_sq[ci].iter().next() {
            sink.scalar(ci, weights::PASSED_OWN_ROYAL, dist(k) * rank);
        }
        if let Some(k) = royal_sq[1 - ci].iter().next() {
            sink.scalar(ci, weights::PASSED_ENEMY_ROYAL, dist(k) * rank);
        }
        let Some(reach) = reach.filter(|_| !blocked) else {
            return;
        };
        if reach[ci].has(stop) {
            sink.scalar(ci, weights::PASSED_GUARDED_STOP, rank);
        }
        let unsafe_sq = reach[1 - ci] | pos.color_bb(Color::BOTH[1 - ci]);
        if unsafe_sq.has(stop) {
            return;
        }
        sink.scalar(ci, weights::PASSED_SAFE_STOP, rank);
        if (self.file_ahead[ci][sq.idx()].narrow() & unsafe_sq).any() {
            return;
        }
        sink.scalar(ci, weights::PASSED_SAFE_PATH, rank);
        if (self.front_span[ci][sq.idx()].narrow() & unsafe_sq).is_empty() {
            sink.scalar(ci, weights::PASSED_SAFE_SPAN, rank);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::assert_counts;
    use crate::eval::{Layout, Weights};
    use crate::registry;

    #[test]
    fn a_passer_counts_the_royals_distance_to_its_stop_square_and_a_blocker() {
        let v = registry::get("chess").unwrap();
        // The table's own passer weights zeroed, then one term weighed 1 (or none).
        let with = |term: Option<usize>| {
            let mut w = Weights::of(&v);
            let passer = [
                weights::PASSED_BLOCKED,
                weights::PASSED_OWN_ROYAL,
                weights::PASSED_ENEMY_ROYAL,
            ];
            for t in passer {
                let f = w.layout.scalar(t);
                let x = (term == Some(t)) as i32;
                w.mg[f] = x;
                w.eg[f] = x;
            }
            Eval::with_weights(&v, w).without_endgame_scale()
        };
        let off = with(None);
        // The e6 passer (relative rank 5, counting from 0) stops on e7: the white king on
        // e1 is six steps away (counted as five), the black one on e8 one step.
        let free = "4k3/8/4P3/8/8/8/8/4K3 w - - 0 1";
        let blocked = "4k3/4n3/4P3/8/8/8/8/4K3 w - - 0 1";
        for (term, fen, n) in [
            (weights::PASSED_OWN_ROYAL, free, 25),
            (weights::PASSED_ENEMY_ROYAL, free, 5),
            (weights::PASSED_BLOCKED, free, 0),
            (weights::PASSED_BLOCKED, blocked, 1),
        ] {
            let p = Position::from_fen(&v, fen).unwrap();
            assert_eq!(with(Some(term)).evaluate(&p) - off.evaluate(&p), n, "{fen}");
        }
    }

    /// Stockfish's passed-pawn ladder: a passer whose empty square ahead the enemy does
    /// not reach earns its relative rank once, again where its whole file ahead is free
    /// of enemy reach and pieces, and again where the three files ahead are; where an
    /// own piece reaches that square, once more.
    #[test]
    fn a_passer_counts_how_free_its_way_ahead_is() {
        let v = registry::get("chess").unwrap();
        let term = |k: usize| move |l: &Layout| l.scalar(k);
        // White's pawn on e5 (relative rank 4); only kings beside it.
        let (free, king_on_file, king_on_stop, guarded, blocked) = (
            "7k/8/8/4P3/8/8/8/K7 w - - 0 1",
            "4k3/8/8/4P3/8/8/8/K7 w - - 0 1",
            "8/5k2/8/4P3/8/8/8/K7 w - - 0 1",
            "7k/8/8/3KP3/8/8/8/8 w - - 0 1",
            "7k/8/4n3/4P3/8/8/8/K7 w - - 0 1",
        );
        assert_counts(
            &v,
            term(weights::PASSED_SAFE_STOP),
            &[
                (free, 4, "nothing reaches e6"),
                (king_on_file, 4, "the king on e8 reaches e7, not e6"),
                (king_on_stop, 0, "the king on f7 reaches e6"),
                (blocked, 0, "a knight stands on e6"),
                ("7k/8/8/4P3/8/8/8/K7 b - - 0 1", -4, "Black to move"),
                ("K7/8/8/8/4p3/8/8/7k w - - 0 1", -4, "Black's pawn on e4"),
            ],
        );
        assert_counts(
            &v,
            term(weights::PASSED_SAFE_PATH),
            &[
                (free, 4, "nothing reaches e6, e7 or e8"),
                (king_on_file, 0, "the king stands on e8 and reaches e7"),
                (
                    "6k1/8/8/4P3/8/8/8/K7 w - - 0 1",
                    4,
                    "the king on g8 reaches f7 and f8, beside the file",
                ),
            ],
        );
        assert_counts(
            &v,
            term(weights::PASSED_SAFE_SPAN),
            &[
                (free, 4, "nothing reaches d6-f8"),
                (king_on_file, 0, "the file ahead is not free"),
                (
                    "6k1/8/8/4P3/8/8/8/K7 w - - 0 1",
                    0,
                    "the king on g8 reaches f7 and f8",
                ),
                (
                    "K7/8/8/8/4p3/8/8/7k w - - 0 1",
                    -4,
                    "Black's pawn on e4, nothing near",
                ),
            ],
        );
        assert_counts(
            &v,
            term(weights::PASSED_GUARDED_STOP),
            &[
                (guarded, 4, "the king on d5 reaches e6"),
                (free, 0, "no white piece reaches e6"),
                ("7k/8/4n3/3KP3/8/8/8/8 w - - 0 1", 0, "e6 is taken"),
            ],
        );
    }
}
