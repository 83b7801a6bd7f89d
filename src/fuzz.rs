//! Fuzz targets: each input surface as a function of arbitrary bytes. Any input must
//! give a value or an error; a panic (including a broken position invariant, which
//! these functions assert) is the bug a fuzzer reports. `fuzz/` runs them under
//! libFuzzer; `tests/fuzz.rs` runs them on seeded mutations in CI.

use crate::core::moves::MoveList;
use crate::position::Position;
use crate::protocol::{Msg, Out};
use crate::registry;
use crate::variant::Variant;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;

/// Protocol commands a fuzz case may not send: they size memory or threads by the
/// machine, so one case could take it all (their parsing is tested on its own).
const RESOURCE_WORDS: [&str; 4] = ["hash", "threads", "memory", "cores"];

/// The built-in game the first byte picks, and the rest of the input as text.
fn game_and_text(data: &[u8]) -> (Arc<Variant>, String) {
    let (first, rest) = data.split_first().map_or((0, data), |(f, r)| (*f, r));
    let games = registry::TABLES;
    let name = games[first as usize % games.len()].0;
    let v = registry::get(name).unwrap_or_else(|e| panic!("built-in {name}: {e}"));
    (v, String::from_utf8_lossy(rest).into_owned())
}

/// Panics naming `what` when the position breaks an invariant.
fn assert_sound(pos: &Position, what: &str) {
    if let Err(e) = pos.check_invariants() {
        panic!("{what}: {e}");
    }
}

/// Every legal move made and unmade once: each position reached is sound, each move's
/// text reads back as that move, and unmaking restores the key.
pub fn exercise(pos: &mut Position) {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let key = pos.key();
    let mut texts: Vec<String> = Vec::with_capacity(list.len());
    for &m in list.iter() {
        let text = pos.move_to_string(m);
        match pos.parse_move(&text) {
            Ok(back) if back == m => {}
            other => panic!(
                "{}: move {text} reads back as {:?}",
                pos.fen(),
                other.map(|b| pos.move_to_string(b))
            ),
        }
        pos.make_move(m);
        assert_sound(pos, "after a legal move");
        assert_eq!(
            pos.gave_check(),
            pos.in_check(),
            "{}: the check test after {text} disagrees with the full one",
            pos.fen()
        );
        let _ = pos.game_result();
        pos.unmake_move();
        texts.push(text);
        assert_eq!(pos.key(), key, "unmake restores the key");
    }
    texts.sort();
    if let Some(w) = texts.windows(2).find(|w| w[0] == w[1]) {
        panic!("{}: move {} listed twice", pos.fen(), w[0]);
    }
}

/// A FEN of a built-in game: refused, or a sound position whose every move keeps it so.
pub fn fen(data: &[u8]) {
    let (v, text) = game_and_text(data);
    if let Ok(mut pos) = Position::from_fen(&v, &text) {
        assert_sound(&pos, "as read");
        exercise(&mut pos);
    }
}

/// Move texts played from a built-in game's start: each is refused or made, and the
/// position stays sound.
pub fn moves(data: &[u8]) {
    let (v, text) = game_and_text(data);
    let mut pos = Position::startpos(&v);
    for token in text.split_whitespace().take(64) {
        if let Ok(m) = pos.parse_move(token) {
            pos.make_move(m);
            assert_sound(&pos, "after a parsed move");
        }
    }
    exercise(&mut pos);
}

/// A variant table: refused, or a game whose start position is sound and playable.
pub fn variant_table(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(v) = Variant::from_toml(&text, "fuzz.toml") {
        let mut pos = Position::startpos(&v);
        assert_sound(&pos, "start position");
        exercise(&mut pos);
    }
}

/// Runs a protocol loop on the input's lines (the end of input ends it).
fn protocol(data: &[u8], run: fn(Receiver<Msg>, Sender<Msg>, Out)) {
    let text = String::from_utf8_lossy(data);
    let (tx, rx) = crate::protocol::queue();
    for line in text.lines() {
        let lower = line.to_ascii_lowercase();
        if RESOURCE_WORDS.iter().any(|w| lower.contains(w)) {
            continue;
        }
        let _ = tx.send(Msg::Line(line.to_string()));
    }
    let _ = tx.send(Msg::Eof);
    run(rx, tx, Out::new(Box::new(std::io::sink())));
}

/// UCI input lines: every line answered, the loop ends at the end of input.
pub fn uci_lines(data: &[u8]) {
    protocol(data, crate::protocol::uci::run);
}

/// XBoard input lines, likewise.
pub fn xboard_lines(data: &[u8]) {
    protocol(data, crate::protocol::xboard::run);
}

/// A PGN file: parsed or refused, and every parsed game checked.
pub fn pgn(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let (Ok(games), Ok(chess)) = (
        crate::arena::pgn::parse_pgn(&text),
        crate::registry::get("chess"),
    ) else {
        return;
    };
    for g in games.iter().take(16) {
        let _ = crate::arena::pgn::check_game(g, &chess);
    }
}

/// A fuzz target: any bytes in, a panic only for a bug.
pub type Target = fn(&[u8]);

/// Every target by name, for runners that pick one.
pub const TARGETS: [(&str, Target); 6] = [
    ("fen", fen),
    ("moves", moves),
    ("variant_table", variant_table),
    ("uci_lines", uci_lines),
    ("xboard_lines", xboard_lines),
    ("pgn", pgn),
];
