//! Notation of the first version (docs/rules/lanrick1880.md): the Third Edition's squares,
//! steps and takings, plus the set-up (`W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7`) and the shift of the
//! mark (`*e5`).

use super::{Move, Phase};
use crate::game::NotationError;
use crate::lanrick::{Square, Squares, Written, parse_written, squares};

fn square_list(text: &str, whole: &str) -> Result<Squares, NotationError> {
    let mut set = 0;
    for part in text.split(',').filter(|p| !p.is_empty()) {
        let sq: Square = part.parse().map_err(|()| {
            NotationError::new(
                whole,
                format!("`{part}` is not a square: squares are a1 to h8"),
            )
        })?;
        if set & sq.bit() != 0 {
            return Err(NotationError::new(whole, format!("{sq} is listed twice")));
        }
        set |= sq.bit();
    }
    Ok(set)
}

/// Reads a move for `phase`.
pub fn parse(phase: Phase, text: &str) -> Result<Move, NotationError> {
    let t = text.trim();
    let lower = t;
    if lower.starts_with("W:") || lower.starts_with("B:") {
        let (mut white, mut black) = (None, None);
        for token in lower.split(' ') {
            match token.split_once(':') {
                Some(("W", list)) if white.is_none() => white = Some(square_list(list, t)?),
                Some(("B", list)) if black.is_none() => black = Some(square_list(list, t)?),
                _ => {
                    return Err(NotationError::new(
                        t,
                        "the set-up is W: and B: with five squares each, such as W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7",
                    ));
                }
            }
        }
        let (Some(white), Some(black)) = (white, black) else {
            return Err(NotationError::new(
                t,
                "the set-up names both colours: W:… B:…",
            ));
        };
        return match phase {
            Phase::Setup => Ok(Move::Setup { white, black }),
            _ => Err(NotationError::new(
                t,
                format!("in the {} phase, {}", phase.name(), phase.asks()),
            )),
        };
    }
    if let Some(rest) = lower.strip_prefix('*') {
        let to: Square = rest.parse().map_err(|()| {
            NotationError::new(
                t,
                format!("`{rest}` is not a square: a shift is * and the new centre, such as *e5"),
            )
        })?;
        return match phase {
            Phase::Play => Ok(Move::Shift(to)),
            _ => Err(NotationError::new(
                t,
                format!("in the {} phase, {}", phase.name(), phase.asks()),
            )),
        };
    }
    let written = parse_written(t)?;
    match (phase, written) {
        (Phase::Choose, Written::Square(sq)) => Ok(Move::Choose(sq)),
        (Phase::Play, Written::Steps(steps)) => Ok(Move::Turn(steps)),
        (Phase::Capture, Written::Take(sq)) => Ok(Move::Take(sq)),
        (Phase::Wanderers, Written::Steps(steps)) => match steps.as_slice() {
            [step] => Ok(Move::ToBorder(*step)),
            _ => Err(NotationError::new(
                t,
                "move one wanderer at a time, with one step such as e5-e1",
            )),
        },
        (Phase::Over, _) => Err(NotationError::new(t, "the game is over")),
        _ => Err(NotationError::new(
            t,
            format!("in the {} phase, {}", phase.name(), phase.asks()),
        )),
    }
}

/// The squares of a set by name (file, then rank), as in `B:a8,c8,e8,g8,h7`.
fn names(set: Squares) -> String {
    let mut all: Vec<Square> = squares(set).collect();
    all.sort_by_key(|s| (s.file(), s.rank()));
    all.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// The canonical text of a move.
pub fn format(mv: &Move) -> String {
    match mv {
        Move::Setup { white, black } => format!("W:{} B:{}", names(*white), names(*black)),
        Move::Choose(sq) => sq.to_string(),
        Move::Turn(steps) => steps
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" "),
        Move::Shift(sq) => format!("*{sq}"),
        Move::Take(sq) => format!("x{sq}"),
        Move::ToBorder(step) => step.to_string(),
    }
}
