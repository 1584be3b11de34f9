//! The board of Lanrick's first version: the Third Edition's picture, plus who may still shift
//! the mark this round, where to (gold dots), and the men a shift would carry (gold rings).

use muster_rules::lanrick::squares;
use muster_rules::lanrick1880::{Event, Lanrick1880, Phase};
use muster_rules::{EndReason, Game, Outcome, Seat};

/// The boards are drawn with the Third Edition's view and theme, so with its palette.
pub use crate::lanrick::palette;
use crate::lanrick::{LanrickView, draw, encode};

fn headline(game: &Lanrick1880, names: [&str; 2]) -> String {
    if let Some(outcome) = game.outcome() {
        return match outcome {
            Outcome::Winner { team, reason } => {
                let seat = if team.index() == 0 {
                    Seat::WHITE
                } else {
                    Seat::BLACK
                };
                let how = if reason == EndReason::Resignation {
                    "by resignation"
                } else if reason == EndReason::Time {
                    "on time"
                } else {
                    "— the other has no men left"
                };
                format!("{} wins {how}", crate::player(seat, names))
            }
            Outcome::Draw {
                reason: EndReason::Agreement,
            } => "Drawn by agreement".into(),
            Outcome::Draw { .. } => "Drawn: the same position a third time".into(),
        };
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
    let mut v = LanrickView::of_men(
        game.men(Seat::WHITE),
        game.men(Seat::BLACK),
        game.mark(),
        game.phase() == Phase::Play,
    );
    for e in events {
        match e {
            Event::Stepped { seat, from, to } => v.trails.push((*from, *to, *seat)),
            Event::Shifted {
                seat,
                from,
                to,
                carried,
            } => {
                v.trails.push((*from, *to, *seat));
                for (a, b) in carried {
                    let owner = if game.men(Seat::WHITE) & b.bit() != 0 {
                        Seat::WHITE
                    } else {
                        Seat::BLACK
                    };
                    v.trails.push((*a, *b, owner));
                }
            }
            Event::ToBorder { seat, from, to } => v.trails.push((*from, *to, seat.opponent())),
            Event::Took { square, .. } => v.taken_at = Some(*square),
            _ => {}
        }
    }
    let zone = game.rendezvous().unwrap_or(0);
    match game.phase() {
        Phase::Choose => v.dotted = squares(game.legal_centres()).collect(),
        Phase::Play if !game.legal_shifts().is_empty() => {
            v.dotted = game.legal_shifts();
            v.carried = squares(game.carried()).collect();
        }
        Phase::Capture => {
            let loser = game.to_move().map_or(Seat::WHITE, Seat::opponent);
            v.ringed = squares(game.men(loser) & !zone).collect();
        }
        Phase::Wanderers => {
            let loser = game.to_move().map_or(Seat::WHITE, Seat::opponent);
            v.ringed = squares(game.men(loser) & !zone & muster_rules::lanrick::FIELD).collect();
        }
        _ => {}
    }
    v.headline = headline(game, names);
    let mut detail = Vec::new();
    if let Some(m) = game.mark() {
        detail.push(format!("Rendezvous {} (mark {m})", m.block_name()));
    }
    detail.push(format!(
        "Taken: White {}, Black {}",
        game.taken(Seat::WHITE),
        game.taken(Seat::BLACK)
    ));
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

/// The board as a PNG.
pub fn png(game: &Lanrick1880, events: &[Event], names: [&str; 2]) -> Vec<u8> {
    png_noted(game, events, names, "")
}

/// [`png`], with `note` (a timed game's clocks) after the caption's second line.
pub fn png_noted(game: &Lanrick1880, events: &[Event], names: [&str; 2], note: &str) -> Vec<u8> {
    let mut v = view(game, events, names);
    v.detail = crate::noted(&v.detail, note);
    encode(&draw(&v))
}

/// A one-line description for screen readers.
pub fn alt_text(game: &Lanrick1880, names: [&str; 2]) -> String {
    let list = |seat: Seat| {
        squares(game.men(seat))
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    let v = view(game, &[], names);
    let mark = game
        .mark()
        .map_or("no rendezvous yet".to_string(), |m| format!("mark {m}"));
    format!(
        "Lanrick (1880) board: White {}; Black {}; {mark}. {}. {}",
        list(Seat::WHITE),
        list(Seat::BLACK),
        v.headline,
        v.detail
    )
}
