//! A move's walk (docs/architecture.md, "A move's walk"), counted: over a store that counts
//! what is asked of it, a move reads the channel's record once, reads the settings of the
//! player it is for once, and writes once — the record and its receipt in one commit, nothing
//! else — and replays the record once, drawing its board included.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use muster_bot::clock::ManualClock;
use muster_bot::core::{Core, Reply};
use muster_bot::store::record::replays;
use muster_bot::store::{Change, ChannelKey, GameRecord, GameStore, Kept, MemoryStore, StoreError};

mod common;
use common::request;

/// What a store was asked, by kind.
#[derive(Default)]
struct Counts {
    loads: AtomicUsize,
    notes: AtomicUsize,
    commits: AtomicUsize,
    /// Every other write: notes, receipts, games set aside.
    other_writes: AtomicUsize,
    /// Every other read: the archive, lists of games, receipts.
    other_reads: AtomicUsize,
}

impl Counts {
    fn take(&self) -> [usize; 5] {
        [
            &self.loads,
            &self.notes,
            &self.commits,
            &self.other_writes,
            &self.other_reads,
        ]
        .map(|c| c.swap(0, Ordering::SeqCst))
    }
}

/// A memory store that counts.
struct Counting {
    inner: MemoryStore,
    counts: Arc<Counts>,
}

fn count(c: &AtomicUsize) {
    c.fetch_add(1, Ordering::SeqCst);
}

impl GameStore for Counting {
    fn next_id(&self) -> Result<String, StoreError> {
        count(&self.counts.other_writes);
        self.inner.next_id()
    }
    fn load(&self, key: &ChannelKey) -> Result<Option<GameRecord>, StoreError> {
        count(&self.counts.loads);
        self.inner.load(key)
    }
    fn commit(
        &self,
        key: &ChannelKey,
        change: Option<&Change>,
        receipt: Option<Kept<'_>>,
    ) -> Result<(), StoreError> {
        count(&self.counts.commits);
        self.inner.commit(key, change, receipt)
    }
    fn set_aside(&self, key: &ChannelKey) -> Result<(), StoreError> {
        count(&self.counts.other_writes);
        self.inner.set_aside(key)
    }
    fn live_games_of(&self, platform: &str, player: &str) -> Result<Vec<GameRecord>, StoreError> {
        count(&self.counts.other_reads);
        self.inner.live_games_of(platform, player)
    }
    fn timed_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        count(&self.counts.other_reads);
        self.inner.timed_games()
    }
    fn bot_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        count(&self.counts.other_reads);
        self.inner.bot_games()
    }
    fn games_of(&self, player: &str) -> Result<Vec<GameRecord>, StoreError> {
        count(&self.counts.other_reads);
        self.inner.games_of(player)
    }
    fn archived(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        count(&self.counts.other_reads);
        self.inner.archived(id)
    }
    fn archive_ids(&self) -> Result<Vec<String>, StoreError> {
        count(&self.counts.other_reads);
        self.inner.archive_ids()
    }
    fn note(&self, key: &ChannelKey, name: &str) -> Result<Option<String>, StoreError> {
        count(&self.counts.notes);
        self.inner.note(key, name)
    }
    fn set_note(
        &self,
        key: &ChannelKey,
        name: &str,
        value: Option<&str>,
    ) -> Result<(), StoreError> {
        count(&self.counts.other_writes);
        self.inner.set_note(key, name, value)
    }
    fn swap_note(
        &self,
        key: &ChannelKey,
        name: &str,
        expected: Option<&str>,
        value: Option<&str>,
    ) -> Result<bool, StoreError> {
        count(&self.counts.other_writes);
        self.inner.swap_note(key, name, expected, value)
    }
    fn receipt(&self, platform: &str, id: &str) -> Result<Option<String>, StoreError> {
        count(&self.counts.other_reads);
        self.inner.receipt(platform, id)
    }
    fn receipts(&self, platform: &str) -> Result<Vec<(String, String)>, StoreError> {
        count(&self.counts.other_reads);
        self.inner.receipts(platform)
    }
    fn set_receipt(&self, platform: &str, id: &str, body: Option<&str>) -> Result<(), StoreError> {
        count(&self.counts.other_writes);
        self.inner.set_receipt(platform, id, body)
    }
    fn live_count(&self) -> Result<usize, StoreError> {
        count(&self.counts.other_reads);
        self.inner.live_count()
    }
}

/// A core over a counting store, on a manual clock.
fn counted() -> (Core, Arc<Counts>) {
    let counts = Arc::new(Counts::default());
    let store = Counting {
        inner: MemoryStore::default(),
        counts: Arc::clone(&counts),
    };
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
    let (core, counts) = counted();
    for (who, text) in [
        ("alice", "new lanrick @bob clock 3d"),
        ("bob", "accept"),
        ("alice", "move b1"),
        ("bob", "move b8"),
    ] {
        core.handle(&request(who, "hall", text));
    }
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
