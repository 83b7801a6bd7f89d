//! A position's evaluation term by term (White's view, centipawns), as Stockfish's `eval`
//! prints it: what a user reads to see why the engine likes a position, and what a tuner
//! compares against another engine's breakdown.

use super::trace::{Offsets, Tracer};
use super::weights::SCALARS;
use super::Eval;
use crate::core::moves::Color;
use crate::position::Position;

/// One term's share of the evaluation, White's view: middlegame, endgame, and the two
/// tapered by the position's phase.
#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    /// The term's name: a group of weights (`material`, `placement`, `mobility`, …) or a
    /// scalar term's `[eval]` name (`tempo`, `open_file`, …).
    pub name: String,
    /// Middlegame centipawns.
    pub mg: f64,
    /// Endgame centipawns.
    pub eg: f64,
    /// Centipawns after the taper.
    pub total: f64,
}

/// The evaluation of a position split into its terms.
#[derive(Clone, Debug)]
pub struct Breakdown {
    /// The middlegame share of the taper (0: endgame, 1: middlegame).
    pub mg_share: f64,
    /// The share of the endgame column that counts (below 1 for a side ahead with
    /// few pawns; see [`Eval::eg_scales`]).
    pub eg_scale: f64,
    /// The terms with any share, in the order of the weight layout.
    pub terms: Vec<Term>,
    /// The evaluation for White, as the search sees it (rounded).
    pub white: i32,
    /// The evaluation for the side to move.
    pub side_to_move: i32,
}

impl Eval {
    /// The evaluation of `pos` split into its terms; they add up to `white` up to the
    /// search's integer rounding.
    pub fn explain(&self, pos: &Position) -> Breakdown {
        let l = self.weights.layout;
        let o = Offsets::of(&l);
        let p = self.weights.to_vec();
        let t = Tracer::new(self).trace(pos);
        let m = t.mg_share as f64;
        let k = t.eg_factor(&p, &o);
        let group = |f: usize| -> String {
            if f < l.hand(0) {
                "material".into()
            } else if f < l.mobility(0) {
                "hand".into()
            } else if f < l.pst(0, 0) {
                "mobility".into()
            } else if f < l.passed(0) {
                "placement".into()
            } else if f < l.scalar(0) {
                "passed".into()
            } else if f < l.threatened(0) {
                SCALARS[f - l.scalar(0)].into()
            } else if f < l.mobility_low(0) {
                "threatened".into()
            } else if f < l.royal_check(0) {
                "mobility".into()
            } else if f < l.royal_distance(0) {
                "safe checks".into()
            } else {
                "royal distance".into()
            }
        };
        let mut terms: Vec<Term> = Vec::new();
        for &(f, n) in &t.features {
            let f = f as usize;
            let name = group(f);
            let (mg, eg) = (n as f64 * p[f], n as f64 * p[o.eg(f)]);
            match terms.iter_mut().find(|x| x.name == name) {
                Some(x) => {
                    x.mg += mg;
                    x.eg += eg;
                }
                None => terms.push(Term {
                    name,
                    mg,
                    eg,
                    total: 0.0,
                }),
            }
        }
        // Royal danger is middlegame only; what the linear terms leave of the traced score
        // is that penalty (the difference of the two sides').
        let linear: f64 = t
            .features
            .iter()
            .map(|&(f, n)| n as f64 * (m * p[f as usize] + (1.0 - m) * k * p[o.eg(f as usize)]))
            .sum();
        let danger = t.score(&p, &o) - linear;
        if danger != 0.0 && m > 0.0 {
            terms.push(Term {
                name: "royal danger".into(),
                mg: danger / m,
                eg: 0.0,
                total: 0.0,
            });
        }
        // A term whose weights are zero in this game says nothing.
        terms.retain(|x| x.mg != 0.0 || x.eg != 0.0);
        for x in &mut terms {
            x.total = m * x.mg + (1.0 - m) * k * x.eg;
        }
        let side_to_move = self.evaluate(pos);
        let white = if pos.side_to_move() == Color::White {
            side_to_move
        } else {
            -side_to_move
        };
        Breakdown {
            mg_share: m,
            eg_scale: k,
            terms,
            white,
            side_to_move,
        }
    }
}

impl Breakdown {
    /// A table of the terms, Stockfish's `eval` layout in pawns (White's view), then the
    /// total for White and for the side to move.
    pub fn text(&self) -> String {
        // The name column is as wide as the longest name, so every row's bars line up.
        let w = self
            .terms
            .iter()
            .map(|t| t.name.len())
            .max()
            .unwrap_or(0)
            .max(12);
        let rule = format!("{}+----------------+--------\n", "-".repeat(w + 1));
        let mut s = format!("{:>w$} |     MG      EG |   total\n", "term");
        s.push_str(&rule);
        for t in &self.terms {
            s.push_str(&format!(
                "{:>w$} | {:>6.2}  {:>6.2} | {:>6.2}\n",
                t.name,
                t.mg / 100.0,
                t.eg / 100.0,
                t.total / 100.0
            ));
        }
        s.push_str(&rule);
        s.push_str(&format!(
            "phase {:.2} (1 = middlegame), endgame scale {:.2}\nevaluation {:+.2} (White's side), {:+.2} for the side to move\n",
            self.mg_share,
            self.eg_scale,
            self.white as f64 / 100.0,
            self.side_to_move as f64 / 100.0
        ));
        s
    }
}

#[cfg(test)]
mod tests {
    use crate::eval::Eval;
    use crate::position::Position;
    use crate::registry;

    /// The terms of a breakdown add up to the evaluation the search uses, in a chess
    /// middlegame and on a 10x10 board with both royals under attack.
    #[test]
    fn the_terms_add_up_to_the_evaluation() {
        for (game, fen) in [
            (
                "chess",
                "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8",
            ),
            (
                "grand",
                "r3qcb2r/2b1k1a3/pppppp1ppp/2n3pn2/10/10/2AP2P3/PPP1PP1PPP/1NBQ1C1BN1/RR3K4 w - - 6 11",
            ),
        ] {
            let v = registry::get(game).unwrap();
            let e = Eval::new(&v);
            let pos = Position::from_fen(&v, fen).unwrap();
            let b = e.explain(&pos);
            let sum: f64 = b.terms.iter().map(|t| t.total).sum();
            assert!(
                (sum - b.white as f64).abs() <= 2.0,
                "{game}: terms add to {sum}, evaluation {}",
                b.white
            );
            assert!(b.terms.iter().any(|t| t.name == "placement"));
            assert!(b.terms.iter().any(|t| t.name == "mobility"));
            let text = b.text();
            assert!(text.contains("placement") && text.contains("evaluation"), "{text}");
            // Long names (`passed_enemy_royal`) widen the column: every bar lines up.
            let bars: Vec<usize> = text
                .lines()
                .filter_map(|l| match l.starts_with('-') {
                    true => l.find('+'),
                    false => l.find('|'),
                })
                .collect();
            assert!(bars.len() > 4 && bars.iter().all(|&b| b == bars[0]), "{text}");
        }
    }
}
