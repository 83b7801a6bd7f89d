//! An evaluation built from a variant's table: values, square tables and the masks and
//! pairings the walk reads (compounds as unions of their parts, colour-bound types,
//! file riders), all derived once per variant.

use super::{pawns, weights, Eval, Weights};
use crate::core::geometry::{Bitboard, Square, SQUARE_SLOTS};
use crate::core::moves::{Color, MAX_PIECE_TYPES};
use crate::position::Position;
use crate::variant::Variant;
use std::sync::Arc;

impl Eval {
    /// Builds the tables for a variant from its weights (derived, with `[eval]` over them).
    pub fn new(va: &Arc<Variant>) -> Eval {
        Eval::with_weights(va, Weights::of(va))
    }

    /// Builds the tables for a variant from the given weights (the tuner's).
    // Types and squares index several tables at once here.
    #[allow(clippy::needless_range_loop)]
    pub fn with_weights(va: &Arc<Variant>, w: Weights) -> Eval {
        let v: &Variant = va;
        let n = v.pieces.len();
        let bd = &v.board;
        let l = w.layout;
        let mob = crate::variant::values::mobility_table(&v.board, &v.rays, &v.attacks[0]);
        let squares = bd.squares() as i32;
        let values: Vec<i32> = v.pieces.iter().map(|p| p.value).collect();
        let mirror = |sq: Square| bd.square(bd.file_of(sq), bd.ranks as i32 - 1 - bd.rank_of(sq));
        let rel_rank = |c: Color, sq: Square| {
            if c == Color::White {
                bd.rank_of(sq)
            } else {
                bd.ranks as i32 - 1 - bd.rank_of(sq)
            }
        };
        let mut relative = [Box::new([0u8; SQUARE_SLOTS]), Box::new([0u8; SQUARE_SLOTS])];
        for s in 0..bd.squares() {
            relative[0][s] = s as u8;
            relative[1][s] = mirror(Square(s as u8)).map_or(s as u8, |m| m.0);
        }
        let mut piece_sq = Vec::with_capacity(n);
        let mut mobw = Vec::with_capacity(n);
        for t in 0..n {
            let avg4 = (mob[t].iter().sum::<i32>() / squares.max(1)).max(1);
            let mut sides = [
                Box::new([(0i32, 0i32); SQUARE_SLOTS]),
                Box::new([(0i32, 0i32); SQUARE_SLOTS]),
            ];
            for (c, side) in sides.iter_mut().enumerate() {
                for s in 0..bd.squares() {
                    let i = l.pst(t, relative[c][s] as usize);
                    side[s] = (w.mg[l.material(t)] + w.mg[i], w.eg[l.material(t)] + w.eg[i]);
                }
            }
            piece_sq.push(sides);
            mobw.push((w.mg[l.mobility(t)], w.eg[l.mobility(t)], avg4 / 4));
        }
        let table = || Box::new([Bitboard::EMPTY; SQUARE_SLOTS]);
        let mut front_span = [table(), table()];
        let mut file_ahead = [table(), table()];
        let mut support = [table(), table()];
        let mut shield = [table(), table()];
        let mut beside_files = table();
        let mut zone = table();
        let mut file = table();
        let mut flank = table();
        let mut passed = [
            Box::new([(0i32, 0i32); SQUARE_SLOTS]),
            Box::new([(0i32, 0i32); SQUARE_SLOTS]),
        ];
        for c in Color::BOTH {
            let ci = c.idx();
            let dir = if c == Color::White { 1 } else { -1 };
            for s in 0..bd.squares() {
                let sq = Square(s as u8);
                let (f, r) = (bd.file_of(sq), bd.rank_of(sq));
                for df in -1..=1 {
                    let mut rr = r + dir;
                    while let Some(t) = bd.square(f + df, rr) {
                        front_span[ci][s].set(t);
                        if df == 0 {
                            file_ahead[ci][s].set(t);
                        }
                        if (rr - r).abs() <= 2 {
                            shield[ci][s].set(t);
                        }
                        rr += dir;
                    }
                    if df != 0 {
                        for t in [bd.square(f + df, r), bd.square(f + df, r - dir)]
                            .into_iter()
                            .flatten()
                        {
                            support[ci][s].set(t);
                        }
                    }
                }
                let pr = rel_rank(c, sq) as usize;
                passed[ci][s] = (w.mg[l.passed(pr)], w.eg[l.passed(pr)]);
            }
        }
        for s in 0..bd.squares() {
            let sq = Square(s as u8);
            let f = bd.file_of(sq);
            for df in [-1, 1] {
                if (0..bd.files as i32).contains(&(f + df)) {
                    beside_files[s] |= bd.file_mask(f + df);
                }
            }
            let mut z = sq.bb();
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if let Some(t) = bd.offset(sq, dx, dy) {
                        z.set(t);
                    }
                }
            }
            zone[s] = z;
            file[s] = bd.file_mask(f);
            for df in -2..=2 {
                if (0..bd.files as i32).contains(&(f + df)) {
                    flank[s] |= bd.file_mask(f + df);
                }
            }
        }
        let mut scalars = [(0, 0); weights::SCALARS.len()];
        for (k, s) in scalars.iter_mut().enumerate() {
            *s = (w.mg[l.scalar(k)], w.eg[l.scalar(k)]);
        }
        let on = |k: usize| scalars[k] != (0, 0);
        let type_mask = |f: &dyn Fn(usize) -> usize| {
            (0..n)
                .filter(|&t| w.mg[f(t)] != 0 || w.eg[f(t)] != 0)
                .fold(0u32, |m, t| m | 1 << t)
        };
        let low_mask = type_mask(&|t| l.mobility_low(t));
        let threatened_mask = type_mask(&|t| l.threatened(t));
        let checker_types = (0..n)
            .filter(|&t| !v.pieces[t].pawn && !v.pieces[t].royal)
            .fold(0u32, |m, t| m | 1 << t);
        let check_mask = type_mask(&|t| l.royal_check(t)) & checker_types;
        let distance_mask = type_mask(&|t| l.royal_distance(t)) & checker_types;
        let unions = unions(v);
        let mut e = Eval {
            values,
            piece_sq,
            mob: mobw,
            passed,
            shape_on: on(weights::DOUBLED) || on(weights::ISOLATED) || on(weights::CONNECTED),
            passer_on: on(weights::PASSED_BLOCKED)
                || on(weights::PASSED_OWN_ROYAL)
                || on(weights::PASSED_ENEMY_ROYAL),
            threats_on: on(weights::THREAT_CHEAPER) || on(weights::HANGING) || threatened_mask != 0,
            low_mask,
            threatened_mask,
            check_mask,
            distance_mask,
            checker_types,
            unions,
            parts: unions
                .iter()
                .flatten()
                .fold(0, |m, &(x, y)| m | 1 << x | 1 << y),
            scalars,
            weights: w,
            pawn_mask: v.pawn_mask,
            pawn_cache_ok: (v.pawn_mask.count_ones() as usize) <= pawns::CACHED_TYPES
                && (0..n).all(|t| {
                    v.pawn_mask >> t & 1 == 0
                        || v.attacks.iter().all(|a| a[t].captures_only_by_leaps())
                }),
            royal_mask: v.royal_mask,
            front_span,
            file_ahead,
            beside_files,
            support,
            zone,
            file,
            flank,
            shield,
            relative,
            start_phase: 0,
            colour_bound: (0..n)
                .filter(|&t| {
                    v.pawn_mask >> t & 1 == 0 && v.royal_mask >> t & 1 == 0 && colour_bound(v, t)
                })
                .collect(),
            dark: (0..bd.squares())
                .map(|s| Square(s as u8))
                .filter(|&s| (bd.file_of(s) + bd.rank_of(s)) % 2 == 0)
                .fold(Bitboard::EMPTY, |b, s| b | s.bb()),
            file_riders: (0..n)
                .filter(|&t| {
                    v.pawn_mask >> t & 1 == 0
                        && v.royal_mask >> t & 1 == 0
                        && v.pieces[t].value < weights::HEAVY
                        && rides_files(v, t)
                })
                .collect(),
            light_mask: (0..n)
                .filter(|&t| {
                    v.pawn_mask >> t & 1 == 0
                        && v.royal_mask >> t & 1 == 0
                        && v.pieces[t].value < weights::LIGHT
                })
                .fold(0, |m, t| m | 1 << t),
            rider_mask: (0..n)
                .filter(|&t| {
                    v.pawn_mask >> t & 1 == 0
                        && v.royal_mask >> t & 1 == 0
                        && !v.attacks[0][t].rides.is_empty()
                })
                .fold(0, |m, t| m | 1 << t),
            enemy_half: [Color::White, Color::Black].map(|c| {
                (0..bd.squares())
                    .map(|s| Square(s as u8))
                    .filter(|&s| 2 * rel_rank(c, s) >= bd.ranks as i32)
                    .fold(Bitboard::EMPTY, |b, s| b | s.bb())
            }),
            space_area: [Color::White, Color::Black].map(|c| {
                let margin = bd.files as i32 / 4;
                (0..bd.squares())
                    .map(|s| Square(s as u8))
                    .filter(|&s| {
                        let (f, r) = (bd.file_of(s), rel_rank(c, s));
                        (margin..bd.files as i32 - margin).contains(&f)
                            && (1..bd.ranks as i32 / 2).contains(&r)
                    })
                    .fold(Bitboard::EMPTY, |b, s| b | s.bb())
            }),
            by_value: {
                let mut t: Vec<usize> = (0..n).filter(|&t| v.royal_mask >> t & 1 == 0).collect();
                t.sort_by_key(|&t| v.pieces[t].value);
                t
            },
            value_runs: Vec::new(),
            minor_margin: 0,
            scaled: v.eval().endgame_scale,
        };
        e.minor_margin = (0..n)
            .filter(|&t| v.pawn_mask >> t & 1 == 0 && v.royal_mask >> t & 1 == 0)
            .map(|t| e.values[t])
            .filter(|&x| x > 0)
            .min()
            .map_or(0, |x| x + x / 8);
        e.value_runs = runs(&e.by_value, &e.values);
        e.start_phase = e.phase_material(&Position::startpos(va)).max(1);
        e
    }
}

/// The runs of `types` (sorted by value) whose `values` are equal, as index ranges.
fn runs(types: &[usize], values: &[i32]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < types.len() {
        let j = i + types[i..]
            .iter()
            .take_while(|&&t| values[t] == values[types[i]])
            .count();
        out.push((i, j));
        i = j;
    }
    out
}

/// Per type of `v`: two other types whose atoms together are exactly its atoms, on the
/// same squares (confinement), where there are such; neither part is itself such a union.
pub(super) fn unions(v: &Variant) -> [Option<(u8, u8)>; MAX_PIECE_TYPES] {
    use std::collections::HashSet;
    let atoms: Vec<HashSet<_>> = v.pieces.iter().map(|p| p.atoms.iter().collect()).collect();
    let n = v.pieces.len().min(MAX_PIECE_TYPES);
    let same_squares = |a: usize, b: usize| v.pieces[a].confine == v.pieces[b].confine;
    let mut out = [None; MAX_PIECE_TYPES];
    for t in 0..n {
        'pairs: for x in 0..n {
            for y in x + 1..n {
                if x == t || y == t || atoms[x] == atoms[t] || atoms[y] == atoms[t] {
                    continue;
                }
                let both: HashSet<_> = atoms[x].union(&atoms[y]).copied().collect();
                if both == atoms[t] && same_squares(x, t) && same_squares(y, t) {
                    out[t] = Some((x as u8, y as u8));
                    break 'pairs;
                }
            }
        }
    }
    // A part is walked itself: a union of unions would need more than one level.
    let copy = out;
    for o in out.iter_mut() {
        if let Some((x, y)) = *o {
            if copy[x as usize].is_some() || copy[y as usize].is_some() {
                *o = None;
            }
        }
    }
    out
}

/// True when no move of type `t` (on an empty board, from any square) changes the
/// colour of its square, and it moves at all.
pub(super) fn colour_bound(v: &Variant, t: usize) -> bool {
    let bd = &v.board;
    let colour = |s: Square| (bd.file_of(s) + bd.rank_of(s)) % 2;
    let mut moves = false;
    for s in 0..bd.squares() {
        let sq = Square(s as u8);
        let a = &v.attacks[0][t];
        // Moves on an empty board, captures on a full one (each ride's first step).
        let full = bd.all & !sq.bb();
        let reach =
            a.targets(&v.rays, sq, Bitboard::EMPTY).quiet | a.targets(&v.rays, sq, full).capture;
        for to in reach.iter() {
            moves = true;
            if colour(to) != colour(sq) {
                return false;
            }
        }
    }
    moves
}

/// True when type `t`, from its own first rank on an empty board, reaches every square of
/// its file up to the last rank (a rook-like rider along files).
pub(super) fn rides_files(v: &Variant, t: usize) -> bool {
    let bd = &v.board;
    let f = bd.files as i32 / 2;
    let Some(from) = bd.square(f, 0) else {
        return false;
    };
    let reach = v.attacks[0][t]
        .targets(&v.rays, from, Bitboard::<u128>::EMPTY)
        .quiet;
    (bd.file_mask(f) & !from.bb()).iter().all(|s| reach.has(s))
}
