//! Lanko's lessons (docs/learn.md), on the Lanko-88 board (docs/rules/lanko.md): the board and
//! its turns, seats and teams, captures, the middle squares and the declaration. Each position is
//! reached by a short record from the start, the other seats answering as the record has them.

use muster_rules::lanko::{Kind, LankoEvent, forward};
use muster_rules::{AnyEvent, AnyGame, GameId};

use super::lessons::{Lesson, Tried, Verdict};

/// The Lanko events of the learner's decision.
fn events<'a>(t: &'a Tried<'_>) -> impl Iterator<Item = &'a LankoEvent> {
    t.events.iter().filter_map(|e| match e {
        AnyEvent::Lanko(e) => Some(e),
        _ => None,
    })
}

/// A step one square forward (away from the learner's edge), by a pawn when `pawn` asks it.
fn forward_step(t: &Tried<'_>, pawn: bool) -> Verdict {
    let AnyGame::Lanko(game) = t.before else {
        return Verdict::Wrong("this lesson is a Lanko position".into());
    };
    let Some(LankoEvent::Moved {
        piece, from, to, ..
    }) = events(t).find(|e| matches!(e, LankoEvent::Moved { .. }))
    else {
        return Verdict::Wrong("this lesson asks for a step, such as `44-37`".into());
    };
    let ahead = game.board().neighbour(*from, forward(t.seat));
    if pawn && piece.kind != Kind::Pawn {
        Verdict::Wrong(format!(
            "that moves a {}; this lesson asks for a pawn",
            piece.kind.word()
        ))
    } else if ahead != Some(*to) {
        let board = game.board();
        Verdict::Wrong(format!(
            "{}-{} is a step, but not forward: forward is the square straight ahead, away from \
             your own edge",
            board.label(*from),
            board.label(*to)
        ))
    } else {
        Verdict::Solved
    }
}

fn pawn_forward(t: &Tried<'_>) -> Verdict {
    forward_step(t, true)
}

fn piece_forward(t: &Tried<'_>) -> Verdict {
    forward_step(t, false)
}

/// A capture taking at least `least` pieces.
fn captures(t: &Tried<'_>, least: usize) -> Verdict {
    match events(t).find_map(|e| match e {
        LankoEvent::Captured { taken, .. } => Some(taken.len()),
        _ => None,
    }) {
        Some(n) if n >= least => Verdict::Solved,
        Some(n) => Verdict::Wrong(format!(
            "that takes {n}: the capture goes on while the piece can capture again"
        )),
        None => Verdict::Wrong("that is not a capture".into()),
    }
}

fn one_capture(t: &Tried<'_>) -> Verdict {
    captures(t, 1)
}

fn two_captures(t: &Tried<'_>) -> Verdict {
    captures(t, 2)
}

/// A castle brought onto a middle square.
fn enters(t: &Tried<'_>) -> Verdict {
    if events(t).any(|e| matches!(e, LankoEvent::Entered { .. })) {
        Verdict::Solved
    } else {
        Verdict::Wrong(
            "your castle is still off the middle squares: step it from N7 onto M1".into(),
        )
    }
}

/// A declaration, then a move.
fn declares(t: &Tried<'_>) -> Verdict {
    let declared = |g: &AnyGame| matches!(g, AnyGame::Lanko(g) if g.declared()[t.seat.index()]);
    if !declared(t.before) && !declared(t.after) {
        Verdict::Wrong("you moved without declaring: declare first, with `declare`".into())
    } else if !declared(t.before) {
        Verdict::More("You declared. A declaration is not a turn: now make your move.".into())
    } else {
        Verdict::Solved
    }
}

/// The Lanko-88 position where W can bring a castle in (its small castle on N7, next to M1).
const CASTLE_IN: &[&str] = &[
    "45-38", "12-W2", "7-14", "41-40", "47;32", "W2-W7", "6-12", "33;31", "S7-45", "11;13;N5",
    "1-7", "N5-N7", "S8-S6",
];

/// Lanko-88: the board and the turns, forward, captures, the middle squares, the declaration.
pub static COURSE: [Lesson; 6] = [
    Lesson {
        game: GameId::Lanko88,
        title: "The board and the first move",
        rule: "K-1, K-3",
        record: &[],
        task: "Four seats play in turn S, W, N, E: S and N are White, W and E Black. You are S, at the bottom, and you move first. A pawn steps one square forward, left, right or diagonally forward, onto an empty square; for S forward is north, up the board. Move a pawn one square straight forward, such as `44-37`.",
        learnt: "S opens; the seats follow clockwise, S, W, N, E, and each moves one piece a turn.",
        check: pawn_forward,
        wrong: "44-38",
        answers: &["44-37"],
    },
    Lesson {
        game: GameId::Lanko88,
        title: "Seats, teams and forward",
        rule: "K-1, K-2",
        record: &["45-38"],
        task: "You are W, on the left, and with E you play Black. You move the black pieces west of the N–S strip (the two middle columns) or on it; E moves those east of it. Forward is away from your own edge: for you, east. Move one of your pieces one square forward.",
        learnt: "Each seat moves its colour's pieces on its own side of its pair's strip, or on the strip, and forward is away from its edge.",
        check: piece_forward,
        wrong: "20-W2",
        answers: &["12-13"],
    },
    Lesson {
        game: GameId::Lanko88,
        title: "Capturing is compulsory",
        rule: "K-4",
        record: &["44-37"],
        task: "S's pawn on 37 stands next to your pawn on 36, with the square behind it empty. A capture jumps over an enemy piece, forward, backward, left or right, to the empty square behind, and if you can capture you must. Capture it, written with `;` between the squares.",
        learnt: "A seat that can capture must; the piece taken leaves the board at once.",
        check: one_capture,
        wrong: "12-13",
        answers: &["36;38"],
    },
    Lesson {
        game: GameId::Lanko88,
        title: "Capturing on",
        rule: "K-4",
        record: &["44-38", "36-37", "9-16", "17;15"],
        task: "You are S again. Your pawn on 38 can capture, and after that capture it can capture again: a capture goes on while it can. Take two black pieces with it, writing every square it lands on: `38;…;…`.",
        learnt: "A capture goes on to the end; among different captures you choose freely.",
        check: two_captures,
        wrong: "38;36",
        answers: &["38;36;W6"],
    },
    Lesson {
        game: GameId::Lanko88,
        title: "The middle squares",
        rule: "K-5, K-9",
        record: CASTLE_IN,
        task: "You are W. Your small castle on N7 stands next to the middle square M1. A castle on a middle square stays there to the end, can never be captured and counts triple: 18 points instead of 6 (a pawn that steps in is burned). Bring it in.",
        learnt: "Castles score by reaching the middle; the game ends when the four middle squares are full, and the pair with more points wins by the difference.",
        check: enters,
        wrong: "N7-N8",
        answers: &["N7-M1"],
    },
    Lesson {
        game: GameId::Lanko88,
        title: "Declaring",
        rule: "K-8",
        record: CASTLE_IN,
        task: "You are W, holding castles. A seat may declare, once, before its move, that it will not bring its castles onto the middle squares: the game ends when every seat holding castles has declared and no castle can be taken. Declare (`declare`), then make a move that keeps your word.",
        learnt: "A declaration binds for the rest of the game and is not a turn; the points then decide the game as they stand.",
        check: declares,
        wrong: "N7-N8",
        answers: &["declare", "N7-N8"],
    },
];
