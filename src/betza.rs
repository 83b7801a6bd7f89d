//! Placeholder Betza parser (replaced by the full parser).
use crate::movement::{symmetric, Atom, AtomKind, Mode, Offset};

/// Parse error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("betza \"{text}\" at character {pos}: {msg}")]
pub struct BetzaError {
    /// Input.
    pub text: String,
    /// Position.
    pub pos: usize,
    /// Message.
    pub msg: String,
}

/// Parses Betza.
pub fn parse(s: &str) -> Result<Vec<Atom>, BetzaError> {
    let mut out = Vec::new();
    let ch: Vec<char> = s.chars().collect();
    let mut i = 0;
    let (mut f, mut m, mut c, mut ini, mut n) = (false, false, false, false, false);
    while i < ch.len() {
        match ch[i] {
            'f' => f = true,
            'm' => m = true,
            'c' => c = true,
            'i' => ini = true,
            'n' => n = true,
            a => {
                let (legs, ride): (Vec<(i8, i8)>, bool) = match a {
                    'K' => (vec![(1, 0), (1, 1)], false),
                    'Q' => (vec![(1, 0), (1, 1)], true),
                    'R' => (vec![(1, 0)], true),
                    'B' => (vec![(1, 1)], true),
                    'N' => (vec![(2, 1)], false),
                    'W' => (vec![(1, 0)], false),
                    'F' => (vec![(1, 1)], false),
                    'D' => (vec![(2, 0)], false),
                    _ => return Err(BetzaError { text: s.into(), pos: i + 1, msg: "unknown".into() }),
                };
                let mode = if m { Mode::Move } else if c { Mode::Capture } else { Mode::Both };
                for (dx, dy) in legs {
                    for o in symmetric(dx, dy) {
                        if f && o.dy <= 0 {
                            continue;
                        }
                        let kind = if ride {
                            AtomKind::Ride { range: 0 }
                        } else if n {
                            AtomKind::Lame { via: Offset::new(o.dx / 2, o.dy / 2) }
                        } else {
                            AtomKind::Leap
                        };
                        out.push(Atom { kind, step: o, mode, initial: ini });
                    }
                }
                f = false; m = false; c = false; ini = false; n = false;
            }
        }
        i += 1;
    }
    Ok(out)
}
