//! Clocks in the command core, on a manual clock: a move racing its deadline either lands or
//! loses on time, never both, whichever of the command and the scheduler comes first; and a
//! timeout is announced once.

use std::sync::Arc;

use muster_core::clock::ManualClock;
use muster_core::desk::{Core, Reply, Target};
use muster_core::store::{ChannelKey, Ending, MemoryStore};

const START: u64 = 1_795_600_800; // 2026-11-25T10:00:00Z
const DAY: u64 = 86_400;

use common::request;
use muster_core::kernel::replayable::Replayable;
use muster_core::store::{Lists, Live, Receipts};
use muster_core::testing as common;

fn text(replies: &[Reply]) -> String {
    replies
        .iter()
        .filter_map(|r| match r {
            Reply::Text(t) | Reply::Private(t) => Some(t.clone()),
            Reply::Mention { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn setup(games: usize) -> (Arc<Core>, Arc<ManualClock>, Arc<MemoryStore>) {
    let store = Arc::new(MemoryStore::default());
    let clock = Arc::new(ManualClock::starting_at(START));
    let core = Arc::new(Core::with_clock(store.clone(), "!", clock.clone()));
    for g in 0..games {
        let channel = format!("c{g}");
        core.handle(&request("alice", &channel, "new lanrick @bob clock 1d"));
        core.handle(&request("bob", &channel, "accept"));
    }
    core.load_agenda();
    (core, clock, store)
}

#[test]
fn a_move_a_second_before_the_deadline_lands_and_moves_the_deadline() {
    let (core, clock, store) = setup(1);
    clock.set(START + DAY - 1).unwrap();
    let replies = core.handle(&request("alice", "c0", "move b1"));
    assert!(
        text(&replies).contains("alice placed a man on b1."),
        "{replies:?}"
    );
    clock.set(START + DAY).unwrap();
    core.fire_due();
    assert!(core.notices("console").is_empty());
    let live = store
        .load(&ChannelKey::new("console", "c0"))
        .unwrap()
        .unwrap();
    assert_eq!(live.moves, vec!["b1"]);
    assert_eq!(live.deadline(), Some(START + 2 * DAY - 1));
}

#[test]
fn a_move_after_the_deadline_finds_the_game_lost_on_time_before_the_scheduler_fires() {
    let (core, clock, store) = setup(1);
    clock.set(START + DAY + 5).unwrap();
    let replies = core.handle(&request("alice", "c0", "move b1"));
    let said = text(&replies);
    assert!(
        said.contains("alice (White)'s time ran out (1d per move) without having moved"),
        "{said}"
    );
    assert!(
        said.contains(
            "Your command came after the deadline (2026-11-26T10:00:00Z), so it was not applied."
        ),
        "{said}"
    );
    let key = ChannelKey::new("console", "c0");
    assert_eq!(store.load(&key).unwrap(), None);
    let done = store.games_of("alice").unwrap().remove(0);
    assert!(done.moves.is_empty());
    assert_eq!(done.ending, Some(Ending::Forfeit { seat: 0 }));
    assert_eq!(
        done.updated,
        START + DAY,
        "ended at the deadline, not at the command"
    );
    // The scheduler, coming second, finds nothing left to do.
    core.fire_due();
    assert!(core.notices("console").is_empty());
}

#[test]
fn the_scheduler_and_late_moves_racing_end_each_game_once() {
    const GAMES: usize = 24;
    let (core, clock, store) = setup(GAMES);
    clock.set(START + DAY).unwrap();
    let movers: Vec<_> = (0..GAMES)
        .map(|g| {
            let core = Arc::clone(&core);
            std::thread::spawn(move || core.handle(&request("alice", &format!("c{g}"), "move b1")))
        })
        .collect();
    core.fire_due();
    let answers: Vec<Vec<Reply>> = movers.into_iter().map(|t| t.join().unwrap()).collect();
    let notices = core.notices("console");
    for (g, answer) in answers.iter().enumerate() {
        let channel = format!("c{g}");
        let announced_by_scheduler = notices
            .iter()
            .filter(|n| n.target == Target::Channel(channel.clone()))
            .filter(|n| text(&n.replies).contains("time ran out"))
            .count();
        let announced_to_mover = usize::from(text(answer).contains("time ran out"));
        assert_eq!(
            announced_by_scheduler + announced_to_mover,
            1,
            "game {g}: {answer:?} / {notices:?}"
        );
        assert_eq!(
            store.load(&ChannelKey::new("console", &channel)).unwrap(),
            None
        );
    }
    let finished = store.games_of("alice").unwrap();
    assert_eq!(finished.len(), GAMES);
    for r in finished {
        assert!(
            r.moves.is_empty(),
            "a move after the deadline was applied: {r:?}"
        );
        assert_eq!(r.updated, START + DAY);
    }
}

#[test]
fn a_timeout_stored_but_not_yet_announced_is_announced_after_a_crash_and_only_once() {
    let (core, clock, store) = setup(1);
    clock.set(START + DAY).unwrap();
    // The scheduler ends the game and leaves its announcement in the outbox; the process dies
    // before any adapter takes it: the exact moment between storing and replying.
    core.fire_due();
    drop(core);
    let after = Core::with_clock(store.clone(), "!", clock.clone());
    let owed = after.owed_notices("console");
    assert_eq!(owed.len(), 2, "{owed:?}");
    assert_eq!(owed[0].target, Target::Channel("c0".into()));
    assert!(text(&owed[0].replies).contains("alice (White)'s time ran out (1d per move)"));
    assert!(owed[0].replies.iter().any(|r| matches!(r, Reply::Board(_))));
    // Then what it means for the ratings, kept before the table was written.
    assert_eq!(owed[1].target, Target::Channel("c0".into()));
    assert!(text(&owed[1].replies).contains("Not rated"), "{owed:?}");
    // The game ended once, at its deadline; once posted, the announcements are not owed again.
    assert_eq!(store.games_of("alice").unwrap()[0].updated, START + DAY);
    for notice in &owed {
        let id = notice.receipt.clone().expect("kept under an id");
        after.notice_sent("console", &id);
    }
    assert!(after.owed_notices("console").is_empty());
    after.load_agenda();
    after.fire_due();
    assert!(after.notices("console").is_empty());
}

#[test]
fn a_vacation_is_told_in_the_write_that_pauses_each_game_and_finished_when_asked_again() {
    let (core, _clock, store) = setup(2);
    let said = core.handle(&request("alice", "c0", "vacation start 3"));
    assert!(text(&said).contains("Your vacation runs until"), "{said:?}");
    // The process dies before any adapter posts what the vacation says in each game: both
    // announcements were kept with the pauses.
    drop(core);
    let clock = Arc::new(ManualClock::starting_at(START + 60));
    let after = Core::with_clock(store.clone(), "!", clock);
    let owed = after.owed_notices("console");
    let mut channels: Vec<Target> = owed.iter().map(|n| n.target.clone()).collect();
    channels.sort_by_key(|t| format!("{t:?}"));
    assert_eq!(
        channels,
        vec![Target::Channel("c0".into()), Target::Channel("c1".into())],
        "{owed:?}"
    );
    assert!(text(&owed[0].replies).contains("alice is on vacation until"));
    // Asked again, it says so, and pauses and tells nothing twice.
    let said = after.handle(&request("alice", "c0", "vacation start 3"));
    assert!(text(&said).contains("already on vacation"), "{said:?}");
    assert!(after.notices("console").is_empty());
    assert_eq!(after.owed_notices("console").len(), 2);
    let live = store
        .load(&ChannelKey::new("console", "c1"))
        .unwrap()
        .unwrap();
    assert_eq!(live.pauses.len(), 1, "{:?}", live.pauses);
}

#[test]
fn a_vacation_whose_games_were_not_all_paused_before_a_crash_is_finished_when_asked_again() {
    let (core, clock, store) = setup(2);
    core.handle(&request("alice", "c0", "vacation start 3"));
    // As if the process had died after pausing c0 only: c1's pause and its word are undone.
    let key = ChannelKey::new("console", "c1");
    let mut live = store.load(&key).unwrap().unwrap();
    let expected = live.version;
    live.pauses.clear();
    live.version += 1;
    store.update(&key, expected, &live).unwrap();
    let owed = core.owed_notices("console");
    for n in owed
        .iter()
        .filter(|n| n.target == Target::Channel("c1".into()))
    {
        store
            .set_receipt("console", n.receipt.as_deref().unwrap(), None)
            .unwrap();
    }
    clock.set(START + 60).unwrap();
    core.notices("console");
    let said = core.handle(&request("alice", "c1", "vacation start 3"));
    assert!(text(&said).contains("already on vacation"), "{said:?}");
    let live = store.load(&key).unwrap().unwrap();
    assert_eq!(live.pauses.len(), 1, "c1 is paused now: {:?}", live.pauses);
    let told = core.notices("console");
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(told[0].target, Target::Channel("c1".into()));
}

#[test]
fn a_vacation_whose_end_did_not_reach_all_games_before_a_crash_is_finished_when_asked_again() {
    let (core, clock, store) = setup(2);
    core.handle(&request("alice", "c0", "vacation start 3"));
    core.notices("console");
    clock.set(START + 86_400).unwrap();
    let key = ChannelKey::new("console", "c1");
    let paused = store.load(&key).unwrap().unwrap();
    let said = core.handle(&request("alice", "c0", "vacation end"));
    assert!(
        text(&said).contains("run again in 2 timed games"),
        "{said:?}"
    );
    // As if the process had died after c0 only: c1's pause still runs to the third day, and
    // its word was never kept.
    let mut live = store.load(&key).unwrap().unwrap();
    let expected = live.version;
    live.pauses = paused.pauses.clone();
    live.version += 1;
    live.refresh_clock();
    store.update(&key, expected, &live).unwrap();
    for n in core.owed_notices("console") {
        if n.target == Target::Channel("c1".into()) {
            store
                .set_receipt("console", n.receipt.as_deref().unwrap(), None)
                .unwrap();
        }
    }
    core.notices("console");
    clock.set(START + 86_400 + 60).unwrap();
    let said = core.handle(&request("alice", "c0", "vacation end"));
    assert!(text(&said).contains("standing in 1 timed game"), "{said:?}");
    // Its pause ends when the vacation was ended, not now; it is told once.
    let live = store.load(&key).unwrap().unwrap();
    assert_eq!(live.pauses.len(), 1);
    assert_eq!(live.pauses[0].to, START + 86_400);
    let told = core.notices("console");
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(told[0].target, Target::Channel("c1".into()));
    // Asked once more: nothing is left to finish.
    let said = core.handle(&request("alice", "c0", "vacation end"));
    assert!(text(&said).contains("Nothing changed"), "{said:?}");
}
