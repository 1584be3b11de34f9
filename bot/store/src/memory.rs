//! An in-memory [`GameStore`] for unit tests: the same contract as sled, nothing on disk.

use std::collections::BTreeMap;
use std::sync::Mutex;

use super::interface::{
    Change, ChannelKey, Lists, Live, Notes, ReceiptToKeep, Receipts, StoreError, Upkeep,
};
use super::record::GameRecord;
use super::record::{decode, encode};

/// Games in memory; records are kept encoded, as on disk, so corruption can be simulated.
#[derive(Default)]
pub struct MemoryStore {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    next: u64,
    live: BTreeMap<ChannelKey, Vec<u8>>,
    archive: BTreeMap<String, Vec<u8>>,
    aside: Vec<Vec<u8>>,
    notes: BTreeMap<(ChannelKey, String), String>,
    receipts: BTreeMap<(String, String), String>,
}

impl MemoryStore {
    /// Overwrites the stored bytes of a channel's live game (for tests of damaged records).
    pub fn put_raw(&self, key: &ChannelKey, bytes: &[u8]) {
        self.lock().live.insert(key.clone(), bytes.to_vec());
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn read(bytes: &[u8]) -> Result<GameRecord, StoreError> {
    decode(bytes).map_err(StoreError::Corrupt)
}

impl Live for MemoryStore {
    fn next_id(&self) -> Result<String, StoreError> {
        let mut inner = self.lock();
        inner.next += 1;
        Ok(format!("g{}", inner.next))
    }

    fn load(&self, key: &ChannelKey) -> Result<Option<GameRecord>, StoreError> {
        self.lock().live.get(key).map(|b| read(b)).transpose()
    }

    fn commit(
        &self,
        key: &ChannelKey,
        change: Option<&Change>,
        receipts: &[ReceiptToKeep<'_>],
    ) -> Result<(), StoreError> {
        let mut inner = self.lock();
        if let Some(change) = change {
            let current = inner.live.get(key).map(|b| read(b)).transpose()?;
            let fits = match (change, &current) {
                (Change::Create(_), Some(_)) => return Err(StoreError::Exists),
                (Change::Create(_), None) => true,
                (Change::Update { expected, .. }, Some(c)) => c.version == *expected,
                (
                    Change::Archive {
                        expected: Some(e), ..
                    },
                    Some(c),
                ) => c.version == *e,
                (Change::Archive { expected: None, .. }, None) => true,
                _ => false,
            };
            if !fits {
                return Err(StoreError::Conflict);
            }
            match change {
                Change::Create(record) | Change::Update { record, .. } => {
                    inner.live.insert(key.clone(), encode(record));
                }
                Change::Archive { record, .. } => {
                    inner.live.remove(key);
                    inner.archive.insert(record.id.clone(), encode(record));
                }
            }
        }
        for (platform, id, body) in receipts {
            inner
                .receipts
                .insert((platform.to_string(), id.to_string()), body.to_string());
        }
        Ok(())
    }
}

impl Lists for MemoryStore {
    fn set_aside(&self, key: &ChannelKey) -> Result<(), StoreError> {
        let mut inner = self.lock();
        if let Some(bytes) = inner.live.remove(key) {
            inner.aside.push(bytes);
        }
        Ok(())
    }

    fn live_games_of(
        &self,
        platform: &str,
        player_id: &str,
    ) -> Result<Vec<GameRecord>, StoreError> {
        let inner = self.lock();
        Ok(inner
            .live
            .values()
            .filter_map(|b| read(b).ok())
            .filter(|r| r.is_player(player_id) && r.platform_of(player_id) == platform)
            .collect())
    }

    fn timed_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        let inner = self.lock();
        Ok(inner
            .live
            .values()
            .filter_map(|b| read(b).ok())
            .filter(|r| r.clock.is_some())
            .collect())
    }

    fn bot_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        let inner = self.lock();
        Ok(inner
            .live
            .values()
            .filter_map(|b| read(b).ok())
            .filter(|r| {
                r.seats
                    .iter()
                    .any(|s| s.player.as_ref().is_some_and(|p| p.id.starts_with("bot:")))
            })
            .collect())
    }

    fn live_games(&self, platform: &str) -> Result<Vec<GameRecord>, StoreError> {
        let inner = self.lock();
        Ok(inner
            .live
            .iter()
            .filter(|(k, _)| k.platform == platform)
            .filter_map(|(_, b)| read(b).ok())
            .collect())
    }

    fn away_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        let inner = self.lock();
        Ok(inner
            .live
            .values()
            .filter_map(|b| read(b).ok())
            .filter(|r| r.away.is_some())
            .collect())
    }

    fn games_of(&self, player_id: &str) -> Result<Vec<GameRecord>, StoreError> {
        let inner = self.lock();
        let mut games: Vec<GameRecord> = inner
            .archive
            .values()
            .filter_map(|b| read(b).ok())
            .filter(|r| r.is_player(player_id))
            .collect();
        games.sort_by(|a, b| b.updated.cmp(&a.updated).then(b.id.cmp(&a.id)));
        Ok(games)
    }

    fn archived(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.lock().archive.get(id).map(|b| read(b)).transpose()
    }

    fn archive_ids(&self) -> Result<Vec<String>, StoreError> {
        Ok(self.lock().archive.keys().cloned().collect())
    }

    fn live_count(&self) -> Result<usize, StoreError> {
        Ok(self.lock().live.len())
    }
}

impl Notes for MemoryStore {
    fn note(&self, key: &ChannelKey, name: &str) -> Result<Option<String>, StoreError> {
        Ok(self.lock().notes.get(&(key.clone(), name.into())).cloned())
    }

    fn set_note(
        &self,
        key: &ChannelKey,
        name: &str,
        value: Option<&str>,
    ) -> Result<(), StoreError> {
        let mut inner = self.lock();
        let k = (key.clone(), name.to_string());
        match value {
            Some(v) => inner.notes.insert(k, v.to_string()),
            None => inner.notes.remove(&k),
        };
        Ok(())
    }

    fn swap_note(
        &self,
        key: &ChannelKey,
        name: &str,
        expected: Option<&str>,
        value: Option<&str>,
    ) -> Result<bool, StoreError> {
        let mut inner = self.lock();
        let k = (key.clone(), name.to_string());
        if inner.notes.get(&k).map(String::as_str) != expected {
            return Ok(false);
        }
        match value {
            Some(v) => inner.notes.insert(k, v.to_string()),
            None => inner.notes.remove(&k),
        };
        Ok(true)
    }
}

impl Receipts for MemoryStore {
    fn receipt(&self, platform: &str, id: &str) -> Result<Option<String>, StoreError> {
        let k = (platform.to_string(), id.to_string());
        Ok(self.lock().receipts.get(&k).cloned())
    }

    fn receipts(&self, platform: &str) -> Result<Vec<(String, String)>, StoreError> {
        Ok(self
            .lock()
            .receipts
            .iter()
            .filter(|((p, _), _)| p == platform)
            .map(|((_, id), body)| (id.clone(), body.clone()))
            .collect())
    }

    fn set_receipt(&self, platform: &str, id: &str, body: Option<&str>) -> Result<(), StoreError> {
        let mut inner = self.lock();
        let k = (platform.to_string(), id.to_string());
        match body {
            Some(b) => inner.receipts.insert(k, b.to_string()),
            None => inner.receipts.remove(&k),
        };
        Ok(())
    }
}

impl Upkeep for MemoryStore {}
