//! Perft: count the leaf nodes of the legal move tree, bulk-counting at depth 1, with
//! `--divide` and a rayon split of the root moves.

use crate::moves::MoveList;
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

/// Per root move counts in notation, sorted by move text; the root moves are shared
/// out over `threads` worker threads (1 = this thread only).
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(String, u64)> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let work = |m: &crate::moves::Move| {
        let mut p = pos.clone();
        p.make_move(*m);
        let n = if depth <= 1 { 1 } else { perft(&mut p, depth - 1) };
        (pos.move_to_string(*m), n)
    };
    let mut out: Vec<(String, u64)> = if threads <= 1 {
        list.iter().map(work).collect()
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("thread pool");
        pool.install(|| list.as_slice().par_iter().map(work).collect())
    };
    out.sort();
    out
}

/// Total leaf count at `depth`, split over `threads` at the root.
pub fn perft_threads(pos: &Position, depth: u32, threads: usize) -> u64 {
    if depth == 0 {
        return 1;
    }
    if threads <= 1 || depth == 1 {
        let mut p = pos.clone();
        return perft(&mut p, depth);
    }
    divide(pos, depth, threads).iter().map(|(_, n)| n).sum()
}
