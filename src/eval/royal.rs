//! Royal safety's safe checks: the squares from which a piece would check the enemy
//! royal, that it can move to and the enemy does not guard.

use super::{reach, Eval, Sink};
use crate::core::geometry::{Bitboard, Word};
use crate::core::moves::{Color, MAX_PIECE_TYPES};
use crate::position::Position;

impl Eval {
    /// Per attacking type in `types`: the squares from which one of its pieces would check
    /// the enemy royal, that one of them can move to, and that no enemy piece guards.
    // Found from the royal's square with the defender's own move tables: the defender's
    // moves are the attacker's turned half round, so a piece of the royal's colour there
    // reaches what attacks it exactly for pieces that move as they capture (most),
    // roughly for the others.
    pub(super) fn safe_checks<W: Word, S: Sink>(
        &self,
        pos: &Position<W>,
        types: u32,
        royal_sq: &[Bitboard<W>; 2],
        reach_type: &[[Bitboard<W>; MAX_PIECE_TYPES]; 2],
        reach_all: &[Bitboard<W>; 2],
        sink: &mut S,
    ) {
        let v = &**pos.variant();
        let occ = pos.occupied();
        for (a, c) in Color::BOTH.into_iter().enumerate() {
            let d = 1 - a;
            let Some(k) = royal_sq[d].iter().next() else {
                continue;
            };
            let free = !pos.color_bb(c) & !reach_all[d];
            // What the parts of unions reach from the royal's square, as found.
            let mut reached = [Bitboard::EMPTY; MAX_PIECE_TYPES];
            let mut done = 0u32;
            let mut m = types;
            while m != 0 {
                let t = m.trailing_zeros() as usize;
                m &= m - 1;
                let from = reach_type[a][t] & free;
                if from.is_empty() {
                    continue;
                }
                let checks = match self.unions[t] {
                    Some((x, y)) => {
                        let (x, y) = (x as usize, y as usize);
                        let rx = if done >> x & 1 != 0 {
                            reached[x]
                        } else {
                            reach(v, d, x, k, occ)
                        };
                        let ry = if done >> y & 1 != 0 {
                            reached[y]
                        } else {
                            reach(v, d, y, k, occ)
                        };
                        rx | ry
                    }
                    None => {
                        let r = reach(v, d, t, k, occ);
                        if self.parts >> t & 1 != 0 {
                            reached[t] = r;
                            done |= 1 << t;
                        }
                        r
                    }
                };
                let n = (checks & from).count();
                if n > 0 {
                    sink.typed(a, self.weights.layout.royal_check(t), n.min(3) as i32);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::setup::unions;
    use crate::eval::tests::assert_counts;
    use crate::registry;

    /// Capablanca's compounds: the Archbishop moves as a Bishop or a Knight (`BN`), the
    /// Chancellor as a Rook or a Knight (`RN`), the Queen as a Rook or a Bishop.
    #[test]
    fn a_compound_is_known_as_the_union_of_its_parts() {
        let v = registry::get("capablanca").unwrap();
        let t = |c: char| v.pieces.iter().position(|p| p.letter == c).unwrap() as u8;
        let u = unions(&v);
        let parts = |c: char| u[t(c) as usize].map(|(x, y)| (x.min(y), x.max(y)));
        let pair = |a: char, b: char| Some((t(a).min(t(b)), t(a).max(t(b))));
        assert_eq!(parts('Q'), pair('B', 'R'));
        assert_eq!(parts('A'), pair('B', 'N'));
        assert_eq!(parts('C'), pair('R', 'N'));
        for c in ['P', 'N', 'B', 'R', 'K'] {
            assert_eq!(parts(c), None, "{c}");
        }
    }

    /// The safe checks of a compound, found from what its parts reach, are those it finds
    /// itself: the evaluation is the same with and without the unions, along seeded games
    /// of every built-in game.
    #[test]
    fn safe_checks_through_the_parts_are_the_compounds_own() {
        let start = |v: &_| {
            let e = Eval::new(v);
            let mut plain = Eval::new(v);
            plain.unions = [None; MAX_PIECE_TYPES];
            (e, plain)
        };
        let mut with_unions = 0;
        crate::testing::seeded_games(
            100,
            0x51_7CC1_B727_220A,
            start,
            |(e, plain), name, ply, p| {
                assert_eq!(
                    e.evaluate(p),
                    plain.evaluate(p),
                    "{name}, ply {ply}: {}",
                    p.fen()
                );
                with_unions += (e.unions != plain.unions) as usize;
            },
        );
        // Most games have a compound (the check above is not empty).
        assert!(with_unions > 500, "{with_unions}");
    }

    #[test]
    fn a_safe_checking_square_a_piece_can_reach_counts_for_its_type() {
        let v = registry::get("chess").unwrap();
        let queen = v.pieces.iter().position(|p| p.letter == 'Q').unwrap();
        assert_counts(
            &v,
            |l| l.royal_check(queen),
            &[
                (
                    "6k1/5ppp/8/8/8/8/8/3QK3 w - - 0 1",
                    1,
                    "Qd1-d8 mates on the back rank",
                ),
                (
                    "r5k1/5ppp/8/8/8/8/8/3QK3 w - - 0 1",
                    0,
                    "the a8 rook guards d8",
                ),
                (
                    "6k1/5ppp/8/8/8/8/5PPP/3qK3 w - - 0 1",
                    0,
                    "a piece checks its own king never",
                ),
                ("3qk3/8/8/8/8/8/5PPP/6K1 w - - 0 1", -1, "Black's Qd8-d1"),
            ],
        );
    }
}
