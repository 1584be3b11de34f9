//! What an event's messages say, as its players read them (docs/tournaments.md).

use std::sync::Arc;

use muster_bot::core::{Core, Reply};
use muster_bot::store::MemoryStore;

mod common;

/// A Swiss event of Croquet in `#hall` with `entrants` players, started.
fn started(entrants: usize) -> Core {
    let core = Core::new(Arc::new(MemoryStore::default()), "!");
    let say = |user: &str, text: &str| {
        let out = core.handle(&common::request(user, "hall", text));
        assert!(common::privates(&out).is_empty(), "{text}: {out:?}");
    };
    say("olive", "tournament new cup croquet swiss rounds 3");
    for n in 1..=entrants {
        say(&format!("p{n}"), "tournament join cup");
    }
    say("olive", "tournament start cup");
    common::open_places(&core);
    core
}

/// The description of the standings image that `tournament standings cup` shows.
fn standings_alt(core: &Core) -> String {
    let out = core.handle(&common::request(
        "olive",
        "hall",
        "tournament standings cup",
    ));
    out.iter()
        .find_map(|r| match r {
            Reply::Board(b) => Some(b.drawn().expect("the standings draw").alt.clone()),
            _ => None,
        })
        .expect("a standings image")
}

#[test]
fn a_standings_image_names_the_first_eight_and_says_how_many_more_and_where() {
    let alt = standings_alt(&started(11));
    let named = (1..=11)
        .filter(|n| alt.contains(&format!(" p{n} ")))
        .count();
    assert_eq!(named, 8, "{alt}");
    assert!(
        alt.ends_with("and 3 more (the command tournament standings cup lists everyone)."),
        "{alt}"
    );
}

#[test]
fn a_standings_image_of_eight_names_them_all_and_no_more() {
    let alt = standings_alt(&started(8));
    assert!(!alt.contains("more"), "{alt}");
    for n in 1..=8 {
        assert!(alt.contains(&format!(" p{n} ")), "p{n}: {alt}");
    }
}
