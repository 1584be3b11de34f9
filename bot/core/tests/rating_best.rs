//! A player's best rating counts established ratings only (docs/ratings.md): a newcomer's first
//! wins, rated while his deviation is high, are no best; once a game leaves his rating
//! established, his best is the highest such rating. Tables written before bests counted
//! established ratings only are recounted from their log.

use std::sync::Arc;

use muster_core::desk::{Core, Reply};
use muster_core::store::{ChannelKey, MemoryStore};
use serde_json::Value;

use common::request;
use muster_core::store::Notes;
use muster_core::testing as common;

/// A Croquet game won by `winner` over `loser`, rated.
fn beats(core: &Core, store: &Arc<MemoryStore>, winner: &str, loser: &str) {
    // The first named resigns.
    common::croquet_ended(core, store.as_ref(), "x", (loser, winner), "new croquet");
    assert_eq!(core.resume_ratings("console"), 1);
}

/// `rating croquet` of `who`, as shown.
fn shown(core: &Core, who: &str) -> String {
    let out = core.handle(&request(who, "x", "rating croquet"));
    match out.as_slice() {
        [Reply::Text(t)] => t.clone(),
        other => panic!("{other:?}"),
    }
}

/// The ratings export of Croquet.
fn export(core: &Core) -> Value {
    common::file_json(&core.handle(&request("alice", "x", "ratings export croquet")))
}

/// `who`'s ratings after each of his games in the export: (rating, deviation).
fn history(x: &Value, who: &str) -> Vec<(f64, f64)> {
    x["games"]
        .as_array()
        .expect("games")
        .iter()
        .flat_map(|g| g["players"].as_array().expect("players").iter())
        .filter(|p| p["id"] == who)
        .map(|p| {
            let after = &p["after"];
            (
                after["rating"].as_f64().expect("rating"),
                after["deviation"].as_f64().expect("deviation"),
            )
        })
        .collect()
}

/// `who` in the export's players.
fn player(x: &Value, who: &str) -> Value {
    x["players"]
        .as_array()
        .expect("players")
        .iter()
        .find(|p| p["id"] == who)
        .cloned()
        .expect("the player")
}

/// alice, a newcomer, wins her first three games against newcomers, then plays bob — losing
/// two of three — until her rating is established, and three games more. The core and store.
fn alice_established() -> (Core, Arc<MemoryStore>) {
    let store = Arc::new(MemoryStore::default());
    let core = Core::new(store.clone(), "!");
    for n in 1..=3 {
        beats(&core, &store, "alice", &format!("new{n}"));
        let line = shown(&core, "alice");
        assert!(line.contains("no best yet while provisional"), "{line}");
        assert!(!line.contains("best 1"), "{line}");
    }
    // Games played since her rating became established.
    let mut since: Option<usize> = None;
    for n in 0..80 {
        if n % 3 == 0 {
            beats(&core, &store, "alice", "bob");
        } else {
            beats(&core, &store, "bob", "alice");
        }
        let line = shown(&core, "alice");
        since = match since {
            Some(3) => return (core, store),
            Some(k) => Some(k + 1),
            None if !line.contains('?') => Some(0),
            None => {
                assert!(line.contains("no best yet while provisional"), "{line}");
                None
            }
        };
    }
    panic!("alice is still provisional: {}", shown(&core, "alice"));
}

#[test]
fn a_newcomers_first_wins_are_no_best_and_his_best_is_his_highest_established_rating() {
    let (core, _) = alice_established();
    let x = export(&core);
    let games = history(&x, "alice");
    let established: Vec<f64> = games
        .iter()
        .filter(|(_, d)| *d <= 110.0)
        .map(|(r, _)| *r)
        .collect();
    assert!(!established.is_empty());
    let best = established.iter().copied().fold(f64::MIN, f64::max);
    let peak = games.iter().map(|(r, _)| *r).fold(f64::MIN, f64::max);
    // Her provisional peak (three wins as a newcomer) is above anything established.
    assert!(peak > best + 50.0, "peak {peak}, best {best}");
    let line = shown(&core, "alice");
    assert!(
        line.contains(&format!("best {},", best.round() as i64)),
        "{line} (best {best}, {} games)",
        games.len()
    );
    // The export gives both: `best` as it always was, `best_established` as shown.
    let alice = player(&x, "alice");
    assert_eq!(alice["best_established"].as_f64(), Some(best), "{alice}");
    assert_eq!(alice["best"].as_f64(), Some(peak), "{alice}");
    // A newcomer beaten once has no best either; the export says null.
    let x = export(&core);
    assert!(player(&x, "new1")["best_established"].is_null());
    assert!(shown(&core, "new1").contains("no best yet while provisional"));
}

#[test]
fn a_table_written_before_bests_counted_established_ratings_only_is_recounted_from_its_log() {
    let (core, store) = alice_established();
    let shown_before = shown(&core, "alice");
    let home = ChannelKey::new("console", "\u{1e}ratings");
    let name = "/croquet";
    let text = store.note(&home, name).unwrap().expect("the table");
    // The table as older code wrote it: no `bests_kept`, no `best_established`; its `best`
    // (a provisional peak) is what older code showed.
    let mut old: Value = serde_json::from_str(&text).unwrap();
    old.as_object_mut().unwrap().remove("bests_kept");
    for p in old["players"].as_object_mut().unwrap().values_mut() {
        p.as_object_mut().unwrap().remove("best_established");
        assert!(p["best"].is_number(), "{p}");
    }
    let old = serde_json::to_string(&old).unwrap();
    assert!(
        store
            .swap_note(&home, name, Some(&text), Some(&old))
            .unwrap()
    );
    let restarted = Core::new(store.clone(), "!");
    assert_eq!(shown(&restarted, "alice"), shown_before);
    assert!(shown(&restarted, "new2").contains("no best yet while provisional"));
    // The next rated game writes the table with the bests kept, and older code still reads
    // its `best` as a number.
    beats(&restarted, &store, "bob", "alice");
    let new: Value = serde_json::from_str(&store.note(&home, name).unwrap().unwrap()).unwrap();
    assert_eq!(new["bests_kept"], true);
    assert!(new["players"]["alice"]["best"].is_number());
    assert!(new["players"]["alice"]["best_established"].is_number());
    assert!(new["players"]["new3"].get("best_established").is_none());
}
