//! Static evaluation, built from a variant's table alone, as named weights on counted
//! features (`weights.rs`; the table's `[eval]` section overrides any of them).
//!
//! Terms (centipawns, tapered between middlegame and endgame by the non-pawn material
//! left on the board and in hand):
//! - **material** per type, and per type **in hand**; royal pieces count nothing. Compound
//!   stacks are types of their own (the stacking recipes), so each stack has its value.
//! - **placement** per type and square (White's view, mirrored for Black), derived from
//!   where a piece reaches most squares, how far a pawn has come, and where a royal hides.
//! - **mobility** per type: squares attacked or reachable, not holding an own piece,
//!   against the type's average.
//! - **pawn structure** for pawn-rule pieces: passed (by relative rank, and how free
//!   its way ahead is of enemy reach), doubled, isolated, connected, backward.
//! - **threats**: pieces attacked by a cheaper piece, pieces attacked and undefended,
//!   pieces a pawn-rule piece would attack after a safe step, and squares both sides
//!   reach that the enemy does not hold strongly (restricted).
//! - **royal danger** (middlegame): attacks on the squares around a royal, weighted per
//!   attacking type and growing with the square of their sum, once two pieces take part;
//!   own pawns **sheltering** it; per type, each piece's king steps from its own royal
//!   (Stockfish's king protector); the royal's steps to its nearest own pawn.
//! - **space** (middlegame): central squares in the own half's first ranks that no enemy
//!   pawn-rule piece attacks, those just behind own pawns and attacked by nothing counted
//!   twice, times the square of the own piece count (Stockfish's space term, the area
//!   scaled to the board).
//! - **tempo** for the side to move.
//!
//! In a table that switches it on (`eval.endgame_scale`), the endgame sum is then
//! **scaled** for the side it favours when that side has few pawn-rule pieces
//! ([`Eval::eg_scales`], Stockfish's scale factor): material alone does not win an
//! ending. Off by default: a game's fitted weights assume it one way or the other.
//!
//! One walk over the position ([`Eval::walk`]) reports every feature to a [`Sink`]: the
//! search's sink adds the weights at once, the tuner's (`trace.rs`) records the counts,
//! so what is tuned is exactly what is played.
//!
//! The walk is here; each term that reads what the walk found once it is done has a
//! file of its own (`threats.rs`, `royal.rs`, `space.rs`, `passers.rs`, `late.rs`), as
//! do the phase and the endgame scale (`material.rs`) and the pawns' own terms
//! (`pawns.rs`).

pub mod explain;
mod late;
mod material;
mod passers;
pub mod pawns;
mod royal;
mod score;
mod setup;
mod space;
#[cfg(test)]
mod tests;
mod threats;
pub mod trace;
pub mod weights;

use crate::core::geometry::{Bitboard, Square, Word, SQUARE_SLOTS};
use crate::core::moves::{Color, PieceType, MAX_PIECE_TYPES};
use crate::position::Position;
use crate::variant::Variant;
use late::Walked;
pub use pawns::PawnCache;
use pawns::PawnFacts;
use score::{blend, Score};
use threats::restricted;
pub use weights::{Layout, Weights};

/// A (middlegame, endgame) pair per square.
type SquareTable = Box<[(i32, i32); SQUARE_SLOTS]>;

/// What [`Eval::walk`] reports, side by side (`c` is the colour index).
pub trait Sink {
    /// Whether mobility of type `t` is wanted (else it is not counted at all).
    fn wants_mobility(&self, t: usize) -> bool;
    /// Whether every term is wanted, weighed or not (the tuner's traces).
    fn wants_all(&self) -> bool;
    /// A piece of type `t` of side `c` on `sq`.
    fn piece(&mut self, c: usize, t: usize, sq: Square);
    /// A passed pawn-rule piece of side `c` on `sq`.
    fn passed(&mut self, c: usize, sq: Square);
    /// Mobility of a piece of type `t`: `n` squares above the type's average.
    fn mobility(&mut self, c: usize, t: usize, n: i32);
    /// `n` pieces of type `t` in side `c`'s hand.
    fn hand(&mut self, c: usize, t: usize, n: i32);
    /// `n` counts of the scalar term `term` (`weights::SCALARS`) for side `c`.
    fn scalar(&mut self, c: usize, term: usize, n: i32);
    /// A piece of type `t` attacks `hits` squares of side `c`'s royal zone.
    fn zone_hits(&mut self, c: usize, t: usize, hits: i32);
    /// `n` squares of side `c`'s royal zone are attacked and not guarded.
    fn weak_zone(&mut self, c: usize, n: i32);
    /// `n` counts of the per-type feature `f` (an index of [`Layout`]) for side `c`.
    fn typed(&mut self, c: usize, f: usize, n: i32);
}

/// Per-variant evaluation tables (built once per search from the variant's weights).
pub struct Eval {
    /// Material per piece type, as the search values exchanges (royals 0).
    values: Vec<i32>,
    /// The weights the tables below were built from.
    weights: Weights,
    /// Material plus placement per type, colour and square: (middlegame, endgame).
    piece_sq: Vec<[SquareTable; 2]>,
    /// Mobility weight per type (middlegame, endgame) and the type's average.
    mob: Vec<(i32, i32, i32)>,
    /// Per colour and square: passed-pawn bonus.
    passed: [SquareTable; 2],
    /// Weights of the scalar terms (`weights::SCALARS`).
    scalars: [(i32, i32); weights::SCALARS.len()],
    /// Any of doubled, isolated, connected weighs something.
    shape_on: bool,
    /// Any of the passer's blocked and royal-distance terms weighs something.
    passer_on: bool,
    /// Any threat term weighs something.
    threats_on: bool,
    /// Types whose `mobility_low` weighs something.
    low_mask: u32,
    /// Types whose `threatened` weighs something.
    threatened_mask: u32,
    /// Types whose `royal_check` weighs something.
    check_mask: u32,
    /// Types that may earn `royal_check` (not pawn-rule, not royal).
    checker_types: u32,
    /// Of those, the types whose `royal_distance` weighs something.
    distance_mask: u32,
    /// Per type: the two other types whose moves together are exactly its own (the
    /// Queen's are the Rook's and the Bishop's), so that what those two reach from a
    /// square gives its reach without walking its rays again; neither is such a union.
    unions: [Option<(u8, u8)>; MAX_PIECE_TYPES],
    /// The types that are parts of such a union, as a bit mask.
    parts: u32,
    pawn_mask: u32,
    royal_mask: u32,
    /// The pawn facts may be cached (see [`pawns`]).
    pawn_cache_ok: bool,
    /// Per colour and square: files f-1..f+1 ahead of a pawn (an enemy pawn there stops
    /// it being passed).
    front_span: [Box<[Bitboard; SQUARE_SLOTS]>; 2],
    /// Per colour and square: the own file ahead (doubled pawns).
    file_ahead: [Box<[Bitboard; SQUARE_SLOTS]>; 2],
    /// Per square: both neighbouring files whole (isolated pawns).
    beside_files: Box<[Bitboard; SQUARE_SLOTS]>,
    /// Per colour and square: the neighbours on the same rank and one rank behind
    /// (connected pawns).
    support: [Box<[Bitboard; SQUARE_SLOTS]>; 2],
    /// Per square: its whole file.
    file: Box<[Bitboard; SQUARE_SLOTS]>,
    /// Per square: its file and the two on each side (a royal's flank).
    flank: Box<[Bitboard; SQUARE_SLOTS]>,
    /// Squares within one step of a square (the royal's zone).
    zone: Box<[Bitboard; SQUARE_SLOTS]>,
    /// Per colour and square: the squares one or two ranks ahead of a royal, its file
    /// and the neighbours (where sheltering pawns stand).
    shield: [Box<[Bitboard; SQUARE_SLOTS]>; 2],
    /// Per colour: the square as White sees it (placement is written for White).
    relative: [Box<[u8; SQUARE_SLOTS]>; 2],
    /// Non-pawn material of the start position (the middlegame end of the taper).
    start_phase: i32,
    /// The non-royal types by rising value (threats by cheaper pieces).
    by_value: Vec<usize>,
    /// The runs of `by_value` whose types are worth the same, as index ranges.
    value_runs: Vec<(usize, usize)>,
    /// Non-pawn, non-royal types whose every move keeps the square colour (the pair term).
    colour_bound: Vec<usize>,
    /// The squares of a1's colour.
    dark: Bitboard,
    /// Types below queen value that ride the whole length of a file (the open-file terms).
    file_riders: Vec<usize>,
    /// Light types (worth under `weights::LIGHT`; not pawn-rule, not royal): outposts.
    light_mask: u32,
    /// Types that ride (not pawn-rule, not royal): the x-ray on the royal zone.
    rider_mask: u32,
    /// Per colour: the enemy half of the board (where an outpost counts).
    enemy_half: [Bitboard; 2],
    /// Per colour: the central files (the middle half) on the own ranks from the second
    /// to the last before the board's middle (where the space term counts squares).
    space_area: [Bitboard; 2],
    /// The cheapest non-pawn, non-royal value and a little over (an eighth): the most
    /// material a side can be ahead by without pawns and still be held (0: no such type).
    minor_margin: i32,
    /// Whether the endgame score is scaled at all ([`Eval::eg_scales`]; the table's
    /// `eval.endgame_scale`).
    scaled: bool,
}

/// The endgame's full weight in [`Eval::eg_scales`].
pub const SCALE_FULL: i32 = 64;

/// The passer terms that need every piece's reach ([`Eval::passer_terms`]).
const PASSED_PATH_TERMS: [usize; 4] = [
    weights::PASSED_SAFE_STOP,
    weights::PASSED_SAFE_PATH,
    weights::PASSED_SAFE_SPAN,
    weights::PASSED_GUARDED_STOP,
];

impl Eval {
    /// Material value of a piece type (royals 0).
    #[inline(always)]
    pub fn value(&self, t: PieceType) -> i32 {
        self.values[t as usize]
    }

    /// The material values of every type.
    pub fn values(&self) -> &[i32] {
        &self.values
    }

    /// The weights this evaluation plays with.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The square `sq` of side `c` as White sees it (the placement tables' index).
    #[inline(always)]
    pub fn relative(&self, c: usize, sq: Square) -> usize {
        self.relative[c][sq.idx()] as usize
    }

    /// The score of the position for the side to move, in centipawns.
    pub fn evaluate<W: Word>(&self, pos: &Position<W>) -> i32 {
        let mut s = Score::new(self);
        let f = self.pawn_walk(pos, &mut s);
        self.placement(pos, &mut s);
        self.finish(pos, s, &f, self.phase(pos), self.eg_scales(pos))
    }

    /// [`Eval::evaluate`], with the pawn facts of `pos` (pawn key `key`, see
    /// [`Position::pawn_key`]) taken from `cache` when it holds them.
    pub fn evaluate_cached<W: Word>(
        &self,
        pos: &Position<W>,
        key: u64,
        cache: &mut PawnCache<W>,
    ) -> i32 {
        self.evaluate_within(pos, key, cache, i32::MIN, i32::MAX, 0)
            .value
    }

    /// [`Eval::evaluate_cached`] for a caller that only needs the value where it may lie
    /// inside `(lo, hi)`: when material, placement and the pawns' terms alone (the cheap
    /// part, read from tables and `cache`) lie `margin` or more outside that window, the
    /// rest (mobility, threats, royal safety: every piece's attacks) is not walked and the
    /// cheap part is returned as an estimate.
    pub fn evaluate_within<W: Word>(
        &self,
        pos: &Position<W>,
        key: u64,
        cache: &mut PawnCache<W>,
        lo: i32,
        hi: i32,
        margin: i32,
    ) -> Estimate {
        let mut s = Score::new(self);
        let walked;
        let f = if self.pawn_cache_ok {
            self.cached_pawns(pos, key, cache, &mut s.mg, &mut s.eg)
        } else {
            walked = self.pawn_walk(pos, &mut s);
            &walked
        };
        self.placement(pos, &mut s);
        let phase = self.phase(pos);
        let scales = self.eg_scales(pos);
        let rough = blend(pos, &s, phase, scales);
        if rough.saturating_sub(margin) >= hi || rough.saturating_add(margin) <= lo {
            return Estimate {
                value: rough,
                exact: false,
            };
        }
        Estimate {
            value: self.finish(pos, s, f, phase, scales),
            exact: true,
        }
    }

    /// Material and placement of the pieces on the board that are not pawn-rule pieces
    /// (those are the pawns' terms), and the pieces in hand.
    #[inline]
    fn placement<W: Word, S: Sink>(&self, pos: &Position<W>, sink: &mut S) {
        let all = (1u64 << self.values.len()) - 1;
        for c in Color::BOTH {
            let ci = c.idx();
            let mut types = all & !(self.pawn_mask as u64);
            while types != 0 {
                let t = types.trailing_zeros() as usize;
                types &= types - 1;
                for sq in pos.pieces(t as PieceType, c).iter() {
                    sink.piece(ci, t, sq);
                }
            }
            // Most games never hold a piece in hand: one test for all the types.
            if pos.has_hand(c) {
                for t in 0..self.values.len() {
                    let n = pos.hand(c, t as PieceType) as i32;
                    if n > 0 {
                        sink.hand(ci, t, n);
                    }
                }
            }
        }
    }

    /// Whether the walk counts scalar `term`: it is weighed, or `sink` wants every
    /// feature (the tuner's trace).
    #[inline(always)]
    fn counts<S: Sink>(&self, term: usize, sink: &S) -> bool {
        self.scalars[term] != (0, 0) || sink.wants_all()
    }

    /// The score for the side to move, from the cheap part in `s` (pawns' terms, material
    /// and placement), the pawns' facts `f` and the game phase.
    fn finish<W: Word>(
        &self,
        pos: &Position<W>,
        mut s: Score,
        f: &PawnFacts<W>,
        phase: (i32, i32),
        scales: [i32; 2],
    ) -> i32 {
        if self.threats_on {
            self.walk_rest::<_, _, true>(pos, &mut s, f);
        } else {
            self.walk_rest::<_, _, false>(pos, &mut s, f);
        }
        let [scale, cap] = self.weights.royal_danger;
        for c in 0..2 {
            if s.attackers[c] >= 2 {
                let d = s.danger[c] as i64;
                s.mg[c] -= (d * d * scale as i64 / 256).min(cap as i64) as i32;
            }
        }
        blend(pos, &s, phase, scales)
    }

    /// Reports every feature of the position to `sink`; `THREATS` also counts the
    /// threat terms (they need every piece's attacks).
    // A type indexes the position, the attack tables and several weight tables at once.
    #[allow(clippy::needless_range_loop)]
    pub fn walk<W: Word, S: Sink, const THREATS: bool>(&self, pos: &Position<W>, sink: &mut S) {
        let f = self.pawn_walk(pos, sink);
        self.placement(pos, sink);
        self.walk_rest::<W, S, THREATS>(pos, sink, &f);
    }

    /// Everything [`Eval::walk`] reports but the pawns' own terms and
    /// [`Eval::placement`], given the pawns' facts `f`.
    // A type indexes the position, the attack tables and several weight tables at once.
    #[allow(clippy::needless_range_loop)]
    fn walk_rest<W: Word, S: Sink, const THREATS: bool>(
        &self,
        pos: &Position<W>,
        sink: &mut S,
        f: &PawnFacts<W>,
    ) {
        let v = &**pos.variant();
        let occ = pos.occupied();
        let pawns = f.pawns;
        let royal_sq = [pos.royals(Color::White), pos.royals(Color::Black)];
        let zones = [
            royal_sq[0]
                .iter()
                .fold(Bitboard::EMPTY, |z, s| z | self.zone[s.idx()].narrow()),
            royal_sq[1]
                .iter()
                .fold(Bitboard::EMPTY, |z, s| z | self.zone[s.idx()].narrow()),
        ];
        // Mobility counts only squares no enemy pawn-rule piece attacks: a piece that can
        // only go where a pawn takes it is not mobile there.
        let pawn_att = f.attacks;
        // With THREATS: per side and type, the occupied squares its pieces attack.
        let mut att = [[Bitboard::EMPTY; MAX_PIECE_TYPES]; 2];
        let passer = self.passer_on || sink.wants_all();
        // For the weak squares of the royal zones: per side, every square its pieces
        // attack, and those its non-royal pieces guard.
        let weak_on = self.weights.royal_weak != 0 || sink.wants_all();
        let outpost_on = self.counts(weights::OUTPOST, sink);
        let checks = if sink.wants_all() {
            self.checker_types
        } else {
            self.check_mask
        };
        let distance = if sink.wants_all() {
            self.checker_types
        } else {
            self.distance_mask
        };
        // Per side and type, every square its pieces reach (the safe checks).
        let mut reach_type = [[Bitboard::EMPTY; MAX_PIECE_TYPES]; 2];
        let space_on = self.counts(weights::SPACE, sink);
        let push_on = self.counts(weights::PUSH_THREAT, sink);
        let path_on = PASSED_PATH_TERMS.iter().any(|&t| self.counts(t, sink));
        let restricted_on = self.counts(weights::RESTRICTED, sink);
        let pawn_distance_on = self.counts(weights::ROYAL_PAWN_DISTANCE, sink);
        let behind_on = self.counts(weights::MINOR_BEHIND_PAWN, sink);
        let colour_pawns_on = self.counts(weights::COLOUR_PAWNS, sink);
        let safe_pawn_on = self.counts(weights::SAFE_PAWN_THREAT, sink);
        let pawnless_on = self.counts(weights::PAWNLESS_FLANK, sink);
        // Whether one of the out-of-line terms counts (see [`Eval::late_terms`]).
        let late = self.counts(weights::ROYAL_THREAT, sink)
            || self.counts(weights::REACHABLE_OUTPOST, sink)
            || self.counts(weights::QUEEN_THREAT, sink)
            || self.counts(weights::ZONE_XRAY, sink);
        let reach_on = weak_on
            || late
            || checks != 0
            || space_on
            || push_on
            || path_on
            || restricted_on
            || safe_pawn_on;
        let mut reach_all = pawn_att;
        let mut guard = pawn_att;
        // Per side, the squares two of its pieces reach, a pawn-rule piece and another
        // included. Two pawn-rule pieces alone are left out (their attacks are one set):
        // on the enemy's side such a square is held by a pawn anyway, and on the own side
        // it is the rare square the enemy also reaches twice.
        let mut twice = [Bitboard::EMPTY; 2];
        for c in Color::BOTH {
            let ci = c.idx();
            let own = pos.color_bb(c);
            let enemy_zone = zones[1 - ci];
            // The first own royal is the one a piece keeps near (`royal_distance`).
            let home = (distance != 0 && royal_sq[ci].any()).then(|| royal_sq[ci].lsb());
            let mut pawn_slot = 0;
            for t in 0..self.values.len() {
                let bb = pos.pieces(t as PieceType, c);
                if self.pawn_mask >> t & 1 != 0 {
                    if THREATS {
                        let pa = &v.attacks[ci][t];
                        att[ci][t] = if self.pawn_cache_ok {
                            f.by_type[ci][pawn_slot] & occ
                        } else {
                            bb.iter().fold(Bitboard::EMPTY, |a, sq| {
                                a | pa.capture_targets(&v.rays, sq, occ)
                            })
                        };
                    }
                    pawn_slot += 1;
                    continue;
                }
                if bb.is_empty() {
                    continue;
                }
                let mob_on = sink.wants_mobility(t);
                let is_royal = self.royal_mask >> t & 1 != 0;
                let pa = &v.attacks[ci][t];
                let light = outpost_on && self.light_mask >> t & 1 != 0;
                let home = home.filter(|_| distance >> t & 1 != 0);
                for sq in bb.iter() {
                    if light && f.outposts[ci].has(sq) {
                        sink.scalar(ci, weights::OUTPOST, 1);
                    }
                    if let Some(k) = home {
                        let d = v.board.distance(sq, k);
                        sink.typed(ci, self.weights.layout.royal_distance(t), d);
                    }
                    if !mob_on && enemy_zone.is_empty() && !THREATS && !reach_on {
                        continue;
                    }
                    let reached = pa.reach(&v.rays, sq, occ);
                    if reach_on {
                        twice[ci] |= reach_all[ci] & reached;
                        reach_all[ci] |= reached;
                        if !is_royal {
                            guard[ci] |= reached;
                        }
                        if checks >> t & 1 != 0 {
                            reach_type[ci][t] |= reached;
                        }
                    }
                    if THREATS {
                        att[ci][t] |= pa.captures_in(&v.rays, sq, occ, reached);
                    }
                    if mob_on {
                        let reach = reached & !own & !pawn_att[1 - ci];
                        let n = reach.count() as i32 - self.mob[t].2;
                        sink.mobility(ci, t, n);
                        if n < 0 && (self.low_mask >> t & 1 != 0 || sink.wants_all()) {
                            sink.typed(ci, self.weights.layout.mobility_low(t), -n);
                        }
                    }
                    let hits = (reached & enemy_zone).count() as i32;
                    if hits > 0 && !is_royal {
                        sink.zone_hits(1 - ci, t, hits);
                    }
                }
            }
            for &t in &self.colour_bound {
                let bb = pos.pieces(t as PieceType, c);
                let dark = self.dark.narrow();
                if (bb & dark).any() && (bb & !dark).any() {
                    sink.scalar(ci, weights::PAIR, 1);
                }
                if colour_pawns_on {
                    let on_dark = (pawns[ci] & dark).count() as i32;
                    let on_light = (pawns[ci] & !dark).count() as i32;
                    let n = (bb & dark).count() as i32 * on_dark
                        + (bb & !dark).count() as i32 * on_light;
                    if n > 0 {
                        sink.scalar(ci, weights::COLOUR_PAWNS, n);
                    }
                }
            }
            if behind_on {
                // A pawn-rule piece of either side on the square ahead shields the piece
                // from frontal attack and keeps the file closed (Stockfish's minor
                // behind pawn).
                let all_pawns = pawns[0] | pawns[1];
                let ahead = if ci == 0 { 1 } else { -1 };
                let mut m = self.light_mask;
                let mut n = 0;
                while m != 0 {
                    let t = m.trailing_zeros() as PieceType;
                    m &= m - 1;
                    n += (v.board.shift(pos.pieces(t, c), 0, ahead) & all_pawns).count() as i32;
                }
                if n > 0 {
                    sink.scalar(ci, weights::MINOR_BEHIND_PAWN, n);
                }
            }
            for &t in &self.file_riders {
                for sq in pos.pieces(t as PieceType, c).iter() {
                    let file = self.file[sq.idx()].narrow();
                    if (file & pawns[ci]).is_empty() {
                        let term = if (file & pawns[1 - ci]).is_empty() {
                            weights::OPEN_FILE
                        } else {
                            weights::HALF_OPEN_FILE
                        };
                        sink.scalar(ci, term, 1);
                    }
                }
            }
            for k in royal_sq[ci].iter() {
                let cover = (self.shield[ci][k.idx()].narrow() & pawns[ci])
                    .count()
                    .min(3) as i32;
                sink.scalar(ci, weights::SHELTER, cover);
            }
            if pawnless_on && royal_sq[ci].any() {
                // A royal with no pawn on its flank has nothing to shelter it nor any
                // pawn to win or stop (Stockfish's king on a pawnless flank).
                let k = royal_sq[ci].lsb();
                if (self.flank[k.idx()].narrow() & (pawns[0] | pawns[1])).is_empty() {
                    sink.scalar(ci, weights::PAWNLESS_FLANK, 1);
                }
            }
            if pawn_distance_on && royal_sq[ci].any() {
                let k = royal_sq[ci].lsb();
                let d = pawns[ci].iter().map(|p| v.board.distance(k, p)).min();
                if let Some(d) = d {
                    sink.scalar(ci, weights::ROYAL_PAWN_DISTANCE, d);
                }
            }
        }
        if weak_on {
            for ci in 0..2 {
                let weak = zones[ci] & reach_all[1 - ci] & !guard[ci];
                if weak.any() {
                    sink.weak_zone(ci, weak.count() as i32);
                }
            }
        }
        if late {
            let walked = Walked {
                royal_sq: &royal_sq,
                zones: &zones,
                pawns: &pawns,
                pawn_att: &pawn_att,
                outposts: &f.outposts,
                twice: &twice,
                types: checks,
                by_type: &reach_type,
            };
            self.late_terms(pos, &walked, sink);
        }
        if space_on {
            for ci in 0..2 {
                let n = self.space(pos, ci, &pawns, &pawn_att, &reach_all);
                if n > 0 {
                    sink.scalar(ci, weights::SPACE, n);
                }
            }
        }
        if push_on {
            for ci in 0..2 {
                let n = self.push_threats(pos, ci, &royal_sq, &pawns, &pawn_att, &reach_all);
                if n > 0 {
                    sink.scalar(ci, weights::PUSH_THREAT, n);
                }
            }
        }
        if restricted_on {
            for ci in 0..2 {
                let n = restricted(ci, &pawn_att, &reach_all, &twice);
                if n > 0 {
                    sink.scalar(ci, weights::RESTRICTED, n);
                }
            }
        }
        if safe_pawn_on {
            for ci in 0..2 {
                let n = self.safe_pawn_threats(pos, ci, &royal_sq, &pawns, &reach_all);
                if n > 0 {
                    sink.scalar(ci, weights::SAFE_PAWN_THREAT, n);
                }
            }
        }
        if passer || path_on {
            // The ladder's rungs need every piece's reach, known only now.
            let reach = path_on.then_some(&reach_all);
            for ci in 0..2 {
                for sq in f.passed[ci].iter() {
                    self.passer_terms(pos, occ, ci, sq, &royal_sq, reach, sink);
                }
            }
        }
        if checks != 0 {
            self.safe_checks(pos, checks, &royal_sq, &reach_type, &reach_all, sink);
        }
        if THREATS {
            self.threats(pos, &att, sink);
        }
        sink.scalar(pos.side_to_move().idx(), weights::TEMPO_TERM, 1);
    }
}

/// A static evaluation that may have stopped at its cheap part
/// ([`Eval::evaluate_within`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    /// Centipawns for the side to move.
    pub value: i32,
    /// Whether this is the whole evaluation (else material, placement and pawns only).
    pub exact: bool,
}

/// Every square a piece of type `t` and colour `c` on `from` moves or captures to.
#[inline(always)]
fn reach<W: Word>(v: &Variant, c: usize, t: usize, from: Square, occ: Bitboard<W>) -> Bitboard<W> {
    v.attacks[c][t].reach(&v.rays, from, occ)
}
