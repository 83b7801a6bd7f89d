//! PGN out (games in Tenfold notation, with Variant/SetUp/FEN/Termination tags) and in
//! (`tenfold pgn --check`: every game replayed under Tenfold's rules).

use crate::position::notation::GameResult;
use crate::position::Position;
use crate::registry;
use std::fmt::Write;

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

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

impl GameRecord {
    /// The result token.
    pub fn result_token(&self) -> &'static str {
        self.result.map_or("*", |r| r.pgn())
    }

    /// The game as PGN text (ends with a blank line).
    pub fn to_pgn(&self, event: &str) -> String {
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
        if let Some(f) = &self.start_fen {
            let _ = writeln!(s, "[SetUp \"1\"]");
            let _ = writeln!(s, "[FEN \"{}\"]", escape(f));
        }
        let _ = writeln!(s, "[Termination \"{}\"]", escape(&self.termination));
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
        for (i, m) in self.moves.iter().enumerate() {
            let white_to_move = (i % 2 == 0) != black_first;
            if white_to_move {
                push(format!("{fullmove}."), &mut line, &mut s);
            } else if i == 0 {
                push(format!("{fullmove}..."), &mut line, &mut s);
            }
            push(m.clone(), &mut line, &mut s);
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
}

impl PgnGame {
    /// A tag's value.
    pub fn tag(&self, k: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(a, _)| a == k)
            .map(|(_, v)| v.as_str())
    }
}

/// Splits PGN text into games; an error names the line.
pub fn parse_pgn(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut games = Vec::new();
    let mut cur: Option<PgnGame> = None;
    let mut in_comment = false;
    let mut depth = 0usize;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if !in_comment && line.starts_with('[') {
            if cur
                .as_ref()
                .is_some_and(|g| !g.moves.is_empty() || !g.result.is_empty())
            {
                games.push(cur.take().unwrap());
            }
            let g = cur.get_or_insert_with(|| PgnGame {
                line: i + 1,
                ..Default::default()
            });
            let inner = line
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
                .ok_or_else(|| format!("line {}: tag without closing ']'", i + 1))?;
            let (k, v) = inner
                .split_once(' ')
                .ok_or_else(|| format!("line {}: tag without a value", i + 1))?;
            let v = v.trim();
            let v = v
                .strip_prefix('"')
                .and_then(|x| x.strip_suffix('"'))
                .ok_or_else(|| format!("line {}: tag value is not quoted", i + 1))?;
            g.tags
                .push((k.to_string(), v.replace("\\\"", "\"").replace("\\\\", "\\")));
            continue;
        }
        if line.starts_with('%') {
            continue;
        }
        let mut token = String::new();
        let flush = |t: &mut String, g: &mut Option<PgnGame>| -> Result<(), String> {
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
                let body = tok.trim_start_matches(|c: char| c.is_ascii_digit());
                let body = body.trim_start_matches('.');
                if !body.is_empty() {
                    if !g.result.is_empty() {
                        return Err(format!("line {}: move \"{body}\" after the result", i + 1));
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
    if let Some(g) = cur {
        if !g.tags.is_empty() || !g.moves.is_empty() {
            games.push(g);
        }
    }
    Ok(games)
}

/// Replays one game under Tenfold's rules; Ok(number of moves) or why it fails.
pub fn check_game(g: &PgnGame) -> Result<usize, String> {
    let variant = g.tag("Variant").unwrap_or("chess").to_lowercase();
    let v = registry::get(&variant).map_err(|e| e.to_string())?;
    let mut pos = match g.tag("FEN") {
        Some(f) => Position::from_fen(&v, f).map_err(|e| e.to_string())?,
        None => Position::startpos(&v),
    };
    for (i, m) in g.moves.iter().enumerate() {
        let mv = pos
            .parse_move(m)
            .map_err(|e| format!("ply {}: {e}", i + 1))?;
        pos.make_move(mv);
    }
    let tag = g.tag("Result").unwrap_or("*");
    if !g.result.is_empty() && tag != g.result {
        return Err(format!(
            "Result tag \"{tag}\" differs from the movetext's \"{}\"",
            g.result
        ));
    }
    if let Some((r, why)) = pos.game_result() {
        let decided_by_rule = matches!(why, "checkmate" | "stalemate");
        if decided_by_rule && tag != r.pgn() {
            return Err(format!(
                "the game ends by {why} ({}) but Result is \"{tag}\"",
                r.pgn()
            ));
        }
    }
    Ok(g.moves.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(moves: &[&str], result: Option<GameResult>) -> GameRecord {
        GameRecord {
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
        assert_eq!(games[0].moves, vec!["f2f3", "e7e5", "g2g4", "d8h4"]);
        assert_eq!(games[0].tag("Black"), Some("B \"the\" bot"));
        assert_eq!(games[0].result, "0-1");
        assert_eq!(check_game(&games[0]), Ok(4));
    }

    #[test]
    fn a_wrong_result_or_illegal_move_is_caught() {
        let r = record(
            &["f2f3", "e7e5", "g2g4", "d8h4"],
            Some(GameResult::WhiteWins),
        );
        let g = &parse_pgn(&r.to_pgn("t")).unwrap()[0];
        assert!(check_game(g).unwrap_err().contains("checkmate"));
        let r = record(&["e2e4", "e7e5", "e4e5"], None);
        let g = &parse_pgn(&r.to_pgn("t")).unwrap()[0];
        assert!(check_game(g).unwrap_err().contains("ply 3"));
    }

    #[test]
    fn comments_variations_and_numbers_are_skipped() {
        let text = "[Event \"x\"]\n[Result \"*\"]\n\n1. e2e4 {best} e7e5 (1... c7c5 2. g1f3) 2. g1f3 $1 ; rest\n*\n";
        let g = &parse_pgn(text).unwrap()[0];
        assert_eq!(g.moves, vec!["e2e4", "e7e5", "g1f3"]);
        assert_eq!(check_game(g), Ok(3));
    }

    #[test]
    fn black_to_move_start_numbers_with_ellipsis() {
        let mut r = record(&["e7e5", "g1f3"], None);
        r.start_fen = Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1".into());
        let pgn = r.to_pgn("t");
        assert!(pgn.contains("1... e7e5 2. g1f3"), "{pgn}");
        assert_eq!(check_game(&parse_pgn(&pgn).unwrap()[0]), Ok(2));
    }

    #[test]
    fn dates_look_like_pgn_dates() {
        let d = today();
        assert_eq!(d.len(), 10);
        assert!(d.starts_with("20"));
    }
}
