//! Communities across platforms (docs/ratings.md, "One rating across platforms"): a server on
//! one platform and rooms on another share one rating table, one set of tournament names and
//! their organisers; a player whose accounts are linked has one rating per game there, worked
//! out by replaying every rated game in order of its end — the same as if he had been linked
//! from the start — and two again when he unlinks.

use std::sync::Arc;

use muster_core::clock::ManualClock;
use muster_core::desk::Core;
use muster_core::kernel::community::{Communities, Community, Member};
use muster_core::store::MemoryStore;
use serde_json::Value;

use common::{Named, mentioning_as as req, say_mentioning_as as say};
use muster_core::testing as common;

const START: u64 = 1_795_600_800; // 2026-11-25T10:00:00Z

/// The server `g1` of `chat` and the rooms of `rooms` without a community of their own.
fn club() -> Communities {
    Communities::new(vec![Community {
        name: "club".into(),
        members: vec![
            Member::community("chat", "g1"),
            Member::community("rooms", ""),
        ],
        organisers: vec!["org-id".into()],
        web: Default::default(),
    }])
}

fn core(communities: Option<Communities>) -> (Core, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::starting_at(START));
    let core = Core::with_clock(Arc::new(MemoryStore::default()), "!", clock.clone());
    if let Some(c) = communities {
        core.set_communities(c);
    }
    core.add_surface(Arc::new(Named("chat")));
    core.add_surface(Arc::new(Named("rooms")));
    (core, clock)
}

/// A rated Croquet game in `channel` that `winner` wins over `loser` (both on one platform),
/// an hour after the last.
fn beats(core: &Core, clock: &ManualClock, winner: &str, loser: &str, channel: &str) {
    clock.advance(3_600);
    let name = |w: &str| w.split('@').next().unwrap_or_default().to_string();
    say(
        core,
        loser,
        channel,
        &format!("new croquet @{}", name(winner)),
    );
    say(core, winner, channel, "accept");
    for (n, who) in [loser, winner, loser, winner].iter().enumerate() {
        say(core, who, channel, &format!("move {}", n + 1));
    }
    let out = say(core, loser, channel, "resign");
    assert!(out.contains("Ratings:"), "{out}");
}

/// The games of the story, in order: alice on chat beats bob, carol beats alice on rooms, alice
/// on chat beats bob again, alice on rooms beats carol.
fn story(core: &Core, clock: &ManualClock) {
    beats(core, clock, "alice@chat", "bob@chat", "c1");
    beats(core, clock, "carol@rooms", "alice@rooms", "!r1");
    beats(core, clock, "alice@chat", "bob@chat", "c1");
    beats(core, clock, "alice@rooms", "carol@rooms", "!r1");
}

fn link(core: &Core) {
    common::link_alice(|who, channel, text| say(core, who, channel, text));
}

/// The Croquet ratings export asked on `who`'s platform.
fn export(core: &Core, who: &str) -> Value {
    common::file_json(&core.handle(&req(who, "x", "ratings export croquet")))
}

/// Each player of the export: (id, name, rating, games), by rating.
fn standings(x: &Value) -> Vec<(String, String, f64, u64)> {
    let mut out: Vec<(String, String, f64, u64)> = x["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| {
            (
                p["id"].as_str().unwrap_or_default().to_string(),
                p["name"].as_str().unwrap_or_default().to_string(),
                p["rating"].as_f64().expect("rating"),
                p["games"].as_u64().expect("games"),
            )
        })
        .collect();
    out.sort_by(|a, b| b.2.total_cmp(&a.2));
    out
}

#[test]
fn a_server_and_rooms_share_one_table_and_each_account_is_a_player_until_linked() {
    let (core, clock) = core(Some(club()));
    story(&core, &clock);
    let from_chat = standings(&export(&core, "bob@chat"));
    let from_rooms = standings(&export(&core, "carol@rooms"));
    // One table, read from either platform: alice's two accounts are two players in it.
    assert_eq!(from_chat, from_rooms);
    let ids: Vec<&str> = from_chat.iter().map(|p| p.0.as_str()).collect();
    assert_eq!(ids.len(), 4, "{from_chat:?}");
    for id in [
        "chat:alice-id",
        "rooms:@alice:hs",
        "chat:bob-id",
        "rooms:@carol:hs",
    ] {
        assert!(ids.contains(&id), "{id} in {ids:?}");
    }
    // The leaderboard of either side ranks all of them; `rating @carol` works from chat.
    let out = say(&core, "bob@chat", "c1", "rating carol croquet");
    assert!(out.starts_with("carol's ratings"), "{out}");
    // Without the community, each platform has its own table.
    let (apart, clock) = self::core(None);
    story(&apart, &clock);
    assert_eq!(standings(&export(&apart, "bob@chat")).len(), 2);
    let out = say(&apart, "bob@chat", "c1", "rating carol croquet");
    assert!(out.contains("has no rated game"), "{out}");
}

#[test]
fn linked_accounts_have_one_rating_as_if_linked_from_the_start_and_two_again_when_unlinked() {
    // The same games, with alice linked before the first of them.
    let (first, clock) = core(Some(club()));
    link(&first);
    story(&first, &clock);
    let expected = standings(&export(&first, "bob@chat"));
    assert_eq!(expected.len(), 3, "{expected:?}");
    let alice = expected.iter().find(|p| p.1 == "alice").expect("alice");
    assert_eq!(alice.3, 4, "her four games are one history: {expected:?}");

    // Linked after the games: her two histories become one, replayed in order of their end.
    let (later, clock) = core(Some(club()));
    story(&later, &clock);
    let before = standings(&export(&later, "bob@chat"));
    link(&later);
    let merged = standings(&export(&later, "bob@chat"));
    let strip = |v: &[(String, String, f64, u64)]| -> Vec<(String, String, u64, i64)> {
        v.iter()
            .map(|p| {
                let id = if p.0.starts_with("player:") {
                    "player".to_string()
                } else {
                    p.0.clone()
                };
                (id, p.1.clone(), p.3, (p.2 * 1e6).round() as i64)
            })
            .collect()
    };
    assert_eq!(strip(&merged), strip(&expected));
    // Bob's and carol's ratings changed too: their games were against a stronger player.
    assert_ne!(strip(&merged), strip(&before));
    // Asked from either platform, alice has one rating.
    let chat = say(&later, "alice@chat", "c1", "rating croquet");
    let rooms = say(&later, "alice@rooms", "!r1", "rating croquet");
    assert_eq!(chat, rooms);
    assert!(chat.contains("4 games"), "{chat}");
    // The log keeps each game's accounts, so the history can be split again.
    let x = export(&later, "carol@rooms");
    let accounts: Vec<&str> = x["games"]
        .as_array()
        .expect("games")
        .iter()
        .flat_map(|g| g["players"].as_array().expect("players").iter())
        .filter_map(|p| p["id"].as_str())
        .filter(|id| id.contains("alice"))
        .collect();
    assert_eq!(
        accounts,
        [
            "chat:alice-id",
            "rooms:@alice:hs",
            "chat:alice-id",
            "rooms:@alice:hs"
        ]
    );

    let out = say(&later, "alice@rooms", "!r1", "unlink");
    assert!(out.starts_with("Unlinked"), "{out}");
    assert_eq!(
        strip(&standings(&export(&later, "bob@chat"))),
        strip(&before)
    );
}

#[test]
fn a_community_declared_after_games_starts_from_its_places_games_in_order_of_their_end() {
    let (declared, clock) = core(Some(club()));
    story(&declared, &clock);
    let expected = standings(&export(&declared, "bob@chat"));
    // Played while each platform kept its own table; the community is declared afterwards.
    let (late, clock) = core(None);
    story(&late, &clock);
    late.set_communities(club());
    assert_eq!(standings(&export(&late, "carol@rooms")), expected);
    // And the next game is taken into the shared table.
    beats(&late, &clock, "bob@chat", "alice@chat", "c1");
    let after = standings(&export(&late, "bob@chat"));
    let bob = after.iter().find(|p| p.1 == "bob").expect("bob");
    assert_eq!(bob.3, 3);
}

#[test]
fn tournament_names_and_organisers_are_the_communitys() {
    let (core, clock) = core(Some(club()));
    let out = say(
        &core,
        "alice@chat",
        "c1",
        "tournament new spring croquet swiss",
    );
    assert!(!out.contains("taken"), "{out}");
    let out = say(
        &core,
        "carol@rooms",
        "!r1",
        "tournament new spring croquet swiss",
    );
    assert!(
        out.contains("taken in this community") && out.contains("Chat"),
        "{out}"
    );
    let out = say(
        &core,
        "carol@rooms",
        "!r1",
        "tournament new autumn croquet swiss",
    );
    assert!(!out.contains("taken"), "{out}");

    // The community's organiser (by his chat id) may call off a game on chat.
    clock.advance(60);
    say(&core, "alice@chat", "c2", "new croquet @bob");
    say(&core, "bob@chat", "c2", "accept");
    let out = say(&core, "org@chat", "c2", "abort");
    assert!(out.contains("called the game off as an organiser"), "{out}");
    // Not so without the community.
    let (apart, _) = self::core(None);
    say(&apart, "alice@chat", "c2", "new croquet @bob");
    say(&apart, "bob@chat", "c2", "accept");
    let out = say(&apart, "org@chat", "c2", "abort");
    assert!(out.contains("Only a player at this game"), "{out}");
}
