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
use muster_rules::lanko::Variant;

use common::busiest::{LANKO_NAMES, NAMES, lanko, lanrick, lanrick1880};

fn style(theme: Theme, bottom: usize) -> Style {
    Style {
        theme,
        bottom,
        size: Size::Normal,
    }
}

fn lanko_png(variant: Variant, style: Style) -> Vec<u8> {
    let (game, events) = lanko(variant);
    muster_render::lanko::png_noted(&game, &events, LANKO_NAMES, "", style)
}

#[test]
fn lanrick_boards_in_every_theme_and_orientation() {
    let (game, events) = lanrick();
    let (old, old_events) = lanrick1880();
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
    let (game, events) = common::busiest::croquet();
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
    let (game, events) = lanrick();
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
fn the_busiest_boards_stay_small() {
    // What docs/performance.md reports: at most 30 KB at the normal size, in every theme.
    for (name, png) in common::busiest::boards() {
        for theme in Theme::ALL {
            let bytes = png(style(theme, 0)).len();
            assert!(
                bytes <= 30 * 1024,
                "{name} in {}: {bytes} bytes",
                theme.name()
            );
        }
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

#[test]
fn a_board_encoded_against_its_backdrop_is_the_board_as_drawn() {
    // The encoder takes what was not drawn on from the backdrop's indices: every pixel must
    // still be the one drawn (the same file as encoding every pixel afresh).
    use muster_render::encode::png_with;
    let (lr, lr_events) = lanrick();
    let (old, old_events) = lanrick1880();
    let (cq, cq_events) = common::busiest::croquet();
    for theme in Theme::ALL {
        for bottom in 0..4 {
            let style = Style {
                theme,
                bottom,
                size: Size::ALL[bottom % 3],
            };
            let view = muster_render::lanrick::LanrickView::new(&lr, &lr_events, NAMES);
            let c = muster_render::lanrick::draw(&view, style);
            let palette = muster_render::lanrick::palette(theme);
            assert!(c.backdrop().is_some());
            assert_eq!(
                muster_render::lanrick::encode(&c, theme),
                png_with(&c.pixmap, palette)
            );
            let view = muster_render::lanrick1880::view(&old, &old_events, NAMES);
            let c = muster_render::lanrick::draw(&view, style);
            assert_eq!(
                muster_render::lanrick::encode(&c, theme),
                png_with(&c.pixmap, palette)
            );
            let c = muster_render::croquet::draw_noted(&cq, &cq_events, NAMES, "a note", style);
            assert_eq!(
                muster_render::encode::png_of(&c, muster_render::croquet::palette(theme)),
                png_with(&c.pixmap, muster_render::croquet::palette(theme))
            );
            for variant in Variant::ALL {
                let (game, events) = lanko(variant);
                let view = muster_render::lanko::LankoView::new(&game, &events, LANKO_NAMES);
                let c = muster_render::lanko::draw(&view, style);
                assert_eq!(
                    muster_render::lanko::encode(&c, theme),
                    png_with(&c.pixmap, muster_render::lanko::palette(theme)),
                    "{variant:?} in {theme:?} with {bottom} at the bottom"
                );
            }
        }
    }
}
