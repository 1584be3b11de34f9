//! The command language (DESIGN.md): the words a user types after the prefix, or picks from a
//! slash command. Parsing here knows nothing of any platform.

use muster_rules::{GameId, MAX_NOTATION};

use super::notify::Mode;
use super::words::excerpt;
use crate::clock::control::{Control, LONGEST};
use crate::clock::quiet::Quiet;
use crate::clock::{duration, parse_duration};

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
        /// The time control asked for (`clock 3d`; `Some(None)` for `clock none`), if any.
        clock: Option<Option<Control>>,
        /// Whether a run-out clock waits for a claim (`timeout claim`) or ends the game
        /// (`timeout auto`), if said.
        claim: Option<bool>,
        /// Whether the game is `casual` (not rated).
        casual: bool,
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
    /// Show the asker's own view of the board, after changing his board settings (none: just
    /// show it).
    Board(Vec<super::appearance::BoardSetting>),
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
    /// Claim the win when the opponent's time has run out (`timeout claim` games).
    Claim,
    /// How and when the player is reminded: the settings to change, in order (none: show
    /// them).
    Notify(Vec<NotifyCommand>),
    /// The player's vacation.
    Vacation(VacationCommand),
    /// A tournament command.
    Tournament(super::tournament::TournamentCommand),
    /// `rating`, `leaderboard`, `ratings export`.
    Ratings(super::ratings::RatingsCommand),
}

impl Command {
    /// The command's name, as logs and metrics label it.
    pub fn name(&self) -> &'static str {
        match self {
            Command::New { .. } => "new",
            Command::Join { .. } => "join",
            Command::Accept => "accept",
            Command::Decline => "decline",
            Command::Abort => "abort",
            Command::Move(_) => "move",
            Command::Board(_) => "board",
            Command::Moves => "moves",
            Command::History => "history",
            Command::Export(_) => "export",
            Command::Replay(_) => "replay",
            Command::Resign => "resign",
            Command::Draw(_) => "draw",
            Command::Takeback(_) => "takeback",
            Command::Rules(_) => "rules",
            Command::Notation(_) => "notation",
            Command::Help(_) => "help",
            Command::Games(_) => "games",
            Command::Hint => "hint",
            Command::Claim => "claim",
            Command::Notify(_) => "notify",
            Command::Vacation(_) => "vacation",
            Command::Tournament(_) => "tournament",
            Command::Ratings(_) => "ratings",
        }
    }
}

/// One setting `notify` changes.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum NotifyCommand {
    /// Where reminders go.
    Mode(Mode),
    /// Remind at these times left, largest first (empty: no reminders).
    Remind(Vec<u64>),
    /// Remind at the default times.
    RemindDefault,
    /// Quiet hours (`None`: none).
    Quiet(Option<Quiet>),
}

/// What `vacation` asks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum VacationCommand {
    /// How much is left, and whether one is running.
    Show,
    /// Start one, for this long (seconds) or for the whole allowance left.
    Start(Option<u64>),
    /// End the running one.
    End,
}

/// Words that begin a setting of `notify`.
const NOTIFY_WORDS: [&str; 7] = [
    "mention",
    "mentions",
    "dm",
    "direct",
    "remind",
    "reminders",
    "quiet",
];

/// `notify`, with any number of settings in one command (`notify dm remind 12h 2h quiet
/// 22:00-07:00 Europe/Berlin`); none of them applies unless all can be read.
fn notify(args: &[&str]) -> Result<Command, String> {
    let usage = "say `notify` (your settings), `notify mention|dm|off`, `notify remind 24h 1h` (or `off`, \
                 `default`), or `notify quiet 22:00-07:00 Europe/Berlin` (or `off`); several at once \
                 are fine";
    let mut changes = Vec::new();
    let mut rest = args;
    while let Some((first, after)) = rest.split_first() {
        // A setting's values run to the next setting's word.
        let end = after
            .iter()
            .position(|w| NOTIFY_WORDS.contains(&w.to_ascii_lowercase().as_str()))
            .unwrap_or(after.len());
        let (values, next) = after.split_at(end);
        let change = match first.to_ascii_lowercase().as_str() {
            "mention" | "mentions" if values.is_empty() => NotifyCommand::Mode(Mode::Mention),
            "dm" | "direct" if values.is_empty() => NotifyCommand::Mode(Mode::Dm),
            "off" | "none" if values.is_empty() => NotifyCommand::Mode(Mode::Off),
            "remind" | "reminders" => remind(values, usage)?,
            "quiet" => match values {
                [w] if w.eq_ignore_ascii_case("off") || w.eq_ignore_ascii_case("none") => {
                    NotifyCommand::Quiet(None)
                }
                [hours] => NotifyCommand::Quiet(Some(Quiet::parse(hours, None)?)),
                [hours, zone] => NotifyCommand::Quiet(Some(Quiet::parse(hours, Some(zone))?)),
                _ => {
                    return Err(format!(
                        "`notify quiet` takes the hours and a time zone; {usage}"
                    ));
                }
            },
            other => return Err(format!("`notify {}`: {usage}", excerpt(other, 24))),
        };
        changes.push(change);
        rest = next;
    }
    Ok(Command::Notify(changes))
}

/// The values of `notify remind`.
fn remind(values: &[&str], usage: &str) -> Result<NotifyCommand, String> {
    Ok(match values {
        [] => {
            return Err(format!(
                "`notify remind` needs the times left to remind you at, such as `notify remind 24h 1h`; {usage}"
            ));
        }
        [w] if w.eq_ignore_ascii_case("off") => NotifyCommand::Remind(Vec::new()),
        [w] if w.eq_ignore_ascii_case("default") => NotifyCommand::RemindDefault,
        points => {
            if points.len() > 5 {
                return Err("at most five reminder points, such as `notify remind 24h 1h`".into());
            }
            let mut seconds = Vec::new();
            for p in points {
                let s = parse_duration(p)?;
                if s == 0 || s >= LONGEST {
                    return Err(format!(
                        "a reminder point must be more than 0s and less than {} (the longest clock); `{}` is not",
                        duration(LONGEST),
                        excerpt(p, 24)
                    ));
                }
                seconds.push(s);
            }
            seconds.sort_unstable_by(|a, b| b.cmp(a));
            seconds.dedup();
            NotifyCommand::Remind(seconds)
        }
    })
}

fn vacation(args: &[&str]) -> Result<Command, String> {
    let usage = "say `vacation` (what is left), `vacation start [days]` or `vacation end`";
    let what = match args {
        [] => VacationCommand::Show,
        [w] if w.eq_ignore_ascii_case("end") || w.eq_ignore_ascii_case("stop") => {
            VacationCommand::End
        }
        [w] if w.eq_ignore_ascii_case("start") => VacationCommand::Start(None),
        [w, days] if w.eq_ignore_ascii_case("start") => {
            let seconds = match days.parse::<u64>() {
                Ok(n) => n.checked_mul(86_400),
                Err(_) => parse_duration(days).ok(),
            }
            .filter(|s| *s >= 3_600)
            .ok_or_else(|| {
                format!(
                    "`vacation start {}`: say how many days, such as `vacation start 7` (at least an hour, as `1h`)",
                    excerpt(days, 24)
                )
            })?;
            VacationCommand::Start(Some(seconds))
        }
        _ => return Err(usage.into()),
    };
    Ok(Command::Vacation(what))
}

/// Every command word, for help and suggestions.
pub const WORDS: [&str; 27] = [
    "new",
    "join",
    "accept",
    "decline",
    "abort",
    "move",
    "board",
    "moves",
    "history",
    "export",
    "replay",
    "resign",
    "draw",
    "takeback",
    "rules",
    "notation",
    "help",
    "games",
    "play",
    "hint",
    "claim",
    "notify",
    "vacation",
    "tournament",
    "rating",
    "leaderboard",
    "ratings",
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
            let mut clock = None;
            let mut claim = None;
            let mut casual = false;
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
                    "clock" | "time" => {
                        let value = it.next().ok_or(
                            "`clock` needs a time control, such as `clock 3d`, `clock 10d+1d` or `clock none`",
                        )?;
                        clock = Some(Control::parse(value)?);
                    }
                    "timeout" | "timeouts" => {
                        claim = Some(match it.next().map(|w| w.to_ascii_lowercase()).as_deref() {
                            Some("claim" | "claimed") => true,
                            Some("auto" | "lose" | "automatic") => false,
                            _ => {
                                return Err("`timeout` is `timeout claim` (the opponent claims the win when a \
                                            clock runs out) or `timeout auto` (the game ends at once)"
                                    .into());
                            }
                        });
                    }
                    "vs" | "against" => {}
                    "casual" | "unrated" | "friendly" => casual = true,
                    "rated" => casual = false,
                    _ => opponents.push(a.trim_start_matches('@').to_string()),
                }
            }
            Ok(Command::New {
                game,
                opponents,
                seat,
                players,
                clock,
                claim,
                casual,
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
        "board" | "show" => super::appearance::parse(&args).map(Command::Board),
        "moves" | "legal" => Ok(Command::Moves),
        "history" | "record" => Ok(Command::History),
        "export" | "pgn" => Ok(Command::Export(one("export")?.map(str::to_string))),
        "replay" | "gif" => Ok(Command::Replay(one("replay")?.map(str::to_string))),
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
        "claim" => Ok(Command::Claim),
        "tournament" | "tourney" | "event" => {
            super::tournament::parse::parse(&args).map(Command::Tournament)
        }
        "rating" | "leaderboard" | "ratings" => {
            super::ratings::parse(&word.to_ascii_lowercase(), &args).map(Command::Ratings)
        }
        "notify" | "notifications" => notify(&args),
        "vacation" | "holiday" => vacation(&args),
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
                clock: None,
                claim: None,
                casual: false,
            })
        );
        assert_eq!(
            parse("new Lanrick"),
            Ok(Command::New {
                game: GameId::Lanrick,
                opponents: vec![],
                seat: None,
                players: None,
                clock: None,
                claim: None,
                casual: false,
            })
        );
        assert_eq!(
            parse("new lanko88 for 3 as w"),
            Ok(Command::New {
                game: GameId::Lanko88,
                opponents: vec![],
                seat: Some("w".into()),
                players: Some(3),
                clock: None,
                claim: None,
                casual: false,
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
        assert_eq!(parse("replay"), Ok(Command::Replay(None)));
        assert_eq!(parse("replay g7"), Ok(Command::Replay(Some("g7".into()))));
        assert!(parse("replay g7 g8").is_err());
        let Ok(Command::New { clock, claim, .. }) =
            parse("new lanrick @bob clock 10d+1d timeout claim")
        else {
            panic!("a timed new");
        };
        assert_eq!(clock, Some(Control::parse("10d+1d").unwrap()));
        assert_eq!(claim, Some(true));
        assert_eq!(
            parse("notify remind 1h 24h"),
            Ok(Command::Notify(vec![NotifyCommand::Remind(vec![
                86_400, 3_600
            ])]))
        );
        assert_eq!(
            parse("notify dm remind 12h 2h quiet off"),
            Ok(Command::Notify(vec![
                NotifyCommand::Mode(Mode::Dm),
                NotifyCommand::Remind(vec![43_200, 7_200]),
                NotifyCommand::Quiet(None),
            ]))
        );
        assert_eq!(parse("notify"), Ok(Command::Notify(Vec::new())));
        assert!(parse("notify dm remind soon").unwrap_err().contains("soon"));
        assert_eq!(
            parse("vacation start 7"),
            Ok(Command::Vacation(VacationCommand::Start(Some(7 * 86_400))))
        );
    }

    #[test]
    fn malformed_clocks_and_settings_say_what_is_accepted() {
        for (text, says) in [
            ("new lanrick @bob clock 3x", "clock 10d+1d"),
            ("new lanrick @bob clock 0d", "at least"),
            ("new lanrick @bob clock 400d", "at most 60d"),
            ("new lanrick @bob clock", "needs a time control"),
            ("new lanrick @bob timeout maybe", "timeout claim"),
            ("notify remind 90d", "less than 60d"),
            ("notify remind", "notify remind 24h 1h"),
            ("notify loud", "notify mention|dm|off"),
            ("notify quiet 22:00-07:00 Nowhere/Land", "not a time zone"),
            ("vacation start soon", "vacation start 7"),
            ("vacation later", "vacation start [days]"),
        ] {
            let err = parse(text).unwrap_err();
            assert!(err.contains(says), "{text}: {err}");
        }
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
