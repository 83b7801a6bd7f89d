//! Move text as CECP (XBoard) carries it, which differs from Tenfold's in two ways the
//! spec (`engine-intf.html`) fixes: on boards with exactly 10 ranks the ranks count
//! from 0 (`a0`…`j9`), and a move that kills on squares it does not end on is written
//! as legs separated by commas, each leg ending on a killed square (`c1e3,e3c1` shoots
//! e3 without moving; Tenfold writes `c1c1xe3`). The referee and the engine loop both
//! translate here, so the two directions cannot drift apart.

use crate::core::moves::Move;
use crate::position::notation::MoveError;
use crate::position::Position;

/// CECP's rank number minus Tenfold's on a board of `ranks` ranks.
fn rank_shift(ranks: u32) -> i64 {
    if ranks == 10 {
        -1
    } else {
        0
    }
}

/// Adds `delta` to the number of every square name (a lowercase file letter followed by
/// digits) in `text`; everything else is copied. None when a rank would leave 0..=99.
fn shift_ranks(text: &str, delta: i64) -> Option<String> {
    if delta == 0 {
        return Some(text.to_string());
    }
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        out.push(c);
        i += 1;
        if c.is_ascii_lowercase() {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() && i - start < 3 {
                i += 1;
            }
            if i > start {
                let n: i64 = text[start..i].parse().ok()?;
                let shifted = n + delta;
                if !(0..=99).contains(&shifted) {
                    return None;
                }
                out.push_str(&shifted.to_string());
            }
        }
    }
    Some(out)
}

/// The square names in a move's text and what follows the last one (a promotion
/// suffix): `e7e8q` → (["e7", "e8"], "q").
fn squares(text: &str) -> (Vec<&str>, &str) {
    let b = text.as_bytes();
    let mut names = Vec::new();
    let mut i = 0;
    let mut end = 0;
    while i < b.len() {
        if b[i].is_ascii_lowercase() && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
            let start = i;
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            names.push(&text[start..i]);
            end = i;
        } else {
            i += 1;
        }
    }
    (names, &text[end..])
}

/// A move written for XBoard.
pub fn to_cecp(pos: &Position, m: Move) -> String {
    let text = pos.move_to_string(m);
    let delta = rank_shift(pos.variant().board.ranks as u32);
    let kills: Vec<_> = m.kills().collect();
    let text = if kills.is_empty() {
        text
    } else {
        let bd = &pos.variant().board;
        // Legs visit the killed squares nearest first, so a path reads in its order.
        let dist = |a: crate::core::geometry::Square, b: crate::core::geometry::Square| {
            let (fa, ra) = (
                a.idx() as i32 % bd.files as i32,
                a.idx() as i32 / bd.files as i32,
            );
            let (fb, rb) = (
                b.idx() as i32 % bd.files as i32,
                b.idx() as i32 / bd.files as i32,
            );
            (fa - fb).abs().max((ra - rb).abs())
        };
        let mut left = kills;
        let mut path = vec![m.from()];
        while !left.is_empty() {
            let here = *path.last().expect("starts with from");
            let (i, _) = left
                .iter()
                .enumerate()
                .min_by_key(|(_, &k)| dist(here, k))
                .expect("not empty");
            path.push(left.remove(i));
        }
        path.push(m.to());
        let (_, suffix) = squares(&text);
        let legs: Vec<String> = path
            .windows(2)
            .map(|w| format!("{}{}", bd.square_name(w[0]), bd.square_name(w[1])))
            .collect();
        format!("{}{suffix}", legs.join(","))
    };
    shift_ranks(&text, delta).unwrap_or(text)
}

/// Reads a move as XBoard writes it and checks it is legal here.
pub fn from_cecp(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let bad = || MoveError::Unparsable(text.to_string(), pos.variant().name.clone());
    let delta = rank_shift(pos.variant().board.ranks as u32);
    let ours = shift_ranks(text.trim(), -delta).ok_or_else(bad)?;
    if !ours.contains(',') {
        return pos.parse_move(&ours);
    }
    let bd = &pos.variant().board;
    let legs: Vec<&str> = ours.split(',').collect();
    let mut path = Vec::new();
    let mut suffix = "";
    for (i, leg) in legs.iter().enumerate() {
        let (names, rest) = squares(leg);
        if names.len() != 2 || (!rest.is_empty() && i + 1 < legs.len()) {
            return Err(bad());
        }
        if path.last().is_some_and(|&l| l != names[0]) {
            return Err(bad());
        }
        if path.is_empty() {
            path.push(names[0]);
        }
        path.push(names[1]);
        suffix = rest;
    }
    let (from, to) = (path[0], path[path.len() - 1]);
    // A leg may end on an empty square it only passes; only occupied ones are kills.
    let mut kills = String::new();
    for &k in &path[1..path.len() - 1] {
        let sq = bd.parse_square(k).ok_or_else(bad)?;
        if k != from && k != to && pos.occupied().has(sq) {
            kills.push('x');
            kills.push_str(k);
        }
    }
    pos.parse_move(&format!("{from}{to}{kills}{suffix}"))
}

/// Thinking output (a PV in Tenfold notation) with its ranks numbered as XBoard counts.
pub fn pv_to_cecp(ranks: u32, pv: &str) -> String {
    shift_ranks(pv, rank_shift(ranks)).unwrap_or_else(|| pv.to_string())
}

/// A FEN as XBoard writes it, turned into Tenfold's: only the en passant field names a
/// square, so only it is renumbered.
pub fn fen_from_cecp(pos_ranks: u32, fen: &str) -> String {
    renumber_ep(fen, -rank_shift(pos_ranks))
}

/// A FEN of Tenfold's written for XBoard.
pub fn fen_to_cecp(pos_ranks: u32, fen: &str) -> String {
    renumber_ep(fen, rank_shift(pos_ranks))
}

fn renumber_ep(fen: &str, delta: i64) -> String {
    let mut f: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if let Some(ep) = f.get_mut(3) {
        if ep != "-" {
            if let Some(s) = shift_ranks(ep, delta) {
                *ep = s;
            }
        }
    }
    f.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;

    #[test]
    fn ranks_count_from_zero_only_on_ten_rank_boards() {
        let grand = registry::get("grand").unwrap();
        let pos = Position::startpos(&grand);
        let m = pos.parse_move("c3c5").unwrap();
        assert_eq!(to_cecp(&pos, m), "c2c4");
        assert_eq!(from_cecp(&pos, "c2c4").unwrap(), m);
        let chess = registry::get("chess").unwrap();
        let pos = Position::startpos(&chess);
        let m = pos.parse_move("e2e4").unwrap();
        assert_eq!(to_cecp(&pos, m), "e2e4");
        assert_eq!(from_cecp(&pos, "e2e4").unwrap(), m);
    }

    #[test]
    fn a_kill_without_occupying_is_written_in_legs() {
        let ca = registry::get("combined-arms").unwrap();
        let mut pos = Position::startpos(&ca);
        let mut list = crate::core::moves::MoveList::new();
        // Play until a kill move exists, then check both directions agree on every one.
        let mut checked = 0;
        for _ in 0..40 {
            pos.legal_moves(&mut list);
            for &m in list.iter() {
                if m.kill_count() > 0 {
                    let t = to_cecp(&pos, m);
                    assert!(t.contains(','), "{t}");
                    assert_eq!(from_cecp(&pos, &t).unwrap(), m, "{t}");
                    checked += 1;
                }
            }
            let Some(&m) = list.iter().find(|m| m.kill_count() == 0) else {
                break;
            };
            pos.make_move(m);
            if pos.game_result().is_some() {
                break;
            }
        }
        assert!(checked > 0);
    }

    #[test]
    fn bad_text_is_refused_not_panicked_on() {
        let grand = registry::get("grand").unwrap();
        let pos = Position::startpos(&grand);
        for t in [
            "",
            ",",
            "a0a1,",
            "c2c4,,",
            "z9z9",
            "@@@@",
            "a99a98",
            "c2c4,d5e6",
        ] {
            assert!(from_cecp(&pos, t).is_err(), "{t}");
        }
    }
}
