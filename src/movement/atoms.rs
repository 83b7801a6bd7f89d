//! Movement atoms: the mechanisms every piece is built from.
//!
//! A piece's movement is a list of [`Atom`]s, each one concrete direction (already
//! expanded by symmetry) as seen by White; Black uses the same atoms turned half round
//! (`dx` and `dy` negated), so that Betza's `l` and `r` are the owner's left and right,
//! as XBoard and Fairy-Stockfish read them.
//! Parsers (Betza, the Locomotive Taxonomy) produce atoms; `attacks` compiles them.

/// A displacement in files (`dx`, towards the h/j file) and ranks (`dy`, towards Black).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Offset {
    /// File delta.
    pub dx: i8,
    /// Rank delta, positive towards the opponent of White.
    pub dy: i8,
}

impl Offset {
    /// A displacement of `dx` files and `dy` ranks.
    pub const fn new(dx: i8, dy: i8) -> Offset {
        Offset { dx, dy }
    }

    /// The same displacement seen by Black, who faces White: forward is down the board
    /// and Black's left is White's right.
    pub const fn for_black(self) -> Offset {
        self.reversed()
    }

    /// The displacement pointing the other way.
    pub const fn reversed(self) -> Offset {
        Offset {
            dx: -self.dx,
            dy: -self.dy,
        }
    }

    /// Chebyshev length of one step.
    pub fn length(self) -> i32 {
        (self.dx as i32).abs().max((self.dy as i32).abs())
    }
}

/// What an atom may do on its target square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mode {
    /// Only to an empty square (Betza `m`).
    Move,
    /// Only onto an enemy piece (Betza `c`).
    Capture,
    /// Either (the default).
    Both,
}

impl Mode {
    /// True when the atom may move to an empty square.
    pub fn moves(self) -> bool {
        matches!(self, Mode::Move | Mode::Both)
    }

    /// True when the atom may capture.
    pub fn captures(self) -> bool {
        matches!(self, Mode::Capture | Mode::Both)
    }
}

/// The geometry of one atom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomKind {
    /// One jump by the step, whatever stands between.
    Leap,
    /// One jump by the step, only if the square at `via` (relative to the start) is empty
    /// (Betza `n`: the Xiangqi Horse, a non-leaping two-step).
    Lame {
        /// The intermediate square that must be empty.
        via: Offset,
    },
    /// Repeated steps until blocked; `range` 0 means unlimited, otherwise at most
    /// `range` steps (Betza `R4`).
    Ride {
        /// Maximum number of steps, 0 = unlimited.
        range: u8,
    },
    /// Rides along the step direction over exactly one screen (the first piece met), and
    /// then on to the squares beyond it: empty ones for a move, the first piece beyond for
    /// a capture (Betza `p`; a Xiangqi Cannon's capture is `cpR`). `range` limits the
    /// whole distance from the start, 0 = unlimited.
    Hop {
        /// Maximum number of steps from the start, 0 = unlimited.
        range: u8,
    },
    /// Rides along the step to the first piece met (the hurdle, of either colour) and
    /// lands on the square just beyond it, one step further: a move when it is empty, a
    /// capture when it holds an enemy (Betza `g`, the Grasshopper `gQ`: "hop over a piece
    /// and land directly behind it", XBoard's Betza.html). `range` limits the distance
    /// from the start to the landing square, as XBoard reads `gR4`; 0 = unlimited.
    Grasshopper {
        /// Maximum number of steps from the start to the landing square, 0 = unlimited.
        range: u8,
    },
    /// One step onto an empty square, then a ride along `then` (Griffon: F then the
    /// outward R; Manticore: W then the outward B). The first step alone is a separate
    /// atom. `range` limits the ride, 0 = unlimited.
    Bent {
        /// Direction of the ride after the first step.
        then: Offset,
        /// Maximum number of ride steps, 0 = unlimited.
        range: u8,
    },
}

/// One concrete movement: a kind, a step, a mode and where it may start from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    /// Geometry.
    pub kind: AtomKind,
    /// The step (for a leap, the whole jump; for a bent rider, its first step).
    pub step: Offset,
    /// Move only, capture only, or both.
    pub mode: Mode,
    /// Betza `i`: only from the piece's initial ranks (the variant says which).
    pub initial: bool,
}

impl Atom {
    /// A leap with both modes.
    pub const fn leap(dx: i8, dy: i8) -> Atom {
        Atom {
            kind: AtomKind::Leap,
            step: Offset::new(dx, dy),
            mode: Mode::Both,
            initial: false,
        }
    }

    /// An unlimited ride with both modes.
    pub const fn ride(dx: i8, dy: i8) -> Atom {
        Atom {
            kind: AtomKind::Ride { range: 0 },
            step: Offset::new(dx, dy),
            mode: Mode::Both,
            initial: false,
        }
    }

    /// The same atom with another mode.
    pub const fn with_mode(mut self, mode: Mode) -> Atom {
        self.mode = mode;
        self
    }

    /// The same atom seen by Black ([`Offset::for_black`]).
    pub fn for_black(self) -> Atom {
        let kind = match self.kind {
            AtomKind::Lame { via } => AtomKind::Lame {
                via: via.for_black(),
            },
            AtomKind::Bent { then, range } => AtomKind::Bent {
                then: then.for_black(),
                range,
            },
            k => k,
        };
        Atom {
            kind,
            step: self.step.for_black(),
            ..self
        }
    }
}

/// The eight symmetric images of a (dx, dy) displacement, without duplicates.
pub fn symmetric(dx: i8, dy: i8) -> Vec<Offset> {
    let mut out: Vec<Offset> = Vec::with_capacity(8);
    for (a, b) in [(dx, dy), (dy, dx)] {
        for sa in [1, -1] {
            for sb in [1, -1] {
                let o = Offset::new(a * sa, b * sb);
                if !out.contains(&o) {
                    out.push(o);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_images() {
        assert_eq!(symmetric(1, 0).len(), 4);
        assert_eq!(symmetric(1, 1).len(), 4);
        assert_eq!(symmetric(2, 1).len(), 8);
        assert_eq!(symmetric(0, 0).len(), 1);
    }

    #[test]
    fn black_sees_each_step_turned_half_round() {
        let a = Atom {
            kind: AtomKind::Bent {
                then: Offset::new(0, 1),
                range: 0,
            },
            step: Offset::new(1, 1),
            mode: Mode::Move,
            initial: false,
        };
        // Betza `rfF` seen by Black: forward is down and its right is the a-file side.
        let m = a.for_black();
        assert_eq!(m.step, Offset::new(-1, -1));
        assert_eq!(
            m.kind,
            AtomKind::Bent {
                then: Offset::new(0, -1),
                range: 0
            }
        );
    }
}
