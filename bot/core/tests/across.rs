//! One game played in two places (docs/guide.md, "Games across platforms"): a player of `chat`
//! challenges an account of `rooms` by its id; the game's record stays in the challenger's
//! channel, `rooms` opens a place for the game, and each place takes its own players' commands
//! and is told what the other was, once, in the write that made the change.

use std::sync::Arc;

use muster_core::clock::ManualClock;
use muster_core::desk::{Core, Notice, Reply, Surface, Target, User};
use muster_core::store::{ChannelKey, MemoryStore};

use common::{Named, account, ask_as as ask, say_as as say, words};
use muster_core::store::Live;
use muster_core::testing as common;

const START: u64 = 1_795_600_800; // 2026-11-25T10:00:00Z

/// `rooms`, whose accounts are shaped `@name:hs`.
struct Rooms;

impl Surface for Rooms {
    fn platform(&self) -> &str {
        "rooms"
    }

    fn account(&self, text: &str) -> Option<User> {
        let local = text.strip_prefix('@')?.strip_suffix(":hs")?;
        Some(User {
            id: text.to_string(),
            name: local.to_string(),
        })
    }

    fn reachable(&self, user: &User) -> Result<(), String> {
        match user.id.as_str() {
            "@nobody:hs" => Err("there is no such account".into()),
            _ => Ok(()),
        }
    }
}

fn over(store: Arc<MemoryStore>, clock: &Arc<ManualClock>) -> Core {
    let core = Core::with_clock(store, "!", clock.clone());
    core.add_surface(Arc::new(Named("chat")));
    core.add_surface(Arc::new(Rooms));
    core
}

/// The notices left for `platform`, each marked posted (as an adapter does).
fn posted(core: &Core, platform: &str) -> Vec<Notice> {
    let notices = core.notices(platform);
    for n in &notices {
        if let Some(id) = &n.receipt {
            core.notice_sent(platform, id);
        }
    }
    notices
}

/// The one notice for `platform`'s channel `channel`, in words.
fn told(core: &Core, platform: &str, channel: &str) -> String {
    let notices = posted(core, platform);
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_eq!(notices[0].target, Target::Channel(channel.into()));
    words(&notices[0].replies)
}

/// bob on chat challenges alice on rooms to Croquet in `c1`; rooms opens `!g`, where alice
/// accepts.
fn started(core: &Core) {
    let out = say(core, "bob@chat", "c1", "new croquet @alice:hs");
    assert!(out.contains("alice is challenged on Rooms"), "{out}");
    assert!(out.contains("Casual — not rated"), "{out}");
    assert!(
        !out.contains("<@@alice:hs>"),
        "not mentioned on chat: {out}"
    );
    let notices = posted(core, "rooms");
    let [
        Notice {
            target: Target::Open(opening),
            ..
        },
    ] = notices.as_slice()
    else {
        panic!("one place to open: {notices:?}");
    };
    assert_eq!(opening.players, vec![account("alice@rooms").1]);
    assert_eq!(opening.home.as_ref().expect("a game's place").channel, "c1");
    core.place_opened(opening, "!g");
    let first = told(core, "rooms", "!g");
    assert!(first.contains("played here and on Chat (#c1)"), "{first}");
    assert!(first.contains("<@@alice:hs> you are challenged"), "{first}");
    let out = say(core, "alice@rooms", "!g", "accept");
    assert!(out.contains("The game begins"), "{out}");
    // bob is to move: named on rooms, mentioned on chat.
    assert!(out.contains("bob, your turn"), "{out}");
    let home = told(core, "chat", "c1");
    assert!(home.contains("The game begins"), "{home}");
    assert!(home.contains("<@bob-id> your turn"), "{home}");
}

#[test]
fn a_game_is_played_from_both_places_and_each_is_told_what_the_other_was() {
    let clock = Arc::new(ManualClock::starting_at(START));
    let core = over(Arc::new(MemoryStore::default()), &clock);
    started(&core);
    // Each place takes its own players' moves; each is told the other's.
    let out = say(&core, "bob@chat", "c1", "move 1");
    assert!(out.contains("alice, your turn"), "{out}");
    let there = told(&core, "rooms", "!g");
    assert!(there.contains("<@@alice:hs> your turn"), "{there}");
    // A bare move in the other place is read as the player's move there.
    let (platform, alice) = account("alice@rooms");
    let command = core.command_in(&platform, "!g", &alice, "2");
    assert_eq!(command.as_ref().map(|f| f.text()), Some("move 2"));
    let out = say(&core, "alice@rooms", "!g", "move 2");
    assert!(out.contains("bob, your turn"), "{out}");
    assert!(told(&core, "chat", "c1").contains("<@bob-id> your turn"));
    // Only the player to move may move, from either place; refusals are private and not told.
    let out = ask(&core, "alice@rooms", "!g", "move 3");
    assert!(
        matches!(out.as_slice(), [Reply::Private(t)] if t.contains("bob (White)'s decision")),
        "{out:?}"
    );
    let out = ask(&core, "carol@rooms", "!g", "resign");
    assert!(
        matches!(out.as_slice(), [Reply::Private(t)] if t.contains("not playing")),
        "{out:?}"
    );
    assert!(core.notices("chat").is_empty() && core.notices("rooms").is_empty());
    // The other place has the game: one game per place.
    let out = say(&core, "carol@rooms", "!g", "new lanrick");
    assert!(out.contains("already has a game"), "{out}");
    // `moves` reads the game there.
    let out = say(&core, "carol@rooms", "!g", "moves");
    assert!(out.contains("bob (White) has"), "{out}");
    // It ends from the other place; both are told the result.
    let out = say(&core, "alice@rooms", "!g", "resign");
    assert!(out.contains("alice (Black) resigns"), "{out}");
    let home = told(&core, "chat", "c1");
    assert!(
        home.contains("alice (Black) resigns") && home.contains("Game over"),
        "{home}"
    );
    // Over: the place is free again, and its note leads nowhere.
    let out = ask(&core, "carol@rooms", "!g", "moves");
    assert!(words(&out).contains("no game"), "{out:?}");
}

#[test]
fn what_the_other_place_is_owed_survives_a_stop_and_is_posted_once() {
    let store = Arc::new(MemoryStore::default());
    let clock = Arc::new(ManualClock::starting_at(START));
    let core = over(store.clone(), &clock);
    started(&core);
    say(&core, "bob@chat", "c1", "move 1");
    // The stop comes before rooms' adapter posts the move: a new process owes it, once.
    drop(core);
    let core = over(store.clone(), &clock);
    let owed = core.owed_notices("rooms");
    assert_eq!(owed.len(), 1, "{owed:?}");
    assert_eq!(owed[0].target, Target::Channel("!g".into()));
    assert!(words(&owed[0].replies).contains("<@@alice:hs> your turn"));
    core.notice_sent("rooms", owed[0].receipt.as_deref().expect("kept"));
    assert!(core.owed_notices("rooms").is_empty());
    // A place opened twice (the adapter asked again after a stop) keeps the first.
    let live = store.load(&ChannelKey::new("chat", "c1")).unwrap().unwrap();
    let away = live.away.clone().expect("two places");
    assert_eq!(away.channel.as_deref(), Some("!g"));
    assert_eq!(away.players, vec!["@alice:hs".to_string()]);
}

#[test]
fn a_challenge_that_cannot_be_played_across_platforms_is_refused_and_nothing_is_made() {
    let clock = Arc::new(ManualClock::starting_at(START));
    let store = Arc::new(MemoryStore::default());
    let core = over(store.clone(), &clock);
    // One's own linked account.
    let code = common::code_in(&say(&core, "bob@chat", "c9", "link"));
    let out = say(&core, "bob@rooms", "!r", &format!("link {code}"));
    assert!(out.starts_with("Linked"), "{out}");
    let out = ask(&core, "bob@chat", "c1", "new lanrick @bob:hs");
    assert!(
        matches!(out.as_slice(), [Reply::Private(t)] if t.contains("linked with yours")),
        "{out:?}"
    );
    assert_eq!(store.load(&ChannelKey::new("chat", "c1")).unwrap(), None);
    // An account the other platform does not know.
    let out = ask(&core, "bob@chat", "c1", "new lanrick @nobody:hs");
    assert!(
        matches!(out.as_slice(), [Reply::Private(t)] if t.contains("there is no such account") && t.contains("Nothing was started")),
        "{out:?}"
    );
    // Players of two other platforms (rooms, and a third one's) in one game.
    core.add_surface(Arc::new(Third));
    let out = ask(&core, "bob@chat", "c1", "new lanko88 @alice:hs carol#third");
    assert!(
        matches!(out.as_slice(), [Reply::Private(t)] if t.contains("two places at most")),
        "{out:?}"
    );
    assert_eq!(store.load(&ChannelKey::new("chat", "c1")).unwrap(), None);
    assert!(core.notices("rooms").is_empty() && core.notices("third").is_empty());
}

/// A third platform, whose accounts are shaped `name#third`.
struct Third;

impl Surface for Third {
    fn platform(&self) -> &str {
        "third"
    }

    fn account(&self, text: &str) -> Option<User> {
        let name = text.strip_suffix("#third")?;
        Some(User {
            id: text.to_string(),
            name: name.to_string(),
        })
    }
}

#[test]
fn a_place_a_stop_left_unopened_is_asked_for_again_at_start() {
    let store = Arc::new(MemoryStore::default());
    let clock = Arc::new(ManualClock::starting_at(START));
    let core = over(store.clone(), &clock);
    say(&core, "bob@chat", "c1", "new lanrick @alice:hs");
    // The stop comes before rooms' adapter opens the place.
    drop(core);
    let core = over(store, &clock);
    core.resume_places("chat");
    assert!(core.notices("chat").is_empty());
    core.resume_places("rooms");
    let notices = posted(&core, "rooms");
    let [
        Notice {
            target: Target::Open(opening),
            ..
        },
    ] = notices.as_slice()
    else {
        panic!("the place asked for again: {notices:?}");
    };
    core.place_opened(opening, "!g");
    assert!(told(&core, "rooms", "!g").contains("you are challenged"));
    // Once open, it is not asked for again.
    core.resume_places("rooms");
    assert!(core.notices("rooms").is_empty());
}

#[test]
fn a_place_that_cannot_be_opened_calls_the_challenge_off_and_says_so_once() {
    let store = Arc::new(MemoryStore::default());
    let clock = Arc::new(ManualClock::starting_at(START));
    let core = over(store.clone(), &clock);
    say(&core, "bob@chat", "c1", "new lanrick @alice:hs");
    let notices = posted(&core, "rooms");
    let Target::Open(opening) = &notices[0].target else {
        panic!("{notices:?}");
    };
    core.place_failed(opening, "the homeserver refused");
    let out = told(&core, "chat", "c1");
    assert!(
        out.contains("called off") && out.contains("the homeserver refused"),
        "{out}"
    );
    assert_eq!(store.load(&ChannelKey::new("chat", "c1")).unwrap(), None);
    core.place_failed(opening, "the homeserver refused");
    assert!(core.notices("chat").is_empty());
    // The channel is free.
    let out = say(&core, "bob@chat", "c1", "new lanrick");
    assert!(out.contains("New game"), "{out}");
}

#[test]
fn the_player_of_the_other_place_is_reminded_there_and_both_places_hear_of_a_timeout() {
    let clock = Arc::new(ManualClock::starting_at(START));
    let core = over(Arc::new(MemoryStore::default()), &clock);
    let out = say(&core, "bob@chat", "c1", "new croquet @alice:hs clock 1d");
    assert!(out.contains("alice is challenged on Rooms"), "{out}");
    let notices = posted(&core, "rooms");
    let Target::Open(opening) = &notices[0].target else {
        panic!("{notices:?}");
    };
    core.place_opened(opening, "!g");
    posted(&core, "rooms");
    say(&core, "alice@rooms", "!g", "accept");
    posted(&core, "chat");
    say(&core, "bob@chat", "c1", "move 1");
    posted(&core, "rooms");
    // An hour before alice's deadline: reminded in her place, on her platform.
    clock.set(START + 23 * 3_600).expect("forward");
    core.fire_due();
    assert!(core.notices("chat").is_empty());
    let reminder = told(&core, "rooms", "!g");
    assert!(reminder.contains("<@@alice:hs>"), "{reminder}");
    assert!(reminder.contains("left for your move in #!g"), "{reminder}");
    // Her `games` lists it where she plays it.
    let out = say(&core, "alice@rooms", "!x", "games");
    assert!(out.contains("Your move — #!g"), "{out}");
    // The clock runs out: both places are told, once, with what the ratings make of it.
    clock.set(START + 25 * 3_600).expect("forward");
    core.fire_due();
    for (platform, channel) in [("chat", "c1"), ("rooms", "!g")] {
        let notices = posted(&core, platform);
        assert_eq!(notices.len(), 2, "{notices:?}");
        assert!(
            notices
                .iter()
                .all(|n| n.target == Target::Channel(channel.into()))
        );
        let text = words(&notices[0].replies);
        assert!(text.contains("time ran out"), "{text}");
        assert!(words(&notices[1].replies).contains("not rated"));
    }
    core.fire_due();
    assert!(core.notices("chat").is_empty() && core.notices("rooms").is_empty());
}

#[test]
fn a_linked_player_is_challenged_by_name_on_his_other_platform() {
    let clock = Arc::new(ManualClock::starting_at(START));
    let store = Arc::new(MemoryStore::default());
    let core = over(store.clone(), &clock);
    // bob is linked: bob-id on chat, @bob:hs on rooms.
    let code = common::code_in(&say(&core, "bob@rooms", "!r9", "link"));
    let out = say(&core, "bob@chat", "c9", &format!("link {code}"));
    assert!(out.starts_with("Linked"), "{out}");
    // carol on rooms names him: his account on chat is challenged, from her room.
    let out = say(&core, "carol@rooms", "!r1", "new lanrick BOB");
    assert!(out.contains("bob is challenged on Chat"), "{out}");
    let live = store
        .load(&ChannelKey::new("rooms", "!r1"))
        .unwrap()
        .unwrap();
    assert_eq!(live.player(1).map(|p| p.id.as_str()), Some("bob-id"));
    let notices = posted(&core, "chat");
    let Target::Open(opening) = &notices[0].target else {
        panic!("{notices:?}");
    };
    core.place_opened(opening, "t1");
    assert!(told(&core, "chat", "t1").contains("<@bob-id> you are challenged"));
    let out = say(&core, "bob@chat", "t1", "accept");
    assert!(out.contains("The game begins"), "{out}");
    // Unlinked, he is no longer found by that name: the word is a name on rooms, as before.
    say(&core, "bob@chat", "t1", "abort");
    posted(&core, "rooms");
    say(&core, "bob@rooms", "!r9", "unlink");
    let out = say(&core, "carol@rooms", "!r2", "new lanrick bob");
    assert!(!out.contains("challenged on Chat"), "{out}");
}
