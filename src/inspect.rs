//! What `tenfold variants`, `moves`, `fen` and `eval` show: the built-in variants, a
//! position's legal moves, its FEN with the result once the game is over, and its static
//! evaluation term by term.

use crate::core::moves::MoveList;
use crate::eval::explain::Breakdown;
use crate::eval::Eval;
use crate::position::fen::FenError;
use crate::position::notation::{GameResult, MoveError};
use crate::position::Position;
use crate::registry::{self, LoadError};
use crate::report::Report;
use crate::variant::Variant;
use serde_json::{json, Value};
use std::sync::Arc;

/// Why the position the command line describes cannot be set up.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// The FEN is refused.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// A move is illegal or unreadable.
    #[error(transparent)]
    Move(#[from] MoveError),
    /// A move after the game's end (as `pgn --check` refuses one).
    #[error("--moves: move {number} {text:?} comes after the game ended: {why}")]
    AfterEnd {
        /// 1-based place of the move in `--moves`.
        number: usize,
        /// The move as given.
        text: String,
        /// How the game ended (`threefold repetition`).
        why: &'static str,
    },
}

/// The position after `moves` (space separated) from `fen`, or from the start position.
/// A move after the game has ended by the rules is refused: the position and result
/// after it were of no game (a mate shown after a threefold repetition).
pub fn position(
    v: &Arc<Variant>,
    fen: Option<&str>,
    moves: Option<&str>,
) -> Result<Position, SetupError> {
    let mut pos = match fen {
        Some(f) => Position::from_fen(v, f)?,
        None => Position::startpos(v),
    };
    for (i, text) in moves.unwrap_or("").split_whitespace().enumerate() {
        if let Some((_, why)) = pos.game_result() {
            return Err(SetupError::AfterEnd {
                number: i + 1,
                text: text.to_string(),
                why,
            });
        }
        pos.play_moves(text)?;
    }
    Ok(pos)
}

/// Every built-in variant, in listing order.
pub fn builtins() -> Result<Vec<Arc<Variant>>, LoadError> {
    registry::names().into_iter().map(registry::get).collect()
}

/// Every known variant: the built-ins, then the tables loaded, in listing order.
pub fn known() -> Result<Vec<Arc<Variant>>, LoadError> {
    registry::known().iter().map(|n| registry::get(n)).collect()
}

/// A list of variants with their boards and descriptions.
pub struct VariantList(pub Vec<Arc<Variant>>);

impl Report for VariantList {
    /// `name  FxR  description`, a line each.
    fn text(&self) -> String {
        // A loaded table's name may be longer than any built-in's.
        let w = self
            .0
            .iter()
            .map(|v| v.name.len())
            .max()
            .unwrap_or(0)
            .max(16);
        self.0
            .iter()
            .map(|v| {
                let (n, f, r, d) = (&v.name, v.board.files, v.board.ranks, &v.description);
                format!("{n:<w$} {:<7} {d}\n", format!("{f}x{r}"))
            })
            .collect()
    }

    /// `{"variants": [{"name", "files", "ranks", "description"}]}`.
    fn to_json(&self) -> Value {
        let list: Vec<Value> = self
            .0
            .iter()
            .map(|v| {
                json!({"name": v.name, "files": v.board.files, "ranks": v.board.ranks,
                       "description": v.description})
            })
            .collect();
        json!({ "variants": list })
    }
}

/// A position's legal moves in notation, sorted so that output is stable across
/// generation order.
pub struct LegalMoves(pub Vec<String>);

impl LegalMoves {
    /// The legal moves of `pos`.
    pub fn of(pos: &Position) -> LegalMoves {
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let mut names: Vec<String> = list.iter().map(|&m| pos.move_to_string(m)).collect();
        names.sort();
        LegalMoves(names)
    }
}

impl Report for LegalMoves {
    /// A move a line.
    fn text(&self) -> String {
        self.0.iter().map(|m| format!("{m}\n")).collect()
    }

    /// `{"moves": [...]}`.
    fn to_json(&self) -> Value {
        json!({ "moves": self.0 })
    }
}

/// A position's FEN, and how the game ended if it has.
pub struct FenReport {
    /// The FEN.
    pub fen: String,
    /// The result and why, once the game is over.
    pub over: Option<(GameResult, String)>,
}

impl FenReport {
    /// The FEN and result of `pos`.
    pub fn of(pos: &Position) -> FenReport {
        FenReport {
            fen: pos.fen(),
            over: pos.game_result().map(|(r, why)| (r, why.to_string())),
        }
    }
}

impl Report for FenReport {
    /// The FEN, then `result reason` once the game is over.
    fn text(&self) -> String {
        match &self.over {
            Some((r, why)) => format!("{}\n{} {why}\n", self.fen, r.pgn()),
            None => format!("{}\n", self.fen),
        }
    }

    /// `{"fen"}`, with `"result"` and `"reason"` once the game is over.
    fn to_json(&self) -> Value {
        let mut o = json!({ "fen": self.fen });
        if let Some((r, why)) = &self.over {
            o["result"] = json!(r.pgn());
            o["reason"] = json!(why);
        }
        o
    }
}

/// The static evaluation of a position, term by term (`tenfold eval`, UCI `eval`).
pub struct EvalReport(pub Breakdown);

impl EvalReport {
    /// The breakdown of `pos` under its game's evaluation (the table's `[eval]` weights).
    pub fn of(pos: &Position) -> EvalReport {
        EvalReport(Eval::new(pos.variant()).explain(pos))
    }
}

impl Report for EvalReport {
    /// A table of terms in pawns (White's view), then the totals.
    fn text(&self) -> String {
        self.0.text()
    }

    /// `{"terms": [{"name", "mg", "eg", "total"}], "phase", "white", "side_to_move"}`,
    /// centipawns.
    fn to_json(&self) -> Value {
        let b = &self.0;
        let r = |x: f64| (x * 10.0).round() / 10.0;
        let terms: Vec<Value> = b
            .terms
            .iter()
            .map(|t| json!({"name": t.name, "mg": r(t.mg), "eg": r(t.eg), "total": r(t.total)}))
            .collect();
        json!({"terms": terms, "phase": r(b.mg_share * 100.0) / 100.0,
               "eg_scale": r(b.eg_scale * 100.0) / 100.0,
               "white": b.white, "side_to_move": b.side_to_move})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_come_from_fen_and_moves() {
        let v = registry::get("chess").unwrap();
        assert_eq!(position(&v, None, None).unwrap().fen(), v.start_fen);
        let p = position(&v, None, Some("e2e4 e7e5")).unwrap();
        assert!(p
            .fen()
            .starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w"));
        let fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
        assert_eq!(position(&v, Some(fen), None).unwrap().fen(), fen);
        assert!(matches!(
            position(&v, Some("xx"), None),
            Err(SetupError::Fen(_))
        ));
        assert!(matches!(
            position(&v, None, Some("e2e5")),
            Err(SetupError::Move(_))
        ));
    }

    #[test]
    fn variants_list_every_built_in() {
        let list = VariantList(builtins().unwrap());
        assert_eq!(list.0.len(), registry::names().len());
        let text = list.text();
        let chess = text.lines().next().unwrap();
        assert!(chess.starts_with("chess            8x8    "), "{chess}");
        let j = list.to_json();
        assert_eq!(j["variants"][0]["name"], "chess");
        assert_eq!(j["variants"][0]["files"], 8);
    }

    #[test]
    fn moves_are_sorted_a_line_each() {
        let pos = Position::startpos(&registry::get("chess").unwrap());
        let m = LegalMoves::of(&pos);
        assert_eq!(m.0.len(), 20);
        assert!(m.text().starts_with("a2a3\na2a4\nb1a3\n"));
        assert!(m.text().ends_with("h2h4\n"));
        assert_eq!(m.to_json()["moves"][0], "a2a3");
        assert_eq!(LegalMoves(vec![]).text(), "");
    }

    #[test]
    fn fen_shows_the_result_once_the_game_is_over() {
        let v = registry::get("chess").unwrap();
        let start = FenReport::of(&Position::startpos(&v));
        assert_eq!(start.text(), format!("{}\n", v.start_fen));
        assert!(start.to_json().get("result").is_none());
        let mut pos = Position::startpos(&v);
        pos.play_moves("f2f3 e7e5 g2g4 d8h4").unwrap();
        let mate = FenReport::of(&pos);
        assert!(
            mate.text().ends_with("\n0-1 checkmate\n"),
            "{}",
            mate.text()
        );
        let j = mate.to_json();
        assert_eq!(
            (j["result"].clone(), j["reason"].clone()),
            (json!("0-1"), json!("checkmate"))
        );
    }
}
