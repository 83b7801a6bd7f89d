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
    /// A weakened engine's node cap (`UCI_Elo`): as `nodes`, but only once depth 1 is
    /// complete, since its lines are what the weakened pick chooses among (a cap of 100
    /// nodes ended depth 1 early and left it one fixed move).
    pub skill_nodes: Option<u64>,
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
    /// most 50 ms) covers process and GUI latency;
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
        let reserve = (t / 20).max((t / 4).min(5)).clamp(1, 50).min(t);
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn movetime_is_kept_with_a_small_overhead() {
        let l = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        assert_eq!(l.plan(Color::Black).hard, Some(Duration::from_millis(990)));
    }
}
