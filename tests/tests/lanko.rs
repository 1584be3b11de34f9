//! Lanko through the built binary: seating for two, three and four players in the console,
//! whole games played by chat with the bot passing for seats that cannot move, the export
//! replayed by `muster replay`, and the machine interface's Lanko output.

use std::path::{Path, PathBuf};

use muster_rules::{AnyGame, GameId};

fn muster(args: &[&str], input: &str) -> muster_tests::Run {
    muster_tests::run(&muster_tests::muster_binary!(), args, input)
}

fn data_dir(name: &str) -> PathBuf {
    muster_tests::data_dir("lanko", name)
}

fn console(dir: &Path, script: &str) -> String {
    muster_tests::console(&muster_tests::muster_binary!(), dir, script)
}

fn golden(id: &str) -> Vec<String> {
    let path = format!("../rules/tests/golden/{id}-game.txt");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && *l != "+++")
        .map(str::to_string)
        .collect()
}

/// Script lines playing `moves` in `channel`, each by the holder of the seat to move; passes
/// are left to the bot, which plays them for the seat.
fn script(id: GameId, channel: &str, moves: &[String], holders: [&str; 4]) -> String {
    let mut game = AnyGame::new(id);
    let mut out = String::new();
    for m in moves {
        let seat = game.to_move().expect("the game goes on");
        if m != "---" {
            out.push_str(&format!("{} {channel} {m}\n", holders[seat.index()]));
        }
        game.play_text(seat, m).expect("legal");
    }
    out
}

// K-1 with two players: one holds S and N, the other W and E; a whole game by chat, with the
// bot's passes, the end scored, and the export replayed.
#[test]
fn two_players_play_a_whole_lanko68_game_and_the_export_replays() {
    let dir = data_dir("two");
    let moves = golden("lanko68");
    let mut input = String::from("alice g !new lanko68 @bob\nbob g !accept\n");
    input.push_str(&script(
        GameId::Lanko68,
        "g",
        &moves,
        ["alice", "bob", "alice", "bob"],
    ));
    input.push_str("alice g !export\n");
    let out = console(&dir, &input);
    assert!(
        out.contains("alice plays S and N, bob plays W and E"),
        "{out}"
    );
    assert!(out.contains("The game begins: White: alice (S, N) vs Black: bob (W, E)."));
    assert!(!out.contains("is not legal"), "{out}");
    assert!(
        out.contains("Game over: White: alice (S, N) wins by 44 points (88–44)."),
        "{out}"
    );
    let file = out
        .lines()
        .find_map(|l| l.strip_prefix("[g] file: "))
        .expect("export file");
    let record = std::fs::read_to_string(file).unwrap();
    assert!(record.trim_end().ends_with("+++"), "{record}");
    let replay = muster(&["replay", "--game", "lanko68", file], "");
    assert_eq!(replay.code, 0, "{}", replay.stdout);
    let json = replay.json();
    assert_eq!(json["result"]["winner"], "white");
    assert_eq!(json["state"]["score"]["white"], 88);
    assert_eq!(json["applied"].as_u64().unwrap() as usize, moves.len());
}

// K-1 with three players: the pair takes S and N, the solo player W and E; each answers for
// its own seats only.
#[test]
fn three_players_sit_as_a_pair_against_a_solo_player() {
    let dir = data_dir("three");
    let out = console(
        &dir,
        "alice g !new lanko88 @bob @carol\nbob g !accept\nalice g !move 44-36\ncarol g !accept\n\
         bob g !move 44-36\nalice g !move 46-39\ncarol g !moves\nbob g !move 12-13\ncarol g !move 12-13\n",
    );
    assert!(
        out.contains("alice plays S, bob plays N, carol plays W and E"),
        "{out}"
    );
    assert!(out.contains("The game has not started"), "{out}");
    assert!(out.contains("The game begins: White: alice (S) and bob (N) vs Black: carol (W, E)."));
    assert!(
        out.contains("(to bob) It is alice (S)'s decision, not yours."),
        "{out}"
    );
    assert!(
        out.contains("(to bob) It is carol (W)'s decision, not yours."),
        "{out}"
    );
    assert!(out.contains("carol (W) moves the pawn 12-13."), "{out}");
}

// K-1 with four players, seats left open and taken with `join`.
#[test]
fn four_players_join_open_seats_and_only_the_seat_to_move_plays() {
    let dir = data_dir("four");
    let out = console(
        &dir,
        "alice g !new lanko103 for 4\nbob g !join n\nbob g !join\ncarol g !join\ndave g !join\n\
         alice g !move S4-14\nbob g !move 9-13\ncarol g !move 5-9\n",
    );
    assert!(
        out.contains("alice plays S, W is open, N is open, E is open"),
        "{out}"
    );
    assert!(out.contains("bob takes the N seat."), "{out}");
    assert!(out.contains("carol takes the W seat."), "{out}");
    assert!(out.contains("dave takes the E seat."), "{out}");
    assert!(out.contains("(to bob) You already have a seat at this game."));
    assert!(
        out.contains("alice (S) leaps the big castle S4-14."),
        "{out}"
    );
    assert!(
        out.contains("(to bob) It is carol (W)'s decision, not yours."),
        "{out}"
    );
}

// Seating errors are specific.
#[test]
fn lanko_seating_mistakes_are_explained() {
    let dir = data_dir("mistakes");
    let out = console(
        &dir,
        "alice g !new lanko88 for 5\nalice g !new lanko88 @bob for 1\nalice g !new lanrick for 3\n",
    );
    assert!(
        out.contains("Lanko-88 is for 2, 3 or 4 players (you named 5)."),
        "{out}"
    );
    assert!(
        out.contains("`for 1` but you named 1 other player(s)."),
        "{out}"
    );
    assert!(
        out.contains("Lanrick (Third Edition, 1881) is for 2 players."),
        "{out}"
    );
}

// Bad moves get specific, private errors and change nothing.
#[test]
fn lanko_bad_moves_are_refused_privately() {
    let dir = data_dir("bad");
    let out = console(
        &dir,
        "alice g !new lanko88 @bob\nbob g !accept\nalice g !move 44-43\nalice g !move q1-q2\n\
         alice g !move 19-20\nalice g !move ---\nalice g !declare\nalice g !declare\n",
    );
    assert!(
        out.contains("(to alice) `44-43` is not legal: a barrier lies across the way"),
        "{out}"
    );
    assert!(
        out.contains("(to alice) `Q1`: not a square of Lanko-88"),
        "{out}"
    );
    assert!(
        out.contains("(to alice) `19-20` is not legal: the big castle on 19 is black"),
        "{out}"
    );
    assert!(
        out.contains("(to alice) `---` is not legal: you can move, so you may not pass"),
        "{out}"
    );
    assert!(
        out.contains("alice (S) declares that its castles will not go onto the middle squares.")
    );
    assert!(
        out.contains("(to alice) `===` is not legal: you have already declared"),
        "{out}"
    );
}

// The machine interface: Lanko records, `---` and `+++`, and the board rows.
#[test]
fn machine_interface_reads_lanko_records() {
    let run = muster(&["replay", "--game", "lanko88"], "");
    assert_eq!(run.code, 0);
    let json = run.json();
    assert_eq!(json["to_move"], "s");
    assert_eq!(json["phase"], "play");
    let rows = json["state"]["board"].as_array().unwrap();
    assert_eq!(rows.len(), 10);
    assert_eq!(rows[9], "  SBPPSP  ");
    assert_eq!(json["state"]["score"]["white"], 76);
    let moves = muster(&["moves", "--game", "lanko103"], "").json();
    assert_eq!(moves["to_move"], "s");
    assert_eq!(
        moves["count"].as_u64().unwrap() as usize,
        moves["moves"].as_array().unwrap().len()
    );
    // `+++` ends a finished record; before the end it is an error on its line.
    let run = muster(&["replay", "--game", "lanko88"], "44-37\n+++\n");
    assert_eq!(run.code, 1);
    assert_eq!(run.json()["error"]["line"], 2);
    let record: String = golden("lanko88").join("\n") + "\n+++\n";
    let run = muster(&["replay", "--game", "lanko88"], &record);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(run.json()["result"].is_object());
}

// K-8, K-9: ending by agreement is scored as the board stands; either player of a pair may
// answer for it.
#[test]
fn an_agreed_end_is_scored_by_points() {
    let dir = data_dir("agreed");
    let out = console(
        &dir,
        "alice g !new lanko88 @bob @carol\nbob g !accept\ncarol g !accept\nbob g !draw\n\
         carol g !draw accept\n",
    );
    assert!(
        out.contains("bob offers to end the game now, scored as the board stands."),
        "{out}"
    );
    assert!(out.contains("carol agrees to end the game."), "{out}");
    assert!(out.contains("Drawn: both sides have 76 points."), "{out}");
}
