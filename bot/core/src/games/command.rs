//! The words of the games' commands: seating (`new`, `join`, `accept`, `decline`, `abort`),
//! playing (`move`, `declare`, `resign`, `draw`, `takeback`, `claim`, `hint`) and looking
//! (`board`, `moves`, `history`, `export`, `replay`). Parsing knows nothing of any platform.

use muster_rules::{GameId, MAX_NOTATION};

use crate::kernel::clock::control::Control;
use crate::kernel::text::excerpt;
use crate::players::appearance::{self, BoardSetting};

/// An answer to an offer (draw, takeback).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Answer {
    /// Yes.
    Accept,
    /// No.
    Decline,
}

/// A command about a channel's game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum GameCommand {
    /// Start a game: challenge the named players, or leave seats open.
    New(NewGame),
    /// Take an open seat.
    Join {
        /// The seat wanted, if named.
        seat: Option<String>,
    },
    /// Accept a challenge.
    Accept,
    /// Decline a challenge.
    Decline,
    /// Call off a game before its first move.
    Abort,
    /// Play a move.
    Move(String),
    /// Show the asker's own view of the board, after changing his board settings (none: just
    /// show it).
    Board(Vec<BoardSetting>),
    /// List the legal moves.
    Moves,
    /// Show the moves so far.
    History,
    /// The record as a file (this channel's game, or a finished game by id).
    Export(Option<String>),
    /// The game as an animation (this channel's game, or a finished game by id).
    Replay(Option<String>),
    /// Resign.
    Resign,
    /// Offer, accept or decline a draw.
    Draw(Option<Answer>),
    /// Ask, accept or decline taking back the last move.
    Takeback(Option<Answer>),
    /// The best move, where the game has a solver and hints are allowed.
    Hint,
    /// Claim the win when the opponent's time has run out (`timeout claim` games).
    Claim,
}

/// What `new` asks for.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NewGame {
    /// Which game.
    pub game: GameId,
    /// Players named, as typed (names, ids or mentions).
    pub opponents: Vec<String>,
    /// The seat the challenger wants, if named.
    pub seat: Option<String>,
    /// How many players, for a Lanko game with open seats (`for 2`).
    pub players: Option<usize>,
    /// The time control asked for (`clock 3d`; `Some(None)` for `clock none`), if any.
    pub clock: Option<Option<Control>>,
    /// Whether a run-out clock waits for a claim (`timeout claim`) or ends the game
    /// (`timeout auto`), if said.
    pub claim: Option<bool>,
    /// Whether the game is `casual` (not rated).
    pub casual: bool,
}

impl GameCommand {
    /// The command's name, as logs and metrics label it.
    pub fn name(&self) -> &'static str {
        match self {
            GameCommand::New(_) => "new",
            GameCommand::Join { .. } => "join",
            GameCommand::Accept => "accept",
            GameCommand::Decline => "decline",
            GameCommand::Abort => "abort",
            GameCommand::Move(_) => "move",
            GameCommand::Board(_) => "board",
            GameCommand::Moves => "moves",
            GameCommand::History => "history",
            GameCommand::Export(_) => "export",
            GameCommand::Replay(_) => "replay",
            GameCommand::Resign => "resign",
            GameCommand::Draw(_) => "draw",
            GameCommand::Takeback(_) => "takeback",
            GameCommand::Hint => "hint",
            GameCommand::Claim => "claim",
        }
    }

    /// Whether the command only looks at the game: it is answered even after the game's clock
    /// ran out, which ends the game before any other command is applied.
    pub fn looks(&self) -> bool {
        matches!(
            self,
            GameCommand::Export(_)
                | GameCommand::Replay(_)
                | GameCommand::History
                | GameCommand::Hint
        )
    }
}

/// The game command `word` makes with `args` (`rest` is the text after the word), or `None`
/// when `word` is not a game's command.
pub fn parse(word: &str, args: &[&str], rest: &str) -> Option<Result<GameCommand, String>> {
    let one = |what: &str| -> Result<Option<&str>, String> {
        match args {
            [] => Ok(None),
            [a] => Ok(Some(a)),
            _ => Err(format!(
                "`{what}` takes at most one word; see `help {what}`"
            )),
        }
    };
    let command = match word {
        "new" | "challenge" => parse_new(args).map(GameCommand::New),
        "join" | "sit" => one("join").map(|seat| GameCommand::Join {
            seat: seat.map(str::to_ascii_lowercase),
        }),
        "accept" => Ok(GameCommand::Accept),
        "decline" => Ok(GameCommand::Decline),
        "abort" | "cancel" => Ok(GameCommand::Abort),
        "move" | "m" | "play" => parse_move(rest),
        "board" | "show" => appearance::parse(args).map(GameCommand::Board),
        "moves" | "legal" => Ok(GameCommand::Moves),
        "history" | "record" => Ok(GameCommand::History),
        "export" | "pgn" => one("export").map(|id| GameCommand::Export(id.map(str::to_string))),
        "replay" | "gif" => one("replay").map(|id| GameCommand::Replay(id.map(str::to_string))),
        "resign" => Ok(GameCommand::Resign),
        "declare" => Ok(GameCommand::Move("===".into())),
        "draw" => one("draw").and_then(|a| answer(a, "draw").map(GameCommand::Draw)),
        "takeback" | "undo" => {
            one("takeback").and_then(|a| answer(a, "takeback").map(GameCommand::Takeback))
        }
        "hint" => Ok(GameCommand::Hint),
        "claim" => Ok(GameCommand::Claim),
        _ => return None,
    };
    Some(command)
}

/// `move <notation>`.
fn parse_move(rest: &str) -> Result<GameCommand, String> {
    let length = rest.chars().count();
    if rest.is_empty() {
        Err("say the move: `move c1-c3 d1-e2` (see `notation`)".into())
    } else if length > MAX_NOTATION {
        Err(format!(
            "`{}` is {length} characters long, and no move of any game is longer than {MAX_NOTATION}: \
             type the move itself, such as `move c1-c3 d1-e2` (see `notation`)",
            excerpt(rest, 24)
        ))
    } else {
        Ok(GameCommand::Move(rest.to_string()))
    }
}

/// `new <game> [players] [as <seat>] [for <n>] [clock <control>] [timeout claim|auto] [casual]`.
fn parse_new(args: &[&str]) -> Result<NewGame, String> {
    let Some((game, rest)) = args.split_first() else {
        return Err(
            "say which game: `new lanrick @opponent`, or `new lanrick` to leave the seat open"
                .into(),
        );
    };
    let mut new = NewGame {
        game: game.parse::<GameId>().map_err(|e| e.to_string())?,
        opponents: Vec::new(),
        seat: None,
        players: None,
        clock: None,
        claim: None,
        casual: false,
    };
    let mut it = rest.iter();
    while let Some(a) = it.next() {
        match a.to_ascii_lowercase().as_str() {
            "as" => {
                let seat = it.next().ok_or("`as` needs a seat, such as `as black`")?;
                new.seat = Some(seat.to_ascii_lowercase());
            }
            "for" => {
                let n = it
                    .next()
                    .and_then(|n| n.parse::<usize>().ok())
                    .ok_or("`for` needs the number of players, such as `for 2`")?;
                new.players = Some(n);
            }
            "clock" | "time" => {
                let value = it.next().ok_or(
                    "`clock` needs a time control, such as `clock 3d`, `clock 10d+1d` or `clock none`",
                )?;
                new.clock = Some(Control::parse(value)?);
            }
            "timeout" | "timeouts" => new.claim = Some(timeout(it.next())?),
            "vs" | "against" => {}
            "casual" | "unrated" | "friendly" => new.casual = true,
            "rated" => new.casual = false,
            _ => new.opponents.push(a.trim_start_matches('@').to_string()),
        }
    }
    Ok(new)
}

/// `timeout claim` (`true`) or `timeout auto`.
fn timeout(word: Option<&&str>) -> Result<bool, String> {
    match word.map(|w| w.to_ascii_lowercase()).as_deref() {
        Some("claim" | "claimed") => Ok(true),
        Some("auto" | "lose" | "automatic") => Ok(false),
        _ => Err(
            "`timeout` is `timeout claim` (the opponent claims the win when a clock runs out) or \
             `timeout auto` (the game ends at once)"
                .into(),
        ),
    }
}

fn answer(arg: Option<&str>, what: &str) -> Result<Option<Answer>, String> {
    match arg.map(str::to_ascii_lowercase).as_deref() {
        None | Some("offer") | Some("ask") => Ok(None),
        Some("accept" | "yes" | "agree") => Ok(Some(Answer::Accept)),
        Some("decline" | "no" | "refuse") => Ok(Some(Answer::Decline)),
        Some(other) => Err(format!(
            "`{what} {}`: say `{what}`, `{what} accept` or `{what} decline`",
            excerpt(other, 24)
        )),
    }
}
