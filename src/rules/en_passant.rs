//! En passant (table key `en_passant`, default true): a pawn's multi-step leaves the
//! squares it skipped, and an enemy pawn that could capture onto one of them may take
//! the pawn there on the next move (ruling C5 for the FEN field).

use crate::core::geometry::{Bitboard, Board, Square, SQUARE_SLOTS};

/// Compiles `en_passant`: absent means on.
pub fn compile(key: Option<bool>) -> bool {
    key.unwrap_or(true)
}

/// Per colour (White first) and square: the squares ahead on the same file two or more
/// ranks away, whose straight multi-step leaves an en passant square (C5); all empty
/// when `on` is false.
pub fn long_pushes(board: &Board, on: bool) -> [Box<[Bitboard; SQUARE_SLOTS]>; 2] {
    let mut out = [
        Box::new([Bitboard::EMPTY; SQUARE_SLOTS]),
        Box::new([Bitboard::EMPTY; SQUARE_SLOTS]),
    ];
    if !on {
        return out;
    }
    for from in board.all.iter() {
        for to in board.all.iter() {
            let dr = board.rank_of(to) - board.rank_of(from);
            if board.file_of(to) == board.file_of(from) && dr.abs() >= 2 {
                out[(dr < 0) as usize][from.idx()].set(to);
            }
        }
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    fn squares(b: &Board, bb: Bitboard) -> Vec<String> {
        bb.iter().map(|s| b.square_name(s)).collect()
    }

    #[test]
    fn only_a_straight_step_of_two_or_more_ahead_leaves_an_en_passant_square() {
        // C5: the square behind a pawn that went straight ahead; White goes up, Black down.
        let b = Board::new(10, 10).unwrap();
        let [white, black] = long_pushes(&b, true);
        let d2 = b.parse_square("d2").unwrap();
        assert_eq!(
            squares(&b, white[d2.idx()]),
            ["d4", "d5", "d6", "d7", "d8", "d9", "d10"]
        );
        let d9 = b.parse_square("d9").unwrap();
        assert_eq!(
            squares(&b, black[d9.idx()]),
            ["d1", "d2", "d3", "d4", "d5", "d6", "d7"]
        );
        assert!(long_pushes(&b, false)
            .iter()
            .all(|c| c.iter().all(|m| m.is_empty())));
    }
}
