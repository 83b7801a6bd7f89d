//! Placeholder Betza parser (replaced by the full parser).
//!
//! TEMPORARY (augsburg branch): the A, G, H atoms and a decimal range suffix on an atom
//! (`B4`, `R4`: a rider limited to that many steps; on a leaper, `W4` = `R4`) were added
//! minimally for `tables/augsburg.toml`. The full parser on main supersedes this file
//! with the same `parse` API; drop these additions at merge.
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
                    'A' => (vec![(2, 2)], false),
                    'H' => (vec![(3, 0)], false),
                    'G' => (vec![(3, 3)], false),
                    _ => {
                        return Err(BetzaError {
                            text: s.into(),
                            pos: i + 1,
                            msg: format!("unknown atom '{a}'"),
                        })
                    }
                };
                // TEMPORARY: a range suffix turns the atom into a rider of that many steps.
                let digits_start = i + 1;
                while i + 1 < ch.len() && ch[i + 1].is_ascii_digit() {
                    i += 1;
                }
                let range = if i + 1 > digits_start {
                    let text: String = ch[digits_start..=i].iter().collect();
                    match text.parse::<u8>() {
                        Ok(r) if r > 0 => Some(r),
                        _ => {
                            return Err(BetzaError {
                                text: s.into(),
                                pos: digits_start + 1,
                                msg: format!("bad range \"{text}\""),
                            })
                        }
                    }
                } else {
                    None
                };
                let mode = if m {
                    Mode::Move
                } else if c {
                    Mode::Capture
                } else {
                    Mode::Both
                };
                for (dx, dy) in legs {
                    for o in symmetric(dx, dy) {
                        if f && o.dy <= 0 {
                            continue;
                        }
                        let kind = if let Some(r) = range {
                            AtomKind::Ride { range: r }
                        } else if ride {
                            AtomKind::Ride { range: 0 }
                        } else if n {
                            AtomKind::Lame {
                                via: Offset::new(o.dx / 2, o.dy / 2),
                            }
                        } else {
                            AtomKind::Leap
                        };
                        out.push(Atom {
                            kind,
                            step: o,
                            mode,
                            initial: ini,
                        });
                    }
                }
                f = false;
                m = false;
                c = false;
                ini = false;
                n = false;
            }
        }
        i += 1;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_atoms_and_ranges_for_augsburg() {
        // Augsburg rulings: Deacon WB4, Longbowman ADGH.
        let d = parse("WB4").unwrap();
        assert_eq!(d.len(), 8);
        assert_eq!(
            d.iter()
                .filter(|a| a.kind == AtomKind::Ride { range: 4 })
                .count(),
            4
        );
        let l = parse("ADGH").unwrap();
        assert_eq!(l.len(), 16);
        assert!(l.iter().all(|a| a.kind == AtomKind::Leap));
        assert!(l.iter().any(|a| a.step == Offset::new(3, 3)));
        assert!(l.iter().any(|a| a.step == Offset::new(0, -3)));
        assert!(parse("R0").is_err());
        assert!(parse("X").is_err());
    }
}
