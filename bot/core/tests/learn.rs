//! Lessons as a learner takes them (docs/learn.md): every lesson solved by its intended answers
//! and refused, with what was wrong, for a wrong one; stars for few tries; progress kept across
//! restarts and across linked accounts; a channel's game never touched.

use std::sync::Arc;

use muster_core::desk::{Core, Reply};
use muster_core::learn::course;
use muster_core::store::{ChannelKey, MemoryStore, SledStore};
use muster_rules::GameId;

use muster_core::store::Live;
use muster_core::testing::say;

fn texts(replies: &[Reply]) -> String {
    replies
        .iter()
        .map(|r| match r {
            Reply::Private(t) => format!("P:{t}"),
            Reply::Board(b) => format!("B:{}:{}", b.is_private(), b.name()),
            Reply::Text(t) => format!("T:{t}"),
            other => format!("{other:?}"),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_lesson_is_solved_by_its_answers_and_refuses_a_wrong_one_saying_why() {
    let core = Core::new(Arc::new(MemoryStore::default()), "!");
    // The fewest lessons each course must have.
    let least = [
        (GameId::Lanrick, 8),
        (GameId::Croquet, 6),
        (GameId::Lanrick1880, 3),
        (GameId::Lanko88, 5),
    ];
    for (game, least) in least {
        let lessons = course(game);
        assert!(lessons.len() >= least, "{game}: {} lessons", lessons.len());
        for n in 1..=lessons.len() {
            let out = texts(&say(&core, "ada", "lounge", &format!("learn {game} {n}")));
            assert!(
                out.contains(&format!("lesson {n} of {}", lessons.len())),
                "{out}"
            );
            assert!(
                out.contains(lessons[n - 1].rule),
                "the rule is cited: {out}"
            );
            assert!(
                out.starts_with("B:true:"),
                "the lesson's board, for ada alone: {out}"
            );
            let (wrong, right) = (lessons[n - 1].wrong, lessons[n - 1].answers);
            let refused = texts(&say(&core, "ada", "lounge", &format!("learn {wrong}")));
            assert!(refused.starts_with("P:"), "{game} {n}: {refused}");
            assert!(refused.contains("The task:"), "{game} {n}: {refused}");
            assert!(
                !refused.contains(&format!("`{wrong}`: `{wrong}`")),
                "the decision said once: {refused}"
            );
            assert!(!refused.contains("Solved"), "{game} {n}: {refused}");
            for (i, answer) in right.iter().enumerate() {
                let said = texts(&say(&core, "ada", "lounge", &format!("learn {answer}")));
                if i + 1 < right.len() {
                    assert!(!said.contains("Solved"), "{game} {n} `{answer}`: {said}");
                    assert!(said.contains("B:true:"), "the board after it: {said}");
                } else {
                    // One wrong try: two stars.
                    assert!(
                        said.contains("Solved ★★☆!"),
                        "{game} {n} `{answer}`: {said}"
                    );
                }
            }
        }
    }
    // Every lesson solved, each with two stars.
    let progress = texts(&say(&core, "ada", "lounge", "learn"));
    assert!(
        progress.contains("10 of 10 solved, 20 of 30 stars"),
        "{progress}"
    );
    assert!(
        progress.contains("7 of 7 solved, 14 of 21 stars"),
        "{progress}"
    );
    assert!(
        progress.contains("5 of 5 solved, 10 of 15 stars"),
        "{progress}"
    );
    assert!(
        progress.contains("6 of 6 solved, 12 of 18 stars"),
        "{progress}"
    );
}

#[test]
fn a_lesson_solved_at_once_earns_three_stars_and_progress_survives_a_restart() {
    let dir = std::env::temp_dir().join(format!("muster-learn-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    {
        let core = Core::new(Arc::new(SledStore::open(&dir).unwrap()), "!");
        let out = texts(&say(&core, "ada", "lounge", "learn croquet"));
        assert!(out.contains("lesson 1 of 7: Steps"), "{out}");
        let out = texts(&say(&core, "ada", "lounge", "learn 8"));
        assert!(out.contains("Solved ★★★!"), "{out}");
        // `learn croquet` goes on with the first lesson not solved.
        let out = texts(&say(&core, "ada", "lounge", "learn croquet"));
        assert!(out.contains("lesson 2 of 7: Taking a hoop"), "{out}");
    }
    let core = Core::new(Arc::new(SledStore::open(&dir).unwrap()), "!");
    let out = texts(&say(&core, "ada", "lounge", "learn"));
    assert!(out.contains("1 of 7 solved, 3 of 21 stars"), "{out}");
    assert!(
        out.contains("You are taking Arithmetical Croquet (1889) lesson 2"),
        "{out}"
    );
    // The lesson being taken is answered after the restart.
    let out = texts(&say(&core, "ada", "lounge", "learn 6"));
    assert!(out.contains("Solved ★★★!"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lessons_leave_the_channels_game_alone_and_answer_only_the_learner() {
    let store = Arc::new(MemoryStore::default());
    let core = Core::new(store.clone(), "!");
    say(&core, "alice", "general", "new lanrick @bob");
    say(&core, "bob", "general", "accept");
    let before = store.load(&ChannelKey::new("console", "general")).unwrap();
    // Bob takes a lesson in the game's channel: his answers are his lesson's, not moves.
    let out = say(&core, "bob", "general", "learn lanrick");
    assert!(
        out.iter()
            .all(|r| matches!(r, Reply::Private(_))
                || matches!(r, Reply::Board(b) if b.is_private())),
        "{out:?}"
    );
    let out = texts(&say(&core, "bob", "general", "learn a3"));
    assert!(out.contains("Solved"), "{out}");
    assert_eq!(
        store.load(&ChannelKey::new("console", "general")).unwrap(),
        before
    );
    // Carol takes no lesson: her answer is told so.
    let out = texts(&say(&core, "carol", "general", "learn a3"));
    assert!(out.contains("You are not taking a lesson"), "{out}");
    // Out of range, and a game with no course yet.
    let out = texts(&say(&core, "carol", "general", "learn lanrick 11"));
    assert!(out.contains("has lessons 1 to 10"), "{out}");
    // Lanko's lessons are on the Lanko-88 board, which `learn lanko` names.
    let out = texts(&say(&core, "carol", "general", "learn lanko68"));
    assert!(out.contains("`!learn lanko88`"), "{out}");
    let out = texts(&say(&core, "carol", "general", "learn lanko"));
    assert!(out.contains("Lanko-88 lesson 1 of 6"), "{out}");
    let out = texts(&say(&core, "carol", "general", "learn lanrick two"));
    assert!(out.contains("say a lesson's number"), "{out}");
}

#[test]
fn progress_follows_a_player_across_his_linked_accounts() {
    use muster_core::testing::{Named, link_alice, say_as};
    let core = Core::new(Arc::new(MemoryStore::default()), "!");
    core.add_surface(Arc::new(Named("chat")));
    core.add_surface(Arc::new(Named("rooms")));
    // Before the link: one lesson solved on each platform, one more started on chat.
    let out = say_as(&core, "alice@chat", "c1", "learn croquet 1");
    assert!(out.contains("lesson 1 of 7"), "{out}");
    assert!(say_as(&core, "alice@chat", "c1", "learn 8").contains("Solved ★★★!"));
    say_as(&core, "alice@rooms", "!r1", "learn lanrick 1");
    say_as(&core, "alice@rooms", "!r1", "learn d4");
    assert!(say_as(&core, "alice@rooms", "!r1", "learn a3").contains("Solved ★★☆!"));
    say_as(&core, "alice@chat", "c1", "learn croquet 2");
    link_alice(|who, channel, text| say_as(&core, who, channel, text));
    // Linked, both accounts see everything, and the lesson begun on chat is answered on rooms.
    for (who, channel) in [("alice@chat", "c1"), ("alice@rooms", "!r1")] {
        let out = say_as(&core, who, channel, "learn");
        assert!(
            out.contains("1 of 10 solved, 2 of 30 stars"),
            "{who}: {out}"
        );
        assert!(out.contains("1 of 7 solved, 3 of 21 stars"), "{who}: {out}");
    }
    assert!(say_as(&core, "alice@rooms", "!r1", "learn 6").contains("Solved ★★★!"));
    let out = say_as(&core, "alice@chat", "c1", "learn");
    assert!(out.contains("2 of 7 solved, 6 of 21 stars"), "{out}");
    // The lesson solved is not taken any more, on either account.
    assert!(!out.contains("You are taking"), "{out}");
    let out = say_as(&core, "alice@chat", "c1", "learn 6");
    assert!(out.contains("You are not taking a lesson"), "{out}");
}

#[test]
fn the_solution_shown_leaves_one_star() {
    let core = Core::new(Arc::new(MemoryStore::default()), "!");
    let out = texts(&say(&core, "ada", "lounge", "learn solution"));
    assert!(out.contains("You are not taking a lesson"), "{out}");
    say(&core, "ada", "lounge", "learn croquet 3");
    let out = texts(&say(&core, "ada", "lounge", "learn solution"));
    assert!(out.contains("`!learn 3`, then `!learn 3`"), "{out}");
    say(&core, "ada", "lounge", "learn 3");
    let out = texts(&say(&core, "ada", "lounge", "learn 3"));
    assert!(out.contains("Solved ★☆☆!"), "{out}");
}

/// A platform whose private answers are mentions in the room (as on Matrix).
struct Rooms;

impl muster_core::desk::Surface for Rooms {
    fn platform(&self) -> &str {
        "rooms"
    }
    fn private_replies(&self) -> bool {
        false
    }
}

#[test]
fn where_private_answers_are_mentions_lessons_go_to_the_direct_room() {
    use muster_core::kernel::outbox::Target;
    use muster_core::testing::ask_as;
    let core = Core::new(Arc::new(MemoryStore::default()), "!");
    core.add_surface(Arc::new(Rooms));
    // Asked in a room: the room is told where it went, the lesson goes to a direct message.
    let out = texts(&ask_as(&core, "alice@rooms", "!room", "learn croquet 1"));
    assert!(out.contains("in a direct message from me"), "{out}");
    assert!(!out.contains("lesson 1"), "{out}");
    let sent = core.timers().take("rooms");
    assert_eq!(sent.len(), 1);
    assert!(
        matches!(&sent[0].target, Target::Direct(u) if u.id == "@alice:hs"),
        "{:?}",
        sent[0].target
    );
    let lesson = texts(&sent[0].replies);
    assert!(
        lesson.starts_with("B:true:") && lesson.contains("lesson 1 of 7"),
        "{lesson}"
    );
    // Asked in his direct room, it is answered there.
    let mut asked = muster_core::testing::request("alice", "!direct", "learn 8");
    asked.platform = "rooms".into();
    asked.user.id = "@alice:hs".into();
    asked.policy.direct = true;
    let out = texts(&core.handle(&asked));
    assert!(out.contains("Solved ★★★!"), "{out}");
    assert!(core.timers().take("rooms").is_empty());
    // Puzzles too.
    let out = texts(&ask_as(&core, "alice@rooms", "!room", "puzzle"));
    assert!(out.contains("in a direct message from me"), "{out}");
    assert_eq!(core.timers().take("rooms").len(), 1);
}
