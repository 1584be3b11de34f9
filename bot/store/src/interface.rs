//! What a store is: the [`GameStore`] trait every backend implements, the key of a channel's
//! live game, a change to it applied whole or not at all, and why a store could refuse.

use std::fmt;

use super::backup;
use super::record::GameRecord;

/// A platform and a channel on it: where a live game is kept.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct ChannelKey {
    /// The platform, as its adapter names it.
    pub platform: String,
    /// The channel, thread or room.
    pub channel: String,
}

impl ChannelKey {
    /// The key for `channel` on `platform`.
    pub fn new(platform: impl Into<String>, channel: impl Into<String>) -> ChannelKey {
        ChannelKey {
            platform: platform.into(),
            channel: channel.into(),
        }
    }

    /// The bytes the key is stored under (platform, unit separator, channel).
    pub fn bytes(&self) -> Vec<u8> {
        format!("{}\u{1f}{}", self.platform, self.channel).into_bytes()
    }
}

impl fmt::Display for ChannelKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.platform, self.channel)
    }
}

/// Why the store could not do what was asked.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum StoreError {
    /// The record changed since it was read (another move won the race).
    Conflict,
    /// The channel already has a live game.
    Exists,
    /// The channel's record cannot be read; other channels are not affected.
    Corrupt(String),
    /// The storage itself failed.
    Io(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Conflict => f.write_str("the game changed while this was being done"),
            StoreError::Exists => f.write_str("this channel already has a game"),
            StoreError::Corrupt(why) => {
                write!(f, "this channel's game record cannot be read: {why}")
            }
            StoreError::Io(why) => write!(f, "the game store failed: {why}"),
        }
    }
}

impl std::error::Error for StoreError {}

/// One change to a channel's live game, applied whole or not at all.
#[derive(Clone, PartialEq, Debug)]
pub enum Change {
    /// A new live game; the channel must have none.
    Create(GameRecord),
    /// The live game, still at version `expected`, replaced by `record`.
    Update {
        /// The version the change was made from.
        expected: u64,
        /// The new record.
        record: GameRecord,
    },
    /// The game is over: the live game (still at version `expected`, or with `None` no live
    /// game at all) moves to the archive as `record`, freeing the channel.
    Archive {
        /// The version the change was made from, if the game was live.
        expected: Option<u64>,
        /// The finished record.
        record: GameRecord,
    },
}

/// What the core made of a request that has an id on its platform (a chat event, an
/// interaction), or a notice it owes there, kept beside the change it made: `(platform, id,
/// body)`. A game played in two places keeps a receipt on each platform in one write.
pub type ReceiptToKeep<'a> = (&'a str, &'a str, &'a str);

/// The games, by channel, and the archive of finished ones, with the notes and receipts kept
/// beside them: every part of the store, as a backend gives it. A backend implements the five
/// parts ([`Live`], [`Lists`], [`Notes`], [`Receipts`], [`Upkeep`]) and is a `GameStore`; a
/// store that wears another ([`Wears`]) implements the parts it changes and passes the others
/// on ([`PassLists`], [`PassNotes`], [`PassReceipts`], [`PassUpkeep`]).
pub trait GameStore: Live + Lists + Notes + Receipts + Upkeep {}

impl<T: Live + Lists + Notes + Receipts + Upkeep> GameStore for T {}

/// A channel's live game: read, and changed by compare-and-swap, with the receipts of the
/// requests that changed it.
pub trait Live: Send + Sync {
    /// A new unique game id.
    fn next_id(&self) -> Result<String, StoreError>;
    /// The channel's live game, if any.
    fn load(&self, key: &ChannelKey) -> Result<Option<GameRecord>, StoreError>;
    /// Applies `change` to the channel (compare-and-swap on the live game's version) and keeps
    /// `receipts`, each under its own platform, in one atomic, durable write: either all are
    /// stored or none is. [`StoreError::Conflict`] if the live game is not the one the change
    /// was made from, [`StoreError::Exists`] if a game is created where one lives.
    fn commit(
        &self,
        key: &ChannelKey,
        change: Option<&Change>,
        receipts: &[ReceiptToKeep<'_>],
    ) -> Result<(), StoreError>;
    /// Stores a new live game; [`StoreError::Exists`] if the channel has one.
    fn create(&self, key: &ChannelKey, record: &GameRecord) -> Result<(), StoreError> {
        self.commit(key, Some(&Change::Create(record.clone())), &[])
    }
    /// Replaces the live game if its stored version is still `expected`; durable on return.
    fn update(
        &self,
        key: &ChannelKey,
        expected: u64,
        record: &GameRecord,
    ) -> Result<(), StoreError> {
        let change = Change::Update {
            expected,
            record: record.clone(),
        };
        self.commit(key, Some(&change), &[])
    }
    /// Moves the live game (still at version `expected`) to the archive as `record`.
    fn archive(
        &self,
        key: &ChannelKey,
        expected: u64,
        record: &GameRecord,
    ) -> Result<(), StoreError> {
        let change = Change::Archive {
            expected: Some(expected),
            record: record.clone(),
        };
        self.commit(key, Some(&change), &[])
    }
}

/// Games found by what they are rather than by their channel: the live games a scheduler, a
/// restarted bot or a page looks for, and the archive of finished ones.
pub trait Lists: Send + Sync {
    /// Sets an unreadable live record aside (kept for inspection), freeing the channel.
    fn set_aside(&self, key: &ChannelKey) -> Result<(), StoreError>;
    /// Live games that `player_id` plays from `platform` (unreadable ones left out), in no
    /// particular order: the platform's own games with him at the table, and games of another
    /// platform played in two places that he plays from their place on this one.
    fn live_games_of(&self, platform: &str, player_id: &str)
    -> Result<Vec<GameRecord>, StoreError>;
    /// Every live game with a time control, on every platform (unreadable ones left out), in no
    /// particular order: what the clock scheduler watches.
    fn timed_games(&self) -> Result<Vec<GameRecord>, StoreError>;
    /// Every live game with the bot at the table, on every platform (unreadable ones left out),
    /// in no particular order: where a restarted bot may owe a move.
    fn bot_games(&self) -> Result<Vec<GameRecord>, StoreError>;
    /// Every live game played in two places (unreadable ones left out), in no particular
    /// order: where a restarted bot may owe a place on another platform.
    fn away_games(&self) -> Result<Vec<GameRecord>, StoreError>;
    /// Every live game of `platform`'s channels (unreadable ones left out), in no particular
    /// order: a community's public index of its games (docs/web.md).
    fn live_games(&self, platform: &str) -> Result<Vec<GameRecord>, StoreError>;
    /// Finished games with `player_id` at the table, newest first.
    fn games_of(&self, player_id: &str) -> Result<Vec<GameRecord>, StoreError>;
    /// A finished game by id.
    fn archived(&self, id: &str) -> Result<Option<GameRecord>, StoreError>;
    /// The ids of every finished game, in no particular order.
    fn archive_ids(&self) -> Result<Vec<String>, StoreError>;
    /// How many live games there are (being played or waiting for players).
    fn live_count(&self) -> Result<usize, StoreError>;
}

/// The notes each part keeps about a channel (docs/architecture.md, "The store").
pub trait Notes: Send + Sync {
    /// A note an adapter keeps about a channel, by name (such as which message shows the
    /// board, so its buttons can be removed when a newer board is posted).
    fn note(&self, key: &ChannelKey, name: &str) -> Result<Option<String>, StoreError>;
    /// Sets (or with `None` clears) a channel's note; durable on return.
    fn set_note(&self, key: &ChannelKey, name: &str, value: Option<&str>)
    -> Result<(), StoreError>;
    /// Sets (or with `None` clears) a channel's note if it is still `expected` (`None`: no
    /// note), in one atomic step; durable on return. `Ok(false)` if the note had changed.
    fn swap_note(
        &self,
        key: &ChannelKey,
        name: &str,
        expected: Option<&str>,
        value: Option<&str>,
    ) -> Result<bool, StoreError>;
}

/// The receipts of requests answered, by platform and request id.
pub trait Receipts: Send + Sync {
    /// The receipt kept for the request `id` on `platform` (see [`Live::commit`]).
    fn receipt(&self, platform: &str, id: &str) -> Result<Option<String>, StoreError>;
    /// Every receipt kept on `platform`: `(id, body)`, in no particular order.
    fn receipts(&self, platform: &str) -> Result<Vec<(String, String)>, StoreError>;
    /// Sets (or with `None` forgets) the receipt of the request `id`; durable on return.
    fn set_receipt(&self, platform: &str, id: &str, body: Option<&str>) -> Result<(), StoreError>;
}

/// What keeping the store needs besides the games: backups, copies between backends, and
/// whether other instances share it.
pub trait Upkeep: Send + Sync {
    /// Writes a consistent snapshot of the whole store to `out` in the backup format
    /// (docs/operations.md, "Backups"), while the store stays in use.
    fn snapshot(
        &self,
        created: &str,
        out: &mut dyn std::io::Write,
    ) -> Result<backup::Summary, String> {
        let _ = (created, out);
        Err("this store keeps no backups".into())
    }
    /// Whether other instances may be using this store at the same time (PostgreSQL): then
    /// the scheduler looks for games they started, and leases decide who does what alone.
    fn shared(&self) -> bool {
        false
    }
    /// Tells `changes`, from now on, of the changes other instances on this store make (a
    /// store of one instance has none to tell; PostgreSQL's notifications do).
    fn listen(&self, changes: std::sync::Arc<super::changes::Changes>) {
        let _ = changes;
    }
    /// Every entry of the store as backups name them, sorted, leaving out the store's own
    /// schema number and counters (`meta`): what `muster migrate` copies and compares.
    fn entries(&self) -> Result<Vec<backup::Entry>, StoreError> {
        Err(StoreError::Io("this store cannot be copied".into()))
    }
    /// Writes `entries` into this store, first emptying it when `replace`; new game ids then
    /// follow the ids brought over. Durable on return.
    fn import(&self, entries: &[backup::Entry], replace: bool) -> Result<(), StoreError> {
        let _ = (entries, replace);
        Err(StoreError::Io("this store cannot be copied into".into()))
    }
}

/// A store that wears another (measures it, counts it, holds a request's writes for it): what
/// it does not change, it passes to the store it wears.
pub trait Wears: Send + Sync {
    /// The store worn.
    fn worn(&self) -> &dyn GameStore;
}

/// A store that wears another and passes its [`Lists`] on.
pub trait PassLists: Wears {}

/// A store that wears another and passes its [`Notes`] on.
pub trait PassNotes: Wears {}

/// A store that wears another and passes its [`Receipts`] on.
pub trait PassReceipts: Wears {}

/// A store that wears another and passes its [`Upkeep`] on.
pub trait PassUpkeep: Wears {}
