//! Hashed perft (`perft --hash MB`) counts exactly what plain perft counts: every line of
//! every game's suite at small depth, counted through one small shared table (so entries
//! are replaced and reused across lines), with one thread and with two.

use crate::common;

use std::sync::Arc;
use tenfold::perft::{count, Counting, PerftTable};
use tenfold::registry;
use tenfold::Position;

/// Depths whose expected count exceeds this are left to `perft --suite`.
const NODE_BUDGET: u64 = 400_000;

fn check_suite(name: &str, default_variant: &str) {
    // 1 MB: small enough that lines evict each other's entries.
    let table = Arc::new(PerftTable::new(1).unwrap());
    let mut checked = 0;
    for threads in [1, 2] {
        let how = Counting {
            threads,
            table: Some(Arc::clone(&table)),
        };
        for line in common::suite(name) {
            let v = registry::get(line.variant.as_deref().unwrap_or(default_variant)).unwrap();
            let pos = Position::from_fen(&v, &line.fen).unwrap();
            for &(depth, expected) in line.expected.iter().filter(|(_, n)| *n <= NODE_BUDGET) {
                let got = count(&pos, depth, &how, None);
                assert_eq!(got, expected, "{name} line {} depth {depth}", line.line);
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "{name}: nothing checked");
}

#[test]
fn hashed_counts_equal_the_suite_in_chess() {
    check_suite("chess", "chess");
}

#[test]
fn hashed_counts_equal_the_suite_on_large_boards() {
    check_suite("large-boards", "chess");
}

#[test]
fn hashed_counts_equal_the_suite_in_the_seed_games() {
    for game in ["wildeurasian", "archmage", "augsburg", "combined-arms"] {
        check_suite(game, game);
    }
}

#[test]
fn a_count_is_kept_under_its_position_and_depth() {
    let v = registry::get("chess").unwrap();
    let start = Position::startpos(&v);
    let how = Counting::new(1, 4).unwrap();
    assert_eq!(count(&start, 5, &how, None), 4_865_609);
    let table = how.table.as_ref().unwrap();
    assert_eq!(table.probe(start.key(), 5), Some(4_865_609));
    assert_eq!(
        table.probe(start.key(), 4),
        None,
        "depth is part of the entry"
    );
    // Counted again, the answer is read back from the table.
    assert_eq!(count(&start, 5, &how, None), 4_865_609);
}
