//! The web pages as a reader meets them (docs/web.md): linked from the chat, served over HTTP
//! by the pages' own listener, safe with hostile names and guessed addresses, and live while a
//! game is played. The browser's side is `tests/tests/web_browser.rs`.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::site::*;
use muster_core::clock::ManualClock;
use muster_core::desk::{Core, Reply};
use muster_core::kernel::community::{Communities, Community, Member};
use muster_core::kernel::reply::LinkKind;
use muster_core::store::MemoryStore;

#[test]
fn the_message_that_starts_a_game_links_its_page_and_the_page_shows_the_game() {
    let site = site();
    let path = begun(&site, "alice");
    let token = path.strip_prefix("/g/").expect("a game's page");
    // 128 random bits, nothing of the channel's or the game's name.
    assert_eq!(token.len(), 32, "{token}");
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()), "{token}");
    assert!(!token.contains("general") && !token.contains("g0"));
    for m in ["b1", "g8", "c1"] {
        let user = if m == "g8" { "bob" } else { "alice" };
        let out = say(&site.core, user, "general", &format!("move {m}"));
        assert!(common::privates(&out).is_empty(), "{out:?}");
    }
    let page = get(&site, &path);
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    let html = page.text();
    assert!(html.contains("<html lang=\"en\">"), "{html}");
    assert!(
        html.contains("<bdi>alice</bdi> (White) · <bdi>bob</bdi> (Black)"),
        "{html}"
    );
    assert!(html.contains("<bdi>bob</bdi> (Black) to decide."), "{html}");
    assert!(
        html.contains("White b1") && html.contains("Black g8") && html.contains("White c1"),
        "{html}"
    );
    // The newest position is shown, and every other is a link away.
    assert!(html.contains(&format!("{path}/board.png?ply=3")), "{html}");
    assert!(html.contains("max=\"3\" value=\"3\""), "{html}");
    let earlier = get(&site, &format!("{path}?ply=1")).text();
    assert!(
        earlier.contains(&format!("{path}/board.png?ply=1")),
        "{earlier}"
    );
    assert!(
        earlier.contains("<li data-ply=\"1\" aria-current=\"step\">"),
        "{earlier}"
    );
    // The boards decode, and differ from position to position.
    let board = |q: &str| {
        let a = get(&site, &format!("{path}/board.png{q}"));
        assert_eq!(a.header("content-type"), Some("image/png"));
        let (w, h) = png_size(&a.body).expect("a PNG");
        assert!(w > 400 && h > 400, "{w}x{h}");
        a.body
    };
    assert_ne!(board("?ply=0"), board("?ply=3"));
    assert_eq!(board(""), board("?ply=3"));
    assert_ne!(board("?ply=3&theme=dark"), board("?ply=3"));
    // The record replays as the chat's `export` gives it; the replay is a GIF.
    let record = get(&site, &format!("{path}/record.txt"));
    assert_eq!(record.status, 200);
    let exported = say(&site.core, "carol", "general", "export");
    let Some(Reply::File { content, .. }) =
        exported.iter().find(|r| matches!(r, Reply::File { .. }))
    else {
        panic!("{exported:?}");
    };
    assert_eq!(record.text(), *content);
    let gif = get(&site, &format!("{path}/replay.gif"));
    assert_eq!(gif.header("content-type"), Some("image/gif"));
    assert!(gif.body.starts_with(b"GIF89a"));
}

#[test]
fn every_answer_is_guarded_and_every_address_that_shows_nothing_answers_alike() {
    let quiet = Communities::new(vec![Community {
        name: "quiet".into(),
        members: vec![Member::channel("console", "hidden")],
        web: muster_config::Visibility::Off,
        ..Community::default()
    }]);
    let site = site_with(16, quiet);
    let path = begun(&site, "alice");
    let page = get(&site, &path);
    let policy = page.header("content-security-policy").expect("a policy");
    assert!(
        policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"),
        "{policy}"
    );
    assert_eq!(page.header("x-content-type-options"), Some("nosniff"));
    assert_eq!(page.header("referrer-policy"), Some("no-referrer"));
    // A game in a place that keeps off the web has no link (and so no page).
    say(&site.core, "alice", "hidden", "new lanrick");
    let out = say(&site.core, "bob", "hidden", "join");
    assert!(
        out.iter()
            .any(|r| matches!(r, Reply::Text(t) if t.starts_with("The game begins"))),
        "{out:?}"
    );
    assert!(
        !out.iter().any(|r| matches!(r, Reply::Link { .. })),
        "{out:?}"
    );
    let unknown = get(&site, &format!("/g/{}", "0".repeat(32)));
    assert_eq!(unknown.status, 404);
    let token = path.strip_prefix("/g/").unwrap();
    for other in [
        format!("/g/{}", token.to_uppercase()),
        format!("/g/{}x", token),
        format!("/e/{token}"),
        format!("/p/{token}"),
        format!("/g/{token}/board.jpg"),
        "/g/".to_string(),
        "/g/%3Cscript%3E".to_string(),
        "/etc/passwd".to_string(),
        format!("/g/{token}/../../x"),
    ] {
        let a = get(&site, &other);
        assert_eq!((a.status, a.text()), (404, unknown.text()), "{other}");
        assert!(a.header("content-security-policy").is_some(), "{other}");
    }
    // Only GET and HEAD.
    assert_eq!(ask(site.addr, "HEAD", &path).status, 200);
    for method in ["POST", "PUT", "DELETE"] {
        assert_eq!(ask(site.addr, method, &path).status, 405, "{method}");
    }
}

#[test]
fn a_hostile_name_is_shown_as_text() {
    let site = site();
    let evil = "<img src=x onerror=alert(1)>";
    say(&site.core, evil, "general", "new lanrick");
    let out = say(&site.core, "bob", "general", "join");
    let path = link(&site, &out, LinkKind::Watch);
    let html = get(&site, &path).text();
    assert!(!html.contains(evil), "{html}");
    assert!(
        html.contains("&lt;img src=x onerror=alert(1)&gt;"),
        "{html}"
    );
}

#[test]
fn a_move_reaches_an_open_page_and_each_address_holds_a_few_streams() {
    let site = site_with(2, Communities::default());
    let path = begun(&site, "alice");
    let mut first = Stream::open(&site, &format!("{path}/events")).expect("a stream");
    let now = first.update();
    assert!(
        now["html"]
            .as_str()
            .unwrap()
            .contains("<bdi>alice</bdi> (White) to decide."),
        "{now}"
    );
    let _second = Stream::open(&site, &format!("{path}/events")).expect("a second stream");
    // A third from the same address is refused until one closes.
    assert_eq!(
        Stream::open(&site, &format!("{path}/events")).err(),
        Some(429)
    );
    say(&site.core, "alice", "general", "move b1");
    let next = first.update();
    assert_ne!(next["version"], now["version"]);
    let html = next["html"].as_str().unwrap();
    assert!(
        html.contains("<bdi>bob</bdi> (Black) to decide.") && html.contains("White b1"),
        "{html}"
    );
    drop(first);
    let mut tries = 0;
    let mut third = loop {
        match Stream::open(&site, &format!("{path}/events")) {
            Ok(s) => break s,
            Err(429) if tries < 50 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(100));
            }
            Err(code) => panic!("{code}"),
        }
    };
    assert!(
        third.update()["html"]
            .as_str()
            .unwrap()
            .contains("White b1")
    );
    // A finished game's page has no stream to follow; its page stays.
    say(&site.core, "bob", "general", "resign");
    let over = get(&site, &path).text();
    assert!(
        over.contains("<bdi>alice</bdi> (White) wins by resignation."),
        "{over}"
    );
    assert!(!over.contains("data-live"), "{over}");
}

#[test]
fn an_event_page_follows_its_rounds_and_links_their_games() {
    let site = site();
    let core = &site.core;
    let opened = say(
        core,
        "olive",
        "hall",
        "tournament new league croquet roundrobin",
    );
    let path = link(&site, &opened, LinkKind::Event);
    assert!(path.starts_with("/e/"), "{path}");
    for p in ["ann", "bob", "cat", "<b>dan</b>"] {
        say(core, p, "hall", "tournament join league");
    }
    let before = get(&site, &path).text();
    assert!(
        before.contains("&lt;b&gt;dan&lt;/b&gt;") && !before.contains("<b>dan"),
        "{before}"
    );
    let mut stream = Stream::open(&site, &format!("{path}/events")).expect("a stream");
    stream.update();
    say(core, "olive", "hall", "tournament start league");
    let told = notices(core);
    // The round's announcement links the event's page.
    assert_eq!(link(&site, &told, LinkKind::Event), path);
    // The round is paired, then its games' places open: the page follows to their links.
    let paired = stream.until("href=\"/g/");
    let html = paired["html"].as_str().unwrap();
    assert!(html.contains("Round 1"), "{html}");
    // Each pairing links its game's page, which the board's own opening links too.
    let page = get(&site, &path).text();
    let games: Vec<&str> = page
        .match_indices("href=\"/g/")
        .map(|(i, _)| &page[i + 6..i + 41])
        .collect();
    assert_eq!(games.len(), 2, "{page}");
    let watched: Vec<String> = told
        .iter()
        .filter_map(|r| match r {
            Reply::Link {
                kind: LinkKind::Watch,
                url,
            } => Some(url.rsplit('/').next()?.to_string()),
            _ => None,
        })
        .collect();
    for g in &games {
        assert!(
            watched.iter().any(|w| g.ends_with(w.as_str())),
            "{g} among {watched:?}"
        );
        let game = get(&site, g).text();
        assert!(game.contains("Tournament"), "{game}");
    }
    // A result comes in: the page is told, and its standings count it.
    let x = {
        let out = say(core, "olive", "hall", "tournament export league");
        let Some(Reply::File { content, .. }) =
            out.iter().find(|r| matches!(r, Reply::File { .. }))
        else {
            panic!("{out:?}");
        };
        serde_json::from_str::<serde_json::Value>(content).unwrap()
    };
    let first = &x["rounds"][0]["pairings"][0];
    let place = first["channel"].as_str().unwrap();
    let black = first["black_name"].as_str().unwrap();
    say(core, black, place, "resign");
    notices(core);
    let scored = stream.until("1–0");
    let html = scored["html"].as_str().unwrap();
    assert!(
        html.contains("Sonneborn–Berger") && html.contains("Direct encounter"),
        "{html}"
    );
    assert!(html.contains("Crosstable"), "{html}");
    // Its exports are the chat's.
    let json = get(&site, &format!("{path}/export.json"));
    assert_eq!(json.header("content-type"), Some("application/json"));
    let served: serde_json::Value = serde_json::from_slice(&json.body).unwrap();
    assert_eq!(served["standings"], {
        let out = say(core, "olive", "hall", "tournament export league");
        let Some(Reply::File { content, .. }) =
            out.iter().find(|r| matches!(r, Reply::File { .. }))
        else {
            panic!();
        };
        serde_json::from_str::<serde_json::Value>(content).unwrap()["standings"].clone()
    });
    let trf = get(&site, &format!("{path}/export.trf"));
    assert_eq!(trf.status, 200);
    assert!(trf.text().starts_with("012 league"), "{}", trf.text());
}

#[test]
fn rating_links_the_players_page_and_leaderboard_its_own() {
    let site = site();
    let core = &site.core;
    for _ in 0..3 {
        say(core, "bob", "general", "new croquet");
        say(core, "alice", "general", "join");
        for (n, who) in ["bob", "alice", "bob", "alice"].iter().enumerate() {
            say(core, who, "general", &format!("move {}", n + 1));
        }
        say(core, "bob", "general", "resign");
    }
    let out = say(core, "alice", "general", "rating");
    let path = link(&site, &out, LinkKind::Player);
    let html = get(&site, &path).text();
    assert!(html.contains("<h1><bdi>alice</bdi></h1>"), "{html}");
    assert!(
        html.contains("Arithmetical Croquet") && html.contains("3 rated games"),
        "{html}"
    );
    assert!(html.contains("<svg class=\"chart\""), "{html}");
    assert_eq!(html.matches("<circle").count(), 3, "{html}");
    assert_eq!(html.matches("href=\"/g/").count(), 3, "{html}");
    let out = say(core, "bob", "general", "leaderboard croquet");
    let leaders = link(&site, &out, LinkKind::Leaders);
    let board = get(&site, &leaders).text();
    assert!(board.contains("alice") && board.contains("bob"), "{board}");
    // Both follow the games being rated.
    let mut player = Stream::open(&site, &format!("{path}/events")).expect("the player's stream");
    let mut table = Stream::open(&site, &format!("{leaders}/events")).expect("the table's stream");
    assert!(
        player.update()["html"]
            .as_str()
            .unwrap()
            .contains("3 rated games")
    );
    assert!(table.update()["html"].as_str().unwrap().contains("3 games"));
    say(core, "bob", "general", "new croquet");
    say(core, "alice", "general", "join");
    for (n, who) in ["bob", "alice", "bob", "alice"].iter().enumerate() {
        say(core, who, "general", &format!("move {}", n + 1));
    }
    say(core, "bob", "general", "resign");
    player.until("4 rated games");
    table.until("4 games");
}

#[test]
fn without_the_web_no_link_is_given() {
    let core = Core::with_clock(
        Arc::new(MemoryStore::default()),
        "!",
        Arc::new(ManualClock::starting_at(START)),
    );
    core.handle(&common::request("alice", "general", "new lanrick"));
    let out = core.handle(&common::request("bob", "general", "join"));
    assert!(
        !out.iter().any(|r| matches!(r, Reply::Link { .. })),
        "{out:?}"
    );
}

#[test]
fn a_public_community_has_an_index_of_its_games_and_events_and_no_other_does() {
    let communities = Communities::new(vec![
        Community {
            name: "club".into(),
            members: vec![
                Member::channel("console", "general"),
                Member::channel("console", "hall"),
            ],
            web: muster_config::Visibility::Public,
            ..Community::default()
        },
        Community {
            name: "quiet".into(),
            members: vec![Member::channel("console", "back")],
            ..Community::default()
        },
    ]);
    let site = site_with(16, communities);
    let core = &site.core;
    let game = begun(&site, "alice");
    say(core, "carol", "back", "new lanrick");
    say(core, "dave", "back", "join");
    let opened = say(
        core,
        "olive",
        "hall",
        "tournament new league croquet roundrobin",
    );
    let event = link(&site, &opened, LinkKind::Event);
    let index = get(&site, "/c/club");
    assert_eq!(index.status, 200);
    let html = index.text();
    assert!(html.contains(&format!("href=\"{game}\"")), "{html}");
    assert!(html.contains(&format!("href=\"{event}\"")), "{html}");
    assert!(html.contains("league"), "{html}");
    // The game of another community is not on it.
    assert!(!html.contains("carol"), "{html}");
    // A community with links only, and a name that is none, answer as any unknown address.
    let unknown = get(&site, &format!("/g/{}", "0".repeat(32))).text();
    for other in ["/c/quiet", "/c/nobody", "/c/"] {
        let a = get(&site, other);
        assert_eq!((a.status, a.text()), (404, unknown.clone()), "{other}");
    }
}
