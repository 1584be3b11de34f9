//! The contract every store keeps, as one suite run against each backend (memory and sled
//! here, PostgreSQL in the end-to-end suites with a real server), so that no backend drifts.
//! Public so that those suites can run it; it panics on the first broken promise.

use super::*;

/// A two-player Lanrick record for `channel`, with a new id from `store`.
pub fn record(store: &dyn GameStore, channel: &str) -> GameRecord {
    GameRecord {
        schema: SCHEMA,
        id: store.next_id().unwrap(),
        game: "lanrick".into(),
        platform: "console".into(),
        channel: channel.into(),
        created: 1,
        updated: 1,
        started: None,
        version: 1,
        seats: vec![
            SeatEntry {
                player: Some(Player {
                    id: "alice".into(),
                    name: "Alice".into(),
                }),
                accepted: true,
                hand: None,
            },
            SeatEntry {
                player: Some(Player {
                    id: "bob".into(),
                    name: "Bob".into(),
                }),
                accepted: true,
                hand: None,
            },
        ],
        status: Status::Active,
        moves: vec![],
        times: Vec::new(),
        ending: None,
        draw_offer: None,
        takeback: None,
        clock: None,
        pauses: Vec::new(),
        wait: None,
        tournament: None,
        community: None,
        casual: false,
        away: None,
    }
}

/// Checks every promise of [`GameStore`] on an empty `store`.
pub fn keeps_the_contract(store: &dyn GameStore) {
    let key = ChannelKey::new("console", "general");
    let (r, old) = creates_once_and_swaps(store, &key);
    let other = archives(store, &key, &r, old);
    keeps_notes(store, &key, &other);
    let third = ChannelKey::new("console", "third");
    let game = commits_change_and_receipts(store, &third);
    keeps_receipts_per_platform(store, &third, &game);
    files_a_finished_game_at_once(store, &third);
    lists_a_players_live_games(store, &game);
    let (across, both) = lists_games_played_across(store);
    lists_a_platforms_live_games(store, &across, &both);
    lists_timed_games(store);
}

/// A game is created once in a channel and changed by compare-and-swap; the record and the
/// version its last change replaced.
fn creates_once_and_swaps(store: &dyn GameStore, key: &ChannelKey) -> (GameRecord, u64) {
    assert_eq!(store.load(key).unwrap(), None);
    let mut r = record(store, "general");
    store.create(key, &r).unwrap();
    assert_eq!(store.create(key, &r), Err(StoreError::Exists));
    assert_eq!(store.load(key).unwrap(), Some(r.clone()));
    // Compare-and-swap: a write naming a stale version is refused.
    let old = r.version;
    r.moves.push("a1".into());
    r.version += 1;
    store.update(key, old, &r).unwrap();
    assert_eq!(store.update(key, old, &r), Err(StoreError::Conflict));
    (r, old)
}

/// Other channels are independent; archiving frees the channel and files the game under each
/// player. The other channel.
fn archives(store: &dyn GameStore, key: &ChannelKey, r: &GameRecord, old: u64) -> ChannelKey {
    // Other channels are independent.
    let other = ChannelKey::new("console", "other");
    store.create(&other, &record(store, "other")).unwrap();
    // Archiving frees the channel and files the game under each player.
    let mut done = r.clone();
    done.status = Status::Finished;
    done.version += 1;
    assert_eq!(store.archive(key, old, &done), Err(StoreError::Conflict));
    store.archive(key, r.version, &done).unwrap();
    assert_eq!(store.load(key).unwrap(), None);
    assert_eq!(store.games_of("bob").unwrap(), vec![done.clone()]);
    assert_eq!(store.games_of("carol").unwrap(), vec![]);
    assert_eq!(store.archived(&done.id).unwrap(), Some(done.clone()));
    assert!(store.archive_ids().unwrap().contains(&done.id));
    assert!(store.load(&other).unwrap().is_some());
    assert_ne!(store.next_id().unwrap(), store.next_id().unwrap());
    other
}

/// Notes are kept per channel and name, and changed only from the value they were read at.
fn keeps_notes(store: &dyn GameStore, key: &ChannelKey, other: &ChannelKey) {
    // Notes, per channel and name.
    assert_eq!(store.note(key, "board").unwrap(), None);
    store.set_note(key, "board", Some("123")).unwrap();
    store.set_note(other, "board", Some("456")).unwrap();
    assert_eq!(store.note(key, "board").unwrap().as_deref(), Some("123"));
    assert_eq!(store.note(key, "other").unwrap(), None);
    store.set_note(key, "board", None).unwrap();
    assert_eq!(store.note(key, "board").unwrap(), None);
    // A note changed only from the value it was read at.
    assert!(store.swap_note(key, "board", None, Some("7")).unwrap());
    assert!(!store.swap_note(key, "board", None, Some("8")).unwrap());
    assert!(!store.swap_note(key, "board", Some("6"), Some("8")).unwrap());
    assert_eq!(store.note(key, "board").unwrap().as_deref(), Some("7"));
    assert!(store.swap_note(key, "board", Some("7"), Some("8")).unwrap());
    assert!(store.swap_note(key, "board", Some("8"), None).unwrap());
    assert_eq!(store.note(key, "board").unwrap(), None);
    assert_eq!(store.note(other, "board").unwrap().as_deref(), Some("456"));
}

/// A commit stores its change and its receipt together, or neither; the game it created in
/// `third`.
fn commits_change_and_receipts(store: &dyn GameStore, third: &ChannelKey) -> GameRecord {
    // A commit stores its change and its receipt together, or neither.
    let game = record(store, "third");
    let create = Change::Create(game.clone());
    store
        .commit(third, Some(&create), &[("console", "ev1", "first")])
        .unwrap();
    assert_eq!(store.load(third).unwrap(), Some(game.clone()));
    assert_eq!(
        store.receipt("console", "ev1").unwrap().as_deref(),
        Some("first")
    );
    let stale = Change::Update {
        expected: game.version + 5,
        record: game.clone(),
    };
    assert_eq!(
        store.commit(third, Some(&stale), &[("console", "ev2", "second")]),
        Err(StoreError::Conflict)
    );
    assert_eq!(
        store.commit(third, Some(&create), &[("console", "ev2", "second")]),
        Err(StoreError::Exists)
    );
    assert_eq!(store.receipt("console", "ev2").unwrap(), None);
    game
}

/// A receipt is kept alone too, per platform, and one write may keep receipts on several
/// platforms.
fn keeps_receipts_per_platform(store: &dyn GameStore, third: &ChannelKey, game: &GameRecord) {
    // A receipt alone; receipts are kept per platform, and one write may keep receipts on
    // several platforms (a game played in two places).
    store
        .commit(third, None, &[("console", "ev3", "third")])
        .unwrap();
    let mut both = game.clone();
    both.version += 1;
    let change = Change::Update {
        expected: game.version,
        record: both.clone(),
    };
    store
        .commit(
            third,
            Some(&change),
            &[("console", "ev4", "here"), ("rooms", "ev4", "there")],
        )
        .unwrap();
    assert_eq!(
        store.receipt("rooms", "ev4").unwrap().as_deref(),
        Some("there")
    );
    store.set_receipt("rooms", "ev4", None).unwrap();
    store.set_receipt("console", "ev4", None).unwrap();
    let stale = Change::Update {
        expected: game.version,
        record: both,
    };
    assert_eq!(
        store.commit(third, Some(&stale), &[("rooms", "ev5", "lost")]),
        Err(StoreError::Conflict)
    );
    assert_eq!(store.receipt("rooms", "ev5").unwrap(), None);
    store
        .set_receipt("rooms", "ev1", Some("elsewhere"))
        .unwrap();
    let mut kept = store.receipts("console").unwrap();
    kept.sort();
    assert_eq!(
        kept,
        vec![
            ("ev1".to_string(), "first".to_string()),
            ("ev3".to_string(), "third".to_string())
        ]
    );
    store.set_receipt("console", "ev1", None).unwrap();
    assert_eq!(store.receipt("console", "ev1").unwrap(), None);
    assert_eq!(
        store.receipt("rooms", "ev1").unwrap().as_deref(),
        Some("elsewhere")
    );
}

/// A game made and finished by one request is filed at once, only from a free channel.
fn files_a_finished_game_at_once(store: &dyn GameStore, third: &ChannelKey) {
    // A game made and finished by one request goes straight to the archive, and only from
    // a channel with no live game.
    let fourth = ChannelKey::new("console", "fourth");
    let mut quick = record(store, "fourth");
    quick.status = Status::Finished;
    let file = Change::Archive {
        expected: None,
        record: quick.clone(),
    };
    assert_eq!(
        store.commit(third, Some(&file), &[]),
        Err(StoreError::Conflict)
    );
    store.commit(&fourth, Some(&file), &[]).unwrap();
    assert_eq!(store.load(&fourth).unwrap(), None);
    assert_eq!(store.archived(&quick.id).unwrap(), Some(quick));
}

/// A player's live games are those of one platform only (`game` is one of alice's there).
fn lists_a_players_live_games(store: &dyn GameStore, game: &GameRecord) {
    // A player's live games, on one platform only.
    let elsewhere = ChannelKey::new("rooms", "third");
    let mut there = record(store, "third");
    there.platform = "rooms".into();
    store.create(&elsewhere, &there).unwrap();
    let live: Vec<String> = store
        .live_games_of("console", "alice")
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    assert!(live.contains(&game.id), "{live:?}");
    assert!(!live.contains(&there.id), "{live:?}");
    assert!(store.live_games_of("console", "carol").unwrap().is_empty());
}

/// A game of another platform is among a player's live games where he plays it from its
/// place, and among the games played in two places; its channel and record.
fn lists_games_played_across(store: &dyn GameStore) -> (ChannelKey, GameRecord) {
    // ... and a game of another platform played from its place on this one.
    let across = ChannelKey::new("rooms", "across");
    let mut both = record(store, "across");
    both.platform = "rooms".into();
    both.seats[0].player = Some(Player {
        id: "erin".into(),
        name: "erin".into(),
    });
    both.seats[1].player = Some(Player {
        id: "dora".into(),
        name: "dora".into(),
    });
    both.away = Some(Away {
        platform: "console".into(),
        channel: Some("place".into()),
        players: vec!["dora".into()],
        parent: None,
    });
    store.create(&across, &both).unwrap();
    let ids = |platform: &str, who: &str| -> Vec<String> {
        let mut ids: Vec<String> = store
            .live_games_of(platform, who)
            .unwrap()
            .into_iter()
            .map(|r| r.id)
            .collect();
        ids.sort();
        ids
    };
    assert_eq!(ids("console", "dora"), vec![both.id.clone()]);
    assert!(ids("rooms", "dora").is_empty());
    assert_eq!(ids("rooms", "erin"), vec![both.id.clone()]);
    assert!(ids("console", "erin").is_empty());
    let away: Vec<String> = store
        .away_games()
        .unwrap()
        .into_iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(away, vec![both.id.clone()]);
    (across, both)
}

/// A platform's live games are its channels' only; a game archived is no longer played across.
fn lists_a_platforms_live_games(store: &dyn GameStore, across: &ChannelKey, both: &GameRecord) {
    // The live games of a platform: its channels' only.
    let of = |platform: &str| {
        let mut ids: Vec<String> = store
            .live_games(platform)
            .unwrap()
            .into_iter()
            .map(|r| r.id)
            .collect();
        ids.sort();
        ids
    };
    assert!(of("rooms").contains(&both.id), "{:?}", of("rooms"));
    assert!(!of("console").contains(&both.id));
    assert!(of("nowhere").is_empty());
    let mut over = both.clone();
    over.version += 1;
    over.status = Status::Finished;
    store.archive(across, both.version, &over).unwrap();
    assert!(store.away_games().unwrap().is_empty());
}

/// Timed games are listed wherever they are.
fn lists_timed_games(store: &dyn GameStore) {
    // Timed games, wherever they are.
    assert!(store.timed_games().unwrap().is_empty());
    let fifth = ChannelKey::new("rooms", "fifth");
    let mut timed = record(store, "fifth");
    timed.platform = "rooms".into();
    timed.clock = time::control::Control::parse("3d").unwrap();
    store.create(&fifth, &timed).unwrap();
    assert_eq!(store.timed_games().unwrap(), vec![timed]);
}

/// Of many writers racing from one version of a game, exactly one is applied; the others are
/// told of the conflict and nothing of theirs is kept. `store` must be empty.
pub fn races_have_one_winner(store: &(dyn GameStore + Sync)) {
    for round in 0..5 {
        let channel = format!("race{round}");
        let key = ChannelKey::new("console", &channel);
        let base = record(store, &channel);
        store.create(&key, &base).unwrap();
        let won: Vec<bool> = std::thread::scope(|s| {
            let writers: Vec<_> = (0..8)
                .map(|w| {
                    let (key, base) = (&key, &base);
                    s.spawn(move || {
                        let mut mine = base.clone();
                        mine.moves.push(format!("w{w}"));
                        mine.version += 1;
                        let kept = format!("ev{round}-{w}");
                        let change = Change::Update {
                            expected: base.version,
                            record: mine,
                        };
                        match store.commit(key, Some(&change), &[(&key.platform, &kept, "done")]) {
                            Ok(()) => true,
                            Err(StoreError::Conflict) => false,
                            Err(e) => panic!("a racing write failed otherwise: {e}"),
                        }
                    })
                })
                .collect();
            writers.into_iter().map(|w| w.join().unwrap()).collect()
        });
        assert_eq!(won.iter().filter(|w| **w).count(), 1, "{won:?}");
        let winner = won.iter().position(|w| *w).unwrap();
        let stored = store.load(&key).unwrap().unwrap();
        assert_eq!(stored.moves, vec![format!("w{winner}")]);
        // Only the winner's receipt was kept with its change.
        for w in 0..8 {
            let kept = store.receipt("console", &format!("ev{round}-{w}")).unwrap();
            assert_eq!(kept.is_some(), w == winner, "writer {w}");
        }
    }
}

/// Everything in `from` copied into the empty `to` reads back entry for entry, and `to` then
/// gives new games ids that none of the copied games has. `from` must hold the contract's
/// games ([`keeps_the_contract`]).
pub fn copies_whole(from: &dyn GameStore, to: &dyn GameStore) {
    let entries = from.entries().unwrap();
    for tree in ["live", "archive", "by_player", "notes", "receipts"] {
        assert!(entries.iter().any(|e| e.tree == tree), "no {tree} to copy");
    }
    to.import(&entries, false).unwrap();
    assert_eq!(to.entries().unwrap(), entries);
    let ids = from.archive_ids().unwrap();
    for _ in 0..3 {
        let id = to.next_id().unwrap();
        assert!(!ids.contains(&id), "{id} given again");
        assert!(to.archived(&id).unwrap().is_none());
    }
    // The copies answer as the original does.
    assert_eq!(
        to.games_of("alice").unwrap(),
        from.games_of("alice").unwrap()
    );
    assert_eq!(to.timed_games().unwrap(), from.timed_games().unwrap());
    assert_eq!(to.live_count().unwrap(), from.live_count().unwrap());
    // Copying again with `replace` leaves exactly the copy, not twice the games.
    to.import(&entries, true).unwrap();
    assert_eq!(to.entries().unwrap(), entries);
}

/// A lease has one holder at a time; it lapses at its expiry, and goes at once when let go.
/// `store` must be empty.
pub fn leases_have_one_holder(store: &(dyn GameStore + Sync)) {
    use super::lease::{Held, Lease};
    let key = ChannelKey::new("rooms", "");
    let a = Lease::new(key.clone(), "sync", "host-a/1/1", 10);
    let b = Lease::new(key.clone(), "sync", "host-b/2/2", 10);
    assert_eq!(a.take(store, 100).unwrap(), Some(110));
    assert_eq!(b.take(store, 105).unwrap(), None);
    let held = Held {
        holder: "host-a/1/1".into(),
        until: 110,
    };
    assert_eq!(b.holder(store, 105).unwrap(), Some(held));
    // Renewed by its holder; lapsed when not renewed.
    assert_eq!(a.take(store, 106).unwrap(), Some(116));
    assert_eq!(b.take(store, 115).unwrap(), None);
    assert_eq!(a.holder(store, 116).unwrap(), None);
    assert_eq!(b.take(store, 116).unwrap(), Some(126));
    assert_eq!(a.take(store, 117).unwrap(), None);
    // Let go, it is free at once; another's lease is not let go by a stranger.
    a.release(store).unwrap();
    assert_eq!(a.take(store, 118).unwrap(), None);
    b.release(store).unwrap();
    assert_eq!(a.take(store, 118).unwrap(), Some(128));
    // Of many taking a free lease at once, one has it.
    let other = ChannelKey::new("rooms", "other");
    let taken: Vec<bool> = std::thread::scope(|s| {
        let takers: Vec<_> = (0..8)
            .map(|n| {
                let other = &other;
                s.spawn(move || {
                    let lease = Lease::new(other.clone(), "sync", &format!("host/{n}/0"), 10);
                    lease.take(store, 200).unwrap().is_some()
                })
            })
            .collect();
        takers.into_iter().map(|t| t.join().unwrap()).collect()
    });
    assert_eq!(taken.iter().filter(|t| **t).count(), 1, "{taken:?}");
}
