//! The UCI protocol loop (with Fairy-Stockfish's `UCI_Variant` and `VariantPath`).
//!
//! Bad input never ends the loop: an unknown command, a bad FEN or an illegal move is
//! answered with `info string error …` and the engine keeps its position.
//!
//! A command that needs the engine idle (`position`, `go`, `setoption`, …) sent while a
//! search that ends by itself is running waits for that search's `bestmove`, as
//! Stockfish's does, instead of cutting it short; `stop`, `ponderhit`, `quit` and
//! `isready` are answered at once, unless a `go` already waits: then all but `quit` wait
//! behind it, in order, and apply to its search (a `stop` there ends the running search
//! too). `quit` or the end of input behind waiting lines stops the running search and
//! still answers each waiting line, its searches stopped at once. A search that never
//! ends by itself (`go infinite`, a
//! `go` with no limit, a ponder search) is stopped by such a command, since waiting for
//! it would hang.

use crate::core::moves::Color;
use crate::position::Position;
use crate::protocol::{Msg, Out};
use crate::registry;
use crate::search::report::{final_line, info_line};
use crate::search::skill::{MAX_ELO, MIN_ELO};
use crate::search::smp::{check_threads, max_threads, MAX_MULTIPV};
use crate::search::{uci_score, Engine, Event, Limits, SearchHandle};
use crate::variant::Variant;
use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;

/// Default table size in MB.
pub const DEFAULT_HASH_MB: usize = 16;

/// The largest `Hash` the UCI option takes, in MB.
pub const MAX_HASH_MB: usize = 65536;

/// `UCI_Elo` until a GUI sets it: the middle of the range.
pub const DEFAULT_ELO: u32 = 1675;

struct Uci {
    out: Out,
    engine: Engine,
    variant: Arc<Variant>,
    pos: Position,
    /// Why the last `position` command set no position (a FEN that could not be read):
    /// `go` then answers `bestmove (none)` rather than search the position before it,
    /// a move of which would be another game's.
    no_position: Option<String>,
    /// The running search, and whether it has a limit that ends it without `stop`.
    search: Option<(SearchHandle, bool)>,
    tx: Sender<Msg>,
    serial: u64,
    /// Root lines to report (`MultiPV`).
    multipv: usize,
    /// `UCI_LimitStrength`.
    limit_strength: bool,
    /// `UCI_Elo`, in force while `limit_strength` is.
    elo: u32,
    /// Lines that wait for the running search to end, in the order they came.
    pending: VecDeque<String>,
}

/// Runs the loop until `quit` or the end of input (which stops a running search: its
/// `bestmove` is still printed).
pub fn run(rx: Receiver<Msg>, tx: Sender<Msg>, out: Out) {
    let variant = match registry::get("chess") {
        Ok(v) => v,
        Err(e) => {
            out.line(&format!("info string error {e}"));
            return;
        }
    };
    let mut u = Uci {
        out,
        engine: Engine::new(1, DEFAULT_HASH_MB),
        pos: Position::startpos(&variant),
        no_position: None,
        variant,
        search: None,
        tx,
        serial: 0,
        multipv: 1,
        limit_strength: false,
        elo: DEFAULT_ELO,
        pending: VecDeque::new(),
    };
    while let Ok(msg) = rx.recv() {
        let go_on = match msg {
            Msg::Line(l) => u.command(&l),
            // Nobody is left to send `stop`: a long search would outlive its reader. So
            // the running search stops, and so does each one a waiting line starts.
            Msg::Eof => {
                u.wind_up();
                break;
            }
            // Sent as the search's last act: its thread is ending, not yet gone.
            Msg::Done(n, _) => {
                if n == u.serial {
                    if let Some((h, _)) = u.search.take() {
                        h.join();
                    }
                }
                u.drain()
            }
        };
        if !go_on {
            break;
        }
    }
    u.stop();
}

/// A UCI check value: `true` or `false` (any case).
fn check_value(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

/// The value after `key` in `parts` up to the next keyword of `keys`.
fn after<'a>(parts: &'a [&'a str], key: &str, keys: &[&str]) -> Option<String> {
    let i = parts.iter().position(|p| *p == key)?;
    let rest: Vec<&str> = parts[i + 1..]
        .iter()
        .take_while(|p| !keys.contains(p))
        .copied()
        .collect();
    Some(rest.join(" "))
}

impl Uci {
    fn error(&self, msg: impl std::fmt::Display) {
        self.out.line(&format!("info string error {msg}"));
    }

    /// The end of the session (end of input, or `quit` behind waiting lines): the
    /// running search stops, and each waiting line still runs and is answered, every
    /// search it starts stopped at once.
    fn wind_up(&mut self) {
        self.stop();
        while let Some(line) = self.pending.pop_front() {
            if !self.run(&line) {
                break;
            }
            self.stop();
        }
    }

    /// Stops a running search and waits for its `bestmove`.
    fn stop(&mut self) {
        if let Some((h, _)) = self.search.take() {
            h.stop();
            h.join();
        }
    }

    /// Forgets a search that has ended; true while one runs.
    fn searching(&mut self) -> bool {
        if self.search.as_ref().is_some_and(|(h, _)| h.is_finished()) {
            self.search = None;
        }
        self.search.is_some()
    }

    /// Whether the running search ends without a `stop` (a depth, node, time or clock
    /// limit), so that a line needing the engine idle can wait for it.
    fn ends_by_itself(&self) -> bool {
        self.search
            .as_ref()
            .is_some_and(|(h, bounded)| *bounded && !h.is_pondering())
    }

    /// Runs the waiting lines as they would have run on arrival with nothing before
    /// them: until a line needing the engine idle meets a search that ends by itself
    /// (a `stop`, `ponderhit` or `isready` at the front runs at once); false means quit.
    fn drain(&mut self) -> bool {
        while let Some(line) = self.pending.front() {
            let cmd = line.split_whitespace().next().unwrap_or("");
            let now = matches!(cmd, "stop" | "ponderhit" | "isready")
                || !(self.searching() && self.ends_by_itself());
            if !now {
                break;
            }
            let line = self.pending.pop_front().unwrap_or_default();
            if !self.run(&line) {
                return false;
            }
        }
        true
    }

    /// Handles one line as it arrives: answered now, or queued behind the running search
    /// (see the module's doc); false means quit.
    fn command(&mut self, line: &str) -> bool {
        let cmd = line.split_whitespace().next().unwrap_or("");
        // Stockfish's reader stops at a `go` that waits for the last search: what comes
        // after it, a `stop` or `ponderhit` too, is read once that `go` has started its
        // search, and is meant for it (python-chess sends the next `position`, `go ponder`
        // and `ponderhit` as soon as it reads a `bestmove`, which a search prints just
        // before it ends). Before any waiting `go`, a `stop` reaches the running search
        // and `isready` is answered.
        let go_waits = self
            .pending
            .iter()
            .any(|l| l.split_whitespace().next() == Some("go"));
        // Nobody waits for an answer after `quit`, but the lines before it were sent
        // to be answered (a script that pipes `go`, `go perft`, `isready`, `quit`).
        if cmd == "quit" && !self.pending.is_empty() {
            self.wind_up();
            return false;
        }
        let now = match cmd {
            "quit" => true,
            "stop" | "ponderhit" | "isready" => !go_waits,
            _ => self.pending.is_empty() && !(self.searching() && self.ends_by_itself()),
        };
        // A `stop` behind a waiting `go` also ends the running search: a `go` sent during
        // a deep search would otherwise wait, with its `stop`, until that search ended.
        // In the race above the running search has already answered, so this costs it
        // nothing.
        if cmd == "stop" && go_waits {
            self.stop();
        }
        if !now {
            self.pending.push_back(line.to_string());
            // After the `stop` above nothing may run, and the waiting lines can go on.
            return self.drain();
        }
        if !self.run(line) {
            return false;
        }
        // After a `stop` (or a search this line ended) the waiting lines can run.
        self.drain()
    }

    /// Carries out one line; false means quit.
    fn run(&mut self, line: &str) -> bool {
        let parts: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = parts.first() else {
            return true;
        };
        self.searching();
        match cmd {
            "uci" => self.uci(),
            "isready" => self.out.line("readyok"),
            "setoption" => self.setoption(&parts),
            "ucinewgame" => {
                self.stop();
                self.engine.clear();
                self.pos = Position::startpos(&self.variant);
                self.no_position = None;
            }
            "position" => {
                self.stop();
                self.position(&parts);
            }
            "go" if parts.get(1) == Some(&"perft") => {
                self.stop();
                self.perft(&parts);
            }
            "go" => {
                self.stop();
                self.go(&parts);
            }
            "stop" => self.stop(),
            "ponderhit" => match &self.search {
                Some((h, _)) if h.is_pondering() => h.ponderhit(),
                _ => self.error("ponderhit without a pondering search"),
            },
            "quit" => return false,
            // Stockfish's `eval`: the static evaluation term by term, as plain lines.
            "eval" => {
                let text = crate::eval::Eval::new(&self.variant)
                    .explain(&self.pos)
                    .text();
                text.lines().for_each(|l| self.out.line(l));
            }
            "d" => {
                self.out
                    .line(&format!("info string fen {}", self.pos.fen()));
            }
            _ => self.error(format!("unknown command: {line}")),
        }
        true
    }

    fn uci(&self) {
        self.out
            .line(&format!("id name Tenfold {}", env!("CARGO_PKG_VERSION")));
        self.out.line("id author the Tenfold authors");
        self.variant_option();
        self.out.line(&format!(
            "option name Threads type spin default {} min 1 max {}",
            self.engine.threads(),
            max_threads()
        ));
        self.out.line(&format!(
            "option name Hash type spin default {} min 1 max {}",
            self.engine.hash_mb(),
            MAX_HASH_MB
        ));
        self.out.line(&format!(
            "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
        ));
        // Pondering needs no setting (any `go ponder` ponders); GUIs look for the option.
        self.out.line("option name Ponder type check default false");
        self.out
            .line("option name UCI_LimitStrength type check default false");
        self.out.line(&format!(
            "option name UCI_Elo type spin default {DEFAULT_ELO} min {MIN_ELO} max {MAX_ELO}"
        ));
        self.out
            .line("option name VariantPath type string default <empty>");
        self.out.line("option name Clear Hash type button");
        self.out.line("uciok");
    }

    /// The `UCI_Variant` option with every game known now: the built-ins and the files
    /// loaded (`--variant-file`, an earlier `VariantPath`), so that a referee can tell
    /// which games the engine plays.
    fn variant_option(&self) {
        let mut vars = registry::known();
        if !vars.contains(&self.variant.name) {
            vars.push(self.variant.name.clone());
        }
        let combo: Vec<String> = vars.iter().map(|v| format!("var {v}")).collect();
        self.out.line(&format!(
            "option name UCI_Variant type combo default {} {}",
            self.variant.name,
            combo.join(" ")
        ));
    }

    fn setoption(&mut self, parts: &[&str]) {
        let name = after(parts, "name", &["value"]).unwrap_or_default();
        let value = after(parts, "value", &[]).unwrap_or_default();
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => match registry::get(&value) {
                Ok(v) => {
                    self.stop();
                    self.set_variant(v);
                }
                Err(e) => self.error(e),
            },
            "threads" => match value.parse::<usize>().map(check_threads) {
                Ok(Ok(n)) => {
                    self.stop();
                    self.engine.set_threads(n);
                }
                Ok(Err(e)) => self.error(format!("Threads: {e}")),
                Err(_) => self.error(format!(
                    "Threads wants 1..={}, not \"{value}\"",
                    max_threads()
                )),
            },
            "hash" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_HASH_MB).contains(&n) => {
                    self.stop();
                    if let Err(e) = self.engine.set_hash(n) {
                        self.error(e);
                    }
                }
                _ => self.error(format!("Hash wants 1..{MAX_HASH_MB} MB, not \"{value}\"")),
            },
            "variantpath" => {
                if value.is_empty() || value == "<empty>" {
                    return;
                }
                match registry::load_file(&value) {
                    Ok(v) => self.out.line(&format!(
                        "info string loaded variant {} from {value}",
                        v.name
                    )),
                    Err(e) => self.error(e),
                }
            }
            "clear hash" => self.engine.clear(),
            "multipv" => match value.parse::<usize>() {
                Ok(n) if (1..=MAX_MULTIPV).contains(&n) => self.multipv = n,
                _ => self.error(format!("MultiPV wants 1..={MAX_MULTIPV}, not \"{value}\"")),
            },
            "ponder" => {
                if check_value(&value).is_none() {
                    self.error(format!("Ponder wants true or false, not \"{value}\""));
                }
            }
            "uci_limitstrength" => match check_value(&value) {
                Some(b) => {
                    self.stop();
                    self.limit_strength = b;
                    self.apply_strength();
                }
                None => self.error(format!(
                    "UCI_LimitStrength wants true or false, not \"{value}\""
                )),
            },
            "uci_elo" => match value.parse::<u32>() {
                Ok(e) if (MIN_ELO..=MAX_ELO).contains(&e) => {
                    self.stop();
                    self.elo = e;
                    self.apply_strength();
                }
                _ => self.error(format!(
                    "UCI_Elo wants {MIN_ELO}..={MAX_ELO}, not \"{value}\""
                )),
            },
            _ => self.error(format!("unknown option \"{name}\"")),
        }
    }

    /// Hands `UCI_LimitStrength` and `UCI_Elo` to the engine.
    fn apply_strength(&mut self) {
        self.engine
            .set_strength(self.limit_strength.then_some(self.elo));
        if self.limit_strength {
            self.out
                .line(&format!("info string playing at about Elo {}", self.elo));
        }
    }

    fn set_variant(&mut self, v: Arc<Variant>) {
        self.pos = Position::startpos(&v);
        self.no_position = None;
        self.out.line(&format!(
            "info string variant {} files {} ranks {} startpos {}",
            v.name, v.board.files, v.board.ranks, v.start_fen
        ));
        self.variant = v;
    }

    /// Sets the position. A move that cannot be played ends the list there: the
    /// position is the one before it, as Stockfish keeps it, so that the next `go`
    /// answers for the game the GUI sent. A position that cannot be read at all leaves
    /// none to search (see `no_position`).
    fn position(&mut self, parts: &[&str]) {
        let mut p = match parts.get(1) {
            Some(&"startpos") => Position::startpos(&self.variant),
            Some(&"fen") => {
                let fen = after(parts, "fen", &["moves"]).unwrap_or_default();
                match Position::from_fen(&self.variant, &fen) {
                    Ok(p) => p,
                    Err(e) => return self.no_position(e.to_string()),
                }
            }
            _ => return self.no_position("position needs startpos or fen".into()),
        };
        self.no_position = None;
        if let Some(i) = parts.iter().position(|x| *x == "moves") {
            for m in &parts[i + 1..] {
                match p.parse_move(m) {
                    Ok(mv) => p.make_move(mv),
                    Err(e) => {
                        self.error(format!("{e}; the position is the one before it"));
                        break;
                    }
                }
            }
        }
        self.pos = p;
    }

    /// Reports a `position` command that set no position, and remembers why.
    fn no_position(&mut self, why: String) {
        self.error(&why);
        self.no_position = Some(why);
    }

    /// True (after saying so) when the last `position` command failed: a search or count
    /// would be of the position before it.
    fn refuse_without_position(&self, what: &str) -> bool {
        let Some(why) = &self.no_position else {
            return false;
        };
        self.error(format!(
            "{what}: no position to search, the last position command failed ({why})"
        ));
        true
    }

    /// `go perft N`, as Stockfish answers it (perft tools drive engines this way): each
    /// legal move with its count at depth N, sorted, then `Nodes searched: total`. It
    /// counts on the engine's threads and answers before the next command is read.
    fn perft(&mut self, parts: &[&str]) {
        if self.refuse_without_position("go perft") {
            return;
        }
        let Some(depth) = parts.get(2).and_then(|d| d.parse::<u32>().ok()) else {
            return self.error("go perft needs a depth (a whole number)");
        };
        if let Err(e) = crate::perft::check_depth(depth) {
            return self.error(e);
        }
        let how = crate::perft::Counting {
            threads: self.engine.threads(),
            table: None,
        };
        // Depth 0 has no root moves to divide by: its count is the position itself.
        let count = crate::perft::Count::run(&self.pos, depth, depth > 0, &how, None);
        for (m, n) in count.divide.iter().flatten() {
            self.out.line(&format!("{m}: {n}"));
        }
        self.out.line("");
        self.out.line(&format!("Nodes searched: {}", count.nodes));
    }

    fn go(&mut self, parts: &[&str]) {
        if self.refuse_without_position("go") {
            // A GUI waits for the answer to `go`: it gets one, with no move in it.
            self.out.line("bestmove (none)");
            return;
        }
        /// The words `go` takes, which end a `searchmoves` list.
        const GO_KEYWORDS: [&str; 12] = [
            "wtime",
            "btime",
            "winc",
            "binc",
            "movestogo",
            "movetime",
            "depth",
            "nodes",
            "mate",
            "infinite",
            "ponder",
            "searchmoves",
        ];
        let mut l = Limits::default();
        let num = |i: usize| parts.get(i + 1).and_then(|s| s.parse::<i64>().ok());
        let mut faults = 0;
        let mut i = 1;
        while i < parts.len() {
            let n = num(i);
            let u = n.map(|x| x.max(0) as u64);
            // Plies and move counts are 32-bit: a larger number is refused, not wrapped.
            let counts = matches!(parts[i], "depth" | "movestogo" | "mate");
            let small = u.filter(|_| counts).map(u32::try_from).transpose();
            let Ok(small) = small else {
                self.error(format!(
                    "go {} {} is out of range (at most {})",
                    parts[i],
                    parts[i + 1],
                    u32::MAX
                ));
                faults += 1;
                i += 2;
                continue;
            };
            match parts[i] {
                "wtime" => l.time[Color::White.idx()] = u,
                "btime" => l.time[Color::Black.idx()] = u,
                "winc" => l.inc[Color::White.idx()] = u.unwrap_or(0),
                "binc" => l.inc[Color::Black.idx()] = u.unwrap_or(0),
                "movestogo" => l.movestogo = small,
                "movetime" => l.movetime = u,
                "depth" => l.depth = small.map(|x| x.max(1)),
                "nodes" => l.nodes = u,
                "mate" => l.mate = small.map(|x| x.max(1)),
                "infinite" => {
                    l.infinite = true;
                    i += 1;
                    continue;
                }
                "ponder" => {
                    l.ponder = true;
                    i += 1;
                    continue;
                }
                "searchmoves" => {
                    i += 1;
                    // The moves run to the next keyword; a word there that is no legal
                    // move is named, not taken for an unknown keyword.
                    while i < parts.len() && !GO_KEYWORDS.contains(&parts[i]) {
                        match self.pos.parse_move(parts[i]) {
                            Ok(m) => l.searchmoves.push(m),
                            Err(e) => {
                                self.error(format!("searchmoves: {e}"));
                                faults += 1;
                            }
                        }
                        i += 1;
                    }
                    continue;
                }
                other => {
                    self.error(format!("unknown go parameter \"{other}\""));
                    faults += 1;
                    i += 1;
                    continue;
                }
            }
            if n.is_none() {
                self.error(format!("go {} needs a number", parts[i]));
                faults += 1;
                i += 1;
            } else {
                i += 2;
            }
        }
        l.multipv = self.multipv;
        // A clock for the other side only is still a game on the clock, with none left
        // for the mover (Stockfish plays at once too), not a search until `stop`.
        let (us, them) = (self.pos.side_to_move(), self.pos.side_to_move().flip());
        if l.time[us.idx()].is_none() && l.time[them.idx()].is_some() {
            l.time[us.idx()] = Some(0);
        }
        // A `go` whose limits were all refused would run until a `stop` its sender may
        // never send: it answers after the shallowest search instead.
        let limited = l.depth.is_some()
            || l.nodes.is_some()
            || l.movetime.is_some()
            || l.mate.is_some()
            || l.time[us.idx()].is_some();
        if faults > 0 && !limited && !l.infinite && !l.ponder {
            self.error("go: no valid limit is left, searching to depth 1");
            l.depth = Some(1);
        }
        // A search with no limit of its own (`go infinite`, a bare `go`) runs until `stop`.
        let bounded = !l.infinite
            && (l.depth.is_some()
                || l.nodes.is_some()
                || l.movetime.is_some()
                || l.mate.is_some()
                || l.time[self.pos.side_to_move().idx()].is_some());
        let out = self.out.clone();
        let root = self.pos.clone();
        self.serial += 1;
        let serial = self.serial;
        let tx = self.tx.clone();
        let listener = Box::new(move |ev: Event| match ev {
            Event::Info(info) => out.line(&info_line(info)),
            Event::Final(info) => out.line(&final_line(info)),
            Event::Done(r) => {
                let best = r
                    .best
                    .map_or("(none)".to_string(), |m| root.move_to_string(m));
                if let Some(e) = &r.error {
                    out.line(&format!("info string error {e}"));
                }
                if r.best.is_none() {
                    out.line(&format!("info depth 0 score {}", uci_score(r.score)));
                }
                // The reply the search expects is the move to ponder on.
                match r.pv_text.get(1).filter(|_| r.best.is_some()) {
                    Some(p) => out.line(&format!("bestmove {best} ponder {p}")),
                    None => out.line(&format!("bestmove {best}")),
                }
                let _ = tx.send(Msg::Done(serial, r.clone()));
            }
        });
        let h = self.engine.start(&self.pos, l, listener);
        self.search = Some((h, bounded));
    }
}
