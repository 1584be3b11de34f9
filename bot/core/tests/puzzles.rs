//! Puzzles as a solver meets them (docs/puzzles.md): every shipped puzzle proved again (its
//! solution achieves the goal and no other decision does); a first try rated, a later one not;
//! a refused answer counting nothing; the streak and history kept; the day's puzzle the same
//! for everyone.

use std::sync::Arc;

use muster_core::clock::ManualClock;
use muster_core::desk::{Core, Reply};
use muster_core::learn::puzzles::{find, of_the_day, set};
use muster_core::store::MemoryStore;
use muster_core::testing::say;
use muster_rules::GameId;
use muster_rules::puzzle::{self, Entry, Theme, gain};

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
fn every_shipped_puzzle_is_proved_again() {
    let set = set();
    for game in GameId::ALL {
        let n = set.iter().filter(|e| e.game == game).count();
        assert!(n >= 5, "{game}: {n} puzzles");
    }
    for entry in set {
        // Its solution achieves the goal and no other legal decision does.
        puzzle::check(entry).unwrap_or_else(|e| panic!("{}: {e}", entry.id));
        let game = entry.position().unwrap();
        let wanted = gain(&game, entry.theme, &entry.answer).unwrap();
        let reaching = game
            .legal_moves_text()
            .iter()
            .filter(|d| gain(&game, entry.theme, d) == Some(wanted))
            .count();
        assert_eq!(reaching, entry.solutions, "{}", entry.id);
        assert!(entry.solutions < entry.decisions, "{}", entry.id);
    }
}

/// A legal decision of `entry`'s position that does not solve it.
fn wrong(entry: &Entry) -> String {
    let game = entry.position().unwrap();
    let wanted = gain(&game, entry.theme, &entry.answer).unwrap();
    game.legal_moves_text()
        .into_iter()
        .find(|d| gain(&game, entry.theme, d) != Some(wanted))
        .unwrap()
}

/// The id of the puzzle a reply gave.
fn given(out: &str) -> &'static Entry {
    let id = out
        .split("Puzzle ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap_or_else(|| panic!("no puzzle in {out}"));
    find(id).unwrap()
}

#[test]
fn a_first_try_is_rated_a_later_one_is_not_and_the_streak_is_kept() {
    let core = Core::new(Arc::new(MemoryStore::default()), "!");
    let out = texts(&say(&core, "ada", "lounge", "puzzle lanrick"));
    assert!(
        out.starts_with("B:true:"),
        "the board, for ada alone: {out}"
    );
    assert!(out.contains("win the rendezvous with this turn"), "{out}");
    let entry = given(&out);
    assert_eq!(entry.game, GameId::Lanrick);
    // A decision the rules refuse counts nothing.
    let out = texts(&say(&core, "ada", "lounge", "puzzle a1-a1"));
    assert!(out.contains("Nothing is counted"), "{out}");
    let out = texts(&say(&core, "ada", "lounge", "puzzle rating"));
    assert!(out.contains("You have tried no puzzle yet"), "{out}");
    // A legal decision that does not solve it: what it left undone, and the rating falls.
    let out = texts(&say(
        &core,
        "ada",
        "lounge",
        &format!("puzzle {}", wrong(entry)),
    ));
    assert!(out.contains("not in the rendezvous"), "{out}");
    assert!(out.contains("Your puzzle rating: 1500 → 1"), "{out}");
    assert!(!out.contains("Solved"), "{out}");
    // Solved on the second try: nothing more moves.
    let out = texts(&say(
        &core,
        "ada",
        "lounge",
        &format!("puzzle {}", entry.answer),
    ));
    assert!(out.contains("Solved"), "{out}");
    assert!(out.contains("A later try: your rating stays"), "{out}");
    // The next is another puzzle; solved at once, the rating rises and the streak starts.
    let out = texts(&say(&core, "ada", "lounge", "puzzle croquet"));
    let next = given(&out);
    assert_eq!(next.theme, Theme::Win);
    let out = texts(&say(
        &core,
        "ada",
        "lounge",
        &format!("puzzle {}", next.answer),
    ));
    assert!(out.contains("Solved"), "{out}");
    assert!(out.contains("Streak: 1"), "{out}");
    let out = texts(&say(&core, "ada", "lounge", "puzzle rating"));
    assert!(out.contains("Streak 1 (best 1)"), "{out}");
    assert!(out.contains("First tries: 1 solved of 2"), "{out}");
    assert!(out.contains(&format!("{} ✓", next.id)), "{out}");
    assert!(out.contains(&format!("{} ✗", entry.id)), "{out}");
    // Taking none, an answer is told so.
    let out = texts(&say(&core, "ada", "lounge", "puzzle e4"));
    assert!(out.contains("You are not taking a puzzle"), "{out}");
}

#[test]
fn the_solution_shown_counts_as_a_first_try_lost() {
    let core = Core::new(Arc::new(MemoryStore::default()), "!");
    let entry = given(&texts(&say(&core, "bob", "lounge", "puzzle lanko")));
    assert_eq!(entry.theme, Theme::Points);
    let out = texts(&say(&core, "bob", "lounge", "puzzle solution"));
    assert!(out.contains(&format!("`{}`", entry.answer)), "{out}");
    assert!(out.contains("Your puzzle rating: 1500 → 1"), "{out}");
    let out = texts(&say(&core, "bob", "lounge", "puzzle rating"));
    assert!(out.contains("First tries: 0 solved of 1"), "{out}");
    assert!(out.contains("Streak 0"), "{out}");
}

#[test]
fn the_days_puzzle_is_the_same_for_everyone_and_changes_with_the_day() {
    let day = 20_000 * 86_400;
    let clock = Arc::new(ManualClock::starting_at(day + 3_600));
    let core = Core::with_clock(Arc::new(MemoryStore::default()), "!", clock.clone());
    let ada = texts(&say(&core, "ada", "lounge", "puzzle daily"));
    assert!(ada.contains("Today's puzzle"), "{ada}");
    clock.advance(20 * 3_600);
    let bob = texts(&say(&core, "bob", "elsewhere", "puzzle daily"));
    assert_eq!(given(&ada).id, given(&bob).id);
    clock.advance(4 * 3_600);
    let next = texts(&say(&core, "bob", "elsewhere", "puzzle daily"));
    assert_ne!(given(&next).id, given(&bob).id);
    // Every puzzle comes once before any comes again.
    let days: std::collections::BTreeSet<&str> = (0..set().len() as u64)
        .map(|d| of_the_day(d).unwrap().id.as_str())
        .collect();
    assert_eq!(days.len(), set().len());
}

#[test]
fn an_organiser_has_the_days_puzzle_posted_once_a_day() {
    use muster_core::kernel::outbox::Target;
    use muster_core::kernel::request::Policy;
    let day = 20_000 * 86_400;
    let clock = Arc::new(ManualClock::starting_at(day + 3_600));
    let core = Core::with_clock(Arc::new(MemoryStore::default()), "!", clock.clone());
    // Not an organiser: refused, and nothing is posted.
    let out = texts(&say(&core, "carol", "lounge", "puzzle daily on"));
    assert!(out.contains("Only organisers"), "{out}");
    assert_eq!(core.post_daily_puzzles(), 0);
    let mut asked = muster_core::testing::request("olga", "lounge", "puzzle daily on");
    asked.policy = Policy {
        organiser: true,
        ..Default::default()
    };
    let out = texts(&core.handle(&asked));
    assert!(out.contains("will be posted here once a day"), "{out}");
    // Posted at the next look, once that day, with the board; again the next day.
    assert_eq!(core.post_daily_puzzles(), 1);
    assert_eq!(core.post_daily_puzzles(), 0);
    let posted = core.timers().take("console");
    assert_eq!(posted.len(), 1);
    assert_eq!(posted[0].target, Target::Channel("lounge".into()));
    let words = texts(&posted[0].replies);
    assert!(words.starts_with("B:false:"), "a public board: {words}");
    assert!(words.contains("Try it with `!puzzle daily`"), "{words}");
    let today = of_the_day(20_000).unwrap();
    assert!(words.contains(today.theme.task()), "{words}");
    clock.advance(86_400);
    assert_eq!(core.post_daily_puzzles(), 1);
    asked.text = "puzzle daily off".into();
    core.handle(&asked);
    clock.advance(86_400);
    assert_eq!(core.post_daily_puzzles(), 0);
}
