//! Rating a finished game on sled: the whole path a game's end takes (is it rated, the sides
//! and result from a replay, the table read, both updates, the log entry and the table written
//! by compare-and-swap, the mark), with tables of 10 and 1,000 players; the Glicko-2 and
//! Weng-Lin updates alone; and a community's shared table worked out again after a link (every
//! rated game replayed, its log and table written), with 1,000 games.

use std::sync::Arc;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use muster_core::desk::Core;
use muster_core::ratings::maths::{self, Rating, System};
use muster_core::store::SledStore;

use muster_core::testing as common;

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

/// The first reading of a shared table after a link: its 1,000 games replayed by the players'
/// new keys, the log and the table written again (docs/ratings.md, "One rating across
/// platforms"); measured as the `rating` command that reads it.
fn shared_after_link(c: &mut Criterion) {
    use muster_core::kernel::community::{Communities, Community, Member};
    let dir = std::env::temp_dir().join("muster-bench-ratings-shared");
    let _ = std::fs::remove_dir_all(&dir);
    let store = Arc::new(SledStore::open(&dir).unwrap());
    let core = Core::new(store.clone(), "!");
    core.set_communities(Communities::new(vec![Community {
        name: "club".into(),
        members: vec![Member::community("console", "")],
        organisers: Vec::new(),
        web: Default::default(),
    }]));
    // 1,000 rated games among 40 players (never one against himself: 6i + 1 is odd).
    for i in 0..1000usize {
        let (p, q) = (format!("p{}", i % 40), format!("p{}", (i * 7 + 1) % 40));
        let game = common::croquet_ended(
            &core,
            store.as_ref(),
            &format!("w{i}"),
            (&p, &q),
            "new croquet",
        );
        core.rate_now(&game);
    }
    let ask = common::request("p0", "x", "rating croquet");
    c.bench_function("shared table of 1,000 games read after a link", |b| {
        b.iter_batched(
            || muster_core::players::links::changed(store.as_ref()).unwrap(),
            |()| core.handle(&ask),
            BatchSize::PerIteration,
        )
    });
    c.bench_function("shared table of 1,000 games read, links unchanged", |b| {
        b.iter(|| core.handle(&ask))
    });
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, rate, maths_alone, shared_after_link);
criterion_main!(benches);
