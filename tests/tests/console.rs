//! The console adapter end to end: the built binary, scripts, the sled store on disk.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use muster_core::store::Live;
use muster_core::store::{ChannelKey, SledStore};

/// Runs the `muster` binary under test.
fn muster(args: &[&str], input: &str) -> muster_tests::Run {
    muster_tests::run(&muster_tests::muster_binary!(), args, input)
}

const WHOLE_GAME: &str = include_str!("../../docs/examples/lanrick-whole-game.txt");

fn data_dir(name: &str) -> PathBuf {
    muster_tests::data_dir("console", name)
}

/// The example game as script lines for `channel`, alice White and bob Black.
fn game_script(channel: &str, range: std::ops::Range<usize>) -> String {
    let moves: Vec<&str> = WHOLE_GAME
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let mut game = muster_rules::AnyGame::new(muster_rules::GameId::Lanrick);
    let mut out = String::new();
    for (i, m) in moves.iter().enumerate() {
        let seat = game.to_move().expect("game goes on");
        if range.contains(&i) {
            let user = if seat.index() == 0 { "alice" } else { "bob" };
            out.push_str(&format!("{user} {channel} !move {m}\n"));
        }
        game.play_text(seat, m).expect("legal");
    }
    out
}

fn console(dir: &Path, script: &str) -> String {
    muster_tests::console(&muster_tests::muster_binary!(), dir, script)
}

/// Runs a console script on a manual clock starting at `start`; what it printed.
fn console_at(dir: &Path, start: &str, script: &str) -> String {
    let data = dir.to_string_lossy().into_owned();
    let run = muster(
        &[
            "console", "--data", &data, "--clock", "manual", "--start", start, "--script", "-",
        ],
        script,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout
}

#[test]
fn scripted_games_across_channels_export_replayable_records() {
    let dir = data_dir("channels");
    let mut script = String::from(
        "# two channels at once\nalice lanrick new lanrick @bob\ncarol side !new lanrick @dave as black\nbob lanrick !accept\ndave side accept\n",
    );
    let game = game_script("lanrick", 0..104);
    let mut lines = game.lines();
    // Interleave the side game with the main one.
    for (i, line) in lines.by_ref().take(3).enumerate() {
        script.push_str(line);
        script.push('\n');
        script.push_str(
            [
                "dave side !move a1\n",
                "carol side !move h8\n",
                "dave side !resign\n",
            ][i],
        );
    }
    for line in lines {
        script.push_str(line);
        script.push('\n');
    }
    script.push_str("bob lanrick !export\ncarol side !export\n");
    let out = console(&dir, &script);
    assert!(
        out.contains("[lanrick] Game over: alice (White) wins."),
        "{out}"
    );
    assert!(out.contains("[side] dave (White) resigns."), "{out}");
    assert!(
        out.contains("[side] Game over: carol (Black) wins by resignation."),
        "{out}"
    );
    // Every board written is a PNG on disk.
    let boards: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_once("] board: ").map(|(_, p)| p))
        .collect();
    assert!(boards.len() > 104, "{} boards", boards.len());
    assert!(
        std::fs::read(boards[boards.len() - 1])
            .unwrap()
            .starts_with(b"\x89PNG")
    );
    // The exported records replay to the same results.
    let files: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_once("file: ").map(|(_, p)| p))
        .collect();
    assert_eq!(files.len(), 2, "{out}");
    let main = muster(&["replay", "--game", "lanrick", files[0]], "").json();
    assert_eq!(
        (main["applied"].as_u64(), main["result"].clone()),
        (Some(104), serde_json::json!({"winner": "white"}))
    );
    let side = muster(&["replay", "--game", "lanrick", files[1]], "").json();
    assert_eq!(side["applied"], 2);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_restart_in_the_middle_of_a_game_loses_nothing() {
    let dir = data_dir("restart");
    let first = format!(
        "alice g new lanrick @bob\nbob g accept\n{}",
        game_script("g", 0..50)
    );
    let out = console(&dir, &first);
    assert!(!out.contains("(to "), "no errors before the restart: {out}");
    let out = console(&dir, &game_script("g", 50..104));
    assert!(!out.contains("(to "), "no errors after the restart: {out}");
    assert!(out.contains("[g] Game over: alice (White) wins."), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_damaged_record_gives_a_clear_error_for_its_channel_only() {
    let dir = data_dir("damaged");
    console(
        &dir,
        "alice x new lanrick @bob\nbob x accept\nalice x a8\ncarol y new lanrick @dave\ndave y accept\n",
    );
    {
        let store = SledStore::open(&dir.join("store")).unwrap();
        store
            .put_raw(&ChannelKey::new("console", "x"), b"\x00\x01 not a record")
            .unwrap();
    }
    let out = console(
        &dir,
        "bob x move a1\ncarol y move a8\nbob x abort\nbob x new lanrick @alice\n",
    );
    assert!(
        out.contains("[x] (to bob) This channel's game record cannot be read"),
        "{out}"
    );
    assert!(out.contains("[y] carol placed a man on a8."), "{out}");
    assert!(
        out.contains("[x] The damaged game record of this channel was set aside"),
        "{out}"
    );
    assert!(out.contains("[x] New game of Lanrick"), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn sigkill_during_a_game_loses_no_acknowledged_move() {
    let dir = data_dir("sigkill");
    let mut child = Command::new(muster_tests::muster_binary!())
        .args(["console", "--data", dir.to_str().unwrap(), "--script", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("muster starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut wait_for = |needle: &str| {
        let mut line = String::new();
        loop {
            line.clear();
            assert!(
                stdout.read_line(&mut line).unwrap() > 0,
                "muster ended before `{needle}`"
            );
            if line.contains(needle) {
                return;
            }
        }
    };
    writeln!(stdin, "alice k new lanrick @bob\nbob k accept").unwrap();
    wait_for("[k] @alice: your turn");
    let script = game_script("k", 0..30);
    let lines: Vec<&str> = script.lines().collect();
    for line in &lines[..20] {
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
        // A move is acknowledged when the next player is called.
        wait_for("[k] @");
    }
    // One more move sent, and the process killed at once.
    writeln!(stdin, "{}", lines[20]).unwrap();
    stdin.flush().unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    let store = SledStore::open(&dir.join("store")).unwrap();
    let record = store
        .load(&ChannelKey::new("console", "k"))
        .unwrap()
        .expect("the game survives");
    assert!(
        record.moves.len() == 20 || record.moves.len() == 21,
        "{} moves",
        record.moves.len()
    );
    drop(store);
    // And the game goes on from there.
    let rest = game_script("k", record.moves.len()..30);
    let out = console(&dir, &rest);
    assert!(!out.contains("(to "), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn croquet_against_the_bot_in_the_console() {
    let dir = data_dir("croquet");
    // Alice plays the first steps of the example game's perfect White against the bot.
    let out = console(
        &dir,
        "alice lawn new croquet bot:easy\nalice lawn hint\nalice lawn move 1\nalice lawn board\nalice lawn export\n",
    );
    assert!(
        out.contains("[lawn] The game begins: alice (White) vs Muster (easy) (Black)."),
        "{out}"
    );
    assert!(out.contains("[lawn] (to alice) Hint: `!move 1`"), "{out}");
    assert!(out.contains("[lawn] alice plays 1: 0 → 1."), "{out}");
    assert!(out.contains("[lawn] Muster (easy) plays"), "{out}");
    let file = out
        .lines()
        .find_map(|l| l.split_once("] file: ").map(|(_, p)| p.to_string()))
        .expect("an export");
    let replay = muster(&["replay", "--game", "croquet", &file], "").json();
    assert_eq!(replay["applied"], 2);
    assert_eq!(replay["state"]["balls"]["white"]["pos"], 1);
    // After the bot's reply the position is still White's win.
    let analysed = muster(&["analyse", "--game", "croquet", &file], "").json();
    assert_eq!(analysed["value"], "win");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn lanrick1880_in_the_console() {
    let dir = data_dir("l1880");
    let out = console(
        &dir,
        "alice g new lanrick1880 @bob\nbob g accept\nalice g move W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7\nbob g d7\nbob g d4\nalice g *d5\nbob g c8-c6\nalice g *c5\nbob g export\n",
    );
    assert!(out.contains("[g] (to bob) `d7` is not legal: the rendezvous around d7 would include your men on c8, e8"), "{out}");
    assert!(
        out.contains("[g] bob chose the rendezvous around d4."),
        "{out}"
    );
    assert!(
        out.contains("[g] alice shifted the mark d5-c5, carrying c6-b6."),
        "{out}"
    );
    let file = out
        .lines()
        .find_map(|l| l.split_once("] file: ").map(|(_, p)| p.to_string()))
        .expect("an export");
    let v = muster(&["replay", "--game", "lanrick1880", &file], "").json();
    assert_eq!(
        (v["applied"].as_u64(), v["state"]["mark"].as_str()),
        (Some(5), Some("c5"))
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_manual_clock_dates_the_record_and_moves_only_by_the_script() {
    let dir = data_dir("clock");
    let script = "alice general new lanrick @bob\n\
                  ~ +2h\n\
                  bob general accept\n\
                  alice general move b1\n\
                  ~ +1d12h\n\
                  ~ 2020-01-01T00:00:00Z\n\
                  ~ soon\n\
                  bob general resign\n\
                  ~ 2026-12-01T00:00:00Z\n\
                  alice general export\n";
    let out = console_at(&dir, "2026-11-25T09:30:00Z", script);
    assert!(out.contains("[clock] 2026-11-25T11:30:00Z\n"), "{out}");
    assert!(out.contains("[clock] 2026-11-26T23:30:00Z\n"), "{out}");
    // The clock never goes back, and a bad time says what to write.
    assert!(
        out.contains("[script] line 6: the clock only goes forward"),
        "{out}"
    );
    assert!(
        out.contains("[script] line 7: `soon` is not an RFC 3339 time"),
        "{out}"
    );
    // Play began at the acceptance; the game ended at the resignation, on the script's clock.
    let header: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("[general] | # "))
        .collect();
    assert_eq!(
        header,
        vec![
            "Game: Lanrick (Third Edition, 1881) (g0)",
            "White: alice",
            "Black: bob",
            "Clock: none",
            "Started: 2026-11-25T11:30:00Z",
            "Ended: 2026-11-26T23:30:00Z",
            "Result: 1-0",
            "Termination: resignation",
            "Replay: muster replay --game lanrick FILE",
        ],
        "{out}"
    );
    // The record, header and all, replays.
    let record: String = out
        .lines()
        .filter_map(|l| l.strip_prefix("[general] | "))
        .map(|l| format!("{l}\n"))
        .collect();
    let replayed = muster(&["replay", "--game", "lanrick"], &record);
    assert_eq!(replayed.code, 0, "{}", replayed.stdout);
    assert_eq!(replayed.json()["applied"], 1);
    // Without a manual clock, a `~` line is refused and names the flag.
    let plain = console(&data_dir("no-clock"), "~ +1h\n");
    assert!(plain.contains("--clock manual"), "{plain}");
    let misuse = muster(&["console", "--start", "2026-11-25T09:30:00Z"], "");
    assert_eq!(misuse.code, 2, "{}", misuse.stderr);
    assert!(
        misuse.stderr.contains("--clock manual"),
        "{}",
        misuse.stderr
    );
}

#[test]
fn games_is_a_dashboard_of_live_games_your_move_first_then_finished_ones() {
    let dir = data_dir("dashboard");
    let script = "alice east new lanrick @bob\n\
                  bob east accept\n\
                  ~ +1h\n\
                  alice west new croquet @bob\n\
                  bob west accept\n\
                  alice north new lanrick @bob\n\
                  bob north accept\n\
                  alice north resign\n\
                  ~ +2h\n\
                  alice east move b1\n\
                  ~ +30m\n\
                  alice south new lanrick @carol\n\
                  alice south games\n\
                  bob south games alice\n\
                  carol south games\n\
                  dave south games\n";
    let out = console_at(&dir, "2026-11-25T09:00:00Z", script);
    let answer = |to: &str| -> Vec<String> {
        let tag = format!("[south] (to {to}) ");
        out.lines()
            .filter_map(|l| l.strip_prefix(&tag))
            .map(str::to_string)
            .collect()
    };
    let alice = answer("alice");
    // Her move in west (Croquet, waiting since bob accepted 2 h 30 m ago), then the games
    // waiting on others, the longest-waiting first; then the finished one.
    assert_eq!(alice[0], "Your live games (3, your move in 1):", "{out}");
    assert!(
        alice[1].starts_with("• Your move — #west · Arithmetical Croquet")
            && alice[1].contains("against bob · 0 moves · waiting 2h 30m"),
        "{alice:?}"
    );
    assert!(
        alice[2].starts_with("• Bob to move — #east · Lanrick")
            && alice[2].contains("1 move · waiting 30m"),
        "{alice:?}"
    );
    assert!(
        alice[3].starts_with("• Waiting for players — #south"),
        "{alice:?}"
    );
    assert_eq!(alice[4], "Finished games (newest first):", "{alice:?}");
    assert!(
        alice[5].contains("black won") && alice[5].contains("`!export g2`"),
        "{alice:?}"
    );
    // Another player's dashboard, seen by bob: it is bob's move in east.
    let bob = answer("bob");
    assert_eq!(
        bob[0], "Live games of alice (3, their move in 1):",
        "{bob:?}"
    );
    // A challenge waiting for carol's answer is hers to act on.
    let carol = answer("carol");
    assert_eq!(
        carol[0], "Your live games (1, your move in 1):",
        "{carol:?}"
    );
    assert!(
        carol[1].starts_with("• Your answer to the challenge — #south"),
        "{carol:?}"
    );
    let dave = answer("dave");
    assert!(dave[0].starts_with("You have no games yet."), "{dave:?}");
}

/// The path a console line ends with, after `board: `.
fn board_path(out: &str, line_has: &str) -> PathBuf {
    let line = out
        .lines()
        .rfind(|l| l.contains(line_has) && l.contains("board: ") && l.ends_with(".png"))
        .unwrap_or_else(|| panic!("no board line with {line_has}: {out}"));
    PathBuf::from(line.rsplit_once("board: ").expect("a path").1.trim())
}

/// Width, height and the top-left pixel of a PNG file.
fn looks(path: &Path) -> (u32, u32, [u8; 3]) {
    let png = std::fs::read(path).expect("the board file");
    let (w, h, rgb) = muster_render::encode::decode_rgb(&png).expect("a PNG");
    (w, h, [rgb[0], rgb[1], rgb[2]])
}

#[test]
fn board_settings_draw_each_players_view_and_the_channels_board_for_the_player_to_move() {
    use muster_render::Theme;
    let dir = data_dir("board-settings");
    let out = console(
        &dir,
        "alice general new lanrick @bob\nbob general accept\n\
         bob general board black dark large\nalice general move b1\nalice general board\n\
         bob general board\nbob general board neon\n",
    );
    assert!(
        out.contains("(to bob) Your boards from now on: Black's side at the bottom, the dark theme, large size."),
        "{out}"
    );
    let dark = Theme::Dark.colours().paper;
    let classic = Theme::Classic.colours().paper;
    // Alice moved: bob is to move, and the channel's board is drawn his way.
    let channel = board_path(&out, "[general] board: ");
    assert!(channel.ends_with("g0-001.png"), "{}", channel.display());
    assert_eq!(looks(&channel), (749, 859, [dark[0], dark[1], dark[2]]));
    // Each asker's own view, in a file of his own beside it.
    let own = board_path(&out, "(to alice)");
    assert!(own.ends_with("g0-001-alice.png"), "{}", own.display());
    assert_eq!(
        looks(&own),
        (624, 716, [classic[0], classic[1], classic[2]])
    );
    let own = board_path(&out, "(to bob)");
    assert!(own.ends_with("g0-001-bob.png"), "{}", own.display());
    assert_eq!(looks(&own).0, 749);
    assert!(
        out.contains("(to bob) `board neon`: say `board` (your view of the board)"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_board_that_cannot_be_written_is_said_and_the_move_stays_stored() {
    let dir = data_dir("unwritable-board");
    // Where the channel's boards go, a file stands: no board can be written there.
    std::fs::create_dir_all(dir.join("boards")).unwrap();
    std::fs::write(dir.join("boards").join("general"), b"in the way").unwrap();
    let out = console(
        &dir,
        "alice general new lanrick\nbob general join\nalice general move b1\n",
    );
    assert!(
        out.contains("[general] (the board could not be written to ")
            && out.contains("`board` draws it again)"),
        "{out}"
    );
    // The console went on: the move was stored, and once the way is clear `board` draws it.
    std::fs::remove_file(dir.join("boards").join("general")).unwrap();
    let out = console(&dir, "carol general board\n");
    assert!(out.contains("(to carol) board: "), "{out}");
    let store = SledStore::open(&dir.join("store")).unwrap();
    let game = store
        .load(&ChannelKey::new("console", "general"))
        .unwrap()
        .expect("the game");
    assert_eq!(game.moves, ["b1"]);
}
