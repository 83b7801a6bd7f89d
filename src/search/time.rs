//! Search limits and the time plan derived from them.

use crate::core::moves::{Color, Move};
use std::time::Duration;

/// What bounds a search (UCI `go` parameters).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Stop after completing this many plies.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (exact with one thread).
    pub nodes: Option<u64>,
    /// Think exactly this long.
    pub movetime: Option<u64>,
    /// Remaining clock time per colour, in ms.
    pub time: [Option<u64>; 2],
    /// Increment per colour, in ms.
    pub inc: [u64; 2],
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Look for a mate in this many moves.
    pub mate: Option<u32>,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Best root lines to report each iteration (0 and 1 both mean one).
    pub multipv: usize,
    /// Ponder: search without a clock until `ponderhit` (then the time plan starts
    /// from that moment) or `stop`.
    pub ponder: bool,
}

/// Clock time a timed search never plans to use (see [`Limits::plan`]).
pub const CUSHION_MS: u64 = 300;

/// Soft and hard deadlines for one move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimePlan {
    /// Do not start another iteration after this.
    pub soft: Option<Duration>,
    /// Abort the search at this point.
    pub hard: Option<Duration>,
}

impl Limits {
    /// A fixed-depth limit.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// The time plan for the side to move `us`.
    ///
    /// A reserve of a twentieth of the clock (at least 5 ms or a quarter of a tiny clock, at
    /// most 50 ms) covers process and GUI latency, and a cushion keeps
    /// [`CUSHION_MS`] (or nine tenths of a smaller clock) off limits: on a loaded machine
    /// a process is sometimes descheduled for a few hundred ms (measured at 1+0.01 on the
    /// shared 2-core machine: moves of 0.2 s planned at 20 ms), and a clock living on its
    /// increment must keep that much in hand;
    /// the rest is shared over the moves to go (30 if unknown) plus most of the
    /// increment. One move aims at no more than an eighth of what is left and never takes
    /// more than a quarter (half and 80% when it is the last before the time control): on
    /// a short clock the increment then outgrows the spending, so a 10 ms increment keeps
    /// the clock alive.
    pub fn plan(&self, us: Color) -> TimePlan {
        if self.infinite {
            return TimePlan::default();
        }
        if let Some(mt) = self.movetime {
            let overhead = (mt / 10).min(10);
            let t = Duration::from_millis(mt.saturating_sub(overhead).max(1));
            return TimePlan {
                soft: Some(t),
                hard: Some(t),
            };
        }
        let Some(t) = self.time[us.idx()] else {
            return TimePlan::default();
        };
        let inc = self.inc[us.idx()];
        let latency = (t / 20).max((t / 4).min(5)).clamp(1, 50);
        let reserve = latency.max((t * 9 / 10).min(CUSHION_MS)).min(t);
        let avail = (t - reserve).max(1);
        let mtg = self.movestogo.map_or(30, |m| m.clamp(1, 60)) as u64;
        let (soft_cap, hard_cap) = if mtg == 1 {
            (avail / 2, avail * 8 / 10)
        } else {
            (avail / 8, avail / 4)
        };
        let soft = (avail / mtg)
            .saturating_add(inc / 4 * 3)
            .min(soft_cap)
            .max(1);
        let hard = soft.saturating_mul(4).min(hard_cap.max(1)).max(1);
        TimePlan {
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
        }
    }
}

/// What the iterations so far say about the best move, for [`time_scale`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stability {
    /// Completed iterations in a row that ended with the same best move (0: it just
    /// changed, or this is the first iteration).
    pub unchanged: u32,
    /// Centipawns the score fell from the previous iteration (negative: it rose).
    pub score_drop: i32,
    /// Share of the last iteration's root nodes spent below the best move, in `0..=1`.
    pub best_share: f64,
}

/// Most the soft limit is stretched; the hard limit still caps every search.
pub const MAX_SCALE: f64 = 2.5;
/// Least the soft limit is shrunk to.
pub const MIN_SCALE: f64 = 0.35;

/// The factor the soft limit is multiplied by after an iteration.
///
/// Three signals, multiplied, each about 1 in a typical middlegame iteration (best move
/// held for four iterations, 80% of the root nodes under it): a best move that just
/// changed earns 40% more time and one that has held for six iterations or more 15%
/// less, since a move that keeps winning is unlikely to be replaced by one more ply; a
/// score that fell earns up to 80% more (linearly up to a pawn), since the position
/// turned worse than believed and the fix may need more depth; and the best move's share
/// of the root nodes says how clearly it stands out (all of them: 0.8x, the alternatives
/// were refuted fast; 80%: 1.0x; 40% or less: 1.4x). A first version centred lower
/// (0.75x after six stable iterations, 0.6x at a 90% share) played about half as long
/// and lost at 1+0.01 (docs/strength.md).
pub fn time_scale(s: Stability) -> f64 {
    let stable = if s.unchanged == 0 {
        1.4
    } else {
        1.3 - 0.075 * s.unchanged.min(6) as f64
    };
    let drop = 1.0 + 0.8 * (s.score_drop.clamp(0, 100) as f64 / 100.0);
    let share = if s.best_share.is_nan() {
        0.5
    } else {
        s.best_share.clamp(0.0, 1.0)
    };
    let nodes = (1.8 - share).clamp(0.8, 1.4);
    (stable * drop * nodes).clamp(MIN_SCALE, MAX_SCALE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn st(unchanged: u32, score_drop: i32, best_share: f64) -> f64 {
        time_scale(Stability {
            unchanged,
            score_drop,
            best_share,
        })
    }

    #[test]
    fn a_stable_best_move_stops_sooner_than_a_changing_one() {
        assert!(st(5, 0, 0.5) < st(1, 0, 0.5));
        assert!(st(1, 0, 0.5) < st(0, 0, 0.5));
        assert!(st(6, 0, 0.8) < 1.0 && st(0, 0, 0.8) > 1.0);
        assert!((st(4, 0, 0.8) - 1.0).abs() < 1e-9);
        // Beyond six iterations nothing more is taken away.
        assert_eq!(st(6, 0, 0.5), st(40, 0, 0.5));
    }

    #[test]
    fn a_falling_score_extends_and_a_rising_one_does_not() {
        assert!(st(3, 50, 0.5) > st(3, 0, 0.5));
        assert!(st(3, 100, 0.5) > st(3, 50, 0.5));
        assert_eq!(st(3, -300, 0.5), st(3, 0, 0.5));
        // A drop beyond a pawn counts as a pawn.
        assert_eq!(st(3, 1000, 0.5), st(3, 100, 0.5));
    }

    #[test]
    fn a_best_move_taking_most_nodes_stops_sooner() {
        assert!(st(2, 0, 0.95) < st(2, 0, 0.5));
        assert!(st(2, 0, 0.5) < st(2, 0, 0.2));
        // No root nodes counted (a share of 0/0) counts as neither.
        assert_eq!(st(2, 0, f64::NAN), st(2, 0, 0.5));
    }

    #[test]
    fn the_scale_stays_within_its_bounds() {
        for u in 0..10 {
            for d in [-500, -10, 0, 30, 100, 900] {
                for sh in [0.0, 0.1, 0.5, 0.9, 1.0] {
                    let f = st(u, d, sh);
                    assert!((MIN_SCALE..=MAX_SCALE).contains(&f), "{u} {d} {sh}: {f}");
                }
            }
        }
        assert_eq!(st(0, 100, 0.0), MAX_SCALE);
    }

    #[test]
    fn a_short_clock_with_increment_never_plans_past_a_quarter_of_the_clock() {
        for t in [5u64, 20, 50, 200, 1000, 60_000] {
            let l = Limits {
                time: [Some(t), Some(t)],
                inc: [10, 10],
                ..Limits::default()
            };
            let p = l.plan(Color::White);
            let hard = p.hard.unwrap().as_millis() as u64;
            assert!(hard <= t.div_ceil(4), "clock {t} ms: hard limit {hard} ms");
            assert!(p.soft.unwrap() <= p.hard.unwrap());
        }
    }

    #[test]
    fn a_clock_living_on_its_increment_keeps_its_cushion() {
        // Worst case: every move takes its whole hard limit.
        let mut t = 1000u64;
        let mut lowest = t;
        for _ in 0..300 {
            let l = Limits {
                time: [Some(t), Some(t)],
                inc: [10, 10],
                ..Limits::default()
            };
            let hard = l.plan(Color::White).hard.unwrap().as_millis() as u64;
            t = t - hard + 10;
            lowest = lowest.min(t);
        }
        assert!(lowest >= CUSHION_MS - 50, "the clock fell to {lowest} ms");
    }

    #[test]
    fn movetime_is_kept_with_a_small_overhead() {
        let l = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        assert_eq!(l.plan(Color::Black).hard, Some(Duration::from_millis(990)));
    }
}
