//! Issue 14, item 2: one implementation of every mechanism over the bitboard word, `u64`
//! for boards of up to 64 squares and `u128` beyond. The two words must agree exactly on
//! every board both can hold: the same legal moves, the same perft counts, the same
//! evaluation and the same key after any line of play.

mod common;

use common::Rng;
use std::sync::Arc;
use tenfold::core::moves::MoveList;
use tenfold::eval::Eval;
use tenfold::perft::perft;
use tenfold::perft::suite::parse_suite;
use tenfold::{registry, Position, Variant};

fn mini() -> Arc<Variant> {
    Variant::from_toml(include_str!("data/mini.toml"), "tests/data/mini.toml").unwrap()
}

/// The suite's positions of `variant` (the first `n`).
fn suite(variant: &str, file: &str, n: usize) -> Vec<Position> {
    let v = registry::get(variant).unwrap();
    let text = std::fs::read_to_string(file).unwrap();
    parse_suite(&text, file)
        .unwrap()
        .into_iter()
        .take(n)
        .map(|l| Position::from_fen(&v, &l.fen).unwrap())
        .collect()
}

fn moves_of<W: tenfold::core::geometry::Word>(p: &Position<W>) -> Vec<u64> {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut m: Vec<u64> = list.iter().map(|m| m.0).collect();
    m.sort_unstable();
    m
}

/// Plays random lines from `start` in both words side by side, comparing moves, counts,
/// keys and the evaluation at every ply.
fn walk_both(start: &Position, plies: usize, rng: &mut Rng) {
    let eval = Eval::new(start.variant());
    let mut wide = start.clone();
    let mut narrow = start.to_word::<u64>();
    for ply in 0..plies {
        let (a, b) = (moves_of(&wide), moves_of(&narrow));
        assert_eq!(a, b, "moves differ at ply {ply} of {}", wide.fen());
        assert_eq!(wide.count_legal(), narrow.count_legal(), "{}", wide.fen());
        assert_eq!(wide.key(), narrow.key(), "{}", wide.fen());
        assert_eq!(wide.in_check(), narrow.in_check(), "{}", wide.fen());
        assert_eq!(
            eval.evaluate(&wide),
            eval.evaluate(&narrow),
            "evaluation differs on {}",
            wide.fen()
        );
        if a.is_empty() {
            break;
        }
        let mut list = MoveList::new();
        wide.legal_moves(&mut list);
        let m = *rng.pick(list.as_slice());
        wide.make_move(m);
        narrow.make_move(m);
    }
    // Unmaking restores both to where they started, bit for bit.
    while wide.ply_count() > start.ply_count() {
        wide.unmake_move();
        narrow.unmake_move();
        assert_eq!(wide.key(), narrow.key());
    }
    assert_eq!(moves_of(&narrow), moves_of(start));
}

/// Perft to `depth` of the suite's first `n` positions, in both words.
fn perft_agrees(variant: &str, file: &str, n: usize, depth: u32) {
    for p in suite(variant, file, n) {
        let mut wide = p.clone();
        let mut narrow = p.to_word::<u64>();
        assert_eq!(
            perft(&mut wide, depth),
            perft(&mut narrow, depth),
            "{}",
            p.fen()
        );
    }
}

#[test]
fn chess_perft_is_the_same_in_u64_and_u128() {
    perft_agrees("chess", "perft/chess.epd", 40, 3);
}

#[test]
fn combined_arms_kills_are_the_same_in_u64_and_u128() {
    // Rifle shots and armor paths: shifts and floods in the narrow word.
    perft_agrees("combined-arms", "perft/combined-arms.epd", 17, 2);
}

#[test]
fn random_lines_agree_move_by_move_on_8x8_and_6x6() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for start in suite("chess", "perft/chess.epd", 20)
        .into_iter()
        .chain(suite("combined-arms", "perft/combined-arms.epd", 5))
        .chain(std::iter::once(Position::startpos(&mini())))
    {
        for _ in 0..4 {
            walk_both(&start, 60, &mut rng);
        }
    }
}

#[test]
fn only_boards_of_64_squares_or_fewer_fit_the_narrow_word() {
    let chess = Position::startpos(&registry::get("chess").unwrap());
    let grand = Position::startpos(&registry::get("grand").unwrap());
    assert!(chess.fits::<u64>());
    assert!(Position::startpos(&mini()).fits::<u64>());
    assert!(!grand.fits::<u64>(), "10x10 needs 100 bits");
    assert!(grand.fits::<u128>());
}
