//! The core that knows no game: squares and bitboards, moves and pieces, Zobrist keys.

pub mod fen;
pub mod geometry;
pub mod input;
pub mod moves;
pub mod output;
pub mod shard;
pub mod word;
pub mod zobrist;
