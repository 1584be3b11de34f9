//! A tournament of a community across platforms (docs/guide.md, "Tournaments across
//! platforms"): opened on `chat`, it takes entrants from `rooms` too, who join from a room of
//! the community; each game between players of the two platforms is played in a place on each
//! side, and the pairings and results are posted in the event's channel on both.

use std::sync::Arc;

use muster_core::clock::ManualClock;
use muster_core::desk::{Core, Notice, Target};
use muster_core::kernel::community::{Communities, Community, Member};
use muster_core::store::{ChannelKey, MemoryStore};

use common::{Named, say_as as say, words};
use muster_core::store::Live;
use muster_core::testing as common;

const START: u64 = 1_795_600_800; // 2026-11-25T10:00:00Z

fn core() -> (Core, Arc<MemoryStore>) {
    let clock = Arc::new(ManualClock::starting_at(START));
    let store = Arc::new(MemoryStore::default());
    let core = Core::with_clock(store.clone(), "!", clock);
    core.set_communities(Communities::new(vec![Community {
        name: "club".into(),
        members: vec![
            Member::community("chat", "g1"),
            Member::community("rooms", ""),
        ],
        organisers: Vec::new(),
        web: Default::default(),
    }]));
    core.add_surface(Arc::new(Named("chat")));
    core.add_surface(Arc::new(Named("rooms")));
    (core, store)
}

/// Takes the notices of both platforms, opening every place asked for (named after the
/// opening, as the console does), until none are left; returns what each channel was told.
fn settle(core: &Core) -> Vec<(String, String, String)> {
    let mut told = Vec::new();
    loop {
        let mut notices: Vec<Notice> = core.notices("chat");
        notices.extend(core.notices("rooms"));
        if notices.is_empty() {
            return told;
        }
        for n in notices {
            if let Some(id) = &n.receipt {
                core.notice_sent(&n.platform, id);
            }
            match &n.target {
                Target::Open(o) => core.place_opened(o, &o.name),
                Target::Channel(c) => {
                    told.push((n.platform.clone(), c.clone(), words(&n.replies)));
                }
                Target::Direct(_) => {}
            }
        }
    }
}

#[test]
fn an_event_takes_entrants_from_both_platforms_and_plays_each_game_in_two_places() {
    let (core, store) = core();
    let out = say(
        &core,
        "olga@chat",
        "events",
        "tournament new cup lanrick roundrobin",
    );
    assert!(out.contains("opened the event"), "{out}");
    say(&core, "alice@chat", "events", "tournament join cup");
    // From a room of the community: the event of that name on chat.
    let out = say(&core, "carol@rooms", "!lobby", "tournament join cup");
    assert!(out.contains("carol is entered in cup"), "{out}");
    let out = say(&core, "carol@rooms", "!lobby", "tournament join cup");
    assert!(out.contains("already entered"), "{out}");
    // Its standings read from there too.
    let out = say(&core, "dave@rooms", "!lobby", "tournament standings cup");
    assert!(out.contains("carol"), "{out}");
    let out = say(&core, "olga@chat", "events", "tournament start cup");
    assert!(out.contains("olga starts cup"), "{out}");
    let told = settle(&core);
    // The round is announced on both platforms; each player is pinged on his own.
    let on = |platform: &str, channel: &str| -> String {
        told.iter()
            .filter(|(p, c, _)| p == platform && c == channel)
            .map(|(_, _, t)| t.clone())
            .collect::<Vec<_>>()
            .join("\n")
    };
    let home = on("chat", "events");
    let lobby = on("rooms", "!lobby");
    for text in [&home, &lobby] {
        assert!(text.contains("cup · round 1 of 1"), "{text}");
        assert!(text.contains("alice") && text.contains("carol"), "{text}");
    }
    assert!(home.contains("<@alice-id> your round 1 game"), "{home}");
    assert!(!home.contains("<@@carol:hs>"), "{home}");
    assert!(lobby.contains("<@@carol:hs> your round 1 game"), "{lobby}");
    assert!(lobby.contains("opens for it here"), "{lobby}");
    assert!(!lobby.contains("<@alice-id>"), "{lobby}");
    // The game lives in the event's place on chat; carol plays in its place on rooms.
    let place = "cup-1-1";
    let record = store
        .load(&ChannelKey::new("chat", place))
        .unwrap()
        .expect("the board's game");
    let away = record.away.clone().expect("played in two places");
    assert_eq!(away.platform, "rooms");
    assert_eq!(away.parent.as_deref(), Some("!lobby"));
    let there = away.channel.expect("its place on rooms");
    let first = on("rooms", &there);
    assert!(first.contains("cup · round 1 · board 1"), "{first}");
    // alice (White) moves at home; carol answers from her place; each side is told.
    let out = say(&core, "alice@chat", place, "move h7");
    assert!(out.contains("carol, your turn"), "{out}");
    let told = settle(&core);
    assert!(
        told.iter()
            .any(|(p, c, t)| p == "rooms" && *c == there && t.contains("<@@carol:hs> your turn")),
        "{told:?}"
    );
    let out = say(&core, "carol@rooms", &there, "resign");
    assert!(out.contains("carol (Black) resigns"), "{out}");
    // The result and the final standings, on both platforms.
    let told = settle(&core);
    let result = |platform: &str, channel: &str| {
        told.iter()
            .any(|(p, c, t)| p == platform && c == channel && t.contains("1-0"))
    };
    assert!(result("chat", "events"), "{told:?}");
    assert!(result("rooms", "!lobby"), "{told:?}");
    assert!(
        told.iter()
            .any(|(p, c, t)| p == "chat" && c == place && t.contains("carol (Black) resigns")),
        "{told:?}"
    );
}

#[test]
fn a_swiss_event_with_entrants_of_both_platforms_runs_to_its_end_on_both() {
    let (core, store) = core();
    say(
        &core,
        "olga@chat",
        "events",
        "tournament new open lanrick swiss rounds 2",
    );
    for who in ["alice@chat", "bob@chat"] {
        say(&core, who, "events", "tournament join open");
    }
    for who in ["carol@rooms", "dave@rooms"] {
        let out = say(&core, who, "!lobby", "tournament join open");
        assert!(out.contains("entered in open"), "{out}");
    }
    say(&core, "olga@chat", "events", "tournament start open");
    let mut told = settle(&core);
    for round in 1..=2 {
        for board in 1..=2 {
            let place = format!("open-{round}-{board}");
            let record = store
                .load(&ChannelKey::new("chat", &place))
                .unwrap()
                .unwrap_or_else(|| panic!("round {round} board {board}: {told:?}"));
            // Black resigns, from wherever he plays.
            let black = record.player(1).expect("a black player").clone();
            let (who, channel) = if black.id.starts_with('@') {
                let there = record
                    .away
                    .as_ref()
                    .and_then(|a| a.channel.clone())
                    .expect("his place on rooms");
                (format!("{}@rooms", black.name), there)
            } else {
                (format!("{}@chat", black.name), place.clone())
            };
            let out = say(&core, &who, &channel, "resign");
            assert!(out.contains("resigns"), "{who} in {channel}: {out}");
            told.extend(settle(&core));
        }
    }
    // Both channels of the event saw both rounds and the final standings.
    for (platform, channel) in [("chat", "events"), ("rooms", "!lobby")] {
        let seen: Vec<&String> = told
            .iter()
            .filter(|(p, c, _)| p == platform && c == channel)
            .map(|(_, _, t)| t)
            .collect();
        let all = seen
            .iter()
            .map(|t| t.as_str())
            .collect::<Vec<_>>()
            .join("\n");
        assert!(all.contains("open · round 1 of 2"), "{platform}: {all}");
        assert!(all.contains("open · round 2 of 2"), "{platform}: {all}");
        assert!(
            all.contains("Standings of open after round 2 of 2"),
            "{platform}: {all}"
        );
        // Each round announced once.
        let round1 = seen
            .iter()
            .filter(|t| t.contains("open · round 1 of 2:"))
            .count();
        assert_eq!(round1, 1, "{platform}: {all}");
    }
}
