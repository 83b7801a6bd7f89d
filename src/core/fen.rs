//! The board part of a FEN (placement and hand), read for any board size: ranks top to
//! bottom, multi-digit empty runs, pieces in hand in `[...]`. One parser serves both the
//! variant compiler (where each type starts) and the position's full FEN reader.

use crate::core::geometry::{Board, Square};
use crate::core::moves::{Color, PieceType};

/// The placement and hand of a FEN, as read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Placement {
    /// Every piece on the board: square, type, colour (rank by rank, top first).
    pub pieces: Vec<(Square, PieceType, Color)>,
    /// Pieces in hand: colour, type, count (in the order written).
    pub hand: Vec<(Color, PieceType, u8)>,
}

/// Why a FEN's placement or hand was refused; the text names the rank or field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PlacementError(pub String);

/// Reads the placement field (with an attached hand `…/RNBQ[Dd]`) and, when the hand
/// stands as its own field, that field too. `letter` maps a piece letter (either case)
/// to its type. Returns the placement and how many whitespace fields it used (1 or 2).
pub fn read_placement(
    fields: &[&str],
    board: &Board,
    letter: impl Fn(char) -> Option<PieceType>,
) -> Result<(Placement, usize), PlacementError> {
    let fail = |m: String| PlacementError(m);
    let first = *fields.first().ok_or_else(|| fail("empty".into()))?;
    let mut used = 1;
    let (rows_text, mut hand_text) = match first.find('[') {
        Some(i) => {
            let rest = &first[i..];
            if !rest.ends_with(']') {
                return Err(fail(format!("hand \"{rest}\" has no closing ']'")));
            }
            (&first[..i], Some(&rest[1..rest.len() - 1]))
        }
        None => (first, None),
    };
    if hand_text.is_none() {
        if let Some(f) = fields.get(1).filter(|f| f.starts_with('[')) {
            if !f.ends_with(']') {
                return Err(fail(format!("hand \"{f}\" has no closing ']'")));
            }
            hand_text = Some(&f[1..f.len() - 1]);
            used = 2;
        }
    }
    let mut out = Placement::default();
    let rows: Vec<&str> = rows_text.split('/').collect();
    if rows.len() != board.ranks as usize {
        return Err(fail(format!(
            "placement has {} ranks, the board has {}",
            rows.len(),
            board.ranks
        )));
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = board.ranks as i32 - 1 - i as i32;
        let mut file = 0i32;
        let mut num = 0i32;
        for ch in row.chars() {
            if let Some(d) = ch.to_digit(10) {
                if num == 0 && d == 0 {
                    return Err(fail(format!("rank {}: empty run starts with 0", rank + 1)));
                }
                // Saturating: an absurd run is then refused as too long, not overflowed.
                num = num.saturating_mul(10).saturating_add(d as i32);
                continue;
            }
            file = file.saturating_add(num);
            num = 0;
            let t = letter(ch)
                .ok_or_else(|| fail(format!("rank {}: unknown piece letter '{ch}'", rank + 1)))?;
            let sq = board.square(file, rank).ok_or_else(|| {
                fail(format!(
                    "rank {} has more than {} files",
                    rank + 1,
                    board.files
                ))
            })?;
            out.pieces.push((sq, t, color_of(ch)));
            file += 1;
        }
        file = file.saturating_add(num);
        if file != board.files as i32 {
            return Err(fail(format!(
                "rank {} covers {} files, the board has {}",
                rank + 1,
                file,
                board.files
            )));
        }
    }
    if let Some(h) = hand_text {
        // The count written before a letter, if any (none means one).
        let mut count: Option<u32> = None;
        for ch in h.chars() {
            if let Some(d) = ch.to_digit(10) {
                count = Some(count.unwrap_or(0).saturating_mul(10).saturating_add(d));
                continue;
            }
            if ch == '-' {
                continue;
            }
            let t = letter(ch).ok_or_else(|| fail(format!("hand: unknown piece letter '{ch}'")))?;
            if count == Some(0) {
                return Err(fail(format!("hand: a count of 0 before '{ch}'")));
            }
            // A hand holds at most 255 of a type; larger counts saturate.
            out.hand
                .push((color_of(ch), t, count.unwrap_or(1).min(255) as u8));
            count = None;
        }
        if count.is_some() {
            return Err(fail(
                "hand: a count with no piece letter after it".to_string(),
            ));
        }
    }
    Ok((out, used))
}

fn color_of(ch: char) -> Color {
    if ch.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letters(c: char) -> Option<PieceType> {
        "KQRP".find(c.to_ascii_uppercase()).map(|i| i as PieceType)
    }

    #[test]
    fn multi_digit_runs_and_an_attached_hand() {
        let b = Board::new(10, 2).unwrap();
        let (p, used) = read_placement(&["k9/9K[2Qp]", "w"], &b, letters).unwrap();
        assert_eq!(used, 1);
        assert_eq!(p.pieces.len(), 2);
        assert_eq!(p.pieces[0], (Square(10), 0, Color::Black));
        assert_eq!(p.pieces[1], (Square(9), 0, Color::White));
        assert_eq!(p.hand, vec![(Color::White, 1, 2), (Color::Black, 3, 1)]);
    }

    #[test]
    fn a_hand_may_stand_as_its_own_field() {
        let b = Board::new(2, 1).unwrap();
        let (p, used) = read_placement(&["Kk", "[R]", "w"], &b, letters).unwrap();
        assert_eq!((used, p.hand.len()), (2, 1));
    }

    #[test]
    fn short_long_and_unknown_ranks_are_named() {
        let b = Board::new(3, 2).unwrap();
        let e = |f: &str| read_placement(&[f], &b, letters).unwrap_err().0;
        assert!(e("3/2").contains("rank 1 covers 2 files"));
        assert!(e("3K/3").contains("more than 3 files"));
        assert!(e("4/3").contains("rank 2 covers 4 files"));
        assert!(e("3/2X").contains("unknown piece letter 'X'"));
        assert!(e("3").contains("placement has 1 ranks"));
        assert!(e("03/3").contains("starts with 0"));
    }
}
