//! What `tenfold search` shows: an info line per completed iteration, then the move
//! found with its score, as text or JSON.

use super::skill::{MAX_ELO, MIN_ELO};
use super::smp::MAX_MULTIPV;
use super::{uci_score, Info, Limits, SearchResult, MATE_BOUND};
use crate::position::Position;
use crate::report::Report;
use serde_json::{json, Value};

/// Why a search request from the command line was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RequestError {
    /// No depth, time or node limit: the search would never end.
    #[error("search needs --depth N, --movetime MS or --nodes N")]
    Unlimited,
    /// No thread or no table.
    #[error("--threads and --hash must be at least 1")]
    NoResources,
    /// A line count outside `1..=MAX_MULTIPV`.
    #[error("--multipv wants 1..={MAX_MULTIPV}")]
    MultiPv,
    /// An Elo outside `MIN_ELO..=MAX_ELO`.
    #[error("--elo wants {MIN_ELO}..={MAX_ELO}")]
    Elo,
}

/// The limits of a search to `depth`, for `movetime` ms or of about `nodes` nodes, with
/// `threads` threads and a `hash` MB table.
pub fn limits(
    depth: Option<u32>,
    movetime: Option<u64>,
    nodes: Option<u64>,
    threads: usize,
    hash: usize,
) -> Result<Limits, RequestError> {
    limits_of(&SearchArgs {
        depth,
        movetime,
        nodes,
        threads,
        hash,
        multipv: 1,
        elo: None,
    })
}

/// The limits of a `tenfold search` request.
pub fn limits_of(a: &SearchArgs) -> Result<Limits, RequestError> {
    let (depth, movetime, nodes, threads, hash) = (a.depth, a.movetime, a.nodes, a.threads, a.hash);
    if !(1..=MAX_MULTIPV).contains(&a.multipv) {
        return Err(RequestError::MultiPv);
    }
    if a.elo.is_some_and(|e| !(MIN_ELO..=MAX_ELO).contains(&e)) {
        return Err(RequestError::Elo);
    }
    if depth.is_none() && movetime.is_none() && nodes.is_none() {
        return Err(RequestError::Unlimited);
    }
    if threads == 0 || hash == 0 {
        return Err(RequestError::NoResources);
    }
    Ok(Limits {
        depth,
        movetime,
        nodes,
        multipv: a.multipv,
        ..Limits::default()
    })
}

/// `info depth … multipv K score … pv …`, one line of a completed iteration as UCI
/// writes it (`tenfold search` prints the same).
pub fn info_line(i: &Info) -> String {
    format!(
        "info depth {} seldepth {} multipv {} score {} nodes {} nps {} hashfull {} time {} pv {}",
        i.depth,
        i.seldepth,
        i.multipv,
        i.uci_score(),
        i.nodes,
        i.nps,
        i.hashfull,
        i.ms,
        i.pv.join(" ")
    )
}

/// The last info line of a search: the full line, or only the counts when not even
/// depth 1 completed (there is no score to give).
pub fn final_line(i: &Info) -> String {
    if i.depth == 0 {
        format!(
            "info nodes {} nps {} hashfull {} time {}",
            i.nodes, i.nps, i.hashfull, i.ms
        )
    } else {
        info_line(i)
    }
}

/// A finished search with its move in notation.
pub struct Outcome {
    /// The move found in notation; None when there is no legal move.
    pub best: Option<String>,
    /// The search's result.
    pub result: SearchResult,
}

impl Outcome {
    /// The outcome of a search of `pos`.
    pub fn new(pos: &Position, result: SearchResult) -> Outcome {
        Outcome {
            best: result.best.map(|m| pos.move_to_string(m)),
            result,
        }
    }
}

impl Report for Outcome {
    /// `bestmove M`, or `bestmove (none)`.
    fn text(&self) -> String {
        format!("bestmove {}\n", self.best.as_deref().unwrap_or("(none)"))
    }

    /// `{"bestmove", "score_cp", "depth", "nodes", "ms", "pv"}`, and `"mate"` in moves
    /// (negative when being mated) for a mate score.
    fn to_json(&self) -> Value {
        let r = &self.result;
        let mut o = json!({
            "bestmove": self.best, "score_cp": r.score, "depth": r.depth,
            "nodes": r.nodes, "ms": r.ms, "pv": r.pv_text,
        });
        if r.score.abs() >= MATE_BOUND {
            o["mate"] = json!(uci_score(r.score)[5..].parse::<i32>().unwrap_or(0));
        }
        o
    }
}

/// The options of `tenfold search`.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// Search this many plies (at least 1).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    pub depth: Option<u32>,
    /// Search this many milliseconds (at least 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Search about this many nodes (exact with one thread; at least 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Search threads (lazy SMP).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Best root lines to show each iteration (the move played is line 1).
    #[arg(long, default_value_t = 1)]
    pub multipv: usize,
    /// Play at about this Elo (UCI_LimitStrength with UCI_Elo).
    #[arg(long)]
    pub elo: Option<u32>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;
    use crate::search::MATE;

    #[test]
    fn a_request_needs_a_limit_a_thread_and_a_table() {
        let l = limits(Some(4), None, Some(10), 1, 16).unwrap();
        assert_eq!((l.depth, l.movetime, l.nodes), (Some(4), None, Some(10)));
        assert_eq!(
            limits(None, None, None, 0, 0).unwrap_err(),
            RequestError::Unlimited
        );
        assert_eq!(
            limits(None, Some(5), None, 0, 1).unwrap_err(),
            RequestError::NoResources
        );
        assert_eq!(
            limits(Some(1), None, None, 1, 0).unwrap_err(),
            RequestError::NoResources
        );
    }

    #[test]
    fn info_lines_read_like_uci() {
        let mut i = Info {
            depth: 3,
            multipv: 2,
            seldepth: 5,
            score: -12,
            nodes: 900,
            ms: 4,
            nps: 225_000,
            hashfull: 1,
            pv: vec!["e2e4".into(), "e7e5".into()],
        };
        assert_eq!(
            info_line(&i),
            "info depth 3 seldepth 5 multipv 2 score cp -12 nodes 900 nps 225000 hashfull 1 time 4 pv e2e4 e7e5"
        );
        assert_eq!(final_line(&i), info_line(&i));
        i.depth = 0;
        assert_eq!(
            final_line(&i),
            "info nodes 900 nps 225000 hashfull 1 time 4"
        );
    }

    #[test]
    fn outcomes_show_the_move_and_a_mate_in_moves() {
        let pos = Position::startpos(&registry::get("chess").unwrap());
        let none = Outcome::new(&pos, SearchResult::default());
        assert_eq!(none.text(), "bestmove (none)\n");
        assert!(none.to_json()["bestmove"].is_null());
        assert!(none.to_json().get("mate").is_none());
        let mated = Outcome::new(
            &pos,
            SearchResult {
                score: -(MATE - 4),
                ..SearchResult::default()
            },
        );
        assert_eq!(mated.to_json()["mate"], -2);
        assert_eq!(mated.to_json()["score_cp"], -(MATE - 4));
    }
}
