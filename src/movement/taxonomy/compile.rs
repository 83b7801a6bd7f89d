//! From a description to atoms: each component's block, stepping, directions and mode
//! as White's movement atoms, refusing what the atom kinds cannot express.

use super::{direction_of, Component, Count, Description, TaxonomyError, Turning};
use crate::core::geometry::{MAX_FILES, MAX_RANKS};
use crate::movement::atoms::{Atom, AtomKind, Mode, Offset};
use crate::movement::betza;

/// Multiples `k * s` of a step that fit on the largest board, for `k` in `ks`.
fn multiples(s: Offset, ks: std::ops::RangeInclusive<u32>) -> Vec<Offset> {
    let mut out = Vec::new();
    for k in ks {
        let (dx, dy) = (k as i32 * s.dx as i32, k as i32 * s.dy as i32);
        if dx.abs() >= MAX_FILES as i32 || dy.abs() >= MAX_RANKS as i32 {
            break;
        }
        out.push(Offset::new(dx as i8, dy as i8));
    }
    out
}

impl Component {
    /// White's atoms of this component, or why the atom kinds cannot express it.
    pub fn atoms(
        &self,
        fail: &dyn Fn(String) -> TaxonomyError,
    ) -> Result<Vec<Atom>, TaxonomyError> {
        let label = self.label();
        let path = |why: &str| {
            fail(format!(
                "\"{label}\" {why} needs a path mover; the one path mover this build has is \"fire N-step fell Bent <leaper> Rider\" with N from 1 to 5"
            ))
        };
        if self.walker {
            return Err(path("as a Walker"));
        }
        let mut out = Vec::new();
        for a in self.block.atoms() {
            if !self.rider {
                out.push(a);
                continue;
            }
            let st = self.stepping;
            match self.turning {
                Turning::Straight => {}
                Turning::Free => return Err(path("turning between steps")),
                Turning::Forced => return Err(path("forced to turn between steps")),
            }
            if st.ring {
                return Err(path("in a ring"));
            }
            if st.fell {
                return Err(path("capturing on the way (fell)"));
            }
            let s = a.step;
            if st.free {
                let ks = match st.count {
                    Count::AtMost(n) => 1..=n as u32,
                    Count::Exactly(n) => n as u32..=n as u32,
                    Count::AtLeast(n) => n as u32..=u8::MAX as u32,
                    Count::Unlimited => 1..=u8::MAX as u32,
                };
                for o in multiples(s, ks) {
                    out.push(Atom {
                        kind: AtomKind::Leap,
                        step: o,
                        ..a
                    });
                }
                continue;
            }
            let kind = match st.count {
                Count::AtMost(1) | Count::Exactly(1) => AtomKind::Leap,
                Count::AtMost(n) => AtomKind::Ride { range: n },
                Count::Unlimited | Count::AtLeast(1) => AtomKind::Ride { range: 0 },
                Count::Exactly(2) => {
                    let far = multiples(s, 2..=2);
                    let Some(&to) = far.first() else { continue };
                    out.push(Atom {
                        kind: AtomKind::Lame { via: s },
                        step: to,
                        ..a
                    });
                    continue;
                }
                Count::Exactly(n) => {
                    return Err(path(&format!(
                        "making exactly {n} steps over empty squares"
                    )))
                }
                Count::AtLeast(n) => {
                    return Err(fail(format!(
                        "\"{label}\" riding at least {n} steps needs a minimum-distance rider, which this build cannot express"
                    )))
                }
            };
            out.push(Atom { kind, ..a });
        }
        let mut kept = Vec::new();
        for a in out {
            if self.directions & direction_of(a.step) == 0 {
                continue;
            }
            let mode = match (self.mode, a.mode) {
                (Mode::Both, m) => m,
                (m, Mode::Both) => m,
                (m, am) if m == am => m,
                _ => continue,
            };
            kept.push(Atom { mode, ..a });
        }
        Ok(kept)
    }

    /// The word that names this component in messages.
    fn label(&self) -> &'static str {
        if self.is_name {
            self.block.name()
        } else {
            self.block.prefix()
        }
    }
}

impl Description {
    /// The movement atoms (White's view), or why this build cannot express them.
    pub fn atoms(&self) -> Result<Vec<Atom>, TaxonomyError> {
        let fail = |msg: String| TaxonomyError {
            name: self.text.clone(),
            msg,
        };
        // A direction word that leaves one part of a combination no move keeps the
        // others ("Vigilant Noble-Guard": the Knight has no sideways move, the Guard's
        // sideways steps remain); a name none of whose parts keeps a move is refused.
        let mut all = Vec::new();
        for c in &self.components {
            all.extend(c.atoms(&fail)?);
        }
        if all.is_empty() {
            let labels: Vec<String> = self
                .components
                .iter()
                .map(|c| format!("\"{}\"", c.label()))
                .collect();
            return Err(fail(format!(
                "{} {} no move left after the direction and capture words, or every move leaves the board",
                labels.join(" and "),
                if labels.len() == 1 { "has" } else { "have" }
            )));
        }
        Ok(betza::normalize(&all))
    }
}
