//! The web pages in a real browser (headless Chromium, driven over WebDriver), as a newcomer
//! meets them: `muster console` run with `[web] listen` set, the links it prints opened. A game
//! page's board loads, a move typed in the console appears without a reload, the replay's
//! slider and arrow keys reach every position; an event page follows a round being paired and a
//! result coming in; the pages have no serious accessibility violation (axe-core), read with
//! JavaScript off, and show a hostile name as text. Screenshots of each page are written to
//! the build's temporary directory (`web-screenshots/`).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use fantoccini::Locator;
use fantoccini::key::Key;
use muster_tests::browser::Browser;
use muster_tests::web::Console;

/// Where the screenshots go.
fn shot(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("web-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{name}.png"))
}

/// Waits (up to 15 s) until the page's script expression `test` is true.
async fn until(b: &Browser, test: &str, what: &str) {
    let started = Instant::now();
    loop {
        let v = b
            .client()
            .execute(&format!("return Boolean({test});"), vec![])
            .await
            .unwrap();
        if v.as_bool() == Some(true) {
            return;
        }
        if started.elapsed() > Duration::from_secs(15) {
            let text = b
                .client()
                .execute("return document.body.innerText;", vec![])
                .await
                .unwrap();
            panic!("{what}: not seen in 15 s; the page reads {text}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn js(b: &Browser, script: &str) -> serde_json::Value {
    b.client().execute(script, vec![]).await.unwrap()
}

/// The position the board shows (its address's `ply`).
async fn shown_ply(b: &Browser) -> u64 {
    let src = js(
        b,
        "return document.getElementById('board').getAttribute('src');",
    )
    .await;
    let src = src.as_str().unwrap().to_string();
    src.split("ply=")
        .nth(1)
        .and_then(|p| p.split('&').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("{src}"))
}

async fn no_serious_violations(b: &Browser, page: &str) {
    let v = b.serious_violations().await;
    assert!(v.is_empty(), "{page}: {v:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_page_loads_follows_moves_and_replays_every_position() {
    let Some(b) = Browser::start().await else {
        return;
    };
    let mut console = Console::start(&muster_tests::muster_binary!(), "game");
    console.say("alice general new lanrick");
    console.say("bob general join");
    let url = console.link("general", "watch");
    b.client().goto(&url).await.unwrap();
    until(&b, "document.getElementById('board').complete && document.getElementById('board').naturalWidth > 0", "the board loaded").await;
    no_serious_violations(&b, "a game just begun").await;
    // The page is not loaded again: a mark set now is there after the move.
    js(&b, "window.stayed = true; return null;").await;
    console.say("alice general move b1");
    until(
        &b,
        "document.getElementById('live').innerText.includes('White b1')",
        "the move, live",
    )
    .await;
    until(
        &b,
        "document.querySelector('.status').innerText.includes('bob (Black) to decide')",
        "whose turn",
    )
    .await;
    assert_eq!(js(&b, "return window.stayed === true;").await, true);
    for (user, m) in [("bob", "g8"), ("alice", "c1"), ("bob", "f8")] {
        console.say(&format!("{user} general move {m}"));
        until(
            &b,
            &format!("document.getElementById('live').innerText.includes('{m}')"),
            m,
        )
        .await;
    }
    assert_eq!(js(&b, "return window.stayed === true;").await, true);
    until(
        &b,
        "document.getElementById('board').naturalWidth > 0",
        "the newest board",
    )
    .await;
    b.screenshot_to(&shot("game")).await;
    // The replay: Home, then the arrow keys through every position, then End.
    let slider = b.client().find(Locator::Id("ply")).await.unwrap();
    slider
        .send_keys(&char::from(Key::Home).to_string())
        .await
        .unwrap();
    assert_eq!(shown_ply(&b).await, 0);
    for n in 1..=4 {
        slider
            .send_keys(&char::from(Key::Right).to_string())
            .await
            .unwrap();
        assert_eq!(shown_ply(&b).await, n);
        let url = b.client().current_url().await.unwrap();
        if n < 4 {
            assert!(url.as_str().ends_with(&format!("?ply={n}")), "{url}");
        }
        until(&b, "document.getElementById('board').complete && document.getElementById('board').naturalWidth > 0", "each position's board").await;
    }
    slider
        .send_keys(&char::from(Key::Left).to_string())
        .await
        .unwrap();
    assert_eq!(shown_ply(&b).await, 3);
    // The slider itself, dragged to a position.
    js(&b, "const s = document.getElementById('ply'); s.value = '2'; s.dispatchEvent(new Event('input')); return null;").await;
    assert_eq!(shown_ply(&b).await, 2);
    until(
        &b,
        "document.querySelector('ol.moves li[aria-current]').dataset.ply === '2'",
        "the move marked",
    )
    .await;
    // Studying an earlier position, a new move is offered, not forced on the reader.
    console.say("alice general move d1");
    until(
        &b,
        "!document.getElementById('newer').hidden",
        "the newer position offered",
    )
    .await;
    assert_eq!(shown_ply(&b).await, 2);
    slider
        .send_keys(&char::from(Key::End).to_string())
        .await
        .unwrap();
    assert_eq!(shown_ply(&b).await, 4);
    // A position reached by its address.
    b.client()
        .goto(&format!("{url}?ply=1&theme=dark"))
        .await
        .unwrap();
    assert_eq!(shown_ply(&b).await, 1);
    until(
        &b,
        "document.getElementById('board').naturalWidth > 0",
        "the dark board",
    )
    .await;
    b.screenshot_to(&shot("game-dark-ply-1")).await;
    no_serious_violations(&b, "a game's earlier position").await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_event_page_follows_its_round_being_paired_and_results_coming_in() {
    let Some(b) = Browser::start().await else {
        return;
    };
    let mut console = Console::start(&muster_tests::muster_binary!(), "event");
    console.say("olive hall tournament new league croquet roundrobin");
    let url = console.link("hall", "event");
    for p in ["ann", "bob", "cat", "dan"] {
        console.say(&format!("{p} hall tournament join league"));
    }
    console.wait_for("(4 entrants)");
    b.client().goto(&url).await.unwrap();
    until(
        &b,
        "document.body.innerText.includes('dan')",
        "the entrants",
    )
    .await;
    no_serious_violations(&b, "an event open for entries").await;
    js(&b, "window.stayed = true; return null;").await;
    console.say("olive hall tournament start league");
    until(
        &b,
        "document.body.innerText.includes('Round 1')",
        "round 1 paired",
    )
    .await;
    until(
        &b,
        "document.querySelectorAll('#live a[href^=\"/g/\"]').length === 2",
        "the games linked",
    )
    .await;
    console.say("olive hall tournament result league 1 1-0");
    until(
        &b,
        "document.getElementById('live').innerText.includes('1–0')",
        "the result",
    )
    .await;
    until(
        &b,
        "document.getElementById('live').innerText.includes('Crosstable')",
        "the crosstable",
    )
    .await;
    assert_eq!(js(&b, "return window.stayed === true;").await, true);
    b.screenshot_to(&shot("event")).await;
    no_serious_violations(&b, "an event under way").await;
    // A pairing's link opens its game.
    let game = js(
        &b,
        "return document.querySelector('#live a[href^=\"/g/\"]').href;",
    )
    .await;
    b.client().goto(game.as_str().unwrap()).await.unwrap();
    until(
        &b,
        "document.getElementById('board').naturalWidth > 0",
        "a board of the event",
    )
    .await;
    until(
        &b,
        "document.body.innerText.includes('Tournament')",
        "the event named",
    )
    .await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_read_without_javascript_and_show_a_hostile_name_as_text() {
    let Some(b) = Browser::start_without_javascript().await else {
        return;
    };
    let mut console = Console::start(&muster_tests::muster_binary!(), "nojs");
    let evil = "<img/src=x/onerror=document.title='owned'>";
    console.say(&format!("{evil} general new croquet"));
    console.say("bob general join");
    let url = console.link("general", "watch");
    console.say(&format!("{evil} general move 1"));
    console.say("bob general move 2");
    // Without scripts the page is read again until both decisions are on it.
    let started = Instant::now();
    loop {
        b.client().goto(&url).await.unwrap();
        let n = js(
            &b,
            "return document.querySelectorAll('ol.moves li').length;",
        )
        .await;
        if n == 2 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "the moves did not come"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let text = js(&b, "return document.body.innerText;").await;
    let text = text.as_str().unwrap();
    assert!(text.contains(evil), "{text}");
    // Its handler never ran: the title is the page's own.
    let title = js(&b, "return document.title;").await;
    assert!(
        title.as_str().unwrap().starts_with("Arithmetical Croquet"),
        "{title}"
    );
    assert_eq!(
        js(
            &b,
            "return document.querySelectorAll('img[src=\"x\"]').length;"
        )
        .await,
        0
    );
    until(
        &b,
        "document.getElementById('board').naturalWidth > 0",
        "the board without scripts",
    )
    .await;
    // The replay's links and its form work without the script.
    let first = b.client().find(Locator::LinkText("First")).await.unwrap();
    first.click().await.unwrap();
    until(
        &b,
        "location.search === '?ply=0'",
        "the first position's address",
    )
    .await;
    assert!(shown_ply(&b).await == 0);
    let show = b.client().find(Locator::Id("ply-go")).await.unwrap();
    assert!(
        show.is_displayed().await.unwrap(),
        "the form's button shows without scripts"
    );
    b.screenshot_to(&shot("game-without-javascript")).await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_page_and_a_leaderboard_pass_the_accessibility_check() {
    let Some(b) = Browser::start().await else {
        return;
    };
    let mut console = Console::start(&muster_tests::muster_binary!(), "people");
    for _ in 0..3 {
        console.say("bob general new croquet");
        console.say("alice general join");
        for (n, who) in ["bob", "alice", "bob", "alice"].iter().enumerate() {
            console.say(&format!("{who} general move {}", n + 1));
        }
        console.say("bob general resign");
        console.wait_for("wins by resignation");
    }
    console.say("alice general rating");
    let url = console.link("general", "player");
    b.client().goto(&url).await.unwrap();
    until(
        &b,
        "document.querySelector('svg.chart') !== null",
        "the rating's chart",
    )
    .await;
    b.screenshot_to(&shot("player")).await;
    no_serious_violations(&b, "a player's page").await;
    console.say("bob general leaderboard croquet");
    let url = console.link("general", "leaderboard");
    b.client().goto(&url).await.unwrap();
    until(
        &b,
        "document.body.innerText.includes('alice')",
        "the leaderboard",
    )
    .await;
    b.screenshot_to(&shot("leaderboard")).await;
    no_serious_violations(&b, "a leaderboard").await;
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rules_pages_show_their_diagrams_and_pass_the_accessibility_check() {
    let Some(b) = Browser::start().await else {
        return;
    };
    let mut console = Console::start(&muster_tests::muster_binary!(), "rules");
    for game in ["lanrick", "croquet", "lanko88", "lanrick1880"] {
        // The link `rules` gives, opened as a newcomer opens it.
        console.say(&format!("alice general rules {game}"));
        let line = console.wait_for("The whole rules, with every ruling and the boards drawn: ");
        let url = line.rsplit(' ').next().unwrap().to_string();
        assert_eq!(url, format!("{}/rules/{game}", console.base()));
        b.client().goto(&url).await.unwrap();
        // Every picture loads (each diagram drawn by the renderer), the lazy ones asked for now.
        js(
            &b,
            "document.querySelectorAll('article img').forEach(i => i.loading = 'eager');",
        )
        .await;
        until(
            &b,
            "document.querySelectorAll('article img').length > 0 && \
             [...document.querySelectorAll('article img')].every(i => i.complete && i.naturalWidth > 300)",
            "the rules page's diagrams",
        )
        .await;
        b.screenshot_to(&shot(&format!("rules-{game}"))).await;
        no_serious_violations(&b, &format!("the rules of {game}")).await;
    }
    b.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lessons_and_puzzles_pages_are_answered_in_a_browser_and_pass_the_accessibility_check()
{
    let Some(b) = Browser::start().await else {
        return;
    };
    let console = Console::start(&muster_tests::muster_binary!(), "learning");
    let puzzle = &muster_core::learn::puzzles::set()[0];
    let pages = [
        "/learn".to_string(),
        "/learn/lanrick".into(),
        "/learn/lanko88".into(),
        "/puzzles".into(),
        format!("/puzzle/{}", puzzle.id),
    ];
    for path in &pages {
        b.client()
            .goto(&format!("{}{path}", console.base()))
            .await
            .unwrap();
        js(
            &b,
            "document.querySelectorAll('main img').forEach(i => i.loading = 'eager');",
        )
        .await;
        until(
            &b,
            "[...document.querySelectorAll('main img')].every(i => i.complete && i.naturalWidth > 300)",
            "the page's boards",
        )
        .await;
        let name = path.trim_start_matches('/').replace('/', "-");
        b.screenshot_to(&shot(&name)).await;
        no_serious_violations(&b, path).await;
    }
    // The puzzle answered as a reader answers it: typed into its box and sent.
    let answer = b.client().find(Locator::Id("answer")).await.unwrap();
    answer.send_keys(&puzzle.answer).await.unwrap();
    b.client()
        .find(Locator::Css("form button[type=submit]"))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    until(
        &b,
        "(document.querySelector('.verdict') || {innerText: ''}).innerText.startsWith('Solved')",
        "the puzzle solved",
    )
    .await;
    b.screenshot_to(&shot("puzzle-solved")).await;
    no_serious_violations(&b, "a solved puzzle").await;
    b.close().await;
}
