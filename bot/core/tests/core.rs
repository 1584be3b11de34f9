//! The command core through its public interface, on the in-memory and sled stores: whole
//! games, seating, permissions, offers, takebacks, damaged records and racing moves.

use std::sync::Arc;

use muster_core::desk::{Core, Reply, User};
use muster_core::store::{ChannelKey, GameStore, MemoryStore, SledStore, Status};

const WHOLE_GAME: &str = include_str!("../../../docs/examples/lanrick-whole-game.txt");

use common::{request, say};
use muster_core::store::{Lists, Live};
use muster_core::testing as common;

fn texts(replies: &[Reply]) -> String {
    replies
        .iter()
        .map(|r| match r {
            Reply::Text(t) => format!("T:{t}"),
            Reply::Private(t) => format!("P:{t}"),
            Reply::Mention { user, text } => format!("M:{}:{text}", user.id),
            Reply::Board(b) => format!("B:{}", b.name()),
            Reply::Buttons(b) => format!(
                "K:{}",
                b.iter()
                    .map(|b| b.command.as_str())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            Reply::File { name, .. } => format!("F:{name}"),
            Reply::Link { kind, url } => format!("L:{}:{url}", kind.word()),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn moves() -> Vec<&'static str> {
    WHOLE_GAME
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

fn started(store: Arc<dyn GameStore>) -> Core {
    let core = Core::new(store, "!");
    let out = say(&core, "alice", "general", "new lanrick @bob");
    assert!(
        texts(&out).contains("M:bob:alice challenges you"),
        "{}",
        texts(&out)
    );
    let out = say(&core, "bob", "general", "accept");
    let t = texts(&out);
    assert!(
        t.contains("The game begins: alice (White) vs bob (Black)"),
        "{t}"
    );
    assert!(
        t.contains("B:") && t.contains("M:alice:your turn (White)"),
        "{t}"
    );
    core
}

/// Plays the whole example game; returns the replies to the last move.
fn play_whole_game(core: &Core) -> Vec<Reply> {
    let mut last = Vec::new();
    let mut turn = "alice";
    for m in moves() {
        last = say(core, turn, "general", &format!("move {m}"));
        let t = texts(&last);
        assert!(!t.contains("P:"), "`{m}` by {turn}: {t}");
        // The next player is named in a mention.
        turn = if t.contains("M:alice:") {
            "alice"
        } else {
            "bob"
        };
    }
    last
}

#[test]
fn a_whole_game_is_played_announced_and_archived() {
    let store = Arc::new(MemoryStore::default());
    let core = started(store.clone());
    let last = play_whole_game(&core);
    let t = texts(&last);
    assert!(
        t.contains("alice has taken four men and wins the game!"),
        "{t}"
    );
    assert!(t.contains("Game over: alice (White) wins."), "{t}");
    // Every accepted move came with a board image.
    assert!(last.iter().any(
        |r| matches!(r, Reply::Board(b) if b.drawn().is_ok_and(|d| d.png.starts_with(b"\x89PNG")))
    ));
    // The channel is free, and the game is archived for both players.
    assert_eq!(
        store.load(&ChannelKey::new("console", "general")).unwrap(),
        None
    );
    let games = store.games_of("bob").unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].status, Status::Finished);
    assert_eq!(games[0].moves.len(), 104);
    // The export replays to the same result.
    let out = say(&core, "bob", "general", "export");
    let content = out
        .iter()
        .find_map(|r| {
            if let Reply::File { content, .. } = r {
                Some(content.clone())
            } else {
                None
            }
        })
        .unwrap();
    let replay = muster_core::machine::replay(muster_rules::GameId::Lanrick, &content);
    assert_eq!((replay.applied, replay.error.clone()), (104, None));
    assert_eq!(
        replay.to_json()["result"],
        serde_json::json!({"winner": "white"})
    );
    let out = say(&core, "bob", "general", "games");
    assert!(
        texts(&out).contains("alice vs bob — white won, 104 moves"),
        "{}",
        texts(&out)
    );
}

#[test]
fn only_the_seat_to_move_may_move_and_only_players_may_resign() {
    let core = started(Arc::new(MemoryStore::default()));
    assert_eq!(
        texts(&say(&core, "bob", "general", "move a1")),
        "P:It is alice (White)'s decision, not yours."
    );
    assert_eq!(
        texts(&say(&core, "carol", "general", "move a1")),
        "P:You are not playing in this game; you can watch it with `board`."
    );
    assert!(texts(&say(&core, "carol", "general", "resign")).starts_with("P:You are not playing"));
    assert!(texts(&say(&core, "carol", "general", "draw")).starts_with("P:You are not playing"));
    assert!(
        texts(&say(&core, "carol", "general", "takeback")).starts_with("P:You are not playing")
    );
    // Anyone may look.
    assert!(texts(&say(&core, "carol", "general", "board")).contains("B:"));
    assert!(
        texts(&say(&core, "carol", "general", "moves"))
            .contains("T:alice (White) has 28 legal moves (placement):")
    );
    // A rule error is specific and private; nothing is played.
    let t = texts(&say(&core, "alice", "general", "move d4"));
    assert!(
        t.starts_with("P:`d4` is not legal: d4 is in the field"),
        "{t}"
    );
    let t = texts(&say(&core, "alice", "general", "move z9"));
    assert!(t.starts_with("P:`z9`: not a square"), "{t}");
    assert_eq!(
        texts(&say(&core, "carol", "general", "history")),
        "T:No moves yet."
    );
    // One live game per channel.
    assert!(
        texts(&say(&core, "carol", "general", "new lanrick"))
            .contains("This channel already has a game")
    );
}

#[test]
fn seats_open_challenges_decline_and_abort() {
    let store = Arc::new(MemoryStore::default());
    let core = Core::new(store.clone(), "!");
    let t = texts(&say(&core, "alice", "general", "new lanrick as black"));
    assert!(t.contains("White is open, alice plays Black"), "{t}");
    assert_eq!(
        texts(&say(&core, "alice", "general", "join")),
        "P:You already have a seat at this game."
    );
    assert!(
        texts(&say(&core, "alice", "general", "move a1")).starts_with("P:The game has not started")
    );
    let t = texts(&say(&core, "carol", "general", "join"));
    assert!(
        t.contains("carol takes the White seat") && t.contains("M:carol:your turn (White)"),
        "{t}"
    );
    assert!(texts(&say(&core, "dave", "general", "abort")).starts_with("P:Only a player"));
    assert!(texts(&say(&core, "alice", "general", "abort")).contains("called the game off"));
    assert_eq!(store.games_of("carol").unwrap().len(), 1);
    // A declined challenge frees the channel.
    say(&core, "alice", "general", "new lanrick @bob");
    assert_eq!(
        texts(&say(&core, "carol", "general", "decline")),
        "P:There is no challenge to you in this channel."
    );
    // The challenger is pointed to `abort`, and the challenge stands.
    let t = texts(&say(&core, "alice", "general", "decline"));
    assert!(
        t.starts_with("P:You made this challenge") && t.contains("`!abort`"),
        "{t}"
    );
    assert!(texts(&say(&core, "bob", "general", "decline")).contains("bob declines"));
    assert!(texts(&say(&core, "bob", "general", "new lanrick @alice")).contains("New game"));
    // After the first move a game cannot be aborted.
    say(&core, "alice", "general", "accept");
    say(&core, "bob", "general", "move a1");
    assert!(texts(&say(&core, "bob", "general", "abort")).contains("The game has started"));
}

#[test]
fn draws_and_takebacks_need_the_opponents_consent() {
    let core = started(Arc::new(MemoryStore::default()));
    say(&core, "alice", "general", "move a8");
    say(&core, "bob", "general", "move a1");
    // Takeback: asked by one, answered by the other.
    assert!(
        texts(&say(&core, "bob", "general", "takeback"))
            .contains("asks to take back the last move, `a1`")
    );
    assert!(
        texts(&say(&core, "bob", "general", "takeback accept"))
            .contains("Your side has already asked")
    );
    let t = texts(&say(&core, "alice", "general", "takeback accept"));
    assert!(
        t.contains("`a1` is taken back") && t.contains("M:bob:your turn (Black)"),
        "{t}"
    );
    assert_eq!(
        texts(&say(&core, "bob", "general", "history")),
        "T:Moves of game g1 (1):\n  1. White a8"
    );
    // Draw: offered, declined, withdrawn by a move, accepted.
    say(&core, "bob", "general", "draw");
    assert!(texts(&say(&core, "alice", "general", "draw decline")).contains("declines the draw"));
    say(&core, "bob", "general", "draw");
    say(&core, "bob", "general", "move h1");
    assert!(
        texts(&say(&core, "alice", "general", "draw accept")).contains("No draw has been offered")
    );
    say(&core, "alice", "general", "draw");
    let t = texts(&say(&core, "bob", "general", "draw"));
    assert!(
        t.contains("bob accepts the draw") && t.contains("Game over: Drawn by agreement."),
        "{t}"
    );
}

#[test]
fn the_channels_game_is_exported_by_its_id_as_without_one() {
    let core = started(Arc::new(MemoryStore::default()));
    say(&core, "alice", "general", "move a8");
    let by_id = say(&core, "carol", "general", "export g1");
    let plain = say(&core, "carol", "general", "export");
    assert!(
        by_id.iter().any(|r| matches!(r, Reply::File { .. })),
        "{by_id:?}"
    );
    assert_eq!(texts(&by_id), texts(&plain));
    // The chat's words name no command-line tool, which a chat user does not have.
    assert!(
        texts(&plain).contains("The record of game g1, one decision per line"),
        "{plain:?}"
    );
    assert!(!texts(&plain).contains("muster "), "{plain:?}");
    assert!(
        texts(&say(&core, "carol", "general", "export g7"))
            .contains("There is no finished game `g7`")
    );
}

#[test]
fn a_player_exports_and_replays_his_running_game_from_another_channel_and_no_one_else_can() {
    let core = started(Arc::new(MemoryStore::default()));
    say(&core, "alice", "general", "move a8");
    let file = |replies: &[Reply]| {
        replies.iter().find_map(|r| match r {
            Reply::File { content, .. } => Some(content.clone()),
            _ => None,
        })
    };
    // In the game's channel, and by its id from another: the same record, the result still open.
    let here = file(&say(&core, "carol", "general", "export g1")).expect("exported in its channel");
    let elsewhere = core.handle(&request("bob", "lounge", "export g1"));
    assert_eq!(
        file(&elsewhere).as_deref(),
        Some(here.as_str()),
        "{elsewhere:?}"
    );
    assert!(here.contains("# Result: *"), "{here}");
    assert!(here.contains("a8"), "{here}");
    let replayed = texts(&core.handle(&request("alice", "lounge", "replay g1")));
    assert!(replayed.contains("The replay of g1"), "{replayed}");
    // Someone who does not play in it sees it only in its channel (which may be private).
    for text in ["export g1", "replay g1"] {
        let refused = texts(&core.handle(&request("carol", "lounge", text)));
        assert!(
            refused.starts_with("P:There is no finished game `g1`, nor a game of yours"),
            "{text}: {refused}"
        );
    }
}

#[test]
fn resigning_ends_the_game() {
    let core = started(Arc::new(MemoryStore::default()));
    say(&core, "alice", "general", "move a8");
    let t = texts(&say(&core, "alice", "general", "resign"));
    assert!(
        t.contains("alice (White) resigns.")
            && t.contains("Game over: bob (Black) wins by resignation."),
        "{t}"
    );
    assert!(
        texts(&say(&core, "alice", "general", "board"))
            .contains("There is no game in this channel")
    );
}

#[test]
fn a_bare_move_in_chat_is_played_and_other_chat_ignored() {
    let core = started(Arc::new(MemoryStore::default()));
    let alice = User::named("alice");
    assert!(
        core.handle_message("console", "general", &alice, "hello there", &[])
            .is_empty()
    );
    let t = texts(&core.handle_message("console", "general", &alice, "a8", &[]));
    assert!(t.contains("alice placed a man on a8"), "{t}");
    // Not alice's turn now: a bare move is not taken as a command.
    assert!(
        core.handle_message("console", "general", &alice, "c8", &[])
            .is_empty()
    );
    let t = texts(&core.handle_message("console", "general", &alice, "!help", &[]));
    assert!(t.starts_with("P:Muster plays"), "{t}");
}

#[test]
fn a_near_miss_from_the_player_to_move_is_answered_privately_with_a_legal_example() {
    let core = started(Arc::new(MemoryStore::default()));
    let (alice, bob) = (User::named("alice"), User::named("bob"));
    for near in ["a2a3", "c 1", "5"] {
        let out = core.handle_message("console", "general", &alice, near, &[]);
        let [Reply::Private(t)] = out.as_slice() else {
            panic!("`{near}`: {out:?}");
        };
        assert!(t.contains(&format!("`{near}`")), "{t}");
        assert!(
            t.contains("place a man on an empty border square, e.g. `!move "),
            "{t}"
        );
    }
    // Chat stays unanswered, and so does a near miss from the player not to move.
    for chat in ["hello", "lol 5", "see you at 10"] {
        assert!(
            core.handle_message("console", "general", &alice, chat, &[])
                .is_empty(),
            "{chat}"
        );
    }
    assert!(
        core.handle_message("console", "general", &bob, "a2a3", &[])
            .is_empty()
    );
}

#[test]
fn a_tournament_word_said_on_its_own_is_told_its_full_form() {
    let core = started(Arc::new(MemoryStore::default()));
    for (word, full) in [
        ("standings", "tournament standings"),
        ("pairings 2", "tournament pairings 2"),
        ("list", "tournament list"),
    ] {
        let t = texts(&say(&core, "alice", "general", word));
        assert!(t.contains(&format!("say `{full}`")), "{word}: {t}");
    }
}

#[test]
fn a_damaged_record_breaks_its_channel_only() {
    let store = Arc::new(MemoryStore::default());
    let core = started(store.clone());
    core.handle(&request("carol", "other", "new lanrick @dave"));
    store.put_raw(
        &ChannelKey::new("console", "general"),
        b"{\"schema\": 1, \"oops\": true}",
    );
    let t = texts(&say(&core, "alice", "general", "move a8"));
    assert!(
        t.contains("P:This channel's game record cannot be read") && t.contains("`!abort`"),
        "{t}"
    );
    // The other channel still works.
    let t = texts(&core.handle(&request("dave", "other", "accept")));
    assert!(t.contains("The game begins"), "{t}");
    assert!(texts(&say(&core, "alice", "general", "abort")).contains("set aside"));
    assert!(texts(&say(&core, "alice", "general", "new lanrick @bob")).contains("New game"));
}

#[test]
fn two_moves_racing_on_one_channel_apply_exactly_once() {
    let dir = std::env::temp_dir().join(format!("muster-race-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store: Arc<dyn GameStore> = Arc::new(SledStore::open(&dir).unwrap());
    let core = Arc::new(started(store.clone()));
    let key = ChannelKey::new("console", "general");
    for round in 0..20 {
        // Both copies of alice's move race; one must lose with "board changed" or find the move
        // already made (it is then bob's turn).
        let square = ["a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8", "a7", "a6"][round % 10];
        let before = store.load(&key).unwrap().unwrap().moves.len();
        let (who, mover) = if before.is_multiple_of(2) {
            ("alice", "alice")
        } else {
            ("bob", "bob")
        };
        let square = if who == "bob" {
            square.replace('8', "1").replace('7', "2").replace('6', "3")
        } else {
            square.to_string()
        };
        let handles: Vec<_> = (0..2)
            .map(|_| {
                let core = core.clone();
                let text = format!("move {square}");
                std::thread::spawn(move || texts(&core.handle(&request(mover, "general", &text))))
            })
            .collect();
        let results: Vec<String> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        let applied = results
            .iter()
            .filter(|t| t.contains("placed a man"))
            .count();
        assert_eq!(applied, 1, "{results:?}");
        let loser = results
            .iter()
            .find(|t| !t.contains("placed a man"))
            .unwrap();
        assert!(
            loser.contains("board changed")
                || loser.contains("not yours")
                || loser.contains("occupied"),
            "{loser}"
        );
        assert_eq!(store.load(&key).unwrap().unwrap().moves.len(), before + 1);
        if before + 1 == 10 {
            break;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_record_that_does_not_replay_can_be_set_aside() {
    let store = Arc::new(MemoryStore::default());
    let core = started(store.clone());
    let key = ChannelKey::new("console", "general");
    let mut record = store.load(&key).unwrap().unwrap();
    record.moves.push("z9".into());
    store.put_raw(&key, &serde_json::to_vec(&record).unwrap());
    let t = texts(&say(&core, "alice", "general", "board"));
    assert!(
        t.contains("does not replay") && t.contains("`!abort`"),
        "{t}"
    );
    assert!(texts(&say(&core, "alice", "general", "abort")).contains("set aside"));
    assert!(texts(&say(&core, "alice", "general", "new lanrick @bob")).contains("New game"));
}

#[test]
fn players_may_type_moves_casually() {
    // The notation is exact (muster replay refuses `C1-C3`), but the core tidies case and spacing.
    let core = started(Arc::new(MemoryStore::default()));
    let t = texts(&say(&core, "alice", "general", "move A8"));
    assert!(t.contains("alice placed a man on a8"), "{t}");
    assert_eq!(
        muster_core::machine::replay(muster_rules::GameId::Lanrick, "A8\n")
            .error
            .map(|e| e.line),
        Some(1)
    );
}

#[test]
fn a_community_can_limit_the_games_and_name_organisers() {
    let core = Core::new(Arc::new(MemoryStore::default()), "!");
    let mut req = request("alice", "general", "new lanko88 @bob");
    req.policy.games = Some(vec![muster_core::desk::GameId::Lanrick]);
    let out = texts(&core.handle(&req));
    assert_eq!(
        out,
        "P:Lanko-88 is not played here. The games here: lanrick."
    );
    req.text = "new lanrick @bob".into();
    assert!(texts(&core.handle(&req)).contains("New game of Lanrick"));
    // Once moves are made only an organiser may call the game off.
    say(&core, "bob", "general", "accept");
    say(&core, "alice", "general", "move h7");
    let out = texts(&say(&core, "carol", "general", "abort"));
    assert!(
        out.starts_with("P:Only a player at this game (or an organiser)"),
        "{out}"
    );
    let out = texts(&say(&core, "alice", "general", "abort"));
    assert!(out.starts_with("P:The game has started"), "{out}");
    let mut by = request("carol", "general", "abort");
    by.policy.organiser = true;
    let out = texts(&core.handle(&by));
    assert!(
        out.contains("carol called the game off as an organiser"),
        "{out}"
    );
    let free = texts(&say(&core, "alice", "general", "board"));
    assert!(free.contains("There is no game in this channel"), "{free}");
}

#[test]
fn the_player_to_move_is_offered_legal_moves_and_others_are_told_why_not() {
    let core = started(Arc::new(MemoryStore::default()));
    let alice = User::named("alice");
    let labels = |user: &User, typed: &str| -> Vec<String> {
        core.suggest("console", "general", user, typed, 25)
            .into_iter()
            .map(|s| s.label)
            .collect()
    };
    // Rule 5: placement on the border — the squares that begin with what was typed.
    let offered = labels(&alice, "a");
    assert_eq!(offered.len(), 8, "{offered:?}");
    assert!(offered.iter().all(|m| m.starts_with('a')));
    let bob = labels(&User::named("bob"), "a");
    assert_eq!(
        bob,
        vec!["Not your turn: alice (White) is to move".to_string()]
    );
    let none = labels(&alice, "d4");
    assert_eq!(
        none,
        vec!["No legal move begins `d4` — see !moves".to_string()]
    );
    let elsewhere = core.suggest("console", "other", &alice, "a", 25);
    assert_eq!(
        elsewhere[0].label,
        "No game in this channel — start one with new"
    );
    // Choosing an explanation changes nothing: its value is what was typed.
    assert_eq!(elsewhere[0].value, "a");
}

#[test]
fn a_croquet_turn_offers_its_steps_as_buttons() {
    let core = Core::new(Arc::new(MemoryStore::default()), "!");
    say(&core, "alice", "general", "new croquet @bob");
    let out = texts(&say(&core, "bob", "general", "accept"));
    let buttons = out.lines().find(|l| l.starts_with("K:")).unwrap_or("");
    let steps = buttons.trim_start_matches("K:").split(',').count();
    assert!((2..=9).contains(&steps), "{out}");
    assert!(buttons.ends_with(",board"), "{out}");
    let first = buttons.trim_start_matches("K:").split(',').next().unwrap();
    let played = texts(&say(&core, "alice", "general", first));
    assert!(
        played.contains("B:"),
        "a step button plays the step: {played}"
    );
}

#[test]
fn without_the_web_pages_rules_and_notation_name_no_file_and_no_page() {
    let core = Core::new(Arc::new(MemoryStore::default()), "!");
    for game in muster_rules::GameId::ALL {
        for asked in ["rules", "notation"] {
            let out = texts(&say(&core, "alice", "lounge", &format!("{asked} {game}")));
            assert!(out.starts_with("P:"), "{out}");
            assert!(!out.contains("docs/") && !out.contains("/rules"), "{out}");
        }
    }
    let help = texts(&say(&core, "alice", "lounge", "help"));
    assert!(!help.contains("/rules"), "{help}");
}

#[test]
fn rules_come_in_steps_each_on_its_board_for_the_asker_alone() {
    let core = Core::new(Arc::new(MemoryStore::default()), "!");
    for game in muster_rules::GameId::ALL {
        let out = say(&core, "alice", "lounge", &format!("rules {game}"));
        let mut boards = 0;
        for (i, reply) in out.iter().enumerate() {
            match reply {
                Reply::Board(b) => {
                    boards += 1;
                    assert!(b.is_private(), "{game}: {reply:?}");
                    let drawn = b.drawn().unwrap_or_else(|e| panic!("{game}: {e}"));
                    assert!(!drawn.png.is_empty() && !drawn.alt.is_empty(), "{game}");
                    // The step it shows follows it.
                    let Some(Reply::Private(step)) = out.get(i + 1) else {
                        panic!("{game}: a board with no step after it: {out:?}");
                    };
                    assert!(step.starts_with(char::is_numeric), "{game}: {step}");
                }
                Reply::Private(_) => {}
                other => panic!("{game}: not for the asker alone: {other:?}"),
            }
        }
        let expected = match game {
            muster_rules::GameId::Lanrick | muster_rules::GameId::Croquet => (3, 4),
            muster_rules::GameId::Lanrick1880 => (5, 5),
            _ => (1, 1),
        };
        assert!(
            (expected.0..=expected.1).contains(&boards),
            "{game}: {boards} boards"
        );
        // Nothing is left out of the short rules.
        let text = texts(&out);
        assert!(text.contains("1. ") && text.contains("5. "), "{text}");
    }
    // Nothing of this was stored: no game in the channel.
    assert!(texts(&say(&core, "alice", "lounge", "board")).contains("There is no game"));
}
