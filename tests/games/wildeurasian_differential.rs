//! Wildeurasian Qi: the engine against the independent generator in
//! `reference/wildeurasian.rs` (written from the rulings) on seeded random games and on
//! the perft suite.

use crate::common;
use crate::reference;

use common::{assert_same_moves, sorted_moves, suite, Rng};
use reference::wildeurasian::Pos;
use std::sync::Arc;
use tenfold::registry;
use tenfold::{perft, Position, Variant};

fn variant() -> Arc<Variant> {
    registry::get("wildeurasian").expect("built-in wildeurasian")
}

fn pos(fen: &str) -> Position {
    Position::from_fen(&variant(), fen).unwrap_or_else(|e| panic!("{e}"))
}

fn reference_moves(p: &Pos) -> Vec<String> {
    let mut v: Vec<String> = p.legal().into_iter().map(|(m, _)| m).collect();
    v.sort();
    v
}

/// The suite's FENs with their expected counts.
fn suite_lines() -> Vec<(String, Vec<(u32, u64)>)> {
    suite("wildeurasian")
        .into_iter()
        .map(|l| (l.fen, l.expected))
        .collect()
}

#[test]
fn random_games_agree_with_the_reference_generator() {
    let v = variant();
    let mut starts: Vec<String> = vec![v.start_fen.clone()];
    starts.extend(suite_lines().into_iter().map(|(f, _)| f));
    let mut rng = Rng(0x5EED_1234_ABCD_0001);
    let mut positions = 0;
    // How often the rare rules were on the board, so that coverage cannot quietly vanish.
    let (mut castles, mut promotions, mut compound_promotions) = (0, 0, 0);
    for game in 0..150 {
        let start = &starts[game % starts.len()];
        let mut e = pos(start);
        let mut r = Pos::parse(start).unwrap();
        for _ply in 0..40 {
            let em = sorted_moves(&e);
            let rm = reference_moves(&r);
            assert_same_moves(&em, &rm, &format!("{} (game {game})", e.fen()));
            assert_eq!(e.key(), e.compute_key(), "incremental key in {}", e.fen());
            positions += 1;
            castles += em.iter().any(|m| is_castling(&e, m)) as usize;
            promotions += em
                .iter()
                .any(|m| m.ends_with(|c: char| c.is_ascii_lowercase()))
                as usize;
            compound_promotions += em.iter().any(|m| m.ends_with(['q', 't', 'g'])) as usize;
            if em.is_empty() {
                break;
            }
            // Captures, promotions and castlings are favoured so that the rare rules
            // (pools, rights, facing after exchanges) come up often.
            let special: Vec<&String> = em
                .iter()
                .filter(|m| m.len() > 4 && m.ends_with(|c: char| c.is_ascii_lowercase()))
                .collect();
            let choice = if !special.is_empty() && rng.below(3) == 0 {
                special[rng.below(special.len())].clone()
            } else {
                em[rng.below(em.len())].clone()
            };
            let m = e.parse_move(&choice).unwrap();
            e.make_move(m);
            let (_, next) = r.legal().into_iter().find(|(t, _)| *t == choice).unwrap();
            r = next;
            assert_eq!(e.fen(), r.fen(), "after {choice}");
        }
    }
    println!("{positions} positions, {castles} with castling, {promotions} with promotions, {compound_promotions} with compound promotions");
    assert!(positions > 3000, "only {positions} positions compared");
    assert!(castles > 100 && promotions > 150 && compound_promotions > 50);
}

/// A king move of more than one file: castling in this game.
fn is_castling(p: &Position, m: &str) -> bool {
    let mv = p.parse_move(m).unwrap();
    mv.kind() == tenfold::MoveKind::Castle
}

#[test]
fn suite_counts_agree_with_the_reference_at_depth_2() {
    for (fen, counts) in suite_lines() {
        let e = pos(&fen);
        let r = Pos::parse(&fen).unwrap();
        let got = perft::perft(&mut e.clone(), 2);
        assert_eq!(got, r.perft(2), "engine vs reference, depth 2: {fen}");
        if let Some(&(_, n)) = counts.iter().find(|(d, _)| *d == 2) {
            assert_eq!(got, n, "suite D2: {fen}");
        }
    }
}

/// The whole suite one ply deeper than the default test (about a minute in release):
/// `cargo test --release --test wildeurasian_differential -- --ignored`.
#[test]
#[ignore]
fn suite_counts_agree_with_the_reference_at_depth_3() {
    for (fen, counts) in suite_lines() {
        let e = pos(&fen);
        let r = Pos::parse(&fen).unwrap();
        let got = perft::perft(&mut e.clone(), 3);
        assert_eq!(got, r.perft(3), "engine vs reference, depth 3: {fen}");
        if let Some(&(_, n)) = counts.iter().find(|(d, _)| *d == 3) {
            assert_eq!(got, n, "suite D3: {fen}");
        }
    }
}
