//! The web pages (docs/web.md): a game's page of 40 decisions made as its handler makes it (the
//! token read, the record loaded, the page rendered), its board found in the board cache; its
//! link card drawn; an event's page of 64 entrants after two Swiss rounds, standings with every
//! tie-break and each round's 32 pairings linked, and its calendar; and a browser's request
//! head judged by the listener's gate.

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use muster_core::clock::ManualClock;
use muster_core::desk::{Core, Reply, Request, User};
use muster_core::kernel::pages::{self, Page};
use muster_core::kernel::reply::LinkKind;
use muster_core::store::{
    Changes, ChannelKey, GameRecord, MemoryStore, Metered, Player, SCHEMA, SeatEntry, Status,
};
use muster_web::cards::Cards;
use muster_web::gate::{HeadLimits, Judged, judge};
use muster_web::listen::Limits;
use muster_web::{Shared, calendar, event, game};

const WHOLE_GAME: &str = include_str!("../../../docs/examples/lanrick-whole-game.txt");

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

/// A Swiss event of 64 entrants on a 3-day clock after two rounds, the third paired: its page's
/// site, core and token.
fn event_site() -> (Arc<Shared>, Arc<Core>, String) {
    let (shared, core) = site();
    let say = |user: &str, text: &str| core.handle(&request(user, "hall", text));
    let t = token(
        &say(
            "olive",
            "tournament new open croquet swiss rounds 6 clock 3d",
        ),
        LinkKind::Event,
    );
    for n in 0..64 {
        say(&format!("p{n:02}"), "tournament join open");
    }
    say("olive", "tournament start open");
    let open_places = || {
        for notice in core.notices("console") {
            if let muster_core::desk::Target::Open(o) = &notice.target {
                core.place_opened(o, &o.name);
            }
        }
    };
    for _ in 0..2 {
        open_places();
        for board in 1..=32 {
            say("olive", &format!("tournament result open {board} 1-0"));
        }
    }
    open_places();
    (shared, core, t)
}

fn event_page(c: &mut Criterion) {
    let (shared, _core, t) = event_site();
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
    let ics = calendar::of_event(&shared, &t, &found);
    assert_eq!(
        ics.matches("BEGIN:VEVENT").count(),
        3 + 32,
        "three rounds, 32 deadlines"
    );
    c.bench_function("web: an event's calendar (3 rounds, 32 deadlines)", |b| {
        b.iter(|| {
            let page = shared.page(&t).unwrap();
            let event = event::find(&shared, &page).unwrap();
            calendar::of_event(&shared, &t, &event)
        })
    });
}

fn game_card(c: &mut Criterion) {
    let (shared, _) = site();
    let record = record();
    let preview = game::preview(&record);
    // The board is in the pages' cache; the card is drawn anew each time.
    Cards::default()
        .draw(&preview, &shared.boards)
        .expect("a card");
    c.bench_function("web: a game's link card drawn (1200×630)", |b| {
        b.iter(|| Cards::default().draw(&preview, &shared.boards).unwrap())
    });
}

fn head_judged(c: &mut Criterion) {
    // A browser's request for a page, as Chromium sends it.
    let head = "GET /g/0123456789abcdef0123456789abcdef?ply=12 HTTP/1.1\r\n\
                Host: games.example.org\r\nConnection: keep-alive\r\n\
                sec-ch-ua: \"Chromium\";v=\"148\"\r\nsec-ch-ua-mobile: ?0\r\n\
                Upgrade-Insecure-Requests: 1\r\n\
                User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/148.0.0.0 Safari/537.36\r\n\
                Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8\r\n\
                Sec-Fetch-Site: none\r\nSec-Fetch-Mode: navigate\r\nSec-Fetch-Dest: document\r\n\
                Accept-Encoding: gzip, deflate, br, zstd\r\nAccept-Language: en-GB,en;q=0.9\r\n\r\n";
    let limits = HeadLimits::default();
    assert!(matches!(
        judge(head.as_bytes(), &limits),
        Judged::Pass { .. }
    ));
    c.bench_function("web: a browser's request head judged by the gate", |b| {
        b.iter(|| judge(head.as_bytes(), &limits))
    });
}

/// The rules pages made as the listener makes them at start: six documents converted and
/// their diagrams drawn; and a page rendered in its frame, as each reader gets it.
fn rules_pages(c: &mut Criterion) {
    let mut group = c.benchmark_group("rules");
    group.sample_size(10);
    group.bench_function("make every page", |b| b.iter(muster_web::rules::make));
    let page = muster_web::rules::page("lanrick").expect("the Lanrick page");
    group.bench_function("render the Lanrick page", |b| {
        b.iter(|| muster_web::rules::render(page, "http://127.0.0.1:8080").into_string())
    });
    group.finish();
}

criterion_group!(rules_benches, rules_pages);
criterion_group!(benches, game_page, game_card, event_page, head_judged);
criterion_main!(benches, rules_benches);
