//! Correction history: how far the static evaluation has missed the search's result in
//! positions with the same pawn-rule structure and side to move, learned as the search
//! goes and added to the evaluation wherever the search judges a node by it (pruning,
//! stand pat). An evaluation that misjudges a pawn structure tends to misjudge it the same
//! way throughout the tree, and this is the cheapest way to notice.

use crate::core::moves::Color;

/// Entries per side (a power of two).
const SIZE: usize = 16_384;
/// Entries hold centipawns times this.
const GRAIN: i32 = 256;
/// Largest correction, in centipawns.
const LIMIT: i32 = 128;

/// One thread's correction table.
pub struct Correction {
    /// `SIZE` entries for White to move, then `SIZE` for Black.
    table: Vec<i32>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction {
            table: vec![0; 2 * SIZE],
        }
    }
}

pub use crate::eval::pawn_key;

/// The entry of side `c` for pawn key `key`.
#[inline(always)]
fn slot(c: Color, key: u64) -> usize {
    c.idx() * SIZE + (key as usize & (SIZE - 1))
}

impl Correction {
    /// Forgets every correction, keeping the memory (a new game).
    pub fn reset(&mut self) {
        self.table.fill(0);
    }

    /// The correction for the side to move `c` in a position of pawn key `key`.
    #[inline]
    pub fn get(&self, c: Color, key: u64) -> i32 {
        self.table[slot(c, key)] / GRAIN
    }

    /// Learns that a search of `depth` found `diff` centipawns more than the (corrected)
    /// static evaluation; deeper searches weigh more.
    #[inline]
    pub fn update(&mut self, c: Color, key: u64, diff: i32, depth: i32) {
        let w = (depth + 1).clamp(1, 16);
        let e = &mut self.table[slot(c, key)];
        let target = diff.clamp(-LIMIT, LIMIT) * GRAIN;
        *e = ((*e * (256 - w) + target * w) / 256).clamp(-LIMIT * GRAIN, LIMIT * GRAIN);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Position;
    use crate::registry;

    #[test]
    fn a_repeated_miss_is_learned_and_stays_bounded() {
        let mut c = Correction::default();
        for _ in 0..2_000 {
            c.update(Color::White, 7, 300, 10);
        }
        // A miss beyond the limit is learned as the limit (integer steps stop just short).
        assert!((LIMIT - 1..=LIMIT).contains(&c.get(Color::White, 7)));
        assert_eq!(c.get(Color::Black, 7), 0);
        for _ in 0..2_000 {
            c.update(Color::White, 7, -40, 10);
        }
        assert!((c.get(Color::White, 7) + 40).abs() <= 1);
    }

    #[test]
    fn the_key_follows_the_pawns_only() {
        let v = registry::get("chess").unwrap();
        let at = |fen: &str| pawn_key(&Position::from_fen(&v, fen).unwrap());
        let base = at("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
        // A king step leaves it; a pawn step or a pawn of the other colour changes it.
        assert_eq!(base, at("3k4/pp6/8/8/8/8/PP6/4K3 w - - 0 1"));
        assert_ne!(base, at("4k3/pp6/8/8/8/P7/1P6/4K3 w - - 0 1"));
        assert_ne!(base, at("4k3/PP6/8/8/8/8/pp6/4K3 w - - 0 1"));
    }
}
