//! The evaluation as named weights: every term is a (middlegame, endgame) weight on a
//! feature the position counts, plus the royal-danger curve. Defaults are derived from
//! the table alone (material from the pieces' values, placement from their mobility per
//! square, passed-pawn growth from the promotion ranks); the table's `[eval]` section
//! replaces any of them, and `tenfold tune` writes that section back.

use crate::core::geometry::{Board, Square};
use crate::core::moves::{Color, PieceType};
use crate::position::Position;
use crate::variant::eval_table::EvalTable;
use crate::variant::{values, Variant};
use std::fmt::Write;
use std::sync::Arc;

/// Pieces worth at least this get no middlegame placement bonus (queen-like).
pub const HEAVY: i32 = 800;
/// Pieces worth less than this are light (knight-like) and should leave the back rank.
pub const LIGHT: i32 = 450;
/// Default bonus for the side to move (half of it in the endgame).
const TEMPO: i32 = 12;

/// The scalar terms, in their order after the per-type and per-square ones.
pub const SCALARS: [&str; 33] = [
    "tempo",
    "shelter",
    "doubled",
    "isolated",
    "connected",
    "threat_cheaper",
    "hanging",
    "pair",
    "open_file",
    "half_open_file",
    "passed_blocked",
    "passed_own_royal",
    "passed_enemy_royal",
    "outpost",
    "space",
    "backward",
    "push_threat",
    "passed_safe_stop",
    "passed_safe_path",
    "passed_safe_span",
    "passed_guarded_stop",
    "restricted",
    "royal_pawn_distance",
    "minor_behind_pawn",
    "colour_pawns",
    "safe_pawn_threat",
    "weak_unopposed",
    "passed_file",
    "pawnless_flank",
    "royal_threat",
    "reachable_outpost",
    "queen_threat",
    "zone_xray",
];
/// Index of `tempo` among [`SCALARS`].
pub const TEMPO_TERM: usize = 0;
/// Index of `shelter` among [`SCALARS`].
pub const SHELTER: usize = 1;
/// Index of `doubled` among [`SCALARS`].
pub const DOUBLED: usize = 2;
/// Index of `isolated` among [`SCALARS`].
pub const ISOLATED: usize = 3;
/// Index of `connected` among [`SCALARS`].
pub const CONNECTED: usize = 4;
/// Index of `threat_cheaper` among [`SCALARS`].
pub const THREAT_CHEAPER: usize = 5;
/// Index of `hanging` among [`SCALARS`].
pub const HANGING: usize = 6;
/// Index of `pair` among [`SCALARS`].
pub const PAIR: usize = 7;
/// Index of `open_file` among [`SCALARS`].
pub const OPEN_FILE: usize = 8;
/// Index of `half_open_file` among [`SCALARS`].
pub const HALF_OPEN_FILE: usize = 9;
/// Index of `passed_blocked` among [`SCALARS`].
pub const PASSED_BLOCKED: usize = 10;
/// Index of `passed_own_royal` among [`SCALARS`].
pub const PASSED_OWN_ROYAL: usize = 11;
/// Index of `passed_enemy_royal` among [`SCALARS`].
pub const PASSED_ENEMY_ROYAL: usize = 12;
/// Index of `outpost` among [`SCALARS`].
pub const OUTPOST: usize = 13;
/// Index of `space` among [`SCALARS`].
pub const SPACE: usize = 14;
/// Index of `backward` among [`SCALARS`].
pub const BACKWARD: usize = 15;
/// Index of `push_threat` among [`SCALARS`].
pub const PUSH_THREAT: usize = 16;
/// Index of `passed_safe_stop` among [`SCALARS`].
pub const PASSED_SAFE_STOP: usize = 17;
/// Index of `passed_safe_path` among [`SCALARS`].
pub const PASSED_SAFE_PATH: usize = 18;
/// Index of `passed_safe_span` among [`SCALARS`].
pub const PASSED_SAFE_SPAN: usize = 19;
/// Index of `passed_guarded_stop` among [`SCALARS`].
pub const PASSED_GUARDED_STOP: usize = 20;
/// Index of `restricted` among [`SCALARS`].
pub const RESTRICTED: usize = 21;
/// Index of `royal_pawn_distance` among [`SCALARS`].
pub const ROYAL_PAWN_DISTANCE: usize = 22;
/// Index of `minor_behind_pawn` among [`SCALARS`].
pub const MINOR_BEHIND_PAWN: usize = 23;
/// Index of `colour_pawns` among [`SCALARS`].
pub const COLOUR_PAWNS: usize = 24;
/// Index of `safe_pawn_threat` among [`SCALARS`].
pub const SAFE_PAWN_THREAT: usize = 25;
/// Index of `weak_unopposed` among [`SCALARS`].
pub const WEAK_UNOPPOSED: usize = 26;
/// Index of `passed_file` among [`SCALARS`].
pub const PASSED_FILE: usize = 27;
/// Index of `pawnless_flank` among [`SCALARS`].
pub const PAWNLESS_FLANK: usize = 28;
/// Index of `royal_threat` among [`SCALARS`].
pub const ROYAL_THREAT: usize = 29;
/// Index of `reachable_outpost` among [`SCALARS`].
pub const REACHABLE_OUTPOST: usize = 30;
/// Index of `queen_threat` among [`SCALARS`].
pub const QUEEN_THREAT: usize = 31;
/// Index of `zone_xray` among [`SCALARS`].
pub const ZONE_XRAY: usize = 32;

/// Where each feature sits in the flat weight vectors of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Piece types.
    pub types: usize,
    /// Squares of the board.
    pub squares: usize,
    /// Ranks of the board.
    pub ranks: usize,
}

impl Layout {
    /// The layout of a game.
    pub fn of(v: &Variant) -> Layout {
        Layout {
            types: v.pieces.len(),
            squares: v.board.squares(),
            ranks: v.board.ranks as usize,
        }
    }
    /// Material of type `t` on the board.
    #[inline(always)]
    pub fn material(&self, t: usize) -> usize {
        t
    }
    /// Type `t` in hand.
    #[inline(always)]
    pub fn hand(&self, t: usize) -> usize {
        self.types + t
    }
    /// Mobility of type `t` (per square above its average).
    #[inline(always)]
    pub fn mobility(&self, t: usize) -> usize {
        2 * self.types + t
    }
    /// Placement of type `t` on square `sq` (White's view).
    #[inline(always)]
    pub fn pst(&self, t: usize, sq: usize) -> usize {
        3 * self.types + t * self.squares + sq
    }
    /// A passed pawn-rule piece on relative rank `r` (0: own first rank).
    #[inline(always)]
    pub fn passed(&self, r: usize) -> usize {
        3 * self.types + self.types * self.squares + r
    }
    /// The scalar term `i` of [`SCALARS`].
    #[inline(always)]
    pub fn scalar(&self, i: usize) -> usize {
        self.passed(self.ranks) + i
    }
    /// A piece of type `t` attacked by a cheaper enemy piece.
    #[inline(always)]
    pub fn threatened(&self, t: usize) -> usize {
        self.scalar(SCALARS.len()) + t
    }
    /// Type `t`'s mobility below its average (per square short).
    #[inline(always)]
    pub fn mobility_low(&self, t: usize) -> usize {
        self.threatened(self.types) + t
    }
    /// Safe checking squares a piece of type `t` can reach (per square, at most three).
    #[inline(always)]
    pub fn royal_check(&self, t: usize) -> usize {
        self.mobility_low(self.types) + t
    }
    /// A piece of type `t`, per king step from its own royal.
    #[inline(always)]
    pub fn royal_distance(&self, t: usize) -> usize {
        self.royal_check(self.types) + t
    }
    /// Number of features.
    pub fn features(&self) -> usize {
        self.royal_distance(self.types)
    }
}

/// Every weight of a game's evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Where the features sit.
    pub layout: Layout,
    /// Middlegame weight per feature (centipawns per count).
    pub mg: Vec<i32>,
    /// Endgame weight per feature.
    pub eg: Vec<i32>,
    /// Per type: danger it adds per attacked square of the enemy royal's zone, in quarters.
    pub royal_attack: Vec<i32>,
    /// Danger per square of a royal's zone the enemy attacks and no own non-royal piece
    /// guards, in quarters (added to `D` like an attacker type's).
    pub royal_weak: i32,
    /// `[scale, cap]` of the royal-danger penalty `min(cap, D² · scale / 256)`.
    pub royal_danger: [i32; 2],
}

impl Weights {
    /// The weights of a game: derived defaults with its `[eval]` section laid over them.
    pub fn of(va: &Arc<Variant>) -> Weights {
        let mut w = Weights::derived(va);
        w.apply(va.eval());
        w
    }

    /// The weights derived from the pieces alone (what a table without `[eval]` gets).
    pub fn derived(va: &Arc<Variant>) -> Weights {
        let v: &Variant = va;
        let layout = Layout::of(v);
        let n = layout.types;
        let bd = &v.board;
        let mob = values::mobility_table(&v.board, &v.rays, &v.attacks[0]);
        let squares = bd.squares() as i32;
        let start = Position::startpos(va);
        let mut mg = vec![0; layout.features()];
        let mut eg = vec![0; layout.features()];
        let mut royal_attack = vec![0; n];
        for t in 0..n {
            let def = &v.pieces[t];
            let value = def.value;
            let avg4 = (mob[t].iter().sum::<i32>() / squares.max(1)).max(1);
            mg[layout.material(t)] = value;
            eg[layout.material(t)] = value;
            // A piece in hand can go anywhere: worth a tenth more than on the board.
            mg[layout.hand(t)] = value + value / 10;
            eg[layout.hand(t)] = value + value / 10;
            if !def.pawn && !def.royal {
                // Four centipawns per square for ordinary pieces, less for long-range
                // ones whose every extra square matters less.
                let mw = (4 * 32 / avg4.max(32)).max(1);
                mg[layout.mobility(t)] = mw;
                eg[layout.mobility(t)] = mw;
            }
            royal_attack[t] = 4 * (1 + value / 400);
            for s in 0..bd.squares() {
                let sq = Square(s as u8);
                let (f, r) = (bd.file_of(sq), bd.rank_of(sq));
                let centre_dist = {
                    let df = (2 * f - (bd.files as i32 - 1)).abs();
                    let dr = (2 * r - (bd.ranks as i32 - 1)).abs();
                    df.max(dr) / 2
                };
                let (a, b) = if def.royal {
                    // Stay back and off the centre files in the middlegame, centralise
                    // in the endgame.
                    let edge_file = f.min(bd.files as i32 - 1 - f);
                    (-14 * r - 8 * edge_file, -10 * centre_dist)
                } else if def.pawn {
                    let adv = r - pawn_start_rank(&start, t, bd.ranks as i32);
                    let central = (bd.files as i32 - 1 - (2 * f - (bd.files as i32 - 1)).abs()) / 2;
                    (adv.max(0) * central.min(3) * 2, adv.max(0) * 4)
                } else {
                    // Centipawns per quarter-square of mobility above average, bounded.
                    let w = value.max(100) / (avg4 * 3);
                    let b = (w.max(1) * (mob[t][s] - avg4) / 4).clamp(-30, 30);
                    // Heavy pieces gain nothing by coming out early; light ones are
                    // pushed off their back rank to develop.
                    let a = if value >= HEAVY {
                        0
                    } else if value < LIGHT && r == 0 {
                        b - 15
                    } else {
                        b
                    };
                    (a, b)
                };
                mg[layout.pst(t, s)] = a;
                eg[layout.pst(t, s)] = b;
            }
        }
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
        if let Some(pr) = promo_rank {
            let total = (pr - pawn_start).max(1);
            for r in 0..layout.ranks {
                let adv = (r as i32 - pawn_start).clamp(0, total);
                // Grows with the square of the progress: a passer near the end is worth
                // most of a piece in the endgame.
                let p2 = adv * adv * 1000 / (total * total);
                mg[layout.passed(r)] = 5 + 60 * p2 / 1000;
                eg[layout.passed(r)] = 15 + 170 * p2 / 1000;
            }
        }
        mg[layout.scalar(TEMPO_TERM)] = TEMPO;
        eg[layout.scalar(TEMPO_TERM)] = TEMPO / 2;
        mg[layout.scalar(SHELTER)] = 12;
        // Pawn shape and threats, in fractions of the game's pawn: the textbook
        // proportions (a doubled or isolated pawn costs a tenth to a fifth of a pawn, more
        // in the endgame where it can be won; a piece attacked by a cheaper one or left
        // undefended is a liability for the side that owns it).
        let pawn = (0..n)
            .filter(|&t| v.pieces[t].pawn)
            .map(|t| v.pieces[t].value)
            .min()
            .unwrap_or(100)
            .max(1);
        for (term, (a, b)) in [
            (DOUBLED, (-10, -20)),
            (ISOLATED, (-10, -15)),
            (CONNECTED, (6, 8)),
            (THREAT_CHEAPER, (-30, -25)),
            (HANGING, (-15, -15)),
            // Two pieces of a colour-bound type on both colours cover what one cannot
            // (the bishop pair). Off by default: +30/+50 scored -6.3 ± 23.6 in chess over
            // 666 games (docs/strength.md); a table may tune it.
            (PAIR, (0, 0)),
            // A file rider on a file without own pawns reaches into the enemy camp.
            (OPEN_FILE, (25, 10)),
            (HALF_OPEN_FILE, (12, 6)),
        ] {
            mg[layout.scalar(term)] = a * pawn / 100;
            eg[layout.scalar(term)] = b * pawn / 100;
        }
        Weights {
            layout,
            mg,
            eg,
            royal_attack,
            // Off by default (the bench and untuned tables keep their play); fitted.
            royal_weak: 0,
            royal_danger: [32, 500],
        }
    }

    /// Lays a compiled `[eval]` section over these weights.
    pub fn apply(&mut self, e: &EvalTable) {
        let l = self.layout;
        let mut set = |i: usize, p: Option<[i32; 2]>| {
            if let Some([a, b]) = p {
                self.mg[i] = a;
                self.eg[i] = b;
            }
        };
        for (i, p) in [
            e.tempo,
            e.shelter,
            e.doubled,
            e.isolated,
            e.connected,
            e.threat_cheaper,
            e.hanging,
            e.pair,
            e.open_file,
            e.half_open_file,
            e.passed_blocked,
            e.passed_own_royal,
            e.passed_enemy_royal,
            e.outpost,
            e.space,
            e.backward,
            e.push_threat,
            e.passed_safe_stop,
            e.passed_safe_path,
            e.passed_safe_span,
            e.passed_guarded_stop,
            e.restricted,
            e.royal_pawn_distance,
            e.minor_behind_pawn,
            e.colour_pawns,
            e.safe_pawn_threat,
            e.weak_unopposed,
            e.passed_file,
            e.pawnless_flank,
            e.royal_threat,
            e.reachable_outpost,
            e.queen_threat,
            e.zone_xray,
        ]
        .into_iter()
        .enumerate()
        {
            set(l.scalar(i), p);
        }
        if let Some(passed) = &e.passed {
            for (r, &p) in passed.iter().enumerate().take(l.ranks) {
                set(l.passed(r), Some(p));
            }
        }
        for (t, p) in e.pieces.iter().enumerate().take(l.types) {
            set(l.material(t), p.material);
            set(l.hand(t), p.hand);
            set(l.mobility(t), p.mobility);
            set(l.mobility_low(t), p.mobility_low);
            set(l.threatened(t), p.threatened);
            set(l.royal_check(t), p.royal_check);
            set(l.royal_distance(t), p.royal_distance);
        }
        for (t, p) in e.pieces.iter().enumerate().take(l.types) {
            for (table, out) in [(&p.pst_mg, &mut self.mg), (&p.pst_eg, &mut self.eg)] {
                if let Some(squares) = table {
                    for (s, &x) in squares.iter().enumerate().take(l.squares) {
                        out[l.pst(t, s)] = x;
                    }
                }
            }
        }
        for (t, p) in e.pieces.iter().enumerate().take(l.types) {
            if let Some(a) = p.royal_attack {
                self.royal_attack[t] = a;
            }
        }
        if let Some(d) = e.royal_danger {
            self.royal_danger = d;
        }
        if let Some(x) = e.royal_weak {
            self.royal_weak = x;
        }
    }

    /// The name of feature `i` (`piece.N.pst.e4`, `passed.5`, `tempo`), for reports.
    pub fn feature_name(&self, v: &Variant, i: usize) -> String {
        let l = self.layout;
        let letter = |t: usize| v.pieces[t].letter;
        if i < l.hand(0) {
            format!("piece.{}.material", letter(i))
        } else if i < l.mobility(0) {
            format!("piece.{}.hand", letter(i - l.types))
        } else if i < l.pst(0, 0) {
            format!("piece.{}.mobility", letter(i - 2 * l.types))
        } else if i < l.passed(0) {
            let k = i - l.pst(0, 0);
            let sq = Square((k % l.squares) as u8);
            format!(
                "piece.{}.pst.{}",
                letter(k / l.squares),
                v.board.square_name(sq)
            )
        } else if i < l.scalar(0) {
            format!("passed.{}", i - l.passed(0) + 1)
        } else if i < l.threatened(0) {
            SCALARS[i - l.scalar(0)].to_string()
        } else if i < l.mobility_low(0) {
            format!("piece.{}.threatened", letter(i - l.threatened(0)))
        } else if i < l.royal_check(0) {
            format!("piece.{}.mobility_low", letter(i - l.mobility_low(0)))
        } else if i < l.royal_distance(0) {
            format!("piece.{}.royal_check", letter(i - l.royal_check(0)))
        } else {
            format!("piece.{}.royal_distance", letter(i - l.royal_distance(0)))
        }
    }

    /// The `[eval]` section holding every weight, as `tenfold tune` writes it.
    pub fn to_toml(&self, v: &Variant) -> String {
        let l = self.layout;
        let bd = &v.board;
        let pair = |i: usize| format!("[{}, {}]", self.mg[i], self.eg[i]);
        let mut out = String::from("[eval]\n");
        for (k, name) in SCALARS.iter().enumerate() {
            let _ = writeln!(out, "{name} = {}", pair(l.scalar(k)));
        }
        let _ = writeln!(
            out,
            "royal_danger = [{}, {}]",
            self.royal_danger[0], self.royal_danger[1]
        );
        let _ = writeln!(out, "royal_weak = {}", self.royal_weak);
        // The fit assumed the table's scale switch, so it goes back with the weights.
        if v.eval().endgame_scale {
            let _ = writeln!(out, "endgame_scale = true");
        }
        let passed: Vec<String> = (0..l.ranks).map(|r| pair(l.passed(r))).collect();
        let _ = writeln!(out, "passed = [{}]", passed.join(", "));
        for (t, def) in v.pieces.iter().enumerate() {
            let _ = writeln!(out, "\n[eval.piece.{}]", def.letter);
            let _ = writeln!(out, "material = {}", pair(l.material(t)));
            let _ = writeln!(out, "hand = {}", pair(l.hand(t)));
            let _ = writeln!(out, "mobility = {}", pair(l.mobility(t)));
            let _ = writeln!(out, "mobility_low = {}", pair(l.mobility_low(t)));
            let _ = writeln!(out, "threatened = {}", pair(l.threatened(t)));
            let _ = writeln!(out, "royal_check = {}", pair(l.royal_check(t)));
            let _ = writeln!(out, "royal_distance = {}", pair(l.royal_distance(t)));
            let _ = writeln!(out, "royal_attack = {}", self.royal_attack[t]);
            for (name, table) in [("pst_mg", &self.mg), ("pst_eg", &self.eg)] {
                let _ = writeln!(out, "{name} = [");
                for r in (0..bd.ranks as i32).rev() {
                    let row: Vec<String> = (0..bd.files as i32)
                        .filter_map(|f| bd.square(f, r))
                        .map(|sq| format!("{:4}", table[l.pst(t, sq.idx())]))
                        .collect();
                    let _ = writeln!(out, "  [{}],", row.join(","));
                }
                out.push_str("]\n");
            }
        }
        out
    }
}

/// The lowest relative rank a pawn type stands on in the start position (White's view).
fn pawn_start_rank(start: &Position, t: usize, ranks: i32) -> i32 {
    let bd: &Board = &start.variant().board;
    start
        .pieces(t as PieceType, Color::White)
        .iter()
        .map(|s| bd.rank_of(s))
        .min()
        .unwrap_or(1)
        .clamp(0, ranks - 1)
}
