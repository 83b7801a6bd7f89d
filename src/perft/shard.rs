//! `tenfold perft --shard I/N [--split-ply K]`: one slice of a deep count for a batch
//! system. The tree is cut K plies down; the positions there, merged by Zobrist key
//! with how many paths from each root move reach them, are put in a canonical order
//! (by FEN) and dealt out round-robin, so every shard of every run agrees on who
//! counts what, and `tenfold merge` adds the slices up to the total and the divide.

use super::{Count, Counting};
use crate::core::moves::MoveList;
use crate::core::shard::Shard;
use crate::position::Position;
use crate::report::Report;
use rayon::prelude::*;
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

/// A position `split_ply` plies down, and the paths that reach it.
#[derive(Clone)]
pub struct SplitItem {
    /// The position, made by moves from the root (history and all).
    pub pos: Position,
    /// Its FEN: the canonical order, and what the shard file shows.
    pub fen: String,
    /// Paths reaching it, by their root move.
    pub paths: BTreeMap<String, u64>,
}

/// The root's legal moves (sorted) and the distinct positions `ply` plies down in
/// canonical order; a line that ends before `ply` reaches no item (it has no leaves
/// that deep either).
pub fn split(root: &Position, ply: u32) -> (Vec<String>, Vec<SplitItem>) {
    let mut list = MoveList::new();
    root.legal_moves(&mut list);
    let mut roots: Vec<String> = list.iter().map(|&m| root.move_to_string(m)).collect();
    roots.sort();
    let mut items: Vec<SplitItem> = Vec::new();
    let mut by_key: HashMap<u64, usize> = HashMap::new();
    let mut pos = root.clone();
    for &m in list.iter() {
        let name = root.move_to_string(m);
        pos.make_move(m);
        walk(&mut pos, ply - 1, &name, &mut items, &mut by_key);
        pos.unmake_move();
    }
    items.sort_by(|a, b| a.fen.cmp(&b.fen).then(a.pos.key().cmp(&b.pos.key())));
    (roots, items)
}

fn walk(
    pos: &mut Position,
    left: u32,
    root_move: &str,
    items: &mut Vec<SplitItem>,
    by_key: &mut HashMap<u64, usize>,
) {
    if left == 0 {
        let i = *by_key.entry(pos.key()).or_insert_with(|| {
            items.push(SplitItem {
                pos: pos.clone(),
                fen: pos.fen(),
                paths: BTreeMap::new(),
            });
            items.len() - 1
        });
        *items[i].paths.entry(root_move.to_string()).or_insert(0) += 1;
        return;
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    for &m in list.iter() {
        pos.make_move(m);
        walk(pos, left - 1, root_move, items, by_key);
        pos.unmake_move();
    }
}

/// One counted item of a shard.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShardItem {
    /// Its place in the canonical order.
    pub index: usize,
    /// Its FEN.
    pub fen: String,
    /// Paths reaching it, by root move.
    pub paths: BTreeMap<String, u64>,
    /// Leaves below it (`depth - split_ply` plies).
    pub nodes: u64,
}

/// A shard's count, as `perft --shard --json` prints it and `merge` reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerftShard {
    /// Variant name.
    pub variant: String,
    /// The root position.
    pub fen: String,
    /// Depth of the whole count.
    pub depth: u32,
    /// Where the tree was cut (at most `depth`).
    pub split_ply: u32,
    /// Which slice this is.
    pub shard: Shard,
    /// Items in all shards together.
    pub items_total: usize,
    /// Every legal root move, so a move with no leaves still shows in the divide.
    pub roots: Vec<String>,
    /// This shard's items.
    pub items: Vec<ShardItem>,
    /// Wall-clock milliseconds of this shard.
    pub ms: u64,
}

/// Why a sharded count cannot run, or a shard file be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PerftShardError {
    /// Depth 0 has nothing to share out.
    #[error("--shard needs --depth 1 or more")]
    Depth,
    /// A split at the root shares out nothing.
    #[error("--split-ply must be at least 1")]
    SplitPly,
    /// A shard file that is not what `perft --shard --json` prints.
    #[error("not a perft shard: {0}")]
    Format(String),
}

impl PerftShard {
    /// Counts shard `shard` of `depth` plies from `pos`, cut at `split_ply`.
    pub fn run(
        pos: &Position,
        depth: u32,
        split_ply: u32,
        shard: Shard,
        how: &Counting,
    ) -> Result<PerftShard, PerftShardError> {
        if depth == 0 {
            return Err(PerftShardError::Depth);
        }
        if split_ply == 0 {
            return Err(PerftShardError::SplitPly);
        }
        let start = Instant::now();
        let ply = split_ply.min(depth);
        let (roots, items) = split(pos, ply);
        let items_total = items.len();
        let mine: Vec<(usize, SplitItem)> = items
            .into_iter()
            .enumerate()
            .filter(|(i, _)| shard.owns(*i))
            .collect();
        let work = |(index, it): (usize, SplitItem)| {
            let nodes = how.count_fitted(&it.pos, depth - ply);
            ShardItem {
                index,
                fen: it.fen,
                paths: it.paths,
                nodes,
            }
        };
        let items: Vec<ShardItem> = match rayon::ThreadPoolBuilder::new()
            .num_threads(how.threads.max(1))
            .build()
        {
            Ok(pool) if how.threads > 1 => {
                pool.install(|| mine.into_par_iter().map(work).collect())
            }
            _ => mine.into_iter().map(work).collect(),
        };
        Ok(PerftShard {
            variant: pos.variant().name.clone(),
            fen: pos.fen(),
            depth,
            split_ply: ply,
            shard,
            items_total,
            roots,
            items,
            ms: start.elapsed().as_millis() as u64,
        })
    }

    /// Leaves counted by this shard.
    pub fn nodes(&self) -> u64 {
        self.items
            .iter()
            .map(|it| it.nodes * it.paths.values().sum::<u64>())
            .sum()
    }

    /// What must agree between shards of one count.
    pub fn config(&self) -> Value {
        json!({"variant": self.variant, "fen": self.fen, "depth": self.depth,
               "split_ply": self.split_ply, "items_total": self.items_total,
               "roots": self.roots})
    }

    /// Reads the JSON `perft --shard --json` printed.
    pub fn from_json(v: &Value) -> Result<PerftShard, PerftShardError> {
        let bad = |what: &str| PerftShardError::Format(what.to_string());
        if v.get("kind").and_then(Value::as_str) != Some("perft-shard") {
            return Err(bad("\"kind\" is not \"perft-shard\""));
        }
        let num = |o: &Value, k: &str| {
            o.get(k)
                .and_then(Value::as_u64)
                .ok_or_else(|| bad(&format!("\"{k}\" is not a whole number")))
        };
        let text = |k: &str| {
            v.get(k)
                .and_then(Value::as_str)
                .map(String::from)
                .ok_or_else(|| bad(&format!("\"{k}\" is not text")))
        };
        let counts = |o: Option<&Value>| -> Result<BTreeMap<String, u64>, PerftShardError> {
            o.and_then(Value::as_object)
                .ok_or_else(|| bad("\"paths\" is not an object"))?
                .iter()
                .map(|(m, n)| {
                    Ok((
                        m.clone(),
                        n.as_u64()
                            .ok_or_else(|| bad("a path count is not a whole number"))?,
                    ))
                })
                .collect()
        };
        let s = v.get("shard").ok_or_else(|| bad("no \"shard\" field"))?;
        let (index, count) = (num(s, "index")? as usize, num(s, "count")? as usize);
        if index >= count {
            return Err(bad("shard index not below its count"));
        }
        let mut items = Vec::new();
        for it in v
            .get("items")
            .and_then(Value::as_array)
            .ok_or_else(|| bad("\"items\" is not a list"))?
        {
            items.push(ShardItem {
                index: num(it, "index")? as usize,
                fen: it
                    .get("fen")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string(),
                paths: counts(it.get("paths"))?,
                nodes: num(it, "nodes")?,
            });
        }
        Ok(PerftShard {
            variant: text("variant")?,
            fen: text("fen")?,
            depth: num(v, "depth")? as u32,
            split_ply: num(v, "split_ply")? as u32,
            shard: Shard { index, count },
            items_total: num(v, "items_total")? as usize,
            roots: v
                .get("roots")
                .and_then(Value::as_array)
                .ok_or_else(|| bad("\"roots\" is not a list"))?
                .iter()
                .filter_map(|m| m.as_str().map(String::from))
                .collect(),
            items,
            ms: num(v, "ms")?,
        })
    }
}

/// The count the shards add up to, as `perft --divide` reports it: every root move
/// (zero for one whose lines end early) with its leaves. The shards must be one
/// complete, disjoint set of one count (the caller checks). `Err(i)` when the counts
/// pass `u64::MAX` on adding shard `i`'s: no count that ran comes near it (chess's
/// depth 13 is about 2·10^18), so the slice was edited or damaged, and a wrapped sum
/// would pass for a count.
pub fn combine(shards: &[PerftShard]) -> Result<Count, usize> {
    let mut divide: BTreeMap<String, u64> = BTreeMap::new();
    for s in shards {
        divide.extend(s.roots.iter().map(|m| (m.clone(), 0)));
    }
    let mut nodes = 0u64;
    for (i, s) in shards.iter().enumerate() {
        for it in &s.items {
            for (m, n) in &it.paths {
                let add = n.checked_mul(it.nodes).ok_or(i)?;
                let root = divide.entry(m.clone()).or_insert(0);
                *root = root.checked_add(add).ok_or(i)?;
                nodes = nodes.checked_add(add).ok_or(i)?;
            }
        }
    }
    let ms = shards.iter().fold(0u64, |t, s| t.saturating_add(s.ms));
    Ok(Count {
        nodes,
        ms,
        nps: (nodes as f64 / (ms.max(1) as f64 / 1000.0)) as u64,
        divide: Some(divide.into_iter().collect()),
    })
}

impl Report for PerftShard {
    /// One summary line, then nodes, time and nps as `perft` prints them.
    fn text(&self) -> String {
        let secs = self.ms.max(1) as f64 / 1000.0;
        format!(
            "shard {} of depth {} split at ply {}: {} of {} positions\nnodes {}\ntime {} ms\nnps {}\n",
            self.shard,
            self.depth,
            self.split_ply,
            self.items.len(),
            self.items_total,
            self.nodes(),
            self.ms,
            (self.nodes() as f64 / secs) as u64
        )
    }

    /// Everything `merge` needs: the count's configuration, the shard, every item.
    fn to_json(&self) -> Value {
        let items: Vec<Value> = self
            .items
            .iter()
            .map(|it| {
                let paths: Map<String, Value> = it
                    .paths
                    .iter()
                    .map(|(m, n)| (m.clone(), json!(n)))
                    .collect();
                json!({"index": it.index, "fen": it.fen, "paths": paths, "nodes": it.nodes})
            })
            .collect();
        json!({"kind": "perft-shard", "variant": self.variant, "fen": self.fen,
               "depth": self.depth, "split_ply": self.split_ply,
               "shard": {"index": self.shard.index, "count": self.shard.count},
               "items_total": self.items_total, "roots": self.roots, "items": items,
               "nodes": self.nodes(), "ms": self.ms})
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    fn shards(fen: &str, variant: &str, depth: u32, ply: u32, n: usize) -> Vec<PerftShard> {
        let pos = Position::from_fen(&registry::get(variant).unwrap(), fen).unwrap();
        (0..n)
            .map(|index| {
                let s = PerftShard::run(
                    &pos,
                    depth,
                    ply,
                    Shard { index, count: n },
                    &Counting::single(),
                )
                .unwrap();
                // What a shard prints is what merge reads.
                assert_eq!(PerftShard::from_json(&s.to_json()).unwrap(), s);
                s
            })
            .collect()
    }

    #[test]
    fn shards_add_up_to_the_divide_for_any_cut() {
        let v = registry::get("chess").unwrap();
        let pos = Position::from_fen(&v, KIWIPETE).unwrap();
        let whole = Count::run(&pos, 3, true, &Counting::single(), None);
        for (ply, n) in [(1, 1), (2, 5), (3, 4), (5, 3)] {
            let merged = combine(&shards(KIWIPETE, "chess", 3, ply, n)).unwrap();
            assert_eq!(merged.nodes, 97_862, "split {ply}, {n} shards");
            assert_eq!(merged.divide, whole.divide, "split {ply}, {n} shards");
        }
    }

    #[test]
    fn transpositions_are_counted_once_with_their_multiplicity() {
        let v = registry::get("chess").unwrap();
        let (roots, items) = split(&Position::startpos(&v), 4);
        assert_eq!(roots.len(), 20);
        let paths: u64 = items.iter().flat_map(|it| it.paths.values()).sum();
        assert_eq!(paths, 197_281, "every path to ply 4 is counted");
        assert!(
            items.len() < 197_281 / 2,
            "{} distinct positions",
            items.len()
        );
        let fens: Vec<&str> = items.iter().map(|it| it.fen.as_str()).collect();
        assert!(fens.windows(2).all(|w| w[0] <= w[1]), "canonical order");
    }

    #[test]
    fn a_root_move_that_mates_early_still_shows_with_zero() {
        // Fool's mate is one move away: after 1...Qh4# there is nothing two plies down.
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2";
        let merged = combine(&shards(fen, "chess", 2, 2, 2)).unwrap();
        let v = registry::get("chess").unwrap();
        let whole = Count::run(
            &Position::from_fen(&v, fen).unwrap(),
            2,
            true,
            &Counting::single(),
            None,
        );
        assert_eq!(merged.divide, whole.divide);
        assert_eq!(
            merged
                .divide
                .unwrap()
                .iter()
                .find(|(m, _)| m == "d8h4")
                .unwrap()
                .1,
            0
        );
    }

    #[test]
    fn bad_shard_runs_and_files_are_refused() {
        let pos = Position::startpos(&registry::get("chess").unwrap());
        let s = Shard { index: 0, count: 2 };
        assert_eq!(
            PerftShard::run(&pos, 0, 2, s, &Counting::single()).unwrap_err(),
            PerftShardError::Depth
        );
        assert_eq!(
            PerftShard::run(&pos, 3, 0, s, &Counting::single()).unwrap_err(),
            PerftShardError::SplitPly
        );
        let e = PerftShard::from_json(&json!({"kind": "match-shard"})).unwrap_err();
        assert_eq!(
            e.to_string(),
            "not a perft shard: \"kind\" is not \"perft-shard\""
        );
    }
}
