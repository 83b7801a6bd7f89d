//! The machine word a bitboard is made of.
//!
//! Boards of up to 64 squares (8x8, 9x7, 6x6, ...) fit in a `u64`, whose popcount,
//! bit scans and shifts are single instructions; larger boards need a
//! `u128`, where each of those is two or three. Position, move generation, evaluation,
//! perft and search are written once over [`Word`] and compiled for both, so an 8x8 game
//! never pays for the 10x10 layout. Squares are numbered the same way at both widths
//! (`rank * files + file`), so a board's bits are the same numbers in either word.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// An unsigned integer used as a set of squares: `u64` or `u128`.
pub trait Word:
    Copy
    + Eq
    + Ord
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// Number of bits, i.e. of square slots.
    const BITS: u32;
    /// No bit set.
    const ZERO: Self;
    /// Only bit 0 set.
    const ONE: Self;
    /// Every bit set.
    const MAX: Self;
    /// Number of set bits.
    fn count_ones(self) -> u32;
    /// Index of the lowest set bit (`BITS` for zero).
    fn trailing_zeros(self) -> u32;
    /// Number of zero bits above the highest set bit (`BITS` for zero).
    fn leading_zeros(self) -> u32;
    /// Subtraction modulo 2^BITS.
    fn wrapping_sub(self, o: Self) -> Self;
    /// Two's-complement negation modulo 2^BITS.
    fn wrapping_neg(self) -> Self;
    /// Left shift, None when `n >= BITS`.
    fn checked_shl(self, n: u32) -> Option<Self>;
    /// Right shift, None when `n >= BITS`.
    fn checked_shr(self, n: u32) -> Option<Self>;
    /// The low `BITS` bits of a `u128` (every square of a board this word can hold).
    fn from_u128(x: u128) -> Self;
    /// The word widened to a `u128`.
    fn to_u128(self) -> u128;
}

macro_rules! word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            const BITS: u32 = <$t>::BITS;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const MAX: Self = <$t>::MAX;
            #[inline(always)]
            fn count_ones(self) -> u32 { <$t>::count_ones(self) }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 { <$t>::trailing_zeros(self) }
            #[inline(always)]
            fn leading_zeros(self) -> u32 { <$t>::leading_zeros(self) }
            #[inline(always)]
            fn wrapping_sub(self, o: Self) -> Self { <$t>::wrapping_sub(self, o) }
            #[inline(always)]
            fn wrapping_neg(self) -> Self { <$t>::wrapping_neg(self) }
            #[inline(always)]
            fn checked_shl(self, n: u32) -> Option<Self> { <$t>::checked_shl(self, n) }
            #[inline(always)]
            fn checked_shr(self, n: u32) -> Option<Self> { <$t>::checked_shr(self, n) }
            #[inline(always)]
            fn from_u128(x: u128) -> Self { x as $t }
            #[inline(always)]
            fn to_u128(self) -> u128 { self as u128 }
        }
    )*};
}
word!(u64, u128);

#[cfg(test)]
mod tests {
    use super::*;

    fn scans<W: Word>(bits: &[u32]) -> (u32, u32, u32) {
        let mut w = W::ZERO;
        for &b in bits {
            w |= W::ONE << b;
        }
        (
            w.count_ones(),
            w.trailing_zeros(),
            W::BITS - 1 - w.leading_zeros(),
        )
    }

    #[test]
    fn both_widths_agree_on_the_squares_they_share() {
        let bits = [3, 17, 63];
        assert_eq!(scans::<u64>(&bits), scans::<u128>(&bits));
        assert_eq!(u64::from_u128(1u128 << 70 | 5), 5);
        assert_eq!(u64::checked_shl(1, 64), None);
        assert_eq!(<u128 as Word>::checked_shl(1, 64), Some(1u128 << 64));
        assert_eq!(<u64 as Word>::to_u128(u64::MAX), u64::MAX as u128);
    }
}
