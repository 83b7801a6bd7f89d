//! Combined Arms: the engine's move generator against the independent one in
//! `reference/combined_arms.rs` (mailbox, literal action sequences, no code shared with
//! `src/`), on seeded random games, seeded random placements and the perft suite.

use crate::common;
use crate::reference;

use common::{assert_same_moves, suite, Rng};
use reference::combined_arms as ca;
use tenfold::core::moves::MoveList;
use tenfold::registry;
use tenfold::Position;

fn engine_moves(pos: &Position) -> Vec<(String, tenfold::Move)> {
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter().map(|&m| (pos.move_to_string(m), m)).collect()
}

/// What the compared positions exercised, so the test shows it reached every ruling.
#[derive(Default, Debug)]
struct Seen {
    checks: usize,
    castles: usize,
    two_kills: usize,
    shots_in_place: usize,
    promotions: usize,
    mates: usize,
}

impl Seen {
    fn add(&mut self, pos: &Position, moves: &[(String, tenfold::Move)]) {
        self.checks += pos.in_check() as usize;
        self.mates += (moves.is_empty() && pos.in_check()) as usize;
        for (t, m) in moves {
            self.castles += (m.kind() == tenfold::MoveKind::Castle) as usize;
            self.two_kills += (m.kill_count() >= 2) as usize;
            self.shots_in_place += (m.from() == m.to()) as usize;
            self.promotions += m.promotion().is_some() as usize;
            let _ = t;
        }
    }
}

/// Compares the two generators on one position; returns the engine's moves.
fn compare(pos: &Position) -> Vec<(String, tenfold::Move)> {
    let fen = pos.fen();
    let mine = engine_moves(pos);
    let mut names: Vec<String> = mine.iter().map(|(s, _)| s.clone()).collect();
    names.sort();
    let rp = ca::parse_fen(&fen);
    // A map, so the reference lists each move once and sorted.
    let want: Vec<String> = ca::legal_moves(&rp).into_keys().collect();
    assert_same_moves(&names, &want, &fen);
    assert_eq!(
        pos.in_check(),
        ca::in_check(&rp),
        "check status differs in {fen}"
    );
    mine
}

#[test]
fn random_games_agree_with_the_reference_generator() {
    let v = registry::get("combined-arms").unwrap();
    let mut rng = Rng(0x5EED_CA11_0000_0001);
    let mut positions = 0;
    let mut most = 0;
    let mut seen = Seen::default();
    for game in 0..60 {
        let mut pos = Position::startpos(&v);
        let start_key = pos.key();
        for _ply in 0..80 {
            let moves = compare(&pos);
            seen.add(&pos, &moves);
            positions += 1;
            most = most.max(moves.len());
            if moves.is_empty() {
                break;
            }
            let (text, m) = &moves[rng.below(moves.len())];
            let before = ca::parse_fen(&pos.fen());
            let after = ca::legal_moves(&before)[text].clone();
            pos.make_move(*m);
            assert_eq!(
                pos.key(),
                pos.compute_key(),
                "game {game}: key after {text}"
            );
            let fen = pos.fen();
            assert_eq!(
                fen.split(' ').next().unwrap(),
                ca::placement(&after.board),
                "game {game}: board after {text}"
            );
            assert!(
                fen.contains(" - - "),
                "castling and en passant fields are always '-' (R14): {fen}"
            );
        }
        while pos.ply_count() > 0 {
            pos.unmake_move();
        }
        assert_eq!(pos.key(), start_key);
        assert_eq!(pos.fen(), v.start_fen);
    }
    eprintln!("{positions} positions, at most {most} moves, {seen:?}");
    assert!(positions >= 2000, "only {positions} positions");
    assert!(
        seen.checks > 20 && seen.castles > 20 && seen.two_kills > 20,
        "{seen:?}"
    );
    assert!(
        seen.shots_in_place > 100 && seen.promotions > 20,
        "{seen:?}"
    );
    assert!(
        most < tenfold::core::moves::MAX_MOVES / 2,
        "{most} moves in one position"
    );
}

/// A random legal placement: both kings, up to `n` other pieces anywhere a piece of
/// that kind can stand, the side not to move not in check.
fn random_placement(rng: &mut Rng, n: usize) -> String {
    loop {
        let mut b: ca::Board = [None; 64];
        for white in [true, false] {
            loop {
                let s = rng.below(64);
                if b[s].is_none() {
                    b[s] = Some(ca::Pc { white, kind: 'K' });
                    break;
                }
            }
        }
        for _ in 0..rng.below(n + 1) {
            let s = rng.below(64);
            let white = rng.below(2) == 0;
            let kind = ['P', 'P', 'P', 'N', 'B', 'R', 'Q'][rng.below(7)];
            let last = if white { 7 } else { 0 };
            if b[s].is_none() && !(kind == 'P' && s / 8 == last) {
                b[s] = Some(ca::Pc { white, kind });
            }
        }
        let white = rng.below(2) == 0;
        let ks = (0..64)
            .find(|&s| {
                b[s] == Some(ca::Pc {
                    white: !white,
                    kind: 'K',
                })
            })
            .unwrap();
        if ca::capturable(&b, ks, white) {
            continue;
        }
        let side = if white { "w" } else { "b" };
        return format!("{} {side} - - 0 1", ca::placement(&b));
    }
}

#[test]
fn random_placements_agree_with_the_reference_generator() {
    let v = registry::get("combined-arms").unwrap();
    let mut rng = Rng(0x0DD5_EED5_CA00_0002);
    let mut seen = Seen::default();
    for i in 0..1500 {
        let fen = random_placement(&mut rng, if i % 3 == 0 { 28 } else { 14 });
        let mut pos = Position::from_fen(&v, &fen).unwrap();
        let moves = compare(&pos);
        seen.add(&pos, &moves);
        // Every move made and taken back restores the position and its key.
        for (text, m) in moves.iter().take(40) {
            pos.make_move(*m);
            assert_eq!(pos.key(), pos.compute_key(), "{fen}: key after {text}");
            pos.unmake_move();
            assert_eq!(pos.fen(), fen, "{fen}: unmake {text}");
        }
    }
    eprintln!("{seen:?}");
    assert!(
        seen.checks > 50 && seen.mates > 0 && seen.two_kills > 50,
        "{seen:?}"
    );
}

#[test]
fn nine_queens_among_many_targets_fit_in_one_move_list() {
    // Nine Queens (eight promoted) each fly, step, shoot and kill in passing: about 1,400
    // distinct moves, beyond what a 1,024-move list holds.
    let v = registry::get("combined-arms").unwrap();
    let fen = "kb6/bb2p1p1/1p1p1p1p/p1p1p1p1/8/1p1p1p1p/QQQQQQQQ/Q3K3 w - - 0 1";
    let moves = compare(&Position::from_fen(&v, fen).unwrap());
    assert!(moves.len() > 1024, "{} moves", moves.len());
}

#[test]
fn the_suite_agrees_with_the_reference_generator_at_depth_two() {
    let lines = suite("combined-arms");
    assert!(lines.len() >= 13);
    let v = registry::get("combined-arms").unwrap();
    for line in &lines {
        let pos = Position::from_fen(&v, &line.fen).unwrap();
        compare(&pos);
        let rp = ca::parse_fen(&line.fen);
        for &(depth, expected) in line.expected.iter().filter(|(d, _)| *d <= 2) {
            assert_eq!(
                ca::perft(&rp, depth),
                expected,
                "line {} D{depth}: {}",
                line.line,
                line.fen
            );
        }
    }
}

/// Depth 3 of the whole suite by the reference generator (minutes; run by hand with
/// `cargo test --release --test combined_arms_differential -- --ignored`).
#[test]
#[ignore]
fn the_suite_agrees_with_the_reference_generator_at_depth_three() {
    for line in suite("combined-arms") {
        let rp = ca::parse_fen(&line.fen);
        for &(depth, expected) in &line.expected {
            assert_eq!(
                ca::perft(&rp, depth),
                expected,
                "line {} D{depth}: {}",
                line.line,
                line.fen
            );
        }
    }
}
