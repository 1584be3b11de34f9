//! Replays: a game as an animated GIF, one frame for the start and one for each decision, the
//! decision just played marked as on the board, the last frame (the result in its caption)
//! held longer. Drawn from the record when the adapter sends it, like a board; kept under the
//! platform's upload limit by leaving out frames (docs/guide.md, "Replays").

use super::board::Drawn;
use crate::store::{Ending, GameRecord};
use muster_rules::{AnyEvent, AnyGame, Seat};
use tiny_skia::Pixmap;

/// The largest replay sent on `platform`, in bytes: under Discord's 10 MiB for a bot's message
/// (the final board and the text go beside it), and 8 MiB on Matrix, under what homeservers
/// commonly accept (Synapse's default is 50 MiB; many set less).
pub fn cap(platform: &str) -> usize {
    match platform {
        "discord" | "matrix" => 8 << 20,
        _ => 64 << 20,
    }
}

/// Whether a finished game gets its replay posted with the result: one with a move at least,
/// not called off.
pub fn worth_posting(record: &GameRecord) -> bool {
    !record.moves.is_empty() && record.ending != Some(Ending::Aborted)
}

/// The events of one game kind, out of a list of any game's events.
fn only<T: Clone>(events: &[AnyEvent], pick: impl Fn(&AnyEvent) -> Option<&T>) -> Vec<T> {
    events.iter().filter_map(|e| pick(e).cloned()).collect()
}

/// What a frame's caption says: `12 · Bob (Black)` for the decision just played, `Start` before
/// the first; the last frame keeps the board's own caption, which gives the result.
enum Caption<'a> {
    Start,
    Decision(usize, &'a str),
    Last(&'a str),
}

/// One frame: the position of `game` after `events` (marked as the board marks them), without
/// the hints a board gives the player to decide (which men may go, where the mark may), at the
/// replay's scale.
fn frame(game: &AnyGame, events: &[AnyEvent], names: [&str; 4], caption: Caption<'_>) -> Pixmap {
    use muster_render::{croquet, lanko, lanrick, lanrick1880};
    let two = [names[0], names[1]];
    let headline = |own: &mut String, detail: &mut String| match caption {
        Caption::Start => *own = "Start".into(),
        Caption::Decision(n, who) => *own = format!("{n} · {who}"),
        Caption::Last(note) => *detail = muster_render::noted(detail, note),
    };
    let quiet = |view: &mut lanrick::LanrickView| {
        view.ringed.clear();
        view.dotted.clear();
        view.carried.clear();
    };
    let full = match game {
        AnyGame::Lanrick(g) => {
            let events = only(events, |e| match e {
                AnyEvent::Lanrick(e) => Some(e),
                _ => None,
            });
            let mut view = lanrick::LanrickView::new(g, &events, two);
            quiet(&mut view);
            headline(&mut view.headline, &mut view.detail);
            lanrick::draw(&view)
        }
        AnyGame::Lanrick1880(g) => {
            let events = only(events, |e| match e {
                AnyEvent::Lanrick1880(e) => Some(e),
                _ => None,
            });
            let mut view = lanrick1880::view(g, &events, two);
            quiet(&mut view);
            headline(&mut view.headline, &mut view.detail);
            lanrick::draw(&view)
        }
        AnyGame::Croquet(g) => {
            let events = only(events, |e| match e {
                AnyEvent::Croquet(e) => Some(e),
                _ => None,
            });
            let note = match caption {
                Caption::Last(note) => note,
                _ => "",
            };
            croquet::draw_noted(g, &events, two, note)
        }
        AnyGame::Lanko(g) => {
            let events = only(events, |e| match e {
                AnyEvent::Lanko(e) => Some(e),
                _ => None,
            });
            let mut view = lanko::LankoView::new(g, &events, names);
            headline(&mut view.headline, &mut view.detail);
            lanko::draw(&view)
        }
    };
    muster_render::animation::shrunk(&full.pixmap, muster_render::animation::SCALE)
}

fn palette(game: &AnyGame) -> &'static muster_render::encode::Palette {
    match game {
        AnyGame::Lanrick(_) | AnyGame::Lanrick1880(_) => muster_render::lanrick::palette(),
        AnyGame::Croquet(_) => muster_render::croquet::palette(),
        AnyGame::Lanko(_) => muster_render::lanko::palette(),
    }
}

/// Which decisions get a frame when every `step`th is kept: the start, every `step`th, and the
/// last (the result).
fn kept(decisions: usize, step: usize) -> impl Fn(usize) -> bool {
    move |after: usize| after == 0 || after == decisions || after.is_multiple_of(step)
}

/// The replay of `record` as a GIF of at most `cap` bytes: every decision if it fits, else
/// every second one, every fourth… (always the start and the end); `Err` if even that does not
/// fit or the record does not replay.
pub fn draw(record: &GameRecord, cap: usize) -> Result<Drawn, String> {
    let mut step = 1;
    loop {
        let gif = encode(record, step)?;
        if gif.len() <= cap {
            let decisions = record.moves.len();
            let frames = (0..=decisions)
                .filter(|a| kept(decisions, step)(*a))
                .count();
            let alt = format!(
                "The replay of {} ({}): {} frames{}.",
                record.id,
                record
                    .game_id()
                    .map_or("a game".into(), |g| g.title().to_string()),
                frames,
                if step > 1 {
                    format!(", one for every {step} decisions")
                } else {
                    String::new()
                }
            );
            return Ok(Drawn {
                png: gif,
                alt: alt.clone(),
                text: alt,
                name: format!("{}-replay.gif", record.id),
                mime: "image/gif",
            });
        }
        if step >= record.moves.len().max(1) {
            return Err(format!(
                "the replay takes {} KB, more than the {} KB this chat takes",
                gif.len() / 1024,
                cap / 1024
            ));
        }
        step *= 2;
    }
}

/// The GIF of `record` with a frame for every `step`th decision.
fn encode(record: &GameRecord, step: usize) -> Result<Vec<u8>, String> {
    let id = record.game_id().map_err(|e| e.0)?;
    let names: Vec<String> = (0..4)
        .map(|i| record.player(i).map_or(String::new(), |p| p.name.clone()))
        .collect();
    let names = [
        names[0].as_str(),
        names[1].as_str(),
        names[2].as_str(),
        names[3].as_str(),
    ];
    let decisions = record.moves.len();
    let keep = kept(decisions, step);
    let mut game = AnyGame::new(id);
    let start = frame(&game, &[], names, Caption::Start);
    let mut writer = muster_render::animation::Writer::new(
        start.width(),
        start.height(),
        palette(&game),
        muster_render::animation::Timing::default(),
    );
    writer.push(&start)?;
    for (i, text) in record.moves.iter().enumerate() {
        let seat = game
            .to_move()
            .ok_or_else(|| format!("move {} follows the end", i + 1))?;
        let events = game
            .play_text(seat, text)
            .map_err(|e| format!("move {} `{text}`: {e}", i + 1))?;
        let after = i + 1;
        if after == decisions {
            end(&mut game, record)?;
        }
        if keep(after) {
            let who = mover(record, &game, seat);
            let note = ending_note(record);
            let caption = if after == decisions {
                Caption::Last(&note)
            } else {
                Caption::Decision(after, &who)
            };
            writer.push(&frame(&game, &events, names, caption))?;
        }
    }
    Ok(writer.finish())
}

/// `Bob (Black)`: who played a decision from `seat`.
fn mover(record: &GameRecord, game: &AnyGame, seat: Seat) -> String {
    let side = game.table().seat_title(seat);
    match record.player(seat.index()) {
        Some(p) => format!("{} ({side})", p.name),
        None => side.to_string(),
    }
}

/// Applies the record's ending that the moves do not show (a resignation, an agreed draw, a
/// clock run out), so that the last frame's caption gives the result.
fn end(game: &mut AnyGame, record: &GameRecord) -> Result<(), String> {
    let seat = |s: usize| Seat::new(s).ok_or_else(|| format!("no seat {s}"));
    match record.ending {
        Some(Ending::Resigned { seat: s }) => game.resign(seat(s)?),
        Some(Ending::DrawAgreed) => game.agree_draw(),
        Some(Ending::Time { seat: s } | Ending::Forfeit { seat: s }) => game.time_out(seat(s)?),
        Some(Ending::Rules | Ending::Aborted) | None => return Ok(()),
    }
    .map_err(|e| e.to_string())
}

/// What the last frame says besides the position: how the game ended, when the moves do not.
fn ending_note(record: &GameRecord) -> String {
    match record.ending {
        Some(Ending::Resigned { seat }) => record
            .player(seat)
            .map_or("resigned".into(), |p| format!("{} resigned", p.name)),
        Some(Ending::DrawAgreed) => "draw agreed".into(),
        Some(Ending::Time { seat } | Ending::Forfeit { seat }) => {
            record.player(seat).map_or("time ran out".into(), |p| {
                format!("{}'s time ran out", p.name)
            })
        }
        _ => String::new(),
    }
}
