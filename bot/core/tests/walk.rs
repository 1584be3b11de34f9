//! A move's walk (docs/architecture.md, "A move's walk"), counted: over a store that counts
//! what is asked of it, a move reads the channel's record once, reads the settings of the
//! player it is for once, and writes once — the record and its receipt in one commit, nothing
//! else — and replays the record once, drawing its board included.

use std::sync::Arc;

use muster_core::clock::ManualClock;
use muster_core::desk::{Core, Reply};
use muster_core::kernel::replayable::replays;
use muster_core::store::MemoryStore;
use muster_core::store::counted::{Counted, Counts};

use common::request;
use muster_core::testing as common;

/// A core over a counting store, on a manual clock.
fn counted() -> (Core, Arc<Counts>) {
    let counts = Arc::new(Counts::default());
    let store = Counted::new(Arc::new(MemoryStore::default()), Arc::clone(&counts));
    let clock = Arc::new(ManualClock::starting_at(1_800_000_000));
    let core = Core::with_clock(Arc::new(store), "!", clock);
    (core, counts)
}

/// Draws every board among `replies`, as an adapter does before sending them.
fn draw(replies: &[Reply]) {
    for r in replies {
        if let Reply::Board(b) = r {
            b.drawn().expect("the board draws");
        }
    }
}

/// `[loads, notes read, commits, other writes, other reads]` and the replays of one command.
fn walk(core: &Core, counts: &Counts, who: &str, text: &str) -> ([usize; 5], u64, Vec<Reply>) {
    counts.take();
    let before = replays();
    let replies = core.handle(&request(who, "hall", text));
    draw(&replies);
    (counts.take(), replays() - before, replies)
}

#[test]
fn a_move_reads_the_record_once_writes_once_and_replays_once() {
    let (core, counts) = ready();
    // A placement in a timed game: the board, the mover's turn, his clock.
    let (asked, replayed, replies) = walk(&core, &counts, "alice", "move d1");
    assert!(
        replies.iter().any(|r| matches!(r, Reply::Board(_))),
        "{replies:?}"
    );
    let [loads, notes, commits, writes, reads] = asked;
    assert_eq!(loads, 1, "the channel's record is read once");
    assert_eq!(commits, 1, "the move is one write");
    assert_eq!(writes, 0, "and nothing else is written");
    assert_eq!(reads, 0, "nothing else is read");
    assert!(
        notes <= 1,
        "the next player's settings, read once: {notes} notes"
    );
    assert_eq!(
        replayed, 1,
        "the record is replayed once, its board drawn included"
    );
}

#[test]
fn a_refused_move_reads_once_and_writes_nothing() {
    let (core, counts) = counted();
    for (who, text) in [("alice", "new croquet @bob"), ("bob", "accept")] {
        core.handle(&request(who, "hall", text));
    }
    // Not bob's turn: refused, nothing written.
    let ([loads, _, commits, writes, _], replayed, replies) = walk(&core, &counts, "bob", "move 3");
    assert!(matches!(&replies[..], [Reply::Private(_)]), "{replies:?}");
    assert_eq!((loads, commits, writes), (1, 0, 0));
    assert_eq!(replayed, 1);
    // A step of the game: one read, one write, one replay.
    let ([loads, _, commits, writes, _], replayed, _) = walk(&core, &counts, "alice", "move 3");
    assert_eq!((loads, commits, writes), (1, 1, 0));
    assert_eq!(replayed, 1);
}

/// A Lanrick game in `hall` between alice and bob, timed, with both first men placed: alice's
/// turn to place.
fn placed(core: &Core) {
    for (who, text) in [
        ("alice", "new lanrick @bob clock 3d"),
        ("bob", "accept"),
        ("alice", "move b1"),
        ("bob", "move b8"),
    ] {
        core.handle(&request(who, "hall", text));
    }
}

/// A move's counts, as [`a_move_reads_the_record_once_writes_once_and_replays_once`] asks them.
fn assert_one_walk([loads, notes, commits, writes, reads]: [usize; 5], replayed: u64, what: &str) {
    assert_eq!(loads, 1, "{what}: the channel's record is read once");
    assert_eq!(commits, 1, "{what}: the move is one write");
    assert_eq!(
        (writes, reads),
        (0, 0),
        "{what}: nothing else is written or read"
    );
    assert!(
        notes <= 1,
        "{what}: the next player's settings, read once: {notes} notes"
    );
    assert_eq!(
        replayed, 1,
        "{what}: the record is replayed once, its board drawn included"
    );
}

/// A counted core with [`placed`]'s game, its counts taken: what a move costs from here on.
fn ready() -> (Core, Arc<Counts>) {
    let (core, counts) = counted();
    placed(&core);
    counts.take();
    (core, counts)
}

#[test]
fn a_move_written_on_its_own_in_the_console_reads_once_and_replays_once() {
    let (core, counts) = ready();
    let before = replays();
    // `d1`, not `!move d1`: finding that it is a move reads and plays the game already.
    let alice = muster_core::desk::User::named("alice");
    let replies = core.handle_message("console", "hall", &alice, "d1", &[]);
    draw(&replies);
    assert!(
        replies.iter().any(|r| matches!(r, Reply::Board(_))),
        "{replies:?}"
    );
    assert_one_walk(counts.take(), replays() - before, "a bare move");
}

#[test]
fn a_matrix_message_with_a_move_on_its_own_reads_its_receipt_and_record_once() {
    let (core, counts) = ready();
    let before = replays();
    // As the Matrix adapter walks a message: met before? a command? then run, once.
    let alice = muster_core::desk::User::named("alice");
    assert!(core.receipt("console", "$event").unwrap().is_none());
    let found = core
        .command_in("console", "hall", &alice, "d1")
        .expect("a move");
    assert_eq!(found.text(), "move d1");
    let req = request("alice", "hall", found.text());
    let handled = core.handle_unmet(&req, found, "$event", None);
    assert!(handled.changed && handled.fresh);
    draw(&handled.receipt.replies);
    let [loads, notes, commits, writes, reads] = counts.take();
    assert_eq!(reads, 1, "the receipt is read once, by the adapter");
    assert_one_walk(
        [loads, notes, commits, writes, 0],
        replays() - before,
        "a Matrix move",
    );
    // Met again, it is answered from its receipt and not run.
    let again = core.handle_once(&req, "$event", None).unwrap();
    assert!(!again.fresh && !again.changed);
}

/// `rooms`, whose accounts are shaped `@name:hs` (a game across platforms).
struct Rooms;

impl muster_core::desk::Surface for Rooms {
    fn platform(&self) -> &str {
        "rooms"
    }

    fn account(&self, text: &str) -> Option<muster_core::desk::User> {
        let local = text.strip_prefix('@')?.strip_suffix(":hs")?;
        Some(muster_core::desk::User {
            id: text.to_string(),
            name: local.to_string(),
        })
    }
}

#[test]
fn a_move_in_the_other_place_of_a_game_reads_two_places_and_writes_once() {
    let (core, counts) = counted();
    core.add_surface(Arc::new(Rooms));
    core.handle(&request("alice", "hall", "new lanrick @bob:hs clock 3d"));
    let opening = core
        .notices("rooms")
        .into_iter()
        .find_map(|n| match n.target {
            muster_core::desk::Target::Open(o) => Some(o),
            _ => None,
        })
        .expect("the other place asked for");
    core.place_opened(&opening, "!g");
    let bob = |text: &str| muster_core::desk::Request {
        platform: "rooms".into(),
        channel: "!g".into(),
        user: muster_core::desk::User {
            id: "@bob:hs".into(),
            name: "bob".into(),
        },
        text: text.into(),
        mentions: Vec::new(),
        policy: Default::default(),
    };
    core.handle(&bob("accept"));
    core.handle(&request("alice", "hall", "move b1"));
    counts.take();
    let before = replays();
    let replies = core.handle(&bob("move b8"));
    draw(&replies);
    let [loads, notes, commits, writes, reads] = counts.take();
    assert!(
        replies.iter().any(|r| matches!(r, Reply::Board(_))),
        "{replies:?}"
    );
    assert_eq!(loads, 2, "the place's own channel, then the game's home");
    assert_eq!(commits, 1, "the move and what the home is told: one write");
    assert_eq!((writes, reads), (0, 0), "nothing else");
    assert!(
        notes <= 2,
        "the place's note and the next player's settings: {notes} notes"
    );
    assert_eq!(replays() - before, 1, "replayed once");
}

#[test]
fn a_bare_move_found_before_another_command_landed_is_decided_over_the_game_as_it_is_now() {
    let (core, _) = counted();
    placed(&core);
    let alice = muster_core::desk::User::named("alice");
    let found = core
        .command_in("console", "hall", &alice, "d1")
        .expect("a move");
    // Between finding the move and running it, the same move lands from another message.
    core.handle(&request("alice", "hall", "move d1"));
    let req = request("alice", "hall", found.text());
    let handled = core.handle_unmet(&req, found, "$late", None);
    // Its read was stale: the commit saw that, and the move was decided again — refused, as
    // it is no longer alice's turn; the game holds the move once.
    assert!(!handled.changed, "{:?}", handled.receipt.replies);
    assert!(
        matches!(&handled.receipt.replies[..], [Reply::Private(_)]),
        "{:?}",
        handled.receipt.replies
    );
    let history = common::words(&common::say(&core, "alice", "hall", "history"));
    assert_eq!(history.matches("d1").count(), 1, "{history}");
}
