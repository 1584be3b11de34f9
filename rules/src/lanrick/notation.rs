//! Lanrick notation (see docs/rules/lanrick.md): reading text in two stages, syntax first
//! ([`parse_written`]) and then resolution against the phase ([`resolve`]), and writing moves.
//!
//! - placement and setting the mark: a bare square, `b1`, `d4`;
//! - a play turn: steps `from-to` separated by single spaces, in order, `c1-c3 d1-e2`;
//! - taking a man: `x` and his square, `xe5`;
//! - a man moved to the border: one step, `e5-e1`.

use super::board::Square;
use super::turns::Step;
use super::{LanrickMove, Phase};
use crate::game::NotationError;

/// A move as written, before it is matched to a phase.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Written {
    /// `d4`
    Square(Square),
    /// `c1-c3 d1-e2`
    Steps(Vec<Step>),
    /// `xe5`
    Take(Square),
}

fn square(token: &str, whole: &str) -> Result<Square, NotationError> {
    token.parse().map_err(|()| {
        const SQUARES: &str = "squares are a1 to h8, files a–h and ranks 1–8";
        if token == whole {
            NotationError::new(whole, format!("not a square: {SQUARES}"))
        } else {
            NotationError::new(whole, format!("`{token}` is not a square: {SQUARES}"))
        }
    })
}

/// Reads the syntax of a move. Case and runs of spaces are forgiven; the canonical form is
/// lower case with single spaces.
pub fn parse_written(text: &str) -> Result<Written, NotationError> {
    // Exactly the notation: lower case, steps separated by single spaces. (Chat input is tidied
    // by `normalise` before it gets here.)
    let lower = text.trim();
    if lower.contains("  ") || lower.contains('\t') {
        return Err(NotationError::new(
            lower,
            "separate the steps of a turn with single spaces, such as c1-c3 d1-e2",
        ));
    }
    let tokens: Vec<&str> = lower.split(' ').collect();
    let Some(first) = tokens.first() else {
        return Err(NotationError::new(
            "",
            "the move is empty: write a square (d4), a turn (c1-c3 d1-e2) or a taking (xe5)",
        ));
    };
    if let Some(rest) = first.strip_prefix('x') {
        if tokens.len() > 1 {
            return Err(NotationError::new(
                tokens[1],
                "a taking is one man only, such as xe5",
            ));
        }
        return Ok(Written::Take(square(rest, first)?));
    }
    if !first.contains('-') {
        if tokens.len() > 1 {
            return Err(NotationError::new(
                lower,
                "write one square on its own (d4), or a turn as steps from-to (c1-c3 d1-e2)",
            ));
        }
        return Ok(Written::Square(square(first, first)?));
    }
    let mut steps = Vec::with_capacity(tokens.len());
    for token in tokens {
        let Some((from, to)) = token.split_once('-') else {
            return Err(NotationError::new(
                token,
                "every step of a turn is written from-to, such as c1-c3",
            ));
        };
        if to.contains('-') {
            return Err(NotationError::new(
                token,
                "a step joins two squares; write each step on its own, separated by spaces (c1-c2 c2-c3)",
            ));
        }
        steps.push(Step {
            from: square(from, token)?,
            to: square(to, token)?,
        });
    }
    Ok(Written::Steps(steps))
}

/// Matches a written move to what the phase asks for.
pub fn resolve(phase: Phase, written: &Written, text: &str) -> Result<LanrickMove, NotationError> {
    let text = text.trim();
    let wrong = || {
        NotationError::new(
            text,
            format!("in the {} phase, {}", phase.name(), phase.asks()),
        )
    };
    match (phase, written) {
        (Phase::Placement, Written::Square(sq)) => Ok(LanrickMove::Place(*sq)),
        (Phase::Mark, Written::Square(sq)) => Ok(LanrickMove::Mark(*sq)),
        (Phase::Play, Written::Steps(steps)) => Ok(LanrickMove::Turn(steps.clone())),
        (Phase::Capture, Written::Take(sq)) => Ok(LanrickMove::Take(*sq)),
        (Phase::Wanderers | Phase::Equalise | Phase::Return, Written::Steps(steps)) => {
            match steps.as_slice() {
                [step] => Ok(LanrickMove::ToBorder(*step)),
                _ => Err(NotationError::new(
                    text,
                    "move one man to the border at a time, with one step such as e5-e1",
                )),
            }
        }
        (Phase::Over, _) => Err(NotationError::new(text, "the game is over")),
        _ => Err(wrong()),
    }
}

/// The canonical text of a move.
pub fn format(mv: &LanrickMove) -> String {
    match mv {
        LanrickMove::Place(sq) | LanrickMove::Mark(sq) => sq.to_string(),
        LanrickMove::Turn(steps) => steps
            .iter()
            .map(Step::to_string)
            .collect::<Vec<_>>()
            .join(" "),
        LanrickMove::Take(sq) => format!("x{sq}"),
        LanrickMove::ToBorder(step) => step.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_four_forms_are_read() {
        assert!(matches!(parse_written("d4"), Ok(Written::Square(_))));
        assert!(matches!(parse_written("xe5"), Ok(Written::Take(_))));
        assert!(matches!(parse_written("c1-c3 d1-e2"), Ok(Written::Steps(s)) if s.len() == 2));
        // Exactly the notation: capitals and double spaces are refused (chat input is tidied first).
        assert!(parse_written("C1-C3 d1-e2").is_err());
        assert!(parse_written("c1-c3  d1-e2").is_err());
        assert!(matches!(parse_written(" c1-c3 d1-e2 "), Ok(Written::Steps(s)) if s.len() == 2));
    }

    #[test]
    fn bad_tokens_are_named_with_the_reason() {
        let e = parse_written("c1-c9").unwrap_err();
        assert_eq!(e.token, "c1-c9");
        assert!(e.reason.contains("`c9` is not a square"), "{e}");
        let e = parse_written("c1c3").unwrap_err();
        assert!(e.reason.contains("not a square"), "{e}");
        let e = parse_written("c1-c3 d1").unwrap_err();
        assert!(e.reason.contains("from-to"), "{e}");
        let e = parse_written("c1-c2-c3").unwrap_err();
        assert!(e.reason.contains("each step on its own"), "{e}");
        assert!(parse_written("").is_err());
        assert!(parse_written("xe5 xe6").is_err());
        assert!(parse_written("xz9").is_err());
    }

    #[test]
    fn the_phase_decides_what_a_square_means() {
        let w = parse_written("d4").unwrap();
        assert!(matches!(
            resolve(Phase::Mark, &w, "d4"),
            Ok(LanrickMove::Mark(_))
        ));
        assert!(matches!(
            resolve(Phase::Placement, &w, "d4"),
            Ok(LanrickMove::Place(_))
        ));
        let e = resolve(Phase::Play, &w, "d4").unwrap_err();
        assert!(e.reason.contains("steps from-to"), "{e}");
        let two = parse_written("e5-e1 d5-d1").unwrap();
        assert!(resolve(Phase::Return, &two, "e5-e1 d5-d1").is_err());
    }

    #[test]
    fn format_round_trips() {
        for text in ["b1", "xe5", "c1-c3 d1-e2", "c1-c2 c2-c1"] {
            let w = parse_written(text).unwrap();
            let phase = match w {
                Written::Square(_) => Phase::Placement,
                Written::Take(_) => Phase::Capture,
                Written::Steps(_) => Phase::Play,
            };
            assert_eq!(format(&resolve(phase, &w, text).unwrap()), text);
        }
    }
}
