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

/// What a node's corrections are looked up by: its [`Position::pawn_key`] and
/// [`Position::piece_keys`], which `make_move` keeps up to date.
#[derive(Clone, Copy, Default)]
pub struct Keys {
    /// [`Position::pawn_key`].
    pub pawns: u64,
    /// [`Position::piece_keys`].
    pub pieces: [u64; 2],
}

impl Keys {
    /// The keys of `pos`.
    #[inline]
    pub fn of<W: Word>(pos: &Position<W>) -> Keys {
        Keys {
            pawns: pos.pawn_key(),
            pieces: pos.piece_keys(),
        }
    }
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
        let at = |fen: &str| Position::from_fen(&v, fen).unwrap().pawn_key();
        let base = at("4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1");
        // A king step leaves it; a pawn step or a pawn of the other colour changes it.
        assert_eq!(base, at("3k4/pp6/8/8/8/8/PP6/4K3 w - - 0 1"));
        assert_ne!(base, at("4k3/pp6/8/8/8/P7/1P6/4K3 w - - 0 1"));
        assert_ne!(base, at("4k3/PP6/8/8/8/8/pp6/4K3 w - - 0 1"));
        // No pawns is a structure too, not the pawn cache's mark of an empty entry.
        assert_ne!(at("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), 0);
    }

    #[test]
    fn each_colours_piece_key_follows_its_own_pieces_and_hand_only() {
        let at = |game: &str, fen: &str| {
            let v = registry::get(game).unwrap();
            Position::from_fen(&v, fen).unwrap().piece_keys()
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
