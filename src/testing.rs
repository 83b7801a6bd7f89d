//! Helpers shared by the unit tests.

use crate::core::moves::MoveList;
use crate::position::Position;
use crate::registry;
use crate::variant::Variant;
use std::sync::Arc;

/// Plays a pseudo-random game of up to `plies` plies from the start of every built-in
/// variant (the same games for the same `seed`). Each game starts with `start`'s state
/// for its variant; `f` gets that state, the variant's name, the ply and the position
/// before each move. A game ends early where no move is legal.
pub(crate) fn seeded_games<S>(
    plies: usize,
    seed: u64,
    mut start: impl FnMut(&Arc<Variant>) -> S,
    mut f: impl FnMut(&mut S, &str, usize, &Position),
) {
    for name in registry::names() {
        let mut seed = seed;
        let v = registry::get(name).unwrap();
        let mut state = start(&v);
        let mut pos = Position::startpos(&v);
        for ply in 0..plies {
            f(&mut state, name, ply, &pos);
            let mut list = MoveList::new();
            pos.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos.make_move(list.as_slice()[(seed >> 33) as usize % list.len()]);
        }
    }
}
