//! Piece values, compiled once per variant and shared by the evaluation and the arena's
//! baselines: the table's `value` where given, else one derived from the piece's
//! mobility on sparsely filled boards.

use super::PieceDef;
use crate::core::geometry::{Bitboard, Board, Square, SQUARE_SLOTS};
use crate::movement::attacks::{PieceAttacks, Rays};

/// Material value of a pawn-rule piece without a `value`.
pub const DEFAULT_PAWN_VALUE: i32 = 100;

/// Sets every piece's value: the table's (`given`, per type), or derived
/// ([`derived_value`]); royals are worth 0. `attacks` are White's tables.
pub fn compile(
    (board, rays): (&Board, &Rays),
    pieces: &mut [PieceDef],
    given: &[Option<i32>],
    attacks: &[PieceAttacks],
) {
    // Sampled only when some value is left to derive: every start-up pays for it.
    let mut mob = None;
    for (t, def) in pieces.iter_mut().enumerate() {
        def.value = match given[t] {
            _ if def.royal => 0,
            Some(x) => x,
            None => {
                let mob = mob.get_or_insert_with(|| mobility_table(board, rays, attacks));
                derived_value((board, rays), def, &attacks[t], &mob[t])
            }
        };
    }
}

/// Deterministic sparse occupancies (about one square in three) to sample mobility on.
fn sample_occupancies(all: Bitboard) -> [Bitboard; 4] {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut out = [Bitboard::EMPTY; 4];
    for o in out.iter_mut() {
        let mut bb = Bitboard::EMPTY;
        for sq in all.iter() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            if seed.is_multiple_of(3) {
                bb.set(sq);
            }
        }
        *o = bb;
    }
    out
}

/// Mobility of each type on each square for White, averaged over sparse occupancies
/// (in quarters of a square, to stay in integers).
pub fn mobility_table(board: &Board, rays: &Rays, attacks: &[PieceAttacks]) -> Vec<Vec<i32>> {
    let all = board.all;
    let occs = sample_occupancies(all);
    attacks
        .iter()
        .map(|pa| {
            (0..SQUARE_SLOTS)
                .map(|s| {
                    let sq = Square(s as u8);
                    if !all.has(sq) {
                        return 0;
                    }
                    occs.iter()
                        .map(|&o| {
                            let o = o & !sq.bb();
                            let tg = pa.targets(rays, sq, o);
                            (tg.quiet | tg.capture).count() as i32
                        })
                        .sum::<i32>()
                })
                .collect()
        })
        .collect()
}

/// Fraction (per mille) of the board a piece can ever reach from a central square by
/// repeated moves on an empty board: a colour-bound piece reaches half.
fn reach_permille(bd: &Board, rays: &Rays, pa: &PieceAttacks) -> i32 {
    let Some(centre) = bd.square(bd.files as i32 / 2, bd.ranks as i32 / 2) else {
        return 1000;
    };
    let mut seen: Bitboard = centre.bb();
    let mut frontier = seen;
    while frontier.any() {
        let mut next = Bitboard::EMPTY;
        for sq in frontier.iter() {
            let tg = pa.targets(rays, sq, Bitboard::EMPTY);
            next |= tg.quiet;
        }
        frontier = next & !seen;
        seen |= next;
    }
    (seen.count() as i32 * 1000) / bd.squares() as i32
}

/// A value for a piece the table gives none: grows with its average mobility on a
/// sparsely filled board, shrunk for pieces bound to part of the board. Calibrated so
/// that FIDE pieces land near their customary values (N ~ 300, B ~ 300, R ~ 500,
/// Q ~ 1000). Royal pieces are worth 0, pawn-rule pieces [`DEFAULT_PAWN_VALUE`].
pub fn derived_value(
    (board, rays): (&Board, &Rays),
    def: &PieceDef,
    pa: &PieceAttacks,
    mob: &[i32],
) -> i32 {
    if def.royal {
        return 0;
    }
    if def.pawn {
        return DEFAULT_PAWN_VALUE;
    }
    let squares = board.squares() as f64;
    // Average squares reached (the table is in quarters).
    let m = mob.iter().sum::<i32>() as f64 / 4.0 / squares.max(1.0);
    let reach = reach_permille(board, rays, pa) as f64 / 1000.0;
    // Superlinear in mobility (a queen is worth more than a rook and a bishop together
    // by mobility alone), shrunk for pieces bound to part of the board.
    let base = 12.0 * m * m.sqrt() + 30.0 * m;
    (base * (0.6 + 0.4 * reach)).round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;
    use crate::variant::Variant;

    fn derived(v: &Variant, t: usize) -> i32 {
        let mob = mobility_table(&v.board, &v.rays, &v.attacks[0]);
        derived_value((&v.board, &v.rays), &v.pieces[t], &v.attacks[0][t], &mob[t])
    }

    #[test]
    fn derived_values_rank_the_fide_pieces_like_their_table_values() {
        let v = registry::get("chess").unwrap();
        let t = |c| v.type_of_letter(c).unwrap() as usize;
        let (n, b, r, q) = (
            derived(&v, t('N')),
            derived(&v, t('B')),
            derived(&v, t('R')),
            derived(&v, t('Q')),
        );
        assert!(n < r && b < r && r < q, "N {n} B {b} R {r} Q {q}");
        for (got, table) in [(n, 320), (b, 330), (r, 500), (q, 950)] {
            assert!(
                (got - table).abs() * 5 < table,
                "derived {got} vs table {table}"
            );
        }
        assert_eq!(derived(&v, t('K')), 0);
        assert_eq!(derived(&v, t('P')), DEFAULT_PAWN_VALUE);
    }
}
