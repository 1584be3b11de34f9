//! The first version's lessons (docs/learn.md): what the 1880 rules do differently from the
//! Third Edition's (docs/rules/lanrick1880.md, "How it differs from the Third Edition"), each on
//! a position of the document's main record.

use muster_rules::lanrick1880::Phase;
use muster_rules::{AnyGame, GameId};

use super::lessons::{Lesson, Tried, Verdict, legal, whole_budget};

/// The first version's main record (docs/rules/lanrick1880.md, "Worked examples"): the set-up,
/// the rendezvous chosen, shifts and turns, the rendezvous won, the taking, the wanderers sent
/// home and the next rendezvous chosen by the loser.
pub const LANRICK1880: [&str; 15] = [
    "W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7",
    "e3",
    "*e4",
    "e8-e5 h7-f5",
    "*d4",
    "c8-f5",
    "c1-c3 e1-e2 g1-f2",
    "a8-c6 g8-g5",
    "h2-g3",
    "c6-c5 g5-e3 f5-e4",
    "xa1",
    "e2-e1",
    "f2-f1",
    "g3-g1",
    "g6",
];

/// The phase of a first-version position.
fn phase(game: &AnyGame) -> Option<Phase> {
    match game {
        AnyGame::Lanrick1880(g) => Some(g.phase()),
        _ => None,
    }
}

/// A shift of the mark, not a turn of steps.
fn shifts(t: &Tried<'_>) -> Verdict {
    if t.text.starts_with('*') {
        Verdict::Solved
    } else {
        Verdict::Wrong(
            "that moves your men, and a turn of steps ends your right to shift for this round; \
             shift the mark instead: `*` and one of the eight squares next to it, such as `*e4`"
                .into(),
        )
    }
}

/// The rendezvous won with the learner's turn; then his taking and wanderers, done when the
/// loser is to choose the next rendezvous.
fn wins_and_stops(t: &Tried<'_>) -> Verdict {
    match (phase(t.before), phase(t.after)) {
        (_, Some(Phase::Choose)) => Verdict::Solved,
        (Some(Phase::Play), Some(Phase::Capture)) => Verdict::More(
            "All five are in: you won the rendezvous. Take one of White's men who is not in it, \
             such as `xa1`."
                .into(),
        ),
        (Some(Phase::Play), _) => Verdict::Wrong(
            "not all your men are in the rendezvous c3–e5 at the end of that turn: bring the three \
             outside in, each man once, 5 squares in all"
                .into(),
        ),
        (Some(Phase::Capture), _) => Verdict::More(
            "Taken. Now send each of White's wanderers (his men neither in the rendezvous nor on \
             the border) to the border, one step along a line, such as `e2-e1`."
                .into(),
        ),
        _ => Verdict::More("Good. Send the next wanderer home.".into()),
    }
}

/// The first version: the set-up, the rendezvous, the shift, a man once a turn, a won
/// rendezvous with no equalising after it.
pub static COURSE: [Lesson; 5] = [
    Lesson {
        game: GameId::Lanrick1880,
        title: "One player sets out all ten men",
        rule: "Rule 2, L0-1",
        record: &[],
        task: "In the first version White sets out all ten men, his five and Black's five, on the border (the 28 edge squares), in one move: `W:` and White's five squares, then `B:` and Black's, such as `W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7`.",
        learnt: "White sets out every man; Black, the other player, then chooses the rendezvous.",
        check: legal,
        wrong: "d4",
        answers: &["W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7"],
    },
    Lesson {
        game: GameId::Lanrick1880,
        title: "The other player chooses the rendezvous",
        rule: "Rule 3, L0-2",
        record: LANRICK1880.split_at(1).0,
        task: "As Black, choose the rendezvous: name its centre, a field square (b2–g7). Its block of nine squares may not hold any of your own men; it may hold White's.",
        learnt: "The chooser's only condition is that the block holds none of his men; the other player moves first.",
        check: legal,
        wrong: "d7",
        answers: &["e3"],
    },
    Lesson {
        game: GameId::Lanrick1880,
        title: "Shifting the mark",
        rule: "Rule 5, L0-4",
        record: LANRICK1880.split_at(2).0,
        task: "Black chose e3: the rendezvous is d2–f4. As White, who did not choose, you may move the mark one square instead of moving men, as long as you have not moved a man this round: not onto the border, and not so that the block holds your men. Shift it.",
        learnt: "The first player may shift the mark, carrying every man in the rendezvous with it, until he moves one of his men.",
        check: shifts,
        wrong: "c1-c3",
        answers: &["*e4"],
    },
    Lesson {
        game: GameId::Lanrick1880,
        title: "Each man once a turn",
        rule: "Rule 4, L0-3",
        record: LANRICK1880.split_at(3).0,
        task: "Black to play, with 5 men, so 5 squares, the first turn too. In this version each man moves at most once a turn: `e8-e7 e7-e5` is refused. Use all five squares, such as `e8-e5 h7-f5`.",
        learnt: "Every turn has one square for each of your men, and each man moves at most once in it.",
        check: whole_budget,
        wrong: "e8-e7 e7-e5",
        answers: &["e8-e5 h7-f5"],
    },
    Lesson {
        game: GameId::Lanrick1880,
        title: "A won rendezvous, and no equalising",
        rule: "Rule 6, L0-5",
        record: LANRICK1880.split_at(9).0,
        task: "Black to play, 5 squares. The rendezvous is c3–e5 and your men on c6, g5 and f5 are outside it. Bring all three in this turn; then take a man and send White's wanderers home.",
        learnt: "After the taking and the wanderers nothing is equalised and nobody returns: every other man stays where he is, and the loser chooses the next rendezvous.",
        check: wins_and_stops,
        wrong: "c6-c5",
        answers: &["c6-c5 g5-e3 f5-e4", "xa1", "e2-e1", "f2-f1", "g3-g1"],
    },
];
