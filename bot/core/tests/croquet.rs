//! Arithmetical Croquet through the core: games between people and against the bot at each
//! level, hints, takebacks and draw offers to the bot.

use std::sync::Arc;

use muster_core::desk::{Core, Reply};
use muster_core::store::{ChannelKey, MemoryStore};
use muster_rules::croquet::solve;
use muster_rules::{AnyGame, GameId};

use common::say;
use muster_core::kernel::replayable::Replayable;
use muster_core::store::{Lists, Live};
use muster_core::testing as common;

fn texts(replies: &[Reply]) -> String {
    replies
        .iter()
        .filter_map(|r| match r {
            Reply::Text(t) => Some(format!("T:{t}")),
            Reply::Private(t) => Some(format!("P:{t}")),
            Reply::Mention { user, text } => Some(format!("M:{}:{text}", user.id)),
            Reply::Board(b) => Some(format!("B:{}", b.name())),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Plays perfect steps for `user` until the game in `channel` ends; returns the last replies.
fn play_out(core: &Core, store: &MemoryStore, user: &str, channel: &str) -> String {
    let key = ChannelKey::new("console", channel);
    let mut last = String::new();
    for _ in 0..200 {
        let Some(record) = store.load(&key).unwrap() else {
            return last;
        };
        let AnyGame::Croquet(g) = record.rebuild().unwrap() else {
            panic!("a croquet game")
        };
        let (_, best) = solve::analyse(&g);
        last = texts(&say(core, user, channel, &format!("move {}", best[0].0)));
        assert!(!last.contains("P:"), "{last}");
    }
    panic!("the game did not end");
}

#[test]
fn a_perfect_player_beats_every_level_of_the_bot_from_the_opening() {
    // The opening is a win for White (docs/rules/croquet.md), so perfect White beats any Black.
    for level in ["easy", "good", "perfect"] {
        let store = Arc::new(MemoryStore::default());
        let core = Core::new(store.clone(), "!");
        let t = texts(&say(
            &core,
            "alice",
            level,
            &format!("new croquet bot:{level}"),
        ));
        assert!(
            t.contains(&format!("Muster ({level}) plays Black")) && t.contains("The game begins"),
            "{t}"
        );
        let last = play_out(&core, &store, "alice", level);
        assert!(
            last.contains("alice wins the game!")
                && last.contains("Game over: alice (White) wins."),
            "{level}: {last}"
        );
        assert_eq!(store.games_of("alice").unwrap().len(), 1);
    }
}

#[test]
fn the_perfect_bot_as_white_beats_a_player_who_errs() {
    // `bot` alone is `good` in Croquet too (a newcomer's first game can be won): the
    // perfect bot is `bot:strong`.
    let store = Arc::new(MemoryStore::default());
    let core = Core::new(store.clone(), "!");
    // Alice takes Black: the bot opens at once.
    let t = texts(&say(&core, "alice", "c", "new croquet bot:strong as black"));
    assert!(t.contains("Muster (perfect) plays 1: 0 → 1."), "{t}");
    let key = ChannelKey::new("console", "c");
    let mut last = String::new();
    for _ in 0..200 {
        let Some(record) = store.load(&key).unwrap() else {
            break;
        };
        let AnyGame::Croquet(g) = record.rebuild().unwrap() else {
            panic!()
        };
        let step = g.legal_steps()[0];
        last = texts(&say(&core, "alice", "c", &format!("move {}", step.0)));
    }
    assert!(
        last.contains("Game over: Muster (perfect) (White) wins."),
        "{last}"
    );
}

#[test]
fn hints_name_the_best_step_only_against_the_bot() {
    let store = Arc::new(MemoryStore::default());
    let core = Core::new(store.clone(), "!");
    say(&core, "alice", "c", "new croquet bot");
    let t = texts(&say(&core, "alice", "c", "hint"));
    assert_eq!(
        t,
        "P:Hint: `!move 1` — alice plays 1: 0 → 1. With it you can force a win, whatever the bot does."
    );
    // Between people, no hints in a rated game; in a casual one they are given.
    say(&core, "alice", "p", "new croquet @bob");
    say(&core, "bob", "p", "accept");
    assert!(
        texts(&say(&core, "alice", "p", "hint"))
            .contains("Hints are given in games against the bot and in casual games")
    );
    say(&core, "alice", "q", "new croquet @bob casual");
    say(&core, "bob", "q", "accept");
    assert_eq!(
        texts(&say(&core, "alice", "q", "hint")),
        "P:Hint: `!move 1` — alice plays 1: 0 → 1. With it you can force a win, whatever your opponent does."
    );
    // A level the bot does not have is named with those it has.
    assert!(
        texts(&say(&core, "carol", "x", "new croquet bot:grandmaster"))
            .contains("the levels are easy, good and strong (perfect, in Croquet)")
    );
}

#[test]
fn the_bot_allows_takebacks_and_declines_draws() {
    let store = Arc::new(MemoryStore::default());
    let core = Core::new(store.clone(), "!");
    say(&core, "alice", "c", "new croquet bot:easy");
    let t = texts(&say(&core, "alice", "c", "move 5"));
    assert!(
        t.contains("alice plays 5: 0 → 5.") && t.contains("Muster (easy) plays"),
        "{t}"
    );
    let t = texts(&say(&core, "alice", "c", "takeback"));
    assert!(
        t.contains("Muster agrees") && t.contains("M:alice:your turn (White)"),
        "{t}"
    );
    let record = store
        .load(&ChannelKey::new("console", "c"))
        .unwrap()
        .unwrap();
    assert!(
        record.moves.is_empty(),
        "back to the start: {:?}",
        record.moves
    );
    assert!(texts(&say(&core, "alice", "c", "draw")).contains("Muster declines the draw"));
    // Croquet errors are the rules' own words.
    let t = texts(&say(&core, "alice", "c", "move -2"));
    assert!(
        t.contains("a back step is played only to return below a missed hoop"),
        "{t}"
    );
    let _ = GameId::Croquet;
}

#[test]
fn people_play_croquet_with_bars_shown_to_the_player_to_move() {
    let store = Arc::new(MemoryStore::default());
    let core = Core::new(store, "!");
    say(&core, "alice", "c", "new croquet @bob");
    say(&core, "bob", "c", "accept");
    say(&core, "alice", "c", "move 2");
    let t = texts(&say(&core, "bob", "c", "move 7"));
    assert!(
        t.contains("P:`7` is not legal: 2 and 7 are barred this turn by White's last step (C-6)."),
        "{t}"
    );
    let t = texts(&say(&core, "bob", "c", "board"));
    assert!(t.contains("2 and 7 are barred"), "{t}");
}
