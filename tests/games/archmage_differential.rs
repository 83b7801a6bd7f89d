//! ArchMage Chess: the engine against the independent mailbox generator in
//! `reference/archmage.rs` — move lists, FENs (hands, rights, en passant, clocks) and keys along
//! seeded random games, and perft 2 on every line of `perft/archmage.epd`.

use crate::common;
use crate::reference;

use common::{sorted_moves, suite, Rng};
use reference::archmage::Ref;
use tenfold::registry;
use tenfold::{perft::perft, MoveList, Position};

fn suite_fens() -> Vec<String> {
    suite("archmage").into_iter().map(|l| l.fen).collect()
}

fn ref_moves(r: &Ref) -> Vec<String> {
    let mut v: Vec<String> = r.legal().into_iter().map(|m| m.text).collect();
    v.sort();
    v
}

fn assert_same_moves(p: &Position, r: &Ref, context: &str) {
    common::assert_same_moves(
        &sorted_moves(p),
        &ref_moves(r),
        &format!("{context}: {}", p.fen()),
    );
}

#[test]
fn random_games_agree_with_the_reference() {
    let v = registry::get("archmage").unwrap();
    let mut starts = vec![v.start_fen.clone()];
    starts.extend(suite_fens());
    let mut rng = Rng(0x00A2_C4A9_E5EE_D001);
    let mut positions = 0;
    for game in 0..200 {
        let start = &starts[game % starts.len()];
        let mut pos = Position::from_fen(&v, start).unwrap();
        let mut r = Ref::from_fen(start);
        for ply in 0..90 {
            positions += 1;
            assert_eq!(pos.fen(), r.fen(), "game {game} ply {ply}: FEN differs");
            assert_eq!(
                pos.key(),
                pos.compute_key(),
                "incremental key at {}",
                pos.fen()
            );
            assert_same_moves(&pos, &r, &format!("game {game} ply {ply}"));
            let mut moves = r.legal();
            if moves.is_empty() {
                break;
            }
            moves.sort_by(|a, b| a.text.cmp(&b.text));
            // Lean towards the rarer moves (captures, promotions, drops, castling) so that they
            // are met in every run, not only in lucky ones.
            let special: Vec<_> = moves.iter().filter(|m| m.is_special(&r)).collect();
            let mv = if !special.is_empty() && rng.below(3) == 0 {
                special[rng.below(special.len())].clone()
            } else {
                moves[rng.below(moves.len())].clone()
            };
            let m = pos.parse_move(&mv.text).unwrap();
            pos.make_move(m);
            r = r.make(&mv);
        }
        // Unmaking everything gives the start back, key included.
        while pos.ply_count() > 0 {
            pos.unmake_move();
        }
        let fresh = Position::from_fen(&v, start).unwrap();
        assert_eq!(pos.fen(), fresh.fen());
        assert_eq!(pos.key(), fresh.key());
    }
    assert!(positions > 3000, "only {positions} positions compared");
}

#[test]
fn suite_at_depth_two_agrees_with_the_reference() {
    let v = registry::get("archmage").unwrap();
    for fen in suite_fens() {
        let mut pos = Position::from_fen(&v, &fen).unwrap();
        let r = Ref::from_fen(&fen);
        assert_eq!(pos.fen(), r.fen(), "FEN read back");
        assert_same_moves(&pos, &r, "root");
        // Every reply list, not just the count, after each root move.
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        for &m in list.iter() {
            let text = pos.move_to_string(m);
            let mv = r.legal().into_iter().find(|x| x.text == text).unwrap();
            let child = r.make(&mv);
            pos.make_move(m);
            assert_eq!(pos.fen(), child.fen(), "after {text}");
            assert_same_moves(&pos, &child, &format!("after {text}"));
            pos.unmake_move();
        }
        assert_eq!(perft(&mut pos, 2), r.perft(2), "{fen}");
    }
}

/// The suite's depth-3 counts recomputed by the reference (slow; run on demand with
/// `cargo test --release --test archmage_differential -- --ignored`).
#[test]
#[ignore]
fn suite_depth_three_counts_match_the_reference() {
    for line in suite("archmage") {
        let r = Ref::from_fen(&line.fen);
        for &(d, n) in line.expected.iter().filter(|(d, _)| *d <= 3) {
            assert_eq!(r.perft(d), n, "D{d} {}", line.fen);
        }
    }
}
