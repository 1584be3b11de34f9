//! The Lanrick board as a PNG: border and field told apart, the rendezvous and the mark, the
//! men, the last decision's paths, coordinates, and a caption saying whose decision it is, the
//! budget, the men taken and what the phase asks for (the men to move to the border are ringed,
//! the squares where the mark may go are dotted).

use muster_rules::Seat;
use muster_rules::lanrick::{Lanrick, LanrickEvent, Phase, Square, Squares, squares};
use muster_rules::{EndReason, Game, Outcome};

use crate::canvas::{Align, Backdrop, Canvas, Sprite};
use crate::style::{Colours, Size, Style, Theme, Turn, alpha};

/// Side of one square, in pixels (at the normal size).
pub const SQUARE: f32 = 70.0;
/// Space for coordinates around the board.
pub const MARGIN: f32 = 32.0;
/// Height of the caption under the board.
pub const CAPTION: f32 = 92.0;
/// Image width (at the normal size).
pub const WIDTH: u32 = (MARGIN * 2.0 + SQUARE * 8.0) as u32;
/// Image height (at the normal size).
pub const HEIGHT: u32 = (MARGIN * 2.0 + SQUARE * 8.0 + CAPTION) as u32;

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
                LanrickEvent::Stepped { seat, from, to } => view.step(*from, *to, *seat),
                LanrickEvent::ToBorder {
                    owner, from, to, ..
                } => view.step(*from, *to, *owner),
                LanrickEvent::Took { square, .. } => view.taken_at = Some(*square),
                _ => {}
            }
        }
        view.ringed = squares(game.men_for_border()).collect();
        if game.phase() == Phase::Capture {
            let men = [game.men(Seat::WHITE), game.men(Seat::BLACK)];
            view.ring_losers(game.to_move(), men, game.rendezvous(), false);
        }
        view.dotted = squares(game.legal_marks()).collect();
        view.headline = headline(game, names);
        let mark = game.mark().filter(|_| game.phase() != Phase::Mark);
        view.detail =
            rendezvous_and_taken(mark, [game.taken(Seat::WHITE), game.taken(Seat::BLACK)])
                .join(" · ");
        view
    }

    /// A man of `seat`'s colour went from `from` to `to` in the last decision.
    pub(crate) fn step(&mut self, from: Square, to: Square, seat: Seat) {
        self.trails.push((from, to, seat));
    }

    /// Rings the men of the player who lost the rendezvous (the adversary of `winner`) that
    /// stand outside it — on the field alone when `field_only` (wanderers).
    pub(crate) fn ring_losers(
        &mut self,
        winner: Option<Seat>,
        men: [Squares; 2],
        zone: Option<Squares>,
        field_only: bool,
    ) {
        let loser = winner.map_or(Seat::WHITE, Seat::opponent);
        let mut set = men[loser.index()] & !zone.unwrap_or(0);
        if field_only {
            set &= muster_rules::lanrick::FIELD;
        }
        self.ringed = squares(set).collect();
    }

    /// The one-line description of the board for screen readers: `title`, where each side's
    /// men stand, the mark (or `no_mark`), and the caption.
    pub(crate) fn alt_text(&self, title: &str, no_mark: &str) -> String {
        let list = |men: &[Square]| {
            men.iter()
                .map(Square::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mark = self
            .mark
            .map_or(no_mark.to_string(), |m| format!("mark {m}"));
        format!(
            "{title}: White {}; Black {}; {mark}. {}. {}",
            list(&self.white),
            list(&self.black),
            self.headline,
            self.detail
        )
    }
}

/// The caption's second line as both editions begin it: the rendezvous (once it is set and
/// stands for the round) and the men each side has taken.
pub(crate) fn rendezvous_and_taken(mark: Option<Square>, taken: [u8; 2]) -> Vec<String> {
    let mut parts = Vec::new();
    if let Some(m) = mark {
        parts.push(format!("Rendezvous {} (mark {m})", m.block_name()));
    }
    parts.push(format!("Taken: White {}, Black {}", taken[0], taken[1]));
    parts
}

/// The caption's first line once a game of either edition is over; `won` says how a game
/// played to its end was won.
pub(crate) fn result_line(outcome: Outcome, names: [&str; 2], won: &str) -> String {
    match outcome {
        Outcome::Winner { team, reason } => {
            let seat = if team.index() == 0 {
                Seat::WHITE
            } else {
                Seat::BLACK
            };
            let how = match reason {
                EndReason::Resignation => "by resignation",
                EndReason::Time => "on time",
                _ => won,
            };
            format!("{} wins {how}", crate::player(seat, names))
        }
        Outcome::Draw {
            reason: EndReason::Agreement,
        } => "Drawn by agreement".to_string(),
        Outcome::Draw { .. } => "Drawn: the same position a third time".to_string(),
    }
}

fn headline(game: &Lanrick, names: [&str; 2]) -> String {
    if let Some(outcome) = game.outcome() {
        return result_line(outcome, names, "with four men taken");
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

/// Where the board sits in the picture: which way it is turned (Black at the bottom is a half
/// turn), at what scale.
#[derive(Clone, Copy)]
struct Frame {
    turn: Turn,
}

impl Frame {
    fn of(style: Style) -> Frame {
        Frame {
            turn: Turn::bringing_down(style.bottom, 2),
        }
    }

    /// The top-left corner of a square.
    fn corner(self, sq: Square) -> (f32, f32) {
        let (row, col) = self.turn.cell(7 - sq.rank(), sq.file(), 8, 8);
        (MARGIN + col as f32 * SQUARE, MARGIN + row as f32 * SQUARE)
    }

    /// The centre of a square.
    fn centre(self, sq: Square) -> (f32, f32) {
        let (x, y) = self.corner(sq);
        (x + SQUARE / 2.0, y + SQUARE / 2.0)
    }
}

/// The parts of every board that never change — paper, squares, frames, coordinates — and the
/// two men, drawn once per style and then copied (the lila-gif approach, in
/// docs/performance.md).
struct Sprites {
    background: Backdrop,
    men: [Sprite; 2],
}

/// The theme's palette, from boards showing everything the theme draws: the colours of every
/// Lanrick board (both editions) and of its replays.
pub fn palette(theme: Theme) -> &'static crate::encode::Palette {
    static PALETTES: [std::sync::OnceLock<crate::encode::Palette>; 3] =
        [const { std::sync::OnceLock::new() }; 3];
    crate::encode::themed(&PALETTES, theme, |style| {
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
            boards.push(draw(&sample, style).pixmap);
        }
        boards
    })
}

fn sprites(style: Style) -> &'static Sprites {
    static SPRITES: [std::sync::OnceLock<Sprites>; 18] = [const { std::sync::OnceLock::new() }; 18];
    let frame = Frame::of(style);
    let turned = usize::from(frame.turn != Turn::NONE);
    let slot = (style.theme as usize * 2 + turned) * 3 + style.size.index();
    SPRITES[slot].get_or_init(|| {
        let k = style.theme.colours();
        let scale = style.size.scale();
        let mut c = Canvas::scaled(WIDTH as f32, HEIGHT as f32, k.paper, scale);
        for sq in Square::all() {
            let (x, y) = frame.corner(sq);
            let shade = ((sq.file() + sq.rank()) % 2) as usize;
            let fill = if sq.is_border() {
                k.lanrick.border[shade]
            } else {
                k.lanrick.field[shade]
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
            k.lanrick.divide,
        );
        c.frame(MARGIN, MARGIN, SQUARE * 8.0, SQUARE * 8.0, 3.0, k.ink);
        // The coordinates of the column and the row at each place along the edges.
        for i in 0..8u8 {
            let at = frame.turn.cell(i, i, 8, 8);
            let file = ((b'a' + at.1) as char).to_string();
            let x = MARGIN + (i as f32 + 0.5) * SQUARE;
            c.text(&file, x, MARGIN - 9.0, 19.0, Align::Center, k.soft_ink);
            c.text(
                &file,
                x,
                MARGIN + 8.0 * SQUARE + 24.0,
                19.0,
                Align::Center,
                k.soft_ink,
            );
            let rank = (8 - at.0).to_string();
            let y = MARGIN + (i as f32 + 0.5) * SQUARE + 7.0;
            c.text(&rank, MARGIN / 2.0, y, 19.0, Align::Center, k.soft_ink);
            c.text(
                &rank,
                MARGIN * 1.5 + 8.0 * SQUARE,
                y,
                19.0,
                Align::Center,
                k.soft_ink,
            );
        }
        Sprites {
            background: Backdrop::new(c.pixmap),
            men: [man(k, Seat::WHITE, scale), man(k, Seat::BLACK, scale)],
        }
    })
}

/// One man on a transparent square, with his shadow.
fn man(k: &Colours, seat: Seat, scale: f32) -> Sprite {
    let mut m = Canvas::scaled(SQUARE, SQUARE, [0, 0, 0, 0], scale);
    let (x, y, r) = (SQUARE / 2.0, SQUARE / 2.0, SQUARE * 0.33);
    m.disc(x + 1.5, y + 2.5, r, k.shadow);
    if seat == Seat::WHITE {
        m.disc(x, y, r, k.white[0]);
        m.ring(x, y, r, 3.0, k.white[1]);
    } else {
        m.disc(x, y, r, k.black[0]);
        m.ring(x, y, r - 3.0, 2.0, k.black[2]);
        m.ring(x, y, r, 2.0, k.black[1]);
    }
    Sprite::new(m.pixmap)
}

/// Draws the view in `style` on a new canvas.
pub fn draw(view: &LanrickView, style: Style) -> Canvas {
    let art = sprites(style);
    let k = style.theme.colours();
    let frame = Frame::of(style);
    let centre = |sq: Square| frame.centre(sq);
    let mut c = Canvas::on(&art.background, style.size.scale());
    if let Some(mark) = view.mark {
        // The rendezvous: the mark's block of nine squares, cut by the board's edge.
        let (cx, cy) = centre(mark);
        let (x1, y1) = (
            (cx - 1.5 * SQUARE).max(MARGIN),
            (cy - 1.5 * SQUARE).max(MARGIN),
        );
        let far = MARGIN + 8.0 * SQUARE;
        let (x2, y2) = ((cx + 1.5 * SQUARE).min(far), (cy + 1.5 * SQUARE).min(far));
        let [fill, edge] = if view.live_rendezvous {
            k.lanrick.zone
        } else {
            k.lanrick.faint_zone
        };
        c.rect(x1, y1, x2 - x1, y2 - y1, fill);
        c.frame(x1 + 2.0, y1 + 2.0, x2 - x1 - 4.0, y2 - y1 - 4.0, 4.0, edge);
        // The coin: a gold ring that stays visible under a man.
        c.disc(cx, cy, SQUARE * 0.46, alpha(k.gold, 70));
        c.ring_edged((cx, cy), SQUARE * 0.44, 5.0, k.gold, k.gold_edge);
    }
    for sq in &view.dotted {
        let (x, y) = centre(*sq);
        c.disc(x, y, 7.0, k.gold);
        c.ring(x, y, 7.0, 1.5, k.lanrick.dot_edge);
    }
    for (from, _, seat) in &view.trails {
        let (x, y) = centre(*from);
        c.disc(x, y, 9.0, k.trail[seat.index()]);
    }
    let men = view
        .white
        .iter()
        .map(|s| (*s, Seat::WHITE))
        .chain(view.black.iter().map(|s| (*s, Seat::BLACK)));
    for (sq, seat) in men {
        let (x, y) = frame.corner(sq);
        c.stamp(&art.men[seat.index()], x, y, 255);
    }
    for (from, to, seat) in &view.trails {
        c.arrow(centre(*from), centre(*to), 7.0, k.trail[seat.index()]);
    }
    for sq in &view.carried {
        let (x, y) = centre(*sq);
        c.ring_edged((x, y), SQUARE * 0.43, 4.0, k.gold, k.gold_edge);
    }
    for sq in &view.ringed {
        let (x, y) = centre(*sq);
        c.ring(x, y, SQUARE * 0.43, 5.0, k.call);
    }
    if let Some(sq) = view.taken_at {
        let (x, y) = centre(sq);
        let d = SQUARE * 0.26;
        c.line((x - d, y - d), (x + d, y + d), 7.0, k.call);
        c.line((x - d, y + d), (x + d, y - d), 7.0, k.call);
    }
    let base = MARGIN * 2.0 + SQUARE * 8.0;
    c.caption(&view.headline, WIDTH, base + 30.0, 25.0, k.ink);
    c.caption(&view.detail, WIDTH, base + 66.0, 20.0, k.soft_ink);
    c
}

/// Encodes a board drawn in `theme` with the theme's palette.
pub fn encode(canvas: &Canvas, theme: Theme) -> Vec<u8> {
    crate::encode::png_of(canvas, palette(theme))
}

/// The board of `game` after `events` as a PNG, in the default style.
pub fn png(game: &Lanrick, events: &[LanrickEvent], names: [&str; 2]) -> Vec<u8> {
    png_noted(game, events, names, "", Style::default())
}

/// [`png`] in `style`, with `note` (a timed game's clocks) after the caption's second line.
pub fn png_noted(
    game: &Lanrick,
    events: &[LanrickEvent],
    names: [&str; 2],
    note: &str,
    style: Style,
) -> Vec<u8> {
    let mut view = LanrickView::new(game, events, names);
    view.detail = crate::noted(&view.detail, note);
    encode(&draw(&view, style), style.theme)
}

/// A one-line description of the picture for screen readers and notifications.
pub fn alt_text(game: &Lanrick, names: [&str; 2]) -> String {
    LanrickView::new(game, &[], names).alt_text("Lanrick board", "no mark")
}

/// The sizes of a board drawn at `size`: width and height in pixels.
pub fn dimensions(size: Size) -> (u32, u32) {
    let s = size.scale();
    (
        (WIDTH as f32 * s).round() as u32,
        (HEIGHT as f32 * s).round() as u32,
    )
}
