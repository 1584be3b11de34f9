//! One type over every game kind, for storage, the bot and the machine interface.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::croquet::{Croquet, CroquetEvent};
use crate::game::{Game, NotationError, Outcome, PlayError};
use crate::lanko::{Lanko, LankoEvent, Variant};
use crate::lanrick::{Lanrick, LanrickEvent, Step};
use crate::lanrick1880::{Event as Lanrick1880Event, Lanrick1880};
use crate::seat::{Seat, Table};

/// The legal next steps of a Lanrick turn after the steps given.
type NextSteps<'a> = dyn Fn(&[Step]) -> Vec<Step> + 'a;

/// The games Muster knows, by the id used in commands, storage and the command line.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameId {
    /// Lanrick, Third Edition (1881).
    Lanrick,
    /// Arithmetical Croquet (1889).
    Croquet,
    /// Lanrick, first version (1880).
    Lanrick1880,
    /// Lanko-88.
    Lanko88,
    /// Lanko-68.
    Lanko68,
    /// Lanko-103.
    Lanko103,
}

impl GameId {
    /// Every game, in the order help lists them.
    pub const ALL: [GameId; 6] = [
        GameId::Lanrick,
        GameId::Lanrick1880,
        GameId::Croquet,
        GameId::Lanko88,
        GameId::Lanko68,
        GameId::Lanko103,
    ];

    /// The id as written in commands (`lanrick`).
    pub fn as_str(self) -> &'static str {
        match self {
            GameId::Lanrick => "lanrick",
            GameId::Croquet => "croquet",
            GameId::Lanrick1880 => "lanrick1880",
            GameId::Lanko88 => "lanko88",
            GameId::Lanko68 => "lanko68",
            GameId::Lanko103 => "lanko103",
        }
    }

    /// The game's seats and sides (as a game of this kind gives them, without making one).
    pub fn table(self) -> &'static Table {
        match self {
            GameId::Lanrick | GameId::Croquet | GameId::Lanrick1880 => &Table::TWO_PLAYERS,
            GameId::Lanko88 | GameId::Lanko68 | GameId::Lanko103 => &crate::lanko::TABLE,
        }
    }

    /// The game's full name.
    pub fn title(self) -> &'static str {
        match self {
            GameId::Lanrick => "Lanrick (Third Edition, 1881)",
            GameId::Croquet => "Arithmetical Croquet (1889)",
            GameId::Lanrick1880 => "Lanrick (first version, 1880)",
            GameId::Lanko88 => "Lanko-88",
            GameId::Lanko68 => "Lanko-68",
            GameId::Lanko103 => "Lanko-103",
        }
    }

    /// The Lanko board, for the Lanko games.
    pub fn lanko(self) -> Option<Variant> {
        match self {
            GameId::Lanko88 => Some(Variant::L88),
            GameId::Lanko68 => Some(Variant::L68),
            GameId::Lanko103 => Some(Variant::L103),
            _ => None,
        }
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A game id that Muster does not know.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnknownGame(pub String);

impl fmt::Display for UnknownGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<&str> = GameId::ALL.iter().map(|g| g.as_str()).collect();
        write!(
            f,
            "unknown game '{}': the games are {}",
            self.0,
            known.join(", ")
        )
    }
}

impl std::error::Error for UnknownGame {}

impl FromStr for GameId {
    type Err = UnknownGame;

    fn from_str(s: &str) -> Result<GameId, UnknownGame> {
        GameId::ALL
            .into_iter()
            .find(|g| g.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownGame(s.to_string()))
    }
}

/// A game of any kind.
#[derive(Clone, PartialEq, Debug)]
pub enum AnyGame {
    /// Lanrick, Third Edition.
    Lanrick(Lanrick),
    /// Arithmetical Croquet.
    Croquet(Croquet),
    /// Lanrick, first version.
    Lanrick1880(Lanrick1880),
    /// Lanko, on any of its boards.
    Lanko(Lanko),
}

/// An event of any game.
#[derive(Clone, PartialEq, Debug, Serialize)]
#[serde(untagged)]
pub enum AnyEvent {
    /// A Lanrick event.
    Lanrick(LanrickEvent),
    /// A Croquet event.
    Croquet(CroquetEvent),
    /// A Lanrick (1880) event.
    Lanrick1880(Lanrick1880Event),
    /// A Lanko event.
    Lanko(LankoEvent),
}

macro_rules! each {
    ($self:expr, $g:ident => $body:expr) => {
        match $self {
            AnyGame::Lanrick($g) => $body,
            AnyGame::Croquet($g) => $body,
            AnyGame::Lanrick1880($g) => $body,
            AnyGame::Lanko($g) => $body,
        }
    };
}

impl AnyGame {
    /// A new game of kind `id` in its initial position.
    pub fn new(id: GameId) -> AnyGame {
        match id {
            GameId::Lanrick => AnyGame::Lanrick(Lanrick::new()),
            GameId::Croquet => AnyGame::Croquet(Croquet::new()),
            GameId::Lanrick1880 => AnyGame::Lanrick1880(Lanrick1880::new()),
            GameId::Lanko88 => AnyGame::Lanko(Lanko::new(Variant::L88)),
            GameId::Lanko68 => AnyGame::Lanko(Lanko::new(Variant::L68)),
            GameId::Lanko103 => AnyGame::Lanko(Lanko::new(Variant::L103)),
        }
    }

    /// The game of kind `id` in the position its position string `text` describes (as
    /// [`AnyGame::position`] writes it); why not, when the text describes no valid position.
    pub fn from_position(id: GameId, text: &str) -> Result<AnyGame, String> {
        match id {
            GameId::Lanrick => Lanrick::from_position(text)
                .map(AnyGame::Lanrick)
                .map_err(|e| e.to_string()),
            GameId::Croquet => Croquet::from_position(text).map(AnyGame::Croquet),
            GameId::Lanrick1880 => Lanrick1880::from_position(text).map(AnyGame::Lanrick1880),
            GameId::Lanko88 => Lanko::from_position(Variant::L88, text).map(AnyGame::Lanko),
            GameId::Lanko68 => Lanko::from_position(Variant::L68, text).map(AnyGame::Lanko),
            GameId::Lanko103 => Lanko::from_position(Variant::L103, text).map(AnyGame::Lanko),
        }
    }

    /// The game's kind.
    pub fn id(&self) -> GameId {
        match self {
            AnyGame::Lanrick(_) => GameId::Lanrick,
            AnyGame::Croquet(_) => GameId::Croquet,
            AnyGame::Lanrick1880(_) => GameId::Lanrick1880,
            AnyGame::Lanko(g) => match g.variant() {
                Variant::L88 => GameId::Lanko88,
                Variant::L68 => GameId::Lanko68,
                Variant::L103 => GameId::Lanko103,
            },
        }
    }

    /// The game's seats.
    pub fn table(&self) -> &'static Table {
        each!(self, g => g.table())
    }

    /// Whose decision it is.
    pub fn to_move(&self) -> Option<Seat> {
        each!(self, g => g.to_move())
    }

    /// The phase's name.
    pub fn phase_name(&self) -> &'static str {
        each!(self, g => g.phase_name())
    }

    /// The legal moves, as canonical text, in the game's fixed order.
    pub fn legal_moves_text(&self) -> Vec<String> {
        each!(self, g => g.legal_moves().iter().map(|m| g.format_move(m)).collect())
    }

    /// How many legal moves there are; the same as the length of the list, except where the
    /// list is too long to make (Lanrick 1880's set-up).
    pub fn legal_move_count(&self) -> u64 {
        match self {
            AnyGame::Lanrick1880(g) => g.legal_move_count(),
            _ => self.legal_moves_text().len() as u64,
        }
    }

    /// Reads and plays `text` for `seat`; on error the game is unchanged.
    pub fn play_text(&mut self, seat: Seat, text: &str) -> Result<Vec<AnyEvent>, PlayError> {
        match self {
            AnyGame::Lanrick(g) => Ok(g
                .play_text(seat, text)?
                .into_iter()
                .map(AnyEvent::Lanrick)
                .collect()),
            AnyGame::Croquet(g) => Ok(g
                .play_text(seat, text)?
                .into_iter()
                .map(AnyEvent::Croquet)
                .collect()),
            AnyGame::Lanrick1880(g) => Ok(g
                .play_text(seat, text)?
                .into_iter()
                .map(AnyEvent::Lanrick1880)
                .collect()),
            AnyGame::Lanko(g) => Ok(g
                .play_text(seat, text)?
                .into_iter()
                .map(AnyEvent::Lanko)
                .collect()),
        }
    }

    /// The canonical text of a move given as text, without playing it.
    pub fn canonical(&self, text: &str) -> Result<String, NotationError> {
        each!(self, g => g.parse_move(text).map(|m| g.format_move(&m)))
    }

    /// Tidies a move as a person types it in chat into the notation's exact form, where only
    /// case and spacing differ: `C1-C3   d1-e2` becomes `c1-c3 d1-e2`, `w:a1,… b:…` becomes
    /// `W:a1,… B:…`. The machine interface reads records exactly, without this.
    pub fn normalise(&self, text: &str) -> String {
        let spaced = text.split_whitespace().collect::<Vec<_>>().join(" ");
        match self {
            AnyGame::Croquet(_) => spaced,
            AnyGame::Lanko(_) => spaced.replace(' ', "").to_ascii_uppercase(),
            AnyGame::Lanrick(_) => spaced.to_ascii_lowercase(),
            AnyGame::Lanrick1880(_) => {
                let lower = spaced.to_ascii_lowercase();
                if lower.starts_with("w:") || lower.starts_with("b:") {
                    lower.replace("w:", "W:").replace("b:", "B:")
                } else {
                    lower
                }
            }
        }
    }

    /// Whether `text` is written like a move of this game (syntax only, not legality), so that
    /// a chat message holding just a move can be taken as one.
    pub fn is_notation(&self, text: &str) -> bool {
        match self {
            AnyGame::Lanrick(_) => crate::lanrick::parse_written(text).is_ok(),
            AnyGame::Croquet(_) => crate::croquet::parse_step(text).is_ok(),
            AnyGame::Lanko(g) => {
                let t = text.trim();
                t != "+++" && g.parse_move(t).is_ok()
            }
            AnyGame::Lanrick1880(_) => {
                let t = text.trim();
                t.starts_with('*') || crate::lanrick::parse_written(t).is_ok()
            }
        }
    }

    /// Up to `limit` legal moves for a player who has typed `typed` so far, as canonical text,
    /// for completion in chat. In a Lanrick play turn these are the turn built so far and its
    /// legal next steps (`c1-c3` offers `c1-c3`, `c1-c3 d1-e2`, …), so a turn can be built up a
    /// step at a time; otherwise the legal moves that begin with what was typed, then those
    /// that contain it. Empty once the game is over or when nothing legal matches.
    pub fn suggest(&self, typed: &str, limit: usize) -> Vec<String> {
        let Some(seat) = self.to_move() else {
            return Vec::new();
        };
        let typed_n = self.normalise(typed);
        let partial_last = !typed.is_empty() && !typed.ends_with(char::is_whitespace);
        let next: Option<&NextSteps<'_>> = match self {
            AnyGame::Lanrick(g) if self.phase_name() == "play" => Some(&|p| g.next_steps(p)),
            AnyGame::Lanrick1880(g) if self.phase_name() == "play" => Some(&|p| g.next_steps(p)),
            _ => None,
        };
        if let Some(next) = next {
            return self.suggest_steps(seat, &typed_n, partial_last, next, limit);
        }
        let key = |t: &str| self.normalise(t).to_ascii_lowercase();
        let want = key(&typed_n);
        let all = self.legal_moves_text();
        let mut out: Vec<String> = all
            .iter()
            .filter(|m| key(m).starts_with(&want))
            .take(limit)
            .cloned()
            .collect();
        if out.len() < limit {
            let more: Vec<String> = all
                .iter()
                .filter(|m| !key(m).starts_with(&want) && key(m).contains(&want))
                .take(limit - out.len())
                .cloned()
                .collect();
            out.extend(more);
        }
        out
    }

    /// [`AnyGame::suggest`] for a Lanrick play turn: `next` gives the legal next steps.
    fn suggest_steps(
        &self,
        seat: Seat,
        typed: &str,
        partial_last: bool,
        next: &NextSteps<'_>,
        limit: usize,
    ) -> Vec<String> {
        let parse_step = |t: &str| -> Option<Step> {
            let (a, b) = t.split_once('-')?;
            Some(Step {
                from: a.parse().ok()?,
                to: b.parse().ok()?,
            })
        };
        let text = |steps: &[Step]| {
            steps
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let legal = |steps: &[Step]| {
            !steps.is_empty() && self.clone().play_text(seat, &text(steps)).is_ok()
        };
        let mut tokens: Vec<&str> = typed.split(' ').filter(|t| !t.is_empty()).collect();
        let partial = if partial_last {
            tokens.pop().unwrap_or("")
        } else {
            ""
        };
        let Some(mut done) = tokens
            .iter()
            .map(|t| parse_step(t))
            .collect::<Option<Vec<Step>>>()
        else {
            return Vec::new();
        };
        // A last word that is a whole legal step counts as typed: the turn so far is offered,
        // then what may follow it.
        if let Some(step) = parse_step(partial) {
            done.push(step);
            if legal(&done) {
                return self.suggest_steps(seat, &(text(&done) + " "), false, next, limit);
            }
            done.pop();
        }
        if !done.is_empty() && !legal(&done) {
            return Vec::new();
        }
        let mut out = Vec::new();
        if partial.is_empty() && !done.is_empty() {
            out.push(text(&done));
        }
        for s in next(&done) {
            if out.len() >= limit {
                break;
            }
            if s.to_string().starts_with(partial) {
                done.push(s);
                out.push(text(&done));
                done.pop();
            }
        }
        out
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        each!(self, g => g.outcome())
    }

    /// The one-line position string.
    pub fn position(&self) -> String {
        each!(self, g => g.position())
    }

    /// The game-specific state for the machine interface.
    pub fn state_json(&self) -> serde_json::Value {
        each!(self, g => g.state_json())
    }

    /// The move a seat has no choice about, if that is the only one (a Lanko pass): the bot
    /// plays it for the seat so that nobody waits on it.
    pub fn forced_move(&self) -> Option<String> {
        match self {
            AnyGame::Lanko(g) => {
                let moves = g.legal_moves();
                (moves == [crate::lanko::LankoMove::Pass]).then(|| "---".to_string())
            }
            _ => None,
        }
    }

    /// The mark that closes a finished game's record, for games whose records have one
    /// (Lanko's `+++`); such a line is read as the end of the record, not as a move.
    pub fn end_mark(&self) -> Option<&'static str> {
        matches!(self, AnyGame::Lanko(_)).then_some("+++")
    }

    /// Whether `text` is the game's end mark.
    pub fn is_end_mark(&self, text: &str) -> bool {
        self.end_mark() == Some(text.trim())
    }

    /// Ends the game drawn by agreement.
    pub fn agree_draw(&mut self) -> Result<(), PlayError> {
        each!(self, g => g.agree_draw())
    }

    /// Ends the game with `seat` resigning.
    pub fn resign(&mut self, seat: Seat) -> Result<(), PlayError> {
        each!(self, g => g.resign(seat))
    }

    /// Ends the game with `seat`'s clock run out.
    pub fn time_out(&mut self, seat: Seat) -> Result<(), PlayError> {
        each!(self, g => g.time_out(seat))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_ids_read_and_print() {
        assert_eq!("lanrick".parse::<GameId>(), Ok(GameId::Lanrick));
        assert_eq!("Lanrick".parse::<GameId>(), Ok(GameId::Lanrick));
        let err = "chess".parse::<GameId>().unwrap_err();
        assert!(
            err.to_string().contains(
                "the games are lanrick, lanrick1880, croquet, lanko88, lanko68, lanko103"
            )
        );
    }
}
