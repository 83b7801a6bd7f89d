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
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
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

    /// Asks politely, then kills, and always reaps the process (no zombies).
    fn close(&mut self, goodbye: &str) {
        let _ = self.send(goodbye);
        let end = Instant::now() + Duration::from_millis(300);
        while Instant::now() < end {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill_group();
        let _ = self.child.kill();
        let _ = self.child.wait();
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
            p.wait_for("uciok", Instant::now() + HANDSHAKE)?;
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
        loop {
            let l = p.recv(deadline)?;
            let t = l.trim();
            if t.starts_with("info") {
                if let Some(s) = uci_score(t) {
                    score = Some(s);
                }
            } else if let Some(rest) = t.strip_prefix("bestmove") {
                let mv = rest.split_whitespace().next().unwrap_or("").to_string();
                if mv.is_empty() {
                    return Err(PlayerError::Protocol("empty bestmove".into()));
                }
                return Ok(Reply {
                    mv,
                    score_cp: score,
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

/// An engine speaking XBoard/CECP (protocol 2).
pub struct XboardEngine {
    name: String,
    cmd: String,
    args: Vec<String>,
    proc: Option<Process>,
    usermove: bool,
    /// The engine announced `feature nps=1`, so a node limit can be set through `nps`.
    nps: bool,
    variant: String,
}

impl XboardEngine {
    /// An engine to be started at the first game.
    pub fn new(name: &str, cmd: &str, args: &[String]) -> XboardEngine {
        XboardEngine {
            name: name.to_string(),
            cmd: cmd.to_string(),
            args: args.to_vec(),
            proc: None,
            usermove: false,
            nps: false,
            variant: String::new(),
        }
    }
}

impl Player for XboardEngine {
    fn name(&self) -> &str {
        &self.name
    }

    fn new_game(&mut self, variant: &str, _start_fen: &str) -> Result<(), PlayerError> {
        if self.proc.is_none() {
            let mut p = Process::spawn(&self.cmd, &self.args)?;
            p.send("xboard")?;
            p.send("protover 2")?;
            let deadline = Instant::now() + HANDSHAKE;
            loop {
                match p.recv(deadline) {
                    Ok(l) => {
                        if l.contains("usermove=1") {
                            self.usermove = true;
                        }
                        if l.contains("nps=1") {
                            self.nps = true;
                        }
                        if l.contains("done=1") {
                            break;
                        }
                    }
                    // Protocol-1 engines never say done=1: go on after the wait.
                    Err(PlayerError::Hung) => break,
                    Err(e) => return Err(e),
                }
            }
            self.proc = Some(p);
        }
        self.variant = variant.to_string();
        Ok(())
    }

    fn think(
        &mut self,
        pos: &Position,
        start_fen: &str,
        moves: &[String],
        limit: &Limit,
    ) -> Result<Reply, PlayerError> {
        let usermove = self.usermove;
        if limit.nodes.is_some() && !self.nps {
            return Err(PlayerError::Protocol(
                "nodes= needs an XBoard engine that announces feature nps=1".into(),
            ));
        }
        let p = self
            .proc
            .as_mut()
            .ok_or_else(|| PlayerError::Protocol("think before new_game".into()))?;
        // Replaying the game in force mode each move keeps engine and referee in step
        // whatever the engine thought of earlier moves.
        p.send("new")?;
        if self.variant != "chess" {
            p.send(&format!("variant {}", self.variant))?;
        }
        p.send("force")?;
        if start_fen != pos.variant().start_fen {
            p.send(&format!("setboard {start_fen}"))?;
        }
        for m in moves {
            p.send(&if usermove {
                format!("usermove {m}")
            } else {
                m.clone()
            })?;
        }
        p.send("post")?;
        if let Some(d) = limit.depth {
            p.send(&format!("sd {d}"))?;
        }
        if let Some(n) = limit.nodes {
            // CECP has no node limit; `nps` makes the engine count time in nodes, so
            // one second of thinking is exactly `n` nodes.
            p.send(&format!("nps {n}"))?;
            p.send("st 1")?;
        } else if let Some(mt) = limit.movetime {
            p.send(&format!("st {}", (mt.as_secs_f64()).max(0.01)))?;
        }
        if let (None, Some(t), Some(o)) = (limit.nodes, limit.time, limit.opp_time) {
            let base = t.as_secs().max(1);
            p.send(&format!(
                "level {} {}:{:02} {}",
                limit.moves_to_go.unwrap_or(0),
                base / 60,
                base % 60,
                limit.inc.as_secs_f64()
            ))?;
            p.send(&format!("time {}", t.as_millis() / 10))?;
            p.send(&format!("otim {}", o.as_millis() / 10))?;
        }
        p.send("go")?;
        let deadline = Instant::now() + limit.hard_deadline;
        let mut score = None;
        loop {
            let l = p.recv(deadline)?;
            let t = l.trim();
            if let Some(rest) = t.strip_prefix("move ") {
                let mv = rest.trim().to_string();
                let _ = p.send("force");
                return Ok(Reply {
                    mv,
                    score_cp: score,
                });
            }
            if t.starts_with("Illegal move") || t.starts_with("Error") {
                return Err(PlayerError::Protocol(t.to_string()));
            }
            // Thinking output: "depth score time nodes pv…".
            let f: Vec<&str> = t.split_whitespace().collect();
            if f.len() >= 4 && f[0].parse::<u32>().is_ok() {
                if let Ok(s) = f[1].parse::<i32>() {
                    score = Some(s);
                }
            }
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
    fn a_missing_program_is_a_start_error() {
        let mut e = UciEngine::new("x", "/no/such/engine", &[], &[]);
        assert!(matches!(
            e.new_game("chess", ""),
            Err(PlayerError::Start(_))
        ));
    }
}
