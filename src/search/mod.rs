//! Alpha-beta search: iterative deepening PVS with aspiration windows, quiescence,
//! a shared transposition table and lazy SMP (see `smp`).
//!
//! Everything here goes through the generic `Position` API (legal move lists,
//! make/unmake, null moves, keys), so any game that has a table gets the same search.
//! Pruning that could be unsound in a game is switched by its table (`[search]`
//! `null_move`, `lmr`) and by what is on the board (no null move without pieces).

pub mod correction;
pub mod eval_cache;
pub mod history;
mod iterate;
pub mod ordering;
pub mod pace;
mod picker;
mod quiescence;
pub mod report;
pub mod skill;
pub mod smp;
pub mod threats;
pub mod time;

pub use smp::{Engine, Event, SearchHandle};
pub use time::{Limits, TimePlan};

use crate::core::geometry::Word;
use crate::core::moves::{Move, MoveList, Piece, MAX_MOVES};
use crate::eval::{Estimate, Eval, PawnCache};
use crate::movegen::check_squares::CheckSquares;
use crate::position::Position;
use crate::tt::{is_stored_move, Bound, Hit, TranspositionTable, NO_EVAL};
use correction::{pawn_key, Correction};
use eval_cache::EvalCache;
use history::{ContIndex, Histories, NO_CONT};
use ordering::{
    captured, is_tactical, keeps_piece_after, kill_value, moving_piece, promotion_gain, see_ge,
    tactical_order, KILLER, TT_SCORE,
};
use picker::{drop_quiet_non_checks, order_key, pick};
use std::any::Any;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use threats::Threats;

/// Deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 128;
/// Quiescence plies in which kills that do not end on their victim are searched.
const KILL_PLIES: u32 = 2;
/// How far below the singular test's beta every other move must fall for the table move
/// to earn two plies (Stockfish's double extension), outside PV nodes.
const DOUBLE_MARGIN: i32 = 25;
/// Shallowest depth at which quiet moves are ordered by the threats of cheaper pieces.
const THREAT_DEPTH: i32 = 3;
/// Double extensions allowed on one line.
const MAX_DOUBLES: u8 = 6;

/// Score of mate at the root; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Larger than any score.
pub const INF: i32 = 32_500;

/// What a singular-extension test found for the table move.
enum Singular {
    /// Every other move falls short of it, by this much at least: it earns a ply (two
    /// where they fall far short).
    Extend(i32),
    /// Not singular.
    No,
    /// Other moves reach beta too: the node is cut with this score.
    Cut(i32),
}

/// One completed iteration (one of its lines with MultiPV), as reported to a protocol.
#[derive(Clone, Debug)]
pub struct Info {
    /// Depth of the completed iteration.
    pub depth: u32,
    /// Which of the best root lines this is (1 = the best).
    pub multipv: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score for the side to move, centipawns or mate score.
    pub score: i32,
    /// Nodes of all threads.
    pub nodes: u64,
    /// Elapsed time in ms.
    pub ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Per mille of the table in use.
    pub hashfull: u32,
    /// Principal variation in notation.
    pub pv: Vec<String>,
}

impl Info {
    /// The UCI score field: `cp N` or `mate N` (moves, negative when being mated).
    pub fn uci_score(&self) -> String {
        uci_score(self.score)
    }
}

/// `cp N` or `mate N` for a search score.
pub fn uci_score(score: i32) -> String {
    if score.abs() >= MATE_BOUND {
        let plies = MATE - score.abs();
        let moves = (plies + 1) / 2;
        format!("mate {}", if score > 0 { moves } else { -moves })
    } else {
        format!("cp {score}")
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play; None when the position has no legal move.
    pub best: Option<Move>,
    /// Its score for the side to move.
    pub score: i32,
    /// Depth of the iteration the move comes from.
    pub depth: u32,
    /// Nodes of all threads.
    pub nodes: u64,
    /// Elapsed time in ms.
    pub ms: u64,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// The principal variation in notation.
    pub pv_text: Vec<String>,
    /// Why the search failed (a search thread panicked); the move is then a fallback.
    pub error: Option<String>,
}

/// Depth, score and principal variation of a completed iteration.
pub(crate) type Completed = (u32, i32, Vec<Move>);

/// One root line of an iteration: its score and principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Score for the side to move.
    pub score: i32,
    /// The line's moves from the root.
    pub pv: Vec<Move>,
}

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
    /// User stop and pondering.
    pub control: Arc<Control>,
    /// Root lines the main thread searches each iteration (MultiPV, or more for a
    /// weakened engine to choose from).
    pub lines: usize,
    /// Every completed depth's best line, by depth (written once per iteration).
    pub by_depth: Mutex<Vec<Option<DepthResult>>>,
    /// What each thread learnt in the searches before this one (histories, corrections).
    pub learned: Arc<Mutex<Vec<Option<Learned>>>>,
    /// Move stacks the threads of earlier searches left behind.
    pub spare: Arc<Mutex<Vec<Stacks>>>,
}

/// A thread's per-ply move lists and their ordering keys. Nothing in them is read before
/// the ply writes it, so they pass from one search to the next as they are: a search does
/// not begin by allocating and clearing megabytes.
pub(crate) struct Stacks {
    /// Per ply: the moves listed there.
    lists: Vec<MoveList>,
    /// Per ply, `MAX_MOVES` apart: the ordering keys of those moves.
    keys: Box<[i64]>,
}

impl Stacks {
    /// Stacks for `MAX_PLY` plies and a few beyond.
    fn new() -> Stacks {
        Stacks {
            lists: (0..MAX_PLY + 2).map(|_| MoveList::new()).collect(),
            keys: vec![0; (MAX_PLY + 2) * MAX_MOVES].into_boxed_slice(),
        }
    }
}

/// What a thread learns about a game beyond the table: move histories and evaluation
/// corrections. Kept from one search of a game to the next (the next position is
/// usually two plies further down the same tree), dropped by a new game.
pub(crate) struct Learned {
    /// The variant it was learnt in (types and squares index the tables).
    variant: Arc<crate::variant::Variant>,
    /// The evaluation the cache holds results of.
    eval: Arc<Eval>,
    hist: Histories,
    corr: Correction,
    evals: EvalCache,
    /// The thread's `PawnCache<W>` in the word it searched in.
    pawns: Box<dyn Any + Send>,
    /// The side that search was for and the score its last completed iteration ended
    /// with (the time manager's "previous move's score").
    score: Option<(crate::core::moves::Color, i32)>,
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
    fn record(&self, depth: u32, score: i32, pv: &[Move], seldepth: u32) {
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

fn lmr_table() -> &'static [[u8; 64]; 64] {
    static T: OnceLock<Box<[[u8; 64]; 64]>> = OnceLock::new();
    T.get_or_init(|| {
        let mut t = Box::new([[0u8; 64]; 64]);
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (m as f64).ln() / 2.25) as u8;
            }
        }
        t
    })
}

/// Converts a score for storing: mates relative to the node, not the root.
fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

/// True when a table score with this bound settles the node for the window.
#[inline]
fn tt_cuts(bound: Bound, s: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    }
}

fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// One search thread.
pub(crate) struct Worker<W: Word> {
    /// 0 for the main thread.
    pub id: usize,
    /// The position searched (made and unmade in place).
    pub pos: Position<W>,
    shared: Arc<Shared>,
    /// This thread's handle on the evaluation (never cloned per node: a shared
    /// reference count touched by every thread would bounce between cores).
    eval: Arc<Eval>,
    hist: Histories,
    /// What the static evaluation has missed per pawn structure, this search.
    corr: Correction,
    /// Static evaluations of positions seen before.
    eval_cache: EvalCache,
    /// Pawn structures seen before, with what the evaluation found in them.
    pawn_cache: PawnCache<W>,
    /// The continuation index of the move made at each ply ([`NO_CONT`] for a null move).
    conts: [ContIndex; MAX_PLY + 2],
    /// Per ply: the moves listed there (from [`Stacks`]).
    lists: Vec<MoveList>,
    /// Per ply, `MAX_MOVES` apart: the ordering keys of those moves.
    keys: Box<[i64]>,
    killers: Box<[[Move; 2]; MAX_PLY + 2]>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    evals: [i32; MAX_PLY + 2],
    /// The move made at each ply of the current line (`Move::NULL` for a null move).
    current: [Move; MAX_PLY + 2],
    /// The move left out at each ply while a singular-extension test searches the others
    /// (`Move::NULL` when none is).
    skip: [Move; MAX_PLY + 2],
    /// Double singular extensions on the line to each ply (they are capped per line, so
    /// that a line of them cannot deepen the search without end).
    doubles: [u8; MAX_PLY + 2],
    /// Per ply: the cuts its nodes made since the node two plies up began, two for one
    /// without a table move. Where the next ply has cut more than three times, a node's
    /// late moves are reduced a ply more: its moves are being refuted one after another
    /// (Stockfish's `cutoffCnt`; +12.9 Elo in chess, docs/strength.md).
    cutoffs: [u16; MAX_PLY + 3],
    nodes: u64,
    flushed: u64,
    seldepth: usize,
    root_depth: i32,
    /// Depth, score and PV of the last completed iteration.
    pub completed: Option<Completed>,
    /// The best root move of an iteration stopped before it completed (a limit reached
    /// inside depth 1), so that even the shortest search has a searched move to play.
    pub partial: Option<Move>,
    stopped: bool,
    /// The current iteration is being unwound because another thread completed its
    /// depth (`stopped` is set too, so the search unwinds the usual way).
    abandoned: bool,
    /// Root moves left out of this search of the iteration (the earlier MultiPV lines).
    excluded: Vec<Move>,
    /// The iteration may be dropped when another thread completes its depth (not the
    /// main thread's with several lines: it needs every depth's lines itself).
    abandonable: bool,
    /// The lines of the last completed iteration, best first.
    pub lines: Vec<Line>,
    /// The score this game's previous search ended with (see [`Learned`]).
    before: Option<i32>,
    /// Nodes spent below each root move in this search's first lines (the main
    /// thread's: the time manager's best-move share).
    root_nodes: Vec<(Move, u64)>,
}

impl<W: Word> Worker<W> {
    /// A thread's state for a search of `pos`.
    /// It starts from what thread `id` learnt in the searches before, if they were of
    /// the same variant.
    pub fn new(id: usize, pos: Position<W>, shared: Arc<Shared>) -> Worker<W> {
        let kept = {
            let mut l = shared.learned.lock().unwrap_or_else(|e| e.into_inner());
            l.get_mut(id)
                .and_then(Option::take)
                .filter(|k| Arc::ptr_eq(&k.variant, pos.variant()))
        };
        // Another side's score (a GUI analysing both) says nothing about this one's.
        let before = kept
            .as_ref()
            .and_then(|k| k.score)
            .filter(|&(side, _)| side == pos.side_to_move())
            .map(|(_, s)| s);
        let (hist, corr, eval_cache, pawn_cache) = match kept {
            Some(k) => {
                // The caches hold one evaluation's results: other weights, other caches.
                let (ev, pawns) = if Arc::ptr_eq(&k.eval, &shared.eval) {
                    (k.evals, k.pawns.downcast::<PawnCache<W>>().ok())
                } else {
                    (EvalCache::default(), None)
                };
                (
                    k.hist,
                    k.corr,
                    ev,
                    pawns.map_or_else(PawnCache::default, |p| *p),
                )
            }
            None => (
                Histories::new(pos.variant().pieces.len(), pos.variant().board.squares()),
                Correction::default(),
                EvalCache::default(),
                PawnCache::default(),
            ),
        };
        let stacks = shared
            .spare
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .pop()
            .unwrap_or_else(Stacks::new);
        Worker {
            id,
            pos,
            eval: Arc::clone(&shared.eval),
            shared,
            hist,
            corr,
            eval_cache,
            pawn_cache,
            conts: [NO_CONT; MAX_PLY + 2],
            lists: stacks.lists,
            keys: stacks.keys,
            killers: Box::new([[Move::NULL; 2]; MAX_PLY + 2]),
            pv: Box::new([[Move::NULL; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            evals: [0; MAX_PLY + 2],
            current: [Move(u64::MAX); MAX_PLY + 2],
            skip: [Move::NULL; MAX_PLY + 2],
            doubles: [0; MAX_PLY + 2],
            cutoffs: [0; MAX_PLY + 3],
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            root_depth: 0,
            completed: None,
            partial: None,
            stopped: false,
            abandoned: false,
            excluded: Vec::with_capacity(MAX_MOVES),
            abandonable: true,
            lines: Vec::new(),
            before,
            root_nodes: Vec::new(),
        }
    }

    /// Hands what this thread learnt back for the next search of the game, and its
    /// move stacks for the next search's threads.
    pub fn keep_learned(self) {
        let Worker {
            id,
            pos,
            shared,
            hist,
            corr,
            eval_cache,
            pawn_cache,
            eval,
            lists,
            keys,
            completed,
            ..
        } = self;
        shared
            .spare
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Stacks { lists, keys });
        let mut l = shared.learned.lock().unwrap_or_else(|e| e.into_inner());
        if l.len() <= id {
            l.resize_with(id + 1, || None);
        }
        l[id] = Some(Learned {
            variant: Arc::clone(pos.variant()),
            eval,
            hist,
            corr,
            evals: eval_cache,
            pawns: Box::new(pawn_cache),
            score: completed.map(|c| (pos.side_to_move(), c.1)),
        });
    }

    fn flush_nodes(&mut self) {
        self.shared.nodes[self.id]
            .0
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// Counts a node and tells whether the search must unwind now.
    #[inline]
    fn tick(&mut self) -> bool {
        // A node entered while the search unwinds (a re-search after a stopped child's
        // 0) is not searched and not counted: a node limit is kept to the node.
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        // Limits hold inside depth 1 too: in a crowded position its quiescence alone can
        // take minutes, and the caller falls back on `partial` or any legal move.
        if self.shared.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return true;
        }
        if self.id == 0 {
            if let Some(n) = self.shared.limits.nodes {
                if self.nodes + self.other_nodes() >= n {
                    self.shared.stop.store(true, Ordering::Relaxed);
                    self.stopped = true;
                    return true;
                }
            }
        }
        if self.nodes & 255 == 0 {
            self.flush_nodes();
            // Lazy SMP: an iteration another thread has already completed is dropped
            // and this thread moves on to the next depth with that thread's TT entries.
            if self.abandonable
                && self.shared.nodes.len() > 1
                && self.shared.deepest.load(Ordering::Relaxed) >= self.root_depth as u32
            {
                self.stopped = true;
                self.abandoned = true;
                return true;
            }
            if self.id == 0 {
                if let Some(h) = self.shared.plan.hard {
                    if self.shared.clock().is_some_and(|e| e >= h) {
                        self.shared.stop.store(true, Ordering::Relaxed);
                        self.stopped = true;
                        return true;
                    }
                }
            }
        }
        false
    }

    fn other_nodes(&self) -> u64 {
        if self.shared.nodes.len() == 1 {
            0
        } else {
            self.shared.total_nodes() - self.flushed
        }
    }

    /// True when the position is drawn by rule whatever the moves: 50-move rule
    /// (checked by the caller when in check: mate wins over it), repetition, bare royals.
    fn is_draw(&self, in_check: bool) -> bool {
        if self.pos.halfmove() >= 100 && !in_check {
            return true;
        }
        if self.pos.repetitions() >= 1 {
            return true;
        }
        let v = self.pos.variant();
        if v.royal_mask != 0 {
            let occ = self.pos.occupied();
            if occ.count() <= 2 * v.royal_mask.count_ones() {
                let royals = self.pos.royals(crate::core::moves::Color::White)
                    | self.pos.royals(crate::core::moves::Color::Black);
                if occ == royals && !self.eval.any_in_hand(&self.pos) {
                    return true;
                }
            }
        }
        false
    }

    #[inline]
    fn evaluate(&self) -> i32 {
        self.eval.evaluate(&self.pos)
    }

    /// The static evaluation of the node with key `key` and pawn key `pkey`, from this
    /// thread's cache when it was evaluated before.
    #[inline]
    fn evaluate_cached(&mut self, key: u64, pkey: u64) -> i32 {
        self.evaluate_within(key, pkey, i32::MIN, i32::MAX, 0).value
    }

    /// The static evaluation of a quiescence node searched with window (`alpha`, `beta`):
    /// only its cheap part where that, corrected, lies the table's `lazy_margin` or more
    /// outside the window. Why: in the bench of the first table to set it, a third of
    /// quiescence's evaluations end so far from the window that mobility, threats and
    /// royal safety (nine tenths of the evaluation's cost) bring back 1 in 5,000 of them
    /// (docs/strength.md).
    fn evaluate_lazy(&mut self, key: u64, pkey: u64, alpha: i32, beta: i32) -> Estimate {
        let margin = self.shared.lazy_margin;
        if margin == 0 {
            return self.evaluate_within(key, pkey, i32::MIN, i32::MAX, 0);
        }
        let c = self.corr.get(self.pos.side_to_move(), pkey);
        self.evaluate_within(
            key,
            pkey,
            alpha.saturating_sub(c),
            beta.saturating_sub(c),
            margin,
        )
    }

    /// [`Eval::evaluate_within`] of the node (raw: the window `lo`, `hi` is the
    /// uncorrected one), from this thread's cache when it was evaluated in full before;
    /// only a full evaluation is kept there.
    #[inline]
    fn evaluate_within(&mut self, key: u64, pkey: u64, lo: i32, hi: i32, margin: i32) -> Estimate {
        if let Some(value) = self.eval_cache.get(key) {
            return Estimate { value, exact: true };
        }
        let e = self
            .eval
            .evaluate_within(&self.pos, pkey, &mut self.pawn_cache, lo, hi, margin);
        if e.exact {
            self.eval_cache.put(key, e.value);
        }
        e
    }

    /// A static evaluation with this search's correction for its pawn structure (`pkey`);
    /// `NO_EVAL` stays as it is.
    #[inline]
    fn corrected(&self, raw: i32, pkey: u64) -> i32 {
        if raw == NO_EVAL {
            return NO_EVAL;
        }
        let c = self.corr.get(self.pos.side_to_move(), pkey);
        (raw + c).clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = m;
        let next = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..next {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = next;
    }

    /// The continuation indices of the two moves before `ply` (the opponent's, then ours).
    #[inline]
    fn prev_conts(&self, ply: usize) -> [ContIndex; 2] {
        [
            if ply >= 1 {
                self.conts[ply - 1]
            } else {
                NO_CONT
            },
            if ply >= 2 {
                self.conts[ply - 2]
            } else {
                NO_CONT
            },
        ]
    }

    fn negamax(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        in_check: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(alpha, beta, ply, 0, in_check);
        }
        self.pv_len[ply] = ply;
        if self.tick() {
            return 0;
        }
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        self.seldepth = self.seldepth.max(ply);
        if !root {
            if self.is_draw(in_check) {
                return 0;
            }
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { 0 } else { self.evaluate() };
            }
        }
        let key = self.pos.key();
        let hit = self.shared.tt.probe(key);
        let skip = self.skip[ply];
        let mut tt_move = Move::NULL;
        let mut tt_eval = NO_EVAL;
        if let Some(h) = hit {
            tt_move = h.mv;
            tt_eval = h.eval;
            // The table's score is of this node with every move; a singular test leaves one out.
            if !pv_node && skip == Move::NULL && h.depth >= depth {
                let s = score_from_tt(h.score, ply);
                if tt_cuts(h.bound, s, alpha, beta) {
                    return s;
                }
            }
        }
        let us = self.pos.side_to_move();
        let pkey = if in_check { 0 } else { pawn_key(&self.pos) };
        let raw = if in_check {
            NO_EVAL
        } else if tt_eval != NO_EVAL {
            tt_eval
        } else {
            self.evaluate_cached(key, pkey)
        };
        let eval = self.corrected(raw, pkey);
        self.evals[ply] = eval;
        let improving =
            !in_check && ply >= 2 && self.evals[ply - 2] != NO_EVAL && eval > self.evals[ply - 2];
        if !pv_node && !in_check && beta.abs() < MATE_BOUND {
            // Reverse futility: far above beta at shallow depth, a quiet move will not
            // bring the score back down.
            if depth <= 7 && eval - 85 * (depth - improving as i32) >= beta {
                return eval;
            }
            let after_null = ply > 0 && self.current[ply - 1] == Move::NULL;
            if self.shared.null_move
                && skip == Move::NULL
                && depth >= 3
                && eval >= beta
                && !after_null
                && self
                    .shared
                    .eval
                    .has_pieces(&self.pos, self.pos.side_to_move())
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                self.current[ply] = Move::NULL;
                self.conts[ply] = NO_CONT;
                self.pos.make_null();
                self.doubles[ply + 1] = self.doubles[ply];
                self.killers[ply + 1] = [Move::NULL; 2];
                let s = -self.negamax(-beta, -beta + 1, depth - 1 - r, ply + 1, false);
                self.pos.unmake_null();
                if self.stopped {
                    return 0;
                }
                if s >= beta {
                    return if s >= MATE_BOUND { beta } else { s };
                }
            }
        }
        // Internal iterative reduction: with no table move this node was never searched
        // deep enough to order well, so a shallower search here is the cheaper way to get one.
        if depth >= 4 && tt_move == Move::NULL && !in_check {
            depth -= 1;
        }
        self.pos.legal_moves(&mut self.lists[ply]);
        if root && !self.shared.limits.searchmoves.is_empty() {
            let list = &mut self.lists[0];
            let keep: Vec<Move> = list
                .iter()
                .copied()
                .filter(|m| self.shared.limits.searchmoves.contains(m))
                .collect();
            if !keep.is_empty() {
                list.clear();
                for m in keep {
                    list.push(m);
                }
            }
        }
        if self.lists[ply].is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        if !root && self.pos.halfmove() >= 100 {
            return 0;
        }
        // A table move is only trusted if it is in the legal list (keys can collide); the
        // legal move it names carries the kill squares the table does not keep.
        if tt_move != Move::NULL {
            tt_move = self.lists[ply]
                .iter()
                .copied()
                .find(|&m| is_stored_move(tt_move, m))
                .unwrap_or(Move::NULL);
        }
        let singular = match hit {
            Some(h) if !root && skip == Move::NULL && tt_move != Move::NULL && depth >= 6 => {
                match self.singular(h, tt_move, beta, depth, ply, in_check) {
                    // Far below: the table move is the only one worth playing.
                    Singular::Extend(below) => {
                        let double =
                            !pv_node && below > DOUBLE_MARGIN && self.doubles[ply] < MAX_DOUBLES;
                        1 + double as i32
                    }
                    Singular::No => 0,
                    Singular::Cut(s) => return s,
                }
            }
            _ => 0,
        };
        if self.stopped {
            return 0;
        }
        let n = self.lists[ply].len();
        let killers = self.killers[ply];
        let prev = self.prev_conts(ply);
        let counter = self.hist.counter(prev[0]);
        // What the opponent's cheaper pieces attack, found with the first quiet move
        // scored (a node whose moves are all captures or killers never asks). Only from
        // depth 3: read at every depth they cost the chess bench 12% of its nodes/s, and
        // nearer the leaves move-count pruning leaves few quiet moves for them to rank.
        let mut threats: Option<Threats<W>> = None;
        let use_threats = depth >= THREAT_DEPTH;
        for i in 0..n {
            let m = self.lists[ply].as_slice()[i];
            let mut unsure = false;
            let score = if m == tt_move {
                TT_SCORE
            } else if let Some((s, u)) = tactical_order(&self.eval, &self.pos, m) {
                unsure = u;
                s
            } else if m == killers[0] {
                KILLER
            } else if m == killers[1] {
                KILLER - 1
            } else if m == counter {
                KILLER - 2
            } else {
                let pc = moving_piece(&self.pos, m);
                let to = m.to().idx();
                let h = self.hist.quiet_score(pc, to, prev);
                if use_threats {
                    let t = match &threats {
                        Some(t) => t,
                        None => threats.insert(Threats::of(&self.eval, &self.pos)),
                    };
                    h + t.order_change(pc, m)
                } else {
                    h
                }
            };
            self.keys[ply * MAX_MOVES + i] = order_key(score, i, unsure);
        }
        self.killers[ply + 1] = [Move::NULL; 2];
        self.cutoffs[ply + 2] = 0;
        let mut best = -INF;
        let mut best_move = Move::NULL;
        let mut searched = 0;
        // The quiet moves searched, for the history's malus: two bytes each, as a node
        // fills this afresh (a square's index fits a byte).
        let mut quiets = [(Piece::NONE, 0u8); 64];
        let mut nq = 0;
        let lmr = lmr_table();
        // Where the list ends: quiet moves a node-wide pruning has ruled out are dropped
        // from it, so the picker does not sort its way through them.
        let mut end = n;
        let mut quiets_dropped = false;
        // Which moves may check, found on the first question (most nodes ask none).
        let mut checks: Option<CheckSquares<W>> = None;
        for i in 0..n {
            if i >= end {
                break;
            }
            let (m, score) = pick(
                &mut self.lists[ply],
                &mut self.keys[ply * MAX_MOVES..(ply + 1) * MAX_MOVES],
                i,
                |m| see_ge(&self.eval, &self.pos, m, 0),
            );
            // MultiPV: the root moves of the lines already found are not this line's.
            if (root && self.excluded.contains(&m)) || m == skip {
                continue;
            }
            let is_tactical = is_tactical(&self.eval, &self.pos, m);
            let quiet = !is_tactical;
            // Near the leaves, late quiet moves, quiet moves that cannot lift the score to
            // alpha, and losing exchanges are skipped unless they give check.
            let mut prune = false;
            if !root && !in_check && best > -MATE_BOUND && searched > 0 {
                if quiet {
                    // Late or futile: this holds for every quiet move after this one too
                    // (the count, the best score and alpha only grow), so the rest of the
                    // quiet moves that cannot check are dropped from the list at once
                    // rather than picked one by one to be skipped.
                    let late = (depth <= 5
                        && searched >= (3 + depth * depth) as usize / (2 - improving as usize))
                        || (depth <= 4 && eval != NO_EVAL && eval + 100 + 90 * depth <= alpha);
                    if late && !quiets_dropped {
                        quiets_dropped = true;
                        let cs = checks.get_or_insert_with(|| self.pos.check_squares());
                        end = drop_quiet_non_checks(
                            &self.eval,
                            &self.pos,
                            cs,
                            &mut self.lists[ply],
                            &mut self.keys[ply * MAX_MOVES..(ply + 1) * MAX_MOVES],
                            i + 1..end,
                        );
                    }
                    prune = late
                        // A quiet move that hands material over by exchange.
                        || (depth <= 7 && !see_ge(&self.eval, &self.pos, m, -25 * depth * depth));
                } else if depth <= 4 && score < 0 {
                    prune = !see_ge(&self.eval, &self.pos, m, -60 * depth);
                }
            }
            if prune
                && !checks
                    .get_or_insert_with(|| self.pos.check_squares())
                    .may_give_check(&self.pos, m)
            {
                continue;
            }
            let pc = moving_piece(&self.pos, m);
            let to = m.to().idx();
            self.current[ply] = m;
            self.conts[ply] = self.hist.index(pc, to);
            let nodes_before = self.nodes;
            self.pos.make_move(m);
            self.shared.tt.prefetch(self.pos.key());
            let gives_check = self.pos.gave_check();
            if prune && !gives_check {
                self.pos.unmake_move();
                continue;
            }
            // A check that hands material over (the checker is lost by exchange) is no
            // forcing line worth a ply: many long-range pieces on a large board give
            // such checks at nearly every node.
            let check_ext = (gives_check
                && (ply as i32) < 2 * self.root_depth
                && (is_tactical || self.safe_check(m))) as i32;
            let ext = if m == tt_move {
                singular.max(check_ext)
            } else {
                check_ext
            };
            self.doubles[ply + 1] = self.doubles[ply] + (ext > 1) as u8;
            let new_depth = depth - 1 + ext;
            let mut s;
            if searched == 0 {
                s = -self.negamax(-beta, -alpha, new_depth, ply + 1, gives_check);
            } else {
                // Quiet checks are reduced like other quiet moves: with long-range pieces on
                // a large board many quiet moves check, and exempting them cost 30 Elo on
                // a 10x10 board (docs/strength.md).
                // A capture that loses material by exchange comes after the quiet moves and
                // is reduced like them, a ply less (its history is not a quiet move's).
                let losing_capture = !quiet && score < 0;
                let mut r = 0;
                if self.shared.lmr
                    && !root
                    && depth >= 3
                    && searched >= 2
                    && (quiet || losing_capture)
                    && !in_check
                {
                    r = lmr[(depth as usize).min(63)][searched.min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    if self.cutoffs[ply + 1] > 3 {
                        r += 1;
                    }
                    if losing_capture {
                        r -= 1;
                    } else {
                        if score >= KILLER - 2 {
                            r -= 1;
                        }
                        r -= score.clamp(-16384, 16384) / 8192;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                s = -self.negamax(-alpha - 1, -alpha, new_depth - r, ply + 1, gives_check);
                if s > alpha && r > 0 {
                    s = -self.negamax(-alpha - 1, -alpha, new_depth, ply + 1, gives_check);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(-beta, -alpha, new_depth, ply + 1, gives_check);
                }
            }
            self.pos.unmake_move();
            if root && self.id == 0 && self.excluded.is_empty() {
                self.count_root_nodes(m, self.nodes - nodes_before);
            }
            if self.stopped {
                return 0;
            }
            searched += 1;
            if s > best {
                best = s;
                if s > alpha {
                    best_move = m;
                    alpha = s;
                    self.update_pv(ply, m);
                    if s >= beta {
                        self.cutoffs[ply] =
                            self.cutoffs[ply].saturating_add(1 + (tt_move == Move::NULL) as u16);
                        let bonus = history::bonus(depth);
                        if quiet {
                            if self.killers[ply][0] != m {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = m;
                            }
                            self.hist.update(pc, to, prev, bonus);
                            for &(qp, qto) in &quiets[..nq] {
                                self.hist.update(qp, qto as usize, prev, -bonus);
                            }
                            self.hist.set_counter(prev[0], m);
                        }
                        break;
                    }
                }
            }
            if quiet && nq < quiets.len() {
                quiets[nq] = (pc, to as u8);
                nq += 1;
            }
        }
        // A singular test's node without its one move: nothing of its own to store. Its
        // score is fail-soft (how far below the test's beta the others fall decides a
        // double extension); with every other move pruned it is the test's alpha.
        if skip != Move::NULL {
            return if best == -INF { alpha } else { best };
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best_move != Move::NULL && pv_node {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A root searched without some of its moves (a later MultiPV line) has no score
        // of its own to store.
        if !root || self.excluded.is_empty() {
            self.shared
                .tt
                .store(key, best_move, score_to_tt(best, ply), raw, depth, bound);
            // Learn the evaluation's miss where the result says which way it went: not
            // after a capture (material, not structure, moved the score), nor from a
            // bound on the side the evaluation already lies on.
            if eval != NO_EVAL
                && best.abs() < MATE_BOUND
                && (best_move == Move::NULL || !is_tactical(&self.eval, &self.pos, best_move))
                && !(bound == Bound::Lower && best <= eval)
                && !(bound == Bound::Upper && best >= eval)
            {
                self.corr.update(us, pkey, best - eval, depth);
            }
        }
        best
    }

    /// Singular extension: whether the table move `tt` is so much better than every other
    /// move that it earns a ply, found by a shallow search of the others below its score
    /// (how far below they fall is returned: far enough, the caller gives two plies).
    /// Where even the others reach beta, the node is cut (several moves refute it).
    fn singular(
        &mut self,
        h: Hit,
        tt: Move,
        beta: i32,
        depth: i32,
        ply: usize,
        in_check: bool,
    ) -> Singular {
        let tt_score = score_from_tt(h.score, ply);
        if h.bound == Bound::Upper
            || h.depth < depth - 3
            || tt_score.abs() >= MATE_BOUND
            || ply as i32 >= 2 * self.root_depth
        {
            return Singular::No;
        }
        let sbeta = tt_score - 2 * depth;
        // The test searches this same node at the same ply, so it regenerates this ply's
        // move list (the same moves, in another order: the caller scores them afresh).
        self.skip[ply] = tt;
        let s = self.negamax(sbeta - 1, sbeta, (depth - 1) / 2, ply, in_check);
        self.skip[ply] = Move::NULL;
        // Its line is not this node's.
        self.pv_len[ply] = ply;
        if s < sbeta {
            Singular::Extend(sbeta - s)
        } else if sbeta >= beta {
            Singular::Cut(sbeta)
        } else {
            Singular::No
        }
    }

    /// Whether the quiet move `m`, just made, keeps its piece by exchange (SEE of the
    /// position before it is not negative).
    fn safe_check(&self, m: Move) -> bool {
        keeps_piece_after(&self.eval, &self.pos, m)
    }

    /// Deepest ply of the last iteration.
    pub fn seldepth(&self) -> usize {
        self.seldepth
    }
}

/// Lazy SMP depth skew: helper threads leave out some depths so that the threads spread
/// over consecutive depths instead of all searching the same tree in step. The caller
/// shifts `depth` by the depth limit so that, in a fixed-depth search, a helper's pattern
/// lands on the target depth straight from two below it rather than one (measured on
/// the bench sets: 1.63-1.66x time-to-depth with 2 threads at depths 9 and 10, against
/// 1.47-1.52x when the pattern ran out of phase with the target).
fn skip_depth(id: usize, depth: u32) -> bool {
    const SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    let i = (id - 1) % 20;
    ((depth + PHASE[i]) / SIZE[i]) % 2 == 1
}
