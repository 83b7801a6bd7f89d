//! Time controls as the match options give them (`tc=40/60+0.5`, `st=5`, `depth=8`,
//! `nodes=20000`): parsed and checked; `game.rs` keeps the clocks they set.

use std::time::Duration;

/// A time control.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct TimeControl {
    /// Moves per period (0 = whole game).
    pub moves: u32,
    /// Time per period.
    pub base: Option<Duration>,
    /// Increment per move.
    pub inc: Duration,
    /// Fixed time per move.
    pub movetime: Option<Duration>,
    /// Fixed depth.
    pub depth: Option<u32>,
    /// Fixed nodes.
    pub nodes: Option<u64>,
}

/// Why a time control key was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// A time that is not a number of seconds.
    #[error("{key}: \"{text}\" is not a number of seconds")]
    NotSeconds {
        /// The key it was given for.
        key: &'static str,
        /// The text as given.
        text: String,
    },
    /// A time below zero or beyond a hundred days.
    #[error("{key}: {text} seconds is out of range")]
    OutOfRange {
        /// The key it was given for.
        key: &'static str,
        /// The text as given.
        text: String,
    },
    /// A `tc` moves-per-period that is not a count.
    #[error("tc: \"{0}\" is not a move count")]
    NotMoveCount(String),
    /// A depth or node limit that is not a number.
    #[error("{key}: \"{text}\" is not a number")]
    NotNumber {
        /// The key it was given for.
        key: &'static str,
        /// The text as given.
        text: String,
    },
    /// A key other than tc, st, depth and nodes.
    #[error("unknown time control key \"{0}\"")]
    UnknownKey(String),
    /// A limit that leaves a move nothing: `st=0`, `nodes=0`, `depth=0`, or a `tc`
    /// with neither base time nor increment.
    #[error("{0}=0 leaves no move anything to search with")]
    Zero(&'static str),
    /// A key given twice in one specification (the last one won, silently).
    #[error("{0} given twice")]
    Twice(String),
    /// `tc` and `st` together: a clock and a fixed time per move contradict each other.
    #[error("tc and st together: a match plays by a clock or by a time per move")]
    ClockAndMoveTime,
}

fn secs(text: &str, key: &'static str) -> Result<Duration, TimeControlError> {
    let x: f64 = text.parse().map_err(|_| TimeControlError::NotSeconds {
        key,
        text: text.to_string(),
    })?;
    if !(0.0..1e7).contains(&x) {
        return Err(TimeControlError::OutOfRange {
            key,
            text: text.to_string(),
        });
    }
    Ok(Duration::from_secs_f64(x))
}

fn whole<T: std::str::FromStr>(text: &str, key: &'static str) -> Result<T, TimeControlError> {
    text.parse().map_err(|_| TimeControlError::NotNumber {
        key,
        text: text.to_string(),
    })
}

impl TimeControl {
    /// Applies `tc=40/60+0.6`, `st=0.1`, `depth=6` or `nodes=10000`.
    pub fn apply(&mut self, key: &str, value: &str) -> Result<(), TimeControlError> {
        match key {
            "tc" => {
                let (moves, rest) = match value.split_once('/') {
                    Some((m, r)) => (
                        m.parse::<u32>()
                            .map_err(|_| TimeControlError::NotMoveCount(m.to_string()))?,
                        r,
                    ),
                    None => (0, value),
                };
                let (base, inc) = match rest.split_once('+') {
                    Some((b, i)) => (b, Some(i)),
                    None => (rest, None),
                };
                // Base may be seconds or minutes:seconds.
                let base = match base.split_once(':') {
                    Some((m, s)) => secs(m, "tc")? * 60 + secs(s, "tc")?,
                    None => secs(base, "tc")?,
                };
                let inc = match inc {
                    Some(i) => secs(i, "tc")?,
                    None => Duration::ZERO,
                };
                if base.is_zero() && inc.is_zero() {
                    return Err(TimeControlError::Zero("tc"));
                }
                // A later clock replaces an earlier time per move (an engine's own `tc`
                // over `--each st=`), and the other way round below.
                self.moves = moves;
                self.base = Some(base);
                self.inc = inc;
                self.movetime = None;
            }
            "st" => {
                let t = secs(value, "st")?;
                if t.is_zero() {
                    return Err(TimeControlError::Zero("st"));
                }
                self.movetime = Some(t);
                (self.moves, self.base, self.inc) = (0, None, Duration::ZERO);
            }
            "depth" => match whole(value, "depth")? {
                0 => return Err(TimeControlError::Zero("depth")),
                d => self.depth = Some(d),
            },
            "nodes" => match whole(value, "nodes")? {
                0 => return Err(TimeControlError::Zero("nodes")),
                n => self.nodes = Some(n),
            },
            _ => return Err(TimeControlError::UnknownKey(key.to_string())),
        }
        Ok(())
    }

    /// Refuses one specification's keys (`--each`'s, or one engine's) that say two
    /// things: a key given twice, or `tc` with `st`.
    pub fn check_keys<'a>(keys: impl Iterator<Item = &'a str>) -> Result<(), TimeControlError> {
        let mut seen: Vec<&str> = Vec::new();
        for k in keys {
            if seen.contains(&k) {
                return Err(TimeControlError::Twice(k.to_string()));
            }
            seen.push(k);
        }
        if seen.contains(&"tc") && seen.contains(&"st") {
            return Err(TimeControlError::ClockAndMoveTime);
        }
        Ok(())
    }

    /// True when nothing limits a move.
    pub fn is_unlimited(&self) -> bool {
        self.base.is_none()
            && self.movetime.is_none()
            && self.depth.is_none()
            && self.nodes.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_parse() {
        let mut tc = TimeControl::default();
        tc.apply("tc", "40/60+0.6").unwrap();
        assert_eq!(
            (tc.moves, tc.base, tc.inc),
            (
                40,
                Some(Duration::from_secs(60)),
                Duration::from_millis(600)
            )
        );
        tc.apply("tc", "1:30+1").unwrap();
        assert_eq!(tc.base, Some(Duration::from_secs(90)));
        tc.apply("st", "0.1").unwrap();
        assert_eq!(tc.movetime, Some(Duration::from_millis(100)));
        assert_eq!(
            tc.apply("tc", "abc").unwrap_err().to_string(),
            "tc: \"abc\" is not a number of seconds"
        );
        assert_eq!(
            tc.apply("st", "-1").unwrap_err().to_string(),
            "st: -1 seconds is out of range"
        );
        assert_eq!(
            tc.apply("tc", "x/60").unwrap_err().to_string(),
            "tc: \"x\" is not a move count"
        );
        assert_eq!(
            tc.apply("nodes", "many").unwrap_err().to_string(),
            "nodes: \"many\" is not a number"
        );
        assert_eq!(
            tc.apply("bogus", "1"),
            Err(TimeControlError::UnknownKey("bogus".into()))
        );
    }
}
