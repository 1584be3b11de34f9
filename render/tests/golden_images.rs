//! Golden images: boards from the whole game in docs/examples, rendered and compared pixel by
//! pixel (decoded) with tests/golden/*.png. Set MUSTER_BLESS=1 to rewrite them after a change
//! meant to alter the pictures, and look at every new image before committing it.

mod common;

use common::check;
use muster_render::encode::decode_rgb;
use muster_rules::Game;
use muster_rules::lanrick::{Lanrick, LanrickEvent};

/// After which decision of the whole game each golden board is taken, and what it shows.
/// (The 28th, a won rendezvous, is tests/styles.rs's `lanrick-classic-white`.)
const BOARDS: [(usize, &str); 4] = [
    (11, "mark-set-first-turn"),
    (30, "wanderer-moved"),
    (36, "mark-phase-dots"),
    (104, "game-over"),
];

fn boards() -> Vec<(String, Vec<u8>)> {
    let record = include_str!("../../docs/examples/lanrick-whole-game.txt");
    let mut game = Lanrick::new();
    let mut out = Vec::new();
    let moves = record
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    for (i, text) in moves.enumerate() {
        let seat = game.to_move().expect("game goes on");
        let events: Vec<LanrickEvent> = game.play_text(seat, text).expect("legal");
        if let Some((_, name)) = BOARDS.iter().find(|(n, _)| *n == i + 1) {
            out.push((
                name.to_string(),
                muster_render::lanrick::png(&game, &events, ["Alice", "Bob"]),
            ));
        }
    }
    out
}

#[test]
fn boards_match_their_golden_images() {
    let rendered = boards();
    assert_eq!(rendered.len(), BOARDS.len());
    for (name, png) in rendered {
        check(&format!("lanrick-{name}"), &png);
    }
}

#[test]
fn boards_are_phone_sized_and_small() {
    for (name, png) in boards() {
        let (w, h, _) = decode_rgb(&png).expect("decodes");
        assert!((640..=800).contains(&w.max(h)), "{name}: {w}x{h}");
        assert!(png.len() < 60 * 1024, "{name}: {} bytes", png.len());
    }
}

/// Croquet courses from the example game, after these steps (the 4th, a miss and a barred
/// step, is tests/styles.rs's `croquet-classic`).
const COURSES: [(usize, &str); 2] = [(20, "middle"), (72, "won")];

fn courses() -> Vec<(String, Vec<u8>)> {
    use muster_rules::croquet::Croquet;
    let record = include_str!("../../docs/examples/croquet-game.txt");
    let mut game = Croquet::new();
    let mut out = Vec::new();
    let steps = record
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    for (i, text) in steps.enumerate() {
        let seat = game.to_move().expect("game goes on");
        let events = game.play_text(seat, text).expect("legal");
        if let Some((_, name)) = COURSES.iter().find(|(n, _)| *n == i + 1) {
            out.push((
                name.to_string(),
                muster_render::croquet::png(&game, &events, ["Alice", "Bob"]),
            ));
        }
    }
    out
}

#[test]
fn courses_match_their_golden_images() {
    let rendered = courses();
    assert_eq!(rendered.len(), COURSES.len());
    for (name, png) in rendered {
        check(&format!("croquet-{name}"), &png);
    }
}

/// The seats' names on the Lanko goldens, in turn order (s, w, n, e).
const LANKO_NAMES: [&str; 4] = ["Alice", "Bob", "Carol", "Dave"];

/// Lanko boards: each board's start (a capture on each kind of board and a finished game with
/// castles at home are tests/styles.rs's).
fn lanko_boards() -> Vec<(&'static str, Vec<u8>)> {
    use muster_rules::lanko::{Lanko, Variant};
    let mut out = Vec::new();
    for (name, variant) in [
        ("lanko88-start", Variant::L88),
        ("lanko68-start", Variant::L68),
        ("lanko103-start", Variant::L103),
    ] {
        let game = Lanko::new(variant);
        out.push((name, muster_render::lanko::png(&game, &[], LANKO_NAMES)));
    }
    out
}

#[test]
fn lanko_boards_match_their_golden_images() {
    for (name, png) in lanko_boards() {
        check(name, &png);
        // About 40 KB: 31–41 KB when blessed, the busy capture board the largest.
        assert!(png.len() < 44 * 1024, "{name}: {} bytes", png.len());
    }
}

/// The rules document (docs/rules/lanko.md) shows each board's start as the renderer draws it:
/// its images are the golden ones, which the test above holds to the renderer. Blessing copies
/// them there too.
#[test]
fn the_rules_document_shows_the_start_boards_as_drawn() {
    for (name, _) in lanko_boards() {
        let golden = format!("tests/golden/{name}.png");
        let shown = format!("../docs/images/{name}.png");
        if std::env::var_os("MUSTER_BLESS").is_some() {
            std::fs::copy(&golden, &shown).expect("copy the golden image to docs/images");
        }
        let golden = std::fs::read(&golden).expect("the golden image");
        let shown = std::fs::read(&shown).unwrap_or_else(|_| panic!("{shown} is missing"));
        assert!(
            golden == shown,
            "docs/images/{name}.png is not the golden image; bless them"
        );
    }
}
