//! A tournament on Discord, end to end against the stand-ins: `/tournament` subcommands, the
//! event's name completed as it is typed, a public thread opened under the event's channel for
//! each board with its players mentioned there, the games played in the threads, and each
//! result, the standings and the next round posted in the event's channel as the games end.

use muster_tests::discord::bot::{
    self, Bot, CHANNEL, GUILD, Mode, WAIT, callback, ephemeral, interact, runtime, text,
};
use muster_tests::discord::{Person, StandIn, autocomplete, command};
use muster_tests::{data_dir, muster_binary};
use serde_json::{Value, json};

/// A member's permissions without Manage Server (the fixture's member has them all).
const MEMBER: &str = "2248473465835073";

async fn start(standin: &StandIn, mode: Mode) -> Bot {
    let dir = data_dir("discord-tournament", &format!("{mode:?}"));
    bot::start(standin, &muster_binary!(), &dir, mode, &[]).await
}

/// `/tournament <sub>` with `options` by `who` in `channel`; the answer.
async fn sub(
    standin: &StandIn,
    bot: &Bot,
    who: &Person,
    channel: &str,
    name: &str,
    options: Value,
) -> bot::Answer {
    let mut interaction = command(
        "tournament",
        json!([{"name": name, "type": 1, "options": options}]),
        who,
        channel,
        Some(GUILD),
    );
    // Members who may not manage the server: only the event's creator organises it.
    interaction["member"]["permissions"] = json!(MEMBER);
    callback(&interact(standin, bot, interaction).await)
}

/// The thread named `name` the bot opened under the event's channel: its id.
async fn thread(standin: &StandIn, name: &str) -> String {
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        if let Some(t) = standin.threads().into_iter().find(|t| t["name"] == name) {
            assert_eq!(t["parent_id"], CHANNEL, "{t}");
            assert_eq!(t["type"], 11, "a public thread: {t}");
            return t["id"].as_str().unwrap().to_string();
        }
        assert!(std::time::Instant::now() < deadline, "no thread {name}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

#[test]
fn a_round_robin_is_run_with_slash_commands_and_played_in_threads() {
    runtime().block_on(async {
        for mode in [Mode::Gateway, Mode::Http] {
            let standin = StandIn::start(bot::APP).await;
            let bot = start(&standin, mode).await;
            let (org, bob, cat) = (Person::new("org"), Person::new("bob"), Person::new("cat"));
            let opened = sub(
                &standin,
                &bot,
                &org,
                CHANNEL,
                "new",
                json!([
                    {"name": "name", "type": 3, "value": "spring"},
                    {"name": "game", "type": 4, "value": 2},
                    {"name": "system", "type": 4, "value": 1}
                ]),
            )
            .await;
            assert!(!ephemeral(&opened), "{}", text(&opened));
            assert!(
                text(&opened).contains("opened the event **spring**"),
                "{}",
                text(&opened)
            );

            // The name completes from the server's events.
            let typed = autocomplete(
                "tournament",
                json!([{"name": "join", "type": 1, "options": [
                    {"name": "name", "type": 3, "value": "sp", "focused": true}
                ]}]),
                &bob,
                CHANNEL,
                Some(GUILD),
            );
            let requests = interact(&standin, &bot, typed).await;
            let choices = requests
                .iter()
                .find(|r| r.callback_type() == Some(8))
                .map(|r| r.json["data"]["choices"].clone())
                .expect("an autocomplete answer");
            assert_eq!(choices, json!([{"name": "spring", "value": "spring"}]));

            for p in [&bob, &cat] {
                let joined = sub(&standin, &bot, p, CHANNEL, "join", json!([])).await;
                assert!(
                    text(&joined).contains("entered in spring"),
                    "{}",
                    text(&joined)
                );
            }
            // Only the organiser starts it; bob is told privately.
            let refused = sub(&standin, &bot, &bob, CHANNEL, "start", json!([])).await;
            assert!(ephemeral(&refused), "{}", text(&refused));
            assert!(
                text(&refused).contains("Only the event's organisers"),
                "{}",
                text(&refused)
            );
            let started = sub(&standin, &bot, &org, CHANNEL, "start", json!([])).await;
            assert!(
                text(&started).contains("starts spring"),
                "{}",
                text(&started)
            );

            // The board's thread opens under the channel; the game starts there, bob to move.
            let board = thread(&standin, "spring-1-1").await;
            let first = standin
                .wait_message(
                    "the game's start in its thread",
                    |m| m.channel_id == board && m.content.contains("spring · round 1 · board 1"),
                    WAIT,
                )
                .await;
            assert!(first.interaction_token.is_none());
            let turn = standin
                .wait_message(
                    "bob's turn in the thread",
                    |m| {
                        m.channel_id == board
                            && m.content.contains(&format!("{} your turn", bob.mention()))
                    },
                    WAIT,
                )
                .await;
            // Both players are pinged there: bob to move, cat told which side he plays.
            assert!(
                turn.content.contains(&format!(
                    "{} you play Black here; Bob decides first.",
                    cat.mention()
                )),
                "{}",
                turn.content
            );
            assert_eq!(
                turn.allowed_mentions["users"],
                json!([cat.id, bob.id]),
                "{}",
                turn.content
            );
            let listed = standin
                .wait_message(
                    "the round in the event's channel",
                    |m| m.channel_id == CHANNEL && m.content.contains("spring · round 1 of 1"),
                    WAIT,
                )
                .await;
            assert!(
                listed.content.contains(&format!("<#{board}>")),
                "{}",
                listed.content
            );
            // Both players are pinged in the event's channel, told where their game is.
            assert!(
                listed.content.contains(&format!(
                    "{} your round 1 game (board 1, White, against Cat) is in <#{board}>",
                    bob.mention()
                )),
                "{}",
                listed.content
            );
            let mut pinged: Vec<String> = listed.allowed_mentions["users"]
                .as_array()
                .unwrap()
                .iter()
                .map(|u| u.as_str().unwrap().to_string())
                .collect();
            pinged.sort();
            let mut players = vec![bob.id.clone(), cat.id.clone()];
            players.sort();
            assert_eq!(pinged, players, "{listed:?}");

            // Two steps each, then bob resigns in the thread: the event takes the result at
            // once and is over, and the game (a tournament game) is rated in the same answer.
            for (who, step) in [(&bob, "1"), (&cat, "2"), (&bob, "3"), (&cat, "4")] {
                let options = json!([{"name": "notation", "type": 3, "value": step}]);
                let moved = command("move", options, who, &board, Some(GUILD));
                let answer = callback(&interact(&standin, &bot, moved).await);
                assert!(!ephemeral(&answer), "{}", text(&answer));
            }
            let resign = command("resign", json!([]), &bob, &board, Some(GUILD));
            let answer = callback(&interact(&standin, &bot, resign).await);
            assert!(text(&answer).contains("resigns"), "{}", text(&answer));
            assert!(
                text(&answer)
                    .ends_with("Ratings: Bob 1500? → 1338? (−162) · Cat 1500? → 1662? (+162)."),
                "{}",
                text(&answer)
            );
            let result = standin
                .wait_message(
                    "the result in the event's channel",
                    |m| {
                        m.channel_id == CHANNEL
                            && m.content
                                .contains("spring · round 1 · board 1: Bob 0-1 Cat")
                    },
                    WAIT,
                )
                .await;
            assert!(result.interaction_token.is_none());
            // The standings come as text and as a table image.
            let table = standin
                .wait_message(
                    "the standings table",
                    |m| {
                        m.channel_id == CHANNEL
                            && m.attachments
                                .iter()
                                .any(|a| a.0 == "spring-standings-1.png")
                    },
                    WAIT,
                )
                .await;
            let png = &table
                .attachments
                .iter()
                .find(|a| a.0 == "spring-standings-1.png")
                .unwrap()
                .1;
            assert!(
                png.starts_with(b"\x89PNG") && png.len() > 2000,
                "{} bytes",
                png.len()
            );
            standin
                .wait_message(
                    "the end of the event",
                    |m| {
                        m.channel_id == CHANNEL
                            && m.content.contains("spring is over. The winner: Cat.")
                    },
                    WAIT,
                )
                .await;
            // The export is a JSON file.
            let export = sub(&standin, &bot, &cat, CHANNEL, "export", json!([])).await;
            let (_, name, bytes) = export.files.first().expect("the export file").clone();
            assert_eq!(name, "spring.json");
            let x: Value = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(x["rounds"][0]["pairings"][0]["result"], "0-1");
            assert_eq!(x["rounds"][0]["pairings"][0]["channel"], board);
            bot.terminate();
        }
    });
}
