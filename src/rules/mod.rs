//! Rule mechanisms, one file per table key: the key's table form, its compiled form and
//! its compile step, with the pure hooks make/unmake call. The generators that need a
//! whole position sit one layer up, in `movegen/` under the same file name.
//!
//! | table key | file |
//! |---|---|
//! | `castling`, `zone_castling` | `castling.rs` (generator: `movegen/castling.rs`) |
//! | `switch` | `switch.rs` (`movegen/switch.rs`) |
//! | `drops` | `drops.rs` (`movegen/drops.rs`) |
//! | `piece.promotion` (`pool`, `only_on`), `piece.becomes` | `promotion.rs` (`movegen/pseudo.rs`) |
//! | `piece.confine` and region syntax | `confine.rs` |
//! | `facing` | `facing.rs` |
//! | `en_passant` | `en_passant.rs` (`movegen/en_passant.rs`) |
//! | `stacking`, `piece.composition` | `stacking.rs` (`movegen/stacking.rs`) |
//! | `piece.shot` | `shot.rs` (`movegen/occupy.rs`) |
//! | `piece.path` | `path.rs` (`movegen/occupy.rs`) |
//! | `piece.flight` | `flight.rs` (`movegen/occupy.rs`) |
//! | shots, paths and flights together | `occupy.rs` (`movegen/occupy.rs`) |

pub mod castling;
pub mod confine;
pub mod drops;
pub mod en_passant;
pub mod facing;
pub mod flight;
pub mod occupy;
pub mod path;
pub mod promotion;
pub mod shot;
pub mod stacking;
pub mod switch;

use crate::core::geometry::{Bitboard, Board, Square};
use crate::core::moves::PieceType;

/// A table value a rule refused: the key at fault (`piece[2].promotion.ranks`) and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{key}: {msg}")]
pub struct RuleError {
    /// The key at fault, written as in the table.
    pub key: String,
    /// What is wrong.
    pub msg: String,
}

impl RuleError {
    /// An error at `key`.
    pub fn new(key: impl Into<String>, msg: impl Into<String>) -> RuleError {
        RuleError {
            key: key.into(),
            msg: msg.into(),
        }
    }
}

/// What every rule's compile step may look up: the board and the piece letters.
pub struct Ctx<'a> {
    /// The board shape.
    pub board: &'a Board,
    /// Upper-case letters, indexed by type.
    pub letters: &'a [char],
    /// Royal types as a bit mask.
    pub royal_mask: u32,
}

impl Ctx<'_> {
    /// The type with this upper-case letter.
    pub fn type_of(&self, c: char) -> Option<PieceType> {
        self.letters
            .iter()
            .position(|&l| l == c)
            .map(|i| i as PieceType)
    }

    /// The type with this letter, or an error at `key`.
    pub fn type_at(&self, c: char, key: &str) -> Result<PieceType, RuleError> {
        self.type_of(c)
            .ok_or_else(|| RuleError::new(key, format!("no piece with letter '{c}'")))
    }

    /// The types of a string of letters as a bit mask.
    pub fn type_mask(&self, letters: &str, key: &str) -> Result<u32, RuleError> {
        letters
            .chars()
            .try_fold(0u32, |m, c| Ok(m | 1 << self.type_at(c, key)?))
    }

    /// Ranks counted from each side's own first rank (1-based), as squares per colour.
    pub fn relative_ranks(&self, ranks: &[i32], key: &str) -> Result<[Bitboard; 2], RuleError> {
        let mut z = [Bitboard::EMPTY; 2];
        for &r in ranks {
            if r < 1 || r > self.board.ranks as i32 {
                return Err(RuleError::new(key, format!("rank {r} is off the board")));
            }
            z[0] |= self.board.relative_rank_mask(true, r - 1);
            z[1] |= self.board.relative_rank_mask(false, r - 1);
        }
        Ok(z)
    }

    /// A file letter as a 0-based file index.
    pub fn file(&self, c: char, key: &str) -> Result<i32, RuleError> {
        let f = c as i32 - 'a' as i32;
        if (0..self.board.files as i32).contains(&f) {
            Ok(f)
        } else {
            Err(RuleError::new(key, format!("file '{c}' is off the board")))
        }
    }

    /// Per square, the other squares within king-distance `d`.
    pub fn within(&self, d: u32) -> Vec<Bitboard> {
        let board = self.board;
        (0..board.squares())
            .map(|s| {
                let s = Square(s as u8);
                let mut bb = Bitboard::EMPTY;
                for t in board.all.iter() {
                    if t != s && board.distance(s, t) <= d as i32 {
                        bb.set(t);
                    }
                }
                bb
            })
            .collect()
    }
}
