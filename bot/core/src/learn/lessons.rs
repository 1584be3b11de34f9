//! What a lesson is (docs/learn.md): a board reached by a record of decisions from the start
//! (the rules documents' worked examples), a task, and a check that reads the position after
//! the learner's decision, as the rules engine played it: solved, one more decision to make, or
//! not what the task asks (with what was wrong). The courses are in the games' own files.

use muster_rules::lanrick::{Square, Written, parse_written};
use muster_rules::{AnyEvent, AnyGame, GameId, Seat};

/// What the learner's decision did for the task.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// The task is done.
    Solved,
    /// A good decision; the task asks for more (this is what).
    More(String),
    /// Not what the task asks: what went wrong.
    Wrong(String),
}

/// A decision as the lesson reads it: the game before and after it, what was played, and by
/// which seat.
pub struct Tried<'a> {
    /// The position the decision was made in.
    pub before: &'a AnyGame,
    /// The position the decision made.
    pub after: &'a AnyGame,
    /// The decision, in the game's canonical notation.
    pub text: &'a str,
    /// The learner's seat.
    pub seat: Seat,
    /// What the decision did, as the rules engine tells it.
    pub events: &'a [AnyEvent],
}

/// One lesson.
pub struct Lesson {
    /// The game.
    pub game: GameId,
    /// Its name in the list (`The budget`).
    pub title: &'static str,
    /// The rule it teaches, as the rules document names it (`Rule 4`).
    pub rule: &'static str,
    /// The decisions from the start that reach its position.
    pub record: &'static [&'static str],
    /// What the learner is to do.
    pub task: &'static str,
    /// What the learner learnt, said when it is solved.
    pub learnt: &'static str,
    /// Whether a decision does what the task asks.
    pub check: fn(&Tried<'_>) -> Verdict,
    /// A decision that does not do what the task asks (the rules or the check refuse it).
    pub wrong: &'static str,
    /// The decisions that solve it, in order (the other side's answers between them are made
    /// for it): what `learn solution` shows, and what the suites solve every lesson with.
    pub answers: &'static [&'static str],
}

/// Any legal decision solves it (the rules engine has refused the others, saying why).
pub fn legal(_: &Tried<'_>) -> Verdict {
    Verdict::Solved
}

/// How many squares a Lanrick turn moves its men, over all its steps.
fn squares_moved(text: &str) -> Option<u8> {
    let Ok(Written::Steps(steps)) = parse_written(text) else {
        return None;
    };
    let far = |a: Square, b: Square| a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank()));
    Some(steps.iter().map(|s| far(s.from, s.to)).sum())
}

/// A turn using exactly the budget the position gave (in either version of Lanrick).
pub fn whole_budget(t: &Tried<'_>) -> Verdict {
    let budget = match t.before {
        AnyGame::Lanrick(before) => before.budget(),
        AnyGame::Lanrick1880(before) => before.budget(),
        _ => None,
    };
    let Some(budget) = budget else {
        return Verdict::Wrong("this lesson is a Lanrick position".into());
    };
    match squares_moved(t.text) {
        Some(n) if n == budget => Verdict::Solved,
        Some(n) => Verdict::Wrong(format!(
            "it moves {n} square{} of your {budget}: use all {budget}, on one man or split among \
             several",
            if n == 1 { "" } else { "s" }
        )),
        None => Verdict::Wrong("this lesson asks for a turn of steps, such as `h5-f5`".into()),
    }
}
