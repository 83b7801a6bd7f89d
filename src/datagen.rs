//! `tenfold datagen`: self-play games for fitting the evaluation (`tenfold tune`).
//!
//! Each game starts from its own balanced random opening (the arena's generator: random
//! plies, level material, a shallow search within 1.5 pawns) and is played by one
//! single-threaded search per move at a fixed node count or depth, so a game depends on
//! its seed and number alone. Kept positions, one line each:
//!
//! ```text
//! FEN | score | result
//! ```
//!
//! `score` is the search's score in centipawns from White's side, `result` the game's
//! (`1-0`, `0-1`, `1/2-1/2`). A position is kept when it is past the opening plies and
//! the skipped plies after them, the side to move is not in check, the score is no mate
//! score, and it is quiet: its static evaluation is within `--quiet-margin` of a
//! captures-only quiescence search (what the evaluation sees is what the position is).
//! Games are written in game order whatever the thread count (so a seed gives the same
//! file), each flushed when written, so an interrupted run keeps every game it finished.

use crate::arena::{player::Rng, random_opening};
use crate::core::moves::{Color, MoveList};
use crate::eval::Eval;
use crate::position::{notation::GameResult, Position};
use crate::search::ordering::{captured, is_tactical};
use crate::search::{Engine, Limits, MATE_BOUND};
use crate::variant::Variant;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};

/// A score this far from level for long enough decides the game (White's view).
const WIN_SCORE: i32 = 1000;
/// Plies in a row the score must hold [`WIN_SCORE`] to adjudicate.
const WIN_PLIES: u32 = 8;
/// Scores at least this large are not kept (the evaluation cannot express them).
const KEEP_SCORE: i32 = 3000;
/// Games in a row keeping no position after which a `--positions` run gives up: options
/// no check foresees (a start position in check, say) would otherwise never reach it.
const BARREN_GAMES: u64 = 1000;

/// `tenfold datagen` options.
#[derive(clap::Args, Clone, Debug)]
pub struct DatagenArgs {
    /// Number of games to play.
    #[arg(long)]
    pub games: Option<u64>,
    /// Stop after the game that brings the kept positions to this many.
    #[arg(long)]
    pub positions: Option<u64>,
    /// Nodes per move (one thread per game, so a move is exact).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth per move.
    #[arg(long)]
    pub depth: Option<u32>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed of the openings (a seed and the limits fix the whole file).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where to write the positions.
    #[arg(long)]
    pub out: String,
    /// Random plies of each game's opening (at most 200).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=crate::arena::MAX_OPENING_PLIES as i64))]
    pub plies: u32,
    /// Plies after the opening that are played but not kept.
    #[arg(long, default_value_t = 8)]
    pub skip: u32,
    /// A game this long is a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Hash per game, in MB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Largest gap between static evaluation and quiescence score of a kept position.
    #[arg(long, default_value_t = 60)]
    pub quiet_margin: i32,
}

/// Why data generation stopped.
#[derive(Debug, thiserror::Error)]
pub enum DatagenError {
    /// Options that do not make a run.
    #[error("{0}")]
    Usage(String),
    /// The output file.
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
}

/// What a run made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DatagenSummary {
    /// Games written.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// Of the written games: White wins, Black wins, draws.
    pub wins: [u64; 2],
    /// Draws written.
    pub draws: u64,
}

/// One finished game: its result and the kept positions' lines.
struct Game {
    result: GameResult,
    lines: Vec<String>,
}

impl crate::report::Report for DatagenSummary {
    fn text(&self) -> String {
        format!(
            "{} games (+{} -{} ={}), {} positions\n",
            self.games, self.wins[0], self.wins[1], self.draws, self.positions
        )
    }

    fn to_json(&self) -> serde_json::Value {
        serde_json::json!({
            "games": self.games,
            "positions": self.positions,
            "white_wins": self.wins[0],
            "black_wins": self.wins[1],
            "draws": self.draws,
        })
    }
}

impl DatagenArgs {
    /// Plays the games and writes the file.
    pub fn run(&self, v: &Arc<Variant>) -> Result<DatagenSummary, DatagenError> {
        let limits = match (self.nodes, self.depth) {
            (Some(0), _) | (_, Some(0)) => {
                return Err(DatagenError::Usage(
                    "--nodes and --depth must be at least 1".into(),
                ))
            }
            (None, None) => {
                return Err(DatagenError::Usage(
                    "datagen needs --nodes N or --depth N per move".into(),
                ))
            }
            (nodes, depth) => Limits {
                nodes,
                depth,
                ..Limits::default()
            },
        };
        let target = match (self.games, self.positions) {
            (Some(0), _) | (_, Some(0)) => {
                return Err(DatagenError::Usage(
                    "--games and --positions must be at least 1".into(),
                ))
            }
            (None, None) => {
                return Err(DatagenError::Usage(
                    "datagen needs --games N or --positions N".into(),
                ))
            }
            (g, p) => (g, p),
        };
        if self.skip >= self.max_plies {
            return Err(DatagenError::Usage(format!(
                "--skip {} is not below --max-plies {}: no position could be kept",
                self.skip, self.max_plies
            )));
        }
        if self.quiet_margin < 0 {
            return Err(DatagenError::Usage(format!(
                "--quiet-margin {} is negative: no position could be kept",
                self.quiet_margin
            )));
        }
        if self.threads == 0 || self.hash == 0 {
            return Err(DatagenError::Usage(
                "--threads and --hash must be at least 1".into(),
            ));
        }
        crate::search::smp::check_threads(self.threads)
            .map_err(|e| DatagenError::Usage(e.to_string()))?;
        // Every table is had before the file is touched: a hash that cannot be
        // allocated is refused as `search` refuses it, and leaves the file as it was.
        let engines = (0..self.threads)
            .map(|_| Engine::try_new(1, self.hash))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| DatagenError::Usage(e.to_string()))?;
        let io = |e| DatagenError::Io(self.out.clone(), e);
        let mut out = std::io::BufWriter::new(std::fs::File::create(&self.out).map_err(io)?);
        writeln!(
            out,
            "# tenfold datagen --variant {} --seed {} --plies {} --skip {}{}{}",
            v.name,
            self.seed,
            self.plies,
            self.skip,
            self.nodes
                .map_or(String::new(), |n| format!(" --nodes {n}")),
            self.depth
                .map_or(String::new(), |d| format!(" --depth {d}")),
        )
        .and_then(|_| out.flush())
        .map_err(io)?;
        let bar = progress(target);
        let next = AtomicU64::new(0);
        let done = AtomicBool::new(false);
        let (tx, rx) = mpsc::channel::<(u64, Game)>();
        let mut summary = DatagenSummary::default();
        let started = std::time::Instant::now();
        let written = std::thread::scope(|s| -> Result<(), DatagenError> {
            for mut engine in engines {
                let tx = tx.clone();
                let (next, done, limits) = (&next, &done, limits.clone());
                s.spawn(move || {
                    let eval = Eval::new(v);
                    while !done.load(Ordering::Relaxed) {
                        let g = next.fetch_add(1, Ordering::Relaxed);
                        if target.0.is_some_and(|n| g >= n) {
                            break;
                        }
                        let game = self.play(v, &mut engine, &eval, &limits, g);
                        if tx.send((g, game)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            // Games arrive in any order; they are written in game order.
            let mut pending = BTreeMap::new();
            let mut want = 0u64;
            let mut barren = 0u64;
            for (g, game) in rx {
                pending.insert(g, game);
                while let Some(game) = pending.remove(&want) {
                    want += 1;
                    let mut text = String::new();
                    for l in &game.lines {
                        text.push_str(l);
                        text.push_str(game.result.pgn());
                        text.push('\n');
                    }
                    out.write_all(text.as_bytes())
                        .and_then(|_| out.flush())
                        .map_err(|e| {
                            done.store(true, Ordering::Relaxed);
                            io(e)
                        })?;
                    summary.games += 1;
                    summary.positions += game.lines.len() as u64;
                    barren = if game.lines.is_empty() { barren + 1 } else { 0 };
                    if target.1.is_some() && barren >= BARREN_GAMES {
                        done.store(true, Ordering::Relaxed);
                        return Err(DatagenError::Usage(format!(
                            "{BARREN_GAMES} games in a row kept no position; \
                             --positions would never be reached with these options"
                        )));
                    }
                    match game.result {
                        GameResult::WhiteWins => summary.wins[0] += 1,
                        GameResult::BlackWins => summary.wins[1] += 1,
                        GameResult::Draw => summary.draws += 1,
                    }
                    if let Some(bar) = &bar {
                        let secs = started.elapsed().as_secs_f64().max(1e-3);
                        bar.set_position(if target.1.is_some() {
                            summary.positions
                        } else {
                            summary.games
                        });
                        bar.set_message(format!(
                            "{} games, {:.0} positions/s",
                            summary.games,
                            summary.positions as f64 / secs
                        ));
                    }
                    if target.1.is_some_and(|p| summary.positions >= p) {
                        done.store(true, Ordering::Relaxed);
                        break;
                    }
                }
                if done.load(Ordering::Relaxed) {
                    break;
                }
            }
            done.store(true, Ordering::Relaxed);
            Ok(())
        });
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        written?;
        Ok(summary)
    }

    /// Plays game number `g` from its own opening.
    fn play(
        &self,
        v: &Arc<Variant>,
        engine: &mut Engine,
        eval: &Eval,
        limits: &Limits,
        g: u64,
    ) -> Game {
        let mut rng = Rng::new(self.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ g);
        let fen = random_opening(v, &v.start_fen, self.plies, &mut rng);
        let mut pos = Position::from_fen(v, &fen).unwrap_or_else(|_| Position::startpos(v));
        // Each game on a fresh table: its moves then depend on the game alone.
        engine.clear();
        let mut lines = Vec::new();
        let mut streak = (0i32, 0u32);
        let mut ply = 0u32;
        let result = loop {
            if let Some((r, _)) = pos.game_result() {
                break r;
            }
            if ply >= self.max_plies {
                break GameResult::Draw;
            }
            let r = engine.search(&pos, limits.clone(), Box::new(|_| {}));
            let Some(best) = r.best else {
                break GameResult::Draw;
            };
            let white = if pos.side_to_move() == Color::White {
                r.score
            } else {
                -r.score
            };
            if ply >= self.skip
                && white.abs() < KEEP_SCORE
                && r.score.abs() < MATE_BOUND
                && !pos.in_check()
                && (eval.evaluate(&pos) - quiescence(eval, &mut pos, -30_000, 30_000, 0)).abs()
                    <= self.quiet_margin
            {
                lines.push(format!("{} | {} | ", pos.fen(), white));
            }
            // Both sides agreeing for long enough that one is winning decides the game.
            let side = white.signum();
            if white.abs() >= WIN_SCORE && side == streak.0 {
                streak.1 += 1;
            } else {
                streak = (if white.abs() >= WIN_SCORE { side } else { 0 }, 1);
            }
            if streak.0 != 0 && streak.1 >= WIN_PLIES {
                break if streak.0 > 0 {
                    GameResult::WhiteWins
                } else {
                    GameResult::BlackWins
                };
            }
            pos.make_move(best);
            ply += 1;
        };
        Game { result, lines }
    }
}

/// Captures and gaining promotions only, from the side to move's view, with stand-pat.
fn quiescence(e: &Eval, pos: &mut Position, mut alpha: i32, beta: i32, ply: u32) -> i32 {
    let stand = e.evaluate(pos);
    if stand >= beta || ply >= 8 {
        return stand;
    }
    alpha = alpha.max(stand);
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut moves: Vec<_> = list
        .as_slice()
        .iter()
        .copied()
        .filter(|&m| is_tactical(e, pos, m))
        .map(|m| (captured(pos, m).map_or(0, |t| e.value(t)), m))
        .collect();
    moves.sort_by_key(|&(v, _)| -v);
    for (_, m) in moves {
        pos.make_move(m);
        let score = -quiescence(e, pos, -beta, -alpha, ply + 1);
        pos.unmake_move();
        if score >= beta {
            return score;
        }
        alpha = alpha.max(score);
    }
    alpha
}

fn progress(target: (Option<u64>, Option<u64>)) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let (len, unit) = match target {
        (_, Some(p)) => (p, "positions"),
        (Some(g), None) => (g, "games"),
        _ => return None,
    };
    let bar = ProgressBar::new(len).with_style(
        ProgressStyle::with_template(&format!(
            "{{bar:30}} {{pos}}/{{len}} {unit} {{msg}} ETA {{eta}}"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    Some(bar)
}
