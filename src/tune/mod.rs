//! `tenfold tune`: fits every evaluation weight of a game to self-play results
//! (`tenfold datagen` files) by the Texel method (`fit.rs`) and writes them as the
//! table's `[eval]` section, so a tuned game is still one TOML file.

pub mod fit;

use crate::eval::trace::{Offsets, Tracer};
use crate::eval::{Eval, Weights};
use crate::position::Position;
use crate::registry;
use crate::variant::Variant;
use fit::{Epoch, FitOptions, Sample};
use serde_json::json;
use std::sync::Arc;

/// `tenfold tune` options.
#[derive(clap::Args, Clone, Debug)]
pub struct TuneArgs {
    /// Data files (`FEN | score | result` per line, `#` comments), read in order.
    #[arg(long = "data", required = true, num_args = 1..)]
    pub data: Vec<String>,
    /// Passes over the data at most.
    #[arg(long, default_value_t = 100)]
    pub epochs: usize,
    /// Adam step, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub lr: f64,
    /// Positions per Adam step.
    #[arg(long, default_value_t = 4096)]
    pub batch: usize,
    /// Pull toward the starting weights (times their squared distance, added to the loss).
    #[arg(long, default_value_t = 1e-8)]
    pub reg: f64,
    /// Every Nth block of 256 positions (whole games, mostly) is held out to judge the
    /// fit (0: none held out). Positions of one game are alike: holding out single
    /// positions would judge the fit on games it has seen.
    #[arg(long, default_value_t = 10)]
    pub holdout: usize,
    /// Weight groups held at their starting values, comma separated: material, hand,
    /// mobility (with `mobility_low`), pst, passed, danger, scalars (tempo, shelter,
    /// pawn shape, threats with `threatened`), checks (`royal_check`), distance
    /// (`royal_distance`), threatened (the
    /// per-type threat weights alone), or one scalar term by its `[eval]` name (`tempo`,
    /// `space`, …).
    #[arg(long, value_delimiter = ',')]
    pub freeze: Vec<String>,
    /// Stop after this many epochs without a better held-out loss.
    #[arg(long, default_value_t = 8)]
    pub patience: usize,
    /// Use this K instead of fitting it.
    #[arg(long)]
    pub k: Option<f64>,
    /// Share of the game result in a training position's target; the rest is the
    /// expected score of the search's own score, `σ(K·score/400)` (1: results alone, the
    /// plain Texel method). A game's result is one label for every position of it, so
    /// with few games the search score is the steadier signal; held-out positions are
    /// judged against results alone unless `--judge-by-target`.
    #[arg(long, default_value_t = 1.0)]
    pub lambda: f64,
    /// The K that turns a data score into an expected result for `--lambda`: a number,
    /// or `fit` to fit it to the results (for scores from another engine, `tenfold
    /// label`, whose scale is its own). By default the evaluation's K.
    #[arg(long)]
    pub score_k: Option<String>,
    /// Judge the held-out positions against the same mix of score and result as the
    /// training ones, not results alone: for scores from another engine, whose judgement
    /// is what the fit is to learn, not how Tenfold's own games ended.
    #[arg(long)]
    pub judge_by_target: bool,
    /// Threads computing the loss and its gradient.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed of the batch order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the `[eval]` section to this file.
    #[arg(long)]
    pub out: Option<String>,
    /// Write the `[eval]` section into this table file, replacing any it has (the table
    /// must load with it before the file is touched).
    #[arg(long)]
    pub into: Option<String>,
}

/// Why tuning stopped.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// Options that do not make a run.
    #[error("{0}")]
    Usage(String),
    /// A file that cannot be read or written.
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    /// A data line that is not `FEN | score | result` in the game.
    #[error("{file}:{line}: {msg}")]
    Data {
        /// The file.
        file: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        msg: String,
    },
    /// A data file that cannot be read.
    #[error("{0}: {1}")]
    Read(String, crate::core::input::ReadError),
    /// The tuned table does not load (it names the table's error).
    #[error("{0}")]
    Table(String),
}

/// What a run reports as it goes.
pub enum Progress<'a> {
    /// Positions read: training, held out.
    Read(usize, usize),
    /// The fitted scale and the loss before tuning (training, held out).
    K(f64, f64, f64),
    /// One epoch.
    Epoch(Epoch),
    /// The weights that moved most, by name and (before, after).
    Moved(&'a [(String, i32, i32)]),
    /// The scale fitted to the data's scores (`--score-k fit`).
    ScoreK(f64),
}

impl Progress<'_> {
    /// The progress as the lines `tenfold tune` prints (no final newline).
    pub fn text(&self) -> String {
        match self {
            Progress::Read(t, h) => format!("{t} positions to train on, {h} held out"),
            Progress::K(k, t, h) => {
                format!(
                    "K {k:.4}  loss before: train {t:.6}  held-out {}",
                    loss_text(*h)
                )
            }
            Progress::Epoch(e) => epoch_line(e),
            Progress::ScoreK(k) => format!("score K {k:.4} (the data's scores against results)"),
            Progress::Moved(m) => m
                .iter()
                .map(|(n, a, b)| format!("  {n}: {a} -> {b}"))
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }
}

/// What a tune did, as `tenfold tune` sums it up once done.
#[derive(Clone, Debug)]
pub struct TuneSummary {
    /// Positions trained on.
    pub train: usize,
    /// Positions held out to judge the epochs.
    pub held_out: usize,
    /// The scale of the fit.
    pub k: f64,
    /// The scale fitted to the data's scores (`--score-k fit`).
    pub score_k: Option<f64>,
    /// The starting weights' loss on the training and held-out positions.
    pub before: (f64, f64),
    /// Every epoch run, in order.
    pub epochs: Vec<Epoch>,
    /// The epoch whose weights were kept (0: none beat the starting weights).
    pub best: usize,
    /// The weights that moved most: name, before, after.
    pub moved: Vec<(String, i32, i32)>,
    /// The file the `[eval]` section was written to (`--out`).
    pub out: Option<String>,
    /// The table file the section was written into (`--into`).
    pub into: Option<String>,
    /// The tuned weights.
    pub weights: Weights,
}

impl crate::report::Report for TuneSummary {
    /// One line after the progress: the epoch kept and where its weights went.
    fn text(&self) -> String {
        let kept = self.best.checked_sub(1).and_then(|i| self.epochs.get(i));
        let mut s = match kept {
            Some(e) => format!("kept epoch {} (held-out {:.6})", e.n, e.validation),
            None => "kept the starting weights (no epoch did better)".to_string(),
        };
        for (how, file) in [("written to", &self.out), ("written into", &self.into)] {
            if let Some(f) = file {
                s += &format!("; {how} {f}");
            }
        }
        s + "\n"
    }

    /// `{"train_positions", "held_out_positions", "k", "score_k", "loss_before":
    /// {"train", "held_out"}, "epochs": [{"epoch", "train", "held_out"}], "best_epoch",
    /// "moved": [{"name", "before", "after"}], "out", "into"}`.
    fn to_json(&self) -> serde_json::Value {
        let epochs: Vec<_> = self
            .epochs
            .iter()
            .map(|e| json!({"epoch": e.n, "train": e.train, "held_out": e.validation}))
            .collect();
        let moved: Vec<_> = self
            .moved
            .iter()
            .map(|(n, a, b)| json!({"name": n, "before": a, "after": b}))
            .collect();
        json!({
            "train_positions": self.train,
            "held_out_positions": self.held_out,
            "k": self.k,
            "score_k": self.score_k,
            "loss_before": {"train": self.before.0, "held_out": self.before.1},
            "epochs": epochs,
            "best_epoch": self.best,
            "moved": moved,
            "out": self.out,
            "into": self.into,
        })
    }
}

/// A `--score-k` number: above 0.
fn score_k(x: &str) -> Result<f64, TuneError> {
    x.parse()
        .ok()
        .filter(|k: &f64| *k > 0.0 && k.is_finite())
        .ok_or_else(|| TuneError::Usage(format!("--score-k must be `fit` or above 0, not {x:?}")))
}

/// Reads the result token of a data line: `1-0`, `0-1`, `1/2-1/2`, or `1`, `0.5`, `0`.
fn parse_result(s: &str) -> Option<f32> {
    match s {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => s.parse::<f32>().ok().filter(|x| (0.0..=1.0).contains(x)),
    }
}

/// Reads one data file's positions of game `v`: each with its score (centipawns, White's
/// view) and its game's result for White.
pub fn read_data(v: &Arc<Variant>, path: &str) -> Result<Vec<(Position, i32, f32)>, TuneError> {
    // A data file is big by nature: a million positions is about 100 MB.
    let text = crate::core::input::read_text(path, 1 << 30)
        .map_err(|e| TuneError::Read(path.to_string(), e))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        let bad = |msg: String| TuneError::Data {
            file: path.to_string(),
            line: i + 1,
            msg,
        };
        // The header `datagen` writes names the game: another game's positions may
        // well fit this board and letters, and would be fitted as if they were its own.
        if let Some(made) = line
            .strip_prefix("# tenfold datagen --variant ")
            .and_then(|rest| rest.split_whitespace().next())
        {
            if !made.eq_ignore_ascii_case(&v.name) {
                return Err(bad(format!(
                    "the data was made for {made}, not for {}",
                    v.name
                )));
            }
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.split('|').map(str::trim).collect();
        let [fen, score, result] = parts[..] else {
            return Err(bad(format!(
                "expected `FEN | score | result`, found {} field(s)",
                parts.len()
            )));
        };
        let score = score
            .parse::<i32>()
            .map_err(|_| bad(format!("score {score:?} is not a whole number")))?;
        let result = parse_result(result).ok_or_else(|| {
            bad(format!(
                "result {result:?} is not 1-0, 0-1, 1/2-1/2 or a number from 0 to 1"
            ))
        })?;
        let pos = Position::from_fen(v, fen).map_err(|e| bad(e.to_string()))?;
        out.push((pos, score, result));
    }
    Ok(out)
}

impl TuneArgs {
    /// Reads the data, fits the weights of `v`, writes them; returns what it did.
    pub fn run(
        &self,
        v: &Arc<Variant>,
        mut report: impl FnMut(Progress),
    ) -> Result<TuneSummary, TuneError> {
        if self.threads == 0 || self.batch == 0 || self.epochs == 0 {
            return Err(TuneError::Usage(
                "--threads, --batch and --epochs must be at least 1".into(),
            ));
        }
        let positive = |x: f64| x > 0.0 && x.is_finite();
        if !positive(self.lr)
            || !(positive(self.reg) || self.reg == 0.0)
            || self.k.is_some_and(|k| !positive(k))
        {
            return Err(TuneError::Usage(
                "--lr and --k must be positive, --reg not negative".into(),
            ));
        }
        if let Some(x) = self.score_k.as_deref().filter(|&x| x != "fit") {
            score_k(x)?;
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return Err(TuneError::Usage(format!(
                "--lambda must be from 0 to 1, not {}",
                self.lambda
            )));
        }
        crate::search::smp::check_threads(self.threads)
            .map_err(|e| TuneError::Usage(e.to_string()))?;
        // Refuse before the long part, not after it.
        if let Some(table) = &self.into {
            check_into(table, &v.name)?;
        }
        if let Some(path) = &self.out {
            let dir = std::path::Path::new(path)
                .parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(std::path::Path::new("."));
            if !dir.is_dir() {
                return Err(TuneError::Usage(format!(
                    "--out {path}: no directory {}",
                    dir.display()
                )));
            }
        }
        let eval = Eval::new(v);
        let start_w = eval.weights().clone();
        let o = Offsets::of(&start_w.layout);
        // An unknown --freeze group is refused before the data are read and fitted.
        let trainable = frozen_mask(&self.freeze, &start_w.layout, &o)?;
        let mut tracer = Tracer::new(&eval);
        let (mut train, mut held) = (Vec::new(), Vec::new());
        // The search scores of the training and held-out positions, for `--lambda`.
        let (mut scores, mut held_scores) = (Vec::new(), Vec::new());
        let mut n = 0usize;
        for path in &self.data {
            for (pos, score, result) in read_data(v, path)? {
                let s = Sample {
                    trace: tracer.trace(&pos),
                    result,
                };
                n += 1;
                if self.holdout > 0 && (n / 256 + 1).is_multiple_of(self.holdout) {
                    held.push(s);
                    held_scores.push(score);
                } else {
                    train.push(s);
                    scores.push(score);
                }
            }
        }
        if train.is_empty() {
            return Err(TuneError::Usage(
                "no positions to tune on in the data".into(),
            ));
        }
        report(Progress::Read(train.len(), held.len()));
        let start = start_w.to_vec();
        let k = match self.k {
            Some(k) => k,
            None => fit::fit_k(&train, &start, &o, self.threads),
        };
        let mut fitted_score_k = None;
        // K is fitted on results alone; only then can a score become an expected result.
        if self.lambda < 1.0 {
            let k = match self.score_k.as_deref() {
                None => k,
                Some("fit") => {
                    let ks = fit::fit_score_k(&train, &scores);
                    report(Progress::ScoreK(ks));
                    fitted_score_k = Some(ks);
                    ks
                }
                Some(x) => score_k(x)?,
            };
            let mix = |s: &mut Sample, score: i32| {
                s.result = (self.lambda * s.result as f64
                    + (1.0 - self.lambda) * fit::expected(k, score as f64))
                    as f32;
            };
            train.iter_mut().zip(&scores).for_each(|(s, &e)| mix(s, e));
            if self.judge_by_target {
                held.iter_mut()
                    .zip(&held_scores)
                    .for_each(|(s, &e)| mix(s, e));
            }
        }
        // With nothing held out there is no held-out loss to show (NaN: `-` in the text,
        // null in the JSON); it showed 0, then the training loss that judged the epochs.
        let held_loss = |p: &[f64]| match held.is_empty() {
            true => f64::NAN,
            false => fit::loss(&held, p, &o, k, self.threads),
        };
        let before = (
            fit::loss(&train, &start, &o, k, self.threads),
            held_loss(&start),
        );
        report(Progress::K(k, before.0, before.1));
        let opt = FitOptions {
            epochs: self.epochs,
            lr: self.lr,
            batch: self.batch,
            reg: self.reg,
            patience: if held.is_empty() {
                usize::MAX
            } else {
                self.patience
            },
            threads: self.threads,
            seed: self.seed,
            trainable,
        };
        // Without held-out positions the training loss judges the epochs.
        let judge = if held.is_empty() { &train } else { &held };
        let mut epochs = Vec::new();
        let (best, best_epoch) = fit::adam(&train, judge, &start, &o, k, &opt, |mut e| {
            if held.is_empty() {
                e.validation = f64::NAN;
            }
            epochs.push(e);
            report(Progress::Epoch(e))
        });
        let tuned = start_w.from_vec(&best);
        let mut moved: Vec<(String, i32, i32)> = (0..start_w.layout.features())
            .flat_map(|f| {
                let name = start_w.feature_name(v, f);
                [
                    (format!("{name}.mg"), start_w.mg[f], tuned.mg[f]),
                    (format!("{name}.eg"), start_w.eg[f], tuned.eg[f]),
                ]
            })
            .filter(|(_, a, b)| a != b)
            .collect();
        moved.sort_by_key(|(_, a, b)| -(a - b).abs());
        moved.truncate(12);
        report(Progress::Moved(&moved));
        let section = tuned.to_toml(v);
        if let Some(path) = &self.out {
            std::fs::write(path, &section).map_err(|e| TuneError::Io(path.clone(), e))?;
        }
        if let Some(path) = &self.into {
            let text = read_table(path)?;
            let new = with_eval_section(&text, &section);
            registry::load_text(&new, path).map_err(|e| TuneError::Table(e.to_string()))?;
            std::fs::write(path, new).map_err(|e| TuneError::Io(path.clone(), e))?;
        }
        Ok(TuneSummary {
            train: train.len(),
            held_out: held.len(),
            k,
            score_k: fitted_score_k,
            before,
            epochs,
            best: best_epoch,
            moved,
            out: self.out.clone(),
            into: self.into.clone(),
            weights: tuned,
        })
    }
}

/// Per weight of the vector, whether it may move, from the `--freeze` groups.
fn frozen_mask(
    groups: &[String],
    l: &crate::eval::Layout,
    o: &Offsets,
) -> Result<Vec<bool>, TuneError> {
    let mut mask = vec![true; o.len()];
    for g in groups {
        let features: Vec<usize> = match g.trim() {
            "material" => (0..l.types).map(|t| l.material(t)).collect(),
            "hand" => (0..l.types).map(|t| l.hand(t)).collect(),
            "mobility" => (0..l.types)
                .flat_map(|t| [l.mobility(t), l.mobility_low(t)])
                .collect(),
            "pst" => (l.pst(0, 0)..l.passed(0)).collect(),
            "passed" => (l.passed(0)..l.scalar(0)).collect(),
            // The per-type threat weights refine `threat_cheaper`: they go with it.
            "scalars" => (l.scalar(0)..l.mobility_low(0)).collect(),
            "checks" => (0..l.types).map(|t| l.royal_check(t)).collect(),
            "distance" => (0..l.types).map(|t| l.royal_distance(t)).collect(),
            "threatened" => (0..l.types).map(|t| l.threatened(t)).collect(),
            "danger" => {
                mask[o.attack(0)..].iter_mut().for_each(|m| *m = false);
                Vec::new()
            }
            // One scalar term by its name in the table (`tempo`, `space`, …).
            other => match crate::eval::weights::SCALARS.iter().position(|&n| n == other) {
                Some(k) => vec![l.scalar(k)],
                None => {
                    return Err(TuneError::Usage(format!(
                        "--freeze: unknown group {other:?} (material, hand, mobility, pst, passed, danger, scalars, checks, distance, threatened, or a scalar term's name)"
                    )))
                }
            },
        };
        for f in features {
            mask[f] = false;
            mask[o.eg(f)] = false;
        }
    }
    Ok(mask)
}

/// The text of the table at `path`, read as `--variant-file` reads one (size cap, byte
/// order mark dropped).
fn read_table(path: &str) -> Result<String, TuneError> {
    crate::core::input::read_text(path, crate::core::input::MAX_TABLE_BYTES).map_err(|e| match e {
        crate::core::input::ReadError::Io(io) => TuneError::Io(path.into(), io),
        other => TuneError::Table(format!("{path}: {other}")),
    })
}

/// Refuses an `--into` table that cannot be read or is another game's: the weights fit
/// `variant`'s pieces, so the table must be `variant` or a table extending it.
fn check_into(table: &str, variant: &str) -> Result<(), TuneError> {
    let text = read_table(table)?;
    let t: toml::Table =
        toml::from_str(&text).map_err(|e| TuneError::Table(format!("{table}: {}", e.message())))?;
    let key = |k: &str| t.get(k).and_then(toml::Value::as_str);
    if key("name") == Some(variant) || key("extends") == Some(variant) {
        return Ok(());
    }
    Err(TuneError::Usage(format!(
        "--into {table}: the table is {}, not {variant} (the variant tuned) or a table extending it",
        key("name").unwrap_or("unnamed")
    )))
}

/// `table` with its `[eval]` and `[eval.*]` sections replaced by `section` (appended).
pub fn with_eval_section(table: &str, section: &str) -> String {
    let mut out = String::new();
    let mut in_eval = false;
    // Open brackets of a value running over several lines: a row of a written square
    // table (`  [ 1, 2, …],`) starts with `[` but is no section header.
    let mut depth = 0usize;
    for line in table.lines() {
        let head = line.trim_start();
        if depth == 0 && head.starts_with('[') {
            let name = head
                .trim_start_matches('[')
                .split(']')
                .next()
                .unwrap_or("")
                .trim();
            in_eval = name == "eval" || name.starts_with("eval.");
        } else {
            depth = open_brackets_after(line, depth);
        }
        if !in_eval {
            out.push_str(line);
            out.push('\n');
        }
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    out.push('\n');
    out.push_str(section);
    out
}

/// The brackets still open after a TOML value line, given those open before it
/// (brackets in strings and comments do not count).
fn open_brackets_after(line: &str, mut depth: usize) -> usize {
    let mut quote: Option<char> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            // A basic string's escape (`\"`) does not end it.
            (Some('"'), '\\') => {
                chars.next();
            }
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '#') => break,
            (None, '[') => depth += 1,
            (None, ']') => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    depth
}

/// The result of a tune as a string of its epochs, for tests and logs.
pub fn epoch_line(e: &Epoch) -> String {
    format!(
        "epoch {:3}  train {:.6}  held-out {}",
        e.n,
        e.train,
        loss_text(e.validation)
    )
}

/// A loss to six places, or `-` for none (NaN: no positions held out).
fn loss_text(l: f64) -> String {
    if l.is_nan() {
        "-".into()
    } else {
        format!("{l:.6}")
    }
}
