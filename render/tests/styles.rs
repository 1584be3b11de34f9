//! Every game's board in every theme and orientation, and the sizes, as golden images
//! (tests/golden/<game>-<theme>-<bottom>.png): a busy position of each game — a won
//! rendezvous, a shift of the mark, a course with a barred step, a capture on each Lanko board —
//! drawn as the players who chose each setting see it. MUSTER_BLESS=1 rewrites them;
//! MUSTER_RENDER_OUT=<folder> writes what was drawn there, to be looked at.

mod common;

use common::check;
use muster_render::encode::decode_rgb;
use muster_render::style::Turn;
use muster_render::{Size, Style, Theme};
use muster_rules::Game;
use muster_rules::lanko::{Lanko, Variant};

const NAMES: [&str; 2] = ["Alice", "Bob"];
const LANKO_NAMES: [&str; 4] = ["Alice", "Bob", "Carol", "Dave"];

fn style(theme: Theme, bottom: usize) -> Style {
    Style {
        theme,
        bottom,
        size: Size::Normal,
    }
}

/// Plays `moves` from the start of a game; the game and the last decision's events.
fn played<G: Game>(mut game: G, moves: &[&str]) -> (G, Vec<G::Event>) {
    let mut events = Vec::new();
    for text in moves {
        let seat = game.to_move().expect("to move");
        events = game.play_text(seat, text).expect("legal");
    }
    (game, events)
}

/// The whole Lanrick game of docs/examples up to its 28th decision: Black has won the
/// rendezvous and must take one of White's ringed men.
fn lanrick_capture() -> (
    muster_rules::lanrick::Lanrick,
    Vec<muster_rules::lanrick::LanrickEvent>,
) {
    let record = include_str!("../../docs/examples/lanrick-whole-game.txt");
    let moves: Vec<&str> = record
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(28)
        .collect();
    played(muster_rules::lanrick::Lanrick::new(), &moves)
}

/// Lanrick 1880: White may shift the mark, Black's man on c6 would be carried.
fn lanrick1880_shift() -> (
    muster_rules::lanrick1880::Lanrick1880,
    Vec<muster_rules::lanrick1880::Event>,
) {
    played(
        muster_rules::lanrick1880::Lanrick1880::new(),
        &["W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7", "d4", "*d5", "c8-c6"],
    )
}

/// A Lanko board of `variant` after a capture (the 103 and 88 ones of the golden suite) or,
/// for Lanko-68, a finished game with castles of both colours at home.
fn lanko(variant: Variant) -> (Lanko, Vec<muster_rules::lanko::LankoEvent>) {
    let (position, text) = match variant {
        Variant::L88 => (
            "P.SBSP/...P..Pp/...P....ps/spP..P..p./.b.......p/p......p.b/s........s/p........./......../.SBPSP w - 0",
            Some("20;22;7;N4"),
        ),
        Variant::L103 => (
            "PS.S./.P./p.P.../..PBp/.....p./.....Bpbp/p....sS/pb.../ps...p/PP./PS..P e - 0",
            Some("E1;N5;X1"),
        ),
        Variant::L68 => (
            ".P.S/..B./....../P........./.....b..../....sB..../......s.../....../..../.... n - 0",
            None,
        ),
    };
    let mut game = Lanko::from_position(variant, position).expect("position");
    match text {
        Some(text) => {
            let seat = game.to_move().expect("to move");
            let events = game.play_text(seat, text).expect("legal");
            (game, events)
        }
        None => {
            game.agree_draw().expect("not over yet");
            (game, Vec::new())
        }
    }
}

fn lanko_png(variant: Variant, style: Style) -> Vec<u8> {
    let (game, events) = lanko(variant);
    muster_render::lanko::png_noted(&game, &events, LANKO_NAMES, "", style)
}

#[test]
fn lanrick_boards_in_every_theme_and_orientation() {
    let (game, events) = lanrick_capture();
    let (old, old_events) = lanrick1880_shift();
    for theme in Theme::ALL {
        for (bottom, side) in [(0, "white"), (1, "black")] {
            let style = style(theme, bottom);
            let png = muster_render::lanrick::png_noted(&game, &events, NAMES, "", style);
            check(&format!("lanrick-{}-{side}", theme.name()), &png);
            let png = muster_render::lanrick1880::png_noted(&old, &old_events, NAMES, "", style);
            check(&format!("lanrick1880-{}-{side}", theme.name()), &png);
        }
    }
}

#[test]
fn croquet_courses_in_every_theme_read_the_same_whoever_is_at_the_bottom() {
    let record = include_str!("../../docs/examples/croquet-game.txt");
    let steps: Vec<&str> = record
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .take(4)
        .collect();
    let (game, events) = played(muster_rules::croquet::Croquet::new(), &steps);
    for theme in Theme::ALL {
        let png = muster_render::croquet::png_noted(&game, &events, NAMES, "", style(theme, 0));
        check(&format!("croquet-{}", theme.name()), &png);
        let turned = muster_render::croquet::png_noted(&game, &events, NAMES, "", style(theme, 1));
        assert_eq!(png, turned, "the course has no sides to turn");
    }
}

#[test]
fn lanko_boards_in_every_theme_and_with_each_seat_at_the_bottom() {
    for variant in Variant::ALL {
        let name = variant.board().title.to_lowercase().replace('-', "");
        for theme in Theme::ALL {
            check(
                &format!("{name}-{}-s", theme.name()),
                &lanko_png(variant, style(theme, 0)),
            );
        }
        for (bottom, seat) in [(1, "w"), (2, "n"), (3, "e")] {
            check(
                &format!("{name}-classic-{seat}"),
                &lanko_png(variant, style(Theme::Classic, bottom)),
            );
        }
    }
}

#[test]
fn sizes_draw_the_same_board_smaller_and_larger() {
    let (game, events) = lanrick_capture();
    for size in [Size::Small, Size::Large] {
        let style = Style {
            size,
            ..Style::default()
        };
        let png = muster_render::lanrick::png_noted(&game, &events, NAMES, "", style);
        let (w, h, _) = decode_rgb(&png).expect("decodes");
        let s = size.scale();
        let (nw, nh) = (
            muster_render::lanrick::WIDTH,
            muster_render::lanrick::HEIGHT,
        );
        assert_eq!(
            (w, h),
            (
                (nw as f32 * s).round() as u32,
                (nh as f32 * s).round() as u32
            )
        );
        check(&format!("lanrick-{}", size.name()), &png);
        let lanko = lanko_png(Variant::L88, style);
        check(&format!("lanko88-{}", size.name()), &lanko);
    }
}

#[test]
fn a_turned_lanko_board_keeps_the_seat_asked_for_at_the_bottom() {
    // The seat to move's plate is ringed in the turn colour: with that seat at the bottom, the
    // ring is under the board, whichever seat it is.
    let (game, events) = lanko(Variant::L88);
    let mover = game.to_move().expect("to move").index();
    let turn = Turn::bringing_down(mover, 4);
    assert_eq!(turn.side(mover), 0);
    let png = muster_render::lanko::png_noted(
        &game,
        &events,
        LANKO_NAMES,
        "",
        style(Theme::Classic, mover),
    );
    let (w, h, rgb) = decode_rgb(&png).expect("decodes");
    let ring = Theme::Classic.colours().lanko.turn;
    let rows_with_ring: Vec<u32> = (0..h)
        .filter(|y| {
            (0..w).any(|x| {
                let i = ((y * w + x) * 3) as usize;
                rgb[i..i + 3] == ring[..3]
            })
        })
        .collect();
    assert!(!rows_with_ring.is_empty(), "the ring is drawn");
    let board_bottom = h - 78 - 50;
    assert!(
        rows_with_ring.iter().all(|y| *y > board_bottom - 20),
        "the seat to move's plate is at the bottom: rows {:?}",
        (rows_with_ring.first(), rows_with_ring.last())
    );
}
