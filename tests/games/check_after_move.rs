//! `gave_check`, the search's test for check after a move, agrees with the full attack
//! test `in_check` after every legal move of seeded random games in every built-in game
//! (hoppers, facing royals, regions, drops, kills and stacks included: the moves and
//! variants it cannot judge from the move alone must fall back to the full test); and
//! `may_give_check`, the test before a move that lets the search skip pruned moves
//! without making them, never answers false for a move that checks; and the search's
//! per-position form of it (`check_squares`) answers as it does for every move.

use crate::common;

use common::Rng;
use std::sync::Arc;
use tenfold::core::moves::{MoveKind, MoveList};
use tenfold::registry;
use tenfold::{Position, Variant};

/// Plays `games` random games of `plies` plies in `name`; after every legal move of
/// every position on the way, the two tests must agree, and the test before the move
/// must allow every check, and the check squares of the position must answer as it
/// does. Returns the checks seen, the moves that test ruled out, the moves it let
/// through that do not check, and the positions whose check squares answered by lookup.
/// With `exact`, an ordinary non-royal move must be ruled out unless it checks.
fn walk(
    name: &str,
    games: usize,
    plies: usize,
    seed: u64,
    exact: bool,
) -> (usize, usize, usize, usize) {
    walk_variant(
        &registry::get(name).unwrap(),
        name,
        games,
        plies,
        seed,
        exact,
    )
}

/// [`walk`] in the game `v`.
fn walk_variant(
    v: &Arc<Variant>,
    name: &str,
    games: usize,
    plies: usize,
    seed: u64,
    exact: bool,
) -> (usize, usize, usize, usize) {
    let mut rng = Rng(seed);
    let mut checks = 0;
    let mut ruled_out = 0;
    let mut let_through = 0;
    let mut by_lookup = 0;
    for _ in 0..games {
        let mut p = Position::startpos(v);
        for _ in 0..plies {
            let mut list = MoveList::new();
            p.legal_moves(&mut list);
            if list.is_empty() || p.halfmove() >= 100 {
                break;
            }
            let mut checking = Vec::new();
            let fen = p.fen();
            let squares = p.check_squares();
            by_lookup += usize::from(squares.by_lookup());
            for &m in list.iter() {
                let text = p.move_to_string(m);
                let may = p.may_give_check(m);
                assert_eq!(
                    squares.may_give_check(&p, m),
                    may,
                    "{name}: the check squares judge {text} in {fen} otherwise"
                );
                ruled_out += usize::from(!may);
                p.make_move(m);
                let full = p.in_check();
                assert_eq!(p.gave_check(), full, "{name}: after {text} in {fen}");
                assert!(
                    may || !full,
                    "{name}: {text} checks in {fen}, ruled out before"
                );
                if may && !full {
                    let_through += 1;
                    // Where the test knows the lines, an ordinary move of a non-royal
                    // piece is judged exactly: let through only if it checks.
                    let plain = matches!(m.kind(), MoveKind::Normal | MoveKind::DoubleStep)
                        && m.promotion().is_none()
                        && !m.has_kills();
                    let royal = v.royal_mask >> p.piece_on(m.to()).kind() & 1 != 0;
                    assert!(
                        !(exact && plain && !royal),
                        "{name}: {text} in {fen} does not check, not ruled out"
                    );
                }
                if full {
                    checks += 1;
                    checking.push(m);
                }
                p.unmake_move();
            }
            // Half the time a checking move is played, so the walk sees the positions
            // checks lead to (evasions, double checks, discovered checks).
            let m = if !checking.is_empty() && rng.below(2) == 0 {
                *rng.pick(&checking)
            } else {
                *rng.pick(list.as_slice())
            };
            p.make_move(m);
        }
    }
    (checks, ruled_out, let_through, by_lookup)
}

#[test]
fn the_check_test_after_a_move_agrees_with_the_full_test_in_every_built_in_game() {
    for (i, name) in registry::names().into_iter().enumerate() {
        // Games of plain leaps and rides judge ordinary moves before making them.
        let exact = ["chess", "grand", "shako", "capablanca", "janus", "embassy"].contains(&name);
        let (checks, ruled_out, let_through, by_lookup) =
            walk(name, 8, 200, 0x5eed + i as u64, exact);
        eprintln!(
            "{name}: {checks} checks, {ruled_out} ruled out, {let_through} let through, \
             {by_lookup} positions by lookup"
        );
        // Games of leaps and plain rides only answer by the per-position lookup.
        if ["chess", "grand", "capablanca", "janus", "embassy"].contains(&name) {
            assert!(by_lookup > 0, "{name}: no position answered by lookup");
        }
        assert!(checks > 0, "{name}: no check in the random games");
        if exact {
            assert!(ruled_out > 0, "{name}: no move ruled out");
        }
    }
}

#[test]
fn the_check_tests_agree_in_a_game_with_grasshoppers() {
    // A grasshopper checks over a hurdle next to the royal: a move that puts a piece
    // there, takes it away, or lands the grasshopper on a line through it may check.
    let v = Variant::from_toml(
        include_str!("../data/grasshopper.toml"),
        "tests/data/grasshopper.toml",
    )
    .unwrap();
    let (checks, ruled_out, _, _) = walk_variant(&v, "grasshopper-chess", 12, 200, 0x6a55, true);
    assert!(checks > 50, "{checks} checks");
    assert!(ruled_out > 0);
}
