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

use muster_tests::discord::bot::{self, Bot, CHANNEL, Mode, WAIT, runtime, slash, timed_game};
use muster_tests::discord::{Person, StandIn, StoredMessage};
use muster_tests::{data_dir, muster_binary};
use serde_json::{Value, json};

/// When the games begin: the bot's manual clock starts here.
const START: &str = "2026-11-25T10:00:00Z";

/// Writes aimed at, at most, in one sweep (the paths here make a handful).
const MOST: u64 = 12;

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

/// Sets up a game in a data directory of its own with `options` for `/new`, and stops.
async fn template(name: &str, options: Value) -> PathBuf {
    let dir = data_dir("discord-once", name);
    let standin = StandIn::start(bot::APP).await;
    let mut bot = serve(&standin, &dir, START).await;
    timed_game(
        &standin,
        &bot,
        &Person::new("alice"),
        &Person::new("bob"),
        options,
    )
    .await;
    bot.terminate();
    assert!(bot.exit_status(WAIT).await.success(), "{}", bot.log());
    dir
}

/// One kill: a copy of `template`, aimed at write `n` (`when`: `after` or `before`), its clock
/// moved by `act`; if it died, started again at `then` (the clock's time after `act`). How many
/// `wanted` messages the channel holds then, or `None` when the bot lived through it all.
async fn kill(
    template: &Path,
    when: &str,
    n: u64,
    (act, then): (&str, &str),
    wanted: &dyn Fn(&StoredMessage) -> bool,
) -> Option<usize> {
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
    // It dies, or it posts and lives on a moment after (its last write follows the post).
    let deadline = tokio::time::Instant::now() + WAIT;
    let died = loop {
        if !bot.running() {
            break true;
        }
        if posted(&standin, wanted) > 0 {
            tokio::time::sleep(Duration::from_millis(800)).await;
            break !bot.running();
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "neither died nor posted:\n{}",
            bot.log()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    if !died {
        let _ = std::fs::remove_dir_all(&dir);
        return None;
    }
    drop(bot);
    let bot = serve(&standin, &dir, then).await;
    standin
        .wait_message(
            &format!("the message after a kill {when} write {n}"),
            |m| m.channel_id == CHANNEL && wanted(m),
            WAIT,
        )
        .await;
    // Anything owed or due is done by the time the clock has moved on once more.
    bot.advance("+1m").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let count = posted(&standin, wanted);
    drop(bot);
    let _ = std::fs::remove_dir_all(&dir);
    Some(count)
}

/// Kills after and before every write of `act` in turn; each must leave the message once.
/// What each kill left, for the figures: `(when, n, messages)`.
async fn sweep(
    template: &Path,
    act: (&str, &str),
    wanted: &dyn Fn(&StoredMessage) -> bool,
) -> Vec<(&'static str, u64, usize)> {
    let mut seen = Vec::new();
    for when in ["after", "before"] {
        let mut n = 1;
        while let Some(count) = kill(template, when, n, act, wanted).await {
            seen.push((when, n, count));
            n += 1;
            assert!(n <= MOST, "still dying at write {n}: {seen:?}");
        }
        assert!(n > 1, "no write to aim at: {seen:?}");
    }
    assert!(
        seen.iter().all(|&(_, _, count)| count == 1),
        "a message lost (0) or doubled (2+): {seen:?}"
    );
    println!("kills: {seen:?}");
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
        let reminder = |m: &StoredMessage| m.content.contains("left for your move");
        let seen = sweep(&dir, ("+2d", "2026-11-27T10:00:00Z"), &reminder).await;
        // Kept, marked, posted, marked done: each moment was hit.
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
        let notice = |m: &StoredMessage| m.content.contains("may `/claim` the win");
        let seen = sweep(&dir, ("+1d", "2026-11-26T10:00:00Z"), &notice).await;
        assert!(seen.len() >= 6, "{seen:?}");
        let _ = std::fs::remove_dir_all(dir);
    });
}
