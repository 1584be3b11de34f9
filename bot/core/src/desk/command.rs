//! The command language (docs/guide.md): the words a user types after the prefix, or picks from a
//! slash command, read once into a [`Command`] that hands each capability its own command type.
//! Parsing here knows nothing of any platform.

use muster_rules::GameId;

use crate::clocks::command::{self as clock_words, ClockCommand};
use crate::events::command::{self as event_words, TournamentCommand};
use crate::games::command::{self as game_words, GameCommand};
use crate::kernel::request::User;
use crate::kernel::text::excerpt;
use crate::learn::puzzles::{self, PuzzleCommand};
use crate::learn::{self, LearnCommand};
use crate::players::links::{self, LinkCommand};
use crate::ratings::commands::{self as rating_words, RatingsCommand};

/// The longest command Muster reads, in characters (a `new` naming three players by long
/// ids stays well below it). Longer text is refused before it is read.
pub const MAX_COMMAND: usize = 1000;

/// A parsed command: one capability's own command, or the desk's help.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Command {
    /// A channel's game (games).
    Game(GameCommand),
    /// Reminders, vacations and the dashboard (clocks).
    Clock(ClockCommand),
    /// A tournament command (events).
    Tournament(TournamentCommand),
    /// `rating`, `leaderboard`, `ratings export` (ratings).
    Ratings(RatingsCommand),
    /// `link`, `unlink`, `whoami` (players).
    Link(LinkCommand),
    /// `learn`: lessons (learn).
    Learn(LearnCommand),
    /// `puzzle`: proved positions to solve (learn).
    Puzzle(PuzzleCommand),
    /// The rules of a game.
    Rules(Option<GameId>),
    /// The notation of a game.
    Notation(Option<GameId>),
    /// Help on the commands.
    Help(Option<String>),
}

impl Command {
    /// The command's name, as logs and metrics label it.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Game(c) => c.name(),
            Command::Clock(c) => c.name(),
            Command::Tournament(_) => "tournament",
            Command::Ratings(_) => "ratings",
            Command::Link(c) => c.name(),
            Command::Learn(c) => c.name(),
            Command::Puzzle(c) => c.name(),
            Command::Rules(_) => "rules",
            Command::Notation(_) => "notation",
            Command::Help(_) => "help",
        }
    }
}

/// Every command word, for help and suggestions.
pub const WORDS: [&str; 32] = [
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
    "link",
    "unlink",
    "whoami",
    "learn",
    "puzzle",
];

fn game_arg(arg: Option<&str>) -> Result<Option<GameId>, String> {
    arg.map(|a| a.parse::<GameId>().map_err(|e| e.to_string()))
        .transpose()
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
    let word = word.to_ascii_lowercase();
    if let Some(game) = game_words::parse(&word, &args, rest) {
        return game.map(Command::Game);
    }
    if let Some(link) = links::parse(&word, &args) {
        return link.map(Command::Link);
    }
    let one = |what: &str| -> Result<Option<&str>, String> {
        match args.as_slice() {
            [] => Ok(None),
            [a] => Ok(Some(a)),
            _ => Err(format!(
                "`{what}` takes at most one word; see `help {what}`"
            )),
        }
    };
    match word.as_str() {
        "" => Err("type a command, such as `help`".into()),
        "rules" => Ok(Command::Rules(game_arg(one("rules")?)?)),
        "learn" | "lesson" => learn::parse(rest).map(Command::Learn),
        "puzzle" | "puzzles" => puzzles::parse(rest).map(Command::Puzzle),
        "notation" => Ok(Command::Notation(game_arg(one("notation")?)?)),
        "help" | "?" | "commands" => Ok(Command::Help(one("help")?.map(str::to_ascii_lowercase))),
        "games" => Ok(Command::Clock(ClockCommand::Games(
            one("games")?.map(|s| s.trim_start_matches('@').to_string()),
        ))),
        "tournament" | "tourney" | "event" => event_words::parse(&args).map(Command::Tournament),
        "rating" | "leaderboard" | "ratings" => {
            rating_words::parse(&word, &args).map(Command::Ratings)
        }
        "notify" | "notifications" => clock_words::parse_notify(&args).map(Command::Clock),
        "vacation" | "holiday" => clock_words::parse_vacation(&args).map(Command::Clock),
        other if event_words::ACTIONS.contains(&other) => {
            let full = std::iter::once(other).chain(args.iter().copied());
            Err(format!(
                "`{other}` is a tournament command: say `tournament {}`",
                excerpt(&full.collect::<Vec<_>>().join(" "), 48)
            ))
        }
        other => Err(format!(
            "unknown command `{}`; say `help` for the list",
            excerpt(other, 32)
        )),
    }
}

/// The name of a thread opened for `command` (a `new` command) by `user`.
pub fn thread_name(command: &str, user: &User) -> String {
    let game = parse(command).ok().and_then(|c| match c {
        Command::Game(GameCommand::New(new)) => Some(new.game.title()),
        _ => None,
    });
    format!("{} — {}", game.unwrap_or("Game"), user.name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clocks::command::{NotifyCommand, VacationCommand};
    use crate::games::command::{Answer, NewGame};
    use crate::kernel::clock::control::Control;
    use crate::players::profile::Mode;

    #[test]
    fn commands_parse_with_their_arguments() {
        assert_eq!(
            parse("new lanrick @bob as black"),
            Ok(Command::Game(GameCommand::New(NewGame {
                game: GameId::Lanrick,
                opponents: vec!["bob".into()],
                seat: Some("black".into()),
                players: None,
                clock: None,
                claim: None,
                casual: false,
            })))
        );
        assert_eq!(
            parse("new Lanrick"),
            Ok(Command::Game(GameCommand::New(NewGame {
                game: GameId::Lanrick,
                opponents: vec![],
                seat: None,
                players: None,
                clock: None,
                claim: None,
                casual: false,
            })))
        );
        assert_eq!(
            parse("new lanko88 for 3 as w"),
            Ok(Command::Game(GameCommand::New(NewGame {
                game: GameId::Lanko88,
                opponents: vec![],
                seat: Some("w".into()),
                players: Some(3),
                clock: None,
                claim: None,
                casual: false,
            })))
        );
        assert_eq!(
            parse("declare"),
            Ok(Command::Game(GameCommand::Move("===".into())))
        );
        assert_eq!(
            parse("move  c1-c3 d1-e2 "),
            Ok(Command::Game(GameCommand::Move("c1-c3 d1-e2".into())))
        );
        assert_eq!(
            parse("draw accept"),
            Ok(Command::Game(GameCommand::Draw(Some(Answer::Accept))))
        );
        assert_eq!(
            parse("takeback"),
            Ok(Command::Game(GameCommand::Takeback(None)))
        );
        assert_eq!(parse("HELP move"), Ok(Command::Help(Some("move".into()))));
        assert_eq!(
            parse("export g12"),
            Ok(Command::Game(GameCommand::Export(Some("g12".into()))))
        );
        assert_eq!(
            parse("replay"),
            Ok(Command::Game(GameCommand::Replay(None)))
        );
        assert_eq!(
            parse("replay g7"),
            Ok(Command::Game(GameCommand::Replay(Some("g7".into()))))
        );
        assert!(parse("replay g7 g8").is_err());
        let Ok(Command::Game(GameCommand::New(NewGame { clock, claim, .. }))) =
            parse("new lanrick @bob clock 10d+1d timeout claim")
        else {
            panic!("a timed new");
        };
        assert_eq!(clock, Some(Control::parse("10d+1d").unwrap()));
        assert_eq!(claim, Some(true));
        assert_eq!(
            parse("notify remind 1h 24h"),
            Ok(Command::Clock(ClockCommand::Notify(vec![
                NotifyCommand::Remind(vec![86_400, 3_600])
            ])))
        );
        assert_eq!(
            parse("notify dm remind 12h 2h quiet off"),
            Ok(Command::Clock(ClockCommand::Notify(vec![
                NotifyCommand::Mode(Mode::Dm),
                NotifyCommand::Remind(vec![43_200, 7_200]),
                NotifyCommand::Quiet(None),
            ])))
        );
        assert_eq!(
            parse("notify"),
            Ok(Command::Clock(ClockCommand::Notify(Vec::new())))
        );
        assert!(parse("notify dm remind soon").unwrap_err().contains("soon"));
        assert_eq!(
            parse("vacation start 7"),
            Ok(Command::Clock(ClockCommand::Vacation(
                VacationCommand::Start(Some(7 * 86_400))
            )))
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
