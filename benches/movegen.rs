//! Move generation and perft speed, and what the ray bit trick buys over a plain ray walk.
//! Run with `cargo bench`; criterion reports time per iteration.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use std::sync::Arc;
use tenfold::core::moves::MoveList;
use tenfold::movement::atoms::Offset;
use tenfold::movement::attacks::{ride_slow, Rays};
use tenfold::perft::{perft_hashed, PerftTable};
use tenfold::registry;
use tenfold::{perft::perft, Bitboard, Board, Position, Square, Variant};

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn tenten() -> Arc<Variant> {
    Variant::from_toml(include_str!("../tests/data/tenten.toml"), "tenten").unwrap()
}

fn movegen(c: &mut Criterion) {
    let chess = registry::get("chess").unwrap();
    let start = Position::startpos(&chess);
    let kiwi = Position::from_fen(&chess, KIWIPETE).unwrap();
    let ten = Position::startpos(&tenten());
    let mut list = MoveList::new();
    c.bench_function("legal_moves chess start", |b| {
        b.iter(|| {
            black_box(&start).legal_moves(&mut list);
            list.len()
        })
    });
    // A fresh list per call, as a search makes one per node: what creating it costs.
    c.bench_function("fresh list + legal_moves chess start", |b| {
        b.iter(|| {
            let mut fresh = MoveList::new();
            black_box(&start).legal_moves(&mut fresh);
            fresh.len()
        })
    });
    c.bench_function("legal_moves chess kiwipete", |b| {
        b.iter(|| {
            black_box(&kiwi).legal_moves(&mut list);
            list.len()
        })
    });
    c.bench_function("legal_moves 10x10 start", |b| {
        b.iter(|| {
            black_box(&ten).legal_moves(&mut list);
            list.len()
        })
    });
}

fn perft_bench(c: &mut Criterion) {
    let chess = registry::get("chess").unwrap();
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    // An 8x8 board in the u64 word (what `perft` and the search run it in) and in the
    // u128 word every larger board needs: the price of the wide word (issue 14).
    let mut start = Position::startpos(&chess).to_word::<u64>();
    group.bench_function("chess start depth 4", |b| b.iter(|| perft(&mut start, 4)));
    let mut wide = Position::startpos(&chess);
    group.bench_function("chess start depth 4, u128 word", |b| {
        b.iter(|| perft(&mut wide, 4))
    });
    let mut kiwi = Position::from_fen(&chess, KIWIPETE)
        .unwrap()
        .to_word::<u64>();
    group.bench_function("chess kiwipete depth 3", |b| b.iter(|| perft(&mut kiwi, 3)));
    let mut ten = Position::startpos(&tenten());
    group.bench_function("10x10 start depth 3", |b| b.iter(|| perft(&mut ten, 3)));
    // Shots, armor paths and flights: one move may kill several pieces.
    let ca = registry::get("combined-arms").unwrap();
    let mut ca_start = Position::startpos(&ca).to_word::<u64>();
    group.bench_function("combined-arms start depth 3", |b| {
        b.iter(|| perft(&mut ca_start, 3))
    });
    let mut ca_wide = Position::startpos(&ca);
    group.bench_function("combined-arms start depth 3, u128 word", |b| {
        b.iter(|| perft(&mut ca_wide, 3))
    });
    // The tested-move path: hoppers (Shako, Wildeurasian), bent riders, switches and
    // drops (ArchMage), stacks (Augsburg).
    for (game, depth) in [
        ("shako", 3),
        ("wildeurasian", 3),
        ("archmage", 3),
        ("augsburg", 3),
    ] {
        let v = registry::get(game).unwrap();
        let mut pos = Position::startpos(&v);
        group.bench_function(format!("{game} start depth {depth}"), |b| {
            b.iter(|| perft(&mut pos, depth))
        });
    }
    // Hashed perft: counts of depth 2 and more kept in a table made fresh per run.
    let mut start = Position::startpos(&chess).to_word::<u64>();
    group.bench_function("chess start depth 5, 16 MB hash", |b| {
        b.iter(|| {
            let table = PerftTable::new(16).unwrap();
            perft_hashed(&mut start, 5, &table)
        })
    });
    group.finish();
}

fn rays(c: &mut Criterion) {
    let board = Board::new(10, 10).unwrap();
    let mut rays = Rays::default();
    let dirs = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (-1, 1),
        (1, -1),
        (-1, -1),
    ];
    let ids: Vec<_> = dirs
        .iter()
        .map(|&(x, y)| rays.id(&board, Offset::new(x, y), 0))
        .collect();
    let mut seed = 0x1234_5678_9ABC_DEF0u64;
    let occs: Vec<Bitboard> = (0..256)
        .map(|_| {
            let mut r = || {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed as u128
            };
            Bitboard((r() << 64 | r()) & (r() << 64 | r())) & board.all
        })
        .collect();
    c.bench_function("queen attacks 10x10: ray bit trick", |b| {
        b.iter(|| {
            let mut acc = Bitboard::EMPTY;
            for (i, &o) in occs.iter().enumerate() {
                let sq = Square((i % 100) as u8);
                for &id in &ids {
                    acc |= rays.get(id).attacks(sq, o);
                }
            }
            acc
        })
    });
    c.bench_function("queen attacks 10x10: square-by-square walk", |b| {
        b.iter(|| {
            let mut acc = Bitboard::EMPTY;
            for (i, &o) in occs.iter().enumerate() {
                let sq = Square((i % 100) as u8);
                for &(x, y) in &dirs {
                    acc |= ride_slow(&board, sq, Offset::new(x, y), 0, o);
                }
            }
            acc
        })
    });
}

criterion_group!(benches, movegen, perft_bench, rays);
criterion_main!(benches);
