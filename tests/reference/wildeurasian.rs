//! A deliberately simple, independent move generator for Wildeurasian Qi, written from
//! the rulings (../shared/rules/wildeurasian-qi.md W1-W7) and nothing else: a 10x10 mailbox
//! of FEN letters, rays walked square by square, legality by making the move on a copy
//! and looking for attacks and facing kings. It shares no code with `src/`; the
//! differential test compares the two generators position by position.

const N: i32 = 10;

/// A position: mailbox of FEN letters (b'.' empty), side, castling rights, clocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pos {
    cells: [u8; 100],
    white: bool,
    /// Squares of rooks that still hold a castling right (W5).
    rights: Vec<usize>,
    halfmove: u32,
    fullmove: u32,
}

const ORTH: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];
const KNIGHT: [(i32, i32); 8] = [
    (1, 2),
    (2, 1),
    (-1, 2),
    (-2, 1),
    (1, -2),
    (2, -1),
    (-1, -2),
    (-2, -1),
];
const CAMEL: [(i32, i32); 8] = [
    (1, 3),
    (3, 1),
    (-1, 3),
    (-3, 1),
    (1, -3),
    (3, -1),
    (-1, -3),
    (-3, -1),
];
/// Types that count for the promotion pool, with their start counts (W3).
const START_COUNTS: [(u8, u32); 9] = [
    (b'R', 2),
    (b'B', 2),
    (b'Q', 1),
    (b'C', 2),
    (b'A', 2),
    (b'T', 1),
    (b'N', 2),
    (b'M', 2),
    (b'G', 1),
];

fn sq(f: i32, r: i32) -> Option<usize> {
    if (0..N).contains(&f) && (0..N).contains(&r) {
        Some((r * N + f) as usize)
    } else {
        None
    }
}

fn file(s: usize) -> i32 {
    s as i32 % N
}

fn rank(s: usize) -> i32 {
    s as i32 / N
}

fn name(s: usize) -> String {
    format!("{}{}", (b'a' + file(s) as u8) as char, rank(s) + 1)
}

fn is_white(p: u8) -> bool {
    p.is_ascii_uppercase()
}

/// W1: the compounds K, Q, T, G never go beyond the River (between ranks 5 and 6).
fn allowed(p: u8, to: usize) -> bool {
    let upper = p.to_ascii_uppercase();
    if !matches!(upper, b'K' | b'Q' | b'T' | b'G') {
        return true;
    }
    if is_white(p) {
        rank(to) <= 4
    } else {
        rank(to) >= 5
    }
}

impl Pos {
    /// Reads a FEN; only what this game needs.
    pub fn parse(fen: &str) -> Result<Pos, String> {
        let f: Vec<&str> = fen.split_whitespace().collect();
        if f.len() != 6 {
            return Err(format!("{fen}: expected 6 fields"));
        }
        let mut cells = [b'.'; 100];
        let rows: Vec<&str> = f[0].split('/').collect();
        if rows.len() != 10 {
            return Err(format!("{fen}: expected 10 ranks"));
        }
        for (i, row) in rows.iter().enumerate() {
            let r = 9 - i as i32;
            let mut fl = 0i32;
            let b = row.as_bytes();
            let mut j = 0;
            while j < b.len() {
                if b[j].is_ascii_digit() {
                    let mut n = 0;
                    while j < b.len() && b[j].is_ascii_digit() {
                        n = n * 10 + (b[j] - b'0') as i32;
                        j += 1;
                    }
                    fl += n;
                } else {
                    let s = sq(fl, r).ok_or(format!("{fen}: rank {} too long", r + 1))?;
                    cells[s] = b[j];
                    fl += 1;
                    j += 1;
                }
            }
            if fl != 10 {
                return Err(format!("{fen}: rank {} has {fl} files", r + 1));
            }
        }
        let mut rights = Vec::new();
        if f[2] != "-" {
            let b = f[2].as_bytes();
            let mut j = 0;
            while j < b.len() {
                let fl = (b[j].to_ascii_lowercase() - b'a') as i32;
                j += 1;
                let mut n = 0;
                while j < b.len() && b[j].is_ascii_digit() {
                    n = n * 10 + (b[j] - b'0') as i32;
                    j += 1;
                }
                rights.push(sq(fl, n - 1).ok_or(format!("{fen}: bad castling square"))?);
            }
        }
        Ok(Pos {
            cells,
            white: f[1] == "w",
            rights,
            halfmove: f[4].parse().map_err(|_| "halfmove")?,
            fullmove: f[5].parse().map_err(|_| "fullmove")?,
        })
    }

    /// The position as FEN; rights White first, then by file and rank.
    pub fn fen(&self) -> String {
        let mut s = String::new();
        for r in (0..N).rev() {
            let mut empty = 0;
            for f in 0..N {
                let p = self.cells[sq(f, r).unwrap()];
                if p == b'.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        s += &empty.to_string();
                        empty = 0;
                    }
                    s.push(p as char);
                }
            }
            if empty > 0 {
                s += &empty.to_string();
            }
            if r > 0 {
                s.push('/');
            }
        }
        s += if self.white { " w " } else { " b " };
        let mut rights: Vec<(bool, i32, i32, usize)> = self
            .rights
            .iter()
            .map(|&x| (!is_white(self.cells[x]), file(x), rank(x), x))
            .collect();
        rights.sort();
        if rights.is_empty() {
            s.push('-');
        }
        for (black, _, _, x) in rights {
            let n = name(x);
            s += &if black { n } else { n.to_uppercase() };
        }
        s += &format!(" - {} {}", self.halfmove, self.fullmove);
        s
    }

    fn ours(&self, p: u8) -> bool {
        p != b'.' && is_white(p) == self.white
    }

    fn king(&self, white: bool) -> Option<usize> {
        let k = if white { b'K' } else { b'k' };
        (0..100).find(|&s| self.cells[s] == k)
    }

    /// Squares the piece on `from` may move to (quiet) and capture on, walking rays.
    fn targets(&self, from: usize) -> (Vec<usize>, Vec<usize>) {
        let p = self.cells[from];
        let white = is_white(p);
        let (f, r) = (file(from), rank(from));
        let enemy = |s: usize| self.cells[s] != b'.' && is_white(self.cells[s]) != white;
        let mut quiet = Vec::new();
        let mut caps = Vec::new();
        let leap = |dirs: &[(i32, i32)], quiet: &mut Vec<usize>, caps: &mut Vec<usize>| {
            for &(dx, dy) in dirs {
                if let Some(t) = sq(f + dx, r + dy) {
                    if self.cells[t] == b'.' {
                        quiet.push(t);
                    } else if enemy(t) {
                        caps.push(t);
                    }
                }
            }
        };
        let ride = |dirs: &[(i32, i32)], quiet: &mut Vec<usize>, caps: &mut Vec<usize>| {
            for &(dx, dy) in dirs {
                let (mut x, mut y) = (f + dx, r + dy);
                while let Some(t) = sq(x, y) {
                    if self.cells[t] != b'.' {
                        if enemy(t) {
                            caps.push(t);
                        }
                        break;
                    }
                    quiet.push(t);
                    x += dx;
                    y += dy;
                }
            }
        };
        // Cannon family: quiet moves like the rider; a capture passes exactly one screen
        // of either colour and takes the first piece after it.
        let hop = |dirs: &[(i32, i32)], quiet: &mut Vec<usize>, caps: &mut Vec<usize>| {
            for &(dx, dy) in dirs {
                let (mut x, mut y) = (f + dx, r + dy);
                let mut screened = false;
                while let Some(t) = sq(x, y) {
                    if self.cells[t] != b'.' {
                        if screened {
                            if enemy(t) {
                                caps.push(t);
                            }
                            break;
                        }
                        screened = true;
                    } else if !screened {
                        quiet.push(t);
                    }
                    x += dx;
                    y += dy;
                }
            }
        };
        let fwd = if white { 1 } else { -1 };
        match p.to_ascii_uppercase() {
            b'K' => {
                leap(&ORTH, &mut quiet, &mut caps);
                leap(&DIAG, &mut quiet, &mut caps);
            }
            b'Q' => {
                ride(&ORTH, &mut quiet, &mut caps);
                ride(&DIAG, &mut quiet, &mut caps);
            }
            b'R' => ride(&ORTH, &mut quiet, &mut caps),
            b'B' => ride(&DIAG, &mut quiet, &mut caps),
            b'N' => leap(&KNIGHT, &mut quiet, &mut caps),
            b'M' => leap(&CAMEL, &mut quiet, &mut caps),
            b'G' => {
                leap(&KNIGHT, &mut quiet, &mut caps);
                leap(&CAMEL, &mut quiet, &mut caps);
            }
            b'C' => hop(&ORTH, &mut quiet, &mut caps),
            b'A' => hop(&DIAG, &mut quiet, &mut caps),
            b'T' => {
                hop(&ORTH, &mut quiet, &mut caps);
                hop(&DIAG, &mut quiet, &mut caps);
            }
            b'W' => leap(&ORTH, &mut quiet, &mut caps),
            b'P' => {
                if let Some(t) = sq(f, r + fwd) {
                    if self.cells[t] == b'.' {
                        quiet.push(t);
                    }
                }
                for dx in [-1, 1] {
                    if let Some(t) = sq(f + dx, r + fwd) {
                        if enemy(t) {
                            caps.push(t);
                        }
                    }
                }
            }
            other => panic!("unknown piece {}", other as char),
        }
        quiet.retain(|&t| allowed(p, t));
        caps.retain(|&t| allowed(p, t));
        (quiet, caps)
    }

    /// True when a piece of colour `white` on `target` could be captured by the other
    /// side (whatever stands on `target` now).
    fn attacked(&self, target: usize, white: bool) -> bool {
        let mut b = self.clone();
        // A stand-in of the attacked colour, so that captures onto it are generated.
        b.cells[target] = if white { b'W' } else { b'w' };
        (0..100).any(|s| {
            let p = b.cells[s];
            p != b'.' && is_white(p) != white && b.targets(s).1.contains(&target)
        })
    }

    /// W4: the two kings on one file or diagonal with nothing between.
    fn kings_face(&self) -> bool {
        let (Some(a), Some(b)) = (self.king(true), self.king(false)) else {
            return false;
        };
        let (dx, dy) = (file(b) - file(a), rank(b) - rank(a));
        if !(dx == 0 || dx.abs() == dy.abs()) {
            return false;
        }
        let (sx, sy) = (dx.signum(), dy.signum());
        let (mut x, mut y) = (file(a) + sx, rank(a) + sy);
        while (x, y) != (file(b), rank(b)) {
            if self.cells[sq(x, y).unwrap()] != b'.' {
                return false;
            }
            x += sx;
            y += sy;
        }
        true
    }

    /// After the mover's move: its king neither attacked nor facing (C2, W4).
    fn mover_safe(&self, mover_white: bool) -> bool {
        let Some(k) = self.king(mover_white) else {
            return false;
        };
        !self.attacked(k, mover_white) && !self.kings_face()
    }

    fn pool_has(&self, p: u8) -> bool {
        let up = p.to_ascii_uppercase();
        let start = START_COUNTS
            .iter()
            .find(|(l, _)| *l == up)
            .map_or(0, |x| x.1);
        let on_board = self.cells.iter().filter(|&&c| c == p).count() as u32;
        on_board < start
    }

    /// Plays an ordinary move (with an optional new letter) and updates rights/clocks.
    fn play(&self, from: usize, to: usize, new_piece: Option<u8>) -> Pos {
        let mut n = self.clone();
        let p = self.cells[from];
        let captured = self.cells[to] != b'.';
        n.cells[to] = new_piece.unwrap_or(p);
        n.cells[from] = b'.';
        n.halfmove = if captured || p.eq_ignore_ascii_case(&b'P') {
            0
        } else {
            self.halfmove + 1
        };
        // W5: a right dies with its captured rook, follows a rook inside its zone, and
        // all of a side's rights go when its king leaves files e-f of its back two ranks.
        n.rights.retain(|&s| s != to);
        if let Some(i) = n.rights.iter().position(|&s| s == from) {
            if in_rook_zone(from, to, is_white(p)) {
                n.rights[i] = to;
            } else {
                n.rights.remove(i);
            }
        }
        if p.eq_ignore_ascii_case(&b'K') && !in_king_zone(to, is_white(p)) {
            let w = is_white(p);
            n.rights.retain(|&s| is_white(self.cells[s]) != w);
        }
        n.finish_turn();
        n
    }

    fn finish_turn(&mut self) {
        if !self.white {
            self.fullmove += 1;
        }
        self.white = !self.white;
    }

    /// Every legal move with the position it leads to.
    pub fn legal(&self) -> Vec<(String, Pos)> {
        let mut out = Vec::new();
        let me = self.white;
        for from in 0..100 {
            let p = self.cells[from];
            if !self.ours(p) {
                continue;
            }
            let (q, c) = self.targets(from);
            for to in q.into_iter().chain(c) {
                let base = format!("{}{}", name(from), name(to));
                let mut options: Vec<(String, Option<u8>)> = Vec::new();
                match p.to_ascii_uppercase() {
                    // W2: a pawn ending beyond the River is a Wazir at once, no suffix.
                    b'P' => {
                        let beyond = if me { rank(to) >= 5 } else { rank(to) <= 4 };
                        let w = if me { b'W' } else { b'w' };
                        options.push((base.clone(), if beyond { Some(w) } else { None }));
                    }
                    // W3: on either end rank, optionally a type from the pool; compounds
                    // only on the Wazir's own end rank.
                    b'W' => {
                        options.push((base.clone(), None));
                        let own_end = if me { 0 } else { 9 };
                        if rank(to) == 0 || rank(to) == 9 {
                            for (l, _) in START_COUNTS {
                                if matches!(l, b'Q' | b'T' | b'G') && rank(to) != own_end {
                                    continue;
                                }
                                let np = if me { l } else { l.to_ascii_lowercase() };
                                if self.pool_has(np) {
                                    options.push((
                                        format!("{base}{}", l.to_ascii_lowercase() as char),
                                        Some(np),
                                    ));
                                }
                            }
                        }
                    }
                    _ => options.push((base.clone(), None)),
                }
                for (text, np) in options {
                    let n = self.play(from, to, np);
                    if n.mover_safe(me) {
                        out.push((text, n));
                    }
                }
            }
        }
        out.extend(self.castlings());
        out
    }

    /// W5 castling.
    fn castlings(&self) -> Vec<(String, Pos)> {
        let mut out = Vec::new();
        let me = self.white;
        let Some(k) = self.king(me) else {
            return out;
        };
        if self.attacked(k, me) {
            return out;
        }
        for &r in &self.rights {
            if is_white(self.cells[r]) != me || rank(r) != rank(k) || !in_king_zone(k, me) {
                continue;
            }
            let row = rank(k);
            let queenside = file(r) < file(k);
            let (kt, rt) = if queenside { (2, 3) } else { (7, 6) };
            let (lo, hi) = (file(k).min(file(r)), file(k).max(file(r)));
            if (lo + 1..hi).any(|x| self.cells[sq(x, row).unwrap()] != b'.') {
                continue;
            }
            let kt_sq = sq(kt, row).unwrap();
            let rt_sq = sq(rt, row).unwrap();
            let free = |s: usize| self.cells[s] == b'.' || s == k || s == r;
            if !free(kt_sq) || !free(rt_sq) {
                continue;
            }
            // Squares strictly between the king's start and end: not attacked with the
            // king at home, and the king placed there would not face the other king.
            let step = if kt > file(k) { 1 } else { -1 };
            let mut through_ok = true;
            let mut x = file(k) + step;
            while x != kt {
                let s = sq(x, row).unwrap();
                let mut placed = self.clone();
                placed.cells[s] = placed.cells[k];
                placed.cells[k] = b'.';
                if self.attacked(s, me) || placed.kings_face() {
                    through_ok = false;
                }
                x += step;
            }
            if !through_ok {
                continue;
            }
            let mut n = self.clone();
            let (kp, rp) = (self.cells[k], self.cells[r]);
            n.cells[k] = b'.';
            n.cells[r] = b'.';
            n.cells[kt_sq] = kp;
            n.cells[rt_sq] = rp;
            n.halfmove = self.halfmove + 1;
            n.rights.retain(|&s| is_white(self.cells[s]) != me);
            n.finish_turn();
            if n.mover_safe(me) {
                out.push((format!("{}{}", name(k), name(kt_sq)), n));
            }
        }
        out
    }

    /// Leaf count at `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves.iter().map(|(_, p)| p.perft(depth - 1)).sum()
    }
}

/// W5: a rook keeps its right inside its own and the neighbouring file (a-b or i-j) of
/// its back two ranks.
fn in_rook_zone(from: usize, to: usize, white: bool) -> bool {
    let back = |s: usize| if white { rank(s) <= 1 } else { rank(s) >= 8 };
    let wing = |s: usize| {
        if file(s) <= 1 {
            0
        } else if file(s) >= 8 {
            2
        } else {
            1
        }
    };
    back(from) && back(to) && wing(from) != 1 && wing(from) == wing(to)
}

/// W5: the king keeps its right on files e-f of its back two ranks.
fn in_king_zone(s: usize, white: bool) -> bool {
    let back = if white { rank(s) <= 1 } else { rank(s) >= 8 };
    back && (file(s) == 4 || file(s) == 5)
}
