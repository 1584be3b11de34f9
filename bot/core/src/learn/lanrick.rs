//! The Third Edition's lessons (docs/learn.md), on the positions of docs/rules/lanrick.md's worked
//! example: the placement, the mark, the turns and the budget, the rendezvous won and all that
//! follows it, the end.

use muster_rules::lanrick::{Phase, Square, squares};
use muster_rules::{AnyGame, Game, GameId};

use super::lessons::{Lesson, Tried, Verdict, legal, whole_budget};

/// The worked example's record (docs/rules/lanrick.md, 1, 5 and 6): the placement, the mark
/// set, a turn, the rendezvous won, and on to the next round.
pub const LANRICK: [&str; 25] = [
    "a2",
    "h5",
    "a3",
    "h6",
    "a4",
    "h7",
    "b1",
    "g8",
    "c1",
    "f8",
    "c4",
    "h5-f5",
    "a2-b3 a3-b4 a4-b5 c1-c3",
    "f5-d5 h6-f6 g8-f7",
    "b1-c2 c2-d3",
    "xh7",
    "f7-e8",
    "f6-h6",
    "b5-b8",
    "b4-a4",
    "b3-a2",
    "c3-c1",
    "d5-d8",
    "d3-d1",
    "c3",
];

/// The learner has won the rendezvous with this turn.
fn wins_rendezvous(t: &Tried<'_>) -> Verdict {
    let (AnyGame::Lanrick(before), AnyGame::Lanrick(after)) = (t.before, t.after) else {
        return Verdict::Wrong("this lesson is a Lanrick position".into());
    };
    if after.phase() == Phase::Capture && after.to_move() == Some(t.seat) {
        return Verdict::Solved;
    }
    let zone = before.mark().map_or(0, Square::zone);
    let out: Vec<String> = squares(after.men(t.seat) & !zone)
        .map(|s| s.to_string())
        .collect();
    let (men, are) = if out.len() == 1 {
        ("man", "is")
    } else {
        ("men", "are")
    };
    Verdict::Wrong(format!(
        "your {men} on {} {are} not in the rendezvous: all five must be in at the end of the turn",
        out.join(", ")
    ))
}

/// The learner goes on deciding while the game stays in `phase`; done once it has left it.
fn until_past(t: &Tried<'_>, phase: Phase, more: &str) -> Verdict {
    match t.after {
        AnyGame::Lanrick(after) if after.phase() == phase && after.to_move() == Some(t.seat) => {
            Verdict::More(more.into())
        }
        _ => Verdict::Solved,
    }
}

fn wanderers(t: &Tried<'_>) -> Verdict {
    until_past(
        t,
        Phase::Wanderers,
        "Good. Send the other wanderer home too.",
    )
}

fn equalise(t: &Tried<'_>) -> Verdict {
    until_past(
        t,
        Phase::Equalise,
        "Good. Go on until your field has no more men than Black's.",
    )
}

/// The learner's man returned; then (after the other side's) the next mark set.
fn returns(t: &Tried<'_>) -> Verdict {
    match t.after {
        AnyGame::Lanrick(after) if after.phase() == Phase::Play => Verdict::Solved,
        _ => Verdict::More(
            "White has returned his man too. Now, as the first to return, set the next mark."
                .into(),
        ),
    }
}

/// The learner has won the game.
fn wins_the_game(t: &Tried<'_>) -> Verdict {
    match t.after.outcome().and_then(|o| o.winner()) {
        Some(team) if team.index() == t.seat.index() => Verdict::Solved,
        _ => Verdict::Wrong("the game goes on: take a man to end it".into()),
    }
}

/// Lanrick 1881: the placement, the mark, the turns, the rendezvous and all that follows it.
pub static COURSE: [Lesson; 10] = [
    Lesson {
        game: GameId::Lanrick,
        title: "Placing the men",
        rule: "Rule 5",
        record: &[],
        task: "Place your first man: White begins, and a man goes on any empty square of the border, the 28 squares of the board's edge (a square, such as `a3`).",
        learnt: "The men start on the border, placed one at a time, White and Black in turn, five each.",
        check: legal,
        wrong: "d4",
        answers: &["a3"],
    },
    Lesson {
        game: GameId::Lanrick,
        title: "Setting the mark",
        rule: "Rule 5, L3-9",
        record: LANRICK_PLACED,
        task: "The men are placed. As White, set the mark on a field square: its rendezvous (the mark's square and its eight neighbours) may hold none of your men, and you must not be able to bring them all into it in one turn.",
        learnt: "The setter marks a rendezvous he cannot reach at once; his opponent plays first.",
        check: legal,
        wrong: "c3",
        answers: &["c4"],
    },
    Lesson {
        game: GameId::Lanrick,
        title: "The first turn: two squares",
        rule: "Rule 4",
        record: LANRICK_MARKED,
        task: "White set the mark on c4: the rendezvous is b3–d5. As Black you play first, and the first turn of a round has only 2 squares. Move your men 2 squares in all, such as `h5-f5`.",
        learnt: "The round's first turn has 2 squares; every later turn has one square for each of your men.",
        check: whole_budget,
        wrong: "h5-g5",
        answers: &["h5-f5"],
    },
    Lesson {
        game: GameId::Lanrick,
        title: "The budget",
        rule: "Rule 4, L3-3",
        record: LANRICK_TURN,
        task: "Black to play, with 5 men, so 5 squares. Use all five, on one man or split among several (`f5-e5 h6-f6` moves two men 3 squares); a man moved twice keeps to one line.",
        learnt: "A turn's squares are shared among the men as you like; men move like queens and never pass over men.",
        check: whole_budget,
        wrong: "f5-e5 h6-f6",
        answers: &["f5-d5 h6-f6 g8-f7"],
    },
    Lesson {
        game: GameId::Lanrick,
        title: "Winning the rendezvous",
        rule: "Rule 6, L3-5",
        record: LANRICK_BEFORE_WIN,
        task: "White to play, 5 squares. Four of your men are in the rendezvous b3–d5. Bring the last one in this turn.",
        learnt: "The rendezvous is won the moment all your men are in it; the turn ends there.",
        check: wins_rendezvous,
        wrong: "b1-b2",
        answers: &["b1-c2 c2-d3"],
    },
    Lesson {
        game: GameId::Lanrick,
        title: "Taking a man",
        rule: "Rule 6, L3-6",
        record: LANRICK_WON,
        task: "You won the rendezvous. Take one of Black's men who is not in it: `x` and his square, such as `xf8`.",
        learnt: "The winner takes a man who is not in the rendezvous, from the field or from the border.",
        check: legal,
        wrong: "xd5",
        answers: &["xh7"],
    },
    Lesson {
        game: GameId::Lanrick,
        title: "The wanderers",
        rule: "Rule 6, L3-6",
        record: LANRICK_TAKEN,
        task: "Black's men on f6 and f7 are neither in the rendezvous nor on the border: they are wanderers, and you send each of them to the border, one step each, along a line and never over a man (`f7-e8`).",
        learnt: "The winner sends every wanderer of the loser to the border.",
        check: wanderers,
        wrong: "b3-a3",
        answers: &["f7-e8", "f6-h6"],
    },
    Lesson {
        game: GameId::Lanrick,
        title: "Equalising the field",
        rule: "Rule 7, L3-7",
        record: LANRICK_SENT_HOME,
        task: "You have 5 men in the field and Black has 1 (d5). Equalise the field: move your own field men to the border, one at a time (`b5-b8`), until you have as many in the field as Black.",
        learnt: "The player with more men in the field moves his own to the border until the fields are equal.",
        check: equalise,
        wrong: "d5-d8",
        answers: &["b5-b8", "b4-a4", "b3-a2", "c3-c1"],
    },
    Lesson {
        game: GameId::Lanrick,
        title: "The returns and the next mark",
        rule: "Rule 8, L3-8",
        record: LANRICK_EQUAL,
        task: "Both fields hold one man (d3, d5). The returns begin with the player with fewer men: you, as Black. Return your man to the border; White returns his; then, as the first to return, set the next mark.",
        learnt: "The field men go back one at a time, fewer men first; that player sets the next mark.",
        check: returns,
        wrong: "d3-d1",
        answers: &["d5-d8", "b2"],
    },
    Lesson {
        game: GameId::Lanrick,
        title: "The end of the game",
        rule: "Rule 8, L3-11",
        record: &[
            "h8", "a1", "g8", "a2", "f8", "a3", "h7", "b1", "h6", "c1", "b2", "xh8", "b2", "xg8",
            "b2", "xf8", "b2",
        ],
        task: "White marked b2, where all your men already are: you, Black, win the rendezvous at once, as you did three times before. You have taken three men. Take the fourth.",
        learnt: "Whoever takes four men wins the game.",
        check: wins_the_game,
        wrong: "xa1",
        answers: &["xh7"],
    },
];

/// The worked example's record at each lesson's position.
const LANRICK_PLACED: &[&str] = LANRICK.split_at(10).0;
const LANRICK_MARKED: &[&str] = LANRICK.split_at(11).0;
const LANRICK_TURN: &[&str] = LANRICK.split_at(13).0;
const LANRICK_BEFORE_WIN: &[&str] = LANRICK.split_at(14).0;
const LANRICK_WON: &[&str] = LANRICK.split_at(15).0;
const LANRICK_TAKEN: &[&str] = LANRICK.split_at(16).0;
const LANRICK_SENT_HOME: &[&str] = LANRICK.split_at(18).0;
const LANRICK_EQUAL: &[&str] = LANRICK.split_at(22).0;
