//! The store's commands: `muster backup`, `muster restore` and `muster migrate`, on sled or on
//! PostgreSQL (docs/operations.md).

use std::io::{Read, Write};

use crate::cli_args::fail_usage;
use muster_core::kernel::store::{Named, backup};

/// `muster backup [--data DIR] --out FILE`.
pub fn backup(
    store: Result<Named, String>,
    file: String,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let store = match store {
        Ok(s) => s,
        Err(why) => return fail_usage(err, "backup", &why),
    };
    let created = muster_core::kernel::clock::rfc3339(muster_core::kernel::clock::Clock::now(
        &muster_core::kernel::clock::SystemClock,
    ));
    // sled's directory is read as it lies (no Muster may hold it); PostgreSQL is read in one
    // transaction while instances go on playing.
    let write = |w: &mut dyn Write| match &store {
        Named::Sled(dir) => backup::write(&dir.join("store"), &created, w),
        Named::Postgres(_) => {
            let s = store.open().map_err(|e| e.to_string())?;
            s.snapshot(&created, w)
        }
    };
    let written = if file == "-" {
        write(out)
    } else {
        backup::write_file(std::path::Path::new(&file), write)
    };
    match written {
        Ok(s) => {
            let _ = writeln!(
                err,
                "muster backup: {} entries of {} trees from {} written to {file}",
                s.entries,
                s.trees,
                store.shown()
            );
            0
        }
        Err(why) => {
            let _ = writeln!(err, "muster backup: {why}");
            1
        }
    }
}

/// `muster restore [--data DIR] FILE`.
pub fn restore(
    store: Result<Named, String>,
    file: &str,
    stdin: &mut dyn Read,
    err: &mut dyn Write,
) -> u8 {
    let store = match store {
        Ok(s) => s,
        Err(why) => return fail_usage(err, "restore", &why),
    };
    let restore = |input: &mut dyn std::io::BufRead| match &store {
        Named::Sled(dir) => backup::restore(&dir.join("store"), input),
        Named::Postgres(_) => {
            let entries = backup::read_entries(input)?;
            let target = store.open().map_err(|e| e.to_string())?;
            if !target.entries().map_err(|e| e.to_string())?.is_empty() {
                return Err(format!(
                    "{} is not empty: restore into an empty database",
                    store.shown()
                ));
            }
            target.import(&entries, false).map_err(|e| e.to_string())?;
            // Each store keeps its own schema number and counters (`meta`).
            let copied: Vec<_> = entries.into_iter().filter(|e| e.tree != "meta").collect();
            muster_core::kernel::store::named::verify(&copied, &*target)?;
            let trees: std::collections::BTreeSet<&str> =
                copied.iter().map(|e| e.tree.as_str()).collect();
            Ok(backup::Summary {
                trees: trees.len(),
                entries: copied.len(),
            })
        }
    };
    let result = if file == "-" {
        restore(&mut std::io::BufReader::new(stdin))
    } else {
        match std::fs::File::open(file) {
            Ok(f) => restore(&mut std::io::BufReader::new(f)),
            Err(e) => Err(format!("cannot read {file}: {e}")),
        }
    };
    match result {
        Ok(s) => {
            let _ = writeln!(
                err,
                "muster restore: {} entries of {} trees restored into {} and checked",
                s.entries,
                s.trees,
                store.shown()
            );
            0
        }
        Err(why) => {
            let _ = writeln!(err, "muster restore: {why}");
            1
        }
    }
}

/// `muster migrate --from STORE --to STORE [--replace]`.
pub fn migrate(from: &str, to: &str, replace: bool, err: &mut dyn Write) -> u8 {
    let (from, to) = match (Named::parse(from), Named::parse(to)) {
        (Ok(f), Ok(t)) => (f, t),
        (Err(why), _) => return fail_usage(err, "migrate", &format!("--from: {why}")),
        (_, Err(why)) => return fail_usage(err, "migrate", &format!("--to: {why}")),
    };
    match muster_core::kernel::store::migrate(&from, &to, replace) {
        Ok(copied) => {
            let trees: Vec<String> = copied
                .trees
                .iter()
                .map(|(t, n)| format!("{t} {n}"))
                .collect();
            let _ = writeln!(
                err,
                "muster migrate: {} copied from {} to {} and compared, every one the same ({})",
                muster_core::kernel::store::named::counted(copied.entries, "entry", "entries"),
                from.shown(),
                to.shown(),
                trees.join(", ")
            );
            0
        }
        Err(why) => {
            let _ = writeln!(err, "muster migrate: {why}");
            1
        }
    }
}
