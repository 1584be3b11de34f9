//! The whole command path for one move (parse → load and replay → play → compare-and-swap with
//! flush → render → replies), and the store alone, on sled in a temporary directory (and on
//! PostgreSQL when `MUSTER_BENCH_POSTGRES` names a database).

use std::sync::Arc;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use muster_core::desk::{Core, Reply, Request, User};
use muster_core::kernel::replayable::Replayable;
use muster_core::store::{
    Away, ChannelKey, GameRecord, Player, SCHEMA, SeatEntry, SledStore, Status,
};
use muster_core::store::{Live, Notes};

const WHOLE_GAME: &str = include_str!("../../../docs/examples/lanrick-whole-game.txt");
const BEFORE: usize = 40;

fn moves() -> Vec<String> {
    WHOLE_GAME
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect()
}

fn record(id: &str, channel: &str, moves: Vec<String>) -> GameRecord {
    let seat = |name: &str| SeatEntry {
        player: Some(Player {
            id: name.into(),
            name: name.into(),
        }),
        accepted: true,
        hand: None,
    };
    GameRecord {
        schema: SCHEMA,
        id: id.into(),
        game: "lanrick".into(),
        platform: "bench".into(),
        channel: channel.into(),
        created: 0,
        updated: 0,
        started: None,
        version: 1,
        seats: vec![seat("alice"), seat("bob")],
        status: Status::Active,
        moves,
        times: Vec::new(),
        ending: None,
        draw_offer: None,
        takeback: None,
        clock: None,
        pauses: Vec::new(),
        wait: None,
        tournament: None,
        community: None,
        casual: false,
        away: None,
    }
}

fn command_path(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("muster-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = Arc::new(SledStore::open(&dir).expect("store"));
    let core = Core::new(store.clone(), "!");
    let all = moves();
    // Who plays move 41 of the example game (a turn of the play phase).
    let game = record("x", "x", all[..BEFORE].to_vec())
        .rebuild()
        .expect("replays");
    let mover = if game.to_move().map(|s| s.index()) == Some(0) {
        "alice"
    } else {
        "bob"
    };
    let text = format!("move {}", all[BEFORE]);
    // A channel with the game 40 moves in, and the request that plays move 41 there.
    let mut n = 0u64;
    let mut fresh = || {
        n += 1;
        let channel = format!("c{n}");
        store
            .create(
                &ChannelKey::new("bench", &channel),
                &record(&format!("b{n}"), &channel, all[..BEFORE].to_vec()),
            )
            .expect("create");
        Request {
            platform: "bench".into(),
            channel,
            user: User::named(mover),
            text: text.clone(),
            mentions: vec![],
            policy: Default::default(),
        }
    };
    c.bench_function(
        "command/move: parse, replay 40 moves, play, CAS + flush, replies (board not drawn)",
        |b| {
            b.iter_batched(
                &mut fresh,
                |req| {
                    let replies = core.handle(&req);
                    assert!(replies.len() >= 3, "{replies:?}");
                    replies
                },
                BatchSize::SmallInput,
            )
        },
    );
    // The same, with the board drawn as the adapter draws it before sending: the whole path a
    // player waits on (the board is drawn from the game as played, replaying nothing).
    c.bench_function("command/move, its board drawn", |b| {
        b.iter_batched(
            &mut fresh,
            |req| {
                let replies = core.handle(&req);
                for r in &replies {
                    if let Reply::Board(board) = r {
                        board.drawn().expect("the board draws");
                    }
                }
                replies
            },
            BatchSize::SmallInput,
        )
    });
    // A game played in two places, the move made in its other place: the place's note and the
    // record at home read, the move and what home is told written in one commit.
    let mut m = 0u64;
    let mut across = || {
        m += 1;
        let (home, place) = (format!("h{m}"), format!("p{m}"));
        let mut r = record(&format!("a{m}"), &home, all[..BEFORE].to_vec());
        r.away = Some(Away {
            platform: "rooms".into(),
            channel: Some(place.clone()),
            players: vec![mover.into()],
            parent: None,
        });
        store
            .create(&ChannelKey::new("bench", &home), &r)
            .expect("create");
        store
            .set_note(
                &ChannelKey::new("rooms", &place),
                "away",
                Some(&format!("bench\u{1f}{home}\u{1f}a{m}")),
            )
            .expect("note");
        Request {
            platform: "rooms".into(),
            channel: place,
            user: User::named(mover),
            text: text.clone(),
            mentions: vec![],
            policy: Default::default(),
        }
    };
    c.bench_function(
        "command/move in the other place of a game on two platforms (board not drawn)",
        |b| {
            b.iter_batched(
                &mut across,
                |req| {
                    let replies = core.handle(&req);
                    assert!(replies.len() >= 3, "{replies:?}");
                    replies
                },
                BatchSize::SmallInput,
            )
        },
    );
    let key = ChannelKey::new("bench", "store-only");
    let mut r = record("s", "store-only", all[..BEFORE].to_vec());
    store.create(&key, &r).expect("create");
    c.bench_function(
        "store/load + compare-and-swap + flush (40-move record)",
        |b| {
            b.iter(|| {
                let current = store.load(&key).expect("load").expect("present");
                r.version = current.version + 1;
                store.update(&key, current.version, &r).expect("update");
            })
        },
    );
    drop(core);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same store round trip on PostgreSQL, when `MUSTER_BENCH_POSTGRES` names an empty
/// database (`postgres://…`; docs/performance.md says how the figures were taken).
fn postgres_store(c: &mut Criterion) {
    let Ok(url) = std::env::var("MUSTER_BENCH_POSTGRES") else {
        return;
    };
    let store = muster_core::store::PgStore::open(&url).expect("the database");
    let all = moves();
    let key = ChannelKey::new("bench", format!("pg-{}", std::process::id()));
    let mut r = record("p", &key.channel, all[..BEFORE].to_vec());
    store.create(&key, &r).expect("create");
    c.bench_function(
        "store/postgres: load + compare-and-swap + commit (40-move record)",
        |b| {
            b.iter(|| {
                let current = store.load(&key).expect("load").expect("present");
                r.version = current.version + 1;
                store.update(&key, current.version, &r).expect("update");
            })
        },
    );
}

/// What a turn's prompt costs (`your turn (White) — …, e.g. `!move …``): its example is drawn
/// from the legal moves of the position, so it is worded on every move.
fn prompts(c: &mut Criterion) {
    use muster_core::games::words::prompt;
    use muster_rules::{AnyGame, GameId};
    let played = |id: GameId, moves: &[String]| {
        let mut game = AnyGame::new(id);
        for text in moves {
            let seat = game.to_move().expect("a seat to move");
            game.play_text(seat, text)
                .expect("the example game replays");
        }
        game
    };
    let lanrick = moves();
    let croquet: Vec<String> = include_str!("../../../docs/examples/croquet-game.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(String::from)
        .collect();
    let cases = [
        ("lanrick placement", played(GameId::Lanrick, &lanrick[..3])),
        (
            "lanrick play, move 41",
            played(GameId::Lanrick, &lanrick[..BEFORE]),
        ),
        ("croquet, step 30", played(GameId::Croquet, &croquet[..30])),
        ("lanko88 start", AnyGame::new(GameId::Lanko88)),
    ];
    let mut group = c.benchmark_group("prompt");
    for (name, game) in &cases {
        group.bench_function(*name, |b| {
            b.iter(|| prompt(std::hint::black_box(game), "!"))
        });
    }
    group.finish();
}

criterion_group!(benches, command_path, postgres_store, prompts);
criterion_main!(benches);
