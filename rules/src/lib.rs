//! The rules of the games Muster plays, with no I/O: Lewis Carroll's Lanrick (Third Edition),
//! and the vocabulary the other games share.
//!
//! Every game implements [`Game`]: whose decision it is, the legal moves in a fixed order,
//! checked play that returns [`Game::Event`]s and leaves the game unchanged on error, its notation
//! and a one-line position string. [`AnyGame`] dispatches over the game kinds.
//!
//! ```
//! use muster_rules::{AnyGame, GameId};
//!
//! let mut game = AnyGame::new(GameId::Lanrick);
//! let seat = game.to_move().unwrap();
//! game.play_text(seat, "a1").unwrap();
//! assert_eq!(game.phase_name(), "placement");
//! assert_eq!(game.table().seat_name(game.to_move().unwrap()), "black");
//! ```

pub mod accuracy;
pub mod any;
pub mod croquet;
pub mod game;
mod hash;
pub mod lanko;
pub mod lanrick;
pub mod lanrick1880;
pub mod puzzle;
pub mod search;
pub mod seat;
pub mod tournament;

pub use any::{AnyEvent, AnyGame, GameId, UnknownGame};
pub use game::{EndReason, Game, MAX_NOTATION, NotationError, Outcome, PlayError, TeamResult};
pub use seat::{BySeat, Seat, Table, Team};
