//! Threats by cheaper pieces, for quiet-move ordering: a piece standing where an enemy
//! piece worth clearly less attacks it should move first, and no quiet move should walk
//! into such an attack early (Stockfish's threatened-piece ordering, by value instead of
//! by the six chess types, so that it holds for every table).

use crate::core::geometry::{Bitboard, Word};
use crate::core::moves::{Move, MoveKind, Piece, MAX_PIECE_TYPES};
use crate::eval::Eval;
use crate::position::Position;

/// How far a quiet move moves in the order per centipawn of the piece it saves (or
/// risks): a queen's 950 gives 34,200, about two thirds of the histories' range, a
/// knight's a third of that, as in Stockfish's ordering.
const PER_CP: i32 = 36;
/// The largest such change.
const MAX_CHANGE: i32 = 40_000;

/// The squares the opponent's non-royal pieces attack, gathered by value: `tiers[k]`
/// holds the k-th smallest value among the attacking types and every square attacked
/// by a type of that value or less.
pub struct Threats<W: Word> {
    tiers: [(i32, Bitboard<W>); MAX_PIECE_TYPES],
    n: usize,
}

impl<W: Word> Threats<W> {
    /// The threats the side to move of `pos` faces.
    pub fn of(e: &Eval, pos: &Position<W>) -> Threats<W> {
        let v = pos.variant();
        let them = pos.side_to_move().flip();
        let occ = pos.occupied();
        let mut t = Threats {
            tiers: [(0, Bitboard::EMPTY); MAX_PIECE_TYPES],
            n: 0,
        };
        for ty in 0..v.pieces.len() {
            if v.royal_mask >> ty & 1 != 0 {
                continue;
            }
            let bb = pos.pieces(ty as _, them);
            if bb.is_empty() {
                continue;
            }
            let pa = &v.attacks[them.idx()][ty];
            let att = bb
                .iter()
                .fold(Bitboard::EMPTY, |a, sq| a | pa.threatens(&v.rays, sq, occ));
            t.add(e.value(ty as _), att);
        }
        // Each tier also holds the squares of every cheaper one.
        for k in 1..t.n {
            let below = t.tiers[k - 1].1;
            t.tiers[k].1 |= below;
        }
        t
    }

    /// Adds one type's attacks at its value, keeping the tiers sorted by value.
    fn add(&mut self, value: i32, att: Bitboard<W>) {
        if let Some(k) = self.tiers[..self.n].iter().position(|&(v, _)| v == value) {
            self.tiers[k].1 |= att;
            return;
        }
        let mut k = self.n;
        while k > 0 && self.tiers[k - 1].0 > value {
            self.tiers[k] = self.tiers[k - 1];
            k -= 1;
        }
        self.tiers[k] = (value, att);
        self.n += 1;
    }

    /// The squares attacked by enemy pieces worth clearly less than `value` (under seven
    /// eighths of it: a bishop is not threatened by a knight).
    #[inline]
    pub fn below(&self, value: i32) -> Bitboard<W> {
        let limit = value - value / 8;
        let mut out = Bitboard::EMPTY;
        for &(v, att) in &self.tiers[..self.n] {
            if v >= limit {
                break;
            }
            out = att;
        }
        out
    }

    /// The ordering change of the quiet move `m` of `pc`: up for a piece leaving a square
    /// a cheaper piece attacks for one none does, down for one stepping into such an
    /// attack; royals (whose moves are legal only where nothing attacks) keep 0.
    #[inline]
    pub fn order_change(&self, e: &Eval, pos: &Position<W>, pc: Piece, m: Move) -> i32 {
        if self.n == 0 || pos.variant().royal_mask >> pc.kind() & 1 != 0 {
            return 0;
        }
        let value = e.value(pc.kind());
        let danger = self.below(value);
        let change = (PER_CP * value).min(MAX_CHANGE);
        if danger.has(m.to()) {
            -change
        } else if m.kind() != MoveKind::Drop && danger.has(m.from()) {
            change
        } else {
            0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;
    use crate::search::ordering::moving_piece;

    /// A chess position, its evaluation and the threats White faces in it.
    fn setup(fen: &str) -> (Position, Eval, Threats<u128>) {
        let p = Position::from_fen(&registry::get("chess").unwrap(), fen).unwrap();
        let e = Eval::new(p.variant());
        let t = Threats::of(&e, &p);
        (p, e, t)
    }

    #[test]
    fn a_rook_a_knight_attacks_moves_first_and_nothing_walks_into_a_cheaper_attack() {
        // Black's knight on d5 attacks the rook on e3 (and c3, f4, ...): Re2 leaves for a
        // square no cheaper piece attacks and rises; Rc3 walks into the knight's attack
        // and falls. No black piece is cheaper than a knight, so Nf3 stays where its
        // history puts it, and the king is never moved in the order.
        let (p, e, t) = setup("k7/8/8/3n4/8/4R3/8/4K1N1 w - - 0 1");
        let change = |uci: &str| {
            let m = p.parse_move(uci).unwrap();
            t.order_change(&e, &p, moving_piece(&p, m), m)
        };
        let rook = (PER_CP * e.value(3)).min(MAX_CHANGE);
        assert_eq!(change("e3e2"), rook);
        assert_eq!(change("e3c3"), -rook);
        assert_eq!(change("g1f3"), 0);
        assert_eq!(change("e1d2"), 0);
    }

    #[test]
    fn a_knight_is_not_threatened_by_a_bishop_nor_a_queen_by_a_queen() {
        // The b5 bishop attacks the d3 knight, which is worth no more than it, and would
        // threaten a rook there; the a1 queen attacks the d1 queen, its equal.
        let (_, e, t) = setup("4k3/8/8/1b6/8/3N4/8/q2QK3 w - - 0 1");
        assert!(!t.below(e.value(1)).has(crate::Square(19)));
        assert!(t.below(e.value(3)).has(crate::Square(19)));
        assert!(!t.below(e.value(4)).has(crate::Square(3)));
    }
}
