//! Rays: per-square masks of one direction, cut to a range, and the bit tricks that find
//! the first and second blocker on one (square indices grow monotonically along a ray).

use crate::core::geometry::{Bitboard, Board, Square, Word, SQUARE_SLOTS};
use crate::movement::atoms::Offset;

/// Per-square masks of one direction, possibly range-limited.
#[derive(Clone)]
pub struct Ray {
    /// The step between consecutive squares.
    pub step: Offset,
    /// Maximum number of steps, 0 = unlimited.
    pub range: u8,
    /// True when square indices grow along the ray (the first blocker is the lowest bit).
    pub ascending: bool,
    /// The squares of the ray from each square, the start excluded.
    pub mask: Box<[Bitboard; SQUARE_SLOTS]>,
}

impl Ray {
    fn build(board: &Board, step: Offset, range: u8) -> Ray {
        let mut mask = Box::new([Bitboard::EMPTY; SQUARE_SLOTS]);
        for s in 0..board.squares() {
            let from = Square(s as u8);
            let mut n = 1i32;
            while range == 0 || n <= range as i32 {
                match board.offset(from, step.dx as i32 * n, step.dy as i32 * n) {
                    Some(t) => mask[s].set(t),
                    None => break,
                }
                n += 1;
            }
        }
        let ascending = step.dy as i32 * board.files as i32 + step.dx as i32 > 0;
        Ray {
            step,
            range,
            ascending,
            mask,
        }
    }

    /// The squares reached from `from` up to and including the first occupied one.
    #[inline(always)]
    pub fn attacks<W: Word>(&self, from: Square, occ: Bitboard<W>) -> Bitboard<W> {
        let ray = self.at::<W>(from);
        let blockers = (ray & occ).0;
        Bitboard(ray.0 & cut(blockers, self.ascending))
    }

    /// The ray's squares from `from` in the word `W`.
    #[inline(always)]
    pub fn at<W: Word>(&self, from: Square) -> Bitboard<W> {
        self.mask[from.idx()].narrow()
    }

    /// The first square of the ray from `from` (None where it leaves the board).
    #[inline(always)]
    pub fn next<W: Word>(&self, from: Square) -> Option<Square> {
        self.first_blocker(from, self.at::<W>(from))
    }

    /// The first occupied square along the ray, if any.
    #[inline(always)]
    pub fn first_blocker<W: Word>(&self, from: Square, occ: Bitboard<W>) -> Option<Square> {
        let b = self.at::<W>(from) & occ;
        if b.is_empty() {
            None
        } else if self.ascending {
            Some(b.lsb())
        } else {
            Some(b.msb())
        }
    }
}

/// A mask that keeps the squares of a ray up to and including its first blocker.
#[inline(always)]
pub(super) fn cut<W: Word>(blockers: W, ascending: bool) -> W {
    if ascending {
        // Bits up to and including the lowest blocker; all bits when there is none.
        blockers ^ blockers.wrapping_sub(W::ONE)
    } else {
        // Bits from the highest blocker up; `| 1` makes "no blocker" keep everything.
        W::MAX << (W::BITS - 1 - (blockers | W::ONE).leading_zeros())
    }
}

/// The blockers of a ray past its first one (the first is the lowest bit when the ray
/// ascends, the highest otherwise).
#[inline(always)]
fn past_first<W: Word>(blockers: W, ascending: bool) -> W {
    if ascending {
        blockers & blockers.wrapping_sub(W::ONE)
    } else if blockers == W::ZERO {
        W::ZERO
    } else {
        blockers ^ (W::ONE << (W::BITS - 1 - blockers.leading_zeros()))
    }
}

/// The second occupied square of a ray as a bit (none with fewer than two): what a
/// capture-only hop takes, the first being its screen.
#[inline(always)]
pub(super) fn second_blocker<W: Word>(blockers: W, ascending: bool) -> W {
    let r = past_first(blockers, ascending);
    if r == W::ZERO {
        W::ZERO
    } else if ascending {
        r & r.wrapping_neg()
    } else {
        W::ONE << (W::BITS - 1 - r.leading_zeros())
    }
}

/// The square of a ray (`mask`, from its start) just past its first occupied one, as a
/// bit (none without a blocker, or where the ray ends on it): where a grasshopper lands.
#[inline(always)]
pub(super) fn past_first_blocker<W: Word>(mask: W, occ: W, ascending: bool) -> W {
    let past = mask & !cut(mask & occ, ascending);
    if ascending {
        past & past.wrapping_neg()
    } else if past == W::ZERO {
        W::ZERO
    } else {
        W::ONE << (W::BITS - 1 - past.leading_zeros())
    }
}

/// The squares of a ray (`mask`, from its start) out to the second occupied one, that
/// one included; the whole ray when fewer than two stand on it.
#[inline(always)]
pub fn through_second<W: Word>(
    mask: Bitboard<W>,
    ascending: bool,
    occ: Bitboard<W>,
) -> Bitboard<W> {
    let rest = past_first((mask & occ).0, ascending);
    Bitboard(mask.0 & cut(rest, ascending))
}

/// Index of a [`Ray`] in [`Rays`].
pub type RayId = u16;

/// Every distinct ray a variant needs, built once.
#[derive(Clone, Default)]
pub struct Rays {
    rays: Vec<Ray>,
}

impl Rays {
    /// The id of the ray for `step` and `range`, building it on first use.
    pub fn id(&mut self, board: &Board, step: Offset, range: u8) -> RayId {
        if let Some(i) = self
            .rays
            .iter()
            .position(|r| r.step == step && r.range == range)
        {
            return i as RayId;
        }
        self.rays.push(Ray::build(board, step, range));
        (self.rays.len() - 1) as RayId
    }

    /// The ray with this id.
    #[inline(always)]
    pub fn get(&self, id: RayId) -> &Ray {
        &self.rays[id as usize]
    }
}
