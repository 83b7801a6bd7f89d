//! Region confinement (table key `piece.confine`) and the region syntax every
//! region-valued key shares (`becomes.region`, `zone_castling`'s zones): squares and
//! rectangles written from White's view, mirrored for Black. A confined piece neither
//! moves nor captures nor attacks outside its region; its attack tables are cut to the
//! region when they are built (`PieceAttacks::confine`), so no generator checks it.

use crate::core::geometry::{Bitboard, Board};

/// Why a region was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RegionError {
    /// A part is not a square of the board.
    #[error("\"{part}\" in region \"{text}\" is not a square of the board")]
    NotASquare {
        /// The part at fault.
        part: String,
        /// The whole region as written.
        text: String,
    },
    /// No square at all.
    #[error("region \"{0}\" is empty")]
    Empty(String),
}

/// Parses a region: squares and rectangles (`a1:j5`) from White's view, separated by
/// spaces or commas. Black's region is the mirror image across the middle rank.
pub fn parse_region(board: &Board, text: &str) -> Result<[Bitboard; 2], RegionError> {
    let mut z = [Bitboard::EMPTY; 2];
    let sq = |t: &str| {
        board
            .parse_square(t)
            .ok_or_else(|| RegionError::NotASquare {
                part: t.to_string(),
                text: text.to_string(),
            })
    };
    for part in text.split([' ', ',']).filter(|p| !p.is_empty()) {
        let (a, b) = match part.split_once(':') {
            Some((a, b)) => (sq(a)?, sq(b)?),
            None => (sq(part)?, sq(part)?),
        };
        let (fa, fb) = (board.file_of(a), board.file_of(b));
        let (ra, rb) = (board.rank_of(a), board.rank_of(b));
        for f in fa.min(fb)..=fa.max(fb) {
            for r in ra.min(rb)..=ra.max(rb) {
                if let (Some(w), Some(bl)) = (
                    board.square(f, r),
                    board.square(f, board.ranks as i32 - 1 - r),
                ) {
                    z[0].set(w);
                    z[1].set(bl);
                }
            }
        }
    }
    if z[0].is_empty() {
        return Err(RegionError::Empty(text.to_string()));
    }
    Ok(z)
}

/// Compiles a region-valued key (`confine` and the others); errors name `key`.
pub fn region(board: &Board, text: &str, key: &str) -> Result<[Bitboard; 2], super::RuleError> {
    parse_region(board, text).map_err(|e| super::RuleError::new(key, e.to_string()))
}
