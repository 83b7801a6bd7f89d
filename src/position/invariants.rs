//! What every position must satisfy whatever moves made it: the incremental key equals
//! the key computed from scratch, the piece array and the occupancy planes agree, en
//! passant squares are empty, and the FEN writes a position that reads back the same.
//! The property tests and the fuzz targets check it after every move.

use super::Position;
use crate::core::geometry::{Bitboard, Square};

/// Which invariant a position breaks.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvariantError {
    /// The incremental key drifted from the computed one.
    #[error("incremental key {0:#x} differs from the computed {1:#x}")]
    Key(u64, u64),
    /// A material key (the pawn key or a colour's piece key) drifted from the computed one.
    #[error("incremental material keys {0:x?} differ from the computed {1:x?}")]
    Material([u64; 3], [u64; 3]),
    /// The piece array and the planes disagree on a square.
    #[error("square {0}: the piece array and the occupancy planes disagree")]
    Planes(String),
    /// The planes overlap or hold squares off the board.
    #[error("occupancy planes overlap or leave the board")]
    Overlap,
    /// An en passant square is occupied.
    #[error("en passant square {0} is occupied")]
    EnPassant(String),
    /// The FEN does not read back, or reads back as another position.
    #[error("FEN {0:?} does not round-trip: {1}")]
    Fen(String, String),
}

impl Position {
    /// The first invariant this position breaks, if any.
    pub fn check_invariants(&self) -> Result<(), InvariantError> {
        let computed = self.compute_key();
        if computed != self.key {
            return Err(InvariantError::Key(self.key, computed));
        }
        let material = self.compute_material();
        if material != self.material {
            return Err(InvariantError::Material(self.material, material));
        }
        let bd = &self.v.board;
        let name = |i: usize| bd.square_name(Square(i as u8));
        let on_board = (0..bd.squares()).fold(Bitboard::EMPTY, |b, i| b | Square(i as u8).bb());
        let [w, b] = self.by_color;
        let types = self.by_type.iter().fold(Bitboard::EMPTY, |acc, &t| acc | t);
        if (w & b).any() || types != (w | b) || ((w | b) & !on_board).any() {
            return Err(InvariantError::Overlap);
        }
        for i in 0..bd.squares() {
            let sq = Square(i as u8);
            let p = self.board[i];
            let agrees = if p.is_none() {
                !(w | b).has(sq)
            } else {
                self.by_color[p.color().idx()].has(sq)
                    && !self.by_color[p.color().flip().idx()].has(sq)
                    && self.by_type[p.kind() as usize].has(sq)
                    && self.by_type.iter().filter(|t| t.has(sq)).count() == 1
            };
            if !agrees {
                return Err(InvariantError::Planes(name(i)));
            }
        }
        if let Some(sq) = (self.ep & (w | b)).iter().next() {
            return Err(InvariantError::EnPassant(name(sq.idx())));
        }
        let fen = self.fen();
        let back = Position::from_fen(&self.v, &fen)
            .map_err(|e| InvariantError::Fen(fen.clone(), e.to_string()))?;
        if back.fen() != fen {
            return Err(InvariantError::Fen(
                fen,
                format!("reads back as {}", back.fen()),
            ));
        }
        if back.key != self.key {
            return Err(InvariantError::Fen(
                fen,
                "reads back with another key".into(),
            ));
        }
        Ok(())
    }
}
