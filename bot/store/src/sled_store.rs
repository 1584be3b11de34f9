//! The [`GameStore`] on sled, embedded in the data directory.
//!
//! Trees: `live` (channel → record), `archive` (game id → record), `by_player` (player, time and
//! game id → game id), `aside` (unreadable records set aside), `notes` (adapters' notes by
//! channel), `receipts` (platform and request id → what the core made of the request, written
//! in the same transaction as the change it made), `meta` (the schema version).
//! Every write is flushed before it returns. sled's `flush_async` is not used: it deadlocks with
//! many flushes in flight (see docs/performance.md); async callers run these methods on a
//! blocking thread.

use std::path::Path;

use sled::transaction::{ConflictableTransactionError, TransactionError, Transactional};

use super::backup::Entry;
use super::interface::{
    Change, ChannelKey, Lists, Live, Notes, ReceiptToKeep, Receipts, StoreError, Upkeep,
};
use super::record::GameRecord;
use super::record::{SCHEMA, decode, encode, id_number};

/// Games in a sled database.
pub struct SledStore {
    db: sled::Db,
    live: sled::Tree,
    archive: sled::Tree,
    by_player: sled::Tree,
    aside: sled::Tree,
    notes: sled::Tree,
    receipts: sled::Tree,
    /// Writes hold it shared; a snapshot holds it alone, so that it sees no write half done.
    gate: std::sync::RwLock<()>,
    /// The least number given next, so that a store copied from elsewhere gives new games ids
    /// after those it brought (`meta`'s `id_floor`; 0 in a store begun here).
    floor: std::sync::atomic::AtomicU64,
}

/// The key of `meta` that counts the numbers given ([`SledStore::fresh`]).
const NEXT_NUMBER: &str = "next_number";

/// The trees a copy carries (`meta` is each store's own).
const COPIED: [&str; 6] = ["live", "archive", "by_player", "aside", "notes", "receipts"];

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
            receipts: db.open_tree("receipts").map_err(io)?,
            gate: std::sync::RwLock::new(()),
            floor: std::sync::atomic::AtomicU64::new(0),
            db,
        };
        store.check_schema()?;
        let floor = store
            .db
            .open_tree("meta")
            .map_err(io)?
            .get("id_floor")
            .map_err(io)?;
        let floor = floor.map_or(0, |v| String::from_utf8_lossy(&v).parse().unwrap_or(0));
        store
            .floor
            .store(floor, std::sync::atomic::Ordering::SeqCst);
        store.count_from_here()?;
        Ok(store)
    }

    fn check_schema(&self) -> Result<(), StoreError> {
        let meta = self.db.open_tree("meta").map_err(io)?;
        let stored = meta
            .get("schema")
            .map_err(io)?
            .map(|v| String::from_utf8_lossy(&v).parse::<u32>().unwrap_or(0));
        if !super::record::needs_rewrite(stored, "the data directory").map_err(StoreError::Io)? {
            return Ok(());
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
        let _writing = self.writing();
        self.live.insert(key.bytes(), bytes).map_err(io)?;
        self.flush()
    }

    /// Stores many live games at once, each in its channel (replacing what lives there),
    /// without compare-and-swap, and flushes once at the end: for bringing games over from
    /// elsewhere in bulk, not for play.
    pub fn import_live(&self, records: &[GameRecord]) -> Result<(), StoreError> {
        let _writing = self.writing();
        for r in records {
            let key = ChannelKey::new(&r.platform, &r.channel);
            self.live.insert(key.bytes(), encode(r)).map_err(io)?;
        }
        self.flush()
    }

    /// Held while writing (see `gate`).
    fn writing(&self) -> std::sync::RwLockReadGuard<'_, ()> {
        self.gate.read().unwrap_or_else(|p| p.into_inner())
    }

    fn flush(&self) -> Result<(), StoreError> {
        self.db.flush().map(|_| ()).map_err(io)
    }

    /// A number no id or set-aside key of this store has had.
    /// A number never given before in this store (game ids, set-aside records): one more than
    /// the last, counted in `meta`'s `next_number`, so that ids read `g0`, `g1`, `g2` across
    /// restarts. (sled's own generator reserves numbers by the million and skips what a
    /// restart left unused.) A store whose numbers came from that generator goes on above the
    /// last of them ([`SledStore::count_from_here`]).
    fn fresh(&self) -> Result<u64, StoreError> {
        let floor = self.floor.load(std::sync::atomic::Ordering::SeqCst);
        let meta = self.db.open_tree("meta").map_err(io)?;
        let mut given = floor;
        meta.fetch_and_update(NEXT_NUMBER, |old| {
            let next = old
                .and_then(|v| std::str::from_utf8(v).ok()?.parse::<u64>().ok())
                .unwrap_or(0);
            given = next.max(floor);
            Some((given + 1).to_string().into_bytes())
        })
        .map_err(io)?;
        Ok(given)
    }

    /// Starts `meta`'s count of numbers in a store that has none yet: from 0 in an empty store,
    /// else above every number sled's generator gave it (the generator only goes up).
    fn count_from_here(&self) -> Result<(), StoreError> {
        let meta = self.db.open_tree("meta").map_err(io)?;
        if meta.contains_key(NEXT_NUMBER).map_err(io)? {
            return Ok(());
        }
        let used = [&self.live, &self.archive, &self.aside]
            .iter()
            .any(|t| !t.is_empty());
        let start = if used {
            let floor = self.floor.load(std::sync::atomic::Ordering::SeqCst);
            floor + self.db.generate_id().map_err(io)?
        } else {
            0
        };
        // Another opening of the same store may have started the count: then it stands.
        let _ = meta
            .compare_and_swap(
                NEXT_NUMBER,
                None as Option<&[u8]>,
                Some(start.to_string().as_bytes()),
            )
            .map_err(io)?;
        Ok(())
    }

    fn player_key(player: &str, record: &GameRecord) -> Vec<u8> {
        format!("{player}\u{1f}{:020}\u{1f}{}", record.updated, record.id).into_bytes()
    }
}

impl Live for SledStore {
    fn next_id(&self) -> Result<String, StoreError> {
        Ok(format!("g{}", self.fresh()?))
    }

    fn load(&self, key: &ChannelKey) -> Result<Option<GameRecord>, StoreError> {
        self.live
            .get(key.bytes())
            .map_err(io)?
            .map(|b| read(&b))
            .transpose()
    }

    fn commit(
        &self,
        key: &ChannelKey,
        change: Option<&Change>,
        receipts: &[ReceiptToKeep<'_>],
    ) -> Result<(), StoreError> {
        let _writing = self.writing();
        let live_key = key.bytes();
        let encoded = change.map(|c| match c {
            Change::Create(r)
            | Change::Update { record: r, .. }
            | Change::Archive { record: r, .. } => encode(r),
        });
        let kept: Vec<_> = receipts
            .iter()
            .map(|(platform, id, body)| (receipt_key(platform, id), body.as_bytes()))
            .collect();
        let trees = (&self.live, &self.archive, &self.by_player, &self.receipts);
        let result = trees.transaction(|(live, archive, index, receipts)| {
            let abort = |e| Err(ConflictableTransactionError::Abort(e));
            if let (Some(change), Some(bytes)) = (change, &encoded) {
                let current = match live.get(&live_key)? {
                    Some(b) => match decode(&b) {
                        Ok(r) => Some(r.version),
                        Err(why) => return abort(StoreError::Corrupt(why)),
                    },
                    None => None,
                };
                match (change, current) {
                    (Change::Create(_), Some(_)) => return abort(StoreError::Exists),
                    (Change::Create(_), None) => {}
                    (Change::Update { expected, .. }, Some(v)) if v == *expected => {}
                    (Change::Archive { expected, .. }, v) if v == *expected => {}
                    _ => return abort(StoreError::Conflict),
                }
                match change {
                    Change::Create(_) | Change::Update { .. } => {
                        live.insert(live_key.as_slice(), bytes.as_slice())?;
                    }
                    Change::Archive { record, .. } => {
                        live.remove(live_key.as_slice())?;
                        archive.insert(record.id.as_bytes(), bytes.as_slice())?;
                        for player in record.player_ids() {
                            index
                                .insert(Self::player_key(&player, record), record.id.as_bytes())?;
                        }
                    }
                }
            }
            for (k, body) in &kept {
                receipts.insert(k.as_slice(), *body)?;
            }
            Ok(())
        });
        match result {
            Ok(()) => self.flush(),
            Err(TransactionError::Abort(e)) => Err(e),
            Err(TransactionError::Storage(e)) => Err(io(e)),
        }
    }
}

impl Lists for SledStore {
    fn set_aside(&self, key: &ChannelKey) -> Result<(), StoreError> {
        let _writing = self.writing();
        if let Some(bytes) = self.live.remove(key.bytes()).map_err(io)? {
            let id = self.fresh()?;
            let mut aside_key = key.bytes();
            aside_key.extend_from_slice(format!("\u{1f}{id:020}").as_bytes());
            self.aside.insert(aside_key, bytes).map_err(io)?;
        }
        self.flush()
    }

    fn live_games_of(
        &self,
        platform: &str,
        player_id: &str,
    ) -> Result<Vec<GameRecord>, StoreError> {
        // The platform's live games are one range of keys; a player's are read out of it. Of
        // the other platforms' games, only those played in two places (marked `"away":`) are
        // decoded.
        const AWAY: &[u8] = b"\"away\":";
        let prefix = format!("{platform}\u{1f}").into_bytes();
        let mut games = Vec::new();
        for item in self.live.iter() {
            let (key, bytes) = item.map_err(io)?;
            let here = key.starts_with(&prefix);
            if !here && !bytes.windows(AWAY.len()).any(|w| w == AWAY) {
                continue;
            }
            if let Ok(r) = decode(&bytes)
                && r.is_player(player_id)
                && r.platform_of(player_id) == platform
            {
                games.push(r);
            }
        }
        Ok(games)
    }

    fn timed_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        // Untimed records are passed over without being decoded: only a timed one holds the
        // `"clock":` field.
        const MARK: &[u8] = b"\"clock\":";
        let mut games = Vec::new();
        for item in self.live.iter() {
            let (_, bytes) = item.map_err(io)?;
            if bytes.windows(MARK.len()).any(|w| w == MARK)
                && let Ok(r) = decode(&bytes)
                && r.clock.is_some()
            {
                games.push(r);
            }
        }
        Ok(games)
    }

    fn bot_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        // Records without the bot are passed over without being decoded.
        const MARK: &[u8] = b"\"id\":\"bot:";
        let mut games = Vec::new();
        for item in self.live.iter() {
            let (_, bytes) = item.map_err(io)?;
            if bytes.windows(MARK.len()).any(|w| w == MARK)
                && let Ok(r) = decode(&bytes)
            {
                games.push(r);
            }
        }
        Ok(games)
    }

    fn live_games(&self, platform: &str) -> Result<Vec<GameRecord>, StoreError> {
        let prefix = format!("{platform}\u{1f}");
        let mut games = Vec::new();
        for item in self.live.scan_prefix(prefix.as_bytes()) {
            let (_, bytes) = item.map_err(io)?;
            if let Ok(r) = decode(&bytes) {
                games.push(r);
            }
        }
        Ok(games)
    }

    fn away_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        // Records played in one place are passed over without being decoded.
        const MARK: &[u8] = b"\"away\":";
        let mut games = Vec::new();
        for item in self.live.iter() {
            let (_, bytes) = item.map_err(io)?;
            if bytes.windows(MARK.len()).any(|w| w == MARK)
                && let Ok(r) = decode(&bytes)
                && r.away.is_some()
            {
                games.push(r);
            }
        }
        Ok(games)
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

    fn live_count(&self) -> Result<usize, StoreError> {
        Ok(self.live.len())
    }

    fn archived(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.archive
            .get(id.as_bytes())
            .map_err(io)?
            .map(|b| read(&b))
            .transpose()
    }

    fn archive_ids(&self) -> Result<Vec<String>, StoreError> {
        self.archive
            .iter()
            .keys()
            .map(|k| {
                k.map(|k| String::from_utf8_lossy(&k).into_owned())
                    .map_err(io)
            })
            .collect()
    }
}

impl Notes for SledStore {
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
        let _writing = self.writing();
        match value {
            Some(v) => self.notes.insert(note_key(key, name), v.as_bytes()),
            None => self.notes.remove(note_key(key, name)),
        }
        .map_err(io)?;
        self.flush()
    }

    fn swap_note(
        &self,
        key: &ChannelKey,
        name: &str,
        expected: Option<&str>,
        value: Option<&str>,
    ) -> Result<bool, StoreError> {
        let _writing = self.writing();
        let swapped = self
            .notes
            .compare_and_swap(
                note_key(key, name),
                expected.map(str::as_bytes),
                value.map(str::as_bytes),
            )
            .map_err(io)?;
        if swapped.is_err() {
            return Ok(false);
        }
        self.flush()?;
        Ok(true)
    }
}

impl Receipts for SledStore {
    fn receipt(&self, platform: &str, id: &str) -> Result<Option<String>, StoreError> {
        let value = self.receipts.get(receipt_key(platform, id)).map_err(io)?;
        Ok(value.map(|v| String::from_utf8_lossy(&v).into_owned()))
    }

    fn receipts(&self, platform: &str) -> Result<Vec<(String, String)>, StoreError> {
        let prefix = receipt_key(platform, "");
        let mut out = Vec::new();
        for item in self.receipts.scan_prefix(&prefix) {
            let (k, v) = item.map_err(io)?;
            let id = String::from_utf8_lossy(&k[prefix.len()..]).into_owned();
            out.push((id, String::from_utf8_lossy(&v).into_owned()));
        }
        Ok(out)
    }

    fn set_receipt(&self, platform: &str, id: &str, body: Option<&str>) -> Result<(), StoreError> {
        let _writing = self.writing();
        let k = receipt_key(platform, id);
        match body {
            Some(b) => self.receipts.insert(k, b.as_bytes()),
            None => self.receipts.remove(k),
        }
        .map_err(io)?;
        self.flush()
    }
}

impl Upkeep for SledStore {
    fn snapshot(
        &self,
        created: &str,
        out: &mut dyn std::io::Write,
    ) -> Result<super::backup::Summary, String> {
        // Writes wait meanwhile: the snapshot is of one moment. Reading a store of 10,000
        // games takes a fraction of a second.
        let _alone = self.gate.write().unwrap_or_else(|p| p.into_inner());
        super::backup::write_db(&self.db, created, out)
    }

    fn entries(&self) -> Result<Vec<Entry>, StoreError> {
        let _alone = self.gate.write().unwrap_or_else(|p| p.into_inner());
        let mut out = Vec::new();
        for name in COPIED {
            for item in self.db.open_tree(name).map_err(io)?.iter() {
                let (k, v) = item.map_err(io)?;
                out.push(Entry::new(name, k.to_vec(), v.to_vec()));
            }
        }
        out.sort();
        Ok(out)
    }

    fn import(&self, entries: &[Entry], replace: bool) -> Result<(), StoreError> {
        let _alone = self.gate.write().unwrap_or_else(|p| p.into_inner());
        if replace {
            for name in COPIED {
                self.db.open_tree(name).map_err(io)?.clear().map_err(io)?;
            }
        }
        let mut floor = self.floor.load(std::sync::atomic::Ordering::SeqCst);
        for e in entries {
            if e.tree == "meta" {
                continue;
            }
            if !COPIED.contains(&e.tree.as_str()) {
                return Err(io(format!("the store has no part called {:?}", e.tree)));
            }
            // Ids and set-aside numbers brought over are not given again.
            let number = match e.tree.as_str() {
                "archive" => std::str::from_utf8(&e.key).ok().and_then(id_number),
                "live" => decode(&e.value).ok().and_then(|r| id_number(&r.id)),
                "aside" => std::str::from_utf8(&e.key)
                    .ok()
                    .and_then(|k| k.rsplit('\u{1f}').next()?.parse().ok()),
                _ => None,
            };
            if let Some(n) = number {
                floor = floor.max(n + 1);
            }
            let tree = self.db.open_tree(&e.tree).map_err(io)?;
            tree.insert(e.key.as_slice(), e.value.as_slice())
                .map_err(io)?;
        }
        let meta = self.db.open_tree("meta").map_err(io)?;
        meta.insert("id_floor", floor.to_string().as_bytes())
            .map_err(io)?;
        self.floor.store(floor, std::sync::atomic::Ordering::SeqCst);
        self.flush()
    }
}

/// Where a request's receipt is kept: the platform, a separator, the request's id.
fn receipt_key(platform: &str, id: &str) -> Vec<u8> {
    format!("{platform}\u{1f}{id}").into_bytes()
}

/// Where a channel's note is kept: the channel's key, a separator, the note's name.
fn note_key(key: &ChannelKey, name: &str) -> Vec<u8> {
    let mut bytes = key.bytes();
    bytes.extend_from_slice(format!("\u{1f}{name}").as_bytes());
    bytes
}

#[cfg(test)]
mod tests {
    use super::super::contract::keeps_the_contract as contract;
    use super::*;

    #[test]
    fn sled_races_have_one_winner() {
        let dir = std::env::temp_dir().join(format!("muster-sled-race-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = SledStore::open(&dir).unwrap();
        super::super::contract::races_have_one_winner(&store);
        super::super::contract::leases_have_one_holder(&store);
        drop(store);
        let _ = std::fs::remove_dir_all(&dir);
    }

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
        let store = reopen(&dir);
        assert_eq!(store.games_of("alice").unwrap().len(), 2);
        assert_eq!(
            store.receipt("console", "ev3").unwrap().as_deref(),
            Some("third")
        );
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
        // A copy into a second store compares entry for entry.
        let copy_dir = dir.with_extension("copy");
        let _ = std::fs::remove_dir_all(&copy_dir);
        let copy = SledStore::open(&copy_dir).unwrap();
        super::super::contract::copies_whole(&store, &copy);
        drop((store, copy));
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::remove_dir_all(&copy_dir);
    }

    /// Opens the store in `dir` again: sled's flushing thread lets the directory go a moment
    /// after the last opening's store is dropped.
    fn reopen(dir: &Path) -> SledStore {
        (0..100)
            .find_map(|_| {
                let store = SledStore::open(dir).ok();
                if store.is_none() {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                store
            })
            .expect("the store reopens")
    }

    #[test]
    fn game_ids_go_on_one_by_one_across_restarts() {
        let dir = std::env::temp_dir().join(format!("muster-sled-ids-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let ids = |n: usize| {
            let store = reopen(&dir);
            let ids: Vec<String> = (0..n).map(|_| store.next_id().unwrap()).collect();
            store.flush().unwrap();
            ids
        };
        assert_eq!(ids(2), ["g0", "g1"]);
        assert_eq!(ids(1), ["g2"]);
        assert_eq!(ids(2), ["g3", "g4"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
