//! Perft suites: EPD lines `FEN ;D1 n ;D2 n …`, optionally prefixed `variant | `.

use crate::perft::perft_threads;
use crate::position::Position;
use crate::registry;
use std::sync::Arc;

/// One line of a suite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteLine {
    /// 1-based line number in the file.
    pub line: usize,
    /// Variant named on the line, if any (otherwise the command's variant).
    pub variant: Option<String>,
    /// The position.
    pub fen: String,
    /// (depth, expected nodes), ascending by depth.
    pub expected: Vec<(u32, u64)>,
}

/// Parses a suite file's text; `origin` names it in errors.
pub fn parse_suite(text: &str, origin: &str) -> Result<Vec<SuiteLine>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (variant, rest) = match line.split_once('|') {
            Some((v, r)) => (Some(v.trim().to_string()), r.trim()),
            None => (None, line),
        };
        let mut parts = rest.split(';');
        let fen = parts.next().unwrap_or("").trim().to_string();
        if fen.is_empty() {
            return Err(format!("{origin}:{}: no FEN", i + 1));
        }
        let mut expected = Vec::new();
        for p in parts {
            let p = p.trim();
            if p.is_empty() {
                continue;
            }
            let mut w = p.split_whitespace();
            let (d, n) = (w.next().unwrap_or(""), w.next().unwrap_or(""));
            let depth = d
                .strip_prefix('D')
                .and_then(|x| x.parse::<u32>().ok())
                .ok_or_else(|| format!("{origin}:{}: \"{p}\" is not ;D<depth> <nodes>", i + 1))?;
            let nodes = n
                .parse::<u64>()
                .map_err(|_| format!("{origin}:{}: \"{p}\" has no node count", i + 1))?;
            expected.push((depth, nodes));
        }
        expected.sort();
        out.push(SuiteLine {
            line: i + 1,
            variant,
            fen,
            expected,
        });
    }
    Ok(out)
}

/// The verdict of one depth of one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// Depth searched.
    pub depth: u32,
    /// Expected count.
    pub expected: u64,
    /// Counted.
    pub got: u64,
}

/// Runs one suite line up to `max_depth`; an error if its FEN or variant is bad.
pub fn run_line(
    line: &SuiteLine,
    default_variant: &str,
    max_depth: u32,
    threads: usize,
) -> Result<Vec<Verdict>, String> {
    let name = line.variant.as_deref().unwrap_or(default_variant);
    let v = registry::get(name).map_err(|e| format!("line {}: {e}", line.line))?;
    run_line_in(&v, line, max_depth, threads)
}

/// Runs one suite line in a given variant.
pub fn run_line_in(
    v: &Arc<crate::variant::Variant>,
    line: &SuiteLine,
    max_depth: u32,
    threads: usize,
) -> Result<Vec<Verdict>, String> {
    let pos = Position::from_fen(v, &line.fen).map_err(|e| format!("line {}: {e}", line.line))?;
    Ok(line
        .expected
        .iter()
        .filter(|(d, _)| *d <= max_depth)
        .map(|&(depth, expected)| Verdict {
            depth,
            expected,
            got: perft_threads(&pos, depth, threads),
        })
        .collect())
}
