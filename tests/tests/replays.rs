//! Replays in the console, end to end with the built binary: a finished game's replay is posted
//! with its result as an animated GIF (one frame for the start and one a decision, the last one
//! held longer), `replay` shows the game so far or a finished one by id, and wrong requests get
//! a clear answer.

use std::path::{Path, PathBuf};

use muster_rules::{AnyGame, GameId};
use muster_tests::{data_dir, muster_binary, run};

const LANRICK: &str = include_str!("../../docs/examples/lanrick-whole-game.txt");
const CROQUET: &str = include_str!("../../docs/examples/croquet-game.txt");

fn moves(record: &str) -> Vec<&str> {
    record
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// `count` moves of `record` as script lines in `channel`, alice on the first seat.
fn script(game: GameId, record: &str, channel: &str, count: usize) -> String {
    let mut g = AnyGame::new(game);
    let mut out = String::new();
    for m in moves(record).into_iter().take(count) {
        let seat = g.to_move().expect("the game goes on");
        let user = if seat.index() == 0 { "alice" } else { "bob" };
        out.push_str(&format!("{user} {channel} !move {m}\n"));
        g.play_text(seat, m).expect("legal");
    }
    out
}

fn console(dir: &Path, script: &str) -> String {
    let out = run(
        &muster_binary!(),
        &[
            "console",
            "--data",
            dir.to_str().expect("UTF-8"),
            "--script",
            "-",
        ],
        script,
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
}

/// The files the console says it wrote as replays, in order.
fn replays(out: &str) -> Vec<PathBuf> {
    out.lines()
        .filter_map(|l| {
            l.split_once(" replay: ")
                .map(|(_, p)| PathBuf::from(p.trim()))
        })
        .collect()
}

/// A GIF decoded: its size, and each frame's delay in hundredths of a second.
struct Decoded {
    width: u16,
    height: u16,
    delays: Vec<u16>,
    bytes: usize,
}

fn decode(path: &Path) -> Decoded {
    let bytes = std::fs::read(path).expect("the replay file");
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options
        .read_info(std::io::Cursor::new(&bytes))
        .expect("a GIF");
    let mut delays = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a readable frame") {
        delays.push(frame.delay);
    }
    Decoded {
        width: decoder.width(),
        height: decoder.height(),
        delays,
        bytes: bytes.len(),
    }
}

#[test]
fn a_finished_game_is_posted_with_its_replay_one_frame_a_decision() {
    let dir = data_dir("replays", "lanrick");
    let mut lines = String::from("alice t new lanrick @bob\nbob t accept\n");
    lines.push_str(&script(GameId::Lanrick, LANRICK, "t", usize::MAX));
    let out = console(&dir, &lines);
    let files = replays(&out);
    assert_eq!(files.len(), 1, "{out}");
    assert!(
        files[0].ends_with("g0-replay.gif"),
        "{}",
        files[0].display()
    );
    // The replay follows the result.
    let result_at = out.find("Game over").expect("the result");
    let replay_at = out.find(" replay: ").expect("the replay");
    assert!(result_at < replay_at, "{out}");
    let gif = decode(&files[0]);
    let decisions = moves(LANRICK).len();
    assert_eq!(
        gif.delays.len(),
        decisions + 1,
        "a frame for the start and each decision"
    );
    assert!(out.contains(&format!("{} frames", decisions + 1)), "{out}");
    // Four fifths of a board, and light enough to post.
    assert!(
        gif.width >= 480 && gif.height >= 480,
        "{}x{}",
        gif.width,
        gif.height
    );
    assert!(gif.bytes <= 400 * 1024, "{} bytes", gif.bytes);
    // The last frame, with the result, is held longer than the others.
    let last = *gif.delays.last().expect("frames");
    assert!(
        gif.delays[..decisions].iter().all(|d| *d < last),
        "{:?}",
        gif.delays
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn replay_shows_the_game_so_far_or_a_finished_one_by_id() {
    let dir = data_dir("replays", "request");
    let mut lines = String::from("alice c new croquet @bob\nbob c accept\n");
    lines.push_str(&script(GameId::Croquet, CROQUET, "c", 10));
    lines.push_str("bob c !replay\n");
    // A game resigned: its replay comes with the result.
    lines.push_str("alice c !resign\n");
    // Later, elsewhere, by id; and the asker's last game without one.
    lines.push_str("bob elsewhere !replay g0\nalice elsewhere !replay\n");
    lines.push_str("alice elsewhere !replay g99\nalice empty !new lanrick @bob\nbob empty !accept\nalice empty !replay g1\n");
    let out = console(&dir, &lines);
    let files = replays(&out);
    assert_eq!(files.len(), 4, "{out}");
    // On request mid-game: the start and the ten decisions so far.
    assert!(
        out.contains("The replay of g0 (Arithmetical Croquet"),
        "{out}"
    );
    let so_far = decode(&files[0]);
    assert_eq!(so_far.delays.len(), 11);
    // After the resignation: the same ten decisions, the last frame saying who resigned.
    for f in &files[1..] {
        assert_eq!(decode(f).delays.len(), 11, "{}", f.display());
    }
    assert!(out.contains("There is no finished game `g99`"), "{out}");
    assert!(out.contains("Game g1 has no move yet"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
