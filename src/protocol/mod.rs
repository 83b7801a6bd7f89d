//! What the UCI and XBoard loops share: a line-oriented output, the message queue that
//! merges input lines with search results, and the stdin reader.

pub mod cecp_move;
pub mod uci;
pub mod xboard;

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
        let mut buf = String::new();
        loop {
            buf.clear();
            match lock.read_line(&mut buf) {
                Ok(0) | Err(_) => {
                    let _ = tx.send(Msg::Eof);
                    return;
                }
                Ok(_) => {
                    if tx
                        .send(Msg::Line(buf.trim_end_matches(['\n', '\r']).to_string()))
                        .is_err()
                    {
                        return;
                    }
                }
            }
        }
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
    let mut first = String::new();
    loop {
        first.clear();
        match stdin.lock().read_line(&mut first) {
            Ok(0) | Err(_) => return,
            Ok(_) if first.trim().is_empty() => continue,
            Ok(_) => break,
        }
    }
    let first = first.trim_end_matches(['\n', '\r']).to_string();
    let (tx, rx) = queue();
    let dialect = detect(&first);
    read_stdin(Some(first), tx.clone());
    match dialect {
        Dialect::Uci => crate::protocol::uci::run(rx, tx, Out::stdout()),
        Dialect::XBoard => crate::protocol::xboard::run(rx, tx, Out::stdout()),
    }
}
