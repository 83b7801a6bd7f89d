//! Switches and drops go through both legality paths: the ray-based fast path (games
//! whose captures are all leaps and straight rides) and the verify-every-move path.
//! ArchMage without its bent riders is such a game; played both ways along random games,
//! the two must agree move for move.

mod common;

use common::{sorted_moves, Rng};
use std::sync::Arc;
use tenfold::variant::Legality;
use tenfold::{Position, Variant};

const TABLE: &str = include_str!("../tables/archmage.toml");

#[test]
fn fast_and_verified_legality_agree_on_switches_and_drops() {
    let text = TABLE
        .replace("betza = \"FyafsF\"", "betza = \"FR\"")
        .replace("betza = \"WyafsW\"", "betza = \"WB\"");
    let fast = Variant::from_toml(&text, "no-bent").unwrap();
    assert_eq!(
        fast.legality,
        Legality::Rays,
        "the variant must take the fast path"
    );
    let mut slow = Variant::from_toml(&text, "no-bent").unwrap();
    Arc::get_mut(&mut slow).expect("not shared yet").legality = Legality::Lines;
    let starts = [
        fast.start_fen.clone(),
        // In check from a rider, with Dragons to drop: only blocking drops, no switches.
        "k9/10/4r5/10/10/10/3M6/10/P9/4K5[DH] w - - 0 1".to_string(),
        "k9/10/5r4/10/10/10/10/10/3SP1MP2/5K4[DHdh] w - - 0 1".to_string(),
        "5k4/10/10/4d5/10/3Mh5/3P6/10/7P2/5K4[] w - - 0 1".to_string(),
    ];
    let mut rng = Rng(0x5EED_0F5A_17C4);
    let mut checks = 0;
    for game in 0..120 {
        let start = &starts[game % starts.len()];
        let mut a = Position::from_fen(&fast, start).unwrap();
        let mut b = Position::from_fen(&slow, start).unwrap();
        for _ in 0..80 {
            let (ma, mb) = (sorted_moves(&a), sorted_moves(&b));
            assert_eq!(ma, mb, "{}", a.fen());
            if ma.is_empty() {
                break;
            }
            checks += a.in_check() as usize;
            let r = rng.next();
            // Drops and captures first when there are any, to reach checks and hands.
            let pick: Vec<&String> = ma.iter().filter(|m| m.contains('@')).collect();
            let mv = if !pick.is_empty() && r.is_multiple_of(4) {
                pick[(r / 4) as usize % pick.len()]
            } else {
                &ma[(r / 4) as usize % ma.len()]
            };
            a.play_moves(mv).unwrap();
            b.play_moves(mv).unwrap();
        }
    }
    assert!(checks > 50, "only {checks} positions in check");
}

/// A drop cannot promote, so a piece is never put where arriving must promote (a Pawn on
/// its last rank would stand there with no move and no promotion), as crazyhouse has
/// no Pawn dropped on the last rank. Crazyhouse-like drops on chess: every captured
/// piece goes to the hand.
#[test]
fn a_drop_never_puts_a_piece_where_it_must_promote() {
    let text =
        "name = \"drop-chess\"\nextends = \"chess\"\n[drops]\ncaptures_to_hand = \"PNBRQ\"\n";
    let v = tenfold::registry::load_text(text, "drop-chess.toml").unwrap();
    let white = sorted_moves(&Position::from_fen(&v, "4k3/8/8/8/8/8/8/4K3[P] w - - 0 1").unwrap());
    let drops: Vec<&String> = white.iter().filter(|m| m.starts_with("P@")).collect();
    assert_eq!(drops.len(), 64 - 2 - 7, "{drops:?}");
    assert!(drops.iter().all(|m| !m.ends_with('8')), "{drops:?}");
    let black = sorted_moves(&Position::from_fen(&v, "4k3/8/8/8/8/8/8/4K3[p] b - - 0 1").unwrap());
    assert!(black
        .iter()
        .filter(|m| m.starts_with("P@"))
        .all(|m| !m.ends_with('1')));
    assert!(black.iter().any(|m| m == "P@a8"));
    // A Knight has no promotion: anywhere empty.
    let n = sorted_moves(&Position::from_fen(&v, "4k3/8/8/8/8/8/8/4K3[N] w - - 0 1").unwrap());
    assert_eq!(n.iter().filter(|m| m.starts_with("N@")).count(), 62);
}
