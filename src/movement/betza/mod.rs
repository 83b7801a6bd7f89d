//! Betza notation (XBoard / Interactive-Diagram "XBetza" dialect) to movement atoms.
//!
//! [`parse`] turns a piece description such as `fmWfcFifmnD` into a deduplicated list of
//! [`Atom`]s (one concrete direction each, as seen by White); [`to_betza`] writes such a
//! list back in a canonical spelling that parses to the same set.
//!
//! Direction modifiers follow the table "directional modifiers" of XBoard's `Betza.html`
//! (H. G. Muller); Fairy-Stockfish's `from_betza` reads the same wherever both define a
//! spelling (a differential perft of 172 strings agreed, 2026-12-07), except on K and Q
//! (below):
//! * orthogonal atoms (W D H): `f b l r` are single moves, `v = fb`, `s = lr`, and any
//!   combination such as `fs` or `fr` is the union of its letters;
//! * diagonal atoms (F A G): `f b l r` are pairs (`fF` = both forward diagonals), a
//!   combination such as `fr` is the single move in that quadrant;
//! * oblique atoms (N C Z): `f` is the *forward pair* (`fN` = the two narrow forward moves,
//!   the Shogi Knight; `ffN` is the same), `b`, `l` (`lN` = the two wide left moves), `r`
//!   likewise; `v` = the 4 narrow, `s` = the 4 wide moves; a two-letter combination `XY`
//!   picks the members of the `Y` pair/set lying on the `X` side, so `lfN` = Ng1-f3 (-1,2),
//!   `flN` = (-2,1), `fsN` = the 2 wide forward moves, `lvN` = the 2 narrow left moves;
//!   `fh bh lh rh` are half-planes (`fhN` = all 4 forward moves) and `hl hr` the two
//!   chiral quartets.
//!
//! Adjacent direction letters combine when they are equal, or when a single direction
//! (`f b l r`) meets a perpendicular letter ("if what was parsed up to now can combine
//! with the next letter, it will"); doubling (`ffrrN`) keeps them apart, and a set letter
//! first joins what follows (`sfN` = `sN` + `fN`, as XBoard reads it).
//!
//! The shorthands K (= WF), R, B, Q apply the same modifiers to each component, as
//! Fairy-Stockfish does for single letters (`fK` = `fWfF`, three moves). XBoard reads
//! letters on K and Q on an eight-point compass instead (`fK` = the one step forward,
//! `fsK` = the two forward diagonals), and the three readers differ on pairs such as
//! `frK`. [`to_betza`] therefore never writes a direction letter on K or Q: its spelling,
//! which the XBoard `piece` lines carry, reads the same in all three.
//!
//! Hoppers need a slider or rider atom (`R B Q`, a doubled or ranged leaper such as `NN`):
//! `p` is the cannon hop, over the first piece met (the screen, of either colour) to any
//! square beyond it (`mRcpR`, the Xiangqi Cannon); `g` is the grasshopper, over the first
//! piece met (the hurdle) to the square directly behind it only, "hop over a piece and
//! land directly behind it" (XBoard's Betza.html: the Grasshopper is `gQ`, and
//! Fairy-Stockfish's variants.ini writes `mRmgQ`, `mQmgQ`, `mKmgQ`). Both combine with
//! `m`, `c` and `i`; a range counts from the start to the last square, as XBoard counts
//! it (`gR4` lands at most four squares away; Fairy-Stockfish's `g` takes a range as its
//! own and reads `gR4` as `pR4`). On a leaper (`gW`, `pK`) they are refused: XBoard
//! gives such a term no move (its one step ends on the hurdle), Fairy-Stockfish a
//! rider's.
//!
//! Multi-leg `a` chains are accepted only where they map onto [`AtomKind::Bent`] or
//! [`AtomKind::Lame`]: `yafsF` (one F step to an empty square, then an outward Rook slide:
//! the bent half of the Griffon, so the full Griffon is `FyafsF`), `yafsW` (W then outward
//! Bishop: Manticore = `WyafsW`), `yaflF` / `yafrF` for one side only, a range digit on the
//! continuation (`yafsF3`), and `afsW` (= `nN`, the Xiangqi Horse). In XBetza the non-final
//! leg of an `a` chain is move-only, so the plain F stop of the Griffon is a separate term.

use crate::movement::atoms::{symmetric, Atom, AtomKind, Mode, Offset};
use ahash::AHashMap as HashMap;

mod write;
pub use write::{to_betza, to_betza_parts};

/// A Betza string that could not be parsed: the text, 1-based character position, reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("betza {text:?} at character {pos}: {msg}")]
pub struct BetzaError {
    /// The whole Betza string being parsed.
    pub text: String,
    /// 1-based character index of the offending character.
    pub pos: usize,
    /// What is wrong there.
    pub msg: String,
}

/// One direction modifier token, after combining adjacent letters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dir {
    /// A single letter (or a doubled one): `f b l r v s`.
    One(char),
    /// Two perpendicular letters `XY`: members of the `Y` set on the `X` side
    /// (on orthogonal atoms: the union of both letters).
    Pair(char, char),
    /// `fh bh lh rh`: every move with a component in that direction.
    Half(char),
    /// `hl`, `hr`: chiral quartets of oblique atoms.
    Chiral(char),
}

/// Moves of the `c` pair/set: f/b/l/r the "most forward/.." moves, v and s their unions.
fn in_set(c: char, x: i8, y: i8) -> bool {
    let (ax, ay) = (x.abs(), y.abs());
    match c {
        'f' => y > 0 && ay >= ax,
        'b' => y < 0 && ay >= ax,
        'r' => x > 0 && ax >= ay,
        'l' => x < 0 && ax >= ay,
        'v' => y != 0 && ay >= ax,
        's' => x != 0 && ax >= ay,
        _ => false,
    }
}

/// Moves on the `c` side of the board (half-plane).
fn in_half(c: char, x: i8, y: i8) -> bool {
    match c {
        'f' => y > 0,
        'b' => y < 0,
        'r' => x > 0,
        'l' => x < 0,
        'v' => y != 0,
        's' => x != 0,
        _ => false,
    }
}

/// Geometry class of an atom's base step (a >= b >= 0).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Shape {
    Orthogonal,
    Diagonal,
    Oblique,
}

fn shape(base: (i8, i8)) -> Shape {
    if base.1 == 0 {
        Shape::Orthogonal
    } else if base.0 == base.1 {
        Shape::Diagonal
    } else {
        Shape::Oblique
    }
}

impl Dir {
    /// Whether this token selects the move (x, y) of an atom of the given shape.
    fn allows(self, sh: Shape, x: i8, y: i8) -> bool {
        match self {
            Dir::One(c) => in_set(c, x, y),
            Dir::Pair(a, b) => {
                if sh == Shape::Orthogonal {
                    in_set(a, x, y) || in_set(b, x, y)
                } else {
                    in_half(a, x, y) && in_set(b, x, y)
                }
            }
            Dir::Half(c) => in_half(c, x, y),
            Dir::Chiral(c) => {
                let hr = ((x as i16 * y as i16) > 0) == (y.abs() > x.abs());
                if c == 'r' {
                    hr
                } else {
                    !hr
                }
            }
        }
    }

    fn first_char(self) -> char {
        match self {
            Dir::One(c) | Dir::Pair(c, _) | Dir::Half(c) => c,
            Dir::Chiral(_) => 'h',
        }
    }
}

fn is_dir_letter(c: char) -> bool {
    "fblrvsh".contains(c)
}

/// Whether direction letter `c` followed by `c2` forms one token. Only a single
/// direction (`f b l r`, or `h`) opens a combination, as in XBoard's reader: a set
/// letter (`v s`) followed by another letter is the union of the two (`sfN` = `sN` +
/// `fN`, six moves), since the notation defines no `sf` or `vr` subset.
fn combines(c: char, c2: char) -> bool {
    let vert = |c: char| "fbvh".contains(c);
    let horiz = |c: char| "lrsh".contains(c);
    is_dir_letter(c)
        && is_dir_letter(c2)
        && (c == c2 || ("fblrh".contains(c) && ((vert(c) && horiz(c2)) || (horiz(c) && vert(c2)))))
}

/// A parsed modifier with its 0-based position.
#[derive(Clone, Copy, Debug)]
enum Modifier {
    Dir(Dir, usize),
    Other(char, usize),
}

/// The modifiers of one leg, digested.
#[derive(Default)]
struct Leg {
    dirs: Vec<(Dir, usize)>,
    m: bool,
    c: bool,
    i: bool,
    n: Option<usize>,
    p: Option<usize>,
    g: Option<usize>,
    y: Option<usize>,
}

impl Leg {
    fn mode(&self) -> Mode {
        match (self.m, self.c) {
            (true, false) => Mode::Move,
            (false, true) => Mode::Capture,
            _ => Mode::Both,
        }
    }

    /// Offsets of `base` selected by the direction modifiers (all when there are none).
    fn select(&self, base: (i8, i8)) -> Vec<Offset> {
        let sh = shape(base);
        symmetric(base.0, base.1)
            .into_iter()
            .filter(|o| {
                self.dirs.is_empty() || self.dirs.iter().any(|(d, _)| d.allows(sh, o.dx, o.dy))
            })
            .collect()
    }
}

struct Parser<'a> {
    text: &'a str,
    chars: Vec<char>,
    i: usize,
}

/// Range written after an atom.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Range {
    /// Nothing written: the atom's default (leap for W..G and K, unlimited for R B Q).
    Default,
    /// Doubled atom (`NN`): unlimited.
    Doubled,
    /// A number; 0 = unlimited.
    Num(u8),
}

fn base_of(letter: char) -> Option<(i8, i8)> {
    Some(match letter {
        'W' => (1, 0),
        'F' => (1, 1),
        'D' => (2, 0),
        'N' => (2, 1),
        'A' => (2, 2),
        'H' => (3, 0),
        'C' => (3, 1),
        'Z' => (3, 2),
        'G' => (3, 3),
        _ => return None,
    })
}

fn sign(v: i8) -> i8 {
    v.signum()
}

/// The unit step 45 degrees to the left of unit step `s`.
fn rot_left(s: Offset) -> Offset {
    Offset::new(sign(s.dx - s.dy), sign(s.dx + s.dy))
}

/// The unit step 45 degrees to the right of unit step `s`.
fn rot_right(s: Offset) -> Offset {
    Offset::new(sign(s.dx + s.dy), sign(s.dy - s.dx))
}

impl<'a> Parser<'a> {
    fn err(&self, pos0: usize, msg: impl Into<String>) -> BetzaError {
        BetzaError {
            text: self.text.to_string(),
            pos: pos0 + 1,
            msg: msg.into(),
        }
    }

    fn peek(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).copied()
    }

    /// Reads a direction token starting at the current (direction) letter.
    fn read_dir(&mut self) -> Result<Modifier, BetzaError> {
        let pos = self.i;
        let c = self.chars[pos];
        let next = self.peek(1).filter(|&c2| combines(c, c2));
        let dir = match next {
            Some(c2) => {
                self.i += 2;
                match (c, c2) {
                    ('h', 'h') => return Err(self.err(pos, "\"hh\" is not a direction")),
                    _ if c == c2 => Dir::One(c),
                    ('h', 'l' | 'r') => Dir::Chiral(c2),
                    ('h', 'f' | 'b') => Dir::Half(c2),
                    (_, 'h') if "fblr".contains(c) => Dir::Half(c),
                    ('h', _) | (_, 'h') => {
                        return Err(self.err(pos, format!("unsupported direction \"{c}{c2}\"")))
                    }
                    _ => Dir::Pair(c, c2),
                }
            }
            None => {
                self.i += 1;
                if c == 'h' {
                    return Err(self.err(pos, "'h' needs a direction letter next to it"));
                }
                Dir::One(c)
            }
        };
        Ok(Modifier::Dir(dir, pos))
    }

    fn parse_all(&mut self) -> Result<Vec<Atom>, BetzaError> {
        if self.chars.is_empty() {
            return Err(self.err(0, "empty Betza string"));
        }
        let mut out = Vec::new();
        while self.i < self.chars.len() {
            self.parse_term(&mut out)?;
        }
        Ok(out)
    }

    /// Parses modifiers, an atom and its range; appends the atoms.
    fn parse_term(&mut self, out: &mut Vec<Atom>) -> Result<(), BetzaError> {
        let start = self.i;
        let mut first: Vec<Modifier> = Vec::new();
        let mut chain: Option<(usize, Vec<Modifier>)> = None;
        let (letter, letter_pos) = loop {
            let Some(c) = self.peek(0) else {
                return Err(self.err(start, "modifiers without an atom"));
            };
            let pos = self.i;
            let mods = match chain.as_mut() {
                Some((_, m)) => m,
                None => &mut first,
            };
            match c {
                _ if is_dir_letter(c) => {
                    let m = self.read_dir()?;
                    mods.push(m);
                }
                'm' | 'c' | 'i' | 'n' | 'p' | 'g' | 'y' => {
                    mods.push(Modifier::Other(c, pos));
                    self.i += 1;
                }
                'a' => {
                    if chain.is_some() {
                        return Err(self.err(pos, "only two-leg 'a' chains are supported"));
                    }
                    chain = Some((pos, Vec::new()));
                    self.i += 1;
                }
                'o' => return Err(self.err(pos, "'o' (cylinder) is not supported")),
                'j' => return Err(self.err(pos, "'j' (jumping/skipping) is not supported")),
                'e' => return Err(self.err(pos, "'e' (en passant) is not supported")),
                'q' | 'z' => {
                    return Err(self.err(pos, format!("'{c}' (curved/crooked) is not supported")))
                }
                'x' | 'd' | 'u' | 't' | 'k' | 'w' => {
                    return Err(self.err(pos, format!("modifier '{c}' is not supported")))
                }
                'L' | 'J' => {
                    return Err(self.err(
                        pos,
                        format!("'{c}' is ambiguous (old Camel/Zebra letter); use C or Z"),
                    ))
                }
                'O' => return Err(self.err(pos, "castling atom 'O' is not supported")),
                _ if base_of(c).is_some() || "KRBQ".contains(c) => {
                    self.i += 1;
                    break (c, pos);
                }
                _ if c.is_ascii_uppercase() => {
                    return Err(self.err(pos, format!("unknown atom '{c}'")))
                }
                _ if c.is_ascii_digit() => return Err(self.err(pos, "range digit without an atom")),
                _ if c.is_ascii_lowercase() => {
                    return Err(self.err(pos, format!("unknown modifier '{c}'")))
                }
                _ => return Err(self.err(pos, format!("unexpected character {c:?}"))),
            }
        };
        // Doubling means nothing on an `a` chain, so `yafsFF` reads as `yafsF` + `F`.
        let range = self.read_range(letter, chain.is_none())?;
        match chain {
            None => self.build_simple(out, &first, letter, letter_pos, range),
            Some((a_pos, second)) => {
                self.build_chain(out, &first, a_pos, &second, letter, letter_pos, range)
            }
        }
    }

    /// Reads a doubled atom letter or a number after the atom.
    fn read_range(&mut self, letter: char, allow_double: bool) -> Result<Range, BetzaError> {
        if allow_double && base_of(letter).is_some() && self.peek(0) == Some(letter) {
            self.i += 1;
            if self.peek(0).is_some_and(|c| c.is_ascii_digit()) {
                return Err(self.err(self.i, "range after a doubled atom"));
            }
            return Ok(Range::Doubled);
        }
        let Some(d0) = self.peek(0).filter(char::is_ascii_digit) else {
            return Ok(Range::Default);
        };
        let first_pos = self.i;
        if d0 == '0' && self.peek(1).is_some_and(|c| c.is_ascii_digit()) {
            return Err(self.err(
                first_pos,
                "exact-range numbers (leading 0) are not supported",
            ));
        }
        let mut value: u32 = 0;
        while let Some(d) = self.peek(0).and_then(|c| c.to_digit(10)) {
            value = value * 10 + d;
            if value > u8::MAX as u32 {
                return Err(self.err(self.i, "range too large (at most 255)"));
            }
            self.i += 1;
        }
        Ok(Range::Num(value as u8))
    }

    /// Digests a leg's modifiers; `allowed` lists the non-direction letters it may carry.
    fn digest(&self, mods: &[Modifier], allowed: &str, what: &str) -> Result<Leg, BetzaError> {
        let mut leg = Leg::default();
        for &m in mods {
            match m {
                Modifier::Dir(d, pos) => leg.dirs.push((d, pos)),
                Modifier::Other(c, pos) => {
                    if !allowed.contains(c) {
                        return Err(self.err(pos, format!("'{c}' is not supported {what}")));
                    }
                    match c {
                        'm' => leg.m = true,
                        'c' => leg.c = true,
                        'i' => leg.i = true,
                        'n' => leg.n = Some(pos),
                        'p' => leg.p = Some(pos),
                        'g' => leg.g = Some(pos),
                        _ => leg.y = Some(pos),
                    }
                }
            }
        }
        Ok(leg)
    }

    fn check_chiral(&self, leg: &Leg, base: (i8, i8)) -> Result<(), BetzaError> {
        if shape(base) != Shape::Oblique {
            if let Some((_, pos)) = leg.dirs.iter().find(|(d, _)| matches!(d, Dir::Chiral(_))) {
                return Err(self.err(*pos, "chiral 'hl'/'hr' only applies to oblique atoms"));
            }
        }
        Ok(())
    }

    fn build_simple(
        &self,
        out: &mut Vec<Atom>,
        mods: &[Modifier],
        letter: char,
        letter_pos: usize,
        range: Range,
    ) -> Result<(), BetzaError> {
        let leg = self.digest(mods, "mcinpg", "outside an 'a' chain")?;
        if let (Some(_), Some(p)) = (leg.n, leg.p) {
            return Err(self.err(p, "'n' and 'p' cannot be combined"));
        }
        if let Some(g) = leg.g {
            let other = leg.n.map(|n| ('n', n)).or(leg.p.map(|p| ('p', p)));
            if let Some((c, pos)) = other {
                return Err(self.err(pos.max(g), format!("'{c}' and 'g' cannot be combined")));
            }
        }
        let (bases, default_range): (Vec<(i8, i8)>, u8) = match letter {
            'K' => (vec![(1, 0), (1, 1)], 1),
            'R' => (vec![(1, 0)], 0),
            'B' => (vec![(1, 1)], 0),
            'Q' => (vec![(1, 0), (1, 1)], 0),
            _ => match base_of(letter) {
                Some(b) => (vec![b], 1),
                None => return Err(self.err(letter_pos, format!("unknown atom '{letter}'"))),
            },
        };
        // Number of steps: 1 = leap, 0 = unlimited.
        let steps = match range {
            Range::Default => default_range,
            Range::Doubled => 0,
            Range::Num(n) => n,
        };
        let mode = leg.mode();
        let before = out.len();
        for base in bases {
            self.check_chiral(&leg, base)?;
            for o in leg.select(base) {
                let kind = if let Some(ppos) = leg.p {
                    if steps == 1 {
                        return Err(self.err(ppos, "'p' (hopper) needs a slider or rider"));
                    }
                    AtomKind::Hop { range: steps }
                } else if let Some(gpos) = leg.g {
                    // XBoard lands a leaper's grasshop nowhere (its one step ends on the
                    // hurdle) and Fairy-Stockfish reads `gW` as `gR`: neither is a move.
                    if steps == 1 {
                        return Err(self.err(
                            gpos,
                            "'g' (grasshopper) needs a slider or rider (gR, gB, gQ, gNN)",
                        ));
                    }
                    AtomKind::Grasshopper { range: steps }
                } else if let Some(npos) = leg.n {
                    match (base, steps) {
                        ((1, 0) | (1, 1), 1) => AtomKind::Leap,
                        ((1, 0) | (1, 1), _) => AtomKind::Ride { range: steps },
                        ((2, 0) | (2, 2), 1) => AtomKind::Lame {
                            via: Offset::new(o.dx / 2, o.dy / 2),
                        },
                        ((2, 1), 1) => AtomKind::Lame {
                            via: if o.dy.abs() > o.dx.abs() {
                                Offset::new(0, sign(o.dy))
                            } else {
                                Offset::new(sign(o.dx), 0)
                            },
                        },
                        (_, 1) => {
                            return Err(self.err(npos, "'n' on a 3-square atom is not supported"))
                        }
                        _ => {
                            return Err(
                                self.err(npos, "lame riders ('n' on a rider) are not supported")
                            )
                        }
                    }
                } else if steps == 1 {
                    AtomKind::Leap
                } else {
                    AtomKind::Ride { range: steps }
                };
                out.push(Atom {
                    kind,
                    step: o,
                    mode,
                    initial: leg.i,
                });
            }
        }
        if out.len() == before {
            let pos = leg.dirs.first().map_or(letter_pos, |d| d.1);
            return Err(self.err(pos, "direction modifiers select no move"));
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn build_chain(
        &self,
        out: &mut Vec<Atom>,
        first: &[Modifier],
        a_pos: usize,
        second: &[Modifier],
        letter: char,
        letter_pos: usize,
        range: Range,
    ) -> Result<(), BetzaError> {
        let leg1 = self.digest(first, "miy", "before 'a' (first leg is move-only)")?;
        let leg2 = self.digest(second, "mc", "after 'a'")?;
        let base = match letter {
            'F' => (1, 1),
            'W' => (1, 0),
            _ => {
                return Err(self.err(
                    letter_pos,
                    "only F and W 'a' chains (Griffon, Manticore) are supported",
                ))
            }
        };
        self.check_chiral(&leg1, base)?;
        let [(cont, cont_pos)] = leg2.dirs[..] else {
            let pos = leg2.dirs.get(1).map_or(a_pos, |d| d.1);
            return Err(self.err(pos, "continuation leg needs exactly one of fs, fl, fr"));
        };
        let (left, right) = match cont {
            Dir::Pair('f', 's') => (true, true),
            Dir::Pair('f', 'l') => (true, false),
            Dir::Pair('f', 'r') => (false, true),
            _ => return Err(self.err(cont_pos, "continuation leg needs exactly one of fs, fl, fr")),
        };
        let mode = leg2.mode();
        let firsts = leg1.select(base);
        if firsts.is_empty() {
            let pos = leg1.dirs.first().map_or(letter_pos, |d| d.1);
            return Err(self.err(pos, "direction modifiers select no move"));
        }
        let mut conts = Vec::new();
        for s in firsts {
            if left {
                conts.push((s, rot_left(s)));
            }
            if right {
                conts.push((s, rot_right(s)));
            }
        }
        if leg1.y.is_some() {
            let r = match range {
                Range::Default => 0,
                Range::Num(n) => n,
                Range::Doubled => return Err(self.err(letter_pos, "doubled atom in an 'a' chain")),
            };
            for (s, t) in conts {
                out.push(Atom {
                    kind: AtomKind::Bent { then: t, range: r },
                    step: s,
                    mode,
                    initial: leg1.i,
                });
            }
        } else {
            if base != (1, 0) {
                return Err(self.err(
                    a_pos,
                    "without 'y' only the W chain afsW (= nN) is supported",
                ));
            }
            if range != Range::Default {
                return Err(self.err(letter_pos, "range on a leaper 'a' chain is not supported"));
            }
            for (s, t) in conts {
                out.push(Atom {
                    kind: AtomKind::Lame { via: s },
                    step: Offset::new(s.dx + t.dx, s.dy + t.dy),
                    mode,
                    initial: leg1.i,
                });
            }
        }
        Ok(())
    }
}

/// Parses a Betza string into deduplicated atoms in a deterministic order.
pub fn parse(s: &str) -> Result<Vec<Atom>, BetzaError> {
    let mut p = Parser {
        text: s,
        chars: s.chars().collect(),
        i: 0,
    };
    let atoms = p.parse_all()?;
    Ok(normalize(&atoms))
}

const MOVE: u8 = 1;
const CAPTURE: u8 = 2;

fn mode_bits(m: Mode) -> u8 {
    match m {
        Mode::Move => MOVE,
        Mode::Capture => CAPTURE,
        Mode::Both => MOVE | CAPTURE,
    }
}

fn bits_mode(b: u8) -> Mode {
    match b {
        MOVE => Mode::Move,
        CAPTURE => Mode::Capture,
        _ => Mode::Both,
    }
}

fn mode_index(m: Mode) -> u8 {
    match m {
        Mode::Both => 0,
        Mode::Move => 1,
        Mode::Capture => 2,
    }
}

/// Sort key of an atom kind: class, then parameters.
fn kind_key(k: AtomKind) -> (u8, i16, i16, i16) {
    match k {
        AtomKind::Leap => (0, 0, 0, 0),
        AtomKind::Lame { via } => (1, via.dy as i16, via.dx as i16, 0),
        AtomKind::Ride { range } => (2, range as i16, 0, 0),
        AtomKind::Hop { range } => (3, range as i16, 0, 0),
        AtomKind::Bent { then, range } => (4, range as i16, then.dy as i16, then.dx as i16),
        AtomKind::Grasshopper { range } => (5, range as i16, 0, 0),
    }
}

type AtomKey = (bool, (u8, i16, i16, i16), i8, i8, u8);

fn atom_key(a: &Atom) -> AtomKey {
    (
        a.initial,
        kind_key(a.kind),
        -a.step.dy,
        a.step.dx,
        mode_index(a.mode),
    )
}

/// Canonical set form: `Ride{1}` becomes a leap, Move+Capture merge into Both, and
/// initial-only atoms lose what the unrestricted atom already allows; sorted.
pub fn normalize(atoms: &[Atom]) -> Vec<Atom> {
    let mut map: HashMap<(AtomKind, Offset), (u8, u8)> = HashMap::new();
    for a in atoms {
        let kind = match a.kind {
            AtomKind::Ride { range: 1 } => AtomKind::Leap,
            k => k,
        };
        let e = map.entry((kind, a.step)).or_insert((0, 0));
        if a.initial {
            e.1 |= mode_bits(a.mode);
        } else {
            e.0 |= mode_bits(a.mode);
        }
    }
    let mut out = Vec::new();
    for ((kind, step), (plain, init)) in map {
        if plain != 0 {
            out.push(Atom {
                kind,
                step,
                mode: bits_mode(plain),
                initial: false,
            });
        }
        let rest = init & !plain;
        if rest != 0 {
            out.push(Atom {
                kind,
                step,
                mode: bits_mode(rest),
                initial: true,
            });
        }
    }
    out.sort_by_key(atom_key);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    const L: AtomKind = AtomKind::Leap;
    const R0: AtomKind = AtomKind::Ride { range: 0 };
    const B: Mode = Mode::Both;
    const M: Mode = Mode::Move;
    const C: Mode = Mode::Capture;

    fn at(kind: AtomKind, dx: i8, dy: i8, mode: Mode) -> Atom {
        Atom {
            kind,
            step: Offset::new(dx, dy),
            mode,
            initial: false,
        }
    }

    fn ride(r: u8) -> AtomKind {
        AtomKind::Ride { range: r }
    }

    fn hop(r: u8) -> AtomKind {
        AtomKind::Hop { range: r }
    }

    fn grass(r: u8) -> AtomKind {
        AtomKind::Grasshopper { range: r }
    }

    fn lame(dx: i8, dy: i8) -> AtomKind {
        AtomKind::Lame {
            via: Offset::new(dx, dy),
        }
    }

    fn bent(dx: i8, dy: i8, r: u8) -> AtomKind {
        AtomKind::Bent {
            then: Offset::new(dx, dy),
            range: r,
        }
    }

    /// All symmetric images of (dx, dy) with one kind and mode.
    fn all(kind: AtomKind, dx: i8, dy: i8, mode: Mode) -> Vec<Atom> {
        symmetric(dx, dy)
            .into_iter()
            .map(|o| at(kind, o.dx, o.dy, mode))
            .collect()
    }

    fn set(v: Vec<Atom>) -> HashSet<Atom> {
        v.into_iter().collect()
    }

    fn parsed(s: &str) -> HashSet<Atom> {
        let v = parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
        let n = v.len();
        let h = set(v);
        assert_eq!(h.len(), n, "{s}: duplicates in output");
        h
    }

    fn check(s: &str, expected: Vec<Atom>) {
        assert_eq!(parsed(s), set(expected), "{s}");
        roundtrip(s);
    }

    fn roundtrip(s: &str) {
        let a = parse(s).unwrap();
        let text = to_betza(&a);
        let b = parse(&text).unwrap_or_else(|e| panic!("{s} -> {text}: {e}"));
        assert_eq!(set(a), set(b), "{s} -> {text}");
    }

    fn cat(parts: Vec<Vec<Atom>>) -> Vec<Atom> {
        parts.into_iter().flatten().collect()
    }

    fn pos_of(s: &str) -> usize {
        parse(s).expect_err(s).pos
    }

    #[test]
    fn orthodox_pieces() {
        check("K", cat(vec![all(L, 1, 0, B), all(L, 1, 1, B)]));
        check("Q", cat(vec![all(R0, 1, 0, B), all(R0, 1, 1, B)]));
        check("R", all(R0, 1, 0, B));
        check("B", all(R0, 1, 1, B));
        check("N", all(L, 2, 1, B));
        assert_eq!(parse("N").unwrap().len(), 8);
        assert_eq!(parse("K").unwrap().len(), 8);
    }

    #[test]
    fn riders_and_ranges() {
        check("NN", all(R0, 2, 1, B));
        check("R4", all(ride(4), 1, 0, B));
        check("W4", all(ride(4), 1, 0, B));
        check("WW", all(R0, 1, 0, B));
        check("W0", all(R0, 1, 0, B));
        check("W1", all(L, 1, 0, B));
        check("AA", all(R0, 2, 2, B));
        check("N2", all(ride(2), 2, 1, B));
        check("B4", all(ride(4), 1, 1, B));
        check(
            "Q4",
            cat(vec![all(ride(4), 1, 0, B), all(ride(4), 1, 1, B)]),
        );
        check("WB4", cat(vec![all(L, 1, 0, B), all(ride(4), 1, 1, B)]));
        check("FR4", cat(vec![all(L, 1, 1, B), all(ride(4), 1, 0, B)]));
        check("RF", cat(vec![all(R0, 1, 0, B), all(L, 1, 1, B)]));
        check("BW", cat(vec![all(R0, 1, 1, B), all(L, 1, 0, B)]));
    }

    #[test]
    fn leaper_compounds() {
        let adgh = || {
            cat(vec![
                all(L, 2, 2, B),
                all(L, 2, 0, B),
                all(L, 3, 3, B),
                all(L, 3, 0, B),
            ])
        };
        check("ADGH", adgh());
        check(
            "KADGHN",
            cat(vec![
                all(L, 1, 0, B),
                all(L, 1, 1, B),
                adgh(),
                all(L, 2, 1, B),
            ]),
        );
        check(
            "QNADGH",
            cat(vec![
                all(R0, 1, 0, B),
                all(R0, 1, 1, B),
                all(L, 2, 1, B),
                adgh(),
            ]),
        );
        check(
            "NCZ",
            cat(vec![all(L, 2, 1, B), all(L, 3, 1, B), all(L, 3, 2, B)]),
        );
        assert_eq!(parse("NCZ").unwrap().len(), 24);
    }

    #[test]
    fn lame_moves() {
        // King plus non-leaping, non-capturing orthogonal 2-step.
        check(
            "KmnD",
            cat(vec![
                all(L, 1, 0, B),
                all(L, 1, 1, B),
                vec![
                    at(lame(0, 1), 0, 2, M),
                    at(lame(0, -1), 0, -2, M),
                    at(lame(1, 0), 2, 0, M),
                    at(lame(-1, 0), -2, 0, M),
                ],
            ]),
        );
        check(
            "nA",
            vec![
                at(lame(1, 1), 2, 2, B),
                at(lame(-1, 1), -2, 2, B),
                at(lame(1, -1), 2, -2, B),
                at(lame(-1, -1), -2, -2, B),
            ],
        );
        // Xiangqi horse: via the orthogonal neighbour in the long direction.
        let horse = vec![
            at(lame(0, 1), 1, 2, B),
            at(lame(0, 1), -1, 2, B),
            at(lame(0, -1), 1, -2, B),
            at(lame(0, -1), -1, -2, B),
            at(lame(1, 0), 2, 1, B),
            at(lame(1, 0), 2, -1, B),
            at(lame(-1, 0), -2, 1, B),
            at(lame(-1, 0), -2, -1, B),
        ];
        check("nN", horse.clone());
        // XBetza two-leg spelling of the same horse.
        check("afsW", horse.clone());
        check("mafsW", horse);
        check("nR", all(R0, 1, 0, B));
        check("nB", all(R0, 1, 1, B));
        check("nW", all(L, 1, 0, B));
    }

    #[test]
    fn pawns() {
        check(
            "fmWfcF",
            vec![at(L, 0, 1, M), at(L, 1, 1, C), at(L, -1, 1, C)],
        );
        let mut dbl = at(lame(0, 1), 0, 2, M);
        dbl.initial = true;
        check(
            "fmWfcFifmnD",
            vec![at(L, 0, 1, M), at(L, 1, 1, C), at(L, -1, 1, C), dbl],
        );
        assert_eq!(to_betza(&parse("fmWfcFifmnD").unwrap()), "fmWfcFifmnD");
    }

    #[test]
    fn hoppers() {
        check("pR", all(hop(0), 1, 0, B));
        check("pR4", all(hop(4), 1, 0, B));
        check("mpR", all(hop(0), 1, 0, M));
        check("cpR", all(hop(0), 1, 0, C));
        check("mRcpR", cat(vec![all(R0, 1, 0, M), all(hop(0), 1, 0, C)]));
        check("mBcpB", cat(vec![all(R0, 1, 1, M), all(hop(0), 1, 1, C)]));
        check(
            "mQcpQ",
            cat(vec![
                all(R0, 1, 0, M),
                all(R0, 1, 1, M),
                all(hop(0), 1, 0, C),
                all(hop(0), 1, 1, C),
            ]),
        );
        assert_eq!(to_betza(&parse("mRcpR").unwrap()), "mRcpR");
        assert_eq!(to_betza(&parse("mQcpQ").unwrap()), "mQcpQ");
    }

    /// XBoard's Betza.html: `g` "hop over a piece and land directly behind it"; the
    /// Grasshopper is `gQ`, and Fairy-Stockfish's own variants.ini writes pieces that
    /// only move as grasshoppers as `mRmgQ`, `mQmgQ` and `mKmgQ`.
    #[test]
    fn grasshoppers() {
        check(
            "gQ",
            cat(vec![all(grass(0), 1, 0, B), all(grass(0), 1, 1, B)]),
        );
        check("gR", all(grass(0), 1, 0, B));
        check("gB", all(grass(0), 1, 1, B));
        check("gWW", all(grass(0), 1, 0, B));
        check("gW0", all(grass(0), 1, 0, B));
        check("gNN", all(grass(0), 2, 1, B));
        check(
            "cgQ",
            cat(vec![all(grass(0), 1, 0, C), all(grass(0), 1, 1, C)]),
        );
        check("fgR", vec![at(grass(0), 0, 1, B)]);
        // XBoard counts a range to the landing square: gR4 lands at most four away.
        check("gR4", all(grass(4), 1, 0, B));
        check(
            "mRmgQ",
            cat(vec![
                all(R0, 1, 0, M),
                all(grass(0), 1, 0, M),
                all(grass(0), 1, 1, M),
            ]),
        );
        check(
            "mKmgQ",
            cat(vec![
                all(L, 1, 0, M),
                all(L, 1, 1, M),
                all(grass(0), 1, 0, M),
                all(grass(0), 1, 1, M),
            ]),
        );
        // A grasshop and a cannon hop on one line are two moves.
        check(
            "pRgR",
            cat(vec![all(hop(0), 1, 0, B), all(grass(0), 1, 0, B)]),
        );
        for (s, want) in [
            ("gQ", "gQ"),
            ("gRgB", "gQ"),
            ("mRmgQ", "mRmgQ"),
            ("mQmgQ", "mQmgQ"),
            ("mKmgQ", "mKmgQ"),
            ("cgQ", "cgQ"),
            ("mgRcgR", "gR"),
            ("gR4", "gR4"),
            ("gWW", "gR"),
            ("gNN", "gNN"),
            ("vgR", "vgR"),
        ] {
            assert_eq!(to_betza(&parse(s).unwrap()), want, "{s}");
        }
        // A leaper's one step ends on its hurdle: XBoard makes no move of `gW`, and
        // Fairy-Stockfish reads it as `gR`. Refused, as `pW` is.
        for s in ["gW", "gK", "gN", "gR1", "ngR", "pgR", "gpR", "yagsF", "agW"] {
            assert!(parse(s).is_err(), "{s}");
        }
        assert_eq!(pos_of("gK"), 1);
        assert_eq!(pos_of("WgN"), 2);
        assert_eq!(pos_of("pgR"), 2);
        assert!(parse("gK").unwrap_err().msg.contains("grasshopper"));
    }

    fn griffon_bent(mode: Mode, r: u8) -> Vec<Atom> {
        // From e4 via f5: on to f6, f7.. (0,1) or g5, h5.. (1,0).
        let mut v = Vec::new();
        for (sx, sy) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
            v.push(at(bent(sx, 0, r), sx, sy, mode));
            v.push(at(bent(0, sy, r), sx, sy, mode));
        }
        v
    }

    fn manticore_bent(mode: Mode) -> Vec<Atom> {
        // From e4 via e5: on to d6, c7.. or f6, g7..
        let mut v = Vec::new();
        for (sx, sy) in [(0, 1), (0, -1), (1, 0), (-1, 0)] {
            let (a, b) = if sx == 0 {
                ((1, sy), (-1, sy))
            } else {
                ((sx, 1), (sx, -1))
            };
            v.push(at(bent(a.0, a.1, 0), sx, sy, mode));
            v.push(at(bent(b.0, b.1, 0), sx, sy, mode));
        }
        v
    }

    #[test]
    fn griffon_and_manticore() {
        let griffon = cat(vec![all(L, 1, 1, B), griffon_bent(B, 0)]);
        check("FyafsF", griffon.clone());
        check("yafsFF", griffon.clone());
        check("yafsF0F", griffon.clone());
        check(
            "yafsFyafsWWF",
            cat(vec![griffon.clone(), manticore_bent(B), all(L, 1, 0, B)]),
        );
        check("yafsF", griffon_bent(B, 0));
        check("FyafsF0", griffon.clone());
        check("FyafsF3", cat(vec![all(L, 1, 1, B), griffon_bent(B, 3)]));
        check("FyamfsF", cat(vec![all(L, 1, 1, B), griffon_bent(M, 0)]));
        assert_eq!(parsed("FyafsF").len(), 12);
        assert_eq!(to_betza(&griffon), "FyafsF");
        let manticore = cat(vec![all(L, 1, 0, B), manticore_bent(B)]);
        check("WyafsW", manticore.clone());
        assert_eq!(to_betza(&manticore), "WyafsW");
        // One side only: 45 degrees left of the first step.
        check("fryaflF", vec![at(bent(0, 1, 0), 1, 1, B)]);
        check("fyafrW", vec![at(bent(1, 1, 0), 0, 1, B)]);
    }

    #[test]
    fn orthogonal_directions() {
        check("fW", vec![at(L, 0, 1, B)]);
        check("bW", vec![at(L, 0, -1, B)]);
        check("lW", vec![at(L, -1, 0, B)]);
        check("rW", vec![at(L, 1, 0, B)]);
        check("sW", vec![at(L, -1, 0, B), at(L, 1, 0, B)]);
        check("vW", vec![at(L, 0, 1, B), at(L, 0, -1, B)]);
        check("fsW", vec![at(L, 0, 1, B), at(L, -1, 0, B), at(L, 1, 0, B)]);
        check("frW", vec![at(L, 0, 1, B), at(L, 1, 0, B)]);
        check("fR", vec![at(R0, 0, 1, B)]);
        check("fK", vec![at(L, 0, 1, B), at(L, 1, 1, B), at(L, -1, 1, B)]);
        check(
            "WfF",
            cat(vec![all(L, 1, 0, B), vec![at(L, 1, 1, B), at(L, -1, 1, B)]]),
        );
    }

    #[test]
    fn diagonal_directions() {
        check("fF", vec![at(L, 1, 1, B), at(L, -1, 1, B)]);
        check("bF", vec![at(L, 1, -1, B), at(L, -1, -1, B)]);
        check("lF", vec![at(L, -1, 1, B), at(L, -1, -1, B)]);
        check("rF", vec![at(L, 1, 1, B), at(L, 1, -1, B)]);
        check("frF", vec![at(L, 1, 1, B)]);
        check("rfF", vec![at(L, 1, 1, B)]);
        check("blB", vec![at(R0, -1, -1, B)]);
        check("vF", all(L, 1, 1, B));
    }

    /// Betza.html: letters that do not combine select "their joined move sets"; XBoard's
    /// reader combines a letter only after a single direction (`f b l r`), so a set
    /// letter (`s`, `v`) first is a union: `sfN` is `sN` and `fN`, six moves.
    #[test]
    fn a_set_letter_first_joins_what_follows() {
        let narrow_f = vec![at(L, 1, 2, B), at(L, -1, 2, B)];
        check("sfN", cat(vec![parse("sN").unwrap(), narrow_f]));
        check("vsN", all(L, 2, 1, B));
        check("vrN", cat(vec![parse("vN").unwrap(), parse("rN").unwrap()]));
        check("sfF", all(L, 1, 1, B));
        // After a single direction the pair stays one token.
        check("fsN", vec![at(L, 2, 1, B), at(L, -2, 1, B)]);
    }

    /// On K and Q the letters go to each part (as Fairy-Stockfish reads `fK`: three
    /// forward moves); they are written per part, because XBoard reads `fK` on an
    /// eight-point compass as the one step forward.
    #[test]
    fn directions_on_k_and_q_are_written_per_part() {
        let fk = parse("fK").unwrap();
        assert_eq!(set(fk.clone()), set(parse("fWfF").unwrap()));
        assert_eq!(to_betza(&fk), "fWfF");
        assert_eq!(to_betza(&parse("fQ").unwrap()), "fRfB");
        assert_eq!(to_betza(&parse("mQcK").unwrap()), "cKmQ");
        roundtrip("fsK");
        roundtrip("frQ4");
    }

    #[test]
    fn oblique_directions() {
        // XBoard Betza.html table 2: f/b/l/r are pairs, fN is the Shogi Knight.
        let narrow_f = vec![at(L, 1, 2, B), at(L, -1, 2, B)];
        check("fN", narrow_f.clone());
        check("ffN", narrow_f);
        check("fsN", vec![at(L, 2, 1, B), at(L, -2, 1, B)]);
        check("bN", vec![at(L, 1, -2, B), at(L, -1, -2, B)]);
        check("lN", vec![at(L, -2, 1, B), at(L, -2, -1, B)]);
        check("rN", vec![at(L, 2, 1, B), at(L, 2, -1, B)]);
        check(
            "sN",
            vec![
                at(L, 2, 1, B),
                at(L, -2, 1, B),
                at(L, 2, -1, B),
                at(L, -2, -1, B),
            ],
        );
        check(
            "vN",
            vec![
                at(L, 1, 2, B),
                at(L, -1, 2, B),
                at(L, 1, -2, B),
                at(L, -1, -2, B),
            ],
        );
        check(
            "fhN",
            vec![
                at(L, 1, 2, B),
                at(L, -1, 2, B),
                at(L, 2, 1, B),
                at(L, -2, 1, B),
            ],
        );
        check("lfN", vec![at(L, -1, 2, B)]); // Ng1-f3
        check("rfN", vec![at(L, 1, 2, B)]);
        check("flN", vec![at(L, -2, 1, B)]);
        check("frN", vec![at(L, 2, 1, B)]);
        check("lvN", vec![at(L, -1, 2, B), at(L, -1, -2, B)]);
        check(
            "ffrrN",
            vec![
                at(L, 1, 2, B),
                at(L, -1, 2, B),
                at(L, 2, 1, B),
                at(L, 2, -1, B),
            ],
        );
        check(
            "hrN",
            vec![
                at(L, 1, 2, B),
                at(L, -1, -2, B),
                at(L, 2, -1, B),
                at(L, -2, 1, B),
            ],
        );
        check("fC", vec![at(L, 1, 3, B), at(L, -1, 3, B)]);
        check("fsZ", vec![at(L, 3, 2, B), at(L, -3, 2, B)]);
    }

    #[test]
    fn merging_and_dedup() {
        check("mRcR", all(R0, 1, 0, B));
        check("RR", all(R0, 1, 0, B));
        check("WK", cat(vec![all(L, 1, 0, B), all(L, 1, 1, B)]));
        check("NiN", all(L, 2, 1, B));
        assert_eq!(parse("mWcW").unwrap(), parse("W").unwrap());
    }

    #[test]
    fn canonical_spellings() {
        for (s, want) in [
            ("WF", "K"),
            ("RB", "Q"),
            ("WW", "R"),
            ("W4", "R4"),
            ("B4R4", "Q4"),
            ("N0", "NN"),
            ("FyafsF", "FyafsF"),
            ("WyafsW", "WyafsW"),
            ("mRcpR", "mRcpR"),
            ("fmWfcFifmnD", "fmWfcFifmnD"),
            ("fN", "fN"),
            ("fsW", "fsW"),
            ("pR4", "pR4"),
            ("nN", "nN"),
        ] {
            assert_eq!(to_betza(&parse(s).unwrap()), want, "{s}");
        }
    }

    #[test]
    fn round_trips() {
        for s in [
            "K",
            "Q",
            "R",
            "B",
            "N",
            "NN",
            "R4",
            "WB4",
            "FR4",
            "KADGHN",
            "ADGH",
            "QNADGH",
            "NCZ",
            "KmnD",
            "fmWfcF",
            "fmWfcFifmnD",
            "mRcpR",
            "mBcpB",
            "mQcpQ",
            "RF",
            "BW",
            "FyafsF",
            "WyafsW",
            "yafsF2",
            "fW",
            "sW",
            "vW",
            "fF",
            "lF",
            "frF",
            "fN",
            "ffN",
            "fsN",
            "bN",
            "sN",
            "vN",
            "NN2N",
            "nNNN",
            "fNNN",
            "N2N",
            "D3D",
            "lfNrbNbsN",
            "ifrlvN",
            "fhC",
            "hlZ",
            "cfyafsFmbyafsF",
            "iK",
            "imK",
            "fbrN",
            "lflbN",
            "fkmpNN",
            "gQ",
            "mRmgQ",
            "cgNN",
            "gR3",
            "ifgR",
        ] {
            if let Ok(a) = parse(s) {
                let text = to_betza(&a);
                assert_eq!(set(parse(&text).unwrap()), set(a), "{s} -> {text}");
            }
        }
        // Every single direction of every atom, in every mode, must round-trip.
        for l in ['W', 'F', 'D', 'N', 'A', 'H', 'C', 'Z', 'G'] {
            let (x, y) = base_of(l).unwrap();
            let offs = symmetric(x, y);
            for mask in 1u32..(1 << offs.len()) {
                let v: Vec<Atom> = offs
                    .iter()
                    .enumerate()
                    .filter(|(k, _)| mask & (1 << k) != 0)
                    .map(|(_, o)| at(L, o.dx, o.dy, B))
                    .collect();
                let text = to_betza(&v);
                assert_eq!(set(parse(&text).unwrap()), set(v), "{l} {mask:b} -> {text}");
            }
        }
    }

    #[test]
    fn error_positions() {
        assert_eq!(pos_of("WX"), 2);
        assert!(parse("").is_err());
        assert_eq!(pos_of("fQ?"), 3);
        assert_eq!(pos_of("3W"), 1);
        assert_eq!(pos_of("WoR"), 2);
        assert_eq!(pos_of("KnH"), 2);
        assert_eq!(pos_of("nZ"), 1);
        assert_eq!(pos_of("nNN"), 1);
        assert_eq!(pos_of("pN"), 1);
        assert_eq!(pos_of("Wf"), 2);
        assert_eq!(pos_of("W03"), 2);
        assert_eq!(pos_of("NN3"), 3);
        assert_eq!(pos_of("W999"), 4);
        assert_eq!(pos_of("jR"), 1);
        assert_eq!(pos_of("fceF"), 3);
        assert_eq!(pos_of("hW"), 1);
        assert_eq!(pos_of("hrW"), 1);
        assert_eq!(pos_of("caK"), 1);
        assert_eq!(pos_of("aaK"), 2);
        assert_eq!(pos_of("yafN"), 4);
        assert_eq!(pos_of("yafF"), 3);
        assert_eq!(pos_of("yafsB"), 5);
        assert_eq!(pos_of("afsF"), 1);
        assert_eq!(pos_of("L"), 1);
        assert_eq!(pos_of("yW"), 1);
        let e = parse("WX").unwrap_err();
        assert_eq!(e.text, "WX");
        assert!(e.to_string().starts_with("betza \"WX\" at character 2: "));
    }

    /// xorshift64 generator for the fuzz tests.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    #[test]
    fn fuzz_never_panics_and_round_trips() {
        let alphabet: Vec<char> = "WFDNAHCZGKRBQfblrvshmcinpyajgoeqzx0123456789?( )LJéO"
            .chars()
            .collect();
        let seeds = [
            "fmWfcFifmnD",
            "FyafsF",
            "WyafsW",
            "mRcpR",
            "mQmgQ",
            "KADGHN",
            "ffrrN",
            "nNR4",
            "lfNbsC",
        ];
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut ok = 0;
        for round in 0..60_000 {
            let s: String = if round % 2 == 0 {
                let len = rng.below(14);
                (0..len)
                    .map(|_| alphabet[rng.below(alphabet.len())])
                    .collect()
            } else {
                let mut c: Vec<char> = seeds[rng.below(seeds.len())].chars().collect();
                for _ in 0..1 + rng.below(3) {
                    let k = rng.below(c.len() + 1);
                    match rng.below(3) {
                        0 => c.insert(k, alphabet[rng.below(alphabet.len())]),
                        1 if k < c.len() => {
                            c.remove(k);
                        }
                        _ if k < c.len() => c[k] = alphabet[rng.below(alphabet.len())],
                        _ => {}
                    }
                }
                c.into_iter().collect()
            };
            match parse(&s) {
                Ok(a) => {
                    ok += 1;
                    let text = to_betza(&a);
                    let b = parse(&text).unwrap_or_else(|e| panic!("{s:?} -> {text:?}: {e}"));
                    assert_eq!(set(a), set(b), "{s:?} -> {text:?}");
                }
                Err(e) => {
                    assert!(
                        e.pos >= 1 && e.pos <= s.chars().count().max(1),
                        "{s:?}: {e}"
                    );
                }
            }
        }
        assert!(ok > 1000, "fuzz produced too few valid strings: {ok}");
    }

    #[test]
    fn fuzz_term_sequences_round_trip() {
        let pick = |rng: &mut Rng, xs: &[&'static str]| xs[rng.below(xs.len())];
        let dirs = [
            "", "", "", "f", "b", "l", "r", "v", "s", "fs", "fr", "rf", "lv", "fh", "hr", "ff",
            "ffrr", "fb", "bl", "lb", "sf", "vs",
        ];
        let modes = ["", "", "m", "c", "mc"];
        let kinds = ["", "", "", "n", "p", "g"];
        let atoms = [
            "W", "F", "D", "N", "A", "H", "C", "Z", "G", "K", "R", "B", "Q", "NN", "WW", "DD",
        ];
        let ranges = ["", "", "", "0", "1", "2", "4"];
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        let mut ok = 0;
        for _ in 0..20_000 {
            let mut s = String::new();
            for _ in 0..1 + rng.below(4) {
                if rng.below(8) == 0 {
                    s.push_str(pick(&mut rng, &["", "i"]));
                    s.push_str(pick(&mut rng, &dirs));
                    s.push_str("ya");
                    s.push_str(pick(&mut rng, &modes));
                    s.push_str(pick(&mut rng, &["fs", "fl", "fr"]));
                    s.push_str(pick(&mut rng, &["F", "W"]));
                    s.push_str(pick(&mut rng, &["", "", "0", "3"]));
                    continue;
                }
                s.push_str(pick(&mut rng, &["", "", "i"]));
                s.push_str(pick(&mut rng, &dirs));
                s.push_str(pick(&mut rng, &modes));
                s.push_str(pick(&mut rng, &kinds));
                let a = pick(&mut rng, &atoms);
                s.push_str(a);
                if a.len() == 1 {
                    s.push_str(pick(&mut rng, &ranges));
                }
            }
            if let Ok(a) = parse(&s) {
                ok += 1;
                let text = to_betza(&a);
                let b = parse(&text).unwrap_or_else(|e| panic!("{s:?} -> {text:?}: {e}"));
                assert_eq!(set(a), set(b), "{s:?} -> {text:?}");
            }
        }
        assert!(ok > 2000, "too few valid strings: {ok}");
    }
}
