//! Colours, pieces, moves and the stack-allocated move list.

use crate::core::geometry::{Bitboard, Square, Word};
use std::mem::MaybeUninit;

/// Largest number of piece types a variant may define (type masks are `u32`).
pub const MAX_PIECE_TYPES: usize = 32;
/// Capacity of a [`MoveList`]; enough for any legal position of the built-in games
/// (Combined Arms with nine Queens a side among many targets reaches about 1,500).
pub const MAX_MOVES: usize = 2048;

/// A side.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Moves first, starts on the low ranks.
    White = 0,
    /// Starts on the high ranks.
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline(always)]
    pub fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline(always)]
    pub fn idx(self) -> usize {
        self as usize
    }

    /// Both colours, White first.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];
}

/// A piece type: an index into the variant's piece table.
pub type PieceType = u8;

/// A coloured piece packed in a byte (`type | color << 5`), or [`Piece::NONE`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Piece(pub u8);

impl Piece {
    /// An empty square.
    pub const NONE: Piece = Piece(0xFF);

    /// The piece of this type and colour.
    #[inline(always)]
    pub fn new(t: PieceType, c: Color) -> Piece {
        Piece(t | ((c as u8) << 5))
    }

    /// True for an empty square.
    #[inline(always)]
    pub fn is_none(self) -> bool {
        self.0 == 0xFF
    }

    /// The type; meaningless for NONE.
    #[inline(always)]
    pub fn kind(self) -> PieceType {
        self.0 & 31
    }

    /// The colour; meaningless for NONE.
    #[inline(always)]
    pub fn color(self) -> Color {
        if self.0 & 32 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Index 0..64 for tables keyed by coloured piece.
    #[inline(always)]
    pub fn idx(self) -> usize {
        (self.0 & 63) as usize
    }
}

/// What kind of move a [`Move`] is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum MoveKind {
    /// An ordinary move or capture.
    Normal = 0,
    /// A multi-step pawn move that leaves an en passant square.
    DoubleStep = 1,
    /// A capture of a pawn that just passed the target square.
    EnPassant = 2,
    /// Castling, written as the king's move.
    Castle = 3,
    /// A piece put from the hand onto the board; `from` holds the piece type.
    Drop = 4,
    /// A piece moves onto a friendly one and the two become their compound; the
    /// promotion field holds the compound's type.
    Combine = 5,
    /// A compound moves to an empty square and leaves part of itself behind; the
    /// promotion field holds the type that lands on `to`.
    Split = 6,
    /// Two friendly pieces exchange squares (positional switch); `from` is the switcher's
    /// square, `to` its partner's. `promotion` is the switcher's, `partner_promotion` the
    /// partner's.
    Switch = 7,
}

/// Most squares one move may kill without ending on them (rifle shots, armor paths).
pub const MAX_KILLS: usize = 4;

/// A move in 64 bits. The low 32: from (7), to (7), promotion type + 1 (6), kind (3),
/// and for a switch the partner's promotion type + 1 (6).
/// The high 32: a kill count (3 bits, bit 32) and up to [`MAX_KILLS`] squares killed
/// without being occupied (7 bits each from bit 35), ascending, unused slots zero, so
/// two moves with the same identity (Combined Arms R9) are equal as integers.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Move(pub u64);

impl Move {
    /// The null move (not a legal move of any position).
    pub const NULL: Move = Move(0);

    /// A move of `kind` from `from` to `to`.
    #[inline(always)]
    pub fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        Move(from.0 as u64 | (to.0 as u64) << 7 | (kind as u64) << 20)
    }

    /// A move that promotes to `promo`.
    #[inline(always)]
    pub fn with_promotion(self, promo: PieceType) -> Move {
        Move(self.0 | ((promo as u64 + 1) << 14))
    }

    /// A switch whose partner (arriving on `from`) promotes to `promo`.
    #[inline(always)]
    pub fn with_partner_promotion(self, promo: PieceType) -> Move {
        Move(self.0 | ((promo as u64 + 1) << 23))
    }

    /// For a switch, the partner's promotion type, if any.
    #[inline(always)]
    pub fn partner_promotion(self) -> Option<PieceType> {
        let p = (self.0 >> 23) & 63;
        if p == 0 {
            None
        } else {
            Some((p - 1) as PieceType)
        }
    }

    /// An ordinary move that carries nothing else: no promotion, no kills, no other
    /// kind (the search asks of every move whether it is a capture or promotion, and most
    /// are these).
    #[inline(always)]
    pub fn is_plain(self) -> bool {
        self.0 & (0x1FF << 14 | !0u64 << 32) == 0
    }

    /// A drop of a piece type onto `to`.
    #[inline(always)]
    pub fn drop(t: PieceType, to: Square) -> Move {
        Move(t as u64 | (to.0 as u64) << 7 | (MoveKind::Drop as u64) << 20)
    }

    /// Start square (for a drop: the dropped type as a number).
    #[inline(always)]
    pub fn from(self) -> Square {
        Square((self.0 & 127) as u8)
    }

    /// Destination square.
    #[inline(always)]
    pub fn to(self) -> Square {
        Square(((self.0 >> 7) & 127) as u8)
    }

    /// The promotion type, if any.
    #[inline(always)]
    pub fn promotion(self) -> Option<PieceType> {
        let p = (self.0 >> 14) & 63;
        if p == 0 {
            None
        } else {
            Some((p - 1) as PieceType)
        }
    }

    /// The move's kind.
    #[inline(always)]
    pub fn kind(self) -> MoveKind {
        match (self.0 >> 20) & 7 {
            0 => MoveKind::Normal,
            1 => MoveKind::DoubleStep,
            2 => MoveKind::EnPassant,
            3 => MoveKind::Castle,
            4 => MoveKind::Drop,
            5 => MoveKind::Combine,
            6 => MoveKind::Split,
            _ => MoveKind::Switch,
        }
    }

    /// For a drop, the dropped type.
    #[inline(always)]
    pub fn drop_type(self) -> PieceType {
        (self.0 & 127) as PieceType
    }

    /// The same move also killing the pieces on `kills` (at most [`MAX_KILLS`], none
    /// equal to `to`; order does not matter, duplicates count once).
    pub fn with_kills(self, kills: &[Square]) -> Move {
        let mut sq = [0u8; MAX_KILLS];
        let mut n = 0;
        for &k in kills {
            if !sq[..n].contains(&k.0) && n < MAX_KILLS {
                sq[n] = k.0;
                n += 1;
            }
        }
        sq[..n].sort_unstable();
        let mut bits = (self.0 & 0xFFFF_FFFF) | (n as u64) << 32;
        for (i, &s) in sq[..n].iter().enumerate() {
            bits |= (s as u64) << (35 + 7 * i);
        }
        Move(bits)
    }

    /// True when the move kills a square other than its destination.
    #[inline(always)]
    pub fn has_kills(self) -> bool {
        self.0 >> 32 != 0
    }

    /// Number of squares killed without being occupied.
    #[inline(always)]
    pub fn kill_count(self) -> usize {
        ((self.0 >> 32) & 7) as usize
    }

    /// The `i`-th killed square in ascending order (`i < kill_count()`).
    #[inline(always)]
    pub fn kill(self, i: usize) -> Square {
        Square(((self.0 >> (35 + 7 * i)) & 127) as u8)
    }

    /// The killed squares, ascending.
    pub fn kills(self) -> impl Iterator<Item = Square> {
        (0..self.kill_count()).map(move |i| self.kill(i))
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Move({}->{} {:?} {:?}",
            self.from().0,
            self.to().0,
            self.kind(),
            self.promotion()
        )?;
        for k in self.kills() {
            write!(f, " x{}", k.0)?;
        }
        write!(f, ")")
    }
}

/// A fixed-capacity list of moves that lives on the stack.
///
/// The slots are left uninitialised: zeroing them for every new list (as a search makes
/// one per node) cost a third of generating a chess position's moves
/// (`benches/movegen.rs`, "fresh list + legal_moves chess start": 1.12 µs with 1,024
/// zeroed slots, 0.82 µs uninitialised, 0.85 µs reusing one list).
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move; silently ignores overflow beyond [`MAX_MOVES`] in release builds.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!(self.len < MAX_MOVES);
        if self.len < MAX_MOVES {
            self.moves[self.len] = MaybeUninit::new(m);
            self.len += 1;
        }
    }

    /// Appends a move from `from` to each square of `dest` in square order, of the kind
    /// `kind` gives its square; like [`MoveList::push`] one by one, the moves past the
    /// capacity are dropped. The length stays in a register and is written once, where a
    /// push per move stored it at every move (a tenth of legal generation's profile).
    #[inline(always)]
    pub fn push_each<W: Word>(
        &mut self,
        from: Square,
        dest: Bitboard<W>,
        kind: impl Fn(Square) -> MoveKind,
    ) {
        let mut len = self.len;
        for to in dest {
            if len < MAX_MOVES {
                self.moves[len] = MaybeUninit::new(Move::new(from, to, kind(to)));
                len += 1;
            }
        }
        self.len = len;
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there is no move.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every move.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: `push` is the only writer and `len` only grows through it (`clear` and
        // `truncate` shrink it), so slots 0..len hold initialised moves; `MaybeUninit<Move>`
        // has the layout of `Move`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    /// The moves as a mutable slice (for ordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`: slots 0..len are initialised.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }

    /// Iterates the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Keeps only the moves `keep` accepts, in their order.
    #[inline]
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut kept = 0;
        for i in 0..self.len {
            let m = self.as_slice()[i];
            if keep(m) {
                self.as_mut_slice()[kept] = m;
                kept += 1;
            }
        }
        self.truncate(kept);
    }

    /// Shortens the list to `n` moves.
    #[inline(always)]
    pub fn truncate(&mut self, n: usize) {
        self.len = self.len.min(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_fields_round_trip() {
        let m = Move::new(Square(12), Square(127), MoveKind::EnPassant).with_promotion(31);
        assert_eq!(m.from(), Square(12));
        assert_eq!(m.to(), Square(127));
        assert_eq!(m.kind(), MoveKind::EnPassant);
        assert_eq!(m.promotion(), Some(31));
        let s = Move::new(Square(90), Square(81), MoveKind::Switch)
            .with_promotion(14)
            .with_partner_promotion(31);
        assert_eq!(s.kind(), MoveKind::Switch);
        assert_eq!((s.from(), s.to()), (Square(90), Square(81)));
        assert_eq!((s.promotion(), s.partner_promotion()), (Some(14), Some(31)));
        assert_eq!(m.partner_promotion(), None);
        let d = Move::drop(19, Square(99));
        assert_eq!(d.kind(), MoveKind::Drop);
        assert_eq!(d.drop_type(), 19);
        assert_eq!(d.to(), Square(99));
    }

    #[test]
    fn kills_are_kept_ascending_so_identity_is_equality() {
        let base = Move::new(Square(1), Square(18), MoveKind::Normal).with_promotion(3);
        let a = base.with_kills(&[Square(17), Square(9)]);
        let b = base.with_kills(&[Square(9), Square(17), Square(9)]);
        assert_eq!(a, b);
        assert_eq!(a.kills().collect::<Vec<_>>(), vec![Square(9), Square(17)]);
        assert_eq!(
            (a.from(), a.to(), a.promotion()),
            (Square(1), Square(18), Some(3))
        );
        assert!(a.has_kills() && !base.has_kills());
        let four = base.with_kills(&[Square(127), Square(0), Square(64), Square(5)]);
        assert_eq!(
            four.kills().map(|s| s.0).collect::<Vec<_>>(),
            vec![0, 5, 64, 127]
        );
    }

    #[test]
    fn pieces_pack_type_and_colour() {
        let p = Piece::new(19, Color::Black);
        assert_eq!(p.kind(), 19);
        assert_eq!(p.color(), Color::Black);
        assert!(!p.is_none());
        assert!(Piece::NONE.is_none());
    }
}
