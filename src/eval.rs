//! Static evaluation, built from a variant's table alone.
//!
//! Terms (centipawns, tapered between middlegame and endgame by the non-pawn material
//! left on the board and in hand):
//! - **material**: each piece's compiled value (the table's `value`, or one derived from
//!   its mobility, see `variant/values.rs`); royal pieces count nothing; pieces in hand
//!   count their value plus a tenth.
//! - **placement**: a non-pawn piece gains where it reaches more squares than its
//!   average (centre for leapers, open diagonals for riders); pawns gain as they
//!   advance toward their promotion ranks and more when passed (no enemy pawn ahead on
//!   the same or a neighbouring file); royals stay back in the middlegame and centralise
//!   in the endgame; light pieces (under 450) lose a little on their own back rank in
//!   the middlegame and heavy ones (800 and up) get no middlegame placement bonus.
//! - **mobility**: squares each non-pawn piece attacks or can move to, not holding an
//!   own piece, against its average.
//! - **king safety** (middlegame): enemy attacks on the squares around a royal piece,
//!   growing with the square of their weight, and own pawns sheltering it.
//! - **tempo**: a few centipawns for the side to move.

use crate::core::geometry::{Bitboard, Square, SQUARE_SLOTS};
use crate::core::moves::{Color, PieceType};
use crate::position::Position;
use crate::variant::{values, Variant};
use std::sync::Arc;

/// Pieces worth at least this get no middlegame placement bonus (queen-like).
const HEAVY: i32 = 800;
/// Pieces worth less than this are light (knight-like) and should leave the back rank.
const LIGHT: i32 = 450;
/// Bonus for the side to move.
const TEMPO: i32 = 12;

/// A (middlegame, endgame) bonus per square.
type SquareTable = Box<[(i16, i16); SQUARE_SLOTS]>;

/// Per-variant evaluation tables (built once per search from the variant).
pub struct Eval {
    /// Material per piece type (royals 0).
    values: Vec<i32>,
    /// Piece-square bonuses per type, colour and square: (middlegame, endgame).
    pst: Vec<[SquareTable; 2]>,
    /// Mobility weight per type (cp per square, middlegame and endgame) and average.
    mob: Vec<(i32, i32, i32)>,
    pawn_mask: u32,
    royal_mask: u32,
    /// Per colour and square: files f-1..f+1 ahead of a pawn (an enemy pawn there stops
    /// it being passed).
    front_span: [Box<[Bitboard; SQUARE_SLOTS]>; 2],
    /// Per colour and square: passed-pawn bonus (middlegame, endgame).
    passed: [Box<[(i16, i16); SQUARE_SLOTS]>; 2],
    /// Squares within one step of a square (the royal's zone).
    zone: Box<[Bitboard; SQUARE_SLOTS]>,
    /// Per colour and square: the squares one or two ranks ahead of a royal, its file
    /// and the neighbours (where sheltering pawns stand).
    shield: [Box<[Bitboard; SQUARE_SLOTS]>; 2],
    /// Non-pawn material of the start position (the middlegame end of the taper).
    start_phase: i32,
}

impl Eval {
    /// Builds the tables for a variant.
    pub fn new(va: &Arc<Variant>) -> Eval {
        let v: &Variant = va;
        let n = v.pieces.len();
        let bd = &v.board;
        let mob = values::mobility_table(&v.board, &v.rays, &v.attacks[0]);
        let squares = bd.squares() as i32;
        let values: Vec<i32> = v.pieces.iter().map(|p| p.value).collect();
        let rel_rank = |c: Color, sq: Square| {
            if c == Color::White {
                bd.rank_of(sq)
            } else {
                bd.ranks as i32 - 1 - bd.rank_of(sq)
            }
        };
        let mirror = |sq: Square| bd.square(bd.file_of(sq), bd.ranks as i32 - 1 - bd.rank_of(sq));
        // Where each pawn type starts (lowest relative rank) and promotes (nearest rank).
        let start = Position::startpos(va);
        let mut pst = Vec::with_capacity(n);
        let mut mobw = Vec::with_capacity(n);
        for t in 0..n {
            let def = &v.pieces[t];
            let avg4 = (mob[t].iter().sum::<i32>() / squares.max(1)).max(1);
            let mut white = Box::new([(0i16, 0i16); SQUARE_SLOTS]);
            for s in 0..bd.squares() {
                let sq = Square(s as u8);
                let (f, r) = (bd.file_of(sq), bd.rank_of(sq));
                let centre_dist = {
                    let df = (2 * f - (bd.files as i32 - 1)).abs();
                    let dr = (2 * r - (bd.ranks as i32 - 1)).abs();
                    df.max(dr) / 2
                };
                white[s] = if def.royal {
                    let edge_file = f.min(bd.files as i32 - 1 - f);
                    ((-14 * r - 8 * edge_file) as i16, (-10 * centre_dist) as i16)
                } else if def.pawn {
                    let adv = r - pawn_start_rank(&start, t, bd.ranks as i32);
                    let central = (bd.files as i32 - 1 - (2 * f - (bd.files as i32 - 1)).abs()) / 2;
                    (
                        (adv.max(0) * central.min(3) * 2) as i16,
                        (adv.max(0) * 4) as i16,
                    )
                } else {
                    // Centipawns per quarter-square of mobility above average, bounded.
                    let w = values[t].max(100) / (avg4 * 3);
                    let b = (w.max(1) * (mob[t][s] - avg4) / 4).clamp(-30, 30);
                    // Heavy pieces gain nothing by coming out early; light ones are
                    // pushed off their back rank to develop.
                    let mg = if values[t] >= HEAVY {
                        0
                    } else if values[t] < LIGHT && r == 0 {
                        b - 15
                    } else {
                        b
                    };
                    (mg as i16, b as i16)
                };
            }
            let mut black = Box::new([(0i16, 0i16); SQUARE_SLOTS]);
            for s in 0..bd.squares() {
                if let Some(m) = mirror(Square(s as u8)) {
                    black[s] = white[m.idx()];
                }
            }
            pst.push([white, black]);
            let mw = if def.pawn || def.royal {
                0
            } else {
                // Four centipawns per square for ordinary pieces, less for long-range ones
                // whose every extra square matters less.
                (4 * 32 / avg4.max(32)).max(1)
            };
            mobw.push((mw, mw, avg4 / 4));
        }
        let mut front_span = [
            Box::new([Bitboard::EMPTY; SQUARE_SLOTS]),
            Box::new([Bitboard::EMPTY; SQUARE_SLOTS]),
        ];
        let mut passed = [
            Box::new([(0i16, 0i16); SQUARE_SLOTS]),
            Box::new([(0i16, 0i16); SQUARE_SLOTS]),
        ];
        let mut shield = [
            Box::new([Bitboard::EMPTY; SQUARE_SLOTS]),
            Box::new([Bitboard::EMPTY; SQUARE_SLOTS]),
        ];
        let mut zone = Box::new([Bitboard::EMPTY; SQUARE_SLOTS]);
        let pawn_start = (0..n)
            .filter(|&t| v.pieces[t].pawn)
            .map(|t| pawn_start_rank(&start, t, bd.ranks as i32))
            .min()
            .unwrap_or(1);
        let promo_rank = (0..n)
            .filter(|&t| v.pieces[t].pawn)
            .filter_map(|t| v.pieces[t].promotion.as_ref())
            .filter_map(|p| p.zone[0].iter().map(|s| bd.rank_of(s)).min())
            .min();
        for c in Color::BOTH {
            let dir = if c == Color::White { 1 } else { -1 };
            for s in 0..bd.squares() {
                let sq = Square(s as u8);
                let (f, r) = (bd.file_of(sq), bd.rank_of(sq));
                let mut span = Bitboard::EMPTY;
                let mut sh = Bitboard::EMPTY;
                for df in -1..=1 {
                    let mut rr = r + dir;
                    while let Some(t) = bd.square(f + df, rr) {
                        span.set(t);
                        if (rr - r).abs() <= 2 {
                            sh.set(t);
                        }
                        rr += dir;
                    }
                }
                front_span[c.idx()][s] = span;
                shield[c.idx()][s] = sh;
                if let Some(pr) = promo_rank {
                    let total = (pr - pawn_start).max(1);
                    let adv = (rel_rank(c, sq) - pawn_start).clamp(0, total);
                    // Grows with the square of the progress: a passer near the end is worth
                    // most of a piece in the endgame.
                    let p2 = adv * adv * 1000 / (total * total);
                    passed[c.idx()][s] =
                        ((5 + 60 * p2 / 1000) as i16, (15 + 170 * p2 / 1000) as i16);
                }
            }
        }
        for s in 0..bd.squares() {
            let sq = Square(s as u8);
            let mut z = sq.bb();
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if let Some(t) = bd.offset(sq, dx, dy) {
                        z.set(t);
                    }
                }
            }
            zone[s] = z;
        }
        let mut e = Eval {
            values,
            pst,
            mob: mobw,
            pawn_mask: v.pawn_mask,
            royal_mask: v.royal_mask,
            front_span,
            passed,
            zone,
            shield,
            start_phase: 0,
        };
        e.start_phase = e.phase_material(&start).max(1);
        e
    }

    /// Material value of a piece type (royals 0).
    #[inline(always)]
    pub fn value(&self, t: PieceType) -> i32 {
        self.values[t as usize]
    }

    /// The material values of every type.
    pub fn values(&self) -> &[i32] {
        &self.values
    }

    /// Non-pawn, non-royal material of both sides, on the board and in hand.
    fn phase_material(&self, pos: &Position) -> i32 {
        let mut total = 0;
        for t in 0..self.values.len() {
            if self.pawn_mask >> t & 1 != 0 || self.royal_mask >> t & 1 != 0 {
                continue;
            }
            let on_board = pos.pieces(t as PieceType, Color::White).count()
                + pos.pieces(t as PieceType, Color::Black).count();
            let in_hand = pos.hand(Color::White, t as PieceType) as u32
                + pos.hand(Color::Black, t as PieceType) as u32;
            total += (on_board + in_hand) as i32 * self.values[t];
        }
        total
    }

    /// True when `c` has material other than pawns and royals (null move is unsafe
    /// without: zugzwang).
    pub fn has_pieces(&self, pos: &Position, c: Color) -> bool {
        (0..self.values.len()).any(|t| {
            self.pawn_mask >> t & 1 == 0
                && self.royal_mask >> t & 1 == 0
                && (pos.pieces(t as PieceType, c).any() || pos.hand(c, t as PieceType) > 0)
        })
    }

    /// True when either side has a piece in hand.
    pub fn any_in_hand(&self, pos: &Position) -> bool {
        (0..self.values.len()).any(|t| {
            pos.hand(Color::White, t as PieceType) > 0 || pos.hand(Color::Black, t as PieceType) > 0
        })
    }

    /// The score of the position for the side to move, in centipawns.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let v = &**pos.variant();
        let occ = pos.occupied();
        let mut mg = [0i32; 2];
        let mut eg = [0i32; 2];
        let mut pawns = [Bitboard::EMPTY; 2];
        let mut m = self.pawn_mask;
        while m != 0 {
            let t = m.trailing_zeros() as PieceType;
            m &= m - 1;
            pawns[0] |= pos.pieces(t, Color::White);
            pawns[1] |= pos.pieces(t, Color::Black);
        }
        let royal_sq = [pos.royals(Color::White), pos.royals(Color::Black)];
        let zones = [
            royal_sq[0]
                .iter()
                .fold(Bitboard::EMPTY, |z, s| z | self.zone[s.idx()]),
            royal_sq[1]
                .iter()
                .fold(Bitboard::EMPTY, |z, s| z | self.zone[s.idx()]),
        ];
        // Weighted attacks on each side's royal zone, and how many pieces take part.
        let mut danger = [0i32; 2];
        let mut attackers = [0i32; 2];
        for c in Color::BOTH {
            let ci = c.idx();
            let own = pos.color_bb(c);
            let enemy_zone = zones[1 - ci];
            for t in 0..self.values.len() {
                let bb = pos.pieces(t as PieceType, c);
                if bb.is_empty() {
                    continue;
                }
                let val = self.values[t];
                let table = &self.pst[t][ci];
                let (mw_mg, mw_eg, avg) = self.mob[t];
                let is_pawn = self.pawn_mask >> t & 1 != 0;
                let pa = &v.attacks[ci][t];
                for sq in bb.iter() {
                    let (a, b) = table[sq.idx()];
                    mg[ci] += val + a as i32;
                    eg[ci] += val + b as i32;
                    if is_pawn {
                        if (self.front_span[ci][sq.idx()] & pawns[1 - ci]).is_empty() {
                            let (pm, pe) = self.passed[ci][sq.idx()];
                            mg[ci] += pm as i32;
                            eg[ci] += pe as i32;
                        }
                        continue;
                    }
                    if mw_mg == 0 && enemy_zone.is_empty() {
                        continue;
                    }
                    let tg = pa.targets(&v.rays, sq, occ);
                    let reach = (tg.quiet | tg.capture) & !own;
                    if mw_mg != 0 {
                        let n = reach.count() as i32 - avg;
                        mg[ci] += mw_mg * n;
                        eg[ci] += mw_eg * n;
                    }
                    let hits = ((tg.quiet | tg.capture) & enemy_zone).count() as i32;
                    if hits > 0 && self.royal_mask >> t & 1 == 0 {
                        attackers[1 - ci] += 1;
                        danger[1 - ci] += hits * (1 + val / 400);
                    }
                }
            }
            for t in 0..self.values.len() {
                let n = pos.hand(c, t as PieceType) as i32;
                if n > 0 {
                    let val = self.values[t] + self.values[t] / 10;
                    mg[ci] += n * val;
                    eg[ci] += n * val;
                }
            }
        }
        for c in Color::BOTH {
            let ci = c.idx();
            if attackers[ci] >= 2 {
                mg[ci] -= (danger[ci] * danger[ci] * 2).min(500);
            }
            for k in royal_sq[ci].iter() {
                let cover = (self.shield[ci][k.idx()] & pawns[ci]).count().min(3) as i32;
                mg[ci] += 12 * cover;
            }
        }
        let us = pos.side_to_move().idx();
        let them = 1 - us;
        let phase = self.phase_material(pos).min(self.start_phase);
        let mgs = mg[us] - mg[them] + TEMPO;
        let egs = eg[us] - eg[them] + TEMPO / 2;
        (mgs as i64 * phase as i64 + egs as i64 * (self.start_phase - phase) as i64) as i32
            / self.start_phase
    }
}

/// The lowest relative rank a pawn type stands on in the start position (White's view).
fn pawn_start_rank(start: &Position, t: usize, ranks: i32) -> i32 {
    let bd = &start.variant().board;
    start
        .pieces(t as PieceType, Color::White)
        .iter()
        .map(|s| bd.rank_of(s))
        .min()
        .unwrap_or(1)
        .clamp(0, ranks - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry;

    #[test]
    fn the_start_position_is_level_and_material_counts() {
        let v = registry::get("chess").unwrap();
        let e = Eval::new(&v);
        let start = Position::startpos(&v);
        // Only the tempo separates the sides.
        assert!(e.evaluate(&start).abs() <= TEMPO);
        let queenless = Position::from_fen(
            &v,
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        )
        .unwrap();
        assert!(e.evaluate(&queenless) > 800);
    }
}
