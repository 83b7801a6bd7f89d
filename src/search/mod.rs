//! Alpha-beta search: iterative deepening PVS with aspiration windows, quiescence,
//! a shared transposition table and lazy SMP (see `smp`).
//!
//! Everything here goes through the generic `Position` API (legal move lists,
//! make/unmake, null moves, keys), so any game that has a table gets the same search.
//! Pruning that could be unsound in a game is switched by its table (`[search]`
//! `null_move`, `lmr`) and by what is on the board (no null move without pieces).

pub mod correction;
mod crumbs;
pub mod eval_cache;
pub mod history;
mod iterate;
mod negamax;
pub mod ordering;
pub mod pace;
mod picker;
mod pool;
mod quiescence;
pub mod report;
mod shared;
pub mod skill;
pub mod smp;
pub mod threats;
pub mod time;

pub use shared::Control;
pub(crate) use shared::{Counter, Learned, Shared, Stacks};
pub use smp::{Engine, Event, SearchHandle};
pub use time::{Limits, TimePlan};

use crate::core::geometry::Word;
use crate::core::moves::{Move, MoveList, MAX_MOVES};
use crate::eval::{Estimate, Eval, PawnCache};
use crate::position::Position;
use crate::tt::{is_stored_move, Bound, NO_EVAL};
use correction::{Correction, Keys};
use eval_cache::EvalCache;
use history::{ContIndex, Histories, NO_CONT};
use ordering::{
    captured, kill_value, moving_piece, promotion_gain, see_ge, tactical_order, TT_SCORE,
};
use picker::{order_key, pick};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 128;
/// Quiescence plies in which kills that do not end on their victim are searched.
const KILL_PLIES: u32 = 2;
/// Quiescence plies in which every capture is searched; below them only recaptures.
const RECAPTURE_PLIES: u32 = 5;

/// Score of mate at the root; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Larger than any score.
pub const INF: i32 = 32_500;

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
    /// Depth of the last completed iteration (the move may be the next one's, stopped
    /// after it was searched).
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

/// Depth, score and principal variation of a completed iteration (score and line
/// from the next one when it was stopped after a root move raised alpha).
pub(crate) type Completed = (u32, i32, Vec<Move>);

/// One root line of an iteration: its score and principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Score for the side to move.
    pub score: i32,
    /// The line's moves from the root.
    pub pv: Vec<Move>,
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
    /// What the static evaluation has missed per pawn structure and per each colour's
    /// pieces, this search.
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
    /// Per ply: the plies a late-move reduction took from the reduced search of its move
    /// now running (zero outside one), for the child's hindsight depth adjustment.
    reductions: [u8; MAX_PLY + 2],
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
    /// The score of the root move that last raised alpha in the iteration under way
    /// (with `pv[0]`, what a stopped iteration leaves to play).
    root_score: i32,
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
            pv: stacks.pv,
            killers: Box::new([[Move::NULL; 2]; MAX_PLY + 2]),
            pv_len: [0; MAX_PLY + 1],
            evals: [0; MAX_PLY + 2],
            current: [Move(u64::MAX); MAX_PLY + 2],
            skip: [Move::NULL; MAX_PLY + 2],
            doubles: [0; MAX_PLY + 2],
            reductions: [0; MAX_PLY + 2],
            cutoffs: [0; MAX_PLY + 3],
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            root_depth: 0,
            completed: None,
            partial: None,
            root_score: 0,
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
            pv,
            completed,
            ..
        } = self;
        shared
            .spare
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Stacks { lists, keys, pv });
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
            let limits = &self.shared.limits;
            let cap = match (limits.nodes, limits.skill_nodes) {
                (n, Some(s)) if self.completed.is_some() => Some(n.map_or(s, |n| n.min(s))),
                (n, _) => n,
            };
            if let Some(n) = cap {
                if self.nodes + self.other_nodes() >= n {
                    self.shared.stop.store(true, Ordering::Relaxed);
                    self.stopped = true;
                    return true;
                }
            }
        }
        if self.nodes & 255 == 0 {
            self.flush_nodes();
            // A helper checks the node limit too: should the main thread not run for a
            // while (a busy machine), the helpers would otherwise search on past it.
            if self.id > 0 {
                if let Some(n) = self.shared.limits.nodes {
                    if self.shared.total_nodes() >= n {
                        self.shared.stop.store(true, Ordering::Relaxed);
                        self.stopped = true;
                        return true;
                    }
                }
            }
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
    fn evaluate_lazy(&mut self, key: u64, ckeys: &Keys, alpha: i32, beta: i32) -> Estimate {
        let margin = self.shared.lazy_margin;
        if margin == 0 {
            return self.evaluate_within(key, ckeys.pawns, i32::MIN, i32::MAX, 0);
        }
        let c = self.corr.get(self.pos.side_to_move(), ckeys);
        self.evaluate_within(
            key,
            ckeys.pawns,
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

    /// A static evaluation with this search's correction for its pawn structure and
    /// pieces (`ckeys`); `NO_EVAL` stays as it is.
    #[inline]
    fn corrected(&self, raw: i32, ckeys: &Keys) -> i32 {
        if raw == NO_EVAL {
            return NO_EVAL;
        }
        let c = self.corr.get(self.pos.side_to_move(), ckeys);
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

    /// Deepest ply of the last iteration.
    pub fn seldepth(&self) -> usize {
        self.seldepth
    }
}
