//! Replays: a game as an animated GIF, one frame for the start and one for each decision, the
//! decision just played marked as on the board, the last frame (the result in its caption)
//! held longer. Drawn from the record when the adapter sends it, like a board; kept under the
//! platform's upload limit by leaving out frames (docs/guide.md, "Replays").

use super::draw::{CAPTION_NAME, Drawn, seat_names};
use super::replayable::ReplayError;
use super::store::{Ending, GameRecord};
use super::text::short_name;
use crate::kernel::replayable::Replayable;
use muster_render::Style;
use muster_render::any::{Caption, Frame, frame, palette};
use muster_rules::{AnyGame, Seat};

/// Which decisions get a frame when every `step`th is kept: the start, every `step`th, and the
/// last (the result).
fn kept(decisions: usize, step: usize) -> impl Fn(usize) -> bool {
    move |after: usize| after == 0 || after == decisions || after.is_multiple_of(step)
}

/// The replay of `record` as a GIF of at most `cap` bytes: every decision if it fits, else
/// every second one, every fourth… (always the start and the end); `Err` if even that does not
/// fit or the record does not replay. Drawn in `style`.
pub fn draw(record: &GameRecord, cap: usize, style: Style) -> Result<Drawn, String> {
    let mut step = 1;
    loop {
        let (gif, last) = encode(record, step, style)?;
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
                poster: Some(muster_render::encode::png_rgb(&last)),
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

/// The GIF of `record` with a frame for every `step`th decision, in `style`, and its last frame.
fn encode(record: &GameRecord, step: usize, style: Style) -> Result<(Vec<u8>, Frame), String> {
    let start_game = AnyGame::new(record.game_id().map_err(|e| e.0)?);
    let names = seat_names(record);
    let names = [
        names[0].as_str(),
        names[1].as_str(),
        names[2].as_str(),
        names[3].as_str(),
    ];
    let decisions = record.moves.len();
    let keep = kept(decisions, step);
    let start = frame(&start_game, &[], names, Caption::Start, style);
    let mut writer = muster_render::animation::Writer::new(
        start.width(),
        start.height(),
        palette(&start_game, style.theme),
        muster_render::animation::Timing::default(),
    );
    writer.push(&start)?;
    let mut last = None;
    // Who played each decision: the seat to move before it.
    let mut to_move = start_game.to_move();
    record
        .play_through(|game, events, after| {
            let seat = std::mem::replace(&mut to_move, game.to_move());
            if !keep(after) {
                return Ok(());
            }
            let (note, who);
            let caption = if after == decisions {
                note = ending_note(record);
                Caption::Last(&note)
            } else {
                who = seat.map_or_else(String::new, |s| mover(record, game, s));
                Caption::Decision(after, &who)
            };
            let drawn = frame(game, events, names, caption, style);
            writer.push(&drawn).map_err(ReplayError)?;
            last = Some(drawn);
            Ok(())
        })
        .map_err(|e| e.0)?;
    Ok((writer.finish(), last.unwrap_or(start)))
}

/// `Bob (Black)`: who played a decision from `seat`.
fn mover(record: &GameRecord, game: &AnyGame, seat: Seat) -> String {
    let side = game.table().seat_title(seat);
    match record.player(seat.index()) {
        Some(p) => format!("{} ({side})", short_name(&p.name, CAPTION_NAME)),
        None => side.to_string(),
    }
}

/// What the last frame says besides the position: how the game ended, when the moves do not.
fn ending_note(record: &GameRecord) -> String {
    let name = |p: &super::store::Player| short_name(&p.name, CAPTION_NAME);
    match record.ending {
        Some(Ending::Resigned { seat }) => record
            .player(seat)
            .map_or("resigned".into(), |p| format!("{} resigned", name(p))),
        Some(Ending::DrawAgreed) => "draw agreed".into(),
        Some(Ending::Time { seat } | Ending::Forfeit { seat }) => {
            record.player(seat).map_or("time ran out".into(), |p| {
                format!("{}'s time ran out", name(p))
            })
        }
        _ => String::new(),
    }
}
