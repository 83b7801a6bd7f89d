//! What the UCI and XBoard loops share: a line-oriented output, the message queue that
//! merges input lines with search results, and the stdin reader.

pub mod cecp_move;
pub mod uci;
pub mod xboard;
pub mod xboard_rules;

use crate::search::SearchResult;
use std::io::{BufRead, Write};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};

/// A shared, line-flushed output (stdout in the binary, a buffer in tests).
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    /// Wraps a writer.
    pub fn new(w: Box<dyn Write + Send>) -> Out {
        Out(Arc::new(Mutex::new(w)))
    }

    /// Standard output.
    pub fn stdout() -> Out {
        Out::new(Box::new(std::io::stdout()))
    }

    /// Writes one line and flushes it; a closed output is ignored (the GUI is gone).
    pub fn line(&self, s: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{s}");
        let _ = w.flush();
    }
}

/// An event for a protocol loop.
pub enum Msg {
    /// A line of input.
    Line(String),
    /// The input ended.
    Eof,
    /// The search with this serial number ended.
    Done(u64, SearchResult),
}

/// A queue of messages and a sender for it.
pub fn queue() -> (Sender<Msg>, Receiver<Msg>) {
    channel()
}

/// Longest input line kept; the rest of a longer line is dropped (no command is near it,
/// and a line without end must not grow until memory runs out).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Reads one line as bytes (a stray non-UTF-8 byte must not end a session the way
/// `read_line`'s error would): `None` at the end of input, else the line without its end,
/// invalid UTF-8 replaced by U+FFFD so that the loop answers it as a bad command.
pub fn read_line_lossy(r: &mut impl BufRead) -> Option<String> {
    let mut line = Vec::new();
    let mut any = false;
    loop {
        let buf = match r.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, used, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1, true),
            None => (buf, buf.len(), false),
        };
        let room = MAX_LINE_BYTES.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        r.consume(used);
        if end {
            break;
        }
    }
    if !any {
        return None;
    }
    while line.last() == Some(&b'\r') {
        line.pop();
    }
    Some(String::from_utf8_lossy(&line).into_owned())
}

/// Reads stdin line by line into the queue on a thread of its own, after `first`.
pub fn read_stdin(first: Option<String>, tx: Sender<Msg>) {
    std::thread::spawn(move || {
        if let Some(l) = first {
            if tx.send(Msg::Line(l)).is_err() {
                return;
            }
        }
        let stdin = std::io::stdin();
        let mut lock = stdin.lock();
        while let Some(line) = read_line_lossy(&mut lock) {
            if tx.send(Msg::Line(line)).is_err() {
                return;
            }
        }
        let _ = tx.send(Msg::Eof);
    });
}

/// Which protocol a first command asks for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dialect {
    /// `uci` (and anything else).
    Uci,
    /// `xboard` or `protover`.
    XBoard,
}

/// The protocol a first input line asks for.
pub fn detect(first: &str) -> Dialect {
    match first.split_whitespace().next() {
        Some("xboard") | Some("protover") => Dialect::XBoard,
        _ => Dialect::Uci,
    }
}

/// Reads the first non-empty stdin line and runs the protocol it asks for.
pub fn auto() {
    let stdin = std::io::stdin();
    let first = loop {
        match read_line_lossy(&mut stdin.lock()) {
            None => return,
            Some(l) if l.trim().is_empty() => continue,
            Some(l) => break l,
        }
    };
    let (tx, rx) = queue();
    let dialect = detect(&first);
    read_stdin(Some(first), tx.clone());
    match dialect {
        Dialect::Uci => crate::protocol::uci::run(rx, tx, Out::stdout()),
        Dialect::XBoard => crate::protocol::xboard::run(rx, tx, Out::stdout()),
    }
}
