//! Arithmetical Croquet's perfect-play table: building it (every position reachable from the
//! start) and looking positions up. Figures go in docs/performance.md.

use criterion::{Criterion, criterion_group, criterion_main};
use muster_rules::Game;
use muster_rules::croquet::Croquet;
use muster_rules::croquet::solve::{self, Solver};
use std::hint::black_box;

fn positions() -> Vec<Croquet> {
    let record = include_str!("../../docs/examples/croquet-game.txt");
    let mut g = Croquet::new();
    let mut out = vec![g.clone()];
    for text in record
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let seat = g.to_move().expect("to move");
        g.play_text(seat, text).expect("legal");
        if g.to_move().is_some() {
            out.push(g.clone());
        }
    }
    out
}

fn table(c: &mut Criterion) {
    let mut group = c.benchmark_group("croquet");
    group.sample_size(10);
    group.bench_function("build the table (581,926 positions)", |b| {
        b.iter(|| {
            let mut s = Solver::default();
            s.value(black_box(&Croquet::new()));
            s.len()
        })
    });
    group.finish();
    let table = solve::table();
    let all = positions();
    c.bench_function("croquet/look up a position's value", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % all.len();
            table.lookup(black_box(&all[i]))
        })
    });
    c.bench_function("croquet/value and best steps (analyse)", |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % all.len();
            solve::analyse(black_box(&all[i]))
        })
    });
}

criterion_group!(benches, table);
criterion_main!(benches);
