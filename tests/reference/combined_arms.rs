//! A second, deliberately simple move generator for Combined Arms Brigade Chess,
//! written from the rulings (../shared/rules/combined-arms.md) and sharing no code with
//! `src/`: an 8x8 mailbox, its own FEN reader, every action sequence enumerated
//! literally (each armor step, each flight landing, shot before or after the move) and
//! the outcomes deduplicated by their R9 identity. Slow and obvious on purpose.

use std::collections::BTreeMap;

/// A piece: colour and upper-case letter.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pc {
    pub white: bool,
    pub kind: char,
}

/// The board, a1 = 0, b1 = 1, ..., h8 = 63.
pub type Board = [Option<Pc>; 64];

/// A position: the board and the side to move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Pos {
    pub board: Board,
    pub white: bool,
}

const KING_DIRS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];
const ORTHO: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const DIAG: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn off(s: usize, dx: i32, dy: i32) -> Option<usize> {
    let (f, r) = ((s % 8) as i32 + dx, (s / 8) as i32 + dy);
    if (0..8).contains(&f) && (0..8).contains(&r) {
        Some((r * 8 + f) as usize)
    } else {
        None
    }
}

/// `a1`..`h8`.
pub fn name(s: usize) -> String {
    format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1)
}

/// Reads the placement and side-to-move fields of a FEN; the rest is ignored (R14).
pub fn parse_fen(fen: &str) -> Pos {
    let mut board: Board = [None; 64];
    let mut f = fen.split_whitespace();
    let placement = f.next().expect("placement");
    for (i, row) in placement.split('/').enumerate() {
        let rank = 7 - i;
        let mut file = 0;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                file += d as usize;
            } else {
                board[rank * 8 + file] = Some(Pc {
                    white: ch.is_ascii_uppercase(),
                    kind: ch.to_ascii_uppercase(),
                });
                file += 1;
            }
        }
    }
    Pos {
        board,
        white: f.next() != Some("b"),
    }
}

/// The placement field of a board.
pub fn placement(b: &Board) -> String {
    let mut s = String::new();
    for rank in (0..8).rev() {
        let mut empty = 0;
        for file in 0..8 {
            match b[rank * 8 + file] {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(if p.white {
                        p.kind
                    } else {
                        p.kind.to_ascii_lowercase()
                    });
                }
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

/// One finished action sequence: its identity and the board it leaves.
struct Outcome {
    from: usize,
    to: usize,
    kills: Vec<usize>,
    promo: Option<char>,
    board: Board,
}

impl Outcome {
    /// The R9 notation: from, to, each kill other than `to` ascending, promotion.
    fn text(&self) -> String {
        let mut k: Vec<usize> = self
            .kills
            .iter()
            .copied()
            .filter(|&s| s != self.to)
            .collect();
        k.sort();
        k.dedup();
        let mut s = format!("{}{}", name(self.from), name(self.to));
        for x in k {
            s.push('x');
            s.push_str(&name(x));
        }
        if let Some(p) = self.promo {
            s.push(p.to_ascii_lowercase());
        }
        s
    }
}

fn is_enemy(b: &Board, s: usize, white: bool) -> bool {
    matches!(b[s], Some(p) if p.white != white)
}

fn is_friend(b: &Board, s: usize, white: bool) -> bool {
    matches!(b[s], Some(p) if p.white == white)
}

/// Squares on the 8 lines at the given distances from `s`.
fn line_squares(s: usize, dists: &[i32]) -> Vec<usize> {
    let mut out = Vec::new();
    for &(dx, dy) in &KING_DIRS {
        for &d in dists {
            if let Some(t) = off(s, dx * d, dy * d) {
                out.push(t);
            }
        }
    }
    out
}

/// Shot targets of a Bishop (R3) or Rook (R4) on `s`: enemy pieces but the King.
fn shot_targets(b: &Board, s: usize, kind: char, white: bool) -> Vec<usize> {
    let d: &[i32] = if kind == 'B' { &[1, 2] } else { &[3, 4] };
    line_squares(s, d)
        .into_iter()
        .filter(|&t| is_enemy(b, t, white) && b[t].unwrap().kind != 'K')
        .collect()
}

/// The squares inside the shot range of an artillery piece of the side that is not
/// `white` (R5), on the board as it stands.
fn enemy_range(b: &Board, white: bool) -> [bool; 64] {
    let mut r = [false; 64];
    for (a, sq) in b.iter().enumerate() {
        if let Some(p) = *sq {
            if p.white != white && (p.kind == 'B' || p.kind == 'R') {
                let d: &[i32] = if p.kind == 'B' { &[1, 2] } else { &[3, 4] };
                for t in line_squares(a, d) {
                    r[t] = true;
                }
            }
        }
    }
    r
}

/// Empty squares reachable by a slide from `s` along `dirs` (stopping at pieces), each
/// entered square also passing `ok`.
fn slides(
    b: &Board,
    s: usize,
    dirs: &[(i32, i32)],
    ok: &dyn Fn(&Board, usize) -> bool,
) -> Vec<usize> {
    let mut out = Vec::new();
    for &(dx, dy) in dirs {
        let mut cur = s;
        while let Some(t) = off(cur, dx, dy) {
            if b[t].is_some() || !ok(b, t) {
                break;
            }
            out.push(t);
            cur = t;
        }
    }
    out
}

/// Every armor path (R2) of three orthogonal steps from `start` for a piece of colour
/// `white` that has already left its square. With `avoid` (a Queen's follow-up) every
/// entered square must lie outside enemy artillery range as the board stands then.
/// With `end_at`, only paths whose steps add up to that square are walked.
/// Returns (end, kills, board after).
fn armor_paths(
    b: &Board,
    start: usize,
    white: bool,
    avoid: bool,
    end_at: Option<usize>,
) -> Vec<(usize, Vec<usize>, Board)> {
    let mut out = Vec::new();
    let range0 = if avoid {
        enemy_range(b, white)
    } else {
        [false; 64]
    };
    for a in 0..4 {
        for c in 0..4 {
            for e in 0..4 {
                if let Some(k) = end_at {
                    let dx: i32 = [a, c, e].iter().map(|&d| ORTHO[d].0).sum();
                    let dy: i32 = [a, c, e].iter().map(|&d| ORTHO[d].1).sum();
                    if off(start, dx, dy) != Some(k) {
                        continue;
                    }
                }
                let mut bb = *b;
                let mut range = range0;
                let mut cur = start;
                let mut kills = Vec::new();
                let mut valid = true;
                for d in [a, c, e] {
                    let Some(n) = off(cur, ORTHO[d].0, ORTHO[d].1) else {
                        valid = false;
                        break;
                    };
                    if is_friend(&bb, n, white) || range[n] {
                        valid = false;
                        break;
                    }
                    if is_enemy(&bb, n, white) && bb[n].unwrap().kind != 'K' {
                        bb[n] = None;
                        kills.push(n);
                        if avoid {
                            // Artillery killed earlier in the turn no longer counts.
                            range = enemy_range(&bb, white);
                        }
                    }
                    cur = n;
                }
                if valid {
                    out.push((cur, kills, bb));
                }
            }
        }
    }
    out
}

/// Puts the mover on its end square (taking what stands there) after its kills.
fn land(b: &Board, to: usize, p: Pc) -> Board {
    let mut bb = *b;
    bb[to] = Some(p);
    bb
}

/// Every outcome of every action sequence of the side to move, before the king-safety
/// test. With `near = Some(k)`, only sequences that might end on `k` are tried (used to
/// ask whether `k` can be occupy-captured).
fn outcomes(pos: &Pos, near: Option<usize>) -> Vec<Outcome> {
    let b = &pos.board;
    let w = pos.white;
    let mut out = Vec::new();
    let fwd = if w { 1 } else { -1 };
    let second = if w { 1 } else { 6 };
    let last = if w { 7 } else { 0 };
    for from in 0..64 {
        let Some(p) = b[from] else { continue };
        if p.white != w {
            continue;
        }
        let mut lifted = *b;
        lifted[from] = None;
        let mut push = |to: usize, kills: Vec<usize>, board: Board, promo: Option<char>| {
            out.push(Outcome {
                from,
                to,
                kills,
                promo,
                board,
            })
        };
        match p.kind {
            'P' => {
                // R1: one step anywhere, moving or occupy-capturing; two forward from
                // the own second rank; promotion on the last rank.
                let mut tos = Vec::new();
                for &(dx, dy) in &KING_DIRS {
                    if let Some(t) = off(from, dx, dy) {
                        if !is_friend(b, t, w) {
                            tos.push(t);
                        }
                    }
                }
                if from / 8 == second {
                    let t1 = off(from, 0, fwd).unwrap();
                    let t2 = off(from, 0, 2 * fwd).unwrap();
                    if b[t1].is_none() && b[t2].is_none() {
                        tos.push(t2);
                    }
                }
                for t in tos {
                    if t / 8 == last {
                        for q in ['Q', 'R', 'B', 'N'] {
                            push(
                                t,
                                vec![],
                                land(&lifted, t, Pc { white: w, kind: q }),
                                Some(q),
                            );
                        }
                    } else {
                        push(t, vec![], land(&lifted, t, p), None);
                    }
                }
            }
            'N' => {
                for (end, kills, bb) in armor_paths(&lifted, from, w, false, near) {
                    push(end, kills, land(&bb, end, p), None);
                }
            }
            'B' | 'R' => {
                let dirs: &[(i32, i32)] = if p.kind == 'B' { &DIAG } else { &ORTHO };
                let any = |_: &Board, _: usize| true;
                // Move only.
                for t in slides(b, from, dirs, &any) {
                    push(t, vec![], land(&lifted, t, p), None);
                }
                // Shoot only.
                for k in shot_targets(b, from, p.kind, w) {
                    let mut bb = *b;
                    bb[k] = None;
                    push(from, vec![k], bb, None);
                }
                if p.kind == 'B' {
                    // Move, then shoot from the new square.
                    for t in slides(b, from, dirs, &any) {
                        let moved = land(&lifted, t, p);
                        for k in shot_targets(&moved, t, 'B', w) {
                            let mut bb = moved;
                            bb[k] = None;
                            push(t, vec![k], bb, None);
                        }
                    }
                    // Shoot, then move (perhaps through or onto the cleared square).
                    for k in shot_targets(b, from, 'B', w) {
                        let mut shot = *b;
                        shot[k] = None;
                        for t in slides(&shot, from, dirs, &any) {
                            let mut bb = shot;
                            bb[from] = None;
                            push(t, vec![k], land(&bb, t, p), None);
                        }
                    }
                }
            }
            'Q' => {
                // R5: fly to an empty square outside enemy artillery range, then at most
                // one follow-up; every entered square outside the range as it stands.
                let range = enemy_range(&lifted, w);
                let safe = |_: &Board, s: usize| !range[s];
                for s in 0..64 {
                    if s == from || b[s].is_some() || range[s] {
                        continue;
                    }
                    if let Some(k) = near {
                        let (dx, dy) = (
                            (s % 8) as i32 - (k % 8) as i32,
                            (s / 8) as i32 - (k / 8) as i32,
                        );
                        if dx.abs() + dy.abs() > 3 {
                            continue;
                        }
                    }
                    let at_s = land(&lifted, s, p);
                    let mut flown = lifted;
                    flown[s] = None;
                    push(s, vec![], at_s, None);
                    // (a) a pawn step, moving or occupy-capturing.
                    for &(dx, dy) in &KING_DIRS {
                        if let Some(t) = off(s, dx, dy) {
                            if !is_friend(&flown, t, w) && safe(&flown, t) {
                                push(t, vec![], land(&flown, t, p), None);
                            }
                        }
                    }
                    // (b) an armor path.
                    for (end, kills, bb) in armor_paths(&flown, s, w, true, near) {
                        push(end, kills, land(&bb, end, p), None);
                    }
                    if near.is_some() {
                        continue;
                    }
                    // (c) a bishop move or a bishop shot.
                    for t in slides(&flown, s, &DIAG, &safe) {
                        push(t, vec![], land(&flown, t, p), None);
                    }
                    for k in shot_targets(&at_s, s, 'B', w) {
                        let mut bb = at_s;
                        bb[k] = None;
                        push(s, vec![k], bb, None);
                    }
                }
            }
            'K' => {
                for &(dx, dy) in &KING_DIRS {
                    if let Some(t) = off(from, dx, dy) {
                        if !is_friend(b, t, w) {
                            push(t, vec![], land(&lifted, t, p), None);
                        }
                    }
                }
            }
            other => panic!("unknown piece {other}"),
        }
    }
    // R5's last sentence: back on its own square with nothing killed is no move.
    out.retain(|o| !(o.from == o.to && o.kills.iter().all(|&k| k == o.to)));
    out
}

/// True when the side `by_white` could end a move on `k` (R6, R8: occupy-capture).
pub fn capturable(b: &Board, k: usize, by_white: bool) -> bool {
    let pos = Pos {
        board: *b,
        white: by_white,
    };
    outcomes(&pos, Some(k))
        .iter()
        .any(|o| o.to == k && o.from != k)
}

fn king_of(b: &Board, white: bool) -> usize {
    (0..64)
        .find(|&s| b[s] == Some(Pc { white, kind: 'K' }))
        .expect("a king")
}

/// True when the side to move is in check (R8).
pub fn in_check(pos: &Pos) -> bool {
    capturable(&pos.board, king_of(&pos.board, pos.white), !pos.white)
}

/// Every legal move in R9 notation, with the position it leads to.
pub fn legal_moves(pos: &Pos) -> BTreeMap<String, Pos> {
    let w = pos.white;
    let mut all: BTreeMap<String, Board> = BTreeMap::new();
    for o in outcomes(pos, None) {
        let text = o.text();
        if let Some(prev) = all.get(&text) {
            assert_eq!(
                prev, &o.board,
                "two sequences named {text} leave different boards"
            );
        }
        all.insert(text, o.board);
    }
    // R7 castling: no rights, king and rook at home, squares between empty, not in
    // check, the crossed square safe with the king standing on it (R10).
    let rank = if w { 0 } else { 56 };
    let king = Pc {
        white: w,
        kind: 'K',
    };
    let rook = Pc {
        white: w,
        kind: 'R',
    };
    if pos.board[rank + 4] == Some(king) && !in_check(pos) {
        for (rook_from, king_to, rook_to, cross, empty) in [
            (
                rank + 7,
                rank + 6,
                rank + 5,
                rank + 5,
                vec![rank + 5, rank + 6],
            ),
            (
                rank,
                rank + 2,
                rank + 3,
                rank + 3,
                vec![rank + 1, rank + 2, rank + 3],
            ),
        ] {
            if pos.board[rook_from] != Some(rook) || empty.iter().any(|&s| pos.board[s].is_some()) {
                continue;
            }
            let mut crossing = pos.board;
            crossing[rank + 4] = None;
            crossing[cross] = Some(king);
            if capturable(&crossing, cross, !w) {
                continue;
            }
            let mut bb = pos.board;
            bb[rank + 4] = None;
            bb[rook_from] = None;
            bb[king_to] = Some(king);
            bb[rook_to] = Some(rook);
            all.insert(format!("{}{}", name(rank + 4), name(king_to)), bb);
        }
    }
    all.into_iter()
        .filter(|(_, b)| !capturable(b, king_of(b, w), !w))
        .map(|(t, b)| {
            (
                t,
                Pos {
                    board: b,
                    white: !w,
                },
            )
        })
        .collect()
}

/// Leaf count of the legal move tree.
pub fn perft(pos: &Pos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = legal_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.values().map(|p| perft(p, depth - 1)).sum()
}
