//! The command language (DESIGN.md): the words a user types after the prefix, or picks from a
//! slash command. Parsing here knows nothing of any platform.

use muster_rules::{GameId, MAX_NOTATION};

use super::words::excerpt;

/// The longest command Muster reads, in characters (a `new` naming three players by long
/// Matrix ids stays well below it). Longer text is refused before it is read.
pub const MAX_COMMAND: usize = 1000;

/// An answer to an offer (draw, takeback).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Answer {
    /// Yes.
    Accept,
    /// No.
    Decline,
}

/// A parsed command.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Command {
    /// Start a game: challenge the named players, or leave seats open.
    New {
        /// Which game.
        game: GameId,
        /// Players named, as typed (names, ids or mentions).
        opponents: Vec<String>,
        /// The seat the challenger wants, if named.
        seat: Option<String>,
        /// How many players, for a Lanko game with open seats (`for 2`).
        players: Option<usize>,
    },
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
    /// Show the board.
    Board,
    /// List the legal moves.
    Moves,
    /// Show the moves so far.
    History,
    /// The record as a file (this channel's game, or a finished game by id).
    Export(Option<String>),
    /// Resign.
    Resign,
    /// Offer, accept or decline a draw.
    Draw(Option<Answer>),
    /// Ask, accept or decline taking back the last move.
    Takeback(Option<Answer>),
    /// The rules of a game.
    Rules(Option<GameId>),
    /// The notation of a game.
    Notation(Option<GameId>),
    /// Help on the commands.
    Help(Option<String>),
    /// Finished games of a player (`games [name]`).
    Games(Option<String>),
    /// The best move, where the game has a solver and hints are allowed.
    Hint,
}

/// Every command word, for help and suggestions.
pub const WORDS: [&str; 19] = [
    "new", "join", "accept", "decline", "abort", "move", "board", "moves", "history", "export",
    "resign", "draw", "takeback", "rules", "notation", "help", "games", "play", "hint",
];

fn game_arg(arg: Option<&str>) -> Result<Option<GameId>, String> {
    arg.map(|a| a.parse::<GameId>().map_err(|e| e.to_string()))
        .transpose()
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

/// Parses a command (the text after the prefix). Errors say what to type instead.
pub fn parse(text: &str) -> Result<Command, String> {
    let text = text.trim();
    let length = text.chars().count();
    if length > MAX_COMMAND {
        return Err(format!(
            "that is {length} characters, too long to be a command (`{}`); check what you pasted, \
             or say `help` for the commands",
            excerpt(text, 24)
        ));
    }
    let (word, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let rest = rest.trim();
    let args: Vec<&str> = rest.split_whitespace().collect();
    let one = |what: &str| -> Result<Option<&str>, String> {
        match args.as_slice() {
            [] => Ok(None),
            [a] => Ok(Some(a)),
            _ => Err(format!(
                "`{what}` takes at most one word; see `help {what}`"
            )),
        }
    };
    match word.to_ascii_lowercase().as_str() {
        "" => Err("type a command, such as `help`".into()),
        "new" | "challenge" => {
            let Some((game, rest)) = args.split_first() else {
                return Err("say which game: `new lanrick @opponent`, or `new lanrick` to leave the seat open".into());
            };
            let game = game.parse::<GameId>().map_err(|e| e.to_string())?;
            let mut opponents = Vec::new();
            let mut seat = None;
            let mut players = None;
            let mut it = rest.iter();
            while let Some(a) = it.next() {
                match a.to_ascii_lowercase().as_str() {
                    "as" => {
                        seat = Some(
                            it.next()
                                .ok_or("`as` needs a seat, such as `as black`")?
                                .to_ascii_lowercase(),
                        )
                    }
                    "for" => {
                        let n = it
                            .next()
                            .and_then(|n| n.parse::<usize>().ok())
                            .ok_or("`for` needs the number of players, such as `for 2`")?;
                        players = Some(n);
                    }
                    "vs" | "against" => {}
                    _ => opponents.push(a.trim_start_matches('@').to_string()),
                }
            }
            Ok(Command::New {
                game,
                opponents,
                seat,
                players,
            })
        }
        "join" | "sit" => Ok(Command::Join {
            seat: one("join")?.map(str::to_ascii_lowercase),
        }),
        "accept" => Ok(Command::Accept),
        "decline" => Ok(Command::Decline),
        "abort" | "cancel" => Ok(Command::Abort),
        "move" | "m" | "play" => {
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
                Ok(Command::Move(rest.to_string()))
            }
        }
        "board" | "show" => Ok(Command::Board),
        "moves" | "legal" => Ok(Command::Moves),
        "history" | "record" => Ok(Command::History),
        "export" | "pgn" => Ok(Command::Export(one("export")?.map(str::to_string))),
        "resign" => Ok(Command::Resign),
        "declare" => Ok(Command::Move("===".into())),
        "draw" => Ok(Command::Draw(answer(one("draw")?, "draw")?)),
        "takeback" | "undo" => Ok(Command::Takeback(answer(one("takeback")?, "takeback")?)),
        "rules" => Ok(Command::Rules(game_arg(one("rules")?)?)),
        "notation" => Ok(Command::Notation(game_arg(one("notation")?)?)),
        "help" | "?" | "commands" => Ok(Command::Help(one("help")?.map(str::to_ascii_lowercase))),
        "games" => Ok(Command::Games(
            one("games")?.map(|s| s.trim_start_matches('@').to_string()),
        )),
        "hint" => Ok(Command::Hint),
        other => Err(format!(
            "unknown command `{}`; say `help` for the list",
            excerpt(other, 32)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse_with_their_arguments() {
        assert_eq!(
            parse("new lanrick @bob as black"),
            Ok(Command::New {
                game: GameId::Lanrick,
                opponents: vec!["bob".into()],
                seat: Some("black".into()),
                players: None,
            })
        );
        assert_eq!(
            parse("new Lanrick"),
            Ok(Command::New {
                game: GameId::Lanrick,
                opponents: vec![],
                seat: None,
                players: None,
            })
        );
        assert_eq!(
            parse("new lanko88 for 3 as w"),
            Ok(Command::New {
                game: GameId::Lanko88,
                opponents: vec![],
                seat: Some("w".into()),
                players: Some(3),
            })
        );
        assert_eq!(parse("declare"), Ok(Command::Move("===".into())));
        assert_eq!(
            parse("move  c1-c3 d1-e2 "),
            Ok(Command::Move("c1-c3 d1-e2".into()))
        );
        assert_eq!(
            parse("draw accept"),
            Ok(Command::Draw(Some(Answer::Accept)))
        );
        assert_eq!(parse("takeback"), Ok(Command::Takeback(None)));
        assert_eq!(parse("HELP move"), Ok(Command::Help(Some("move".into()))));
        assert_eq!(parse("export g12"), Ok(Command::Export(Some("g12".into()))));
    }

    #[test]
    fn mistakes_say_what_to_type() {
        assert!(parse("new").unwrap_err().contains("new lanrick @opponent"));
        assert!(parse("new chess").unwrap_err().contains("the games are"));
        assert!(parse("move").unwrap_err().contains("move c1-c3"));
        assert!(parse("draw maybe").unwrap_err().contains("draw accept"));
        assert!(parse("fly").unwrap_err().contains("unknown command `fly`"));
        assert!(
            parse("join white black")
                .unwrap_err()
                .contains("at most one word")
        );
    }
}
