//! The PostgreSQL store's schema: its tables, created and upgraded by the migrations below
//! (applied at start under an advisory lock, so that instances starting together apply each
//! migration once, each in a transaction of its own), the records' layout brought up to
//! [`SCHEMA`] as sled does when it opens, the columns the `live` table keeps beside a record,
//! and how the database's errors read.

use super::interface::StoreError;
use super::record::{GameRecord, SCHEMA, decode, encode, needs_rewrite};

/// The schema's migrations, in order; each is applied once, in a transaction of its own.
const MIGRATIONS: &[(i32, &str)] = &[
    (
        1,
        r#"
CREATE TABLE live (
    platform text COLLATE "C" NOT NULL,
    channel text COLLATE "C" NOT NULL,
    version bigint NOT NULL,
    record bytea NOT NULL,
    players text[] NOT NULL,
    timed boolean NOT NULL,
    bot boolean NOT NULL,
    PRIMARY KEY (platform, channel)
);
CREATE INDEX live_players ON live USING gin (players);
CREATE INDEX live_timed ON live (platform) WHERE timed;
CREATE INDEX live_bot ON live (platform) WHERE bot;
CREATE TABLE archive (
    id text COLLATE "C" PRIMARY KEY,
    record bytea NOT NULL
);
CREATE TABLE by_player (
    player text COLLATE "C" NOT NULL,
    updated bigint NOT NULL,
    id text COLLATE "C" NOT NULL,
    PRIMARY KEY (player, updated, id)
);
CREATE TABLE aside (
    platform text COLLATE "C" NOT NULL,
    channel text COLLATE "C" NOT NULL,
    n bigint NOT NULL,
    record bytea NOT NULL,
    PRIMARY KEY (platform, channel, n)
);
CREATE TABLE notes (
    platform text COLLATE "C" NOT NULL,
    channel text COLLATE "C" NOT NULL,
    name text COLLATE "C" NOT NULL,
    value text NOT NULL,
    PRIMARY KEY (platform, channel, name)
);
CREATE TABLE receipts (
    platform text COLLATE "C" NOT NULL,
    id text COLLATE "C" NOT NULL,
    body text NOT NULL,
    PRIMARY KEY (platform, id)
);
CREATE TABLE meta (
    key text COLLATE "C" PRIMARY KEY,
    value text NOT NULL
);
CREATE SEQUENCE game_ids MINVALUE 0 START 0;
CREATE SEQUENCE aside_ids MINVALUE 0 START 0;
"#,
    ),
    // The changes every instance is told of, when their transaction commits (the web pages'
    // live streams, docs/web.md): a channel's live game written, an event's record, a rating
    // table.
    (
        2,
        r#"
CREATE FUNCTION muster_game_changed() RETURNS trigger AS $$
DECLARE r record;
BEGIN
    IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
    PERFORM pg_notify('muster_changes', 'g' || chr(31) || r.platform || chr(31) || r.channel);
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER live_changed AFTER INSERT OR UPDATE OR DELETE ON live
    FOR EACH ROW EXECUTE FUNCTION muster_game_changed();
CREATE FUNCTION muster_note_changed() RETURNS trigger AS $$
DECLARE r record;
BEGIN
    IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
    IF r.channel IN (chr(30) || 'tournaments', chr(30) || 'ratings') THEN
        PERFORM pg_notify('muster_changes',
            'n' || chr(31) || r.platform || chr(31) || r.channel || chr(31) || r.name);
    END IF;
    RETURN NULL;
END $$ LANGUAGE plpgsql;
CREATE TRIGGER notes_changed AFTER INSERT OR UPDATE OR DELETE ON notes
    FOR EACH ROW EXECUTE FUNCTION muster_note_changed();
"#,
    ),
];

/// The advisory lock held while migrations are applied (any number, the same in every
/// instance).
const MIGRATION_LOCK: i64 = 0x6d75_7374_6572;

/// A database error as the store reports it: the server's own message when it sent one.
pub(super) fn db(e: tokio_postgres::Error) -> StoreError {
    match e.as_db_error() {
        Some(d) => StoreError::Io(format!("PostgreSQL: {}", d.message())),
        None => StoreError::Io(format!("PostgreSQL: {e}")),
    }
}

/// What the `live` table keeps beside a record: its version, players, and whether it has a
/// time control or the bot at the table (what the scheduler and a restarted bot look for).
pub(super) struct Columns {
    /// The record's version, for compare-and-swap (-1 for bytes that are no record).
    pub(super) version: i64,
    /// The ids of its players.
    pub(super) players: Vec<String>,
    /// Whether it has a time control.
    pub(super) timed: bool,
    /// Whether the bot sits at it.
    pub(super) bot: bool,
}

impl Columns {
    /// The columns of `record`.
    pub(super) fn of(record: &GameRecord) -> Columns {
        let players = record.player_ids();
        Columns {
            version: record.version as i64,
            bot: players.iter().any(|p| p.starts_with("bot:")),
            timed: record.clock.is_some(),
            players,
        }
    }

    /// For bytes that may not be a readable record (brought over as they are).
    pub(super) fn of_bytes(bytes: &[u8]) -> Columns {
        match decode(bytes) {
            Ok(r) => Columns::of(&r),
            Err(_) => Columns {
                version: -1,
                players: Vec::new(),
                timed: false,
                bot: false,
            },
        }
    }
}

/// Applies the migrations this database has not had yet, and checks or brings the records'
/// layout up to [`SCHEMA`], holding [`MIGRATION_LOCK`] meanwhile.
pub(super) async fn migrate(client: &mut tokio_postgres::Client) -> Result<(), StoreError> {
    client
        .execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])
        .await
        .map_err(db)?;
    let result = apply_migrations(client).await;
    let _ = client
        .execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK])
        .await;
    result
}

/// Applies the migrations not applied yet, in order, refusing a database that a newer Muster
/// has migrated; then rewrites older records in the current layout.
async fn apply_migrations(client: &mut tokio_postgres::Client) -> Result<(), StoreError> {
    let done = applied(client).await?;
    if let Some(newer) = done
        .iter()
        .find(|v| MIGRATIONS.iter().all(|(m, _)| m != *v))
    {
        return Err(StoreError::Io(format!(
            "the database was set up by a newer Muster (migration {newer} is unknown here)"
        )));
    }
    for (version, sql) in MIGRATIONS {
        if done.contains(version) {
            continue;
        }
        apply_one(client, version, sql).await?;
    }
    // The records' layout, as in sled: older records are rewritten in the current one.
    if !needs_rewrite(stored_layout(client).await?, "the database").map_err(StoreError::Io)? {
        return Ok(());
    }
    rewrite_records(client).await
}

/// The migrations applied to this database, from its ledger (made if it has none yet).
async fn applied(client: &mut tokio_postgres::Client) -> Result<Vec<i32>, StoreError> {
    client
        .batch_execute(
            "CREATE TABLE IF NOT EXISTS muster_migrations (
                     version integer PRIMARY KEY,
                     applied timestamptz NOT NULL DEFAULT now())",
        )
        .await
        .map_err(db)?;
    Ok(client
        .query("SELECT version FROM muster_migrations", &[])
        .await
        .map_err(db)?
        .iter()
        .map(|r| r.get(0))
        .collect())
}

/// Applies the migration `version` (its statements `sql`) and notes it in the ledger, in one
/// transaction.
async fn apply_one(
    client: &mut tokio_postgres::Client,
    version: &i32,
    sql: &str,
) -> Result<(), StoreError> {
    let tx = client.transaction().await.map_err(db)?;
    tx.batch_execute(sql).await.map_err(db)?;
    tx.execute(
        "INSERT INTO muster_migrations (version) VALUES ($1)",
        &[version],
    )
    .await
    .map_err(db)?;
    tx.commit().await.map_err(db)
}

/// The layout the database's records are in, as its `meta` table says (none when new).
async fn stored_layout(client: &mut tokio_postgres::Client) -> Result<Option<u32>, StoreError> {
    let stored: Option<String> = client
        .query_opt("SELECT value FROM meta WHERE key = 'schema'", &[])
        .await
        .map_err(db)?
        .map(|r| r.get(0));
    Ok(stored.and_then(|v| v.parse::<u32>().ok()))
}

/// Rewrites every readable record, live and archived, in the current layout, and notes
/// [`SCHEMA`] as the database's, in one transaction.
async fn rewrite_records(client: &mut tokio_postgres::Client) -> Result<(), StoreError> {
    let tx = client.transaction().await.map_err(db)?;
    for (table, key) in [("live", "platform, channel"), ("archive", "id")] {
        let select = format!("SELECT {key}, record FROM {table} FOR UPDATE");
        for row in tx.query(&select, &[]).await.map_err(db)? {
            let bytes: &[u8] = row.get(row.len() - 1);
            let Ok(record) = decode(bytes) else { continue };
            let encoded = encode(&record);
            if table == "live" {
                let (p, c): (String, String) = (row.get(0), row.get(1));
                tx.execute(
                    "UPDATE live SET record = $3 WHERE platform = $1 AND channel = $2",
                    &[&p, &c, &encoded],
                )
                .await
                .map_err(db)?;
            } else {
                let id: String = row.get(0);
                tx.execute(
                    "UPDATE archive SET record = $2 WHERE id = $1",
                    &[&id, &encoded],
                )
                .await
                .map_err(db)?;
            }
        }
    }
    tx.execute(
        "INSERT INTO meta (key, value) VALUES ('schema', $1)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        &[&SCHEMA.to_string()],
    )
    .await
    .map_err(db)?;
    tx.commit().await.map_err(db)
}

/// Sets the counters after an import: new ids follow `highest`, the number of the highest game
/// id brought over, and new set-aside numbers those brought over.
pub(super) async fn counters_after(
    tx: &deadpool_postgres::Transaction<'_>,
    highest: i64,
) -> Result<(), StoreError> {
    tx.execute(
        "SELECT setval('game_ids', greatest($1, (SELECT last_value FROM game_ids)))",
        &[&(highest + 1)],
    )
    .await
    .map_err(db)?;
    tx.execute(
        "SELECT setval('aside_ids', greatest(
                   (SELECT coalesce(max(n) + 1, 0) FROM aside),
                   (SELECT last_value FROM aside_ids)))",
        &[],
    )
    .await
    .map_err(db)?;
    Ok(())
}
