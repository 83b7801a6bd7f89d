//! Perft: count the leaf nodes of the legal move tree, bulk-counting at depth 1, with
//! `--divide` and a rayon split of the root moves.

pub mod hash;
pub mod progress;
pub mod shard;
pub mod suite;

use crate::core::geometry::Word;
use crate::core::moves::{Move, MoveList};
use crate::position::Position;
use crate::report::Report;
pub use hash::{PerftHashError, PerftTable};
use rayon::prelude::*;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The deepest count perft takes. No deeper count could finish (chess's depth 15 is
/// about 2·10^21 nodes), and the walk is depth-first, about 16 KB of stack a ply: depth
/// 520 overflowed the main thread's 8 MB (where the CLI and the UCI loop count) and
/// depth 130 the 2 MB of a rayon worker or a test thread, while 64 needs about 1 MB.
pub const MAX_DEPTH: u32 = 64;

/// A perft depth above [`MAX_DEPTH`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("perft depth {0} is above the maximum of {MAX_DEPTH}")]
pub struct DepthError(pub u32);

/// The depth itself when perft can count it (at most [`MAX_DEPTH`]).
pub fn check_depth(depth: u32) -> Result<u32, DepthError> {
    if depth <= MAX_DEPTH {
        Ok(depth)
    } else {
        Err(DepthError(depth))
    }
}

/// `--depth` as the command line reads it: a whole number up to [`MAX_DEPTH`].
fn parse_depth(s: &str) -> Result<u32, String> {
    let depth = s.parse::<u32>().map_err(|e| e.to_string())?;
    check_depth(depth).map_err(|e| e.to_string())
}

/// Leaf nodes at `depth` plies (depth 0 counts the position itself), in the position's
/// own word ([`count`] picks the narrowest that fits).
pub fn perft<W: Word>(pos: &mut Position<W>, depth: u32) -> u64 {
    match depth {
        0 => return 1,
        // Bulk counting: the leaves are counted, not listed, where the strategy allows.
        1 => return pos.count_legal() as u64,
        _ => {}
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let mut nodes = 0;
    for &m in list.iter() {
        pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake_move();
    }
    nodes
}

/// Leaf nodes at `depth`, with every count of depth 1 and more kept in `table`.
pub fn perft_hashed<W: Word>(pos: &mut Position<W>, depth: u32, table: &PerftTable) -> u64 {
    if depth == 0 {
        return 1;
    }
    let key = pos.key();
    if let Some(n) = table.probe(key, depth) {
        return n;
    }
    if depth == 1 {
        // Kept too: with the children's buckets prefetched, a hit is cheaper than
        // counting again (chess perft 7: 4.4 s → 3.6 s).
        let n = pos.count_legal() as u64;
        table.store(key, depth, n);
        return n;
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    if depth >= 2 {
        // Every child is probed: start loading their buckets all at once, so the
        // misses overlap instead of each stalling its own probe.
        for &m in list.iter() {
            pos.make_move(m);
            table.prefetch(pos.key());
            pos.unmake_move();
        }
    }
    let mut nodes = 0;
    for &m in list.iter() {
        pos.make_move(m);
        nodes += perft_hashed(pos, depth - 1, table);
        pos.unmake_move();
    }
    table.store(key, depth, nodes);
    nodes
}

/// How a count runs: worker threads and an optional shared hash table.
#[derive(Clone, Default)]
pub struct Counting {
    /// Worker threads (0 or 1: the calling thread alone).
    pub threads: usize,
    /// Counts already made, shared by all workers (`perft --hash`).
    pub table: Option<Arc<PerftTable>>,
}

impl Counting {
    /// One thread, no table.
    pub fn single() -> Counting {
        Counting::default()
    }

    /// `threads` workers sharing a table of `hash_mb` megabytes (none for 0).
    pub fn new(threads: usize, hash_mb: usize) -> Result<Counting, PerftHashError> {
        let table = match hash_mb {
            0 => None,
            mb => Some(Arc::new(PerftTable::new(mb)?)),
        };
        Ok(Counting { threads, table })
    }

    fn count<W: Word>(&self, pos: &mut Position<W>, depth: u32) -> u64 {
        match &self.table {
            Some(t) => perft_hashed(pos, depth, t),
            None => perft(pos, depth),
        }
    }

    /// The count of `pos` in the narrowest word its board fits (`u64` up to 64 squares).
    fn count_fitted(&self, pos: &Position, depth: u32) -> u64 {
        if pos.fits::<u64>() {
            self.count(&mut pos.to_word::<u64>(), depth)
        } else {
            self.count(&mut pos.clone(), depth)
        }
    }
}

/// Progress of a count: subtrees finished, subtrees in all, leaf nodes so far.
pub type Progress<'a> = &'a (dyn Fn(usize, usize, u64) + Sync);

/// Per root move counts in notation, sorted by move text; none at depth 0, which counts
/// the position itself and has no root move to divide by. The tree is cut two plies down
/// (a few hundred subtrees, which share out evenly over the workers where root subtrees
/// alone differ in size by an order of magnitude); `progress` hears each subtree end.
/// Counted in `u64` bitboards when the board has at most 64 squares.
pub fn divide(
    pos: &Position,
    depth: u32,
    how: &Counting,
    progress: Option<Progress>,
) -> Vec<(String, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let per_root = if pos.fits::<u64>() {
        divide_in(&pos.to_word::<u64>(), depth, how, progress)
    } else {
        divide_in(pos, depth, how, progress)
    };
    let mut out: Vec<(String, u64)> = per_root
        .into_iter()
        .map(|(m, n)| (pos.move_to_string(m), n))
        .collect();
    out.sort();
    out
}

/// [`divide`] in the word `W`: each root move with its count.
fn divide_in<W: Word>(
    pos: &Position<W>,
    depth: u32,
    how: &Counting,
    progress: Option<Progress>,
) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let roots: Vec<Move> = list.iter().copied().collect();
    let mut jobs: Vec<(usize, Position<W>)> = Vec::new();
    let mut per_root = vec![0u64; roots.len()];
    for (i, &m) in roots.iter().enumerate() {
        let mut p = pos.clone();
        p.make_move(m);
        if depth < 3 {
            per_root[i] = if depth <= 1 {
                1
            } else {
                perft(&mut p, depth - 1)
            };
            continue;
        }
        let mut replies = MoveList::new();
        p.legal_moves(&mut replies);
        for &r in replies.iter() {
            let mut q = p.clone();
            q.make_move(r);
            jobs.push((i, q));
        }
    }
    let total = jobs.len();
    let done = AtomicUsize::new(0);
    let nodes = AtomicU64::new(0);
    let work = |(i, mut q): (usize, Position<W>)| {
        let n = how.count(&mut q, depth - 2);
        let d = done.fetch_add(1, Ordering::Relaxed) + 1;
        let sum = nodes.fetch_add(n, Ordering::Relaxed) + n;
        if let Some(f) = progress {
            f(d, total, sum);
        }
        (i, n)
    };
    let counts: Vec<(usize, u64)> = if how.threads <= 1 {
        jobs.into_iter().map(work).collect()
    } else {
        match rayon::ThreadPoolBuilder::new()
            .num_threads(how.threads)
            .build()
        {
            Ok(pool) => pool.install(|| jobs.into_par_iter().map(work).collect()),
            // No threads to be had: count on this one rather than fail.
            Err(_) => jobs.into_iter().map(work).collect(),
        }
    };
    for (i, n) in counts {
        per_root[i] += n;
    }
    roots.into_iter().zip(per_root).collect()
}

/// Total leaf count at `depth`.
pub fn count(pos: &Position, depth: u32, how: &Counting, progress: Option<Progress>) -> u64 {
    if depth < 3 || (how.threads <= 1 && progress.is_none()) {
        return how.count_fitted(pos, depth);
    }
    divide(pos, depth, how, progress)
        .iter()
        .map(|(_, n)| n)
        .sum()
}

/// A timed count, as `tenfold perft --depth` reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Count {
    /// Leaf nodes.
    pub nodes: u64,
    /// Wall-clock milliseconds, rounded.
    pub ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Per root move counts, when asked for.
    pub divide: Option<Vec<(String, u64)>>,
}

impl Count {
    /// Counts `depth` plies from `pos`, per root move if `divide`.
    pub fn run(
        pos: &Position,
        depth: u32,
        divide: bool,
        how: &Counting,
        progress: Option<Progress>,
    ) -> Count {
        let start = Instant::now();
        let (nodes, divide) = if divide {
            let d = self::divide(pos, depth, how, progress);
            // Depth 0 is the one count its (empty) divide does not add up to.
            let nodes = if depth == 0 {
                1
            } else {
                d.iter().map(|(_, n)| n).sum()
            };
            (nodes, Some(d))
        } else {
            (count(pos, depth, how, progress), None)
        };
        let secs = start.elapsed().as_secs_f64();
        Count {
            nodes,
            ms: (secs * 1000.0).round() as u64,
            nps: (nodes as f64 / secs.max(1e-9)) as u64,
            divide,
        }
    }
}

impl Report for Count {
    /// `move: n` lines and a blank line when divided, then nodes, time and nps.
    fn text(&self) -> String {
        let mut s = String::new();
        // An empty divide (depth 0) prints no blank line before the totals.
        if let Some(d) = self.divide.as_ref().filter(|d| !d.is_empty()) {
            for (m, n) in d {
                s += &format!("{m}: {n}\n");
            }
            s.push('\n');
        }
        s + &format!(
            "nodes {}\ntime {} ms\nnps {}\n",
            self.nodes, self.ms, self.nps
        )
    }

    /// `{"nodes", "ms", "nps"}` and `"divide": {move: n}` when divided.
    fn to_json(&self) -> Value {
        let mut o = json!({ "nodes": self.nodes, "ms": self.ms, "nps": self.nps });
        if let Some(d) = &self.divide {
            let map: serde_json::Map<String, Value> =
                d.iter().map(|(m, n)| (m.clone(), json!(n))).collect();
            o["divide"] = Value::Object(map);
        }
        o
    }
}

/// The options of `tenfold perft`.
#[derive(clap::Args, Debug, Clone)]
pub struct PerftArgs {
    /// Depth in plies (at most 64; not with --suite, whose lines give theirs).
    #[arg(long, value_parser = parse_depth, conflicts_with = "suite")]
    pub depth: Option<u32>,
    /// Print the count of each root move (not with --suite or --shard).
    #[arg(long, conflicts_with_all = ["suite", "shard"])]
    pub divide: bool,
    /// Worker threads (root moves are shared out).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// EPD suite file (`FEN ;D1 n ;D2 n …`, optional `variant | ` prefix per line).
    #[arg(long)]
    pub suite: Option<String>,
    /// With --suite: skip depths above this.
    #[arg(long, requires = "suite")]
    pub max_depth: Option<u32>,
    /// Keep counts in a hash table of this many MB (deep runs; same counts; none by
    /// default).
    #[arg(long)]
    pub hash: Option<usize>,
    /// Count slice I of N (0 <= I < N) of the positions --split-ply plies down; `tenfold merge` adds the slices up.
    #[arg(long, conflicts_with = "suite")]
    pub shard: Option<crate::core::shard::Shard>,
    /// With --shard: how many plies down the tree is cut into shared-out positions.
    #[arg(long, default_value_t = 2, requires = "shard")]
    pub split_ply: u32,
}

/// Why perft's options ask for threads or a table that cannot be had.
#[derive(Debug, thiserror::Error)]
pub enum CountingError {
    /// No threads or no table memory: refused, as `search`, `bench` and `datagen`
    /// refuse it.
    #[error("--threads and --hash must be at least 1")]
    Zero,
    /// More threads than the machine runs.
    #[error(transparent)]
    Threads(#[from] crate::search::smp::ThreadsError),
    /// The table's memory cannot be had.
    #[error(transparent)]
    Hash(#[from] PerftHashError),
}

impl PerftArgs {
    /// The threads and table these options ask for.
    pub fn counting(&self) -> Result<Counting, CountingError> {
        if self.threads == 0 || self.hash == Some(0) {
            return Err(CountingError::Zero);
        }
        let threads = crate::search::smp::check_threads(self.threads)?;
        Ok(Counting::new(threads, self.hash.unwrap_or(0))?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;

    #[test]
    fn counts_report_as_text_and_json() {
        let pos = Position::startpos(&registry::get("chess").unwrap());
        let plain = Count::run(&pos, 2, false, &Counting::single(), None);
        assert_eq!((plain.nodes, plain.divide.as_ref()), (400, None));
        assert!(
            plain.text().starts_with("nodes 400\ntime "),
            "{}",
            plain.text()
        );
        assert!(plain.to_json().get("divide").is_none());
        let split = Count::run(&pos, 2, true, &Counting::new(2, 0).unwrap(), None);
        assert_eq!(split.nodes, 400);
        let text = split.text();
        assert!(text.starts_with("a2a3: 20\na2a4: 20\n"), "{text}");
        assert!(text.contains("h2h4: 20\n\nnodes 400\n"), "{text}");
        assert!(text.ends_with(&format!("nps {}\n", split.nps)));
        let j = split.to_json();
        assert_eq!(j["divide"]["g1f3"], 20);
        assert_eq!(j["nodes"], 400);
    }

    #[test]
    fn depth_0_counts_the_position_with_or_without_divide() {
        // Depth 0 is the position itself: 1, divided or not (divided, it counted depth 1).
        let pos = Position::startpos(&registry::get("chess").unwrap());
        for threads in [1, 2] {
            let how = Counting::new(threads, 0).unwrap();
            let plain = Count::run(&pos, 0, false, &how, None);
            let split = Count::run(&pos, 0, true, &how, None);
            assert_eq!((plain.nodes, split.nodes), (1, 1));
            assert_eq!(split.divide, Some(Vec::new()));
            assert_eq!(split.to_json()["divide"], json!({}));
        }
    }
}
