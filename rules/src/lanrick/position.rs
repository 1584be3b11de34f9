//! The one-line position string (docs/rules/lanrick.md, "Position string"):
//!
//! `<board> <phase> <side> <mark> <taken> <opening> <loser>`, for example
//! `W1W1W1WW/8/8/8/8/8/8/BB1B1B1B mark w - 0-0 - -`.
//!
//! - board: ranks 8 to 1 separated by `/`; `W` and `B` men, a digit for a run of empty squares;
//! - phase: `placement`, `mark`, `play`, `capture`, `wanderers`, `equalise`, `return`, `over`;
//! - side: `w` or `b`, whose decision it is; when the phase is `over`, the winner, or `=`;
//! - mark: its square, or `-`;
//! - taken: men taken by White and by Black, `1-0`;
//! - opening: `2` while the round's two-square first turn is to be played, else `-`;
//! - loser: who lost the last rendezvous, `w`, `b` or `-`.
//!
//! A position read from a string starts the repetition count afresh (L3-12).

use std::fmt;

use super::board::{FIELD, Square, Squares};
use super::common::Common;
use super::{Counted, Lanrick, MEN, Phase, TO_WIN, other};
use crate::game::{EndReason, Outcome};
use crate::seat::{Seat, Team};

/// Everything wrong with a position string.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PositionError(pub Vec<String>);

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid position: {}", self.0.join("; "))
    }
}

impl std::error::Error for PositionError {}

fn seat_char(seat: Seat) -> char {
    if seat == Seat::WHITE { 'w' } else { 'b' }
}

/// The board field of a position string: ranks 8 to 1, `W`/`B`, digits for empty runs.
pub(crate) fn board_field(men: [Squares; 2]) -> String {
    let mut board = String::new();
    for rank in (0..8u8).rev() {
        let mut empty = 0;
        for file in 0..8u8 {
            let bit = Square::new(file, rank).map_or(0, Square::bit);
            let c = if men[0] & bit != 0 {
                'W'
            } else if men[1] & bit != 0 {
                'B'
            } else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                board.push_str(&empty.to_string());
                empty = 0;
            }
            board.push(c);
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
        if rank > 0 {
            board.push('/');
        }
    }
    board
}

pub(super) fn write(g: &Lanrick) -> String {
    let board = board_field(g.c.men);
    let side = match g.c.outcome {
        Some(Outcome::Winner { team, .. }) => {
            if team == Team::WHITE {
                'w'
            } else {
                'b'
            }
        }
        Some(Outcome::Draw { .. }) => '=',
        None => seat_char(g.c.side),
    };
    let mark = g.c.mark.map_or("-".to_string(), |m| m.to_string());
    let opening = if g.is_opening_turn() { "2" } else { "-" };
    let loser = g.last_loser.map_or('-', seat_char);
    format!(
        "{board} {} {side} {mark} {}-{} {opening} {loser}",
        g.phase.name(),
        g.c.taken[0],
        g.c.taken[1]
    )
}

/// Reads a board field, adding any problem to `errors`.
pub(crate) fn read_board(text: &str, errors: &mut Vec<String>) -> [Squares; 2] {
    let mut men = [0; 2];
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 8 {
        errors.push(format!(
            "the board has {} ranks separated by '/', not 8",
            ranks.len()
        ));
        return men;
    }
    for (i, row) in ranks.iter().enumerate() {
        let rank = 7 - i as u8;
        // Counted wide: a rank may be written with any number of digits (found by fuzzing).
        let mut file = 0usize;
        for c in row.chars() {
            match c {
                '1'..='8' => file += usize::from(c as u8 - b'0'),
                'W' | 'B' => {
                    if let Some(sq) = u8::try_from(file).ok().and_then(|f| Square::new(f, rank)) {
                        men[usize::from(c == 'B')] |= sq.bit();
                    }
                    file += 1;
                }
                _ => {
                    errors.push(format!(
                        "rank {}: '{c}' is not W, B or a digit 1–8",
                        rank + 1
                    ));
                    return men;
                }
            }
        }
        if file != 8 {
            errors.push(format!("rank {} describes {file} squares, not 8", rank + 1));
        }
    }
    men
}

/// The side field: `w` or `b`, or `=` for a drawn game.
fn read_side(field: &str, phase: Phase, errors: &mut Vec<String>) -> Seat {
    match (field, phase) {
        ("w", _) => Seat::WHITE,
        ("b", _) => Seat::BLACK,
        ("=", Phase::Over) => Seat::WHITE,
        (s, _) => {
            errors.push(format!("side '{s}' is not w or b (or = for a drawn game)"));
            Seat::WHITE
        }
    }
}

/// The result of a game in the over phase: the winner named by the side field, or a draw.
fn read_outcome(field: &str, phase: Phase, side: Seat) -> Option<Outcome> {
    if phase != Phase::Over {
        return None;
    }
    Some(match field {
        "=" => Outcome::Draw {
            reason: EndReason::Repetition,
        },
        _ => Outcome::Winner {
            team: Team::new(side.index()).unwrap_or(Team::WHITE),
            reason: EndReason::Goal,
        },
    })
}

/// The mark field: a field square, or `-`.
fn read_mark(field: &str, errors: &mut Vec<String>) -> Option<Square> {
    match field {
        "-" => None,
        m => match m.parse::<Square>() {
            Ok(sq) if FIELD & sq.bit() != 0 => Some(sq),
            _ => {
                errors.push(format!("mark '{m}' is not a field square (b2–g7) or '-'"));
                None
            }
        },
    }
}

/// The taken field: men taken by White and by Black, each 0–4.
fn read_taken(field: &str, errors: &mut Vec<String>) -> [u8; 2] {
    match field
        .split_once('-')
        .map(|(a, b)| (a.parse::<u8>(), b.parse::<u8>()))
    {
        Some((Ok(a), Ok(b))) if a <= TO_WIN && b <= TO_WIN => [a, b],
        _ => {
            errors.push(format!("taken '{field}' is not two counts 0–4 such as 1-0"));
            [0, 0]
        }
    }
}

/// The opening field: `2` while the round's two-square first turn is to be played, else `-`.
fn read_opening(field: &str, errors: &mut Vec<String>) -> bool {
    match field {
        "2" => true,
        "-" => false,
        o => {
            errors.push(format!("opening '{o}' is not 2 or -"));
            false
        }
    }
}

/// The loser field: who lost the last rendezvous, `w`, `b` or `-`.
fn read_loser(field: &str, errors: &mut Vec<String>) -> Option<Seat> {
    match field {
        "w" => Some(Seat::WHITE),
        "b" => Some(Seat::BLACK),
        "-" => None,
        l => {
            errors.push(format!("loser '{l}' is not w, b or -"));
            None
        }
    }
}

impl Lanrick {
    /// Reads a position string, checking that it describes a position the rules can reach in
    /// its phase; the error lists every problem found.
    pub fn from_position(text: &str) -> Result<Lanrick, PositionError> {
        let mut errors = Vec::new();
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 7 {
            return Err(PositionError(vec![format!(
                "expected 7 fields (board phase side mark taken opening loser), found {}",
                fields.len()
            )]));
        }
        let men = read_board(fields[0], &mut errors);
        let phase = Phase::from_name(fields[1]).unwrap_or_else(|| {
            errors.push(format!("unknown phase '{}'", fields[1]));
            Phase::Placement
        });
        let side = read_side(fields[2], phase, &mut errors);
        let outcome = read_outcome(fields[2], phase, side);
        let mark = read_mark(fields[3], &mut errors);
        let taken = read_taken(fields[4], &mut errors);
        let opening = read_opening(fields[5], &mut errors);
        let last_loser = read_loser(fields[6], &mut errors);
        if !errors.is_empty() {
            return Err(PositionError(errors));
        }
        let game = Lanrick {
            c: Common {
                men,
                mark,
                taken,
                side,
                outcome,
                seen: Vec::new(),
            },
            phase,
            opening,
            last_loser,
        };
        game.validate(&mut errors);
        if !errors.is_empty() {
            return Err(PositionError(errors));
        }
        let mut game = game;
        if game.phase == Phase::Play {
            game.c.seen.push(Counted {
                men: game.c.men,
                mark: game.c.mark,
                side: game.c.side,
            });
        }
        Ok(game)
    }

    /// Checks that the position is one the rules can reach in its phase, adding each problem
    /// found to `errors`.
    fn validate(&self, errors: &mut Vec<String>) {
        if self.phase == Phase::Placement {
            self.validate_placement(errors);
            return;
        }
        self.validate_counts(errors);
        if self.c.mark.is_none() || !errors.is_empty() {
            return;
        }
        self.validate_rendezvous(errors);
    }

    /// During placement: men on the border only, the right player to place, nothing else yet.
    fn validate_placement(&self, errors: &mut Vec<String>) {
        let (w, b) = (self.c.men[0].count_ones(), self.c.men[1].count_ones());
        let names = ["White", "Black"];
        if self.occupied() & FIELD != 0 {
            errors.push("during placement every man stands on the border".into());
        }
        let expected = if w == b { Seat::WHITE } else { Seat::BLACK };
        if !(w == b || w == b + 1) || w >= MEN && b >= MEN {
            errors.push(format!(
                "{w} white and {b} black men cannot be a placement position"
            ));
        } else if self.c.side != expected {
            errors.push(format!(
                "with {w} white and {b} black men placed, it is {}'s turn to place",
                names[expected.index()]
            ));
        }
        if self.c.taken != [0, 0] || self.c.mark.is_some() || self.last_loser.is_some() {
            errors.push("nothing is taken, marked or lost during placement".into());
        }
    }

    /// After placement: the men left after the takings, and what the phase needs (mark, loser).
    fn validate_counts(&self, errors: &mut Vec<String>) {
        let (w, b) = (self.c.men[0].count_ones(), self.c.men[1].count_ones());
        let names = ["White", "Black"];
        for (i, count) in [w, b].into_iter().enumerate() {
            let expected = MEN - self.c.taken[1 - i] as u32;
            if count != expected {
                errors.push(format!(
                    "{} has {count} men on the board but should have {expected} after the takings",
                    names[i]
                ));
            }
        }
        let over = self.phase == Phase::Over;
        if !over && self.c.taken.iter().any(|t| *t >= TO_WIN) {
            errors.push("a player who has taken four men has won: the phase must be over".into());
        }
        if self.opening && self.phase != Phase::Play {
            errors.push("the two-square opening turn only exists in the play phase".into());
        }
        let needs_mark = !matches!(self.phase, Phase::Mark | Phase::Over);
        if needs_mark && self.c.mark.is_none() {
            errors.push(format!("the {} phase needs a mark", self.phase.name()));
        }
        let needs_loser = matches!(
            self.phase,
            Phase::Capture | Phase::Wanderers | Phase::Equalise | Phase::Return
        );
        if needs_loser && self.last_loser.is_none() {
            errors.push(format!(
                "the {} phase follows a won rendezvous: give its loser",
                self.phase.name()
            ));
        }
        if self.phase == Phase::Mark && self.occupied() & FIELD != 0 {
            errors.push("the mark is set only when every man is on the border".into());
        }
    }

    /// With a mark: who has won the rendezvous, and what the phase after it needs.
    fn validate_rendezvous(&self, errors: &mut Vec<String>) {
        let winner_phase = matches!(self.phase, Phase::Capture | Phase::Wanderers);
        if winner_phase
            && (!self.all_in(self.c.side) || self.last_loser != Some(other(self.c.side)))
        {
            errors.push(format!(
                "in the {} phase the side to move has won the rendezvous: all his men are in it",
                self.phase.name()
            ));
        }
        match self.phase {
            Phase::Play if self.all_in(Seat::WHITE) || self.all_in(Seat::BLACK) => {
                errors.push("a player has all his men in the rendezvous: it has been won".into());
            }
            Phase::Wanderers if self.wanderers() == 0 => {
                errors.push("no wanderer is left to move to the border".into());
            }
            Phase::Equalise => {
                let field = |s: Seat| (self.men(s) & FIELD).count_ones();
                if field(self.c.side) <= field(other(self.c.side)) {
                    errors.push(
                        "in the equalise phase the side to move has more men in the field".into(),
                    );
                }
            }
            Phase::Return => {
                let field = |s: Seat| (self.men(s) & FIELD).count_ones();
                if field(self.c.side) == 0 {
                    errors
                        .push("in the return phase the side to move has a man in the field".into());
                }
            }
            _ => {}
        }
    }
}
