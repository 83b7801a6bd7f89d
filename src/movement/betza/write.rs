//! Writing atoms back as Betza: a canonical spelling that parses to the same set, each
//! group of atoms written as a letter with the modifiers that cover its directions.

use super::{
    base_of, combines, mode_index, normalize, rot_left, rot_right, shape, sign, Dir, Shape,
};
use crate::movement::atoms::{symmetric, Atom, AtomKind, Offset};
use ahash::AHashMap as HashMap;

const LETTERS: [char; 9] = ['W', 'F', 'D', 'N', 'A', 'H', 'C', 'Z', 'G'];

/// The atom letter index of a displacement, if it is one of the nine basic atoms.
fn letter_index(o: Offset) -> Option<usize> {
    let (a, b) = {
        let (x, y) = (o.dx.abs(), o.dy.abs());
        (x.max(y), x.min(y))
    };
    LETTERS.iter().position(|&l| base_of(l) == Some((a, b)))
}

/// The candidate direction tokens for writing, in order of preference.
fn candidates(sh: Shape) -> Vec<Dir> {
    let mut v: Vec<Dir> = "fblrvs".chars().map(Dir::One).collect();
    v.extend("fblr".chars().map(Dir::Half));
    for (a, b) in [
        ('f', 's'),
        ('b', 's'),
        ('l', 'v'),
        ('r', 'v'),
        ('f', 'l'),
        ('f', 'r'),
        ('b', 'l'),
        ('b', 'r'),
        ('l', 'f'),
        ('r', 'f'),
        ('l', 'b'),
        ('r', 'b'),
    ] {
        v.push(Dir::Pair(a, b));
    }
    if sh == Shape::Oblique {
        v.push(Dir::Chiral('l'));
        v.push(Dir::Chiral('r'));
    }
    v
}

fn search_cover(
    cands: &[(Dir, u8)],
    want: u8,
    k: usize,
    from: usize,
    acc: u8,
    chosen: &mut Vec<Dir>,
) -> bool {
    if k == 0 {
        return acc == want;
    }
    for j in from..cands.len() {
        chosen.push(cands[j].0);
        if search_cover(cands, want, k - 1, j + 1, acc | cands[j].1, chosen) {
            return true;
        }
        chosen.pop();
    }
    false
}

/// Shortest direction-modifier string selecting exactly `set` of atom `base`.
fn direction_string(base: (i8, i8), set: &[Offset]) -> String {
    let all = symmetric(base.0, base.1);
    let mut want = 0u8;
    for (k, o) in all.iter().enumerate() {
        if set.contains(o) {
            want |= 1 << k;
        }
    }
    let full = if all.len() >= 8 {
        u8::MAX
    } else {
        (1u8 << all.len()) - 1
    };
    if want == full || want == 0 {
        return String::new();
    }
    let sh = shape(base);
    let cands: Vec<(Dir, u8)> = candidates(sh)
        .into_iter()
        .map(|d| {
            let mut m = 0u8;
            for (k, o) in all.iter().enumerate() {
                if d.allows(sh, o.dx, o.dy) {
                    m |= 1 << k;
                }
            }
            (d, m)
        })
        .filter(|&(_, m)| m != 0 && m & !want == 0)
        .collect();
    let mut chosen = Vec::new();
    for k in 1..=all.len() {
        if search_cover(&cands, want, k, 0, 0, &mut chosen) {
            break;
        }
    }
    emit_dirs(&chosen)
}

/// Writes direction tokens so that they re-parse as the same tokens.
fn emit_dirs(tokens: &[Dir]) -> String {
    let mut s = String::new();
    for (k, t) in tokens.iter().enumerate() {
        match *t {
            Dir::One(c) => {
                s.push(c);
                if tokens
                    .get(k + 1)
                    .is_some_and(|n| combines(c, n.first_char()))
                {
                    s.push(c);
                }
            }
            Dir::Pair(a, b) => {
                s.push(a);
                s.push(b);
            }
            Dir::Half(c) => {
                s.push(c);
                s.push('h');
            }
            Dir::Chiral(c) => {
                s.push('h');
                s.push(c);
            }
        }
    }
    s
}

/// How a group of atoms is written.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum TermKind {
    Leap,
    Lame,
    Ride(u8),
    Hop(u8),
    /// Grasshopper (`g`): lands just past the hurdle.
    Grasshopper(u8),
    /// Bent rider: range and which continuations (left, right).
    Bent(u8, bool, bool),
}

fn term_class(k: TermKind) -> u8 {
    match k {
        TermKind::Leap => 0,
        TermKind::Lame => 1,
        TermKind::Ride(_) => 2,
        TermKind::Hop(_) => 3,
        TermKind::Bent(..) => 4,
        TermKind::Grasshopper(_) => 5,
    }
}

/// The via square `n` implies for a lame leap, if it has one.
fn standard_via(o: Offset) -> Option<Offset> {
    let (ax, ay) = (o.dx.abs(), o.dy.abs());
    match (ax.max(ay), ax.min(ay)) {
        (2, 0) | (2, 2) => Some(Offset::new(o.dx / 2, o.dy / 2)),
        (2, 1) if ay > ax => Some(Offset::new(0, sign(o.dy))),
        (2, 1) => Some(Offset::new(sign(o.dx), 0)),
        _ => None,
    }
}

fn is_unit(o: Offset) -> bool {
    o.dx.abs() <= 1 && o.dy.abs() <= 1 && (o.dx, o.dy) != (0, 0)
}

/// Writes atoms as a canonical Betza string; `parse` of the result gives the same set.
///
/// Atoms that no Betza term of this dialect can express are written as `?` markers.
pub fn to_betza(atoms: &[Atom]) -> String {
    let (mut s, left) = to_betza_parts(atoms);
    s.extend(std::iter::repeat_n('?', left));
    s
}

/// [`to_betza`] without the markers: the Betza of the atoms it can write, and how many
/// atoms it cannot (a `piece` line for XBoard carries only what its reader can take).
pub fn to_betza_parts(atoms: &[Atom]) -> (String, usize) {
    let atoms = normalize(atoms);
    // (initial, kind, letter index, mode) -> selected offsets of the (first) step.
    let mut groups: HashMap<(bool, TermKind, usize, u8), Vec<Offset>> = HashMap::new();
    let mut unexpressible = 0usize;
    // Bent atoms: first collect continuations per first step.
    let mut bent: HashMap<(bool, u8, u8, Offset), (bool, bool)> = HashMap::new();
    for a in &atoms {
        let mode = mode_index(a.mode);
        let kind = match a.kind {
            AtomKind::Leap => TermKind::Leap,
            AtomKind::Lame { via } if standard_via(a.step) == Some(via) => TermKind::Lame,
            AtomKind::Ride { range } => TermKind::Ride(range),
            AtomKind::Hop { range } if range != 1 => TermKind::Hop(range),
            AtomKind::Grasshopper { range } if range != 1 => TermKind::Grasshopper(range),
            AtomKind::Bent { then, range } if is_unit(a.step) => {
                let e = bent
                    .entry((a.initial, range, mode, a.step))
                    .or_insert((false, false));
                if then == rot_left(a.step) {
                    e.0 = true;
                    continue;
                } else if then == rot_right(a.step) {
                    e.1 = true;
                    continue;
                }
                unexpressible += 1;
                continue;
            }
            _ => {
                unexpressible += 1;
                continue;
            }
        };
        match letter_index(a.step) {
            Some(li) => groups
                .entry((a.initial, kind, li, mode))
                .or_default()
                .push(a.step),
            None => unexpressible += 1,
        }
    }
    for ((initial, range, mode, step), (l, r)) in bent {
        let li = if step.dx == 0 || step.dy == 0 { 0 } else { 1 };
        groups
            .entry((initial, TermKind::Bent(range, l, r), li, mode))
            .or_default()
            .push(step);
    }

    struct Term {
        key: (bool, u8, usize, u8, String),
        text: String,
        bent: bool,
    }
    // Direction strings per group, then merge W+F pairs into K / Q.
    let mut entries: Vec<((bool, TermKind, usize, u8), String)> = groups
        .iter()
        .map(|(k, steps)| {
            let base = base_of(LETTERS[k.2]).unwrap_or((1, 0));
            (*k, direction_string(base, steps))
        })
        .collect();
    entries.sort_by_key(|(k, d)| {
        (
            k.0,
            term_class(k.1),
            k.2,
            k.3,
            d.clone(),
            format!("{:?}", k.1),
        )
    });
    let mut terms: Vec<Term> = Vec::new();
    let mut used = vec![false; entries.len()];
    for idx in 0..entries.len() {
        if used[idx] {
            continue;
        }
        used[idx] = true;
        let ((initial, kind, li, mode), ref dirs) = entries[idx];
        let mergeable = matches!(
            kind,
            TermKind::Leap | TermKind::Ride(_) | TermKind::Hop(_) | TermKind::Grasshopper(_)
        );
        let mut both = false;
        // K and Q are merged only without direction letters: on them XBoard reads the
        // letters on an eight-point compass (`fK` one step forward) while Tenfold and
        // Fairy-Stockfish give them to each part (`fK` = `fWfF`); written per part, the
        // moves read the same everywhere.
        if mergeable && li == 0 && dirs.is_empty() {
            if let Some(j) = (0..entries.len()).find(|&j| {
                !used[j] && entries[j].0 == (initial, kind, 1, mode) && entries[j].1 == *dirs
            }) {
                used[j] = true;
                both = true;
            }
        }
        let mut text = String::new();
        if initial {
            text.push('i');
        }
        let mode_str = match mode {
            1 => "m",
            2 => "c",
            _ => "",
        };
        let letter = LETTERS[li];
        match kind {
            TermKind::Bent(range, l, r) => {
                text.push_str(dirs);
                text.push_str("ya");
                text.push_str(mode_str);
                text.push_str(match (l, r) {
                    (true, true) => "fs",
                    (true, false) => "fl",
                    _ => "fr",
                });
                text.push(letter);
                if range != 0 {
                    text.push_str(&range.to_string());
                }
            }
            _ => {
                text.push_str(dirs);
                text.push_str(mode_str);
                let (prefix, range) = match kind {
                    TermKind::Lame => ("n", 1),
                    TermKind::Ride(r) => ("", r),
                    TermKind::Hop(r) => ("p", r),
                    TermKind::Grasshopper(r) => ("g", r),
                    _ => ("", 1),
                };
                text.push_str(prefix);
                let slider_letter = match (both, li) {
                    (true, _) => Some('Q'),
                    (false, 0) => Some('R'),
                    (false, 1) => Some('B'),
                    _ => None,
                };
                match (range, slider_letter) {
                    (1, _) => text.push(if both { 'K' } else { letter }),
                    (0, Some(s)) => text.push(s),
                    (0, None) => {
                        text.push(letter);
                        text.push(letter);
                    }
                    (n, Some(s)) => {
                        text.push(s);
                        text.push_str(&n.to_string());
                    }
                    (n, None) => {
                        text.push(letter);
                        text.push_str(&n.to_string());
                    }
                }
            }
        }
        terms.push(Term {
            key: (initial, term_class(kind), li, mode, dirs.clone()),
            text,
            bent: matches!(kind, TermKind::Bent(..)),
        });
    }
    terms.sort_by(|a, b| a.key.cmp(&b.key).then(a.text.cmp(&b.text)));
    let mut s = String::new();
    let mut prev_bent = false;
    for t in terms {
        // A bare atom letter followed by a term starting with the same letter would read
        // as a doubled atom (`N` + `N2` = `NN2`): make the first one's range explicit.
        let chars: Vec<char> = s.chars().collect();
        if let (Some(&last), Some(next)) = (chars.last(), t.text.chars().next()) {
            let doubled = chars.len() >= 2 && chars[chars.len() - 2] == last;
            if last == next && base_of(last).is_some() && !doubled {
                s.push(if prev_bent { '0' } else { '1' });
            }
        }
        s.push_str(&t.text);
        prev_bent = t.bent;
    }
    (s, unexpressible)
}
