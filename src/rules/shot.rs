//! Rifle shots (table key `piece.shot`): the piece kills an enemy piece at a fixed
//! offset without moving, and with `with_move` may also move before or after (Combined
//! Arms R5–R8). A shot is written `<from><from>x<sq>`; it is generated in
//! `movegen/occupy.rs`, where every kill-making mechanism meets.

use super::RuleError;
use crate::core::geometry::{Bitboard, Board, SQUARE_SLOTS};
use crate::movement::atoms::{symmetric, Offset};
use serde::Deserialize;

/// Table key `shot`.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct ShotFile {
    /// Target squares at these distances along the 8 king lines (`[3, 4]`: 16 squares).
    #[serde(default)]
    pub distances: Vec<u32>,
    /// Target offsets `[dx, dy]`, each with its symmetric images.
    #[serde(default)]
    pub offsets: Vec<[i32; 2]>,
    /// True: in one turn the piece may move, shoot, move then shoot, or shoot then move.
    /// False: it moves or shoots, never both.
    #[serde(default)]
    pub with_move: bool,
}

/// A compiled rifle shot.
pub struct ShotDef {
    /// Target squares per square of the shooter (geometric, whatever stands between).
    pub range: Box<[Bitboard; SQUARE_SLOTS]>,
    /// The targets as offsets (for the flight exactness check).
    pub offsets: Vec<Offset>,
    /// May combine with a move in the same turn.
    pub with_move: bool,
}

fn offsets(s: &ShotFile) -> Result<Vec<Offset>, String> {
    let mut out: Vec<Offset> = Vec::new();
    let mut add = |dx: i32, dy: i32| -> Result<(), String> {
        if dx.abs() > 11 || dy.abs() > 11 || (dx, dy) == (0, 0) {
            return Err(format!("offset ({dx},{dy}) is out of range"));
        }
        for o in symmetric(dx as i8, dy as i8) {
            if !out.contains(&o) {
                out.push(o);
            }
        }
        Ok(())
    };
    for &d in &s.distances {
        add(d as i32, 0)?;
        add(d as i32, d as i32)?;
    }
    for &[dx, dy] in &s.offsets {
        add(dx, dy)?;
    }
    if out.is_empty() {
        return Err("a shot needs `distances` or `offsets`".into());
    }
    Ok(out)
}

/// Compiles one piece's `shot`; `key` is its path (`piece[4].shot`).
pub fn compile(board: &Board, s: &ShotFile, key: &str) -> Result<ShotDef, RuleError> {
    let offsets = offsets(s).map_err(|m| RuleError::new(key, m))?;
    let mut range = Box::new([Bitboard::EMPTY; SQUARE_SLOTS]);
    for sq in board.all {
        for o in &offsets {
            if let Some(t) = board.offset(sq, o.dx as i32, o.dy as i32) {
                range[sq.idx()].set(t);
            }
        }
    }
    Ok(ShotDef {
        range,
        offsets,
        with_move: s.with_move,
    })
}
