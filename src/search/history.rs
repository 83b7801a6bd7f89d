//! Move-ordering memory of one search thread: butterfly history, counter moves and
//! continuation histories (what worked after the previous move and the one before it).
//!
//! Continuation entries are keyed by (piece type, destination) pairs, sized from the
//! variant (types × squares), so an 8x8 game with six types keeps a small table and
//! ArchMage's twenty types on 100 squares a larger one — never a fixed worst case.

use crate::core::moves::{Move, Piece};

/// A (piece type, destination) pair as an index, or [`NO_CONT`] for a null move / the root.
pub type ContIndex = u32;
/// No previous move to continue from.
pub const NO_CONT: ContIndex = u32::MAX;

/// Largest magnitude a history entry reaches (the update's gravity keeps it below this).
const LIMIT: i32 = 16_384;

/// Bonus for a move that caused a cut at `depth` (the malus is its negation): Stockfish
/// 11's curve scaled to this table, so a cut near the leaves still moves an entry.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (48 * depth * depth + 96 * depth - 96).clamp(16, 4_000)
}

/// Moves an entry towards `bonus` with gravity, so old news fades and entries stay bounded.
#[inline]
fn apply(h: &mut i16, bonus: i32) {
    let v = *h as i32;
    *h = (v + bonus - v * bonus.abs() / LIMIT) as i16;
}

/// One thread's histories.
pub struct Histories {
    butterfly: Box<[[i16; 128]; 64]>,
    /// `cont[prev * k + cur]`: how good `cur` was right after `prev`.
    cont: Vec<i16>,
    /// The refutation last seen for each previous (type, destination).
    counter: Vec<Move>,
    squares: u32,
    k: usize,
}

impl Histories {
    /// Empty histories for a game of `types` piece types on `squares` squares.
    pub fn new(types: usize, squares: usize) -> Histories {
        let k = types.max(1) * squares.max(1);
        Histories {
            butterfly: Box::new([[0; 128]; 64]),
            // Zeroed allocation: large tables come from fresh zero pages, so a game with
            // many types pays only for the entries its search touches.
            cont: vec![0; k * k],
            counter: vec![Move::NULL; k],
            squares: squares as u32,
            k,
        }
    }

    /// Forgets everything, keeping the tables' memory (a new game).
    pub fn reset(&mut self) {
        self.butterfly.iter_mut().for_each(|r| r.fill(0));
        self.cont.fill(0);
        self.counter.fill(Move::NULL);
    }

    /// The continuation index of piece type `t` arriving on `to`.
    #[inline]
    pub fn index(&self, piece: Piece, to: usize) -> ContIndex {
        piece.kind() as u32 * self.squares + to as u32
    }

    /// Ordering score of a quiet move of `piece` to `to`, after the moves indexed
    /// `prev` (the opponent's last, then our own before it).
    #[inline]
    pub fn quiet_score(&self, piece: Piece, to: usize, prev: [ContIndex; 2]) -> i32 {
        let ci = self.index(piece, to);
        let mut s = self.butterfly[piece.idx()][to] as i32;
        for p in prev {
            if p != NO_CONT {
                s += self.cont[p as usize * self.k + ci as usize] as i32;
            }
        }
        s
    }

    /// The counter move stored for the previous move, if any.
    #[inline]
    pub fn counter(&self, prev: ContIndex) -> Move {
        if prev == NO_CONT {
            Move::NULL
        } else {
            self.counter[prev as usize]
        }
    }

    /// Records that `m` refuted the previous move.
    #[inline]
    pub fn set_counter(&mut self, prev: ContIndex, m: Move) {
        if prev != NO_CONT {
            self.counter[prev as usize] = m;
        }
    }

    /// Rewards (`bonus > 0`) or punishes a quiet move in every table.
    #[inline]
    pub fn update(&mut self, piece: Piece, to: usize, prev: [ContIndex; 2], b: i32) {
        let ci = self.index(piece, to);
        apply(&mut self.butterfly[piece.idx()][to], b);
        for p in prev {
            if p != NO_CONT {
                apply(&mut self.cont[p as usize * self.k + ci as usize], b);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::moves::Color;

    #[test]
    fn a_move_that_keeps_cutting_after_the_same_reply_rises_and_stays_bounded() {
        let mut h = Histories::new(6, 64);
        let knight = Piece::new(1, Color::White);
        let prev = [h.index(Piece::new(0, Color::Black), 36), NO_CONT];
        for _ in 0..1_000 {
            h.update(knight, 21, prev, bonus(12));
        }
        let s = h.quiet_score(knight, 21, prev);
        assert!(s > 20_000 && s <= 2 * LIMIT, "{s}");
        // After another reply only the butterfly entry speaks for it.
        let other = [h.index(Piece::new(0, Color::Black), 37), NO_CONT];
        assert!(h.quiet_score(knight, 21, other) <= LIMIT);
    }

    #[test]
    fn a_counter_move_is_kept_per_previous_move() {
        let mut h = Histories::new(6, 64);
        let p = h.index(Piece::new(4, Color::Black), 60);
        assert_eq!(h.counter(p), Move::NULL);
        let m = Move(12345);
        h.set_counter(p, m);
        assert_eq!(h.counter(p), m);
        assert_eq!(h.counter(NO_CONT), Move::NULL);
    }
}
