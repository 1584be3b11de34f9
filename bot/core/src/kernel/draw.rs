//! Drawing a game's board: the renderer (which knows how each game is drawn,
//! `muster_render::any`) given the position, the decisions just played (marked), the players'
//! names and the clocks, in the viewer's style.

use muster_render::Style;
use muster_rules::{AnyEvent, AnyGame};

use super::store::GameRecord;
use super::text::short_name;
use crate::kernel::replayable::Replayable;

/// A drawn board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Drawn {
    /// The PNG.
    pub png: Vec<u8>,
    /// A description of the image.
    pub alt: String,
    /// The board as text, for terminals.
    pub text: String,
    /// A file name for the image.
    pub name: String,
    /// The image's type: `image/png`, or `image/gif` for a replay.
    pub mime: &'static str,
    /// For a replay: a still of its last frame (PNG), which a chat can show before the
    /// animation has loaded (an image message's thumbnail).
    pub poster: Option<Vec<u8>>,
}

/// The most characters of a name a board's caption writes: the longer ones are cut with "…",
/// so that the line saying whose move it is always fits the picture.
pub const CAPTION_NAME: usize = 20;

/// The names of the players on the four seats (empty where a seat is open or the game has
/// fewer), as the boards write them: cleaned of anything that could spoof the line they are
/// in, and cut to [`CAPTION_NAME`] characters.
pub fn seat_names(record: &GameRecord) -> [String; 4] {
    std::array::from_fn(|i| {
        record
            .player(i)
            .map_or(String::new(), |p| short_name(&p.name, CAPTION_NAME))
    })
}

/// The clocks of a timed game being played, as the record stood when it was written:
/// `Clocks: alice 2d 4h · bob 3d` (empty otherwise).
fn clock_note(record: &GameRecord, at: Option<u64>) -> String {
    if record.status != crate::kernel::store::Status::Active {
        return String::new();
    }
    let Some((left, _)) = record.time_left(at.unwrap_or(record.updated)) else {
        return String::new();
    };
    let names = seat_names(record);
    let parts: Vec<String> = left
        .iter()
        .enumerate()
        .filter_map(|(i, left)| {
            record.player(i)?;
            let name = names.get(i)?;
            Some(format!("{name} {}", crate::kernel::clock::duration(*left)))
        })
        .collect();
    format!("Clocks: {}", parts.join(" · "))
}

pub fn draw(
    record: &GameRecord,
    game: &AnyGame,
    events: &[AnyEvent],
    name: String,
    at: Option<u64>,
    style: Style,
) -> Drawn {
    let started = std::time::Instant::now();
    let note = clock_note(record, at);
    let all = seat_names(record);
    let four = [
        all[0].as_str(),
        all[1].as_str(),
        all[2].as_str(),
        all[3].as_str(),
    ];
    let board = muster_render::any::board(game, events, four, &note, style);
    let mut drawn = Drawn {
        png: board.png,
        alt: board.alt,
        text: board.text,
        name,
        mime: "image/png",
        poster: None,
    };
    if !note.is_empty() {
        let stop = if drawn.alt.ends_with('.') { "" } else { "." };
        drawn.alt.push_str(&format!("{stop} {note}."));
    }
    crate::telemetry::metrics::metrics().render(&record.game, started.elapsed());
    drawn
}
