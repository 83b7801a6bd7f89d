//! Position invariants: FEN round trips on 8x8 and 10x10, make/unmake restoring the
//! position bit for bit, the incremental Zobrist key equal to the one computed from
//! scratch, and perft via make/unmake equal to perft via copy-make.

mod common;

use common::Rng;
use std::sync::Arc;
use tenfold::core::moves::MoveList;
use tenfold::registry;
use tenfold::{perft::perft, Position, Variant};

fn chess() -> Arc<Variant> {
    registry::get("chess").unwrap()
}

fn tenten() -> Arc<Variant> {
    Variant::from_toml(include_str!("data/tenten.toml"), "tests/data/tenten.toml").unwrap()
}

#[test]
fn fen_round_trips_on_8x8() {
    let v = chess();
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4k3/8/8/8/8/8/8/4K2R b K - 17 42",
    ] {
        assert_eq!(Position::from_fen(&v, fen).unwrap().fen(), fen);
    }
}

/// A FEN may start the halfmove clock and the move number at `u32::MAX`: they stay there
/// (they wrapped to 1 and 0, losing the 50-move draw the clock had reached and giving a
/// move number no FEN has), and unmake brings back the FEN and key the moves started
/// from, from the maximum and from one below it.
#[test]
fn move_counters_saturate_at_their_maximum_and_unmake_restores_them() {
    let v = chess();
    for (fen, after) in [
        (
            "4k3/8/8/8/8/8/8/4K2R b K - 4294967295 4294967295",
            "4k3/8/8/8/8/8/8/3K3R w - - 4294967295 4294967295",
        ),
        (
            "4k3/8/8/8/8/8/8/4K2R b K - 4294967294 4294967294",
            "4k3/8/8/8/8/8/8/3K3R w - - 4294967295 4294967295",
        ),
    ] {
        let mut p = Position::from_fen(&v, fen).unwrap();
        let key = p.key();
        p.play_moves("e8d8 e1d1 d8e8").unwrap();
        assert_eq!(p.fen(), after, "from {fen}");
        assert_eq!(
            p.game_result().map(|(_, why)| why),
            Some("50-move rule"),
            "{fen}"
        );
        for _ in 0..3 {
            p.unmake_move();
        }
        assert_eq!((p.fen(), p.key()), (fen.to_string(), key));
    }
}

#[test]
fn fen_round_trips_on_10x10_with_two_digit_runs() {
    let v = tenten();
    for fen in [
        "rnabqkbcnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
        "r4k3r/10/10/10/10/10/4Pp4/10/10/R4K3R b KQkq e3 0 12",
        "5k4/10/10/3A6/10/10/6C3/10/10/5K4 w - - 3 40",
    ] {
        assert_eq!(Position::from_fen(&v, fen).unwrap().fen(), fen);
    }
    let p = Position::startpos(&v);
    assert_eq!(
        p.count_legal(),
        28,
        "Capablanca-like start: 20 pawn moves + 8 knight/A/C leaps"
    );
}

#[test]
fn fen_after_a_double_step_names_the_skipped_square() {
    // Common ruling C5: the skipped square after every two-step.
    let v = chess();
    let mut p = Position::startpos(&v);
    p.play_moves("e2e4").unwrap();
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
}

#[test]
fn an_en_passant_field_no_two_step_could_leave_is_ignored() {
    // Common ruling C5: the field is the square a pawn's two-step skipped, and on input
    // it only matters if an en passant capture exists. A square a rank off (the pawn's
    // start, or one two ranks behind it) was skipped by no two-step, so no capture.
    let v = chess();
    for (fen, ghost) in [
        ("4k3/8/8/3Pp3/8/8/8/4K3 w - e7 0 1", "d5e6"),
        ("4k3/8/8/3pP3/8/8/8/4K3 b - e3 0 1", "d5e4"),
        ("4k3/8/8/8/3pP3/8/8/4K3 b - e2 0 1", "d4e3"),
    ] {
        let p = Position::from_fen(&v, fen).unwrap();
        let moves = legal(&p);
        assert!(!moves.contains(&ghost.to_string()), "{fen}: {moves:?}");
        assert!(p.fen().contains(" - 0 1"), "{fen} read back as {}", p.fen());
    }
    // The square the two-step did skip still allows the capture.
    let p = Position::from_fen(&v, "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1").unwrap();
    assert!(legal(&p).contains(&"d5e6".to_string()));
}

fn legal(p: &Position) -> Vec<String> {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    list.iter().map(|&m| p.move_to_string(m)).collect()
}

#[test]
fn bad_fens_are_refused_with_a_reason() {
    let v = chess();
    for (fen, why) in [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "ranks"),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "files",
        ),
        (
            "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "'x'",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "side",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1",
            "castling",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1",
            "en passant",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1",
            "halfmove",
        ),
        (
            "rnbqqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "royal",
        ),
        ("4k3/8/8/8/8/8/8/4K2R w - - 0 1 extra", "unexpected"),
        ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", "not to move is in check"),
        ("", "empty"),
    ] {
        let err = Position::from_fen(&v, fen)
            .err()
            .unwrap_or_else(|| panic!("accepted {fen}"));
        assert!(err.to_string().contains(why), "{fen}: {err}");
        assert!(!err.to_string().contains('\n'));
    }
}

/// Plays seeded random games checking every invariant after every move.
fn random_walk(v: &Arc<Variant>, games: usize, plies: usize, seed: u64) {
    let mut rng = Rng(seed);
    for _ in 0..games {
        let mut p = Position::startpos(v);
        for _ in 0..plies {
            let mut list = MoveList::new();
            p.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let before = p.clone();
            let fen = p.fen();
            for &m in list.iter() {
                p.make_move(m);
                assert_eq!(
                    p.key(),
                    p.compute_key(),
                    "key after {} in {fen}",
                    before.move_to_string(m)
                );
                // The FEN of the new position parses back to the same key.
                let again = Position::from_fen(v, &p.fen()).unwrap();
                assert_eq!(
                    again.key(),
                    p.key(),
                    "FEN key after {} in {fen}",
                    before.move_to_string(m)
                );
                p.unmake_move();
                assert_eq!(p.fen(), fen);
                assert_eq!(p.key(), before.key());
                assert_eq!(p.occupied(), before.occupied());
            }
            let m = *rng.pick(list.as_slice());
            p.make_move(m);
        }
    }
}

#[test]
fn make_unmake_and_keys_hold_in_random_chess_games() {
    random_walk(&chess(), 40, 80, 7);
}

#[test]
fn make_unmake_and_keys_hold_in_random_10x10_games() {
    random_walk(&tenten(), 20, 80, 11);
}

fn perft_copy(p: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    list.iter()
        .map(|&m| {
            let mut c = p.clone();
            c.make_move(m);
            perft_copy(&c, depth - 1)
        })
        .sum()
}

#[test]
fn perft_by_make_unmake_equals_perft_by_copy_make() {
    let v = chess();
    let mut k = Position::from_fen(
        &v,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    )
    .unwrap();
    assert_eq!(perft(&mut k, 3), perft_copy(&k, 3));
    let t = tenten();
    let mut s = Position::startpos(&t);
    assert_eq!(perft(&mut s, 3), perft_copy(&s, 3));
}

#[test]
fn repetition_and_fifty_move_rule_end_the_game() {
    // Common ruling C2.
    let v = chess();
    let mut p = Position::startpos(&v);
    p.play_moves("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1").unwrap();
    assert!(p.game_result().is_none());
    p.play_moves("f6g8").unwrap();
    assert_eq!(p.game_result().unwrap().1, "threefold repetition");
    let q = Position::from_fen(&v, "4k3/8/8/8/8/8/8/R3K3 w - - 100 80").unwrap();
    assert_eq!(q.game_result().unwrap().1, "50-move rule");
    let s = Position::from_fen(&v, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert_eq!(s.game_result().unwrap().1, "stalemate");
    let b = Position::from_fen(&v, "7k/8/6K1/8/8/8/8/8 b - - 0 1").unwrap();
    assert_eq!(b.game_result().unwrap().1, "bare kings");
}

#[test]
fn illegal_and_unparsable_moves_are_refused() {
    let v = chess();
    let p = Position::startpos(&v);
    assert!(p
        .parse_move("e2e5")
        .unwrap_err()
        .to_string()
        .starts_with("illegal move"));
    assert!(p
        .parse_move("e2")
        .unwrap_err()
        .to_string()
        .contains("not a move"));
    assert!(p.parse_move("zz").is_err());
    assert!(p.parse_move("e2e4").is_ok());
    // Promotion suffixes and castling as the king's two-square move.
    let q = Position::from_fen(&v, "r3k3/1P6/8/8/8/8/8/4K2R w K - 0 1").unwrap();
    for m in ["b7b8q", "b7a8n", "e1g1"] {
        assert!(q.parse_move(m).is_ok(), "{m}");
    }
    assert!(
        q.parse_move("b7b8").is_err(),
        "promotion is mandatory in chess"
    );
}

/// A 4x4 table of a King and a Rook, with `rook` added to the Rook's piece section and
/// `tail` after it.
fn small_table(rook: &str, tail: &str) -> String {
    format!(
        "name = \"v\"\nfiles = 4\nranks = 4\nstart = \"kr2/4/4/2RK w - - 0 1\"\n\
         [[piece]]\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n\
         [[piece]]\nletter = \"R\"\nbetza = \"R\"\n{rook}{tail}"
    )
}

/// The one-line error a table is refused with; it must name `key` and the `bad` value.
fn refusal(table: &str, key: &str, bad: &str) -> String {
    let e = Variant::from_toml(table, "v.toml")
        .err()
        .unwrap_or_else(|| panic!("{key} = {bad} was taken"))
        .to_string();
    assert!(e.contains(key) && e.contains(bad), "{e}");
    e
}

/// Table format (tables/README.md): a piece's `value` is its material in centipawns.
/// A value near `i32::MAX` wrapped the game phase when added up (the evaluation then
/// printed a phase of −294967296 and searches scored in the mate range), and a negative
/// one turned it round: both are refused where the table is read, naming the key.
#[test]
fn a_piece_value_outside_what_a_sum_can_hold_is_refused() {
    let table = |value: &str| small_table(&format!("value = {value}\n"), "");
    for bad in ["2000000000", "20001", "-500"] {
        refusal(&table(bad), "piece[1].value", bad);
    }
    for good in ["0", "500", "20000"] {
        Variant::from_toml(&table(good), "v.toml").unwrap();
    }
}

/// Table format (tables/README.md): `search.late_moves` multiplies chess's count of quiet
/// moves a node near the leaves searches, 1 to 8. At 0 such a node would drop every quiet
/// move, and a byte's 255 is no count a board has: both are refused, naming the key.
#[test]
fn a_late_move_multiple_outside_one_to_eight_is_refused() {
    let table = |n: &str| small_table("", &format!("[search]\nlate_moves = {n}\n"));
    for bad in ["0", "9", "255"] {
        refusal(&table(bad), "search.late_moves", bad);
    }
    for (good, count) in [("1", 1), ("2", 2), ("8", 8)] {
        let v = Variant::from_toml(&table(good), "v.toml").unwrap();
        assert_eq!(v.search.late_moves, count);
    }
    let plain = small_table("", "");
    assert_eq!(
        Variant::from_toml(&plain, "v.toml")
            .unwrap()
            .search
            .late_moves,
        1,
        "the default"
    );
}
