//! What every game of Muster has in common: the [`Game`] trait, results and errors.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::seat::{Seat, Table, Team};

/// The longest a move of any game is written, in characters: a Lanrick turn (either edition)
/// is at most five steps, 29 characters, a 1880 set-up 33, and a Lanko capture chain stays
/// far below it (tests/notation_length.rs measures every game). Longer input is not a move.
pub const MAX_NOTATION: usize = 100;

/// How a finished game ended, for each team.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// One team won.
    Winner {
        /// The winning team.
        team: Team,
        /// Why the game ended.
        reason: EndReason,
    },
    /// Nobody won.
    Draw {
        /// Why the game ended.
        reason: EndReason,
    },
}

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The game's own goal was reached (Lanrick: four men taken).
    Goal,
    /// The same position occurred for the third time.
    Repetition,
    /// The players agreed.
    Agreement,
    /// A player resigned.
    Resignation,
    /// A player's clock ran out (the chat bot's time controls; no rule text has clocks).
    Time,
}

/// What a finished game means for one team.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TeamResult {
    /// The team won.
    Win,
    /// The team lost.
    Loss,
    /// The game was drawn.
    Draw,
}

impl TeamResult {
    /// The result as a score: 1 for a win, ½ for a draw, 0 for a loss.
    pub fn score(self) -> f64 {
        match self {
            TeamResult::Win => 1.0,
            TeamResult::Draw => 0.5,
            TeamResult::Loss => 0.0,
        }
    }
}

impl Outcome {
    /// A draw agreed by the players.
    pub const AGREED: Outcome = Outcome::Draw {
        reason: EndReason::Agreement,
    };

    /// The result when `seat` resigns: the other team wins.
    pub fn resignation(table: &Table, seat: Seat) -> Outcome {
        Outcome::Winner {
            team: table.team_of(seat).other(),
            reason: EndReason::Resignation,
        }
    }

    /// The result when `seat`'s clock runs out: the other team wins.
    pub fn time(table: &Table, seat: Seat) -> Outcome {
        Outcome::Winner {
            team: table.team_of(seat).other(),
            reason: EndReason::Time,
        }
    }

    /// The result for `team`.
    pub fn result_for(self, team: Team) -> TeamResult {
        match self {
            Outcome::Winner { team: w, .. } if w == team => TeamResult::Win,
            Outcome::Winner { .. } => TeamResult::Loss,
            Outcome::Draw { .. } => TeamResult::Draw,
        }
    }

    /// The winning team, if any.
    pub fn winner(self) -> Option<Team> {
        match self {
            Outcome::Winner { team, .. } => Some(team),
            Outcome::Draw { .. } => None,
        }
    }

    /// Why the game ended.
    pub fn reason(self) -> EndReason {
        match self {
            Outcome::Winner { reason, .. } | Outcome::Draw { reason } => reason,
        }
    }
}

/// A move's text could not be read, or does not fit the position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NotationError {
    /// The offending part of the input.
    pub token: String,
    /// Why, in words a player understands, with what to do instead.
    pub reason: String,
}

impl NotationError {
    /// An error about `token`.
    pub fn new(token: impl Into<String>, reason: impl Into<String>) -> Self {
        NotationError {
            token: token.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.token.is_empty() {
            f.write_str(&self.reason)
        } else {
            write!(f, "`{}`: {}", self.token, self.reason)
        }
    }
}

impl std::error::Error for NotationError {}

/// Why a move was refused. The game is unchanged whenever one of these is returned.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlayError {
    /// The game is over.
    GameOver,
    /// Another seat has the decision (or nobody, between phases).
    NotYourTurn {
        /// The seat whose decision it is.
        to_move: Option<Seat>,
        /// That seat's name.
        name: &'static str,
    },
    /// The text is not a move of this game, or names squares that do not fit the position.
    Notation(NotationError),
    /// The move is well formed but breaks a rule; the message says which and how.
    Illegal(String),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver => f.write_str("the game is over"),
            PlayError::NotYourTurn { name, .. } => write!(f, "it is {name}'s decision, not yours"),
            PlayError::Notation(e) => e.fmt(f),
            PlayError::Illegal(reason) => f.write_str(reason),
        }
    }
}

impl std::error::Error for PlayError {}

impl From<NotationError> for PlayError {
    fn from(e: NotationError) -> Self {
        PlayError::Notation(e)
    }
}

/// Plays a move on `game` all or nothing: checks that the game goes on and that `seat` is to
/// move, then applies `change` to a copy, which replaces the game only if it succeeds. A refused
/// move therefore leaves the game exactly as it was.
pub fn play_checked<G: Game, T>(
    game: &mut G,
    seat: Seat,
    change: impl FnOnce(&mut G) -> Result<T, PlayError>,
) -> Result<T, PlayError> {
    if game.outcome().is_some() {
        return Err(PlayError::GameOver);
    }
    match game.to_move() {
        Some(expected) if expected != seat => {
            return Err(PlayError::NotYourTurn {
                to_move: Some(expected),
                name: game.table().seat_name(expected),
            });
        }
        None => return Err(PlayError::GameOver),
        _ => {}
    }
    let mut next = game.clone();
    let result = change(&mut next)?;
    *game = next;
    Ok(result)
}

/// A game of Muster: its position, whose decision it is, and the moves that can be made.
///
/// Implementations keep their state valid at all times: [`Game::play`] checks a move fully and
/// leaves the game exactly as it was when it refuses one. Decisions that a player has no choice
/// about (a pass when nothing can move, a skipped seat) are made by the game itself, never by
/// choosing for a player.
pub trait Game: Clone + fmt::Debug + Send + Sync + 'static {
    /// One decision, as the notation writes it.
    type Move: Clone + PartialEq + Eq + fmt::Debug;
    /// What happened when a move was played, for wording and highlighting.
    type Event: Clone + PartialEq + fmt::Debug + Serialize;

    /// The seats of the game.
    fn table(&self) -> &'static Table;
    /// The seat whose decision it is; `None` once the game is over.
    fn to_move(&self) -> Option<Seat>;
    /// The name of the current phase, as printed by the machine interface.
    fn phase_name(&self) -> &'static str;
    /// Every legal move, in a fixed order. Where several moves lead to the same position (a
    /// Lanrick turn's steps in different orders) one canonical move per resulting position.
    fn legal_moves(&self) -> Vec<Self::Move>;
    /// Plays `mv` for `seat`; on error the game is unchanged.
    fn play(&mut self, seat: Seat, mv: &Self::Move) -> Result<Vec<Self::Event>, PlayError>;
    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;
    /// Reads `text` as a move in this position (syntax, then resolution against the state).
    fn parse_move(&self, text: &str) -> Result<Self::Move, NotationError>;
    /// The canonical text of `mv`.
    fn format_move(&self, mv: &Self::Move) -> String;
    /// The one-line position string (see the game's rules document).
    fn position(&self) -> String;
    /// The game-specific part of the machine interface's `state` object.
    fn state_json(&self) -> serde_json::Value;
    /// Ends the game by the players' agreement.
    fn agree_draw(&mut self) -> Result<(), PlayError>;
    /// Ends the game with `seat`'s team resigning.
    fn resign(&mut self, seat: Seat) -> Result<(), PlayError>;
    /// Ends the game with `seat`'s team losing on time.
    fn time_out(&mut self, seat: Seat) -> Result<(), PlayError>;

    /// Parses and plays `text` for `seat`.
    fn play_text(&mut self, seat: Seat, text: &str) -> Result<Vec<Self::Event>, PlayError> {
        if self.outcome().is_some() {
            return Err(PlayError::GameOver);
        }
        let mv = self.parse_move(text)?;
        self.play(seat, &mv)
    }
}
