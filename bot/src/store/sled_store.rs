//! The [`GameStore`] on sled, embedded in the data directory.
//!
//! Trees: `live` (channel → record), `archive` (game id → record), `by_player` (player, time and
//! game id → game id), `aside` (unreadable records set aside), `meta` (the schema version).
//! Every write is flushed before it returns. sled's `flush_async` is not used: it deadlocks with
//! many flushes in flight (see docs/performance.md); async callers run these methods on a
//! blocking thread.

use std::path::Path;

use sled::transaction::{ConflictableTransactionError, TransactionError, Transactional};

use super::record::{SCHEMA, decode, encode};
use super::{ChannelKey, GameRecord, GameStore, StoreError};

/// Games in a sled database.
pub struct SledStore {
    db: sled::Db,
    live: sled::Tree,
    archive: sled::Tree,
    by_player: sled::Tree,
    aside: sled::Tree,
    notes: sled::Tree,
}

fn io(e: impl std::fmt::Display) -> StoreError {
    StoreError::Io(e.to_string())
}

fn read(bytes: &[u8]) -> Result<GameRecord, StoreError> {
    decode(bytes).map_err(StoreError::Corrupt)
}

impl SledStore {
    /// Opens (or creates) the store in `dir`, upgrading records written by an older Muster.
    pub fn open(dir: &Path) -> Result<SledStore, StoreError> {
        let db = sled::Config::new().path(dir).open().map_err(|e| {
            StoreError::Io(format!(
                "cannot open the game store in {}: {e}",
                dir.display()
            ))
        })?;
        let store = SledStore {
            live: db.open_tree("live").map_err(io)?,
            archive: db.open_tree("archive").map_err(io)?,
            by_player: db.open_tree("by_player").map_err(io)?,
            aside: db.open_tree("aside").map_err(io)?,
            notes: db.open_tree("notes").map_err(io)?,
            db,
        };
        store.check_schema()?;
        Ok(store)
    }

    fn check_schema(&self) -> Result<(), StoreError> {
        let meta = self.db.open_tree("meta").map_err(io)?;
        let stored = meta
            .get("schema")
            .map_err(io)?
            .map(|v| String::from_utf8_lossy(&v).parse::<u32>().unwrap_or(0));
        match stored {
            Some(v) if v > SCHEMA => {
                return Err(StoreError::Io(format!(
                    "the data directory was written by a newer Muster (schema {v}; this one knows {SCHEMA})"
                )));
            }
            Some(v) if v == SCHEMA => return Ok(()),
            _ => {}
        }
        // Older or new: rewrite every readable record in the current layout.
        for tree in [&self.live, &self.archive] {
            for item in tree.iter() {
                let (key, bytes) = item.map_err(io)?;
                if let Ok(record) = decode(&bytes) {
                    tree.insert(key, encode(&record)).map_err(io)?;
                }
            }
        }
        meta.insert("schema", SCHEMA.to_string().as_bytes())
            .map_err(io)?;
        self.flush()
    }

    /// Overwrites the stored bytes of a channel's live game. For repair tools and for tests of
    /// damaged records; the bot itself never writes anything but whole records.
    pub fn put_raw(&self, key: &ChannelKey, bytes: &[u8]) -> Result<(), StoreError> {
        self.live.insert(key.bytes(), bytes).map_err(io)?;
        self.flush()
    }

    fn flush(&self) -> Result<(), StoreError> {
        self.db.flush().map(|_| ()).map_err(io)
    }

    fn player_key(player: &str, record: &GameRecord) -> Vec<u8> {
        format!("{player}\u{1f}{:020}\u{1f}{}", record.updated, record.id).into_bytes()
    }
}

impl GameStore for SledStore {
    fn next_id(&self) -> Result<String, StoreError> {
        Ok(format!("g{}", self.db.generate_id().map_err(io)?))
    }

    fn load(&self, key: &ChannelKey) -> Result<Option<GameRecord>, StoreError> {
        self.live
            .get(key.bytes())
            .map_err(io)?
            .map(|b| read(&b))
            .transpose()
    }

    fn create(&self, key: &ChannelKey, record: &GameRecord) -> Result<(), StoreError> {
        let swapped = self
            .live
            .compare_and_swap(key.bytes(), None as Option<&[u8]>, Some(encode(record)))
            .map_err(io)?;
        swapped.map_err(|_| StoreError::Exists)?;
        self.flush()
    }

    fn update(
        &self,
        key: &ChannelKey,
        expected: u64,
        record: &GameRecord,
    ) -> Result<(), StoreError> {
        let Some(current) = self.live.get(key.bytes()).map_err(io)? else {
            return Err(StoreError::Conflict);
        };
        if read(&current)?.version != expected {
            return Err(StoreError::Conflict);
        }
        let swapped = self
            .live
            .compare_and_swap(key.bytes(), Some(current), Some(encode(record)))
            .map_err(io)?;
        swapped.map_err(|_| StoreError::Conflict)?;
        self.flush()
    }

    fn archive(
        &self,
        key: &ChannelKey,
        expected: u64,
        record: &GameRecord,
    ) -> Result<(), StoreError> {
        let bytes = encode(record);
        let players = record.player_ids();
        let result =
            (&self.live, &self.archive, &self.by_player).transaction(|(live, archive, index)| {
                let current = live.get(key.bytes())?;
                let fits = current
                    .as_deref()
                    .and_then(|b| decode(b).ok())
                    .is_some_and(|r| r.version == expected);
                if !fits {
                    return Err(ConflictableTransactionError::Abort(StoreError::Conflict));
                }
                live.remove(key.bytes())?;
                archive.insert(record.id.as_bytes(), bytes.clone())?;
                for player in &players {
                    index.insert(Self::player_key(player, record), record.id.as_bytes())?;
                }
                Ok(())
            });
        match result {
            Ok(()) => self.flush(),
            Err(TransactionError::Abort(e)) => Err(e),
            Err(TransactionError::Storage(e)) => Err(io(e)),
        }
    }

    fn set_aside(&self, key: &ChannelKey) -> Result<(), StoreError> {
        if let Some(bytes) = self.live.remove(key.bytes()).map_err(io)? {
            let id = self.db.generate_id().map_err(io)?;
            let mut aside_key = key.bytes();
            aside_key.extend_from_slice(format!("\u{1f}{id:020}").as_bytes());
            self.aside.insert(aside_key, bytes).map_err(io)?;
        }
        self.flush()
    }

    fn games_of(&self, player_id: &str) -> Result<Vec<GameRecord>, StoreError> {
        let prefix = format!("{player_id}\u{1f}").into_bytes();
        let mut games = Vec::new();
        for item in self.by_player.scan_prefix(prefix).rev() {
            let (_, id) = item.map_err(io)?;
            if let Some(bytes) = self.archive.get(&id).map_err(io)? {
                games.push(read(&bytes)?);
            }
        }
        Ok(games)
    }

    fn note(&self, key: &ChannelKey, name: &str) -> Result<Option<String>, StoreError> {
        let value = self.notes.get(note_key(key, name)).map_err(io)?;
        Ok(value.map(|v| String::from_utf8_lossy(&v).into_owned()))
    }

    fn set_note(
        &self,
        key: &ChannelKey,
        name: &str,
        value: Option<&str>,
    ) -> Result<(), StoreError> {
        match value {
            Some(v) => self.notes.insert(note_key(key, name), v.as_bytes()),
            None => self.notes.remove(note_key(key, name)),
        }
        .map_err(io)?;
        self.flush()
    }

    fn archived(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.archive
            .get(id.as_bytes())
            .map_err(io)?
            .map(|b| read(&b))
            .transpose()
    }
}

/// Where a channel's note is kept: the channel's key, a separator, the note's name.
fn note_key(key: &ChannelKey, name: &str) -> Vec<u8> {
    let mut bytes = key.bytes();
    bytes.extend_from_slice(format!("\u{1f}{name}").as_bytes());
    bytes
}

#[cfg(test)]
mod tests {
    use super::super::tests::contract;
    use super::*;

    #[test]
    fn sled_store_keeps_the_contract_and_survives_reopening() {
        let dir = std::env::temp_dir().join(format!(
            "muster-sled-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        {
            let store = SledStore::open(&dir).unwrap();
            contract(&store);
        }
        let store = SledStore::open(&dir).unwrap();
        assert_eq!(store.games_of("alice").unwrap().len(), 1);
        assert!(
            store
                .load(&ChannelKey::new("console", "other"))
                .unwrap()
                .is_some()
        );
        // A damaged record breaks its channel only, and can be set aside.
        let key = ChannelKey::new("console", "other");
        store
            .live
            .insert(key.bytes(), &b"{\"schema\":1,\"broken\":true}"[..])
            .unwrap();
        assert!(matches!(store.load(&key), Err(StoreError::Corrupt(_))));
        assert!(store.games_of("alice").is_ok());
        store.set_aside(&key).unwrap();
        assert_eq!(store.load(&key).unwrap(), None);
        assert_eq!(store.aside.len(), 1);
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
