//! Grasshoppers, Betza `g`: "hop over a piece and land directly behind it" (XBoard's
//! Betza.html, H. G. Muller; the Grasshopper is `gQ`). The piece goes along a line to the
//! first piece met, of either colour (the hurdle), and lands on the square just beyond:
//! a move when it is empty, a capture when it holds an enemy, nothing when it holds a
//! friend. A grasshopper checks over a hurdle standing next to the king, so a piece
//! moved in front of its own king can put up the hurdle of a check, and a piece between
//! the grasshopper and the hurdle shields the king. Perft counts of a grasshopper table
//! against Fairy-Stockfish.

use crate::common;

use common::{sorted_moves, Rng};
use std::sync::Arc;
use tenfold::core::moves::MoveList;
use tenfold::perft::perft;
use tenfold::{Position, Variant};

/// King; a pawn that steps one square; rook; knight; the Grasshopper `gQ`; a piece that
/// only moves, as a rook or a grasshopper (`mRmgQ`, in Fairy-Stockfish's own
/// variants.ini); one that only captures, by an orthogonal grasshop (`cgR`).
fn game() -> Arc<Variant> {
    let text = "name = \"grasshoppers\"\nfiles = 8\nranks = 8\n\
        start = \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\nen_passant = false\n\
        [[piece]]\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n\
        [[piece]]\nletter = \"P\"\nbetza = \"fmWfcF\"\npawn = true\n\
        [[piece]]\nletter = \"R\"\nbetza = \"R\"\n\
        [[piece]]\nletter = \"N\"\nbetza = \"N\"\n\
        [[piece]]\nletter = \"G\"\nbetza = \"gQ\"\n\
        [[piece]]\nletter = \"M\"\nbetza = \"mRmgQ\"\n\
        [[piece]]\nletter = \"C\"\nbetza = \"cgR\"\n";
    Variant::from_toml(text, "grasshoppers.toml").unwrap()
}

/// The legal moves from `from` in `fen`, sorted; perft's counting path must agree with
/// the listed moves.
fn moves_from(v: &Arc<Variant>, fen: &str, from: &str) -> Vec<String> {
    let p = Position::from_fen(v, fen).unwrap();
    let all = sorted_moves(&p);
    assert_eq!(
        p.count_legal(),
        all.len(),
        "{fen}: counted and listed differ"
    );
    all.into_iter().filter(|m| m.starts_with(from)).collect()
}

#[test]
fn a_grasshopper_lands_directly_behind_the_first_piece_met() {
    // From d4: up over its own d6 pawn to d7; over the e5 pawn onto the f6 knight; down
    // over its own rook to d1; left over the b4 pawn to a4. Right, over g4, its own
    // knight stands on h4: no move. The diagonals down-left (a1 is its own king, with
    // nothing behind) and the empty lines give none: no hurdle, no move.
    let v = game();
    let fen = "4k3/8/3P1n2/4p3/1p1G2pN/8/3R4/K7 w - - 0 1";
    assert_eq!(moves_from(&v, fen, "d4"), ["d4a4", "d4d1", "d4d7", "d4f6"]);
}

#[test]
fn a_grasshopper_checks_only_over_a_hurdle_next_to_the_king() {
    // The black grasshopper e5 over the pawn e2 lands on e1. Stepping the pawn to e3
    // moves the hurdle: the grasshopper then lands on e2. The king may leave the file.
    let v = game();
    let fen = "4k3/8/8/4g3/8/8/4P3/4K3 w - - 0 1";
    assert!(Position::from_fen(&v, fen).unwrap().in_check());
    let p = Position::from_fen(&v, fen).unwrap();
    assert_eq!(sorted_moves(&p), ["e1d1", "e1d2", "e1f1", "e1f2", "e2e3"]);
    // With the pawn on e3 the grasshopper lands on e2, next to the king: no check.
    let p = Position::from_fen(&v, "4k3/8/8/4g3/8/4P3/8/4K3 w - - 0 1").unwrap();
    assert!(!p.in_check());
}

#[test]
fn the_king_may_not_step_onto_a_landing_square_but_may_carry_the_hurdle() {
    // The black grasshopper a8 over the knight a5 lands on a4: Kb4-a4 is into check.
    let v = game();
    assert_eq!(
        moves_from(&v, "g3k3/8/8/N7/1K6/8/8/8 w - - 0 1", "b4"),
        ["b4a3", "b4b3", "b4b5", "b4c3", "b4c4", "b4c5"]
    );
    // The king itself is the hurdle on a5: stepping along the file it stays the
    // hurdle, and the grasshopper lands on the square it left.
    assert_eq!(
        moves_from(&v, "g3k3/8/8/K7/8/8/8/8 w - - 0 1", "a5"),
        ["a5a4", "a5a6", "a5b4", "a5b5", "a5b6"]
    );
}

#[test]
fn a_piece_moved_next_to_its_king_becomes_the_hurdle_of_a_check() {
    // The rook a2 may go anywhere along its rank but e2, where the grasshopper e7 would
    // land on e1 over it.
    let v = game();
    let rook = moves_from(&v, "4k3/4g3/8/8/8/8/R7/4K3 w - - 0 1", "a2");
    assert!(!rook.contains(&"a2e2".to_string()), "{rook:?}");
    assert!(rook.contains(&"a2d2".to_string()) && rook.contains(&"a2f2".to_string()));
    assert_eq!(rook.len(), 13, "{rook:?}");
}

#[test]
fn a_piece_between_grasshopper_and_hurdle_shields_the_king() {
    // The knight e2 next to the king is the hurdle a grasshopper on the file would use;
    // the rook e4 stands between: the grasshopper lands on e3 over it. The rook may only
    // move along the file (on e3 it is the hurdle, and the grasshopper would take the
    // knight); the knight is free: the rook stays the hurdle.
    let v = game();
    let fen = "4k3/4g3/8/8/4R3/8/4N3/4K3 w - - 0 1";
    assert_eq!(moves_from(&v, fen, "e4"), ["e4e3", "e4e5", "e4e6", "e4e7"]);
    assert_eq!(moves_from(&v, fen, "e2").len(), 6);
}

#[test]
fn move_only_and_capture_only_grasshoppers() {
    // mRmgQ on d4: rook moves to empty squares only (not onto d6), grasshops to empty
    // squares only: over f4 to g4, not over d6 onto the d7 pawn.
    let v = game();
    let fen = "4k3/3p4/3p4/8/3M1P2/8/8/K7 w - - 0 1";
    assert_eq!(
        moves_from(&v, fen, "d4"),
        ["d4a4", "d4b4", "d4c4", "d4d1", "d4d2", "d4d3", "d4d5", "d4e4", "d4g4"]
    );
    // cgR on d4 captures over d6 on d7, and does not move over f4 to the empty g4.
    let fen = "4k3/3p4/3p4/8/3C1P2/8/8/K7 w - - 0 1";
    assert_eq!(moves_from(&v, fen, "d4"), ["d4d7"]);
}

/// tests/data/grasshopper.toml: chess with a row of grasshoppers behind the pawns, as
/// Fairy-Stockfish's built-in `grasshopper` plays it.
fn grasshopper_chess() -> Arc<Variant> {
    Variant::from_toml(
        include_str!("../data/grasshopper.toml"),
        "tests/data/grasshopper.toml",
    )
    .unwrap()
}

#[test]
fn grasshopper_chess_perft_agrees_with_fairy_stockfish() {
    // Counts agree with Fairy-Stockfish (commit c19b5f6c, `go perft`) for its built-in
    // variant `grasshopper` (custom piece gQ), which this table restates; the positions
    // come from random games, the first three of them in check from a grasshopper.
    let v = grasshopper_chess();
    let cases: [(&str, &[u64]); 4] = [
        (
            "rnbqkbnr/gggggggg/pppppppp/8/8/PPPPPPPP/GGGGGGGG/RNBQKBNR w KQkq - 0 1",
            &[28, 782, 22314, 635298],
        ),
        (
            "rnb1kGnr/g1gggggg/pp1p2pp/2p2p2/G1G4P/PPPpPPP1/GG1G1GG1/RNBQKBNR b KQkq - 1 10",
            &[7, 273, 6876, 259192],
        ),
        (
            "1n3knr/2g1g2b/r2P3p/pp1g2N1/g1GP1pGP/PP1p1PP1/1RGGGGg1/1NBQKBR1 w - - 1 30",
            &[9, 254, 7242, 239089],
        ),
        (
            "2b3nr/1g1q1kgg/rppbpGGp/2P1g1P1/pn2N2G/P2P1PP1/RG1gBK1G/2BQ2NR w - - 1 27",
            &[7, 296, 10719, 411005],
        ),
    ];
    for (fen, counts) in cases {
        let mut p = Position::from_fen(&v, fen).unwrap();
        for (d, &want) in counts.iter().enumerate() {
            assert_eq!(perft(&mut p, d as u32 + 1), want, "{fen} depth {}", d + 1);
        }
    }
}

#[test]
fn attackers_are_every_piece_that_captures_on_the_square() {
    // The reverse tables (check, legality, exchanges) against each piece's own targets,
    // on every occupied square along random games of grasshopper chess.
    let v = grasshopper_chess();
    let mut rng = Rng(0x6A55_40B0_9E12_0001);
    let mut grasshopper_attacks = 0;
    let g = v.type_of_letter('G').unwrap();
    for _ in 0..12 {
        let mut p = Position::startpos(&v);
        for _ in 0..80 {
            let occ = p.occupied();
            for sq in occ.iter() {
                let by = p.piece_on(sq).color().flip();
                let them = p.color_bb(by);
                let mut want = tenfold::Bitboard::EMPTY;
                for from in them.iter() {
                    let pa = &v.attacks[by.idx()][p.piece_on(from).kind() as usize];
                    if pa.targets(&v.rays, from, occ).capture.has(sq) {
                        want.set(from);
                        grasshopper_attacks += usize::from(p.piece_on(from).kind() == g);
                    }
                }
                assert_eq!(p.attackers_to(sq, occ, them, by), want, "{}", p.fen());
            }
            let mut list = MoveList::new();
            p.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            p.make_move(*rng.pick(list.as_slice()));
        }
    }
    assert!(grasshopper_attacks > 100, "{grasshopper_attacks}");
}

#[test]
fn an_initial_only_hop_attacks_only_from_the_initial_ranks() {
    // `igR` and `ipR` hop only from the piece's initial rank (its 2nd here): off it, a
    // grasshopper or cannon on the king's file gives no check, on it it does.
    for betza in ["igR", "ipR"] {
        let text = format!(
            "name = \"initial-hops\"\nfiles = 8\nranks = 8\n\
             start = \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"\n\
             [[piece]]\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n\
             [[piece]]\nletter = \"P\"\nbetza = \"fmW\"\n\
             [[piece]]\nletter = \"I\"\nbetza = \"{betza}\"\ninitial_ranks = [2]\n"
        );
        let v = Variant::from_toml(&text, "initial-hops.toml").unwrap();
        let off = Position::from_fen(&v, "8/8/7k/7p/7I/8/8/K7 b - - 0 1").unwrap();
        assert!(!off.in_check(), "{betza}");
        let on = Position::from_fen(&v, "8/8/8/8/7k/7p/7I/K7 b - - 0 1").unwrap();
        assert!(on.in_check(), "{betza}");
    }
}
