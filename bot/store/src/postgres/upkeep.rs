//! A PostgreSQL store's upkeep: it is shared by the instances that use it, tells them of each
//! other's changes, and is copied whole (backups, `muster migrate`) inside one transaction.

use super::*;

impl Upkeep for PgStore {
    fn shared(&self) -> bool {
        true
    }

    fn listen(&self, changes: std::sync::Arc<Changes>) {
        if let Some(runtime) = &self.runtime {
            runtime.spawn(postgres_listen::listen(self.config.clone(), changes));
        }
    }

    fn snapshot(
        &self,
        created: &str,
        out: &mut dyn std::io::Write,
    ) -> Result<crate::backup::Summary, String> {
        let entries = self.entries().map_err(|e| e.to_string())?;
        crate::backup::write_entries(&entries, created, out)
    }

    fn entries(&self) -> Result<Vec<Entry>, StoreError> {
        let pool = self.pool.clone();
        self.run(async move {
            let mut client = Self::client(&pool).await?;
            // One moment of the whole database, while other instances go on writing.
            let tx = client
                .build_transaction()
                .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()
                .await
                .map_err(db)?;
            let mut out = Vec::new();
            let sep = '\u{1f}';
            let rows = |sql: &'static str| tx.query(sql, &[]);
            for r in rows("SELECT platform, channel, record FROM live")
                .await
                .map_err(db)?
            {
                let (p, c): (&str, &str) = (r.get(0), r.get(1));
                out.push(Entry::new(
                    "live",
                    format!("{p}{sep}{c}"),
                    r.get::<_, Vec<u8>>(2),
                ));
            }
            for r in rows("SELECT id, record FROM archive").await.map_err(db)? {
                out.push(Entry::new(
                    "archive",
                    r.get::<_, String>(0),
                    r.get::<_, Vec<u8>>(1),
                ));
            }
            for r in rows("SELECT player, updated, id FROM by_player")
                .await
                .map_err(db)?
            {
                let (p, u, id): (&str, i64, &str) = (r.get(0), r.get(1), r.get(2));
                out.push(Entry::new(
                    "by_player",
                    format!("{p}{sep}{u:020}{sep}{id}"),
                    id,
                ));
            }
            for r in rows("SELECT platform, channel, n, record FROM aside")
                .await
                .map_err(db)?
            {
                let (p, c, n): (&str, &str, i64) = (r.get(0), r.get(1), r.get(2));
                let key = format!("{p}{sep}{c}{sep}{n:020}");
                out.push(Entry::new("aside", key, r.get::<_, Vec<u8>>(3)));
            }
            for r in rows("SELECT platform, channel, name, value FROM notes")
                .await
                .map_err(db)?
            {
                let (p, c, n, v): (&str, &str, &str, &str) =
                    (r.get(0), r.get(1), r.get(2), r.get(3));
                out.push(Entry::new("notes", format!("{p}{sep}{c}{sep}{n}"), v));
            }
            for r in rows("SELECT platform, id, body FROM receipts")
                .await
                .map_err(db)?
            {
                let (p, id, b): (&str, &str, &str) = (r.get(0), r.get(1), r.get(2));
                out.push(Entry::new("receipts", format!("{p}{sep}{id}"), b));
            }
            tx.commit().await.map_err(db)?;
            out.sort();
            Ok(out)
        })
    }

    fn import(&self, entries: &[Entry], replace: bool) -> Result<(), StoreError> {
        let pool = self.pool.clone();
        let entries = entries.to_vec();
        self.run(async move {
            let mut client = Self::client(&pool).await?;
            let tx = client.transaction().await.map_err(db)?;
            if replace {
                tx.batch_execute("TRUNCATE live, archive, by_player, aside, notes, receipts")
                    .await
                    .map_err(db)?;
            }
            let mut highest = -1_i64;
            for e in &entries {
                let Some((sql, params)) = insert(e, &mut highest)? else {
                    continue;
                };
                let st = tx.prepare_cached(sql).await.map_err(db)?;
                let refs: Vec<&(dyn ToSql + Sync)> = params
                    .iter()
                    .map(|p| p.as_ref() as &(dyn ToSql + Sync))
                    .collect();
                tx.execute(&st, &refs).await.map_err(db)?;
            }
            counters_after(&tx, highest).await?;
            tx.commit().await.map_err(db)
        })
    }
}

/// A statement and its parameters.
type Statement = (&'static str, Vec<Box<dyn ToSql + Send + Sync>>);

/// The statement that inserts a backup's entry `e` into its table, raising `highest` to the
/// number of a game id it holds; `None` for the `meta` tree (the schema and the id counters
/// are this database's own).
fn insert(e: &Entry, highest: &mut i64) -> Result<Option<Statement>, StoreError> {
    Ok(Some(match e.tree.as_str() {
        "live" => {
            let k = parts(&e.key, 2)?;
            let c = Columns::of_bytes(&e.value);
            if let Ok(r) = decode(&e.value) {
                *highest = (*highest).max(id_number(&r.id));
            }
            let params = vec![
                boxed(k[0].clone()),
                boxed(k[1].clone()),
                boxed(c.version),
                boxed(e.value.clone()),
                boxed(c.players),
                boxed(c.timed),
                boxed(c.bot),
            ];
            let sql = "INSERT INTO live (platform, channel, version, record, players, timed,
                           bot) VALUES ($1, $2, $3, $4, $5, $6, $7)";
            (sql, params)
        }
        "archive" => {
            let id = text(&e.key)?;
            *highest = (*highest).max(id_number(&id));
            let params = vec![boxed(id), boxed(e.value.clone())];
            let sql = "INSERT INTO archive (id, record) VALUES ($1, $2)";
            (sql, params)
        }
        "by_player" => {
            let k = parts(&e.key, 3)?;
            let updated: i64 = k[1]
                .parse()
                .map_err(|_| io(format!("a player index key is damaged: {k:?}")))?;
            let params = vec![boxed(k[0].clone()), boxed(updated), boxed(k[2].clone())];
            let sql = "INSERT INTO by_player (player, updated, id) VALUES ($1, $2, $3)";
            (sql, params)
        }
        "aside" => {
            let k = parts(&e.key, 3)?;
            let n: i64 = k[2]
                .parse()
                .map_err(|_| io(format!("a set-aside key is damaged: {k:?}")))?;
            let params = vec![
                boxed(k[0].clone()),
                boxed(k[1].clone()),
                boxed(n),
                boxed(e.value.clone()),
            ];
            let sql = "INSERT INTO aside (platform, channel, n, record) VALUES ($1, $2, $3, $4)";
            (sql, params)
        }
        "notes" => {
            let k = parts(&e.key, 3)?;
            let (p, c, n) = (k[0].clone(), k[1].clone(), k[2].clone());
            let params = vec![boxed(p), boxed(c), boxed(n), boxed(text(&e.value)?)];
            let sql = "INSERT INTO notes (platform, channel, name, value) VALUES ($1, $2, $3, $4)";
            (sql, params)
        }
        "receipts" => {
            let k = parts(&e.key, 2)?;
            let params = vec![
                boxed(k[0].clone()),
                boxed(k[1].clone()),
                boxed(text(&e.value)?),
            ];
            let sql = "INSERT INTO receipts (platform, id, body) VALUES ($1, $2, $3)";
            (sql, params)
        }
        "meta" => return Ok(None),
        other => {
            return Err(io(format!("the store has no part called {other:?}")));
        }
    }))
}
