//! What the threads of one search share (the table, the limits, the node counts, the
//! depths completed) and what passes from one search to the next (move stacks, learnt
//! histories and corrections).

use super::correction::Correction;
use super::crumbs::Crumbs;
use super::eval_cache::EvalCache;
use super::history::Histories;
use super::{Limits, TimePlan, MAX_PLY};
use crate::core::moves::{Move, MoveList, MAX_MOVES};
use crate::eval::{Eval, PawnCache};
use crate::tt::TranspositionTable;
use std::any::Any;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How the protocol steers a running search from outside: `stop` from the user (as
/// against a limit reached), and pondering with the ms at which the clock started.
#[derive(Default)]
pub struct Control {
    /// The user asked the search to stop.
    pub user_stop: AtomicBool,
    /// Searching on the opponent's time: no clock until `ponderhit`.
    pub pondering: AtomicBool,
    /// Ms after the search's start at which the time plan begins (the `ponderhit`).
    pub clock_from_ms: AtomicU64,
}

/// A completed depth as any thread found it, kept so the main thread can report every
/// depth even when another thread completed it first.
#[derive(Clone, Debug)]
pub(crate) struct DepthResult {
    /// Score of the depth's best line.
    pub score: i32,
    /// Its principal variation.
    pub pv: Vec<Move>,
    /// Deepest ply the thread reached in that iteration.
    pub seldepth: u32,
}

/// A node counter on a cache line of its own, so that threads adding to their own
/// counters do not invalidate each other's.
#[repr(align(64))]
#[derive(Default)]
pub(crate) struct Counter(pub AtomicU64);

/// Everything the threads of one search share.
pub(crate) struct Shared {
    /// The transposition table.
    pub tt: Arc<TranspositionTable>,
    /// The evaluation of the variant.
    pub eval: Arc<Eval>,
    /// Set to make every thread unwind.
    pub stop: Arc<AtomicBool>,
    /// Nodes per thread.
    pub nodes: Vec<Counter>,
    /// What bounds the search.
    pub limits: Limits,
    /// Deadlines from the limits.
    pub plan: TimePlan,
    /// When the search began.
    pub start: Instant,
    /// Null-move pruning allowed by the table.
    pub null_move: bool,
    /// The deepest iteration any thread has completed.
    pub deepest: AtomicU32,
    /// Late-move reductions allowed by the table.
    pub lmr: bool,
    /// The table's `lazy_margin` (0: quiescence always evaluates in full).
    pub lazy_margin: i32,
    /// The table's `late_moves`: the multiple of chess's late-move count a node searches.
    pub late_moves: usize,
    /// User stop and pondering.
    pub control: Arc<Control>,
    /// Root lines the main thread searches each iteration (MultiPV, or more for a
    /// weakened engine to choose from).
    pub lines: usize,
    /// Every completed depth's best line, by depth (written once per iteration).
    pub by_depth: Mutex<Vec<Option<DepthResult>>>,
    /// What each thread learnt in the searches before this one (histories, corrections).
    pub learned: Arc<Mutex<Vec<Option<Learned>>>>,
    /// Which thread is searching which node near the root (with more than one thread).
    pub crumbs: Option<Arc<Crumbs>>,
    /// Move stacks the threads of earlier searches left behind.
    pub spare: Arc<Mutex<Vec<Stacks>>>,
}

/// A thread's per-ply move lists, their ordering keys and its principal variations.
/// Nothing in them is read before the ply writes it, so they pass from one search to the
/// next as they are: a search does not begin by allocating and clearing megabytes (nor
/// by faulting in fresh pages for them, a third of a shallow search's time).
pub(crate) struct Stacks {
    /// Per ply: the moves listed there.
    pub(super) lists: Vec<MoveList>,
    /// Per ply, `MAX_MOVES` apart: the ordering keys of those moves.
    pub(super) keys: Box<[i64]>,
    /// Per ply, the principal variation from it (only the first `pv_len` moves of a
    /// ply's row are ever read, each written by the search that reads it).
    pub(super) pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
}

impl Stacks {
    /// Stacks for `MAX_PLY` plies and a few beyond.
    pub(super) fn new() -> Stacks {
        Stacks {
            lists: (0..MAX_PLY + 2).map(|_| MoveList::new()).collect(),
            keys: vec![0; (MAX_PLY + 2) * MAX_MOVES].into_boxed_slice(),
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
        }
    }
}

/// What a thread learns about a game beyond the table: move histories and evaluation
/// corrections. Kept from one search of a game to the next (the next position is
/// usually two plies further down the same tree), dropped by a new game.
pub(crate) struct Learned {
    /// The variant it was learnt in (types and squares index the tables).
    pub(super) variant: Arc<crate::variant::Variant>,
    /// The evaluation the cache holds results of.
    pub(super) eval: Arc<Eval>,
    pub(super) hist: Histories,
    pub(super) corr: Correction,
    pub(super) evals: EvalCache,
    /// The thread's `PawnCache<W>` in the word it searched in.
    pub(super) pawns: Box<dyn Any + Send>,
    /// The side that search was for and the score its last completed iteration ended
    /// with (the time manager's "previous move's score").
    pub(super) score: Option<(crate::core::moves::Color, i32)>,
}

impl Learned {
    /// Forgets the game, keeping the tables' memory for the next one, so that a new
    /// game's first search does not begin by allocating and faulting in megabytes.
    pub(crate) fn reset(&mut self) {
        self.hist.reset();
        self.corr.reset();
        self.evals.reset();
        if let Some(p) = self.pawns.downcast_mut::<PawnCache<u64>>() {
            p.reset();
        } else if let Some(p) = self.pawns.downcast_mut::<PawnCache<u128>>() {
            p.reset();
        }
        self.score = None;
    }
}

impl Shared {
    /// Nodes of all threads so far.
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.0.load(Ordering::Relaxed)).sum()
    }

    /// Time on the clock of this move so far; None while pondering (no clock runs).
    #[inline]
    pub fn clock(&self) -> Option<Duration> {
        if self.control.pondering.load(Ordering::Relaxed) {
            return None;
        }
        let from = Duration::from_millis(self.control.clock_from_ms.load(Ordering::Relaxed));
        Some(self.start.elapsed().saturating_sub(from))
    }

    /// Keeps a thread's completed depth for the main thread's report.
    pub(super) fn record(&self, depth: u32, score: i32, pv: &[Move], seldepth: u32) {
        let mut t = self.by_depth.lock().unwrap_or_else(|e| e.into_inner());
        let d = depth as usize;
        if t.len() <= d {
            t.resize(d + 1, None);
        }
        if t[d].is_none() {
            t[d] = Some(DepthResult {
                score,
                pv: pv.to_vec(),
                seldepth,
            });
        }
    }

    /// The result reported for `depth`: its own, else (when a thread skipped it and
    /// completed a deeper one) the shallowest deeper result, which answers it too.
    pub(crate) fn depth_result(&self, depth: u32) -> Option<DepthResult> {
        let t = self.by_depth.lock().unwrap_or_else(|e| e.into_inner());
        t.iter().skip(depth as usize).flatten().next().cloned()
    }
}
