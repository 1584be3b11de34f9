//! What Muster says about Lanko: prompts, events, results, rules and notation.

use muster_rules::lanko::{Ending, Kind, Lanko, LankoEvent, LankoMove, Piece, Variant};
use muster_rules::{Game, Outcome, Seat, Team};

/// What the seat to move is asked to do, with an example from the position.
pub fn prompt(g: &Lanko) -> String {
    let moves = g.legal_moves();
    let Some(first) = moves.first() else {
        return "nothing: the game is over".into();
    };
    let example = g.format_move(first);
    match first {
        LankoMove::Capture(_) => format!(
            "capturing is compulsory: capture, going on to the end, e.g. `move {example}` ({} capture{} — `moves` lists them)",
            moves.len(),
            if moves.len() == 1 { "" } else { "s" }
        ),
        LankoMove::Pass => "you cannot move: pass with `move ---`".into(),
        _ => format!(
            "move a {} piece on your side or your common strip, e.g. `move {example}` ({} moves — `moves` lists them)",
            if muster_rules::lanko::plays_white(g.next_seat()) {
                "white"
            } else {
                "black"
            },
            moves.len()
        ),
    }
}

fn label(g: &Lanko, sq: u8) -> &str {
    g.board().label(sq)
}

fn pieces(taken: &[(u8, Piece)]) -> String {
    let mut parts = Vec::new();
    for (kind, one, many) in [
        (Kind::Big, "a big castle", "big castles"),
        (Kind::Small, "a small castle", "small castles"),
        (Kind::Pawn, "a pawn", "pawns"),
    ] {
        let n = taken.iter().filter(|(_, p)| p.kind == kind).count();
        match n {
            0 => {}
            1 => parts.push(one.to_string()),
            n => parts.push(format!("{n} {many}")),
        }
    }
    match parts.len() {
        0 => "nothing".into(),
        1 => parts.remove(0),
        _ => {
            let last = parts.pop().unwrap();
            format!("{} and {last}", parts.join(", "))
        }
    }
}

/// One event in a sentence, naming players by `name(seat)`.
pub fn event(e: &LankoEvent, g: &Lanko, name: &dyn Fn(Seat) -> String) -> String {
    let goal = g.variant().goal_word();
    match e {
        LankoEvent::Moved {
            seat,
            piece,
            from,
            over,
            to,
        } => {
            let verb = match over {
                None => "moves",
                Some(_) if g.variant() == Variant::L103 => "leaps",
                Some(_) => "jumps",
            };
            format!(
                "{} {verb} the {} {}-{}.",
                name(*seat),
                piece.kind.word(),
                label(g, *from),
                label(g, *to)
            )
        }
        LankoEvent::Captured {
            seat,
            piece,
            path,
            taken,
        } => format!(
            "{} captures with the {} {}, taking {}.",
            name(*seat),
            piece.kind.word(),
            path.iter()
                .map(|s| label(g, *s))
                .collect::<Vec<_>>()
                .join(";"),
            pieces(taken)
        ),
        LankoEvent::Entered { piece, square } => format!(
            "The {} {} reaches the {goal} square {}: it stays there and counts {} points.",
            piece.colour(),
            piece.kind.word(),
            label(g, *square),
            piece.kind.points(true)
        ),
        LankoEvent::Burned { square, .. } => format!(
            "The pawn is burned on the middle square {} and leaves the board.",
            label(g, *square)
        ),
        LankoEvent::Passed { seat } => format!("{} cannot move and passes (---).", name(*seat)),
        LankoEvent::Declared { seat } => format!(
            "{} declares that its castles will not go onto the {goal} squares.",
            name(*seat)
        ),
        LankoEvent::Ended { ending, score, .. } => format!(
            "The game is over: {}. White {} points, Black {}.",
            ending_words(*ending, g.variant()),
            score[0],
            score[1]
        ),
    }
}

/// Why the game ended, in words.
pub fn ending_words(ending: Ending, variant: Variant) -> String {
    let goal = variant.goal_word();
    match ending {
        Ending::GoalsFull => format!("every {goal} square holds a castle"),
        Ending::NoCastleLeft => format!("no castle is left off the {goal} squares"),
        Ending::ColourGone => "every piece of one colour is gone".into(),
        Ending::Declared => format!(
            "every seat with castles has declared they stay off the {goal} squares, and no castle can be captured"
        ),
        Ending::NoMoves => "no seat can move".into(),
        Ending::Repetition => "the same position occurred for the third time".into(),
        Ending::Agreement => "the players agreed to end it".into(),
        Ending::Resignation => "a side resigned".into(),
        Ending::Time => "a clock ran out".into(),
    }
}

/// The result in a sentence: the winning pair and the points difference (K-9).
pub fn result(g: &Lanko, team_names: &dyn Fn(Team) -> String) -> String {
    let [w, b] = g.score();
    match g.outcome() {
        Some(Outcome::Winner {
            team,
            reason: muster_rules::EndReason::Resignation,
        }) => format!(
            "{} win{} by resignation.",
            team_names(team),
            plural(team_names, team)
        ),
        Some(Outcome::Winner {
            team,
            reason: muster_rules::EndReason::Time,
        }) => format!(
            "{} win{} on time.",
            team_names(team),
            plural(team_names, team)
        ),
        Some(Outcome::Winner { team, .. }) => {
            let (hi, lo) = if team == Team::WHITE { (w, b) } else { (b, w) };
            format!(
                "{} win{} by {} points ({hi}–{lo}).",
                team_names(team),
                plural(team_names, team),
                hi - lo
            )
        }
        Some(Outcome::Draw { .. }) => format!("Drawn: both sides have {w} points."),
        None => "The game is in progress.".into(),
    }
}

fn plural(team_names: &dyn Fn(Team) -> String, team: Team) -> &'static str {
    if team_names(team).contains(" and ") {
        ""
    } else {
        "s"
    }
}

/// A short statement of the rules.
pub fn rules(variant: Variant) -> String {
    let board = match variant {
        Variant::L88 => {
            "Lanko-88: 88 squares; two border strips cross at the 4 middle squares; barriers at the corners."
        }
        Variant::L68 => "Lanko-68: the same game on a smaller board of 68 squares.",
        Variant::L103 => {
            "Lanko-103: a draughts-like board; the 3×3 centre has 5 manoeuvre squares (×) and 4 end squares (○); each seat has a standby pawn on a light square (#)."
        }
    };
    let moves = match variant {
        Variant::L103 => {
            "3. A piece moves one square diagonally forward, or leaps diagonally forward over a piece of its own colour. Captures go diagonally forward or backward over an enemy piece onto the empty square behind, and go on to the end.\n\
4. A castle enters an end square only from a manoeuvre square, stepping forward or sideways; there it stays and counts triple. Pawns never enter end squares. A standby pawn comes into play when a dark square in front or beside it is empty."
        }
        _ => {
            "3. A pawn moves one square forward, left, right or diagonally forward, or jumps forward, left or right over a pawn of its own colour. A castle moves forward, left or right, and never jumps or is jumped. Captures go straight — forward, back or sideways — over an enemy piece onto the empty square behind, and go on to the end.\n\
4. A castle that enters a middle square stays there and counts triple; a pawn that enters one is burned. Barriers may be passed only by a pawn's diagonal step."
        }
    };
    format!(
        "{board} Two pairs: S and N play White, W and E Black; turns go S, W, N, E. Two players hold both seats of a colour; three players: a pair (S, N) against a solo player (W and E).\n\
1. Forward is away from your seat. You move pieces of your colour on your side of your pair's common strip (S and N: the W–E strip; W and E: the N–S strip), or on that strip.\n\
2. Capturing is compulsory, with free choice among captures; each captured piece leaves at once.\n\
{moves}\n\
5. With no legal move you pass. You may declare (`declare`) that your castles will stay out; when every seat with castles has, and no castle can be captured, the game ends. It also ends when every {goal} square is taken, no castle is left off them, a colour is wiped out, no seat can move, the same position occurs three times, or by agreement (`draw`).\n\
6. Points: pawn 2, small castle 6, big castle 12, a castle on a {goal} square triple. The pair with more points wins by the difference.",
        goal = variant.goal_word()
    )
}

/// How the moves are written.
pub fn notation(variant: Variant) -> String {
    let labels = match variant {
        Variant::L103 => {
            "field squares 1–24, strip squares N1…, S1…, W1…, E1… by arm, manoeuvre squares X1–X5, end squares O1–O4, standby squares S0, W0, N0, E0"
        }
        Variant::L88 => {
            "field squares 1–52, strip squares N1–N8, S1–S8, W1–W8, E1–E8 by arm, middle squares M1–M4"
        }
        Variant::L68 => {
            "field squares 1–32, strip squares N1–N8, S1–S8, W1–W8, E1–E8 by arm, middle squares M1–M4"
        }
    };
    let (step, capture, enter) = match variant {
        Variant::L103 => ("14-X4", "18;X4;W2", "X4-O2(X)"),
        _ => ("37-29", "37;W7;21", "S1-M3(X)"),
    };
    format!(
        "Lanko notation: squares by their labels on the board image ({labels}).\n\
• a move, jump or leap: from-to — `{step}`\n\
• a capture: its start square and every landing square — `{capture}`\n\
• `(X)` after a castle's move onto {} square — `{enter}` (optional when you type it)\n\
• `---` a pass (Muster plays it for you when you cannot move); `===` or `declare`: your castles stay out\n\
• a finished game's record ends with `+++`",
        if variant == Variant::L103 {
            "an end"
        } else {
            "a middle"
        }
    )
}
