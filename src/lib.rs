//! Tenfold: a bitboard engine for large-board chess variants.
//!
//! Layers, bottom up: `geometry` (squares, `u128` bitboards) → `movement` (atoms) and
//! `betza` (their notation) → `attacks` (tables per variant) → `variant` (games as data,
//! `tables/*.toml`) → `position`/`fen`/`movegen`/`notation` → `perft` → CLI.

pub mod arena;
pub mod attacks;
pub mod bench;
pub mod betza;
pub mod builtin;
pub mod describe;
pub mod eval;
pub mod extended;
pub mod fen;
pub mod geometry;
pub mod movegen;
pub mod movement;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod protocol;
pub mod search;
pub mod stacking;
pub mod suite;
pub mod taxonomy;
pub mod tt;
pub mod uci;
pub mod variant;
pub mod xboard;
pub mod zobrist;

pub use geometry::{Bitboard, Board, Square};
pub use moves::{Color, Move, MoveKind, MoveList, Piece, PieceType};
pub use position::Position;
pub use variant::Variant;
