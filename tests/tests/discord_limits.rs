//! Muster on Discord at Discord's limits, end to end against the stand-ins (which refuse what
//! Discord refuses), over the gateway and the HTTP endpoint: absurdly long option values, a
//! button that is not Muster's, options the bot cannot read, and errors when answers are
//! deferred. Each interaction must end in exactly one non-empty, valid response that only the
//! right people see; a user never meets "This interaction failed".

use muster_tests::discord::bot::{
    self, Bot, CHANNEL, GUILD, MAX_CONTENT, Mode, button_ids, callback, interact, paths, runtime,
    slash, sole_message,
};
use muster_tests::discord::{
    Person, Recorded, StandIn, StoredMessage, autocomplete, button, command,
};
use muster_tests::{data_dir, muster_binary};
use serde_json::{Value, json};

async fn start(standin: &StandIn, name: &str, mode: Mode, extra: &[(&str, &str)]) -> Bot {
    let dir = data_dir("discord-limits", &format!("{name}-{mode:?}"));
    bot::start(standin, &muster_binary!(), &dir, mode, extra).await
}

/// The one message answering `interaction`, after checking it was the only response and that
/// it was ephemeral (only the user sees it) from the first callback on: never a public
/// "thinking…" first (a private acknowledgement may come first).
async fn private_answer(standin: &StandIn, bot: &Bot, interaction: Value) -> StoredMessage {
    let token = interaction["token"].as_str().expect("a token").to_string();
    let out = interact(standin, bot, interaction).await;
    let first = out
        .iter()
        .find(|r| r.callback_type().is_some())
        .expect("a callback");
    // An answer at once, or (when it takes longer, as a first search of Croquet's table may)
    // an acknowledgement first: either private.
    assert!(
        matches!(first.callback_type(), Some(4 | 5))
            && first.json["data"]["flags"].as_u64() == Some(64),
        "private from the first byte: {:?}",
        paths(&out)
    );
    let m = sole_message(standin, &out, &token);
    assert_eq!(m.flags & 64, 64, "{m:?}");
    m
}

/// `/move` with `notation` by `who`.
fn play(who: &Person, notation: &str) -> Value {
    let options = json!([{"name": "notation", "type": 3, "value": notation}]);
    command("move", options, who, CHANNEL, Some(GUILD))
}

/// `n` characters of move-like words, as a paste gone wrong might give.
fn pasted(n: usize) -> String {
    "c1-c3 d1-e2 ".chars().cycle().take(n).collect()
}

#[test]
fn over_long_option_values_get_one_short_private_answer() {
    runtime().block_on(async {
        for mode in [Mode::Gateway, Mode::Http] {
            let standin = StandIn::start(bot::APP).await;
            let bot = start(&standin, "long", mode, &[]).await;
            let ada = Person::new("ada");
            // 4,000 characters, and 100 KB mixing multi-byte letters: refused, quoting an
            // excerpt with an ellipsis, never the whole value.
            let huge: String = "é1-ç3 ✓ ".chars().cycle().take(100 * 1024 / 2).collect();
            for value in [pasted(4000), huge] {
                let m = private_answer(&standin, &bot, play(&ada, &value)).await;
                assert!(m.content.contains("too long"), "{mode:?}: {}", m.content);
                assert!(m.content.contains('…'), "{}", m.content);
                assert!(m.content.chars().count() < 400, "{}", m.content);
            }
            // Longer than any move, shorter than the longest command: still a short answer.
            let m = private_answer(&standin, &bot, play(&ada, &pasted(150))).await;
            let said = "no move of any game is longer than 100";
            assert!(m.content.contains(said), "{}", m.content);
            assert!(m.content.contains('…') && m.content.chars().count() < 400);
            // Other free-text options.
            for (name, option) in [("help", "command"), ("export", "id"), ("join", "seat")] {
                let options = json!([{"name": option, "type": 3, "value": "x".repeat(4000)}]);
                let asked = command(name, options, &ada, CHANNEL, Some(GUILD));
                let m = private_answer(&standin, &bot, asked).await;
                assert!(m.content.chars().count() < 400, "/{name}: {}", m.content);
            }
            // Suggestions for a 100 KB value: one answer Discord takes (at most 25 choices,
            // each name and value 1 to 100 characters; the stand-in refuses anything else).
            let options = json!([{"name": "notation", "type": 3, "value": pasted(100 * 1024), "focused": true}]);
            let typed = autocomplete("move", options, &ada, CHANNEL, Some(GUILD));
            let out = interact(&standin, &bot, typed).await;
            let callbacks = out.iter().filter(|r| r.callback_type().is_some()).count();
            assert_eq!(callbacks, 1, "{:?}", paths(&out));
            let answer = callback(&out);
            assert_eq!(answer.kind, 8);
            let choices = answer.data["choices"].as_array().expect("choices");
            assert!((1..=25).contains(&choices.len()), "{choices:?}");
            let _ = std::fs::remove_dir_all(data_dir("discord-limits", &format!("long-{mode:?}")));
        }
    });
}

#[test]
fn a_button_that_is_not_muster_s_is_answered_privately() {
    runtime().block_on(async {
        for mode in [Mode::Gateway, Mode::Http] {
            let standin = StandIn::start(bot::APP).await;
            let bot = start(&standin, "foreign", mode, &[]).await;
            let ada = Person::new("ada");
            let on = ("1300000000000000601", CHANNEL);
            for id in ["poll:yes", "board", "MUSTER:board"] {
                let pressed = button(id, on, &ada, CHANNEL, Some(GUILD));
                let m = private_answer(&standin, &bot, pressed).await;
                assert!(
                    m.content.contains("no longer valid"),
                    "{mode:?}: {}",
                    m.content
                );
                assert!(m.content.contains("/board"), "{}", m.content);
                assert!(button_ids(&m).is_empty(), "{m:?}");
            }
            // The message the button was on is left alone.
            assert!(
                !standin.requests().iter().any(|r| r.path.contains(on.0)),
                "{:?}",
                paths(&standin.requests())
            );
            let _ =
                std::fs::remove_dir_all(data_dir("discord-limits", &format!("foreign-{mode:?}")));
        }
    });
}

#[test]
fn commands_the_bot_cannot_read_are_answered_privately() {
    runtime().block_on(async {
        for mode in [Mode::Gateway, Mode::Http] {
            let standin = StandIn::start(bot::APP).await;
            let bot = start(&standin, "unreadable", mode, &[]).await;
            let ada = Person::new("ada");
            // A command registered once but gone now.
            let gone = command("duel", json!([]), &ada, CHANNEL, Some(GUILD));
            let m = private_answer(&standin, &bot, gone).await;
            assert!(
                m.content.contains("not a Muster command"),
                "{mode:?}: {}",
                m.content
            );
            // A game number out of range, and one past what the option's type holds.
            for game in [99, 100_000] {
                let options = json!([{"name": "game", "type": 4, "value": game}]);
                let asked = command("new", options, &ada, CHANNEL, Some(GUILD));
                let m = private_answer(&standin, &bot, asked).await;
                assert!(m.content.contains("/new"), "{mode:?} {game}: {}", m.content);
            }
            let _ = std::fs::remove_dir_all(data_dir(
                "discord-limits",
                &format!("unreadable-{mode:?}"),
            ));
        }
    });
}

/// Whether `r` is the public deferral ("thinking…" seen by all) of an interaction.
fn public_deferral(r: &Recorded) -> bool {
    r.callback_type() == Some(5) && r.json["data"]["flags"].as_u64().unwrap_or(0) & 64 == 0
}

#[test]
fn with_every_board_deferred_errors_stay_private_and_boards_complete() {
    runtime().block_on(async {
        for mode in [Mode::Gateway, Mode::Http] {
            let standin = StandIn::start(bot::APP).await;
            let extra = [("MUSTER_DISCORD_DEFER_AFTER_MS", "0")];
            let bot = start(&standin, "deferred", mode, &extra).await;
            let ada = Person::new("ada");
            let (bruno, carol) = (Person::new("bruno"), Person::new("carol"));
            let options = json!([
                {"name": "game", "type": 4, "value": 0},
                {"name": "opponent", "type": 6, "value": bruno.id},
            ]);
            slash(&standin, &bot, &ada, "new", options).await;
            let challenge = bot::newest_saying(&standin, "challenges you");
            // Someone else's click: refused privately at once, never after a public
            // "thinking…".
            let pressed = button("muster:accept", &challenge, &carol, CHANNEL, Some(GUILD));
            let m = private_answer(&standin, &bot, pressed).await;
            assert!(!m.content.trim().is_empty());
            // The accepted challenge shows the board, drawn after a public "thinking…" that
            // it replaces; /board shows the asker his own view, drawn after a private one.
            let pressed = button("muster:accept", &challenge, &bruno, CHANNEL, Some(GUILD));
            let asked = command("board", Value::Null, &carol, CHANNEL, Some(GUILD));
            for (interaction, public) in [(pressed, true), (asked, false)] {
                let token = interaction["token"].as_str().expect("a token").to_string();
                let out = interact(&standin, &bot, interaction).await;
                if public {
                    assert!(
                        out.iter().any(public_deferral),
                        "{mode:?}: {:?}",
                        paths(&out)
                    );
                } else {
                    assert!(
                        !out.iter().any(public_deferral),
                        "{mode:?}: {:?}",
                        paths(&out)
                    );
                }
                let board = sole_message(&standin, &out, &token);
                let flags = if public { 0 } else { 64 };
                assert_eq!(board.flags, flags, "public {public}: {board:?}");
                let png =
                    |(n, b): &(String, Vec<u8>)| n.ends_with(".png") && b.starts_with(b"\x89PNG");
                assert!(board.attachments.iter().any(png), "{board:?}");
            }
            // Errors in the game: private from the first byte.
            let m = private_answer(&standin, &bot, play(&carol, "c1-c3")).await;
            assert!(!m.content.trim().is_empty());
            let m = private_answer(&standin, &bot, play(&ada, &pasted(4000))).await;
            assert!(m.content.contains("too long") && m.content.chars().count() <= MAX_CONTENT);
            let resign = command("resign", Value::Null, &carol, CHANNEL, Some(GUILD));
            private_answer(&standin, &bot, resign).await;
            let _ =
                std::fs::remove_dir_all(data_dir("discord-limits", &format!("deferred-{mode:?}")));
        }
    });
}

#[test]
fn the_rules_come_privately_one_step_and_its_board_to_a_message() {
    runtime().block_on(async {
        let standin = StandIn::start(bot::APP).await;
        let bot = start(&standin, "rules", Mode::Gateway, &[]).await;
        let ada = Person::new("ada");
        // Lanrick (choice 0): its steps on four boards.
        let options = json!([{"name": "game", "type": 4, "value": 0}]);
        let out = interact(
            &standin,
            &bot,
            command("rules", options, &ada, CHANNEL, Some(GUILD)),
        )
        .await;
        // Every message is for ada alone; each board is in a message of its own, with the
        // step it shows in that message's words.
        let sent: Vec<&Recorded> = out
            .iter()
            .filter(|r| {
                r.callback_type() == Some(4)
                    || (r.method == "POST" && r.path.contains("/webhooks/"))
            })
            .collect();
        let body = |r: &Recorded| {
            if r.callback_type().is_some() {
                r.json["data"].clone()
            } else {
                r.json.clone()
            }
        };
        let with_boards: Vec<Value> = sent
            .iter()
            .filter(|r| !r.files.is_empty())
            .map(|r| body(r))
            .collect();
        assert_eq!(with_boards.len(), 4, "{:?}", paths(&out));
        for (n, message) in with_boards.iter().enumerate() {
            assert_eq!(message["flags"].as_u64().unwrap_or(0) & 64, 64, "{message}");
            let content = message["content"].as_str().unwrap_or_default();
            assert!(content.contains(&format!("{}. ", n + 1)), "{content}");
        }
        assert!(
            sent.iter()
                .all(|r| body(r)["flags"].as_u64().unwrap_or(0) & 64 == 64)
        );
        assert!(sent.iter().all(|r| r.files.len() <= 1));
        let _ = std::fs::remove_dir_all(data_dir("discord-limits", "rules-Gateway"));
    });
}

#[test]
fn a_puzzle_is_given_and_answered_privately_with_slash_puzzle() {
    runtime().block_on(async {
        let standin = StandIn::start(bot::APP).await;
        let bot = start(&standin, "puzzle", Mode::Gateway, &[]).await;
        let ada = Person::new("ada");
        // Croquet (choice 2): a puzzle's board and its task, for ada alone.
        let options = json!([{"name": "game", "type": 4, "value": 2}]);
        let m = private_answer(
            &standin,
            &bot,
            command("puzzle", options, &ada, CHANNEL, Some(GUILD)),
        )
        .await;
        assert!(
            m.content
                .contains("the only step that keeps your won game won"),
            "{}",
            m.content
        );
        assert_eq!(m.attachments.len(), 1, "{m:?}");
        let id = m
            .content
            .split("Puzzle ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .unwrap();
        let entry = muster_core::learn::puzzles::find(id).unwrap();
        // Under it, one button: the solution.
        assert_eq!(button_ids(&m).len(), 1, "{:?}", m.components);
        let answer = |a: &str| json!([{"name": "answer", "type": 3, "value": a}]);
        let m = private_answer(
            &standin,
            &bot,
            command("puzzle", answer(&entry.answer), &ada, CHANNEL, Some(GUILD)),
        )
        .await;
        assert!(m.content.contains("Solved"), "{}", m.content);
        // Solved: the next puzzle by its button, on the ephemeral message.
        let ids = button_ids(&m);
        assert_eq!(ids.len(), 2, "{:?}", m.components);
        let next = private_answer(
            &standin,
            &bot,
            button(&ids[0], &m, &ada, CHANNEL, Some(GUILD)),
        )
        .await;
        assert!(next.content.contains("Puzzle croquet-"), "{}", next.content);
        assert!(
            !next.content.contains(id),
            "another puzzle: {}",
            next.content
        );
        // The day's puzzle, by `ask` (its first choice).
        let daily = json!([{"name": "ask", "type": 4, "value": 0}]);
        let m = private_answer(
            &standin,
            &bot,
            command("puzzle", daily, &ada, CHANNEL, Some(GUILD)),
        )
        .await;
        assert!(m.content.contains("Today's puzzle"), "{}", m.content);
        // Nothing was said in the channel.
        assert!(
            standin.messages().iter().all(|m| m.flags & 64 == 64),
            "{:?}",
            standin.messages()
        );
        let _ = std::fs::remove_dir_all(data_dir("discord-limits", "puzzle-Gateway"));
    });
}

#[test]
fn a_lesson_is_taken_and_answered_privately_with_slash_learn() {
    runtime().block_on(async {
        let standin = StandIn::start(bot::APP).await;
        let bot = start(&standin, "learn", Mode::Gateway, &[]).await;
        let ada = Person::new("ada");
        // Croquet (choice 2), lesson 2: its board and its task, for ada alone.
        let options = json!([{"name": "game", "type": 4, "value": 2}, {"name": "lesson", "type": 4, "value": 2}]);
        let m = private_answer(&standin, &bot, command("learn", options, &ada, CHANNEL, Some(GUILD))).await;
        assert!(m.content.contains("lesson 2 of 7: Taking a hoop"), "{}", m.content);
        assert_eq!(m.attachments.len(), 1, "{m:?}");
        // A wrong answer, then the right one.
        let answer = |a: &str| json!([{"name": "answer", "type": 3, "value": a}]);
        let m = private_answer(&standin, &bot, command("learn", answer("3"), &ada, CHANNEL, Some(GUILD))).await;
        assert!(m.content.contains("The task:"), "{}", m.content);
        let m = private_answer(&standin, &bot, command("learn", answer("6"), &ada, CHANNEL, Some(GUILD))).await;
        assert!(m.content.contains("Solved ★★☆!"), "{}", m.content);
        // The next lesson by its button, privately.
        let next = button_ids(&m)[0].clone();
        let m = private_answer(&standin, &bot, button(&next, &m, &ada, CHANNEL, Some(GUILD))).await;
        assert!(m.content.contains("lesson 3 of 7: Into the hoop and out"), "{}", m.content);
        // Nothing was said in the channel.
        assert!(standin.messages().iter().all(|m| m.flags & 64 == 64), "{:?}", standin.messages());
        let _ = std::fs::remove_dir_all(data_dir("discord-limits", "learn-Gateway"));
    });
}

#[test]
fn every_lesson_is_solved_through_slash_learn_after_a_wrong_try() {
    runtime().block_on(async {
        let standin = StandIn::start(bot::APP).await;
        let bot = start(&standin, "every-lesson", Mode::Gateway, &[]).await;
        let ada = Person::new("ada");
        let answer = |a: &str| json!([{"name": "answer", "type": 3, "value": a}]);
        for game in ["lanrick", "lanrick1880", "croquet", "lanko88"] {
            // The game's place among `/learn`'s choices.
            let choice = ["lanrick", "lanrick1880", "croquet", "lanko88"]
                .iter()
                .position(|g| *g == game)
                .unwrap();
            let lessons = muster_core::learn::course(game.parse().unwrap());
            for (i, lesson) in lessons.iter().enumerate() {
                let n = i + 1;
                let options = json!([
                    {"name": "game", "type": 4, "value": choice},
                    {"name": "lesson", "type": 4, "value": n}
                ]);
                let ask = command("learn", options, &ada, CHANNEL, Some(GUILD));
                let m = private_answer(&standin, &bot, ask).await;
                let heading = format!("lesson {n} of {}: {}", lessons.len(), lesson.title);
                assert!(m.content.contains(&heading), "{}", m.content);
                assert_eq!(m.attachments.len(), 1, "its board: {m:?}");
                let ask = command("learn", answer(lesson.wrong), &ada, CHANNEL, Some(GUILD));
                let m = private_answer(&standin, &bot, ask).await;
                assert!(m.content.contains("The task:"), "{game} {n}: {}", m.content);
                for (k, a) in lesson.answers.iter().enumerate() {
                    let ask = command("learn", answer(a), &ada, CHANNEL, Some(GUILD));
                    let m = private_answer(&standin, &bot, ask).await;
                    let last = k + 1 == lesson.answers.len();
                    assert_eq!(
                        m.content.contains("Solved ★★☆!"),
                        last,
                        "{game} {n}: {}",
                        m.content
                    );
                }
            }
        }
        assert!(standin.messages().iter().all(|m| m.flags & 64 == 64));
        let _ = std::fs::remove_dir_all(data_dir("discord-limits", "every-lesson-Gateway"));
    });
}
