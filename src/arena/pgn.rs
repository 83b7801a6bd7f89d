//! PGN out (games in Tenfold notation, with Variant/SetUp/FEN/Termination tags) and in
//! (`tenfold pgn --check`: every game replayed under Tenfold's rules).

use crate::core::input::{read_text, MAX_LIST_BYTES};
use crate::position::fen::FenError;
use crate::position::notation::{GameResult, MoveError};
use crate::position::Position;
use crate::registry::{self, LoadError};
use crate::report::Report;
use crate::variant::Variant;
use serde_json::{json, Value};
use std::fmt::Write;
use std::sync::{Arc, Mutex};

/// `tenfold pgn` options.
#[derive(clap::Args, Clone, Debug)]
pub struct PgnArgs {
    /// Replay every game and report illegal moves or wrong results.
    #[arg(long)]
    pub check: String,
}

/// A finished (or abandoned) game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    /// Variant name.
    pub variant: String,
    /// Start FEN when it is not the variant's start position.
    pub start_fen: Option<String>,
    /// White player's name.
    pub white: String,
    /// Black player's name.
    pub black: String,
    /// Round label.
    pub round: String,
    /// Result, or None for an unfinished game (`*`).
    pub result: Option<GameResult>,
    /// PGN Termination tag: normal, time forfeit, rules infraction, adjudication, abandoned.
    pub termination: String,
    /// Why the game ended, in words (`checkmate`, `illegal move e2e5 by B`, …).
    pub reason: String,
    /// The moves, in Tenfold notation.
    pub moves: Vec<String>,
    /// A comment after each move (`book`, `+0.35/16 0.5s`), where there is one.
    pub comments: Vec<Option<String>>,
    /// The PGN TimeControl tag (`40/60+0.6`, `*0.1`, `-`); empty leaves the tag out.
    pub time_control: String,
    /// The Limits tag: the depth and nodes per move the players searched to
    /// (`depth=7`, `nodes=20000`, two sides joined by `:`); empty (no tag) for neither.
    pub limits: String,
}

/// Today's date as PGN writes it (`YYYY.MM.DD`, UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!("{y:04}.{m:02}.{d:02}")
}

/// A tag value as PGN allows it: one line, quotes and backslashes escaped.
fn escape(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

/// How PGN movetext writes moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Notation {
    /// Standard Algebraic Notation with Tenfold's documented extensions (the default).
    #[default]
    San,
    /// Tenfold's coordinate notation (`e2e4`, `c1c1xe3`).
    Lan,
    /// Moves as XBoard reads and writes them (CECP move text: ranks from 0 on 10-rank
    /// boards, kills as legs, implied type changes named), and the FEN tag likewise, so
    /// XBoard can load the file (`xboard -lgf`).
    Xboard,
}

/// The tag naming a game's move notation; written only for XBoard's, the one
/// Tenfold's reader cannot tell from its own (XBoard ignores tags it does not know).
pub const NOTATION_TAG: &str = "Notation";

/// A `--pgn-notation` other than san, lan and xboard.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("--pgn-notation: \"{0}\" is not san, lan or xboard")]
pub struct NotationError(pub String);

impl Notation {
    /// The name `--pgn-notation` takes.
    pub fn name(self) -> &'static str {
        match self {
            Notation::San => "san",
            Notation::Lan => "lan",
            Notation::Xboard => "xboard",
        }
    }
}

impl std::str::FromStr for Notation {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Notation, NotationError> {
        match s {
            "san" => Ok(Notation::San),
            "lan" => Ok(Notation::Lan),
            "xboard" => Ok(Notation::Xboard),
            _ => Err(NotationError(s.to_string())),
        }
    }
}

impl GameRecord {
    /// The moves as `notation` writes them; a move that cannot be replayed (none should
    /// be: the referee checked each) and all after it stay in coordinates.
    fn movetext(&self, notation: Notation) -> Vec<String> {
        if notation == Notation::Lan {
            return self.moves.clone();
        }
        let Ok(v) = registry::get(&self.variant) else {
            return self.moves.clone();
        };
        let start = self
            .start_fen
            .clone()
            .unwrap_or_else(|| v.start_fen.clone());
        let Ok(mut pos) = Position::from_fen(&v, &start) else {
            return self.moves.clone();
        };
        let mut out = Vec::with_capacity(self.moves.len());
        for (i, m) in self.moves.iter().enumerate() {
            match pos.parse_move(m) {
                Ok(mv) => {
                    out.push(if notation == Notation::Xboard {
                        crate::protocol::cecp_move::to_cecp(&pos, mv)
                    } else {
                        pos.move_to_san(mv)
                    });
                    pos.make_move(mv);
                }
                Err(_) => {
                    out.extend(self.moves[i..].iter().cloned());
                    break;
                }
            }
        }
        out
    }

    /// The result token.
    pub fn result_token(&self) -> &'static str {
        self.result.map_or("*", |r| r.pgn())
    }

    /// The game as PGN text in SAN (ends with a blank line).
    pub fn to_pgn(&self, event: &str) -> String {
        self.to_pgn_in(event, Notation::San)
    }

    /// The game as PGN text with moves in `notation`.
    pub fn to_pgn_in(&self, event: &str, notation: Notation) -> String {
        let mut s = String::new();
        let tags: [(&str, String); 7] = [
            ("Event", event.to_string()),
            ("Site", "tenfold".into()),
            ("Date", today()),
            ("Round", self.round.clone()),
            ("White", self.white.clone()),
            ("Black", self.black.clone()),
            ("Result", self.result_token().to_string()),
        ];
        for (k, v) in tags {
            let _ = writeln!(s, "[{k} \"{}\"]", escape(&v));
        }
        let _ = writeln!(s, "[Variant \"{}\"]", escape(&self.variant));
        // On 10-rank boards a coordinate move can be legal read either way (`e1e2`), so
        // a reader cannot tell XBoard's text from Tenfold's by the moves alone.
        if notation == Notation::Xboard {
            let _ = writeln!(s, "[{NOTATION_TAG} \"xboard\"]");
        }
        // XBoard loads a game before an engine could describe the game to it, so its
        // notation always names the start position (XBoard has none for games it does
        // not know).
        let fen = match (notation, registry::get(&self.variant)) {
            (Notation::Xboard, Ok(v))
                if self.start_fen.is_some() || !crate::protocol::xboard::xboard_knows(&v.name) =>
            {
                Some(crate::protocol::cecp_move::fen_to_cecp(
                    v.board.ranks as u32,
                    self.start_fen.as_deref().unwrap_or(&v.start_fen),
                ))
            }
            _ => self.start_fen.clone(),
        };
        if let Some(f) = fen {
            let _ = writeln!(s, "[SetUp \"1\"]");
            let _ = writeln!(s, "[FEN \"{}\"]", escape(&f));
        }
        if !self.time_control.is_empty() {
            let _ = writeln!(s, "[TimeControl \"{}\"]", escape(&self.time_control));
        }
        if !self.limits.is_empty() {
            let _ = writeln!(s, "[Limits \"{}\"]", escape(&self.limits));
        }
        if !self.termination.is_empty() {
            let _ = writeln!(s, "[Termination \"{}\"]", escape(&self.termination));
        }
        let _ = writeln!(s, "[PlyCount \"{}\"]", self.moves.len());
        s.push('\n');
        let black_first = self
            .start_fen
            .as_deref()
            .and_then(|f| f.split_whitespace().nth(1))
            == Some("b");
        let mut fullmove: usize = self
            .start_fen
            .as_deref()
            .and_then(|f| f.split_whitespace().nth(5))
            .and_then(|n| n.parse().ok())
            .unwrap_or(1);
        let mut line = String::new();
        let push = |tok: String, line: &mut String, out: &mut String| {
            if line.len() + tok.len() + 1 > 79 {
                out.push_str(line.trim_end());
                out.push('\n');
                line.clear();
            }
            line.push_str(&tok);
            line.push(' ');
        };
        for (i, m) in self.movetext(notation).iter().enumerate() {
            let white_to_move = (i % 2 == 0) != black_first;
            if white_to_move {
                push(format!("{fullmove}."), &mut line, &mut s);
            } else if i == 0 {
                push(format!("{fullmove}..."), &mut line, &mut s);
            }
            push(m.clone(), &mut line, &mut s);
            if let Some(Some(c)) = self.comments.get(i) {
                push(format!("{{{}}}", c.replace('}', ")")), &mut line, &mut s);
            }
            if !white_to_move {
                fullmove += 1;
            }
        }
        if !self.reason.is_empty() {
            push(
                format!("{{{}}}", self.reason.replace('}', ")")),
                &mut line,
                &mut s,
            );
        }
        push(self.result_token().to_string(), &mut line, &mut s);
        s.push_str(line.trim_end());
        s.push_str("\n\n");
        s
    }
}

/// One game read back from PGN.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// Tags in order.
    pub tags: Vec<(String, String)>,
    /// Move tokens.
    pub moves: Vec<String>,
    /// Result token at the end of the movetext (or `*`).
    pub result: String,
    /// Line where the game starts.
    pub line: usize,
    /// Why the game could not be read whole (an unterminated comment or variation).
    pub defect: Option<String>,
    /// The tag section ended (a blank line or movetext followed it).
    tags_closed: bool,
}

impl PgnGame {
    /// A tag's value.
    pub fn tag(&self, k: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(a, _)| a == k)
            .map(|(_, v)| v.as_str())
    }

    /// The notation its `Notation` tag names; SAN (which reads Tenfold's coordinates
    /// too) without one.
    pub fn notation(&self) -> Result<Notation, CheckError> {
        match self.tag(NOTATION_TAG) {
            None => Ok(Notation::San),
            Some(n) => n.parse().map_err(|_| CheckError::Notation(n.to_string())),
        }
    }

    /// Its FEN tag in Tenfold's form (XBoard's numbers ranks from 0 on 10-rank boards),
    /// for a board of `ranks` ranks.
    pub fn start_fen(&self, ranks: u32) -> Result<Option<String>, CheckError> {
        let xboard = self.notation()? == Notation::Xboard;
        Ok(self.tag("FEN").map(|f| {
            if xboard {
                crate::protocol::cecp_move::fen_from_cecp(ranks, f)
            } else {
                f.to_string()
            }
        }))
    }
}

/// Why PGN text could not be split into games; each message names the line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A `[` tag line without its `]`.
    #[error("line {0}: tag without closing ']'")]
    UnclosedTag(usize),
    /// A tag with a name only.
    #[error("line {0}: tag without a value")]
    NoTagValue(usize),
    /// A tag value without its quotes.
    #[error("line {0}: tag value is not quoted")]
    UnquotedTagValue(usize),
    /// A move after the game's result token.
    #[error("line {line}: move \"{mv}\" after the result")]
    MoveAfterResult {
        /// 1-based line number.
        line: usize,
        /// The move as written.
        mv: String,
    },
}

/// Splits PGN text into games; an error names the line.
pub fn parse_pgn(text: &str) -> Result<Vec<PgnGame>, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut games = Vec::new();
    let mut cur: Option<PgnGame> = None;
    let mut in_comment = false;
    let mut depth = 0usize;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        // A tag line inside a comment or variation means the brace or parenthesis was
        // never closed: that game is defective, and the tag starts the next game
        // instead of disappearing into the comment.
        let looks_like_tag = line.starts_with('[') && line.ends_with("\"]");
        if (in_comment || depth > 0) && looks_like_tag {
            if let Some(g) = cur.as_mut() {
                let what = if in_comment {
                    "a comment '{'"
                } else {
                    "a variation '('"
                };
                g.defect = Some(format!("{what} is never closed"));
            }
            in_comment = false;
            depth = 0;
        }
        if line.is_empty() {
            if let Some(g) = cur.as_mut() {
                g.tags_closed = !g.tags.is_empty();
            }
        }
        if !in_comment && line.starts_with('[') {
            if cur.as_ref().is_some_and(|g| {
                !g.moves.is_empty() || !g.result.is_empty() || g.tags_closed || g.defect.is_some()
            }) {
                games.push(cur.take().unwrap());
            }
            let g = cur.get_or_insert_with(|| PgnGame {
                line: i + 1,
                ..Default::default()
            });
            let inner = line
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
                .ok_or(ParseError::UnclosedTag(i + 1))?;
            let (k, v) = inner.split_once(' ').ok_or(ParseError::NoTagValue(i + 1))?;
            let v = v.trim();
            let v = v
                .strip_prefix('"')
                .and_then(|x| x.strip_suffix('"'))
                .ok_or(ParseError::UnquotedTagValue(i + 1))?;
            g.tags
                .push((k.to_string(), v.replace("\\\"", "\"").replace("\\\\", "\\")));
            continue;
        }
        if line.starts_with('%') {
            continue;
        }
        let mut token = String::new();
        let flush = |t: &mut String, g: &mut Option<PgnGame>| -> Result<(), ParseError> {
            if t.is_empty() {
                return Ok(());
            }
            let tok = std::mem::take(t);
            let g = g.get_or_insert_with(|| PgnGame {
                line: i + 1,
                ..Default::default()
            });
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&tok.as_str()) {
                g.result = tok;
            } else if !tok.starts_with('$') {
                // A move number is digits then dots (`12.`, `12...e5`); digits followed by
                // anything else begin a move, as castling written with zeros (`0-0`) does.
                let rest = tok.trim_start_matches(|c: char| c.is_ascii_digit());
                let body = if rest.is_empty() || rest.starts_with('.') {
                    rest.trim_start_matches('.')
                } else {
                    tok.as_str()
                };
                if !body.is_empty() {
                    if !g.result.is_empty() {
                        return Err(ParseError::MoveAfterResult {
                            line: i + 1,
                            mv: body.to_string(),
                        });
                    }
                    g.moves.push(body.to_string());
                }
            }
            Ok(())
        };
        for c in line.chars() {
            if in_comment {
                if c == '}' {
                    in_comment = false;
                }
                continue;
            }
            match c {
                '{' => {
                    flush(&mut token, &mut cur)?;
                    in_comment = true;
                }
                ';' => {
                    flush(&mut token, &mut cur)?;
                    break;
                }
                '(' => {
                    flush(&mut token, &mut cur)?;
                    depth += 1;
                }
                ')' => {
                    flush(&mut token, &mut cur)?;
                    depth = depth.saturating_sub(1);
                }
                c if c.is_whitespace() => flush(&mut token, &mut cur)?,
                c if depth == 0 => token.push(c),
                _ => {}
            }
        }
        flush(&mut token, &mut cur)?;
    }
    if let Some(mut g) = cur {
        if in_comment || depth > 0 {
            let what = if in_comment {
                "a comment '{'"
            } else {
                "a variation '('"
            };
            g.defect = Some(format!("{what} is never closed"));
        }
        if !g.tags.is_empty() || !g.moves.is_empty() || g.defect.is_some() {
            games.push(g);
        }
    }
    Ok(games)
}

/// Why a game fails the check.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The game could not be read whole.
    #[error("unreadable: {0}")]
    Unreadable(String),
    /// The movetext has no result token (a game cut short, or tags alone).
    #[error("no result token ends the movetext")]
    Unterminated,
    /// Its Variant tag names no variant Tenfold has.
    #[error(transparent)]
    Variant(#[from] LoadError),
    /// Its Notation tag names no notation Tenfold writes.
    #[error("{NOTATION_TAG} tag \"{0}\" is not san, lan or xboard")]
    Notation(String),
    /// Its FEN tag is refused.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// A move is illegal or unreadable.
    #[error("ply {ply}: {source}")]
    Move {
        /// 1-based ply number.
        ply: usize,
        /// Why the move was refused.
        source: MoveError,
    },
    /// The Result tag and the movetext's result token disagree.
    #[error("Result tag \"{tag}\" differs from the movetext's \"{movetext}\"")]
    ResultMismatch {
        /// The Result tag.
        tag: String,
        /// The token ending the movetext.
        movetext: String,
    },
    /// A move comes after the rules ended the game.
    #[error("ply {ply}: \"{mv}\" comes after the game ended by {why} ({result})")]
    MoveAfterEnd {
        /// 1-based ply number of the move.
        ply: usize,
        /// The move as written.
        mv: String,
        /// How the rules ended it.
        why: &'static str,
        /// The result the rules gave.
        result: &'static str,
    },
    /// The rules end the game one way and the Result tag says another.
    #[error("the game ends by {why} ({result}) but Result is \"{tag}\"")]
    WrongResult {
        /// How the rules end it (checkmate, stalemate, bare kings, threefold repetition,
        /// the 50-move rule).
        why: String,
        /// The result the rules give.
        result: &'static str,
        /// The Result tag.
        tag: String,
    },
}

/// Replays one game under Tenfold's rules, as `default` when it has no Variant tag;
/// Ok(number of moves) or why it fails.
pub fn check_game(g: &PgnGame, default: &Arc<Variant>) -> Result<usize, CheckError> {
    replay(g, default).map(|moves| moves.len())
}

/// [`check_game`]'s replay: the game's moves in Tenfold's coordinates, or why it fails
/// (a move illegal or after an end by rule, a Result the rules contradict).
pub fn replay(g: &PgnGame, default: &Arc<Variant>) -> Result<Vec<String>, CheckError> {
    if let Some(d) = &g.defect {
        return Err(CheckError::Unreadable(d.clone()));
    }
    if g.result.is_empty() {
        return Err(CheckError::Unterminated);
    }
    let v = match g.tag("Variant") {
        Some(name) => registry::get(&name.to_lowercase())?,
        None => default.clone(),
    };
    let xboard = g.notation()? == Notation::Xboard;
    let mut pos = match g.start_fen(v.board.ranks as u32)? {
        Some(f) => Position::from_fen(&v, &f)?,
        None => Position::startpos(&v),
    };
    let mut played = Vec::with_capacity(g.moves.len());
    for (i, m) in g.moves.iter().enumerate() {
        // The referee (`tenfold match`) stops a game at every end by rule, so a move
        // after one is no move of the game.
        if let Some((r, why)) = pos.game_result() {
            return Err(CheckError::MoveAfterEnd {
                ply: i + 1,
                mv: m.clone(),
                why,
                result: r.pgn(),
            });
        }
        let mv = if xboard {
            crate::protocol::cecp_move::from_cecp(&pos, m)
        } else {
            pos.parse_any(m)
        }
        .map_err(|source| CheckError::Move { ply: i + 1, source })?;
        played.push(pos.move_to_string(mv));
        pos.make_move(mv);
    }
    let tag = g.tag("Result").unwrap_or("*");
    if !g.result.is_empty() && tag != g.result {
        return Err(CheckError::ResultMismatch {
            tag: tag.to_string(),
            movetext: g.result.clone(),
        });
    }
    if let Some((r, why)) = pos.game_result() {
        // Every end the rules make automatic (C2, C4) leaves the result no choice: the
        // referee ends the game there, as `fen` reports it.
        if tag != r.pgn() {
            return Err(CheckError::WrongResult {
                why: why.to_string(),
                result: r.pgn(),
                tag: tag.to_string(),
            });
        }
    }
    Ok(played)
}

/// Why a PGN file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum PgnFileError {
    /// The file to check cannot be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why it cannot be read.
        source: crate::core::input::ReadError,
    },
    /// The file to check is not PGN.
    #[error("{path}: {source}")]
    Parse {
        /// The file.
        path: String,
        /// Where and why parsing stopped.
        source: ParseError,
    },
    /// The file to append games to cannot be opened.
    #[error("cannot open {path}: {source}")]
    Open {
        /// The file.
        path: String,
        /// Why it cannot be opened.
        source: std::io::Error,
    },
}

/// Reads and splits a PGN file into games.
pub fn read_pgn_file(path: &str) -> Result<Vec<PgnGame>, PgnFileError> {
    let text = read_text(path, MAX_LIST_BYTES).map_err(|source| PgnFileError::Read {
        path: path.to_string(),
        source,
    })?;
    parse_pgn(&text).map_err(|source| PgnFileError::Parse {
        path: path.to_string(),
        source,
    })
}

/// A PGN file games are appended to as they finish, from any thread.
pub struct PgnAppender {
    path: String,
    /// Opened at the first game when the file did not exist: a match stopped before any
    /// game (an engine that cannot start) leaves no empty file behind.
    file: Mutex<Option<std::fs::File>>,
}

impl PgnAppender {
    /// Opens the file for appending if it exists; else checks that it can be made, and
    /// makes it with the first game.
    pub fn open(path: &str) -> Result<PgnAppender, PgnFileError> {
        let err = |source| PgnFileError::Open {
            path: path.to_string(),
            source,
        };
        let p = std::path::Path::new(path);
        let file = if p.exists() {
            Some(append_to(path, false).map_err(err)?)
        } else {
            let dir = p
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(std::path::Path::new("."));
            if !dir.is_dir() {
                return Err(err(std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    format!("no directory {}", dir.display()),
                )));
            }
            None
        };
        Ok(PgnAppender {
            path: path.to_string(),
            file: Mutex::new(file),
        })
    }

    /// Appends one game; a failed write loses that game only, never the match.
    pub fn append(&self, record: &GameRecord, event: &str, notation: Notation) {
        use std::io::Write as _;
        let text = record.to_pgn_in(event, notation);
        let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
        if f.is_none() {
            match append_to(&self.path, true) {
                Ok(opened) => *f = Some(opened),
                Err(e) => {
                    eprintln!("tenfold: --pgnout {}: {e}", self.path);
                    return;
                }
            }
        }
        if let Some(file) = f.as_mut() {
            let _ = file.write_all(text.as_bytes());
        }
    }
}

/// `path` opened for appending, made if `create`.
fn append_to(path: &str, create: bool) -> std::io::Result<std::fs::File> {
    std::fs::OpenOptions::new()
        .create(create)
        .append(true)
        .open(path)
}

/// The check of one game of a file.
#[derive(Debug)]
pub struct GameCheck {
    /// 1-based game number in the file.
    pub game: usize,
    /// Line where the game starts.
    pub line: usize,
    /// The game's Result tag (`*` when it has none).
    pub result: String,
    /// Number of moves replayed, or why the game fails.
    pub verdict: Result<usize, CheckError>,
}

impl GameCheck {
    /// `ok   game N (line L): M moves, result` or `FAIL game N (line L): why`.
    pub fn text(&self) -> String {
        match &self.verdict {
            Ok(n) => format!(
                "ok   game {} (line {}): {n} plies, {}",
                self.game, self.line, self.result
            ),
            Err(e) => format!("FAIL game {} (line {}): {e}", self.game, self.line),
        }
    }

    /// `{"game", "line", "ok", "error"}`, error null for a game that passes.
    pub fn to_json(&self) -> Value {
        json!({"game": self.game, "line": self.line, "ok": self.verdict.is_ok(),
               "error": self.verdict.as_ref().err().map(|e| e.to_string())})
    }
}

/// The check of every game of a file.
#[derive(Debug)]
pub struct CheckReport {
    /// One check per game, in file order.
    pub games: Vec<GameCheck>,
}

impl CheckReport {
    /// Checks every game, in order; a game without a Variant tag is one of `default`.
    pub fn of(games: &[PgnGame], default: &Arc<Variant>) -> CheckReport {
        let games = games
            .iter()
            .enumerate()
            .map(|(i, g)| GameCheck {
                game: i + 1,
                line: g.line,
                result: g.tag("Result").unwrap_or("*").to_string(),
                verdict: check_game(g, default),
            })
            .collect();
        CheckReport { games }
    }

    /// How many games failed.
    pub fn failed(&self) -> usize {
        self.games.iter().filter(|c| c.verdict.is_err()).count()
    }
}

impl Report for CheckReport {
    /// A line per game, then `N passed, M failed`.
    fn text(&self) -> String {
        let mut s: String = self.games.iter().map(|g| g.text() + "\n").collect();
        let bad = self.failed();
        let _ = writeln!(s, "{} passed, {bad} failed", self.games.len() - bad);
        s
    }

    /// `{"games", "failed", "results"}` with one [`GameCheck::to_json`] per game.
    fn to_json(&self) -> Value {
        let results: Vec<Value> = self.games.iter().map(GameCheck::to_json).collect();
        json!({"games": self.games.len(), "failed": self.failed(), "results": results})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chess() -> Arc<Variant> {
        registry::get("chess").unwrap()
    }

    fn record(moves: &[&str], result: Option<GameResult>) -> GameRecord {
        GameRecord {
            comments: vec![],
            time_control: String::new(),
            limits: String::new(),
            variant: "chess".into(),
            start_fen: None,
            white: "A".into(),
            black: "B \"the\" bot".into(),
            round: "1".into(),
            result,
            termination: "normal".into(),
            reason: "checkmate".into(),
            moves: moves.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn written_games_read_back_and_replay() {
        let r = record(
            &["f2f3", "e7e5", "g2g4", "d8h4"],
            Some(GameResult::BlackWins),
        );
        let text = r.to_pgn("test") + &r.to_pgn("test");
        let games = parse_pgn(&text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves, vec!["f3", "e5", "g4", "Qh4#"]);
        assert_eq!(games[0].tag("Black"), Some("B \"the\" bot"));
        assert_eq!(games[0].result, "0-1");
        assert_eq!(check_game(&games[0], &chess()).unwrap(), 4);
        // Coordinates on request, read back by the same check.
        let lan = &parse_pgn(&r.to_pgn_in("test", Notation::Lan)).unwrap()[0];
        assert_eq!(lan.moves, vec!["f2f3", "e7e5", "g2g4", "d8h4"]);
        assert_eq!(check_game(lan, &chess()).unwrap(), 4);
    }

    /// XBoard's notation is CECP move text: on a 10-rank board the ranks count from 0
    /// (Grand's `c3c5` is `c2c4`), and a game XBoard does not know names its start
    /// (ArchMage, with holdings) while one it knows (Grand) does not.
    #[test]
    fn xboard_notation_is_cecp_move_text_with_the_start_named_when_xboard_needs_it() {
        let mut r = record(&["c3c5", "c8c6"], None);
        r.variant = "grand".into();
        let text = r.to_pgn_in("t", Notation::Xboard);
        let g = &parse_pgn(&text).unwrap()[0];
        assert_eq!(g.moves, vec!["c2c4", "c7c5"]);
        assert_eq!(g.tag("FEN"), None);
        r.variant = "archmage".into();
        let text = r.to_pgn_in("t", Notation::Xboard);
        let g = &parse_pgn(&text).unwrap()[0];
        assert_eq!(g.moves, vec!["c2c4", "c7c5"]);
        assert!(g.tag("FEN").is_some_and(|f| f.contains("[DHdh]")), "{text}");
    }

    /// On 10 ranks `c2c4` reads both ways (Tenfold's c2c4, XBoard's c3c5), so only the
    /// Notation tag says which: with it the game replays as written, without it the
    /// same moves are Tenfold's, and a tag naming no notation fails.
    #[test]
    fn the_notation_tag_alone_decides_how_moves_are_read() {
        let mut r = record(&["c3c5", "c8c6"], None);
        r.variant = "grand".into();
        let text = r.to_pgn_in("t", Notation::Xboard);
        let g = &parse_pgn(&text).unwrap()[0];
        assert_eq!(g.tag(NOTATION_TAG), Some("xboard"), "{text}");
        assert_eq!(replay(g, &chess()).unwrap(), vec!["c3c5", "c8c6"]);
        let mut untagged = g.clone();
        untagged.tags.retain(|(k, _)| k != NOTATION_TAG);
        assert_ne!(
            replay(&untagged, &chess()).ok(),
            Some(vec!["c3c5".into(), "c8c6".into()])
        );
        let mut odd = g.clone();
        odd.tags.push((NOTATION_TAG.into(), "ucci".into()));
        odd.tags.retain(|(k, v)| k != NOTATION_TAG || v == "ucci");
        assert!(matches!(replay(&odd, &chess()), Err(CheckError::Notation(n)) if n == "ucci"));
        for n in [Notation::San, Notation::Lan] {
            let text = r.to_pgn_in("t", n);
            assert!(!text.contains("[Notation "), "{text}");
        }
    }

    #[test]
    fn games_that_cannot_be_read_whole_fail_and_later_games_survive() {
        let good = record(
            &["f2f3", "e7e5", "g2g4", "d8h4"],
            Some(GameResult::BlackWins),
        )
        .to_pgn("t");
        let cut_comment = "[Event \"a\"]\n[Result \"*\"]\n\n1. e4 {never closed\n\n";
        let cut_variation = "[Event \"b\"]\n[Result \"*\"]\n\n1. e4 (1. d4\n\n";
        let tags_only = "[Event \"c\"]\n[Result \"*\"]\n\n";
        let text =
            format!("\u{feff}{good}{cut_comment}{good}{cut_variation}{good}{tags_only}{good}");
        let games = parse_pgn(&text).unwrap();
        let verdicts: Vec<bool> = games
            .iter()
            .map(|g| check_game(g, &chess()).is_ok())
            .collect();
        assert_eq!(verdicts, [true, false, true, false, true, false, true]);
        assert_eq!(
            check_game(&games[1], &chess()).unwrap_err().to_string(),
            "unreadable: a comment '{' is never closed"
        );
        assert_eq!(
            check_game(&games[5], &chess()).unwrap_err().to_string(),
            "no result token ends the movetext"
        );
    }

    #[test]
    fn a_newline_in_a_name_stays_inside_its_tag() {
        let mut r = record(&["f2f3"], None);
        r.white = "evil\n[Result \"1-0\"]".into();
        let text = r.to_pgn("two\nlines");
        let g = &parse_pgn(&text).unwrap()[0];
        assert_eq!(g.tag("Result"), Some("*"));
        assert_eq!(g.tag("Event"), Some("two lines"));
    }

    #[test]
    fn time_control_and_move_comments_are_written() {
        let mut r = record(&["f2f3", "e7e5"], None);
        r.time_control = "40/60+0.6".into();
        r.comments = vec![Some("book".into()), Some("+0.35/16 0.5s".into())];
        let text = r.to_pgn("t");
        assert!(text.contains("[TimeControl \"40/60+0.6\"]"), "{text}");
        assert!(text.contains("1. f3 {book} e5 {+0.35/16 0.5s}"), "{text}");
    }

    #[test]
    fn a_wrong_result_or_illegal_move_is_caught() {
        let r = record(
            &["f2f3", "e7e5", "g2g4", "d8h4"],
            Some(GameResult::WhiteWins),
        );
        let g = &parse_pgn(&r.to_pgn("t")).unwrap()[0];
        assert_eq!(
            check_game(g, &chess()).unwrap_err().to_string(),
            "the game ends by checkmate (0-1) but Result is \"1-0\""
        );
        let r = record(&["e2e4", "e7e5", "e4e5"], None);
        let g = &parse_pgn(&r.to_pgn("t")).unwrap()[0];
        let e = check_game(g, &chess()).unwrap_err();
        assert!(matches!(e, CheckError::Move { ply: 3, .. }), "{e}");
        assert!(e.to_string().starts_with("ply 3: "), "{e}");
    }

    #[test]
    fn comments_variations_and_numbers_are_skipped() {
        let text = "[Event \"x\"]\n[Result \"*\"]\n\n1. e2e4 {best} e7e5 (1... c7c5 2. g1f3) 2. g1f3 $1 ; rest\n*\n";
        let g = &parse_pgn(text).unwrap()[0];
        assert_eq!(g.moves, vec!["e2e4", "e7e5", "g1f3"]);
        assert_eq!(check_game(g, &chess()).unwrap(), 3);
    }

    fn game(fen: Option<&str>, movetext: &str, result: &str) -> PgnGame {
        let setup = fen.map_or(String::new(), |f| format!("[SetUp \"1\"]\n[FEN \"{f}\"]\n"));
        let text = format!("[Result \"{result}\"]\n{setup}\n{movetext} {result}\n");
        parse_pgn(&text).unwrap().remove(0)
    }

    /// Rules C2 and C4: checkmate, stalemate, bare kings, threefold repetition and the
    /// 50-move rule end the game by themselves (the referee stops there, `fen` reports
    /// them), so a result other than theirs is wrong.
    #[test]
    fn a_result_against_an_end_by_rule_fails() {
        let check = |g: &PgnGame| check_game(g, &chess()).map_err(|e| e.to_string());
        let bare = Some("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1");
        assert_eq!(
            check(&game(bare, "1. Kxd2", "0-1")),
            Err("the game ends by bare kings (1/2-1/2) but Result is \"0-1\"".into())
        );
        assert_eq!(check(&game(bare, "1. Kxd2", "1/2-1/2")), Ok(1));
        let knights = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8";
        assert_eq!(
            check(&game(None, knights, "1-0")),
            Err("the game ends by threefold repetition (1/2-1/2) but Result is \"1-0\"".into())
        );
        assert_eq!(check(&game(None, knights, "1/2-1/2")), Ok(8));
        // The 100th half-move without capture or pawn move draws...
        let fifty = Some("4k3/8/8/8/8/8/8/R3K3 w - - 99 60");
        assert_eq!(
            check(&game(fifty, "60. Ra2", "1-0")),
            Err("the game ends by 50-move rule (1/2-1/2) but Result is \"1-0\"".into())
        );
        // ...unless it mates.
        let mate = Some("7k/8/6K1/8/8/8/8/R7 w - - 99 60");
        assert_eq!(check(&game(mate, "60. Ra8#", "1-0")), Ok(1));
        let stalemate = Some("k7/8/1K6/8/8/8/8/2Q5 w - - 0 1");
        assert_eq!(
            check(&game(stalemate, "1. Qc7", "1-0")),
            Err("the game ends by stalemate (1/2-1/2) but Result is \"1-0\"".into())
        );
    }

    /// The referee stops a game at its end by rule, so a move after it fails, with the
    /// ply and the end named.
    #[test]
    fn a_move_after_an_end_by_rule_fails() {
        let check = |g: &PgnGame| check_game(g, &chess()).map_err(|e| e.to_string());
        let on = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4";
        assert_eq!(
            check(&game(None, on, "1/2-1/2")),
            Err(
                "ply 9: \"e4\" comes after the game ended by threefold repetition (1/2-1/2)".into()
            )
        );
        let bare = Some("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1");
        assert_eq!(
            check(&game(bare, "1. Kxd2 Kd7", "1/2-1/2")),
            Err("ply 2: \"Kd7\" comes after the game ended by bare kings (1/2-1/2)".into())
        );
        assert!(matches!(
            check_game(&game(None, "1. f3 e5 2. g4 Qh4# 3. a3", "0-1"), &chess()),
            Err(CheckError::MoveAfterEnd {
                ply: 5,
                why: "checkmate",
                ..
            })
        ));
    }

    /// Castling written with zeros, as `fen --moves` takes it (and python-chess reads
    /// it): `0-0` and `0-0-0` are moves, not the move number `0` and a stray `-0`, beside
    /// the results `1-0`, `0-1` and `1/2-1/2`.
    #[test]
    fn castling_with_zeros_is_a_move_not_a_number() {
        let text = "[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. 0-0 d6 5.d4 Bd7 6. Nc3 Qe7 7. Bg5 0-0-0 *\n";
        let g = &parse_pgn(text).unwrap()[0];
        assert_eq!(g.moves[6], "0-0");
        assert_eq!(g.moves[13], "0-0-0");
        assert_eq!(check_game(g, &chess()).unwrap(), 14);
        for result in ["1-0", "0-1", "1/2-1/2", "*"] {
            let g = &parse_pgn(&format!("1. e4 e5 2. 0-0 {result}\n")).unwrap()[0];
            assert_eq!((g.moves.len(), g.result.as_str()), (3, result));
        }
    }

    #[test]
    fn black_to_move_start_numbers_with_ellipsis() {
        let mut r = record(&["e7e5", "g1f3"], None);
        r.start_fen = Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1".into());
        let pgn = r.to_pgn("t");
        assert!(pgn.contains("1... e5 2. Nf3"), "{pgn}");
        assert_eq!(
            check_game(&parse_pgn(&pgn).unwrap()[0], &chess()).unwrap(),
            2
        );
    }

    #[test]
    fn parse_errors_name_the_line() {
        assert_eq!(parse_pgn("[Event \"x\"\n"), Err(ParseError::UnclosedTag(1)));
        assert_eq!(
            parse_pgn("\n[Event]\n").unwrap_err().to_string(),
            "line 2: tag without a value"
        );
        assert_eq!(
            parse_pgn("[Event x]\n").unwrap_err().to_string(),
            "line 1: tag value is not quoted"
        );
        assert_eq!(
            parse_pgn("1. e2e4 *\ne7e5\n").unwrap_err().to_string(),
            "line 2: move \"e7e5\" after the result"
        );
    }

    #[test]
    fn a_mismatched_result_token_and_unknown_variant_fail() {
        let g = &parse_pgn("[Result \"1-0\"]\n\n1. e2e4 0-1\n").unwrap()[0];
        assert_eq!(
            check_game(g, &chess()).unwrap_err().to_string(),
            "Result tag \"1-0\" differs from the movetext's \"0-1\""
        );
        let g = &parse_pgn("[Variant \"nosuchgame\"]\n\n*\n").unwrap()[0];
        assert!(matches!(
            check_game(g, &chess()),
            Err(CheckError::Variant(_))
        ));
    }

    #[test]
    fn a_file_check_reports_each_game_and_the_totals() {
        let good = record(
            &["f2f3", "e7e5", "g2g4", "d8h4"],
            Some(GameResult::BlackWins),
        );
        let bad = record(&["e2e4", "e7e5", "e4e5"], None);
        let games = parse_pgn(&(good.to_pgn("t") + &bad.to_pgn("t"))).unwrap();
        let report = CheckReport::of(&games, &chess());
        let checks = &report.games;
        assert_eq!(checks[0].text(), "ok   game 1 (line 1): 4 plies, 0-1");
        assert!(
            checks[1]
                .text()
                .starts_with(&format!("FAIL game 2 (line {}): ply 3: ", games[1].line)),
            "{}",
            checks[1].text()
        );
        assert_eq!(report.failed(), 1);
        assert_eq!(
            report.text(),
            format!(
                "{}\n{}\n1 passed, 1 failed\n",
                checks[0].text(),
                checks[1].text()
            )
        );
        let j = report.to_json();
        assert_eq!(
            (j["games"].clone(), j["failed"].clone()),
            (json!(2), json!(1))
        );
        assert_eq!(j["results"][0]["error"], Value::Null);
        assert_eq!(j["results"][1]["ok"], false);
        assert!(j["results"][1]["error"]
            .as_str()
            .unwrap()
            .starts_with("ply 3"));
    }

    #[test]
    fn file_errors_name_the_file() {
        let e = read_pgn_file("/no/such/games.pgn").unwrap_err();
        assert!(e
            .to_string()
            .starts_with("cannot read /no/such/games.pgn: "));
        let e = PgnAppender::open("/no/such/dir/games.pgn").err().unwrap();
        assert!(e
            .to_string()
            .starts_with("cannot open /no/such/dir/games.pgn: "));
    }

    #[test]
    fn dates_look_like_pgn_dates() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
