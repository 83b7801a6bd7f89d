//! The move picker: ordering keys, the selection step that takes the best move left,
//! and the dropping of quiet moves a node has ruled out.
//!
//! A capture whose attacker is worth more than its victim is scored as a good capture
//! on trust and marked; its exchange is played out only when the picker reaches it
//! (and it then falls among the losing captures if it loses). Most nodes cut on their
//! first moves, so most of those exchanges were never needed; the order is the one
//! scoring every exchange up front would give, since a mark only ever stands for a
//! score at least as high as the true one (Stockfish tests its captures' exchanges in
//! the picker for the same reason).

use super::ordering::{is_tactical, losing};
use crate::core::geometry::Word;
use crate::core::moves::{Move, MoveList};
use crate::eval::Eval;
use crate::movegen::check_squares::CheckSquares;
use crate::position::Position;

/// The mark of a key whose good-capture score awaits its exchange.
const UNSURE: i64 = 1;
/// The low bits: the place (bits 1–15) and the mark (bit 0).
const LOW: i64 = 0xFFFF;
/// The largest place a key holds.
const PLACES: usize = 0x7FFF;

/// A move's ordering key: its score in the high bits, then how near the list's start
/// it stands (`PLACES - index`), so that the largest key is the first of the highest
/// scores and one branchless maximum finds it; the lowest bit marks a capture scored
/// on trust (places are unique, so it never decides between two keys).
#[inline(always)]
pub(super) fn order_key(score: i32, at: usize, unsure: bool) -> i64 {
    (score as i64) << 16 | ((PLACES - at) as i64) << 1 | unsure as i64
}

/// The index a key's move stands at.
#[inline(always)]
fn place(key: i64) -> usize {
    PLACES - ((key & LOW) >> 1) as usize
}

/// `key` for its move standing at `at`, score and mark kept.
#[inline(always)]
fn moved(key: i64, at: usize) -> i64 {
    key & !(LOW ^ UNSURE) | ((PLACES - at) as i64) << 1
}

/// Selection sort step: brings the first of the best-scored moves from `i` on to `i`
/// (`keys` holds their [`order_key`]s) and returns it with its score. A marked capture
/// that comes up is first asked of `holds` (does it keep its material by exchange?) and
/// goes down to the losing captures if not.
#[inline]
pub(super) fn pick(
    moves: &mut MoveList,
    keys: &mut [i64],
    i: usize,
    mut holds: impl FnMut(Move) -> bool,
) -> (Move, i32) {
    let n = moves.len();
    let (best, bi) = loop {
        // A maximum the compiler vectorizes: with 60-odd moves a node on a 10x10 board
        // a scan keeping an index was a fifth of the search's time, and a second pass
        // finding the maximum's index mispredicted its exit at every pick.
        let best = keys[i..n]
            .iter()
            .copied()
            .max()
            .unwrap_or(order_key(0, i, false));
        let bi = place(best);
        if best & UNSURE == 0 {
            break (best, bi);
        }
        if holds(moves.as_slice()[bi]) {
            break (best & !UNSURE, bi);
        }
        keys[bi] = order_key(losing((best >> 16) as i32), bi, false);
    };
    moves.as_mut_slice().swap(i, bi);
    // The keys follow their moves, each with its new place.
    keys[bi] = moved(keys[i], bi);
    keys[i] = moved(best, i);
    (moves.as_slice()[i], (best >> 16) as i32)
}

/// Drops the quiet moves that cannot check (`checks` tells) from the moves at `range`
/// of `moves`, whose ordering keys are `keys`, keeping the order of the rest; returns
/// where the list now ends.
// Each key carries its move's place in its low bits for the picker's ties, so the
// survivors take their new places in their old order. Those ties then fall as they
// would not have with the dropped moves still swapped about by the picker: the same
// moves are searched, but equal scores may come in another order.
pub(super) fn drop_quiet_non_checks<W: Word>(
    e: &Eval,
    pos: &Position<W>,
    checks: &CheckSquares<W>,
    moves: &mut MoveList,
    keys: &mut [i64],
    range: std::ops::Range<usize>,
) -> usize {
    let mut kept = range.start;
    let list = moves.as_mut_slice();
    for j in range {
        let m = list[j];
        if is_tactical(e, pos, m) || checks.may_give_check(pos, m) {
            list[kept] = m;
            keys[kept] = moved(keys[j], kept);
            kept += 1;
        }
    }
    moves.truncate(kept);
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::ordering::{see_ge, tactical_order, tactical_score};

    /// The picker's order with captures scored on trust is the order of every move
    /// scored in full, along seeded games of every built-in game: the exchanges put
    /// off change which are played out, never which move comes next.
    #[test]
    fn captures_scored_on_trust_come_in_the_order_of_full_scores() {
        let mut trusted = 0;
        crate::testing::seeded_games(60, 0x5EE_1A2E_0C0E_7001, Eval::new, |e, name, ply, p| {
            let mut full = MoveList::new();
            p.legal_moves(&mut full);
            let mut lazy = MoveList::new();
            for &m in full.iter() {
                lazy.push(m);
            }
            let n = full.len();
            let (mut kf, mut kl) = (vec![0i64; n], vec![0i64; n]);
            for (i, &m) in full.iter().enumerate() {
                // Quiet moves all alike, so that the places break the ties.
                kf[i] = order_key(tactical_score(e, p, m).unwrap_or(0), i, false);
                kl[i] = match tactical_order(e, p, m) {
                    Some((s, unsure)) => {
                        trusted += unsure as usize;
                        order_key(s, i, unsure)
                    }
                    None => order_key(0, i, false),
                };
            }
            for i in 0..n {
                let a = pick(&mut full, &mut kf, i, |_| panic!("no key is marked"));
                let b = pick(&mut lazy, &mut kl, i, |m| see_ge(e, p, m, 0));
                assert_eq!(a, b, "{name}, ply {ply}, pick {i}: {}", p.fen());
            }
        });
        assert!(trusted > 1000, "{trusted}");
    }
}
