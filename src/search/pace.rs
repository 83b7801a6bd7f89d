//! How much of its soft time limit a move deserves, judged after each completed
//! iteration from what the iterations say about the position (Stockfish's
//! `fallingEval`, `bestMoveInstability`, `timeReduction` and best-move effort).

use crate::core::moves::Move;

/// Scores past this size (won or lost positions, mates) are read as this size: how far
/// a score falls only matters while the game is still open.
const SCORE_CAP: i32 = 600;

/// The main thread's view of one search's iterations.
#[derive(Clone, Debug)]
pub struct Pace {
    /// The best move of the last completed iteration.
    best: Move,
    /// Completed iterations since the best move last changed.
    stable: u32,
    /// Best-move changes, each iteration's halved at the next (a recent change counts
    /// most).
    changes: f64,
    /// The scores of the last three completed iterations, newest last.
    scores: [Option<i32>; 3],
    /// The score the previous search of this game (our previous move) ended with.
    before: Option<i32>,
}

impl Pace {
    /// A search's pace; `before` is the score our previous move's search ended with, if
    /// this game had one.
    pub fn new(before: Option<i32>) -> Pace {
        Pace {
            best: Move::NULL,
            stable: 0,
            changes: 0.0,
            scores: [None; 3],
            before: before.map(|s| s.clamp(-SCORE_CAP, SCORE_CAP)),
        }
    }

    /// Takes in a completed iteration of `depth` (its best move, its score and the share
    /// of the search's root nodes spent below that move) and returns the factor the soft
    /// time limit is scaled by before the next one is started:
    /// - a falling score (against our previous move's and three iterations back) earns up
    ///   to twice the time, a rising one a tenth less: a position going wrong is where a
    ///   deeper look pays;
    /// - each best-move change earns as much again, halved with each later iteration;
    /// - a best move unchanged for six iterations, or holding nine tenths of the nodes
    ///   from depth 8 on, is settled: a quarter less each.
    pub fn completed(&mut self, depth: u32, best: Move, score: i32, share: f64) -> f64 {
        let score = score.clamp(-SCORE_CAP, SCORE_CAP);
        self.changes /= 2.0;
        if self.best != Move::NULL && best != self.best {
            self.changes += 1.0;
            self.stable = 0;
        } else {
            self.stable += 1;
        }
        self.best = best;
        // Three iterations back from this one: the oldest kept.
        let back = self.scores[0];
        self.scores.rotate_left(1);
        self.scores[2] = Some(score);
        let drop_game = self.before.map_or(0, |b| b - score);
        let drop_iter = back.map_or(0, |b| b - score);
        let falling = (1.0 + 0.02 * drop_game as f64 + 0.01 * drop_iter as f64).clamp(0.9, 2.0);
        let unstable = 1.0 + self.changes;
        let settled = if self.stable >= 6 { 0.75 } else { 1.0 };
        let effort = if depth >= 8 && share >= 0.9 {
            0.75
        } else {
            1.0
        };
        falling * unstable * settled * effort
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(n: u64) -> Move {
        Move(n)
    }

    /// Runs iterations of (best move, score, share) from depth 1 on; the last factor.
    fn run(before: Option<i32>, its: &[(u64, i32, f64)]) -> f64 {
        let mut p = Pace::new(before);
        let mut f = 0.0;
        for (d, &(b, s, sh)) in its.iter().enumerate() {
            f = p.completed(d as u32 + 1, m(b), s, sh);
        }
        f
    }

    #[test]
    fn a_steady_search_keeps_its_time() {
        assert_eq!(
            run(Some(20), &[(1, 20, 0.5), (1, 20, 0.5), (1, 20, 0.5)]),
            1.0
        );
    }

    #[test]
    fn a_score_falling_since_the_last_move_earns_more_time_up_to_twice() {
        let level = run(Some(30), &[(1, 30, 0.5), (1, 30, 0.5)]);
        let fallen = run(Some(30), &[(1, 30, 0.5), (1, -10, 0.5)]);
        let collapsed = run(Some(30), &[(1, 30, 0.5), (1, -400, 0.5)]);
        assert!(fallen > 1.5 * level, "{fallen} against {level}");
        assert_eq!(collapsed, 2.0);
        // Rising scores cost at most a tenth.
        assert_eq!(run(Some(-300), &[(1, 30, 0.5), (1, 300, 0.5)]), 0.9);
    }

    #[test]
    fn a_fall_within_the_search_counts_against_the_score_three_iterations_back() {
        // Iterations 1-3 at +100, the fourth at +50: a fall of 50 against the first.
        assert_eq!(
            run(
                None,
                &[(1, 100, 0.5), (1, 100, 0.5), (1, 100, 0.5), (1, 50, 0.5)]
            ),
            1.5
        );
        // Only two iterations before the fall: none three back yet.
        assert_eq!(
            run(None, &[(1, 100, 0.5), (1, 100, 0.5), (1, 50, 0.5)]),
            1.0
        );
    }

    #[test]
    fn a_new_best_move_doubles_the_time_and_the_extra_halves_each_iteration() {
        let changed = run(None, &[(1, 0, 0.5), (1, 0, 0.5), (2, 0, 0.5)]);
        assert_eq!(changed, 2.0);
        let later = run(None, &[(1, 0, 0.5), (2, 0, 0.5), (2, 0, 0.5), (2, 0, 0.5)]);
        assert_eq!(later, 1.25);
    }

    #[test]
    fn a_best_move_settled_by_iterations_and_by_nodes_saves_time() {
        let its = [(1, 0, 0.95); 9];
        // Nine iterations: stable for eight, and the share counts from depth 8.
        assert_eq!(run(None, &its), 0.75 * 0.75);
        assert_eq!(run(None, &its[..7]), 0.75);
    }

    #[test]
    fn mate_scores_count_as_a_lost_or_won_game_not_as_a_fall_of_thousands() {
        // A mate found a move ago is two plies nearer now: no fall.
        assert_eq!(run(Some(29_990), &[(1, 29_988, 0.5)]), 1.0);
        // Lost either way: no fall worth thinking over.
        assert_eq!(run(Some(-2_000), &[(1, -29_990, 0.5)]), 1.0);
    }
}
