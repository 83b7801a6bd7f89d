//! Perft: count the leaf nodes of the legal move tree, bulk-counting at depth 1, with
//! `--divide` and a rayon split of the root moves.

pub mod suite;

use crate::core::moves::{Move, MoveList};
use crate::position::Position;
use rayon::prelude::*;

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
