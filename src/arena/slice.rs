//! A slice of a match (`match --shard I/N` or `--pairs A..B`) as `tenfold merge` reads
//! it back: the configuration it was played under, which pairs it covers, and each
//! game's number, players and result, enough to rebuild every statistic exactly.

use super::pgn::GameRecord;
use super::{Finished, MatchConfig, MatchResult};
use crate::core::shard::Shard;
use crate::position::notation::GameResult;
use serde_json::{json, Value};
use std::ops::Range;

/// What a slice of a match reports beside its results.
#[derive(Debug, Clone, PartialEq)]
pub struct SliceInfo {
    /// The `--shard` it was given, if any.
    pub shard: Option<Shard>,
    /// The game pairs it played.
    pub pairs: Range<usize>,
    /// Pairs in the whole match.
    pub total_pairs: usize,
    /// Everything that decides the games (see [`fingerprint`]); slices of one match
    /// have equal ones.
    pub config: Value,
    /// Its PGN file (absolute), if it wrote one.
    pub pgn: Option<String>,
}

impl SliceInfo {
    /// The slice `cfg` describes (its PGN file is filled in by the caller).
    pub fn of(cfg: &MatchConfig) -> SliceInfo {
        SliceInfo {
            shard: cfg.shard,
            pairs: cfg.pair_range(),
            total_pairs: cfg.total_pairs(),
            config: fingerprint(cfg),
            pgn: None,
        }
    }
}

/// FNV-1a, 64 bits: a stable digest (the standard library's hasher may change).
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3)
    })
}

/// The settings that decide which games are played and how: readable fields for the
/// usual mismatches, and a digest of all of them (engines with their options, limits,
/// book, plies, order, schedule, adjudication, margin). Concurrency, the PGN event and
/// which pairs a slice plays are left out: they change no game.
pub fn fingerprint(cfg: &MatchConfig) -> Value {
    let decisive = format!(
        "{:?}|{:?}|{:?}|{}|{}|{}|{}|{}|{:?}|{:?}|{:?}|{}",
        cfg.engines,
        cfg.each,
        cfg.openings,
        cfg.plies,
        cfg.random_order,
        cfg.rounds,
        cfg.games,
        cfg.round_robin,
        cfg.sprt,
        cfg.adjudication,
        cfg.margin,
        cfg.seed
    );
    json!({
        "variant": cfg.variant,
        "engines": cfg.engines.iter().map(|e| e.name.clone()).collect::<Vec<_>>(),
        "seed": cfg.seed,
        "total_pairs": cfg.total_pairs(),
        "sprt": cfg.sprt,
        "digest": format!("{:016x}", fnv1a(&decisive)),
    })
}

/// The slice fields added to a sliced match's JSON summary.
pub fn slice_json(r: &MatchResult, info: &SliceInfo) -> Value {
    let mut games: Vec<&Finished> = r.games.iter().collect();
    games.sort_by_key(|g| g.number);
    let played: Vec<Value> = games
        .iter()
        .map(|g| json!([g.number, g.white, g.black, g.record.result_token()]))
        .collect();
    json!({
        "kind": "match-shard",
        "shard": info.shard.map(|s| json!({"index": s.index, "count": s.count})),
        "pairs": [info.pairs.start, info.pairs.end],
        "total_pairs": info.total_pairs,
        "config": info.config,
        "names": r.names,
        "pgn": info.pgn,
        "played": played,
    })
}

/// A slice read back from its JSON.
#[derive(Debug, Clone)]
pub struct MatchSlice {
    /// What it covers and under which configuration.
    pub info: SliceInfo,
    /// Engine names, in `--engine` order.
    pub names: Vec<String>,
    /// Its games (records carry the players and result only).
    pub games: Vec<Finished>,
}

/// Why a slice's JSON could not be read; the caller names the file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a match slice: {0}")]
pub struct SliceError(pub String);

fn field<'a>(v: &'a Value, key: &str) -> Result<&'a Value, SliceError> {
    v.get(key)
        .ok_or_else(|| SliceError(format!("no \"{key}\" field")))
}

fn whole(v: &Value, what: &str) -> Result<usize, SliceError> {
    v.as_u64()
        .map(|n| n as usize)
        .ok_or_else(|| SliceError(format!("\"{what}\" is not a whole number")))
}

/// The result a PGN result token stands for (`*`: none).
pub fn result_of_token(token: &str) -> Option<Option<GameResult>> {
    match token {
        "1-0" => Some(Some(GameResult::WhiteWins)),
        "0-1" => Some(Some(GameResult::BlackWins)),
        "1/2-1/2" => Some(Some(GameResult::Draw)),
        "*" => Some(None),
        _ => None,
    }
}

/// A bare record: who played and the result, all the statistics read.
pub fn bare_record(
    names: &[String],
    white: usize,
    black: usize,
    result: Option<GameResult>,
) -> GameRecord {
    GameRecord {
        variant: String::new(),
        start_fen: None,
        white: names[white].clone(),
        black: names[black].clone(),
        round: String::new(),
        result,
        termination: String::new(),
        reason: String::new(),
        moves: Vec::new(),
        comments: Vec::new(),
        time_control: String::new(),
        limits: String::new(),
    }
}

/// Reads the JSON a sliced `match --json` printed.
pub fn read(v: &Value) -> Result<MatchSlice, SliceError> {
    if field(v, "kind")?.as_str() != Some("match-shard") {
        return Err(SliceError("\"kind\" is not \"match-shard\"".into()));
    }
    let shard = match field(v, "shard")? {
        Value::Null => None,
        s => Some(Shard {
            index: whole(field(s, "index")?, "shard.index")?,
            count: whole(field(s, "count")?, "shard.count")?,
        }),
    };
    if shard.is_some_and(|s| s.index >= s.count) {
        return Err(SliceError("shard index not below its count".into()));
    }
    let pairs = field(v, "pairs")?
        .as_array()
        .filter(|a| a.len() == 2)
        .ok_or_else(|| SliceError("\"pairs\" is not [start, end]".into()))?;
    let pairs = whole(&pairs[0], "pairs")?..whole(&pairs[1], "pairs")?;
    let names: Vec<String> = field(v, "names")?
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|n| n.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    if names.len() < 2 {
        return Err(SliceError("\"names\" lists fewer than two engines".into()));
    }
    let mut games = Vec::new();
    for g in field(v, "played")?
        .as_array()
        .ok_or_else(|| SliceError("\"played\" is not a list".into()))?
    {
        let bad = || {
            SliceError(format!(
                "played game {g} is not [number, white, black, result]"
            ))
        };
        let a = g.as_array().filter(|a| a.len() == 4).ok_or_else(bad)?;
        let (number, white, black) = (
            whole(&a[0], "played")?,
            whole(&a[1], "played")?,
            whole(&a[2], "played")?,
        );
        let result = a[3].as_str().and_then(result_of_token).ok_or_else(bad)?;
        if number == 0 || white >= names.len() || black >= names.len() {
            return Err(bad());
        }
        games.push(Finished {
            number,
            pair: (number - 1) / 2,
            white,
            black,
            record: bare_record(&names, white, black, result),
        });
    }
    Ok(MatchSlice {
        info: SliceInfo {
            shard,
            pairs,
            total_pairs: whole(field(v, "total_pairs")?, "total_pairs")?,
            config: field(v, "config")?.clone(),
            pgn: field(v, "pgn")?.as_str().map(String::from),
        },
        names,
        games,
    })
}
