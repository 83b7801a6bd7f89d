//! A second move generator for Primitive Augsburg Chess, written from
//! ../shared/rules/augsburg.md alone and sharing no generation code with `src/`: a 10x10
//! mailbox whose squares hold explicit (ferz, wazir) counts, its own FEN reader and
//! writer, moves written as text (A7), and legality by playing each move on a copy and
//! looking for an attack on the king. `tests/augsburg_differential.rs` compares it with the
//! engine on seeded random games (move lists and the FEN after every move) and on the
//! perft suite.

const SIDE: i32 = 10;

/// What stands on a square: a King, a Pawn, or a stack of ferzes and wazirs (with the
/// Queen/Senator choice for (4,4)).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Man {
    King,
    Pawn,
    Stack { f: u8, w: u8, senator: bool },
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Unit {
    white: bool,
    man: Man,
}

/// A1: the letter of every composition.
const LETTERS: [(char, u8, u8); 12] = [
    ('F', 1, 0),
    ('W', 0, 1),
    ('E', 2, 0),
    ('C', 0, 2),
    ('N', 1, 1),
    ('B', 4, 0),
    ('R', 0, 4),
    ('D', 3, 1),
    ('T', 1, 3),
    ('L', 2, 2),
    ('Q', 4, 4),
    ('S', 4, 4),
];

fn stack_of(letter: char) -> Option<Man> {
    LETTERS
        .iter()
        .find(|e| e.0 == letter)
        .map(|&(l, f, w)| Man::Stack {
            f,
            w,
            senator: l == 'S',
        })
}

fn defined(f: u8, w: u8) -> bool {
    (f, w) != (0, 0) && LETTERS.iter().any(|e| (e.1, e.2) == (f, w))
}

fn letter(man: Man) -> char {
    match man {
        Man::King => 'K',
        Man::Pawn => 'P',
        Man::Stack {
            f: 4,
            w: 4,
            senator,
        } => {
            if senator {
                'S'
            } else {
                'Q'
            }
        }
        Man::Stack { f, w, .. } => {
            LETTERS
                .iter()
                .find(|e| (e.1, e.2) == (f, w))
                .expect("defined")
                .0
        }
    }
}

/// One way of moving: a leap, or a slide of at most `max` steps (0 = unlimited).
#[derive(Clone, Copy)]
enum Way {
    Leap(i32, i32),
    Slide(i32, i32, i32),
}

/// The eight images of (a, b).
fn images(a: i32, b: i32) -> Vec<(i32, i32)> {
    let mut v = Vec::new();
    for (x, y) in [(a, b), (b, a)] {
        for sx in [1, -1] {
            for sy in [1, -1] {
                if !v.contains(&(x * sx, y * sy)) {
                    v.push((x * sx, y * sy));
                }
            }
        }
    }
    v
}

/// The piece list of the rulings, by letter.
fn ways(letter: char) -> Vec<Way> {
    let leaps = |list: &[(i32, i32)]| -> Vec<Way> {
        list.iter()
            .flat_map(|&(a, b)| images(a, b))
            .map(|(x, y)| Way::Leap(x, y))
            .collect()
    };
    let slides = |a: i32, b: i32, max: i32| -> Vec<Way> {
        images(a, b)
            .into_iter()
            .map(|(x, y)| Way::Slide(x, y, max))
            .collect()
    };
    match letter {
        'F' => leaps(&[(1, 1)]),
        'W' => leaps(&[(1, 0)]),
        'E' => leaps(&[(2, 2)]),
        'C' => leaps(&[(2, 0)]),
        'N' => leaps(&[(1, 2)]),
        'B' => slides(1, 1, 0),
        'R' => slides(1, 0, 0),
        'D' => [leaps(&[(1, 0)]), slides(1, 1, 4)].concat(),
        'T' => [leaps(&[(1, 1)]), slides(1, 0, 4)].concat(),
        'L' => leaps(&[(2, 2), (2, 0), (3, 3), (3, 0)]),
        'S' => leaps(&[(1, 0), (1, 1), (2, 2), (2, 0), (3, 3), (3, 0), (1, 2)]),
        'Q' => [slides(1, 0, 0), slides(1, 1, 0)].concat(),
        'K' => leaps(&[(1, 0), (1, 1)]),
        _ => Vec::new(),
    }
}

fn at(file: i32, rank: i32) -> Option<usize> {
    if (0..SIDE).contains(&file) && (0..SIDE).contains(&rank) {
        Some((rank * SIDE + file) as usize)
    } else {
        None
    }
}

fn name(sq: usize) -> String {
    format!(
        "{}{}",
        (b'a' + (sq as i32 % SIDE) as u8) as char,
        sq as i32 / SIDE + 1
    )
}

/// A move as the reference plays it.
#[derive(Clone, Debug)]
pub struct Play {
    pub text: String,
    from: usize,
    to: usize,
    /// What stands on `to` afterwards.
    lands: Unit,
    /// What stands on `from` afterwards (a split's remainder), if anything.
    stays: Option<Unit>,
    /// A pawn taken en passant.
    ep_victim: Option<usize>,
    /// The square skipped by a two-step.
    skipped: Option<usize>,
    resets_clock: bool,
}

#[derive(Clone)]
pub struct Game {
    sq: [Option<Unit>; 100],
    white: bool,
    ep: Option<usize>,
    half: u32,
    full: u32,
}

impl Game {
    pub fn from_fen(fen: &str) -> Game {
        let f: Vec<&str> = fen.split_whitespace().collect();
        let mut sq = [None; 100];
        for (i, row) in f[0].split('/').enumerate() {
            let rank = SIDE - 1 - i as i32;
            let (mut file, mut run) = (0, 0);
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10) {
                    run = run * 10 + d as i32;
                    continue;
                }
                file += run;
                run = 0;
                let up = ch.to_ascii_uppercase();
                let man = match up {
                    'K' => Man::King,
                    'P' => Man::Pawn,
                    _ => stack_of(up).unwrap_or_else(|| panic!("letter {ch}")),
                };
                sq[at(file, rank).unwrap()] = Some(Unit {
                    white: ch.is_ascii_uppercase(),
                    man,
                });
                file += 1;
            }
        }
        let ep = match f.get(3) {
            Some(&"-") | None => None,
            Some(s) => {
                let b = s.as_bytes();
                at((b[0] - b'a') as i32, s[1..].parse::<i32>().unwrap() - 1)
            }
        };
        Game {
            sq,
            white: f.get(1) != Some(&"b"),
            ep,
            half: f.get(4).map_or(0, |s| s.parse().unwrap()),
            full: f.get(5).map_or(1, |s| s.parse().unwrap()),
        }
    }

    pub fn fen(&self) -> String {
        let mut s = String::new();
        for rank in (0..SIDE).rev() {
            let mut run = 0;
            for file in 0..SIDE {
                match self.sq[at(file, rank).unwrap()] {
                    None => run += 1,
                    Some(u) => {
                        if run > 0 {
                            s += &run.to_string();
                            run = 0;
                        }
                        let l = letter(u.man);
                        s.push(if u.white { l } else { l.to_ascii_lowercase() });
                    }
                }
            }
            if run > 0 {
                s += &run.to_string();
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let ep = self.ep.map_or("-".to_string(), name);
        format!(
            "{s} {} - {ep} {} {}",
            if self.white { "w" } else { "b" },
            self.half,
            self.full
        )
    }

    /// The squares a piece of `letter` on `from` reaches: empty ones, and the first
    /// occupied square of each slide (either colour).
    fn reach(&self, letter: char, from: usize) -> Vec<usize> {
        let (x, y) = (from as i32 % SIDE, from as i32 / SIDE);
        let mut out = Vec::new();
        for w in ways(letter) {
            match w {
                Way::Leap(dx, dy) => out.extend(at(x + dx, y + dy)),
                Way::Slide(dx, dy, max) => {
                    let mut n = 1;
                    while max == 0 || n <= max {
                        let Some(t) = at(x + dx * n, y + dy * n) else {
                            break;
                        };
                        out.push(t);
                        if self.sq[t].is_some() {
                            break;
                        }
                        n += 1;
                    }
                }
            }
        }
        out
    }

    /// True when a piece of colour `white` attacks `target`.
    fn attacked(&self, target: usize, white: bool) -> bool {
        (0..100).any(|s| match self.sq[s] {
            Some(u) if u.white == white => match u.man {
                Man::Pawn => {
                    let dir = if white { 1 } else { -1 };
                    let (x, y) = (s as i32 % SIDE, s as i32 / SIDE);
                    at(x - 1, y + dir) == Some(target) || at(x + 1, y + dir) == Some(target)
                }
                m => self.reach(letter(m), s).contains(&target),
            },
            _ => false,
        })
    }

    fn pseudo(&self) -> Vec<Play> {
        let mut out = Vec::new();
        let me = self.white;
        for s in 0..100 {
            let Some(u) = self.sq[s] else { continue };
            if u.white != me {
                continue;
            }
            let plain = |to: usize, lands: Unit, text: String, resets: bool| Play {
                text,
                from: s,
                to,
                lands,
                stays: None,
                ep_victim: None,
                skipped: None,
                resets_clock: resets,
            };
            match u.man {
                Man::Pawn => {
                    // A5: the FIDE pawn from rank 3, promoting on the last rank to N E C F W.
                    let dir = if me { 1 } else { -1 };
                    let (x, y) = (s as i32 % SIDE, s as i32 / SIDE);
                    let last = if me { SIDE - 1 } else { 0 };
                    let start = if me { 2 } else { SIDE - 3 };
                    let mut push = |to: usize, victim: Option<usize>, skipped: Option<usize>| {
                        let base = format!("{}{}", name(s), name(to));
                        if to as i32 / SIDE == last {
                            for l in ['N', 'E', 'C', 'F', 'W'] {
                                let man = stack_of(l).unwrap();
                                let mut p = plain(
                                    to,
                                    Unit { white: me, man },
                                    format!("{base}{}", l.to_ascii_lowercase()),
                                    true,
                                );
                                p.ep_victim = victim;
                                out.push(p);
                            }
                        } else {
                            let mut p = plain(to, u, base, true);
                            p.ep_victim = victim;
                            p.skipped = skipped;
                            out.push(p);
                        }
                    };
                    if let Some(t1) = at(x, y + dir) {
                        if self.sq[t1].is_none() {
                            push(t1, None, None);
                            if y == start {
                                if let Some(t2) = at(x, y + 2 * dir) {
                                    if self.sq[t2].is_none() {
                                        push(t2, None, Some(t1));
                                    }
                                }
                            }
                        }
                    }
                    for dx in [-1, 1] {
                        let Some(t) = at(x + dx, y + dir) else {
                            continue;
                        };
                        match self.sq[t] {
                            Some(v) if v.white != me => push(t, None, None),
                            None if self.ep == Some(t) => {
                                let victim = at(x + dx, y);
                                if matches!(victim.and_then(|v| self.sq[v]), Some(Unit { man: Man::Pawn, white }) if white != me)
                                {
                                    push(t, victim, None);
                                }
                            }
                            _ => {}
                        }
                    }
                }
                Man::King => {
                    for t in self.reach('K', s) {
                        if self.sq[t].is_none_or(|v| v.white != me) {
                            let capture = self.sq[t].is_some();
                            out.push(plain(t, u, format!("{}{}", name(s), name(t)), capture));
                        }
                    }
                }
                Man::Stack { f, w, senator } => {
                    for t in self.reach(letter(u.man), s) {
                        let base = format!("{}{}", name(s), name(t));
                        match self.sq[t] {
                            None => {
                                out.push(plain(t, u, base.clone(), false));
                                // A4: Queen <-> Senator on a plain move to an empty square.
                                if (f, w) == (4, 4) {
                                    let other = Unit {
                                        white: me,
                                        man: Man::Stack {
                                            f,
                                            w,
                                            senator: !senator,
                                        },
                                    };
                                    out.push(plain(
                                        t,
                                        other,
                                        format!("{base}{}", if senator { 'q' } else { 's' }),
                                        false,
                                    ));
                                }
                                // A3: any two defined parts; X lands on `to`, Y stays.
                                for &(l, xf, xw) in &LETTERS {
                                    if xf <= f && xw <= w && defined(f - xf, w - xw) {
                                        let x = Unit {
                                            white: me,
                                            man: stack_of(l).unwrap(),
                                        };
                                        let y = Unit {
                                            white: me,
                                            man: Man::Stack {
                                                f: f - xf,
                                                w: w - xw,
                                                senator: false,
                                            },
                                        };
                                        let mut p = plain(
                                            t,
                                            x,
                                            format!("{base}{}", l.to_ascii_lowercase()),
                                            false,
                                        );
                                        p.stays = Some(y);
                                        out.push(p);
                                    }
                                }
                            }
                            Some(v) if v.white != me => out.push(plain(t, u, base, true)),
                            Some(Unit {
                                man: Man::Stack { f: g, w: h, .. },
                                ..
                            }) => {
                                // A2: onto a friendly piece when the sum is defined.
                                let (sf, sw) = (f + g, w + h);
                                if (sf, sw) == (4, 4) {
                                    for sen in [false, true] {
                                        let c = Unit {
                                            white: me,
                                            man: Man::Stack {
                                                f: 4,
                                                w: 4,
                                                senator: sen,
                                            },
                                        };
                                        out.push(plain(
                                            t,
                                            c,
                                            format!("{base}{}", if sen { 's' } else { 'q' }),
                                            false,
                                        ));
                                    }
                                } else if defined(sf, sw) {
                                    let c = Unit {
                                        white: me,
                                        man: Man::Stack {
                                            f: sf,
                                            w: sw,
                                            senator: false,
                                        },
                                    };
                                    out.push(plain(t, c, base, false));
                                }
                            }
                            Some(_) => {}
                        }
                    }
                }
            }
        }
        out
    }

    fn play(&self, p: &Play) -> Game {
        let mut g = self.clone();
        g.sq[p.from] = p.stays;
        g.sq[p.to] = Some(p.lands);
        if let Some(v) = p.ep_victim {
            g.sq[v] = None;
        }
        g.ep = p.skipped;
        g.half = if p.resets_clock { 0 } else { self.half + 1 };
        if !self.white {
            g.full += 1;
        }
        g.white = !self.white;
        g
    }

    /// C2: the moves that do not leave the mover's King attacked.
    pub fn legal(&self) -> Vec<(Play, Game)> {
        let mut out: Vec<(Play, Game)> = self
            .pseudo()
            .into_iter()
            .map(|p| {
                let g = self.play(&p);
                (p, g)
            })
            .filter(|(_, g)| {
                let king = (0..100).find(|&s| {
                    g.sq[s]
                        == Some(Unit {
                            white: self.white,
                            man: Man::King,
                        })
                });
                king.is_some_and(|k| !g.attacked(k, !self.white))
            })
            .collect();
        out.sort_by(|a, b| a.0.text.cmp(&b.0.text));
        out
    }

    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 1 {
            return self.legal().len() as u64;
        }
        self.legal().iter().map(|(_, g)| g.perft(depth - 1)).sum()
    }
}
