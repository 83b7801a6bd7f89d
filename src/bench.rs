//! `tenfold bench`: a fixed position set per variant searched to a fixed depth. With one
//! thread the node total is a signature of the search: any change to it shows.

use crate::core::moves::MoveList;
use crate::position::Position;
use crate::report::Report;
use crate::search::{Engine, Limits};
use crate::variant::Variant;
use std::sync::Arc;
use std::time::Instant;

/// Default bench depth.
pub const DEFAULT_DEPTH: u32 = 9;

/// Why a bench could not run.
#[derive(Debug, Clone, thiserror::Error)]
pub enum BenchError {
    /// A bench FEN of the table does not parse.
    #[error("{variant}: bench position: {error}")]
    Position {
        /// The variant's name.
        variant: String,
        /// Why the FEN was refused.
        error: crate::position::fen::FenError,
    },
    /// The hash table's memory cannot be had.
    #[error(transparent)]
    Hash(#[from] crate::tt::HashError),
    /// A depth, thread count or table size of 0.
    #[error("--depth, --threads and --hash must be at least 1")]
    Zero,
    /// More threads than the machine runs.
    #[error(transparent)]
    Threads(#[from] crate::search::smp::ThreadsError),
}

/// The bench positions of a variant: its table's `[search] bench` list, or else the
/// start position and positions reached from it by fixed move sequences.
pub fn positions(v: &Arc<Variant>) -> Result<Vec<Position>, BenchError> {
    let listed = &v.search.bench;
    if !listed.is_empty() {
        return listed
            .iter()
            .map(|f| {
                Position::from_fen(v, f).map_err(|e| BenchError::Position {
                    variant: v.name.clone(),
                    error: e,
                })
            })
            .collect();
    }
    let start = Position::startpos(v);
    let mut out = vec![start.clone()];
    for k in 1..=5usize {
        let mut p = start.clone();
        for i in 0..(4 + 2 * k) {
            let mut list = MoveList::new();
            p.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            // Sorted by notation so the sequence does not depend on generation order.
            let mut names: Vec<(String, crate::core::moves::Move)> =
                list.iter().map(|&m| (p.move_to_string(m), m)).collect();
            names.sort_by(|a, b| a.0.cmp(&b.0));
            let pick = (i * 7 + k * 13) % names.len();
            p.make_move(names[pick].1);
        }
        if !out.iter().any(|q| q.key() == p.key()) {
            out.push(
                Position::from_fen(v, &p.fen()).map_err(|e| BenchError::Position {
                    variant: v.name.clone(),
                    error: e,
                })?,
            );
        }
    }
    Ok(out)
}

/// One bench position's outcome.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// Variant name.
    pub variant: String,
    /// The position.
    pub fen: String,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken in ms.
    pub ms: u64,
    /// Move found.
    pub bestmove: String,
    /// Its score.
    pub score: i32,
}

impl BenchLine {
    /// `variant nodes ms bestmove score fen`, in columns.
    pub fn text(&self) -> String {
        format!(
            "{:<10} {:>10} nodes {:>6} ms  bestmove {:<6} score {:>6}  {}",
            self.variant, self.nodes, self.ms, self.bestmove, self.score, self.fen
        )
    }
}

/// The bench totals.
#[derive(Clone, Debug)]
pub struct BenchResult {
    /// Nodes of all positions.
    pub nodes: u64,
    /// Total time in ms.
    pub ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Each position.
    pub lines: Vec<BenchLine>,
}

/// The positions are shown as they finish (see [`BenchLine::text`]); the report is the
/// totals, the node count last so that scripts can take the final line.
impl Report for BenchResult {
    /// `time T ms`, then `N nodes S nps`.
    fn text(&self) -> String {
        format!(
            "time {} ms\n{} nodes {} nps\n",
            self.ms, self.nodes, self.nps
        )
    }

    /// `{"nodes", "ms", "nps"}`.
    fn to_json(&self) -> serde_json::Value {
        serde_json::json!({"nodes": self.nodes, "ms": self.ms, "nps": self.nps})
    }
}

/// Searches every bench position of `variants` to `depth` with a fresh table each,
/// calling `each` after every position.
pub fn run(
    variants: &[Arc<Variant>],
    depth: u32,
    threads: usize,
    hash_mb: usize,
    each: impl FnMut(&BenchLine),
) -> Result<BenchResult, BenchError> {
    let mut all = Vec::new();
    for v in variants {
        all.extend(positions(v)?);
    }
    run_positions(&all, depth, threads, hash_mb, each)
}

/// Searches `positions` (of any variants) to `depth` with a fresh table each, calling
/// `each` after every position: `bench --fen` times one position this way.
pub fn run_positions(
    positions: &[Position],
    depth: u32,
    threads: usize,
    hash_mb: usize,
    mut each: impl FnMut(&BenchLine),
) -> Result<BenchResult, BenchError> {
    if depth == 0 || threads == 0 || hash_mb == 0 {
        return Err(BenchError::Zero);
    }
    crate::search::smp::check_threads(threads)?;
    let mut engine = Engine::try_new(threads, hash_mb)?;
    let mut lines = Vec::new();
    let mut search_ms = 0f64;
    for pos in positions {
        let v = pos.variant();
        // The variant's evaluation is built before any clock starts, as the table is
        // cleared: the time is the searches', not the set-up's.
        engine.eval_for(v);
        engine.clear();
        let t0 = Instant::now();
        let r = engine.search(pos, Limits::depth(depth), Box::new(|_| {}));
        let secs = t0.elapsed().as_secs_f64();
        search_ms += secs * 1000.0;
        let line = BenchLine {
            variant: v.name.clone(),
            fen: pos.fen(),
            nodes: r.nodes,
            ms: (secs * 1000.0).round() as u64,
            bestmove: r
                .best
                .map_or("(none)".to_string(), |m| pos.move_to_string(m)),
            score: r.score,
        };
        each(&line);
        lines.push(line);
    }
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let ms = search_ms.round() as u64;
    Ok(BenchResult {
        nodes,
        ms,
        nps: (nodes as f64 * 1000.0 / search_ms.max(1e-6)) as u64,
        lines,
    })
}

/// The options of `tenfold bench`.
#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// Depth of every search.
    #[arg(long, default_value_t = DEFAULT_DEPTH)]
    pub depth: u32,
    /// Search threads (lazy SMP); with 1 the node count is deterministic.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_totals_read_in_columns() {
        let line = BenchLine {
            variant: "chess".into(),
            fen: "8/8/8/8/8/8/8/8 w - - 0 1".into(),
            nodes: 1234,
            ms: 5,
            bestmove: "e2e4".into(),
            score: -7,
        };
        assert_eq!(
            line.text(),
            "chess            1234 nodes      5 ms  bestmove e2e4   score     -7  8/8/8/8/8/8/8/8 w - - 0 1"
        );
        let r = BenchResult {
            nodes: 1234,
            ms: 5,
            nps: 246_800,
            lines: vec![line],
        };
        assert_eq!(r.text(), "time 5 ms\n1234 nodes 246800 nps\n");
        assert_eq!(
            r.to_json(),
            serde_json::json!({"nodes": 1234, "ms": 5, "nps": 246_800})
        );
    }
}
