//! `tenfold merge FILE…`: adds up the slices of a sharded perft or match (the JSON of
//! `perft --shard` or `match --shard`/`--pairs`) into exactly what the unsharded command
//! prints, after checking that the slices are of one configuration, and that together
//! they cover the work once: a missing, duplicated or unfinished slice is named.

use crate::arena::slice::{self, MatchSlice};
use crate::arena::stats::Sprt;
use crate::arena::{Finished, MatchResult};
use crate::core::input::{read_text, ReadError, MAX_LIST_BYTES};
use crate::core::shard::Shard;
use crate::diagram::{write_svg, DiagramError, MatchPlot};
use crate::perft::shard::{combine, PerftShard, PerftShardError};
use crate::perft::Count;
use crate::report::Report;
use serde_json::Value;
use std::ops::Range;

/// The options of `tenfold merge`.
#[derive(clap::Args, Debug, Clone)]
pub struct MergeArgs {
    /// The slices' JSON files (`perft --shard … --json` or `match --shard … --json`).
    #[arg(required = true)]
    pub files: Vec<String>,
    /// Match slices: write their PGN files, in schedule order, into this one.
    #[arg(long)]
    pub pgnout: Option<String>,
    /// Match slices: draw the merged match's Elo ± 95% and LLR against games in this SVG.
    #[arg(long)]
    pub plot: Option<String>,
}

/// Why slices could not be merged; each message names the file or the slice.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// A file that cannot be read.
    #[error("{file}: {source}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        source: ReadError,
    },
    /// A file that is not a slice of either kind.
    #[error("{file}: {why}")]
    Format {
        /// The file.
        file: String,
        /// What is wrong with it.
        why: String,
    },
    /// Perft slices and match slices together.
    #[error("{0} is a {1}, {2} a {3}: merge slices of one kind")]
    Kinds(String, &'static str, String, &'static str),
    /// Two slices of different configurations.
    #[error("{file}: {key} {value} differs from {first}'s {expected}")]
    Mismatch {
        /// The file that differs.
        file: String,
        /// The first file, whose configuration the others must have.
        first: String,
        /// Which setting.
        key: String,
        /// Its value in `file`.
        value: String,
        /// Its value in `first`.
        expected: String,
    },
    /// Slices not given.
    #[error("{0} missing")]
    Missing(String),
    /// A slice given more than once.
    #[error("{0}")]
    Duplicate(String),
    /// A slice that did not finish its work.
    #[error("{file}: {got} of its {want} {what}")]
    Incomplete {
        /// The file.
        file: String,
        /// What it holds.
        got: usize,
        /// What it should hold.
        want: usize,
        /// Games or positions.
        what: &'static str,
    },
    /// `--pgnout` or `--plot` with perft slices.
    #[error("{0} is for match slices")]
    MatchOnly(&'static str),
    /// A slice's PGN file cannot be read or the merged one written.
    #[error("--pgnout: {0}")]
    Pgn(String),
    /// The plot cannot be written.
    #[error(transparent)]
    Plot(#[from] DiagramError),
}

impl MergeError {
    /// True for a failed check of the slices (exit 1) rather than bad input (exit 2).
    pub fn is_check_failure(&self) -> bool {
        matches!(
            self,
            MergeError::Mismatch { .. }
                | MergeError::Missing(_)
                | MergeError::Duplicate(_)
                | MergeError::Incomplete { .. }
        )
    }

    /// The command line's exit status for this error: 1 for a failed check, else 2.
    pub fn exit_code(&self) -> u8 {
        if self.is_check_failure() {
            1
        } else {
            2
        }
    }
}

/// What the slices add up to.
#[derive(Debug)]
pub enum Merged {
    /// A perft count with its divide.
    Perft(Count),
    /// A match.
    Match(MatchResult),
}

impl Report for Merged {
    /// As `perft --divide` or `match` print it.
    fn text(&self) -> String {
        match self {
            Merged::Perft(c) => c.text(),
            Merged::Match(r) => r.text(),
        }
    }

    /// As `perft --divide --json` or `match --json` print it.
    fn to_json(&self) -> Value {
        match self {
            Merged::Perft(c) => c.to_json(),
            Merged::Match(r) => r.to_json(),
        }
    }
}

impl MergeArgs {
    /// Reads, checks and merges the slices.
    pub fn run(&self) -> Result<Merged, MergeError> {
        let mut docs = Vec::new();
        for file in &self.files {
            let text = read_text(file, MAX_LIST_BYTES).map_err(|source| MergeError::Read {
                file: file.clone(),
                source,
            })?;
            let v: Value = serde_json::from_str(&text).map_err(|e| MergeError::Format {
                file: file.clone(),
                why: format!("not JSON ({e})"),
            })?;
            let kind = match v.get("kind").and_then(Value::as_str) {
                Some("perft-shard") => "perft slice",
                Some("match-shard") => "match slice",
                _ => {
                    return Err(MergeError::Format {
                        file: file.clone(),
                        why: "not the JSON of perft --shard or match --shard".into(),
                    })
                }
            };
            docs.push((file.clone(), kind, v));
        }
        if let Some((f, k, _)) = docs.iter().find(|(_, k, _)| *k != docs[0].1) {
            return Err(MergeError::Kinds(
                docs[0].0.clone(),
                docs[0].1,
                f.clone(),
                k,
            ));
        }
        if docs[0].1 == "perft slice" {
            if self.pgnout.is_some() {
                return Err(MergeError::MatchOnly("--pgnout"));
            }
            if self.plot.is_some() {
                return Err(MergeError::MatchOnly("--plot"));
            }
            merge_perft(&docs)
        } else {
            merge_match(self, &docs)
        }
    }
}

fn format_error(file: &str, e: impl std::fmt::Display) -> MergeError {
    MergeError::Format {
        file: file.to_string(),
        why: e.to_string(),
    }
}

/// Every file's configuration must equal the first's; the first differing key is named.
fn same_config(files: &[(&str, Value)]) -> Result<(), MergeError> {
    let (first, want) = &files[0];
    for (file, got) in &files[1..] {
        if got == want {
            continue;
        }
        // A named setting says more than the digest over all of them, so the digest is
        // reported only when nothing named differs.
        let keys = want.as_object().into_iter().flat_map(|o| o.keys());
        let differs = |k: &&String| got.get(k.as_str()) != want.get(k.as_str());
        let key = keys
            .clone()
            .filter(|k| k.as_str() != "digest")
            .find(differs)
            .or_else(|| keys.clone().find(differs))
            .cloned()
            .unwrap_or_else(|| "configuration".into());
        let show = |v: &Value| v.get(&key).map_or("none".into(), Value::to_string);
        return Err(MergeError::Mismatch {
            file: file.to_string(),
            first: first.to_string(),
            value: show(got),
            expected: show(want),
            key,
        });
    }
    Ok(())
}

/// A slice holds exactly the `want` distinct items it owns (`ids`) and nothing else
/// (`held` items in all).
fn check_complete(
    file: &str,
    mut ids: Vec<usize>,
    held: usize,
    want: usize,
    what: &'static str,
) -> Result<(), MergeError> {
    ids.sort_unstable();
    ids.dedup();
    if ids.len() == want && held == want {
        return Ok(());
    }
    Err(MergeError::Incomplete {
        file: file.to_string(),
        got: ids.len(),
        want,
        what,
    })
}

/// Missing slices named in an error before the rest are only counted.
const LISTED: usize = 8;

/// Shards 0..N of one N, each exactly once. N comes from the files, so nothing here
/// takes time or memory in N: only the given shards are walked.
fn check_shards(list: &[(&str, Shard)]) -> Result<(), MergeError> {
    let n = list[0].1.count;
    if let Some((file, s)) = list.iter().find(|(_, s)| s.count != n) {
        return Err(MergeError::Mismatch {
            file: file.to_string(),
            first: list[0].0.to_string(),
            key: "shard count".into(),
            value: s.count.to_string(),
            expected: n.to_string(),
        });
    }
    let mut given: Vec<(usize, &str)> = list.iter().map(|(f, s)| (s.index, *f)).collect();
    given.sort_by_key(|&(i, _)| i);
    for run in given.chunk_by(|a, b| a.0 == b.0) {
        if run.len() > 1 {
            let files: Vec<&str> = list
                .iter()
                .filter(|(_, s)| s.index == run[0].0)
                .map(|(f, _)| *f)
                .collect();
            return Err(MergeError::Duplicate(format!(
                "shard {}/{n} given {} times: {}",
                run[0].0,
                files.len(),
                files.join(", ")
            )));
        }
    }
    // The gaps between the given indices, in order, until enough are named.
    let mut missing = Vec::new();
    let mut at = 0;
    for i in given.iter().map(|&(i, _)| i).chain([n]) {
        missing.extend((at..i.min(n)).take(LISTED - missing.len()));
        at = i.saturating_add(1);
    }
    let names: Vec<String> = missing.iter().map(|i| format!("{i}/{n}")).collect();
    let absent = n.saturating_sub(given.len());
    match absent {
        0 => Ok(()),
        1 => Err(MergeError::Missing(format!("shard {}", names[0]))),
        _ if absent <= LISTED => Err(MergeError::Missing(format!("shards {}", names.join(", ")))),
        _ => Err(MergeError::Missing(format!(
            "shards {} and {} more",
            names.join(", "),
            absent - names.len()
        ))),
    }
}

/// Pair ranges that tile `0..total` exactly once.
fn check_pairs(list: &[(&str, Range<usize>)], total: usize) -> Result<(), MergeError> {
    let mut sorted: Vec<&(&str, Range<usize>)> = list.iter().collect();
    sorted.sort_by_key(|(_, r)| (r.start, r.end));
    let mut at = 0;
    for (file, r) in &sorted {
        if r.start < at {
            let others: Vec<&str> = sorted
                .iter()
                .filter(|(f, o)| f != file && o.start < r.end && r.start < o.end)
                .map(|(f, _)| *f)
                .collect();
            return Err(MergeError::Duplicate(format!(
                "pairs {}..{} of {file} also in {}",
                r.start,
                r.end.min(at),
                others.join(", ")
            )));
        }
        if r.start > at {
            return Err(MergeError::Missing(format!("pairs {at}..{}", r.start)));
        }
        at = r.end;
    }
    if at < total {
        return Err(MergeError::Missing(format!("pairs {at}..{total}")));
    }
    Ok(())
}

fn merge_perft(docs: &[(String, &str, Value)]) -> Result<Merged, MergeError> {
    let mut shards = Vec::new();
    for (file, _, v) in docs {
        let s = PerftShard::from_json(v).map_err(|e: PerftShardError| format_error(file, e))?;
        shards.push(s);
    }
    let configs: Vec<(&str, Value)> = docs
        .iter()
        .zip(&shards)
        .map(|((f, _, _), s)| (f.as_str(), s.config()))
        .collect();
    same_config(&configs)?;
    let list: Vec<(&str, Shard)> = docs
        .iter()
        .zip(&shards)
        .map(|((f, _, _), s)| (f.as_str(), s.shard))
        .collect();
    check_shards(&list)?;
    for ((file, _, _), s) in docs.iter().zip(&shards) {
        // Items are dealt round-robin: the first `total % count` shards hold one more.
        let (count, index) = (s.shard.count, s.shard.index);
        let want = s.items_total / count + usize::from(index < s.items_total % count);
        let own = s
            .items
            .iter()
            .filter(|it| s.shard.owns(it.index) && it.index < s.items_total);
        let ids = own.map(|it| it.index).collect();
        check_complete(file, ids, s.items.len(), want, "positions")?;
    }
    let total = combine(&shards).map_err(|i| MergeError::Format {
        file: docs[i].0.clone(),
        why: "its node counts take the total past 2^64 - 1".into(),
    })?;
    Ok(Merged::Perft(total))
}

fn merge_match(args: &MergeArgs, docs: &[(String, &str, Value)]) -> Result<Merged, MergeError> {
    let mut slices: Vec<(&str, MatchSlice)> = Vec::new();
    for (file, _, v) in docs {
        slices.push((file, slice::read(v).map_err(|e| format_error(file, e))?));
    }
    let configs: Vec<(&str, Value)> = slices
        .iter()
        .map(|(f, s)| (*f, s.info.config.clone()))
        .collect();
    same_config(&configs)?;
    let shards: Vec<(&str, Shard)> = slices
        .iter()
        .filter_map(|(f, s)| s.info.shard.map(|sh| (*f, sh)))
        .collect();
    let total = slices[0].1.info.total_pairs;
    if shards.len() == slices.len() {
        check_shards(&shards)?;
    }
    let ranges: Vec<(&str, Range<usize>)> = slices
        .iter()
        .map(|(f, s)| (*f, s.info.pairs.clone()))
        .collect();
    check_pairs(&ranges, total)?;
    for (file, s) in &slices {
        // The pairs come from the file: a range past the schedule, or one whose game
        // count does not fit, is an edited slice, not an empty one.
        let pairs = &s.info.pairs;
        let want = pairs
            .len()
            .checked_mul(2)
            .filter(|_| pairs.start < pairs.end && pairs.end <= total)
            .ok_or_else(|| {
                format_error(
                    file,
                    format!(
                        "\"pairs\" {}..{} is no slice of a schedule of {total} pairs",
                        pairs.start, pairs.end
                    ),
                )
            })?;
        let inside = s.games.iter().filter(|g| s.info.pairs.contains(&g.pair));
        let ids = inside.map(|g| g.number).collect();
        check_complete(file, ids, s.games.len(), want, "games")?;
    }
    slices.sort_by_key(|(_, s)| s.info.pairs.start);
    let names = slices[0].1.names.clone();
    let mut games: Vec<Finished> = slices.iter().flat_map(|(_, s)| s.games.clone()).collect();
    games.sort_by_key(|g| g.number);
    let sprt = sprt_of(&slices[0].1.info.config);
    if let Some(out) = &args.pgnout {
        concatenate_pgn(&slices, out)?;
    }
    if let Some(path) = &args.plot {
        let variant = slices[0].1.info.config["variant"].as_str().unwrap_or("");
        let title = format!("{} vs {} ({variant})", names[0], names[1..].join(", "));
        let mut plot = MatchPlot::new(&title, sprt.as_ref());
        let mut so_far = MatchResult {
            games: Vec::new(),
            names: names.clone(),
            sprt: None,
            slice: None,
        };
        for g in &games {
            so_far.games.push(g.clone());
            judge(&mut so_far, sprt.as_ref());
            plot.record(&so_far);
        }
        write_svg(path, &plot.svg())?;
    }
    let mut r = MatchResult {
        games,
        names,
        sprt: None,
        slice: None,
    };
    judge(&mut r, sprt.as_ref());
    Ok(Merged::Match(r))
}

/// The SPRT the slices were configured with (`config.sprt`), if any.
fn sprt_of(config: &Value) -> Option<Sprt> {
    let s = config.get("sprt")?;
    let f = |k: &str| s.get(k).and_then(Value::as_f64);
    Some(Sprt {
        elo0: f("elo0")?,
        elo1: f("elo1")?,
        alpha: f("alpha")?,
        beta: f("beta")?,
    })
}

/// The SPRT over every game of `r`, as a match of two players judges it.
fn judge(r: &mut MatchResult, sprt: Option<&Sprt>) {
    if let (Some(sprt), 2) = (sprt, r.names.len()) {
        let p = r.penta(0, 1);
        r.sprt = Some((sprt.llr(&p), sprt.verdict(&p)));
    }
}

/// The slices' PGN files, in schedule order, into `out`.
fn concatenate_pgn(slices: &[(&str, MatchSlice)], out: &str) -> Result<(), MergeError> {
    let mut text = String::new();
    for (file, s) in slices {
        let path = s
            .info
            .pgn
            .as_deref()
            .ok_or_else(|| MergeError::Pgn(format!("{file} was played without --pgnout")))?;
        text += &read_text(path, MAX_LIST_BYTES)
            .map_err(|e| MergeError::Pgn(format!("{path} (the PGN of {file}): {e}")))?;
    }
    std::fs::write(out, text).map_err(|e| MergeError::Pgn(format!("cannot write {out}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_sets_name_what_is_missing_or_twice() {
        let s = |index, count| Shard { index, count };
        assert!(check_shards(&[("a", s(1, 2)), ("b", s(0, 2))]).is_ok());
        assert_eq!(
            check_shards(&[("a", s(0, 4)), ("b", s(2, 4))])
                .unwrap_err()
                .to_string(),
            "shards 1/4, 3/4 missing"
        );
        assert_eq!(
            check_shards(&[("a", s(0, 2)), ("b", s(0, 2)), ("c", s(1, 2))])
                .unwrap_err()
                .to_string(),
            "shard 0/2 given 2 times: a, b"
        );
        let e = check_shards(&[("a", s(0, 2)), ("b", s(1, 3))]).unwrap_err();
        assert_eq!(e.to_string(), "b: shard count 3 differs from a's 2");
        assert!(e.is_check_failure());
    }

    #[test]
    fn pair_ranges_must_tile_the_schedule() {
        assert!(check_pairs(&[("a", 4..8), ("b", 0..4)], 8).is_ok());
        assert_eq!(
            check_pairs(&[("a", 0..3), ("b", 5..8)], 8)
                .unwrap_err()
                .to_string(),
            "pairs 3..5 missing"
        );
        assert_eq!(
            check_pairs(&[("a", 0..3)], 8).unwrap_err().to_string(),
            "pairs 3..8 missing"
        );
        assert_eq!(
            check_pairs(&[("a", 0..5), ("b", 3..8)], 8)
                .unwrap_err()
                .to_string(),
            "pairs 3..5 of b also in a"
        );
    }

    #[test]
    fn configurations_must_agree_key_by_key() {
        let a = serde_json::json!({"variant": "chess", "seed": 1});
        let b = serde_json::json!({"variant": "chess", "seed": 2});
        let e = same_config(&[("x.json", a.clone()), ("y.json", b)]).unwrap_err();
        assert_eq!(e.to_string(), "y.json: seed 2 differs from x.json's 1");
        assert!(same_config(&[("x.json", a.clone()), ("z.json", a)]).is_ok());
    }
}
