//! Path movers (table key `piece.path`): exactly N unit steps with free turning that
//! kill every enemy piece they pass (Combined Arms armor, taxonomy T5). A path move is
//! written `<from><to>` plus `x<sq>` for each square killed in passing; it is generated
//! in `movegen/occupy.rs`.

use super::RuleError;
use crate::core::geometry::{Bitboard, Board, Square, Word, SQUARE_SLOTS};
use crate::core::moves::{Color, MAX_KILLS};
use crate::movement::atoms::{AtomKind, Offset};
use crate::movement::betza;
use serde::Deserialize;

/// Table key `path`.
#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct PathFile {
    /// Exactly this many steps (1..=5).
    pub steps: u32,
    /// The step set in Betza, leaps only (`W`: the four orthogonal unit steps).
    pub betza: String,
}

/// Shifting a whole set by one step without wrapping across files.
#[derive(Clone, Copy, Debug)]
pub struct Shift {
    /// Squares whose step stays on the board.
    keep: Bitboard,
    /// Index delta of the step.
    delta: i32,
}

impl Shift {
    fn new(board: &Board, d: Offset) -> Shift {
        let mut keep = Bitboard::EMPTY;
        for s in 0..board.squares() {
            if board
                .offset(Square(s as u8), d.dx as i32, d.dy as i32)
                .is_some()
            {
                keep.set(Square(s as u8));
            }
        }
        Shift {
            keep,
            delta: d.dy as i32 * board.files as i32 + d.dx as i32,
        }
    }

    #[inline(always)]
    fn apply<W: Word>(self, bb: Bitboard<W>) -> Bitboard<W> {
        let b = (bb & self.keep.narrow()).0;
        Bitboard(if self.delta >= 0 {
            b << self.delta as u32
        } else {
            b >> (-self.delta) as u32
        })
    }
}

/// A compiled path mover, per colour.
pub struct PathDef {
    /// Number of steps.
    pub steps: u8,
    /// The step set (White's view).
    pub dirs: Vec<Offset>,
    /// One-step targets per colour and square.
    pub one: [Box<[Bitboard; SQUARE_SLOTS]>; 2],
    /// Per colour and square, the squares a path of `steps` steps could end on it from
    /// on an empty board (a mover elsewhere cannot reach it, whatever stands between).
    pub near: [Box<[Bitboard; SQUARE_SLOTS]>; 2],
    /// Per colour, `within[c][k - 1][sq]`: the squares 1..=k steps from `sq` on an empty
    /// board (where a walk of k + 1 steps left could still kill on its way).
    pub within: [Vec<Box<[Bitboard; SQUARE_SLOTS]>>; 2],
    fwd: [Vec<Shift>; 2],
    back: [Vec<Shift>; 2],
}

impl PathDef {
    /// Every square one step forward from a square of `bb`.
    #[inline(always)]
    pub fn forward<W: Word>(&self, c: usize, bb: Bitboard<W>) -> Bitboard<W> {
        self.fwd[c]
            .iter()
            .fold(Bitboard::EMPTY, |a, s| a | s.apply(bb))
    }

    /// Every square from which one step reaches a square of `bb`.
    #[inline(always)]
    pub fn backward<W: Word>(&self, c: usize, bb: Bitboard<W>) -> Bitboard<W> {
        self.back[c]
            .iter()
            .fold(Bitboard::EMPTY, |a, s| a | s.apply(bb))
    }
}

/// Compiles one piece's `path`; `key` is its path (`piece[5].path`).
pub fn compile(board: &Board, p: &PathFile, key: &str) -> Result<PathDef, RuleError> {
    if !(1..=MAX_KILLS as u32 + 1).contains(&p.steps) {
        return Err(RuleError::new(
            key,
            format!("steps must be 1..={}", MAX_KILLS + 1),
        ));
    }
    let atoms = betza::parse(&p.betza)
        .map_err(|e| RuleError::new(format!("{key}.betza"), e.to_string()))?;
    if atoms.is_empty() || atoms.iter().any(|a| a.kind != AtomKind::Leap) {
        return Err(RuleError::new(
            format!("{key}.betza"),
            "the step set must be leaps",
        ));
    }
    let mut dirs: Vec<Offset> = Vec::new();
    for a in &atoms {
        if !dirs.contains(&a.step) {
            dirs.push(a.step);
        }
    }
    let mut one = [
        Box::new([Bitboard::EMPTY; SQUARE_SLOTS]),
        Box::new([Bitboard::EMPTY; SQUARE_SLOTS]),
    ];
    let mut fwd = [Vec::new(), Vec::new()];
    let mut back = [Vec::new(), Vec::new()];
    for c in Color::BOTH {
        for &d in &dirs {
            let d = if c == Color::White { d } else { d.for_black() };
            for sq in board.all {
                if let Some(t) = board.offset(sq, d.dx as i32, d.dy as i32) {
                    one[c.idx()][sq.idx()].set(t);
                }
            }
            fwd[c.idx()].push(Shift::new(board, d));
            back[c.idx()].push(Shift::new(board, d.reversed()));
        }
    }
    let mut def = PathDef {
        steps: p.steps as u8,
        dirs,
        one,
        near: [
            Box::new([Bitboard::EMPTY; SQUARE_SLOTS]),
            Box::new([Bitboard::EMPTY; SQUARE_SLOTS]),
        ],
        within: [Vec::new(), Vec::new()],
        fwd,
        back,
    };
    for c in 0..2 {
        for k in 1..def.steps {
            let mut w = Box::new([Bitboard::EMPTY; SQUARE_SLOTS]);
            for sq in board.all {
                let (mut ring, mut all) = (sq.bb(), Bitboard::EMPTY);
                for _ in 0..k {
                    ring = def.forward(c, ring);
                    all |= ring;
                }
                w[sq.idx()] = all;
            }
            def.within[c].push(w);
        }
        for sq in board.all {
            let mut from = sq.bb();
            for _ in 0..def.steps {
                from = def.backward(c, from);
            }
            def.near[c][sq.idx()] = from;
        }
    }
    Ok(def)
}
