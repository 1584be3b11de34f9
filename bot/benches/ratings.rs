//! Rating a finished game on sled: the whole path a game's end takes (is it rated, the sides
//! and result from a replay, the table read, both updates, the log entry and the table written
//! by compare-and-swap, the mark), with tables of 10 and 1,000 players; and the Glicko-2 and
//! Weng-Lin updates alone.

use std::sync::Arc;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use muster_bot::core::Core;
use muster_bot::ratings::maths::{self, Rating, System};
use muster_bot::store::SledStore;

#[path = "../tests/common/mod.rs"]
mod common;

fn rate(c: &mut Criterion) {
    for players in [10usize, 1000] {
        let dir = std::env::temp_dir().join(format!("muster-bench-ratings-{players}"));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Arc::new(SledStore::open(&dir).unwrap());
        let core = Core::new(store.clone(), "!");
        // A table of `players`: each has played one rated game.
        for i in 0..players / 2 {
            let (p, q) = (format!("p{i}"), format!("q{i}"));
            let game = common::croquet_ended(
                &core,
                store.as_ref(),
                &format!("w{i}"),
                (&p, &q),
                "new croquet",
            );
            core.rate_now(&game);
        }
        // Rated like any game when it is taken (started casual only so that it is not taken now).
        let mut template = common::croquet_ended(
            &core,
            store.as_ref(),
            "bench",
            ("p0", "q0"),
            "new croquet casual",
        );
        template.casual = false;
        let mut n = 0u64;
        c.bench_function(&format!("rate a game, table of {players}"), |b| {
            b.iter_batched(
                || {
                    n += 1;
                    let mut g = template.clone();
                    g.id = format!("bench{n}");
                    g
                },
                |g| core.rate_now(&g),
                BatchSize::SmallInput,
            )
        });
        let _ = std::fs::remove_dir_all(&dir);
    }
}

fn maths_alone(c: &mut Criterion) {
    let new = Rating::new(System::Glicko2);
    c.bench_function("glicko-2 update", |b| {
        b.iter(|| maths::two_players(new, new, maths::Result::First))
    });
    let side = [Rating::new(System::WengLin); 2];
    c.bench_function("weng-lin update, two pairs", |b| {
        b.iter(|| maths::two_sides(&side, &side, maths::Result::Second))
    });
}

criterion_group!(benches, rate, maths_alone);
criterion_main!(benches);
