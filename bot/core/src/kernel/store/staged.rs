//! One request's writes, held back until the request is done: the core runs a command over a
//! [`Staged`] store, which reads through to the real one and keeps the command's change to its
//! channel's game; [`Staged::commit`] then stores that change together with the request's
//! receipt in one atomic write. A command therefore changes the store once, and its replies
//! (worded before the commit) are kept with the change that they announce.

use std::sync::{Arc, Mutex};

use muster_rules::AnyGame;

use muster_store::interface::{
    Change, ChannelKey, GameStore, Live, PassLists, PassNotes, PassReceipts, PassUpkeep,
    ReceiptToKeep, StoreError, Wears,
};
use muster_store::record::GameRecord;

/// A store whose game writes wait for [`Staged::commit`]; everything else goes straight through.
pub struct Staged {
    inner: Arc<dyn GameStore>,
    change: Mutex<Option<(ChannelKey, Change)>>,
    touched: std::sync::atomic::AtomicBool,
    /// The game the commit stored, if it stored one, and whether it archived it.
    written: Mutex<Option<(GameRecord, bool)>>,
    /// Each channel's game as this request read it from the store (once): what it saw of it,
    /// and the record.
    read: Mutex<Vec<Read>>,
    /// The game a record plays to, with the record's id and version, when it was kept (see
    /// [`Staged::keep_played`]).
    played: Mutex<Option<(String, u64, AnyGame)>>,
    /// Notices the change owes on some platform (a game played in two places tells the other
    /// place), kept as receipts in the commit: `(platform, id, body)`.
    notices: Mutex<Vec<(String, String, String)>>,
}

/// A channel's game as a request read it: what it saw of it, and the record.
type Read = (ChannelKey, Option<Seen>, Option<GameRecord>);

/// A channel's game as a request first read it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Seen {
    /// The game's id.
    pub id: String,
    /// Its moves.
    pub moves: usize,
    /// Its status.
    pub status: muster_store::record::Status,
}

impl Staged {
    /// Writes over `inner`, held back.
    pub fn over(inner: Arc<dyn GameStore>) -> Staged {
        Staged {
            inner,
            change: Mutex::new(None),
            touched: std::sync::atomic::AtomicBool::new(false),
            written: Mutex::new(None),
            read: Mutex::new(Vec::new()),
            played: Mutex::new(None),
            notices: Mutex::new(Vec::new()),
        }
    }

    /// Keeps a notice the held change owes on `platform` as the receipt `id`, stored in the
    /// same write as the change (and not at all if the change is not).
    pub fn keep_notice(&self, platform: &str, id: &str, body: String) {
        let mut notices = self.notices.lock().unwrap_or_else(|p| p.into_inner());
        notices.retain(|(p, i, _)| !(p == platform && i == id));
        notices.push((platform.to_string(), id.to_string(), body));
    }

    /// Keeps `game`, the game `record` plays to (read before this request ran, or just
    /// held), so that what decides or follows the command need not replay the record.
    pub fn keep_played(&self, record: &GameRecord, game: &AnyGame) {
        *self.played.lock().unwrap_or_else(|p| p.into_inner()) =
            Some((record.id.clone(), record.version, game.clone()));
    }

    /// The game `record` plays to, if it was kept (the same game at the same version).
    pub fn played(&self, record: &GameRecord) -> Option<AnyGame> {
        let played = self.played.lock().unwrap_or_else(|p| p.into_inner());
        played
            .as_ref()
            .filter(|(id, version, _)| *id == record.id && *version == record.version)
            .map(|(_, _, g)| g.clone())
    }

    /// Takes `found` as this request's read of `key` from the store, made just before it ran
    /// (a bare move's, found by reading its channel): reading `key` gives it, and the commit
    /// checks that the store still holds it. A key read already keeps its first read.
    pub fn seed(&self, key: &ChannelKey, found: Option<GameRecord>) {
        let mut read = self.read.lock().unwrap_or_else(|p| p.into_inner());
        if read.iter().any(|(k, _, _)| k == key) {
            return;
        }
        let seen = found.as_ref().map(|r| Seen {
            id: r.id.clone(),
            moves: r.moves.len(),
            status: r.status,
        });
        read.push((key.clone(), seen, found));
    }

    fn held(&self) -> std::sync::MutexGuard<'_, Option<(ChannelKey, Change)>> {
        self.change.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether a change is held.
    pub fn changed(&self) -> bool {
        self.held().is_some()
    }

    /// Whether the request changed a game (held, or committed).
    pub fn touched(&self) -> bool {
        self.touched.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// The record the held change is to store (created, changed or archived), before it is
    /// committed.
    pub fn held_record(&self) -> Option<GameRecord> {
        self.held().as_ref().map(|(_, change)| match change {
            Change::Create(r)
            | Change::Update { record: r, .. }
            | Change::Archive { record: r, .. } => r.clone(),
        })
    }

    /// The finished game the held change is to move to the archive, before it is committed.
    pub fn ending(&self) -> Option<GameRecord> {
        match self.held().as_ref() {
            Some((_, Change::Archive { record, .. })) => Some(record.clone()),
            _ => None,
        }
    }

    /// The finished game the commit moved to the archive, if it did.
    pub fn ended(&self) -> Option<GameRecord> {
        let written = self.written.lock().unwrap_or_else(|p| p.into_inner());
        written
            .as_ref()
            .filter(|(_, archived)| *archived)
            .map(|(r, _)| r.clone())
    }

    /// The game the commit stored (created, changed or archived), if it stored one.
    pub fn written(&self) -> Option<GameRecord> {
        let written = self.written.lock().unwrap_or_else(|p| p.into_inner());
        written.as_ref().map(|(r, _)| r.clone())
    }

    /// `key`'s game (its id, moves and status) when this request first read it from
    /// the store (`None`: no game, or not read).
    pub fn before(&self, key: &ChannelKey) -> Option<Seen> {
        let read = self.read.lock().unwrap_or_else(|p| p.into_inner());
        read.iter()
            .find(|(k, _, _)| k == key)
            .and_then(|(_, b, _)| b.clone())
    }

    /// Stores the held change (if any), the notices it owes and `receipt` of the request (its
    /// platform, id and body) in one write to the real store.
    pub fn commit(&self, receipt: Option<ReceiptToKeep<'_>>) -> Result<(), StoreError> {
        let held = self.held().take();
        let notices = std::mem::take(&mut *self.notices.lock().unwrap_or_else(|p| p.into_inner()));
        match (held, receipt) {
            (Some((key, change)), receipt) => {
                let mut kept: Vec<ReceiptToKeep<'_>> = notices
                    .iter()
                    .map(|(p, i, b)| (p.as_str(), i.as_str(), b.as_str()))
                    .collect();
                kept.extend(receipt);
                self.inner.commit(&key, Some(&change), &kept)?;
                let archived = matches!(change, Change::Archive { .. });
                let (Change::Create(record)
                | Change::Update { record, .. }
                | Change::Archive { record, .. }) = change;
                *self.written.lock().unwrap_or_else(|p| p.into_inner()) = Some((record, archived));
                Ok(())
            }
            (None, Some((platform, id, body))) => self.inner.set_receipt(platform, id, Some(body)),
            (None, None) => Ok(()),
        }
    }

    /// The live game of `key` as this request sees it: its own change, else the stored one.
    fn current(&self, key: &ChannelKey) -> Result<Option<GameRecord>, StoreError> {
        if let Some((k, change)) = self.held().as_ref()
            && k == key
        {
            return Ok(match change {
                Change::Create(r) | Change::Update { record: r, .. } => Some(r.clone()),
                Change::Archive { .. } => None,
            });
        }
        // A channel is read from the store once a request: what it sees after is what it read
        // (the commit checks that the store still holds it).
        let read = self.read.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((_, _, record)) = read.iter().find(|(k, _, _)| k == key) {
            return Ok(record.clone());
        }
        let found = self.inner.load(key)?;
        drop(read);
        self.seed(key, found.clone());
        Ok(found)
    }

    /// Holds `next` as the channel's change, on top of what this request already changed there.
    fn stage(&self, key: &ChannelKey, next: Change) -> Result<(), StoreError> {
        let mut held = self.held();
        let merged = match held.take() {
            None => next,
            Some((k, _)) if k != *key => {
                // One command changes one channel's game.
                return Err(StoreError::Io(format!(
                    "one command tried to change two games ({k} and {key})"
                )));
            }
            Some((_, before)) => {
                let created = matches!(before, Change::Create(_));
                let base = match &before {
                    Change::Update { expected, .. } => Some(*expected),
                    _ => None,
                };
                match next {
                    Change::Update { record, .. } if created => Change::Create(record),
                    Change::Update { record, .. } => Change::Update {
                        expected: base.unwrap_or_default(),
                        record,
                    },
                    Change::Archive { record, .. } => Change::Archive {
                        expected: base,
                        record,
                    },
                    Change::Create(_) => return Err(StoreError::Exists),
                }
            }
        };
        *held = Some((key.clone(), merged));
        self.touched
            .store(true, std::sync::atomic::Ordering::SeqCst);
        Ok(())
    }
}

impl Wears for Staged {
    fn worn(&self) -> &dyn GameStore {
        &*self.inner
    }
}

impl Live for Staged {
    fn next_id(&self) -> Result<String, StoreError> {
        self.inner.next_id()
    }

    fn load(&self, key: &ChannelKey) -> Result<Option<GameRecord>, StoreError> {
        self.current(key)
    }

    fn commit(
        &self,
        key: &ChannelKey,
        change: Option<&Change>,
        receipts: &[ReceiptToKeep<'_>],
    ) -> Result<(), StoreError> {
        if !receipts.is_empty() {
            return Err(StoreError::Io(
                "a receipt is kept when the request is committed".into(),
            ));
        }
        let Some(change) = change else {
            return Ok(());
        };
        // Checked now against what this request sees, so that the command answers a lost race
        // at once; checked again by the real store when the request commits.
        let current = self.current(key)?.map(|r| r.version);
        match (change, current) {
            (Change::Create(_), Some(_)) => return Err(StoreError::Exists),
            (Change::Create(_), None) => {}
            (Change::Update { expected, .. }, Some(v)) if v == *expected => {}
            (Change::Archive { expected, .. }, v) if v == *expected => {}
            _ => return Err(StoreError::Conflict),
        }
        self.stage(key, change.clone())
    }
}

impl PassLists for Staged {}

impl PassNotes for Staged {}

impl PassReceipts for Staged {}

impl PassUpkeep for Staged {}

#[cfg(test)]
mod tests {
    use super::super::MemoryStore;
    use super::super::contract::record;
    use super::*;

    #[test]
    fn a_request_changes_the_store_once_when_it_commits() {
        let real: Arc<dyn GameStore> = Arc::new(MemoryStore::default());
        let key = ChannelKey::new("console", "general");
        // A game created, then started, by one request is one creation of its last record.
        let staged = Staged::over(Arc::clone(&real));
        let mut r = record(&staged, "general");
        r.version = 1;
        staged.create(&key, &r).unwrap();
        assert_eq!(staged.load(&key).unwrap(), Some(r.clone()));
        assert_eq!(real.load(&key).unwrap(), None, "nothing is written yet");
        let mut started = r.clone();
        started.version = 2;
        staged.update(&key, 1, &started).unwrap();
        assert_eq!(staged.update(&key, 1, &started), Err(StoreError::Conflict));
        staged.commit(Some(("console", "ev1", "said"))).unwrap();
        assert_eq!(real.load(&key).unwrap(), Some(started.clone()));
        assert_eq!(
            real.receipt("console", "ev1").unwrap().as_deref(),
            Some("said")
        );
        // A change made from a version someone else has since replaced is refused at commit.
        let staged = Staged::over(Arc::clone(&real));
        let mut moved = started.clone();
        moved.version = 3;
        staged.update(&key, 2, &moved).unwrap();
        let mut theirs = started.clone();
        theirs.version = 3;
        theirs.moves.push("a1".into());
        real.update(&key, 2, &theirs).unwrap();
        assert_eq!(
            staged.commit(Some(("console", "ev2", "said"))),
            Err(StoreError::Conflict)
        );
        assert_eq!(real.load(&key).unwrap(), Some(theirs.clone()));
        assert_eq!(real.receipt("console", "ev2").unwrap(), None);
        // An update then an archive files the game from the version first read.
        let staged = Staged::over(Arc::clone(&real));
        let mut next = theirs.clone();
        next.version = 4;
        staged.update(&key, 3, &next).unwrap();
        let mut done = next.clone();
        done.version = 5;
        staged.archive(&key, 4, &done).unwrap();
        assert_eq!(staged.load(&key).unwrap(), None);
        staged.commit(None).unwrap();
        assert_eq!(real.load(&key).unwrap(), None);
        assert_eq!(real.archived(&done.id).unwrap(), Some(done));
    }
}
