//! Primitive Augsburg Chess, ruling by ruling (../shared/rules/augsburg.md): a position, a
//! move, the expected outcome. Then the invariants every combine and split must keep:
//! make/unmake restores the position bit for bit (stack planes included) and the
//! incremental Zobrist key equals the one computed from scratch.

use crate::common;

use common::{sorted_moves as legal, Rng};
use std::sync::Arc;
use tenfold::core::moves::MoveList;
use tenfold::registry;
use tenfold::{Color, Position, Variant};

fn augsburg() -> Arc<Variant> {
    registry::get("augsburg").unwrap()
}

/// A position from a piece list such as `"Ka1 Fc3 Fd4 kj10"` (upper case White), with
/// `to_move` "w" or "b"; the rest of the FEN is `- - 0 1`.
fn board(pieces: &str, to_move: &str) -> Position {
    let mut grid = [['.'; 10]; 10];
    for tok in pieces.split_whitespace() {
        let c: Vec<char> = tok.chars().collect();
        let file = (c[1] as u8 - b'a') as usize;
        let rank: usize = tok[2..].parse().unwrap();
        assert_eq!(grid[rank - 1][file], '.', "{tok} twice");
        grid[rank - 1][file] = c[0];
    }
    let rows: Vec<String> = grid
        .iter()
        .rev()
        .map(|row| {
            let (mut s, mut run) = (String::new(), 0);
            for &ch in row {
                if ch == '.' {
                    run += 1;
                    continue;
                }
                if run > 0 {
                    s += &run.to_string();
                    run = 0;
                }
                s.push(ch);
            }
            if run > 0 {
                s += &run.to_string();
            }
            s
        })
        .collect();
    let fen = format!("{} {to_move} - - 0 1", rows.join("/"));
    Position::from_fen(&augsburg(), &fen).unwrap_or_else(|e| panic!("{e}"))
}

fn pos(pieces: &str) -> Position {
    board(pieces, "w")
}

fn is_legal(p: &Position, m: &str) -> bool {
    legal(p).iter().any(|x| x == m)
}

/// The letter on a square (`.` when empty), upper case for White.
fn on(p: &Position, sq: &str) -> char {
    let s = p.variant().board.parse_square(sq).unwrap();
    let pc = p.piece_on(s);
    if pc.is_none() {
        '.'
    } else {
        p.letter(pc)
    }
}

/// (ferzes, wazirs) on a square, read from the stack planes.
fn counts(p: &Position, sq: &str) -> (u8, u8) {
    let c = p.stack_counts(p.variant().board.parse_square(sq).unwrap());
    (c[0], c[1])
}

fn play(p: &mut Position, m: &str) {
    p.play_moves(m).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn compositions_reproduce_the_seed_recipe_list() {
    // Augsburg A1: two pieces combine iff their compositions add up to a defined piece.
    let v = augsburg();
    let st = v.stacking.as_ref().unwrap();
    let stackable = "FWECNBRDTLQS";
    let mut recipes = Vec::new();
    for (i, a) in stackable.chars().enumerate() {
        for b in stackable.chars().skip(i) {
            let (ta, tb) = (v.type_of_letter(a).unwrap(), v.type_of_letter(b).unwrap());
            let into = st.combine(ta, tb);
            assert_eq!(into, st.combine(tb, ta), "{a}+{b} is symmetric");
            if into != 0 {
                let names: String = stackable
                    .chars()
                    .filter(|&c| into >> v.type_of_letter(c).unwrap() & 1 != 0)
                    .collect();
                recipes.push(format!("{a}+{b}={names}"));
            }
        }
    }
    assert_eq!(
        recipes.join(" "),
        "F+F=E F+W=N W+W=C E+E=B E+C=L E+N=D C+C=R C+N=T N+N=L B+R=QS D+T=QS L+L=QS"
    );
    // K and P have no composition (A5).
    for l in ['K', 'P'] {
        assert_eq!(st.partners[v.type_of_letter(l).unwrap() as usize], 0);
    }
}

#[test]
fn start_position_has_thirty_pieces_a_side_and_no_castling() {
    // Augsburg start position and A6 (no castling, even if a FEN claims rights).
    let v = augsburg();
    let p = Position::startpos(&v);
    assert_eq!(p.color_bb(Color::White).count(), 30);
    assert_eq!(p.color_bb(Color::Black).count(), 30);
    assert_eq!(p.count_legal(), 214);
    let q = Position::from_fen(&v, &v.start_fen.replace(" - - ", " KQkq - ")).unwrap();
    assert_eq!(q.castling_rights(), 0);
}

#[test]
fn a_ferz_moving_onto_a_ferz_makes_an_elephant() {
    // Augsburg A2: combining is plane addition; the square now holds the compound.
    let mut p = pos("Ka1 Fc3 Fd4 kj10");
    assert_eq!(counts(&p, "d4"), (1, 0));
    play(&mut p, "c3d4");
    assert_eq!((on(&p, "c3"), on(&p, "d4")), ('.', 'E'));
    assert_eq!(counts(&p, "d4"), (2, 0));
    assert_eq!(counts(&p, "c3"), (0, 0));
    assert_eq!(p.halfmove(), 1, "combining never captures (C6)");
}

#[test]
fn each_recipe_is_played_by_moving_one_part_onto_the_other() {
    // Augsburg A1/A2: one move per recipe below the Queen, with the piece it makes.
    for (pieces, mv, want) in [
        ("Wd3 Wd4", "d3d4", 'C'),
        ("Fc3 Wd4", "c3d4", 'N'),
        ("Wc4 Fc3", "c4c3", 'N'),
        ("Ec3 Ee5", "c3e5", 'B'),
        ("Cc3 Cc5", "c3c5", 'R'),
        ("Nc3 Ed5", "c3d5", 'D'),
        ("Nc3 Cd5", "c3d5", 'T'),
        ("Nc3 Nd5", "c3d5", 'L'),
        ("Cc3 Ee3", "c3e3", 'L'),
        ("Ee3 Cc3", "e3c3", '.'),
    ] {
        let mut p = pos(&format!("Ka1 kj10 {pieces}"));
        if want == '.' {
            // An Elephant leaps diagonally: it cannot reach the Camel two files away.
            assert!(!is_legal(&p, mv), "{mv} with {pieces}");
            continue;
        }
        play(&mut p, mv);
        assert_eq!(on(&p, &mv[2..4]), want, "{mv} with {pieces}");
        assert_eq!(on(&p, &mv[0..2]), '.');
    }
}

#[test]
fn a_sum_of_four_ferzes_and_four_wazirs_is_queen_or_senator_as_the_mover_chooses() {
    // Augsburg A2 and A7: the result is named only when it could be either.
    let p = pos("Ka1 Rc4 Be4 kj10");
    let moves = legal(&p);
    assert!(moves.contains(&"c4e4q".to_string()) && moves.contains(&"c4e4s".to_string()));
    assert!(!moves.contains(&"c4e4".to_string()));
    for (mv, want) in [("c4e4q", 'Q'), ("c4e4s", 'S')] {
        let mut q = p.clone();
        play(&mut q, mv);
        assert_eq!(on(&q, "e4"), want);
        assert_eq!(counts(&q, "e4"), (4, 4));
    }
    let mut b = pos("Ka1 Rc4 Be6 kj10");
    play(&mut b, "e6c4s");
    assert_eq!(on(&b, "c4"), 'S', "Bishop onto Rook");
    let mut t = pos("Ka1 Tf1 Dh3 kj10");
    play(&mut t, "h3f1s");
    assert_eq!(on(&t, "f1"), 'S', "Deacon onto Tower");
    let mut l = pos("Ka1 Lc5 Lf5 kj10");
    play(&mut l, "c5f5q");
    assert_eq!(on(&l, "f5"), 'Q', "Longbowman onto Longbowman");
}

#[test]
fn pieces_whose_sum_is_no_piece_do_not_combine() {
    // Augsburg A1: Ferz (1,0) + Knight (1,1) = (2,1) is no piece; a Queen takes nothing.
    let p = pos("Ka1 Fc3 Nd4 Qe5 Ff6 kj10");
    let moves = legal(&p);
    assert!(!moves.iter().any(|m| m.starts_with("c3d4")));
    assert!(!moves
        .iter()
        .any(|m| m.starts_with("e5f6") || m.starts_with("f6e5")));
}

#[test]
fn combining_never_captures_and_capturing_never_combines() {
    // Augsburg A2: onto an enemy it is a plain capture; the capturer stays what it was.
    let mut p = pos("Ka1 Fc3 fd4 kj10");
    assert_eq!(
        legal(&p).iter().filter(|m| m.starts_with("c3d4")).count(),
        1
    );
    play(&mut p, "c3d4");
    assert_eq!(on(&p, "d4"), 'F');
    assert_eq!(p.halfmove(), 0);
}

#[test]
fn a_longbowman_splits_three_ways_and_the_landing_part_is_named() {
    // Augsburg A3: a compound moves by its own movement to an empty square; X lands, Y stays.
    let p = pos("Ka1 Le5 kj10");
    let to_e7: Vec<String> = legal(&p)
        .into_iter()
        .filter(|m| m.starts_with("e5e7"))
        .collect();
    assert_eq!(to_e7, ["e5e7", "e5e7c", "e5e7e", "e5e7n"]);
    for (mv, lands, stays) in [
        ("e5e7n", 'N', 'N'),
        ("e5e7c", 'C', 'E'),
        ("e5e7e", 'E', 'C'),
    ] {
        let mut q = p.clone();
        play(&mut q, mv);
        assert_eq!((on(&q, "e7"), on(&q, "e5")), (lands, stays), "{mv}");
        let (a, b) = (counts(&q, "e7"), counts(&q, "e5"));
        assert_eq!(
            (a.0 + b.0, a.1 + b.1),
            (2, 2),
            "{mv}: splitting is plane subtraction"
        );
    }
}

#[test]
fn a_queen_splits_five_ways_along_its_own_lines_only() {
    // Augsburg A3: (4,4) = B+R, R+B, D+T, T+D, L+L; the Queen moves as a Queen to split.
    let p = pos("Ka1 Qc3 kj9");
    let to_h8: Vec<String> = legal(&p)
        .into_iter()
        .filter(|m| m.starts_with("c3h8"))
        .collect();
    assert_eq!(
        to_h8,
        ["c3h8", "c3h8b", "c3h8d", "c3h8l", "c3h8r", "c3h8s", "c3h8t"]
    );
    assert!(
        !is_legal(&p, "c3d5l"),
        "d5 is a knight's move away, not a queen's"
    );
    let mut q = p.clone();
    play(&mut q, "c3h8d");
    assert_eq!((on(&q, "h8"), on(&q, "c3")), ('D', 'T'));
}

#[test]
fn a_split_whatever_the_compound_was_built_from() {
    // Augsburg A8: a Queen built from Rook + Bishop may split into two Longbowmen.
    let mut p = pos("Ka1 Rc4 Be4 kj10");
    play(&mut p, "c4e4q j10i10 e4e6l");
    assert_eq!((on(&p, "e6"), on(&p, "e4")), ('L', 'L'));
}

#[test]
fn a_split_needs_an_empty_destination() {
    // Augsburg A3: onto an enemy it is only a capture; onto an own pawn nothing at all.
    let p = pos("Ka1 Le5 be3 kj10");
    let onto_bishop: Vec<String> = legal(&p)
        .into_iter()
        .filter(|m| m.starts_with("e5e3"))
        .collect();
    assert_eq!(onto_bishop, ["e5e3"]);
    let q = pos("Ka1 Le5 Pe7 kj10");
    assert!(!legal(&q).iter().any(|m| m.starts_with("e5e7")));
}

#[test]
fn a_queen_and_a_senator_transform_on_a_plain_move_only() {
    // Augsburg A4.
    let mut p = pos("Ka1 Qc3 re5 kj10");
    assert!(is_legal(&p, "c3c7s"));
    assert!(is_legal(&p, "c3e5"));
    assert!(!is_legal(&p, "c3e5s"), "not on a capture");
    play(&mut p, "c3c7s");
    assert_eq!(on(&p, "c7"), 'S');
    assert_eq!(counts(&p, "c7"), (4, 4));
    play(&mut p, "e5e4 c7e8q");
    assert_eq!(
        on(&p, "e8"),
        'Q',
        "the Senator leaps (1,2) and becomes a Queen"
    );
}

#[test]
fn kings_and_pawns_never_combine_or_split() {
    // Augsburg A5: no King or Pawn moves onto a friend, and nobody moves onto them; the
    // Wazir onto the Ferz next to them is the contrast.
    let p = pos("Kb2 Pb3 Fc3 Wc4 Pd4 kj10");
    let moves = legal(&p);
    for m in ["b2b3", "b2c3", "b3c4", "c3b2", "c4d4"] {
        assert!(!moves.iter().any(|x| x.starts_with(m)), "{m}");
    }
    assert!(moves.contains(&"c4c3".to_string()));
}

#[test]
fn pawns_step_twice_from_rank_three_take_en_passant_and_promote_to_five_pieces() {
    // Augsburg A5.
    let mut p = pos("Ka1 Pf3 pg5 kj10");
    assert!(is_legal(&p, "f3f5"));
    assert!(
        !is_legal(&pos("Ka1 Pf4 kj10"), "f4f6"),
        "two steps only from rank 3"
    );
    play(&mut p, "f3f5");
    assert!(p.fen().ends_with(" b - f4 0 1"), "{}", p.fen());
    play(&mut p, "g5f4");
    assert_eq!((on(&p, "f5"), on(&p, "f4")), ('.', 'p'));
    let q = pos("Ka1 Pc9 rd10 kj10");
    let promotions: Vec<String> = legal(&q)
        .into_iter()
        .filter(|m| m.starts_with("c9"))
        .collect();
    assert_eq!(
        promotions,
        [
            "c9c10c", "c9c10e", "c9c10f", "c9c10n", "c9c10w", "c9d10c", "c9d10e", "c9d10f",
            "c9d10n", "c9d10w"
        ]
    );
}

#[test]
fn checkmate_and_stalemate_as_in_chess() {
    // Augsburg A6 / C2: two Rooks mate; a cornered King with no moves is stalemated.
    let m = board("Ka1 Rj10 Rj9 ka10", "b");
    assert_eq!(m.game_result().unwrap().1, "checkmate");
    let s = board("Ka1 Rb1 Rj9 ka10", "b");
    assert_eq!(s.game_result().unwrap().1, "stalemate");
}

#[test]
fn a_combine_that_would_expose_the_king_is_illegal() {
    // Augsburg A2 with C2: the Knight on a4 is pinned by the rook on a9; combining with
    // the Elephant on c5 would leave a1 attacked.
    let p = pos("Ka1 Na4 Ec5 ra9 kj10");
    assert!(!legal(&p).iter().any(|m| m.starts_with("a4c5")));
    assert!(is_legal(&pos("Ka1 Na4 Ec5 kj10"), "a4c5"));
}

#[test]
fn a_pinned_compound_may_still_split_anywhere() {
    // Augsburg A8: the Longbowman on b2 is pinned by the bishop on e5, yet it may split
    // off the line because its remainder keeps the line closed; whole, it must stay on it.
    let p = pos("Ka1 Lb2 be5 kj10");
    let moves = legal(&p);
    assert!(moves.contains(&"b2b4n".to_string()));
    assert!(moves.contains(&"b2e2c".to_string()));
    assert!(!moves.contains(&"b2b4".to_string()));
    assert!(moves.contains(&"b2d4".to_string()), "d4 is on the line");
    // A Queen pinned on a file splits along it and off it, but moves whole only along it.
    let q = pos("Ka1 Qa4 ra10 kj10");
    assert!(is_legal(&q, "a4a7r") && is_legal(&q, "a4d7b") && is_legal(&q, "a4a10"));
    assert!(!is_legal(&q, "a4d7"));
}

#[test]
fn a_check_is_answered_by_a_split_that_blocks_but_never_by_a_combine() {
    // C2 with Augsburg A2/A3: the rook on a10 checks along the a-file.
    let p = pos("Ka1 Qc5 Lc4 Fb3 Wb4 ra10 kj10");
    let moves = legal(&p);
    assert!(
        moves.contains(&"c5a5b".to_string()),
        "split lands on the file"
    );
    assert!(moves.contains(&"c4a4n".to_string()));
    assert!(!moves.contains(&"c5c8b".to_string()));
    assert!(
        !moves.contains(&"b4b3".to_string()),
        "a combine never answers a check"
    );
    assert!(is_legal(&pos("Ka1 Qc5 Lc4 Fb3 Wb4 kj10"), "b4b3"));
}

#[test]
fn move_notation_round_trips_for_every_kind() {
    // Augsburg A7.
    let p = pos("Ka1 Le5 Rc4 Be4 Fc2 Pb3 kj10");
    for m in legal(&p) {
        let mv = p.parse_move(&m).unwrap();
        assert_eq!(p.move_to_string(mv), m);
    }
    assert!(
        p.parse_move("c4e4").is_err(),
        "a (4,4) combine must name Q or S"
    );
    assert!(
        p.parse_move("e5e7q").is_err(),
        "a Longbowman has no Queen part"
    );
}

/// Everything make/unmake must restore, bit for bit.
fn snapshot(p: &Position) -> (String, u64, Vec<tenfold::Bitboard>, Vec<tenfold::Bitboard>) {
    let v = p.variant();
    let types = (0..v.piece_count() as u8)
        .flat_map(|t| [p.pieces(t, Color::White), p.pieces(t, Color::Black)])
        .collect();
    (p.fen(), p.key(), p.stack_planes().to_vec(), types)
}

#[test]
fn make_unmake_keys_and_planes_stay_exact_through_random_games() {
    // Random legal sequences: after every move the incremental key equals the key
    // recomputed from scratch and the stack planes equal those built from the FEN;
    // unmake restores the position bit for bit.
    let v = augsburg();
    let mut rng = Rng(0x5EED_A065);
    let mut checked = 0;
    for game in 0..24 {
        let mut p = Position::startpos(&v);
        for _ in 0..70 + game {
            let mut list = MoveList::new();
            p.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let before = snapshot(&p);
            for &m in list.iter() {
                p.make_move(m);
                let fresh = Position::from_fen(&v, &p.fen()).unwrap();
                assert_eq!(p.key(), p.compute_key(), "key after {}", p.fen());
                assert_eq!(p.key(), fresh.key());
                assert_eq!(
                    p.stack_planes(),
                    fresh.stack_planes(),
                    "planes after {}",
                    p.fen()
                );
                p.unmake_move();
                assert!(
                    snapshot(&p) == before,
                    "unmake of {} in {}",
                    p.move_to_string(m),
                    before.0
                );
                checked += 1;
            }
            p.make_move(*rng.pick(list.as_slice()));
        }
    }
    assert!(checked > 100_000, "{checked}");
}

#[test]
fn malformed_stacking_tables_are_refused_naming_the_key() {
    let text = include_str!("../../tables/augsburg.toml");
    for (from, to, why) in [
        (
            "composition = [1, 0]",
            "composition = [1, 0, 2]",
            "piece[1].composition: 3 counts for 2 atoms",
        ),
        (
            "composition = [1, 0]",
            "composition = [0, 0]",
            "piece[1].composition: a composition needs at least one atom",
        ),
        (
            "royal = true",
            "royal = true\ncomposition = [1, 1]",
            "royal and pawn pieces cannot stack",
        ),
        (
            "[stacking]\natoms = [\"ferz\", \"wazir\"]\ntransform = true\n",
            "",
            "piece[1].composition: needs a [stacking] table",
        ),
    ] {
        assert!(text.contains(from), "{from}");
        let err = Variant::from_toml(&text.replacen(from, to, 1), "bad.toml")
            .err()
            .unwrap()
            .to_string();
        assert!(err.starts_with("bad.toml: ") && err.contains(why), "{err}");
        assert!(!err.contains('\n'));
    }
}
