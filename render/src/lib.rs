//! Board views for Muster. The renderer takes a small view of a game (what stands where, what
//! to highlight), never the rules themselves: `LanrickView` is built from a game and the events
//! of its last decision, then drawn and encoded as a PNG that reads well at phone size.
//!
//! ```
//! use muster_rules::lanrick::Lanrick;
//!
//! let png = muster_render::lanrick::png(&Lanrick::new(), &[], ["Alice", "Bob"]);
//! assert_eq!(&png[1..4], b"PNG");
//! let board = muster_render::text::lanrick(&Lanrick::new());
//! assert!(board.starts_with("  a b c d e f g h"));
//! ```

pub mod animation;
pub mod any;
pub mod canvas;
pub mod card;
pub mod croquet;
pub mod encode;
pub mod lanko;
pub mod lanrick;
pub mod lanrick1880;
pub mod style;
pub mod table;
pub mod text;
pub mod vision;

pub use style::{Size, Style, Theme};

pub use table::{
    Align, Bracket, BracketMatch, BracketRound, Column, Table, bracket_png, table_png,
};

/// `Alice (White)`, or just the colour when the seat has no name.
pub(crate) fn player(seat: muster_rules::Seat, names: [&str; 2]) -> String {
    let name = names[seat.index()];
    if name.is_empty() {
        seat.colour().to_string()
    } else {
        format!("{name} ({})", seat.colour())
    }
}

/// `detail` with `note` after it (a timed game's clocks, a replay's ending), when there is one.
pub fn noted(detail: &str, note: &str) -> String {
    match (detail.is_empty(), note.is_empty()) {
        (_, true) => detail.to_string(),
        (true, false) => note.to_string(),
        (false, false) => format!("{detail} · {note}"),
    }
}
