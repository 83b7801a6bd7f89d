//! Squares, bitboards and the board shape they live on.
//!
//! A square is `rank * files + file`, so an 8x8 game uses the low 64 bits and a 10x10
//! game the low 100: neither pays for the other's layout. Everything that depends on the
//! width (file masks, shifts, names) goes through a [`Board`].

pub use crate::core::word::Word;
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// Largest number of files a board may have.
pub const MAX_FILES: u8 = 10;
/// Largest number of ranks a board may have (files * ranks must stay within 128 bits).
pub const MAX_RANKS: u8 = 12;
/// Number of square slots a table indexed by square needs.
pub const SQUARE_SLOTS: usize = 128;

/// A square index, `rank * files + file`; its meaning depends on the [`Board`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Square(pub u8);

impl Square {
    /// The index as `usize`, for table lookups.
    #[inline(always)]
    pub fn idx(self) -> usize {
        self.0 as usize
    }

    /// The one-bit board of this square.
    #[inline(always)]
    pub fn bb<W: Word>(self) -> Bitboard<W> {
        Bitboard(W::ONE << self.0 as u32)
    }
}

/// A set of squares as one bit per square, in a `u64` or a `u128` ([`Word`]); tables and
/// rules keep theirs at the full width and hand them to the narrow word with
/// [`Bitboard::narrow`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard<W: Word = u128>(pub W);

impl<W: Word> Bitboard<W> {
    /// The empty set.
    pub const EMPTY: Self = Bitboard(W::ZERO);
    /// Every square slot of the word.
    pub const FULL: Self = Bitboard(W::MAX);

    /// True when no square is set.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.0 == W::ZERO
    }

    /// True when at least one square is set.
    #[inline(always)]
    pub fn any(self) -> bool {
        self.0 != W::ZERO
    }

    /// Number of squares set.
    #[inline(always)]
    pub fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when more than one square is set.
    #[inline(always)]
    pub fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(W::ONE) != W::ZERO
    }

    /// True when `sq` is in the set.
    #[inline(always)]
    pub fn has(self, sq: Square) -> bool {
        (self.0 >> sq.0 as u32) & W::ONE != W::ZERO
    }

    /// The lowest square; the set must not be empty.
    #[inline(always)]
    pub fn lsb(self) -> Square {
        debug_assert!(self.any());
        Square(self.0.trailing_zeros() as u8)
    }

    /// The highest square; the set must not be empty.
    #[inline(always)]
    pub fn msb(self) -> Square {
        debug_assert!(self.any());
        Square((W::BITS - 1 - self.0.leading_zeros()) as u8)
    }

    /// Removes and returns the lowest square, if any.
    #[inline(always)]
    pub fn pop(&mut self) -> Option<Square> {
        if self.0 == W::ZERO {
            None
        } else {
            let sq = Square(self.0.trailing_zeros() as u8);
            self.0 &= self.0.wrapping_sub(W::ONE);
            Some(sq)
        }
    }

    /// Adds a square.
    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 |= W::ONE << sq.0 as u32;
    }

    /// Removes a square.
    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(W::ONE << sq.0 as u32);
    }

    /// Iterates the squares from lowest to highest.
    #[inline(always)]
    pub fn iter(self) -> BitIter<W> {
        BitIter(self.0)
    }

    /// The same squares in another word; squares past the narrower word's width are
    /// dropped, which never loses a square of a board that word was chosen for.
    #[inline(always)]
    pub fn narrow<V: Word>(self) -> Bitboard<V> {
        Bitboard(V::from_u128(self.0.to_u128()))
    }

    /// The same squares in a `u128`.
    #[inline(always)]
    pub fn wide(self) -> Bitboard {
        Bitboard(self.0.to_u128())
    }
}

/// Iterator over the squares of a [`Bitboard`].
pub struct BitIter<W: Word = u128>(W);

impl<W: Word> Iterator for BitIter<W> {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == W::ZERO {
            None
        } else {
            let sq = Square(self.0.trailing_zeros() as u8);
            self.0 &= self.0.wrapping_sub(W::ONE);
            Some(sq)
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl<W: Word> IntoIterator for Bitboard<W> {
    type Item = Square;
    type IntoIter = BitIter<W>;
    fn into_iter(self) -> BitIter<W> {
        self.iter()
    }
}

macro_rules! bitops {
    ($($tr:ident $f:ident $tra:ident $fa:ident $op:tt),*) => {$(
        impl<W: Word> $tr for Bitboard<W> {
            type Output = Bitboard<W>;
            #[inline(always)]
            fn $f(self, o: Bitboard<W>) -> Bitboard<W> { Bitboard(self.0 $op o.0) }
        }
        impl<W: Word> $tra for Bitboard<W> {
            #[inline(always)]
            fn $fa(&mut self, o: Bitboard<W>) { self.0 = self.0 $op o.0; }
        }
    )*};
}
bitops!(BitAnd bitand BitAndAssign bitand_assign &, BitOr bitor BitOrAssign bitor_assign |,
        BitXor bitxor BitXorAssign bitxor_assign ^);

impl<W: Word> Not for Bitboard<W> {
    type Output = Bitboard<W>;
    #[inline(always)]
    fn not(self) -> Bitboard<W> {
        Bitboard(!self.0)
    }
}

impl<W: Word> fmt::Debug for Bitboard<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#x})", self.0.to_u128())
    }
}

/// A board shape: its size and the masks that depend on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Number of files (columns), 1..=10.
    pub files: u8,
    /// Number of ranks (rows), 1..=12, with files * ranks <= 128.
    pub ranks: u8,
    /// Every square of the board.
    pub all: Bitboard,
    file_masks: [Bitboard; MAX_FILES as usize],
    rank_masks: [Bitboard; MAX_RANKS as usize],
    /// Per square its file and rank: read, where dividing by the file count would cost
    /// a division (the evaluation asks for king distances at every piece). One entry
    /// per value of a square's byte, so that no index is checked.
    coords: [[u8; 2]; 256],
}

/// Why a board size was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("board {files}x{ranks} is not supported (1..=10 files, 1..=12 ranks, at most 128 squares)")]
pub struct BoardSizeError {
    /// Files asked for.
    pub files: u32,
    /// Ranks asked for.
    pub ranks: u32,
}

impl Board {
    /// A board of `files` x `ranks`.
    pub fn new(files: u32, ranks: u32) -> Result<Board, BoardSizeError> {
        if files == 0
            || ranks == 0
            || files > MAX_FILES as u32
            || ranks > MAX_RANKS as u32
            || files * ranks > 128
        {
            return Err(BoardSizeError { files, ranks });
        }
        let (f, r) = (files as u8, ranks as u8);
        let mut file_masks = [Bitboard::EMPTY; MAX_FILES as usize];
        let mut rank_masks = [Bitboard::EMPTY; MAX_RANKS as usize];
        let mut all = Bitboard::EMPTY;
        let mut coords = [[0u8; 2]; 256];
        for rank in 0..r {
            for file in 0..f {
                let sq = Square(rank * f + file);
                coords[sq.idx()] = [file, rank];
                file_masks[file as usize].set(sq);
                rank_masks[rank as usize].set(sq);
                all.set(sq);
            }
        }
        Ok(Board {
            files: f,
            ranks: r,
            all,
            file_masks,
            rank_masks,
            coords,
        })
    }

    /// Number of squares.
    #[inline(always)]
    pub fn squares(&self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// The square at `file`, `rank` (0-based), or None off the board.
    #[inline(always)]
    pub fn square(&self, file: i32, rank: i32) -> Option<Square> {
        if file < 0 || rank < 0 || file >= self.files as i32 || rank >= self.ranks as i32 {
            None
        } else {
            Some(Square((rank * self.files as i32 + file) as u8))
        }
    }

    /// The 0-based file of a square.
    #[inline(always)]
    pub fn file_of(&self, sq: Square) -> i32 {
        self.coords[sq.idx()][0] as i32
    }

    /// The 0-based rank of a square.
    #[inline(always)]
    pub fn rank_of(&self, sq: Square) -> i32 {
        self.coords[sq.idx()][1] as i32
    }

    /// The square reached from `sq` by (dx, dy), or None off the board.
    #[inline(always)]
    pub fn offset(&self, sq: Square, dx: i32, dy: i32) -> Option<Square> {
        self.square(self.file_of(sq) + dx, self.rank_of(sq) + dy)
    }

    /// All squares of a 0-based file.
    pub fn file_mask(&self, file: i32) -> Bitboard {
        if (0..self.files as i32).contains(&file) {
            self.file_masks[file as usize]
        } else {
            Bitboard::EMPTY
        }
    }

    /// All squares of a 0-based rank.
    pub fn rank_mask(&self, rank: i32) -> Bitboard {
        if (0..self.ranks as i32).contains(&rank) {
            self.rank_masks[rank as usize]
        } else {
            Bitboard::EMPTY
        }
    }

    /// Every square whose set is shifted by (dx, dy), dropping squares that leave the
    /// board; never wraps from one edge file onto the other.
    #[inline]
    pub fn shift<W: Word>(&self, bb: Bitboard<W>, dx: i32, dy: i32) -> Bitboard<W> {
        let mut keep = self.all;
        // Squares whose file + dx would leave the board are removed before shifting
        // (none when the files stay: a step along the file is the evaluation's hot case).
        for f in (0..self.files as i32).filter(|_| dx != 0) {
            if !(0..self.files as i32).contains(&(f + dx)) {
                keep &= !self.file_masks[f as usize];
            }
        }
        let src = bb & keep.narrow();
        let delta = dy * self.files as i32 + dx;
        let moved = if delta >= 0 {
            Bitboard(src.0.checked_shl(delta as u32).unwrap_or(W::ZERO))
        } else {
            Bitboard(src.0.checked_shr((-delta) as u32).unwrap_or(W::ZERO))
        };
        moved & self.all.narrow()
    }

    /// Squares a given number of ranks from `color`'s own edge (0 = own first rank).
    pub fn relative_rank_mask(&self, white: bool, rank: i32) -> Bitboard {
        if white {
            self.rank_mask(rank)
        } else {
            self.rank_mask(self.ranks as i32 - 1 - rank)
        }
    }

    /// The name of a square: `a1`..`j10` (`a1`..`j12` on twelve ranks).
    pub fn square_name(&self, sq: Square) -> String {
        let f = (b'a' + self.file_of(sq) as u8) as char;
        format!("{}{}", f, self.rank_of(sq) + 1)
    }

    /// Parses a square name such as `e4` or `j10`.
    pub fn parse_square(&self, s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() < 2 || !b[0].is_ascii_lowercase() {
            return None;
        }
        let file = (b[0] - b'a') as i32;
        let digits = &s[1..];
        if !digits.bytes().all(|c| c.is_ascii_digit()) || digits.starts_with('0') {
            return None;
        }
        let rank: i32 = digits.parse().ok()?;
        self.square(file, rank - 1)
    }

    /// Chebyshev (king-move) distance between two squares.
    #[inline]
    pub fn distance(&self, a: Square, b: Square) -> i32 {
        let df = (self.file_of(a) - self.file_of(b)).abs();
        let dr = (self.rank_of(a) - self.rank_of(b)).abs();
        df.max(dr)
    }

    /// Renders a set as a grid, rank 1 at the bottom (for debugging and `describe`).
    pub fn render<W: Word>(&self, bb: Bitboard<W>) -> String {
        let mut s = String::new();
        for r in (0..self.ranks as i32).rev() {
            for f in 0..self.files as i32 {
                let sq = self.square(f, r).unwrap();
                s.push(if bb.has(sq) { 'x' } else { '.' });
                s.push(' ');
            }
            s.pop();
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_rank_major_per_board() {
        let b8 = Board::new(8, 8).unwrap();
        let b10 = Board::new(10, 10).unwrap();
        assert_eq!(b8.parse_square("h8"), Some(Square(63)));
        assert_eq!(b10.parse_square("j10"), Some(Square(99)));
        assert_eq!(b10.parse_square("a10"), Some(Square(90)));
        assert_eq!(b10.square_name(Square(99)), "j10");
        assert_eq!(b8.parse_square("i1"), None);
        assert_eq!(b10.parse_square("a11"), None);
        assert_eq!(b10.parse_square("a0"), None);
        assert_eq!(b10.parse_square("a01"), None);
        assert_eq!(b10.all.count(), 100);
    }

    #[test]
    fn shifts_never_wrap_across_files() {
        let b = Board::new(10, 10).unwrap();
        let j_file = b.file_mask(9);
        assert!(b.shift(j_file, 1, 0).is_empty());
        assert_eq!(b.shift(j_file, -1, 0), b.file_mask(8));
        let a_file = b.file_mask(0);
        assert!(b.shift(a_file, -1, 1).is_empty());
        assert_eq!(b.shift(b.rank_mask(9), 0, 1), Bitboard::EMPTY);
        assert_eq!(b.shift(b.rank_mask(0), 0, 9), b.rank_mask(9));
        let e5: Bitboard = b.parse_square("e5").unwrap().bb();
        assert_eq!(b.shift(e5, 2, -1), b.parse_square("g4").unwrap().bb());
    }

    #[test]
    fn iteration_and_counts() {
        let b = Board::new(10, 10).unwrap();
        let set = b.file_mask(3) & (b.rank_mask(2) | b.rank_mask(9));
        let names: Vec<String> = set.iter().map(|s| b.square_name(s)).collect();
        assert_eq!(names, vec!["d3", "d10"]);
        assert_eq!(set.count(), 2);
        assert!(set.more_than_one());
        assert_eq!(set.lsb(), b.parse_square("d3").unwrap());
        assert_eq!(set.msb(), b.parse_square("d10").unwrap());
    }

    #[test]
    fn refuses_oversized_boards() {
        assert!(Board::new(11, 8).is_err());
        assert!(Board::new(10, 13).is_err());
        assert!(Board::new(10, 12).is_ok());
        assert!(Board::new(0, 8).is_err());
    }
}
