//! Independent move generators, one per game, written from the rulings alone and sharing
//! no code with `src/`; each `<game>_differential.rs` test compares the engine with its
//! game's generator (`mod reference;`, then `reference::<game>`).
// Each test binary uses one generator; the others are compiled in unused.
#![allow(dead_code)]

pub mod archmage;
pub mod augsburg;
pub mod combined_arms;
pub mod wildeurasian;
