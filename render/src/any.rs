//! Any game drawn: the one place that knows which drawing each game has, so that what draws a
//! game it holds as a [`AnyGame`] (the bot's boards, its replays) names none of them. Adding a
//! game adds its arm here, and nowhere in the bot.

use muster_rules::{AnyEvent, AnyGame};
use tiny_skia::Pixmap;

use crate::encode::Palette;
use crate::{Style, Theme, animation, croquet, lanko, lanrick, lanrick1880};

/// A frame of a replay, as [`animation::Writer`] takes it.
pub type Frame = Pixmap;

/// A board drawn: the picture, its description, and the board as text for terminals.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Board {
    /// The PNG.
    pub png: Vec<u8>,
    /// A description of the image.
    pub alt: String,
    /// The board as text.
    pub text: String,
}

/// The events of one game kind, out of a list of any game's events.
macro_rules! events_of {
    ($events:expr, $kind:ident) => {
        $events
            .iter()
            .filter_map(|e| {
                if let AnyEvent::$kind(e) = e {
                    Some(e.clone())
                } else {
                    None
                }
            })
            .collect::<Vec<_>>()
    };
}

/// `game`'s board with `events` (the decisions just played) marked, the players' `names` on
/// its seats (two games use the first two), and `note` (the clocks, say) in its caption.
pub fn board(
    game: &AnyGame,
    events: &[AnyEvent],
    names: [&str; 4],
    note: &str,
    style: Style,
) -> Board {
    let two = [names[0], names[1]];
    match game {
        AnyGame::Lanrick(g) => {
            let events = events_of!(events, Lanrick);
            Board {
                png: lanrick::png_noted(g, &events, two, note, style),
                alt: lanrick::alt_text(g, two),
                text: crate::text::lanrick(g),
            }
        }
        AnyGame::Lanrick1880(g) => {
            let events = events_of!(events, Lanrick1880);
            Board {
                png: lanrick1880::png_noted(g, &events, two, note, style),
                alt: lanrick1880::alt_text(g, two),
                text: crate::text::lanrick1880(g),
            }
        }
        AnyGame::Croquet(g) => {
            let events = events_of!(events, Croquet);
            let alt = croquet::alt_text(g, two);
            Board {
                png: croquet::png_noted(g, &events, two, note, style),
                text: alt.clone(),
                alt,
            }
        }
        AnyGame::Lanko(g) => {
            let events = events_of!(events, Lanko);
            Board {
                png: lanko::png_noted(g, &events, names, note, style),
                alt: lanko::alt_text_after(g, &events, names),
                text: crate::text::lanko(g),
            }
        }
    }
}

/// What a replay's frame says in its caption.
pub enum Caption<'a> {
    /// `Start`, before the first decision.
    Start,
    /// `12 · Bob (Black)`: the decision just played, and who played it.
    Decision(usize, &'a str),
    /// The last frame keeps the board's own caption, which gives the result, with this note
    /// (how the game ended, when the moves do not say).
    Last(&'a str),
}

/// One frame of a replay: the position of `game` after `events` (marked as the board marks
/// them), without the hints a board gives the player to decide (which men may go, where the
/// mark may), at the replay's scale, in `style`.
pub fn frame(
    game: &AnyGame,
    events: &[AnyEvent],
    names: [&str; 4],
    caption: Caption<'_>,
    style: Style,
) -> Frame {
    let two = [names[0], names[1]];
    let headline = |own: &mut String, detail: &mut String| match caption {
        Caption::Start => *own = "Start".into(),
        Caption::Decision(n, who) => *own = format!("{n} · {who}"),
        Caption::Last(note) => *detail = crate::noted(detail, note),
    };
    let quiet = |view: &mut lanrick::LanrickView| {
        view.ringed.clear();
        view.dotted.clear();
        view.carried.clear();
    };
    let full = match game {
        AnyGame::Lanrick(g) => {
            let events = events_of!(events, Lanrick);
            let mut view = lanrick::LanrickView::new(g, &events, two);
            quiet(&mut view);
            headline(&mut view.headline, &mut view.detail);
            lanrick::draw(&view, style)
        }
        AnyGame::Lanrick1880(g) => {
            let events = events_of!(events, Lanrick1880);
            let mut view = lanrick1880::view(g, &events, two);
            quiet(&mut view);
            headline(&mut view.headline, &mut view.detail);
            lanrick::draw(&view, style)
        }
        AnyGame::Croquet(g) => {
            let events = events_of!(events, Croquet);
            let note = match caption {
                Caption::Last(note) => note,
                _ => "",
            };
            croquet::draw_noted(g, &events, two, note, style)
        }
        AnyGame::Lanko(g) => {
            let events = events_of!(events, Lanko);
            let mut view = lanko::LankoView::new(g, &events, names);
            headline(&mut view.headline, &mut view.detail);
            lanko::draw(&view, style)
        }
    };
    animation::shrunk(&full.pixmap, animation::SCALE)
}

/// The colours a replay of `game` is encoded with, in `theme`.
pub fn palette(game: &AnyGame, theme: Theme) -> &'static Palette {
    match game {
        AnyGame::Lanrick(_) | AnyGame::Lanrick1880(_) => lanrick::palette(theme),
        AnyGame::Croquet(_) => croquet::palette(theme),
        AnyGame::Lanko(_) => lanko::palette(theme),
    }
}
