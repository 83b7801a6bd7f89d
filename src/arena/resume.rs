//! `tenfold match --resume`: the games of an interrupted match read back from its PGN,
//! so that only the rest are played. Each game is appended whole in one write; a game
//! torn by a crash mid-write (the only way to get one) is cut off the file's end.

use super::pgn::{parse_pgn, replay, Notation, PgnGame};
use super::slice::{bare_record, result_of_token};
use super::{Finished, MatchConfig};
use crate::core::input::{read_text, ReadError, MAX_LIST_BYTES};
use crate::variant::Variant;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// Why a match's PGN cannot be resumed from; each message names the file.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    /// The file exists but cannot be read.
    #[error("--resume: {0}")]
    Read(#[from] ReadError),
    /// The torn last game cannot be cut off.
    #[error("--resume: cannot truncate {path}: {source}")]
    Truncate {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A game that is not one of this match's.
    #[error("--resume: {path}: game at line {line}: {why}")]
    Foreign {
        /// The file.
        path: String,
        /// Where the game starts.
        line: usize,
        /// What does not fit this match.
        why: String,
    },
}

/// A game's text ends whole when its last word is a result token outside any comment.
fn ends_whole(chunk: &str) -> bool {
    let Ok(games) = parse_pgn(chunk) else {
        return false;
    };
    games.len() == 1
        && games[0].defect.is_none()
        && chunk
            .split_whitespace()
            .last()
            .is_some_and(|w| result_of_token(w).is_some())
}

/// The length of `text` up to the end of its last whole game.
pub fn whole_prefix(text: &str) -> usize {
    let mut starts: Vec<usize> = text
        .match_indices("\n[Event ")
        .map(|(i, _)| i + 1)
        .collect();
    if text.starts_with("[Event ") {
        starts.insert(0, 0);
    }
    match starts.last() {
        Some(&last) if !ends_whole(&text[last..]) => last,
        Some(_) => text.len(),
        None if text.trim().is_empty() => text.len(),
        None => 0,
    }
}

/// The games already in `path` (none if it does not exist yet), checked against the
/// schedule of `cfg` in variant `v`: each is a game of this match's pairs, played by
/// the engines the schedule gives it, from its opening (start position and book moves),
/// that replays under the rules to its result, written in XBoard's notation exactly
/// when `notation` is, and none is there twice.
pub fn load(
    path: &str,
    cfg: &MatchConfig,
    v: &Arc<Variant>,
    notation: Notation,
) -> Result<Vec<Finished>, ResumeError> {
    if !std::path::Path::new(path).exists() {
        return Ok(Vec::new());
    }
    let text = read_text(path, MAX_LIST_BYTES)?;
    let keep = whole_prefix(&text);
    if keep < text.len() {
        let trunc = |source| ResumeError::Truncate {
            path: path.to_string(),
            source,
        };
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(trunc)?;
        f.set_len(keep as u64).map_err(trunc)?;
        eprintln!(
            "tenfold: --resume: dropped an unfinished game at the end of {path} (byte {keep})"
        );
    }
    let games = parse_pgn(&text[..keep]).map_err(|e| ResumeError::Foreign {
        path: path.to_string(),
        line: 0,
        why: e.to_string(),
    })?;
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let (book, pairs) = (cfg.book_order(), cfg.pair_range());
    // Both games of a pair share its book moves, which cost a search to draw.
    let mut books = HashMap::new();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    // Limits the match would refuse are reported when it starts; here they check nothing.
    let tcs = super::time_controls(cfg).ok();
    for g in &games {
        let foreign = |why: String| ResumeError::Foreign {
            path: path.to_string(),
            line: g.line,
            why,
        };
        let f = finished(g, cfg, &names, &book, v, &mut books, notation).map_err(foreign)?;
        // A game played under other limits is another match's: a clock or time per move
        // is in its TimeControl tag, as the game wrote it.
        if let (Some(tcs), Some((white, black))) = (&tcs, cfg.colours(f.number)) {
            let want = super::game::tc_tag(&[tcs[white], tcs[black]]);
            let has = g.tag("TimeControl").unwrap_or("-");
            if has != want {
                return Err(foreign(format!(
                    "game {} was played at TimeControl {has}, this match plays {want}",
                    f.number
                )));
            }
            // Depth and nodes are in the Limits tag. A file written before the tag
            // existed has none, and says nothing either way.
            let want = super::game::limits_tag(&[tcs[white], tcs[black]]);
            if let Some(has) = g.tag("Limits").filter(|has| *has != want) {
                let this = if want.is_empty() { "none" } else { &want };
                return Err(foreign(format!(
                    "game {} was played with limits {has}, this match's are {this}",
                    f.number
                )));
            }
        }
        if !pairs.contains(&f.pair) {
            return Err(foreign(format!(
                "game {} is outside pairs {}..{}",
                f.number, pairs.start, pairs.end
            )));
        }
        if !seen.insert(f.number) {
            return Err(foreign(format!("game {} is there twice", f.number)));
        }
        out.push(f);
    }
    Ok(out)
}

/// One PGN game as the match game it claims to be, or why it is not one; `books` keeps
/// the book moves of the pairs met so far.
fn finished(
    g: &PgnGame,
    cfg: &MatchConfig,
    names: &[String],
    book: &[usize],
    v: &Arc<Variant>,
    books: &mut HashMap<usize, Vec<String>>,
    notation: Notation,
) -> Result<Finished, String> {
    let start_fen = v.start_fen.as_str();
    let number: usize = g
        .tag("Round")
        .and_then(|r| r.parse().ok())
        .filter(|&n| n > 0)
        .ok_or("no game number in its Round tag")?;
    let (white, black) = cfg
        .colours(number)
        .ok_or(format!("game {number} is not in this match's schedule"))?;
    let tag = |k: &str| g.tag(k).unwrap_or("");
    if tag("Variant") != cfg.variant && !(tag("Variant").is_empty() && cfg.variant == "chess") {
        return Err(format!("variant {} is not {}", tag("Variant"), cfg.variant));
    }
    if (tag("White"), tag("Black")) != (names[white].as_str(), names[black].as_str()) {
        return Err(format!(
            "game {number} was {} vs {}, the schedule has {} vs {}",
            tag("White"),
            tag("Black"),
            names[white],
            names[black]
        ));
    }
    // One file, one notation: games appended in another would leave XBoard a file
    // it cannot load whole. SAN and Tenfold's coordinates are read alike.
    let xboard = g.notation().map_err(|e| e.to_string())? == Notation::Xboard;
    if xboard != (notation == Notation::Xboard) {
        let has = if xboard {
            "XBoard's notation (a Notation \"xboard\" tag)"
        } else {
            "Tenfold's notation (no Notation \"xboard\" tag)"
        };
        return Err(format!(
            "game {number} is in {has}, --pgn-notation is {}",
            notation.name()
        ));
    }
    let pair = (number - 1) / 2;
    let opening = cfg.opening_of(pair, book, start_fen);
    let fen = g
        .start_fen(v.board.ranks as u32)
        .map_err(|e| e.to_string())?
        .unwrap_or_else(|| start_fen.to_string());
    if fen != opening {
        return Err(format!(
            "game {number} starts from {fen}, the schedule from {opening}"
        ));
    }
    // What `pgn --check` checks: a game that does not replay, or whose result the rules
    // contradict, was not played by this referee.
    let moves = replay(g, v).map_err(|e| format!("game {number} does not replay: {e}"))?;
    let want = books
        .entry(pair)
        .or_insert_with(|| cfg.opening_moves(v, pair, &opening));
    if moves.get(..want.len()) != Some(&want[..]) {
        return Err(format!(
            "game {number} opens {}, the schedule's book is {}",
            line(&moves[..want.len().min(moves.len())]),
            line(want)
        ));
    }
    let result = result_of_token(&g.result).ok_or(format!("result \"{}\" unknown", g.result))?;
    Ok(Finished {
        number,
        pair,
        white,
        black,
        record: bare_record(names, white, black, result),
    })
}

/// Moves as one line of text, `(none)` for no moves.
fn line(moves: &[String]) -> String {
    if moves.is_empty() {
        "(none)".to_string()
    } else {
        moves.join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "[Event \"m\"]\n[Round \"1\"]\n\n1. e4 {book} e5 {+0.10/3 0.1s} 1/2-1/2\n\n";

    #[test]
    fn a_torn_last_game_is_cut_off_and_whole_ones_kept() {
        let two = format!("{GAME}{}", GAME.replace("\"1\"", "\"2\""));
        assert_eq!(whole_prefix(&two), two.len());
        assert_eq!(whole_prefix(""), 0);
        // Torn inside the tags, inside a comment, and before the result token.
        for cut in [
            "[Event \"m\"]\n[Ro",
            "[Event \"m\"]\n[Round \"2\"]\n\n1. e4 {bo",
            "[Event \"m\"]\n\n1. e4 e5 1/2",
        ] {
            let text = format!("{GAME}{cut}");
            assert_eq!(whole_prefix(&text), GAME.len(), "{cut:?}");
        }
        assert_eq!(whole_prefix("[Event \"m\"]\n\n1. e4"), 0);
        let abandoned = "[Event \"m\"]\n\n1. e4 *\n";
        assert_eq!(whole_prefix(abandoned), abandoned.len());
    }
}
