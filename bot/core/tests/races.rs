//! Races through the command core on the sled store: 1,000 pairs of conflicting commands sent
//! at the same moment from two threads — two different moves by the player to move (two
//! devices), a move and the opponent's resignation, a move and its deadline (the scheduler
//! firing as the clock reaches it). Each time the result is one of the two orders: exactly one
//! move lands, or none after the game ended; the loser is told why, privately; the record
//! replays. The same through the Discord endpoint: tests/tests/discord_races.rs.

use std::sync::{Arc, Barrier};

use muster_core::clock::ManualClock;
use muster_core::desk::{Core, Reply};
use muster_core::store::{ChannelKey, Ending, GameRecord, GameStore, SledStore, Status};
use muster_rules::search::Rng;

const START: u64 = 1_795_600_800; // 2026-11-25T10:00:00Z

use common::mentioning as request;
use muster_core::kernel::replayable::Replayable;
use muster_core::store::{Lists, Live, PassLists, PassNotes, PassReceipts, PassUpkeep, Wears};
use muster_core::testing as common;

/// The private text of `replies`, if they are a refusal.
fn refusal(replies: &[Reply]) -> Option<String> {
    let private = common::privates(replies);
    let public = replies
        .iter()
        .any(|r| matches!(r, Reply::Text(_) | Reply::Board(_) | Reply::Mention { .. }));
    (!private.is_empty() && !public).then(|| private.concat())
}

/// Runs `a` and `b` at the same moment on two threads.
fn at_once<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send + 'static,
    B: FnOnce() -> RB + Send + 'static,
    RA: Send + 'static,
    RB: Send + 'static,
{
    let barrier = Arc::new(Barrier::new(2));
    let (ba, bb) = (Arc::clone(&barrier), barrier);
    let ta = std::thread::spawn(move || {
        ba.wait();
        a()
    });
    let tb = std::thread::spawn(move || {
        bb.wait();
        b()
    });
    (ta.join().expect("no panic"), tb.join().expect("no panic"))
}

struct Table {
    core: Arc<Core>,
    clock: Arc<ManualClock>,
    store: Arc<SledStore>,
    dir: std::path::PathBuf,
}

impl Table {
    fn new(name: &str) -> Table {
        let dir = std::env::temp_dir().join(format!("muster-races-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = Arc::new(SledStore::open(&dir).expect("sled opens"));
        let clock = Arc::new(ManualClock::starting_at(START));
        let core = Arc::new(Core::with_clock(store.clone(), "!", clock.clone()));
        Table {
            core,
            clock,
            store,
            dir,
        }
    }

    fn live(&self, channel: &str) -> Option<GameRecord> {
        self.store
            .load(&ChannelKey::new("console", channel))
            .expect("the store reads")
    }

    /// The game in `channel`, a new one between `white` and `black` if none is under way.
    fn game(&self, channel: &str, white: &str, black: &str, clock: &str) -> GameRecord {
        if let Some(r) = self.live(channel) {
            return r;
        }
        let new = format!("new lanrick @{black}{clock}");
        self.core.handle(&request(white, channel, &new));
        self.core.handle(&request(black, channel, "accept"));
        self.live(channel).expect("a game began")
    }

    /// The player to move in `record`, and the decisions listed for him.
    fn to_move(record: &GameRecord) -> (String, Vec<String>) {
        let game = record.rebuild().expect("the record replays");
        let seat = game.to_move().expect("a seat to move");
        let player = record.player(seat.index()).expect("seated").id.clone();
        (player, game.legal_moves_text())
    }

    /// The game with id `id` as it stands now, live or archived.
    fn now(&self, channel: &str, id: &str) -> GameRecord {
        match self.live(channel) {
            Some(r) if r.id == id => r,
            _ => self
                .store
                .archived(id)
                .expect("the archive reads")
                .expect("the game is kept"),
        }
    }
}

impl Drop for Table {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The moves of `before`'s game after `first` and then `second` by `player`, one after the
/// other: the second is applied only if `player` is still to move and it is legal then.
fn one_after_the_other(
    before: &GameRecord,
    player: &str,
    first: &str,
    second: &str,
) -> Vec<String> {
    let mut record = before.clone();
    record.moves.push(first.to_string());
    let game = record.rebuild().expect("a listed move replays");
    let still = game
        .to_move()
        .and_then(|seat| record.player(seat.index()))
        .is_some_and(|p| p.id == player);
    if still && game.legal_moves_text().iter().any(|m| m == second) {
        record.moves.push(second.to_string());
    }
    record.moves
}

#[test]
fn a_thousand_races_in_the_core_each_end_in_one_order() {
    let mut rng = Rng::new(0x7ace_0001);
    let (mut two_moves, mut move_resign, mut move_deadline, mut both) = (0, 0, 0, 0);
    let (mut resign_first, mut move_first, mut late, mut in_turn) = (0, 0, 0, 0);

    // Two different moves by the player to move, from two devices at once, in 12 channels.
    let table = Table::new("moves");
    for n in 0..400 {
        let channel = format!("m{}", n % 12);
        let before = table.game(&channel, &format!("w{channel}"), &format!("b{channel}"), "");
        let (player, listed) = Table::to_move(&before);
        let one = listed[rng.below(listed.len())].clone();
        let two = listed[rng.below(listed.len())].clone();
        let (core_a, core_b) = (Arc::clone(&table.core), Arc::clone(&table.core));
        let (ra, rb) = (
            request(&player, &channel, &format!("move {one}")),
            request(&player, &channel, &format!("move {two}")),
        );
        let (a, b) = at_once(move || core_a.handle(&ra), move || core_b.handle(&rb));
        let after = table.now(&channel, &before.id);
        // The game holds what one order of the two would give: the first lands, and the second
        // too only where its sender is still to move and it is legal then (a Lanrick player
        // moving several wanderers in a row), as if the two had come one after the other.
        let orders = [
            one_after_the_other(&before, &player, &one, &two),
            one_after_the_other(&before, &player, &two, &one),
        ];
        assert!(
            orders.contains(&after.moves),
            "{channel}: {:?} is neither order of {one} and {two}: {a:?} / {b:?}",
            &after.moves[before.moves.len()..]
        );
        let landed = after.moves.len() - before.moves.len();
        let refused: Vec<String> = [refusal(&a), refusal(&b)].into_iter().flatten().collect();
        assert_eq!(
            refused.len(),
            2 - landed,
            "{channel}: each that did not land was refused: {a:?} / {b:?}"
        );
        assert!(refused.iter().all(|why| !why.trim().is_empty()));
        after.rebuild().expect("the record replays");
        two_moves += 1;
        both += usize::from(landed == 2);
    }

    // A move and the opponent's resignation at once: the resignation ends the game and the move
    // is refused, or the move lands first and the resignation — decided again over the new
    // board, as every command that lost its race is — ends the game after it.
    let table = Table::new("resign");
    for n in 0..300 {
        let channel = format!("r{}", n % 12);
        let mut before = table.game(&channel, &format!("w{n}"), &format!("b{n}"), "");
        // Some way into the game first.
        for _ in 0..rng.below(6) {
            let (player, listed) = Table::to_move(&before);
            let m = &listed[rng.below(listed.len())];
            table
                .core
                .handle(&request(&player, &channel, &format!("move {m}")));
            before = table.live(&channel).expect("still under way");
        }
        let (player, listed) = Table::to_move(&before);
        let other = before
            .player_ids()
            .into_iter()
            .find(|p| *p != player)
            .expect("an opponent");
        let m = listed[rng.below(listed.len())].clone();
        let (core_a, core_b) = (Arc::clone(&table.core), Arc::clone(&table.core));
        let (ra, rb) = (
            request(&player, &channel, &format!("move {m}")),
            request(&other, &channel, "resign"),
        );
        let (a, b) = at_once(move || core_a.handle(&ra), move || core_b.handle(&rb));
        let after = table.now(&channel, &before.id);
        let seat = before.seat_of(&other).expect("seated");
        if let Some(why) = refusal(&b) {
            // The resignation lost its race three times over: refused, and it says why.
            assert!(why.contains("board changed"), "{why}");
            assert!(refusal(&a).is_none(), "both refused: {a:?} / {b:?}");
            assert_eq!(after.status, Status::Active);
            assert_eq!(after.moves.len(), before.moves.len() + 1);
        } else {
            assert_eq!(after.status, Status::Finished);
            assert_eq!(after.ending, Some(Ending::Resigned { seat }));
            if after.moves.len() == before.moves.len() + 1 {
                // The move first, then the resignation on the new board.
                assert!(refusal(&a).is_none(), "landed, yet refused: {a:?}");
                in_turn += 1;
            } else {
                assert_eq!(after.moves, before.moves, "{a:?}");
                let why = refusal(&a).expect("the move is refused, privately");
                assert!(!why.trim().is_empty());
                resign_first += 1;
            }
        }
        after.rebuild().expect("the record replays");
        move_resign += 1;
    }

    // A move racing its deadline: the clock reaches it and the scheduler fires while the move
    // is on its way. The move lands before the deadline, or the game is lost on time and the
    // move refused; the timeout is announced once either way.
    let table = Table::new("deadline");
    for n in 0..300 {
        let channel = "d";
        let before = table.game(channel, &format!("w{n}"), &format!("b{n}"), " clock 1h");
        table.core.load_agenda();
        let deadline = before.deadline().expect("a timed game");
        table.clock.set(deadline - 1).expect("the clock moves on");
        let (player, listed) = Table::to_move(&before);
        let m = listed[rng.below(listed.len())].clone();
        let core_a = Arc::clone(&table.core);
        let (core_b, clock) = (Arc::clone(&table.core), Arc::clone(&table.clock));
        let ra = request(&player, channel, &format!("move {m}"));
        let (a, fired) = at_once(
            move || core_a.handle(&ra),
            move || {
                clock.set(deadline).expect("the clock moves on");
                core_b.fire_due()
            },
        );
        let after = table.now(channel, &before.id);
        let notices = table.core.notices("console");
        let announced = notices
            .iter()
            .filter(|n| {
                n.replies.iter().any(
                    |r| matches!(r, Reply::Text(t) | Reply::Mention { text: t, .. } if t.contains("time ran out")),
                )
            })
            .count()
            + usize::from(a.iter().any(
                |r| matches!(r, Reply::Text(t) | Reply::Private(t) if t.contains("time ran out")),
            ));
        if after.moves.len() == before.moves.len() + 1 {
            assert_eq!(after.status, Status::Active, "{a:?}");
            assert!(refusal(&a).is_none(), "landed, yet refused: {a:?}");
            assert_eq!(announced, 0, "a timeout announced for a game that goes on");
            move_first += 1;
        } else {
            assert_eq!(after.moves, before.moves);
            assert_eq!(after.status, Status::Finished, "{a:?} / fired {fired}");
            assert!(
                matches!(
                    after.ending,
                    Some(Ending::Time { .. } | Ending::Forfeit { .. })
                ),
                "{:?}",
                after.ending
            );
            assert_eq!(announced, 1, "announced once: {a:?} / {notices:?}");
            // A move that lost its race to the deadline says what became of the game.
            if let Some(why) = refusal(&a).filter(|w| !w.contains("deadline")) {
                assert!(
                    why.contains("ended while your command") || why.contains("no game"),
                    "{why}"
                );
            }
            late += 1;
        }
        after.rebuild().expect("the record replays");
        move_deadline += 1;
        table.clock.set(deadline + 1).expect("the clock moves on");
    }
    let races = two_moves + move_resign + move_deadline;
    eprintln!(
        "races in the core: {races} ({two_moves} two moves — both landed, one after the other, \
         {both} times —, {move_resign} move and resignation \
         — the resignation first {resign_first} times, the move first {in_turn} —, \
         {move_deadline} move and deadline — late {late} times; the move first {move_first} \
         times in all)"
    );
    assert_eq!(races, 1000);
    // Both orders happened: the races were real.
    assert!(
        resign_first > 0 && in_turn > 0,
        "{resign_first} / {in_turn}"
    );
}

/// What happens to the store at a chosen moment.
type Happening = Box<dyn FnOnce(&dyn GameStore) + Send>;

/// A store that, the first time a change is committed, lets `meanwhile` happen first: a race
/// lost at an exact moment, between the command's read and its write.
struct Meanwhile {
    inner: Arc<dyn GameStore>,
    meanwhile: std::sync::Mutex<Option<Happening>>,
}

impl Meanwhile {
    fn run(&self) {
        let taken = self.meanwhile.lock().expect("unpoisoned").take();
        if let Some(f) = taken {
            f(self.inner.as_ref());
        }
    }
}

/// Meanwhile changes only how a change is committed; it passes the rest to the store it wears.
impl Wears for Meanwhile {
    fn worn(&self) -> &dyn GameStore {
        self.inner.as_ref()
    }
}

impl PassLists for Meanwhile {}
impl PassNotes for Meanwhile {}
impl PassReceipts for Meanwhile {}
impl PassUpkeep for Meanwhile {}

impl Live for Meanwhile {
    fn commit(
        &self,
        key: &ChannelKey,
        change: Option<&muster_core::store::Change>,
        receipts: &[muster_core::store::ReceiptToKeep<'_>],
    ) -> Result<(), muster_core::store::StoreError> {
        if change.is_some() {
            self.run();
        }
        self.inner.commit(key, change, receipts)
    }
    fn next_id(&self) -> Result<String, muster_core::store::StoreError> {
        self.inner.next_id()
    }
    fn load(&self, key: &ChannelKey) -> Result<Option<GameRecord>, muster_core::store::StoreError> {
        self.inner.load(key)
    }
}

#[test]
fn a_command_that_loses_its_race_to_the_game_s_end_says_what_the_game_came_to() {
    let inner: Arc<dyn GameStore> = Arc::new(muster_core::store::MemoryStore::default());
    let store = Arc::new(Meanwhile {
        inner: Arc::clone(&inner),
        meanwhile: std::sync::Mutex::new(None),
    });
    let core = Core::with_clock(
        store.clone(),
        "!",
        Arc::new(ManualClock::starting_at(START)),
    );
    core.handle(&request("ann", "hall", "new croquet @bob"));
    core.handle(&request("bob", "hall", "accept"));
    // Between ann's read of the game and her write, bob resigns.
    let key = ChannelKey::new("console", "hall");
    *store.meanwhile.lock().expect("unpoisoned") = Some(Box::new(move |s: &dyn GameStore| {
        let mut game = s.load(&key).expect("reads").expect("a game");
        let expected = game.version;
        game.version += 1;
        game.status = Status::Finished;
        game.ending = Some(Ending::Resigned { seat: 1 });
        s.archive(&key, expected, &game).expect("archived");
    }));
    let replies = core.handle(&request("ann", "hall", "move 3"));
    let why = refusal(&replies).expect("refused, privately");
    assert!(
        why.contains("ended while your command was being handled")
            && why.contains("wins")
            && why.contains("export g"),
        "{why}"
    );
    assert!(
        inner
            .load(&ChannelKey::new("console", "hall"))
            .unwrap()
            .is_none()
    );
}
