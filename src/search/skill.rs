//! A weakened engine (`UCI_LimitStrength` with `UCI_Elo`): a node cap per move and a
//! random choice among the best root lines, both scaled by one skill level.
//!
//! The choice is Stockfish's Skill Level pick: every line's score is pushed up by a
//! term that grows with how much worse it is and by a random share of the spread of
//! the lines (at most a pawn), both scaled by the weakness; the line with the highest
//! pushed score is played. A weak level therefore often plays the second or fourth
//! best move, and when the lines are close it picks among them almost at random.

use super::Line;
use crate::core::shard::splitmix64;

/// Lowest `UCI_Elo` accepted.
pub const MIN_ELO: u32 = 500;
/// Highest `UCI_Elo` accepted; at this level the engine plays at full strength.
pub const MAX_ELO: u32 = 2850;
/// Root lines a weakened engine chooses from.
pub const SKILL_LINES: usize = 4;

/// What a level of play costs the search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    /// Level from 0 (weakest) to 20 (full strength).
    pub level: f64,
}

impl Skill {
    /// The skill of an Elo in `MIN_ELO..=MAX_ELO` (clamped): linear in level, which
    /// the calibration in the README measured against Fairy-Stockfish's Skill Level.
    pub fn from_elo(elo: u32) -> Skill {
        let e = elo.clamp(MIN_ELO, MAX_ELO) as f64;
        Skill {
            level: 20.0 * (e - MIN_ELO as f64) / (MAX_ELO - MIN_ELO) as f64,
        }
    }

    /// True when this skill changes nothing (the top level).
    pub fn is_full(&self) -> bool {
        self.level >= 20.0
    }

    /// Nodes per move: 100 at level 0, doubling every 5/3 levels (about 410,000 at
    /// level 19.9); none at full strength.
    pub fn node_cap(&self) -> Option<u64> {
        if self.is_full() {
            None
        } else {
            Some((100.0 * 2f64.powf(self.level * 0.6)) as u64)
        }
    }

    /// How far from the best a pick may stray: 120 at level 0 down to 0 at level 20.
    fn weakness(&self) -> u64 {
        (120.0 - 6.0 * self.level).round().max(0.0) as u64
    }

    /// The line to play among `lines` (best first), with `seed` as the random draw.
    pub fn pick(&self, lines: &[Line], seed: u64) -> usize {
        let weakness = self.weakness();
        if lines.len() < 2 || weakness == 0 {
            return 0;
        }
        let top = lines[0].score as i64;
        let bottom = lines.iter().map(|l| l.score as i64).min().unwrap_or(top);
        let delta = (top - bottom).min(100);
        let mut rng = seed;
        let mut best = (i64::MIN, 0);
        for (i, l) in lines.iter().enumerate() {
            rng = splitmix64(rng);
            let s = l.score as i64;
            // Mate scores are far apart; the push term is computed on a pawn-capped gap
            // so that it cannot overflow or drown the real ordering.
            let gap = (top - s).min(1000);
            let push = (weakness as i64 * gap + delta * (rng % weakness) as i64) / 128;
            if s + push > best.0 {
                best = (s + push, i);
            }
        }
        best.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::moves::Move;

    fn lines(scores: &[i32]) -> Vec<Line> {
        scores
            .iter()
            .map(|&score| Line {
                score,
                pv: vec![Move::NULL],
            })
            .collect()
    }

    #[test]
    fn levels_span_the_elo_range() {
        assert_eq!(Skill::from_elo(MIN_ELO).level, 0.0);
        assert_eq!(Skill::from_elo(0).level, 0.0);
        assert!(Skill::from_elo(MAX_ELO).is_full());
        assert_eq!(Skill::from_elo(MAX_ELO).node_cap(), None);
        assert_eq!(Skill::from_elo(MIN_ELO).node_cap(), Some(100));
        let mid = Skill::from_elo(1675).node_cap().unwrap();
        assert!((5_000..10_000).contains(&mid), "{mid}");
    }

    #[test]
    fn full_strength_always_plays_the_best_line() {
        let s = Skill::from_elo(MAX_ELO);
        for seed in 0..100 {
            assert_eq!(s.pick(&lines(&[50, 40, -300, -900]), seed), 0);
        }
    }

    #[test]
    fn the_weakest_level_strays_often_and_more_than_a_stronger_one() {
        let l = lines(&[30, 20, 10, -40]);
        let strays = |elo| {
            (0..1000)
                .filter(|&seed| Skill::from_elo(elo).pick(&l, seed * 7919) != 0)
                .count()
        };
        let weak = strays(MIN_ELO);
        let strong = strays(2600);
        assert!(weak > 300, "{weak}");
        assert!(strong < weak, "{strong} vs {weak}");
    }

    #[test]
    fn a_one_line_choice_is_that_line() {
        assert_eq!(Skill::from_elo(MIN_ELO).pick(&lines(&[5]), 1), 0);
        assert_eq!(Skill::from_elo(MIN_ELO).pick(&[], 1), 0);
    }
}
