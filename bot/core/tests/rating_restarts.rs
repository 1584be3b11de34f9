//! Ratings across restarts at the exact moments that matter: a new core over the same store
//! stands for a restarted Muster. Killed after a game's end was stored but before it was rated,
//! or after its rating table was written but before the game was marked as taken, the restarted
//! bot rates the game exactly once.

use std::sync::Arc;

use muster_core::desk::Core;
use muster_core::store::{ChannelKey, MemoryStore};

use common::request;
use muster_core::store::Notes;
use muster_core::testing as common;

/// A rated Croquet game between alice and bob, ended but not yet rated (the crash).
fn ended_unrated(store: &Arc<MemoryStore>, channel: &str) -> String {
    let core = Core::new(store.clone(), "!");
    common::croquet_ended(
        &core,
        store.as_ref(),
        channel,
        ("alice", "bob"),
        "new croquet",
    )
    .id
}

fn rating_of(core: &Core, who: &str) -> String {
    let replies = core.handle(&request(who, "x", "rating croquet"));
    format!("{replies:?}")
}

#[test]
fn a_game_ended_but_not_rated_is_rated_once_at_the_next_start() {
    let store = Arc::new(MemoryStore::default());
    ended_unrated(&store, "a");
    let before = Core::new(store.clone(), "!");
    assert!(rating_of(&before, "bob").contains("no rated game"));
    let core = Core::new(store.clone(), "!");
    assert_eq!(core.resume_ratings("console"), 1);
    assert!(
        rating_of(&core, "bob").contains("1662?"),
        "{}",
        rating_of(&core, "bob")
    );
    // Another start finds nothing left to rate, and the rating stands.
    let again = Core::new(store.clone(), "!");
    assert_eq!(again.resume_ratings("console"), 0);
    assert!(rating_of(&again, "bob").contains("1 game,"));
}

#[test]
fn a_table_written_but_the_game_not_marked_is_not_rated_twice() {
    let store = Arc::new(MemoryStore::default());
    let id = ended_unrated(&store, "a");
    let core = Core::new(store.clone(), "!");
    core.resume_ratings("console");
    // The crash: the table took the game, the mark was never written.
    let home = ChannelKey::new("console", "\u{1e}ratings");
    store.set_note(&home, &format!("rated/{id}"), None).unwrap();
    let restarted = Core::new(store.clone(), "!");
    assert_eq!(restarted.resume_ratings("console"), 1);
    let shown = rating_of(&restarted, "bob");
    assert!(
        shown.contains("1662?") && shown.contains("1 game,"),
        "{shown}"
    );
    assert!(store.note(&home, &format!("rated/{id}")).unwrap().is_some());
}
