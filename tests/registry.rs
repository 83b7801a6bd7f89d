//! The registry: `extends` may name any known game, built-in or loaded; a table cannot
//! extend itself; a start FEN is checked as a real position once the table compiles.

use tenfold::registry;
use tenfold::{MoveList, Position};

fn legal_count(name: &str) -> usize {
    let v = registry::get(name).unwrap();
    let mut list = MoveList::new();
    Position::startpos(&v).legal_moves(&mut list);
    list.len()
}

#[test]
fn a_loaded_file_may_extend_another_loaded_file() {
    // A Chancellor added to chess, then that game extended once more with an Archbishop.
    registry::load_text(
        "name = \"reg-base\"\nextends = \"chess\"\n\
         start = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"\n\
         [[piece]]\nletter = \"C\"\nbetza = \"RN\"\n",
        "reg-base.toml",
    )
    .unwrap();
    let derived = registry::load_text(
        "name = \"reg-derived\"\nextends = \"reg-base\"\n\
         start = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Cc] w KQkq - 0 1\"\n\
         [drops]\n",
        "reg-derived.toml",
    )
    .unwrap();
    assert!(
        derived.type_of_letter('C').is_some(),
        "the base's piece came along"
    );
    assert!(registry::known().contains(&"reg-derived".to_string()));
    // 20 chess moves plus a Chancellor dropped on any of the 32 empty squares.
    assert_eq!(legal_count("reg-derived"), 20 + 32);
}

#[test]
fn a_table_that_extends_its_own_name_with_nothing_before_it_is_a_loop() {
    let e = registry::load_text(
        "name = \"reg-loop\"\nextends = \"reg-loop\"\n",
        "reg-loop.toml",
    )
    .err()
    .expect("refused")
    .to_string();
    assert!(e.contains("extends") && e.contains("loop"), "{e}");
    assert!(registry::get("reg-loop").is_err());
}

#[test]
fn a_file_may_shadow_a_built_in_and_be_loaded_again() {
    // Loaded under the built-in's own name twice (as a GUI that resends its variant path
    // does): the second load extends the built-in again rather than its own first load,
    // which would be a table extending itself.
    let text = "name = \"chess\"\nextends = \"chess\"\ndescription = \"shadowed\"\n";
    for _ in 0..2 {
        let v = registry::load_text(text, "reg-shadow.toml").unwrap();
        assert_eq!(v.description, "shadowed");
        assert_eq!(v.pieces.len(), 6, "pieces merge by letter, not twice");
    }
}

#[test]
fn the_start_fen_is_checked_as_a_position_after_compiling() {
    // Black to move while White is in check by the black rook: no position to play from.
    let e = registry::load_text(
        "name = \"reg-start\"\nextends = \"chess\"\n\
         start = \"4k3/8/8/8/8/8/8/r3K3 b - - 0 1\"\n",
        "reg-start.toml",
    )
    .err()
    .expect("refused")
    .to_string();
    assert!(
        e.contains("start") && e.contains("not to move is in check"),
        "{e}"
    );
    // A start placement that does not fit the board is refused by the placement reader.
    let e = registry::load_text(
        "name = \"reg-short\"\nextends = \"chess\"\nstart = \"8/8/8 w - - 0 1\"\n",
        "reg-short.toml",
    )
    .err()
    .expect("refused")
    .to_string();
    assert!(e.contains("start") && e.contains("3 ranks"), "{e}");
}

#[test]
fn a_table_name_is_one_word() {
    // The name is how UCI_Variant, XBoard's `variant` and a PGN's Variant tag call the
    // game: an empty one or one with a space could never be named there.
    for name in ["", "my game"] {
        let text = format!("extends = \"chess\"\nname = \"{name}\"\n");
        let Err(e) = tenfold::registry::load_text(&text, "t.toml") else {
            panic!("{name:?} was accepted");
        };
        let e = e.to_string();
        assert!(e.contains("name") && e.contains("one word"), "{e}");
    }
}
