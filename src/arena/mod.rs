//! The arena: engine-vs-engine matches and tournaments refereed by Tenfold's own rules.
//!
//! Every move an engine sends is checked with `Position::parse_move`; the game ends by
//! the game's rules (`game_result`), by a loss for an illegal move, crash, hang or time
//! forfeit, or by optional score adjudication and a length limit.

pub mod config;
pub mod engine;
mod game;
mod openings;
pub mod pgn;
pub mod player;
pub mod report;
pub mod resume;
pub mod slice;
pub mod stats;
mod time_control;

pub use game::play_game;
pub use openings::{
    random_opening, random_opening_moves, read_openings, OpeningsError, MAX_OPENING_PLIES,
};
pub use time_control::{TimeControl, TimeControlError};

use crate::core::shard::{mix, Shard};
use crate::position::notation::GameResult;
use crate::registry::{self, LoadError};
use crate::variant::Variant;
use engine::{UciEngine, XboardEngine};
use pgn::GameRecord;
use player::{Baseline, EngineSpec, Player, PlayerError, Rng};
use stats::{Penta, Sprt, SprtVerdict, Wld};
use std::collections::HashSet;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Independent random streams under one `--seed`: each game pair's opening, each
/// game's two baselines and the book's shuffle draw from their own.
const STREAM_OPENING: u64 = 1;
const STREAM_WHITE: u64 = 2;
const STREAM_BLACK: u64 = 3;
const STREAM_BOOK: u64 = 4;

/// Score adjudication settings.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Adjudication {
    /// Draw when both engines' |score| ≤ `draw_score` for `draw_count` plies each, after
    /// move `draw_after`.
    pub draw: Option<(u32, u32, i32)>,
    /// (`count`, `score`, `twosided`): an engine resigns when its own score is ≤ −`score`
    /// for `count` consecutive moves of its own, as in cutechess-cli; with `twosided`
    /// only when the opponent's last `count` scores agree (≥ `score`).
    pub resign: Option<(u32, i32, bool)>,
    /// Draw after this many full moves.
    pub max_moves: Option<u32>,
}

/// Everything a match needs.
#[derive(Debug)]
pub struct MatchConfig {
    /// Variant name (built-in or loaded).
    pub variant: String,
    /// Players; the first is the gauntlet's champion.
    pub engines: Vec<EngineSpec>,
    /// Default time control for engines that give none.
    pub each: TimeControl,
    /// Opening positions (FEN); empty = generate random balanced ones.
    pub openings: Vec<String>,
    /// Random plies played from each opening before the game.
    pub plies: u32,
    /// Use openings in random order (else in file order).
    pub random_order: bool,
    /// Rounds: each round plays every pairing `games` times.
    pub rounds: u32,
    /// Games per pairing per round (pairs of colour-swapped games, rounded up to even).
    pub games: u32,
    /// Games played at once.
    pub concurrency: usize,
    /// Round robin (every pair) rather than gauntlet (first against the rest).
    pub round_robin: bool,
    /// SPRT for a two-player match.
    pub sprt: Option<Sprt>,
    /// Adjudication.
    pub adjudication: Adjudication,
    /// Extra wall-clock allowance over the clock before a player is declared hung.
    pub margin: Duration,
    /// Seed for openings and the baselines.
    pub seed: u64,
    /// PGN Event tag.
    pub event: String,
    /// Variant files the referee loaded; its Tenfold engines load them too.
    pub variant_files: Vec<String>,
    /// Only these game pairs of the schedule (`--pairs`, `--shard`); None plays all.
    pub pairs: Option<Range<usize>>,
    /// The `--shard I/N` the pairs came from, reported with the results.
    pub shard: Option<Shard>,
}

impl MatchConfig {
    /// How many games the schedule holds (an SPRT may stop the match sooner).
    pub fn total_games(&self) -> usize {
        let n = self.engines.len();
        let pairings = if self.round_robin {
            n * n.saturating_sub(1) / 2
        } else {
            n.saturating_sub(1)
        };
        self.rounds.max(1) as usize * self.games.div_ceil(2).max(1) as usize * 2 * pairings
    }

    /// How many colour-swapped game pairs the whole schedule holds.
    pub fn total_pairs(&self) -> usize {
        self.total_games() / 2
    }

    /// The pairs this run plays: its slice, or the whole schedule.
    pub fn pair_range(&self) -> Range<usize> {
        self.pairs.clone().unwrap_or(0..self.total_pairs())
    }

    /// The pairings (engine indices, first plays White in the pair's first game) in
    /// schedule order.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.engines.len();
        if self.round_robin {
            (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .collect()
        } else {
            (1..n).map(|b| (0, b)).collect()
        }
    }

    /// White and Black of game `number` (1-based; pair k plays games 2k+1 and 2k+2).
    pub fn colours(&self, number: usize) -> Option<(usize, usize)> {
        let pairings = self.pairings();
        let pair = number.checked_sub(1)? / 2;
        let pairs_per_round = self.games.div_ceil(2).max(1) as usize;
        let per_round = pairs_per_round * pairings.len();
        if per_round == 0 || pair >= self.total_pairs() {
            return None;
        }
        let (a, b) = pairings[(pair % per_round) / pairs_per_round];
        Some(if number % 2 == 1 { (a, b) } else { (b, a) })
    }

    /// The order book openings are used in: the file's, or shuffled by `--seed`.
    pub fn book_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.openings.len()).collect();
        if self.random_order {
            let mut rng = Rng::new(mix(self.seed, STREAM_BOOK, 0));
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i + 1));
            }
        }
        order
    }

    /// The opening moves pair `pair`'s games play from `base`, its start position:
    /// `plies` random ones drawn from the pair's own stream, or none.
    pub fn opening_moves(&self, v: &Arc<Variant>, pair: usize, base: &str) -> Vec<String> {
        if self.plies == 0 {
            return Vec::new();
        }
        let mut rng = Rng::new(mix(self.seed, STREAM_OPENING, pair as u64));
        random_opening_moves(v, base, self.plies, &mut rng)
    }

    /// The start position of pair `pair`'s games: opening k of the (shuffled) book,
    /// cycling, or the variant's start.
    pub fn opening_of(&self, pair: usize, order: &[usize], start: &str) -> String {
        match order.len() {
            0 => start.to_string(),
            n => self.openings[order[pair % n]].clone(),
        }
    }
}

/// One game to play.
#[derive(Debug, Clone)]
struct Job {
    index: usize,
    pair: usize,
    white: usize,
    black: usize,
    /// The start position, and the opening's moves from it.
    opening: String,
    opening_moves: Vec<String>,
}

/// The games of a match, made one at a time as players ask for them (a schedule of a
/// hundred million rounds costs nothing until played). Everything about pair k (its
/// players, opening and seeds) is a function of k and `--seed` alone, so any slice of
/// pairs plays exactly the games the whole schedule would.
struct Schedule<'a> {
    cfg: &'a MatchConfig,
    v: Arc<Variant>,
    book: Vec<usize>,
    pairs: Range<usize>,
    /// Games already played (a resumed match), skipped.
    done: HashSet<usize>,
    /// The colour-swapped partner of the last game handed out, when it is still due.
    pending: Option<Job>,
}

impl Schedule<'_> {
    fn next_job(&mut self) -> Option<Job> {
        loop {
            if let Some(j) = self.pending.take() {
                return Some(j);
            }
            let pair = self.pairs.next()?;
            let (first, second) = (2 * pair + 1, 2 * pair + 2);
            let due = [first, second].map(|g| !self.done.contains(&g));
            if due == [false, false] {
                continue;
            }
            let cfg = self.cfg;
            let (a, b) = cfg.colours(first)?;
            let base = cfg.opening_of(pair, &self.book, &self.v.start_fen);
            let moves = cfg.opening_moves(&self.v, pair, &base);
            let job = |index: usize, white: usize, black: usize| Job {
                index,
                pair,
                white,
                black,
                opening: base.clone(),
                opening_moves: moves.clone(),
            };
            let (j1, j2) = (job(first, a, b), job(second, b, a));
            match due {
                [true, true] => {
                    self.pending = Some(j2);
                    return Some(j1);
                }
                [true, false] => return Some(j1),
                _ => return Some(j2),
            }
        }
    }
}

/// A finished game with who played it.
#[derive(Debug, Clone)]
pub struct Finished {
    /// Game number (1-based, in schedule order).
    pub number: usize,
    /// Pair number (colour-swapped partner games share it).
    pub pair: usize,
    /// Index of White in the engine list.
    pub white: usize,
    /// Index of Black.
    pub black: usize,
    /// The record.
    pub record: GameRecord,
}

/// Results of a match.
#[derive(Debug)]
pub struct MatchResult {
    /// Every game, in order of completion.
    pub games: Vec<Finished>,
    /// Engine names.
    pub names: Vec<String>,
    /// SPRT verdict, if one was asked for.
    pub sprt: Option<(f64, SprtVerdict)>,
    /// For a slice of a match (`--shard`, `--pairs`): what `tenfold merge` needs.
    pub slice: Option<slice::SliceInfo>,
}

impl MatchResult {
    /// Results of the first engine against all the others together (what the progress
    /// line and the match plot follow).
    pub fn first_vs_rest(&self) -> Wld {
        let mut w = Wld::default();
        for b in 1..self.names.len() {
            let x = self.wld(0, b);
            w.wins += x.wins;
            w.losses += x.losses;
            w.draws += x.draws;
        }
        w
    }

    /// Results of engine `a` against engine `b`, from `a`'s side.
    pub fn wld(&self, a: usize, b: usize) -> Wld {
        let mut w = Wld::default();
        for g in &self.games {
            let (me_white, other) = if g.white == a {
                (true, g.black)
            } else if g.black == a {
                (false, g.white)
            } else {
                continue;
            };
            if other != b {
                continue;
            }
            match (g.record.result, me_white) {
                (Some(GameResult::WhiteWins), true) | (Some(GameResult::BlackWins), false) => {
                    w.wins += 1
                }
                (Some(GameResult::WhiteWins), false) | (Some(GameResult::BlackWins), true) => {
                    w.losses += 1
                }
                _ => w.draws += 1,
            }
        }
        w
    }

    /// Pentanomial counts of `a` against `b` over completed colour-swapped pairs.
    pub fn penta(&self, a: usize, b: usize) -> Penta {
        let mut by_pair: std::collections::BTreeMap<usize, Vec<f64>> = Default::default();
        for g in &self.games {
            if !((g.white == a && g.black == b) || (g.white == b && g.black == a)) {
                continue;
            }
            let score = match (g.record.result, g.white == a) {
                (Some(GameResult::WhiteWins), true) | (Some(GameResult::BlackWins), false) => 1.0,
                (Some(GameResult::WhiteWins), false) | (Some(GameResult::BlackWins), true) => 0.0,
                _ => 0.5,
            };
            by_pair.entry(g.pair).or_default().push(score);
        }
        let mut p = Penta::default();
        for v in by_pair.values().filter(|v| v.len() == 2) {
            p.add(v[0], v[1]);
        }
        p
    }
}

/// Builds the player an engine spec describes.
pub fn make_player(spec: &EngineSpec, seed: u64, variant_files: &[String]) -> Box<dyn Player> {
    match (&spec.cmd, spec.player.as_str()) {
        (Some(cmd), _) if spec.proto == "xboard" => {
            Box::new(XboardEngine::new(&spec.name, cmd, &spec.args))
        }
        (Some(cmd), _) => Box::new(UciEngine::new(&spec.name, cmd, &spec.args, &spec.options)),
        (None, "random") => Box::new(Baseline::random(&spec.name, seed)),
        (None, "greedy") => Box::new(Baseline::greedy(&spec.name, seed)),
        (None, _) => {
            // A Tenfold configuration: this very binary in UCI mode.
            let exe = std::env::current_exe()
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_else(|_| "tenfold".into());
            // It must know the referee's loaded games before it is told the variant.
            let mut options: Vec<(String, String)> = variant_files
                .iter()
                .map(|f| ("VariantPath".to_string(), f.clone()))
                .collect();
            options.extend(spec.options.iter().cloned());
            Box::new(UciEngine::new(
                &spec.name,
                &exe,
                &["uci".to_string()],
                &options,
            ))
        }
    }
}

/// Why a match could not start.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The variant cannot be had.
    #[error(transparent)]
    Variant(#[from] LoadError),
    /// Fewer than two players.
    #[error("a match needs at least two --engine")]
    TooFewEngines,
    /// An SPRT asked of a match of more than two players, which it cannot judge.
    #[error("--sprt needs exactly two engines, not {0}")]
    SprtNeedsTwo(usize),
    /// Two players share a name, which would make the results ambiguous.
    #[error("engine names must be unique (use name=…)")]
    DuplicateNames,
    /// A player's own time control keys are refused.
    #[error("engine {engine}: {source}")]
    TimeControl {
        /// The player's name.
        engine: String,
        /// Why its keys were refused.
        source: TimeControlError,
    },
    /// A searching player with nothing to stop its search.
    #[error("engine {0} has no time control (give --each tc=… or st=, depth=, nodes=)")]
    NoTimeControl(String),
    /// A player that could not be started and readied for the game before any game:
    /// every game would otherwise be its forfeit.
    #[error("engine {engine}: {source}")]
    Start {
        /// The player's name.
        engine: String,
        /// What went wrong (not found, no handshake, the variant refused…).
        source: PlayerError,
    },
}

/// Plays a whole match; `on_game` is called after each game (for progress output).
pub fn run_match(
    cfg: &MatchConfig,
    on_game: &(dyn Fn(&Finished, &MatchResult) + Sync),
) -> Result<MatchResult, MatchError> {
    run_match_from(cfg, Vec::new(), on_game)
}

/// Checks the players of a match and gives each its time control.
pub(super) fn time_controls(cfg: &MatchConfig) -> Result<Vec<TimeControl>, MatchError> {
    if cfg.engines.len() < 2 {
        return Err(MatchError::TooFewEngines);
    }
    // Refused rather than dropped: a run meant to stop at a verdict would play its whole
    // schedule without one.
    if cfg.sprt.is_some() && cfg.engines.len() != 2 {
        return Err(MatchError::SprtNeedsTwo(cfg.engines.len()));
    }
    let mut names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
    names.sort();
    names.dedup();
    if names.len() != cfg.engines.len() {
        return Err(MatchError::DuplicateNames);
    }
    let mut tcs = Vec::new();
    for e in &cfg.engines {
        let mut tc = cfg.each;
        for (k, val) in &e.tc {
            tc.apply(k, val).map_err(|source| MatchError::TimeControl {
                engine: e.name.clone(),
                source,
            })?;
        }
        if tc.is_unlimited() && e.cmd.is_some() || tc.is_unlimited() && e.player == "tenfold" {
            return Err(MatchError::NoTimeControl(e.name.clone()));
        }
        tcs.push(tc);
    }
    Ok(tcs)
}

/// Starts each player once and readies it for a game of the match's variant, as
/// cutechess-cli stops at an engine it cannot start: a wrong path, a protocol the program
/// does not speak, a variant it does not know or a limit it cannot take is one error
/// before any game, not a forfeit in every game. An engine that starts and later
/// crashes still loses its game.
fn preflight(cfg: &MatchConfig, tcs: &[TimeControl], start_fen: &str) -> Result<(), MatchError> {
    std::thread::scope(|s| {
        let checks: Vec<_> = cfg
            .engines
            .iter()
            .zip(tcs)
            .map(|(e, tc)| {
                s.spawn(move || {
                    let mut p = make_player(e, cfg.seed, &cfg.variant_files);
                    // A limit the engine cannot take (an XBoard engine without nps under
                    // nodes=) would forfeit every game: it is refused here instead.
                    let limit = player::Limit {
                        nodes: tc.nodes,
                        ..Default::default()
                    };
                    let r = p
                        .new_game(&cfg.variant, start_fen)
                        .and_then(|()| p.check_limit(&limit));
                    p.quit();
                    r.map_err(|source| MatchError::Start {
                        engine: e.name.clone(),
                        source,
                    })
                })
            })
            .collect();
        checks
            .into_iter()
            .try_for_each(|h| h.join().unwrap_or(Ok(())))
    })
}

/// Plays the games of a match not among `done` (games of an interrupted run, read back
/// by [`resume::load`]); the result counts both. A slice of a match (`cfg.pairs`) plays
/// all its pairs: its SPRT is judged when the slices are merged.
pub fn run_match_from(
    cfg: &MatchConfig,
    done: Vec<Finished>,
    on_game: &(dyn Fn(&Finished, &MatchResult) + Sync),
) -> Result<MatchResult, MatchError> {
    let v = registry::get(&cfg.variant)?;
    let tcs = time_controls(cfg)?;
    let checked = preflight(cfg, &tcs, &v.start_fen);
    engine::await_signal_exit();
    checked?;
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let sliced = cfg.pairs.is_some();
    let played: HashSet<usize> = done.iter().map(|g| g.number).collect();
    let mut first = MatchResult {
        games: done,
        names: names.clone(),
        sprt: None,
        slice: sliced.then(|| slice::SliceInfo::of(cfg)),
    };
    let sprt_of = |r: &mut MatchResult| -> bool {
        if let (Some(sprt), 2) = (&cfg.sprt, names.len()) {
            let p = r.penta(0, 1);
            let before = r.sprt.map_or(SprtVerdict::Continue, |(_, v)| v);
            let verdict = sprt.judge(&p, before);
            r.sprt = Some((sprt.llr(&p), verdict));
            return verdict != SprtVerdict::Continue && !sliced;
        }
        false
    };
    let decided = sprt_of(&mut first);
    let queue = Mutex::new(Schedule {
        cfg,
        v: v.clone(),
        book: cfg.book_order(),
        pairs: cfg.pair_range(),
        done: played,
        pending: None,
    });
    let stop = AtomicBool::new(decided);
    let result = Mutex::new(first);
    std::thread::scope(|s| {
        for _ in 0..cfg.concurrency.max(1) {
            s.spawn(|| loop {
                // After a signal no new game starts: its engines would outlive the exit.
                if stop.load(Ordering::Relaxed) || engine::stopping() {
                    break;
                }
                let Some(job) = queue.lock().unwrap_or_else(|e| e.into_inner()).next_job() else {
                    break;
                };
                let g = job.index as u64;
                let mut w = make_player(
                    &cfg.engines[job.white],
                    mix(cfg.seed, STREAM_WHITE, g),
                    &cfg.variant_files,
                );
                let mut b = make_player(
                    &cfg.engines[job.black],
                    mix(cfg.seed, STREAM_BLACK, g),
                    &cfg.variant_files,
                );
                let mut record = play_game(
                    &v,
                    &job.opening,
                    &job.opening_moves,
                    [w.as_mut(), b.as_mut()],
                    [tcs[job.white], tcs[job.black]],
                    &cfg.adjudication,
                    cfg.margin,
                );
                // A game cut short by a signal's kill of its engines was not played out:
                // recording it would hand the killed engine a loss that `--resume` keeps
                // (the referee exits as soon as the engines are dead).
                if engine::stopping() {
                    return;
                }
                // cutechess-cli numbers each game as its own round.
                record.round = job.index.to_string();
                let fin = Finished {
                    number: job.index,
                    pair: job.pair,
                    white: job.white,
                    black: job.black,
                    record,
                };
                let mut r = result.lock().unwrap_or_else(|e| e.into_inner());
                r.games.push(fin.clone());
                if sprt_of(&mut r) {
                    stop.store(true, Ordering::Relaxed);
                }
                on_game(&fin, &r);
            });
        }
    });
    engine::await_signal_exit();
    Ok(result.into_inner().unwrap_or_else(|e| e.into_inner()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_beats_random_in_a_small_match() {
        let cfg = MatchConfig {
            variant: "chess".into(),
            engines: vec![
                EngineSpec::parse("name=G,player=greedy").unwrap(),
                EngineSpec::parse("name=R,player=random").unwrap(),
            ],
            each: TimeControl::default(),
            openings: vec![],
            plies: 4,
            random_order: false,
            rounds: 1,
            games: 20,
            concurrency: 2,
            round_robin: false,
            sprt: None,
            adjudication: Adjudication {
                max_moves: Some(150),
                ..Default::default()
            },
            margin: Duration::from_millis(50),
            seed: 3,
            event: "test".into(),
            variant_files: vec![],
            pairs: None,
            shard: None,
        };
        let r = run_match(&cfg, &|_, _| {}).unwrap();
        assert_eq!(r.games.len(), 20);
        let w = r.wld(0, 1);
        assert!(w.wins > w.losses, "{w:?}");
        // Every game replays under the rules.
        for g in &r.games {
            let text = g.record.to_pgn("t");
            let parsed = &pgn::parse_pgn(&text).unwrap()[0];
            assert_eq!(
                pgn::check_game(parsed, &crate::registry::get(&cfg.variant).unwrap()).unwrap(),
                g.record.moves.len()
            );
        }
        assert_eq!(r.penta(0, 1).pairs(), 10);
    }

    fn config(n: usize, round_robin: bool, rounds: u32, games: u32) -> MatchConfig {
        MatchConfig {
            variant: "chess".into(),
            engines: (0..n)
                .map(|i| EngineSpec::parse(&format!("name=E{i},player=random")).unwrap())
                .collect(),
            each: TimeControl::default(),
            openings: vec![],
            plies: 0,
            random_order: false,
            rounds,
            games,
            concurrency: 1,
            round_robin,
            sprt: None,
            adjudication: Adjudication::default(),
            margin: Duration::ZERO,
            seed: 1,
            event: String::new(),
            variant_files: vec![],
            pairs: None,
            shard: None,
        }
    }

    #[test]
    fn total_games_counts_pairings_rounds_and_colour_pairs() {
        assert_eq!(config(2, false, 1, 2).total_games(), 2);
        assert_eq!(config(4, false, 1, 2).total_games(), 6);
        assert_eq!(config(4, true, 1, 2).total_games(), 12);
        // Odd game counts round up to whole colour-swapped pairs; zero rounds play one.
        assert_eq!(config(2, false, 3, 3).total_games(), 12);
        assert_eq!(config(2, false, 0, 0).total_games(), 2);
        assert_eq!(config(1, true, 1, 2).total_games(), 0);
    }

    #[test]
    fn match_errors_keep_their_messages() {
        let mut one = config(1, false, 1, 2);
        assert_eq!(
            run_match(&one, &|_, _| {}).unwrap_err().to_string(),
            "a match needs at least two --engine"
        );
        one.engines.push(one.engines[0].clone());
        assert!(matches!(
            run_match(&one, &|_, _| {}),
            Err(MatchError::DuplicateNames)
        ));
        let mut c = config(2, false, 1, 2);
        c.engines[1] = EngineSpec::parse("name=T,depth=x").unwrap();
        assert_eq!(
            run_match(&c, &|_, _| {}).unwrap_err().to_string(),
            "engine T: depth: \"x\" is not a number"
        );
        c.engines[1] = EngineSpec::parse("name=T").unwrap();
        assert_eq!(
            run_match(&c, &|_, _| {}).unwrap_err().to_string(),
            "engine T has no time control (give --each tc=… or st=, depth=, nodes=)"
        );
    }
}
