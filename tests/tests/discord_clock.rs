//! Correspondence clocks on Discord, end to end: `muster serve --clock manual` against the
//! stand-ins, its clock moved through standard input (`~ +2d`). Reminders and timeouts come
//! from no interaction: the bot posts them in the game's channel (a mention of the player to
//! move, Discord timestamps, the board at the end), or in a direct message it opens, and a
//! user sees them as below. The slash commands `/new clock: timeout:`, `/notify`, `/vacation`
//! and `/claim` answer as the text commands do.

use muster_tests::discord::bot::{
    self, Bot, CHANNEL, Mode, WAIT, callback, ephemeral, runtime, slash, text, timed_game,
};
use muster_tests::discord::{Person, StandIn, StoredMessage};
use muster_tests::{data_dir, muster_binary};
use serde_json::{Value, json};

/// When the suites' games begin: the bot's manual clock starts here.
const START: &str = "2026-11-25T10:00:00Z";

/// What each test starts from, for the test `name` in `mode`: a Discord stand-in, `muster
/// serve` on a manual clock at [`START`] against it (and its data directory), alice and bob.
async fn world(name: &str, mode: Mode) -> (StandIn, Bot, std::path::PathBuf, Person, Person) {
    let standin = StandIn::start(bot::APP).await;
    let dir = data_dir("discord-clock", &format!("{name}-{mode:?}"));
    let bot = bot::start_at(&standin, &muster_binary!(), &dir, mode, &[], START).await;
    (standin, bot, dir, Person::new("alice"), Person::new("bob"))
}

/// The bot's own messages in the game's channel (not answers to interactions), oldest first.
fn posted_in_channel(standin: &StandIn) -> Vec<StoredMessage> {
    standin
        .messages()
        .into_iter()
        .filter(|m| m.channel_id == CHANNEL && m.interaction_token.is_none())
        // What a game lost on time means for the ratings follows its announcement, a moment
        // later: counted by the tests that look at ratings, not here.
        .filter(|m| !m.content.starts_with("Not rated"))
        .collect()
}

/// The users a message may ping.
fn pinged(m: &StoredMessage) -> Value {
    m.allowed_mentions["users"].clone()
}

/// Whether `content` shows a deadline as Discord's own timestamp, `<t:UNIX:f> (<t:UNIX:R>)`,
/// at `unix`.
fn shows_deadline(content: &str, unix: u64) -> bool {
    content.contains(&format!("<t:{unix}:f>")) && content.contains(&format!("<t:{unix}:R>"))
}

/// 2026-11-28T10:00:00Z: three days after [`START`], alice's deadline.
const DEADLINE: u64 = 1_795_860_000;

#[test]
fn a_reminder_mentions_the_player_then_the_timeout_ends_the_game_with_the_board() {
    runtime().block_on(async {
        for mode in [Mode::Gateway, Mode::Http] {
            let (standin, bot, dir, alice, bob) = world("timeout", mode).await;
            timed_game(
                &standin,
                &bot,
                &alice,
                &bob,
                json!([{"name": "clock", "type": 3, "value": "3d"}]),
            )
            .await;
            assert!(posted_in_channel(&standin).is_empty());

            // Two days on, a day is left: alice is pinged in the channel, and only she is.
            assert_eq!(bot.advance("+2d").await, "2026-11-27T10:00:00Z");
            let reminder = standin
                .wait_message(
                    "the reminder in the channel",
                    |m| m.channel_id == CHANNEL && m.content.contains("left for your move"),
                    WAIT,
                )
                .await;
            assert!(reminder.interaction_token.is_none(), "{reminder:?}");
            assert!(
                reminder.content.starts_with(&alice.mention()),
                "{}",
                reminder.content
            );
            assert!(reminder.content.contains("1d left"), "{}", reminder.content);
            assert!(
                shows_deadline(&reminder.content, DEADLINE),
                "{}",
                reminder.content
            );
            assert_eq!(pinged(&reminder), json!([alice.id]), "{reminder:?}");
            assert_eq!(
                reminder.flags & 64,
                0,
                "a channel message is seen by everyone"
            );

            // The third day ends: alice never moved, so she forfeits and bob wins; the final
            // board comes with it, described for screen readers.
            assert_eq!(bot.advance("+1d").await, "2026-11-28T10:00:00Z");
            let ended = standin
                .wait_message(
                    "the timeout in the channel",
                    |m| m.channel_id == CHANNEL && m.content.contains("time ran out"),
                    WAIT,
                )
                .await;
            // Stored with the game's end before it is posted, it carries a nonce Discord is
            // asked to enforce: posted again after a crash, it would be made once.
            let posted = standin
                .requests()
                .into_iter()
                .find(|r| {
                    r.is("POST", &format!("/channels/{CHANNEL}/messages"))
                        && r.json["content"]
                            .as_str()
                            .is_some_and(|c| c.contains("time ran out"))
                })
                .expect("the announcement's request");
            assert_eq!(posted.json["enforce_nonce"], true, "{}", posted.json);
            assert!(
                posted.json["nonce"].as_str().is_some_and(|n| n.len() <= 25),
                "{}",
                posted.json
            );
            let said = ended.content.to_lowercase();
            assert!(said.contains("alice"), "{}", ended.content);
            assert!(said.contains("forfeit"), "{}", ended.content);
            assert!(
                said.contains("bob") && said.contains("win"),
                "{}",
                ended.content
            );
            // Commands named in a notice are the ones players type here.
            assert!(ended.content.contains("`/export "), "{}", ended.content);
            assert!(
                ended
                    .attachments
                    .iter()
                    .any(|(name, bytes)| name.ends_with(".png") && bytes.starts_with(b"\x89PNG")),
                "{ended:?}"
            );
            let alt = ended.object["attachments"][0]["description"]
                .as_str()
                .unwrap_or_default();
            assert!(
                !alt.is_empty(),
                "the board has alt text: {:?}",
                ended.object
            );
            // Before the end, one more reminder at an hour left, and nothing else.
            let posted = posted_in_channel(&standin);
            let texts: Vec<&str> = posted.iter().map(|m| m.content.as_str()).collect();
            assert_eq!(posted.len(), 3, "{texts:#?}");
            assert!(texts[1].contains("1h left"), "{texts:#?}");

            // The record says how and when the game ended.
            let id = ended
                .content
                .split("export ")
                .nth(1)
                .and_then(|rest| rest.split('`').next())
                .expect("the game's id in the announcement")
                .to_string();
            let out = slash(
                &standin,
                &bot,
                &bob,
                "export",
                json!([{"name": "id", "type": 3, "value": id}]),
            )
            .await;
            let answer = callback(&out);
            let record = answer
                .files
                .iter()
                .map(|(_, _, bytes)| String::from_utf8_lossy(bytes).into_owned())
                .next()
                .unwrap_or_else(|| panic!("a record file: {}", text(&answer)));
            assert!(record.contains("# Termination: forfeit"), "{record}");
            assert!(record.contains("# Ended: 2026-11-28T10:00:00Z"), "{record}");
            assert!(record.contains("# Clock: 3d"), "{record}");
            let _ = std::fs::remove_dir_all(dir);
        }
    });
}

#[test]
fn with_notify_dm_the_reminder_comes_as_a_direct_message_and_not_in_the_channel() {
    runtime().block_on(async {
        let (standin, bot, dir, alice, bob) = world("dm", Mode::Http).await;
        // Her settings are hers alone: every answer about them is private.
        let out = slash(
            &standin,
            &bot,
            &alice,
            "notify",
            json!([{"name": "mode", "type": 4, "value": 1}]),
        )
        .await;
        let answer = callback(&out);
        assert!(ephemeral(&answer), "{}", text(&answer));
        assert!(
            text(&answer).contains("a direct message"),
            "{}",
            text(&answer)
        );
        timed_game(
            &standin,
            &bot,
            &alice,
            &bob,
            json!([
                {"name": "clock", "type": 3, "value": "3d"},
                {"name": "timeout", "type": 4, "value": 0},
            ]),
        )
        .await;
        assert_eq!(bot.advance("+2d").await, "2026-11-27T10:00:00Z");
        let dm = standin
            .wait_message(
                "the reminder in a direct message",
                |m| m.channel_id != CHANNEL && m.content.contains("left for your move"),
                WAIT,
            )
            .await;
        // It was opened for her, with her id as Discord wants it, and is where it went.
        let opened: Vec<_> = standin
            .requests()
            .into_iter()
            .filter(|r| r.is("POST", "/users/@me/channels"))
            .collect();
        assert_eq!(opened.len(), 1, "{opened:?}");
        assert_eq!(opened[0].status, 200);
        assert_eq!(opened[0].json, json!({"recipient_id": alice.id}));
        assert_eq!(
            standin.direct_channels(),
            vec![(alice.id.clone(), dm.channel_id.clone())]
        );
        assert_eq!(standin.direct_messages(&alice).len(), 1);
        assert!(dm.content.starts_with("Reminder:"), "{}", dm.content);
        assert!(dm.content.contains("1d left"), "{}", dm.content);
        // It names the game's channel, as a link, and the deadline as a Discord timestamp.
        assert!(
            dm.content.contains(&format!("<#{CHANNEL}>")),
            "{}",
            dm.content
        );
        assert!(shows_deadline(&dm.content, DEADLINE), "{}", dm.content);
        // The hour-left reminder goes there too; the timeout, which is everyone's news, to the
        // channel. Notices go out in order, so by then nothing else came to the channel.
        bot.advance("+1d").await;
        standin
            .wait_message(
                "the timeout in the channel",
                |m| m.channel_id == CHANNEL && m.content.contains("time ran out"),
                WAIT,
            )
            .await;
        let posted = posted_in_channel(&standin);
        assert_eq!(posted.len(), 1, "{posted:#?}");
        let dms = standin.direct_messages(&alice);
        assert_eq!(dms.len(), 2, "{dms:#?}");
        assert!(dms[1].content.contains("1h left"), "{}", dms[1].content);
        assert!(standin.direct_messages(&bob).is_empty());
        let _ = std::fs::remove_dir_all(dir);
    });
}

#[test]
fn notify_vacation_and_claim_answer_privately_and_notify_takes_several_settings_at_once() {
    runtime().block_on(async {
        let (standin, bot, dir, alice, bob) = world("settings", Mode::Gateway).await;
        let private = |out: &[muster_tests::discord::Recorded]| {
            let answer = callback(out);
            assert!(ephemeral(&answer), "{}", text(&answer));
            text(&answer)
        };
        // Three settings in one command: one answer, telling them all.
        let out = slash(
            &standin,
            &bot,
            &alice,
            "notify",
            json!([
                {"name": "mode", "type": 4, "value": 0},
                {"name": "remind", "type": 3, "value": "12h 2h"},
                {"name": "quiet", "type": 3, "value": "22:00-07:00 Europe/Berlin"},
            ]),
        )
        .await;
        let said = private(&out);
        assert!(said.contains("a mention in the game's channel"), "{said}");
        assert!(said.contains("12h and 2h"), "{said}");
        assert!(said.contains("22:00-07:00 Europe/Berlin"), "{said}");
        // One the core cannot read: its words, and nothing of the others changed.
        let out = slash(
            &standin,
            &bot,
            &alice,
            "notify",
            json!([
                {"name": "mode", "type": 4, "value": 2},
                {"name": "remind", "type": 3, "value": "soon"},
            ]),
        )
        .await;
        let said = private(&out);
        assert!(said.contains("soon"), "{said}");
        let said = private(&slash(&standin, &bot, &alice, "notify", json!([])).await);
        assert!(said.contains("a mention in the game's channel"), "{said}");
        assert!(said.contains("12h and 2h"), "{said}");
        // Vacation: what is left; days alone start one.
        let said = private(&slash(&standin, &bot, &alice, "vacation", json!([])).await);
        assert!(said.contains("not on vacation"), "{said}");
        let out = slash(
            &standin,
            &bot,
            &alice,
            "vacation",
            json!([{"name": "days", "type": 4, "value": 3}]),
        )
        .await;
        let said = private(&out);
        assert!(said.contains("Your vacation runs until"), "{said}");
        let out = slash(
            &standin,
            &bot,
            &alice,
            "vacation",
            json!([{"name": "action", "type": 4, "value": 1}]),
        )
        .await;
        assert!(private(&out).contains("Welcome back"));
        // A claim before the clock ran out is refused, privately.
        timed_game(
            &standin,
            &bot,
            &alice,
            &bob,
            json!([
                {"name": "clock", "type": 3, "value": "1d"},
                {"name": "timeout", "type": 4, "value": 1},
            ]),
        )
        .await;
        let said = private(&slash(&standin, &bot, &bob, "claim", json!([])).await);
        assert!(said.contains("has not run out"), "{said}");
        // Once it has, everyone hears that bob may claim; his claim ends the game.
        bot.advance("+1d").await;
        let flagged = standin
            .wait_message(
                "the announcement that alice's time ran out",
                |m| m.channel_id == CHANNEL && m.content.contains("may `/claim` the win"),
                WAIT,
            )
            .await;
        assert!(
            flagged.content.contains("time ran out"),
            "{}",
            flagged.content
        );
        let out = slash(&standin, &bot, &bob, "claim", json!([])).await;
        let answer = callback(&out);
        assert!(!ephemeral(&answer), "{}", text(&answer));
        assert!(text(&answer).contains("forfeit"), "{}", text(&answer));
        let _ = std::fs::remove_dir_all(dir);
    });
}

#[test]
fn a_refused_direct_message_and_a_rate_limit_lose_nothing_else() {
    runtime().block_on(async {
        let (standin, bot, dir, alice, bob) = world("refused", Mode::Gateway).await;
        slash(
            &standin,
            &bot,
            &alice,
            "notify",
            json!([{"name": "mode", "type": 4, "value": 1}]),
        )
        .await;
        // alice accepts no direct message: her reminder cannot be delivered there, which is
        // logged, and she is reminded in the game's channel instead.
        standin.refuse_direct_messages(&alice);
        timed_game(
            &standin,
            &bot,
            &alice,
            &bob,
            json!([{"name": "clock", "type": 3, "value": "3d"}]),
        )
        .await;
        bot.advance("+2d").await;
        bot.wait_log("the refused reminder logged", |log| {
            log.lines()
                .find(|l| l.contains("a notice could not be sent to") && l.contains(&alice.id))
                .map(str::to_string)
        })
        .await;
        let instead = standin
            .wait_message(
                "the reminder in the channel instead",
                |m| m.channel_id == CHANNEL && m.content.contains("1d left for your move"),
                WAIT,
            )
            .await;
        assert!(
            instead.content.contains(&format!("<@{}>", alice.id)),
            "{}",
            instead.content
        );
        // Discord is busy when the game ends: the announcement waits and then goes out.
        standin.throttle("POST", &format!("/channels/{CHANNEL}/messages"), 1);
        bot.advance("+1d").await;
        standin
            .wait_message(
                "the timeout in the channel",
                |m| m.channel_id == CHANNEL && m.content.contains("time ran out"),
                WAIT,
            )
            .await;
        let throttled = standin
            .requests()
            .into_iter()
            .filter(|r| r.status == 429)
            .count();
        assert_eq!(throttled, 1);
        assert!(bot.log().contains("too many requests"), "{}", bot.log());
        let _ = std::fs::remove_dir_all(dir);
    });
}

#[test]
fn a_timeout_announced_while_discord_is_down_is_posted_once_when_it_is_back() {
    runtime().block_on(async {
        let (standin, bot, dir, alice, bob) = world("outage", Mode::Gateway).await;
        timed_game(
            &standin,
            &bot,
            &alice,
            &bob,
            json!([{"name": "clock", "type": 3, "value": "3d"}]),
        )
        .await;
        // Discord's API answers 503 to everything; the third day ends meanwhile.
        standin.rest_outage(true);
        assert_eq!(bot.advance("+3d").await, "2026-11-28T10:00:00Z");
        // The timeout's announcement (kept as `notice.timeout.<game>`) could not be posted.
        bot.wait_log("the announcement kept for later", |l| {
            (l.contains("Discord cannot take a notice now") && l.contains("notice.timeout."))
                .then_some(())
        })
        .await;
        let announced = |standin: &StandIn| {
            posted_in_channel(standin)
                .iter()
                .filter(|m| m.content.contains("time ran out"))
                .count()
        };
        assert_eq!(announced(&standin), 0);
        // Discord is back: the announcement comes at the next try, once.
        standin.rest_outage(false);
        standin
            .wait_message(
                "the timeout in the channel",
                |m| m.channel_id == CHANNEL && m.content.contains("time ran out"),
                WAIT,
            )
            .await;
        // Another try's time passes: it is not posted again.
        tokio::time::sleep(std::time::Duration::from_secs(12)).await;
        assert_eq!(announced(&standin), 1);
        bot.terminate();
        let _ = std::fs::remove_dir_all(&dir);
    });
}
