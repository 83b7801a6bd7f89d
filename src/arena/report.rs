//! A match's results as the command line shows them: a line per finished game, a
//! running status line, and the final summary (pair results, crosstable, SPRT) as text
//! or JSON.

use super::stats::{Penta, Wld};
use super::{Finished, MatchResult};
use crate::report::Report;
use serde_json::{json, Value};
use std::fmt::Write;

/// `Finished game N (White vs Black): result {reason}`.
pub fn game_line(g: &Finished) -> String {
    format!(
        "Finished game {} ({} vs {}): {} {{{}}}",
        g.number,
        g.record.white,
        g.record.black,
        g.record.result_token(),
        g.record.reason
    )
}

/// `games W-L-D Elo ± LOS LLR` of the first engine against all the others together.
pub fn progress_line(r: &MatchResult) -> String {
    let w = r.first_vs_rest();
    let (elo, err) = w.elo();
    let mut s = format!(
        "{}: {} games +{} -{} ={}  Elo {:+.1} ± {:.1}  LOS {:.1}%",
        r.names[0],
        w.games(),
        w.wins,
        w.losses,
        w.draws,
        elo,
        err,
        w.los() * 100.0
    );
    if let Some((llr, _)) = r.sprt {
        let _ = write!(s, "  LLR {llr:.2}");
    }
    s
}

/// One engine's results against one opponent.
struct Row {
    engine: usize,
    opponent: usize,
    wld: Wld,
    elo: f64,
    err: f64,
    penta: Penta,
}

/// Every pairing that played, from each side; a two-player match shows one side only,
/// since the other is its mirror image.
fn rows(r: &MatchResult) -> Vec<Row> {
    let n = r.names.len();
    let mut rows = Vec::new();
    for a in 0..n {
        for b in 0..n {
            if a == b {
                continue;
            }
            let w = r.wld(a, b);
            if w.games() == 0 || (a > b && r.wld(b, a).games() > 0 && n == 2) {
                continue;
            }
            let (elo, err) = w.elo();
            rows.push(Row {
                engine: a,
                opponent: b,
                wld: w,
                elo,
                err,
                penta: r.penta(a, b),
            });
        }
    }
    rows
}

impl Report for MatchResult {
    /// A blank line, one line per pairing, a crosstable when more than two engines
    /// played, the SPRT verdict and the game count.
    fn text(&self) -> String {
        summary_text(self)
    }

    /// Games, per-pairing results and the SPRT verdict.
    fn to_json(&self) -> Value {
        summary_json(self)
    }
}

fn summary_text(r: &MatchResult) -> String {
    let n = r.names.len();
    let mut s = String::from("\n");
    for row in rows(r) {
        let w = row.wld;
        let _ = writeln!(
            s,
            "{} vs {}: +{} -{} ={}  score {:.1}%  Elo {:+.1} ± {:.1}  LOS {:.1}%  pairs {:?}",
            r.names[row.engine],
            r.names[row.opponent],
            w.wins,
            w.losses,
            w.draws,
            w.score() * 100.0,
            row.elo,
            row.err,
            w.los() * 100.0,
            row.penta.0
        );
    }
    if n > 2 {
        s.push_str("\ncrosstable (points scored by the row engine against the column engine)\n");
        let _ = write!(s, "{:<16}", "");
        for name in &r.names {
            let _ = write!(s, "{name:>10}");
        }
        let _ = writeln!(s, "{:>10}", "total");
        for a in 0..n {
            let _ = write!(s, "{:<16}", r.names[a]);
            let mut total = 0.0;
            for b in 0..n {
                if a == b {
                    let _ = write!(s, "{:>10}", "-");
                    continue;
                }
                let w = r.wld(a, b);
                let pts = w.wins as f64 + 0.5 * w.draws as f64;
                total += pts;
                if w.games() == 0 {
                    let _ = write!(s, "{:>10}", "");
                } else {
                    let _ = write!(s, "{:>10}", format!("{pts}/{}", w.games()));
                }
            }
            let _ = writeln!(s, "{total:>10}");
        }
    }
    if let Some((llr, verdict)) = r.sprt {
        let _ = writeln!(s, "SPRT: LLR {llr:.2} — {verdict:?}");
    }
    let _ = writeln!(s, "{} games played", r.games.len());
    s
}

fn summary_json(r: &MatchResult) -> Value {
    let pairs: Vec<Value> = rows(r)
        .iter()
        .map(|row| {
            let w = row.wld;
            json!({"engine": r.names[row.engine], "opponent": r.names[row.opponent],
                   "wins": w.wins, "losses": w.losses, "draws": w.draws, "score": w.score(),
                   "elo": row.elo, "elo_error95": row.err, "los": w.los(),
                   "pentanomial": row.penta.0})
        })
        .collect();
    let mut o = json!({"games": r.games.len(), "results": pairs});
    if let Some((llr, verdict)) = r.sprt {
        o["sprt"] = json!({"llr": llr, "verdict": format!("{verdict:?}")});
    }
    if let (Some(info), Value::Object(map)) = (&r.slice, &mut o) {
        if let Value::Object(extra) = super::slice::slice_json(r, info) {
            map.extend(extra);
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::pgn::GameRecord;
    use crate::arena::stats::SprtVerdict;
    use crate::position::notation::GameResult;

    fn game(number: usize, white: usize, black: usize, result: GameResult) -> Finished {
        let names = ["A", "B", "C"];
        Finished {
            number,
            pair: (number - 1) / 2,
            white,
            black,
            record: GameRecord {
                comments: vec![],
                time_control: String::new(),
                limits: String::new(),
                variant: "chess".into(),
                start_fen: None,
                white: names[white].into(),
                black: names[black].into(),
                round: String::new(),
                result: Some(result),
                termination: "normal".into(),
                reason: "checkmate".into(),
                moves: vec![],
            },
        }
    }

    fn two_player() -> MatchResult {
        MatchResult {
            games: vec![
                game(1, 0, 1, GameResult::WhiteWins),
                game(2, 1, 0, GameResult::Draw),
            ],
            names: vec!["A".into(), "B".into()],
            sprt: None,
            slice: None,
        }
    }

    #[test]
    fn game_lines_name_players_result_and_reason() {
        let r = two_player();
        assert_eq!(
            game_line(&r.games[0]),
            "Finished game 1 (A vs B): 1-0 {checkmate}"
        );
    }

    #[test]
    fn progress_counts_the_first_engine() {
        let mut r = two_player();
        assert!(
            progress_line(&r).starts_with("A: 2 games +1 -0 =1  Elo +"),
            "{}",
            progress_line(&r)
        );
        r.sprt = Some((1.234, SprtVerdict::Continue));
        assert!(progress_line(&r).ends_with("  LLR 1.23"));
    }

    #[test]
    fn two_players_get_one_row_and_no_crosstable() {
        let mut r = two_player();
        r.sprt = Some((-3.0, SprtVerdict::AcceptH0));
        let text = r.text();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "");
        assert!(
            lines[1].starts_with("A vs B: +1 -0 =1  score 75.0%"),
            "{text}"
        );
        assert!(lines[1].ends_with("pairs [0, 0, 0, 1, 0]"), "{text}");
        assert_eq!(lines[2], "SPRT: LLR -3.00 — AcceptH0");
        assert_eq!(lines[3], "2 games played");
        assert_eq!(lines.len(), 4);
        assert!(text.ends_with("played\n"));
        let j = r.to_json();
        assert_eq!(j["games"], 2);
        assert_eq!(j["results"].as_array().unwrap().len(), 1);
        assert_eq!(j["results"][0]["engine"], "A");
        assert_eq!(j["results"][0]["pentanomial"], json!([0, 0, 0, 1, 0]));
        assert_eq!(j["sprt"]["verdict"], "AcceptH0");
    }

    #[test]
    fn three_players_get_both_sides_and_a_crosstable() {
        let r = MatchResult {
            games: vec![
                game(1, 0, 1, GameResult::WhiteWins),
                game(2, 1, 0, GameResult::Draw),
                game(3, 0, 2, GameResult::BlackWins),
                game(4, 2, 0, GameResult::WhiteWins),
            ],
            names: vec!["A".into(), "B".into(), "C".into()],
            sprt: None,
            slice: None,
        };
        let text = r.text();
        let rows: Vec<&str> = text.lines().filter(|l| l.contains(" vs ")).collect();
        assert_eq!(rows.len(), 4, "{text}");
        assert!(text.contains("\n\ncrosstable (points scored by the row engine"));
        let a = format!(
            "{:<16}{:>10}{:>10}{:>10}{:>10}",
            "A", "-", "1.5/2", "0/2", "1.5"
        );
        let b = format!(
            "{:<16}{:>10}{:>10}{:>10}{:>10}",
            "B", "0.5/2", "-", "", "0.5"
        );
        assert!(text.contains(&a), "{text}");
        assert!(text.contains(&b), "{text}");
        assert!(text.ends_with("4 games played\n"));
        assert!(r.to_json().get("sprt").is_none());
    }
}
