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

pub mod explain;
pub mod pawns;
mod score;
mod setup;
pub mod trace;
pub mod weights;

use crate::core::geometry::{Bitboard, Square, Word, SQUARE_SLOTS};
use crate::core::moves::{Color, PieceType, MAX_PIECE_TYPES};
use crate::position::Position;
use crate::variant::Variant;
pub use pawns::PawnCache;
use pawns::PawnFacts;
use score::{blend, Score};
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

    /// Non-pawn, non-royal material of both sides, on the board and in hand.
    fn phase_material<W: Word>(&self, pos: &Position<W>) -> i32 {
        let counted = self.counted_types();
        let mut total = self.board_material(pos, pos.occupied());
        // Most games never hold a piece in hand: one test a side for all the types.
        for c in Color::BOTH {
            if pos.has_hand(c) {
                let mut types = counted;
                while types != 0 {
                    let t = types.trailing_zeros() as usize;
                    types &= types - 1;
                    total += pos.hand(c, t as PieceType) as i32 * self.values[t];
                }
            }
        }
        total
    }

    /// How far the game is from its start toward the endgame: (phase, full phase); the
    /// middlegame weights count `phase / full`, the endgame ones the rest.
    pub fn phase<W: Word>(&self, pos: &Position<W>) -> (i32, i32) {
        (
            self.phase_material(pos).min(self.start_phase),
            self.start_phase,
        )
    }

    /// This evaluation with the endgame score never scaled: one term's weight then shows
    /// whole in a position with few pawns.
    pub fn without_endgame_scale(mut self) -> Eval {
        self.scaled = false;
        self
    }

    /// The types neither pawn-rule nor royal, as a mask (what the phase and the endgame
    /// scale count as material).
    #[inline]
    fn counted_types(&self) -> u64 {
        ((1u64 << self.values.len()) - 1) & !((self.pawn_mask | self.royal_mask) as u64)
    }

    /// Value of the pieces of [`Eval::counted_types`] on the squares of `side` (one
    /// colour's pieces, or every piece).
    fn board_material<W: Word>(&self, pos: &Position<W>, side: Bitboard<W>) -> i32 {
        let mut types = self.counted_types();
        let mut total = 0;
        while types != 0 {
            let t = types.trailing_zeros() as usize;
            types &= types - 1;
            let on_board = (pos.pieces(t as PieceType, Color::White)
                | pos.pieces(t as PieceType, Color::Black))
                & side;
            total += on_board.count() as i32 * self.values[t];
        }
        total
    }

    /// How much of the endgame score counts (out of [`SCALE_FULL`]) when White, then
    /// when Black, is the side ahead (Stockfish's scale factor). A side ahead with few
    /// pawn-rule pieces wins less often than its material says: with none, and no more
    /// than a minor piece to the good, it seldom wins at all (a lone minor never); with
    /// one to three, each pawn it has left is what its winning chances rest on. Pieces in
    /// hand can be dropped anywhere, so with any in hand nothing is scaled.
    pub fn eg_scales<W: Word>(&self, pos: &Position<W>) -> [i32; 2] {
        if !self.scaled {
            return [SCALE_FULL; 2];
        }
        let pawns = Color::BOTH.map(|c| {
            let mut types = self.pawn_mask as u64;
            let mut n = 0;
            while types != 0 {
                let t = types.trailing_zeros() as usize;
                types &= types - 1;
                n += pos.pieces(t as PieceType, c).count() as i32;
            }
            n
        });
        // Most positions: enough pawns on both sides to leave the endgame whole.
        if pawns[0] >= 4 && pawns[1] >= 4 {
            return [SCALE_FULL; 2];
        }
        if pos.has_hand(Color::White) || pos.has_hand(Color::Black) {
            return [SCALE_FULL; 2];
        }
        let npm = Color::BOTH.map(|c| self.board_material(pos, pos.color_bb(c)));
        [0, 1].map(|s| {
            let w = 1 - s;
            if pawns[s] == 0 && self.minor_margin > 0 && npm[s] - npm[w] <= self.minor_margin {
                if npm[s] <= self.minor_margin {
                    0
                } else if npm[w] <= self.minor_margin {
                    4
                } else {
                    14
                }
            } else {
                (36 + 7 * pawns[s]).min(SCALE_FULL)
            }
        })
    }

    /// True when `c` has material other than pawns and royals (null move is unsafe
    /// without: zugzwang).
    pub fn has_pieces<W: Word>(&self, pos: &Position<W>, c: Color) -> bool {
        (0..self.values.len()).any(|t| {
            self.pawn_mask >> t & 1 == 0
                && self.royal_mask >> t & 1 == 0
                && (pos.pieces(t as PieceType, c).any() || pos.hand(c, t as PieceType) > 0)
        })
    }

    /// True when either side has a piece in hand.
    pub fn any_in_hand<W: Word>(&self, pos: &Position<W>) -> bool {
        (0..self.values.len()).any(|t| {
            pos.hand(Color::White, t as PieceType) > 0 || pos.hand(Color::Black, t as PieceType) > 0
        })
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

    /// The terms added last, each walked on its own and only when counted: royal threat,
    /// reachable outposts, queen threat, x-ray on the royal zone. Out of the walk's
    /// body: inside it, even gated off, they cost the chess bench 4–21M instructions, as
    /// the larger body was laid out worse.
    #[inline(never)]
    fn late_terms<W: Word, S: Sink>(&self, pos: &Position<W>, w: &Walked<W>, sink: &mut S) {
        if self.counts(weights::ROYAL_THREAT, sink) {
            self.royal_threats(pos, w.royal_sq, w.pawn_att, w.twice, sink);
        }
        for ci in 0..2 {
            if self.counts(weights::REACHABLE_OUTPOST, sink) {
                self.reachable_outposts(pos, ci, w.outposts[ci], sink);
            }
            if self.counts(weights::QUEEN_THREAT, sink) {
                self.queen_threats(pos, ci, w, sink);
            }
            if self.counts(weights::ZONE_XRAY, sink) {
                self.zone_xrays(pos, ci, w.zones[1 - ci], w.pawns, sink);
            }
        }
    }

    /// Side `ci`'s riders that do not reach the enemy royal's zone but would through
    /// every piece but the pawn-rule ones (Stockfish's rook and bishop on king ring: a
    /// line that opens when a piece moves off it).
    fn zone_xrays<W: Word, S: Sink>(
        &self,
        pos: &Position<W>,
        ci: usize,
        zone: Bitboard<W>,
        pawns: &[Bitboard<W>; 2],
        sink: &mut S,
    ) {
        if zone.is_empty() {
            return;
        }
        let v = &**pos.variant();
        let occ = pos.occupied();
        let through = pawns[0] | pawns[1];
        let n = count_pieces(pos, ci, self.rider_mask, |t, sq| {
            (reach(v, ci, t, sq, through) & zone).any()
                && (reach(v, ci, t, sq, occ) & zone).is_empty()
        });
        if n > 0 {
            sink.scalar(ci, weights::ZONE_XRAY, n);
        }
    }

    /// Side `ci`'s light pieces that stand off an outpost but reach an outpost square no
    /// own piece stands on (Stockfish's reachable outpost: a square it can settle on next
    /// move).
    fn reachable_outposts<W: Word, S: Sink>(
        &self,
        pos: &Position<W>,
        ci: usize,
        outposts: Bitboard<W>,
        sink: &mut S,
    ) {
        let c = Color::BOTH[ci];
        let free = outposts & !pos.color_bb(c);
        if free.is_empty() {
            return;
        }
        let v = &**pos.variant();
        let occ = pos.occupied();
        let n = count_pieces(pos, ci, self.light_mask, |t, sq| {
            !outposts.has(sq) && (reach(v, ci, t, sq, occ) & free).any()
        });
        if n > 0 {
            sink.scalar(ci, weights::REACHABLE_OUTPOST, n);
        }
    }

    /// Side `ci`'s safe squares from which a cheaper piece of its own could attack, next
    /// move, the enemy's most valuable piece when that piece is alone of its type (a
    /// queen in chess; Stockfish's knight and slider on queen). Safe: no own piece stands
    /// there, the enemy does not hold it strongly (see [`restricted`]), and the target
    /// itself cannot take there unless a second own piece reaches it.
    fn queen_threats<W: Word, S: Sink>(
        &self,
        pos: &Position<W>,
        ci: usize,
        w: &Walked<W>,
        sink: &mut S,
    ) {
        let (pawn_att, twice) = (w.pawn_att, w.twice);
        let v = &**pos.variant();
        let occ = pos.occupied();
        let (c, d) = (Color::BOTH[ci], 1 - ci);
        let plain = !(self.pawn_mask | self.royal_mask);
        let Some(&top) =
            self.by_value.iter().rev().find(|&&t| {
                plain >> t & 1 != 0 && pos.pieces(t as PieceType, Color::BOTH[d]).any()
            })
        else {
            return;
        };
        let target = pos.pieces(top as PieceType, Color::BOTH[d]);
        if target.count() != 1 {
            return;
        }
        let q = target.lsb();
        let strong = pawn_att[d] | (twice[d] & !twice[ci]);
        let exposed = reach(v, d, top, q, occ) & !twice[ci];
        let safe = !pos.color_bb(c) & !strong & !exposed;
        let mut n = 0;
        for t in 0..self.values.len() {
            if plain >> t & 1 == 0 || self.values[t] >= self.values[top] {
                continue;
            }
            let bb = pos.pieces(t as PieceType, c);
            if bb.is_empty() {
                continue;
            }
            // Where a piece of type `t` would attack `q` from: what the target's side
            // would reach from `q` as that type (exact for pieces that capture as they
            // move and alike to the left and right, as in [`Eval::safe_checks`]).
            let from = reach(v, d, t, q, occ) & safe;
            if from.is_empty() {
                continue;
            }
            let moves = if w.types >> t & 1 != 0 {
                w.by_type[ci][t]
            } else {
                bb.iter()
                    .fold(Bitboard::EMPTY, |b, sq| b | reach(v, ci, t, sq, occ))
            };
            n += (moves & from).count() as i32;
        }
        if n > 0 {
            sink.scalar(ci, weights::QUEEN_THREAT, n);
        }
    }

    /// Per side, the enemy pieces its royals attack that the enemy holds only weakly: no
    /// enemy pawn-rule piece guards them, and they are not reached twice by the enemy
    /// where the royal's side reaches them once (Stockfish's threat by king: a piece the
    /// royal may simply take).
    fn royal_threats<W: Word, S: Sink>(
        &self,
        pos: &Position<W>,
        royal_sq: &[Bitboard<W>; 2],
        pawn_att: &[Bitboard<W>; 2],
        twice: &[Bitboard<W>; 2],
        sink: &mut S,
    ) {
        let v = &**pos.variant();
        let occ = pos.occupied();
        let royals = royal_sq[0] | royal_sq[1];
        for ci in 0..2 {
            let strong = pawn_att[1 - ci] | (twice[1 - ci] & !twice[ci]);
            let victims = pos.color_bb(Color::BOTH[1 - ci]) & !royals & !strong;
            let hit = royal_sq[ci].iter().fold(Bitboard::EMPTY, |b, k| {
                b | reach(v, ci, pos.piece_on(k).kind() as usize, k, occ)
            });
            let n = (hit & victims).count() as i32;
            if n > 0 {
                sink.scalar(ci, weights::ROYAL_THREAT, n);
            }
        }
    }

    /// Per attacking type in `types`: the squares from which one of its pieces would check
    /// the enemy royal, that one of them can move to, and that no enemy piece guards.
    // Found from the royal's square with the defender's own move tables: the defender's
    // moves are the attacker's mirrored rank-wise, so a piece of the royal's colour there
    // reaches what attacks it exactly for pieces that move as they capture and move the
    // same to the left as to the right (most), roughly for the others.
    fn safe_checks<W: Word, S: Sink>(
        &self,
        pos: &Position<W>,
        types: u32,
        royal_sq: &[Bitboard<W>; 2],
        reach_type: &[[Bitboard<W>; MAX_PIECE_TYPES]; 2],
        reach_all: &[Bitboard<W>; 2],
        sink: &mut S,
    ) {
        let v = &**pos.variant();
        let occ = pos.occupied();
        for (a, c) in Color::BOTH.into_iter().enumerate() {
            let d = 1 - a;
            let Some(k) = royal_sq[d].iter().next() else {
                continue;
            };
            let free = !pos.color_bb(c) & !reach_all[d];
            // What the parts of unions reach from the royal's square, as found.
            let mut reached = [Bitboard::EMPTY; MAX_PIECE_TYPES];
            let mut done = 0u32;
            let mut m = types;
            while m != 0 {
                let t = m.trailing_zeros() as usize;
                m &= m - 1;
                let from = reach_type[a][t] & free;
                if from.is_empty() {
                    continue;
                }
                let checks = match self.unions[t] {
                    Some((x, y)) => {
                        let (x, y) = (x as usize, y as usize);
                        let rx = if done >> x & 1 != 0 {
                            reached[x]
                        } else {
                            reach(v, d, x, k, occ)
                        };
                        let ry = if done >> y & 1 != 0 {
                            reached[y]
                        } else {
                            reach(v, d, y, k, occ)
                        };
                        rx | ry
                    }
                    None => {
                        let r = reach(v, d, t, k, occ);
                        if self.parts >> t & 1 != 0 {
                            reached[t] = r;
                            done |= 1 << t;
                        }
                        r
                    }
                };
                let n = (checks & from).count();
                if n > 0 {
                    sink.typed(a, self.weights.layout.royal_check(t), n.min(3) as i32);
                }
            }
        }
    }

    /// Side `ci`'s space: the squares of its area no enemy pawn-rule piece attacks and no
    /// own one stands on, plus those of them up to two ranks behind an own pawn-rule
    /// piece that no enemy piece attacks, times the square of its piece count less three,
    /// over 64 (a weight of 2 is Stockfish's scale).
    fn space<W: Word>(
        &self,
        pos: &Position<W>,
        ci: usize,
        pawns: &[Bitboard<W>; 2],
        pawn_att: &[Bitboard<W>; 2],
        reach_all: &[Bitboard<W>; 2],
    ) -> i32 {
        let safe = self.space_area[ci].narrow() & !pawns[ci] & !pawn_att[1 - ci];
        if safe.is_empty() {
            return 0;
        }
        let bd = &pos.variant().board;
        let back = |b: Bitboard<W>| {
            if ci == 0 {
                Bitboard(b.0 >> bd.files as u32)
            } else {
                Bitboard(b.0 << bd.files as u32) & bd.all.narrow()
            }
        };
        let one = back(pawns[ci]);
        let behind = one | back(one);
        let bonus = safe.count() + (behind & safe & !reach_all[1 - ci]).count();
        let pieces = pos.color_bb(Color::BOTH[ci]).count() as i32;
        let w = (pieces - 3).max(0);
        bonus as i32 * w * w / 64
    }

    /// The enemy pieces (not pawn-rule, not royal) side `ci`'s pawn-rule pieces would
    /// attack after one step to the empty square ahead of them, where that square is
    /// safe: no enemy pawn-rule piece attacks it, and no enemy piece unless an own one
    /// guards it too (Stockfish's threat by pawn push, single steps only).
    fn push_threats<W: Word>(
        &self,
        pos: &Position<W>,
        ci: usize,
        royal_sq: &[Bitboard<W>; 2],
        pawns: &[Bitboard<W>; 2],
        pawn_att: &[Bitboard<W>; 2],
        reach_all: &[Bitboard<W>; 2],
    ) -> i32 {
        let victims = Self::pawn_victims(pos, ci, royal_sq, pawns);
        if victims.is_empty() {
            return 0;
        }
        let occ = pos.occupied();
        let safe = !(occ | pawn_att[1 - ci] | (reach_all[1 - ci] & !reach_all[ci]));
        // Each pawn-rule piece's stop square is one rank ahead (`stop_square`): the whole
        // set steps at once, and only the steps that land safely are looked at.
        let ahead = if ci == 0 { 1 } else { -1 };
        let bd = &pos.variant().board;
        let mut n = 0;
        self.pawn_hits(
            pos,
            ci,
            victims,
            |bb| bd.shift(bb, 0, ahead) & safe,
            |hits| n += hits.count() as i32,
        );
        n
    }

    /// The enemy pieces (not pawn-rule, not royal) that side `ci`'s safe pawn-rule pieces
    /// attack, each once: a pawn-rule piece is safe where the enemy does not reach it or
    /// an own piece does (Stockfish's threat by safe pawn). A threat a recapture cannot
    /// answer is worth more than one the cheaper-attacker term counts alike.
    fn safe_pawn_threats<W: Word>(
        &self,
        pos: &Position<W>,
        ci: usize,
        royal_sq: &[Bitboard<W>; 2],
        pawns: &[Bitboard<W>; 2],
        reach_all: &[Bitboard<W>; 2],
    ) -> i32 {
        let victims = Self::pawn_victims(pos, ci, royal_sq, pawns);
        if victims.is_empty() {
            return 0;
        }
        let safe = !reach_all[1 - ci] | reach_all[ci];
        let mut hit = Bitboard::EMPTY;
        self.pawn_hits(pos, ci, victims, |bb| bb & safe, |hits| hit |= hits);
        hit.count() as i32
    }

    /// What a pawn-rule piece may threaten: side `ci`'s enemy pieces that are neither
    /// pawn-rule nor royal.
    #[inline]
    fn pawn_victims<W: Word>(
        pos: &Position<W>,
        ci: usize,
        royal_sq: &[Bitboard<W>; 2],
        pawns: &[Bitboard<W>; 2],
    ) -> Bitboard<W> {
        pos.color_bb(Color::BOTH[1 - ci]) & !pawns[1 - ci] & !royal_sq[1 - ci]
    }

    /// For each pawn-rule type of side `ci`, on each square `from` picks out of its
    /// pieces' set, hands `each` the `victims` a piece of the type would capture there.
    #[inline]
    fn pawn_hits<W: Word>(
        &self,
        pos: &Position<W>,
        ci: usize,
        victims: Bitboard<W>,
        from: impl Fn(Bitboard<W>) -> Bitboard<W>,
        mut each: impl FnMut(Bitboard<W>),
    ) {
        let v = &**pos.variant();
        let occ = pos.occupied();
        let mut m = self.pawn_mask;
        while m != 0 {
            let t = m.trailing_zeros() as usize;
            m &= m - 1;
            for sq in from(pos.pieces(t as PieceType, Color::BOTH[ci])).iter() {
                each(v.attacks[ci][t].capture_targets(&v.rays, sq, occ) & victims);
            }
        }
    }

    /// The square one step ahead of `sq` on its file for side `ci` (a pawn's stop
    /// square), if the board goes on.
    #[inline]
    fn stop_square<W: Word>(&self, ci: usize, sq: Square) -> Option<Square> {
        let ahead = self.file_ahead[ci][sq.idx()].narrow::<W>();
        // Squares count up by rank, so the nearest square ahead is the lowest for White.
        match (ahead.is_empty(), ci) {
            (true, _) => None,
            (false, 0) => Some(ahead.lsb()),
            (false, _) => Some(ahead.msb()),
        }
    }

    /// Whether `sq` is an outpost for side `ci`: in the enemy half, guarded by an own
    /// pawn-rule piece, and out of reach of every enemy one, now and as they advance.
    #[inline]
    fn outpost<W: Word>(
        &self,
        ci: usize,
        sq: Square,
        pawns: &[Bitboard<W>; 2],
        pawn_att: &[Bitboard<W>; 2],
    ) -> bool {
        let s = sq.idx();
        self.enemy_half[ci].has(sq)
            && pawn_att[ci].has(sq)
            && (self.front_span[ci][s].narrow() & self.beside_files[s].narrow() & pawns[1 - ci])
                .is_empty()
    }

    /// A passed pawn-rule piece of side `ci` on `sq`: whether the square ahead is taken,
    /// and how near each side's royal stands to it, weighed by how far the passer has come;
    /// given every piece's `reach`, how free it is to run (Stockfish's passed-pawn ladder):
    /// its empty square ahead out of the enemy's reach, then the whole file ahead, then the
    /// three files ahead free of enemy reach and enemy pieces, each a step up; and that
    /// square in an own piece's reach. Each rung counts the relative rank.
    #[allow(clippy::too_many_arguments)]
    fn passer_terms<W: Word, S: Sink>(
        &self,
        pos: &Position<W>,
        occ: Bitboard<W>,
        ci: usize,
        sq: Square,
        royal_sq: &[Bitboard<W>; 2],
        reach: Option<&[Bitboard<W>; 2]>,
        sink: &mut S,
    ) {
        let Some(stop) = self.stop_square::<W>(ci, sq) else {
            return;
        };
        let blocked = occ.has(stop);
        if blocked {
            sink.scalar(ci, weights::PASSED_BLOCKED, 1);
        }
        let bd = &pos.variant().board;
        let rank = bd.rank_of(Square(self.relative(ci, sq) as u8));
        let dist = |k: Square| bd.distance(k, stop).min(5);
        if let Some(k) = royal_sq[ci].iter().next() {
            sink.scalar(ci, weights::PASSED_OWN_ROYAL, dist(k) * rank);
        }
        if let Some(k) = royal_sq[1 - ci].iter().next() {
            sink.scalar(ci, weights::PASSED_ENEMY_ROYAL, dist(k) * rank);
        }
        let Some(reach) = reach.filter(|_| !blocked) else {
            return;
        };
        if reach[ci].has(stop) {
            sink.scalar(ci, weights::PASSED_GUARDED_STOP, rank);
        }
        let unsafe_sq = reach[1 - ci] | pos.color_bb(Color::BOTH[1 - ci]);
        if unsafe_sq.has(stop) {
            return;
        }
        sink.scalar(ci, weights::PASSED_SAFE_STOP, rank);
        if (self.file_ahead[ci][sq.idx()].narrow() & unsafe_sq).any() {
            return;
        }
        sink.scalar(ci, weights::PASSED_SAFE_PATH, rank);
        if (self.front_span[ci][sq.idx()].narrow() & unsafe_sq).is_empty() {
            sink.scalar(ci, weights::PASSED_SAFE_SPAN, rank);
        }
    }

    /// Pieces attacked by a cheaper enemy piece (royals do not count as cheap
    /// attackers: they cannot take a defended piece), and pieces attacked and not
    /// defended.
    fn threats<W: Word, S: Sink>(
        &self,
        pos: &Position<W>,
        att: &[[Bitboard<W>; MAX_PIECE_TYPES]; 2],
        sink: &mut S,
    ) {
        let n = self.values.len();
        let all = |c: usize| att[c][..n].iter().fold(Bitboard::EMPTY, |a, &b| a | b);
        let covered = [all(0), all(1)];
        for c in Color::BOTH {
            let ci = c.idx();
            let mut cheaper_hits = 0;
            let mut targets = Bitboard::EMPTY;
            // Types by rising value: what every cheaper type attacks accumulates as we go,
            // so each victim type is tested against one union (types of equal value do
            // not threaten each other).
            let mut cheaper = Bitboard::EMPTY;
            for &(i, j) in &self.value_runs {
                for &t in &self.by_value[i..j] {
                    let victims = pos.pieces(t as PieceType, c);
                    targets |= victims;
                    let hits = (victims & cheaper).count() as i32;
                    cheaper_hits += hits;
                    if hits > 0 && (self.threatened_mask >> t & 1 != 0 || sink.wants_all()) {
                        sink.typed(ci, self.weights.layout.threatened(t), hits);
                    }
                }
                for &t in &self.by_value[i..j] {
                    cheaper |= att[1 - ci][t];
                }
            }
            if cheaper_hits > 0 {
                sink.scalar(ci, weights::THREAT_CHEAPER, cheaper_hits);
            }
            let hanging = (targets & covered[1 - ci] & !covered[ci]).count() as i32;
            if hanging > 0 {
                sink.scalar(ci, weights::HANGING, hanging);
            }
        }
    }
}

/// What the walk has found, per side, that [`Eval::late_terms`] reads again.
struct Walked<'a, W: Word> {
    /// The royals' squares.
    royal_sq: &'a [Bitboard<W>; 2],
    /// The royals' zones.
    zones: &'a [Bitboard<W>; 2],
    /// The pawn-rule pieces.
    pawns: &'a [Bitboard<W>; 2],
    /// What the pawn-rule pieces attack.
    pawn_att: &'a [Bitboard<W>; 2],
    /// The outposts.
    outposts: &'a [Bitboard<W>; 2],
    /// The squares two pieces reach.
    twice: &'a [Bitboard<W>; 2],
    /// The types whose `by_type` entry is filled (the safe checks' types).
    types: u32,
    /// Per type, every square its pieces reach.
    by_type: &'a [[Bitboard<W>; MAX_PIECE_TYPES]; 2],
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

/// The squares side `ci` contests that the enemy reaches but does not hold strongly:
/// no enemy pawn-rule piece attacks them, and the enemy reaches them twice only where
/// side `ci` does too (Stockfish's restricted piece: the enemy cannot go there freely).
#[inline]
fn restricted<W: Word>(
    ci: usize,
    pawn_att: &[Bitboard<W>; 2],
    reach_all: &[Bitboard<W>; 2],
    twice: &[Bitboard<W>; 2],
) -> i32 {
    let them = 1 - ci;
    let strong = pawn_att[them] | (twice[them] & !twice[ci]);
    (reach_all[them] & reach_all[ci] & !strong).count() as i32
}

/// Side `ci`'s pieces of the types in `mask` for which `test(type, square)` holds.
#[inline]
fn count_pieces<W: Word>(
    pos: &Position<W>,
    ci: usize,
    mask: u32,
    mut test: impl FnMut(usize, Square) -> bool,
) -> i32 {
    let c = Color::BOTH[ci];
    let mut n = 0;
    let mut m = mask;
    while m != 0 {
        let t = m.trailing_zeros() as usize;
        m &= m - 1;
        n += pos
            .pieces(t as PieceType, c)
            .iter()
            .filter(|&sq| test(t, sq))
            .count() as i32;
    }
    n
}

/// Every square a piece of type `t` and colour `c` on `from` moves or captures to.
#[inline(always)]
fn reach<W: Word>(v: &Variant, c: usize, t: usize, from: Square, occ: Bitboard<W>) -> Bitboard<W> {
    v.attacks[c][t].reach(&v.rays, from, occ)
}

#[cfg(test)]
mod tests {
    use super::setup::{colour_bound, rides_files, unions};
    use super::*;
    use crate::registry;
    use std::sync::Arc;

    /// Capablanca's compounds: the Archbishop moves as a Bishop or a Knight (`BN`), the
    /// Chancellor as a Rook or a Knight (`RN`), the Queen as a Rook or a Bishop.
    #[test]
    fn a_compound_is_known_as_the_union_of_its_parts() {
        let v = registry::get("capablanca").unwrap();
        let t = |c: char| v.pieces.iter().position(|p| p.letter == c).unwrap() as u8;
        let u = unions(&v);
        let parts = |c: char| u[t(c) as usize].map(|(x, y)| (x.min(y), x.max(y)));
        let pair = |a: char, b: char| Some((t(a).min(t(b)), t(a).max(t(b))));
        assert_eq!(parts('Q'), pair('B', 'R'));
        assert_eq!(parts('A'), pair('B', 'N'));
        assert_eq!(parts('C'), pair('R', 'N'));
        for c in ['P', 'N', 'B', 'R', 'K'] {
            assert_eq!(parts(c), None, "{c}");
        }
    }

    /// The safe checks of a compound, found from what its parts reach, are those it finds
    /// itself: the evaluation is the same with and without the unions, along seeded games
    /// of every built-in game.
    #[test]
    fn safe_checks_through_the_parts_are_the_compounds_own() {
        let start = |v: &_| {
            let e = Eval::new(v);
            let mut plain = Eval::new(v);
            plain.unions = [None; MAX_PIECE_TYPES];
            (e, plain)
        };
        let mut with_unions = 0;
        crate::testing::seeded_games(
            100,
            0x51_7CC1_B727_220A,
            start,
            |(e, plain), name, ply, p| {
                assert_eq!(
                    e.evaluate(p),
                    plain.evaluate(p),
                    "{name}, ply {ply}: {}",
                    p.fen()
                );
                with_unions += (e.unions != plain.unions) as usize;
            },
        );
        // Most games have a compound (the check above is not empty).
        assert!(with_unions > 500, "{with_unions}");
    }

    /// Quiescence's lazy evaluation: the cheap part (material, placement, pawns) stands
    /// for the whole only where it lies the margin or more outside the window, and the
    /// whole is otherwise what `evaluate` finds, along seeded games of every built-in game.
    #[test]
    fn the_cheap_part_stands_for_the_evaluation_only_the_margin_outside_the_window() {
        let start = |v: &_| (Eval::new(v), PawnCache::<u128>::default());
        let mut estimates = 0;
        crate::testing::seeded_games(60, 0x1A2B_3C4D_5E6F_7081, start, |s, name, ply, p| {
            let (e, cache) = s;
            let key = p.pawn_key();
            let at = format!("{name}, ply {ply}: {}", p.fen());
            let full = e.evaluate(p);
            // A window the cheap part is always above: it comes back alone.
            let rough = e.evaluate_within(p, key, cache, i32::MIN, i32::MIN, 0);
            assert!(!rough.exact, "{at}");
            let r = rough.value;
            let m = 200;
            for (lo, hi, cheap) in [
                (r + 199, r + 300, false),
                (r + 200, r + 300, true),
                (r - 300, r - 199, false),
                (r - 300, r - 200, true),
                (r - 1, r + 1, false),
            ] {
                let got = e.evaluate_within(p, key, cache, lo, hi, m);
                let want = if cheap { r } else { full };
                assert_eq!((got.value, got.exact), (want, !cheap), "({lo}, {hi}) {at}");
                estimates += cheap as usize;
            }
            assert_eq!(e.evaluate_cached(p, key, cache), full, "{at}");
        });
        assert!(estimates > 1000, "{estimates}");
    }

    /// Stockfish's scale factor, read for each side as the one ahead: a lone minor piece
    /// cannot win, a minor more without pawns seldom does, and with one to three pawns
    /// the winning chances rest on those pawns; pieces in hand leave everything whole,
    /// and only a table that switches it on (`eval.endgame_scale`) is scaled at all.
    #[test]
    fn the_endgame_counts_less_for_a_side_ahead_with_few_pawns() {
        let v = registry::get("chess").unwrap();
        let e = Eval::new(&v);
        let scales = |fen: &str| e.eg_scales(&Position::from_fen(&v, fen).unwrap());
        // King and bishop against king: no win for either side.
        assert_eq!(scales("8/8/4k3/8/8/3BK3/8/8 w - - 0 1"), [0, 0]);
        // Rook against bishop, rook and bishop against rook: a minor to the good.
        assert_eq!(scales("8/8/4k3/3b4/8/3RK3/8/8 w - - 0 1")[0], 4);
        assert_eq!(scales("8/8/4k3/3r4/8/3RKB2/8/8 w - - 0 1")[0], 14);
        // Queen against rook: more than a minor ahead, but no pawn.
        assert_eq!(scales("8/8/4k3/3r4/8/3QK3/8/8 w - - 0 1")[0], 36);
        // Rook and pawn against pawn: one pawn; four pawns: the endgame whole.
        assert_eq!(scales("8/5p2/4k3/8/8/3RK3/5P2/8 w - - 0 1")[0], 43);
        assert_eq!(
            scales("8/pppp4/4k3/8/8/3RK3/PPPP4/8 w - - 0 1"),
            [SCALE_FULL; 2]
        );
        // The bishop's side keeps only its evaluation's middlegame share.
        let p = Position::from_fen(&v, "8/8/4k3/8/8/3BK3/8/8 w - - 0 1").unwrap();
        let unscaled = Eval::new(&v).without_endgame_scale().evaluate(&p);
        assert!(
            e.evaluate(&p) * 4 < unscaled,
            "{} against {unscaled}",
            e.evaluate(&p)
        );
        // A table without the switch is never scaled: Grand's king and bishop count whole.
        let g = registry::get("grand").unwrap();
        let fen = "10/10/10/5k4/10/10/4BK4/10/10/10 w - - 0 1";
        assert_eq!(
            Eval::new(&g).eg_scales(&Position::from_fen(&g, fen).unwrap()),
            [SCALE_FULL; 2]
        );
        // With the switch on, a piece in hand can be dropped anywhere: nothing is
        // scaled; the same position with the hand empty is.
        let text = "extends = \"archmage\"\nname = \"scaled\"\n[eval]\nendgame_scale = true\n";
        let a = Arc::new(Variant::from_toml(text, "scaled").unwrap());
        let ea = Eval::new(&a);
        let at = |fen: &str| ea.eg_scales(&Position::from_fen(&a, fen).unwrap());
        assert_eq!(
            at("k9/10/10/10/10/10/10/10/10/3QK5[D] w - - 0 1"),
            [SCALE_FULL; 2]
        );
        assert_eq!(at("k9/10/10/10/10/10/10/10/10/3QK5 w - - 0 1"), [36, 0]);
    }

    #[test]
    fn the_start_position_is_level_and_material_counts() {
        let v = registry::get("chess").unwrap();
        let e = Eval::new(&v);
        let start = Position::startpos(&v);
        // Only the tempo separates the sides: the start is all middlegame, so the
        // side to move gets the tempo's middlegame weight (the table's, tuned or not).
        let w = e.weights();
        let tempo = w.mg[w.layout.scalar(weights::TEMPO_TERM)];
        assert_eq!(e.evaluate(&start), tempo);
        let queenless = Position::from_fen(
            &v,
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        )
        .unwrap();
        assert!(e.evaluate(&queenless) > 800);
    }

    /// The game's evaluation with feature `f` of its layout weighing `x` in both phases.
    fn weighing(v: &Arc<Variant>, f: impl Fn(&Layout) -> usize, x: i32) -> Eval {
        let mut w = Weights::of(v);
        let i = f(&w.layout);
        w.mg[i] = x;
        w.eg[i] = x;
        Eval::with_weights(v, w).without_endgame_scale()
    }

    /// Checks each case's `(fen, n, why)`: weighing feature `f` 1 instead of 0 moves the
    /// side to move's score by `n`.
    fn assert_counts(
        v: &Arc<Variant>,
        f: impl Fn(&Layout) -> usize + Copy,
        cases: &[(&str, i32, &str)],
    ) {
        let (off, on) = (weighing(v, f, 0), weighing(v, f, 1));
        for &(fen, n, why) in cases {
            let p = Position::from_fen(v, fen).unwrap();
            assert_eq!(on.evaluate(&p) - off.evaluate(&p), n, "{why}");
        }
    }

    #[test]
    fn only_a_colour_bound_type_on_both_colours_earns_the_pair() {
        let v = registry::get("chess").unwrap();
        let bound: Vec<char> = (0..v.pieces.len())
            .filter(|&t| colour_bound(&v, t))
            .map(|t| v.pieces[t].letter)
            .collect();
        // Pawns are left out by the caller; the Bishop is the only other colour-bound type.
        assert!(bound.contains(&'B') && !bound.iter().any(|c| "NRQK".contains(*c)));
        let with = |x: i32| weighing(&v, |l| l.scalar(weights::PAIR), x);
        let (on, off) = (with(40), with(0));
        // c1 and f1 differ in colour; c1 and d2 do not.
        for (fen, bonus) in [
            ("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", 40),
            ("4k3/8/8/8/8/8/3B4/2B1K3 w - - 0 1", 0),
        ] {
            let p = Position::from_fen(&v, fen).unwrap();
            assert_eq!(on.evaluate(&p) - off.evaluate(&p), bonus, "{fen}");
        }
    }

    #[test]
    fn space_counts_safe_central_squares_and_those_behind_own_pawns_twice() {
        // Stockfish's space: the central files on the own second to fourth ranks (c-f
        // on 8x8), not holding an own pawn nor attacked by an enemy one; those behind an
        // own pawn and attacked by nothing count twice; times (pieces - 3)^2 / 64.
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::SPACE),
            &[
                (
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                    0,
                    "the start is level: 8 safe squares a side",
                ),
                (
                    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                    15 - 26,
                    "after e4 White has e2 and e3 behind its pawn (8 + 2 = 10, 10 * 169 / 64 \
                     = 26); Black loses d5 and f5 to the pawn (6, 6 * 169 / 64 = 15)",
                ),
                (
                    "4k3/8/8/8/3p4/8/PPPPPPPP/4K3 w - - 0 1",
                    3,
                    "the d4 pawn takes c3 and e3 from White's 8, and nine pieces weigh \
                     6^2: 6 * 36 / 64 = 3; Black's two pieces weigh nothing",
                ),
            ],
        );
        let g = registry::get("grand").unwrap();
        let e = Eval::new(&g);
        // On 10x10 the area is files c-h on the own second to fifth ranks.
        assert_eq!(e.space_area[0].count(), 24);
        assert_eq!((e.space_area[0] & e.space_area[1]).count(), 0);
    }

    /// Hears only the weak royal-zone squares.
    struct WeakSquares([i32; 2]);
    impl Sink for WeakSquares {
        fn wants_mobility(&self, _: usize) -> bool {
            false
        }
        fn wants_all(&self) -> bool {
            true
        }
        fn piece(&mut self, _: usize, _: usize, _: Square) {}
        fn passed(&mut self, _: usize, _: Square) {}
        fn mobility(&mut self, _: usize, _: usize, _: i32) {}
        fn hand(&mut self, _: usize, _: usize, _: i32) {}
        fn scalar(&mut self, _: usize, _: usize, _: i32) {}
        fn zone_hits(&mut self, _: usize, _: usize, _: i32) {}
        fn typed(&mut self, _: usize, _: usize, _: i32) {}
        fn weak_zone(&mut self, c: usize, n: i32) {
            self.0[c] += n;
        }
    }

    #[test]
    fn a_royal_zone_square_is_weak_when_attacked_and_guarded_by_no_piece_but_the_royal() {
        let v = registry::get("chess").unwrap();
        let e = Eval::new(&v);
        for (fen, black_weak) in [
            // The a8 rook reaches f8 and the king's own square g8; the pawns guard
            // neither, and the king's own guard of f8 does not count.
            ("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", 2),
            // A knight on d7 guards f8: only g8 is left.
            ("R5k1/3n1ppp/8/8/8/8/8/6K1 b - - 0 1", 1),
        ] {
            let p = Position::from_fen(&v, fen).unwrap();
            let mut s = WeakSquares([0; 2]);
            e.walk::<_, _, false>(&p, &mut s);
            assert_eq!(s.0, [0, black_weak], "{fen}");
        }
    }

    #[test]
    fn a_passer_counts_the_royals_distance_to_its_stop_square_and_a_blocker() {
        let v = registry::get("chess").unwrap();
        // The table's own passer weights zeroed, then one term weighed 1 (or none).
        let with = |term: Option<usize>| {
            let mut w = Weights::of(&v);
            let passer = [
                weights::PASSED_BLOCKED,
                weights::PASSED_OWN_ROYAL,
                weights::PASSED_ENEMY_ROYAL,
            ];
            for t in passer {
                let f = w.layout.scalar(t);
                let x = (term == Some(t)) as i32;
                w.mg[f] = x;
                w.eg[f] = x;
            }
            Eval::with_weights(&v, w).without_endgame_scale()
        };
        let off = with(None);
        // The e6 passer (relative rank 5, counting from 0) stops on e7: the white king on
        // e1 is six steps away (counted as five), the black one on e8 one step.
        let free = "4k3/8/4P3/8/8/8/8/4K3 w - - 0 1";
        let blocked = "4k3/4n3/4P3/8/8/8/8/4K3 w - - 0 1";
        for (term, fen, n) in [
            (weights::PASSED_OWN_ROYAL, free, 25),
            (weights::PASSED_ENEMY_ROYAL, free, 5),
            (weights::PASSED_BLOCKED, free, 0),
            (weights::PASSED_BLOCKED, blocked, 1),
        ] {
            let p = Position::from_fen(&v, fen).unwrap();
            assert_eq!(with(Some(term)).evaluate(&p) - off.evaluate(&p), n, "{fen}");
        }
    }

    /// Stockfish's backward pawn: "behind all pawns of the same colour on the adjacent
    /// files and cannot be safely advanced" (its stop square held or attacked by an
    /// enemy pawn); an isolated pawn counts as isolated only.
    #[test]
    fn a_pawn_whose_neighbours_are_all_ahead_and_whose_step_is_stopped_is_backward() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::BACKWARD),
            &[
                (
                    "4k3/8/8/8/4p3/4P3/3P4/4K3 w - - 0 1",
                    1,
                    "d2: e3 is ahead of it and e4 attacks d3",
                ),
                (
                    "4k3/p7/8/8/8/4P3/3P4/4K3 w - - 0 1",
                    0,
                    "d3 is not attacked",
                ),
                (
                    "4k3/8/8/8/8/3pP3/3P4/4K3 w - - 0 1",
                    1,
                    "d2: an enemy pawn stands on d3",
                ),
                (
                    "4k3/8/8/8/8/3p4/3P4/4K3 w - - 0 1",
                    0,
                    "d2 has no neighbour: isolated, not backward",
                ),
                (
                    "4k3/8/8/8/4p3/3PP3/8/4K3 w - - 0 1",
                    0,
                    "d3 and e3 side by side guard each other's step",
                ),
                (
                    "4k3/3p4/4p3/4P3/8/8/8/4K3 w - - 0 1",
                    -1,
                    "Black's d7: e6 ahead, e5 attacks d6",
                ),
            ],
        );
    }

    /// Stockfish's king-pawn distance: the king steps from a royal to its nearest own
    /// pawn, counted for its side.
    #[test]
    fn a_royal_counts_its_steps_to_its_nearest_own_pawn() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::ROYAL_PAWN_DISTANCE),
            &[
                (
                    "4k3/8/8/8/8/8/P6P/4K3 w - - 0 1",
                    3,
                    "e1 is three steps from h2 (four from a2); Black has no pawn",
                ),
                (
                    "4k3/p7/8/8/8/8/P6P/4K3 w - - 0 1",
                    -1,
                    "White's 3 against Black's 4, e8 to a7",
                ),
                (
                    "4k3/p7/8/8/8/8/P6P/4K3 b - - 0 1",
                    1,
                    "the same, Black to move",
                ),
                ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0, "no pawns, no count"),
            ],
        );
    }

    /// Stockfish's restricted piece: a square both sides reach counts for a side unless
    /// the enemy holds it strongly, by a pawn or by reaching it twice to its once.
    #[test]
    fn a_square_both_sides_reach_counts_unless_the_enemy_holds_it_strongly() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::RESTRICTED),
            &[
                (
                    "7k/4n3/8/8/3N4/8/8/K7 w - - 0 1",
                    0,
                    "both knights reach c6 and f5: each side counts both",
                ),
                (
                    "3n3k/4n3/8/8/3N4/8/8/K7 w - - 0 1",
                    -1,
                    "Black reaches c6 twice, White once: c6 counts for Black alone (and e6 \
                     for both)",
                ),
                (
                    "3n3k/4n3/8/8/3N4/8/8/K7 b - - 0 1",
                    1,
                    "the same, Black to move",
                ),
                (
                    "3n3k/4n3/8/8/1N1N4/8/8/K7 w - - 0 1",
                    0,
                    "Nb4 reaches c6 too: twice against twice holds nothing strongly, and \
                     d5 is contested",
                ),
                (
                    "7k/3pn3/8/8/3N4/8/8/K7 w - - 0 1",
                    -2,
                    "d7 attacks c6 and e6: White counts f5 alone, Black all three",
                ),
            ],
        );
    }

    /// Stockfish's minor behind pawn: a light piece with a pawn-rule piece of either side
    /// on the square ahead of it.
    #[test]
    fn a_light_piece_with_a_pawn_on_the_square_ahead_is_behind_a_pawn() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::MINOR_BEHIND_PAWN),
            &[
                (
                    "4k3/8/8/8/4p3/4N3/8/4K3 w - - 0 1",
                    1,
                    "Ne3 stands behind Black's pawn on e4",
                ),
                (
                    "4k3/8/8/4p3/8/4N3/8/4K3 w - - 0 1",
                    0,
                    "a pawn two squares ahead does not count",
                ),
                (
                    "4k3/8/8/8/8/8/2P5/2B1K3 w - - 0 1",
                    1,
                    "a bishop behind its own pawn counts too",
                ),
                (
                    "4k3/8/8/8/8/8/3P4/3RK3 w - - 0 1",
                    0,
                    "a rook is not a light piece",
                ),
                (
                    "4k3/8/4n3/4P3/8/8/8/4K3 w - - 0 1",
                    -1,
                    "ahead is down the board for Black: Ne6 behind e5",
                ),
                (
                    "4k3/8/8/4P3/4n3/8/8/4K3 w - - 0 1",
                    0,
                    "for Black e5 is behind Ne4, not ahead of it",
                ),
            ],
        );
    }

    /// Stockfish's bishop pawns: a colour-bound piece counts its own pawns on squares of
    /// its colour, which it can neither attack past nor defend against.
    #[test]
    fn a_colour_bound_piece_counts_its_own_pawns_on_its_colour() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::COLOUR_PAWNS),
            &[
                (
                    "4k3/8/8/8/8/8/1P1PP3/2B1K3 w - - 0 1",
                    2,
                    "c1 is dark, as b2 and d2 are; e2 is light",
                ),
                (
                    "4k3/8/8/8/8/8/1P1PP3/2B1KB2 w - - 0 1",
                    3,
                    "f1 is light, as e2 is",
                ),
                (
                    "4k3/8/8/8/8/8/1P1PP3/2B1K3 b - - 0 1",
                    -2,
                    "the same, Black to move",
                ),
                (
                    "4k3/4p3/8/8/8/8/8/2B1K3 w - - 0 1",
                    0,
                    "e7 is dark but Black's, and Black has no bishop",
                ),
            ],
        );
    }

    /// Stockfish's threat by safe pawn: a pawn the enemy cannot take for free, attacking
    /// an enemy piece other than a pawn or the king; each victim once.
    #[test]
    fn a_safe_pawn_attacking_a_piece_is_a_threat() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::SAFE_PAWN_THREAT),
            &[
                (
                    "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1",
                    1,
                    "e4 attacks d5 and nothing of Black's reaches e4",
                ),
                (
                    "4k3/8/8/3n4/4P3/8/8/4K3 b - - 0 1",
                    -1,
                    "the same, Black to move",
                ),
                (
                    "4k3/8/8/3n4/4P2r/8/8/4K3 w - - 0 1",
                    0,
                    "Rh4 reaches e4 and no white piece does",
                ),
                ("4k3/8/8/3n4/4P2r/8/5N2/4K3 w - - 0 1", 1, "Nf2 guards e4"),
                (
                    "4k3/8/8/3n4/2P1P3/8/8/4K3 w - - 0 1",
                    1,
                    "c4 and e4 both attack d5: one victim",
                ),
                (
                    "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1",
                    0,
                    "a pawn is no victim",
                ),
            ],
        );
    }

    /// Stockfish's weak unopposed pawns: an isolated or backward pawn with no enemy pawn
    /// ahead of it on its file.
    #[test]
    fn an_isolated_or_backward_pawn_no_enemy_pawn_faces_is_weak_and_unopposed() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::WEAK_UNOPPOSED),
            &[
                (
                    "4k3/8/8/8/8/8/P7/4K3 w - - 0 1",
                    1,
                    "a2 is isolated and Black has no pawn on the a-file",
                ),
                (
                    "4k3/8/8/8/8/8/P7/4K3 b - - 0 1",
                    -1,
                    "the same, Black to move",
                ),
                (
                    "4k3/p7/8/8/8/8/P7/4K3 w - - 0 1",
                    0,
                    "a7 and a2 face each other",
                ),
                (
                    "4k3/8/8/8/8/8/P1P5/4K3 w - - 0 1",
                    2,
                    "a2 and c2 are both isolated",
                ),
                (
                    "4k3/8/5p2/4p3/2P5/3P4/8/4K3 w - - 0 1",
                    1,
                    "d3 is backward (c4 stands ahead, e5 attacks d4) with no black pawn on \
                     the d-file; c4, e5 and f6 each have a neighbour behind them or a free \
                     step",
                ),
                (
                    "4k3/8/3p1p2/4p3/2P5/3P4/8/4K3 w - - 0 1",
                    0,
                    "d6, backward too, and d3 face each other",
                ),
            ],
        );
    }

    /// A passed pawn counts the files between it and the nearer edge.
    #[test]
    fn a_passed_pawn_counts_its_files_from_the_edge() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::PASSED_FILE),
            &[
                ("4k3/8/8/8/8/8/P7/4K3 w - - 0 1", 0, "a2 is on the edge"),
                (
                    "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1",
                    3,
                    "d2 is three files from the a-file",
                ),
                (
                    "4k3/8/8/8/8/8/6P1/4K3 w - - 0 1",
                    1,
                    "g2 is one file from the h-file",
                ),
                (
                    "4k3/3p4/8/8/8/8/3P4/4K3 w - - 0 1",
                    0,
                    "d2 and d7 block each other: neither is passed",
                ),
                (
                    "4k3/2p5/8/8/8/8/6P1/4K3 w - - 0 1",
                    -1,
                    "g2 counts 1 for White, c7 2 for Black",
                ),
            ],
        );
    }

    /// Stockfish's threat by king: an enemy piece the royal attacks that no pawn guards
    /// and that the enemy does not reach twice where the royal's side reaches it once.
    #[test]
    fn a_royal_attacking_a_weakly_held_piece_is_a_royal_threat() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::ROYAL_THREAT),
            &[
                (
                    "4k3/8/8/8/8/8/3n4/4K3 w - - 0 1",
                    1,
                    "e1 attacks the knight on d2 and nothing guards it",
                ),
                (
                    "4k3/8/8/8/8/8/3n4/4K3 b - - 0 1",
                    -1,
                    "the same, Black to move",
                ),
                (
                    "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1",
                    1,
                    "a pawn is a victim too",
                ),
                (
                    "4k3/8/8/8/8/2p5/3n4/4K3 w - - 0 1",
                    0,
                    "the pawn on c3 guards d2",
                ),
                (
                    "3rk3/8/8/8/8/8/3n4/4K3 w - - 0 1",
                    1,
                    "one guard (the rook) against one attacker does not hold it strongly",
                ),
                (
                    "3rk3/8/8/b7/8/8/3n4/4K3 w - - 0 1",
                    0,
                    "rook and bishop reach d2 twice where only the royal does once",
                ),
            ],
        );
    }

    /// Stockfish's reachable outpost: a light piece off an outpost that reaches an
    /// outpost square no own piece holds.
    #[test]
    fn a_light_piece_that_reaches_an_empty_outpost_counts_once() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::REACHABLE_OUTPOST),
            &[
                (
                    "4k3/8/8/8/4P3/2N5/8/4K3 w - - 0 1",
                    1,
                    "the knight on c3 reaches d5, guarded by e4 and out of every black pawn's reach",
                ),
                (
                    "4k3/8/8/8/4P3/2N5/8/4K3 b - - 0 1",
                    -1,
                    "the same, Black to move",
                ),
                (
                    "4k3/2p5/8/8/4P3/2N5/8/4K3 w - - 0 1",
                    0,
                    "the pawn on c7 can still take on d5: no outpost",
                ),
                (
                    "4k3/8/8/3N4/4P3/8/8/4K3 w - - 0 1",
                    0,
                    "a knight already on its outpost does not count",
                ),
                (
                    "4k3/8/8/3B4/4P3/2N5/8/4K3 w - - 0 1",
                    0,
                    "d5 holds an own piece, and f5 is out of the knight's reach",
                ),
            ],
        );
    }

    /// Stockfish's knight and slider on queen: a safe square from which a cheaper piece
    /// could attack the enemy's lone most valuable piece next move.
    #[test]
    fn a_safe_square_to_attack_the_lone_queen_from_counts() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::QUEEN_THREAT),
            &[
                (
                    "4k3/8/8/8/3q4/8/8/N3K3 w - - 0 1",
                    2,
                    "the knight on a1 reaches b3 and c2, both a knight's leap from d4",
                ),
                (
                    "4k3/8/8/8/3q4/8/8/N3K3 b - - 0 1",
                    -2,
                    "the same, Black to move",
                ),
                (
                    "4k3/8/8/8/p2q4/8/8/N3K3 w - - 0 1",
                    1,
                    "the pawn on a4 guards b3",
                ),
                (
                    "3qk3/8/8/8/3q4/8/8/N3K3 w - - 0 1",
                    0,
                    "two queens: the target is not alone of its type",
                ),
                (
                    "4k3/8/8/8/3q4/8/8/4K2R w - - 0 1",
                    0,
                    "the rook's h4 is open to the queen and nothing else guards it",
                ),
                (
                    "4k3/8/8/8/3q4/8/5B2/4K2R w - - 0 1",
                    1,
                    "the bishop on f2 guards h4; its own e3 is open to the queen",
                ),
            ],
        );
    }

    /// Stockfish's rook and bishop on king ring: a rider whose line to the royal's zone
    /// only pieces other than pawns block.
    #[test]
    fn a_rider_that_reaches_the_royal_zone_through_pieces_is_an_x_ray() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::ZONE_XRAY),
            &[
                (
                    "6k1/5ppp/8/8/3n4/8/1B6/6K1 w - - 0 1",
                    1,
                    "the bishop on b2 sees g7 through the knight on d4",
                ),
                (
                    "6k1/5ppp/8/8/3n4/8/1B6/6K1 b - - 0 1",
                    -1,
                    "the same, Black to move",
                ),
                (
                    "6k1/5ppp/8/8/3p4/8/1B6/6K1 w - - 0 1",
                    0,
                    "a pawn on d4 closes the line",
                ),
                (
                    "6k1/5ppp/8/8/8/8/1B6/6K1 w - - 0 1",
                    0,
                    "the bishop already reaches g7",
                ),
                (
                    "6k1/5ppp/8/8/8/5N2/8/5RK1 w - - 0 1",
                    1,
                    "the rook on f1 sees f7 through its own knight",
                ),
            ],
        );
    }

    /// Stockfish's king on a pawnless flank: no pawn of either side on the royal's file
    /// or the two files on each side of it.
    #[test]
    fn a_royal_with_no_pawn_on_its_flank_stands_on_a_pawnless_flank() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::PAWNLESS_FLANK),
            &[
                (
                    "6k1/8/8/8/8/8/7P/1K6 w - - 0 1",
                    1,
                    "b1's flank (a to d) has no pawn, g8's (e to h) has h2",
                ),
                (
                    "6k1/8/8/8/8/8/7P/1K6 b - - 0 1",
                    -1,
                    "the same, Black to move",
                ),
                ("6k1/8/8/8/8/8/3P3P/1K6 w - - 0 1", 0, "d2 is on b1's flank"),
                (
                    "6k1/8/8/8/8/8/4P2P/1K6 w - - 0 1",
                    1,
                    "e2 is three files from b1",
                ),
                (
                    "6k1/8/8/8/8/8/P7/6K1 w - - 0 1",
                    0,
                    "neither g1's flank nor g8's has a pawn",
                ),
            ],
        );
    }

    /// Stockfish's threat by pawn push: a pawn that can step to a safe square from
    /// where it attacks an enemy piece.
    #[test]
    fn a_safe_pawn_step_that_would_attack_a_piece_is_a_threat() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::PUSH_THREAT),
            &[
                (
                    "4k3/8/8/2n5/8/3P4/8/4K3 w - - 0 1",
                    1,
                    "d3-d4 would attack the knight on c5",
                ),
                (
                    "4k3/8/8/2n1p3/8/3P4/8/4K3 w - - 0 1",
                    0,
                    "the e5 pawn attacks d4",
                ),
                (
                    "3rk3/8/8/2n5/8/3P4/8/4K3 w - - 0 1",
                    0,
                    "the rook on d8 attacks d4 and nothing guards it",
                ),
                (
                    "3rk3/8/8/2n5/8/1N1P4/8/4K3 w - - 0 1",
                    1,
                    "the knight on b3 guards d4",
                ),
                ("4k3/8/8/2n5/3b4/3P4/8/4K3 w - - 0 1", 0, "d4 is taken"),
                (
                    "8/8/8/2k5/8/2PP4/8/4K3 w - - 0 1",
                    0,
                    "a royal is no victim",
                ),
                (
                    "4k3/8/3p4/8/2N5/8/8/4K3 w - - 0 1",
                    -1,
                    "Black's d6-d5 would attack the knight on c4",
                ),
            ],
        );
    }

    #[test]
    fn a_light_piece_on_a_pawn_guarded_square_no_enemy_pawn_can_attack_is_an_outpost() {
        let v = registry::get("chess").unwrap();
        assert_counts(
            &v,
            |l| l.scalar(weights::OUTPOST),
            &[
                ("4k3/8/8/4N3/3P4/8/8/4K3 w - - 0 1", 1, "e5, guarded by d4"),
                ("4k3/8/8/4N3/3P1p2/8/8/4K3 w - - 0 1", 1, "f4 is past e5"),
                (
                    "4k3/5p2/8/4N3/3P4/8/8/4K3 w - - 0 1",
                    0,
                    "f7-f6 would attack e5",
                ),
                ("4k3/8/8/4N3/8/8/8/4K3 w - - 0 1", 0, "no guard"),
                (
                    "4k3/8/8/8/4N3/3P4/8/4K3 w - - 0 1",
                    0,
                    "e4 is White's own half",
                ),
                (
                    "3k4/8/8/4Q3/3P4/8/8/4K3 w - - 0 1",
                    0,
                    "a queen is not light",
                ),
                (
                    "4k3/8/8/3p4/4n3/8/8/4K3 w - - 0 1",
                    -1,
                    "Black's knight on e4, guarded by d5",
                ),
            ],
        );
    }

    #[test]
    fn a_piece_attacked_by_a_cheaper_enemy_counts_for_its_own_type() {
        let v = registry::get("chess").unwrap();
        let knight = v.pieces.iter().position(|p| p.letter == 'N').unwrap();
        assert_counts(
            &v,
            |l| l.threatened(knight),
            &[
                (
                    "4k3/8/3p4/4N3/8/8/8/4K3 w - - 0 1",
                    1,
                    "d6 attacks the e5 knight",
                ),
                (
                    "4k3/8/3q4/4N3/8/8/8/4K3 w - - 0 1",
                    0,
                    "a queen is not cheaper",
                ),
                (
                    "4k3/8/3p4/4B3/8/8/8/4K3 w - - 0 1",
                    0,
                    "a bishop is another type",
                ),
                (
                    "4k3/8/8/4n3/3P4/8/8/4K3 w - - 0 1",
                    -1,
                    "Black's knight, by d4",
                ),
            ],
        );
    }

    #[test]
    fn a_hemmed_in_piece_pays_for_each_square_below_its_average_mobility() {
        let v = registry::get("chess").unwrap();
        let bishop = v.pieces.iter().position(|p| p.letter == 'B').unwrap();
        let avg = Eval::new(&v).mob[bishop].2;
        assert!(avg > 0);
        assert_counts(
            &v,
            |l| l.mobility_low(bishop),
            &[
                (
                    "4k3/8/8/8/8/8/1P6/B3K3 w - - 0 1",
                    avg,
                    "a1 behind its own b2: no square",
                ),
                (
                    "4k3/8/8/8/8/8/8/B3K3 w - - 0 1",
                    0,
                    "the long diagonal: above average",
                ),
            ],
        );
    }

    /// Stockfish's passed-pawn ladder: a passer whose empty square ahead the enemy does
    /// not reach earns its relative rank once, again where its whole file ahead is free
    /// of enemy reach and pieces, and again where the three files ahead are; where an
    /// own piece reaches that square, once more.
    #[test]
    fn a_passer_counts_how_free_its_way_ahead_is() {
        let v = registry::get("chess").unwrap();
        let term = |k: usize| move |l: &Layout| l.scalar(k);
        // White's pawn on e5 (relative rank 4); only kings beside it.
        let (free, king_on_file, king_on_stop, guarded, blocked) = (
            "7k/8/8/4P3/8/8/8/K7 w - - 0 1",
            "4k3/8/8/4P3/8/8/8/K7 w - - 0 1",
            "8/5k2/8/4P3/8/8/8/K7 w - - 0 1",
            "7k/8/8/3KP3/8/8/8/8 w - - 0 1",
            "7k/8/4n3/4P3/8/8/8/K7 w - - 0 1",
        );
        assert_counts(
            &v,
            term(weights::PASSED_SAFE_STOP),
            &[
                (free, 4, "nothing reaches e6"),
                (king_on_file, 4, "the king on e8 reaches e7, not e6"),
                (king_on_stop, 0, "the king on f7 reaches e6"),
                (blocked, 0, "a knight stands on e6"),
                ("7k/8/8/4P3/8/8/8/K7 b - - 0 1", -4, "Black to move"),
                ("K7/8/8/8/4p3/8/8/7k w - - 0 1", -4, "Black's pawn on e4"),
            ],
        );
        assert_counts(
            &v,
            term(weights::PASSED_SAFE_PATH),
            &[
                (free, 4, "nothing reaches e6, e7 or e8"),
                (king_on_file, 0, "the king stands on e8 and reaches e7"),
                (
                    "6k1/8/8/4P3/8/8/8/K7 w - - 0 1",
                    4,
                    "the king on g8 reaches f7 and f8, beside the file",
                ),
            ],
        );
        assert_counts(
            &v,
            term(weights::PASSED_SAFE_SPAN),
            &[
                (free, 4, "nothing reaches d6-f8"),
                (king_on_file, 0, "the file ahead is not free"),
                (
                    "6k1/8/8/4P3/8/8/8/K7 w - - 0 1",
                    0,
                    "the king on g8 reaches f7 and f8",
                ),
                (
                    "K7/8/8/8/4p3/8/8/7k w - - 0 1",
                    -4,
                    "Black's pawn on e4, nothing near",
                ),
            ],
        );
        assert_counts(
            &v,
            term(weights::PASSED_GUARDED_STOP),
            &[
                (guarded, 4, "the king on d5 reaches e6"),
                (free, 0, "no white piece reaches e6"),
                ("7k/8/4n3/3KP3/8/8/8/8 w - - 0 1", 0, "e6 is taken"),
            ],
        );
    }

    /// Stockfish's king protector: a piece pays per king step between it and its own
    /// royal; the royal itself and pawn-rule pieces never count.
    #[test]
    fn a_piece_counts_its_king_steps_from_its_own_royal() {
        let v = registry::get("chess").unwrap();
        let ty = |c: char| v.pieces.iter().position(|p| p.letter == c).unwrap();
        let (knight, king, pawn) = (ty('N'), ty('K'), ty('P'));
        assert_counts(
            &v,
            |l| l.royal_distance(knight),
            &[
                ("4k3/8/8/8/8/8/8/N3K3 w - - 0 1", 4, "a1 to e1: four files"),
                (
                    "4k3/8/8/8/8/8/8/N3K3 b - - 0 1",
                    -4,
                    "the same, Black to move",
                ),
                (
                    "4k3/8/8/3n4/8/8/8/N3K3 w - - 0 1",
                    1,
                    "d5 to e8: three ranks, against White's four",
                ),
                ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0, "no knight"),
            ],
        );
        for t in [king, pawn] {
            assert_counts(
                &v,
                |l| l.royal_distance(t),
                &[(
                    "4k3/8/8/8/8/8/P7/4K3 w - - 0 1",
                    0,
                    "a royal or a pawn-rule piece is not counted",
                )],
            );
        }
    }

    #[test]
    fn a_safe_checking_square_a_piece_can_reach_counts_for_its_type() {
        let v = registry::get("chess").unwrap();
        let queen = v.pieces.iter().position(|p| p.letter == 'Q').unwrap();
        assert_counts(
            &v,
            |l| l.royal_check(queen),
            &[
                (
                    "6k1/5ppp/8/8/8/8/8/3QK3 w - - 0 1",
                    1,
                    "Qd1-d8 mates on the back rank",
                ),
                (
                    "r5k1/5ppp/8/8/8/8/8/3QK3 w - - 0 1",
                    0,
                    "the a8 rook guards d8",
                ),
                (
                    "6k1/5ppp/8/8/8/8/5PPP/3qK3 w - - 0 1",
                    0,
                    "a piece checks its own king never",
                ),
                ("3qk3/8/8/8/8/8/5PPP/6K1 w - - 0 1", -1, "Black's Qd8-d1"),
            ],
        );
    }

    #[test]
    fn a_rook_earns_the_open_file_only_without_pawns_on_its_file() {
        let v = registry::get("chess").unwrap();
        let riders: Vec<char> = (0..v.pieces.len())
            .filter(|&t| rides_files(&v, t))
            .map(|t| v.pieces[t].letter)
            .collect();
        // The Queen rides files too, but counts as heavy and is left out by the caller.
        assert_eq!(riders, vec!['R', 'Q']);
        let with = |open: i32, half: i32| {
            let mut w = Weights::of(&v);
            for (term, x) in [(weights::OPEN_FILE, open), (weights::HALF_OPEN_FILE, half)] {
                let f = w.layout.scalar(term);
                w.mg[f] = x;
                w.eg[f] = x;
            }
            Eval::with_weights(&v, w).without_endgame_scale()
        };
        let (on, off) = (with(30, 10), with(0, 0));
        for (fen, bonus) in [
            // d-file empty: open.
            ("4k3/p7/8/8/8/8/P7/3RK3 w - - 0 1", 30),
            // Only a black pawn on the d-file: half-open.
            ("4k3/3p4/8/8/8/8/P7/3RK3 w - - 0 1", 10),
            // An own pawn on the d-file: neither.
            ("4k3/p7/8/8/8/8/3P4/3RK3 w - - 0 1", 0),
        ] {
            let p = Position::from_fen(&v, fen).unwrap();
            assert_eq!(on.evaluate(&p) - off.evaluate(&p), bonus, "{fen}");
        }
    }
}
