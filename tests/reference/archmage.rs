//! A second ArchMage Chess move generator, written from ../shared/rules/archmage.md
//! alone: a plain 10x10 mailbox, its own FEN reader and writer, make by copying, and
//! legality by "is my King attacked after the move?". It shares no code with `src/`, so
//! that the engine's bitboards, attack tables and incremental updates are checked
//! against something that works in an entirely different way. Slow on purpose.

use std::collections::BTreeSet;

const N: i32 = 10;

/// A (file, rank) displacement.
type Step = (i32, i32);

/// A piece: its upper-case letter and whether it is White's.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pc {
    pub letter: char,
    pub white: bool,
}

/// A move, with everything `make` needs, and its written form.
#[derive(Clone, Debug)]
pub struct Mv {
    pub text: String,
    pub kind: Kind,
}

/// What a move does.
#[derive(Clone, Debug)]
pub enum Kind {
    /// A move or capture; `ep_victim` for en passant, `skipped` for a Pawn two-step.
    Plain {
        from: i32,
        to: i32,
        promo: Option<char>,
        ep_victim: Option<i32>,
        skipped: Option<i32>,
    },
    /// King and Rook squares.
    Castle { kf: i32, kt: i32, rf: i32, rt: i32 },
    /// A Dragon from the hand.
    Drop { letter: char, to: i32 },
    /// A positional switch (M4) and the promotions of the switcher and of its partner.
    Switch {
        from: i32,
        to: i32,
        pa: Option<char>,
        pb: Option<char>,
    },
}

impl Mv {
    /// True for captures, promotions, drops, castling and switches that promote in
    /// `pos`: moves a random game should not wait long to see.
    pub fn is_special(&self, pos: &Ref) -> bool {
        match &self.kind {
            &Kind::Plain {
                to,
                promo,
                ep_victim,
                ..
            } => promo.is_some() || ep_victim.is_some() || pos.sq[to as usize].is_some(),
            Kind::Castle { .. } | Kind::Drop { .. } => true,
            Kind::Switch { pa, pb, .. } => pa.is_some() || pb.is_some(),
        }
    }
}

/// A position.
#[derive(Clone, Debug)]
pub struct Ref {
    pub sq: [Option<Pc>; 100],
    /// Dragons in hand: [colour][0 = Dragon King, 1 = Dragon Horse]; colour 0 = White.
    pub hand: [[u32; 2]; 2],
    pub white: bool,
    /// K Q k q.
    pub castle: [bool; 4],
    pub ep: Option<i32>,
    pub half: u32,
    pub full: u32,
}

fn file(s: i32) -> i32 {
    s % N
}
fn rank(s: i32) -> i32 {
    s / N
}
fn at(f: i32, r: i32) -> Option<i32> {
    if (0..N).contains(&f) && (0..N).contains(&r) {
        Some(r * N + f)
    } else {
        None
    }
}
fn name(s: i32) -> String {
    format!("{}{}", (b'a' + file(s) as u8) as char, rank(s) + 1)
}

/// All eight images of (a, b).
fn sym(a: i32, b: i32) -> Vec<(i32, i32)> {
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

const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Leaps of a piece (the rulings' table, by hand).
fn leaps(l: char) -> Vec<(i32, i32)> {
    let k = || {
        let mut v = sym(1, 0);
        v.extend(sym(1, 1));
        v
    };
    match l {
        'K' | 'I' => k(),
        'A' | 'Y' | 'Z' => sym(2, 1),
        'C' => [k(), sym(2, 1)].concat(),
        'F' => [sym(1, 0), sym(2, 2)].concat(),
        'U' => [sym(2, 1), sym(3, 1), sym(3, 2)].concat(),
        'G' | 'D' => sym(1, 1),
        'T' | 'H' => sym(1, 0),
        'S' => [k(), sym(2, 0), sym(2, 2), sym(3, 0), sym(3, 3)].concat(),
        'M' | 'L' => [k(), sym(2, 0), sym(2, 2), sym(2, 1)].concat(),
        'W' => [sym(2, 1), sym(2, 0), sym(2, 2), sym(3, 0), sym(3, 3)].concat(),
        _ => vec![],
    }
}

/// Slide directions of a piece.
fn slides(l: char) -> Vec<(i32, i32)> {
    match l {
        'Q' | 'A' | 'W' => [ORTHO, DIAG].concat(),
        'R' | 'Z' | 'D' => ORTHO.to_vec(),
        'B' | 'Y' | 'H' => DIAG.to_vec(),
        _ => vec![],
    }
}

/// What a piece may become on its last rank (M1), empty if it does not promote.
fn promotions(l: char) -> &'static [char] {
    match l {
        'P' | 'S' | 'M' => &['W'],
        'R' => &['Z'],
        'B' => &['Y'],
        'I' => &['A', 'L', 'T', 'G'],
        'C' | 'F' => &['L'],
        _ => &[],
    }
}

const SUMMONERS: [char; 3] = ['W', 'M', 'S'];

impl Ref {
    /// Reads a FEN (the rulings' format); panics on what it does not understand,
    /// since it only ever reads the tests' own positions.
    pub fn from_fen(fen: &str) -> Ref {
        let mut f = fen.split_whitespace();
        let mut place = f.next().unwrap().to_string();
        let mut hand = [[0u32; 2]; 2];
        if let Some(i) = place.find('[') {
            for c in place[i + 1..place.len() - 1].chars() {
                let side = if c.is_ascii_uppercase() { 0 } else { 1 };
                let k = match c.to_ascii_uppercase() {
                    'D' => 0,
                    'H' => 1,
                    _ => panic!("hand letter {c}"),
                };
                hand[side][k] += 1;
            }
            place.truncate(i);
        }
        let mut sq = [None; 100];
        for (i, row) in place.split('/').enumerate() {
            let r = N - 1 - i as i32;
            let (mut fl, mut num) = (0, 0);
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    num = num * 10 + d as i32;
                } else {
                    fl += num;
                    num = 0;
                    sq[at(fl, r).unwrap() as usize] = Some(Pc {
                        letter: c.to_ascii_uppercase(),
                        white: c.is_ascii_uppercase(),
                    });
                    fl += 1;
                }
            }
        }
        let white = f.next().unwrap_or("w") == "w";
        let cs = f.next().unwrap_or("-");
        let mut p = Ref {
            sq,
            hand,
            white,
            castle: [false; 4],
            ep: None,
            half: 0,
            full: 1,
        };
        for (i, ch) in "KQkq".chars().enumerate() {
            let (kr, rf) = match i {
                0 => (0, 8),
                1 => (0, 1),
                2 => (9, 8),
                _ => (9, 1),
            };
            let w = i < 2;
            let king = p.sq[at(5, kr).unwrap() as usize]
                == Some(Pc {
                    letter: 'K',
                    white: w,
                });
            let rook = p.sq[at(rf, kr).unwrap() as usize]
                == Some(Pc {
                    letter: 'R',
                    white: w,
                });
            p.castle[i] = cs.contains(ch) && king && rook;
        }
        let ep = f.next().unwrap_or("-");
        if ep != "-" {
            let b = ep.as_bytes();
            let e = at((b[0] - b'a') as i32, ep[1..].parse::<i32>().unwrap() - 1).unwrap();
            let victim = e + if white { -N } else { N };
            if p.sq[victim as usize]
                == Some(Pc {
                    letter: 'P',
                    white: !white,
                })
            {
                p.ep = Some(e);
            }
        }
        p.half = f.next().map_or(0, |s| s.parse().unwrap());
        p.full = f.next().map_or(1, |s| s.parse().unwrap());
        p
    }

    /// The FEN, hands always written (White's first, D before H).
    pub fn fen(&self) -> String {
        let mut s = String::new();
        for r in (0..N).rev() {
            let mut empty = 0;
            for fl in 0..N {
                match self.sq[(r * N + fl) as usize] {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s += &empty.to_string();
                            empty = 0;
                        }
                        s.push(if p.white {
                            p.letter
                        } else {
                            p.letter.to_ascii_lowercase()
                        });
                    }
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            if r > 0 {
                s.push('/');
            }
        }
        s.push('[');
        for (side, letters) in [(0, ['D', 'H']), (1, ['d', 'h'])] {
            for (k, l) in letters.iter().enumerate() {
                for _ in 0..self.hand[side][k] {
                    s.push(*l);
                }
            }
        }
        s.push(']');
        s += if self.white { " w " } else { " b " };
        let cs: String = "KQkq"
            .chars()
            .zip(self.castle)
            .filter(|x| x.1)
            .map(|x| x.0)
            .collect();
        s += if cs.is_empty() { "-" } else { &cs };
        s += &format!(
            " {} {} {}",
            self.ep.map_or("-".to_string(), name),
            self.half,
            self.full
        );
        s
    }

    /// Squares the piece on `s` attacks (could capture on if an enemy stood there).
    fn attacks_from(&self, s: i32) -> Vec<i32> {
        let p = self.sq[s as usize].unwrap();
        let mut out = Vec::new();
        let (f, r) = (file(s), rank(s));
        if p.letter == 'P' {
            let dy = if p.white { 1 } else { -1 };
            for dx in [-1, 1] {
                if let Some(t) = at(f + dx, r + dy) {
                    out.push(t);
                }
            }
            return out;
        }
        for (dx, dy) in leaps(p.letter) {
            if let Some(t) = at(f + dx, r + dy) {
                out.push(t);
            }
        }
        for (dx, dy) in slides(p.letter) {
            let (mut x, mut y) = (f + dx, r + dy);
            while let Some(t) = at(x, y) {
                out.push(t);
                if self.sq[t as usize].is_some() {
                    break;
                }
                x += dx;
                y += dy;
            }
        }
        // Griffon / Manticore: first step onto an empty square, then slide outward.
        let bent: Vec<(Step, [Step; 2])> = match p.letter {
            'G' => DIAG
                .iter()
                .map(|&(a, b)| ((a, b), [(a, 0), (0, b)]))
                .collect(),
            'T' => ORTHO
                .iter()
                .map(|&(a, b)| {
                    if a == 0 {
                        ((a, b), [(1, b), (-1, b)])
                    } else {
                        ((a, b), [(a, 1), (a, -1)])
                    }
                })
                .collect(),
            _ => vec![],
        };
        for ((a, b), outs) in bent {
            let Some(m) = at(f + a, r + b) else { continue };
            if self.sq[m as usize].is_some() {
                continue;
            }
            for (dx, dy) in outs {
                let (mut x, mut y) = (file(m) + dx, rank(m) + dy);
                while let Some(t) = at(x, y) {
                    out.push(t);
                    if self.sq[t as usize].is_some() {
                        break;
                    }
                    x += dx;
                    y += dy;
                }
            }
        }
        out
    }

    fn attacked_by(&self, s: i32, white: bool) -> bool {
        (0..100).any(|a| {
            matches!(self.sq[a as usize], Some(p) if p.white == white)
                && self.attacks_from(a).contains(&s)
        })
    }

    fn king(&self, white: bool) -> i32 {
        (0..100)
            .find(|&s| self.sq[s as usize] == Some(Pc { letter: 'K', white }))
            .expect("a King")
    }

    /// True when the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.attacked_by(self.king(self.white), !self.white)
    }

    fn last_rank(&self, white: bool) -> i32 {
        if white {
            N - 1
        } else {
            0
        }
    }

    /// Promotion choices of `l` arriving on `s` (None = stays as it is).
    fn arrivals(&self, l: char, s: i32, white: bool) -> Vec<Option<char>> {
        let ps = promotions(l);
        if rank(s) == self.last_rank(white) && !ps.is_empty() {
            ps.iter().map(|&c| Some(c)).collect()
        } else {
            vec![None]
        }
    }

    fn pseudo(&self) -> Vec<Mv> {
        let us = self.white;
        let mut out = Vec::new();
        let lc = |c: Option<char>| {
            c.map(|c| c.to_ascii_lowercase().to_string())
                .unwrap_or_default()
        };
        for s in 0..100 {
            let Some(p) = self.sq[s as usize] else {
                continue;
            };
            if p.white != us {
                continue;
            }
            let mut targets: BTreeSet<i32> = BTreeSet::new();
            if p.letter == 'P' {
                let dy = if us { 1 } else { -1 };
                if let Some(t) = at(file(s), rank(s) + dy) {
                    if self.sq[t as usize].is_none() {
                        targets.insert(t);
                        // M3: from the first three ranks, two squares if both are empty.
                        let rel = if us { rank(s) } else { N - 1 - rank(s) };
                        if let Some(t2) = at(file(s), rank(s) + 2 * dy) {
                            if rel <= 2 && self.sq[t2 as usize].is_none() {
                                out.push(Mv {
                                    text: format!("{}{}", name(s), name(t2)),
                                    kind: Kind::Plain {
                                        from: s,
                                        to: t2,
                                        promo: None,
                                        ep_victim: None,
                                        skipped: Some(t),
                                    },
                                });
                            }
                        }
                    }
                }
                for t in self.attacks_from(s) {
                    if matches!(self.sq[t as usize], Some(q) if q.white != us) {
                        targets.insert(t);
                    }
                    if Some(t) == self.ep {
                        out.push(Mv {
                            text: format!("{}{}", name(s), name(t)),
                            kind: Kind::Plain {
                                from: s,
                                to: t,
                                promo: None,
                                ep_victim: Some(t - dy * N),
                                skipped: None,
                            },
                        });
                    }
                }
            } else {
                for t in self.attacks_from(s) {
                    if !matches!(self.sq[t as usize], Some(q) if q.white == us) {
                        targets.insert(t);
                    }
                }
                if p.letter == 'I' {
                    // Non-capturing, non-leaping two squares orthogonally.
                    for (dx, dy) in ORTHO {
                        let m = at(file(s) + dx, rank(s) + dy);
                        let t = at(file(s) + 2 * dx, rank(s) + 2 * dy);
                        if let (Some(m), Some(t)) = (m, t) {
                            if self.sq[m as usize].is_none() && self.sq[t as usize].is_none() {
                                targets.insert(t);
                            }
                        }
                    }
                }
            }
            for t in targets {
                for promo in self.arrivals(p.letter, t, us) {
                    out.push(Mv {
                        text: format!("{}{}{}", name(s), name(t), lc(promo)),
                        kind: Kind::Plain {
                            from: s,
                            to: t,
                            promo,
                            ep_victim: None,
                            skipped: None,
                        },
                    });
                }
            }
            // M4: switch with a friendly non-King piece of another type within 3.
            if SUMMONERS.contains(&p.letter) {
                for t in 0..100 {
                    let Some(q) = self.sq[t as usize] else {
                        continue;
                    };
                    let dist = (file(s) - file(t)).abs().max((rank(s) - rank(t)).abs());
                    if q.white != us || q.letter == 'K' || q.letter == p.letter || dist > 3 {
                        continue;
                    }
                    for pa in self.arrivals(p.letter, t, us) {
                        for pb in self.arrivals(q.letter, s, us) {
                            out.push(Mv {
                                text: format!("{}{}{}{}", name(s), name(t), lc(pa), lc(pb)),
                                kind: Kind::Switch {
                                    from: s,
                                    to: t,
                                    pa,
                                    pb,
                                },
                            });
                        }
                    }
                }
            }
        }
        // M5: summoning next to an ArchMage, Mage or Sorceress.
        let side = if us { 0 } else { 1 };
        for (k, letter) in ['D', 'H'].into_iter().enumerate() {
            if self.hand[side][k] == 0 {
                continue;
            }
            for t in 0..100 {
                if self.sq[t as usize].is_some() {
                    continue;
                }
                let near = (0..100).any(|s| {
                    matches!(self.sq[s as usize], Some(q) if q.white == us && SUMMONERS.contains(&q.letter))
                        && (file(s) - file(t)).abs().max((rank(s) - rank(t)).abs()) == 1
                });
                if near {
                    out.push(Mv {
                        text: format!("{letter}@{}", name(t)),
                        kind: Kind::Drop { letter, to: t },
                    });
                }
            }
        }
        // M2: King f -> h with Rook i -> g; King f -> d with Rook b -> e.
        let r = if us { 0 } else { N - 1 };
        let base = if us { 0 } else { 2 };
        for (i, (kt, rf, rt, empty, safe)) in [
            (7, 8, 6, vec![6, 7], vec![6, 7]),
            (3, 1, 4, vec![2, 3, 4], vec![4, 3]),
        ]
        .into_iter()
        .enumerate()
        {
            if !self.castle[base + i] {
                continue;
            }
            if empty
                .iter()
                .any(|&x| self.sq[(r * N + x) as usize].is_some())
            {
                continue;
            }
            if self.in_check() || safe.iter().any(|&x| self.attacked_by(r * N + x, !us)) {
                continue;
            }
            out.push(Mv {
                text: format!("{}{}", name(r * N + 5), name(r * N + kt)),
                kind: Kind::Castle {
                    kf: r * N + 5,
                    kt: r * N + kt,
                    rf: r * N + rf,
                    rt: r * N + rt,
                },
            });
        }
        out
    }

    /// The position after `m`.
    pub fn make(&self, m: &Mv) -> Ref {
        let mut n = self.clone();
        let us = self.white;
        let side = if us { 0 } else { 1 };
        n.ep = None;
        n.half += 1;
        let mut touched = vec![];
        let pawn = |p: Option<Pc>| matches!(p, Some(p) if p.letter == 'P');
        match m.kind {
            Kind::Plain {
                from,
                to,
                promo,
                ep_victim,
                skipped,
            } => {
                let p = n.sq[from as usize].take().unwrap();
                let mut captured = n.sq[to as usize].take();
                if let Some(v) = ep_victim {
                    captured = n.sq[v as usize].take();
                }
                if let Some(c) = captured {
                    n.half = 0;
                    if c.letter == 'D' || c.letter == 'H' {
                        n.hand[side][if c.letter == 'D' { 0 } else { 1 }] += 1;
                    }
                }
                if p.letter == 'P' {
                    n.half = 0;
                }
                n.sq[to as usize] = Some(Pc {
                    letter: promo.unwrap_or(p.letter),
                    white: us,
                });
                n.ep = skipped;
                touched = vec![from, to];
            }
            Kind::Castle { kf, kt, rf, rt } => {
                let k = n.sq[kf as usize].take();
                let r = n.sq[rf as usize].take();
                n.sq[kt as usize] = k;
                n.sq[rt as usize] = r;
                touched = vec![kf, rf];
            }
            Kind::Drop { letter, to } => {
                n.hand[side][if letter == 'D' { 0 } else { 1 }] -= 1;
                n.sq[to as usize] = Some(Pc { letter, white: us });
            }
            Kind::Switch { from, to, pa, pb } => {
                let a = n.sq[from as usize].unwrap();
                let b = n.sq[to as usize].unwrap();
                if pawn(Some(a)) || pawn(Some(b)) {
                    n.half = 0;
                }
                n.sq[to as usize] = Some(Pc {
                    letter: pa.unwrap_or(a.letter),
                    white: us,
                });
                n.sq[from as usize] = Some(Pc {
                    letter: pb.unwrap_or(b.letter),
                    white: us,
                });
                touched = vec![from, to];
            }
        }
        for s in touched {
            let (f, r) = (file(s), rank(s));
            for (i, (kr, rf)) in [(0, 8), (0, 1), (9, 8), (9, 1)].into_iter().enumerate() {
                if r == kr && (f == 5 || f == rf) {
                    n.castle[i] = false;
                }
            }
        }
        if !us {
            n.full += 1;
        }
        n.white = !us;
        n
    }

    /// The legal moves: those after which the mover's King is not attacked.
    pub fn legal(&self) -> Vec<Mv> {
        self.pseudo()
            .into_iter()
            .filter(|m| {
                let n = self.make(m);
                !n.attacked_by(n.king(self.white), !self.white)
            })
            .collect()
    }

    /// Leaf count at `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        let moves = self.legal();
        if depth <= 1 {
            return if depth == 0 { 1 } else { moves.len() as u64 };
        }
        moves.iter().map(|m| self.make(m).perft(depth - 1)).sum()
    }
}
