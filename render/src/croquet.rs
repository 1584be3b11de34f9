//! The Arithmetical Croquet course as a PNG: the numbers 0 to 107 in rows of ten (a miss of the
//! peg can leave a ball past 100), the hoops 10 … 90 and the peg, which hoops each player has
//! taken, both balls with their in-hoop or missed status, where the player to move can step (and
//! which steps are barred), the last step as an arrow, and a caption.

use muster_rules::croquet::{Croquet, CroquetEvent, PEG, Status, target_name};
use muster_rules::{Game, Outcome, Seat};

use crate::canvas::{Align, Backdrop, Canvas};
use crate::style::{Colours, Style, Theme, alpha};

/// Side of one number's cell.
pub const CELL: f32 = 56.0;
const LEFT: f32 = 34.0;
const TOP: f32 = 62.0;
const ROWS: usize = 11;
/// Image width.
pub const WIDTH: u32 = (LEFT * 2.0 + CELL * 10.0) as u32;
/// Image height.
pub const HEIGHT: u32 = (TOP + CELL * ROWS as f32 + 96.0) as u32;

fn cell(n: u8) -> (f32, f32) {
    let (row, col) = ((n / 10) as f32, (n % 10) as f32);
    (LEFT + col * CELL, TOP + row * CELL)
}

fn centre(n: u8) -> (f32, f32) {
    let (x, y) = cell(n);
    (x + CELL / 2.0, y + CELL / 2.0 + 4.0)
}

fn headline(game: &Croquet, names: [&str; 2]) -> String {
    if let Some(Outcome::Winner { team, .. }) = game.outcome() {
        let seat = if team.index() == 0 {
            Seat::WHITE
        } else {
            Seat::BLACK
        };
        return format!("{} wins", crate::player(seat, names));
    }
    if game.outcome().is_some() {
        return "Drawn by agreement".into();
    }
    let Some(seat) = game.to_move() else {
        return String::new();
    };
    let ball = game.ball(seat);
    let what = match ball.status {
        Status::InHoop => format!("in hoop {}, out only with {}", ball.target, ball.need),
        Status::Missed => format!("missed {}: back below it", target_name(ball.target)),
        Status::Normal => format!("on {}, for {}", ball.pos, target_name(ball.target)),
    };
    format!("{} to play — {what}", crate::player(seat, names))
}

fn detail(game: &Croquet) -> String {
    let mut parts = Vec::new();
    if game.to_move().is_some() {
        let barred = game.barred();
        if !barred.is_empty() {
            parts.push(format!("barred: {} and {}", barred[0], barred[1]));
        }
        if let Some(n) = game.run_forbidden() {
            parts.push(format!("may not repeat {n}"));
        }
    }
    for seat in [Seat::WHITE, Seat::BLACK] {
        let b = game.ball(seat);
        match b.status {
            Status::InHoop => parts.push(format!(
                "{} in hoop {}, out with {}",
                seat.colour(),
                b.target,
                b.need
            )),
            Status::Missed => parts.push(format!(
                "{} missed {}",
                seat.colour(),
                target_name(b.target)
            )),
            Status::Normal => {}
        }
    }
    let (w, b) = (game.ball(Seat::WHITE), game.ball(Seat::BLACK));
    parts.push(format!(
        "hoops: White {}, Black {}",
        w.hoops_taken(),
        b.hoops_taken()
    ));
    parts.join(" · ")
}

/// The course without balls in `style`: drawn once per style, then copied for every image.
fn course(style: Style) -> &'static Backdrop {
    static COURSES: [std::sync::OnceLock<Backdrop>; 9] = [const { std::sync::OnceLock::new() }; 9];
    COURSES[style.theme as usize * 3 + style.size.index()].get_or_init(|| {
        let k = style.theme.colours();
        let mut c = Canvas::scaled(WIDTH as f32, HEIGHT as f32, k.paper, style.size.scale());
        c.text(
            "Arithmetical Croquet",
            WIDTH as f32 / 2.0,
            30.0,
            22.0,
            Align::Center,
            k.ink,
        );
        c.text(
            "hoops 10 … 90 in order, then the peg",
            WIDTH as f32 / 2.0,
            52.0,
            15.0,
            Align::Center,
            k.soft_ink,
        );
        for n in 0..=107u8 {
            let (x, y) = cell(n);
            let fill = if n % 10 == 0 && (10..=PEG).contains(&n) {
                k.croquet.hoop
            } else {
                k.croquet.lawn[((n / 10 + n % 10) % 2) as usize]
            };
            c.rect(x, y, CELL, CELL, fill);
            c.frame(x, y, CELL, CELL, 1.0, k.croquet.cell_edge);
            c.text(
                &n.to_string(),
                x + 4.0,
                y + 14.0,
                12.0,
                Align::Left,
                k.soft_ink,
            );
        }
        // Hoops as wire arches, the peg as a striped post.
        let wire = k.croquet.wire;
        for h in (10..=90u8).step_by(10) {
            let (cx, cy) = centre(h);
            c.line((cx - 16.0, cy + 16.0), (cx - 16.0, cy - 6.0), 4.0, wire);
            c.line((cx + 16.0, cy + 16.0), (cx + 16.0, cy - 6.0), 4.0, wire);
            c.line((cx - 16.0, cy - 6.0), (cx + 16.0, cy - 6.0), 4.0, wire);
        }
        let (px, py) = centre(PEG);
        c.rect(px - 5.0, py - 22.0, 10.0, 36.0, k.croquet.peg[0]);
        c.rect(px - 5.0, py - 10.0, 10.0, 6.0, k.croquet.peg[1]);
        Backdrop::new(c.pixmap)
    })
}

/// Draws the course after `events`, in the default style.
pub fn draw(game: &Croquet, events: &[CroquetEvent], names: [&str; 2]) -> Canvas {
    draw_noted(game, events, names, "", Style::default())
}

/// [`draw`] in `style`, with `note` (a timed game's clocks) after the caption's second line.
/// The course has no sides: it reads like a page whichever seat `style` puts at the bottom.
pub fn draw_noted(
    game: &Croquet,
    events: &[CroquetEvent],
    names: [&str; 2],
    note: &str,
    style: Style,
) -> Canvas {
    let k: &Colours = style.theme.colours();
    let mut c = Canvas::on(course(style), style.size.scale());
    // Dots on each hoop for the players who have taken it.
    for h in (10..=90u8).step_by(10) {
        for (i, seat) in [Seat::WHITE, Seat::BLACK].into_iter().enumerate() {
            if game.ball(seat).target > h {
                let (x, y) = cell(h);
                let dot = (x + CELL - 10.0 - 12.0 * i as f32, y + 10.0);
                let fill = if seat == Seat::WHITE {
                    k.white[0]
                } else {
                    k.black[0]
                };
                c.disc(dot.0, dot.1, 5.0, fill);
                c.ring(dot.0, dot.1, 5.0, 1.2, k.ink);
            }
        }
    }
    steps(&mut c, game, k);
    // The last step.
    for e in events {
        if let CroquetEvent::Stepped { seat, from, to, .. } = e {
            let (a, b) = (centre(*from), centre(*to));
            let colour = alpha(k.trail[seat.index()], 220);
            c.disc(a.0, a.1, 6.0, colour);
            c.arrow(a, b, 5.0, colour);
        }
    }
    balls(&mut c, game, k);
    let base = TOP + CELL * ROWS as f32;
    let head = headline(game, names);
    let det = crate::noted(&detail(game), note);
    c.caption(&head, WIDTH, base + 36.0, 23.0, k.ink);
    c.caption(&det, WIDTH, base + 70.0, 18.0, k.soft_ink);
    c
}

/// Where the player to move can step: a ring on each square a legal step reaches, a cross on
/// each that a barred or forbidden number would have reached.
fn steps(c: &mut Canvas, game: &Croquet, k: &Colours) {
    let Some(seat) = game.to_move() else {
        return;
    };
    let ball = game.ball(seat);
    let legal = game.legal_steps();
    let candidates: Vec<i8> = match ball.status {
        // Back steps that land below the target; others are not steps at all.
        Status::Missed => (1..=8)
            .map(|s| -s)
            .filter(|s| (ball.pos as i16 + *s as i16) < ball.target as i16)
            .collect(),
        Status::InHoop => vec![ball.need as i8],
        Status::Normal => (1..=8).collect(),
    };
    for s in candidates {
        let to = ball.pos as i16 + s as i16;
        if !(0..=107).contains(&to) {
            continue;
        }
        let (x, y) = cell(to as u8);
        let ok = legal.iter().any(|l| l.0 == s);
        if ok {
            c.ring(x + CELL - 11.0, y + CELL - 11.0, 6.0, 3.0, k.croquet.go);
        } else if game.barred().contains(&s.unsigned_abs())
            || game.run_forbidden() == Some(s.unsigned_abs())
        {
            let (a, b) = (
                (x + CELL - 16.0, y + CELL - 16.0),
                (x + CELL - 6.0, y + CELL - 6.0),
            );
            c.line(a, b, 3.0, k.call);
            c.line((a.0, b.1), (b.0, a.1), 3.0, k.call);
        }
    }
}

/// Both balls on their squares (side by side when they share one), each ringed when it is in
/// its hoop or has missed it.
fn balls(c: &mut Canvas, game: &Croquet, k: &Colours) {
    let (w, b) = (game.ball(Seat::WHITE), game.ball(Seat::BLACK));
    for (seat, ball) in [(Seat::WHITE, w), (Seat::BLACK, b)] {
        let (mut x, y) = centre(ball.pos.min(107));
        if w.pos == b.pos {
            x += if seat == Seat::WHITE { -10.0 } else { 10.0 };
        }
        c.disc(x + 1.5, y + 2.0, 15.0, k.shadow);
        if seat == Seat::WHITE {
            c.disc(x, y, 15.0, k.white[0]);
            c.ring(x, y, 15.0, 2.5, k.white[1]);
        } else {
            c.disc(x, y, 15.0, k.black[0]);
            c.ring(x, y, 12.5, 1.5, k.black[2]);
            c.ring(x, y, 15.0, 2.0, k.black[1]);
        }
        match ball.status {
            Status::InHoop => c.ring_edged((x, y), 20.0, 4.0, k.gold, k.gold_edge),
            Status::Missed => c.ring(x, y, 20.0, 4.0, k.call),
            Status::Normal => {}
        }
    }
}

/// The theme's palette, from courses showing everything it draws: the colours of every course
/// image and of its replays.
pub fn palette(theme: Theme) -> &'static crate::encode::Palette {
    static PALETTES: [std::sync::OnceLock<crate::encode::Palette>; 3] =
        [const { std::sync::OnceLock::new() }; 3];
    crate::encode::themed(&PALETTES, theme, |style| {
        let names = ["Abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"];
        [
            "17/20/n 20/20/h3 w - 0,0",
            "95/100/n 103/100/m! b 4 0,0",
            "43/50/m! 38/40/n b 2 0,3",
        ]
        .iter()
        .filter_map(|p| Croquet::from_position(p).ok())
        .flat_map(|g| {
            let step = [CroquetEvent::Stepped {
                seat: Seat::WHITE,
                step: 6,
                from: 11,
                to: 17,
            }];
            let back = [CroquetEvent::Stepped {
                seat: Seat::BLACK,
                step: -5,
                from: 47,
                to: 42,
            }];
            [
                draw_noted(&g, &step, names, "", style).pixmap,
                draw_noted(&g, &back, names, "", style).pixmap,
            ]
        })
        .collect()
    })
}

/// The course as a PNG, in the default style.
pub fn png(game: &Croquet, events: &[CroquetEvent], names: [&str; 2]) -> Vec<u8> {
    png_noted(game, events, names, "", Style::default())
}

/// [`png`] in `style`, with `note` (a timed game's clocks) after the caption's second line.
pub fn png_noted(
    game: &Croquet,
    events: &[CroquetEvent],
    names: [&str; 2],
    note: &str,
    style: Style,
) -> Vec<u8> {
    let canvas = draw_noted(game, events, names, note, style);
    crate::encode::png_of(&canvas, palette(style.theme))
}

/// A one-line description for screen readers.
pub fn alt_text(game: &Croquet, names: [&str; 2]) -> String {
    let ball = |s: Seat| {
        let b = game.ball(s);
        let status = match b.status {
            Status::Normal => String::new(),
            Status::InHoop => format!(", in hoop {} needing {}", b.target, b.need),
            Status::Missed => format!(", having missed {}", target_name(b.target)),
        };
        format!(
            "{} on {} aiming at {}{status}",
            s.colour(),
            b.pos,
            target_name(b.target)
        )
    };
    format!(
        "Croquet course: {}; {}. {}. {}",
        ball(Seat::WHITE),
        ball(Seat::BLACK),
        headline(game, names),
        detail(game)
    )
}
