//! Lanko's move generation: the legal moves of the start positions and of the most crowded
//! capture position in the counts data, parsing and playing a move, and whole random games.
//! Figures go in docs/performance.md.

use criterion::{Criterion, criterion_group, criterion_main};
use muster_rules::Game;
use muster_rules::lanko::{Lanko, Variant};
use std::hint::black_box;

fn crowded() -> (Variant, String) {
    let data = include_str!("../tests/data/lanko-captures.txt");
    let (n, line) = data
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| (l.split(' ').nth(1).unwrap().parse::<u32>().unwrap(), l))
        .max_by_key(|(n, _)| *n)
        .unwrap();
    let mut parts = line.splitn(3, ' ');
    let id = parts.next().unwrap();
    let _ = n;
    let v = Variant::ALL.into_iter().find(|v| v.id() == id).unwrap();
    (v, parts.nth(1).unwrap().to_string())
}

fn moves(c: &mut Criterion) {
    for v in Variant::ALL {
        let g = Lanko::new(v);
        c.bench_function(&format!("lanko/legal moves, {} start", v.id()), |b| {
            b.iter(|| black_box(&g).legal_moves().len())
        });
    }
    let (v, pos) = crowded();
    let g = Lanko::from_position(v, &pos).unwrap();
    let n = g.legal_moves().len();
    c.bench_function(
        &format!("lanko/capture sequences, crowded {} ({n})", v.id()),
        |b| b.iter(|| black_box(&g).legal_moves().len()),
    );
    let g = Lanko::new(Variant::L88);
    let text = g.format_move(&g.legal_moves()[0]);
    c.bench_function("lanko/parse and play a move", |b| {
        b.iter(|| {
            let mut t = g.clone();
            let s = t.to_move().unwrap();
            t.play_text(s, black_box(&text)).unwrap();
        })
    });
    let mut group = c.benchmark_group("lanko");
    group.sample_size(10);
    group.bench_function("whole game, first legal move each turn (lanko88)", |b| {
        b.iter(|| {
            let mut t = Lanko::new(Variant::L88);
            let mut k = 0usize;
            while let Some(s) = t.to_move() {
                let ms = t.legal_moves();
                let m = ms[k % ms.len()].clone();
                t.play(s, &m).unwrap();
                k += 7;
                if k > 7 * 400 {
                    break;
                }
            }
            t.position().len()
        })
    });
    group.finish();
}

criterion_group!(benches, moves);
criterion_main!(benches);
