//! A position's features as counts (White's view), for fitting the weights: the score
//! is linear in every weight but the royal-danger curve, whose gradient is written out.
//!
//! Weights as one vector ([`Weights::to_vec`]): middlegame weight per feature, endgame
//! weight per feature, `royal_attack` per type, `royal_weak`, then the danger scale
//! and cap.

use super::{weights, Eval, Sink, Weights, SCALE_FULL};
use crate::core::geometry::Square;
use crate::position::Position;

/// One position's features.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    /// The middlegame share of the taper (phase / full phase).
    pub mg_share: f32,
    /// The share of the endgame score that counts when White, then Black, is ahead
    /// there ([`Eval::eg_scales`] as a fraction).
    pub eg_scale: [f32; 2],
    /// (feature, White's count minus Black's), each feature once.
    pub features: Vec<(u32, i16)>,
    /// Per side whose royal zone two or more pieces attack: (type, attacked squares),
    /// each type once, and (number of types, weak zone squares). Empty otherwise (no
    /// penalty whatever the weights).
    pub danger: [Vec<(u16, u16)>; 2],
}

/// Records the features [`Eval::walk`] reports.
struct Recorder<'a> {
    e: &'a Eval,
    counts: Vec<i32>,
    touched: Vec<u32>,
    hits: [Vec<i32>; 2],
    attackers: [i32; 2],
}

impl Recorder<'_> {
    #[inline]
    fn add(&mut self, c: usize, f: usize, n: i32) {
        if self.counts[f] == 0 {
            self.touched.push(f as u32);
        }
        self.counts[f] += if c == 0 { n } else { -n };
    }
}

impl Sink for Recorder<'_> {
    fn wants_mobility(&self, t: usize) -> bool {
        self.e.pawn_mask >> t & 1 == 0
    }
    fn wants_all(&self) -> bool {
        true
    }
    fn piece(&mut self, c: usize, t: usize, sq: Square) {
        let l = self.e.weights.layout;
        self.add(c, l.material(t), 1);
        self.add(c, l.pst(t, self.e.relative(c, sq)), 1);
    }
    fn passed(&mut self, c: usize, sq: Square) {
        let l = self.e.weights.layout;
        let rel = self.e.relative(c, sq);
        let bd_files = l.squares / l.ranks.max(1);
        self.add(c, l.passed(rel / bd_files.max(1)), 1);
    }
    fn mobility(&mut self, c: usize, t: usize, n: i32) {
        let l = self.e.weights.layout;
        self.add(c, l.mobility(t), n);
    }
    fn hand(&mut self, c: usize, t: usize, n: i32) {
        let l = self.e.weights.layout;
        self.add(c, l.hand(t), n);
    }
    fn scalar(&mut self, c: usize, term: usize, n: i32) {
        let l = self.e.weights.layout;
        self.add(c, l.scalar(term), n);
    }
    fn zone_hits(&mut self, c: usize, t: usize, hits: i32) {
        self.attackers[c] += 1;
        self.hits[c][t] += hits;
    }
    fn weak_zone(&mut self, c: usize, n: i32) {
        let types = self.e.weights.layout.types;
        self.hits[c][types] += n;
    }
    fn typed(&mut self, c: usize, f: usize, n: i32) {
        self.add(c, f, n);
    }
}

/// Traces positions of one game, reusing its scratch space.
pub struct Tracer<'a> {
    rec: Recorder<'a>,
}

impl<'a> Tracer<'a> {
    /// A tracer for the game `e` evaluates.
    pub fn new(e: &'a Eval) -> Tracer<'a> {
        let l = e.weights.layout;
        Tracer {
            rec: Recorder {
                e,
                counts: vec![0; l.features()],
                touched: Vec::new(),
                hits: [vec![0; l.types + 1], vec![0; l.types + 1]],
                attackers: [0; 2],
            },
        }
    }

    /// The features of `pos`.
    pub fn trace(&mut self, pos: &Position) -> Trace {
        let r = &mut self.rec;
        r.e.walk::<_, _, true>(pos, r);
        let mut features = Vec::with_capacity(r.touched.len());
        r.touched.sort_unstable();
        for &f in &r.touched {
            let n = std::mem::take(&mut r.counts[f as usize]);
            if n != 0 {
                features.push((f, n.clamp(i16::MIN as i32, i16::MAX as i32) as i16));
            }
        }
        r.touched.clear();
        let mut danger = [Vec::new(), Vec::new()];
        for (c, side) in danger.iter_mut().enumerate() {
            for (t, h) in r.hits[c].iter_mut().enumerate() {
                if *h > 0 && r.attackers[c] >= 2 {
                    side.push((t as u16, (*h).min(u16::MAX as i32) as u16));
                }
                *h = 0;
            }
            r.attackers[c] = 0;
        }
        let (phase, full) = r.e.phase(pos);
        let scales = r.e.eg_scales(pos);
        Trace {
            mg_share: phase as f32 / full as f32,
            eg_scale: scales.map(|x| x as f32 / SCALE_FULL as f32),
            features,
            danger,
        }
    }
}

/// Where the parts of a weight vector start.
#[derive(Clone, Copy, Debug)]
pub struct Offsets {
    /// Features.
    pub features: usize,
    /// Piece types.
    pub types: usize,
}

impl Offsets {
    /// For a layout.
    pub fn of(l: &weights::Layout) -> Offsets {
        Offsets {
            features: l.features(),
            types: l.types,
        }
    }
    /// Endgame weight of feature `f`.
    #[inline(always)]
    pub fn eg(&self, f: usize) -> usize {
        self.features + f
    }
    /// `royal_attack` of type `t`; `t` = the number of types is `royal_weak`.
    #[inline(always)]
    pub fn attack(&self, t: usize) -> usize {
        2 * self.features + t
    }
    /// The danger scale (the cap follows it).
    #[inline(always)]
    pub fn scale(&self) -> usize {
        2 * self.features + self.types + 1
    }
    /// Length of the vector.
    pub fn len(&self) -> usize {
        self.scale() + 2
    }
    /// Never empty: a vector has at least the danger scale and cap.
    pub fn is_empty(&self) -> bool {
        false
    }
}

impl Weights {
    /// All weights as one vector (see the module doc for the order).
    pub fn to_vec(&self) -> Vec<f64> {
        let mut out: Vec<f64> = self.mg.iter().chain(&self.eg).map(|&x| x as f64).collect();
        out.extend(self.royal_attack.iter().map(|&x| x as f64));
        out.push(self.royal_weak as f64);
        out.extend(self.royal_danger.iter().map(|&x| x as f64));
        out
    }

    /// Weights from a vector of [`Weights::to_vec`]'s order, rounded to whole units and
    /// kept within what a table may hold.
    pub fn from_vec(&self, p: &[f64]) -> Weights {
        let o = Offsets::of(&self.layout);
        let max = crate::variant::eval_table::MAX_WEIGHT as f64;
        let r = |x: f64| x.round().clamp(-max, max) as i32;
        let nonneg = |x: f64| x.round().clamp(0.0, max) as i32;
        Weights {
            layout: self.layout,
            mg: p[..o.features].iter().map(|&x| r(x)).collect(),
            eg: p[o.features..2 * o.features]
                .iter()
                .map(|&x| r(x))
                .collect(),
            royal_attack: (0..o.types).map(|t| nonneg(p[o.attack(t)])).collect(),
            royal_weak: nonneg(p[o.attack(o.types)]),
            royal_danger: [nonneg(p[o.scale()]), nonneg(p[o.scale() + 1])],
        }
    }
}

impl Trace {
    /// The royal-danger penalty of side `c` (before the taper), with its danger sum `D`
    /// and whether the cap holds it.
    #[inline]
    fn penalty(&self, c: usize, p: &[f64], o: &Offsets) -> (f64, f64, bool) {
        let d: f64 = self.danger[c]
            .iter()
            .map(|&(t, h)| h as f64 * p[o.attack(t as usize)])
            .sum();
        let raw = d * d * p[o.scale()] / 256.0;
        let cap = p[o.scale() + 1];
        if raw > cap {
            (cap, d, true)
        } else {
            (raw, d, false)
        }
    }

    /// The endgame score for White under weights `p`, before its scale.
    fn eg_sum(&self, p: &[f64], o: &Offsets) -> f64 {
        self.features
            .iter()
            .map(|&(f, n)| n as f64 * p[o.eg(f as usize)])
            .sum()
    }

    /// The share of the endgame score that counts under weights `p`: the scale of the
    /// side the endgame score favours.
    pub fn eg_factor(&self, p: &[f64], o: &Offsets) -> f64 {
        let i = if self.eg_sum(p, o) > 0.0 { 0 } else { 1 };
        self.eg_scale[i] as f64
    }

    /// The score for White under weights `p` (unrounded: the tuner's view).
    pub fn score(&self, p: &[f64], o: &Offsets) -> f64 {
        let m = self.mg_share as f64;
        let k = self.eg_factor(p, o);
        let mut s = 0.0;
        for &(f, n) in &self.features {
            let f = f as usize;
            s += n as f64 * (m * p[f] + (1.0 - m) * k * p[o.eg(f)]);
        }
        for (c, sign) in [(0, -1.0), (1, 1.0)] {
            if !self.danger[c].is_empty() {
                s += sign * m * self.penalty(c, p, o).0;
            }
        }
        s
    }

    /// Adds `g` times the gradient of [`Trace::score`] to `grad`.
    pub fn add_gradient(&self, p: &[f64], o: &Offsets, g: f64, grad: &mut [f64]) {
        let m = self.mg_share as f64;
        // The scale is a step in the weights (which side is ahead), flat on either side.
        let k = self.eg_factor(p, o);
        for &(f, n) in &self.features {
            let f = f as usize;
            grad[f] += g * n as f64 * m;
            grad[o.eg(f)] += g * n as f64 * (1.0 - m) * k;
        }
        for (c, sign) in [(0, -1.0), (1, 1.0)] {
            if self.danger[c].is_empty() {
                continue;
            }
            let (_, d, capped) = self.penalty(c, p, o);
            let gs = g * sign * m;
            if capped {
                grad[o.scale() + 1] += gs;
            } else {
                grad[o.scale()] += gs * d * d / 256.0;
                for &(t, h) in &self.danger[c] {
                    grad[o.attack(t as usize)] += gs * 2.0 * d * h as f64 * p[o.scale()] / 256.0;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::moves::{Color, MoveList};
    use crate::registry;

    /// Plays pseudo-random legal moves and checks, at every position, that the traced
    /// features under the game's own weights give the search's evaluation (up to the
    /// search's integer rounding).
    fn traces_reproduce_the_evaluation(game: &str, weights: Option<Weights>) {
        let v = registry::get(game).unwrap();
        let e = match weights {
            Some(w) => Eval::with_weights(&v, w),
            None => Eval::new(&v),
        };
        let p = e.weights().to_vec();
        let o = Offsets::of(&e.weights().layout);
        let mut tracer = Tracer::new(&e);
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for game_no in 0..6 {
            let mut pos = Position::startpos(&v);
            for ply in 0..120 {
                let t = tracer.trace(&pos);
                let white = t.score(&p, &o);
                let stm = if pos.side_to_move() == Color::White {
                    white
                } else {
                    -white
                };
                let got = e.evaluate(&pos) as f64;
                // The evaluation rounds twice (each side's danger penalty, then the
                // taper) where the trace keeps fractions: under 2 apart, never more.
                assert!(
                    (got - stm).abs() < 2.0,
                    "{game} game {game_no} ply {ply}: evaluate {got}, trace {stm}"
                );
                let mut list = MoveList::new();
                pos.legal_moves(&mut list);
                if list.is_empty() || pos.game_result().is_some() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.make_move(list.as_slice()[(seed % list.len() as u64) as usize]);
            }
        }
    }

    #[test]
    fn traces_reproduce_the_evaluation_in_every_built_in_game() {
        for game in registry::names() {
            traces_reproduce_the_evaluation(game, None);
        }
    }

    #[test]
    fn traces_reproduce_the_evaluation_with_every_term_weighed() {
        for game in ["grand", "augsburg", "wildeurasian"] {
            let v = registry::get(game).unwrap();
            let mut w = Weights::of(&v);
            for (k, x) in [(-9, 4), (-11, -7), (6, 9), (-20, -25), (-30, -12)]
                .into_iter()
                .enumerate()
            {
                let f = w.layout.scalar(weights::DOUBLED + k);
                w.mg[f] = x.0;
                w.eg[f] = x.1;
            }
            for t in 0..w.layout.types {
                w.mg[w.layout.mobility(t)] += 1;
            }
            w.royal_weak = 9;
            for (term, x) in [
                (weights::PASSED_BLOCKED, (-8, -21)),
                (weights::PASSED_OWN_ROYAL, (1, -3)),
                (weights::PASSED_ENEMY_ROYAL, (2, 5)),
                (weights::OUTPOST, (14, 6)),
                (weights::SPACE, (2, 0)),
                (weights::BACKWARD, (-7, -15)),
                (weights::PUSH_THREAT, (20, 12)),
                (weights::PASSED_SAFE_STOP, (3, 9)),
                (weights::PASSED_SAFE_PATH, (2, 7)),
                (weights::PASSED_SAFE_SPAN, (4, 11)),
                (weights::PASSED_GUARDED_STOP, (1, 2)),
                (weights::RESTRICTED, (7, 7)),
                (weights::ROYAL_PAWN_DISTANCE, (0, -16)),
                (weights::MINOR_BEHIND_PAWN, (18, 3)),
                (weights::COLOUR_PAWNS, (-3, -7)),
                (weights::SAFE_PAWN_THREAT, (17, 9)),
                (weights::WEAK_UNOPPOSED, (-13, -27)),
                (weights::PASSED_FILE, (-5, -4)),
                (weights::PAWNLESS_FLANK, (-17, -95)),
                (weights::ROYAL_THREAT, (24, 89)),
                (weights::REACHABLE_OUTPOST, (31, 22)),
                (weights::QUEEN_THREAT, (27, 13)),
                (weights::ZONE_XRAY, (19, -6)),
            ] {
                let f = w.layout.scalar(term);
                w.mg[f] = x.0;
                w.eg[f] = x.1;
            }
            traces_reproduce_the_evaluation(game, Some(w));
        }
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let v = registry::get("chess").unwrap();
        let e = Eval::new(&v);
        let pos = Position::from_fen(
            &v,
            "r1b2rk1/ppq2ppp/2n1pn2/3p4/1bPP4/2NBPN2/PPQ2PPP/R1B1K2R w KQ - 0 9",
        )
        .unwrap();
        let mut attack = pos.clone();
        attack
            .play_moves("e1g1 b4d6 c4d5 e6d5 c3b5 c7e7 b5d6 e7d6")
            .unwrap();
        for pos in [pos, attack] {
            let t = Tracer::new(&e).trace(&pos);
            let o = Offsets::of(&e.weights().layout);
            // Halfway weights keep the danger curve below its cap.
            let mut p = e.weights().to_vec();
            p[o.scale() + 1] = 1e9;
            p[o.attack(o.types)] = 6.0;
            let mut grad = vec![0.0; p.len()];
            t.add_gradient(&p, &o, 1.0, &mut grad);
            for (i, &g) in grad.iter().enumerate() {
                let mut up = p.clone();
                let mut down = p.clone();
                up[i] += 0.5;
                down[i] -= 0.5;
                let fd = t.score(&up, &o) - t.score(&down, &o);
                assert!(
                    (fd - g).abs() < 1e-6 * (1.0 + g.abs()),
                    "weight {i}: {g} vs {fd}"
                );
            }
        }
    }
}
