//! Pairing a Swiss round of 64 players: the fifth round, after four rounds of varied results
//! (wins for the higher seed mostly, some upsets and draws), so that score groups are uneven
//! and floaters and colour rules come into play.

use criterion::{Criterion, criterion_group, criterion_main};
use muster_rules::tournament::Round;
use muster_rules::tournament::swiss;

const PLAYERS: usize = 64;

fn event(rounds: usize) -> (Vec<Round>, Vec<u32>) {
    let (mut history, mut points) = (Vec::new(), vec![0u32; PLAYERS]);
    let mut seed = 0x9e37_79b9_u64;
    for _ in 0..rounds {
        let round = swiss::pair(PLAYERS, &[false; PLAYERS], &history, &points)
            .expect("pairs")
            .round;
        for p in &round.pairings {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let better = p.white.min(p.black);
            let worse = p.white.max(p.black);
            match (seed >> 33) % 10 {
                0..=5 => points[better] += 2,
                6 | 7 => points[worse] += 2,
                _ => {
                    points[better] += 1;
                    points[worse] += 1;
                }
            }
        }
        history.push(round);
    }
    (history, points)
}

fn swiss_round(c: &mut Criterion) {
    let (history, points) = event(4);
    c.bench_function("tournament/swiss: pair round 5 of 64 players", |b| {
        b.iter(|| swiss::pair(PLAYERS, &[false; PLAYERS], &history, &points).expect("pairs"))
    });
}

criterion_group!(benches, swiss_round);
criterion_main!(benches);
