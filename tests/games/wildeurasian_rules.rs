//! Wildeurasian Qi (../shared/rules/wildeurasian-qi.md), one test per ruling W1-W5: a
//! position, a move, the expected outcome.

use crate::common;

use common::sorted_moves;
use std::sync::Arc;
use tenfold::registry;
use tenfold::{Position, Variant};

fn variant() -> Arc<Variant> {
    registry::get("wildeurasian").expect("built-in wildeurasian")
}

fn pos(fen: &str) -> Position {
    Position::from_fen(&variant(), fen).unwrap_or_else(|e| panic!("{e}"))
}

fn is_legal(fen: &str, mv: &str) -> bool {
    sorted_moves(&pos(fen)).iter().any(|m| m == mv)
}

fn after(fen: &str, moves: &str) -> String {
    let mut p = pos(fen);
    p.play_moves(moves).unwrap_or_else(|e| panic!("{e}"));
    p.fen()
}

fn rejected(fen: &str) -> String {
    match Position::from_fen(&variant(), fen) {
        Ok(_) => panic!("accepted {fen}"),
        Err(e) => e.to_string(),
    }
}

fn moves_from(fen: &str, from: &str) -> Vec<String> {
    sorted_moves(&pos(fen))
        .into_iter()
        .filter(|m| m.starts_with(from))
        .collect()
}

// Wildeurasian W1: the compounds K, Q, T, G never go beyond the River.
#[test]
fn w1_compounds_stay_on_their_own_side_of_the_river() {
    // White Gnu a5, Queen e5 and Tank h5 stand on the River bank, the King on f4.
    let fen = "4k5/10/10/10/10/G3Q2T2/5K4/10/10/10 w - - 0 1";
    let p = pos(fen);
    let bd = &p.variant().board;
    for m in sorted_moves(&p) {
        let to = bd.parse_square(&m[2..]).unwrap();
        assert!(bd.rank_of(to) <= 4, "{m} crosses the River");
    }
    // Along the bank the Queen still slides, the Gnu still leaps.
    assert!(is_legal(fen, "e5b5") && is_legal(fen, "a5b3") && is_legal(fen, "a5d4"));
}

// Wildeurasian W1: so they never attack or check across it.
#[test]
fn w1_a_queen_does_not_check_across_the_river() {
    // The Queen on e5 looks up the open e-file at the King on e8: no check, so the
    // FEN with White to move is legal and the King may step to e7 and d7.
    let fen = "10/10/4k5/10/10/4Q5/10/10/10/5K4 b - - 0 1";
    assert!(!pos(fen).in_check());
    assert!(is_legal(fen, "e8e7"));
    // The Tank on the River bank cannot capture the Knight on f7 over the f6 screen.
    let fen = "4k5/10/10/5n4/5p4/5T4/10/10/10/K9 w - - 0 1";
    assert!(!is_legal(fen, "f5f7"));
    // The Rook is no compound: from the same square it gives check.
    assert!(pos("10/10/4k5/10/10/4R5/10/10/10/5K4 b - - 0 1").in_check());
}

// Wildeurasian W2: one step forward, no double step; beyond the River a Pawn becomes a
// Wazir at once (no suffix), and the Wazir never turns back.
#[test]
fn w2_pawns_step_once_and_become_wazirs_beyond_the_river() {
    let start = variant().start_fen.clone();
    assert_eq!(moves_from(&start, "c3"), ["c3c4"]);
    let fen = "4k5/10/10/10/3p6/4P5/10/10/10/5K4 w - - 0 1";
    assert_eq!(moves_from(fen, "e5"), ["e5d6", "e5e6"]);
    assert_eq!(
        after(fen, "e5e6"),
        "4k5/10/10/10/3pW5/10/10/10/10/5K4 b - - 0 1"
    );
    assert_eq!(
        after(fen, "e5d6"),
        "4k5/10/10/10/3W6/10/10/10/10/5K4 b - - 0 1"
    );
    // The Wazir steps back over the River and stays a Wazir; Black's pawn turns on rank 5.
    assert_eq!(
        after(fen, "e5e6 d6d5 e6e5"),
        "4k5/10/10/10/10/3wW5/10/10/10/5K4 b - - 1 2"
    );
}

// Wildeurasian W3: on either end rank, optionally, to a lost type; compounds only on
// the Wazir's own end rank; sideways along an end rank counts.
#[test]
fn w3_wazirs_promote_from_the_pool_on_both_end_ranks() {
    // White has lost its Queen, Tank, both Rooks and a Knight.
    let fen = "aa2w2Wmm/c1W7/rrbb2k3/8nn/3q1tpg2/10/AA2C3C1/5K4/1W1w2M3/2BBG1MN1W w - - 0 1";
    // Enemy end rank: only the non-compounds, and the plain move.
    assert_eq!(moves_from(fen, "c9c10"), ["c9c10", "c9c10n", "c9c10r"]);
    // Sideways along the enemy end rank.
    assert_eq!(moves_from(fen, "h10g10"), ["h10g10", "h10g10n", "h10g10r"]);
    // Own end rank: the compounds too.
    assert_eq!(
        moves_from(fen, "b2b1"),
        ["b2b1", "b2b1n", "b2b1q", "b2b1r", "b2b1t"]
    );
    assert_eq!(
        moves_from(fen, "j1i1"),
        ["j1i1", "j1i1n", "j1i1q", "j1i1r", "j1i1t"]
    );
    // Once the Queen is back on the board, the pool has no Queen left (W3: start count
    // minus count on the board).
    assert_eq!(
        moves_from(&after(fen, "b2b1q a8a7"), "j1i1"),
        ["j1i1", "j1i1n", "j1i1r", "j1i1t"]
    );
}

// Wildeurasian W3: nothing lost, nothing to promote to; W7: a promotion may capture.
#[test]
fn w3_an_empty_pool_leaves_only_the_plain_move() {
    let full = "rnbmgtmbnr/Wc1aqka1c1/p1pppppp1p/10/10/10/10/2PPPPPP1P/1C1AQKA1C1/RNBMGTMBNR w A1J1a10j10 - 0 1";
    assert_eq!(moves_from(full, "a9a10"), ["a9a10"]);
    // With a Rook lost, the capture on a10 may promote to it.
    let lost = "rnbmgtmbnr/Wc1aqka1c1/p1pppppp1p/10/10/10/10/2PPPPPP1P/1C1AQKA1C1/1NBMGTMBNR w J1a10j10 - 0 1";
    assert_eq!(moves_from(lost, "a9a10"), ["a9a10", "a9a10r"]);
}

// Wildeurasian W4: the kings never share a file or diagonal with nothing between.
#[test]
fn w4_no_move_may_leave_the_kings_facing() {
    // File: the Knight on e6 is the only piece between e3 and e9.
    let fen = "10/2m1k5/p8r/10/4N5/10/9P/P3K5/10/1R8 w - - 0 1";
    assert!(moves_from(fen, "e6").is_empty());
    // Diagonal: the Knight on e4 is the only piece between c2 and h7.
    let fen = "10/10/1r7p/7k2/10/10/4N5/P9/2K7/9R w - - 0 1";
    assert!(moves_from(fen, "e4").is_empty());
    // W7: kings diagonally or orthogonally adjacent across the River face each other.
    let fen = "10/10/r6p2/5k4/10/4K5/5P4/P9/10/1R8 b - - 0 1";
    assert_eq!(moves_from(fen, "f7"), ["f7f8", "f7g6", "f7g8"]);
}

// Wildeurasian W4 with a hopper: the Knight on e6 screens the Cannon's shot at g6, but
// Black may not move it, since it alone keeps the kings apart.
#[test]
fn w4_a_screen_that_blocks_the_kings_is_pinned() {
    let fen = "10/4k3r1/p9/10/C3n1b3/10/10/2P1K5/10/9R b - - 0 1";
    assert!(moves_from(fen, "e6").is_empty());
    let white = "10/4k3r1/p9/10/C3n1b3/10/10/2P1K5/10/9R w - - 0 1";
    assert!(is_legal(white, "a6g6"));
    assert!(
        !is_legal(white, "a6e6"),
        "the screen itself cannot be captured"
    );
}

// Wildeurasian W5: a Rook that steps to rank 2 keeps its right; castling both ways.
#[test]
fn w5_castling_both_ways_after_the_rooks_step_up() {
    let start = variant().start_fen.clone();
    assert_eq!(after(&start, "a1a2").split(' ').nth(2), Some("A2J1a10j10"));
    let fen = "rn3k3r/10/p4p3p/10/10/10/10/P1P2P3P/R4K3R/6N3 w A2J2a10j10 - 0 1";
    assert!(is_legal(fen, "f2c2") && is_legal(fen, "f2h2"));
    assert_eq!(
        after(fen, "f2c2"),
        "rn3k3r/10/p4p3p/10/10/10/10/P1P2P3P/2KR5R/6N3 b a10j10 - 1 1"
    );
    assert_eq!(
        after(fen, "f2h2"),
        "rn3k3r/10/p4p3p/10/10/10/10/P1P2P3P/R5RK2/6N3 b a10j10 - 1 1"
    );
    // Black castles on its back rank the same way.
    assert_eq!(
        after(fen, "f2c2 f10h10"),
        "rn4rk2/10/p4p3p/10/10/10/10/P1P2P3P/2KR5R/6N3 w - - 2 2"
    );
}

// Wildeurasian W5: rights are history.
#[test]
fn w5_rights_are_lost_for_good() {
    let fen = "rn3k3r/10/p4p3p/10/10/10/10/P1P2P3P/R4K3R/6N3 w A2J2a10j10 - 0 1";
    // A Rook leaving its zone, a King leaving files e-f, a Rook captured.
    assert_eq!(after(fen, "a2c2").split(' ').nth(2), Some("J2a10j10"));
    assert_eq!(after(fen, "f2g2").split(' ').nth(2), Some("a10j10"));
    assert_eq!(after(fen, "f2e1").split(' ').nth(2), Some("A2J2a10j10"));
    // Moving back into the zone does not restore a right.
    assert_eq!(
        after(fen, "a2c2 b10c8 c2a2").split(' ').nth(2),
        Some("J2a10j10")
    );
    // Black's Rook steps inside its zone and keeps its right.
    assert_eq!(after(fen, "a2c2 a10a9").split(' ').nth(2), Some("J2a9j10"));
    let fen = "4k5/10/r9/10/10/10/10/10/R4K4/10 b A2 - 0 1";
    assert_eq!(after(fen, "a8a2").split(' ').nth(2), Some("-"));
}

// Wildeurasian W5: not out of check, not through an attacked or facing square, not
// into check or facing; the Rook may cross an attacked square.
#[test]
fn w5_castling_is_refused_through_attack_or_facing() {
    // The Cannon on j2 attacks e2 over the King at home.
    assert!(!is_legal(
        "7k2/7p2/1r8/10/10/10/10/P3PPP3/R4K3c/9R w A2J1 - 0 1",
        "f2c2"
    ));
    // d2 would face the King on the open d-file.
    assert!(!is_legal(
        "3k6/10/r6p2/10/10/10/10/P3PP4/R4K4/10 w A2 - 0 1",
        "f2c2"
    ));
    // The landing square c2 is attacked, or faces the King on c10.
    assert!(!is_legal(
        "7k2/10/2r4p2/10/10/10/10/P3PP4/R4K4/10 w A2 - 0 1",
        "f2c2"
    ));
    assert!(!is_legal(
        "2k7/10/7p2/10/10/10/10/P3PP4/R4K4/10 w A2 - 0 1",
        "f2c2"
    ));
    // Out of check: the Knight on d3 checks e1.
    assert!(is_legal(
        "4k5/10/r9/10/4q5/10/10/P3P4P/1R8/4K3R1 w B2I1 - 0 1",
        "e1h1"
    ));
    assert!(!is_legal(
        "4k5/10/r9/10/4q5/10/10/P2nP4P/1R8/4K3R1 w B2I1 - 0 1",
        "e1h1"
    ));
    // Only the King's squares count: b2, crossed by the Rook, may be attacked.
    assert!(is_legal(
        "7k2/10/1r5p2/10/10/10/10/P3PP4/R4K4/10 w A2 - 0 1",
        "f2c2"
    ));
}

// Wildeurasian W5/W7: the castling field, and positions that cannot arise.
#[test]
fn fen_rejects_bad_castling_fields_and_impossible_positions() {
    let board = "rnbmgtmbnr/1c1aqka1c1/p1pppppp1p/10/10/10/10/P1PPPPPP1P/1C1AQKA1C1/RNBMGTMBNR";
    for field in ["KQkq", "A1A1", "B1", "a1", "A1J1a10j10x", "A11"] {
        let e = rejected(&format!("{board} w {field} - 0 1"));
        assert!(e.contains("castling field"), "{field}: {e}");
    }
    assert!(rejected("4k5/10/10/10/10/10/10/10/5K4/4K5 w - - 0 1").contains("2 royal"));
    assert!(rejected("4k5/10/10/4K5/10/10/10/10/10/10 w - - 0 1").contains("outside"));
    assert!(rejected("4k5/10/10/10/10/10/10/10/10/4K5 w - - 0 1").contains("face"));
    assert!(rejected("3k6/10/10/10/10/10/10/10/10/3R1K4 w - - 0 1").contains("in check"));
    assert!(rejected("3k6/10/10/10/P9/10/10/10/10/5K4 w - - 0 1").contains("would have become"));
}

#[test]
fn castling_rights_are_part_of_the_key() {
    let a = pos("rn3k3r/10/p4p3p/10/10/10/10/P1P2P3P/R4K3R/6N3 w A2J2a10j10 - 0 1");
    let b = pos("rn3k3r/10/p4p3p/10/10/10/10/P1P2P3P/R4K3R/6N3 w J2a10j10 - 0 1");
    assert_ne!(a.key(), b.key());
    assert_eq!(a.key(), a.compute_key());
}
