//! The shot, path and flight table keys on small made-up games: what a table other
//! than Combined Arms can ask for, and what it is refused.

use crate::common;

use common::sorted_moves;
use std::sync::Arc;
use tenfold::{Position, Variant};

fn game(pieces: &str) -> Result<Arc<Variant>, String> {
    let text = format!(
        "name = \"test\"\nfiles = 8\nranks = 8\nstart = \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\n\
         [[piece]]\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n{pieces}"
    );
    Variant::from_toml(&text, "test.toml").map_err(|e| e.to_string())
}

fn refused(pieces: &str) -> String {
    match game(pieces) {
        Ok(_) => panic!("accepted: {pieces}"),
        Err(e) => e,
    }
}

fn legal(v: &Arc<Variant>, fen: &str) -> Vec<String> {
    sorted_moves(&Position::from_fen(v, fen).unwrap())
}

#[test]
fn a_shot_that_clears_the_line_for_a_capture_gives_check() {
    // A rook that may shoot an adjacent piece before moving: e1 shoots e2, then takes e8.
    let v = game("[[piece]]\nletter = \"R\"\nbetza = \"R\"\nshot = { distances = [1], with_move = true }\n[[piece]]\nletter = \"P\"\nbetza = \"fmW\"\n").unwrap();
    let p = Position::from_fen(&v, "4k3/8/8/8/8/8/4p3/4R2K b - - 0 1").unwrap();
    assert!(p.in_check());
    assert!(!legal(&v, "4k3/8/8/8/8/8/4p3/4R2K b - - 0 1").contains(&"e8e7".to_string()));
}

#[test]
fn shot_offsets_take_their_symmetric_images() {
    let v = game("[[piece]]\nletter = \"A\"\nshot = { offsets = [[2, 1]] }\n[[piece]]\nletter = \"P\"\nbetza = \"fmW\"\n").unwrap();
    let moves = legal(&v, "4k3/8/8/8/2p1p3/1p3p2/3A4/K7 w - - 0 1");
    let shots: Vec<&String> = moves.iter().filter(|m| m.contains('x')).collect();
    assert_eq!(shots, ["d2d2xb3", "d2d2xc4", "d2d2xe4", "d2d2xf3"]);
}

#[test]
fn a_one_step_path_is_a_plain_leaper_that_never_kills_in_passing() {
    let v = game("[[piece]]\nletter = \"W\"\npath = { steps = 1, betza = \"W\" }\n").unwrap();
    assert_eq!(
        legal(&v, "4k3/8/8/8/8/8/3W4/K7 w - - 0 1")
            .iter()
            .filter(|m| m.starts_with("d2"))
            .count(),
        4
    );
}

#[test]
fn malformed_mechanisms_are_refused_with_their_key() {
    let e = refused("[[piece]]\nletter = \"N\"\npath = { steps = 3, betza = \"R\" }\n");
    assert!(
        e.contains("piece[1].path.betza") && e.contains("leaps"),
        "{e}"
    );
    let e = refused("[[piece]]\nletter = \"N\"\npath = { steps = 9, betza = \"W\" }\n");
    assert!(e.contains("piece[1].path") && e.contains("steps"), "{e}");
    let e = refused("[[piece]]\nletter = \"B\"\nshot = { with_move = true }\n");
    assert!(e.contains("piece[1].shot"), "{e}");
    let e = refused("[[piece]]\nletter = \"Q\"\nflight = { then = \"Z\" }\n");
    assert!(
        e.contains("piece[1].flight.then") && e.contains("'Z'"),
        "{e}"
    );
}

#[test]
fn a_flight_whose_check_test_could_not_be_exact_is_refused() {
    // A shooter covering distance 2 only: an armor path could kill it from next door and
    // then enter its former range, which the bitboard check test does not model.
    let e = refused(
        "[[piece]]\nletter = \"N\"\npath = { steps = 3, betza = \"W\" }\n\
         [[piece]]\nletter = \"B\"\nshot = { distances = [2] }\n\
         [[piece]]\nletter = \"Q\"\nflight = { then = \"N\" }\n",
    );
    assert!(
        e.contains("piece[3].flight.then") && e.contains("exact"),
        "{e}"
    );
}

#[test]
fn betza_left_and_right_are_the_owners() {
    // Betza's `l` and `r` name the owner's left and right: Black, facing White, sees
    // every step turned half round (XBoard's and Fairy-Stockfish's reading). `lW` steps
    // to the owner's left, `rfN` leaps forward-right on the long side.
    let v = game("[[piece]]\nletter = \"L\"\nbetza = \"lWrfN\"\n").unwrap();
    let from_d5 = |fen: &str| -> Vec<String> {
        legal(&v, fen)
            .into_iter()
            .filter(|m| m.starts_with("d5"))
            .collect()
    };
    assert_eq!(from_d5("4k3/8/8/3L4/8/8/8/4K3 w - - 0 1"), ["d5c5", "d5e7"]);
    assert_eq!(from_d5("4k3/8/8/3l4/8/8/8/4K3 b - - 0 1"), ["d5c3", "d5e5"]);
}
