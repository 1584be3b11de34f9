//! `muster replay` and `muster moves` as other programs use them: the built binary, its JSON and
//! its exit statuses (docs/machine-interface.md).

/// Runs the `muster` binary under test.
fn muster(args: &[&str], input: &str) -> muster_tests::Run {
    muster_tests::run(&muster_tests::muster_binary!(), args, input)
}

const WHOLE_GAME: &str = include_str!("../../docs/examples/lanrick-whole-game.txt");

#[test]
fn replay_prints_the_contracts_object_in_order() {
    let run = muster(&["replay", "--game", "lanrick"], "a1\nh8\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let keys: Vec<&str> = [
        "\"game\"",
        "\"applied\"",
        "\"error\"",
        "\"to_move\"",
        "\"phase\"",
        "\"result\"",
        "\"position\"",
        "\"state\"",
    ]
    .into_iter()
    .collect();
    let mut last = 0;
    for key in keys {
        let at = run
            .stdout
            .find(key)
            .unwrap_or_else(|| panic!("{key} missing: {}", run.stdout));
        assert!(at >= last, "{key} out of order in {}", run.stdout);
        last = at;
    }
    let v = run.json();
    assert_eq!(v["game"], "lanrick");
    assert_eq!(v["applied"], 2);
    assert_eq!(v["error"], serde_json::Value::Null);
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["phase"], "placement");
    assert_eq!(v["state"]["board"][0], ".......B");
    assert_eq!(v["state"]["board"][7], "W.......");
    assert_eq!(v["state"]["mark"], serde_json::Value::Null);
    assert_eq!(
        v["state"]["taken"],
        serde_json::json!({"white": 0, "black": 0})
    );
}

#[test]
fn a_whole_game_replays_to_its_result() {
    let run = muster(&["replay", "--game", "lanrick", "-"], WHOLE_GAME);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let v = run.json();
    assert_eq!(v["applied"], 104);
    assert_eq!(v["result"], serde_json::json!({"winner": "white"}));
    assert_eq!(v["to_move"], serde_json::Value::Null);
    assert_eq!(v["phase"], "over");
    assert_eq!(
        v["state"]["taken"],
        serde_json::json!({"white": 4, "black": 2})
    );
    assert_eq!(v["state"]["mark"], "d5");
}

#[test]
fn replay_stops_at_the_first_illegal_line_with_its_number() {
    // Line 4 (after a comment and a blank line) is a field square during placement.
    let run = muster(
        &["replay", "--game", "lanrick"],
        "a1\n# White, then Black\n\nd4\nh8\n",
    );
    assert_eq!(run.code, 1);
    let v = run.json();
    assert_eq!(v["applied"], 1);
    assert_eq!(v["error"]["line"], 4);
    assert_eq!(v["error"]["move"], "d4");
    assert!(
        v["error"]["reason"].as_str().unwrap().contains("border"),
        "{v}"
    );
    assert_eq!(v["to_move"], "black");
}

#[test]
fn a_file_argument_is_read() {
    let dir = std::env::temp_dir().join(format!("muster-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.txt");
    std::fs::write(&file, WHOLE_GAME).unwrap();
    let run = muster(&["replay", "--game=lanrick", file.to_str().unwrap()], "");
    assert_eq!(run.code, 0);
    assert_eq!(run.json()["applied"], 104);
    let missing = muster(
        &[
            "replay",
            "--game",
            "lanrick",
            dir.join("none.txt").to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.contains("cannot read"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn moves_lists_every_legal_decision() {
    let run = muster(&["moves", "--game", "lanrick"], "");
    assert_eq!(run.code, 0);
    let v = run.json();
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["phase"], "placement");
    assert_eq!(v["count"], 28);
    assert_eq!(v["moves"][0], "a1");
    assert_eq!(v["moves"][27], "h8");
    // The round's first turn: one canonical turn per distinct position (163, see rules tests).
    let opening = "a8\na1\nc8\nb1\ne8\nd1\ng8\nf1\nh8\nh1\nd4\n";
    let v = muster(&["moves", "--game", "lanrick"], opening).json();
    assert_eq!(
        (v["phase"].as_str(), v["count"].as_u64()),
        (Some("play"), Some(163))
    );
    assert_eq!(v["moves"].as_array().unwrap().len(), 163);
    assert_eq!(v["moves"][0], "a1-a2");
}

#[test]
fn moves_after_an_illegal_line_reports_it() {
    let run = muster(&["moves", "--game", "lanrick"], "a1\na1\n");
    assert_eq!(run.code, 1);
    let v = run.json();
    assert_eq!(v["error"]["line"], 2);
    assert_eq!(v["count"], 27);
}

#[test]
fn bad_usage_exits_with_2() {
    for args in [
        vec!["replay"],
        vec!["replay", "--game", "chess"],
        vec!["moves", "--game"],
        vec!["fly"],
    ] {
        let run = muster(&args, "");
        assert_eq!(run.code, 2, "{args:?}");
        assert!(!run.stderr.is_empty(), "{args:?} explains itself");
    }
    assert!(
        muster(&["replay", "--game", "chess"], "")
            .stderr
            .contains("the games are lanrick")
    );
}

#[test]
fn croquet_replays_lists_steps_and_analyses() {
    let run = muster(&["replay", "--game", "croquet"], "8\n5\n");
    assert_eq!(run.code, 0);
    let v = run.json();
    assert_eq!(
        v["state"]["balls"]["white"],
        serde_json::json!({"pos": 8, "target": 10, "status": "normal", "need": null, "missed_once": false, "hoops_taken": 0})
    );
    assert_eq!(v["state"]["balls"]["black"]["pos"], 5);
    assert_eq!(v["to_move"], "white");
    // Black's 5 bars 5 and 4.
    let v = muster(&["moves", "--game", "croquet"], "8\n5\n").json();
    assert_eq!(
        v["moves"],
        serde_json::json!(["1", "2", "3", "6", "7", "8"])
    );
    let run = muster(&["replay", "--game", "croquet"], "8\n5\n4\n");
    assert_eq!(run.code, 1);
    assert_eq!(run.json()["error"]["line"], 3);
    // The opening: White wins with perfect play, only by 1.
    assert_eq!(
        muster(&["analyse", "--game", "croquet"], "").json(),
        serde_json::json!({"value": "win", "best": ["1"]})
    );
    let whole = include_str!("../../docs/examples/croquet-game.txt");
    let v = muster(&["replay", "--game", "croquet"], whole).json();
    assert_eq!(v["result"], serde_json::json!({"winner": "white"}));
    assert_eq!(muster(&["analyse", "--game", "lanrick"], "").code, 2);
}

#[test]
fn lanrick1880_replays_shifts_and_lists_moves() {
    let record = "W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7\nd4\n*d5\nc8-c6\n*c5\n";
    let run = muster(&["replay", "--game", "lanrick1880"], record);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let v = run.json();
    assert_eq!(v["phase"], "play");
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["state"]["mark"], "c5");
    assert_eq!(v["state"]["shifter"], "white");
    // The shift to c5 carried Black's man from c6 to b6.
    assert_eq!(v["state"]["board"][2], ".B......");
    // The set-up: counted, not listed.
    let v = muster(&["moves", "--game", "lanrick1880"], "").json();
    assert_eq!(
        (v["phase"].as_str(), v["count"].as_u64()),
        (Some("setup"), Some(3_307_023_720))
    );
    // The choice: blocks free of Black's men.
    let v = muster(
        &["moves", "--game", "lanrick1880"],
        "W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7\n",
    )
    .json();
    assert_eq!(v["to_move"], "black");
    assert!(
        !v["moves"]
            .as_array()
            .unwrap()
            .contains(&serde_json::json!("d7"))
    );
    // A man moved twice is refused at its line.
    let run = muster(
        &["replay", "--game", "lanrick1880"],
        "W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7\nd4\nc1-c2 c2-c3\n",
    );
    assert_eq!(run.code, 1);
    let v = run.json();
    assert_eq!(v["error"]["line"], 3);
    assert!(
        v["error"]["reason"]
            .as_str()
            .unwrap()
            .contains("at most once a turn")
    );
}

#[test]
fn bestmove_replays_the_record_then_names_a_legal_move_reproducibly() {
    let record = "a1\nh8\nc1\n";
    let args = [
        "bestmove",
        "--game",
        "lanrick",
        "--iterations",
        "300",
        "--seed",
        "7",
    ];
    let one = muster(&args, record);
    assert_eq!(one.code, 0, "{}", one.stderr);
    let v: serde_json::Value = serde_json::from_str(one.stdout.trim()).expect("one JSON line");
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["move", "value", "iterations", "millis"]);
    assert_eq!(v["iterations"], 300);
    let value = v["value"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&value), "{value}");
    // The same record, budget and seed: the same move.
    let two = muster(&args, record);
    let w: serde_json::Value = serde_json::from_str(two.stdout.trim()).unwrap();
    assert_eq!(v["move"], w["move"]);
    // The move is legal where the record ends.
    let mv = v["move"].as_str().unwrap();
    let check = muster(&["replay", "--game", "lanrick"], &format!("{record}{mv}\n"));
    assert_eq!(check.code, 0, "{mv}: {}", check.stdout);
    // Every game, at a level, by time.
    for (game, rec) in [
        ("lanrick1880", ""),
        ("lanko88", ""),
        ("lanko103", ""),
        ("croquet", "1\n"),
    ] {
        let run = muster(&["bestmove", "--game", game, "--millis", "150"], rec);
        assert_eq!(run.code, 0, "{game}: {}", run.stderr);
        let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
        let mv = v["move"].as_str().unwrap();
        let check = muster(&["replay", "--game", game], &format!("{rec}{mv}\n"));
        assert_eq!(check.code, 0, "{game} {mv}: {}", check.stdout);
    }
    // A level's budget is the game's (docs/ai.md, "Levels"): `good` searches 1,500 iterations
    // in Lanrick and 500 in Lanko; `easy` 100 in both.
    for (game, level, iterations) in [
        ("lanko68", "easy", 100),
        ("lanko68", "good", 500),
        ("lanrick", "good", 1_500),
    ] {
        let run = muster(&["bestmove", "--game", game, "--level", level], "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
        assert_eq!(v["iterations"], iterations, "{game} at {level}");
    }
}

#[test]
fn bestmove_exits_as_replay_does() {
    // An illegal line: the replay object with its error, status 1.
    let run = muster(&["bestmove", "--game", "lanrick"], "a1\nz9\n");
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.contains("\"error\":{\"line\":2"),
        "{}",
        run.stdout
    );
    // A finished game: nothing to move, status 2.
    let record = include_str!("../../docs/examples/lanrick-whole-game.txt");
    let run = muster(&["bestmove", "--game", "lanrick"], record);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stderr.contains("the game is over"), "{}", run.stderr);
    // A level the bot does not have; an unknown game.
    assert_eq!(
        muster(&["bestmove", "--game", "lanrick", "--level", "wise"], "").code,
        2
    );
    assert_eq!(muster(&["bestmove", "--game", "chess"], "").code, 2);
}
