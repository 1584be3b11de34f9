//! The web pages (docs/web.md): a game's page of 40 decisions made as its handler makes it (the
//! token read, the record loaded, the page rendered), its board found in the board cache; and
//! an event's page of 64 entrants after two Swiss rounds, standings with every tie-break and
//! each round's 32 pairings linked.

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use muster_bot::clock::ManualClock;
use muster_bot::core::{Core, Reply, Request, User};
use muster_bot::kernel::pages::{self, Page};
use muster_bot::kernel::reply::LinkKind;
use muster_bot::store::{
    Changes, ChannelKey, GameRecord, MemoryStore, Metered, Player, SCHEMA, SeatEntry, Status,
};
use muster_bot::web::listen::Limits;
use muster_bot::web::{Shared, event, game};

const WHOLE_GAME: &str = include_str!("../../docs/examples/lanrick-whole-game.txt");

fn request(user: &str, channel: &str, text: &str) -> Request {
    Request {
        platform: "console".into(),
        channel: channel.into(),
        user: User::named(user),
        text: text.into(),
        mentions: vec![],
        policy: Default::default(),
    }
}

fn site() -> (Arc<Shared>, Arc<Core>) {
    let changes = Arc::new(Changes::default());
    let store = Arc::new(Metered::telling(
        Arc::new(MemoryStore::default()),
        Arc::clone(&changes),
    ));
    let core = Arc::new(Core::with_clock(
        store,
        "!",
        Arc::new(ManualClock::starting_at(1_795_000_000)),
    ));
    core.set_web(Some("http://127.0.0.1:8080".into()));
    (
        Shared::new(Arc::clone(&core), changes, Limits::default()),
        core,
    )
}

/// The token in the one link of `kind` among `replies`.
fn token(replies: &[Reply], kind: LinkKind) -> String {
    replies
        .iter()
        .find_map(|r| match r {
            Reply::Link { kind: k, url } if *k == kind => Some(url.rsplit('/').next()?.to_string()),
            _ => None,
        })
        .expect("a link")
}

/// A Lanrick game of alice and bob in `#general` after the example game's first 40 decisions.
fn record() -> GameRecord {
    let seat = |name: &str| SeatEntry {
        player: Some(Player {
            id: name.into(),
            name: name.into(),
        }),
        accepted: true,
        hand: None,
    };
    let moves: Vec<String> = WHOLE_GAME
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(40)
        .map(String::from)
        .collect();
    GameRecord {
        schema: SCHEMA,
        id: "g7".into(),
        game: "lanrick".into(),
        platform: "console".into(),
        channel: "general".into(),
        created: 1_795_000_000,
        updated: 1_795_000_000,
        started: Some(1_795_000_000),
        version: 1,
        seats: vec![seat("alice"), seat("bob")],
        status: Status::Active,
        times: vec![1_795_000_000; moves.len()],
        moves,
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

fn game_page(c: &mut Criterion) {
    let (shared, core) = site();
    let game = record();
    let key = ChannelKey::new("console", "general");
    core.store().create(&key, &game).expect("stored");
    let t = pages::token_for(
        core.store(),
        &Page::Game {
            id: game.id.clone(),
            platform: "console".into(),
            channel: "general".into(),
        },
    )
    .expect("a token");
    let page = shared.page(&t).expect("the game's page");
    let record = game::find(&shared, &page).expect("the game");
    assert_eq!(record.moves.len(), 40);
    // The board is drawn once, then found in the cache.
    let _ = game::render(&shared, &t, &record, game::View::default());
    c.bench_function("web: a game's page of 40 decisions", |b| {
        b.iter(|| {
            let page = shared.page(&t).unwrap();
            let record = game::find(&shared, &page).unwrap();
            game::render(&shared, &t, &record, game::View::default()).into_string()
        })
    });
}

fn event_page(c: &mut Criterion) {
    let (shared, core) = site();
    let say = |user: &str, text: &str| core.handle(&request(user, "hall", text));
    let t = token(
        &say("olive", "tournament new open croquet swiss rounds 6"),
        LinkKind::Event,
    );
    for n in 0..64 {
        say(&format!("p{n:02}"), "tournament join open");
    }
    say("olive", "tournament start open");
    for _ in 0..2 {
        for notice in core.notices("console") {
            if let muster_bot::core::Target::Open(o) = &notice.target {
                core.place_opened(o, &o.name);
            }
        }
        for board in 1..=32 {
            say("olive", &format!("tournament result open {board} 1-0"));
        }
    }
    for notice in core.notices("console") {
        if let muster_bot::core::Target::Open(o) = &notice.target {
            core.place_opened(o, &o.name);
        }
    }
    let page = shared.page(&t).expect("the event's page");
    let Page::Event { .. } = page else {
        panic!("not an event");
    };
    let found = event::find(&shared, &page).expect("the event");
    assert_eq!(found.entrants.len(), 64);
    let html = event::render(&shared, &t, &found).into_string();
    assert!(
        html.contains("Round 3") && html.contains("Buchholz"),
        "three rounds paired"
    );
    c.bench_function("web: an event's page of 64 entrants", |b| {
        b.iter(|| {
            let page = shared.page(&t).unwrap();
            let event = event::find(&shared, &page).unwrap();
            event::render(&shared, &t, &event).into_string()
        })
    });
}

criterion_group!(benches, game_page, event_page);
criterion_main!(benches);
