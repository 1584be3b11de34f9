//! Backups of the embedded store: a snapshot of every tree of the sled database as JSON lines
//! (docs/operations.md, "Backups"), written from a data directory not in use, and restored into
//! an empty one, where every entry is read back and compared before the restore counts as done.
//!
//! ```text
//! {"format":"muster-backup","version":1,"schema":3,"created":"2026-11-25T10:00:00Z"}
//! {"tree":"archive","key":"g12","value":"{…the record…}"}
//! …
//! {"end":true,"entries":1234}
//! ```
//!
//! Keys and values are text in every tree Muster writes; one that is not valid UTF-8 is kept as
//! an array of bytes (`key_bytes`, `value_bytes`) instead.

use std::io::{BufRead, Write};
use std::path::Path;

use serde_json::{Value, json};

use super::record::SCHEMA;

/// The format's version.
pub const VERSION: u64 = 1;

/// What a backup or a restore went through.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Summary {
    /// Trees.
    pub trees: usize,
    /// Entries.
    pub entries: usize,
}

fn part(name: &str, bytes: &[u8]) -> (String, Value) {
    match std::str::from_utf8(bytes) {
        Ok(text) => (name.to_string(), json!(text)),
        Err(_) => (format!("{name}_bytes"), json!(bytes)),
    }
}

fn bytes_of(line: &Value, name: &str) -> Result<Vec<u8>, String> {
    if let Some(text) = line[name].as_str() {
        return Ok(text.as_bytes().to_vec());
    }
    line[format!("{name}_bytes")]
        .as_array()
        .and_then(|a| {
            a.iter()
                .map(|b| b.as_u64().and_then(|b| u8::try_from(b).ok()))
                .collect::<Option<Vec<u8>>>()
        })
        .ok_or_else(|| format!("an entry has no readable {name}: {line}"))
}

fn open(dir: &Path) -> Result<sled::Db, String> {
    sled::Config::new()
        .path(dir)
        .open()
        .map_err(|e| format!("cannot open the store in {}: {e}", dir.display()))
}

/// Writes a backup to the file `path` with `write`: first to `<path>.partial`, synced, then
/// moved over `path`, so that a backup is whole or absent (the partial file is removed when
/// anything fails).
pub fn write_file(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<Summary, String>,
) -> Result<Summary, String> {
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let partial = std::path::PathBuf::from(partial);
    let cannot = |p: &Path, e: std::io::Error| format!("cannot write {}: {e}", p.display());
    let written = std::fs::File::create(&partial)
        .map_err(|e| cannot(&partial, e))
        .and_then(|f| {
            let mut w = std::io::BufWriter::new(f);
            let summary = write(&mut w)?;
            let f = w
                .into_inner()
                .map_err(|e| cannot(&partial, e.into_error()))?;
            f.sync_all().map_err(|e| cannot(&partial, e))?;
            Ok(summary)
        })
        .and_then(|s| {
            std::fs::rename(&partial, path)
                .map(|()| s)
                .map_err(|e| cannot(path, e))
        });
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written
}

/// Writes a snapshot of the store in `dir` (not in use by a running Muster) to `out`.
pub fn write(dir: &Path, created: &str, out: &mut dyn Write) -> Result<Summary, String> {
    if !dir.exists() {
        return Err(format!("there is no store in {}", dir.display()));
    }
    let db = open(dir)?;
    write_db(&db, created, out)
}

/// Writes a snapshot of the open database `db` to `out` (its caller keeps writes out
/// meanwhile, for a consistent snapshot).
pub fn write_db(db: &sled::Db, created: &str, out: &mut dyn Write) -> Result<Summary, String> {
    let fail = |e: std::io::Error| format!("the backup could not be written: {e}");
    let header = json!({"format": "muster-backup", "version": VERSION, "schema": SCHEMA, "created": created});
    writeln!(out, "{header}").map_err(fail)?;
    let mut summary = Summary::default();
    let mut names = db.tree_names();
    names.sort();
    for name in names {
        let tree = db.open_tree(&name).map_err(|e| e.to_string())?;
        summary.trees += 1;
        let tree_name = String::from_utf8_lossy(&name).into_owned();
        for item in tree.iter() {
            let (k, v) = item.map_err(|e| format!("the store could not be read: {e}"))?;
            writeln!(out, "{}", line(&tree_name, &k, &v)).map_err(fail)?;
            summary.entries += 1;
        }
    }
    writeln!(out, "{}", json!({"end": true, "entries": summary.entries})).map_err(fail)?;
    out.flush().map_err(fail)?;
    Ok(summary)
}

/// One entry of a store, as backups and copies name it: a tree (`live`, `archive`,
/// `by_player`, `aside`, `notes`, `receipts`, `meta`), a key and a value, each as sled keeps
/// them. A PostgreSQL store gives and takes the same entries, so that a copy between the two
/// compares entry by entry.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct Entry {
    /// The tree.
    pub tree: String,
    /// The key.
    pub key: Vec<u8>,
    /// The value.
    pub value: Vec<u8>,
}

impl Entry {
    /// An entry of `tree`.
    pub fn new(tree: &str, key: impl Into<Vec<u8>>, value: impl Into<Vec<u8>>) -> Entry {
        Entry {
            tree: tree.to_string(),
            key: key.into(),
            value: value.into(),
        }
    }
}

/// Writes `entries` to `out` in the backup format.
pub fn write_entries(
    entries: &[Entry],
    created: &str,
    out: &mut dyn Write,
) -> Result<Summary, String> {
    let fail = |e: std::io::Error| format!("the backup could not be written: {e}");
    let header = json!({"format": "muster-backup", "version": VERSION, "schema": SCHEMA, "created": created});
    writeln!(out, "{header}").map_err(fail)?;
    let mut trees = std::collections::BTreeSet::new();
    for e in entries {
        trees.insert(e.tree.as_str());
        writeln!(out, "{}", line(&e.tree, &e.key, &e.value)).map_err(fail)?;
    }
    writeln!(out, "{}", json!({"end": true, "entries": entries.len()})).map_err(fail)?;
    out.flush().map_err(fail)?;
    Ok(Summary {
        trees: trees.len(),
        entries: entries.len(),
    })
}

fn line(tree: &str, key: &[u8], value: &[u8]) -> Value {
    let (kn, kv) = part("key", key);
    let (vn, vv) = part("value", value);
    let mut line = serde_json::Map::new();
    line.insert("tree".into(), json!(tree));
    line.insert(kn, kv);
    line.insert(vn, vv);
    Value::Object(line)
}

/// Reads a whole backup: its entries, after checking its header and its end line.
pub fn read_entries(input: &mut dyn BufRead) -> Result<Vec<Entry>, String> {
    let mut lines = input.lines();
    let header: Value = lines
        .next()
        .ok_or("the backup is empty")?
        .map_err(|e| format!("the backup could not be read: {e}"))
        .and_then(|l| serde_json::from_str(&l).map_err(|e| format!("not a Muster backup: {e}")))?;
    if header["format"] != "muster-backup" {
        return Err("not a Muster backup (its first line does not say `muster-backup`)".into());
    }
    let version = header["version"].as_u64().unwrap_or(0);
    if version > VERSION {
        return Err(format!(
            "the backup has format version {version}; this Muster reads up to {VERSION}"
        ));
    }
    let schema = header["schema"].as_u64().unwrap_or(0);
    if schema > u64::from(SCHEMA) {
        return Err(format!(
            "the backup was made by a newer Muster (schema {schema}; this one knows {SCHEMA})"
        ));
    }
    let mut entries: Vec<Entry> = Vec::new();
    let mut ended = None;
    for line in lines {
        let line = line.map_err(|e| format!("the backup could not be read: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(&line)
            .map_err(|e| format!("line {} of the backup is not JSON: {e}", entries.len() + 2))?;
        if v["end"] == true {
            ended = v["entries"].as_u64();
            break;
        }
        let tree = v["tree"]
            .as_str()
            .ok_or_else(|| format!("an entry names no tree: {line}"))?;
        entries.push(Entry::new(
            tree,
            bytes_of(&v, "key")?,
            bytes_of(&v, "value")?,
        ));
    }
    match ended {
        Some(n) if n as usize == entries.len() => Ok(entries),
        Some(n) => Err(format!(
            "the backup says {n} entries but holds {}: it is damaged",
            entries.len()
        )),
        None => Err("the backup ends early (no end line): it is incomplete".into()),
    }
}

/// Restores the snapshot read from `input` into the store in `dir`, which must be empty; then
/// reads every entry back and compares it.
pub fn restore(dir: &Path, input: &mut dyn BufRead) -> Result<Summary, String> {
    let entries = read_entries(input)?;
    let db = open(dir)?;
    for name in db.tree_names() {
        let tree = db.open_tree(&name).map_err(|e| e.to_string())?;
        if !tree.is_empty() {
            return Err(format!(
                "the store in {} is not empty: restore into an empty data directory",
                dir.display()
            ));
        }
    }
    let mut trees = std::collections::BTreeSet::new();
    for Entry { tree, key, value } in &entries {
        let t = db.open_tree(tree.as_bytes()).map_err(|e| e.to_string())?;
        t.insert(key.as_slice(), value.as_slice())
            .map_err(|e| format!("the store could not be written: {e}"))?;
        trees.insert(tree.clone());
    }
    db.flush()
        .map_err(|e| format!("the store could not be flushed: {e}"))?;
    // Read back and compare, entry by entry.
    for Entry { tree, key, value } in &entries {
        let t = db.open_tree(tree.as_bytes()).map_err(|e| e.to_string())?;
        let stored = t.get(key.as_slice()).map_err(|e| e.to_string())?;
        if stored.as_deref() != Some(value.as_slice()) {
            return Err(format!(
                "the restored entry {} of tree {tree} differs from the backup",
                String::from_utf8_lossy(key)
            ));
        }
    }
    Ok(Summary {
        trees: trees.len(),
        entries: entries.len(),
    })
}
