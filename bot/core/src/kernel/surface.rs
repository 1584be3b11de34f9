//! What differs between the chat platforms, as the core needs to know it: how an instant is
//! shown, how a channel is linked and a player mentioned, how large a file may be, and where an
//! event's game is played. Each adapter implements [`Surface`] and gives it to the core
//! (`Context::add_surface`); the core words every reply through the surface of the platform it is
//! for, and names no platform itself. A platform without a surface of its own is shown the
//! plain way ([`Plain`]): UTC times, `#channel`, `@name`.

use serde::{Deserialize, Serialize};

use super::clock::{duration, rfc3339};
use super::request::User;

/// How one platform shows what the core says.
pub trait Surface: Send + Sync {
    /// The platform's name, as requests and the store give it.
    fn platform(&self) -> &str;

    /// The instant `at` as a reader sees it, `now` being when it is said: by default the UTC time
    /// and, when it is still to come, the time left.
    fn time(&self, at: u64, now: u64) -> String {
        let stamp = rfc3339(at).replacen('T', " ", 1).replace('Z', " UTC");
        if at > now {
            format!("{stamp} (in {})", duration(at - now))
        } else {
            stamp
        }
    }

    /// A link to `channel` that a reader can follow.
    fn channel_link(&self, channel: &str) -> String {
        format!("#{channel}")
    }

    /// A link to `channel` (of the platform's own `community`, when it has one) that a reader
    /// can follow from another platform: by default as [`Surface::channel_link`].
    fn address(&self, community: Option<&str>, channel: &str) -> String {
        let _ = community;
        self.channel_link(channel)
    }

    /// The account of this platform that `text` names by its shape alone (an id no other
    /// platform's could be), for a challenge from another platform; `None` by default.
    fn account(&self, text: &str) -> Option<User> {
        let _ = text;
        None
    }

    /// Whether `user` (an account [`Surface::account`] gave) can be challenged: `Err` says why
    /// not (no such account, the platform not answering). Called from a command, off the async
    /// threads; it may wait on the platform. `Ok` by default.
    fn reachable(&self, user: &User) -> Result<(), String> {
        let _ = user;
        Ok(())
    }

    /// `user` named so that the platform notifies him.
    fn mention(&self, user: &User) -> String {
        format!("@{}", user.name)
    }

    /// The largest file the bot may attach to one message, in bytes (a replay is drawn to fit).
    fn upload_limit(&self) -> usize {
        64 << 20
    }

    /// Where the game of `opening` is played: a place the core can name at once, or one the
    /// adapter must open first.
    fn place(&self, opening: &Opening) -> Place {
        Place::Named(opening.name.clone())
    }

    /// Whether the adapter itself posts the notices another instance stored and never posted,
    /// when it takes the platform over; if not, the scheduler finds them and leaves them in this
    /// instance's outbox.
    fn posts_owed_notices(&self) -> bool {
        false
    }

    /// Whether a private reply is seen by its addressee alone (an ephemeral answer, the
    /// console's own line). Where it is not (a room, where it is a mention), what must stay
    /// secret (a link code) goes to a direct message instead.
    fn private_replies(&self) -> bool {
        true
    }
}

/// Where an event's game is played.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Place {
    /// A channel of this name, usable at once (the console's).
    Named(String),
    /// A place the adapter opens (a thread, a room), asked for through the outbox; the adapter
    /// answers with the place it opened.
    Opened,
}

/// The surface of a game played on two platforms (`Context::surface_of`): the plain way, read
/// alike in both places, with the smaller of their file limits.
pub struct Both {
    /// The platform of the game's record.
    pub platform: String,
    /// The largest file both platforms take.
    pub limit: usize,
}

impl Surface for Both {
    fn platform(&self) -> &str {
        &self.platform
    }

    fn upload_limit(&self) -> usize {
        self.limit
    }
}

/// The plain surface, for a platform that has none of its own.
pub struct Plain(pub String);

impl Surface for Plain {
    fn platform(&self) -> &str {
        &self.0
    }
}

/// A game that needs a place: a board of an event (a thread, a room or a channel, named
/// `<event>-<round>-<board>`, under the event's own channel), or the other place of a game
/// played on two platforms (`home` names it; named `<game>-<id>`, its players there invited).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Opening {
    /// The platform.
    pub platform: String,
    /// The event's community.
    pub community: String,
    /// The event's name.
    pub event: String,
    /// The round, from 1.
    pub round: usize,
    /// The board, from 1.
    pub board: usize,
    /// The place's name: `<event>-<round>-<board>`.
    pub name: String,
    /// The event's channel (a thread's parent).
    pub parent: String,
    /// The players to invite.
    pub players: Vec<User>,
    /// What this request is, the same each time the same board's place is asked for (a hash
    /// of the event, its creation, the round and the board): an adapter that opened the place
    /// before a crash, and never heard it recorded, finds it again by this rather than opening
    /// a second one.
    #[serde(default)]
    pub intent: String,
    /// When the event was created (seconds since the Unix epoch): no place of it is older.
    #[serde(default)]
    pub since: u64,
    /// For the other place of a game played on two platforms: the game's home.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub home: Option<Home>,
}

/// Where a game played on two platforms lives: its record's platform and channel, and its id.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Home {
    /// The platform of the record.
    pub platform: String,
    /// Its channel there.
    pub channel: String,
    /// The game's id.
    pub game: String,
}
