//! The [`GameStore`] on PostgreSQL, for several Muster instances sharing one database.
//!
//! Tables mirror the sled trees (docs/operations.md): `live` (one row per channel, with the
//! record's version in a column of its own, for compare-and-swap in one statement), `archive`,
//! `by_player`, `aside`, `notes`, `receipts` and `meta`. Records are stored as the same bytes
//! sled keeps, so a copy between the two compares byte for byte. A write returns only after
//! its transaction committed.
//!
//! The store's methods are synchronous, like sled's: each runs its statements on a runtime the
//! store owns, so a caller on any thread (a blocking one, or an async one) can wait for it. The
//! schema is created and upgraded by the migrations of [`super::postgres_schema`], applied at
//! start under an advisory lock, so that instances starting together apply each migration once.

use std::future::Future;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio_postgres::NoTls;
use tokio_postgres::types::ToSql;

use super::backup::Entry;
use super::changes::Changes;
use super::interface::{
    Change, ChannelKey, Lists, Live, Notes, ReceiptToKeep, Receipts, StoreError, Upkeep,
};
use super::postgres_listen;
use super::postgres_schema::{self, Columns, counters_after, db};
use super::record::GameRecord;
use super::record::{decode, encode};

// Backups and copies between backends (`Upkeep`).
mod upkeep;

/// How many connections one instance keeps open at most.
const POOL_SIZE: usize = 16;

/// What a statement gave: rows, or how many it changed.
enum Ran {
    Rows(Vec<tokio_postgres::Row>),
    Changed(u64),
}

/// Games in a PostgreSQL database.
pub struct PgStore {
    pool: Pool,
    runtime: Option<tokio::runtime::Runtime>,
    /// The database's address, for the connection that listens to the changes.
    config: tokio_postgres::Config,
}

fn io(e: impl std::fmt::Display) -> StoreError {
    StoreError::Io(e.to_string())
}

fn read(bytes: &[u8]) -> Result<GameRecord, StoreError> {
    decode(bytes).map_err(StoreError::Corrupt)
}

/// The numbered part of a game id, as PostgreSQL's sequences count (-1 for none).
fn id_number(id: &str) -> i64 {
    super::record::id_number(id).map_or(-1, |n| n as i64)
}

fn text(bytes: &[u8]) -> Result<String, StoreError> {
    String::from_utf8(bytes.to_vec())
        .map_err(|_| StoreError::Io("an entry's key or value is not text".into()))
}

/// Splits a sled key at its unit separators into exactly `n` parts.
fn parts(key: &[u8], n: usize) -> Result<Vec<String>, StoreError> {
    let key = text(key)?;
    let parts: Vec<String> = key.splitn(n, '\u{1f}').map(str::to_string).collect();
    if parts.len() == n {
        Ok(parts)
    } else {
        Err(StoreError::Io(format!(
            "an entry's key has the wrong shape: {key:?}"
        )))
    }
}

impl PgStore {
    /// Connects to the database at `url` (`postgres://user:password@host:port/name`), creating
    /// or upgrading its tables.
    pub fn open(url: &str) -> Result<PgStore, StoreError> {
        let config: tokio_postgres::Config = url.parse().map_err(|e| {
            StoreError::Io(format!(
                "the store's PostgreSQL address cannot be read: {e}"
            ))
        })?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("muster-postgres")
            .enable_all()
            .build()
            .map_err(|e| io(format!("cannot start the store's runtime: {e}")))?;
        let manager = Manager::from_config(
            config.clone(),
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Fast,
            },
        );
        // A database that does not answer is an error after a while, not a wait for ever.
        let patience = Some(std::time::Duration::from_secs(10));
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .wait_timeout(patience)
            .create_timeout(patience)
            .recycle_timeout(patience)
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .build()
            .map_err(io)?;
        let store = PgStore {
            pool,
            runtime: Some(runtime),
            config,
        };
        store.migrate()?;
        Ok(store)
    }

    /// Runs `work` on the store's runtime and waits for it, from whatever thread calls.
    fn run<T: Send + 'static>(
        &self,
        work: impl Future<Output = Result<T, StoreError>> + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        let runtime = self
            .runtime
            .as_ref()
            .expect("the runtime lives as long as the store");
        runtime.spawn(async move {
            let _ = tx.send(work.await);
        });
        rx.recv()
            .unwrap_or_else(|_| Err(io("the store's runtime stopped")))
    }

    /// A connection from the pool, with a message that says where it failed to connect.
    async fn client(pool: &Pool) -> Result<deadpool_postgres::Object, StoreError> {
        pool.get()
            .await
            .map_err(|e| StoreError::Io(format!("cannot reach the PostgreSQL store: {e}")))
    }

    /// Runs one statement; its rows when `rows`, else how many rows it changed.
    fn statement(
        &self,
        sql: &'static str,
        params: Vec<Box<dyn ToSql + Send + Sync>>,
        rows: bool,
    ) -> Result<Ran, StoreError> {
        let pool = self.pool.clone();
        self.run(async move {
            let client = Self::client(&pool).await?;
            let statement = client.prepare_cached(sql).await.map_err(db)?;
            let refs: Vec<&(dyn ToSql + Sync)> = params
                .iter()
                .map(|p| p.as_ref() as &(dyn ToSql + Sync))
                .collect();
            if rows {
                client.query(&statement, &refs).await.map(Ran::Rows)
            } else {
                client.execute(&statement, &refs).await.map(Ran::Changed)
            }
            .map_err(db)
        })
    }

    /// Runs one statement and returns the rows it changed.
    fn execute(
        &self,
        sql: &'static str,
        params: Vec<Box<dyn ToSql + Send + Sync>>,
    ) -> Result<u64, StoreError> {
        match self.statement(sql, params, false)? {
            Ran::Changed(n) => Ok(n),
            Ran::Rows(rows) => Ok(rows.len() as u64),
        }
    }

    /// Runs one query and returns its rows.
    fn query(
        &self,
        sql: &'static str,
        params: Vec<Box<dyn ToSql + Send + Sync>>,
    ) -> Result<Vec<tokio_postgres::Row>, StoreError> {
        match self.statement(sql, params, true)? {
            Ran::Rows(rows) => Ok(rows),
            Ran::Changed(_) => Ok(Vec::new()),
        }
    }

    /// Records from a query whose first column is a record; unreadable ones left out.
    fn records(
        &self,
        sql: &'static str,
        params: Vec<Box<dyn ToSql + Send + Sync>>,
    ) -> Result<Vec<GameRecord>, StoreError> {
        Ok(self
            .query(sql, params)?
            .iter()
            .filter_map(|row| decode(row.get::<_, &[u8]>(0)).ok())
            .collect())
    }

    /// Applies the migrations this database has not had yet, and checks or brings the
    /// records' layout up to [`super::SCHEMA`], as sled does when it opens.
    fn migrate(&self) -> Result<(), StoreError> {
        let pool = self.pool.clone();
        self.run(async move {
            let mut client = Self::client(&pool).await?;
            postgres_schema::migrate(&mut client).await
        })
    }

    /// Overwrites the stored bytes of a channel's live game (for repair tools and tests of
    /// damaged records).
    pub fn put_raw(&self, key: &ChannelKey, bytes: &[u8]) -> Result<(), StoreError> {
        let cols = Columns::of_bytes(bytes);
        self.execute(
            "INSERT INTO live (platform, channel, version, record, players, timed, bot)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (platform, channel) DO UPDATE SET version = excluded.version,
               record = excluded.record, players = excluded.players, timed = excluded.timed,
               bot = excluded.bot",
            vec![
                Box::new(key.platform.clone()),
                Box::new(key.channel.clone()),
                Box::new(cols.version),
                Box::new(bytes.to_vec()),
                Box::new(cols.players),
                Box::new(cols.timed),
                Box::new(cols.bot),
            ],
        )
        .map(|_| ())
    }
}

impl Drop for PgStore {
    fn drop(&mut self) {
        // Dropped from an async context too: the runtime is let go without waiting.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// One change inside a commit's transaction.
async fn apply(
    tx: &deadpool_postgres::Transaction<'_>,
    key: &ChannelKey,
    change: &Change,
) -> Result<(), StoreError> {
    let (platform, channel) = (&key.platform, &key.channel);
    match change {
        Change::Create(record) => {
            let c = Columns::of(record);
            let bytes = encode(record);
            let sql = "INSERT INTO live (platform, channel, version, record, players, timed, bot)
                       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING";
            let st = tx.prepare_cached(sql).await.map_err(db)?;
            let n = tx
                .execute(
                    &st,
                    &[
                        platform, channel, &c.version, &bytes, &c.players, &c.timed, &c.bot,
                    ],
                )
                .await
                .map_err(db)?;
            if n == 0 {
                return Err(StoreError::Exists);
            }
        }
        Change::Update { expected, record } => {
            let c = Columns::of(record);
            let bytes = encode(record);
            let expected = *expected as i64;
            // The compare-and-swap: one statement, applied only at the version read.
            let sql = "UPDATE live SET version = $4, record = $5, players = $6, timed = $7,
                         bot = $8
                       WHERE platform = $1 AND channel = $2 AND version = $3";
            let st = tx.prepare_cached(sql).await.map_err(db)?;
            let params: [&(dyn ToSql + Sync); 8] = [
                platform, channel, &expected, &c.version, &bytes, &c.players, &c.timed, &c.bot,
            ];
            if tx.execute(&st, &params).await.map_err(db)? == 0 {
                return Err(StoreError::Conflict);
            }
        }
        Change::Archive { expected, record } => {
            match expected {
                Some(expected) => {
                    let expected = *expected as i64;
                    let sql = "DELETE FROM live
                               WHERE platform = $1 AND channel = $2 AND version = $3";
                    let st = tx.prepare_cached(sql).await.map_err(db)?;
                    let n = tx
                        .execute(&st, &[platform, channel, &expected])
                        .await
                        .map_err(db)?;
                    if n == 0 {
                        return Err(StoreError::Conflict);
                    }
                }
                None => {
                    let sql = "SELECT 1 FROM live WHERE platform = $1 AND channel = $2";
                    let st = tx.prepare_cached(sql).await.map_err(db)?;
                    if tx
                        .query_opt(&st, &[platform, channel])
                        .await
                        .map_err(db)?
                        .is_some()
                    {
                        return Err(StoreError::Conflict);
                    }
                }
            }
            file(tx, &record.id, &encode(record), Some(record)).await?;
        }
    }
    Ok(())
}

/// Files a finished game's bytes in the archive and, when it is readable, under each player.
async fn file(
    tx: &deadpool_postgres::Transaction<'_>,
    id: &str,
    bytes: &[u8],
    record: Option<&GameRecord>,
) -> Result<(), StoreError> {
    let sql = "INSERT INTO archive (id, record) VALUES ($1, $2)
               ON CONFLICT (id) DO UPDATE SET record = excluded.record";
    let st = tx.prepare_cached(sql).await.map_err(db)?;
    tx.execute(&st, &[&id, &bytes]).await.map_err(db)?;
    if let Some(record) = record {
        let sql = "INSERT INTO by_player (player, updated, id) VALUES ($1, $2, $3)
                   ON CONFLICT DO NOTHING";
        let st = tx.prepare_cached(sql).await.map_err(db)?;
        let updated = record.updated as i64;
        for player in record.player_ids() {
            tx.execute(&st, &[&player, &updated, &id])
                .await
                .map_err(db)?;
        }
    }
    Ok(())
}

fn boxed<T: ToSql + Send + Sync + 'static>(value: T) -> Box<dyn ToSql + Send + Sync> {
    Box::new(value)
}

impl Live for PgStore {
    fn next_id(&self) -> Result<String, StoreError> {
        let rows = self.query("SELECT nextval('game_ids')", vec![])?;
        let n: i64 = rows.first().map(|r| r.get(0)).ok_or_else(|| io("no id"))?;
        Ok(format!("g{n}"))
    }

    fn load(&self, key: &ChannelKey) -> Result<Option<GameRecord>, StoreError> {
        let rows = self.query(
            "SELECT record FROM live WHERE platform = $1 AND channel = $2",
            vec![boxed(key.platform.clone()), boxed(key.channel.clone())],
        )?;
        rows.first().map(|r| read(r.get::<_, &[u8]>(0))).transpose()
    }

    fn commit(
        &self,
        key: &ChannelKey,
        change: Option<&Change>,
        receipts: &[ReceiptToKeep<'_>],
    ) -> Result<(), StoreError> {
        let pool = self.pool.clone();
        let key = key.clone();
        let change = change.cloned();
        let receipts: Vec<(String, String, String)> = receipts
            .iter()
            .map(|(p, id, body)| (p.to_string(), id.to_string(), body.to_string()))
            .collect();
        self.run(async move {
            let mut client = Self::client(&pool).await?;
            let tx = client.transaction().await.map_err(db)?;
            if let Some(change) = &change {
                apply(&tx, &key, change).await?;
            }
            for (platform, id, body) in &receipts {
                let sql = "INSERT INTO receipts (platform, id, body) VALUES ($1, $2, $3)
                           ON CONFLICT (platform, id) DO UPDATE SET body = excluded.body";
                let st = tx.prepare_cached(sql).await.map_err(db)?;
                tx.execute(&st, &[platform, id, body]).await.map_err(db)?;
            }
            // Acknowledged only once committed: a unique key broken by a racing writer is
            // that race lost.
            tx.commit().await.map_err(|e| match e.code() {
                Some(&tokio_postgres::error::SqlState::UNIQUE_VIOLATION) => StoreError::Conflict,
                _ => db(e),
            })
        })
    }
}

impl Lists for PgStore {
    fn set_aside(&self, key: &ChannelKey) -> Result<(), StoreError> {
        self.execute(
            "WITH moved AS (DELETE FROM live WHERE platform = $1 AND channel = $2
                            RETURNING platform, channel, record)
             INSERT INTO aside (platform, channel, n, record)
             SELECT platform, channel, nextval('aside_ids'), record FROM moved",
            vec![boxed(key.platform.clone()), boxed(key.channel.clone())],
        )
        .map(|_| ())
    }

    fn live_games_of(
        &self,
        platform: &str,
        player_id: &str,
    ) -> Result<Vec<GameRecord>, StoreError> {
        let games = self.records(
            "SELECT record FROM live WHERE players @> ARRAY[$1]",
            vec![boxed(player_id.to_string())],
        )?;
        Ok(games
            .into_iter()
            .filter(|r| r.is_player(player_id) && r.platform_of(player_id) == platform)
            .collect())
    }

    fn timed_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        let games = self.records("SELECT record FROM live WHERE timed", vec![])?;
        Ok(games.into_iter().filter(|r| r.clock.is_some()).collect())
    }

    fn live_games(&self, platform: &str) -> Result<Vec<GameRecord>, StoreError> {
        self.records(
            "SELECT record FROM live WHERE platform = $1",
            vec![boxed(platform.to_string())],
        )
    }

    fn bot_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        self.records("SELECT record FROM live WHERE bot", vec![])
    }

    fn away_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        // Rare, and asked for at a start: the records are looked through for the mark.
        let games = self.records(
            "SELECT record FROM live WHERE position('\"away\":'::bytea in record) > 0",
            vec![],
        )?;
        Ok(games.into_iter().filter(|r| r.away.is_some()).collect())
    }

    fn games_of(&self, player_id: &str) -> Result<Vec<GameRecord>, StoreError> {
        let rows = self.query(
            "SELECT a.record FROM by_player p JOIN archive a ON a.id = p.id
             WHERE p.player = $1 ORDER BY p.updated DESC, p.id DESC",
            vec![boxed(player_id.to_string())],
        )?;
        rows.iter().map(|r| read(r.get::<_, &[u8]>(0))).collect()
    }

    fn archived(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        let rows = self.query(
            "SELECT record FROM archive WHERE id = $1",
            vec![boxed(id.to_string())],
        )?;
        rows.first().map(|r| read(r.get::<_, &[u8]>(0))).transpose()
    }

    fn archive_ids(&self) -> Result<Vec<String>, StoreError> {
        let rows = self.query("SELECT id FROM archive", vec![])?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn live_count(&self) -> Result<usize, StoreError> {
        let rows = self.query("SELECT count(*) FROM live", vec![])?;
        Ok(rows.first().map_or(0, |r| r.get::<_, i64>(0)) as usize)
    }
}

impl Notes for PgStore {
    fn note(&self, key: &ChannelKey, name: &str) -> Result<Option<String>, StoreError> {
        let rows = self.query(
            "SELECT value FROM notes WHERE platform = $1 AND channel = $2 AND name = $3",
            vec![
                boxed(key.platform.clone()),
                boxed(key.channel.clone()),
                boxed(name.to_string()),
            ],
        )?;
        Ok(rows.first().map(|r| r.get(0)))
    }

    fn set_note(
        &self,
        key: &ChannelKey,
        name: &str,
        value: Option<&str>,
    ) -> Result<(), StoreError> {
        let mut params = vec![
            boxed(key.platform.clone()),
            boxed(key.channel.clone()),
            boxed(name.to_string()),
        ];
        match value {
            Some(v) => {
                params.push(boxed(v.to_string()));
                self.execute(
                    "INSERT INTO notes (platform, channel, name, value) VALUES ($1, $2, $3, $4)
                     ON CONFLICT (platform, channel, name) DO UPDATE SET value = excluded.value",
                    params,
                )
            }
            None => self.execute(
                "DELETE FROM notes WHERE platform = $1 AND channel = $2 AND name = $3",
                params,
            ),
        }
        .map(|_| ())
    }

    fn swap_note(
        &self,
        key: &ChannelKey,
        name: &str,
        expected: Option<&str>,
        value: Option<&str>,
    ) -> Result<bool, StoreError> {
        let mut params = vec![
            boxed(key.platform.clone()),
            boxed(key.channel.clone()),
            boxed(name.to_string()),
        ];
        let changed = match (expected, value) {
            (None, None) => {
                return Ok(self.note(key, name)?.is_none());
            }
            (None, Some(v)) => {
                params.push(boxed(v.to_string()));
                self.execute(
                    "INSERT INTO notes (platform, channel, name, value) VALUES ($1, $2, $3, $4)
                     ON CONFLICT DO NOTHING",
                    params,
                )?
            }
            (Some(old), Some(v)) => {
                params.push(boxed(old.to_string()));
                params.push(boxed(v.to_string()));
                self.execute(
                    "UPDATE notes SET value = $5
                     WHERE platform = $1 AND channel = $2 AND name = $3 AND value = $4",
                    params,
                )?
            }
            (Some(old), None) => {
                params.push(boxed(old.to_string()));
                self.execute(
                    "DELETE FROM notes
                     WHERE platform = $1 AND channel = $2 AND name = $3 AND value = $4",
                    params,
                )?
            }
        };
        Ok(changed == 1)
    }
}

impl Receipts for PgStore {
    fn receipt(&self, platform: &str, id: &str) -> Result<Option<String>, StoreError> {
        let rows = self.query(
            "SELECT body FROM receipts WHERE platform = $1 AND id = $2",
            vec![boxed(platform.to_string()), boxed(id.to_string())],
        )?;
        Ok(rows.first().map(|r| r.get(0)))
    }

    fn receipts(&self, platform: &str) -> Result<Vec<(String, String)>, StoreError> {
        let rows = self.query(
            "SELECT id, body FROM receipts WHERE platform = $1",
            vec![boxed(platform.to_string())],
        )?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
    }

    fn set_receipt(&self, platform: &str, id: &str, body: Option<&str>) -> Result<(), StoreError> {
        let mut params = vec![boxed(platform.to_string()), boxed(id.to_string())];
        match body {
            Some(b) => {
                params.push(boxed(b.to_string()));
                self.execute(
                    "INSERT INTO receipts (platform, id, body) VALUES ($1, $2, $3)
                     ON CONFLICT (platform, id) DO UPDATE SET body = excluded.body",
                    params,
                )
            }
            None => self.execute(
                "DELETE FROM receipts WHERE platform = $1 AND id = $2",
                params,
            ),
        }
        .map(|_| ())
    }
}
