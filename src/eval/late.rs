//! The late terms, walked out of line after the main walk and only when a table
//! weighs one of them: royal threat, reachable outposts, queen threat and the x-ray on
//! the royal zone.

use super::{reach, weights, Eval, Sink};
use crate::core::geometry::{Bitboard, Square, Word};
use crate::core::moves::{Color, PieceType, MAX_PIECE_TYPES};
use crate::position::Position;

impl Eval {
    /// The terms added last, each walked on its own and only when counted: royal threat,
    /// reachable outposts, queen threat, x-ray on the royal zone. Out of the walk's
    /// body: inside it, even gated off, they cost the chess bench 4–21M instructions, as
    /// the larger body was laid out worse.
    #[inline(never)]
    pub(super) fn late_terms<W: Word, S: Sink>(
        &self,
        pos: &Position<W>,
        w: &Walked<W>,
        sink: &mut S,
    ) {
        if self.counts(weights::ROYAL_THREAT, sink) {
            self.royal_threats(pos, w.royal_sq, w.pawn_att, w.twice, sink);
        }
        for ci in 0..2 {
            if self.counts(weights::REACHABLE_OUTPOST, sink) {
                self.reachable_outposts(pos, ci, w.outposts[ci], sink);
            }
            if self.counts(weights::QUEEN_THREAT, sink) {
                self.queen_threats(pos, ci, w, sink);
            }
            if self.counts(weights::ZONE_XRAY, sink) {
                self.zone_xrays(pos, ci, w.zones[1 - ci], w.pawns, sink);
            }
        }
    }

    /// Side `ci`'s riders that do not reach the enemy royal's zone but would through
    /// every piece but the pawn-rule ones (Stockfish's rook and bishop on king ring: a
    /// line that opens when a piece moves off it).
    fn zone_xrays<W: Word, S: Sink>(
        &self,
        pos: &Position<W>,
        ci: usize,
        zone: Bitboard<W>,
        pawns: &[Bitboard<W>; 2],
        sink: &mut S,
    ) {
        if zone.is_empty() {
            return;
        }
        let v = &**pos.variant();
        let occ = pos.occupied();
        let through = pawns[0] | pawns[1];
        let n = count_pieces(pos, ci, self.rider_mask, |t, sq| {
            (reach(v, ci, t, sq, through) & zone).any()
                && (reach(v, ci, t, sq, occ) & zone).is_empty()
        });
        if n > 0 {
            sink.scalar(ci, weights::ZONE_XRAY, n);
        }
    }

    /// Side `ci`'s light pieces that stand off an outpost but reach an outpost square no
    /// own piece stands on (Stockfish's reachable outpost: a square it can settle on next
    /// move).
    fn reachable_outposts<W: Word, S: Sink>(
        &self,
        pos: &Position<W>,
        ci: usize,
        outposts: Bitboard<W>,
        sink: &mut S,
    ) {
        let c = Color::BOTH[ci];
        let free = outposts & !pos.color_bb(c);
        if free.is_empty() {
            return;
        }
        let v = &**pos.variant();
        let occ = pos.occupied();
        let n = count_pieces(pos, ci, self.light_mask, |t, sq| {
            !outposts.has(sq) && (reach(v, ci, t, sq, occ) & free).any()
        });
        if n > 0 {
            sink.scalar(ci, weights::REACHABLE_OUTPOST, n);
        }
    }

    /// Side `ci`'s safe squares from which a cheaper piece of its own could attack, next
    /// move, the enemy's most valuable piece when that piece is alone of its type (a
    /// queen in chess; Stockfish's knight and slider on queen). Safe: no own piece stands
    /// there, the enemy does not hold it strongly (see
    /// [`super::threats::restricted`]), and the target itself cannot take there unless a
    /// second own piece reaches it.
    fn queen_threats<W: Word, S: Sink>(
        &self,
        pos: &Position<W>,
        ci: usize,
        w: &Walked<W>,
        sink: &mut S,
    ) {
        let (pawn_att, twice) = (w.pawn_att, w.twice);
        let v = &**pos.variant();
        let occ = pos.occupied();
        let (c, d) = (Color::BOTH[ci], 1 - ci);
        let plain = !(self.pawn_mask | self.royal_mask);
        let Some(&top) =
            self.by_value.iter().rev().find(|&&t| {
                plain >> t & 1 != 0 && pos.pieces(t as PieceType, Color::BOTH[d]).any()
            })
        else {
            return;
        };
        let target = pos.pieces(top as PieceType, Color::BOTH[d]);
        if target.count() != 1 {
            return;
        }
        let q = target.lsb();
        let strong = pawn_att[d] | (twice[d] & !twice[ci]);
        let exposed = reach(v, d, top, q, occ) & !twice[ci];
        let safe = !pos.color_bb(c) & !strong & !exposed;
        let mut n = 0;
        for t in 0..self.values.len() {
            if plain >> t & 1 == 0 || self.values[t] >= self.values[top] {
                continue;
            }
            let bb = pos.pieces(t as PieceType, c);
            if bb.is_empty() {
                continue;
            }
            // Where a piece of type `t` would attack `q` from: what the target's side
            // would reach from `q` as that type (exact for pieces that capture as they
            // move and alike to the left and right, as in [`Eval::safe_checks`]).
            let from = reach(v, d, t, q, occ) & safe;
            if from.is_empty() {
                continue;
            }
            let moves = if w.types >> t & 1 != 0 {
                w.by_type[ci][t]
            } else {
                bb.iter()
                    .fold(Bitboard::EMPTY, |b, sq| b | reach(v, ci, t, sq, occ))
            };
            n += (moves & from).count() as i32;
        }
        if n > 0 {
            sink.scalar(ci, weights::QUEEN_THREAT, n);
        }
    }

    /// Per side, the enemy pieces its royals attack that the enemy holds only weakly: no
    /// enemy pawn-rule piece guards them, and they are not reached twice by the enemy
    /// where the royal's side reaches them once (Stockfish's threat by king: a piece the
    /// royal may simply take).
    fn royal_threats<W: Word, S: Sink>(
        &self,
        pos: &Position<W>,
        royal_sq: &[Bitboard<W>; 2],
        pawn_att: &[Bitboard<W>; 2],
        twice: &[Bitboard<W>; 2],
        sink: &mut S,
    ) {
        let v = &**pos.variant();
        let occ = pos.occupied();
        let royals = royal_sq[0] | royal_sq[1];
        for ci in 0..2 {
            let strong = pawn_att[1 - ci] | (twice[1 - ci] & !twice[ci]);
            let victims = pos.color_bb(Color::BOTH[1 - ci]) & !royals & !strong;
            let hit = royal_sq[ci].iter().fold(Bitboard::EMPTY, |b, k| {
                b | reach(v, ci, pos.piece_on(k).kind() as usize, k, occ)
            });
            let n = (hit & victims).count() as i32;
            if n > 0 {
                sink.scalar(ci, weights::ROYAL_THREAT, n);
            }
        }
    }
}

/// What the walk has found, per side, that [`Eval::late_terms`] reads again.
pub(super) struct Walked<'a, W: Word> {
    /// The royals' squares.
    pub(super) royal_sq: &'a [Bitboard<W>; 2],
    /// The royals' zones.
    pub(super) zones: &'a [Bitboard<W>; 2],
    /// The pawn-rule pieces.
    pub(super) pawns: &'a [Bitboard<W>; 2],
    /// What the pawn-rule pieces attack.
    pub(super) pawn_att: &'a [Bitboard<W>; 2],
    /// The outposts.
    pub(super) outposts: &'a [Bitboard<W>; 2],
    /// The squares two pieces reach.
    pub(super) twice: &'a [Bitboard<W>; 2],
    /// The types whose `by_type` entry is filled (the safe checks' types).
    pub(super) types: u32,
    /// Per type, every square its pieces reach.
    pub(super) by_type: &'a [[Bitboard<W>; MAX_PIECE_TYPES]; 2],
}

/// Side `ci`'s pieces of the types in `mask` for which `test(type, square)` holds.
#[inline]
fn count_pieces<W: Word>(
    pos: &Position<W>,
    ci: usize,
    mask: u32,
    mut test: impl FnMut(usize, Square) -> bool,
) -> i32 {
    let c = Color::BOTH[ci];
    let mut n = 0;
    let mut m = mask;
    while m != 0 {
        let t = m.trailing_zeros() as usize;
        m &= m - 1;
        n += pos
            .pieces(t as PieceType, c)
            .iter()
            .filter(|&sq| test(t, sq))
            .count() as i32;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::assert_counts;
    use crate::registry;

    /// Stockfish's threat by king: an enemy piece the royal attacks that no pawn guards
    /// and that the enemy does not reach twice where the royal's side reaches it once.
    #[test]
    fn a_royal_attacking_a_weakly_held_piece_is_a_royal_threat() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::ROYAL_THREAT),
            &[
                (
                    "4k3/8/8/8/8/8/3n4/4K3 w - - 0 1",
                    1,
                    "e1 attacks the knight on d2 and nothing guards it",
                ),
                (
                    "4k3/8/8/8/8/8/3n4/4K3 b - - 0 1",
                    -1,
                    "the same, Black to move",
                ),
                (
                    "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1",
                    1,
                    "a pawn is a victim too",
                ),
                (
                    "4k3/8/8/8/8/2p5/3n4/4K3 w - - 0 1",
                    0,
                    "the pawn on c3 guards d2",
                ),
                (
                    "3rk3/8/8/8/8/8/3n4/4K3 w - - 0 1",
                    1,
                    "one guard (the rook) against one attacker does not hold it strongly",
                ),
                (
                    "3rk3/8/8/b7/8/8/3n4/4K3 w - - 0 1",
                    0,
                    "rook and bishop reach d2 twice where only the royal does once",
                ),
            ],
        );
    }

    /// Stockfish's reachable outpost: a light piece off an outpost that reaches an
    /// outpost square no own piece holds.
    #[test]
    fn a_light_piece_that_reaches_an_empty_outpost_counts_once() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::REACHABLE_OUTPOST),
            &[
                (
                    "4k3/8/8/8/4P3/2N5/8/4K3 w - - 0 1",
                    1,
                    "the knight on c3 reaches d5, guarded by e4 and out of every black pawn's reach",
                ),
                (
                    "4k3/8/8/8/4P3/2N5/8/4K3 b - - 0 1",
                    -1,
                    "the same, Black to move",
                ),
                (
                    "4k3/2p5/8/8/4P3/2N5/8/4K3 w - - 0 1",
                    0,
                    "the pawn on c7 can still take on d5: no outpost",
                ),
                (
                    "4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1",
                    0,
                    "a knight already on its outpost does not count",
                ),
                (
                    "4k3/8/8/3B4/4P3/2N5/8/4K3 w - - 0 1",
                    0,
                    "d5 holds an own piece, and f5 is out of the knight's reach",
                ),
            ],
        );
    }

    /// Stockfish's knight and slider on queen: a safe square from which a cheaper piece
    /// could attack the enemy's lone most valuable piece next move.
    #[test]
    fn a_safe_square_to_attack_the_lone_queen_from_counts() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::QUEEN_THREAT),
            &[
                (
                    "4k3/8/8/8/3q4/8/8/N3K3 w - - 0 1",
                    2,
                    "the knight on a1 reaches b3 and c2, both a knight's leap from d4",
                ),
                (
                    "4k3/8/8/8/3q4/8/8/N3K3 b - - 0 1",
                    -2,
                    "the same, Black to move",
                ),
                (
                    "4k3/8/8/8/p2q4/8/8/N3K3 w - - 0 1",
                    1,
                    "the pawn on a4 guards b3",
                ),
                (
                    "3qk3/8/8/8/3q4/8/8/N3K3 w - - 0 1",
                    0,
                    "two queens: the target is not alone of its type",
                ),
                (
                    "4k3/8/8/8/3q4/8/8/4K2R w - - 0 1",
                    0,
                    "the rook's h4 is open to the queen and nothing else guards it",
                ),
                (
                    "4k3/8/8/8/3q4/8/5B2/4K2R w - - 0 1",
                    1,
                    "the bishop on f2 guards h4; its own e3 is open to the queen",
                ),
            ],
        );
    }

    /// Stockfish's rook and bishop on king ring: a rider whose line to the royal's zone
    /// only pieces other than pawns block.
    #[test]
    fn a_rider_that_reaches_the_royal_zone_through_pieces_is_an_x_ray() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::ZONE_XRAY),
            &[
                (
                    "6k1/5ppp/8/8/3n4/8/1B6/6K1 w - - 0 1",
                    1,
                    "the bishop on b2 sees g7 through the knight on d4",
                ),
                (
                    "6k1/5ppp/8/8/3n4/8/1B6/6K1 b - - 0 1",
                    -1,
                    "the same, Black to move",
                ),
                (
                    "6k1/5ppp/8/8/3p4/8/1B6/6K1 w - - 0 1",
                    0,
                    "a pawn on d4 closes the line",
                ),
                (
                    "6k1/5ppp/8/8/8/8/1B6/6K1 w - - 0 1",
                    0,
                    "the bishop already reaches g7",
                ),
                (
                    "6k1/5ppp/8/8/8/5N2/8/5RK1 w - - 0 1",
                    1,
                    "the rook on f1 sees f7 through its own knight",
                ),
            ],
        );
    }
}
