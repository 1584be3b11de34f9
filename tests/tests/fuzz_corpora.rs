//! Every input the fuzzers kept, run again on the stable toolchain: the seed corpora
//! (`fuzz/corpus/<target>`, from the documentation's examples and the test fixtures, grown by
//! the fuzz runs) and the regression cases of crashes found and fixed (`fuzz/regressions`).
//! The checks are the fuzz targets' own (`fuzz/src/surfaces.rs`); `scripts/fuzz` runs the
//! targets themselves (docs/reliability.md).

use std::path::{Path, PathBuf};

use muster_core::kernel::replayable::Replayable;

#[path = "../../fuzz/src/surfaces.rs"]
mod surfaces;

/// The kept inputs of `target`: its corpus and its regression cases.
fn inputs(target: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz");
    let mut files = Vec::new();
    for dir in [
        root.join("corpus").join(target),
        root.join("regressions").join(target),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        files.extend(entries.filter_map(Result::ok).map(|e| e.path()));
    }
    files.sort();
    files
}

/// Runs every kept input of `target` through `check`, naming the file that fails.
fn replay(target: &str, check: fn(&[u8])) {
    let files = inputs(target);
    assert!(
        !files.is_empty(),
        "fuzz/corpus/{target} is empty: the seeds are missing"
    );
    for file in files {
        let data = std::fs::read(&file).expect("a corpus file reads");
        let caught = std::panic::catch_unwind(|| check(&data));
        assert!(caught.is_ok(), "{target}: {} fails", file.display());
    }
}

#[test]
fn play_corpus() {
    replay("play", surfaces::play);
}

#[test]
fn position_corpus() {
    replay("position", surfaces::position);
}

#[test]
fn command_corpus() {
    replay("command", surfaces::command);
}

#[test]
fn discord_corpus() {
    replay("discord", surfaces::discord);
}

#[test]
fn matrix_corpus() {
    replay("matrix", surfaces::matrix);
}

#[test]
fn record_corpus() {
    replay("record", surfaces::record);
}

/// What the `record` and `position` targets count on: damage is refused with a reason that
/// says what is wrong, not a panic and not a silent default.
#[test]
fn damaged_records_and_positions_are_refused_with_a_reason() {
    let seed = inputs("record")
        .into_iter()
        .map(|f| std::fs::read(f).expect("a corpus file reads"))
        .find(|b| muster_core::store::record::decode(b).is_ok())
        .expect("a seed record decodes");
    let cut = muster_core::store::record::decode(&seed[..seed.len() / 2]).unwrap_err();
    assert!(cut.starts_with("not a readable record"), "{cut}");
    let text = String::from_utf8(seed).expect("a record is UTF-8");
    let renamed =
        muster_core::store::record::decode(text.replacen("\"moves\"", "\"m\"", 1).as_bytes())
            .unwrap_err();
    assert!(renamed.contains("does not fit the layout"), "{renamed}");
    let mut record = muster_core::store::record::decode(text.as_bytes()).expect("decodes");
    record.moves.push("z9-z9".into());
    assert!(record.rebuild().is_err());
    let position =
        muster_rules::AnyGame::from_position(muster_rules::GameId::Croquet, "0/10/n").unwrap_err();
    assert!(position.contains("expected 5 fields"), "{position}");
}
