//! Legality on the lines through the royal piece in a game with hoppers: a move is
//! tested when it changes one of the first two pieces on such a line (a rider attacks
//! from the first, a cannon from the second behind its screen), and perft's counting
//! path must agree with the listed moves.

use std::sync::Arc;
use tenfold::{MoveList, Position, Variant};

/// King, a cannon (moves as a rook, captures over one screen), a threeleaper and a wazir.
fn game() -> Arc<Variant> {
    let text = "name = \"hop-lines\"\nfiles = 8\nranks = 8\n\
        start = \"7k/8/8/8/8/8/8/K7 w - - 0 1\"\n\
        [[piece]]\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n\
        [[piece]]\nletter = \"C\"\nbetza = \"mRcpR\"\n\
        [[piece]]\nletter = \"H\"\nbetza = \"H\"\n\
        [[piece]]\nletter = \"W\"\nbetza = \"W\"\n";
    Variant::from_toml(text, "hop-lines.toml").unwrap()
}

fn listed(p: &Position) -> Vec<String> {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    list.iter().map(|&m| p.move_to_string(m)).collect()
}

#[test]
fn a_leaper_leaving_a_cannon_line_must_land_on_it_behind_the_screen() {
    // The a-file: king a1, threeleaper a3, wazir a5, black cannon a8. The wazir is the
    // cannon's only screen once the threeleaper leaves: a3-d3 opens the check, a3-a6
    // lands between screen and cannon and keeps it shut.
    let v = game();
    let p = Position::from_fen(&v, "c6k/8/8/W7/8/H7/8/K7 w - - 0 1").unwrap();
    let moves = listed(&p);
    assert!(moves.contains(&"a3a6".to_string()), "{moves:?}");
    assert!(!moves.contains(&"a3d3".to_string()), "{moves:?}");
    assert_eq!(p.count_legal(), moves.len(), "{moves:?}");
}

#[test]
fn either_of_two_screens_stepping_off_the_line_opens_the_cannon() {
    // King a1, wazirs a3 and a4, a black cannon a7: two pieces stand between, so no
    // check; either wazir stepping off the file leaves one screen and the check. Moves
    // along the file keep two pieces between.
    let v = game();
    let p = Position::from_fen(&v, "7k/c7/8/8/W7/W7/8/K7 w - - 0 1").unwrap();
    let moves = listed(&p);
    assert!(!moves.contains(&"a3b3".to_string()), "{moves:?}");
    assert!(!moves.contains(&"a4b4".to_string()), "{moves:?}");
    assert!(moves.contains(&"a4a5".to_string()), "{moves:?}");
    assert!(moves.contains(&"a3a2".to_string()), "{moves:?}");
    assert_eq!(p.count_legal(), moves.len(), "{moves:?}");
}
