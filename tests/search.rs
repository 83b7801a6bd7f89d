//! Search: mates at the right depth, draw scores, table round trips under threads,
//! bench determinism, stop latency and the clock.

mod common;

use common::Rng;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tenfold::core::moves::{Move, MoveKind};
use tenfold::registry;
use tenfold::search::{Engine, Limits, SearchResult, MATE};
use tenfold::tt::{Bound, TranspositionTable};
use tenfold::{bench, Position, Square};

/// Tests here measure time or load every core: they take turns.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

fn chess(fen: &str) -> Position {
    Position::from_fen(&registry::get("chess").unwrap(), fen).unwrap()
}

fn search(pos: &Position, limits: Limits, threads: usize) -> SearchResult {
    Engine::new(threads, 16).search(pos, limits, Box::new(|_| {}))
}

/// Mate in `n` moves is found by a search of 2n-1 plies, with the mating line.
fn assert_mate(fen: &str, n: i32, first: &str) {
    assert_mate_by(fen, n, first, (2 * n - 1) as u32);
}

/// Mate in `n` moves is found by a search of `depth` plies, with the mating line (no
/// longer than the mate, whatever the depth).
fn assert_mate_by(fen: &str, n: i32, first: &str, depth: u32) {
    let pos = chess(fen);
    let r = search(&pos, Limits::depth(depth), 1);
    assert_eq!(
        r.score,
        MATE - (2 * n - 1),
        "{fen}: score {} pv {:?}",
        r.score,
        r.pv_text
    );
    assert_eq!(r.pv_text.first().map(String::as_str), Some(first), "{fen}");
    assert_eq!(r.pv.len() as i32, 2 * n - 1, "{fen}: pv {:?}", r.pv_text);
}

#[test]
fn mate_in_one_is_found_at_depth_one() {
    let _turn = serial();
    // Back-rank mate (C2: checkmate loses).
    assert_mate("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, "a1a8");
    assert_mate(
        "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3",
        1,
        "f3f7",
    );
}

#[test]
fn mate_in_two_is_found_at_depth_three() {
    let _turn = serial();
    // A quiet rook sacrifice, then a pawn mates.
    assert_mate("kbK5/pp6/1P6/8/8/8/8/R7 w - - 0 1", 2, "a1a6");
    assert_mate(
        "6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1",
        2,
        "g2g1",
    );
}

#[test]
fn mate_in_three_is_found_at_depth_five() {
    let _turn = serial();
    assert_mate("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3, "f6a6");
    assert_mate(
        "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1",
        3,
        "f8c5",
    );
}

#[test]
fn mates_in_four_and_five_are_found_at_depths_seven_and_thirteen() {
    let _turn = serial();
    // Deep enough for the singular-extension test (six plies and more), which searches
    // a node again without its table move: the mates and their lines must come through.
    assert_mate(
        "2k4r/1r1q2pp/QBp2p2/1p6/8/8/P4PPP/2R3K1 w - - 0 1",
        4,
        "a6a8",
    );
    // Late-move reductions can put a long mate a few plies past its length, and where
    // depends on the evaluation: with the 2026-12-04 chess weights this one showed at
    // depth 8, and one centipawn more of tempo moved it to 12. So the test asks for
    // it by 13 plies, with its exact length and line.
    assert_mate_by(
        "6k1/3b3r/1p1p4/p1n2p2/1PPNpP1q/P3Q1p1/1R1RB1P1/5K2 b - - 0 1",
        5,
        "h4f4",
        13,
    );
}

/// UCI `go mate n` ("search for a mate in x moves"): the mate in five above is found even
/// where a plain search sees it only past its length, and a position without a mate in
/// one stops at the limit's depth (the length and six plies more) with a move.
#[test]
fn go_mate_finds_a_mate_in_five_and_gives_up_where_there_is_none() {
    let _turn = serial();
    let mate = |n| Limits {
        mate: Some(n),
        ..Limits::default()
    };
    let fen = "6k1/3b3r/1p1p4/p1n2p2/1PPNpP1q/P3Q1p1/1R1RB1P1/5K2 b - - 0 1";
    let r = search(&chess(fen), mate(5), 1);
    assert_eq!(r.score, MATE - 9, "{fen}: pv {:?}", r.pv_text);
    assert_eq!(r.pv_text.first().map(String::as_str), Some("h4f4"));
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let r = search(&chess(start), mate(1), 1);
    assert!(r.score.abs() < MATE - 100, "score {}", r.score);
    assert!(r.best.is_some());
    assert_eq!(r.depth, 7);
}

#[test]
fn stalemate_scores_zero_and_has_no_move() {
    let _turn = serial();
    // C2: stalemate draws.
    let r = search(
        &chess("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
        Limits::depth(4),
        1,
    );
    assert_eq!((r.best, r.score), (None, 0));
}

#[test]
fn a_checkmated_side_has_no_move_and_a_mate_score() {
    let _turn = serial();
    let r = search(
        &chess("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"),
        Limits::depth(4),
        1,
    );
    assert_eq!((r.best, r.score), (None, -MATE));
}

#[test]
fn the_fifty_move_rule_makes_a_queen_up_a_draw() {
    let _turn = serial();
    // C2: the clock stands at 99; any move that is not a capture or pawn move draws.
    let r = search(
        &chess("7k/8/8/8/8/8/8/1Q5K w - - 99 80"),
        Limits::depth(5),
        1,
    );
    assert_eq!(r.score, 0, "pv {:?}", r.pv_text);
}

#[test]
fn perpetual_check_saves_the_side_two_queens_down() {
    let _turn = serial();
    // C2: repetition draws; White checks forever.
    let r = search(
        &chess("7k/6p1/6Q1/8/8/8/qq6/7K w - - 0 1"),
        Limits::depth(9),
        1,
    );
    assert_eq!(r.score, 0, "pv {:?}", r.pv_text);
}

#[test]
fn table_entries_survive_concurrent_writers_intact() {
    let _turn = serial();
    // Many threads store and probe overlapping keys in a tiny table: every hit must be
    // the data stored for its own key, never a torn mix of two entries.
    let tt = Arc::new(TranspositionTable::new(1));
    let data = |k: u64| {
        let from = Square((k % 64) as u8);
        let to = Square(((k >> 6) % 64) as u8);
        (
            Move::new(from, to, MoveKind::Normal),
            ((k >> 12) % 20000) as i32 - 10000,
            ((k >> 30) % 60) as i32,
        )
    };
    let threads: Vec<_> = (0..4u64)
        .map(|t| {
            let tt = Arc::clone(&tt);
            std::thread::spawn(move || {
                let mut rng = Rng(0x1234_5678_9ABC_DEF0 ^ t);
                let mut hits = 0;
                for _ in 0..300_000 {
                    let x = rng.next();
                    let key = x % 50_000 * 0x9E37_79B9_7F4A_7C15;
                    let (m, s, d) = data(key);
                    tt.store(key, m, s, s / 2, d, Bound::Exact);
                    let probe = (x >> 20) % 50_000 * 0x9E37_79B9_7F4A_7C15;
                    if let Some(h) = tt.probe(probe) {
                        let (m, s, d) = data(probe);
                        assert_eq!((h.mv, h.score, h.depth), (m, s, d));
                        // The eval sits beside the entry but is part of its check: a
                        // hit never carries another key's eval (keys sharing a bucket
                        // share their high bits, so a check on those alone let this by).
                        assert_eq!(h.eval, s / 2, "eval of a hit");
                        hits += 1;
                    }
                }
                hits
            })
        })
        .collect();
    let hits: usize = threads.into_iter().map(|t| t.join().unwrap()).sum();
    assert!(hits > 1000, "only {hits} hits");
    assert!(tt.hashfull() > 0);
}

#[test]
fn bench_node_count_is_deterministic_with_one_thread() {
    let _turn = serial();
    let v = registry::get("chess").unwrap();
    let a = bench::run(&[Arc::clone(&v)], 6, 1, 8, |_| {}).unwrap();
    let b = bench::run(&[v], 6, 1, 8, |_| {}).unwrap();
    assert!(a.lines.len() >= 6);
    assert_eq!(a.nodes, b.nodes);
    let per_a: Vec<u64> = a.lines.iter().map(|l| l.nodes).collect();
    let per_b: Vec<u64> = b.lines.iter().map(|l| l.nodes).collect();
    assert_eq!(per_a, per_b);
}

#[test]
fn a_variant_without_bench_positions_gets_start_and_fixed_lines() {
    let _turn = serial();
    let v =
        tenfold::registry::load_file(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/mini.toml"))
            .unwrap();
    let ps = bench::positions(&v).unwrap();
    assert!(ps.len() >= 4, "{} positions", ps.len());
    assert_eq!(ps[0].fen(), Position::startpos(&v).fen());
    // The same lines every time.
    let again: Vec<String> = bench::positions(&v)
        .unwrap()
        .iter()
        .map(|p| p.fen())
        .collect();
    assert_eq!(ps.iter().map(|p| p.fen()).collect::<Vec<_>>(), again);
}

#[test]
fn search_works_on_a_loaded_game_through_the_generic_api() {
    let _turn = serial();
    let v =
        tenfold::registry::load_file(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/mini.toml"))
            .unwrap();
    let pos = Position::startpos(&v);
    let r = search(&pos, Limits::depth(5), 2);
    let best = r.best.expect("a move");
    assert!(pos.parse_move(&pos.move_to_string(best)).is_ok());
}

#[test]
fn stop_ends_an_infinite_search_within_20_ms() {
    let _turn = serial();
    let pos = chess("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    let mut worst = Duration::ZERO;
    let mut best = Duration::MAX;
    for threads in [1, 2] {
        for _ in 0..3 {
            let engine = Engine::new(threads, 16);
            let limits = Limits {
                infinite: true,
                ..Limits::default()
            };
            let h = engine.start(&pos, limits, Box::new(|_| {}));
            std::thread::sleep(Duration::from_millis(150));
            let t0 = Instant::now();
            h.stop();
            let r = h.join();
            let dt = t0.elapsed();
            assert!(r.best.is_some());
            worst = worst.max(dt);
            best = best.min(dt);
        }
    }
    assert!(
        best < Duration::from_millis(20),
        "fastest stop took {best:?}"
    );
    assert!(
        worst < Duration::from_millis(100),
        "slowest stop took {worst:?}"
    );
}

#[test]
fn node_limit_is_exact_with_one_thread() {
    let _turn = serial();
    let pos = chess("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let l = Limits {
        nodes: Some(5000),
        ..Limits::default()
    };
    let a = search(&pos, l.clone(), 1);
    let b = search(&pos, l, 1);
    assert_eq!(a.nodes, b.nodes);
    assert!(a.nodes <= 5000 + 1, "{} nodes", a.nodes);
    assert_eq!(a.best, b.best);
}

#[test]
fn a_ten_millisecond_increment_never_loses_on_time() {
    let _turn = serial();
    // Engine against itself from one second each, 10 ms a move: the clocks must never
    // run out (time spent is measured around the whole search, thread start included).
    let v = registry::get("chess").unwrap();
    let mut pos = Position::startpos(&v);
    let mut clock = [300u64, 300u64];
    let engine = Engine::new(1, 16);
    for _ in 0..40 {
        if pos.game_result().is_some() {
            break;
        }
        let us = pos.side_to_move();
        let limits = Limits {
            time: [Some(clock[0]), Some(clock[1])],
            inc: [10, 10],
            ..Limits::default()
        };
        let t0 = Instant::now();
        let r = engine.search(&pos, limits, Box::new(|_| {}));
        let spent = t0.elapsed().as_millis() as u64;
        assert!(
            spent < clock[us.idx()],
            "{:?} spent {spent} ms of {} ms",
            us,
            clock[us.idx()]
        );
        clock[us.idx()] = clock[us.idx()] - spent + 10;
        pos.make_move(r.best.expect("a move"));
    }
    assert!(clock.iter().all(|&c| c > 0));
}

#[test]
fn a_table_move_that_is_not_legal_here_is_never_played() {
    let _turn = serial();
    // As if another position with the same key had stored a move: h1h8 is no move of
    // the start position (the rook is blocked), yet the table claims it is best.
    let pos = chess("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let engine = Engine::new(1, 4);
    let bogus = Move::new(Square(7), Square(63), MoveKind::Normal);
    engine
        .tt()
        .store(pos.key(), bogus, 500, 500, 60, Bound::Exact);
    let r = engine.search(&pos, Limits::depth(3), Box::new(|_| {}));
    let best = r.best.expect("a move");
    assert_ne!(best, bogus);
    assert!(pos.parse_move(&pos.move_to_string(best)).is_ok());
}

/// Every legal move of `p`.
fn legal(p: &Position) -> Vec<Move> {
    let mut list = tenfold::core::moves::MoveList::new();
    p.legal_moves(&mut list);
    list.as_slice().to_vec()
}

/// Two plies below the root every position's table entry names a move that is no move
/// there (the side to move's own earlier move, whose square is now empty or holds
/// another piece, and the opponent's last move): the search, which tries a table move
/// before listing the others, must try none of them.
#[test]
fn table_moves_that_are_not_legal_below_the_root_are_never_played() {
    let _turn = serial();
    for (name, fen) in [
        (
            "chess",
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 8",
        ),
        ("wildeurasian", ""),
        ("grand", ""),
    ] {
        let v = registry::get(name).unwrap();
        let root = if fen.is_empty() {
            Position::startpos(&v)
        } else {
            Position::from_fen(&v, fen).unwrap()
        };
        let engine = Engine::new(1, 16);
        let mut poisoned = 0;
        for a in legal(&root) {
            let mut p1 = root.clone();
            p1.make_move(a);
            for b in legal(&p1) {
                let mut p2 = p1.clone();
                p2.make_move(b);
                let legal = legal(&p2);
                for bogus in [a, b] {
                    if !legal.contains(&bogus) {
                        // A bound that never cuts: only the move is read.
                        engine
                            .tt()
                            .store(p2.key(), bogus, 20_000, 0, 0, Bound::Upper);
                        poisoned += 1;
                        break;
                    }
                }
            }
        }
        assert!(poisoned > 100, "{name}: only {poisoned} entries");
        let r = engine.search(&root, Limits::depth(5), Box::new(|_| {}));
        assert_eq!(r.error, None, "{name}");
        let mut p = root.clone();
        for &m in &r.pv {
            assert!(legal(&p).contains(&m), "{name}: {:?}", r.pv_text);
            p.make_move(m);
        }
        assert!(!r.pv.is_empty(), "{name}");
    }
}

#[test]
fn every_built_in_searches_its_bench_positions_without_blowing_up() {
    let _turn = serial();
    // Quiescence must stay finite and small in every game: combines, splits and
    // transforms carry a type in the move but are not promotions.
    for name in registry::names() {
        let v = registry::get(name).unwrap();
        for pos in bench::positions(&v).unwrap() {
            let r = search(&pos, Limits::depth(5), 1);
            assert!(r.nodes < 100_000, "{name} {}: {} nodes", pos.fen(), r.nodes);
            let best = r.best.expect("a move");
            assert!(pos.parse_move(&pos.move_to_string(best)).is_ok(), "{name}");
        }
    }
}

/// A crowded position where quiescence alone runs for minutes (issue 20): perft 3 takes
/// milliseconds, but the captures never run out.
const CROWDED: &str =
    "BnRRBnQR/P1NnNQ1R/Bkp2Nqq/NrRbQNb1/b2ppNBB/rpQnNPPK/p1qP3B/nnqb1BQN w - - 0 1";
/// The same in Combined Arms (issue 20: `bestmove` 13.5 s after `go movetime 100`).
const CROWDED_ARMS: &str = "PQ3R1p/1qp1Q2B/2b2RpB/1Qk1p3/2qB1N1q/2pqqrr1/5Br1/7K b - - 37 64";

#[test]
fn a_movetime_of_100_ms_is_kept_inside_depth_one() {
    let _turn = serial();
    for (variant, fen) in [("chess", CROWDED), ("combined-arms", CROWDED_ARMS)] {
        let pos = Position::from_fen(&registry::get(variant).unwrap(), fen).unwrap();
        let t0 = Instant::now();
        let l = Limits {
            movetime: Some(100),
            ..Limits::default()
        };
        let r = search(&pos, l, 1);
        let dt = t0.elapsed();
        assert!(dt < Duration::from_millis(500), "{variant}: took {dt:?}");
        let best = r.best.expect("a legal move is always played");
        assert!(pos.parse_move(&pos.move_to_string(best)).is_ok());
    }
}

/// UCI's `movetime`: "search exactly x mseconds". The time is spent whole (less the
/// plan's 10 ms for the answer to travel), not given back once an iteration ends past its
/// middle as a clock's soft limit would.
#[test]
fn a_movetime_is_spent_whole() {
    let _turn = serial();
    let pos = chess("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    let l = Limits {
        movetime: Some(300),
        ..Limits::default()
    };
    let r = search(&pos, l, 1);
    assert!(r.ms >= 285 && r.ms < 600, "searched {} ms of 300", r.ms);
    assert!(r.best.is_some() && r.depth >= 1);
}

#[test]
fn stop_inside_depth_one_is_answered_within_50_ms() {
    let _turn = serial();
    let pos = Position::from_fen(&registry::get("combined-arms").unwrap(), CROWDED_ARMS).unwrap();
    // The best of three: one stop may wait for a core the machine gives elsewhere.
    let mut times = Vec::new();
    for _ in 0..3 {
        let engine = Engine::new(1, 16);
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let h = engine.start(&pos, limits, Box::new(|_| {}));
        std::thread::sleep(Duration::from_millis(100));
        let t0 = Instant::now();
        h.stop();
        let r = h.join();
        times.push(t0.elapsed());
        assert!(r.best.is_some());
    }
    let best = times.iter().min().unwrap();
    assert!(*best < Duration::from_millis(50), "stops took {times:?}");
    assert!(
        times.iter().all(|t| *t < Duration::from_millis(250)),
        "{times:?}"
    );
}

#[test]
fn a_one_node_search_returns_in_a_game_without_royals() {
    let _turn = serial();
    let table =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/mini.toml"))
            .unwrap()
            .replace("name = \"mini\"", "name = \"mini-no-royals\"")
            .replace("royal = true", "royal = false");
    let v = registry::load_text(&table, "mini-no-royals.toml").unwrap();
    let pos = Position::startpos(&v);
    let l = Limits {
        nodes: Some(1),
        ..Limits::default()
    };
    let t0 = Instant::now();
    let r = search(&pos, l, 1);
    assert!(t0.elapsed() < Duration::from_secs(1));
    assert!(r.best.is_some());
    assert!(r.nodes <= 2, "{} nodes", r.nodes);
}

#[test]
fn a_panicking_search_thread_still_answers_with_a_move_and_the_error() {
    let _turn = serial();
    let pos = chess("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    for threads in [1, 2] {
        let done = Arc::new(Mutex::new(None));
        let seen = Arc::clone(&done);
        // The listener runs on the search thread: its panic is a search thread's panic.
        let listener = Box::new(move |ev: tenfold::search::Event| match ev {
            tenfold::search::Event::Info(_) | tenfold::search::Event::Final(_) => {
                panic!("listener fault")
            }
            tenfold::search::Event::Done(r) => *seen.lock().unwrap() = Some(r.clone()),
        });
        let r = Engine::new(threads, 16).search(&pos, Limits::depth(3), listener);
        let told = done.lock().unwrap().clone().expect("Done was reported");
        for r in [r, told] {
            assert!(r.best.is_some(), "a move is still played");
            let e = r.error.expect("the panic is reported");
            assert!(e.contains("listener fault"), "{e}");
        }
    }
}

#[test]
fn a_hash_size_whose_bytes_overflow_is_refused() {
    assert!(TranspositionTable::try_new(1 << 44).is_err());
    assert!(Engine::try_new(1, usize::MAX).is_err());
}

/// A weakened engine (`UCI_Elo` at its minimum) plays moves a full-strength judge scores
/// clearly worse than the moves of full strength, over a fixed set of positions.
#[test]
fn the_weakest_strength_loses_material_that_full_strength_keeps() {
    let _turn = serial();
    let fens = [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "rnbqkb1r/pp1p1ppp/2p5/4P3/2B5/8/PPP1NnPP/RNBQK2R w KQkq - 0 6",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 1 5",
        "rnbqkbnr/ppp2ppp/8/3pp3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 0 3",
        "2r3k1/5ppp/p3p3/1p6/3n4/P2B1P2/1P3KPP/2R5 b - - 0 30",
        "r2q1rk1/ppp2ppp/2n1bn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 9",
    ];
    let judge = Engine::new(1, 16);
    // What the judge thinks a move is worth for the mover: minus the reply's score.
    let worth = |pos: &Position, m: Move| -> i32 {
        let mut p = pos.clone();
        p.make_move(m);
        -judge.search(&p, Limits::depth(5), Box::new(|_| {})).score
    };
    let mut weak_loss = 0;
    let mut differ = 0;
    for fen in fens {
        let pos = chess(fen);
        let full = search(&pos, Limits::depth(6), 1).best.unwrap();
        let full_worth = worth(&pos, full);
        let mut weak = Engine::new(1, 16);
        weak.set_strength(Some(tenfold::search::skill::MIN_ELO));
        for _ in 0..3 {
            weak.clear();
            let r = weak.search(&pos, Limits::depth(6), Box::new(|_| {}));
            let m = r.best.unwrap();
            // The cap ends the search once depth 1's lines, which the pick chooses
            // among, are complete.
            assert_eq!(r.depth, 1, "{fen}: {} nodes", r.nodes);
            differ += (m != full) as u32;
            weak_loss += (full_worth - worth(&pos, m)).max(0);
        }
    }
    assert!(
        differ >= 8,
        "the weak engine chose the full-strength move too often"
    );
    // On average more than a third of a pawn per move worse than full strength's move.
    assert!(
        weak_loss > 35 * 3 * fens.len() as i32,
        "weak {weak_loss} cp lost over {} moves",
        3 * fens.len()
    );
}

/// What a search learns besides the table (move histories, evaluation corrections) is
/// kept for the next search of the game, and a new game (`ucinewgame`, `new`) drops it,
/// on 64-bit boards and on 128-bit ones alike.
#[test]
fn a_search_starts_from_what_the_previous_one_of_the_game_learnt() {
    let grand = registry::get("grand").unwrap();
    let positions = [
        (
            chess("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"),
            8,
        ),
        (Position::startpos(&grand), 6),
    ];
    for (pos, depth) in positions {
        let nodes = |e: &Engine| e.search(&pos, Limits::depth(depth), Box::new(|_| {})).nodes;
        let fresh = nodes(&Engine::new(1, 16));
        let mut e = Engine::new(1, 16);
        nodes(&e);
        // An emptied table alone (a resize) keeps the histories: the tree differs.
        e.set_hash(2).unwrap();
        e.set_hash(16).unwrap();
        assert_ne!(
            nodes(&e),
            fresh,
            "the histories of the first search were not used"
        );
        // The new game's tables are emptied in place, not freed: the same search again.
        e.clear();
        assert_eq!(
            nodes(&e),
            fresh,
            "a new game must start from nothing learnt"
        );
    }
}

/// A search stopped inside an iteration plays the root move that raised alpha last in
/// it, not the last completed iteration's: such a move was searched to the new depth and
/// beat every move searched before it, the old best among them (Stockfish plays it too).
/// Over node limits that stop the bench positions' searches at many points, some stopped
/// iteration must change its mind, and the move played is always the reported line's.
#[test]
fn a_stopped_iteration_plays_the_best_root_move_it_has_searched() {
    let _turn = serial();
    let v = registry::get("chess").unwrap();
    let mut changed = 0;
    for pos in bench::positions(&v).unwrap() {
        for n in (3_000..=60_000).step_by(3_000) {
            let last = Arc::new(Mutex::new(None));
            let seen = Arc::clone(&last);
            let listener = Box::new(move |ev: tenfold::search::Event| {
                if let tenfold::search::Event::Info(i) = ev {
                    *seen.lock().unwrap() = i.pv.first().cloned();
                }
            });
            let limits = Limits {
                nodes: Some(n),
                ..Limits::default()
            };
            let r = Engine::new(1, 16).search(&pos, limits, listener);
            let best = r.best.expect("a move");
            assert_eq!(r.pv.first(), Some(&best));
            assert_eq!(r.pv_text[0], pos.move_to_string(best));
            let completed = last.lock().unwrap().clone();
            if completed.is_some_and(|c| c != r.pv_text[0]) {
                changed += 1;
            }
        }
    }
    assert!(changed > 0, "no stopped iteration changed the move");
}

/// Quiescence searches every capture for five plies, then only recaptures on the square
/// the last move went to (Stockfish 11's `DEPTH_QS_RECAPTURES`). In this grasshopper
/// position (a user table, `tests/data/grasshopper.toml`) nearly every capture opens
/// another: a depth-1 search took 510,260 nodes and went 37 plies deep without the
/// limit, and 2,525 nodes with it.
#[test]
fn quiescence_in_a_crowded_position_ends_in_recaptures() {
    let _guard = serial();
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/grasshopper.toml");
    let v = registry::load_file(file).unwrap();
    let pos = Position::from_fen(
        &v,
        "rnbqkbnr/1gg3gg/1ppppppp/pgg2gg1/P1PGPG2/1P1P1PPP/GGG1GGG1/RNBQKBNR w KQkq - 0 8",
    )
    .unwrap();
    let r = search(&pos, Limits::depth(1), 1);
    assert!(r.nodes < 20_000, "{} nodes at depth 1", r.nodes);
}

/// UCI: "go nodes x: search x nodes only". With two threads the helper checks the limit
/// too (every 256 nodes, when it adds its count to the total): when the main thread does
/// not run for a while, on a machine busier than it has cores, the helper searched on
/// alone, to 2.6 times the limit. Two spinning threads here keep the cores busy.
#[test]
fn a_node_limit_holds_with_two_threads_on_a_busy_machine() {
    let _turn = serial();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let spinners: Vec<_> = (0..2)
        .map(|_| {
            let stop = std::sync::Arc::clone(&stop);
            std::thread::spawn(move || {
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    std::hint::spin_loop();
                }
            })
        })
        .collect();
    let shako = registry::get("shako").unwrap();
    let mut pos = Position::startpos(&shako);
    pos.play_moves("e3e4 e8e7 d3d5").unwrap();
    let mut engine = Engine::new(2, 16);
    let mut worst = 0;
    for _ in 0..30 {
        engine.clear();
        let limits = Limits {
            nodes: Some(3000),
            ..Default::default()
        };
        worst = worst.max(engine.search(&pos, limits, Box::new(|_| {})).nodes);
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    spinners.into_iter().for_each(|s| s.join().unwrap());
    // A helper sees the main thread's count only as far as it was last added (255
    // nodes at most behind) and adds its own every 256 nodes: at most two counts past,
    // and the node each thread counts as it sees the stop.
    assert!(
        worst <= 3000 + 2 * 256 + 2,
        "{worst} nodes for a limit of 3000"
    );
}
