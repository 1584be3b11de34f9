//! The front desk: the one part the adapters call (docs/architecture.md). A request comes in,
//! is parsed once ([`command`]), handed to the capability it belongs to — games, clocks, events,
//! ratings, players — over the request's staged store, and its change stored in one atomic
//! write with its receipt ([`router`], [`once`]); what follows a change (the agenda, the bot's
//! turn, a rating, an event's next round) happens after that write. Beside the commands the desk
//! runs what no command asks: the scheduler ([`scheduler`], [`upkeep`]) and the bot as a player
//! ([`bot_player`]).
//!
//! This module is the desk's face: it names what adapters use, from wherever it lives.

pub mod asks;
pub mod bot_player;
pub mod command;
pub mod follow;
pub mod front;
pub mod help;
pub mod once;
pub mod router;
pub mod rules_steps;
pub mod scheduler;
pub mod upkeep;

pub use bot_player::BotDecision;
pub use command::{Command, thread_name};
pub use muster_rules::GameId;
pub use router::Found;

pub use crate::kernel::board::{Board, Chart, ChartKind, ChartMatch};
pub use crate::kernel::context::Context;
pub use crate::kernel::draw::Drawn;
pub use crate::kernel::outbox::{Notice, PlatformTime, Target, TimePolicy, Timers};
pub use crate::kernel::receipt::{Handled, Receipt};
pub use crate::kernel::reply::{Button, Reply};
pub use crate::kernel::request::{Policy, Request, Suggestion, THREAD, User};
pub use crate::kernel::surface::{Opening, Place, Surface};
pub use front::Core;

// What the pages and completion read through the desk ([`asks`]), named from the capabilities
// that keep it.
pub use crate::events::{Event, Listed, System};
pub use crate::ratings::Standing;
pub use crate::ratings::maths::Rating;
pub use crate::ratings::scope::Scope;
pub use crate::ratings::view::{Point, Ranked};

/// A game in words, as the chat says it; the pages say it alike.
pub mod words {
    pub use crate::games::view::clocks_line;
    pub use crate::games::words::{result, seat_title, who};
}
