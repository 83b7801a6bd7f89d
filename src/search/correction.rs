//! Correction history: how far the static evaluation has missed the search's result in
//! positions with the same pawn-rule structure and side to move, learned as the search
//! goes and added to the evaluation wherever the search judges a node by it (pruning,
//! stand pat). An evaluation that misjudges a pawn structure tends to misjudge it the same
//! way throughout the tree, and this is the cheapest way to notice. Beside it, one table
//! per colour keyed by that colour's other pieces (on the board and in hand), as
//! Stockfish's non-pawn correction: a misjudged piece placement repeats as well.

use crate::core::geometry::Word;
use crate::core::moves::Color;
use crate::position::Position;

/// Entries per side (a power of two).
const SIZE: usize = 16_384;
/// Entries hold centipawns times this.
const GRAIN: i32 = 256;
/// Largest correction a table holds, in centipawns (a node's sum of the pawn table's and
/// half of each colour's can reach twice this).
const LIMIT: i32 = 128;

/// One thread's correction tables.
pub struct Correction {
    /// By pawn key: `SIZE` entries for White to move, then `SIZE` for Black.
    table: Vec<i32>,
    /// By piece key: per side to move, per colour of the pieces, `SIZE` entries.
    pieces: Vec<i32>,
}

impl Default for Correction {
    fn default() -> Self {
        Correction {
            table: vec![0; 2 * SIZE],
            pieces: vec![0; 4 * SIZE],
        }
    }
}

pub use crate::eval::pawn_key;

/// What a node's corrections are looked up by: its pawn key and each colour's
/// [`piece_keys`].
#[derive(Clone, Copy, Default)]
pub struct Keys {
    /// [`pawn_key`].
    pub pawns: u64,
    /// [`piece_keys`].
    pub pieces: [u64; 2],
}

impl Keys {
    /// The keys of `pos` (pawn key `pawns`, computed by the caller for the evaluation).
    #[inline]
    pub fn of<W: Word>(pos: &Position<W>, pawns: u64) -> Keys {
        Keys {
            pawns,
            pieces: piece_keys(pos),
        }
    }
}

/// Per colour, a key of its pieces that are not pawn-rule pieces, with its hand.
pub fn piece_keys<W: Word>(pos: &Position<W>) -> [u64; 2] {
    let v = pos.variant();
    let mut types = ((1u64 << v.pieces.len()) - 1) & !(v.pawn_mask as u64);
    let mut h = [0x1319_8A2E_0370_7344u64, 0xA409_3822_299F_31D0u64];
    while types != 0 {
        let t = types.trailing_zeros() as u8;
        types &= types - 1;
        for c in Color::BOTH {
            let b = pos.pieces(t, c).wide().0;
            h[c.idx()] = fold(fold(h[c.idx()], b as u64), (b >> 64) as u64);
        }
    }
    for c in Color::BOTH {
        if pos.has_hand(c) {
            for t in 0..v.pieces.len() {
                h[c.idx()] = fold(h[c.idx()], pos.hand(c, t as u8) as u64);
            }
        }
    }
    h
}

/// One word into a running key. The multiplication carries every bit of `x` upwards
/// and the rotation brings the well-mixed high bits down, where the index is read.
#[inline(always)]
fn fold(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29)
}

/// The entry of side `c` for pawn key `key`.
#[inline(always)]
fn slot(c: Color, key: u64) -> usize {
    c.idx() * SIZE + (key as usize & (SIZE - 1))
}

/// The entry of side to move `c` for colour `of`'s piece key `key`.
#[inline(always)]
fn piece_slot(c: Color, of: Color, key: u64) -> usize {
    (c.idx() * 2 + of.idx()) * SIZE + (key as usize & (SIZE - 1))
}

impl Correction {
    /// Forgets every correction, keeping the memory (a new game).
    pub fn reset(&mut self) {
        self.table.fill(0);
        self.pieces.fill(0);
    }

    /// The correction for the side to move `c` in a position of keys `k`: the pawn
    /// structure's, and half of each colour's pieces'.
    #[inline]
    pub fn get(&self, c: Color, k: &Keys) -> i32 {
        let p = self.pieces[piece_slot(c, Color::White, k.pieces[0])]
            + self.pieces[piece_slot(c, Color::Black, k.pieces[1])];
        (self.table[slot(c, k.pawns)] + p / 2) / GRAIN
    }

    /// Learns that a search of `depth` found `diff` centipawns more than the (corrected)
    /// static evaluation; deeper searches weigh more.
    #[inline]
    pub fn update(&mut self, c: Color, k: &Keys, diff: i32, depth: i32) {
        let w = (depth + 1).clamp(1, 16);
        let target = diff.clamp(-LIMIT, LIMIT) * GRAIN;
        let learn = |e: &mut i32| {
            *e = ((*e * (256 - w) + target * w) / 256).clamp(-LIMIT * GRAIN, LIMIT * GRAIN);
        };
        learn(&mut self.table[slot(c, k.pawns)]);
        learn(&mut self.pieces[piece_slot(c, Color::White, k.pieces[0])]);
        learn(&mut self.pieces[piece_slot(c, Color::Black, k.pieces[1])]);
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
        let k = Keys {
            pawns: 7,
            pieces: [11, 13],
        };
        for _ in 0..2_000 {
            c.update(Color::White, &k, 300, 10);
        }
        // A miss beyond the limit is learned as the limit by each table (integer steps
        // stop just short), and the pieces' two tables count half each.
        assert!((2 * LIMIT - 2..=2 * LIMIT).contains(&c.get(Color::White, &k)));
        assert_eq!(c.get(Color::Black, &k), 0);
        for _ in 0..2_000 {
            c.update(Color::White, &k, -40, 10);
        }
        assert!((c.get(Color::White, &k) + 80).abs() <= 2);
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

    #[test]
    fn each_colours_piece_key_follows_its_own_pieces_and_hand_only() {
        let at = |game: &str, fen: &str| {
            let v = registry::get(game).unwrap();
            piece_keys(&Position::from_fen(&v, fen).unwrap())
        };
        let base = at("chess", "4k3/pp2n3/8/8/8/8/PP2N3/4K3 w - - 0 1");
        // A pawn step or the side to move changes neither key.
        assert_eq!(base, at("chess", "4k3/pp2n3/8/8/8/P7/1P2N3/4K3 b - - 0 1"));
        // A white knight's step changes White's key alone.
        let moved = at("chess", "4k3/pp2n3/8/8/8/5N2/PP6/4K3 w - - 0 1");
        assert_ne!(moved[0], base[0]);
        assert_eq!(moved[1], base[1]);
        // So does a white piece of another type on the same square.
        let bishop = at("chess", "4k3/pp2n3/8/8/8/8/PP2B3/4K3 w - - 0 1");
        assert_ne!(bishop[0], base[0]);
        assert_eq!(bishop[1], base[1]);
        // A piece in hand counts (ArchMage's hand of dragons).
        let fen = |hand: &str| format!("{}[{hand}] w - - 0 1", archmage_board());
        let (none, one) = (at("archmage", &fen("")), at("archmage", &fen("D")));
        assert_ne!(none[0], one[0]);
        assert_eq!(none[1], one[1]);
    }

    /// ArchMage's start position's board field (its hand left out).
    fn archmage_board() -> String {
        let v = registry::get("archmage").unwrap();
        let start = Position::startpos(&v).fen();
        start[..start.find(['[', ' ']).unwrap()].to_string()
    }
}
