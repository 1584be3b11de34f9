//! A command storm through the core: thousands of random commands from random people —
//! seated or not, on their turn or not, and garbage — over dozens of channels. After each one:
//! only the player of the seat to move added a decision, only the two sides of a game took one
//! back or ended it, no other channel changed, every stored record replays, every reply is one
//! a person can read, and every board draws as a PNG. Seeded, so that a failure repeats.

use std::collections::BTreeMap;
use std::sync::Arc;

use muster_core::desk::{Core, Reply, User};
use muster_core::kernel::replayable::Replayable;
use muster_core::store::{ChannelKey, GameRecord, MemoryStore, Status};
use muster_core::store::{Lists, Live};
use muster_rules::search::Rng;

/// One of `items`, chosen by `rng` (seeded, so that a failing storm repeats).
fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> &'a T {
    &items[rng.below(items.len())]
}

const PEOPLE: [&str; 7] = ["ann", "bob", "cat", "dan", "eve", "fay", "gus"];
const GAMES: [&str; 6] = [
    "lanrick",
    "lanrick1880",
    "croquet",
    "lanko88",
    "lanko68",
    "lanko103",
];
const SETUP_1880: &str = "W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7";

/// Commands that change nothing by themselves, or ask something.
const WORDS: [&str; 22] = [
    "board",
    "moves",
    "history",
    "export",
    "hint",
    "help",
    "help move",
    "rules lanko68",
    "notation croquet",
    "games",
    "rating",
    "leaderboard lanrick",
    "draw",
    "draw accept",
    "draw decline",
    "takeback",
    "takeback accept",
    "takeback decline",
    "resign",
    "abort",
    "join",
    "decline",
];

/// Text nobody meant as a command.
fn garbage(rng: &mut Rng) -> String {
    const PIECES: [&str; 16] = [
        "move",
        "z9",
        "a1-",
        "--",
        "@",
        "✓",
        "\u{202e}",
        "new",
        " ",
        "9999999999999999999",
        "\t",
        "x",
        "c1-c3 d1-e2",
        "*",
        "tournament",
        "'",
    ];
    (0..rng.below(6))
        .map(|_| *pick(rng, &PIECES))
        .collect::<Vec<_>>()
        .join(if rng.below(2) == 0 { " " } else { "" })
}

/// What a player of `record` might send: mostly a decision (listed or not), sometimes
/// anything else.
fn command(rng: &mut Rng, record: Option<&GameRecord>) -> String {
    match (rng.below(10), record) {
        (0..=4, Some(r)) if r.status == Status::Active => {
            let Ok(game) = r.rebuild() else {
                return "board".into();
            };
            let listed = game.legal_moves_text();
            if rng.below(8) == 0 {
                return format!("move {}", garbage(rng));
            }
            if listed.is_empty() {
                return format!("move {SETUP_1880}");
            }
            format!("move {}", pick(rng, &listed))
        }
        (5, _) | (0..=4, None) => {
            let game = *pick(rng, &GAMES);
            let seats = if game.starts_with("lanko") { 3 } else { 1 };
            let named: Vec<String> = (0..seats)
                .map(|_| format!("@{}", pick(rng, &PEOPLE)))
                .collect();
            format!("new {game} {}", named.join(" "))
        }
        (6, _) => "accept".into(),
        (7, _) => garbage(rng),
        _ => (*pick(rng, &WORDS)).to_string(),
    }
}

/// Every channel's live record.
fn live(store: &MemoryStore, channels: &[String]) -> BTreeMap<String, Option<GameRecord>> {
    channels
        .iter()
        .map(|c| {
            let key = ChannelKey::new("console", c);
            (c.clone(), store.load(&key).expect("the store reads"))
        })
        .collect()
}

/// The id of the player whose decision the game waits on.
fn to_move(record: &GameRecord) -> Option<String> {
    let game = record.rebuild().ok()?;
    let seat = game.to_move()?;
    record.player(seat.index()).map(|p| p.id.clone())
}

/// Checks one command's effect on its channel's game.
fn check_change(
    store: &MemoryStore,
    who: &str,
    text: &str,
    before: Option<&GameRecord>,
    after: Option<&GameRecord>,
) {
    let ctx = format!("{who}: {text:?}");
    if let Some(after) = after {
        after
            .rebuild()
            .unwrap_or_else(|e| panic!("{ctx}: the stored record does not replay: {e:?}"));
    }
    let Some(before) = before else { return };
    // The game as it stands now: the live one, or the same game archived.
    let now = match after {
        Some(a) if a.id == before.id => a.clone(),
        _ => match store.archived(&before.id).expect("the archive reads") {
            Some(a) => a,
            // Not started yet, so not kept: only its seats could call it off.
            None => {
                assert!(
                    before.is_player(who) && before.started.is_none(),
                    "{ctx}: game {} vanished",
                    before.id
                );
                return;
            }
        },
    };
    now.rebuild()
        .unwrap_or_else(|e| panic!("{ctx}: the record of {} does not replay: {e:?}", now.id));
    if now.moves == before.moves && now.status == before.status {
        return;
    }
    assert!(
        before.is_player(who),
        "{ctx}: {who}, not a player, changed game {} ({:?} → {:?})",
        before.id,
        before.moves.len(),
        now.moves.len()
    );
    if now.moves.len() > before.moves.len() {
        assert!(
            now.moves.starts_with(&before.moves),
            "{ctx}: earlier decisions changed"
        );
        assert_eq!(
            to_move(before).as_deref(),
            Some(who),
            "{ctx}: a decision by someone the game did not wait on"
        );
        assert!(
            text.starts_with("move"),
            "{ctx}: a decision from a non-move"
        );
    } else if now.moves.len() < before.moves.len() {
        assert!(
            before.moves.starts_with(&now.moves),
            "{ctx}: a takeback changed earlier decisions"
        );
        assert!(text.starts_with("takeback"), "{ctx}: decisions removed");
    }
}

/// Every reply is one a person can read, and every board draws.
fn check_replies(ctx: &str, prefixed: bool, replies: &[Reply]) -> usize {
    assert!(!replies.is_empty() || !prefixed, "{ctx}: no answer");
    let mut boards = 0;
    for r in replies {
        match r {
            Reply::Text(t) | Reply::Private(t) | Reply::Mention { text: t, .. } => {
                assert!(!t.trim().is_empty(), "{ctx}: an empty message");
                assert!(
                    !t.contains("Err(") && !t.contains("Some(") && !t.contains("StoreError"),
                    "{ctx}: internals shown: {t}"
                );
            }
            Reply::Board(b) => {
                let drawn = b
                    .drawn()
                    .unwrap_or_else(|e| panic!("{ctx}: a board does not draw: {e}"));
                assert!(drawn.png.starts_with(b"\x89PNG") || drawn.png.starts_with(b"GIF8"));
                boards += 1;
            }
            _ => {}
        }
    }
    boards
}

fn storm(seed: u64, commands: usize, channels: usize) {
    let mut rng = Rng::new(seed);
    let store = Arc::new(MemoryStore::default());
    let core = Core::new(store.clone(), "!");
    let channels: Vec<String> = (0..channels).map(|i| format!("c{i}")).collect();
    let mut state = live(&store, &channels);
    let (mut moved, mut boards, mut refused) = (0, 0, 0);
    for n in 0..commands {
        let channel = pick(&mut rng, &channels).clone();
        let record = state[&channel].clone();
        // Mostly the player the game waits on, or one who has still to accept; often another
        // player or a stranger.
        let waiting = record.as_ref().and_then(|r| {
            if r.started.is_none() {
                let ids = r.player_ids();
                (!ids.is_empty()).then(|| ids[rng.below(ids.len())].clone())
            } else {
                to_move(r)
            }
        });
        let who = match (rng.below(3), waiting) {
            (0 | 1, Some(p)) => p,
            _ => (*pick(&mut rng, &PEOPLE)).to_string(),
        };
        let unstarted = record.as_ref().is_some_and(|r| r.started.is_none());
        let text = if unstarted && rng.below(2) == 0 {
            "accept".to_string()
        } else {
            command(&mut rng, record.as_ref())
        };
        // Mostly with the prefix; a decision sometimes bare, as chat.
        let bare = text.starts_with("move ") && rng.below(4) == 0;
        let message = if bare {
            text["move ".len()..].to_string()
        } else {
            format!("!{text}")
        };
        let mentions: Vec<User> = text
            .split_whitespace()
            .filter_map(|w| w.strip_prefix('@'))
            .map(User::named)
            .collect();
        let ctx = format!("seed {seed}, command {n} in {channel}, {who}: {message:?}");
        let replies =
            core.handle_message("console", &channel, &User::named(&who), &message, &mentions);
        boards += check_replies(&ctx, !bare, &replies);
        if replies.iter().any(|r| matches!(r, Reply::Private(_))) {
            refused += 1;
        }
        let after = live(&store, &channels);
        for c in &channels {
            if *c != channel {
                assert_eq!(after[c], state[c], "{ctx}: channel {c} changed");
            }
        }
        check_change(
            &store,
            &who,
            &text,
            state[&channel].as_ref(),
            after[&channel].as_ref(),
        );
        if let (Some(a), Some(b)) = (&after[&channel], &state[&channel])
            && a.moves.len() > b.moves.len()
        {
            moved += 1;
        }
        state = after;
    }
    // The storm did what it is for: games were played, boards drawn, wrong commands refused.
    assert!(moved > commands / 10, "only {moved} decisions");
    assert!(boards > commands / 10, "only {boards} boards");
    assert!(refused > commands / 10, "only {refused} refusals");
    // Every game kept, live or finished, replays.
    let finished = store.archive_ids().expect("the archive reads");
    eprintln!(
        "storm {seed:#x}: {commands} commands in {} channels: {moved} decisions, {} games \
         finished, {boards} boards drawn, {refused} refused privately",
        channels.len(),
        finished.len()
    );
    for id in finished {
        let record = store.archived(&id).expect("reads").expect("listed");
        record
            .rebuild()
            .unwrap_or_else(|e| panic!("archived {id} does not replay: {e:?}"));
    }
}

#[test]
fn a_storm_of_random_commands_changes_only_what_the_rules_allow() {
    storm(0x5eed_0001, 1600, 24);
}

#[test]
fn a_second_storm_over_few_channels_crowds_each_game() {
    storm(0x5eed_0002, 1200, 6);
}
