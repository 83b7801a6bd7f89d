//! The evaluation's tests across terms, and the helpers the terms' own tests share.

use super::setup::{colour_bound, rides_files};
use super::*;
use crate::registry;
use std::sync::Arc;

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
pub(super) fn weighing(v: &Arc<Variant>, f: impl Fn(&Layout) -> usize, x: i32) -> Eval {
    let mut w = Weights::of(v);
    let i = f(&w.layout);
    w.mg[i] = x;
    w.eg[i] = x;
    Eval::with_weights(v, w).without_endgame_scale()
}

/// Checks each case's `(fen, n, why)`: weighing feature `f` 1 instead of 0 moves the
/// side to move's score by `n`.
pub(super) fn assert_counts(
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
