//! The Lanrick board as a PNG: border and field told apart, the rendezvous and the mark, the
//! men, the last decision's paths, coordinates, and a caption saying whose decision it is, the
//! budget, the men taken and what the phase asks for (the men to move to the border are ringed,
//! the squares where the mark may go are dotted).

use muster_rules::Seat;
use muster_rules::lanrick::{Lanrick, LanrickEvent, Phase, Square, Squares, squares};
use muster_rules::{Game, Outcome};

use crate::canvas::{Align, Canvas, rgb, rgba};

/// Side of one square, in pixels.
pub const SQUARE: f32 = 70.0;
/// Space for coordinates around the board.
pub const MARGIN: f32 = 32.0;
/// Height of the caption under the board.
pub const CAPTION: f32 = 92.0;
/// Image width.
pub const WIDTH: u32 = (MARGIN * 2.0 + SQUARE * 8.0) as u32;
/// Image height.
pub const HEIGHT: u32 = (MARGIN * 2.0 + SQUARE * 8.0 + CAPTION) as u32;

const PAPER: [u8; 4] = rgb(0xF4EFE6);
const FIELD: [[u8; 4]; 2] = [rgb(0xEBDDBD), rgb(0xDCC69E)];
const BORDER: [[u8; 4]; 2] = [rgb(0xA88560), rgb(0x94734F)];
const INK: [u8; 4] = rgb(0x3B2F22);
const SOFT_INK: [u8; 4] = rgb(0x6B5A45);
const ZONE: [u8; 4] = rgba(0x2E8B57, 80);
const ZONE_EDGE: [u8; 4] = rgb(0x1F6E42);
const COIN: [u8; 4] = rgb(0xC99A1E);
const WHITE_MAN: [u8; 4] = rgb(0xFBFAF4);
const BLACK_MAN: [u8; 4] = rgb(0x1E1E1E);
const TRAIL: [[u8; 4]; 2] = [rgba(0x1565C0, 210), rgba(0xD84315, 210)];
const CALL: [u8; 4] = rgb(0xC62828);

/// What the picture shows, independent of the rules that produced it.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct LanrickView {
    /// White's men.
    pub white: Vec<Square>,
    /// Black's men.
    pub black: Vec<Square>,
    /// The mark.
    pub mark: Option<Square>,
    /// Whether the rendezvous is being played for (drawn stronger).
    pub live_rendezvous: bool,
    /// The last decision's steps, with the seat whose colour draws them.
    pub trails: Vec<(Square, Square, Seat)>,
    /// Where a man was just taken.
    pub taken_at: Option<Square>,
    /// Men the player to decide may move to the border now.
    pub ringed: Vec<Square>,
    /// Squares where the mark may go now.
    pub dotted: Vec<Square>,
    /// Men a shift of the mark would carry (Lanrick 1880).
    pub carried: Vec<Square>,
    /// First caption line: whose decision and what.
    pub headline: String,
    /// Second caption line: the taken counts and the rendezvous.
    pub detail: String,
}

impl LanrickView {
    /// A view of these men and this mark, with nothing highlighted yet; `live` when the
    /// rendezvous is being played for. Both editions of Lanrick start from it.
    pub fn of_men(white: Squares, black: Squares, mark: Option<Square>, live: bool) -> LanrickView {
        LanrickView {
            white: squares(white).collect(),
            black: squares(black).collect(),
            mark,
            live_rendezvous: live,
            ..LanrickView::default()
        }
    }

    /// The view of `game` after `events` (the last decision's), with the players' names.
    pub fn new(game: &Lanrick, events: &[LanrickEvent], names: [&str; 2]) -> LanrickView {
        let mut view = LanrickView::of_men(
            game.men(Seat::WHITE),
            game.men(Seat::BLACK),
            game.mark(),
            game.phase() == Phase::Play,
        );
        for e in events {
            match e {
                LanrickEvent::Stepped { seat, from, to } => view.trails.push((*from, *to, *seat)),
                LanrickEvent::ToBorder {
                    owner, from, to, ..
                } => view.trails.push((*from, *to, *owner)),
                LanrickEvent::Took { square, .. } => view.taken_at = Some(*square),
                _ => {}
            }
        }
        view.ringed = squares(game.men_for_border()).collect();
        if game.phase() == Phase::Capture {
            let zone = game.rendezvous().unwrap_or(0);
            let seat = game.to_move().unwrap_or(Seat::WHITE);
            let loser = if seat == Seat::WHITE {
                Seat::BLACK
            } else {
                Seat::WHITE
            };
            view.ringed = squares(game.men(loser) & !zone).collect();
        }
        view.dotted = squares(game.legal_marks()).collect();
        view.headline = headline(game, names);
        let taken = format!(
            "Taken: White {}, Black {}",
            game.taken(Seat::WHITE),
            game.taken(Seat::BLACK)
        );
        view.detail = match game.mark() {
            Some(m) if game.phase() != Phase::Mark => {
                format!("Rendezvous {} (mark {m}) · {taken}", m.block_name())
            }
            _ => taken,
        };
        view
    }
}

fn headline(game: &Lanrick, names: [&str; 2]) -> String {
    if let Some(outcome) = game.outcome() {
        return match outcome {
            Outcome::Winner { team, reason } => {
                let seat = if team.index() == 0 {
                    Seat::WHITE
                } else {
                    Seat::BLACK
                };
                let how = match reason {
                    muster_rules::EndReason::Resignation => "by resignation",
                    muster_rules::EndReason::Time => "on time",
                    _ => "with four men taken",
                };
                format!("{} wins {how}", crate::player(seat, names))
            }
            Outcome::Draw { reason } => match reason {
                muster_rules::EndReason::Agreement => "Drawn by agreement".to_string(),
                _ => "Drawn: the same position a third time".to_string(),
            },
        };
    }
    let Some(seat) = game.to_move() else {
        return String::new();
    };
    let p = crate::player(seat, names);
    match game.phase() {
        Phase::Placement => {
            let placed = game.men(seat).count_ones() + 1;
            format!("{p}: place man {placed} of 5 on the border")
        }
        Phase::Mark => format!("{p}: set the mark (dots show where it may go)"),
        Phase::Play => {
            let b = game.budget().unwrap_or(0);
            let first = if game.is_opening_turn() {
                " (first turn)"
            } else {
                ""
            };
            format!("{p} to play: {b} squares{first}")
        }
        Phase::Capture => format!("{p} won the rendezvous: take a ringed man"),
        Phase::Wanderers => format!("{p}: move the ringed wanderers to the border"),
        Phase::Equalise => format!("{p}: equalise — move a ringed man to the border"),
        Phase::Return => format!("{p}: return a ringed man to the border"),
        Phase::Over => String::new(),
    }
}

fn centre(sq: Square) -> (f32, f32) {
    let x = MARGIN + (sq.file() as f32 + 0.5) * SQUARE;
    let y = MARGIN + (7.0 - sq.rank() as f32 + 0.5) * SQUARE;
    (x, y)
}

/// The parts of every board that never change — paper, squares, frames, coordinates — and the
/// two men, drawn once and then copied (the lila-gif approach, in docs/performance.md).
struct Sprites {
    background: tiny_skia::Pixmap,
    men: [tiny_skia::Pixmap; 2],
}

/// The theme's palette, from boards showing everything the theme draws: the colours of every
/// Lanrick board (both editions) and of its replays.
pub fn palette() -> &'static crate::encode::Palette {
    static PALETTE: std::sync::OnceLock<crate::encode::Palette> = std::sync::OnceLock::new();
    PALETTE.get_or_init(|| {
        let sq = |s: &str| s.parse::<Square>().expect("a square");
        let mut sample = LanrickView {
            white: ["a1", "c3", "d4", "h5", "e8"].map(sq).to_vec(),
            black: ["b2", "c4", "e5", "a8", "h1"].map(sq).to_vec(),
            mark: Some(sq("d4")),
            live_rendezvous: true,
            trails: vec![
                (sq("f1"), sq("c4"), Seat::BLACK),
                (sq("a5"), sq("c3"), Seat::WHITE),
            ],
            taken_at: Some(sq("g6")),
            ringed: ["b2", "e8"].map(sq).to_vec(),
            dotted: ["f6", "f7", "g2"].map(sq).to_vec(),
            carried: ["c4", "d4"].map(sq).to_vec(),
            headline: "Abcdefghijklm (White) won the rendezvous: take a ringed man".into(),
            detail: "Rendezvous c3–e5 (mark d4) · Taken: White 0, Black 0 nopqrstuvwxyz".into(),
        };
        // The rendezvous over field and border squares, being played for or not.
        let mut boards = Vec::new();
        for (mark, live) in [
            ("d4", true),
            ("b2", true),
            ("g7", true),
            ("e5", false),
            ("b7", false),
            ("g2", false),
        ] {
            sample.mark = Some(sq(mark));
            sample.live_rendezvous = live;
            boards.push(draw_raw(&sample).pixmap);
        }
        crate::encode::Palette::from_samples(&boards.iter().collect::<Vec<_>>())
    })
}

fn sprites() -> &'static Sprites {
    static SPRITES: std::sync::OnceLock<Sprites> = std::sync::OnceLock::new();
    SPRITES.get_or_init(|| {
        let mut c = Canvas::new(WIDTH, HEIGHT, PAPER);
        for sq in Square::all() {
            let (x, y) = (
                MARGIN + sq.file() as f32 * SQUARE,
                MARGIN + (7 - sq.rank()) as f32 * SQUARE,
            );
            let shade = ((sq.file() + sq.rank()) % 2) as usize;
            let fill = if sq.is_border() {
                BORDER[shade]
            } else {
                FIELD[shade]
            };
            c.rect(x, y, SQUARE, SQUARE, fill);
        }
        // The line between border and field.
        c.frame(
            MARGIN + SQUARE,
            MARGIN + SQUARE,
            SQUARE * 6.0,
            SQUARE * 6.0,
            2.0,
            rgba(0x3B2F22, 120),
        );
        c.frame(MARGIN, MARGIN, SQUARE * 8.0, SQUARE * 8.0, 3.0, INK);
        for i in 0..8u8 {
            let file = ((b'a' + i) as char).to_string();
            let x = MARGIN + (i as f32 + 0.5) * SQUARE;
            c.text(&file, x, MARGIN - 9.0, 19.0, Align::Center, SOFT_INK);
            c.text(
                &file,
                x,
                MARGIN + 8.0 * SQUARE + 24.0,
                19.0,
                Align::Center,
                SOFT_INK,
            );
            let rank = (8 - i).to_string();
            let y = MARGIN + (i as f32 + 0.5) * SQUARE + 7.0;
            c.text(&rank, MARGIN / 2.0, y, 19.0, Align::Center, SOFT_INK);
            c.text(
                &rank,
                MARGIN * 1.5 + 8.0 * SQUARE,
                y,
                19.0,
                Align::Center,
                SOFT_INK,
            );
        }
        let man = |seat: Seat| {
            let mut m = Canvas::new(SQUARE as u32, SQUARE as u32, [0, 0, 0, 0]);
            let (x, y, r) = (SQUARE / 2.0, SQUARE / 2.0, SQUARE * 0.33);
            m.disc(x + 1.5, y + 2.5, r, rgba(0x000000, 60));
            if seat == Seat::WHITE {
                m.disc(x, y, r, WHITE_MAN);
                m.ring(x, y, r, 3.0, rgb(0x2B2B2B));
            } else {
                m.disc(x, y, r, BLACK_MAN);
                m.ring(x, y, r - 3.0, 2.0, rgb(0x6A6A6A));
                m.ring(x, y, r, 2.0, rgb(0x000000));
            }
            m.pixmap
        };
        Sprites {
            background: c.pixmap,
            men: [man(Seat::WHITE), man(Seat::BLACK)],
        }
    })
}

/// Draws the view on a new canvas.
pub fn draw(view: &LanrickView) -> Canvas {
    draw_raw(view)
}

fn draw_raw(view: &LanrickView) -> Canvas {
    let art = sprites();
    let mut c = Canvas {
        pixmap: art.background.clone(),
    };
    if let Some(mark) = view.mark {
        let (cx, cy) = centre(mark);
        let (x1, y1) = (
            (cx - 1.5 * SQUARE).max(MARGIN),
            (cy - 1.5 * SQUARE).max(MARGIN),
        );
        let far = MARGIN + 8.0 * SQUARE;
        let (x2, y2) = ((cx + 1.5 * SQUARE).min(far), (cy + 1.5 * SQUARE).min(far));
        let (fill, edge) = if view.live_rendezvous {
            (ZONE, ZONE_EDGE)
        } else {
            (rgba(0x2E8B57, 40), rgba(0x1F6E42, 150))
        };
        c.rect(x1, y1, x2 - x1, y2 - y1, fill);
        c.frame(x1 + 2.0, y1 + 2.0, x2 - x1 - 4.0, y2 - y1 - 4.0, 4.0, edge);
        // The coin: a gold ring that stays visible under a man.
        c.disc(cx, cy, SQUARE * 0.46, rgba(0xC99A1E, 70));
        c.ring(cx, cy, SQUARE * 0.44, 5.0, COIN);
    }
    for sq in &view.dotted {
        let (x, y) = centre(*sq);
        c.disc(x, y, 7.0, COIN);
        c.ring(x, y, 7.0, 1.5, rgba(0x3B2F22, 160));
    }
    for (from, _, seat) in &view.trails {
        let (x, y) = centre(*from);
        c.disc(x, y, 9.0, TRAIL[seat.index()]);
    }
    let men = view
        .white
        .iter()
        .map(|s| (*s, Seat::WHITE))
        .chain(view.black.iter().map(|s| (*s, Seat::BLACK)));
    for (sq, seat) in men {
        let (x, y) = centre(sq);
        c.pixmap.draw_pixmap(
            (x - SQUARE / 2.0) as i32,
            (y - SQUARE / 2.0) as i32,
            art.men[seat.index()].as_ref(),
            &tiny_skia::PixmapPaint::default(),
            tiny_skia::Transform::identity(),
            None,
        );
    }
    for (from, to, seat) in &view.trails {
        c.arrow(centre(*from), centre(*to), 7.0, TRAIL[seat.index()]);
    }
    for sq in &view.carried {
        let (x, y) = centre(*sq);
        c.ring(x, y, SQUARE * 0.43, 4.0, COIN);
    }
    for sq in &view.ringed {
        let (x, y) = centre(*sq);
        c.ring(x, y, SQUARE * 0.43, 5.0, CALL);
    }
    if let Some(sq) = view.taken_at {
        let (x, y) = centre(sq);
        let d = SQUARE * 0.26;
        c.line((x - d, y - d), (x + d, y + d), 7.0, CALL);
        c.line((x - d, y + d), (x + d, y - d), 7.0, CALL);
    }
    let base = MARGIN * 2.0 + SQUARE * 8.0;
    c.text(
        &view.headline,
        WIDTH as f32 / 2.0,
        base + 30.0,
        Canvas::fit(WIDTH, &view.headline, 25.0),
        Align::Center,
        INK,
    );
    c.text(
        &view.detail,
        WIDTH as f32 / 2.0,
        base + 66.0,
        Canvas::fit(WIDTH, &view.detail, 20.0),
        Align::Center,
        SOFT_INK,
    );
    c
}

/// Encodes a drawn board with the theme's palette.
pub fn encode(canvas: &Canvas) -> Vec<u8> {
    crate::encode::png_with(&canvas.pixmap, palette())
}

/// The board of `game` after `events` as a PNG.
pub fn png(game: &Lanrick, events: &[LanrickEvent], names: [&str; 2]) -> Vec<u8> {
    png_noted(game, events, names, "")
}

/// [`png`], with `note` (a timed game's clocks) after the caption's second line.
pub fn png_noted(game: &Lanrick, events: &[LanrickEvent], names: [&str; 2], note: &str) -> Vec<u8> {
    let mut view = LanrickView::new(game, events, names);
    view.detail = crate::noted(&view.detail, note);
    crate::encode::png_with(&draw(&view).pixmap, palette())
}

/// A one-line description of the picture for screen readers and notifications.
pub fn alt_text(game: &Lanrick, names: [&str; 2]) -> String {
    let list = |seat: Seat| {
        squares(game.men(seat))
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let view = LanrickView::new(game, &[], names);
    let mark = game
        .mark()
        .map_or("no mark".to_string(), |m| format!("mark {m}"));
    format!(
        "Lanrick board: White {}; Black {}; {mark}. {}. {}",
        list(Seat::WHITE),
        list(Seat::BLACK),
        view.headline,
        view.detail
    )
}
