//! Arithmetical Croquet's lessons (docs/learn.md), on positions of docs/rules/croquet.md's worked
//! examples: steps, hoops, misses, bars, keeping in, the peg.

use muster_rules::croquet::Status as BallStatus;
use muster_rules::{AnyGame, GameId};

use super::lessons::{Lesson, Tried, Verdict, legal};

/// The ball of `seat` after the decision.
fn ball(t: &Tried<'_>) -> Option<muster_rules::croquet::Ball> {
    match t.after {
        AnyGame::Croquet(g) => Some(g.ball(t.seat)),
        _ => None,
    }
}

fn first_step(t: &Tried<'_>) -> Verdict {
    match ball(t) {
        Some(b) if b.pos == 8 => Verdict::Solved,
        Some(b) => Verdict::Wrong(format!(
            "that goes to {}: the longest step is 8, and 8 is as near to hoop 10 as one step gets",
            b.pos
        )),
        None => Verdict::Wrong("this lesson is a Croquet position".into()),
    }
}

fn takes_the_hoop(t: &Tried<'_>) -> Verdict {
    match ball(t) {
        Some(b) if b.hoops_taken() == 2 => Verdict::Solved,
        Some(b) if b.status == BallStatus::InHoop => Verdict::Wrong(format!(
            "{} is in the hoop: that takes it only when you come out with the same step next turn; \
             take it in one step, from 17 to as far above 20 as 17 is below",
            b.pos
        )),
        Some(b) => Verdict::Wrong(format!(
            "from 17 to {} misses hoop 20: only the same distance above it as 17 is below takes it",
            b.pos
        )),
        None => Verdict::Wrong("this lesson is a Croquet position".into()),
    }
}

fn in_and_out(t: &Tried<'_>) -> Verdict {
    let was_in =
        matches!(t.before, AnyGame::Croquet(g) if g.ball(t.seat).status == BallStatus::InHoop);
    match ball(t) {
        Some(b) if b.hoops_taken() == 2 && was_in => Verdict::Solved,
        Some(b) if b.hoops_taken() == 2 => Verdict::Wrong(format!(
            "17 to {} takes hoop 20 at once, as the last lesson did; this time step exactly onto 20",
            b.pos
        )),
        Some(b) if b.status == BallStatus::InHoop => Verdict::More(
            "You are in hoop 20, needing 3. Black has played: come out with the step that took you in."
                .into(),
        ),
        Some(b) => Verdict::Wrong(format!(
            "that goes to {}; step exactly onto 20 (a step of 3) to go into the hoop",
            b.pos
        )),
        None => Verdict::Wrong("this lesson is a Croquet position".into()),
    }
}

fn bars_four(t: &Tried<'_>) -> Verdict {
    match t.after {
        AnyGame::Croquet(g) if g.barred().contains(&4) => Verdict::Solved,
        AnyGame::Croquet(g) => Verdict::Wrong(format!(
            "it bars {}: a step bars itself and 9 minus itself",
            g.barred()
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(" and ")
        )),
        _ => Verdict::Wrong("this lesson is a Croquet position".into()),
    }
}

fn keeps_in(t: &Tried<'_>) -> Verdict {
    // White, kept in, passes: the learner is to step again.
    if t.after.to_move() == Some(t.seat) {
        Verdict::Solved
    } else {
        Verdict::Wrong("White can still come out with 3: bar 3 (with 3 or with 6)".into())
    }
}

fn on_the_peg(t: &Tried<'_>) -> Verdict {
    match t.after.outcome().and_then(|o| o.winner()) {
        Some(team) if team.index() == t.seat.index() => Verdict::Solved,
        _ => Verdict::Wrong(match ball(t) {
            Some(b) => format!("{} is not the peg: land exactly on 100", b.pos),
            None => "land exactly on 100".into(),
        }),
    }
}

/// The record bringing White to 17 (docs/rules/croquet.md, worked example 2).
const AT17: &[&str] = &["7", "1", "6", "1", "4", "2"];

/// Arithmetical Croquet: steps, hoops, misses, bars, keeping in, the peg.
pub static COURSE: [Lesson; 7] = [
    Lesson {
        game: GameId::Croquet,
        title: "Steps",
        rule: "Rule 1, C-1",
        record: &[],
        task: "Your ball, White, is on 0; the first hoop is 10. A turn is a step of 1 to 8 forward. Step as near to the hoop as one step can go.",
        learnt: "A turn moves your ball 1 to 8 forward.",
        check: first_step,
        wrong: "5",
        answers: &["8"],
    },
    Lesson {
        game: GameId::Croquet,
        title: "Taking a hoop",
        rule: "Rule 2, C-2",
        record: AT17,
        task: "You are on 17; your hoop is 20. Take it in one step: go from below it to the same distance above it.",
        learnt: "A hoop is taken by a step from below it to as far above it as you were below (17 → 23).",
        check: takes_the_hoop,
        wrong: "3",
        answers: &["6"],
    },
    Lesson {
        game: GameId::Croquet,
        title: "Into the hoop and out",
        rule: "Rule 3, C-3",
        record: AT17,
        task: "The other way to take hoop 20: step exactly into it now, and come out next turn with the same step.",
        learnt: "A ball in a hoop comes out only with the step that took it in, and that takes the hoop.",
        check: in_and_out,
        wrong: "6",
        answers: &["3", "3"],
    },
    Lesson {
        game: GameId::Croquet,
        title: "A miss",
        rule: "Rule 2, C-4",
        record: &["7", "1", "6", "1", "4", "2", "5", "1"],
        task: "Your 5 took you from 17 to 22: past hoop 20 but not the same distance above it, so you missed it. Go back below 20 with a back step, such as `-4`.",
        learnt: "After a miss, the ball must first go back below the hoop; missing it twice loses.",
        check: legal,
        wrong: "4",
        answers: &["-4"],
    },
    Lesson {
        game: GameId::Croquet,
        title: "Bars",
        rule: "Rule 4, C-6",
        record: &["2"],
        task: "White's 2 bars you, Black, from 2 and 7 this turn. Now bar White from 4 on his next turn.",
        learnt: "Each step bars the other from that step and from 9 minus it on his next turn.",
        check: bars_four,
        wrong: "1",
        answers: &["4"],
    },
    Lesson {
        game: GameId::Croquet,
        title: "Keeping in",
        rule: "Rule 6, C-7",
        record: &["7", "1", "6", "1", "4", "2", "3"],
        task: "White stepped into hoop 20 and can come out only with 3. As Black, keep him in: bar 3 with your step, so that he must pass.",
        learnt: "While the other is in a hoop needing n, you may bar him with n or 9 − n, but not the same step twice running.",
        check: keeps_in,
        wrong: "1",
        answers: &["3"],
    },
    Lesson {
        game: GameId::Croquet,
        title: "The peg",
        rule: "Rule 5, C-2",
        record: PEG,
        task: "You are on 97, past hoop 90: only the peg, 100, is left. Land exactly on it.",
        learnt: "Whoever lands exactly on 100 wins; passing it is a miss of the peg.",
        check: on_the_peg,
        wrong: "2",
        answers: &["3"],
    },
];

/// Sixty-nine steps of docs/examples/croquet-game.txt, then Black's −8 (worked example 8): White
/// on 97, Black on 77.
const PEG: &[&str] = &[
    "1", "7", "3", "8", "4", "-7", "1", "2", "1", "2", "1", "7", "6", "5", "6", "-5", "3", "1",
    "5", "1", "-7", "3", "4", "1", "4", "6", "2", "-8", "3", "5", "6", "4", "3", "1", "7", "8",
    "-5", "-6", "1", "4", "1", "1", "1", "6", "1", "2", "5", "2", "4", "4", "8", "4", "-6", "1",
    "3", "5", "3", "5", "1", "3", "2", "4", "1", "4", "6", "1", "7", "8", "7", "-8",
];
