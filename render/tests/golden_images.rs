//! Golden images: boards from the whole game in docs/examples, rendered and compared pixel by
//! pixel (decoded) with tests/golden/*.png. Set MUSTER_BLESS=1 to rewrite them after a change
//! meant to alter the pictures, and look at every new image before committing it.

use muster_render::encode::decode_rgb;
use muster_rules::Game;
use muster_rules::lanrick::{Lanrick, LanrickEvent};

/// After which decision of the whole game each golden board is taken, and what it shows.
const BOARDS: [(usize, &str); 5] = [
    (11, "mark-set-first-turn"),
    (28, "rendezvous-won-capture"),
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

/// Compares a rendered PNG with tests/golden/<file>.png by decoded pixels (a pixel differs when
/// a channel is off by more than 8; at most one pixel in a thousand may), rewriting the golden
/// image first when MUSTER_BLESS is set.
fn check(file: &str, png: &[u8]) {
    let path = format!("tests/golden/{file}.png");
    if std::env::var_os("MUSTER_BLESS").is_some() {
        std::fs::write(&path, png).expect("write golden image");
    }
    let golden = std::fs::read(&path)
        .unwrap_or_else(|_| panic!("{path} is missing; run with MUSTER_BLESS=1"));
    let (w, h, want) = decode_rgb(&golden).expect("golden image decodes");
    let (w2, h2, got) = decode_rgb(png).expect("rendered image decodes");
    assert_eq!((w, h), (w2, h2), "{file}: size changed");
    assert!(
        (640..=800).contains(&w.max(h)),
        "{file}: {w}x{h} is not phone-sized"
    );
    let differing = want
        .chunks_exact(3)
        .zip(got.chunks_exact(3))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 8))
        .count();
    let allowed = (w * h) as usize / 1000;
    assert!(
        differing <= allowed,
        "{file}: {differing} pixels differ from {path} (allowed {allowed})"
    );
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

/// Croquet courses from the example game, after these steps.
const COURSES: [(usize, &str); 3] = [(4, "miss-and-bar"), (20, "middle"), (72, "won")];

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

#[test]
fn a_lanrick1880_board_matches_its_golden_image() {
    use muster_rules::lanrick1880::Lanrick1880;
    // White may shift the mark; Black's man on c6 would be carried (gold ring), the dots show
    // where the mark may go.
    let mut game = Lanrick1880::new();
    let mut events = Vec::new();
    for text in ["W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7", "d4", "*d5", "c8-c6"] {
        let seat = game.to_move().expect("to move");
        events = game.play_text(seat, text).expect("legal");
    }
    check(
        "lanrick1880-shift",
        &muster_render::lanrick1880::png(&game, &events, ["Alice", "Bob"]),
    );
}

/// The seats' names on the Lanko goldens, in turn order (s, w, n, e).
const LANKO_NAMES: [&str; 4] = ["Alice", "Bob", "Carol", "Dave"];

/// Lanko boards: each board's start, a capture on each kind of board (the path and the taken
/// pieces) and a finished game with castles at home.
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
    let after = |variant, position: &str, text: &str| {
        let mut game = Lanko::from_position(variant, position).expect("position");
        let seat = game.to_move().expect("to move");
        let events = game.play_text(seat, text).expect("legal");
        muster_render::lanko::png(&game, &events, LANKO_NAMES)
    };
    // W's castle takes three White pieces, ending on N's border strip.
    out.push((
        "lanko88-capture",
        after(
            Variant::L88,
            "P.SBSP/...P..Pp/...P....ps/spP..P..p./.b.......p/p......p.b/s........s/p........./......../.SBPSP w - 0",
            "20;22;7;N4",
        ),
    ));
    // E's pawn takes two White pieces diagonally; a White big castle stands on an end square.
    out.push((
        "lanko103-capture",
        after(
            Variant::L103,
            "PS.S./.P./p.P.../..PBp/.....p./.....Bpbp/p....sS/pb.../ps...p/PP./PS..P e - 0",
            "E1;N5;X1",
        ),
    ));
    // A game the players agreed to end: castles of both colours at home, Black ahead on points.
    let mut over = Lanko::from_position(
        Variant::L68,
        ".P.S/..B./....../P........./.....b..../....sB..../......s.../....../..../.... n - 0",
    )
    .expect("position");
    over.agree_draw().expect("not over yet");
    out.push((
        "lanko68-over",
        muster_render::lanko::png(&over, &[], LANKO_NAMES),
    ));
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

/// The start boards are embedded in docs/rules/lanko.md; blessing rewrites them there too.
#[test]
fn lanko_start_boards_for_the_rules_document() {
    if std::env::var_os("MUSTER_BLESS").is_none() {
        return;
    }
    let dir = "../docs/images".to_string();
    for (name, png) in lanko_boards() {
        if name.ends_with("-start") {
            std::fs::write(format!("{dir}/{name}.png"), png).expect("write docs image");
        }
    }
}
