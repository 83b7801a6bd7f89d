//! Placeholder Betza parser (replaced by the full parser).
//!
//! ARCHMAGE STOPGAP: extended only as far as `tables/archmage.toml` needs — the atoms
//! A D G H C Z and the bent-rider spelling `yafsF` / `yafsW` (Griffon `FyafsF`,
//! Manticore `WyafsW`). The full parser replaces this file with the same API.
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

/// The direction 45 degrees to one side of a unit step (`turn` = +1 or -1).
fn turn45(o: Offset, turn: i32) -> Offset {
    const RING: [(i8, i8); 8] = [
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ];
    let i = RING.iter().position(|&d| d == (o.dx, o.dy)).unwrap_or(0) as i32;
    let (dx, dy) = RING[(i + turn).rem_euclid(8) as usize];
    Offset::new(dx, dy)
}

/// Parses Betza.
pub fn parse(s: &str) -> Result<Vec<Atom>, BetzaError> {
    let mut out = Vec::new();
    let ch: Vec<char> = s.chars().collect();
    let mut mods = String::new();
    let fail = |i: usize, msg: &str| BetzaError {
        text: s.into(),
        pos: i + 1,
        msg: msg.into(),
    };
    for (i, &a) in ch.iter().enumerate() {
        if "fmcinyas".contains(a) {
            mods.push(a);
            continue;
        }
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
            'C' => (vec![(3, 1)], false),
            'Z' => (vec![(3, 2)], false),
            _ => return Err(fail(i, "unknown")),
        };
        let has = |c: char| mods.contains(c);
        let mode = if has('m') {
            Mode::Move
        } else if has('c') {
            Mode::Capture
        } else {
            Mode::Both
        };
        if has('a') || has('y') || has('s') {
            // Only the bent-rider form: one step, then a slide turning 45 degrees outward.
            if !mods.ends_with("yafs") || !matches!(a, 'W' | 'F') {
                return Err(fail(i, "only yafsW / yafsF are supported here"));
            }
            for step in symmetric(legs[0].0, legs[0].1) {
                for turn in [1, -1] {
                    out.push(Atom {
                        kind: AtomKind::Bent {
                            then: turn45(step, turn),
                            range: 0,
                        },
                        step,
                        mode,
                        initial: false,
                    });
                }
            }
            mods.clear();
            continue;
        }
        for (dx, dy) in legs {
            for o in symmetric(dx, dy) {
                if has('f') && o.dy <= 0 {
                    continue;
                }
                let kind = if ride {
                    AtomKind::Ride { range: 0 }
                } else if has('n') {
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
                    initial: has('i'),
                });
            }
        }
        mods.clear();
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn griffon_spelling_gives_ferz_and_outward_orthogonal_slides() {
        let atoms = parse("FyafsF").unwrap();
        assert_eq!(atoms.iter().filter(|a| a.kind == AtomKind::Leap).count(), 4);
        let ne = Offset::new(1, 1);
        let mut thens: Vec<Offset> = atoms
            .iter()
            .filter_map(|a| match a.kind {
                AtomKind::Bent { then, .. } if a.step == ne => Some(then),
                _ => None,
            })
            .collect();
        thens.sort();
        assert_eq!(thens, vec![Offset::new(0, 1), Offset::new(1, 0)]);
    }

    #[test]
    fn manticore_spelling_gives_wazir_and_outward_diagonal_slides() {
        let atoms = parse("WyafsW").unwrap();
        let north = Offset::new(0, 1);
        let mut thens: Vec<Offset> = atoms
            .iter()
            .filter_map(|a| match a.kind {
                AtomKind::Bent { then, .. } if a.step == north => Some(then),
                _ => None,
            })
            .collect();
        thens.sort();
        assert_eq!(thens, vec![Offset::new(-1, 1), Offset::new(1, 1)]);
        assert_eq!(atoms.len(), 4 + 8);
    }

    #[test]
    fn three_square_leapers() {
        assert_eq!(parse("NCZ").unwrap().len(), 24);
        assert_eq!(parse("KADGH").unwrap().len(), 8 + 4 + 4 + 4 + 4);
        assert!(parse("yafsN").is_err());
    }
}
