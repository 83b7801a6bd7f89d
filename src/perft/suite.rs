//! Perft suites: EPD lines `FEN ;D1 n ;D2 n …`, optionally prefixed `variant | `.

use crate::perft::{count, Counting, MAX_DEPTH};
use crate::position::fen::FenError;
use crate::position::Position;
use crate::registry::{self, LoadError};
use crate::report::Report;
use crate::variant::Variant;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Instant;

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

/// Why a suite file was refused; each message names the file and line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// A line with nothing before its first `;`.
    #[error("{origin}:{line}: no FEN")]
    NoFen {
        /// The file.
        origin: String,
        /// 1-based line number.
        line: usize,
    },
    /// A line with a FEN but no `;D<depth> <nodes>` to check it by.
    #[error("{origin}:{line}: no ;D<depth> <nodes> after the FEN")]
    NoDepths {
        /// The file.
        origin: String,
        /// 1-based line number.
        line: usize,
    },
    /// A field that does not start `D<depth>`.
    #[error("{origin}:{line}: \"{field}\" is not ;D<depth> <nodes>")]
    BadDepth {
        /// The file.
        origin: String,
        /// 1-based line number.
        line: usize,
        /// The field as written.
        field: String,
    },
    /// A depth deeper than perft counts ([`MAX_DEPTH`]).
    #[error("{origin}:{line}: \"{field}\" is deeper than perft counts (at most D{MAX_DEPTH})")]
    TooDeep {
        /// The file.
        origin: String,
        /// 1-based line number.
        line: usize,
        /// The field as written.
        field: String,
    },
    /// A count that is no whole number a perft can reach (`;D1 -5`, `;D1 1e9`, past 2^64).
    #[error("{origin}:{line}: \"{field}\": the node count is not a whole number from 0 to {max}", max = u64::MAX)]
    BadCount {
        /// The file.
        origin: String,
        /// 1-based line number.
        line: usize,
        /// The field as written.
        field: String,
    },
    /// A depth without a node count after it.
    #[error("{origin}:{line}: \"{field}\" has no node count")]
    NoCount {
        /// The file.
        origin: String,
        /// 1-based line number.
        line: usize,
        /// The field as written.
        field: String,
    },
}

/// Parses a suite file's text; `origin` names it in errors.
pub fn parse_suite(text: &str, origin: &str) -> Result<Vec<SuiteLine>, ParseError> {
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
            return Err(ParseError::NoFen {
                origin: origin.to_string(),
                line: i + 1,
            });
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
                .ok_or_else(|| ParseError::BadDepth {
                    origin: origin.to_string(),
                    line: i + 1,
                    field: p.to_string(),
                })?;
            if depth > MAX_DEPTH {
                return Err(ParseError::TooDeep {
                    origin: origin.to_string(),
                    line: i + 1,
                    field: p.to_string(),
                });
            }
            let nodes = n.parse::<u64>().map_err(|_| {
                if n.is_empty() {
                    ParseError::NoCount {
                        origin: origin.to_string(),
                        line: i + 1,
                        field: p.to_string(),
                    }
                } else {
                    ParseError::BadCount {
                        origin: origin.to_string(),
                        line: i + 1,
                        field: p.to_string(),
                    }
                }
            })?;
            expected.push((depth, nodes));
        }
        if expected.is_empty() {
            // It would pass having checked nothing.
            return Err(ParseError::NoDepths {
                origin: origin.to_string(),
                line: i + 1,
            });
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

/// Why a suite line could not be run.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    /// The variant it names cannot be had.
    #[error("line {line}: {source}")]
    Variant {
        /// 1-based line number.
        line: usize,
        /// Why the variant cannot be had.
        source: LoadError,
    },
    /// Its FEN is refused.
    #[error("line {line}: {source}")]
    Fen {
        /// 1-based line number.
        line: usize,
        /// Why the FEN was refused.
        source: FenError,
    },
}

/// Runs one suite line up to `max_depth`; an error if its FEN or variant is bad.
pub fn run_line(
    line: &SuiteLine,
    default_variant: &str,
    max_depth: u32,
    how: &Counting,
) -> Result<Vec<Verdict>, LineError> {
    let name = line.variant.as_deref().unwrap_or(default_variant);
    let v = registry::get(name).map_err(|source| LineError::Variant {
        line: line.line,
        source,
    })?;
    run_line_in(&v, line, max_depth, how)
}

/// Runs one suite line in a given variant.
pub fn run_line_in(
    v: &Arc<Variant>,
    line: &SuiteLine,
    max_depth: u32,
    how: &Counting,
) -> Result<Vec<Verdict>, LineError> {
    let pos = Position::from_fen(v, &line.fen).map_err(|source| LineError::Fen {
        line: line.line,
        source,
    })?;
    Ok(line
        .expected
        .iter()
        .filter(|(d, _)| *d <= max_depth)
        .map(|&(depth, expected)| Verdict {
            depth,
            expected,
            got: count(&pos, depth, how, None),
        })
        .collect())
}

/// Why a suite could not be run (a line whose counts differ is no error: see
/// [`SuiteReport::failed`]).
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// The suite file cannot be read.
    #[error("cannot read suite {path}: {source}")]
    Read {
        /// The file.
        path: String,
        /// Why it cannot be read.
        source: crate::core::input::ReadError,
    },
    /// The suite file is malformed.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The command's own variant cannot be had.
    #[error(transparent)]
    Variant(#[from] LoadError),
    /// A line names a bad variant or FEN.
    #[error("{origin}: {source}")]
    Line {
        /// The file.
        origin: String,
        /// Why the line could not be run.
        source: LineError,
    },
}

/// Reads and parses a suite file.
pub fn read_suite(path: &str) -> Result<Vec<SuiteLine>, SuiteError> {
    let text = crate::core::input::read_text(path, crate::core::input::MAX_LIST_BYTES).map_err(
        |source| SuiteError::Read {
            path: path.to_string(),
            source,
        },
    )?;
    Ok(parse_suite(&text, path)?)
}

/// How to run a suite.
#[derive(Clone)]
pub struct SuiteRun {
    /// Variant of the lines that name none.
    pub variant: String,
    /// The variant came from the user's own table file: a bad name is then the
    /// command's error rather than a suite line's, and is reported without the line.
    pub variant_from_file: bool,
    /// Depths above this are skipped.
    pub max_depth: u32,
    /// Threads and hash table of each count.
    pub counting: Counting,
}

/// The outcome of one suite line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineReport {
    /// 1-based line number in the file.
    pub line: usize,
    /// The position.
    pub fen: String,
    /// Each depth counted.
    pub verdicts: Vec<Verdict>,
}

impl LineReport {
    /// True when every depth counted what was expected.
    pub fn ok(&self) -> bool {
        self.verdicts.iter().all(|v| v.got == v.expected)
    }

    /// Nodes counted over all depths.
    pub fn nodes(&self) -> u64 {
        self.verdicts.iter().map(|v| v.got).sum()
    }

    /// `ok   line N D1,D2 FEN` or `FAIL line N Dd expected e got g, … FEN`.
    pub fn text(&self) -> String {
        if self.ok() {
            let depths: Vec<String> = self
                .verdicts
                .iter()
                .map(|v| format!("D{}", v.depth))
                .collect();
            format!(
                "ok   line {:>3} {:<18} {}",
                self.line,
                depths.join(","),
                self.fen
            )
        } else {
            let why: Vec<String> = self
                .verdicts
                .iter()
                .filter(|v| v.got != v.expected)
                .map(|v| format!("D{} expected {} got {}", v.depth, v.expected, v.got))
                .collect();
            format!("FAIL line {:>3} {} {}", self.line, why.join(", "), self.fen)
        }
    }

    /// `{"line", "fen", "ok", "depths": [{"depth", "expected", "got"}]}`.
    pub fn to_json(&self) -> Value {
        let depths: Vec<Value> = self
            .verdicts
            .iter()
            .map(|v| json!({"depth": v.depth, "expected": v.expected, "got": v.got}))
            .collect();
        json!({"line": self.line, "fen": self.fen, "ok": self.ok(), "depths": depths})
    }
}

/// The outcome of a whole suite.
#[derive(Debug, Clone)]
pub struct SuiteReport {
    /// Every line, in file order.
    pub lines: Vec<LineReport>,
    /// Wall-clock seconds for the whole run.
    pub secs: f64,
}

impl SuiteReport {
    /// Lines that counted as expected.
    pub fn passed(&self) -> usize {
        self.lines.iter().filter(|l| l.ok()).count()
    }

    /// Lines with a wrong count.
    pub fn failed(&self) -> usize {
        self.lines.len() - self.passed()
    }

    /// Nodes counted over all lines.
    pub fn nodes(&self) -> u64 {
        self.lines.iter().map(LineReport::nodes).sum()
    }
}

/// The lines themselves are shown as they finish (see [`LineReport::text`]); the report
/// is the totals.
impl Report for SuiteReport {
    /// `P passed, F failed (N nodes in S s)`.
    fn text(&self) -> String {
        format!(
            "{} passed, {} failed ({} nodes in {:.1} s)\n",
            self.passed(),
            self.failed(),
            self.nodes(),
            self.secs
        )
    }

    /// `{"passed", "failed", "nodes", "ms", "lines"}`.
    fn to_json(&self) -> Value {
        let lines: Vec<Value> = self.lines.iter().map(LineReport::to_json).collect();
        json!({"passed": self.passed(), "failed": self.failed(), "nodes": self.nodes(),
               "ms": (self.secs * 1000.0) as u64, "lines": lines})
    }
}

/// Counts every line of a suite, calling `each` as each line finishes (for progress);
/// stops at the first line that cannot be run.
pub fn run_suite(
    lines: &[SuiteLine],
    origin: &str,
    run: &SuiteRun,
    mut each: impl FnMut(&LineReport),
) -> Result<SuiteReport, SuiteError> {
    let start = Instant::now();
    let mut reports = Vec::new();
    for line in lines {
        let verdicts = if run.variant_from_file && line.variant.is_none() {
            let v = registry::get(&run.variant)?;
            run_line_in(&v, line, run.max_depth, &run.counting)
        } else {
            run_line(line, &run.variant, run.max_depth, &run.counting)
        }
        .map_err(|source| SuiteError::Line {
            origin: origin.to_string(),
            source,
        })?;
        let report = LineReport {
            line: line.line,
            fen: line.fen.clone(),
            verdicts,
        };
        each(&report);
        reports.push(report);
    }
    Ok(SuiteReport {
        lines: reports,
        secs: start.elapsed().as_secs_f64(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn run(variant: &str) -> SuiteRun {
        SuiteRun {
            variant: variant.into(),
            variant_from_file: false,
            max_depth: 2,
            counting: Counting::single(),
        }
    }

    #[test]
    fn lines_parse_with_and_without_a_variant() {
        let text = format!("# c\n\n{START} ;D2 400 ;D1 20\nchess | {START};D1 20\n");
        let lines = parse_suite(&text, "s.epd").unwrap();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].line, 3);
        assert_eq!(lines[0].expected, vec![(1, 20), (2, 400)]);
        assert_eq!(lines[1].variant.as_deref(), Some("chess"));
    }

    #[test]
    fn parse_errors_name_file_and_line() {
        assert_eq!(
            parse_suite(";D1 20", "s.epd").unwrap_err().to_string(),
            "s.epd:1: no FEN"
        );
        assert_eq!(
            parse_suite(&format!("{START} ;X1 20"), "s.epd")
                .unwrap_err()
                .to_string(),
            "s.epd:1: \"X1 20\" is not ;D<depth> <nodes>"
        );
        assert_eq!(
            parse_suite(&format!("\n{START} ;D1"), "s.epd")
                .unwrap_err()
                .to_string(),
            "s.epd:2: \"D1\" has no node count"
        );
        // A count past 2^64 was reported as missing.
        assert_eq!(
            parse_suite(&format!("{START} ;D1 99999999999999999999999"), "s.epd")
                .unwrap_err()
                .to_string(),
            "s.epd:1: \"D1 99999999999999999999999\": the node count is not a whole number \
             from 0 to 18446744073709551615"
        );
        // A line that checks nothing would count as passed.
        for bare in [
            START.to_string(),
            format!("{START} ;"),
            format!("{START} ; ;"),
        ] {
            assert_eq!(
                parse_suite(&format!("{START} ;D1 20\n{bare}"), "s.epd")
                    .unwrap_err()
                    .to_string(),
                "s.epd:2: no ;D<depth> <nodes> after the FEN",
                "{bare}"
            );
        }
        // A depth the walk cannot reach is refused before any line is counted.
        assert_eq!(
            parse_suite(&format!("{START} ;D1 20\n{START} ;D999999999 20"), "s.epd")
                .unwrap_err()
                .to_string(),
            "s.epd:2: \"D999999999 20\" is deeper than perft counts (at most D64)"
        );
        assert!(parse_suite(&format!("{START} ;D64 0"), "s.epd").is_ok());
    }

    #[test]
    fn a_suite_reports_passes_failures_and_skipped_depths() {
        let text = format!("{START} ;D1 20 ;D2 400 ;D3 8902\n{START} ;D1 21\n");
        let lines = parse_suite(&text, "s.epd").unwrap();
        let mut seen = 0;
        let r = run_suite(&lines, "s.epd", &run("chess"), |_| seen += 1).unwrap();
        assert_eq!(seen, 2);
        assert_eq!((r.passed(), r.failed(), r.nodes()), (1, 1, 440));
        assert_eq!(r.lines[0].verdicts.len(), 2);
        assert_eq!(
            r.lines[0].text(),
            format!("ok   line   1 D1,D2              {START}")
        );
        assert_eq!(
            r.lines[1].text(),
            format!("FAIL line   2 D1 expected 21 got 20 {START}")
        );
        assert!(r.text().starts_with("1 passed, 1 failed (440 nodes in "));
        assert!(r.text().ends_with(" s)\n"));
        let j = r.to_json();
        assert_eq!(j["lines"][1]["ok"], false);
        assert_eq!(
            j["lines"][1]["depths"][0],
            json!({"depth": 1, "expected": 21, "got": 20})
        );
    }

    #[test]
    fn bad_lines_and_variants_are_errors() {
        let lines = parse_suite("nosuchgame | 8/8 w - - 0 1 ;D1 1", "s.epd").unwrap();
        let e = run_suite(&lines, "s.epd", &run("chess"), |_| {}).unwrap_err();
        assert!(
            e.to_string().starts_with("s.epd: line 1: unknown variant"),
            "{e}"
        );
        let lines = parse_suite("xx w - - 0 1 ;D1 1", "s.epd").unwrap();
        let e = run_suite(&lines, "s.epd", &run("chess"), |_| {}).unwrap_err();
        assert!(e.to_string().starts_with("s.epd: line 1: bad FEN"), "{e}");
        let lines = parse_suite(&format!("{START} ;D1 20"), "s.epd").unwrap();
        let from_file = SuiteRun {
            variant_from_file: true,
            ..run("nosuchgame")
        };
        let e = run_suite(&lines, "s.epd", &from_file, |_| {}).unwrap_err();
        assert!(e.to_string().starts_with("unknown variant"), "{e}");
        let e = read_suite("/no/such/suite.epd").unwrap_err();
        assert!(e
            .to_string()
            .starts_with("cannot read suite /no/such/suite.epd: "));
    }
}
