//! The words of the Lanko boards: the caption's result and notes on the last move, and the
//! description for screen readers.

use muster_rules::lanko::{Board, Ending, Lanko, LankoEvent, Sq, TABLE};
use muster_rules::{Game, Outcome, Seat};

/// `S (Alice)`, or `S` when the seat has no name.
pub fn who(seat: usize, names: [&str; 4]) -> String {
    let letter = TABLE.seats[seat & 3].to_ascii_uppercase();
    match names[seat & 3] {
        "" => letter,
        name => format!("{letter} ({name})"),
    }
}

pub fn team(white: bool) -> &'static str {
    if white { "White" } else { "Black" }
}

pub fn plural(n: u32, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// The result line and the reason, once the game is over.
pub fn result(game: &Lanko) -> Option<(String, String)> {
    let outcome = game.outcome()?;
    let [w, b] = game.score();
    let goal = game.variant().goal_word();
    let reason = match game.ending() {
        Some(Ending::GoalsFull) => format!("Every {goal} square holds a castle"),
        Some(Ending::NoCastleLeft) => format!("No castle is left off the {goal} squares"),
        Some(Ending::ColourGone) => {
            let white_left = game.cells().iter().flatten().any(|p| p.white);
            format!("{} has no pieces left", team(!white_left))
        }
        Some(Ending::Declared) => "Every seat holding castles declared".to_string(),
        Some(Ending::NoMoves) => "No seat could move".to_string(),
        Some(Ending::Repetition) => "The same position for the third time".to_string(),
        Some(Ending::Agreement) => "The players agreed to end the game".to_string(),
        Some(Ending::Resignation | Ending::Time) | None => String::new(),
    };
    let line = match outcome {
        Outcome::Winner { team: t, .. } if game.ending() == Some(Ending::Resignation) => {
            let white = t.index() == 0;
            return Some((
                format!("{} wins: {} resigned", team(white), team(!white)),
                String::new(),
            ));
        }
        Outcome::Winner { team: t, .. } if game.ending() == Some(Ending::Time) => {
            let white = t.index() == 0;
            return Some((format!("{} wins on time", team(white)), String::new()));
        }
        Outcome::Winner { team: t, .. } => {
            let (win, lose) = if t.index() == 0 { (w, b) } else { (b, w) };
            format!(
                "{} wins by {} ({win}–{lose})",
                team(t.index() == 0),
                plural(win.abs_diff(lose), "point")
            )
        }
        Outcome::Draw { .. } => format!("Drawn at {} each", plural(w, "point")),
    };
    Some((line, reason))
}

/// Short notes on what the last move did beyond the arrows: passes, declarations, captures,
/// castles home, pawns burned.
pub fn notes(board: &Board, events: &[LankoEvent]) -> Vec<String> {
    let seat = |s: Seat| TABLE.seats[s.index() & 3].to_ascii_uppercase();
    let mut out = Vec::new();
    for e in events {
        match e {
            LankoEvent::Passed { seat: s } => out.push(format!("{} passed", seat(*s))),
            LankoEvent::Declared { seat: s } => out.push(format!(
                "{} declared: no castles onto the {} squares",
                seat(*s),
                if board.layout == muster_rules::lanko::Layout::Diagonal {
                    "end"
                } else {
                    "middle"
                }
            )),
            LankoEvent::Captured { seat: s, taken, .. } => {
                let list: Vec<String> = taken
                    .iter()
                    .map(|(sq, p)| format!("{} {}", p.kind.word(), board.label(*sq)))
                    .collect();
                out.push(format!("{} took {}", seat(*s), list.join(", ")));
            }
            LankoEvent::Entered { piece, square } => out.push(format!(
                "{} home on {}",
                piece.kind.word(),
                board.label(*square)
            )),
            LankoEvent::Burned { square, .. } => {
                out.push(format!("pawn burned on {}", board.label(*square)))
            }
            LankoEvent::Moved { .. } | LankoEvent::Ended { .. } => {}
        }
    }
    out
}

/// The last move in words.
pub fn last_move(board: &Board, events: &[LankoEvent]) -> Option<String> {
    let seat = |s: Seat| TABLE.seats[s.index() & 3].to_ascii_uppercase();
    events
        .iter()
        .find_map(|e| match e {
            LankoEvent::Moved {
                seat: s,
                piece,
                from,
                over,
                to,
            } => Some(format!(
                "Last move: {} moved the {} {} from {} to {}{}",
                seat(*s),
                piece.colour(),
                piece.kind.word(),
                board.label(*from),
                board.label(*to),
                over.map_or(String::new(), |o| format!(" over {}", board.label(o)))
            )),
            LankoEvent::Captured {
                seat: s,
                piece,
                path,
                ..
            } => Some(format!(
                "Last move: {} captured with the {} {} along {}",
                seat(*s),
                piece.colour(),
                piece.kind.word(),
                path.iter()
                    .map(|q| board.label(*q))
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            _ => None,
        })
        .map(|line| {
            let extra = notes(board, events);
            if extra.is_empty() {
                line
            } else {
                format!("{line}; {}", extra.join("; "))
            }
        })
        .or_else(|| {
            let extra = notes(board, events);
            (!extra.is_empty()).then(|| format!("Last move: {}", extra.join("; ")))
        })
}

/// Where the castles stand, for the description: each seat's (those only it may move), the
/// common ones of the border strips, and those at home; each group as `<who>: <castles>`.
pub fn castles(game: &Lanko, names: [&str; 4]) -> Vec<String> {
    let board = game.board();
    // (rank, group, castles): seats in turn order, then common castles, then castles at home.
    let mut groups: Vec<(usize, String, Vec<String>)> = Vec::new();
    for (sq, cell) in game.cells().iter().enumerate() {
        let Some(p) = cell.filter(|p| p.kind.is_castle()) else {
            continue;
        };
        let info = board.info(sq as Sq);
        let colour = usize::from(!p.white);
        let movers = if p.white {
            info.white_movers
        } else {
            info.black_movers
        };
        let seats: Vec<usize> = (0..4).filter(|i| movers & 1 << i != 0).collect();
        let (rank, key) = match &seats[..] {
            _ if info.role.is_goal() => (6 + colour, format!("{} castles at home", team(p.white))),
            [one] => (*one, format!("{}'s castles", who(*one, names))),
            _ => (
                4 + colour,
                format!(
                    "{} castles common to {}",
                    team(p.white),
                    seats
                        .iter()
                        .map(|i| who(*i, names))
                        .collect::<Vec<_>>()
                        .join(" and ")
                ),
            ),
        };
        let item = format!("{} {}", p.kind.word(), info.label);
        match groups.iter_mut().find(|g| g.1 == key) {
            Some(g) => g.2.push(item),
            None => groups.push((rank, key, vec![item])),
        }
    }
    groups.sort_by_key(|g| g.0);
    groups
        .into_iter()
        .map(|(_, key, items)| format!("{key}: {}", items.join(", ")))
        .collect()
}
