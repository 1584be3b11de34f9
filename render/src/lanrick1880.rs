//! The board of Lanrick's first version: the Third Edition's picture (the same view, drawn by
//! the same code), plus who may still shift the mark this round, where to (gold dots), and the
//! men a shift would carry (gold rings).

use muster_rules::lanrick::squares;
use muster_rules::lanrick1880::{Event, Lanrick1880, Phase};
use muster_rules::{Game, Seat};

use crate::lanrick::{LanrickView, draw, encode, rendezvous_and_taken, result_line};
use crate::style::Style;

/// The boards are drawn with the Third Edition's view and themes, so with its palettes.
pub use crate::lanrick::palette;

fn headline(game: &Lanrick1880, names: [&str; 2]) -> String {
    if let Some(outcome) = game.outcome() {
        return result_line(outcome, names, "— the other has no men left");
    }
    let Some(seat) = game.to_move() else {
        return String::new();
    };
    let p = crate::player(seat, names);
    match game.phase() {
        Phase::Setup => format!("{p}: set all ten men on the border"),
        Phase::Choose => format!("{p}: choose the rendezvous (dots show where)"),
        Phase::Play => {
            let b = game.budget().unwrap_or(0);
            if !game.legal_shifts().is_empty() {
                format!("{p}: {b} squares, each man once — or shift the mark (dots)")
            } else {
                format!("{p} to play: {b} squares, each man once")
            }
        }
        Phase::Capture => format!("{p} won the rendezvous: take a ringed man"),
        Phase::Wanderers => format!("{p}: move the ringed wanderers to the border"),
        Phase::Over => String::new(),
    }
}

/// The view of `game` after `events`, with the players' names.
pub fn view(game: &Lanrick1880, events: &[Event], names: [&str; 2]) -> LanrickView {
    let men = [game.men(Seat::WHITE), game.men(Seat::BLACK)];
    let mut v = LanrickView::of_men(men[0], men[1], game.mark(), game.phase() == Phase::Play);
    for e in events {
        match e {
            Event::Stepped { seat, from, to } => v.step(*from, *to, *seat),
            Event::Shifted {
                seat,
                from,
                to,
                carried,
            } => {
                v.step(*from, *to, *seat);
                for (a, b) in carried {
                    let owner = if men[0] & b.bit() != 0 {
                        Seat::WHITE
                    } else {
                        Seat::BLACK
                    };
                    v.step(*a, *b, owner);
                }
            }
            Event::ToBorder { seat, from, to } => v.step(*from, *to, seat.opponent()),
            Event::Took { square, .. } => v.taken_at = Some(*square),
            _ => {}
        }
    }
    match game.phase() {
        Phase::Choose => v.dotted = squares(game.legal_centres()).collect(),
        Phase::Play if !game.legal_shifts().is_empty() => {
            v.dotted = game.legal_shifts();
            v.carried = squares(game.carried()).collect();
        }
        Phase::Capture => v.ring_losers(game.to_move(), men, game.rendezvous(), false),
        Phase::Wanderers => v.ring_losers(game.to_move(), men, game.rendezvous(), true),
        _ => {}
    }
    v.headline = headline(game, names);
    let mut detail = rendezvous_and_taken(
        game.mark(),
        [game.taken(Seat::WHITE), game.taken(Seat::BLACK)],
    );
    if let Some(s) = game.shifter() {
        let now = game.to_move() == Some(s) && !game.legal_shifts().is_empty();
        let words = if now || game.to_move() != Some(s) {
            "may shift the mark"
        } else {
            "keeps the right to shift the mark"
        };
        detail.push(format!("{} {words}", s.colour()));
    }
    v.detail = detail.join(" · ");
    v
}

/// The board as a PNG, in the default style.
pub fn png(game: &Lanrick1880, events: &[Event], names: [&str; 2]) -> Vec<u8> {
    png_noted(game, events, names, "", Style::default())
}

/// [`png`] in `style`, with `note` (a timed game's clocks) after the caption's second line.
pub fn png_noted(
    game: &Lanrick1880,
    events: &[Event],
    names: [&str; 2],
    note: &str,
    style: Style,
) -> Vec<u8> {
    let mut v = view(game, events, names);
    v.detail = crate::noted(&v.detail, note);
    encode(&draw(&v, style), style.theme)
}

/// A one-line description for screen readers.
pub fn alt_text(game: &Lanrick1880, names: [&str; 2]) -> String {
    view(game, &[], names).alt_text("Lanrick (1880) board", "no rendezvous yet")
}
