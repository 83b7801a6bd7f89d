//! External engines over UCI or XBoard/CECP, each in its own process. A reader thread
//! turns the engine's output into lines on a channel so every wait has a deadline; a
//! player that hangs or dies loses its game and its process is killed and reaped.

use super::player::{Limit, Player, PlayerError, Reply};
use crate::position::Position;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long an engine may take to answer the handshake (`uciok`, `feature done=1`).
const HANDSHAKE: Duration = Duration::from_secs(10);

/// A running engine process with line-based I/O.
struct Process {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Process {
    fn spawn(cmd: &str, args: &[String]) -> Result<Process, PlayerError> {
        let mut command = Command::new(cmd);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // Its own process group, so that killing a hung engine also kills whatever it
        // started (a wrapper script's engine, a helper process) instead of orphaning it.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| PlayerError::Start(format!("{cmd}: {e}")))?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| PlayerError::Start("no stdin".into()))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| PlayerError::Start("no stdout".into()))?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            while let Some(l) = read_capped_line(&mut r) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        register_group(child.id());
        Ok(Process {
            child,
            stdin,
            lines: rx,
        })
    }

    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| PlayerError::Crashed(format!("write failed: {e}")))
    }

    /// Waits for a line until `deadline`.
    fn recv(&mut self, deadline: Instant) -> Result<String, PlayerError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(PlayerError::Hung),
            Err(RecvTimeoutError::Disconnected) => {
                let status = self
                    .child
                    .try_wait()
                    .ok()
                    .flatten()
                    .map_or("output closed".to_string(), |s| format!("exited ({s})"));
                Err(PlayerError::Crashed(status))
            }
        }
    }

    /// Reads lines until one starts with `prefix`.
    fn wait_for(&mut self, prefix: &str, deadline: Instant) -> Result<String, PlayerError> {
        loop {
            let l = self.recv(deadline)?;
            if l.trim_start().starts_with(prefix) {
                return Ok(l);
            }
        }
    }

    /// Asks politely, then kills the whole group, and always reaps the process (no
    /// zombies). The group is killed even when the engine quit by itself: what it
    /// started may still run, and the group id stays taken while any member lives.
    fn close(&mut self, goodbye: &str) {
        let _ = self.send(goodbye);
        let end = Instant::now() + Duration::from_millis(300);
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill_group();
        let _ = self.child.kill();
        let _ = self.child.wait();
        unregister_group(self.child.id());
    }

    /// Kills the engine's process group while the engine is not yet reaped (so the
    /// group id cannot have been reused).
    fn kill_group(&self) {
        #[cfg(unix)]
        if let Ok(pid) = i32::try_from(self.child.id()) {
            let _ = nix::sys::signal::killpg(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}

impl Drop for Process {
    /// Every path that drops an engine (a handshake that timed out, a crash, an error
    /// while setting up) kills and reaps it; closing twice is harmless.
    fn drop(&mut self) {
        if groups().contains(&self.child.id()) {
            self.close("quit");
        }
    }
}

/// The longest engine output line kept; the rest of a longer line is dropped, so an
/// engine printing without newlines cannot grow the referee's memory.
pub const MAX_LINE: usize = 64 * 1024;

/// Reads one line of at most [`MAX_LINE`] bytes (lossy UTF-8, without its newline);
/// None at the end of output.
fn read_capped_line(r: &mut impl BufRead) -> Option<String> {
    let mut line = Vec::new();
    let mut any = false;
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if buf.is_empty() {
            return any.then(|| String::from_utf8_lossy(&line).into_owned());
        }
        any = true;
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        let room = MAX_LINE.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = done.unwrap_or(buf.len());
        r.consume(used);
        if done.is_some() {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Some(String::from_utf8_lossy(&line).into_owned());
        }
    }
}

/// Process groups of the engines running now, so a signal to the referee can end them.
fn groups() -> std::sync::MutexGuard<'static, Vec<u32>> {
    static GROUPS: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());
    GROUPS.lock().unwrap_or_else(|e| e.into_inner())
}

fn register_group(pid: u32) {
    groups().push(pid);
}

fn unregister_group(pid: u32) {
    groups().retain(|&p| p != pid);
}

/// Kills the process group of every engine still running (for a referee that is
/// itself being stopped by a signal).
pub fn kill_all_engines() {
    #[cfg(unix)]
    for &pid in groups().iter() {
        if let Ok(pid) = i32::try_from(pid) {
            let _ = nix::sys::signal::killpg(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}

/// Waits (a second at most) for every killed engine to be gone, so that none is left a
/// zombie: once the referee exits they would be its init's to reap, and in a container
/// that init may never do it.
#[cfg(unix)]
fn reap_all_engines() {
    use nix::sys::wait::{waitpid, WaitPidFlag, WaitStatus};
    let pids: Vec<u32> = groups().clone();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(1);
    for pid in pids {
        let Ok(pid) = i32::try_from(pid) else {
            continue;
        };
        let pid = nix::unistd::Pid::from_raw(pid);
        // A game thread may reap it first: any answer but "still running" ends the wait.
        while let Ok(WaitStatus::StillAlive) = waitpid(pid, Some(WaitPidFlag::WNOHANG)) {
            if std::time::Instant::now() >= deadline {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(2));
        }
    }
}

/// Set once a signal has stopped the match: a game that ends from then on ended because
/// its engines were killed, and must not be recorded as played.
static STOPPING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// True once a signal has stopped the match (see [`kill_engines_on_signals`]).
pub fn stopping() -> bool {
    STOPPING.load(std::sync::atomic::Ordering::SeqCst)
}

/// Once a signal has stopped the match, waits for the signal's thread to end the process
/// with 128 + the signal: a match cut short by its engines' deaths must not return first.
pub fn await_signal_exit() {
    while stopping() {
        std::thread::park();
    }
}

/// Makes SIGINT and SIGTERM to the referee kill every engine's process group before the
/// referee exits (status 128 + the signal), so a stopped match leaves nothing running.
/// Call before any thread starts: the signals are blocked and waited for on a thread of
/// their own, where killing is safe (a signal handler could not take a lock).
pub fn kill_engines_on_signals() {
    #[cfg(unix)]
    {
        use nix::sys::signal::{SigSet, Signal};
        let mut set = SigSet::empty();
        set.add(Signal::SIGINT);
        set.add(Signal::SIGTERM);
        if set.thread_block().is_err() {
            return;
        }
        std::thread::spawn(move || {
            if let Ok(sig) = set.wait() {
                // Before the kill: a game thread learns of it only from its engine's
                // death, by which time this is visible.
                STOPPING.store(true, std::sync::atomic::Ordering::SeqCst);
                kill_all_engines();
                reap_all_engines();
                std::process::exit(128 + sig as i32);
            }
        });
    }
}

/// Parses the score of a UCI `info` line: centipawns, or mate as ±(30000 − plies).
fn uci_score(line: &str) -> Option<i32> {
    let toks: Vec<&str> = line.split_whitespace().collect();
    let i = toks.iter().position(|&t| t == "score")?;
    let n: i32 = toks.get(i + 2)?.parse().ok()?;
    match *toks.get(i + 1)? {
        "cp" => Some(n),
        "mate" if n > 0 => Some(30_000 - n),
        "mate" => Some(-30_000 - n),
        _ => None,
    }
}

/// Which line of a MultiPV search an `info` line reports (1 when it names none): only
/// line 1 is the engine's best move and score (UCI: "for the best move/pv add
/// `multipv 1`"), the others are alternatives it rejected.
fn pv_number(line: &str) -> u32 {
    let toks: Vec<&str> = line.split_whitespace().collect();
    toks.iter()
        .position(|&t| t == "multipv")
        .and_then(|i| toks.get(i + 1)?.parse().ok())
        .unwrap_or(1)
}

/// The games of a UCI `option name UCI_Variant type combo … var A var B` line.
fn uci_variants(line: &str) -> Option<Vec<String>> {
    let rest = line.strip_prefix("option name UCI_Variant ")?;
    let toks: Vec<&str> = rest.split_whitespace().collect();
    if toks.first() != Some(&"type") || toks.get(1) != Some(&"combo") {
        return None;
    }
    let vars = toks
        .windows(2)
        .filter(|w| w[0] == "var")
        .map(|w| w[1].to_string())
        .collect();
    Some(vars)
}

/// An engine speaking UCI.
pub struct UciEngine {
    name: String,
    cmd: String,
    args: Vec<String>,
    options: Vec<(String, String)>,
    proc: Option<Process>,
    variant_start: String,
}

impl UciEngine {
    /// An engine to be started at the first game.
    pub fn new(name: &str, cmd: &str, args: &[String], options: &[(String, String)]) -> UciEngine {
        UciEngine {
            name: name.to_string(),
            cmd: cmd.to_string(),
            args: args.to_vec(),
            options: options.to_vec(),
            proc: None,
            variant_start: String::new(),
        }
    }
}

impl Player for UciEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, variant: &str, start_fen: &str) -> Result<(), PlayerError> {
        if self.proc.is_none() {
            let mut p = Process::spawn(&self.cmd, &self.args)?;
            p.send("uci")?;
            let deadline = Instant::now() + HANDSHAKE;
            let mut variants = None;
            loop {
                let l = p.recv(deadline).map_err(|e| match e {
                    PlayerError::Hung => PlayerError::Start(format!(
                        "no uciok within {} s of `uci`",
                        HANDSHAKE.as_secs()
                    )),
                    e => e,
                })?;
                let t = l.trim();
                if t.starts_with("uciok") {
                    break;
                }
                variants = variants.or_else(|| uci_variants(t));
            }
            // A variant file the engine is told to load (`VariantPath`) adds games its
            // list, printed before, cannot name: the list is only trusted without one.
            let loads = self
                .options
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("VariantPath"));
            if variant != "chess" && !loads {
                match variants {
                    None => {
                        return Err(PlayerError::Start(format!(
                            "it has no UCI_Variant option, so it plays only chess, not {variant}"
                        )))
                    }
                    Some(list) if !list.iter().any(|v| v == variant) => {
                        let more = list.len().saturating_sub(8);
                        let mut shown = list[..list.len().min(8)].join(", ");
                        if more > 0 {
                            shown.push_str(&format!(" and {more} more"));
                        }
                        return Err(PlayerError::Start(format!(
                            "its UCI_Variant does not list {variant} (it lists {shown})"
                        )));
                    }
                    Some(_) => {}
                }
            }
            for (k, v) in &self.options {
                p.send(&format!("setoption name {k} value {v}"))?;
            }
            if variant != "chess" {
                p.send(&format!("setoption name UCI_Variant value {variant}"))?;
            }
            self.proc = Some(p);
        }
        let p = self.proc.as_mut().expect("started above");
        self.variant_start = start_fen.to_string();
        p.send("ucinewgame")?;
        p.send("isready")?;
        p.wait_for("readyok", Instant::now() + HANDSHAKE)?;
        Ok(())
    }

    fn think(
        &mut self,
        pos: &Position,
        start_fen: &str,
        moves: &[String],
        limit: &Limit,
    ) -> Result<Reply, PlayerError> {
        let p = self
            .proc
            .as_mut()
            .ok_or_else(|| PlayerError::Protocol("think before new_game".into()))?;
        let head = if start_fen == pos.variant().start_fen {
            "position startpos".to_string()
        } else {
            format!("position fen {start_fen}")
        };
        let cmd = if moves.is_empty() {
            head
        } else {
            format!("{head} moves {}", moves.join(" "))
        };
        p.send(&cmd)?;
        let mut go = String::from("go");
        let white = pos.side_to_move() == crate::core::moves::Color::White;
        if let Some(d) = limit.depth {
            go += &format!(" depth {d}");
        }
        if let Some(n) = limit.nodes {
            go += &format!(" nodes {n}");
        }
        if let Some(mt) = limit.movetime {
            go += &format!(" movetime {}", mt.as_millis());
        }
        if let (Some(t), Some(o)) = (limit.time, limit.opp_time) {
            let (wt, bt) = if white { (t, o) } else { (o, t) };
            go += &format!(
                " wtime {} btime {} winc {} binc {}",
                wt.as_millis(),
                bt.as_millis(),
                limit.inc.as_millis(),
                limit.inc.as_millis()
            );
            if let Some(mtg) = limit.moves_to_go {
                go += &format!(" movestogo {mtg}");
            }
        }
        p.send(&go)?;
        let deadline = Instant::now() + limit.hard_deadline;
        let mut score = None;
        let mut depth = None;
        loop {
            let l = p.recv(deadline)?;
            let t = l.trim();
            if t.starts_with("info") && pv_number(t) == 1 {
                if let Some(s) = uci_score(t) {
                    score = Some(s);
                    let f: Vec<&str> = t.split_whitespace().collect();
                    depth = f
                        .iter()
                        .position(|&w| w == "depth")
                        .and_then(|i| f.get(i + 1)?.parse().ok())
                        .or(depth);
                }
            } else if let Some(rest) = t.strip_prefix("bestmove") {
                let mv = rest.split_whitespace().next().unwrap_or("").to_string();
                if mv.is_empty() {
                    return Err(PlayerError::Protocol("empty bestmove".into()));
                }
                return Ok(Reply {
                    mv,
                    score_cp: score,
                    depth,
                });
            }
        }
    }

    fn quit(&mut self) {
        if let Some(mut p) = self.proc.take() {
            p.close("quit");
        }
    }
}

impl Drop for UciEngine {
    fn drop(&mut self) {
        self.quit();
    }
}

/// What an XBoard engine announced with `feature` (the spec's defaults otherwise: off,
/// and `nps` to be tried).
#[derive(Debug, Clone, Default)]
struct Features {
    usermove: bool,
    setboard: bool,
    ping: bool,
    /// `nps=1` or `nps=0`: whether a node limit can be set through `nps`; None until
    /// announced or tried (the spec's default is "sent, to try it out").
    nps: Option<bool>,
    /// `variants="…"`: the games it accepts (unset: every game, as the spec says).
    variants: Option<Vec<String>>,
}

/// `key=value` pairs of a `feature` line (values may be quoted and hold spaces).
fn feature_pairs(line: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = line.trim_start_matches("feature").trim();
    while let Some((k, r)) = rest.split_once('=') {
        let key = k.trim().to_string();
        let (value, r) = if let Some(q) = r.strip_prefix('"') {
            match q.split_once('"') {
                Some((v, r)) => (v.to_string(), r),
                None => (q.to_string(), ""),
            }
        } else {
            match r.split_once(char::is_whitespace) {
                Some((v, r)) => (v.to_string(), r),
                None => (r.to_string(), ""),
            }
        };
        out.push((key, value));
        rest = r.trim_start();
    }
    out
}

/// How long the spec lets an engine take to send its first `feature` line.
const FEATURE_WAIT: Duration = Duration::from_secs(2);

/// An engine speaking XBoard/CECP (protocol 2). Like cutechess-cli, the referee keeps
/// the engine's game between moves: the opponent's moves reach it as moves in force
/// mode, then `go`; it is told `new` only at the start of a game.
pub struct XboardEngine {
    name: String,
    cmd: String,
    args: Vec<String>,
    proc: Option<Process>,
    features: Features,
    /// The game as the engine has it: every move sent or received so far.
    pos: Option<Position>,
    sent: usize,
    ping: u32,
    /// The time control was sent this game.
    level_sent: bool,
}

impl XboardEngine {
    /// An engine to be started at the first game.
    pub fn new(name: &str, cmd: &str, args: &[String]) -> XboardEngine {
        XboardEngine {
            name: name.to_string(),
            cmd: cmd.to_string(),
            args: args.to_vec(),
            proc: None,
            features: Features::default(),
            pos: None,
            sent: 0,
            ping: 0,
            level_sent: false,
        }
    }

    /// Starts the engine and reads its features until `done=1`, or until the spec's two
    /// seconds pass without any (a protocol-1 engine); `done=0` asks for more time.
    fn start(&mut self) -> Result<Process, PlayerError> {
        let mut p = Process::spawn(&self.cmd, &self.args)?;
        p.send("xboard")?;
        p.send("protover 2")?;
        let mut deadline = Instant::now() + FEATURE_WAIT;
        loop {
            let l = match p.recv(deadline) {
                Ok(l) => l,
                Err(PlayerError::Hung) => break,
                Err(e) => return Err(e),
            };
            let t = l.trim();
            if !t.starts_with("feature") {
                continue;
            }
            for (k, v) in feature_pairs(t) {
                let on = v == "1";
                match k.as_str() {
                    "usermove" => self.features.usermove = on,
                    "setboard" => self.features.setboard = on,
                    "ping" => self.features.ping = on,
                    "nps" => self.features.nps = Some(on),
                    "variants" => {
                        self.features.variants =
                            Some(v.split(',').map(|x| x.trim().to_string()).collect())
                    }
                    "done" if on => return Ok(p),
                    "done" => deadline = Instant::now() + HANDSHAKE,
                    _ => {}
                }
                let known = [
                    "usermove", "setboard", "ping", "nps", "done", "myname", "variants",
                ];
                if k != "done" {
                    let verdict = if known.contains(&k.as_str()) || !on {
                        "accepted"
                    } else {
                        "rejected"
                    };
                    p.send(&format!("{verdict} {k}"))?;
                }
            }
        }
        Ok(p)
    }

    /// Waits until the engine has read everything sent so far (`ping`/`pong`), so no
    /// stale output of an earlier command is taken for an answer to the next.
    fn sync(&mut self) -> Result<(), PlayerError> {
        if !self.features.ping {
            return Ok(());
        }
        self.ping += 1;
        let n = self.ping;
        let p = self
            .proc
            .as_mut()
            .ok_or_else(|| PlayerError::Protocol("not started".into()))?;
        p.send(&format!("ping {n}"))?;
        let want = format!("pong {n}");
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            if p.recv(deadline)?.trim() == want {
                return Ok(());
            }
        }
    }

    /// Sets a node budget with `nps n`. An engine that announced neither `nps=1` nor
    /// `nps=0` is tried, as the spec says, with a `ping` behind it: an `Error … nps`
    /// before the `pong` (Fairy-Max: `Error (unknown command): nps`) refuses it.
    fn set_nps(&mut self, n: u64) -> Result<(), PlayerError> {
        let refused = |why: &str| {
            PlayerError::Unsupported(format!(
                "nodes= needs an XBoard engine that takes nps (feature nps=1): {why}"
            ))
        };
        match self.features.nps {
            Some(false) => return Err(refused("it announced nps=0")),
            None if !self.features.ping => {
                return Err(refused(
                    "it did not announce nps=1, and without ping it cannot be tried",
                ))
            }
            _ => {}
        }
        self.ping += 1;
        let tag = self.ping;
        let p = self
            .proc
            .as_mut()
            .ok_or_else(|| PlayerError::Protocol("not started".into()))?;
        p.send(&format!("nps {n}"))?;
        if self.features.nps == Some(true) {
            return Ok(());
        }
        p.send(&format!("ping {tag}"))?;
        let want = format!("pong {tag}");
        let deadline = Instant::now() + HANDSHAKE;
        loop {
            let l = p.recv(deadline)?;
            let t = l.trim();
            if t == want {
                self.features.nps = Some(true);
                return Ok(());
            }
            if t.starts_with("Error") && t.contains("nps") {
                self.features.nps = Some(false);
                return Err(refused(&format!("it answered `{t}`")));
            }
        }
    }

    fn send_move(&mut self, text: &str) -> Result<(), PlayerError> {
        let line = if self.features.usermove {
            format!("usermove {text}")
        } else {
            text.to_string()
        };
        self.proc
            .as_mut()
            .ok_or_else(|| PlayerError::Protocol("not started".into()))?
            .send(&line)
    }
}

impl Player for XboardEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, variant: &str, start_fen: &str) -> Result<(), PlayerError> {
        if self.proc.is_none() {
            let p = self.start()?;
            self.proc = Some(p);
        }
        let v = crate::registry::get(variant).map_err(|e| PlayerError::Start(e.to_string()))?;
        let pos = Position::from_fen(&v, start_fen)
            .map_err(|e| PlayerError::Start(format!("start position: {e}")))?;
        let from_start = start_fen == v.start_fen;
        if !from_start && !self.features.setboard {
            return Err(PlayerError::Start(
                "the engine announced setboard=0 and the game does not start from the start position".into(),
            ));
        }
        let xname = crate::protocol::xboard::xboard_name(variant);
        // A board-size prefix (`10x10+0_grand`) names the same game.
        let listed = |x: &String| x == xname || x.split_once('_').is_some_and(|(_, n)| n == xname);
        if let Some(list) = self
            .features
            .variants
            .as_ref()
            .filter(|_| xname != "normal")
        {
            if !list.iter().any(listed) {
                return Err(PlayerError::Start(format!(
                    "its variants feature does not list {xname}"
                )));
            }
        }
        let p = self.proc.as_mut().expect("started above");
        p.send("new")?;
        if xname != "normal" {
            p.send(&format!("variant {xname}"))?;
        }
        p.send("force")?;
        if !from_start {
            let fen = crate::protocol::cecp_move::fen_to_cecp(v.board.ranks as u32, start_fen);
            p.send(&format!("setboard {fen}"))?;
        }
        p.send("post")?;
        self.pos = Some(pos);
        self.sent = 0;
        self.level_sent = false;
        self.sync()
    }

    fn think(
        &mut self,
        _pos: &Position,
        _start_fen: &str,
        moves: &[String],
        limit: &Limit,
    ) -> Result<Reply, PlayerError> {
        // The moves played since the engine last heard, in its notation.
        let mut game = self
            .pos
            .take()
            .ok_or_else(|| PlayerError::Protocol("think before new_game".into()))?;
        let mut texts = Vec::new();
        for m in moves.iter().skip(self.sent) {
            let mv = game
                .parse_move(m)
                .map_err(|e| PlayerError::Protocol(format!("referee move: {e}")))?;
            texts.push(crate::protocol::cecp_move::to_cecp(&game, mv));
            game.make_move(mv);
        }
        self.sent = moves.len();
        self.pos = Some(game);
        for t in &texts {
            self.send_move(t)?;
        }
        let first = !self.level_sent;
        self.level_sent = true;
        if let (true, Some(n)) = (first, limit.nodes) {
            self.set_nps(n)?;
        }
        let p = self
            .proc
            .as_mut()
            .ok_or_else(|| PlayerError::Protocol("not started".into()))?;
        if first {
            if let Some(d) = limit.depth {
                p.send(&format!("sd {d}"))?;
            }
            if limit.nodes.is_some() {
                // CECP has no node limit; `nps` (sent above) makes the engine count time
                // in nodes, so one second of thinking is exactly `n` nodes.
                p.send("st 1")?;
            } else if let Some(mt) = limit.movetime {
                p.send(&format!("st {}", mt.as_secs_f64().max(0.01)))?;
            } else if let (Some(t), Some(_)) = (limit.time, limit.opp_time) {
                let base = t.as_secs().max(1);
                // CECP's `level MPS BASE INC`: MPS is the period's length, after which the
                // engine's clock refills; the moves left in this period reach the engine
                // by the moves it hears (book moves included, as on the referee's clock).
                p.send(&format!(
                    "level {} {}:{:02} {}",
                    limit.period_moves,
                    base / 60,
                    base % 60,
                    limit.inc.as_secs_f64()
                ))?;
            }
        }
        if let (None, Some(t), Some(o)) = (limit.nodes, limit.time, limit.opp_time) {
            p.send(&format!("time {}", t.as_millis() / 10))?;
            p.send(&format!("otim {}", o.as_millis() / 10))?;
        }
        p.send("go")?;
        let deadline = Instant::now() + limit.hard_deadline;
        let mut score = None;
        let mut depth = None;
        loop {
            let l = p.recv(deadline)?;
            let t = l.trim();
            if let Some(rest) = t.strip_prefix("move ") {
                let text = rest.trim();
                // Out of the engine's time: it must not think on while the referee
                // checks the move and the opponent thinks.
                p.send("force")?;
                let game = self
                    .pos
                    .as_mut()
                    .ok_or_else(|| PlayerError::Protocol("think before new_game".into()))?;
                // Read here, and only here, so the engine's game and the referee's take
                // the same move or none: a refused move ends the game as an infraction.
                let mv = crate::protocol::cecp_move::from_cecp_or_san(game, text)
                    .map_err(|e| PlayerError::IllegalMove(e.to_string()))?;
                let mv_text = game.move_to_string(mv);
                game.make_move(mv);
                self.sent += 1;
                return Ok(Reply {
                    mv: mv_text,
                    score_cp: score,
                    depth,
                });
            }
            if t == "resign" || t.starts_with("tellics resign") {
                return Err(PlayerError::Resigned);
            }
            // CECP's `RESULT {COMMENT}`: a claim. On its own move the game is not over
            // (the referee ends a game the rules end before asking for a move), so only
            // its own loss is true, and that is a resignation.
            if let Some(claim) = ["1-0", "0-1", "1/2-1/2"]
                .into_iter()
                .find(|r| t == *r || t.starts_with(&format!("{r} ")))
            {
                let own_loss = match self.pos.as_ref().map(|g| g.side_to_move()) {
                    Some(crate::core::moves::Color::White) => "0-1",
                    _ => "1-0",
                };
                return Err(if claim == own_loss {
                    PlayerError::Resigned
                } else {
                    // The claim's comment in parentheses: a brace would end the PGN
                    // comment this becomes.
                    PlayerError::FalseClaim(t.replace('{', "(").replace('}', ")"))
                });
            }
            if t.starts_with("Illegal move") {
                // The engine refused a move the referee found legal: their games differ.
                return Err(PlayerError::Protocol(t.to_string()));
            }
            // `Error (...)` answers an optional command the engine does not know; the game
            // goes on. Thinking output: "depth score time nodes pv…".
            let f: Vec<&str> = t.split_whitespace().collect();
            if f.len() >= 4 {
                if let (Ok(d), Ok(s)) = (f[0].parse::<u32>(), f[1].parse::<i32>()) {
                    depth = Some(d);
                    score = Some(s);
                }
            }
        }
    }

    fn check_limit(&mut self, limit: &Limit) -> Result<(), PlayerError> {
        match limit.nodes {
            Some(n) => self.set_nps(n),
            None => Ok(()),
        }
    }

    fn quit(&mut self) {
        if let Some(mut p) = self.proc.take() {
            p.close("quit");
        }
    }
}

impl Drop for XboardEngine {
    fn drop(&mut self) {
        self.quit();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uci_scores_read_cp_and_mate() {
        assert_eq!(
            uci_score("info depth 5 score cp -31 nodes 100 pv e2e4"),
            Some(-31)
        );
        assert_eq!(uci_score("info depth 9 score mate 3 pv a1a8"), Some(29_997));
        assert_eq!(uci_score("info depth 9 score mate -2"), Some(-29_998));
        assert_eq!(uci_score("info string hello"), None);
    }

    #[test]
    fn an_endless_line_is_cut_at_the_cap_and_the_next_line_still_arrives() {
        let mut text = vec![b'x'; MAX_LINE * 3];
        text.extend_from_slice(b"\nbestmove e2e4\r\n");
        let mut r = std::io::Cursor::new(text);
        assert_eq!(read_capped_line(&mut r).unwrap().len(), MAX_LINE);
        assert_eq!(read_capped_line(&mut r).unwrap(), "bestmove e2e4");
        assert_eq!(read_capped_line(&mut r), None);
    }

    #[test]
    fn feature_lines_split_into_pairs_with_quoted_values() {
        assert_eq!(
            feature_pairs("feature ping=1 myname=\"Fairy-Max 5.0b\" setboard=0 done=1"),
            vec![
                ("ping".to_string(), "1".to_string()),
                ("myname".to_string(), "Fairy-Max 5.0b".to_string()),
                ("setboard".to_string(), "0".to_string()),
                ("done".to_string(), "1".to_string()),
            ]
        );
    }

    #[test]
    fn a_missing_program_is_a_start_error() {
        let mut e = UciEngine::new("x", "/no/such/engine", &[], &[]);
        assert!(matches!(
            e.new_game("chess", ""),
            Err(PlayerError::Start(_))
        ));
    }
}
