//! The bot as an opponent in the searched games (Lanrick, its first version, Lanko): the human's
//! move is answered at once, the bot's decision comes after it as a notice, every decision it
//! makes is legal, it plays any seat, and it keeps to its levels' words.

use std::sync::Arc;

use muster_core::desk::{Core, Reply};
use muster_core::store::{ChannelKey, MemoryStore, Status};
use muster_rules::AnyGame;

use common::{request, say};
use muster_core::kernel::replayable::Replayable;
use muster_core::store::{Lists, Live};
use muster_core::testing as common;

fn texts(replies: &[Reply]) -> String {
    replies
        .iter()
        .map(|r| match r {
            Reply::Text(t) | Reply::Private(t) => t.clone(),
            Reply::Mention { user, text } => format!("@{}: {text}", user.name),
            Reply::Board(b) => format!("[board {}]", b.name()),
            _ => String::new(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// What the bot said since the last call: its notices' replies.
fn bot_said(core: &Core) -> String {
    core.play_bots();
    core.notices("console")
        .into_iter()
        .map(|n| texts(&n.replies))
        .collect::<Vec<_>>()
        .join("\n")
}

fn record(store: &MemoryStore) -> muster_core::store::GameRecord {
    store
        .load(&ChannelKey::new("console", "general"))
        .unwrap()
        .or_else(|| {
            let ids = store.archive_ids().unwrap();
            store.archived(ids.last()?).unwrap()
        })
        .expect("a game")
}

/// Replays `r`'s record through the rules: every decision in it, the bot's included, is legal.
fn replays(r: &muster_core::store::GameRecord) {
    let mut game = AnyGame::new(r.game_id().unwrap());
    for text in &r.moves {
        let seat = game.to_move().unwrap();
        if let Err(e) = game.play_text(seat, text) {
            panic!("`{text}` in {:?} is refused: {e:?}", r.moves);
        }
    }
}

/// Plays the people's side with random legal moves until the game ends or `plies` decisions
/// were made; every bot decision must have been accepted and announced. Returns the most
/// decisions the bot made in one run (one answer of its own).
fn play_against(core: &Core, store: &MemoryStore, plies: usize) -> usize {
    let mut rng = muster_rules::search::Rng::new(5);
    let mut longest = 0;
    for _ in 0..plies {
        let r = record(store);
        if r.status != Status::Active {
            break;
        }
        let game = r.rebuild().unwrap();
        let Some(seat) = game.to_move() else { break };
        let player = r.player(seat.index()).unwrap();
        if player.id.starts_with("bot:") {
            let said = bot_said(core);
            let after = record(store);
            assert!(
                after.moves.len() > r.moves.len(),
                "the bot decided: {said}\n{:?}",
                after.moves
            );
            longest = longest.max(after.moves.len() - r.moves.len());
            assert!(said.contains("[board"), "its decision is shown: {said}");
            if game.table().len() == 2 {
                // Its decisions in a row (a won rendezvous's takings, returns and fields)
                // are one message and one board, and it never says it is thinking itself.
                let boards = said.lines().filter(|l| l.starts_with("[board"));
                let replays = said.matches("-replay.").count();
                assert_eq!(boards.count() - replays, 1, "{said}");
                assert!(!said.contains("is thinking"), "{said}");
            }
            continue;
        }
        let text = muster_rules::search::random_any(&game, rng.next_u64()).unwrap();
        let out = texts(&say(core, &player.name, "general", &format!("move {text}")));
        assert!(!out.contains("not your turn"), "{out}");
    }
    longest
}

#[test]
fn the_bot_answers_a_lanrick_move_after_it_and_every_decision_is_legal() {
    let store = Arc::new(MemoryStore::default());
    let core = Core::new(store.clone(), "!");
    let out = texts(&say(&core, "alice", "general", "new lanrick bot:easy"));
    assert!(
        out.contains("The game begins: alice (White) vs Muster (easy) (Black)"),
        "{out}"
    );
    // Alice's move is answered at once, the bot's turn said without a ping.
    let out = texts(&say(&core, "alice", "general", "move b1"));
    assert!(out.contains("Muster (easy) is thinking (Black)."), "{out}");
    assert!(!out.contains("@Muster"), "{out}");
    assert_eq!(record(&store).moves.len(), 1, "the bot has not moved yet");
    let said = bot_said(&core);
    assert!(said.contains("Muster (easy) placed a man"), "{said}");
    assert!(said.contains("@alice: your turn (White)"), "{said}");
    assert_eq!(record(&store).moves.len(), 2);
    let longest = play_against(&core, &store, 160);
    assert!(
        longest > 1,
        "the bot won a rendezvous and took, returned or equalised"
    );
    // The whole record replays: every decision, the bot's included, was legal.
    let r = record(&store);
    replays(&r);
}

#[test]
fn the_bot_opens_as_white_and_plays_the_first_version() {
    let store = Arc::new(MemoryStore::default());
    let core = Core::new(store.clone(), "!");
    let out = texts(&say(
        &core,
        "alice",
        "general",
        "new lanrick1880 bot:easy as black",
    ));
    assert!(out.contains("Muster (easy) is thinking (White)."), "{out}");
    let said = bot_said(&core);
    assert!(said.contains("[board"), "{said}");
    let r = record(&store);
    assert_eq!(r.moves.len(), 1);
    assert!(
        r.moves[0].starts_with("W:"),
        "White set up the men: {:?}",
        r.moves
    );
    play_against(&core, &store, 60);
    replays(&record(&store));
}

#[test]
fn bots_hold_lanko_seats_beside_people() {
    let store = Arc::new(MemoryStore::default());
    let core = Core::new(store.clone(), "!");
    say(
        &core,
        "alice",
        "general",
        "new lanko88 @wes bot:easy bot:easy",
    );
    let out = texts(&say(&core, "wes", "general", "accept"));
    assert!(out.contains("The game begins"), "{out}");
    let r = record(&store);
    let names: Vec<String> = (0..4).map(|i| r.player(i).unwrap().name.clone()).collect();
    assert_eq!(names, ["alice", "wes", "Muster (easy)", "Muster (easy)"]);
    play_against(&core, &store, 40);
    replays(&record(&store));
}

#[test]
fn the_bot_picks_up_a_decision_it_owed_when_muster_stopped() {
    let store = Arc::new(MemoryStore::default());
    {
        let core = Core::new(store.clone(), "!");
        say(&core, "alice", "general", "new lanrick bot:easy");
        say(&core, "alice", "general", "move b1");
        // Muster stops before the bot decides.
    }
    let core = Core::new(store.clone(), "!");
    assert_eq!(record(&store).moves.len(), 1);
    core.resume_bots();
    let said = bot_said(&core);
    assert!(said.contains("Muster (easy) placed a man"), "{said}");
    assert_eq!(record(&store).moves.len(), 2);
}

#[test]
fn hints_in_a_searched_game_against_the_bot_name_a_legal_decision() {
    let store = Arc::new(MemoryStore::default());
    let core = Core::new(store.clone(), "!");
    say(&core, "alice", "general", "new lanrick bot:easy");
    let hint = texts(&say(&core, "alice", "general", "hint"));
    let decision = hint
        .strip_prefix("Hint: `!move ")
        .and_then(|rest| rest.split_once('`'))
        .map(|(d, _)| d.to_string())
        .unwrap_or_else(|| panic!("{hint}"));
    assert!(hint.contains("The search gives it a"), "{hint}");
    let out = texts(&say(&core, "alice", "general", &format!("move {decision}")));
    assert!(out.contains("alice placed a man"), "{out}");
}

#[test]
fn bot_levels_are_read_and_refused_with_what_there_is() {
    let store = Arc::new(MemoryStore::default());
    let core = Core::new(store.clone(), "!");
    let out = texts(&say(
        &core,
        "alice",
        "general",
        "new lanrick bot:grandmaster",
    ));
    assert!(
        out.contains("the levels are easy, good and strong (perfect, in Croquet)"),
        "{out}"
    );
    let out = texts(&say(&core, "alice", "general", "new lanrick bot:400"));
    assert!(out.contains("Muster (400 ms)"), "{out}");
}

#[test]
fn the_bot_resigns_a_hopeless_game_politely() {
    // docs/ai.md, "Resigning": Black, the bot, has lost three men to none and cannot stop the
    // fourth; the position is reached by a search for White against random play for Black.
    use muster_rules::search::self_play::Player;
    let store = Arc::new(MemoryStore::default());
    let core = Core::new(store.clone(), "!");
    say(&core, "alice", "general", "new lanrick bot:good");
    let mut game = AnyGame::new(muster_rules::GameId::Lanrick);
    let mut moves = Vec::new();
    let mut rng = muster_rules::search::Rng::new(11);
    loop {
        let seat = game.to_move().expect("the game goes on");
        let AnyGame::Lanrick(g) = &game else {
            unreachable!()
        };
        if seat == muster_rules::Seat::BLACK
            && g.taken(muster_rules::Seat::WHITE) == 3
            && g.taken(muster_rules::Seat::BLACK) == 0
            && g.phase() == muster_rules::lanrick::Phase::Play
        {
            break;
        }
        let player = if seat == muster_rules::Seat::WHITE {
            Player::Iterations(400)
        } else {
            Player::Random
        };
        let text = player.decide(&game, rng.next_u64()).expect("a decision");
        game.play_text(seat, &text).expect("legal");
        moves.push(text);
    }
    let key = ChannelKey::new("console", "general");
    let mut r = store.load(&key).unwrap().unwrap();
    let expected = r.version;
    r.moves = moves;
    r.time_moves(r.updated);
    r.version += 1;
    store.update(&key, expected, &r).unwrap();
    core.resume_bots();
    let said = bot_said(&core);
    assert!(
        said.contains("Muster (good) (Black) resigns. Well played!"),
        "{said}"
    );
    let r = record(&store);
    assert_eq!(r.status, Status::Finished, "{said}");
    assert_eq!(
        r.ending,
        Some(muster_core::store::Ending::Resigned { seat: 1 }),
        "{said}"
    );
}

#[test]
fn a_decision_searched_before_a_takeback_is_searched_again_for_the_new_position() {
    let store = Arc::new(MemoryStore::default());
    let core = Core::new(store.clone(), "!");
    let key = ChannelKey::new("console", "general");
    say(&core, "alice", "general", "new lanrick bot:easy");
    say(&core, "alice", "general", "move b1");
    // The bot searches the position after b1; while it thinks, alice takes b1 back (the bot
    // agrees at once) and places her man elsewhere.
    let searched = core.bot_search(&key).expect("the bot is to decide");
    let out = texts(&say(&core, "alice", "general", "takeback"));
    assert_eq!(record(&store).moves.len(), 0, "{out}");
    let out = texts(&say(&core, "alice", "general", "move g1"));
    assert!(out.contains("is thinking"), "{out}");
    assert_eq!(record(&store).moves, ["g1"]);
    // The decision searched for b1 is not made after g1: the bot searches again.
    core.bot_decide(&key, searched);
    assert_eq!(record(&store).moves, ["g1"], "the old decision was dropped");
    let said = bot_said(&core);
    assert!(said.contains("Muster (easy) placed a man"), "{said}");
    let r = record(&store);
    assert_eq!(r.moves.len(), 2);
    assert_eq!(r.moves[0], "g1");
    replays(&r);
}

#[test]
fn hints_are_refused_in_rated_lanrick_and_lanko_games_and_given_in_casual_ones() {
    let store = Arc::new(MemoryStore::default());
    let core = Core::new(store.clone(), "!");
    let in_channel =
        |user: &str, channel: &str, text: &str| texts(&core.handle(&request(user, channel, text)));
    in_channel("alice", "rated", "new lanrick @bob");
    in_channel("bob", "rated", "accept");
    let out = in_channel("alice", "rated", "hint");
    assert!(
        out.contains("Hints are given in games against the bot and in casual games"),
        "{out}"
    );
    in_channel("alice", "four", "new lanko88 @bob @carol @dan");
    for user in ["bob", "carol", "dan"] {
        in_channel(user, "four", "accept");
    }
    let out = in_channel("alice", "four", "hint");
    assert!(out.contains("Hints are given"), "{out}");
    in_channel("alice", "casual", "new lanko88 @bob @carol @dan casual");
    for user in ["bob", "carol", "dan"] {
        in_channel(user, "casual", "accept");
    }
    let hint = in_channel("alice", "casual", "hint");
    let decision = hint
        .strip_prefix("Hint: `!move ")
        .and_then(|rest| rest.split_once('`'))
        .map(|(d, _)| d.to_string())
        .unwrap_or_else(|| panic!("{hint}"));
    let out = in_channel("alice", "casual", &format!("move {decision}"));
    assert!(
        !out.contains("not your turn") && out.contains("[board"),
        "{out}"
    );
}
