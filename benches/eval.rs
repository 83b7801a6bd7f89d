//! Evaluation speed: evaluations per second (criterion's throughput, in elements/s)
//! over positions of pseudo-random play in four games, with each table's weights (a
//! tuned table that weighs threats pays for every piece's attacks). Uses only
//! `Eval::new` and `evaluate`, so the same file measures an older build.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use tenfold::core::moves::MoveList;
use tenfold::eval::Eval;
use tenfold::{registry, Position};

/// Positions of pseudo-random games (fixed seed), up to 60 plies each.
fn positions(game: &str) -> Vec<Position> {
    let v = registry::get(game).unwrap();
    let mut out = Vec::new();
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    for _ in 0..8 {
        let mut pos = Position::startpos(&v);
        for _ in 0..60 {
            out.push(pos.clone());
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
    out
}

fn evaluate(c: &mut Criterion) {
    let mut group = c.benchmark_group("evaluate");
    for game in ["chess", "grand", "archmage", "augsburg"] {
        let v = registry::get(game).unwrap();
        let set = positions(game);
        group.throughput(Throughput::Elements(set.len() as u64));
        let e = Eval::new(&v);
        group.bench_function(game, |b| {
            b.iter(|| set.iter().map(|p| e.evaluate(black_box(p))).sum::<i32>())
        });
    }
    group.finish();
}

criterion_group!(benches, evaluate);
criterion_main!(benches);
