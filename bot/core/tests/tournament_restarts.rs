//! Tournaments across restarts at the exact moments that matter: a new core over the same
//! store stands for a restarted Muster, and whatever the old one left in its outbox is lost, as
//! a crash loses it. Killed after a round was paired but before its places were opened, or
//! after a game's end was stored but before the event heard of it, the restarted bot opens the
//! places, creates the games and pairs the next round — each exactly once.

use std::sync::Arc;

use muster_core::desk::{Core, Opening, Place, Reply, Surface, Target};
use muster_core::store::{ChannelKey, Ending, MemoryStore, Status};

use common::request;
use muster_core::store::Live;
use muster_core::testing as common;

/// The platform of these tests, whose adapter opens each board's place itself (as threads and
/// rooms are opened) and tells the core when it is open: between the two, Muster can die.
struct OpensPlaces;

impl Surface for OpensPlaces {
    fn platform(&self) -> &str {
        "console"
    }

    fn place(&self, _: &Opening) -> Place {
        Place::Opened
    }
}

/// A core over `store`, as a (re)started Muster makes it.
fn restarted_core(store: &Arc<MemoryStore>) -> Core {
    Core::new(store.clone(), "!").with_surface(Arc::new(OpensPlaces))
}

fn words(replies: &[Reply]) -> String {
    replies
        .iter()
        .filter_map(|r| match r {
            Reply::Text(t) | Reply::Private(t) => Some(t.clone()),
            Reply::Mention { user, text } => Some(format!("@{}: {text}", user.name)),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Delivers the outbox as the console does (a place asked for is the channel of that name),
/// until it is empty; what was said, by channel.
fn deliver(core: &Core) -> Vec<(String, String)> {
    let mut said = Vec::new();
    loop {
        let notices = core.notices("console");
        if notices.is_empty() {
            return said;
        }
        for n in notices {
            match &n.target {
                Target::Open(o) => core.place_opened(o, &o.name),
                Target::Channel(c) => said.push((c.clone(), words(&n.replies))),
                Target::Direct(u) => said.push((format!("@{}", u.name), words(&n.replies))),
            }
        }
    }
}

fn openings(core: &Core) -> Vec<Opening> {
    core.notices("console")
        .into_iter()
        .filter_map(|n| match n.target {
            Target::Open(o) => Some(*o),
            _ => None,
        })
        .collect()
}

/// A Swiss event of four over `store`, started; the outbox of the core that started it is
/// dropped (the crash).
fn started(store: &Arc<MemoryStore>) {
    let core = restarted_core(store);
    for (who, text) in [
        ("org", "tournament new spring croquet swiss rounds 2"),
        ("ann", "tournament join spring"),
        ("bob", "tournament join spring"),
        ("cat", "tournament join spring"),
        ("dan", "tournament join spring"),
        ("org", "tournament start spring"),
    ] {
        core.handle(&request(who, "hall", text));
    }
    // The round was paired and its places asked for; Muster dies before any is opened.
    assert_eq!(openings(&core).len(), 2);
}

#[test]
fn killed_after_pairing_before_the_places_open_the_restart_opens_them_once() {
    let store = Arc::new(MemoryStore::default());
    started(&store);
    for channel in ["spring-1-1", "spring-1-2"] {
        let key = ChannelKey::new("console", channel);
        assert!(
            store.load(&key).unwrap().is_none(),
            "no game before the restart"
        );
    }
    let core = restarted_core(&store);
    core.resume_tournaments("console");
    let said = deliver(&core);
    for channel in ["spring-1-1", "spring-1-2"] {
        let key = ChannelKey::new("console", channel);
        let game = store.load(&key).unwrap().expect("the board's game");
        assert_eq!(game.status, Status::Active);
        assert!(game.tournament.is_some());
    }
    let announced = said
        .iter()
        .filter(|(c, w)| c == "hall" && w.contains("spring · round 1 of 2"))
        .count();
    assert_eq!(announced, 1, "{said:?}");
    // A second restart finds everything in place: no place asked for, nothing said twice.
    let again = restarted_core(&store);
    again.resume_tournaments("console");
    assert!(deliver(&again).is_empty());
    // The games' ids are the round's: creating them again was never attempted.
    let pairings = words(&again.handle(&request("ann", "hall", "tournament pairings")));
    assert!(
        pairings.contains("Board 1:") && pairings.contains("Board 2:"),
        "{pairings}"
    );
    assert!(!pairings.contains("Board 3:"), "{pairings}");
}

#[test]
fn killed_after_a_game_ended_before_the_event_heard_the_restart_takes_the_result_once() {
    let store = Arc::new(MemoryStore::default());
    started(&store);
    let core = restarted_core(&store);
    core.resume_tournaments("console");
    deliver(&core);
    // Board 1 ends: the game's end is stored (as the command's write does), then the crash.
    let key = ChannelKey::new("console", "spring-1-1");
    let mut game = store.load(&key).unwrap().unwrap();
    let expected = game.version;
    game.version += 1;
    game.status = Status::Finished;
    game.ending = Some(Ending::Resigned { seat: 1 });
    store.archive(&key, expected, &game).unwrap();
    // Board 2 ends through a command of the restarted bot; the event hears of both.
    let core = restarted_core(&store);
    core.resume_tournaments("console");
    let said = deliver(&core);
    assert!(
        said.iter()
            .any(|(c, w)| c == "hall" && w.contains("board 1: ann 1-0")),
        "{said:?}"
    );
    let board2 = store
        .load(&ChannelKey::new("console", "spring-1-2"))
        .unwrap()
        .unwrap();
    let white = board2.seats[0].player.clone().unwrap().name;
    core.handle(&request(&white, "spring-1-2", "resign"));
    let said = deliver(&core);
    let results: Vec<&(String, String)> = said
        .iter()
        .filter(|(c, w)| c == "hall" && w.contains("spring · round 1 · board"))
        .collect();
    assert_eq!(results.len(), 1, "board 1 is not reported twice: {said:?}");
    // Round 2 is paired once, its games created.
    assert!(
        said.iter()
            .any(|(c, w)| c == "hall" && w.contains("spring · round 2 of 2")),
        "{said:?}"
    );
    for channel in ["spring-2-1", "spring-2-2"] {
        assert!(
            store
                .load(&ChannelKey::new("console", channel))
                .unwrap()
                .is_some(),
            "{channel}"
        );
    }
    let restarted = restarted_core(&store);
    restarted.resume_tournaments("console");
    assert!(deliver(&restarted).is_empty());
}
