//! A store that counts what is asked of it, by kind: what a command costs in reads and writes,
//! for the tests that keep a move to one read and one write (bot/core/tests/walk.rs).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::interface::{
    Change, ChannelKey, GameStore, Lists, Live, Notes, PassUpkeep, ReceiptToKeep, Receipts,
    StoreError, Wears,
};
use super::record::GameRecord;

/// What a store was asked, by kind.
#[derive(Default)]
pub struct Counts {
    /// Reads of a channel's live game.
    pub loads: AtomicUsize,
    /// Reads of a note.
    pub notes: AtomicUsize,
    /// Changes to a game, with their receipts.
    pub commits: AtomicUsize,
    /// Every other write: notes, receipts, games set aside.
    pub other_writes: AtomicUsize,
    /// Every other read: the archive, lists of games, receipts.
    pub other_reads: AtomicUsize,
}

impl Counts {
    /// `[loads, notes read, commits, other writes, other reads]` since the last call.
    pub fn take(&self) -> [usize; 5] {
        [
            &self.loads,
            &self.notes,
            &self.commits,
            &self.other_writes,
            &self.other_reads,
        ]
        .map(|c| c.swap(0, Ordering::SeqCst))
    }
}

/// A store that counts what is asked of another.
pub struct Counted {
    inner: Arc<dyn GameStore>,
    counts: Arc<Counts>,
}

impl Counted {
    /// `inner`, counted into `counts`.
    pub fn new(inner: Arc<dyn GameStore>, counts: Arc<Counts>) -> Counted {
        Counted { inner, counts }
    }
}

fn count(c: &AtomicUsize) {
    c.fetch_add(1, Ordering::SeqCst);
}

impl Wears for Counted {
    fn worn(&self) -> &dyn GameStore {
        &*self.inner
    }
}

impl Live for Counted {
    fn next_id(&self) -> Result<String, StoreError> {
        count(&self.counts.other_writes);
        self.inner.next_id()
    }

    fn load(&self, key: &ChannelKey) -> Result<Option<GameRecord>, StoreError> {
        count(&self.counts.loads);
        self.inner.load(key)
    }

    fn commit(
        &self,
        key: &ChannelKey,
        change: Option<&Change>,
        receipts: &[ReceiptToKeep<'_>],
    ) -> Result<(), StoreError> {
        count(&self.counts.commits);
        self.inner.commit(key, change, receipts)
    }
}

impl Lists for Counted {
    fn set_aside(&self, key: &ChannelKey) -> Result<(), StoreError> {
        count(&self.counts.other_writes);
        self.inner.set_aside(key)
    }

    fn live_games_of(&self, platform: &str, player: &str) -> Result<Vec<GameRecord>, StoreError> {
        count(&self.counts.other_reads);
        self.inner.live_games_of(platform, player)
    }

    fn timed_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        count(&self.counts.other_reads);
        self.inner.timed_games()
    }

    fn bot_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        count(&self.counts.other_reads);
        self.inner.bot_games()
    }

    fn live_games(&self, platform: &str) -> Result<Vec<GameRecord>, StoreError> {
        count(&self.counts.other_reads);
        self.inner.live_games(platform)
    }

    fn away_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        self.inner.away_games()
    }

    fn games_of(&self, player: &str) -> Result<Vec<GameRecord>, StoreError> {
        count(&self.counts.other_reads);
        self.inner.games_of(player)
    }

    fn archived(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        count(&self.counts.other_reads);
        self.inner.archived(id)
    }

    fn archive_ids(&self) -> Result<Vec<String>, StoreError> {
        count(&self.counts.other_reads);
        self.inner.archive_ids()
    }

    fn live_count(&self) -> Result<usize, StoreError> {
        count(&self.counts.other_reads);
        self.inner.live_count()
    }
}

impl Notes for Counted {
    fn note(&self, key: &ChannelKey, name: &str) -> Result<Option<String>, StoreError> {
        count(&self.counts.notes);
        self.inner.note(key, name)
    }

    fn set_note(
        &self,
        key: &ChannelKey,
        name: &str,
        value: Option<&str>,
    ) -> Result<(), StoreError> {
        count(&self.counts.other_writes);
        self.inner.set_note(key, name, value)
    }

    fn swap_note(
        &self,
        key: &ChannelKey,
        name: &str,
        expected: Option<&str>,
        value: Option<&str>,
    ) -> Result<bool, StoreError> {
        count(&self.counts.other_writes);
        self.inner.swap_note(key, name, expected, value)
    }
}

impl Receipts for Counted {
    fn receipt(&self, platform: &str, id: &str) -> Result<Option<String>, StoreError> {
        count(&self.counts.other_reads);
        self.inner.receipt(platform, id)
    }

    fn receipts(&self, platform: &str) -> Result<Vec<(String, String)>, StoreError> {
        count(&self.counts.other_reads);
        self.inner.receipts(platform)
    }

    fn set_receipt(&self, platform: &str, id: &str, body: Option<&str>) -> Result<(), StoreError> {
        count(&self.counts.other_writes);
        self.inner.set_receipt(platform, id, body)
    }
}

impl PassUpkeep for Counted {}
