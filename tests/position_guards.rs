//! Rules that could corrupt a position are refused where they enter — in the table, in
//! the FEN, in the move list — so that no position exists that its FEN cannot write or
//! that has lost a piece to a move no rule describes (issue 20).

mod common;

use common::sorted_moves;
use std::sync::Arc;
use tenfold::registry;
use tenfold::{Position, Variant};

/// Why a game laid over chess by `extends` was refused (it must be).
fn refused(name: &str, keys: &str) -> String {
    match chess_with(name, keys) {
        Ok(_) => panic!("{name}: the table was accepted"),
        Err(e) => e,
    }
}

/// A game laid over chess by `extends`, loaded under `name`.
fn chess_with(name: &str, keys: &str) -> Result<Arc<Variant>, String> {
    let text = format!("extends = \"chess\"\nname = \"{name}\"\n{keys}");
    registry::load_text(&text, &format!("{name}.toml")).map_err(|e| e.to_string())
}

const CASTLING_QUEENSIDE: &str =
    "queenside = { king_to = \"c\", rook_from = \"a\", rook_to = \"d\" }";

#[test]
fn a_rook_landing_where_the_king_lands_is_refused_by_the_table() {
    let e = refused(
        "guard-castle-same-landing",
        &format!(
            "[castling]\nking_file = \"e\"\n\
             kingside = {{ king_to = \"g\", rook_from = \"h\", rook_to = \"g\" }}\n\
             {CASTLING_QUEENSIDE}\n"
        ),
    );
    assert!(
        e.contains("castling.kingside") && e.contains("where the king lands"),
        "{e}"
    );
}

#[test]
fn castling_without_rights_whose_rook_starts_on_the_kings_file_is_refused() {
    let e = refused(
        "guard-castle-rook-on-king",
        &format!(
            "[castling]\nking_file = \"e\"\nrights = false\n\
             kingside = {{ king_to = \"g\", rook_from = \"e\", rook_to = \"f\" }}\n\
             {CASTLING_QUEENSIDE}\n"
        ),
    );
    assert!(
        e.contains("castling.kingside") && e.contains("king's file"),
        "{e}"
    );
}

#[test]
fn a_promotion_to_a_royal_piece_is_refused_by_the_table() {
    let e = refused(
        "guard-royal-promotion",
        "[[piece]]\nletter = \"P\"\npromotion = { ranks = [8], to = \"QK\" }\n",
    );
    assert!(e.contains("promotion") && e.contains("royal"), "{e}");
}

/// Why a FEN was refused (it must be).
fn fen_error(v: &Arc<Variant>, fen: &str) -> String {
    match Position::from_fen(v, fen) {
        Ok(_) => panic!("{fen}: accepted"),
        Err(e) => e.to_string(),
    }
}

/// A pawn whose double step leaps (`D`, not the lame `nD`): it may jump over a piece.
fn leaping_pawns() -> Arc<Variant> {
    chess_with(
        "guard-leaping-pawn",
        "[[piece]]\nletter = \"P\"\nbetza = \"fmWfcFifmD\"\n",
    )
    .unwrap()
}

#[test]
fn a_double_step_over_a_piece_leaves_no_en_passant_square_on_it() {
    // White's e-pawn leaps its own knight on e3; Black's d4 pawn can take that knight,
    // but there is no en passant onto e3: the pawn never passed through it.
    let v = leaping_pawns();
    let mut p = Position::from_fen(&v, "4k3/8/8/8/3p4/4N3/4P3/4K3 w - - 0 1").unwrap();
    p.make_move(p.parse_move("e2e4").unwrap());
    assert_eq!(p.fen(), "4k3/8/8/8/3pP3/4N3/8/4K3 b - - 0 1");
    let moves = sorted_moves(&p);
    let mut unique = moves.clone();
    unique.dedup();
    assert_eq!(moves, unique, "a move text listed twice");
    p.make_move(p.parse_move("d4e3").unwrap());
    // The knight is captured and the e4 pawn is still there.
    assert_eq!(p.fen(), "4k3/8/8/8/4P3/4p3/8/4K3 w - - 0 2");
}

#[test]
fn a_knight_on_the_rooks_square_holds_no_castling_right() {
    // Chess: castling is with a rook; a K right in the FEN with a knight on h1 is void.
    let v = registry::get("chess").unwrap();
    let p = Position::from_fen(&v, "4k3/8/8/8/8/8/8/4K2N w K - 0 1").unwrap();
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/4K2N w - - 0 1");
    assert!(p.parse_move("e1g1").is_err());
    assert!(!sorted_moves(&p).contains(&"e1g1".to_string()));
}

#[test]
fn hands_are_refused_in_a_game_without_hands() {
    let v = registry::get("chess").unwrap();
    let e = fen_error(
        &v,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QQQQ] w KQkq - 0 1",
    );
    assert!(e.contains("no pieces in hand"), "{e}");
}

#[test]
fn a_hand_count_of_zero_and_a_royal_in_hand_are_refused() {
    let v = registry::get("archmage").unwrap();
    let board = "grusqkmurg/tbcfaifcbt/pppppppppp/10/10/10/10/PPPPPPPPPP/TBCFAIFCBT/GRUSQKMURG";
    for (hand, why) in [("[DHdh0Q]", "count of 0"), ("[DHdhK]", "royal")] {
        let e = fen_error(&v, &format!("{board}{hand} w KQkq - 0 1"));
        assert!(e.contains(why), "{hand}: {e}");
    }
}

#[test]
fn captures_to_hand_give_the_game_hands_even_when_its_start_shows_none() {
    let v = chess_with("guard-crazy", "[drops]\ncaptures_to_hand = \"QRBNP\"\n").unwrap();
    let mut p = Position::startpos(&v);
    for m in ["e2e4", "d7d5", "e4d5"] {
        p.make_move(p.parse_move(m).unwrap());
    }
    let fen = p.fen();
    assert!(fen.contains("[P]"), "{fen}");
    assert_eq!(Position::from_fen(&v, &fen).unwrap().fen(), fen);
}

#[test]
fn a_pawn_sliding_along_its_rank_leaves_no_en_passant_square() {
    // A rook marked as a pawn: its long moves are not multi-steps along the file, so no
    // square is skipped en passant (the FEN field could not name one: ruling C5).
    let v = chess_with(
        "guard-sliding-pawn",
        "[[piece]]\nletter = \"R\"\npawn = true\n",
    )
    .unwrap();
    let mut p = Position::from_fen(&v, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1").unwrap();
    p.make_move(p.parse_move("a1c1").unwrap());
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/2R1K3 b - - 0 1");
    assert!(p.check_invariants().is_ok());
}
