//! Replays on Discord, end to end against the stand-ins: a game ended by a resignation is
//! followed by its replay as a GIF attachment in a message of its own, and `/replay` posts any
//! game's replay; each GIF decodes to one frame for the start and one a decision.

use muster_tests::discord::bot::{self, Bot, Mode, callback, press, runtime, slash};
use muster_tests::discord::{Person, StandIn};
use muster_tests::{data_dir, muster_binary};
use serde_json::json;

/// Frames in a GIF.
fn frames(bytes: &[u8]) -> usize {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options
        .read_info(std::io::Cursor::new(bytes))
        .expect("a GIF");
    let mut n = 0;
    while decoder.read_next_frame().expect("a frame").is_some() {
        n += 1;
    }
    n
}

/// The GIFs the bot has posted, in order: file name and bytes.
fn gifs(standin: &StandIn) -> Vec<(String, Vec<u8>)> {
    standin
        .messages()
        .into_iter()
        .flat_map(|m| m.attachments)
        .filter(|(name, bytes)| name.ends_with(".gif") && bytes.starts_with(b"GIF8"))
        .collect()
}

async fn croquet_game(standin: &StandIn, bot: &Bot, alice: &Person, bob: &Person) {
    let options = json!([
        {"name": "game", "type": 4, "value": 2},
        {"name": "opponent", "type": 6, "value": bob.id},
    ]);
    slash(standin, bot, alice, "new", options).await;
    let challenge = bot::newest_saying(standin, "challenges you");
    press(standin, bot, bob, "muster:accept", &challenge).await;
    for (who, step) in [(alice, "3"), (bob, "4"), (alice, "2")] {
        let out = slash(
            standin,
            bot,
            who,
            "move",
            json!([{"name": "notation", "type": 3, "value": step}]),
        )
        .await;
        assert!(
            !bot::ephemeral(&callback(&out)),
            "{}",
            bot::text(&callback(&out))
        );
    }
}

#[test]
fn a_resigned_game_is_followed_by_its_replay_and_replay_posts_one() {
    runtime().block_on(async {
        let standin = StandIn::start(bot::APP).await;
        let dir = data_dir("discord-replays", "gateway");
        let bot = bot::start(&standin, &muster_binary!(), &dir, Mode::Gateway, &[]).await;
        let (alice, bob) = (Person::new("alice"), Person::new("bob"));
        croquet_game(&standin, &bot, &alice, &bob).await;
        assert!(gifs(&standin).is_empty(), "no replay before the end");
        let out = slash(&standin, &bot, &bob, "resign", json!([])).await;
        assert!(bot::text(&callback(&out)).contains("resigns"));
        // The replay comes after the result, in a message of its own.
        let posted = standin
            .wait_message(
                "the replay",
                |m| m.attachments.iter().any(|(n, _)| n == "g0-replay.gif"),
                bot::WAIT,
            )
            .await;
        assert!(
            posted.attachments.iter().all(|(n, _)| n.ends_with(".gif")),
            "{posted:?}"
        );
        let all = gifs(&standin);
        assert_eq!(all.len(), 1);
        assert_eq!(frames(&all[0].1), 4, "the start and three decisions");
        // On request, later, by id.
        let out = slash(
            &standin,
            &bot,
            &alice,
            "replay",
            json!([{"name": "id", "type": 3, "value": "g0"}]),
        )
        .await;
        let answer = callback(&out);
        assert!(
            bot::text(&answer).contains("The replay of g0"),
            "{}",
            bot::text(&answer)
        );
        let mut all = gifs(&standin);
        all.extend(answer.files.iter().map(|(_, n, b)| (n.clone(), b.clone())));
        let asked = all.iter().filter(|(n, _)| n == "g0-replay.gif").count();
        assert!(asked >= 2, "the replay was posted again: {asked}");
        let _ = std::fs::remove_dir_all(&dir);
    });
}
