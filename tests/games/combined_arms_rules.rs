//! Combined Arms Brigade Chess, one ruling at a time (../shared/rules/combined-arms.md):
//! a position, a move, the expected outcome.

use crate::common;

use common::sorted_moves as legal;
use std::sync::Arc;
use tenfold::position::notation::{GameResult, MoveError};
use tenfold::registry;
use tenfold::{Position, Variant};

fn ca() -> Arc<Variant> {
    registry::get("combined-arms").unwrap()
}

fn pos(fen: &str) -> Position {
    Position::from_fen(&ca(), fen).unwrap()
}

fn is_legal(fen: &str, mv: &str) -> bool {
    legal(&pos(fen)).iter().any(|m| m == mv)
}

/// The FEN after playing `moves` from `fen`.
fn after(fen: &str, moves: &str) -> String {
    let mut p = pos(fen);
    p.play_moves(moves).unwrap();
    p.fen()
}

#[test]
fn pawn_steps_one_square_in_any_direction() {
    // Combined Arms R1
    let fen = "4k3/8/8/8/3n4/4P3/8/4K3 w - - 0 1";
    let pawn: Vec<String> = legal(&pos(fen))
        .into_iter()
        .filter(|m| m.starts_with("e3"))
        .collect();
    assert_eq!(
        pawn,
        ["e3d2", "e3d3", "e3d4", "e3e2", "e3e4", "e3f2", "e3f3", "e3f4"]
    );
    assert_eq!(after(fen, "e3d4"), "4k3/8/8/8/3P4/8/8/4K3 b - - 0 1");
}

#[test]
fn pawn_double_steps_from_its_second_rank_every_time_it_stands_there() {
    // Combined Arms R1
    let start = &ca().start_fen;
    let fen = after(start, "e2e3 e7e6 e3e2 e6e7");
    assert!(
        is_legal(&fen, "e2e4"),
        "back on e2 after moving, it may double-step again"
    );
    assert!(!is_legal(start, "e3e5"));
}

#[test]
fn no_en_passant_and_the_field_stays_empty() {
    // Combined Arms R1, R14
    let fen = "4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1";
    let after_double = after(fen, "e2e4");
    assert_eq!(after_double, "4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
    // d4e3 is an ordinary diagonal step onto an empty square: e4 stays.
    assert_eq!(
        after(&after_double, "d4e3"),
        "4k3/8/8/8/4P3/4p3/8/4K3 w - - 0 2"
    );
    // An en passant square in the input means nothing.
    assert_eq!(pos("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1").fen(), after_double);
}

#[test]
fn pawn_promotes_at_once_to_queen_rook_bishop_or_knight() {
    // Combined Arms R1
    let fen = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
    for mv in ["b7b8q", "b7b8r", "b7b8b", "b7b8n", "b7a8q", "b7c8n"] {
        assert!(is_legal(fen, mv), "{mv}");
    }
    for mv in ["b7b8", "b7b8k", "b7a8"] {
        assert!(
            !is_legal(fen, mv),
            "{mv}: promotion is mandatory and never to a King"
        );
    }
}

#[test]
fn armor_kills_two_pieces_in_one_path() {
    // Combined Arms R2, R9
    let fen = "4k3/8/8/8/8/1p6/1p6/1N2K3 w - - 0 1";
    assert_eq!(after(fen, "b1c3xb2xb3"), "4k3/8/8/8/8/2N5/8/4K3 b - - 0 1");
    // Back and forth: b1-b2-b3-b2 kills both and ends on b2; only b3 is written.
    assert_eq!(after(fen, "b1b2xb3"), "4k3/8/8/8/8/8/1N6/4K3 b - - 0 1");
}

#[test]
fn armor_passes_over_the_enemy_king_without_harming_it() {
    // Combined Arms R2, R6: a1-b1 (kills the knight)-c1 (the King, passed)-d1.
    let fen = "7K/8/8/8/8/8/8/Nnk5 w - - 0 1";
    assert_eq!(after(fen, "a1d1xb1"), "7K/8/8/8/8/8/8/2kN4 b - - 0 1");
    // Three steps always change colour: c1 is never the end of a path from a1.
    assert!(!pos(fen).is_attacked_royal(tenfold::Color::Black));
}

#[test]
fn armor_is_blocked_by_friends() {
    // Combined Arms R2
    let fen = "4k3/8/8/8/8/1n6/PPP5/RN2K3 w - - 0 1";
    let armor: Vec<String> = legal(&pos(fen))
        .into_iter()
        .filter(|m| m.starts_with("b1"))
        .collect();
    assert_eq!(armor, ["b1c1", "b1d2"]);
    // In the start position every armor path starts into a friend.
    assert!(!legal(&pos(&ca().start_fen))
        .iter()
        .any(|m| m.starts_with("b1") || m.starts_with("g1")));
}

#[test]
fn bishop_shoots_without_moving_and_then_moves_through_the_cleared_square() {
    // Combined Arms R3, R13
    let fen = "4k3/8/8/8/8/8/3n4/2B4K w - - 0 1";
    assert_eq!(after(fen, "c1c1xd2"), "4k3/8/8/8/8/8/8/2B4K b - - 0 1");
    assert_eq!(after(fen, "c1f4xd2"), "4k3/8/8/8/5B2/8/8/7K b - - 0 1");
    // Shooting d2 and sliding onto it is written without the kill.
    assert_eq!(after(fen, "c1d2"), "4k3/8/8/8/8/8/3B4/7K b - - 0 1");
    assert!(!is_legal(fen, "c1d2xd2"));
    // Move first (c1-b2), then shoot d2 at distance 2.
    assert!(is_legal(fen, "c1b2xd2"));
}

#[test]
fn bishop_never_occupy_captures_beyond_its_shot() {
    // Combined Arms R3
    let fen = "4k3/8/8/8/5n2/8/8/2B4K w - - 0 1";
    assert!(
        !is_legal(fen, "c1f4"),
        "f4 is three squares away: out of the shot, and no capture by moving"
    );
    assert!(
        is_legal(fen, "c1d2xf4"),
        "move to d2, then shoot f4 at distance 2"
    );
}

#[test]
fn rook_shoots_at_distance_three_and_four_but_not_two() {
    // Combined Arms R4
    let fen = "4k3/8/8/p7/p2p4/p1p5/8/R3K3 w - - 0 1";
    let shots: Vec<String> = legal(&pos(fen))
        .into_iter()
        .filter(|m| m.contains('x'))
        .collect();
    assert_eq!(shots, ["a1a1xa4", "a1a1xa5", "a1a1xd4"]);
    assert_eq!(
        after(fen, "a1a1xa4"),
        "4k3/8/8/p7/3p4/p1p5/8/R3K3 b - - 0 1"
    );
}

#[test]
fn rook_either_moves_or_shoots() {
    // Combined Arms R4
    let fen = "4k3/8/8/p7/8/8/8/R3K3 w - - 0 1";
    assert!(is_legal(fen, "a1a1xa5"));
    assert!(is_legal(fen, "a1a2"));
    assert!(
        !is_legal(fen, "a1a2xa5"),
        "moving to a2 and then shooting a5 is two actions"
    );
    assert!(!is_legal(fen, "a1b1xa5"));
}

#[test]
fn queen_flies_to_any_empty_square_outside_enemy_artillery_range() {
    // Combined Arms R5
    let fen = "7k/6b1/8/3r4/2B5/8/8/3QK3 w - - 0 1";
    assert!(is_legal(fen, "d1h3"));
    assert_eq!(after(fen, "d1h3"), "7k/6b1/8/3r4/2B5/7Q/8/4K3 b - - 1 1");
    for refused in ["d1d2", "d1a2", "d1g2", "d1d8", "d1e5"] {
        assert!(
            !is_legal(fen, refused),
            "{refused} is in the d5 Rook's or g7 Bishop's range"
        );
    }
    // Once the Bishop has shot the Rook, its squares are open to the Queen.
    let shot = after(fen, "c4c4xd5 h8h7");
    for allowed in ["d1d2", "d1a2", "d1g2"] {
        assert!(is_legal(&shot, allowed), "{allowed}");
    }
}

#[test]
fn queen_follow_ups_pawn_step_armor_path_bishop_move_or_shot() {
    // Combined Arms R5
    let fen = "7k/6b1/8/3r4/8/8/8/3QK3 w - - 0 1";
    // Fly to c4 and shoot d5 like a Bishop; or fly next to it and step onto it.
    assert_eq!(after(fen, "d1c4xd5"), "7k/6b1/8/8/2Q5/8/8/4K3 b - - 0 1");
    assert_eq!(after(fen, "d1d5"), "7k/6b1/8/3Q4/8/8/8/4K3 b - - 0 1");
    // Fly to c5, then an armor path c5-d5 (kills the Rook)-d6-d7.
    assert_eq!(after(fen, "d1d7xd5"), "7k/3Q2b1/8/8/8/8/8/4K3 b - - 0 1");
    // Back on its own square with nothing killed is no move at all.
    assert!(!is_legal(fen, "d1d1"));
}

#[test]
fn queen_cannot_take_a_king_inside_its_own_artillery_range() {
    // Combined Arms R5, R12: h8 is next to the g7 Bishop.
    let p = pos("7k/6b1/8/3r4/8/8/8/3QK3 w - - 0 1");
    assert!(!legal(&p).iter().any(|m| m.starts_with("d1h8")));
    // Without the Bishop the Queen lands on g7 and steps onto h8: Black would be in check.
    let e = Position::from_fen(&ca(), "7k/8/8/3r4/8/8/8/3QK3 b - - 0 1").unwrap();
    assert!(e.in_check());
}

#[test]
fn king_is_never_shot_nor_killed_in_passing() {
    // Combined Arms R6
    let fen = "8/8/8/8/8/8/3k4/2B4K w - - 0 1";
    assert!(!legal(&pos(fen)).iter().any(|m| m.contains("xd2")));
    let rook = "8/8/8/8/3k4/8/8/3R3K w - - 0 1";
    assert!(!legal(&pos(rook)).iter().any(|m| m.contains("xd4")));
}

#[test]
fn castling_needs_no_rights_after_the_king_moved_and_returned() {
    // Combined Arms R7
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let back = after(fen, "e1e2 e8e7 e2e1 e7e8");
    assert_eq!(
        back, "r3k2r/8/8/8/8/8/8/R3K2R w - - 4 3",
        "the castling field is always '-'"
    );
    assert!(is_legal(&back, "e1g1") && is_legal(&back, "e1c1"));
    assert_eq!(after(&back, "e1g1"), "r3k2r/8/8/8/8/8/8/R4RK1 b - - 5 3");
    let rook_moved = after(fen, "h1h2 a8a7 h2h1 a7a8");
    assert!(is_legal(&rook_moved, "e1g1"));
}

#[test]
fn castling_may_not_cross_a_square_an_enemy_could_occupy() {
    // Combined Arms R7, R10: the f4 armor reaches f1 (f4-f3-f2-f1) but not e1 or g1.
    let fen = "r3k2r/8/8/8/5n2/8/8/R3K2R w - - 0 1";
    assert!(!pos(fen).in_check());
    assert!(!is_legal(fen, "e1g1"));
    assert!(is_legal(fen, "e1c1"));
}

#[test]
fn only_a_piece_that_could_end_on_the_king_gives_check() {
    // Combined Arms R8: in the Rook's range and next to a Bishop, yet not in check.
    let p = pos("4k3/8/8/4r3/8/8/3b4/4K3 w - - 0 1");
    assert!(!p.in_check());
    assert!(
        legal(&p).contains(&"e1d2".to_string()),
        "the King may take the Bishop"
    );
    // An armor path that can end on the King is check.
    let armor = pos("4k3/8/8/8/8/3n4/8/4K3 w - - 0 1");
    assert!(armor.in_check());
    // Three steps from d3 reach the squares of e1's colour within three: d2 and f2 too.
    let moves = legal(&armor);
    assert!(!moves.contains(&"e1d2".to_string()) && !moves.contains(&"e1f2".to_string()));
    assert!(moves.contains(&"e1e2".to_string()) && moves.contains(&"e1d1".to_string()));
}

#[test]
fn checkmate_ends_the_game() {
    // Combined Arms R8
    let p = pos("3k2nr/1p1b3p/1b2p1p1/8/5P2/8/2K4P/5q2 w - - 0 44");
    assert!(p.in_check());
    assert_eq!(p.game_result(), Some((GameResult::BlackWins, "checkmate")));
}

#[test]
fn kill_squares_are_written_ascending_and_read_in_any_order() {
    // Combined Arms R9, R14
    let p = pos("4k3/8/8/8/8/1p6/1p6/1N2K3 w - - 0 1");
    let m = p.parse_move("b1c3xb3xb2").unwrap();
    assert_eq!(p.move_to_string(m), "b1c3xb2xb3");
    assert_eq!(p.parse_move("b1c3xb2xb3").unwrap(), m);
    assert!(matches!(
        p.parse_move("b1c3xb2xb2"),
        Err(MoveError::Unparsable(..))
    ));
    assert!(matches!(
        p.parse_move("b1c3xb4"),
        Err(MoveError::Illegal(..))
    ));
    assert!(matches!(
        p.parse_move("b1c3xz9"),
        Err(MoveError::Unparsable(..))
    ));
}

#[test]
fn infantry_stepping_back_and_forth_repeats_the_position() {
    // Common ruling C2 (threefold repetition draws) with R1 (a pawn steps in any
    // direction): a pawn's step resets the halfmove clock (C6) yet can be undone, so
    // the third occurrence is found across pawn moves.
    let mut p = pos(&ca().start_fen);
    p.play_moves("b2b3 b7b6 e2f3 e7f6 f3e2 f6e7 e2f3 e7f6 f3e2")
        .unwrap();
    assert_eq!(
        p.game_result(),
        None,
        "the start after b3 b6 has occurred twice"
    );
    p.play_moves("f6e7").unwrap();
    assert_eq!(
        p.game_result(),
        Some((GameResult::Draw, "threefold repetition"))
    );
    // A kill cannot be undone, and the search for the repeated position stops there;
    // the shuffle after a bishop's shot still counts from the shot on.
    let mut q = pos("4k3/4p3/8/2b5/8/4P3/3P4/4K3 b - - 0 1");
    q.play_moves("c5c5xe3 d2e2 e7f6 e2d2 f6e7 d2e2 e7f6 e2d2")
        .unwrap();
    assert_eq!(q.game_result(), None);
    q.play_moves("f6e7").unwrap();
    assert_eq!(
        q.game_result(),
        Some((GameResult::Draw, "threefold repetition"))
    );
}
