//! `muster backup` and `muster restore`: a store with live and finished games, an event and
//! ratings is written out, restored into an empty data directory and compared entry by entry;
//! Muster then carries on there as before. A non-empty target, a damaged backup and a missing
//! store are refused with a clear error, and nothing is left half-written.

use std::path::Path;

use muster_tests::{console, data_dir, muster_binary, run};

fn backup(dir: &Path, out: &str) -> muster_tests::Run {
    run(
        &muster_binary!(),
        &["backup", "--data", dir.to_str().unwrap(), "--out", out],
        "",
    )
}

fn restore(dir: &Path, file: &str) -> muster_tests::Run {
    run(
        &muster_binary!(),
        &["restore", "--data", dir.to_str().unwrap(), file],
        "",
    )
}

/// The entries of a backup, without its header (which says when it was made).
fn entries(file: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut lines = text.lines();
    let header: serde_json::Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert_eq!(header["format"], "muster-backup");
    lines.map(str::to_string).collect()
}

#[test]
fn a_backup_restores_into_an_empty_directory_entry_for_entry_and_muster_carries_on() {
    let original = data_dir("backup", "original");
    let copy = data_dir("backup", "copy");
    let file = original.with_extension("backup");
    let again = original.with_extension("again");
    console(
        &muster_binary!(),
        &original,
        "alice a new croquet @bob\nbob a accept\nalice a move 1\nbob a move 2\nalice a move 3\nbob a move 4\nalice a resign\n\
         alice b new lanrick @bob\nbob b accept\nalice b move b1\n\
         org hall tournament new spring croquet swiss\nann hall tournament join spring\n",
    );
    let made = backup(&original, file.to_str().unwrap());
    assert_eq!(made.code, 0, "{}", made.stderr);
    assert!(made.stderr.contains("written to"), "{}", made.stderr);
    let entries_before = entries(&file);
    assert!(entries_before.len() > 10, "{entries_before:?}");
    assert!(entries_before.last().unwrap().contains("\"end\":true"));

    let restored = restore(&copy, file.to_str().unwrap());
    assert_eq!(restored.code, 0, "{}", restored.stderr);
    assert!(restored.stderr.contains("restored into") && restored.stderr.contains("checked"));
    // The copy's own backup holds exactly the same entries.
    let made = backup(&copy, again.to_str().unwrap());
    assert_eq!(made.code, 0, "{}", made.stderr);
    assert_eq!(entries(&again), entries_before);

    // Muster carries on in the copy: the live game, the finished one, the event, the ratings.
    let out = console(
        &muster_binary!(),
        &copy,
        "bob b board\nbob b games\nbob x rating croquet\nann hall tournament standings spring\n",
    );
    assert!(out.contains("[b] (to bob) (Lanrick"), "{out}");
    assert!(out.contains("1662?"), "{out}");
    assert!(
        out.contains("spring has not started. Entrants (1): ann."),
        "{out}"
    );

    // A restore into a directory that is not empty is refused, and changes nothing.
    let refused = restore(&copy, file.to_str().unwrap());
    assert_eq!(refused.code, 1);
    assert!(
        refused.stderr.contains("is not empty"),
        "{}",
        refused.stderr
    );
    let made = backup(&copy, again.to_str().unwrap());
    assert_eq!(made.code, 0);
    assert_eq!(entries(&again), entries_before);
    for f in [&file, &again] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn damaged_backups_and_missing_stores_are_refused_clearly() {
    let dir = data_dir("backup", "damaged");
    let file = dir.with_extension("backup");
    console(&muster_binary!(), &dir, "alice a new croquet @bob\n");
    assert_eq!(backup(&dir, file.to_str().unwrap()).code, 0);
    let text = std::fs::read_to_string(&file).unwrap();
    // Cut before its end line: incomplete.
    let cut: Vec<&str> = text.lines().collect();
    let truncated = dir.with_extension("truncated");
    std::fs::write(&truncated, cut[..cut.len() - 1].join("\n")).unwrap();
    let target = data_dir("backup", "damaged-target");
    let r = restore(&target, truncated.to_str().unwrap());
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("ends early"), "{}", r.stderr);
    // Not a backup at all.
    let other = dir.with_extension("other");
    std::fs::write(&other, "{\"hello\": 1}\n").unwrap();
    let target = data_dir("backup", "other-target");
    let r = restore(&target, other.to_str().unwrap());
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("not a Muster backup"), "{}", r.stderr);
    // No store to back up; no --out.
    let nothing = data_dir("backup", "nothing");
    let r = backup(&nothing, file.to_str().unwrap());
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("there is no store"), "{}", r.stderr);
    let r = run(
        &muster_binary!(),
        &["backup", "--data", dir.to_str().unwrap()],
        "",
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--out <FILE>"), "{}", r.stderr);
    for f in [&file, &truncated, &other] {
        let _ = std::fs::remove_file(f);
    }
}
