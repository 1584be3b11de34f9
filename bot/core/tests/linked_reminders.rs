//! A linked player's dashboard and reminders cover his games on both platforms
//! (docs/guide.md, "One player on two platforms"): `games` lists them all, each linked where it
//! is played; `notify` changes the settings of every account of his; `notify on <platform>`
//! sends every reminder to his account there as one direct message, `notify on each` to each
//! game's own platform.

use std::sync::Arc;

use muster_core::clock::ManualClock;
use muster_core::desk::{Core, Notice, Reply, Target};
use muster_core::store::{ChannelKey, MemoryStore};

use common::{Named, say_mentioning_as as say};
use muster_core::store::Notes;
use muster_core::testing as common;

const START: u64 = 1_795_600_800; // 2026-11-25T10:00:00Z
const HOUR: u64 = 3_600;

fn core() -> (Core, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::starting_at(START));
    (over(Arc::new(MemoryStore::default()), &clock), clock)
}

/// A core over `store` (a restart, when the store was another core's).
fn over(store: Arc<MemoryStore>, clock: &Arc<ManualClock>) -> Core {
    let core = Core::with_clock(store, "!", clock.clone());
    core.add_surface(Arc::new(Named("chat")));
    core.add_surface(Arc::new(Named("rooms")));
    core
}

fn link(core: &Core) {
    common::link_alice(|who, channel, text| say(core, who, channel, text));
}

/// A Croquet game with a day per move in `channel`, where `alice` is to move: bob challenges,
/// alice accepts, bob makes the first step.
fn game_waiting_on_alice(core: &Core, platform: &str, channel: &str) {
    let me = |n: &str| format!("{n}@{platform}");
    let out = say(core, &me("bob"), channel, "new croquet @alice clock 1d");
    assert!(!out.contains("not"), "{out}");
    say(core, &me("alice"), channel, "accept");
    let out = say(core, &me("bob"), channel, "move 1");
    assert!(out.contains("alice"), "{out}");
}

/// The texts of `notices` with where each goes.
fn shown(notices: &[Notice]) -> Vec<(String, String)> {
    notices
        .iter()
        .map(|n| {
            let to = match &n.target {
                Target::Direct(u) => format!("direct:{}", u.id),
                Target::Channel(c) => format!("channel:{c}"),
                Target::Open(_) => "open".into(),
            };
            let text = n
                .replies
                .iter()
                .filter_map(|r| match r {
                    Reply::Text(t) | Reply::Mention { text: t, .. } => Some(t.as_str()),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join("\n");
            (to, text)
        })
        .collect()
}

#[test]
fn a_linked_players_dashboard_lists_his_games_on_both_platforms() {
    let (core, _) = core();
    game_waiting_on_alice(&core, "chat", "c1");
    game_waiting_on_alice(&core, "rooms", "!r1");
    let before = say(&core, "alice@chat", "c1", "games");
    assert!(before.contains("Your live games (1,"), "{before}");
    link(&core);
    for (who, here, there) in [
        ("alice@chat", "#c1", "#!r1 on Rooms"),
        ("alice@rooms", "#!r1", "#c1 on Chat"),
    ] {
        let out = say(&core, who, "x", "games");
        assert!(out.contains("Your live games (2, your move in 2)"), "{out}");
        assert!(out.contains(&format!("Your move — {here} ")), "{out}");
        assert!(out.contains(&format!("Your move — {there} ")), "{out}");
    }
}

#[test]
fn notify_on_a_platform_sends_every_reminder_there_and_on_each_to_each_games_own() {
    let (core, clock) = core();
    game_waiting_on_alice(&core, "chat", "c1");
    game_waiting_on_alice(&core, "rooms", "!r1");
    link(&core);
    // Not a platform of hers.
    let out = say(&core, "alice@chat", "c1", "notify on elsewhere");
    assert!(out.contains("no account on Elsewhere"), "{out}");
    let out = say(&core, "alice@chat", "c1", "notify on rooms");
    assert!(out.contains("goes to you on Rooms"), "{out}");
    // Said on one account, the setting is the other's too.
    let out = say(&core, "alice@rooms", "!r1", "notify");
    assert!(out.contains("goes to you on Rooms"), "{out}");

    // An hour before both deadlines: one direct message on rooms, naming both games.
    clock.set(START + 23 * HOUR).expect("forward");
    core.fire_due();
    assert_eq!(shown(&core.notices("chat")), vec![]);
    let rooms = shown(&core.notices("rooms"));
    assert_eq!(rooms.len(), 1, "{rooms:?}");
    assert_eq!(rooms[0].0, "direct:@alice:hs");
    assert!(rooms[0].1.contains("due soon in 2 games"), "{rooms:?}");
    assert!(rooms[0].1.contains("#c1 on Chat"), "{rooms:?}");
    assert!(rooms[0].1.contains("#!r1 ("), "{rooms:?}");
    // Said once.
    core.fire_due();
    assert!(core.notices("rooms").is_empty() && core.notices("chat").is_empty());

    // Each game's own platform: two games more, one reminder on each side.
    game_waiting_on_alice(&core, "chat", "c2");
    game_waiting_on_alice(&core, "rooms", "!r2");
    let out = say(&core, "alice@rooms", "!r2", "notify on each");
    assert!(
        out.contains("each game is reminded on its own platform"),
        "{out}"
    );
    clock.set(START + 46 * HOUR + 60).expect("forward");
    core.fire_due();
    // (The first two games were lost on time meanwhile; their words are left out.)
    let reminders = |platform: &str| -> Vec<(String, String)> {
        shown(&core.notices(platform))
            .into_iter()
            .filter(|(_, t)| t.contains("left for your move"))
            .collect()
    };
    let (chat, rooms) = (reminders("chat"), reminders("rooms"));
    assert_eq!(chat.len(), 1, "{chat:?}");
    assert_eq!(rooms.len(), 1, "{rooms:?}");
    assert_eq!(chat[0].0, "channel:c2");
    assert_eq!(rooms[0].0, "channel:!r2");
}

#[test]
fn a_reminder_sent_to_another_platform_and_kept_before_a_stop_is_not_sent_again() {
    let store = Arc::new(MemoryStore::default());
    let clock = Arc::new(ManualClock::starting_at(START));
    let core = over(store.clone(), &clock);
    game_waiting_on_alice(&core, "chat", "c1");
    link(&core);
    say(&core, "alice@chat", "c1", "notify on rooms");
    clock.set(START + 23 * HOUR).expect("forward");
    core.fire_due();
    // Kept on rooms, never posted; and as if the stop came before the game's mark was made.
    assert_eq!(core.notices("rooms").len(), 1);
    store
        .set_note(&ChannelKey::new("chat", "c1"), "reminded", None)
        .expect("unmarked");
    clock.advance(120);
    let after = over(store, &clock);
    assert_eq!(after.load_agenda(), 1);
    let owed = shown(&after.owed_notices("rooms"));
    assert_eq!(owed.len(), 1, "{owed:?}");
    assert!(owed[0].1.contains("#c1 on Chat"), "{owed:?}");
    // Nothing more is sent.
    after.fire_due();
    assert_eq!(shown(&after.notices("rooms")), vec![]);
    assert_eq!(shown(&after.notices("chat")), vec![]);
}
