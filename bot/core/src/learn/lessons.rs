//! The lessons (docs/learn.md): for each game, short tasks on a board, each reached by a record
//! of decisions from the start (the rules documents' worked examples), so that a lesson's board
//! is drawn, and kept, as any game's is. A lesson's check reads the position after the
//! learner's decision, as the rules engine played it: solved, one more decision to make, or
//! not what the task asks (with what was wrong).

use muster_rules::croquet::Status as BallStatus;
use muster_rules::lanrick::{Phase, Square, Written, parse_written, squares};
use muster_rules::{AnyGame, Game, GameId, Seat};

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
}

/// The lessons of `game`, in order (empty for a game with none yet).
pub fn course(game: GameId) -> &'static [Lesson] {
    match game {
        GameId::Lanrick => &LANRICK_COURSE,
        GameId::Croquet => &CROQUET_COURSE,
        _ => &[],
    }
}

/// Any legal decision solves it (the rules engine has refused the others, saying why).
fn legal(_: &Tried<'_>) -> Verdict {
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

/// A turn using exactly the budget the position gave.
fn whole_budget(t: &Tried<'_>) -> Verdict {
    let AnyGame::Lanrick(before) = t.before else {
        return Verdict::Wrong("this lesson is a Lanrick position".into());
    };
    let budget = before.budget().unwrap_or(0);
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
static LANRICK_COURSE: [Lesson; 10] = [
    Lesson {
        game: GameId::Lanrick,
        title: "Placing the men",
        rule: "Rule 5",
        record: &[],
        task: "Place your first man: White begins, and a man goes on any empty square of the border, the 28 squares of the board's edge (a square, such as `a3`).",
        learnt: "The men start on the border, placed one at a time, White and Black in turn, five each.",
        check: legal,
    },
    Lesson {
        game: GameId::Lanrick,
        title: "Setting the mark",
        rule: "Rule 5, L3-9",
        record: LANRICK_PLACED,
        task: "The men are placed. As White, set the mark on a field square: its rendezvous (the mark's square and its eight neighbours) may hold none of your men, and you must not be able to bring them all into it in one turn.",
        learnt: "The setter marks a rendezvous he cannot reach at once; his opponent plays first.",
        check: legal,
    },
    Lesson {
        game: GameId::Lanrick,
        title: "The first turn: two squares",
        rule: "Rule 4",
        record: LANRICK_MARKED,
        task: "White set the mark on c4: the rendezvous is b3–d5. As Black you play first, and the first turn of a round has only 2 squares. Move your men 2 squares in all, such as `h5-f5`.",
        learnt: "The round's first turn has 2 squares; every later turn has one square for each of your men.",
        check: whole_budget,
    },
    Lesson {
        game: GameId::Lanrick,
        title: "The budget",
        rule: "Rule 4, L3-3",
        record: LANRICK_TURN,
        task: "Black to play, with 5 men, so 5 squares. Use all five, on one man or split among several (`f5-e5 h6-f6` moves two men 3 squares); a man moved twice keeps to one line.",
        learnt: "A turn's squares are shared among the men as you like; men move like queens and never pass over men.",
        check: whole_budget,
    },
    Lesson {
        game: GameId::Lanrick,
        title: "Winning the rendezvous",
        rule: "Rule 6, L3-5",
        record: LANRICK_BEFORE_WIN,
        task: "White to play, 5 squares. Four of your men are in the rendezvous b3–d5. Bring the last one in this turn.",
        learnt: "The rendezvous is won the moment all your men are in it; the turn ends there.",
        check: wins_rendezvous,
    },
    Lesson {
        game: GameId::Lanrick,
        title: "Taking a man",
        rule: "Rule 6, L3-6",
        record: LANRICK_WON,
        task: "You won the rendezvous. Take one of Black's men who is not in it: `x` and his square, such as `xf8`.",
        learnt: "The winner takes a man who is not in the rendezvous, from the field or from the border.",
        check: legal,
    },
    Lesson {
        game: GameId::Lanrick,
        title: "The wanderers",
        rule: "Rule 6, L3-6",
        record: LANRICK_TAKEN,
        task: "Black's men on f6 and f7 are neither in the rendezvous nor on the border: they are wanderers, and you send each of them to the border, one step each, along a line and never over a man (`f7-e8`).",
        learnt: "The winner sends every wanderer of the loser to the border.",
        check: wanderers,
    },
    Lesson {
        game: GameId::Lanrick,
        title: "Equalising the field",
        rule: "Rule 7, L3-7",
        record: LANRICK_SENT_HOME,
        task: "You have 5 men in the field and Black has 1 (d5). Equalise the field: move your own field men to the border, one at a time (`b5-b8`), until you have as many in the field as Black.",
        learnt: "The player with more men in the field moves his own to the border until the fields are equal.",
        check: equalise,
    },
    Lesson {
        game: GameId::Lanrick,
        title: "The returns and the next mark",
        rule: "Rule 8, L3-8",
        record: LANRICK_EQUAL,
        task: "Both fields hold one man (d3, d5). The returns begin with the player with fewer men: you, as Black. Return your man to the border; White returns his; then, as the first to return, set the next mark.",
        learnt: "The field men go back one at a time, fewer men first; that player sets the next mark.",
        check: returns,
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
static CROQUET_COURSE: [Lesson; 7] = [
    Lesson {
        game: GameId::Croquet,
        title: "Steps",
        rule: "Rule 1, C-1",
        record: &[],
        task: "Your ball, White, is on 0; the first hoop is 10. A turn is a step of 1 to 8 forward. Step as near to the hoop as one step can go.",
        learnt: "A turn moves your ball 1 to 8 forward.",
        check: first_step,
    },
    Lesson {
        game: GameId::Croquet,
        title: "Taking a hoop",
        rule: "Rule 2, C-2",
        record: AT17,
        task: "You are on 17; your hoop is 20. Take it in one step: go from below it to the same distance above it.",
        learnt: "A hoop is taken by a step from below it to as far above it as you were below (17 → 23).",
        check: takes_the_hoop,
    },
    Lesson {
        game: GameId::Croquet,
        title: "Into the hoop and out",
        rule: "Rule 3, C-3",
        record: AT17,
        task: "The other way to take hoop 20: step exactly into it now, and come out next turn with the same step.",
        learnt: "A ball in a hoop comes out only with the step that took it in, and that takes the hoop.",
        check: in_and_out,
    },
    Lesson {
        game: GameId::Croquet,
        title: "A miss",
        rule: "Rule 2, C-4",
        record: &["7", "1", "6", "1", "4", "2", "5", "1"],
        task: "Your 5 took you from 17 to 22: past hoop 20 but not the same distance above it, so you missed it. Go back below 20 with a back step, such as `-4`.",
        learnt: "After a miss, the ball must first go back below the hoop; missing it twice loses.",
        check: legal,
    },
    Lesson {
        game: GameId::Croquet,
        title: "Bars",
        rule: "Rule 4, C-6",
        record: &["2"],
        task: "White's 2 bars you, Black, from 2 and 7 this turn. Now bar White from 4 on his next turn.",
        learnt: "Each step bars the other from that step and from 9 minus it on his next turn.",
        check: bars_four,
    },
    Lesson {
        game: GameId::Croquet,
        title: "Keeping in",
        rule: "Rule 6, C-7",
        record: &["7", "1", "6", "1", "4", "2", "3"],
        task: "White stepped into hoop 20 and can come out only with 3. As Black, keep him in: bar 3 with your step, so that he must pass.",
        learnt: "While the other is in a hoop needing n, you may bar him with n or 9 − n, but not the same step twice running.",
        check: keeps_in,
    },
    Lesson {
        game: GameId::Croquet,
        title: "The peg",
        rule: "Rule 5, C-2",
        record: PEG,
        task: "You are on 97, past hoop 90: only the peg, 100, is left. Land exactly on it.",
        learnt: "Whoever lands exactly on 100 wins; passing it is a miss of the peg.",
        check: on_the_peg,
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
