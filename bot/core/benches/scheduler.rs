//! The clock scheduler with 100,000 live timed games on sled: the scan at start that reads
//! every timed game into the agenda, the wake-up for the next due moment (a reminder: load,
//! the player's settings, the note kept by compare-and-swap with a flush, the agenda brought up
//! to date), and the memory the agenda takes (printed, estimated from its tables).

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use muster_core::clock::ManualClock;
use muster_core::clock::control::Control;
use muster_core::desk::Core;
use muster_core::kernel::replayable::Replayable;
use muster_core::store::{GameRecord, Player, SCHEMA, SeatEntry, SledStore, Status};

const GAMES: usize = 100_000;
const START: u64 = 1_795_600_800; // 2026-11-25T10:00:00Z

/// A Lanrick game two placements in, on a 3-day clock, whose last move was made `ago`
/// seconds before the start.
fn game(n: usize, ago: u64) -> GameRecord {
    let seat = |name: String| SeatEntry {
        player: Some(Player {
            id: name.clone(),
            name,
        }),
        accepted: true,
        hand: None,
    };
    let mut r = GameRecord {
        schema: SCHEMA,
        id: format!("g{n}"),
        game: "lanrick".into(),
        platform: "bench".into(),
        channel: format!("c{n}"),
        created: START - ago - 60,
        updated: START - ago,
        started: Some(START - ago - 60),
        version: 3,
        seats: vec![
            seat(format!("p{}", n % 5_000)),
            seat(format!("q{}", n % 7_000)),
        ],
        status: Status::Active,
        moves: vec!["a1".into(), "h8".into()],
        times: vec![START - ago - 30, START - ago],
        ending: None,
        draw_offer: None,
        takeback: None,
        clock: Control::parse("3d").ok().flatten(),
        pauses: Vec::new(),
        wait: None,
        tournament: None,
        community: None,
        casual: false,
        away: None,
    };
    r.refresh_clock();
    r
}

fn scheduler(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("muster-bench-scheduler-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Arc::new(SledStore::open(&dir).expect("store"));
    // Moves made over the last three days: deadlines spread over the next three.
    let games: Vec<GameRecord> = (0..GAMES)
        .map(|n| game(n, (n as u64 * 7919) % (3 * 86_400 - 7_200)))
        .collect();
    let made = Instant::now();
    store.import_live(&games).expect("import");
    eprintln!("{GAMES} timed games written in {:.1?}", made.elapsed());
    drop(games);

    let clock = Arc::new(ManualClock::starting_at(START));
    let mut group = c.benchmark_group("scheduler");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function(
        "start-up scan of 100,000 timed games into the agenda",
        |b| {
            b.iter(|| {
                let core = Core::with_clock(store.clone(), "!", clock.clone());
                assert_eq!(core.load_agenda(), GAMES);
            })
        },
    );

    let core = Core::with_clock(store.clone(), "!", clock.clone());
    core.load_agenda();
    let bytes = core.agenda_footprint();
    eprintln!(
        "agenda of {GAMES} games: about {:.1} MiB, {} bytes a game (estimated from its tables)",
        bytes as f64 / 1_048_576.0,
        bytes / GAMES
    );

    group.bench_function("wake-up: the next due reminder sent and rescheduled", |b| {
        b.iter_custom(|iterations| {
            let mut spent = Duration::ZERO;
            for _ in 0..iterations {
                let at = core.next_due().expect("something is due");
                let _ = clock.set(at);
                let t = Instant::now();
                let fired = core.fire_due();
                spent += t.elapsed();
                assert!(fired >= 1);
                core.notices("bench");
            }
            spent
        })
    });
    group.bench_function("next due moment among 100,000", |b| {
        b.iter(|| core.next_due())
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, scheduler);
criterion_main!(benches);
