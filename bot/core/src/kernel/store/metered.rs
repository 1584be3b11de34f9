//! A [`GameStore`] that measures another: each operation's time (`muster_store_duration_seconds`),
//! and the games it sees begin and end (`muster_games_started_total` for a game stored already
//! under way, `muster_games_finished_total` for every game archived, whichever path archived it:
//! a command, a timeout, an organiser's result). It also counts the writes for crash tests at
//! exact moments ([`fault`]).

use std::sync::Arc;
use std::time::Instant;

use crate::telemetry::metrics::metrics;
use muster_store::changes::{Changed, Changes};
use muster_store::interface::{
    Change, ChannelKey, GameStore, Lists, Live, Notes, ReceiptToKeep, Receipts, StoreError, Upkeep,
};
use muster_store::record::{GameRecord, Status};
use muster_store::{backup, fault};

/// `inner`, measured.
pub struct Metered {
    inner: Arc<dyn GameStore>,
    /// Where the writes made through it are told.
    changes: Arc<Changes>,
}

impl Metered {
    /// Measures `inner`.
    pub fn new(inner: Arc<dyn GameStore>) -> Metered {
        Metered::telling(inner, Arc::default())
    }

    /// Measures `inner`, and tells `changes` of every write made through it.
    pub fn telling(inner: Arc<dyn GameStore>, changes: Arc<Changes>) -> Metered {
        Metered { inner, changes }
    }

    /// Tells of a write made through it; a store shared by several instances tells of its
    /// writes itself, to all of them ([`GameStore::listen`]).
    fn told(&self, key: &ChannelKey, note: Option<&str>) {
        if self.inner.shared() {
            return;
        }
        self.changes.tell(Changed {
            platform: key.platform.clone(),
            channel: key.channel.clone(),
            note: note.map(str::to_string),
        });
    }

    fn timed<T>(&self, operation: &str, run: impl FnOnce(&dyn GameStore) -> T) -> T {
        let started = Instant::now();
        let result = run(self.inner.as_ref());
        metrics().store(operation, started.elapsed());
        result
    }
}

impl Live for Metered {
    fn next_id(&self) -> Result<String, StoreError> {
        self.timed("next_id", |s| s.next_id())
    }

    fn load(&self, key: &ChannelKey) -> Result<Option<GameRecord>, StoreError> {
        self.timed("load", |s| s.load(key))
    }

    fn commit(
        &self,
        key: &ChannelKey,
        change: Option<&Change>,
        receipts: &[ReceiptToKeep<'_>],
    ) -> Result<(), StoreError> {
        fault::writing();
        self.timed("commit", |s| s.commit(key, change, receipts))?;
        fault::wrote();
        if change.is_some() {
            self.told(key, None);
        }
        match change {
            Some(Change::Create(r)) if r.status == Status::Active => metrics().started(&r.game),
            Some(Change::Archive { record, .. }) => {
                metrics().finished(&record.game, record.ended_by());
            }
            _ => {}
        }
        Ok(())
    }
}

impl Lists for Metered {
    fn set_aside(&self, key: &ChannelKey) -> Result<(), StoreError> {
        fault::writing();
        self.timed("set_aside", |s| s.set_aside(key))?;
        fault::wrote();
        Ok(())
    }

    fn live_games_of(
        &self,
        platform: &str,
        player_id: &str,
    ) -> Result<Vec<GameRecord>, StoreError> {
        self.timed("live_games_of", |s| s.live_games_of(platform, player_id))
    }

    fn timed_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        self.timed("timed_games", |s| s.timed_games())
    }

    fn bot_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        self.timed("bot_games", |s| s.bot_games())
    }

    fn live_games(&self, platform: &str) -> Result<Vec<GameRecord>, StoreError> {
        self.timed("live_games", |s| s.live_games(platform))
    }

    fn away_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        self.timed("away_games", |s| s.away_games())
    }

    fn games_of(&self, player_id: &str) -> Result<Vec<GameRecord>, StoreError> {
        self.timed("games_of", |s| s.games_of(player_id))
    }

    fn archived(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.timed("archived", |s| s.archived(id))
    }

    fn archive_ids(&self) -> Result<Vec<String>, StoreError> {
        self.timed("archive_ids", |s| s.archive_ids())
    }

    fn live_count(&self) -> Result<usize, StoreError> {
        self.inner.live_count()
    }
}

impl Notes for Metered {
    fn note(&self, key: &ChannelKey, name: &str) -> Result<Option<String>, StoreError> {
        self.timed("note", |s| s.note(key, name))
    }

    fn set_note(
        &self,
        key: &ChannelKey,
        name: &str,
        value: Option<&str>,
    ) -> Result<(), StoreError> {
        fault::writing();
        self.timed("set_note", |s| s.set_note(key, name, value))?;
        fault::wrote();
        self.told(key, Some(name));
        Ok(())
    }

    fn swap_note(
        &self,
        key: &ChannelKey,
        name: &str,
        expected: Option<&str>,
        value: Option<&str>,
    ) -> Result<bool, StoreError> {
        fault::writing();
        let swapped = self.timed("swap_note", |s| s.swap_note(key, name, expected, value))?;
        if swapped {
            fault::wrote();
            self.told(key, Some(name));
        }
        Ok(swapped)
    }
}

impl Receipts for Metered {
    fn receipt(&self, platform: &str, id: &str) -> Result<Option<String>, StoreError> {
        self.timed("receipt", |s| s.receipt(platform, id))
    }

    fn receipts(&self, platform: &str) -> Result<Vec<(String, String)>, StoreError> {
        self.timed("receipts", |s| s.receipts(platform))
    }

    fn set_receipt(&self, platform: &str, id: &str, body: Option<&str>) -> Result<(), StoreError> {
        fault::writing();
        self.timed("set_receipt", |s| s.set_receipt(platform, id, body))?;
        fault::wrote();
        Ok(())
    }
}

impl Upkeep for Metered {
    fn snapshot(
        &self,
        created: &str,
        out: &mut dyn std::io::Write,
    ) -> Result<backup::Summary, String> {
        self.timed("snapshot", |s| s.snapshot(created, out))
    }

    fn listen(&self, changes: Arc<Changes>) {
        self.inner.listen(changes);
    }

    fn shared(&self) -> bool {
        self.inner.shared()
    }

    fn entries(&self) -> Result<Vec<backup::Entry>, StoreError> {
        self.timed("entries", |s| s.entries())
    }

    fn import(&self, entries: &[backup::Entry], replace: bool) -> Result<(), StoreError> {
        self.timed("import", |s| s.import(entries, replace))
    }
}
