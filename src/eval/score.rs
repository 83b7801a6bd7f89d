//! The search's sink for the evaluation walk: each reported feature times its weights,
//! summed per side and phase, then blended by the game phase.

use super::{Eval, Sink, SCALE_FULL};
use crate::core::geometry::{Square, Word};
use crate::position::Position;

/// The search's sink: adds each feature's weights as it is reported.
pub(super) struct Score<'a> {
    pub(super) e: &'a Eval,
    pub(super) mg: [i32; 2],
    pub(super) eg: [i32; 2],
    /// Per side: weighted attacks on its royal zone (quarters), and attacking pieces.
    pub(super) danger: [i32; 2],
    pub(super) attackers: [i32; 2],
}

impl<'a> Score<'a> {
    pub(super) fn new(e: &'a Eval) -> Score<'a> {
        Score {
            e,
            mg: [0; 2],
            eg: [0; 2],
            danger: [0; 2],
            attackers: [0; 2],
        }
    }
}

impl Sink for Score<'_> {
    #[inline(always)]
    fn wants_mobility(&self, t: usize) -> bool {
        self.e.mob[t].0 != 0 || self.e.mob[t].1 != 0 || self.e.low_mask >> t & 1 != 0
    }
    #[inline(always)]
    fn wants_all(&self) -> bool {
        false
    }
    #[inline(always)]
    fn piece(&mut self, c: usize, t: usize, sq: Square) {
        let (a, b) = self.e.piece_sq[t][c][sq.idx()];
        self.mg[c] += a;
        self.eg[c] += b;
    }
    #[inline(always)]
    fn passed(&mut self, c: usize, sq: Square) {
        let (a, b) = self.e.passed[c][sq.idx()];
        self.mg[c] += a;
        self.eg[c] += b;
    }
    #[inline(always)]
    fn mobility(&mut self, c: usize, t: usize, n: i32) {
        let (a, b, _) = self.e.mob[t];
        self.mg[c] += a * n;
        self.eg[c] += b * n;
    }
    #[inline(always)]
    fn hand(&mut self, c: usize, t: usize, n: i32) {
        let l = &self.e.weights.layout;
        self.mg[c] += n * self.e.weights.mg[l.hand(t)];
        self.eg[c] += n * self.e.weights.eg[l.hand(t)];
    }
    #[inline(always)]
    fn scalar(&mut self, c: usize, term: usize, n: i32) {
        let (a, b) = self.e.scalars[term];
        self.mg[c] += a * n;
        self.eg[c] += b * n;
    }
    #[inline(always)]
    fn zone_hits(&mut self, c: usize, t: usize, hits: i32) {
        self.attackers[c] += 1;
        self.danger[c] += hits * self.e.weights.royal_attack[t];
    }
    #[inline(always)]
    fn weak_zone(&mut self, c: usize, n: i32) {
        self.danger[c] += n * self.e.weights.royal_weak;
    }
    #[inline(always)]
    fn typed(&mut self, c: usize, f: usize, n: i32) {
        self.mg[c] += n * self.e.weights.mg[f];
        self.eg[c] += n * self.e.weights.eg[f];
    }
}

/// The middlegame and endgame sums of `s` for the side to move, weighed by `phase`
/// (phase, full phase), the endgame's scaled by `scales` for the side it favours.
#[inline]
pub(super) fn blend<W: Word>(
    pos: &Position<W>,
    s: &Score,
    (phase, full): (i32, i32),
    scales: [i32; 2],
) -> i32 {
    let us = pos.side_to_move().idx();
    let them = 1 - us;
    let mgs = s.mg[us] - s.mg[them];
    let egs = s.eg[us] - s.eg[them];
    let sf = scales[if egs > 0 { us } else { them }] as i64;
    // One division, so the trace's fractions are matched to within one unit.
    ((mgs as i64 * phase as i64 * SCALE_FULL as i64 + egs as i64 * sf * (full - phase) as i64)
        / (full as i64 * SCALE_FULL as i64)) as i32
}
