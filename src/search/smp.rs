//! Lazy SMP: N threads search the same root with a shared table, each with its own
//! history and killers; helpers skew their depths. The engine facade the protocols use.

use super::crumbs::Crumbs;
use super::pool::Pool;
use super::skill::{Skill, SKILL_LINES};
use super::{
    Completed, Control, Counter, Info, Learned, Limits, SearchResult, Shared, Stacks, Worker,
    MAX_PLY,
};
use crate::core::geometry::Word;
use crate::core::moves::Move;
use crate::eval::Eval;
use crate::position::Position;
use crate::tt::{HashError, TranspositionTable};
use crate::variant::Variant;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Stack of a search thread: every ply holds a move list and its scores on the stack.
const STACK_BYTES: usize = 32 << 20;

/// Most search threads an engine runs on any machine.
pub const MAX_THREADS: usize = 256;

/// Most root lines a search reports (`MultiPV`).
pub const MAX_MULTIPV: usize = 256;

/// Most search threads this machine is trusted to start: four per hardware thread (lazy
/// SMP gains nothing beyond), at most [`MAX_THREADS`]. Every thread reserves a
/// [`STACK_BYTES`] stack and a few MB of move lists, so a count far past the cores can
/// exhaust the address space and abort the process instead of failing cleanly.
pub fn max_threads() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .saturating_mul(4)
        .clamp(1, MAX_THREADS)
}

/// A thread count the machine cannot run: none, or more than [`max_threads`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} threads is {}", .0, too_many_or_few(*.0))]
pub struct ThreadsError(pub usize);

/// Why `n` threads cannot run (a count outside `1..=max_threads()`).
fn too_many_or_few(n: usize) -> String {
    if n == 0 {
        "too few: at least 1 searches".to_string()
    } else {
        format!("more than this machine runs (1..={})", max_threads())
    }
}

/// The thread count itself when it is in `1..=max_threads()`.
pub fn check_threads(n: usize) -> Result<usize, ThreadsError> {
    if (1..=max_threads()).contains(&n) {
        Ok(n)
    } else {
        Err(ThreadsError(n))
    }
}

/// The text of a panic's payload.
fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    let msg = p
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown cause".to_string());
    format!("a search thread panicked: {}", msg.replace('\n', " "))
}

/// Any legal move of `pos` (none if it has none, or if listing them panics too).
fn any_legal_move(pos: &Position) -> Option<Move> {
    catch_unwind(AssertUnwindSafe(|| {
        let mut list = crate::core::moves::MoveList::new();
        pos.legal_moves(&mut list);
        list.as_slice().first().copied()
    }))
    .ok()
    .flatten()
}

/// What a running search tells its listener.
pub enum Event<'a> {
    /// An iteration completed (one event per line with MultiPV).
    Info(&'a Info),
    /// The search is over: its final line, with the nodes and time of the whole search
    /// (sent just before `Done`, also when it stopped inside an iteration; depth 0 when
    /// not even depth 1 completed).
    Final(&'a Info),
    /// The search ended; this is the move to play.
    Done(&'a SearchResult),
}

/// The listener a search reports to (called from the search thread).
pub type Listener = Box<dyn FnMut(Event) + Send>;

/// A search running in the background.
pub struct SearchHandle {
    stop: Arc<AtomicBool>,
    control: Arc<Control>,
    start: Instant,
    thread: Option<JoinHandle<SearchResult>>,
}

impl SearchHandle {
    /// Asks the search to stop as soon as possible (it still reports `Done`).
    pub fn stop(&self) {
        self.control.user_stop.store(true, Ordering::Relaxed);
        self.stop.store(true, Ordering::Relaxed);
    }

    /// The opponent played the move pondered on: the clock starts now, and the time
    /// plan of the search's limits applies from this moment.
    pub fn ponderhit(&self) {
        let ms = self.start.elapsed().as_millis() as u64;
        self.control.clock_from_ms.store(ms, Ordering::Relaxed);
        self.control.pondering.store(false, Ordering::Relaxed);
    }

    /// True while the search ponders (no clock runs).
    pub fn is_pondering(&self) -> bool {
        self.control.pondering.load(Ordering::Relaxed)
    }

    /// True when the search has ended.
    pub fn is_finished(&self) -> bool {
        self.thread.as_ref().is_none_or(|t| t.is_finished())
    }

    /// Waits for the search to end and returns its result.
    pub fn join(mut self) -> SearchResult {
        self.wait()
    }

    fn wait(&mut self) -> SearchResult {
        match self.thread.take() {
            Some(t) => t.join().unwrap_or_else(|p| SearchResult {
                error: Some(panic_text(&*p)),
                ..SearchResult::default()
            }),
            None => SearchResult::default(),
        }
    }
}

impl Drop for SearchHandle {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}

/// The searching engine: the shared table, thread count and evaluation cache, kept
/// between searches of a game.
pub struct Engine {
    tt: Arc<TranspositionTable>,
    threads: usize,
    hash_mb: usize,
    eval: Mutex<Option<(Arc<Variant>, Arc<Eval>)>>,
    strength: Option<u32>,
    /// Per thread, what the last search of this game learnt (histories, corrections).
    learned: Arc<Mutex<Vec<Option<Learned>>>>,
    /// Move stacks left by the threads of earlier searches (see [`Stacks`]).
    spare: Arc<Mutex<Vec<Stacks>>>,
    /// The threads' breadcrumbs, kept from one search to the next (every node frees its
    /// own, so a finished search leaves none).
    crumbs: Arc<Crumbs>,
    /// The helper threads, parked between searches.
    pool: Arc<Pool>,
}

impl Engine {
    /// An engine with `threads` threads and a table of `hash_mb` MB (which must be
    /// available: see `try_new`).
    pub fn new(threads: usize, hash_mb: usize) -> Engine {
        match Engine::try_new(threads, hash_mb) {
            Ok(e) => e,
            Err(e) => panic!("{e}"),
        }
    }

    /// An engine, or an error if the table's memory cannot be had.
    pub fn try_new(threads: usize, hash_mb: usize) -> Result<Engine, HashError> {
        let engine = Engine {
            tt: Arc::new(TranspositionTable::try_new(hash_mb)?),
            threads: threads.clamp(1, max_threads()),
            hash_mb: hash_mb.max(1),
            eval: Mutex::new(None),
            strength: None,
            learned: Arc::new(Mutex::new(Vec::new())),
            spare: Arc::new(Mutex::new(Vec::new())),
            crumbs: Arc::new(Crumbs::default()),
            pool: Arc::new(Pool::default()),
        };
        engine.start_helpers();
        Ok(engine)
    }

    /// Starts the helper threads now, as Stockfish does when its thread count is set,
    /// so that the first search does not wait for the scheduler to run a new thread.
    fn start_helpers(&self) {
        for i in 0..self.threads - 1 {
            if !self.pool.run(i, STACK_BYTES, Box::new(|| {})) {
                break;
            }
        }
    }

    /// Plays at about this Elo (`UCI_LimitStrength`, see `skill`), or at full
    /// strength with None.
    pub fn set_strength(&mut self, elo: Option<u32>) {
        self.strength = elo;
    }

    /// The Elo the engine is limited to, if any.
    pub fn strength(&self) -> Option<u32> {
        self.strength
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Sets the number of search threads (clamped to `1..=max_threads()`).
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, max_threads());
        self.start_helpers();
    }

    /// Table size in MB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Resizes (and so empties) the table; keeps the old one if the memory is not there.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), HashError> {
        if mb.max(1) != self.hash_mb {
            // Free the old table first so that its memory can be reused.
            self.tt = Arc::new(TranspositionTable::new(1));
            match TranspositionTable::try_new(mb.max(1)) {
                Ok(t) => {
                    self.hash_mb = mb.max(1);
                    self.tt = Arc::new(t);
                }
                Err(e) => {
                    self.tt = Arc::new(TranspositionTable::new(self.hash_mb));
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    /// Forgets everything learnt (new game). The threads' tables are emptied in place
    /// rather than freed: the next search finds them ready, as Stockfish's `ucinewgame`
    /// clears its tables before the clock starts.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.learned
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter_mut()
            .flatten()
            .for_each(Learned::reset);
    }

    /// The shared table (for tests and statistics).
    pub fn tt(&self) -> &Arc<TranspositionTable> {
        &self.tt
    }

    /// The evaluation of a variant, built once and reused while the variant stays.
    pub fn eval_for(&self, v: &Arc<Variant>) -> Arc<Eval> {
        let mut cache = self.eval.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((cv, e)) = cache.as_ref() {
            if Arc::ptr_eq(cv, v) {
                return Arc::clone(e);
            }
        }
        let e = Arc::new(Eval::new(v));
        *cache = Some((Arc::clone(v), Arc::clone(&e)));
        e
    }

    /// Starts a search in the background; the listener hears each iteration and the end.
    pub fn start(
        &self,
        pos: &Position,
        mut limits: Limits,
        mut listener: Listener,
    ) -> SearchHandle {
        let stop = Arc::new(AtomicBool::new(false));
        let start = Instant::now();
        let v = pos.variant();
        let search = &v.search;
        let plan = limits.plan(pos.side_to_move());
        let skill = self.strength.map(Skill::from_elo).filter(|s| !s.is_full());
        let mut lines = limits.multipv.clamp(1, MAX_MULTIPV);
        if let Some(s) = skill {
            limits.skill_nodes = s.node_cap();
            lines = lines.max(SKILL_LINES);
        }
        let control = Arc::new(Control::default());
        control.pondering.store(limits.ponder, Ordering::Relaxed);
        let shared = Arc::new(Shared {
            tt: Arc::clone(&self.tt),
            eval: self.eval_for(v),
            stop: Arc::clone(&stop),
            nodes: (0..self.threads).map(|_| Counter::default()).collect(),
            limits,
            plan,
            start,
            null_move: search.null_move,
            deepest: AtomicU32::new(0),
            lmr: search.lmr,
            lazy_margin: search.lazy_margin,
            late_moves: search.late_moves,
            control: Arc::clone(&control),
            lines,
            by_depth: Mutex::new(Vec::new()),
            learned: Arc::clone(&self.learned),
            spare: Arc::clone(&self.spare),
            crumbs: (self.threads > 1).then(|| Arc::clone(&self.crumbs)),
        });
        self.tt.new_search();
        let root = pos.clone();
        let threads = self.threads;
        let pool = Arc::clone(&self.pool);
        let thread = std::thread::Builder::new()
            .name("search-0".into())
            .stack_size(STACK_BYTES)
            .spawn(move || {
                // A panic anywhere in the search still ends in `Done` with a legal move
                // and the reason, so that a GUI waiting for `bestmove` is answered.
                // Boards of up to 64 squares are searched in u64 bitboards.
                match catch_unwind(AssertUnwindSafe(|| {
                    if root.fits::<u64>() {
                        run::<u64>(
                            root.clone(),
                            shared,
                            (threads, &pool),
                            skill,
                            &mut *listener,
                        )
                    } else {
                        run::<u128>(
                            root.clone(),
                            shared,
                            (threads, &pool),
                            skill,
                            &mut *listener,
                        )
                    }
                })) {
                    Ok(r) => r,
                    Err(p) => {
                        let res = SearchResult {
                            best: any_legal_move(&root),
                            error: Some(panic_text(&*p)),
                            ..SearchResult::default()
                        };
                        let _ = catch_unwind(AssertUnwindSafe(|| listener(Event::Done(&res))));
                        res
                    }
                }
            })
            .expect("cannot start a search thread");
        SearchHandle {
            stop,
            control,
            start,
            thread: Some(thread),
        }
    }

    /// Searches and waits for the result.
    pub fn search(&self, pos: &Position, limits: Limits, listener: Listener) -> SearchResult {
        self.start(pos, limits, listener).join()
    }
}

/// The main search thread: starts the helpers, iterates, waits for `stop` in infinite
/// mode (and for `ponderhit` or `stop` when pondering), and picks the move of the
/// deepest completed iteration (or, weakened, one of its lines). The threads search
/// in the word `W`; `root` stays as given for the lines reported.
fn run<W: Word>(
    root: Position,
    shared: Arc<Shared>,
    (threads, pool): (usize, &Pool),
    skill: Option<Skill>,
    listener: &mut (dyn FnMut(Event) + Send),
) -> SearchResult {
    let mut legal = crate::core::moves::MoveList::new();
    root.legal_moves(&mut legal);
    if legal.is_empty() {
        let res = SearchResult {
            best: None,
            score: if root.in_check() { -super::MATE } else { 0 },
            ..SearchResult::default()
        };
        wait_if_infinite(&shared);
        listener(Event::Done(&res));
        return res;
    }
    let report_lines = shared.limits.multipv.clamp(1, MAX_MULTIPV);
    let mut error = None;
    let partial;
    let main_lines;
    let mut reported = 0u32;
    let results: Vec<(Option<Completed>, usize)> = {
        // Should the main thread panic, the helpers must stop too, or they would search
        // on (forever in an infinite search) beside the next search.
        let _stop_helpers = StopOnDrop(&shared.stop);
        let (done_tx, done) = channel();
        let mut helpers = 0;
        for id in 1..threads {
            let sh = Arc::clone(&shared);
            let p = root.to_word::<W>();
            let done_tx = done_tx.clone();
            let job = Box::new(move || {
                let r = catch_unwind(AssertUnwindSafe(|| {
                    let mut w = Worker::new(id, p, Arc::clone(&sh));
                    w.iterate(&mut |_, _| {});
                    let r = (w.completed.take(), w.seldepth());
                    w.keep_learned();
                    r
                }));
                // A helper that panicked ends the whole search: its error is reported.
                // One that reached the depth limit ends it too, unless the main
                // thread still owes several lines for the depths it has not done.
                if (!sh.limits.infinite && sh.lines == 1) || r.is_err() {
                    sh.stop.store(true, Ordering::Relaxed);
                }
                let _ = done_tx.send(r.map_err(|p| panic_text(&*p)));
            });
            if !pool.run(id - 1, STACK_BYTES, job) {
                break;
            }
            helpers += 1;
        }
        // Only the jobs hold senders now: one that ended without its result is an error,
        // not a wait.
        drop(done_tx);
        let mut main = Worker::new(0, root.to_word::<W>(), Arc::clone(&shared));
        main.iterate(&mut |w, depth| {
            // Depths a helper completed while the main thread skipped them still get
            // their line, so a GUI sees every depth.
            report_gaps(&shared, &root, reported, depth, listener);
            for (k, line) in w.lines.iter().take(report_lines).enumerate() {
                let info = make_info(
                    &shared,
                    &root,
                    (depth, w.seldepth() as u32, k as u32 + 1),
                    line.score,
                    &line.pv,
                );
                listener(Event::Info(&info));
            }
            reported = depth;
        });
        wait_if_infinite(&shared);
        shared.stop.store(true, Ordering::Relaxed);
        partial = main.partial;
        main_lines = std::mem::take(&mut main.lines);
        let mut out = vec![(main.completed.take(), main.seldepth())];
        main.keep_learned();
        for _ in 0..helpers {
            match done.recv() {
                Ok(Ok(r)) => out.push(r),
                Ok(Err(e)) => error = Some(e),
                Err(_) => {
                    error = Some("a search thread ended without its result".to_string());
                    break;
                }
            }
        }
        out
    };
    // The deepest completed iteration wins; at equal depth the higher score.
    let mut best: Option<&Completed> = None;
    for (c, _) in &results {
        if let Some(c) = c {
            if c.2.is_empty() {
                continue;
            }
            let better = match best {
                None => true,
                Some(b) => c.0 > b.0 || (c.0 == b.0 && c.1 > b.1),
            };
            if better {
                best = Some(c);
            }
        }
    }
    let seldepth = results.iter().map(|r| r.1 as u32).max().unwrap_or(0);
    let (mut depth, mut score, mut pv) = match best {
        Some((d, s, pv)) => (*d, *s, pv.clone()),
        // Stopped inside depth 1: its best root move so far, else any legal move.
        None => (0, 0, vec![partial.unwrap_or(legal.as_slice()[0])]),
    };
    // A helper got further than the main thread: its depths are reported before the move.
    report_gaps(&shared, &root, reported, depth + 1, listener);
    if let Some(s) = skill {
        // A weakened engine plays one of the main thread's lines at random, as the
        // skill level allows (see `skill`).
        let seed = root.key()
            ^ std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
        if let Some(line) = main_lines.get(s.pick(&main_lines, seed)) {
            if let Some((d, ..)) = &results[0].0 {
                depth = *d;
            }
            score = line.score;
            pv = line.pv.clone();
        }
    }
    let ms = shared.start.elapsed().as_millis() as u64;
    let nodes = shared.total_nodes();
    let mut text = Vec::new();
    let mut p = root.clone();
    for &m in &pv {
        text.push(p.move_to_string(m));
        p.make_move(m);
    }
    let res = SearchResult {
        best: pv.first().copied(),
        score,
        depth,
        nodes,
        ms,
        pv,
        pv_text: text,
        error,
    };
    let last = make_info(&shared, &root, (depth, seldepth, 1), score, &res.pv);
    listener(Event::Final(&last));
    listener(Event::Done(&res));
    res
}

/// Reports depths `after + 1 .. upto` from what the threads recorded.
fn report_gaps(
    shared: &Shared,
    root: &Position,
    after: u32,
    upto: u32,
    listener: &mut (dyn FnMut(Event) + Send),
) {
    for d in after + 1..upto {
        if let Some(r) = shared.depth_result(d) {
            let info = make_info(shared, root, (d, r.seldepth, 1), r.score, &r.pv);
            listener(Event::Info(&info));
        }
    }
}

/// Sets the stop flag when dropped, unwinding included.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Waits for `stop` in infinite mode, and for `ponderhit` or `stop` while pondering
/// (a search that ends on its own then must not answer before the GUI asks).
fn wait_if_infinite(shared: &Shared) {
    let c = &shared.control;
    while (shared.limits.infinite && !shared.stop.load(Ordering::Relaxed))
        || (c.pondering.load(Ordering::Relaxed) && !c.user_stop.load(Ordering::Relaxed))
    {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The info line of `(depth, seldepth, multipv)` with the search's counts so far.
fn make_info(
    shared: &Shared,
    root: &Position,
    (depth, seldepth, multipv): (u32, u32, u32),
    score: i32,
    pv: &[Move],
) -> Info {
    let ms = shared.start.elapsed().as_millis() as u64;
    let nodes = shared.total_nodes();
    let mut p = root.clone();
    let mut text = Vec::with_capacity(pv.len());
    for &m in pv.iter().take(MAX_PLY) {
        text.push(p.move_to_string(m));
        p.make_move(m);
    }
    Info {
        depth,
        multipv,
        seldepth,
        score,
        nodes,
        ms,
        nps: nodes * 1000 / ms.max(1),
        hashfull: shared.tt.hashfull(),
        pv: text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stockfish starts its threads when their number is set: the first search then
    /// finds its helpers waiting instead of waiting for the scheduler to run them.
    #[test]
    fn helpers_are_started_when_the_thread_count_is_set() {
        let mut engine = Engine::new(2, 1);
        assert_eq!(engine.pool.started(), 1, "one helper for two threads");
        engine.set_threads(3);
        assert_eq!(engine.pool.started(), 2);
        engine.set_threads(1);
        assert_eq!(engine.pool.started(), 2, "helpers stay parked for later");
        assert_eq!(Engine::new(1, 1).pool.started(), 0);
    }

    /// Breadcrumbs (`crumbs.rs`): a node frees its mark when it is done, also when a
    /// stop unwinds it, so a finished search leaves every slot free for the next.
    #[test]
    fn a_finished_search_leaves_no_breadcrumb_behind() {
        let v = crate::registry::get("chess").unwrap();
        let pos = Position::from_fen(
            &v,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        )
        .unwrap();
        let engine = Engine::new(2, 16);
        assert_eq!(engine.threads(), 2);
        let r = engine.search(&pos, Limits::depth(9), Box::new(|_| {}));
        assert!(r.best.is_some());
        assert!(engine.crumbs.all_free(), "after a search to its depth");
        let h = engine.start(
            &pos,
            Limits {
                infinite: true,
                ..Limits::default()
            },
            Box::new(|_| {}),
        );
        std::thread::sleep(Duration::from_millis(100));
        h.stop();
        assert!(h.join().best.is_some());
        assert!(engine.crumbs.all_free(), "after a stopped search");
    }
}
