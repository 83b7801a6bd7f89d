//! ArchMage Chess rulings (../shared/rules/archmage.md): each test is a position, a move
//! and what must follow, with the ruling it checks.

use crate::common;

use common::sorted_moves;
use tenfold::registry;
use tenfold::Position;

fn pos(fen: &str) -> Position {
    Position::from_fen(&registry::get("archmage").unwrap(), fen).unwrap()
}

fn moves(fen: &str) -> Vec<String> {
    sorted_moves(&pos(fen))
}

fn from(fen: &str, sq: &str) -> Vec<String> {
    moves(fen)
        .into_iter()
        .filter(|m| m.starts_with(sq) && !m[sq.len()..].starts_with(|c: char| c.is_ascii_digit()))
        .collect()
}

fn after(fen: &str, played: &str) -> String {
    let mut p = pos(fen);
    p.play_moves(played).unwrap();
    p.fen()
}

fn legal(fen: &str, mv: &str) -> bool {
    pos(fen).parse_move(mv).is_ok()
}

#[test]
fn start_position_reads_and_writes_back() {
    let v = registry::get("archmage").unwrap();
    let start = "grusqkmurg/tbcfaifcbt/pppppppppp/10/10/10/10/PPPPPPPPPP/TBCFAIFCBT/GRUSQKMURG[DHdh] w KQkq - 0 1";
    assert_eq!(v.start_fen, start);
    assert_eq!(Position::startpos(&v).fen(), start);
    assert_eq!(moves(start).len(), 79);
}

#[test]
fn pawn_must_promote_to_archmage() {
    // ArchMage M1: e9-e10 exists only as a promotion, to the ArchMage.
    let fen = "k9/4P5/10/10/10/10/10/10/10/5K4[] w - - 0 1";
    assert_eq!(from(fen, "e9"), vec!["e9e10w"]);
    assert!(after(fen, "e9e10w").starts_with("k3W5/"));
}

#[test]
fn prince_chooses_among_four_promotions() {
    // ArchMage M1: the Prince becomes an Amazon, Lion, Manticore or Griffon.
    let fen = "k9/4I5/10/10/10/10/10/10/10/5K4[] w - - 0 1";
    let to_e10: Vec<String> = from(fen, "e9")
        .into_iter()
        .filter(|m| m.starts_with("e9e10"))
        .collect();
    assert_eq!(to_e10, vec!["e9e10a", "e9e10g", "e9e10l", "e9e10t"]);
}

#[test]
fn castling_moves_the_king_two_squares_toward_the_rook() {
    // ArchMage M2: f1-h1 with i1-g1, f1-d1 with b1-e1.
    let fen = "1r3k2r1/10/10/10/10/10/10/10/10/1R3K2R1[] w KQkq - 0 1";
    assert!(after(fen, "f1h1").starts_with("1r3k2r1/10/10/10/10/10/10/10/10/1R4RK2[] b kq"));
    assert!(after(fen, "f1d1").starts_with("1r3k2r1/10/10/10/10/10/10/10/10/3KR3R1[] b kq"));
    assert!(after(fen, "i1i2 f10d10").starts_with("3kr3r1/"));
}

#[test]
fn castling_refused_through_an_attacked_square_but_not_past_one_the_king_skips() {
    // ArchMage M2: h1 attacked stops f1h1; c1 attacked does not stop f1d1 (the King
    // crosses e1 and lands on d1 only).
    let fen = "5k4/10/10/10/10/10/10/b8b/P8P/1R3K2R1[] w KQ - 0 1";
    assert!(!legal(fen, "f1h1"));
    assert!(legal(fen, "f1d1"));
    // d1 attacked: f1d1 refused.
    let fen = "3r1k4/10/10/10/10/10/10/10/P8P/1R3K2R1[] w KQ - 0 1";
    assert!(!legal(fen, "f1d1"));
    assert!(legal(fen, "f1h1"));
}

#[test]
fn pawn_two_steps_from_its_first_rank_with_en_passant() {
    // ArchMage M3: from rank 1 the Pawn may step to rank 3; the skipped d2 is the en
    // passant square and the c3 Pawn takes there, removing the d3 Pawn.
    let fen = "9k/10/10/10/10/10/10/2p7/10/3P5K[] w - - 0 1";
    let fen2 = after(fen, "d1d3");
    assert!(fen2.ends_with(" b - d2 0 1"), "{fen2}");
    assert!(legal(&fen2, "c3d2"));
    assert!(after(&fen2, "c3d2").starts_with("9k/10/10/10/10/10/10/10/3p6/9K[] w"));
    // From rank 3 too, but not from rank 4.
    let fen = "9k/10/10/10/10/10/3P6/2P7/10/9K[] w - - 0 1";
    assert!(legal(fen, "c3c5"));
    assert!(!legal(fen, "d4d6"));
}

#[test]
fn switch_puts_a_pawn_on_its_first_rank_and_it_may_then_step_two() {
    // ArchMage M4 and M3: the Mage d1 and the Pawn d3 exchange; the Pawn on d1 may go to d3.
    let fen = "9k/10/10/10/10/10/10/3P6/10/3M1K4[] w - - 0 1";
    let fen2 = after(fen, "d1d3");
    assert!(
        fen2.starts_with("9k/10/10/10/10/10/10/3M6/10/3P1K4[] b - - 0 1"),
        "{fen2}"
    );
    let fen3 = after(&fen2, "j10j9");
    assert!(!legal(&fen3, "d1d3"), "d3 is occupied by the Mage");
    assert!(legal(&fen3, "d1d2"));
}

#[test]
fn switch_onto_the_last_rank_promotes_the_pawn() {
    // ArchMage M4 and M1: ArchMage e10 exchanges with the Pawn f8; the Pawn lands on e10.
    let fen = "4W5/9k/5P4/10/10/10/10/10/10/5K4[] w - - 0 1";
    assert!(!legal(fen, "e10f8"));
    assert!(after(fen, "e10f8w").starts_with("4W5/9k/5W4/"));
}

#[test]
fn switch_that_promotes_the_prince_offers_four_moves() {
    // ArchMage M4, notation: `h10i9l` — the Prince switched onto h10 becomes a Lion.
    let fen = "7W2/8I1/10/10/10/10/10/10/10/k4K4[] w - - 0 1";
    let sw: Vec<String> = from(fen, "h10")
        .into_iter()
        .filter(|m| m.starts_with("h10i9"))
        .collect();
    assert_eq!(sw, vec!["h10i9a", "h10i9g", "h10i9l", "h10i9t"]);
    assert!(after(fen, "h10i9l").starts_with("7L2/8W1/"));
}

#[test]
fn switch_that_promotes_the_mage() {
    // ArchMage M4: the Mage g9 exchanges with the Queen g10 and becomes an ArchMage.
    let fen = "6Q3/6M3/10/10/10/10/10/10/10/k4K4[] w - - 0 1";
    assert!(after(fen, "g9g10w").starts_with("6W3/6Q3/"));
    assert!(!legal(fen, "g9g10"));
}

#[test]
fn same_type_exchange_is_no_move_and_two_switchers_give_two_moves() {
    // ArchMage M4: Mage d1 / Mage g1 may not exchange; Sorceress c1 / Mage d1 give c1d1
    // and d1c1, two moves with the same result.
    let fen = "9k/10/10/10/10/10/10/10/10/2SM2M1K1[] w - - 0 1";
    let all = moves(fen);
    assert!(!all.contains(&"d1g1".to_string()) && !all.contains(&"g1d1".to_string()));
    assert!(all.contains(&"c1d1".to_string()) && all.contains(&"d1c1".to_string()));
    assert_eq!(after(fen, "c1d1"), after(fen, "d1c1"));
}

#[test]
fn no_switch_with_the_king_or_beyond_distance_three() {
    // ArchMage M4: the King is never a partner; h5 is four files from d1... out of reach.
    let fen = "9k/10/10/10/7P2/10/10/10/10/3MK5[] w - - 0 1";
    assert!(!legal(fen, "d1e1"));
    assert!(!legal(fen, "d1h5"));
    let fen = "9k/10/10/10/10/10/10/6P3/10/3MK5[] w - - 0 1";
    assert!(legal(fen, "d1g3"));
}

#[test]
fn a_switch_never_answers_check_and_a_pinned_switcher_may_switch() {
    // ArchMage M4: occupancy is unchanged, so a switch cannot expose the King...
    let pinned = "k9/10/4r5/9p/10/10/10/5U4/3PM5/4K5[] w - - 0 1";
    assert!(legal(pinned, "e2f3"));
    assert!(legal(pinned, "e2d2"));
    assert!(
        !legal(pinned, "e2d3"),
        "an ordinary move off the pin line stays illegal"
    );
    // ...and cannot answer a check.
    let check = "k9/10/5r4/10/10/10/10/10/3SP1MP2/5K4[] w - - 0 1";
    assert!(!legal(check, "d2e2"));
    assert!(!legal(check, "g2h2"));
    assert!(legal(check, "g2f2"));
}

#[test]
fn a_switched_rook_has_moved() {
    // ArchMage M4 and M2: Mage h2 exchanges with the Rook i1: kingside castling is gone.
    let fen = "5k4/10/10/10/10/10/10/10/7M2/1R3K2R1[] w KQ - 0 1";
    let fen2 = after(fen, "h2i1");
    assert!(fen2.contains(" b Q - "), "{fen2}");
}

#[test]
fn halfmove_clock_resets_when_a_switch_moves_a_pawn() {
    // Rulings C6: a switch with a Pawn resets the clock; one without a Pawn does not.
    let fen = "9k/10/10/10/10/10/10/3P6/3B6/3M1K4[] w - - 7 30";
    assert!(after(fen, "d1d3").ends_with(" 0 30"));
    assert!(after(fen, "d1d2").ends_with(" 8 30"));
}

#[test]
fn a_switch_promoting_both_pieces_names_the_switcher_first() {
    // ArchMage notation (Tenfold's ruling for a case the rulings leave open): a Mage on
    // c10 and a Prince on e10, both unpromoted (only possible from a set-up FEN), may
    // both promote: the switcher's new type, then the partner's.
    let fen = "2M1I5/10/10/10/10/10/10/10/10/k4K4[] w - - 0 1";
    let sw: Vec<String> = from(fen, "c10")
        .into_iter()
        .filter(|m| m.starts_with("c10e10"))
        .collect();
    assert_eq!(sw, vec!["c10e10wa", "c10e10wg", "c10e10wl", "c10e10wt"]);
    assert!(after(fen, "c10e10wl").starts_with("2L1W5/"));
}

#[test]
fn only_dragons_are_ever_in_hand() {
    // ArchMage seed: "only Dragons can be dropped"; M5: "No other captured piece goes to
    // a hand". A FEN hand holding a Queen or a Pawn is refused, not dropped.
    let v = registry::get("archmage").unwrap();
    for hand in ["[QP]", "[q]", "[Dp]"] {
        let fen = format!("9k/10/10/10/10/4M5/10/10/10/K9{hand} w - - 0 1");
        let e = Position::from_fen(&v, &fen).err().expect(&fen).to_string();
        assert!(e.contains("never goes to a hand in archmage"), "{e}");
    }
    assert!(moves("9k/10/10/10/10/4M5/10/10/10/K9[DHdh] w - - 0 1")
        .iter()
        .any(|m| m == "D@e6"));
}

#[test]
fn dragons_are_summoned_next_to_a_summoner_only() {
    // ArchMage M5: D@ and H@ on the empty squares around the Mage e5, nowhere else.
    let fen = "5k4/10/10/10/4p5/4M5/4P5/10/10/5K4[DH] w - - 0 1";
    let drops: Vec<String> = moves(fen).into_iter().filter(|m| m.contains('@')).collect();
    assert_eq!(
        drops,
        [
            "D@d4", "D@d5", "D@d6", "D@f4", "D@f5", "D@f6", "H@d4", "H@d5", "H@d6", "H@f4", "H@f5",
            "H@f6"
        ]
    );
    assert!(after(fen, "H@f6").starts_with("5k4/10/10/10/4pH4/4M5/4P5/10/10/5K4[D] b"));
    // Without a summoner the hand stays where it is.
    assert!(!moves("5k4/10/10/10/10/10/10/10/10/5K4[DH] w - - 0 1")
        .iter()
        .any(|m| m.contains('@')));
}

#[test]
fn black_summons_with_upper_case_letters() {
    // ArchMage notation: `D@e4` for both sides.
    let fen = "5k4/10/10/10/10/4s5/10/10/10/5K4[dh] b - - 0 1";
    assert!(legal(fen, "D@e4"));
    assert!(after(fen, "D@e4").starts_with("5k4/10/10/10/10/4s5/4d5/10/10/5K4[h] w"));
}

#[test]
fn a_drop_may_block_check() {
    // ArchMage M5: King e1 checked by the Rook e8; the Dragon dropped on e3-e5 blocks.
    let fen = "k9/10/4r5/10/10/10/3M6/10/P9/4K5[D] w - - 0 1";
    let drops: Vec<String> = moves(fen).into_iter().filter(|m| m.contains('@')).collect();
    assert_eq!(drops, ["D@e3", "D@e4", "D@e5"]);
}

#[test]
fn a_captured_dragon_joins_the_capturers_hand_and_comes_back() {
    // ArchMage M5: d4xe5 takes the Dragon Horse; White's hand gains an H and the Mage
    // d5 may summon it. No other captured piece goes to a hand.
    let fen = "5k4/10/10/4d5/10/3Mh5/3P6/10/7P2/5K4[] w - - 0 1";
    let fen2 = after(fen, "d4e5");
    assert!(
        fen2.starts_with("5k4/10/10/4d5/10/3MP5/10/10/7P2/5K4[H] b"),
        "{fen2}"
    );
    let fen3 = after(&fen2, "e7e5");
    assert!(
        fen3.contains("[H] w"),
        "a captured Pawn goes to no hand: {fen3}"
    );
    assert!(legal(&fen3, "H@c6"));
    let q = "5k4/10/10/10/10/4q5/3P6/10/10/5K4[] w - - 0 1";
    assert!(after(q, "d4e5").contains("[] b"));
}

#[test]
fn hands_are_part_of_fen_and_key() {
    // ArchMage notation: hands always written, White's first, D before H.
    let a = pos("5k4/10/10/10/10/10/10/10/10/5K4[Dh] w - - 0 1");
    let b = pos("5k4/10/10/10/10/10/10/10/10/5K4[hD] w - - 0 1");
    let c = pos("5k4/10/10/10/10/10/10/10/10/5K4[Hd] w - - 0 1");
    let d = pos("5k4/10/10/10/10/10/10/10/10/5K4 w - - 0 1");
    assert_eq!(b.fen(), "5k4/10/10/10/10/10/10/10/10/5K4[Dh] w - - 0 1");
    assert_eq!(d.fen(), "5k4/10/10/10/10/10/10/10/10/5K4[] w - - 0 1");
    assert_eq!(a.key(), b.key());
    assert_ne!(a.key(), c.key());
    assert_ne!(a.key(), d.key());
}
