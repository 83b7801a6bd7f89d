//! Tenfold: a bitboard engine for large-board chess variants.
//!
//! Layers, bottom up (no module imports one above it): `core` (squares, `u64`/`u128`
//! bitboards, moves, Zobrist keys) → `movement` (atoms, Betza, taxonomy, attack tables)
//! → `rules` (one file per table key) and `variant` (the table form and its pure
//! compile) → `position` (state, FEN, notation) → `movegen` → `registry` (games by
//! name), `perft`, `eval`, `tt`, `search`, `bench`, `describe`, `inspect` → `protocol`
//! (UCI, XBoard) and `arena` → `datagen` (self-play data), `tune` (fitting the evaluation's
//! weights) and `diagram` (SVG pictures; reads `describe` and the arena's results) →
//! `merge` (sharded perft and match slices added up) → the CLI in `main.rs`. `report`
//! (the text-or-JSON output trait) stands apart and imports nothing.

#![warn(missing_docs)]

pub mod arena;
pub mod bench;
pub mod core;
pub mod datagen;
pub mod describe;
pub mod diagram;
pub mod eval;
pub mod fuzz;
pub mod inspect;
pub mod label;
pub mod merge;
pub mod movegen;
pub mod movement;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod registry;
pub mod report;
pub mod rules;
pub mod search;
#[cfg(test)]
mod testing;
pub mod tt;
pub mod tune;
pub mod variant;

pub use crate::core::geometry::{Bitboard, Board, Square};
pub use crate::core::moves::{Color, Move, MoveKind, MoveList, Piece, PieceType};
pub use position::Position;
pub use variant::Variant;
