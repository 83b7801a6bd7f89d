//! Primitive Augsburg Chess: the engine against the independent generator in
//! `reference/augsburg.rs` on seeded random games (move lists and the FEN after every
//! move) and on the perft suite.

use crate::common;
use crate::reference;

use common::{assert_same_moves, suite, Rng};
use reference::augsburg::Game;
use std::sync::Arc;
use tenfold::core::moves::MoveList;
use tenfold::registry;
use tenfold::{Position, Variant};

fn augsburg() -> Arc<Variant> {
    registry::get("augsburg").unwrap()
}

fn engine_moves(p: &Position) -> Vec<(String, tenfold::Move)> {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut v: Vec<_> = list.iter().map(|&m| (p.move_to_string(m), m)).collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

/// Compares the two generators on one position: the same written moves, and the same
/// FEN after each of them.
fn compare(p: &mut Position) -> usize {
    let fen = p.fen();
    let reference = Game::from_fen(&fen);
    assert_eq!(
        reference.fen(),
        fen,
        "the reference reads and writes FEN like the engine"
    );
    let want = reference.legal();
    let got = engine_moves(p);
    let want_text: Vec<String> = want.iter().map(|(m, _)| m.text.clone()).collect();
    let got_text: Vec<String> = got.iter().map(|(t, _)| t.clone()).collect();
    assert_same_moves(&got_text, &want_text, &fen);
    for ((text, m), (_, after)) in got.iter().zip(&want) {
        p.make_move(*m);
        assert_eq!(p.fen(), after.fen(), "after {text} in {fen}");
        p.unmake_move();
    }
    got.len()
}

#[test]
fn random_games_agree_with_the_reference_generator() {
    let v = augsburg();
    let mut starts = vec![v.start_fen.clone()];
    starts.extend(suite("augsburg").into_iter().map(|l| l.fen));
    let mut rng = Rng(0xA065_B0C6);
    let (mut positions, mut moves) = (0, 0);
    for round in 0..4 {
        for fen in &starts {
            let mut p = Position::from_fen(&v, fen).unwrap();
            let plies = if round == 0 { 120 } else { 60 };
            for _ in 0..plies {
                let n = compare(&mut p);
                positions += 1;
                moves += n;
                if n == 0 {
                    break;
                }
                let list = engine_moves(&p);
                p.make_move(list[rng.below(n)].1);
            }
        }
    }
    assert!(positions >= 2000, "only {positions} positions");
    assert!(moves > 100_000, "only {moves} moves");
}

#[test]
fn suite_depth_two_agrees_with_the_reference_generator() {
    let v = augsburg();
    let lines = suite("augsburg");
    assert!(lines.len() >= 13);
    for line in &lines {
        let want = line
            .expected
            .iter()
            .find(|(d, _)| *d == 2)
            .expect("every line has D2")
            .1;
        let mut p = Position::from_fen(&v, &line.fen).unwrap();
        assert_eq!(
            Game::from_fen(&line.fen).perft(2),
            want,
            "reference, line {}",
            line.line
        );
        assert_eq!(
            tenfold::perft::perft(&mut p, 2),
            want,
            "engine, line {}",
            line.line
        );
    }
}

/// The cross-check behind the suite's deeper counts (slow: run with `--ignored`).
#[test]
#[ignore]
fn suite_depth_three_agrees_with_the_reference_generator() {
    for line in &suite("augsburg") {
        let want = line
            .expected
            .iter()
            .find(|(d, _)| *d == 3)
            .expect("every line has D3")
            .1;
        assert_eq!(
            Game::from_fen(&line.fen).perft(3),
            want,
            "reference, line {}",
            line.line
        );
    }
}
