//! Stores by name: `sled:<data dir>` (the store in `<data dir>/store`) or a PostgreSQL
//! address, as the settings and `muster migrate` give them; and the copy between two of them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::backup::Entry;
use super::interface::{GameStore, StoreError};
use super::postgres::PgStore;
use super::sled_store::SledStore;

/// A store, named.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Named {
    /// sled, in `<data dir>/store`.
    Sled(PathBuf),
    /// A PostgreSQL database, by its address.
    Postgres(String),
}

impl Named {
    /// Reads `sled:<data dir>` or a `postgres://` address.
    pub fn parse(text: &str) -> Result<Named, String> {
        if let Some(dir) = text.strip_prefix("sled:") {
            if dir.trim().is_empty() {
                return Err("`sled:` needs a data directory, as in sled:muster-data".into());
            }
            return Ok(Named::Sled(PathBuf::from(dir)));
        }
        match muster_config::Store::parse(text) {
            Ok(muster_config::Store::Postgres(url)) => Ok(Named::Postgres(url.expose().into())),
            _ => Err(format!(
                "{:?} names no store: write sled:<data directory> or a PostgreSQL address \
                 such as postgres://muster:PASSWORD@localhost/muster",
                muster_config::Store::mask(text)
            )),
        }
    }

    /// The store the settings choose, with `data` as the data directory.
    pub fn from_settings(store: &muster_config::Store, data: &Path) -> Named {
        match store {
            muster_config::Store::Sled => Named::Sled(data.to_path_buf()),
            muster_config::Store::Postgres(url) => Named::Postgres(url.expose().into()),
        }
    }

    /// Opens the store (a sled directory is made if there is none).
    pub fn open(&self) -> Result<Arc<dyn GameStore>, StoreError> {
        Ok(match self {
            Named::Sled(dir) => Arc::new(SledStore::open(&dir.join("store"))?),
            Named::Postgres(url) => Arc::new(PgStore::open(url)?),
        })
    }

    /// The store as messages name it (a password as `***`).
    pub fn shown(&self) -> String {
        match self {
            Named::Sled(dir) => format!("sled:{}", dir.display()),
            Named::Postgres(url) => muster_config::Store::mask(url),
        }
    }
}

/// What a copy brought over, by tree.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Copied {
    /// `(tree, entries)`, by tree name.
    pub trees: Vec<(String, usize)>,
    /// Every entry.
    pub entries: usize,
}

impl Copied {
    fn of(entries: &[Entry]) -> Copied {
        let mut trees: Vec<(String, usize)> = Vec::new();
        for e in entries {
            match trees.iter_mut().find(|(t, _)| *t == e.tree) {
                Some((_, n)) => *n += 1,
                None => trees.push((e.tree.clone(), 1)),
            }
        }
        Copied {
            trees,
            entries: entries.len(),
        }
    }
}

/// Copies everything in `from` into `to`, which must be empty unless `replace` (then it is
/// emptied first), and compares the copy with the original entry by entry. Neither store may
/// be in use by a running sled Muster (PostgreSQL may: its copy is of one moment).
pub fn migrate(from: &Named, to: &Named, replace: bool) -> Result<Copied, String> {
    if from == to {
        return Err("the two stores are the same: name another target".into());
    }
    let source = from.open().map_err(|e| format!("{}: {e}", from.shown()))?;
    let target = to.open().map_err(|e| format!("{}: {e}", to.shown()))?;
    let entries = source
        .entries()
        .map_err(|e| format!("{}: {e}", from.shown()))?;
    let there = target
        .entries()
        .map_err(|e| format!("{}: {e}", to.shown()))?;
    if !there.is_empty() && !replace {
        let held = Copied::of(&there);
        let live = held
            .trees
            .iter()
            .find(|(t, _)| t == "live")
            .map_or(0, |t| t.1);
        let archived = held
            .trees
            .iter()
            .find(|(t, _)| t == "archive")
            .map_or(0, |t| t.1);
        return Err(format!(
            "{} is not empty ({}, {archived} finished, {} in all): copy into an empty store, \
             or add --replace to empty it first",
            to.shown(),
            counted(live, "live game", "live games"),
            counted(held.entries, "entry", "entries"),
        ));
    }
    target
        .import(&entries, replace)
        .map_err(|e| format!("the copy into {} failed: {e}", to.shown()))?;
    verify(&entries, &*target).map_err(|why| format!("{}: {why}", to.shown()))?;
    Ok(Copied::of(&entries))
}

/// `n` and the noun, singular or plural.
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Reads every entry of `target` back and compares it with `expected`.
pub fn verify(expected: &[Entry], target: &dyn GameStore) -> Result<(), String> {
    let stored = target
        .entries()
        .map_err(|e| format!("the copy cannot be read back: {e}"))?;
    if stored == expected {
        return Ok(());
    }
    let key = |e: &Entry| format!("{} {}", e.tree, String::from_utf8_lossy(&e.key));
    let missing = expected.iter().find(|e| !stored.contains(e));
    let extra = stored.iter().find(|e| !expected.contains(e));
    Err(match (missing, extra) {
        (Some(e), _) => format!("the copy differs: {} is not as it was", key(e)),
        (None, Some(e)) => format!("the copy differs: {} was not in the original", key(e)),
        (None, None) => "the copy differs from the original".into(),
    })
}
