//! Backups taken by a running Muster: on request (`POST /backup` on the operations listener)
//! and, with `backup_every`, periodically; each a snapshot of the whole store in the backup
//! format (docs/operations.md, "Backups"), written to `muster-<UTC time>.backup` in the backup
//! directory, keeping the newest `backup_keep`.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use muster_core::kernel::clock::{Clock, rfc3339};
use muster_core::kernel::store::GameStore;

/// Where and how backups are taken.
pub struct Backups {
    store: Arc<dyn GameStore>,
    clock: Arc<dyn Clock>,
    dir: PathBuf,
    keep: usize,
    /// One backup at a time.
    taking: Mutex<()>,
}

/// A backup written.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Taken {
    /// The file.
    pub file: PathBuf,
    /// Entries in it.
    pub entries: usize,
    /// Trees in it.
    pub trees: usize,
    /// Older backups deleted to keep the newest `keep`.
    pub removed: usize,
}

const PREFIX: &str = "muster-";
const SUFFIX: &str = ".backup";

impl Backups {
    /// Backups of `store` into `dir`, keeping `keep`, named by `clock`'s time.
    pub fn new(
        store: Arc<dyn GameStore>,
        clock: Arc<dyn Clock>,
        dir: PathBuf,
        keep: usize,
    ) -> Backups {
        Backups {
            store,
            clock,
            dir,
            keep: keep.max(1),
            taking: Mutex::new(()),
        }
    }

    /// The directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Takes a backup now (blocking: run it off the async threads), then deletes the oldest
    /// beyond `keep`.
    pub fn take(&self) -> Result<Taken, String> {
        let _one = self.taking.lock().unwrap_or_else(|p| p.into_inner());
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
        let created = rfc3339(self.clock.now());
        // Sortable by name, and without `:` (which some file systems refuse).
        let stamp = created.replace(':', "-");
        let mut file = self.dir.join(format!("{PREFIX}{stamp}{SUFFIX}"));
        let mut n = 1;
        while file.exists() {
            n += 1;
            file = self.dir.join(format!("{PREFIX}{stamp}.{n}{SUFFIX}"));
        }
        let summary = muster_core::kernel::store::backup::write_file(&file, |out| {
            self.store.snapshot(&created, out)
        })?;
        let removed = self.prune();
        Ok(Taken {
            file,
            entries: summary.entries,
            trees: summary.trees,
            removed,
        })
    }

    /// The backups in the directory, oldest first.
    pub fn list(&self) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(PREFIX) && n.ends_with(SUFFIX))
            })
            .collect();
        files.sort_by_key(|p| {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
            let name = name.unwrap_or_default();
            // `muster-<time>.backup` before `muster-<time>.2.backup`.
            let stem = name.trim_end_matches(SUFFIX).to_string();
            let (time, n) = match stem.rsplit_once('.') {
                Some((t, n)) if n.chars().all(|c| c.is_ascii_digit()) => {
                    (t.to_string(), n.parse::<u32>().unwrap_or(0))
                }
                _ => (stem, 1),
            };
            (time, n)
        });
        files
    }

    /// Deletes the oldest backups beyond `keep`; how many.
    fn prune(&self) -> usize {
        let files = self.list();
        let extra = files.len().saturating_sub(self.keep);
        files[..extra]
            .iter()
            .filter(|f| std::fs::remove_file(f).is_ok())
            .count()
    }
}

/// Takes a backup every `every` seconds of `clock` time from now on, until the process is
/// asked to stop. The clock is looked at each second, so that a manual clock moved forward
/// (`~ +1d`) is noticed as the system's is.
pub async fn periodic(backups: Arc<Backups>, every: u64) {
    let mut next = backups.clock.now().saturating_add(every);
    let mut stop = std::pin::pin!(muster_core::signals::shutdown());
    loop {
        tokio::select! {
            () = tokio::time::sleep(std::time::Duration::from_secs(1)) => {}
            () = &mut stop => return,
        }
        let now = backups.clock.now();
        if now < next {
            continue;
        }
        next = now.saturating_add(every);
        let b = Arc::clone(&backups);
        match tokio::task::spawn_blocking(move || b.take()).await {
            Ok(Ok(t)) => tracing::info!(
                file = %t.file.display(),
                entries = t.entries,
                removed = t.removed,
                "periodic backup written"
            ),
            Ok(Err(why)) => tracing::error!("the periodic backup failed: {why}"),
            Err(e) => tracing::error!("the periodic backup failed: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backups_are_named_by_time_and_the_newest_kept() {
        let dir = std::env::temp_dir().join(format!("muster-backups-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store =
            Arc::new(muster_core::kernel::store::SledStore::open(&dir.join("store")).unwrap());
        let clock = Arc::new(muster_core::kernel::clock::ManualClock::starting_at(
            1_795_600_000,
        ));
        let backups = Backups::new(store, clock.clone(), dir.join("backups"), 2);
        let first = backups.take().unwrap();
        assert!(
            first.file.ends_with("muster-2026-11-25T09-46-40Z.backup"),
            "{}",
            first.file.display()
        );
        // Two in the same second are both kept, in order.
        let second = backups.take().unwrap();
        assert!(
            second
                .file
                .ends_with("muster-2026-11-25T09-46-40Z.2.backup")
        );
        clock.advance(3600);
        let third = backups.take().unwrap();
        assert_eq!(third.removed, 1);
        assert_eq!(backups.list(), vec![second.file, third.file.clone()]);
        let text = std::fs::read_to_string(&third.file).unwrap();
        assert!(text.starts_with("{\"format\":\"muster-backup\""), "{text}");
        assert!(
            text.trim_end()
                .ends_with(&format!("\"entries\":{}}}", third.entries))
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
