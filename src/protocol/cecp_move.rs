//! Move text as CECP (XBoard) carries it, which differs from Tenfold's in two ways the
//! spec (`engine-intf.html`) fixes: on boards with exactly 10 ranks the ranks count
//! from 0 (`a0`…`j9`), and a move that kills on squares it does not end on is written
//! as legs separated by commas, each leg ending on a killed square (`c1e3,e3c1` shoots
//! e3 without moving; Tenfold writes `c1c1xe3`). The referee and the engine loop both
//! translate here, so the two directions cannot drift apart.
//!
//! Two forms follow XBoard 4.9's own reading rather than the spec's text, because a GUI
//! that mis-reads a move keeps a board that is no longer the game's:
//! - a move with two killed squares (three legs) is written `a1b2xc3xd4`, the long form
//!   XBoard's move parser reads as three legs; its comma reader takes the first leg's
//!   end for the destination of a three-leg move (`d8a1,a1b1,b1a2` arrives as ending on
//!   a1). Commas are still read, as XBoard sends them.
//! - a move that changes the mover's type without a written choice (a `becomes`, a
//!   combine whose compound is implied) names the new type like a promotion (`f4f5w`):
//!   XBoard changes a piece's type only when a move names it. The suffix is accepted
//!   back when it names the type the move makes anyway, and so is a deferral's suffix
//!   naming the mover's own type (`d6e7p`; see `xboard::gui_move`).

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
        let dist = |a, b| bd.distance(a, b);
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
        if path.len() > 3 {
            // Three legs: the long form (module comment), `from k1 x k2 x to`.
            let names: Vec<String> = path.iter().map(|&s| bd.square_name(s)).collect();
            format!("{}{}x{}{suffix}", names[0], names[1], names[2..].join("x"))
        } else {
            let legs: Vec<String> = path
                .windows(2)
                .map(|w| format!("{}{}", bd.square_name(w[0]), bd.square_name(w[1])))
                .collect();
            format!("{}{suffix}", legs.join(","))
        }
    };
    let text = with_implied_type(pos, m, text);
    shift_ranks(&text, delta).unwrap_or(text)
}

/// Adds the letter of the type a move leaves on its destination when Tenfold's text
/// leaves it implied (a `becomes`, an implied combine), so XBoard shows the new type.
fn with_implied_type(pos: &Position, m: Move, text: String) -> String {
    let Some(p) = m.promotion() else {
        return text;
    };
    if m.partner_promotion().is_some() || text.ends_with(|c: char| c.is_ascii_lowercase()) {
        return text;
    }
    let letter = pos.variant().pieces[p as usize].letter.to_ascii_lowercase();
    format!("{text}{letter}")
}

/// Reads a move as XBoard writes it and checks it is legal here.
pub fn from_cecp(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let bad = || MoveError::Unparsable(text.to_string(), pos.variant().name.clone());
    let delta = rank_shift(pos.variant().board.ranks as u32);
    let ours = shift_ranks(text.trim(), -delta).ok_or_else(bad)?;
    let first = match legs_path(&ours) {
        Some((path, suffix)) => from_path(pos, &path, suffix).ok_or_else(bad)?,
        None if ours.contains(',') => return Err(bad()),
        None => ours.clone(),
    };
    match pos.parse_move(&first) {
        Ok(m) => Ok(m),
        Err(e) => {
            // A suffix naming the type the move makes anyway (module comment).
            let Some(c) = first.chars().last().filter(char::is_ascii_lowercase) else {
                return Err(e);
            };
            let Ok(m) = pos.parse_move(&first[..first.len() - 1]) else {
                return Err(e);
            };
            let named = pos.variant().type_of_letter(c.to_ascii_uppercase());
            let mover = pos.piece_on(m.from()).kind();
            if named.is_some() && m.promotion() == named
                || pos.is_deferral(m) && named == Some(mover)
            {
                Ok(m)
            } else {
                Err(e)
            }
        }
    }
}

/// A move an engine sends: CECP coordinates, or SAN, which the spec allows as well
/// (`move MOVE`: "either in coordinate notation … or in Standard Algebraic Notation"),
/// read with CECP's rank numbers by the position's own lenient reader.
pub fn from_cecp_or_san(pos: &Position, text: &str) -> Result<Move, MoveError> {
    from_cecp(pos, text).or_else(|e| {
        match shift_ranks(text.trim(), -rank_shift(pos.variant().board.ranks as u32)) {
            Some(ours) => pos.parse_any(&ours),
            None => Err(e),
        }
    })
}

/// The squares a multi-leg move visits and its promotion suffix: legs separated by
/// commas (`c1e3,e3c1`) or XBoard's long form (`a1b2xc3xd4`). None for a move of one
/// leg or text that is neither form.
fn legs_path(ours: &str) -> Option<(Vec<&str>, &str)> {
    if ours.contains(',') {
        let legs: Vec<&str> = ours.split(',').collect();
        let mut path = Vec::new();
        let mut suffix = "";
        for (i, leg) in legs.iter().enumerate() {
            let (names, rest) = squares(leg);
            if names.len() != 2 || (!rest.is_empty() && i + 1 < legs.len()) {
                return None;
            }
            if path.last().is_some_and(|&l| l != names[0]) {
                return None;
            }
            if path.is_empty() {
                path.push(names[0]);
            }
            path.push(names[1]);
            suffix = rest;
        }
        return Some((path, suffix));
    }
    // The long form: two squares, then `x<square>` per further leg, nothing between.
    let (names, suffix) = squares(ours);
    if names.len() < 3 {
        return None;
    }
    let mut expect = format!("{}{}", names[0], names[1]);
    for n in &names[2..] {
        expect.push('x');
        expect.push_str(n);
    }
    expect.push_str(suffix);
    (expect == ours).then_some((names, suffix))
}

/// A multi-leg move's path as Tenfold's text (`from to xkill… suffix`).
fn from_path(pos: &Position, path: &[&str], suffix: &str) -> Option<String> {
    let bd = &pos.variant().board;
    let (from, to) = (path[0], path[path.len() - 1]);
    // A leg may end on an empty square it only passes; only occupied ones are kills.
    let mut kills: Vec<&str> = Vec::new();
    for &k in &path[1..path.len() - 1] {
        let sq = bd.parse_square(k)?;
        if k != from && k != to && pos.occupied().has(sq) && !kills.contains(&k) {
            kills.push(k);
        }
    }
    let marks: String = kills.iter().map(|k| format!("x{k}")).collect();
    Some(format!("{from}{to}{marks}{suffix}"))
}

/// A FEN as XBoard writes it, turned into Tenfold's: only the en passant field names a
/// square, so only it is renumbered. XBoard writes empty holdings as `[-]` and, in
/// games it knows without en passant squares it tracks (Grand), may leave the field
/// out (`w - 0 1`); both are read as Tenfold writes them.
pub fn fen_from_cecp(pos_ranks: u32, fen: &str) -> String {
    let mut f: Vec<String> = fen
        .split_whitespace()
        .map(|x| x.replace("[-]", "[]"))
        .collect();
    if f.len() == 5 && f[3].parse::<u32>().is_ok() && f[4].parse::<u32>().is_ok() {
        f.insert(3, "-".to_string());
    }
    renumber_ep(&f.join(" "), -rank_shift(pos_ranks))
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
                    // Two legs with a comma, three in XBoard's long form.
                    assert!(t.contains(',') || t.matches('x').count() == 2, "{t}");
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
