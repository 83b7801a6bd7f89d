//! Threats: pieces attacked by cheaper ones or left hanging, what pawn-rule pieces
//! attack or would attack after a safe step, and the squares the enemy reaches but does
//! not hold strongly.

use super::{weights, Eval, Sink};
use crate::core::geometry::{Bitboard, Word};
use crate::core::moves::{Color, PieceType, MAX_PIECE_TYPES};
use crate::position::Position;

impl Eval {
    /// Pieces attacked by a cheaper enemy piece (royals do not count as cheap
    /// attackers: they cannot take a defended piece), and pieces attacked and not
    /// defended.
    pub(super) fn threats<W: Word, S: Sink>(
        &self,
        pos: &Position<W>,
        att: &[[Bitboard<W>; MAX_PIECE_TYPES]; 2],
        sink: &mut S,
    ) {
        let n = self.values.len();
        let all = |c: usize| att[c][..n].iter().fold(Bitboard::EMPTY, |a, &b| a | b);
        let covered = [all(0), all(1)];
        for c in Color::BOTH {
            let ci = c.idx();
            let mut cheaper_hits = 0;
            let mut targets = Bitboard::EMPTY;
            // Types by rising value: what every cheaper type attacks accumulates as we go,
            // so each victim type is tested against one union (types of equal value do
            // not threaten each other).
            let mut cheaper = Bitboard::EMPTY;
            for &(i, j) in &self.value_runs {
                for &t in &self.by_value[i..j] {
                    let victims = pos.pieces(t as PieceType, c);
                    targets |= victims;
                    let hits = (victims & cheaper).count() as i32;
                    cheaper_hits += hits;
                    if hits > 0 && (self.threatened_mask >> t & 1 != 0 || sink.wants_all()) {
                        sink.typed(ci, self.weights.layout.threatened(t), hits);
                    }
                }
                for &t in &self.by_value[i..j] {
                    cheaper |= att[1 - ci][t];
                }
            }
            if cheaper_hits > 0 {
                sink.scalar(ci, weights::THREAT_CHEAPER, cheaper_hits);
            }
            let hanging = (targets & covered[1 - ci] & !covered[ci]).count() as i32;
            if hanging > 0 {
                sink.scalar(ci, weights::HANGING, hanging);
            }
        }
    }

    /// The enemy pieces (not pawn-rule, not royal) side `ci`'s pawn-rule pieces would
    /// attack after one step to the empty square ahead of them, where that square is
    /// safe: no enemy pawn-rule piece attacks it, and no enemy piece unless an own one
    /// guards it too (Stockfish's threat by pawn push, single steps only).
    pub(super) fn push_threats<W: Word>(
        &self,
        pos: &Position<W>,
        ci: usize,
        royal_sq: &[Bitboard<W>; 2],
        pawns: &[Bitboard<W>; 2],
        pawn_att: &[Bitboard<W>; 2],
        reach_all: &[Bitboard<W>; 2],
    ) -> i32 {
        let victims = Self::pawn_victims(pos, ci, royal_sq, pawns);
        if victims.is_empty() {
            return 0;
        }
        let occ = pos.occupied();
        let safe = !(occ | pawn_att[1 - ci] | (reach_all[1 - ci] & !reach_all[ci]));
        // Each pawn-rule piece's stop square is one rank ahead (`stop_square`): the whole
        // set steps at once, and only the steps that land safely are looked at.
        let ahead = if ci == 0 { 1 } else { -1 };
        let bd = &pos.variant().board;
        let mut n = 0;
        self.pawn_hits(
            pos,
            ci,
            victims,
            |bb| bd.shift(bb, 0, ahead) & safe,
            |hits| n += hits.count() as i32,
        );
        n
    }

    /// The enemy pieces (not pawn-rule, not royal) that side `ci`'s safe pawn-rule pieces
    /// attack, each once: a pawn-rule piece is safe where the enemy does not reach it or
    /// an own piece does (Stockfish's threat by safe pawn). A threat a recapture cannot
    /// answer is worth more than one the cheaper-attacker term counts alike.
    pub(super) fn safe_pawn_threats<W: Word>(
        &self,
        pos: &Position<W>,
        ci: usize,
        royal_sq: &[Bitboard<W>; 2],
        pawns: &[Bitboard<W>; 2],
        reach_all: &[Bitboard<W>; 2],
    ) -> i32 {
        let victims = Self::pawn_victims(pos, ci, royal_sq, pawns);
        if victims.is_empty() {
            return 0;
        }
        let safe = !reach_all[1 - ci] | reach_all[ci];
        let mut hit = Bitboard::EMPTY;
        self.pawn_hits(pos, ci, victims, |bb| bb & safe, |hits| hit |= hits);
        hit.count() as i32
    }

    /// What a pawn-rule piece may threaten: side `ci`'s enemy pieces that are neither
    /// pawn-rule nor royal.
    #[inline]
    fn pawn_victims<W: Word>(
        pos: &Position<W>,
        ci: usize,
        royal_sq: &[Bitboard<W>; 2],
        pawns: &[Bitboard<W>; 2],
    ) -> Bitboard<W> {
        pos.color_bb(Color::BOTH[1 - ci]) & !pawns[1 - ci] & !royal_sq[1 - ci]
    }

    /// For each pawn-rule type of side `ci`, on each square `from` picks out of its
    /// pieces' set, hands `each` the `victims` a piece of the type would capture there.
    #[inline]
    fn pawn_hits<W: Word>(
        &self,
        pos: &Position<W>,
        ci: usize,
        victims: Bitboard<W>,
        from: impl Fn(Bitboard<W>) -> Bitboard<W>,
        mut each: impl FnMut(Bitboard<W>),
    ) {
        let v = &**pos.variant();
        let occ = pos.occupied();
        let mut m = self.pawn_mask;
        while m != 0 {
            let t = m.trailing_zeros() as usize;
            m &= m - 1;
            for sq in from(pos.pieces(t as PieceType, Color::BOTH[ci])).iter() {
                each(v.attacks[ci][t].capture_targets(&v.rays, sq, occ) & victims);
            }
        }
    }
}

/// The squares side `ci` contests that the enemy reaches but does not hold strongly:
/// no enemy pawn-rule piece attacks them, and the enemy reaches them twice only where
/// side `ci` does too (Stockfish's restricted piece: the enemy cannot go there freely).
#[inline]
pub(super) fn restricted<W: Word>(
    ci: usize,
    pawn_att: &[Bitboard<W>; 2],
    reach_all: &[Bitboard<W>; 2],
    twice: &[Bitboard<W>; 2],
) -> i32 {
    let them = 1 - ci;
    let strong = pawn_att[them] | (twice[them] & !twice[ci]);
    (reach_all[them] & reach_all[ci] & !strong).count() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::assert_counts;
    use crate::registry;

    /// Stockfish's restricted piece: a square both sides reach counts for a side unless
    /// the enemy holds it strongly, by a pawn or by reaching it twice to its once.
    #[test]
    fn a_square_both_sides_reach_counts_unless_the_enemy_holds_it_strongly() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::RESTRICTED),
            &[
                (
                    "7k/4n3/8/8/3N4/8/8/K7 w - - 0 1",
                    0,
                    "both knights reach c6 and f5: each side counts both",
                ),
                (
                    "3n3k/4n3/8/8/3N4/8/8/K7 w - - 0 1",
                    -1,
                    "Black reaches c6 twice, White once: c6 counts for Black alone (and e6 \
                     for both)",
                ),
                (
                    "3n3k/4n3/8/8/3N4/8/8/K7 b - - 0 1",
                    1,
                    "the same, Black to move",
                ),
                (
                    "3n3k/4n3/8/8/1N1N4/8/8/K7 w - - 0 1",
                    0,
                    "Nb4 reaches c6 too: twice against twice holds nothing strongly, and \
                     d5 is contested",
                ),
                (
                    "7k/3pn3/8/8/3N4/8/8/K7 w - - 0 1",
                    -2,
                    "d7 attacks c6 and e6: White counts f5 alone, Black all three",
                ),
            ],
        );
    }

    /// Stockfish's threat by safe pawn: a pawn the enemy cannot take for free, attacking
    /// an enemy piece other than a pawn or the king; each victim once.
    #[test]
    fn a_safe_pawn_attacking_a_piece_is_a_threat() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::SAFE_PAWN_THREAT),
            &[
                (
                    "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1",
                    1,
                    "e4 attacks d5 and nothing of Black's reaches e4",
                ),
                (
                    "4k3/8/8/3n4/4P3/8/8/4K3 b - - 0 1",
                    -1,
                    "the same, Black to move",
                ),
                (
                    "4k3/8/8/3n4/4P2r/8/8/4K3 w - - 0 1",
                    0,
                    "Rh4 reaches e4 and no white piece does",
                ),
                ("4k3/8/8/3n4/4P2r/8/5N2/4K3 w - - 0 1", 1, "Nf2 guards e4"),
                (
                    "4k3/8/8/3n4/2P1P3/8/8/4K3 w - - 0 1",
                    1,
                    "c4 and e4 both attack d5: one victim",
                ),
                (
                    "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
                    0,
                    "a pawn is no victim",
                ),
            ],
        );
    }

    /// Stockfish's threat by pawn push: a pawn that can step to a safe square from
    /// where it attacks an enemy piece.
    #[test]
    fn a_safe_pawn_step_that_would_attack_a_piece_is_a_threat() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::PUSH_THREAT),
            &[
                (
                    "4k3/8/8/2n5/8/3P4/8/4K3 w - - 0 1",
                    1,
                    "d3-d4 would attack the knight on c5",
                ),
                (
                    "4k3/8/8/2n1p3/8/3P4/8/4K3 w - - 0 1",
                    0,
                    "the e5 pawn attacks d4",
                ),
                (
                    "3rk3/8/8/2n5/8/3P4/8/4K3 w - - 0 1",
                    0,
                    "the rook on d8 attacks d4 and nothing guards it",
                ),
                (
                    "3rk3/8/8/2n5/8/1N1P4/8/4K3 w - - 0 1",
                    1,
                    "the knight on b3 guards d4",
                ),
                ("4k3/8/8/2n5/3b4/3P4/8/4K3 w - - 0 1", 0, "d4 is taken"),
                (
                    "8/8/8/2k5/8/2PP4/8/4K3 w - - 0 1",
                    0,
                    "a royal is no victim",
                ),
                (
                    "4k3/8/3p4/8/2N5/8/8/4K3 w - - 0 1",
                    -1,
                    "Black's d6-d5 would attack the knight on c4",
                ),
            ],
        );
    }

    #[test]
    fn a_piece_attacked_by_a_cheaper_enemy_counts_for_its_own_type() {
        let v = registry::get("chess").unwrap();
        let knight = v.pieces.iter().position(|p| p.letter == 'N').unwrap();
        assert_counts(
            &v,
            |l| l.threatened(knight),
            &[
                (
                    "4k3/8/3p4/4N3/8/8/8/4K3 w - - 0 1",
                    1,
                    "d6 attacks the e5 knight",
                ),
                (
                    "4k3/8/3q4/4N3/8/8/8/4K3 w - - 0 1",
                    0,
                    "a queen is not cheaper",
                ),
                (
                    "4k3/8/3p4/4B3/8/8/8/4K3 w - - 0 1",
                    0,
                    "a bishop is another type",
                ),
                (
                    "4k3/8/8/4n3/3P4/8/8/4K3 w - - 0 1",
                    -1,
                    "Black's knight, by d4",
                ),
            ],
        );
    }
}
