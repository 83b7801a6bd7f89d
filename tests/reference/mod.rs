//! Independent move generators, one per game, written from the rulings alone and sharing
//! no code with `src/`; each `games/<game>_differential.rs` test compares the engine
//! with its game's generator (`reference::<game>`).
#![allow(dead_code)]

pub mod archmage;
pub mod augsburg;
pub mod combined_arms;
pub mod wildeurasian;
