//! The Discord adapter's translation, without a network: slash command options to the core's
//! text command, and the core's replies to Discord messages.

use muster_core::desk::{Button, Reply, User};
use muster_discord::commands::{COMMANDS, GAMES};
use muster_discord::respond::plan;
use muster_discord::{register, words};
use serenity::all as serenity;

use common::lanrick;
use muster_core::testing as common;

fn data(json: serde_json::Value) -> serenity::CommandData {
    serde_json::from_value(json).expect("command data as Discord sends it")
}

#[test]
fn every_command_word_has_a_slash_command_and_move_completes() {
    let names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
    // Every word of the language (`play` is `move`'s other name), and Lanko's `declare`.
    let words = muster_core::desk::command::WORDS
        .iter()
        .copied()
        .filter(|w| *w != "play")
        .chain(["declare"]);
    for word in words {
        assert!(names.contains(&word), "/{word} is missing: {names:?}");
    }
    let json = serde_json::to_value(register::commands()).unwrap();
    let new = json
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "new")
        .unwrap();
    let game = &new["options"][0];
    assert_eq!(game["name"], "game");
    assert_eq!(game["required"], true);
    assert_eq!(game["choices"].as_array().unwrap().len(), 6);
    assert_eq!(game["choices"][2]["name"], "Arithmetical Croquet");
    assert_eq!(new["options"][1]["type"], 6, "opponents are user options");
    let mv = json
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "move")
        .unwrap();
    assert_eq!(mv["options"][0]["autocomplete"], true);
    for c in json.as_array().unwrap() {
        let d = c["description"].as_str().unwrap();
        assert!(!d.is_empty() && d.len() <= 100, "{}: {d}", c["name"]);
    }
}

#[test]
fn options_become_the_core_s_words_in_its_order() {
    let d = data(serde_json::json!({
        "id": "1", "name": "new", "type": 1,
        "options": [
            {"name": "seat", "type": 3, "value": "black"},
            {"name": "opponent", "type": 6, "value": "80351110224678912"},
            {"name": "game", "type": 4, "value": 2}
        ],
        "resolved": {
            "users": {"80351110224678912": {"id": "80351110224678912", "username": "nelly",
                "global_name": "Nelly", "discriminator": "0", "avatar": null}},
            "members": {"80351110224678912": {"nick": "Nell", "roles": [], "joined_at": "2025-01-01T00:00:00.000000+00:00",
                "deaf": false, "mute": false, "flags": 0, "pending": false, "permissions": "0", "avatar": null,
                "premium_since": null, "communication_disabled_until": null, "banner": null}}
        }
    }));
    let (text, mentions) = words::text(&d).unwrap();
    assert_eq!(text, "new croquet 80351110224678912 as black");
    assert_eq!(
        mentions,
        vec![User {
            id: "80351110224678912".into(),
            name: "Nell".into()
        }]
    );
    let d = data(serde_json::json!({"id": "2", "name": "draw", "type": 1,
        "options": [{"name": "answer", "type": 4, "value": 1}]}));
    assert_eq!(one(&d), "draw accept");
    let d = data(serde_json::json!({"id": "3", "name": "move", "type": 1,
        "options": [{"name": "notation", "type": 3, "value": "  c1-c3 d1-e2 "}]}));
    assert_eq!(one(&d), "move c1-c3 d1-e2");
    let d = data(serde_json::json!({"id": "4", "name": "new", "type": 1,
        "options": [{"name": "game", "type": 4, "value": 0}, {"name": "bot", "type": 4, "value": 2},
                    {"name": "players", "type": 4, "value": 3}]}));
    assert_eq!(one(&d), "new lanrick bot:strong for 3");
    // A player of another platform, by his id there (docs/guide.md, "Games across platforms").
    let d = data(serde_json::json!({"id": "6", "name": "new", "type": 1,
        "options": [{"name": "game", "type": 4, "value": 0},
                    {"name": "elsewhere", "type": 3, "value": "@alice:example.org"}]}));
    assert_eq!(one(&d), "new lanrick @alice:example.org");
    let d = data(serde_json::json!({"id": "7", "name": "new", "type": 1,
        "options": [{"name": "game", "type": 4, "value": 0},
                    {"name": "elsewhere", "type": 3, "value": "@alice:example.org clock 1d"}]}));
    // Nothing typed there can become another word of the command.
    assert_eq!(one(&d), "new lanrick @alice:example.orgclock1d");
    // A choice index Discord could not have sent is refused rather than guessed.
    let d = data(serde_json::json!({"id": "5", "name": "new", "type": 1,
        "options": [{"name": "game", "type": 4, "value": 9}]}));
    assert_eq!(words::text(&d), None);
    assert_eq!(GAMES.len(), muster_rules::GameId::ALL.len());
    for (id, (_, token)) in muster_rules::GameId::ALL.iter().zip(GAMES) {
        assert_eq!(id.as_str(), *token);
    }
}

/// The text command a slash command stands for.
fn one(d: &serenity::CommandData) -> String {
    words::text(d).expect("readable options").0
}

fn options(name: &str, options: serde_json::Value) -> serenity::CommandData {
    data(serde_json::json!({"id": "9", "name": name, "type": 1, "options": options}))
}

#[test]
fn clocks_notifications_and_vacations_become_the_core_s_words() {
    let texts = |name: &str, o: serde_json::Value| words::text(&options(name, o));
    // A clock is one word however it is typed; the timeout is a choice.
    let d = options(
        "new",
        serde_json::json!([
            {"name": "game", "type": 4, "value": 0},
            {"name": "clock", "type": 3, "value": " 10d + 1d "},
            {"name": "timeout", "type": 4, "value": 1}
        ]),
    );
    assert_eq!(one(&d), "new lanrick clock 10d+1d timeout claim");
    // Nothing typed in the clock can become another word of the command (an opponent here).
    let d = options(
        "new",
        serde_json::json!([
            {"name": "game", "type": 4, "value": 0},
            {"name": "clock", "type": 3, "value": "3d per move"}
        ]),
    );
    assert_eq!(one(&d), "new lanrick clock 3dpermove");
    assert_eq!(texts("claim", serde_json::json!([])).unwrap().0, "claim");
    // /notify: its options are the settings of one command, in the core's order; none shows
    // the settings.
    assert_eq!(texts("notify", serde_json::json!([])).unwrap().0, "notify");
    let (all, _) = texts(
        "notify",
        serde_json::json!([
            {"name": "quiet", "type": 3, "value": "22:00-07:00 Europe/Berlin"},
            {"name": "remind", "type": 3, "value": "24h 1h"},
            {"name": "mode", "type": 4, "value": 1}
        ]),
    )
    .unwrap();
    assert_eq!(
        all,
        "notify dm remind 24h 1h quiet 22:00-07:00 Europe/Berlin"
    );
    assert_eq!(
        texts(
            "notify",
            serde_json::json!([{"name": "mode", "type": 4, "value": 2}])
        )
        .unwrap()
        .0,
        "notify off"
    );
    // With linked accounts: the platform every reminder goes to.
    assert_eq!(
        texts(
            "notify",
            serde_json::json!([{"name": "on", "type": 4, "value": 2}])
        )
        .unwrap()
        .0,
        "notify on matrix"
    );
    // /vacation: days alone start one.
    for (o, want) in [
        (serde_json::json!([]), "vacation"),
        (
            serde_json::json!([{"name": "action", "type": 4, "value": 0}]),
            "vacation start",
        ),
        (
            serde_json::json!([{"name": "action", "type": 4, "value": 1}]),
            "vacation end",
        ),
        (
            serde_json::json!([{"name": "days", "type": 4, "value": 7}]),
            "vacation start 7",
        ),
        (
            serde_json::json!([{"name": "days", "type": 4, "value": 3}, {"name": "action", "type": 4, "value": 0}]),
            "vacation start 3",
        ),
    ] {
        assert_eq!(texts("vacation", o).unwrap().0, want);
    }
    // /board: its options are settings of one command; none shows the asker's own view, and
    // every choice is a word the core reads.
    assert_eq!(texts("board", serde_json::json!([])).unwrap().0, "board");
    let (all, _) = texts(
        "board",
        serde_json::json!([
            {"name": "size", "type": 4, "value": 2},
            {"name": "theme", "type": 4, "value": 1},
            {"name": "orientation", "type": 4, "value": 0}
        ]),
    )
    .unwrap();
    assert_eq!(all, "board flip dark large");
    for (name, count) in [("orientation", 3), ("theme", 3), ("size", 3)] {
        for value in 0..count {
            let o = serde_json::json!([{"name": name, "type": 4, "value": value}]);
            let (text, _) = texts("board", o).unwrap();
            assert!(
                muster_core::desk::command::parse(&text).is_ok(),
                "{text} is read"
            );
        }
    }
    // A choice Discord could not have sent is refused.
    assert_eq!(
        texts(
            "vacation",
            serde_json::json!([{"name": "action", "type": 4, "value": 2}])
        ),
        None
    );
}

fn alt_of(id: &str) -> String {
    match lanrick(id) {
        Reply::Board(b) => b.drawn().unwrap().alt.clone(),
        _ => unreachable!(),
    }
}

fn board(id: &str) -> Reply {
    lanrick(id)
}

#[test]
fn the_askers_own_board_is_an_ephemeral_message_with_its_text() {
    let Reply::Board(own) = board("g2") else {
        unreachable!()
    };
    let out = plan(vec![
        Reply::Board(Box::new(own.private())),
        Reply::Private("alice (White) to decide.".into()),
    ]);
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(out[0].ephemeral && out[0].board);
    assert_eq!(out[0].content, "alice (White) to decide.");
    assert_eq!(out[0].files[0].0, "g2-000.png");
    assert!(out[0].pings.is_empty());
    assert!(!out.iter().any(|o| !o.ephemeral));
}

#[test]
fn replies_become_messages_with_the_board_buttons_and_only_the_right_pings() {
    let bob = User {
        id: "42".into(),
        name: "bob".into(),
    };
    let out = plan(vec![
        Reply::Text("alice played c1-c3.".into()),
        board("g1"),
        Reply::Mention {
            user: bob.clone(),
            text: "your turn.".into(),
        },
        Reply::Buttons(vec![Button {
            label: "Board".into(),
            command: "board".into(),
        }]),
        Reply::Private("Only you see this.".into()),
    ]);
    assert_eq!(out.len(), 2);
    assert_eq!(out[0].content, "alice played c1-c3.\n<@42> your turn.");
    assert_eq!(out[0].pings, vec![42]);
    assert_eq!(out[0].files[0].0, "g1-000.png");
    assert_eq!(out[0].files[0].2.as_deref(), Some(alt_of("g1").as_str()));
    assert_eq!(out[0].buttons.len(), 1);
    assert!(!out[0].ephemeral);
    assert!(out[1].ephemeral && out[1].content == "Only you see this.");
    // Two boards (the player's move and the bot's reply) are two messages.
    let out = plan(vec![
        board("a"),
        Reply::Text("the bot plays".into()),
        board("b"),
    ]);
    assert_eq!(out.len(), 2);
    // Buttons after a private reply stay private; the same command twice is one button.
    let accept = Button {
        label: "Accept".into(),
        command: "accept".into(),
    };
    let out = plan(vec![
        Reply::Mention {
            user: bob.clone(),
            text: "challenged".into(),
        },
        Reply::Buttons(vec![accept.clone()]),
        Reply::Mention {
            user: User {
                id: "43".into(),
                name: "carol".into(),
            },
            text: "challenged".into(),
        },
        Reply::Buttons(vec![accept.clone()]),
        Reply::Private("busy".into()),
        Reply::Buttons(vec![Button {
            label: "Thread".into(),
            command: "thread new lanrick".into(),
        }]),
    ]);
    assert_eq!(out[0].buttons, vec![accept]);
    assert_eq!(out[0].pings, vec![42, 43]);
    assert!(out[1].ephemeral && out[1].buttons[0].command == "thread new lanrick");
    // Discord's 2000-character limit: long text is split at line ends, files go last.
    let long: Vec<String> = (0..300).map(|i| format!("line {i:04}")).collect();
    let out = plan(vec![Reply::Text(long.join("\n")), board("c")]);
    assert!(out.len() >= 2);
    assert!(out.iter().all(|o| o.content.chars().count() <= 2000));
    assert!(out[0].files.is_empty() && !out.last().unwrap().files.is_empty());
    let joined: Vec<String> = out.iter().map(|o| o.content.clone()).collect();
    assert_eq!(joined.join("\n"), long.join("\n"));
}

#[test]
fn the_settings_know_the_same_games_as_the_rules() {
    let ids: Vec<&str> = muster_rules::GameId::ALL
        .iter()
        .map(|g| g.as_str())
        .collect();
    assert_eq!(muster_config::discord::GAME_IDS.to_vec(), ids);
}

#[test]
fn tournament_subcommands_become_the_core_s_words_with_the_event_s_name_first() {
    let sub = |name: &str, o: serde_json::Value| {
        options(
            "tournament",
            serde_json::json!([{"name": name, "type": 1, "options": o}]),
        )
    };
    let d = sub(
        "new",
        serde_json::json!([
            {"name": "name", "type": 3, "value": "spring"},
            {"name": "game", "type": 4, "value": 3},
            {"name": "system", "type": 4, "value": 3},
            {"name": "clock", "type": 3, "value": "3 d"},
            {"name": "pairs", "type": 5, "value": true}
        ]),
    );
    assert_eq!(
        one(&d),
        "tournament new spring lanko88 knockout clock 3d pairs"
    );
    let d = sub(
        "new",
        serde_json::json!([
            {"name": "name", "type": 3, "value": "spring"},
            {"name": "game", "type": 4, "value": 0},
            {"name": "system", "type": 4, "value": 0},
            {"name": "rounds", "type": 4, "value": 5},
            {"name": "pairs", "type": 5, "value": false}
        ]),
    );
    assert_eq!(one(&d), "tournament new spring lanrick swiss rounds 5");
    // Required options come first on Discord; the event's name still comes first in the words.
    let d = sub(
        "result",
        serde_json::json!([
            {"name": "board", "type": 4, "value": 2},
            {"name": "result", "type": 4, "value": 4},
            {"name": "name", "type": 3, "value": "spring"}
        ]),
    );
    assert_eq!(one(&d), "tournament result spring 2 forfeit black");
    let d = sub(
        "pairings",
        serde_json::json!([{"name": "round", "type": 4, "value": 3}]),
    );
    assert_eq!(one(&d), "tournament pairings 3");
    assert_eq!(one(&sub("list", serde_json::json!([]))), "tournament list");
    // The export's format is the word after the event's name, or alone where it is left out.
    let d = sub(
        "export",
        serde_json::json!([
            {"name": "name", "type": 3, "value": "spring"},
            {"name": "format", "type": 4, "value": 1}
        ]),
    );
    assert_eq!(one(&d), "tournament export spring trf");
    let d = sub(
        "export",
        serde_json::json!([{"name": "format", "type": 4, "value": 0}]),
    );
    assert_eq!(one(&d), "tournament export json");
    // Each subcommand reads as the core's parser expects.
    for text in [
        "tournament new spring lanko88 knockout clock 3d pairs",
        "tournament result spring 2 forfeit black",
        "tournament pairings 3",
        "tournament export spring trf",
    ] {
        assert!(muster_core::desk::command::parse(text).is_ok(), "{text}");
    }
    // Every subcommand is registered with a description Discord accepts, and names complete.
    let json = serde_json::to_value(register::commands()).unwrap();
    let t = json
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "tournament")
        .expect("/tournament");
    let subs: Vec<&str> = t["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        subs,
        muster_core::events::command::ACTIONS.to_vec(),
        "one subcommand per action"
    );
    for o in t["options"].as_array().unwrap() {
        assert_eq!(o["type"], 1);
        let d = o["description"].as_str().unwrap();
        assert!(!d.is_empty() && d.len() <= 100, "{d}");
        for p in o["options"].as_array().into_iter().flatten() {
            if p["name"] == "name" && o["name"] != "new" {
                assert_eq!(p["autocomplete"], true, "{}", o["name"]);
            }
        }
    }
}

/// An interaction as Discord sends it, with the resolved opponent's avatar hash set to `hash`.
fn with_avatar(hash: &str) -> serde_json::Value {
    let mut json: serde_json::Value = serde_json::from_str(include_str!(
        "../../../tests/fixtures/discord/guild-command.json"
    ))
    .expect("the fixture is JSON");
    json["data"]["resolved"]["users"]["1300000000000000301"]["avatar"] = hash.into();
    json
}

#[test]
fn an_image_hash_that_is_not_hexadecimal_is_refused_not_a_panic() {
    use muster_discord::read_interaction;
    // Found by the discord fuzz target (fuzz/regressions/discord): serenity cuts a 32-byte
    // hash into pairs of bytes, and a pair inside a two-byte character panicked it.
    let read = read_interaction(&with_avatar("fb211703bcc04ee612c88d494df0272f"));
    assert!(read.is_ok(), "a real hash reads: {read:?}");
    for odd in [
        "cʔ249645d4&209f#37279cd2ca@98c7",
        "a_ʔ49645d4&209f#37279cd2ca@98c712",
        "é",
    ] {
        let json = with_avatar(odd);
        match read_interaction(&json) {
            Err(e) => assert!(e.contains("`avatar` is not an image hash"), "{e}"),
            Ok(_) => panic!("{odd:?} was read as an image hash"),
        }
    }
}
