//! Pairing a Swiss round of 64 players by the Dutch system: the fifth round of seven, and the
//! ninth of nine (the most score groups, the widest weights), after rounds of varied results
//! (wins for the higher seed mostly, some upsets and draws), so that score groups are uneven
//! and floaters and colour rules come into play.

use criterion::{Criterion, criterion_group, criterion_main};
use muster_rules::tournament::{Field, swiss};

const PLAYERS: usize = 64;

fn event(rounds: usize, total: usize) -> Field {
    let mut field = Field::new(PLAYERS, total);
    let mut seed = 0x9e37_79b9_u64;
    for _ in 0..rounds {
        let round = swiss::pair(&field).expect("pairs").round;
        field.push(&round, |white, black| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let better_is_white = white < black;
            let points = match (seed >> 33) % 10 {
                0..=5 => 2,
                6 | 7 => 0,
                _ => return (1, false),
            };
            (if better_is_white { points } else { 2 - points }, false)
        });
    }
    field
}

fn swiss_round(c: &mut Criterion) {
    let field = event(4, 7);
    c.bench_function("tournament/swiss: pair round 5 of 64 players", |b| {
        b.iter(|| swiss::pair(&field).expect("pairs"))
    });
    let field = event(8, 9);
    c.bench_function("tournament/swiss: pair round 9 of 9, 64 players", |b| {
        b.iter(|| swiss::pair(&field).expect("pairs"))
    });
}

criterion_group!(benches, swiss_round);
criterion_main!(benches);
