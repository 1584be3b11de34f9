//! Exactly once for what the bot posts on its own on Discord, killed at exact moments. A game is
//! set up once; then, for each write `n` of what follows a move of the manual clock, a copy of
//! its data is started against a fresh stand-in, aimed to die just after the `n`-th write
//! (`~ fault after n`: between keeping a notice and posting it, between posting it and marking
//! it done) or just before it (`~ fault before n`: after the post, before its record), and
//! started again on the same stand-in. The channel must then hold the message once: never
//! lost, never twice. The stand-in refuses a second message with a nonce it has seen, as Discord
//! does with `enforce_nonce`. The sweep ends at the first `n` the bot lives through.

use std::path::{Path, PathBuf};
use std::time::Duration;

use muster_tests::discord::bot::{
    self, Bot, CHANNEL, GUILD, Mode, WAIT, interact, runtime, slash, timed_game,
};
use muster_tests::discord::{Person, StandIn, StoredMessage, command};
use muster_tests::{data_dir, muster_binary};
use serde_json::{Value, json};

/// When the games begin: the bot's manual clock starts here.
const START: &str = "2026-11-25T10:00:00Z";

/// Writes aimed at, at most, in one sweep (the paths here make a handful).
const MOST: u64 = 40;

/// Copies the directory `from` to `to`, whole.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a directory");
    for entry in std::fs::read_dir(from).expect("a readable directory") {
        let entry = entry.expect("an entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("a copy");
        }
    }
}

/// `muster serve` on a manual clock at `at`, on the data in `dir`.
async fn serve(standin: &StandIn, dir: &Path, at: &str) -> Bot {
    bot::start_at(standin, &muster_binary!(), dir, Mode::Http, &[], at).await
}

/// The bot's own messages in the game's channel that `wanted` picks.
fn posted(standin: &StandIn, wanted: &dyn Fn(&StoredMessage) -> bool) -> usize {
    standin
        .messages()
        .iter()
        .filter(|m| m.channel_id == CHANNEL && m.interaction_token.is_none() && wanted(m))
        .count()
}

/// What a kill is audited for: each thing the bot should have posted or opened, named, with
/// how many times it did.
type Audit = dyn Fn(&StandIn) -> Vec<(&'static str, usize)>;

/// Whether every audited thing is there at least once.
fn all_there(standin: &StandIn, audit: &Audit) -> bool {
    audit(standin).iter().all(|&(_, n)| n > 0)
}

/// Sets up a game in a data directory of its own with `options` for `/new` (alice first
/// sends `/notify` with `notify`, if given), and stops.
async fn template(name: &str, options: Value) -> PathBuf {
    template_with(name, None, options).await
}

async fn template_with(name: &str, notify: Option<Value>, options: Value) -> PathBuf {
    let dir = data_dir("discord-once", name);
    let standin = StandIn::start(bot::APP).await;
    let mut bot = serve(&standin, &dir, START).await;
    let alice = Person::new("alice");
    if let Some(notify) = notify {
        slash(&standin, &bot, &alice, "notify", notify).await;
    }
    timed_game(&standin, &bot, &alice, &Person::new("bob"), options).await;
    bot.terminate();
    assert!(bot.exit_status(WAIT).await.success(), "{}", bot.log());
    dir
}

/// One kill: a copy of `template`, aimed at write `n` (`when`: `after` or `before`), its clock
/// moved by `act`; if it died, started again at `then` (the clock's time after `act`). What
/// `audit` finds then, or `None` when the bot lived through it all.
async fn kill(
    template: &Path,
    when: &str,
    n: u64,
    act: (&str, &str),
    audit: &Audit,
) -> Option<Vec<(&'static str, usize)>> {
    kill_then(template, when, n, act, audit, false).await
}

/// [`kill`], with every thread archived before the restart when `archive` (as Discord archives
/// a thread left without a message for its auto-archive time).
async fn kill_then(
    template: &Path,
    when: &str,
    n: u64,
    (act, then): (&str, &str),
    audit: &Audit,
    archive: bool,
) -> Option<Vec<(&'static str, usize)>> {
    let name = template
        .file_name()
        .and_then(|f| f.to_str())
        .unwrap_or("game")
        .to_string();
    let dir = data_dir("discord-once", &format!("{name}-{when}-{n}"));
    copy_dir(template, &dir);
    let standin = StandIn::start(bot::APP).await;
    let mut bot = serve(&standin, &dir, START).await;
    // A fresh Discord knows the game's channel once someone uses a command there.
    slash(&standin, &bot, &Person::new("carol"), "help", json!([])).await;
    bot.input(&format!("~ fault {when} {n}"));
    bot.wait_log("the fault aimed", |l| l.contains("[fault]").then_some(()))
        .await;
    bot.input(&format!("~ {act}"));
    // It dies, or it does it all and lives on a moment after (its last write follows a post).
    let deadline = tokio::time::Instant::now() + WAIT;
    let died = loop {
        if !bot.running() {
            break true;
        }
        if all_there(&standin, audit) {
            tokio::time::sleep(Duration::from_millis(800)).await;
            break !bot.running();
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "neither died nor did it all: {:?}\n{}",
            audit(&standin),
            bot.log()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    if !died {
        let _ = std::fs::remove_dir_all(&dir);
        return None;
    }
    drop(bot);
    if archive {
        standin.archive_threads();
    }
    let bot = serve(&standin, &dir, then).await;
    let deadline = tokio::time::Instant::now() + WAIT;
    while !all_there(&standin, audit) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "lost after a kill {when} write {n}: {:?}\n{}",
            audit(&standin),
            bot.log()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Anything owed or due is done by the time the clock has moved on once more.
    bot.advance("+1m").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let found = audit(&standin);
    drop(bot);
    let _ = std::fs::remove_dir_all(&dir);
    Some(found)
}

/// Kills after and before every write of `act` in turn; each must leave everything `audit`
/// looks for once. What each kill left, for the figures.
async fn sweep(
    template: &Path,
    act: (&str, &str),
    audit: &Audit,
) -> Vec<(&'static str, u64, Vec<(&'static str, usize)>)> {
    let mut seen = Vec::new();
    for when in ["after", "before"] {
        let mut n = 1;
        while let Some(found) = kill(template, when, n, act, audit).await {
            seen.push((when, n, found));
            n += 1;
            assert!(n <= MOST, "still dying at write {n}: {seen:?}");
        }
        assert!(n > 1, "no write to aim at: {seen:?}");
    }
    assert!(
        seen.iter()
            .all(|(_, _, found)| found.iter().all(|&(_, count)| count == 1)),
        "lost (0) or doubled (2+): {seen:?}"
    );
    let after = seen.iter().filter(|k| k.0 == "after").count();
    let before = seen.len() - after;
    println!(
        "kills: {} after writes 1..={after}, before writes 1..={before}; each left {:?} once",
        seen.len(),
        seen[0].2.iter().map(|k| k.0).collect::<Vec<_>>()
    );
    seen
}

#[test]
fn a_reminder_killed_at_any_write_is_posted_once() {
    runtime().block_on(async {
        let dir = template(
            "remind",
            json!([{"name": "clock", "type": 3, "value": "3d"}]),
        )
        .await;
        // Two days on, a day is left: alice is reminded.
        let reminder = |s: &StandIn| {
            vec![(
                "reminder",
                posted(s, &|m| m.content.contains("left for your move")),
            )]
        };
        let seen = sweep(&dir, ("+2d", "2026-11-27T10:00:00Z"), &reminder).await;
        // Kept, marked, posted, marked done: each moment was hit.
        assert!(seen.len() >= 6, "{seen:?}");
        let _ = std::fs::remove_dir_all(dir);
    });
}

#[test]
fn a_reminder_by_direct_message_killed_at_any_write_is_sent_once() {
    runtime().block_on(async {
        let dm = json!([{"name": "mode", "type": 4, "value": 1}]);
        let options = json!([{"name": "clock", "type": 3, "value": "3d"}]);
        let dir = template_with("remind-dm", Some(dm), options).await;
        let reminder = |s: &StandIn| {
            let channels: Vec<String> = s.direct_channels().into_iter().map(|(_, c)| c).collect();
            let direct = s
                .messages()
                .iter()
                .filter(|m| channels.contains(&m.channel_id))
                .filter(|m| m.content.contains("left for your move"))
                .count();
            vec![
                ("reminder", direct),
                ("direct channel", s.direct_channels().len()),
            ]
        };
        let seen = sweep(&dir, ("+2d", "2026-11-27T10:00:00Z"), &reminder).await;
        assert!(seen.len() >= 6, "{seen:?}");
        let _ = std::fs::remove_dir_all(dir);
    });
}

#[test]
fn a_claim_notice_killed_at_any_write_is_posted_once() {
    runtime().block_on(async {
        let options = json!([
            {"name": "clock", "type": 3, "value": "1d"},
            {"name": "timeout", "type": 4, "value": 1},
        ]);
        let dir = template("claim", options).await;
        let notice = |s: &StandIn| {
            vec![(
                "claim notice",
                posted(s, &|m| m.content.contains("may `/claim` the win")),
            )]
        };
        let seen = sweep(&dir, ("+1d", "2026-11-26T10:00:00Z"), &notice).await;
        assert!(seen.len() >= 6, "{seen:?}");
        let _ = std::fs::remove_dir_all(dir);
    });
}

/// `/tournament <sub>` with `options` by `who` in the event's channel; its answer's words.
async fn tournament(
    standin: &StandIn,
    bot: &Bot,
    who: &Person,
    sub: &str,
    options: Value,
) -> String {
    let interaction = command(
        "tournament",
        json!([{"name": sub, "type": 1, "options": options}]),
        who,
        CHANNEL,
        Some(GUILD),
    );
    bot::text(&bot::callback(&interact(standin, bot, interaction).await))
}

#[test]
fn a_swiss_round_killed_at_any_write_opens_its_thread_and_says_everything_once() {
    runtime().block_on(async {
        // Three entrants, a day per game: round 1 has one board and a bye.
        let dir = data_dir("discord-once", "swiss");
        let standin = StandIn::start(bot::APP).await;
        let mut bot = serve(&standin, &dir, START).await;
        let (org, bob, cat, dan) = (
            Person::new("org"),
            Person::new("bob"),
            Person::new("cat"),
            Person::new("dan"),
        );
        let said = tournament(
            &standin,
            &bot,
            &org,
            "new",
            json!([
                {"name": "name", "type": 3, "value": "cup"},
                {"name": "game", "type": 4, "value": 0},
                {"name": "system", "type": 4, "value": 0},
                {"name": "rounds", "type": 4, "value": 2},
                {"name": "clock", "type": 3, "value": "1d"},
            ]),
        )
        .await;
        assert!(said.contains("opened the event **cup**"), "{said}");
        for p in [&bob, &cat, &dan] {
            let said = tournament(&standin, &bot, p, "join", json!([])).await;
            assert!(said.contains("entered in cup"), "{said}");
        }
        let said = tournament(&standin, &bot, &org, "start", json!([])).await;
        assert!(said.contains("starts cup"), "{said}");
        standin
            .wait_message(
                "round 1's announcement",
                |m| m.channel_id == CHANNEL && m.content.contains("cup · round 1 of 2"),
                WAIT,
            )
            .await;
        bot.terminate();
        assert!(bot.exit_status(WAIT).await.success(), "{}", bot.log());

        // A day on, round 1's game is lost on time: its result is posted, round 2 paired, its
        // thread opened, its game started there and the round announced — each once.
        let audit = |s: &StandIn| {
            let threads: Vec<String> = s
                .threads()
                .iter()
                .filter(|t| t["name"] == "cup-2-1")
                .filter_map(|t| t["id"].as_str().map(str::to_string))
                .collect();
            let opening = s
                .messages()
                .iter()
                .filter(|m| threads.contains(&m.channel_id))
                .filter(|m| m.content.contains("cup · round 2 · board 1"))
                .count();
            vec![
                (
                    "result",
                    posted(s, &|m| m.content.contains("cup · round 1 · board 1:")),
                ),
                ("thread", threads.len()),
                ("opening", opening),
                (
                    "announcement",
                    posted(s, &|m| m.content.contains("cup · round 2 of 2")),
                ),
            ]
        };
        let seen = sweep(&dir, ("+1d", "2026-11-26T10:00:00Z"), &audit).await;
        assert!(seen.len() >= 10, "{seen:?}");
        // Killed just before each write, its threads archived before the restart (a restart
        // a day later): a thread opened and never recorded is found among the archived ones,
        // not opened again.
        let mut n = 1;
        let mut found_again = 0;
        while let Some(found) = kill_then(
            &dir,
            "before",
            n,
            ("+1d", "2026-11-26T10:00:00Z"),
            &audit,
            true,
        )
        .await
        {
            assert!(
                found.iter().all(|&(_, count)| count == 1),
                "archived, before write {n}: {found:?}"
            );
            found_again += 1;
            n += 1;
            assert!(n <= MOST, "still dying at write {n}");
        }
        println!("archived sweep: {found_again} kills, each left everything once");
        let _ = std::fs::remove_dir_all(dir);
    });
}
