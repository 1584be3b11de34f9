//! Muster on Discord, end to end with no Discord: the real `muster serve` binary against the
//! stand-ins of Discord's REST API and gateway (`muster_tests::discord`), in gateway mode and
//! as an HTTP interactions endpoint. Interactions are the complete payloads Discord sends; what
//! the bot did is read back from the REST calls it made and the messages they left.

use std::time::{SystemTime, UNIX_EPOCH};

use muster_tests::discord::bot::{
    self, Bot, CHANNEL, GUILD, Mode, WAIT, button_ids, callback, ephemeral, interact, paths, press,
    runtime, slash, text,
};
use muster_tests::discord::{self, Person, StandIn, StoredMessage, autocomplete};
use muster_tests::{data_dir, muster_binary};
use serde_json::json;

const APP: u64 = bot::APP;
const WHOLE_GAME: &str = include_str!("../../docs/examples/lanrick-whole-game.txt");

/// `muster serve` against `standin` (see [`bot::start`]).
async fn start(
    standin: &StandIn,
    dir: &std::path::Path,
    mode: Mode,
    extra: &[(&str, &str)],
) -> Bot {
    bot::start(standin, &muster_binary!(), dir, mode, extra).await
}

/// The newest public message in the channel with a board image.
fn last_board(standin: &StandIn) -> StoredMessage {
    standin
        .messages()
        .into_iter()
        .rev()
        .find(|m| {
            m.channel_id == CHANNEL
                && m.flags & 64 == 0
                && m.attachments.iter().any(|(n, _)| n.ends_with(".png"))
        })
        .expect("a board message")
}

/// Who the newest public message asks to move.
fn to_move<'a>(standin: &StandIn, players: &'a [&'a Person]) -> Option<&'a Person> {
    let content = standin
        .messages()
        .into_iter()
        .rev()
        .find(|m| m.channel_id == CHANNEL && m.flags & 64 == 0 && m.content.contains("your turn"))?
        .content;
    let line = content.lines().find(|l| l.contains("your turn"))?;
    players
        .iter()
        .copied()
        .find(|p| line.starts_with(&p.mention()))
}

fn record() -> Vec<&'static str> {
    WHOLE_GAME
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// A challenge by slash command, accepted with the button.
async fn challenge(standin: &StandIn, bot: &Bot, alice: &Person, bob: &Person, game: u64) {
    let out = slash(
        standin,
        bot,
        alice,
        "new",
        json!([
            {"name": "game", "type": 4, "value": game},
            {"name": "opponent", "type": 6, "value": bob.id},
        ]),
    )
    .await;
    let cb = callback(&out);
    let said = format!("{} {} challenges you", bob.mention(), alice.name);
    // (Players are shown by their display names, `Alice`.)
    assert!(
        text(&cb).to_lowercase().contains(&said.to_lowercase()),
        "{}",
        text(&cb)
    );
    // Only the challenged player is pinged.
    assert_eq!(cb.data["allowed_mentions"]["users"], json!([bob.id]));
    let challenge = bot::newest_saying(standin, "challenges you");
    assert_eq!(
        button_ids(&challenge),
        vec!["muster:accept", "muster:decline"]
    );
    // Someone else's click is refused privately.
    let carol = Person::new("carol");
    let out = press(standin, bot, &carol, "muster:accept", &challenge).await;
    assert!(ephemeral(&callback(&out)), "{:?}", paths(&out));
    assert!(
        standin.message(&challenge.id).is_some(),
        "the challenge is still there"
    );
    let out = press(standin, bot, bob, "muster:accept", &challenge).await;
    let cb = callback(&out);
    assert!(!ephemeral(&cb));
    assert!(
        cb.files
            .iter()
            .any(|(_, name, bytes)| name.ends_with(".png") && bytes.starts_with(b"\x89PNG"))
    );
    // The answered challenge loses its buttons.
    assert_eq!(
        button_ids(&standin.message(&challenge.id).unwrap()),
        Vec::<String>::new()
    );
}

/// Plays the whole Lanrick record, each move by the player the bot pinged, checking what
/// players see; with `restart`, the bot is restarted halfway.
async fn lanrick_game(
    standin: &StandIn,
    mut bot: Bot,
    dir: &std::path::Path,
    mode: Mode,
    restart: bool,
) {
    let (alice, bob) = (Person::new("alice"), Person::new("bob"));
    let players = [&alice, &bob];
    challenge(standin, &bot, &alice, &bob, 0).await;
    let moves = record();
    let mut checked_autocomplete = false;
    for (i, mv) in moves.iter().enumerate() {
        if restart && i == moves.len() / 2 {
            drop(bot);
            bot = start(standin, dir, mode, &[]).await;
            if mode == Mode::Gateway {
                standin.wait_connections(2, WAIT).await;
            }
        }
        let mover =
            to_move(standin, &players).unwrap_or_else(|| panic!("nobody to move before {mv}"));
        let other = if mover.id == alice.id { &bob } else { &alice };
        let before = last_board(standin);
        if i == 3 {
            // The wrong player and a bad move are answered privately; nothing changes.
            let out = slash(
                standin,
                &bot,
                other,
                "move",
                json!([{"name": "notation", "type": 3, "value": mv}]),
            )
            .await;
            assert!(ephemeral(&callback(&out)), "{}", text(&callback(&out)));
            let out = slash(
                standin,
                &bot,
                mover,
                "move",
                json!([{"name": "notation", "type": 3, "value": "z9"}]),
            )
            .await;
            assert!(
                ephemeral(&callback(&out)) && text(&callback(&out)).contains("z9"),
                "{}",
                text(&callback(&out))
            );
            assert_eq!(last_board(standin).id, before.id);
        }
        if !checked_autocomplete && mv.contains(' ') {
            // Rule 4: the turn is built a step at a time from the suggestions.
            let first = mv.split(' ').next().unwrap();
            let typed = format!("{first} ");
            let ac = autocomplete(
                "move",
                json!([{"name": "notation", "type": 3, "value": typed, "focused": true}]),
                mover,
                CHANNEL,
                Some(GUILD),
            );
            let out = interact(standin, &bot, ac).await;
            let cb = callback(&out);
            assert_eq!(cb.kind, 8);
            let choices: Vec<&str> = cb.data["choices"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["value"].as_str().unwrap())
                .collect();
            assert!(choices.len() <= 25 && choices[0] == first, "{choices:?}");
            assert!(choices.iter().all(|c| c.starts_with(first)), "{choices:?}");
            let ac = autocomplete(
                "move",
                json!([{"name": "notation", "type": 3, "value": "", "focused": true}]),
                other,
                CHANNEL,
                Some(GUILD),
            );
            let out = interact(standin, &bot, ac).await;
            let answer = callback(&out);
            let names: Vec<&str> = answer.data["choices"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["name"].as_str().unwrap())
                .collect();
            assert_eq!(names.len(), 1);
            assert!(names[0].starts_with("Not your turn"), "{names:?}");
            checked_autocomplete = true;
        }
        let out = slash(
            standin,
            &bot,
            mover,
            "move",
            json!([{"name": "notation", "type": 3, "value": mv}]),
        )
        .await;
        let cb = callback(&out);
        assert!(
            !ephemeral(&cb),
            "{mv} was refused: {}\n{}",
            text(&cb),
            bot.log()
        );
        // Every accepted move posts the board image.
        assert!(
            cb.files
                .iter()
                .any(|(_, n, b)| n.ends_with(".png") && b.starts_with(b"\x89PNG")),
            "{mv}: no board"
        );
        let users = cb.data["allowed_mentions"]["users"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert!(
            users.len() <= 1,
            "only the player to move is pinged: {users:?}"
        );
        // The previous board loses its buttons.
        assert_eq!(
            button_ids(&standin.message(&before.id).unwrap()),
            Vec::<String>::new(),
            "after {mv}"
        );
    }
    let last = last_board(standin);
    assert!(last.content.contains("wins"), "{}", last.content);
    assert!(
        button_ids(&last).is_empty(),
        "a finished game has no buttons: {:?}",
        last.components
    );
    assert!(checked_autocomplete);
    timings(&bot.log());
}

/// A whole Croquet game played with the step buttons only.
async fn croquet_game(standin: &StandIn, bot: &Bot) {
    let (alice, bob) = (Person::new("alice"), Person::new("bob"));
    let players = [&alice, &bob];
    challenge(standin, bot, &alice, &bob, 2).await;
    for _ in 0..200 {
        let board = last_board(standin);
        let Some(mover) = to_move(standin, &players) else {
            break;
        };
        if board.content.contains("wins") {
            break;
        }
        let ids = button_ids(&board);
        let step = ids
            .iter()
            .find(|id| id.starts_with("muster:move "))
            .unwrap_or_else(|| panic!("no step buttons: {ids:?}"));
        assert!(ids.contains(&"muster:board".to_string()));
        let out = press(standin, bot, mover, step, &board).await;
        let edits = out
            .iter()
            .filter(|r| r.is("PATCH", &format!("/messages/{}", board.id)))
            .count();
        assert_eq!(
            edits,
            1,
            "the pressed board's buttons are removed once: {:?}",
            paths(&out)
        );
        assert!(!ephemeral(&callback(&out)), "{}", text(&callback(&out)));
        assert!(
            button_ids(&standin.message(&board.id).unwrap()).is_empty(),
            "the pressed board keeps no buttons"
        );
    }
    let last = last_board(standin);
    assert!(last.content.contains("wins"), "{}", last.content);
    timings(&bot.log());
}

/// Prints the bot's own timings (`MUSTER_DISCORD_TIMINGS`): from the interaction's arrival to
/// the last REST call of its answer, per command; figures for docs/performance.md, never
/// asserted.
fn timings(log: &str) {
    let mut by: std::collections::BTreeMap<String, Vec<f64>> = Default::default();
    for line in log.lines() {
        // After the log line's time, level and target.
        let Some((_, rest)) = line.split_once("discord: ") else {
            continue;
        };
        let Some((what, ms)) = rest.split_once(" answered in ") else {
            continue;
        };
        let what = what
            .split_whitespace()
            .take(2)
            .collect::<Vec<_>>()
            .join(" ");
        if let Ok(ms) = ms.trim_end_matches(" ms").parse::<f64>() {
            by.entry(what).or_default().push(ms);
        }
    }
    for (what, mut ms) in by {
        ms.sort_by(f64::total_cmp);
        let p = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
        eprintln!(
            "timing {what}: n={} p50={:.2} ms p90={:.2} ms max={:.2} ms",
            ms.len(),
            p(0.5),
            p(0.9),
            p(1.0)
        );
    }
}

#[test]
fn gateway_registers_the_commands_and_plays_lanrick_across_a_restart() {
    runtime().block_on(async {
        let standin = StandIn::start(APP).await;
        let dir = data_dir("discord", "gateway-lanrick");
        let bot = start(&standin, &dir, Mode::Gateway, &[]).await;
        let put = standin
            .wait_for(
                "command registration",
                |r| {
                    r.is(
                        "PUT",
                        &format!("/applications/{APP}/guilds/{GUILD}/commands"),
                    )
                },
                WAIT,
            )
            .await;
        let names: Vec<&str> = put
            .json
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        assert_eq!(names.len(), 32, "{names:?}");
        for name in [
            "move",
            "new",
            "tournament",
            "replay",
            "link",
            "whoami",
            "learn",
            "puzzle",
        ] {
            assert!(names.contains(&name), "/{name} in {names:?}");
        }
        lanrick_game(&standin, bot, &dir, Mode::Gateway, true).await;
        let _ = std::fs::remove_dir_all(&dir);
    });
}

#[test]
fn gateway_plays_croquet_with_buttons_and_keeps_permissions() {
    runtime().block_on(async {
        let standin = StandIn::start(APP).await;
        let dir = data_dir("discord", "gateway-croquet");
        let bot = start(&standin, &dir, Mode::Gateway, &[("MUSTER_DISCORD_DEFER_AFTER_MS", "0")]).await;
        croquet_game(&standin, &bot).await;
        // Deferred replies: with 0 ms every answer is deferred first, then edited in.
        assert!(standin.requests().iter().any(|r| r.callback_type() == Some(5)));
        assert!(standin.requests().iter().any(|r| r.is("PATCH", "/messages/@original")));
        // A busy channel offers a thread; the button opens one and posts the challenge there.
        let (alice, bob, carol) = (Person::new("alice"), Person::new("bob"), Person::new("carol"));
        slash(&standin, &bot, &alice, "new", json!([{"name": "game", "type": 4, "value": 0}, {"name": "opponent", "type": 6, "value": bob.id}])).await;
        let out = slash(&standin, &bot, &carol, "new", json!([{"name": "game", "type": 4, "value": 2}, {"name": "opponent", "type": 6, "value": bob.id}])).await;
        let cb = callback(&out);
        assert!(text(&cb).contains("already has a game"), "{}", text(&cb));
        let offer = standin.messages().into_iter().rev().find(|m| m.content.contains("already has a game")).unwrap();
        let id = button_ids(&offer)[0].clone();
        assert!(id.starts_with("muster:thread new croquet"), "{id}");
        press(&standin, &bot, &carol, &id, &offer).await;
        let threads = standin.threads();
        assert_eq!(threads.len(), 1);
        assert_eq!(threads[0]["name"], "Arithmetical Croquet (1889) — Carol");
        let thread = threads[0]["id"].as_str().unwrap();
        let posted = standin.messages().into_iter().find(|m| m.channel_id == thread).expect("the challenge in the thread");
        assert!(posted.content.contains(&format!("{} Carol challenges you", bob.mention())), "{}", posted.content);
        // Only players may resign; only organisers may call off a started game.
        let out = slash(&standin, &bot, &carol, "resign", json!([])).await;
        assert!(ephemeral(&callback(&out)));
        let _ = std::fs::remove_dir_all(&dir);
    });
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

#[test]
fn http_endpoint_checks_signatures_and_plays_both_games() {
    runtime().block_on(async {
        let standin = StandIn::start(APP).await;
        let dir = data_dir("discord", "http");
        let bot = start(&standin, &dir, Mode::Http, &[]).await;
        let url = bot.endpoint.clone().unwrap();
        standin
            .wait_for("command registration", |r| r.is("PUT", "/commands"), WAIT)
            .await;
        // PING is answered with PONG.
        let (status, body) = discord::post_signed(&url, &discord::ping()).await;
        assert_eq!((status, body.as_str()), (200, "{\"type\":1}"));
        // A tampered body, a forged signature, a stale timestamp, no signature: 401.
        let body = serde_json::to_vec(&discord::ping()).unwrap();
        let ts = now().to_string();
        let good = discord::sign(&body, &ts);
        let mut tampered = body.clone();
        tampered.push(b' ');
        assert_eq!(
            discord::post_with_signature(&url, &tampered, &good, &ts)
                .await
                .0,
            401
        );
        let forged = "00".repeat(64);
        assert_eq!(
            discord::post_with_signature(&url, &body, &forged, &ts)
                .await
                .0,
            401
        );
        let old = (now() - 600).to_string();
        let stale = discord::sign(&body, &old);
        assert_eq!(
            discord::post_with_signature(&url, &body, &stale, &old)
                .await
                .0,
            401
        );
        assert_eq!(
            discord::post_with_signature(&url, &body, "", "").await.0,
            401
        );
        assert_eq!(
            discord::post_with_signature(&url, &body, &good, &ts)
                .await
                .0,
            200
        );
        lanrick_game(&standin, bot, &dir, Mode::Http, true).await;
        let bot = start(&standin, &dir, Mode::Http, &[]).await;
        croquet_game(&standin, &bot).await;
        let _ = std::fs::remove_dir_all(&dir);
    });
}
