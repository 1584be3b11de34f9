//! Where games live: a small trait ([`GameStore`]) with an in-memory implementation for unit
//! tests and a sled implementation for real use.
//!
//! Each channel of each platform has at most one live game. A write names the version it read
//! (compare-and-swap), so of two moves racing on one channel exactly one is applied; sled
//! writes are flushed before they return, so an acknowledged move survives the process being
//! killed. Finished games move to an archive indexed by player.

mod memory;
pub mod record;
mod sled_store;

use std::fmt;

pub use memory::MemoryStore;
pub use record::{Ending, GameRecord, Player, SCHEMA, SeatEntry, Status};
pub use sled_store::SledStore;

/// A platform and a channel on it: where a live game is kept.
#[derive(Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct ChannelKey {
    /// `console`, `discord`, `matrix`.
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

/// The games, by channel, and the archive of finished ones.
pub trait GameStore: Send + Sync {
    /// A new unique game id.
    fn next_id(&self) -> Result<String, StoreError>;
    /// The channel's live game, if any.
    fn load(&self, key: &ChannelKey) -> Result<Option<GameRecord>, StoreError>;
    /// Stores a new live game; [`StoreError::Exists`] if the channel has one.
    fn create(&self, key: &ChannelKey, record: &GameRecord) -> Result<(), StoreError>;
    /// Replaces the live game if its stored version is still `expected`; durable on return.
    fn update(
        &self,
        key: &ChannelKey,
        expected: u64,
        record: &GameRecord,
    ) -> Result<(), StoreError>;
    /// Moves the live game (still at version `expected`) to the archive as `record`.
    fn archive(
        &self,
        key: &ChannelKey,
        expected: u64,
        record: &GameRecord,
    ) -> Result<(), StoreError>;
    /// Sets an unreadable live record aside (kept for inspection), freeing the channel.
    fn set_aside(&self, key: &ChannelKey) -> Result<(), StoreError>;
    /// Finished games with `player_id` at the table, newest first.
    fn games_of(&self, player_id: &str) -> Result<Vec<GameRecord>, StoreError>;
    /// A finished game by id.
    fn archived(&self, id: &str) -> Result<Option<GameRecord>, StoreError>;
    /// A note an adapter keeps about a channel, by name (such as which message shows the
    /// board, so its buttons can be removed when a newer board is posted).
    fn note(&self, key: &ChannelKey, name: &str) -> Result<Option<String>, StoreError>;
    /// Sets (or with `None` clears) a channel's note; durable on return.
    fn set_note(&self, key: &ChannelKey, name: &str, value: Option<&str>)
    -> Result<(), StoreError>;
}

#[cfg(test)]
mod tests {
    //! The contract every store keeps, run against both implementations.

    use super::*;

    pub(super) fn record(store: &dyn GameStore, channel: &str) -> GameRecord {
        GameRecord {
            schema: SCHEMA,
            id: store.next_id().unwrap(),
            game: "lanrick".into(),
            platform: "console".into(),
            channel: channel.into(),
            created: 1,
            updated: 1,
            version: 1,
            seats: vec![
                SeatEntry {
                    player: Some(Player {
                        id: "alice".into(),
                        name: "Alice".into(),
                    }),
                    accepted: true,
                    hand: None,
                },
                SeatEntry {
                    player: Some(Player {
                        id: "bob".into(),
                        name: "Bob".into(),
                    }),
                    accepted: true,
                    hand: None,
                },
            ],
            status: Status::Active,
            moves: vec![],
            ending: None,
            draw_offer: None,
            takeback: None,
        }
    }

    pub(super) fn contract(store: &dyn GameStore) {
        let key = ChannelKey::new("console", "general");
        assert_eq!(store.load(&key).unwrap(), None);
        let mut r = record(store, "general");
        store.create(&key, &r).unwrap();
        assert_eq!(store.create(&key, &r), Err(StoreError::Exists));
        assert_eq!(store.load(&key).unwrap(), Some(r.clone()));
        // Compare-and-swap: a write naming a stale version is refused.
        let old = r.version;
        r.moves.push("a1".into());
        r.version += 1;
        store.update(&key, old, &r).unwrap();
        assert_eq!(store.update(&key, old, &r), Err(StoreError::Conflict));
        // Other channels are independent.
        let other = ChannelKey::new("console", "other");
        store.create(&other, &record(store, "other")).unwrap();
        // Archiving frees the channel and files the game under each player.
        let mut done = r.clone();
        done.status = Status::Finished;
        done.version += 1;
        assert_eq!(store.archive(&key, old, &done), Err(StoreError::Conflict));
        store.archive(&key, r.version, &done).unwrap();
        assert_eq!(store.load(&key).unwrap(), None);
        assert_eq!(store.games_of("bob").unwrap(), vec![done.clone()]);
        assert_eq!(store.games_of("carol").unwrap(), vec![]);
        assert_eq!(store.archived(&done.id).unwrap(), Some(done.clone()));
        assert!(store.load(&other).unwrap().is_some());
        assert_ne!(store.next_id().unwrap(), store.next_id().unwrap());
        // Notes, per channel and name.
        assert_eq!(store.note(&key, "board").unwrap(), None);
        store.set_note(&key, "board", Some("123")).unwrap();
        store.set_note(&other, "board", Some("456")).unwrap();
        assert_eq!(store.note(&key, "board").unwrap().as_deref(), Some("123"));
        assert_eq!(store.note(&key, "other").unwrap(), None);
        store.set_note(&key, "board", None).unwrap();
        assert_eq!(store.note(&key, "board").unwrap(), None);
        assert_eq!(store.note(&other, "board").unwrap().as_deref(), Some("456"));
    }

    #[test]
    fn memory_store_keeps_the_contract() {
        contract(&MemoryStore::default());
    }
}
