//! Perft: count the leaf nodes of the legal move tree, bulk-counting at depth 1, with
//! `--divide` and a rayon split of the root moves.

pub mod suite;

use crate::core::moves::{Move, MoveList};
use crate::position::Position;
use crate::report::Report;
use rayon::prelude::*;
use serde_json::{json, Value};
use std::time::Instant;

/// Leaf nodes at `depth` plies (depth 0 counts the position itself).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for &m in list.iter() {
        pos.make_move(m);
        nodes += perft(pos, depth - 1);
        pos.unmake_move();
    }
    nodes
}

/// Per root move counts in notation, sorted by move text. With more than one thread the
/// tree is cut two plies down, so a few hundred subtrees share out evenly over
/// `threads` workers (root subtrees alone differ in size by an order of magnitude).
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(String, u64)> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let roots: Vec<Move> = list.iter().copied().collect();
    let mut out: Vec<(String, u64)> = if threads <= 1 || depth < 3 {
        roots
            .iter()
            .map(|&m| {
                let mut p = pos.clone();
                p.make_move(m);
                let n = if depth <= 1 {
                    1
                } else {
                    perft(&mut p, depth - 1)
                };
                (pos.move_to_string(m), n)
            })
            .collect()
    } else {
        let mut jobs: Vec<(usize, Position)> = Vec::new();
        for (i, &m) in roots.iter().enumerate() {
            let mut p = pos.clone();
            p.make_move(m);
            let mut replies = MoveList::new();
            p.legal_moves(&mut replies);
            for &r in replies.iter() {
                let mut q = p.clone();
                q.make_move(r);
                jobs.push((i, q));
            }
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        let counts: Vec<(usize, u64)> = pool.install(|| {
            jobs.into_par_iter()
                .map(|(i, mut q)| (i, perft(&mut q, depth - 2)))
                .collect()
        });
        let mut per_root = vec![0u64; roots.len()];
        for (i, n) in counts {
            per_root[i] += n;
        }
        roots
            .iter()
            .zip(per_root)
            .map(|(&m, n)| (pos.move_to_string(m), n))
            .collect()
    };
    out.sort();
    out
}

/// Total leaf count at `depth`, split over `threads`.
pub fn perft_threads(pos: &Position, depth: u32, threads: usize) -> u64 {
    if threads <= 1 || depth < 3 {
        let mut p = pos.clone();
        return perft(&mut p, depth);
    }
    divide(pos, depth, threads).iter().map(|(_, n)| n).sum()
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
    /// Counts `depth` plies from `pos` over `threads`, per root move if `divide`.
    pub fn run(pos: &Position, depth: u32, divide: bool, threads: usize) -> Count {
        let start = Instant::now();
        let (nodes, divide) = if divide {
            let d = self::divide(pos, depth, threads);
            (d.iter().map(|(_, n)| n).sum(), Some(d))
        } else {
            (perft_threads(pos, depth, threads), None)
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
        if let Some(d) = &self.divide {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;

    #[test]
    fn counts_report_as_text_and_json() {
        let pos = Position::startpos(&registry::get("chess").unwrap());
        let plain = Count::run(&pos, 2, false, 1);
        assert_eq!((plain.nodes, plain.divide.as_ref()), (400, None));
        assert!(
            plain.text().starts_with("nodes 400\ntime "),
            "{}",
            plain.text()
        );
        assert!(plain.to_json().get("divide").is_none());
        let split = Count::run(&pos, 2, true, 2);
        assert_eq!(split.nodes, 400);
        let text = split.text();
        assert!(text.starts_with("a2a3: 20\na2a4: 20\n"), "{text}");
        assert!(text.contains("h2h4: 20\n\nnodes 400\n"), "{text}");
        assert!(text.ends_with(&format!("nps {}\n", split.nps)));
        let j = split.to_json();
        assert_eq!(j["divide"]["g1f3"], 20);
        assert_eq!(j["nodes"], 400);
    }
}
