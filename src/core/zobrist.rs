//! Zobrist keys: one random 64-bit number per piece-on-square, hand count, right and side.
//!
//! The numbers come from a fixed-seed generator so keys (and so bench signatures and
//! transposition-table behaviour) are the same on every run and machine.

use crate::core::geometry::SQUARE_SLOTS;
use crate::core::moves::MAX_PIECE_TYPES;
use once_cell::sync::Lazy;

/// Largest number of one piece type in one hand that gets its own key.
pub const MAX_HAND_COUNT: usize = 64;

/// The key tables.
pub struct Zobrist {
    /// Per coloured piece index (0..64) and square.
    pub piece: Vec<[u64; SQUARE_SLOTS]>,
    /// Per colour, piece type and count in hand.
    pub hand: Vec<[u64; MAX_HAND_COUNT]>,
    /// Per castling-rights bit set (16 combinations of 4 rights).
    pub castling: [u64; 256],
    /// Per en passant square.
    pub ep: [u64; SQUARE_SLOTS],
    /// Black to move.
    pub side: u64,
    /// Per square: a piece there holds a castling right (zone castling).
    pub castle_square: [u64; SQUARE_SLOTS],
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The process-wide key tables.
pub static ZOBRIST: Lazy<Zobrist> = Lazy::new(|| {
    let mut s = 0x7E4F_01D0_u64;
    let mut piece = vec![[0u64; SQUARE_SLOTS]; 2 * MAX_PIECE_TYPES];
    for row in piece.iter_mut() {
        for k in row.iter_mut() {
            *k = splitmix(&mut s);
        }
    }
    let mut hand = vec![[0u64; MAX_HAND_COUNT]; 2 * MAX_PIECE_TYPES];
    for row in hand.iter_mut() {
        // Count 0 keeps key 0 so an empty hand contributes nothing.
        for k in row.iter_mut().skip(1) {
            *k = splitmix(&mut s);
        }
    }
    let mut single = [0u64; 8];
    for k in single.iter_mut() {
        *k = splitmix(&mut s);
    }
    let mut castling = [0u64; 256];
    for (bits, k) in castling.iter_mut().enumerate() {
        *k = (0..8)
            .filter(|i| bits & (1 << i) != 0)
            .fold(0, |acc, i| acc ^ single[i]);
    }
    let mut ep = [0u64; SQUARE_SLOTS];
    for k in ep.iter_mut() {
        *k = splitmix(&mut s);
    }
    let side = splitmix(&mut s);
    // Drawn after the older keys so that those stay what they were.
    let mut castle_square = [0u64; SQUARE_SLOTS];
    for k in castle_square.iter_mut() {
        *k = splitmix(&mut s);
    }
    Zobrist {
        piece,
        hand,
        castling,
        ep,
        side,
        castle_square,
    }
});
