//! FIDE chess perft: every line of perft/chess.epd up to a node budget per line, so CI
//! stays fast; `tenfold perft --suite perft/chess.epd` runs every depth.

use tenfold::perft::{suite, Counting};
use tenfold::registry;

/// Depths whose expected count exceeds this are left to `perft --suite`.
const NODE_BUDGET: u64 = 3_000_000;

#[test]
fn chess_suite_matches_published_counts() {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/perft/chess.epd")).unwrap();
    let lines = suite::parse_suite(&text, "perft/chess.epd").unwrap();
    assert!(lines.len() >= 130);
    let v = registry::get("chess").unwrap();
    let mut checked = 0;
    for line in &lines {
        let max = line
            .expected
            .iter()
            .filter(|(_, n)| *n <= NODE_BUDGET)
            .map(|(d, _)| *d)
            .max()
            .unwrap_or(1);
        for verdict in suite::run_line_in(&v, line, max, &Counting::single()).unwrap() {
            assert_eq!(
                verdict.got, verdict.expected,
                "line {} depth {}: {}",
                line.line, verdict.depth, line.fen
            );
            checked += 1;
        }
    }
    assert!(checked > 500);
}
