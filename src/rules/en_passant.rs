//! En passant (table key `en_passant`, default true): a pawn's multi-step leaves the
//! squares it skipped, and an enemy pawn that could capture onto one of them may take
//! the pawn there on the next move (ruling C5 for the FEN field).

use crate::core::geometry::{Bitboard, Board, Square};

/// Compiles `en_passant`: absent means on.
pub fn compile(key: Option<bool>) -> bool {
    key.unwrap_or(true)
}

/// Squares strictly between two squares on a straight line (empty if not aligned): the
/// squares a multi-step skips.
pub fn between(board: &Board, a: Square, b: Square) -> Bitboard {
    let (dx, dy) = (
        board.file_of(b) - board.file_of(a),
        board.rank_of(b) - board.rank_of(a),
    );
    if !(dx == 0 || dy == 0 || dx.abs() == dy.abs()) {
        return Bitboard::EMPTY;
    }
    let (sx, sy) = (dx.signum(), dy.signum());
    let mut out = Bitboard::EMPTY;
    let mut sq = a;
    while let Some(n) = board.offset(sq, sx, sy) {
        if n == b {
            break;
        }
        out.set(n);
        sq = n;
    }
    out
}
