//! `tenfold label`: gives the positions of datagen files another engine's scores.
//!
//! Self-play positions carry the score of the search that played them, so a fit to them
//! learns little beyond what Tenfold already judges. `label` asks a reference engine (any UCI
//! or XBoard engine that knows the game, as `match --engine` names it) to search each
//! position to a fixed depth or node count, and writes the same `FEN | score | result`
//! line with its score (White's view) instead; the game result stays. `tune` then fits
//! the evaluation to that engine's judgement (its `--lambda` weighs score against result;
//! `--score-k fit` puts the engine's score scale on the results' own).
//!
//! Positions the engine scores as a mate, or as far from level as datagen never keeps,
//! are left out, as are those it gives no score for. The positions go out in blocks of
//! 256, dealt in turn to the engine processes (`--threads`), each engine keeping its
//! hash from one position to the next; blocks are written in file order as they are
//! done, so a run is repeatable for a deterministic engine and a thread count. They go
//! to a file beside `--out` that replaces it when the run succeeds: a failed run leaves
//! `--out` (which may be a data file) as it was.

use crate::arena::make_player;
use crate::arena::player::{EngineSpec, Limit, Player};
use crate::core::moves::Color;
use crate::position::Position;
use crate::tune::{read_data, TuneError};
use crate::variant::Variant;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// Scores at least this large are left out (datagen keeps none either).
const KEEP_SCORE: i32 = 3000;
/// Positions an engine scores at a time; blocks are handed out in turn.
const BLOCK: usize = 256;
/// How long one position may take before the engine counts as hung.
const HUNG: Duration = Duration::from_secs(300);

/// `tenfold label` options.
#[derive(clap::Args, Clone, Debug)]
pub struct LabelArgs {
    /// Datagen files whose positions are to be scored.
    #[arg(long, num_args = 1.., required = true)]
    pub data: Vec<String>,
    /// The scoring engine, as `match --engine` takes it (`cmd=PATH,proto=uci,option.Hash=16`).
    #[arg(long)]
    pub engine: String,
    /// Depth per position.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Nodes per position.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Engine processes run at once, each on its own share of the positions.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Where to write the scored positions.
    #[arg(long)]
    pub out: String,
}

/// Why labelling stopped.
#[derive(Debug, thiserror::Error)]
pub enum LabelError {
    /// Options that do not make a run.
    #[error("{0}")]
    Usage(String),
    /// An input file (unreadable, or a line that is no data line).
    #[error(transparent)]
    Data(#[from] TuneError),
    /// The output file.
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    /// The engine failed on a position.
    #[error("engine {0}: {1} (position: {2})")]
    Engine(String, String, String),
    /// The engine could not be started or told the game.
    #[error("engine {0}: {1}")]
    Start(String, String),
}

/// What a run wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LabelSummary {
    /// Positions read.
    pub read: u64,
    /// Positions written with the engine's score.
    pub written: u64,
}

impl crate::report::Report for LabelSummary {
    fn text(&self) -> String {
        format!(
            "{} positions scored, {} left out (mate, no score, or beyond ±{KEEP_SCORE})\n",
            self.written,
            self.read - self.written
        )
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::json!({ "read": self.read, "written": self.written })
    }
}

/// One position to score: its FEN and its game's result as the data line wrote it.
struct Item {
    fen: String,
    result: String,
}

impl LabelArgs {
    /// Scores every position of the data files and writes the new file; a Tenfold
    /// engine is told `variant_files` (the games loaded with `--variant-file`).
    pub fn run(
        &self,
        v: &Arc<Variant>,
        variant_files: &[String],
    ) -> Result<LabelSummary, LabelError> {
        if self.depth.is_none() && self.nodes.is_none() {
            return Err(LabelError::Usage(
                "label needs --depth N or --nodes N per position".into(),
            ));
        }
        if self.depth == Some(0) || self.nodes == Some(0) || self.threads == 0 {
            return Err(LabelError::Usage(
                "--depth, --nodes and --threads must be at least 1".into(),
            ));
        }
        // Each thread is an engine process: capped as datagen's and tune's threads are.
        crate::search::smp::check_threads(self.threads)
            .map_err(|e| LabelError::Usage(e.to_string()))?;
        let spec = EngineSpec::parse(&self.engine).map_err(|e| LabelError::Usage(e.to_string()))?;
        let mut items = Vec::new();
        for path in &self.data {
            for (pos, _, result) in read_data(v, path)? {
                // A result written as a number (`tune` reads 0 to 1) stays that number.
                let result = match result {
                    1.0 => "1-0".to_string(),
                    0.0 => "0-1".to_string(),
                    0.5 => "1/2-1/2".to_string(),
                    r => r.to_string(),
                };
                items.push(Item {
                    fen: pos.fen(),
                    result,
                });
            }
        }
        let io = |e| LabelError::Io(self.out.clone(), e);
        // Written beside --out and put in place at the end: --out may be one of the
        // data files, which a failed run must leave as it was.
        let mut out = crate::core::output::Output::create(&self.out).map_err(io)?;
        writeln!(
            out,
            "# tenfold label --engine {}{}{} (from {})",
            self.engine,
            self.depth
                .map_or(String::new(), |d| format!(" --depth {d}")),
            self.nodes
                .map_or(String::new(), |n| format!(" --nodes {n}")),
            self.data.join(" ")
        )
        .map_err(io)?;
        let limit = Limit {
            time: None,
            opp_time: None,
            inc: Duration::ZERO,
            moves_to_go: None,
            period_moves: 0,
            movetime: None,
            depth: self.depth,
            nodes: self.nodes,
            hard_deadline: HUNG,
        };
        let bar = progress(items.len() as u64);
        let blocks: Vec<&[Item]> = items.chunks(BLOCK).collect();
        let stop = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<(usize, Result<Vec<Option<i32>>, LabelError>)>();
        let mut summary = LabelSummary {
            read: items.len() as u64,
            written: 0,
        };
        std::thread::scope(|s| -> Result<(), LabelError> {
            for t in 0..self.threads.min(blocks.len()) {
                let tx = tx.clone();
                let (spec, limit, stop, blocks) = (&spec, &limit, &stop, &blocks);
                s.spawn(move || {
                    let mut scorer = match Scorer::start(v, spec, variant_files, limit) {
                        Ok(sc) => sc,
                        Err(e) => {
                            let _ = tx.send((t, Err(e)));
                            return;
                        }
                    };
                    // Thread t takes blocks t, t + threads, …: the same shares every run.
                    for b in (t..blocks.len()).step_by(self.threads) {
                        if stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let r = scorer.block(blocks[b], stop);
                        let failed = r.is_err();
                        if tx.send((b, r)).is_err() || failed {
                            break;
                        }
                    }
                    scorer.player.quit();
                });
            }
            drop(tx);
            // Blocks are written in file order as soon as every earlier one is in.
            let mut pending = BTreeMap::new();
            let mut next = 0;
            let mut done = 0u64;
            for (b, r) in rx {
                let r = r.inspect_err(|_| stop.store(true, Ordering::Relaxed))?;
                pending.insert(b, r);
                while let Some(scores) = pending.remove(&next) {
                    for (item, score) in blocks[next].iter().zip(scores) {
                        if let Some(s) = score {
                            writeln!(out, "{} | {s} | {}", item.fen, item.result).map_err(io)?;
                            summary.written += 1;
                        }
                    }
                    out.flush().map_err(io)?;
                    done += blocks[next].len() as u64;
                    if let Some(b) = &bar {
                        b.set_position(done);
                    }
                    next += 1;
                }
            }
            Ok(())
        })
        .inspect_err(|_| stop.store(true, Ordering::Relaxed))?;
        out.commit().map_err(io)?;
        if let Some(b) = &bar {
            b.finish_and_clear();
        }
        Ok(summary)
    }
}

/// One engine process, started, and the limit it searches each position to.
struct Scorer<'a> {
    v: &'a Arc<Variant>,
    player: Box<dyn Player>,
    name: String,
    limit: &'a Limit,
    /// Told each position as a new game: an XBoard engine keeps the game it was given
    /// and hears only moves (a UCI engine is told the position with every search).
    fresh_game: bool,
}

impl<'a> Scorer<'a> {
    /// Starts the engine and tells it the game.
    fn start(
        v: &'a Arc<Variant>,
        spec: &EngineSpec,
        variant_files: &[String],
        limit: &'a Limit,
    ) -> Result<Scorer<'a>, LabelError> {
        let mut player = make_player(spec, 1, variant_files);
        player
            .new_game(&v.name, &v.start_fen)
            .map_err(|e| LabelError::Start(spec.name.clone(), e.to_string()))?;
        Ok(Scorer {
            v,
            player,
            name: spec.name.clone(),
            limit,
            fresh_game: spec.proto == "xboard",
        })
    }

    /// Each position's score from White's side, `None` when it is left out; cut short
    /// (and never written) once `stop` says the run has failed.
    fn block(&mut self, items: &[Item], stop: &AtomicBool) -> Result<Vec<Option<i32>>, LabelError> {
        let fail = |fen: &str, e: String| LabelError::Engine(self.name.clone(), e, fen.to_string());
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let pos = Position::from_fen(self.v, &item.fen)
                .map_err(|e| fail(&item.fen, e.to_string()))?;
            if self.fresh_game {
                self.player
                    .new_game(&self.v.name, &item.fen)
                    .map_err(|e| fail(&item.fen, e.to_string()))?;
            }
            let reply = self
                .player
                .think(&pos, &item.fen, &[], self.limit)
                .map_err(|e| fail(&item.fen, e.to_string()))?;
            let white = pos.side_to_move() == Color::White;
            // An engine may send any i32: `abs` of the most negative one wraps to itself.
            let kept = reply
                .score_cp
                .filter(|s| s.unsigned_abs() < KEEP_SCORE.unsigned_abs());
            out.push(kept.map(|s| if white { s } else { -s }));
        }
        Ok(out)
    }
}

/// A progress bar on a terminal's stderr.
fn progress(len: u64) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} positions {per_sec} ETA {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    Some(bar)
}
