//! Locomotive Taxonomy names in variant tables and `tenfold describe`
//! (../shared/rules/locomotive-taxonomy.md T1–T6).

mod common;

use common::tenfold;
use std::collections::BTreeSet;
use std::sync::Arc;
use tenfold::core::moves::MoveList;
use tenfold::describe;
use tenfold::movement::{betza, taxonomy};
use tenfold::registry;
use tenfold::variant::{PieceFile, VariantFile};
use tenfold::{Position, Variant};

const CHESS: &str = include_str!("../tables/chess.toml");

#[test]
fn a_table_may_name_movement_by_taxonomy() {
    // T1: "Noble-Rook" = RN, as movement of a variant's piece.
    let text = CHESS.replace("betza = \"Q\"", "taxonomy = \"Noble-Rook\"");
    let v = Variant::from_toml(&text, "champion.toml").unwrap();
    let q = &v.pieces[v.type_of_letter('Q').unwrap() as usize];
    assert_eq!(q.atoms, betza::parse("RN").unwrap());
    assert_eq!(q.betza, betza::to_betza(&q.atoms));
}

#[test]
fn a_table_needs_exactly_one_movement_key() {
    let both = CHESS.replace("betza = \"Q\"", "betza = \"Q\"\ntaxonomy = \"Queen\"");
    let e = Variant::from_toml(&both, "both.toml")
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.starts_with("both.toml: piece[4]:") && e.contains("not both"),
        "{e}"
    );
    let none = CHESS.replace("betza = \"Q\"\n", "");
    let e = Variant::from_toml(&none, "none.toml")
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.starts_with("none.toml: piece[4]:") && e.contains("taxonomy"),
        "{e}"
    );
    let bad = CHESS.replace("betza = \"Q\"", "taxonomy = \"Nobel-Rook\"");
    let e = Variant::from_toml(&bad, "bad.toml")
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.starts_with("bad.toml: piece[4].taxonomy:") && e.contains("did you mean \"Noble\""),
        "{e}"
    );
}

#[test]
fn every_built_in_piece_name_parses_back() {
    // T6: never a wrong name: the name of a movement parses to the same atoms.
    let mut named = 0;
    for name in registry::names() {
        let v = registry::get(name).unwrap();
        for p in &v.pieces {
            if let Some(n) = taxonomy::name_of(&p.atoms) {
                let back =
                    taxonomy::parse(&n).unwrap_or_else(|e| panic!("{name} {}: {e}", p.letter));
                assert_eq!(
                    back,
                    betza::normalize(&p.atoms),
                    "{name} {} -> {n}",
                    p.letter
                );
                named += 1;
            }
        }
    }
    assert!(named >= 20, "only {named} built-in pieces have a name");
}

/// A 9x9 test game holding the piece `p` as `X` (non-royal, no pawn rules) and a black
/// victim `Y`; `initial_rank` is where its initial-only moves may start.
fn test_game(p: &PieceFile, initial_rank: i32) -> Arc<Variant> {
    let mut x = p.clone();
    x.letter = 'X';
    x.royal = false;
    x.pawn = false;
    x.promotion = None;
    x.initial_ranks = Some(vec![initial_rank]);
    // Movement only: regions and type changes belong to the piece's own game.
    x.becomes = None;
    x.confine = None;
    x.composition = None;
    let mut y = p.clone();
    y.letter = 'Y';
    y.betza = Some("W".into());
    y.taxonomy = None;
    y.royal = false;
    y.pawn = false;
    y.promotion = None;
    y.initial_ranks = None;
    y.becomes = None;
    y.confine = None;
    y.composition = None;
    // Start from chess's table so that keys added later keep their defaults.
    let mut file: VariantFile = toml::from_str(CHESS).unwrap();
    file.name = "describe-test".into();
    file.files = 9;
    file.ranks = 9;
    file.start = "9/9/9/9/4X4/9/9/9/9 w - - 0 1".into();
    file.pieces = vec![x, y];
    file.castling = None;
    // Chess's fitted weights name its pieces and ranks, not this board's.
    file.eval = None;
    Arc::new(Variant::compile(file, "describe-test").unwrap())
}

/// FEN of a 9x9 board with X on e5 and, optionally, a black y on (file, rank).
fn fen_with_victim(victim: Option<(i32, i32)>) -> String {
    let mut rows = Vec::new();
    for rank in (0..9).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..9 {
            let c = if (file, rank) == (4, 4) {
                Some('X')
            } else if victim == Some((file, rank)) {
                Some('y')
            } else {
                None
            };
            match c {
                Some(c) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!("{} w - - 0 1", rows.join("/"))
}

/// Squares as (file, rank), 0-based.
type Squares = BTreeSet<(i32, i32)>;

/// (quiet, capture) target squares of X on e5 by move generation.
fn generated(v: &Arc<Variant>) -> (Squares, Squares) {
    let targets = |fen: &str| {
        let pos = Position::from_fen(v, fen).unwrap();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        list.iter()
            .map(|m| (v.board.file_of(m.to()), v.board.rank_of(m.to())))
            .collect::<BTreeSet<_>>()
    };
    let quiet = targets(&fen_with_victim(None));
    let mut capture = BTreeSet::new();
    for rank in 0..9 {
        for file in 0..9 {
            if (file, rank) != (4, 4)
                && targets(&fen_with_victim(Some((file, rank)))).contains(&(file, rank))
            {
                capture.insert((file, rank));
            }
        }
    }
    (quiet, capture)
}

/// Squares of the diagram carrying one of `marks`, as (file, rank).
fn marked(diagram: &[String], marks: &str) -> Squares {
    let mut out = BTreeSet::new();
    for (i, row) in diagram.iter().enumerate() {
        for (file, c) in row.split(' ').enumerate() {
            if c.len() == 1 && marks.contains(c) {
                out.insert((file as i32, 8 - i as i32));
            }
        }
    }
    out
}

#[test]
fn describe_diagrams_match_move_generation_for_every_built_in_piece() {
    let mut checked = 0;
    for name in registry::names() {
        let v = registry::get(name).unwrap();
        // The table as written: the test game rebuilds each piece from its keys.
        let text = registry::TABLES.iter().find(|(n, _)| *n == name).unwrap().1;
        let table: VariantFile = toml::from_str(text).unwrap();
        for (i, def) in v.pieces.iter().enumerate() {
            let d = describe::describe(&def.letter.to_string(), &v).unwrap();
            assert_eq!(
                d.atoms, def.atoms,
                "{name} {}: letter lookup first",
                def.letter
            );
            assert_eq!(d.diagram.len(), 9);
            assert!(d.diagram.iter().all(|r| r.len() == 17), "{:?}", d.diagram);
            let what = format!("{name} {} {:?}", def.letter, d.diagram);
            let f = &table.pieces[i];
            if f.path.is_some() || f.shot.is_some() || f.flight.is_some() {
                // Paths, shots and flights are no atoms: the diagram says so instead.
                assert!(
                    d.note.as_deref().is_some_and(|n| n.contains("not drawn")),
                    "{what}"
                );
                continue;
            }
            // Not on an initial rank: the plain moves only.
            let (quiet, capture) = generated(&test_game(&table.pieces[i], 1));
            assert_eq!(quiet, marked(&d.diagram, "*m"), "{what}: moves");
            assert_eq!(capture, marked(&d.diagram, "*c"), "{what}: captures");
            // On an initial rank: the `i` squares join.
            let (quiet_i, capture_i) = generated(&test_game(&table.pieces[i], 5));
            let all_i: BTreeSet<_> = quiet_i.union(&capture_i).copied().collect();
            assert_eq!(all_i, marked(&d.diagram, "*mci"), "{what}: initial moves");
            checked += 1;
        }
    }
    assert!(checked >= 25, "{checked}");
}

#[test]
fn describe_reads_letters_then_betza_then_taxonomy() {
    let chess = registry::get("chess").unwrap();
    // 'W' is no chess piece, so it is Betza's Wazir.
    let w = describe::describe("W", &chess).unwrap();
    assert_eq!(w.source, "Betza");
    assert_eq!(w.taxonomy.as_deref(), Some("Wazir"));
    // T5 examples through describe.
    for (name, bz) in [
        ("far Wazir Rider", "R"),
        ("far Ferz Rider", "B"),
        ("Wazir Rider", "R2"),
        ("Noble-Rook", "RN"),
    ] {
        let d = describe::describe(name, &chess).unwrap();
        assert_eq!(d.source, "taxonomy name");
        assert_eq!(d.atoms, betza::parse(bz).unwrap(), "{name}");
        assert_eq!(d.betza, betza::to_betza(&betza::parse(bz).unwrap()));
    }
    let e = describe::describe("Xq", &chess).unwrap_err().to_string();
    assert!(
        e.contains("betza") && e.contains("taxonomy") && !e.contains('\n'),
        "{e}"
    );
}

#[test]
fn cli_describe_text_json_and_errors() {
    let (code, out, _) = tenfold(&["describe", "N"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("betza     N") && out.contains("taxonomy  Knight"),
        "{out}"
    );
    assert!(
        out.contains(" 7 . . . * . * . . .") && out.contains(" 5 . . . . O . . . ."),
        "{out}"
    );
    let (code, out, _) = tenfold(&["describe", "--json", "--variant", "capablanca", "C"]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["taxonomy"], "Noble-Rook");
    assert_eq!(v["betza"], "NR");
    assert_eq!(v["diagram"].as_array().unwrap().len(), 9);
    let (code, out, _) = tenfold(&["describe", "--json", "mRcpR"]);
    assert_eq!(code, 0);
    assert!(serde_json::from_str::<serde_json::Value>(out.trim()).unwrap()["taxonomy"].is_null());
    let (code, out, _) = tenfold(&["describe", "mRcpR"]);
    assert_eq!(code, 0);
    assert!(out.contains("(no taxonomy name)"));
    let (code, out, err) = tenfold(&["describe", "Nobel Rook"]);
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("did you mean \"Noble\""), "{err}");
}

/// T5: "fire 3-step fell Bent Wazir Rider" is the Combined Arms armor — a table that
/// names its Knight so plays exactly the built-in game.
#[test]
fn the_armor_named_in_the_taxonomy_is_the_combined_arms_knight() {
    let text = include_str!("../tables/combined-arms.toml")
        .replace(
            "path = { steps = 3, betza = \"W\" }",
            "taxonomy = \"fire 3-step fell Bent Wazir Rider\"",
        )
        .replace("name = \"combined-arms\"", "name = \"ca-taxonomy\"");
    assert!(text.contains("fell Bent Wazir Rider"));
    let named = Variant::from_toml(&text, "ca-taxonomy").unwrap();
    let built_in = registry::get("combined-arms").unwrap();
    let mut a = tenfold::Position::startpos(&named);
    let mut b = tenfold::Position::startpos(&built_in);
    assert_eq!(
        tenfold::perft::perft(&mut a, 3),
        tenfold::perft::perft(&mut b, 3)
    );
}

#[test]
fn an_extending_table_may_give_an_inherited_piece_a_taxonomy_name() {
    // tables/README.md: a piece gives its movement once, by Betza or by name; a table
    // that `extends` chess and names the knight "Noble-Rook" replaces its inherited
    // Betza `N` (it was refused as giving both).
    let text = "extends = \"chess\"\nname = \"noble-knights\"\n\
                [[piece]]\nletter = \"N\"\ntaxonomy = \"Noble-Rook\"\n";
    let v = registry::load_text(text, "noble-knights.toml").unwrap();
    let n = v.pieces.iter().find(|p| p.letter == 'N').unwrap();
    assert_eq!(betza::to_betza(&n.atoms), "NR");
}
