//! The Matrix adapter, on matrix-sdk. The bot is one device of one account: its session and
//! its encryption keys live in the data directory (`matrix/`), so a restart is the same
//! device and can read the rooms' encrypted history it was sent keys for.
//!
//! Every sync is handled in full before the next one starts. Its messages that may be
//! commands are kept in the store (the inbox) before the sync token is, so a batch is never
//! lost, whatever the homeserver or the SDK make of a repeated sync after a crash; the inbox is
//! emptied once every message of it is handled and answered. Each command runs once and is
//! answered once, by its receipt ([`inbound`], [`outbound`]). On start, before anything new,
//! the adapter finishes the kept batch and sends every answer still owed — the very messages
//! the commands made, boards and mentions included. Commands are the core's text commands
//! after the room's prefix, or a move written on its own
//! ([`muster_core::desk::Core::command_in`]).
//!
//! Once started, the adapter also sends the core's notices — reminders, timeouts, vacations'
//! announcements — to their rooms, or to a user's direct room with the bot ([`notices`]).

//!
//! The files, from the bottom up: [`retry`] (requests tried again), [`limit`] (per-user
//! budgets), `media` (the reserve of upload addresses), [`shared`] (what the tasks share),
//! [`direct`] (a user's direct room), [`outbound`] (replies as messages), [`inbound`] (events as
//! requests), [`notices`], `noise` (the SDK's log lines left out), `session` (the login), `trust`
//! (cross-signing and the key backup),
//! [`surface`], and [`serve`] (the sync loop).

pub mod direct;
pub mod inbound;
pub mod limit;
mod made;
mod media;
mod noise;
pub mod notices;
pub mod outbound;
pub mod retry;
pub mod serve;
mod session;
pub mod shared;
pub mod surface;
mod trust;

use muster_core::kernel::store::ChannelKey;

/// The platform name in requests and the store.
pub const PLATFORM: &str = "matrix";

/// The key under which the adapter keeps its own notes.
pub(crate) fn own_key() -> ChannelKey {
    ChannelKey::new(PLATFORM, "")
}
