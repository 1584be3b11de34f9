//! The Lanko boards as PNGs: the irregular board of each variant with its strips, middle (or
//! manoeuvre and end) squares, barriers and square labels; the four seats around it, the one to
//! move ringed; the pieces told apart by shape (□ big castle, △ small castle, ○ pawn) and colour,
//! castles at home starred; the last move as arrows, taken pieces crossed out; and a caption with
//! whose turn it is, the score and, at the end, the result.

mod art;
mod words;

use muster_rules::lanko::{Board, Kind, Lanko, LankoEvent, Piece, Sq, TABLE, Variant};
use muster_rules::{Game, Seat};

use crate::canvas::Canvas;
use crate::style::{Colours, Style, Theme, alpha};
use art::art;
pub use art::{HEIGHT, WIDTH};
use words::{castles, last_move, notes, result, team, who};

/// One piece's way in the last move: the squares it passed, in order.
#[derive(Clone, PartialEq, Debug)]
pub struct Trail {
    /// The squares, from the start to the landing square (a jump passes the square between).
    pub squares: Vec<Sq>,
    /// Whether White moved (drawn blue) or Black (drawn orange).
    pub white: bool,
    /// Whether every leg is a capture (each gets its own arrowhead).
    pub capture: bool,
}

/// What the picture shows, independent of the rules that produced it.
#[derive(Clone, PartialEq, Debug)]
pub struct LankoView {
    /// Which board.
    pub variant: Variant,
    /// The piece on each square.
    pub cells: Vec<Option<Piece>>,
    /// The seat to move (by index: s, w, n, e), ringed.
    pub to_move: Option<usize>,
    /// The text on each seat's plate.
    pub plates: [String; 4],
    /// The last move's ways.
    pub trails: Vec<Trail>,
    /// Pieces just taken, where they stood (shown faint and crossed out).
    pub taken: Vec<(Sq, Piece)>,
    /// A pawn just burned on a middle square.
    pub burned: Option<(Sq, Piece)>,
    /// First caption line: whose turn, or the result.
    pub headline: String,
    /// Second caption line: the score and what the last move did.
    pub detail: String,
}

impl LankoView {
    /// The view of `game` after `events` (the last decision's), with the seats' names in turn
    /// order (s, w, n, e; an empty name shows the seat letter alone).
    pub fn new(game: &Lanko, events: &[LankoEvent], names: [&str; 4]) -> LankoView {
        let board = game.board();
        let declared = game.declared();
        let plates = std::array::from_fn(|i| {
            let mut text = TABLE.seats[i].to_ascii_uppercase();
            if !names[i].is_empty() {
                text = format!("{text} · {}", names[i]);
            }
            if declared[i] {
                text.push_str(" · declared");
            }
            text
        });
        let mut view = LankoView {
            variant: game.variant(),
            cells: game.cells().clone(),
            to_move: game.to_move().map(Seat::index),
            plates,
            trails: Vec::new(),
            taken: Vec::new(),
            burned: None,
            headline: String::new(),
            detail: String::new(),
        };
        for e in events {
            match e {
                LankoEvent::Moved {
                    piece,
                    from,
                    over,
                    to,
                    ..
                } => view.trails.push(Trail {
                    squares: [Some(*from), *over, Some(*to)]
                        .into_iter()
                        .flatten()
                        .collect(),
                    white: piece.white,
                    capture: false,
                }),
                LankoEvent::Captured {
                    piece, path, taken, ..
                } => {
                    view.trails.push(Trail {
                        squares: path.clone(),
                        white: piece.white,
                        capture: true,
                    });
                    view.taken.extend(taken.iter().copied());
                }
                LankoEvent::Burned { piece, square } => view.burned = Some((*square, *piece)),
                _ => {}
            }
        }
        let [w, b] = game.score();
        let score = format!("White {w} · Black {b}");
        let notes = notes(board, events);
        if let Some((line, reason)) = result(game) {
            view.headline = line;
            view.detail = [reason, score]
                .into_iter()
                .filter(|s| !s.is_empty())
                .collect::<Vec<_>>()
                .join(" · ");
        } else if let Some(seat) = game.to_move() {
            let i = seat.index();
            let note = if declared[i] { " (declared)" } else { "" };
            view.headline = format!("{} to move{note} — {}", who(i, names), team(i % 2 == 0));
            view.detail = std::iter::once(score)
                .chain(notes)
                .collect::<Vec<_>>()
                .join(" · ");
        }
        view
    }
}

/// Draws the view in `style` on a new canvas: turned so that the seat `style.bottom` sits at
/// the bottom.
pub fn draw(view: &LankoView, style: Style) -> Canvas {
    let board = view.variant.board();
    let art = art(view.variant, style);
    let k = style.theme.colours();
    let geo = art.geo;
    let s = geo.cell;
    let mut c = Canvas::on(&art.background, style.size.scale());
    for (i, text) in view.plates.iter().enumerate() {
        art::plate(
            &mut c,
            k,
            geo,
            geo.side(i),
            text,
            i % 2 == 0,
            view.to_move == Some(i),
        );
    }
    let corner = |sq: Sq| {
        let info = board.info(sq);
        geo.corner(info.row, info.col)
    };
    let centre = |sq: Sq| geo.centre(board, sq);
    // The last move's start and landing squares, tinted.
    for t in &view.trails {
        for sq in [t.squares.first(), t.squares.last()].into_iter().flatten() {
            let (x, y) = corner(*sq);
            c.rect(x + 1.0, y + 1.0, s - 2.0, s - 2.0, k.lanko.last);
        }
    }
    let stamp = |c: &mut Canvas, sq: Sq, p: Piece, opacity: u32| {
        let (x, y) = corner(sq);
        c.stamp(art.piece(p), x, y, opacity);
    };
    let home = |sq: usize| board.info(sq as Sq).role.is_goal();
    let mut relabel: Vec<Sq> = view
        .trails
        .iter()
        .flat_map(|t| [t.squares.first(), t.squares.last()])
        .flatten()
        .copied()
        .collect();
    for (sq, cell) in view.cells.iter().enumerate() {
        if cell.is_some_and(|p| p.kind.is_castle()) && home(sq) {
            let (x, y) = centre(sq as Sq);
            c.disc(x, y, s * 0.44, alpha(k.gold, 100));
            c.ring_edged((x, y), s * 0.42, 3.5, k.gold, k.gold_edge);
            relabel.push(sq as Sq);
        }
    }
    // The tint and the rings cover labels: write those again.
    for sq in relabel {
        art::label(&mut c, board, geo, k, sq);
    }
    for (sq, p) in view.taken.iter().chain(view.burned.iter()) {
        stamp(&mut c, *sq, *p, 90);
    }
    for (sq, cell) in view.cells.iter().enumerate() {
        if let Some(p) = cell {
            stamp(&mut c, sq as Sq, *p, 255);
        }
    }
    for (sq, cell) in view.cells.iter().enumerate() {
        if let Some(p) = cell.filter(|p| p.kind.is_castle() && home(sq)) {
            let (x, y) = centre(sq as Sq);
            let dy = art::lower(p.kind) + if p.kind == Kind::Small { 1.5 } else { 0.0 };
            art::star(&mut c, x, y + dy, s * 0.15, k.gold, k.lanko.star_edge);
        }
    }
    last_move_marks(&mut c, view, board, geo, k);
    let base = HEIGHT as f32 - art::CAPTION;
    c.caption(&view.headline, WIDTH, base + 32.0, 24.0, k.ink);
    c.caption(&view.detail, WIDTH, base + 64.0, 19.0, k.soft_ink);
    c
}

/// The last move over the pieces: each piece's way from a dot on its start, an arrowhead on
/// its last leg (on every leg of a capture); the pieces it took and a pawn burned crossed out.
fn last_move_marks(c: &mut Canvas, view: &LankoView, board: &Board, geo: art::Geo, k: &Colours) {
    let (s, centre) = (geo.cell, |sq: Sq| geo.centre(board, sq));
    for t in &view.trails {
        let colour = alpha(k.trail[usize::from(!t.white)], 215);
        let (x, y) = centre(t.squares[0]);
        c.disc(x, y, 7.0, colour);
        let legs: Vec<(Sq, Sq)> = t.squares.windows(2).map(|w| (w[0], w[1])).collect();
        for (k, (a, b)) in legs.iter().enumerate() {
            if t.capture || k + 1 == legs.len() {
                c.arrow(centre(*a), centre(*b), 6.0, colour);
            } else {
                c.line(centre(*a), centre(*b), 6.0, colour);
            }
        }
    }
    let cross = |c: &mut Canvas, sq: Sq, colour: [u8; 4]| {
        let (x, y) = centre(sq);
        let d = s * 0.24;
        for (a, b) in [
            ((x - d, y - d), (x + d, y + d)),
            ((x - d, y + d), (x + d, y - d)),
        ] {
            c.line(a, b, 9.0, k.lanko.halo);
            c.line(a, b, 6.0, colour);
        }
    };
    for (sq, _) in &view.taken {
        cross(c, *sq, k.call);
    }
    if let Some((sq, _)) = view.burned {
        cross(c, sq, k.lanko.burn);
    }
}

/// The theme's palette, from boards of every variant showing everything the theme draws: the
/// colours of every Lanko board and of its replays.
pub fn palette(theme: Theme) -> &'static crate::encode::Palette {
    static PALETTES: [std::sync::OnceLock<crate::encode::Palette>; 3] =
        [const { std::sync::OnceLock::new() }; 3];
    crate::encode::themed(&PALETTES, theme, |style| {
        let names = [
            "Abcdefghijk",
            "Lmnopqrstu",
            "Vwxyz",
            "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
        ];
        let mut boards = Vec::new();
        for (k, variant) in Variant::ALL.into_iter().enumerate() {
            let game = Lanko::new(variant);
            let board = variant.board();
            let mut view = LankoView::new(&game, &[], names);
            // Castles at home, a capture by each colour, a burned pawn.
            let goals: Vec<Sq> = board.goals().collect();
            for (i, g) in goals.iter().enumerate() {
                let kind = if i % 2 == 0 { Kind::Big } else { Kind::Small };
                view.cells[*g as usize] = Some(Piece {
                    white: i % 3 != 0,
                    kind,
                });
            }
            let sq = |label: &str| board.square(label).unwrap_or(0);
            let (a, b) = if variant == Variant::L103 {
                (["13", "S1", "16"], ["5", "10", "4"])
            } else {
                (["27", "29", "31"], ["11", "13", "15"])
            };
            for (white, path) in [(true, a), (false, b)] {
                view.trails.push(Trail {
                    squares: path.iter().map(|l| sq(l)).collect(),
                    white,
                    capture: white,
                });
            }
            view.taken = vec![(
                sq(a[1]),
                Piece {
                    white: false,
                    kind: Kind::Small,
                },
            )];
            view.burned = Some((
                goals[1],
                Piece {
                    white: true,
                    kind: Kind::Pawn,
                },
            ));
            view.headline = "Black wins by 12 points (62–50) abcdefghijklmnopqrstuvwxyz".into();
            view.detail = "White 76 · Black 76 · S took small castle 29 — 0123456789".into();
            for side in [k, k + 2] {
                view.to_move = Some(side % 4);
                boards.push(draw(&view, style).pixmap);
            }
        }
        boards
    })
}

/// Encodes a board drawn in `theme` with the theme's palette.
pub fn encode(canvas: &Canvas, theme: Theme) -> Vec<u8> {
    crate::encode::png_of(canvas, palette(theme))
}

/// The board of `game` after `events` (the last decision's) as a PNG in the default style, with
/// the seats' names in turn order (s, w, n, e).
pub fn png(game: &Lanko, events: &[LankoEvent], names: [&str; 4]) -> Vec<u8> {
    png_noted(game, events, names, "", Style::default())
}

/// [`png`] in `style`, with `note` (a timed game's clocks) after the caption's second line.
pub fn png_noted(
    game: &Lanko,
    events: &[LankoEvent],
    names: [&str; 4],
    note: &str,
    style: Style,
) -> Vec<u8> {
    let mut view = LankoView::new(game, events, names);
    view.detail = crate::noted(&view.detail, note);
    encode(&draw(&view, style), style.theme)
}

/// A description of the picture for screen readers: the board, whose turn, the score, where
/// each seat's castles stand.
pub fn alt_text(game: &Lanko, names: [&str; 4]) -> String {
    alt_text_after(game, &[], names)
}

/// [`alt_text`], followed by what the last decision (`events`) did.
pub fn alt_text_after(game: &Lanko, events: &[LankoEvent], names: [&str; 4]) -> String {
    let board = game.board();
    let view = LankoView::new(game, events, names);
    let mut parts = vec![
        format!("{} board", board.title),
        view.headline.clone(),
        view.detail.clone(),
    ];
    parts.extend(castles(game, names));
    if let Some(line) = last_move(board, events) {
        parts.push(line);
    }
    parts.join(". ") + "."
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 4] = ["Alice", "Bob", "Carol", "Dave"];

    /// Lanko-88 with a White pawn on S1, a White big castle on S3 and Black's big castle on 19
    /// (W's) or 26 (E's); `seat` to move.
    fn l88(s1: char, black_on: &str, seat: &str) -> Lanko {
        let row3 = if black_on == "19" {
            "b........."
        } else {
            ".........b"
        };
        let position = format!(
            "....../......../........../{row3}/........../........../....{s1}...../....B...../......../...... {seat} - 0"
        );
        Lanko::from_position(Variant::L88, &position).unwrap_or_else(|e| panic!("{e}"))
    }

    fn play(game: &mut Lanko, text: &str) -> Vec<LankoEvent> {
        let seat = game.to_move().expect("to move");
        game.play_text(seat, text)
            .unwrap_or_else(|e| panic!("{text}: {e:?}"))
    }

    #[test]
    fn the_caption_says_whose_turn_it_is_and_the_score() {
        let game = Lanko::new(Variant::L68);
        let [w, b] = game.score();
        let view = LankoView::new(&game, &[], NAMES);
        assert_eq!(view.headline, "S (Alice) to move — White");
        assert_eq!(view.detail, format!("White {w} · Black {b}"));
        assert_eq!(view.to_move, Some(0));
        assert_eq!(view.plates[1], "W · Bob");
        let view = LankoView::new(&game, &[], ["", "", "", ""]);
        assert_eq!(view.headline, "S to move — White");
        assert_eq!(view.plates, ["S", "W", "N", "E"].map(String::from));
    }

    #[test]
    fn the_result_is_given_in_points_or_by_resignation() {
        let mut even = Lanko::new(Variant::L68);
        even.agree_draw().expect("agreed");
        let [w, _] = even.score();
        let view = LankoView::new(&even, &[], NAMES);
        assert_eq!(view.headline, format!("Drawn at {w} points each"));
        assert!(
            view.detail
                .starts_with("The players agreed to end the game · ")
        );
        assert_eq!(view.to_move, None);

        let mut ahead = l88('P', "19", "s");
        ahead.agree_draw().expect("agreed");
        // White: a pawn and a big castle (14); Black: a big castle (12).
        assert_eq!(
            LankoView::new(&ahead, &[], NAMES).headline,
            "White wins by 2 points (14–12)"
        );

        let mut resigned = l88('P', "19", "s");
        resigned.resign(Seat::new(0).unwrap()).expect("resigned");
        let view = LankoView::new(&resigned, &[], NAMES);
        assert_eq!(view.headline, "Black wins: White resigned");
        assert_eq!(view.detail, "White 14 · Black 12");
    }

    #[test]
    fn the_last_move_is_drawn_and_noted() {
        // A pawn reaching a middle square burns.
        let mut game = l88('P', "19", "s");
        let events = play(&mut game, "S1-M3");
        let view = LankoView::new(&game, &events, NAMES);
        let board = game.board();
        let m3 = board.square("M3").unwrap();
        assert_eq!(view.burned.map(|(sq, _)| sq), Some(m3));
        assert_eq!(view.trails.len(), 1);
        assert_eq!(
            view.trails[0].squares,
            vec![board.square("S1").unwrap(), m3]
        );
        assert!(
            view.detail.ends_with("pawn burned on M3"),
            "{}",
            view.detail
        );

        // A castle reaching one stays, at home.
        let mut game = l88('B', "19", "s");
        let events = play(&mut game, "S1-M3");
        let view = LankoView::new(&game, &events, NAMES);
        assert!(
            view.detail.ends_with("big castle home on M3"),
            "{}",
            view.detail
        );
        assert!(
            alt_text_after(&game, &events, NAMES).contains("White castles at home: big castle M3")
        );

        // A declaration, and a seat with nothing to move.
        let mut game = l88('P', "19", "s");
        let events = play(&mut game, "===");
        let view = LankoView::new(&game, &events, NAMES);
        assert!(
            view.detail
                .ends_with("S declared: no castles onto the middle squares")
        );
        assert_eq!(view.plates[0], "S · Alice · declared");
        assert_eq!(view.headline, "S (Alice) to move (declared) — White");
        let mut game = l88('P', "26", "w");
        let events = play(&mut game, "---");
        assert!(
            LankoView::new(&game, &events, NAMES)
                .detail
                .ends_with("W passed")
        );
    }

    #[test]
    fn the_alt_text_tells_where_each_seats_castles_stand() {
        let game = l88('P', "19", "s");
        let alt = alt_text(&game, NAMES);
        assert!(
            alt.starts_with("Lanko-88 board. S (Alice) to move — White. White 14 · Black 12."),
            "{alt}"
        );
        assert!(alt.contains("S (Alice)'s castles: big castle S3"), "{alt}");
        assert!(alt.contains("W (Bob)'s castles: big castle 19"), "{alt}");
        let start = alt_text(&Lanko::new(Variant::L103), ["", "", "", ""]);
        assert!(
            start.starts_with("Lanko-103 board. S to move — White."),
            "{start}"
        );
    }

    #[test]
    fn boards_are_deterministic_and_phone_sized() {
        for variant in Variant::ALL {
            let game = Lanko::new(variant);
            let png = png(&game, &[], NAMES);
            assert_eq!(png, super::png(&game, &[], NAMES));
            let (w, h, _) = crate::encode::decode_rgb(&png).expect("decodes");
            assert_eq!((w, h), (WIDTH, HEIGHT));
            assert!((640..=800).contains(&w.max(h)));
            // The whole board fits between the seat plates.
            let geo = art::Geo::of(variant.board(), crate::style::Turn::NONE);
            assert!(geo.x0 >= art::BAND && geo.x0 + geo.w <= WIDTH as f32 - art::BAND);
        }
    }
}
