//! The slash commands, declared once: one per command word of the core's language, each with
//! its description, its options and its subcommands (`/tournament join`). This table is data
//! only; [`super::register`] makes the commands Discord registers from it, [`super::words`] reads
//! an interaction's options back into the core's text command by it, and [`super::complete`]
//! finds in it what the option being typed completes.
//!
//! A command's options are listed in the order the core reads their words. Discord shows a
//! command's required options before the others; the registration orders them so.

/// A slash command: its name, its description (at most 100 characters), its options in the
/// order the core reads them, and its subcommands (a command with subcommands has no options
/// of its own: each subcommand has its own).
#[derive(Clone, Copy, Debug)]
pub struct Command {
    /// The command's name, the first word of its text command.
    pub name: &'static str,
    /// What Discord shows under the name.
    pub description: &'static str,
    /// The options, in the order the core reads their words.
    pub options: &'static [Opt],
    /// The subcommands; their words follow the command's name.
    pub subcommands: &'static [Command],
}

/// One option of a slash command.
#[derive(Clone, Copy, Debug)]
pub struct Opt {
    /// The option's name.
    pub name: &'static str,
    /// What Discord shows for it.
    pub description: &'static str,
    /// What may be given, and how it becomes words.
    pub kind: Kind,
    /// Whether the command needs it.
    pub required: bool,
    /// The word its value follows in the text command (`seat` → `as black`).
    pub after: Option<&'static str>,
    /// A word this option implies when it comes without another option (`/vacation days:7` is
    /// `vacation start 7`).
    pub implies: Option<Implied>,
}

/// What an option takes.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// One of a fixed list: the label shown and the word the core reads. Registered as an
    /// integer option (0 to 255, as it always was) whose value is the index in the list.
    Choice(&'static [(&'static str, &'static str)]),
    /// Free text, at most `max` characters (Discord refuses longer input before it reaches
    /// Muster). A `one_word` value is one word of the text command however it is typed: spaces
    /// in it are dropped (`10d + 1d` is `10d+1d`), so that nothing typed there reads as another
    /// word. `complete` says what is suggested as it is typed.
    Text {
        /// The longest value.
        max: u16,
        /// Whether spaces in the value are dropped.
        one_word: bool,
        /// What the suggestions are, if any.
        complete: Option<Complete>,
    },
    /// A whole number from `min` to `max`.
    Integer {
        /// The smallest value.
        min: u16,
        /// The largest value.
        max: u16,
    },
    /// A user of the server: his id is the word, and he is one of the request's mentions.
    User,
    /// A yes or no: the word the text command has when it is yes (no adds nothing).
    Flag(&'static str),
}

/// What a free-text option suggests as it is typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Complete {
    /// The move being typed, from the channel's game.
    Move,
    /// An event's name, from the server's events.
    Event,
}

/// A word an option implies when another option is not given.
#[derive(Clone, Copy, Debug)]
pub struct Implied {
    /// The word.
    pub word: &'static str,
    /// The option whose place it takes.
    pub stands_for: &'static str,
}

/// An option choosing from `list`.
const fn choice(
    name: &'static str,
    description: &'static str,
    list: &'static [(&'static str, &'static str)],
) -> Opt {
    Opt::new(name, description, Kind::Choice(list))
}

/// A free-text option of at most `max` characters.
const fn text(name: &'static str, description: &'static str, max: u16) -> Opt {
    let kind = Kind::Text {
        max,
        one_word: false,
        complete: None,
    };
    Opt::new(name, description, kind)
}

/// A whole number from `min` to `max`.
const fn integer(name: &'static str, description: &'static str, min: u16, max: u16) -> Opt {
    Opt::new(name, description, Kind::Integer { min, max })
}

/// A user.
const fn user(name: &'static str, description: &'static str) -> Opt {
    Opt::new(name, description, Kind::User)
}

/// A yes or no that adds `word` when yes.
const fn flag(name: &'static str, description: &'static str, word: &'static str) -> Opt {
    Opt::new(name, description, Kind::Flag(word))
}

impl Opt {
    const fn new(name: &'static str, description: &'static str, kind: Kind) -> Opt {
        Opt {
            name,
            description,
            kind,
            required: false,
            after: None,
            implies: None,
        }
    }

    /// The option, required.
    const fn required(self) -> Opt {
        Opt {
            required: true,
            ..self
        }
    }

    /// The option, its value following `word`.
    const fn after(self, word: &'static str) -> Opt {
        Opt {
            after: Some(word),
            ..self
        }
    }

    /// The option, implying `word` in place of the option `stands_for` when that is not given.
    const fn implies(self, word: &'static str, stands_for: &'static str) -> Opt {
        Opt {
            implies: Some(Implied { word, stands_for }),
            ..self
        }
    }

    /// The free-text option, one word however it is typed.
    const fn one_word(self) -> Opt {
        match self.kind {
            Kind::Text { max, complete, .. } => Opt {
                kind: Kind::Text {
                    max,
                    one_word: true,
                    complete,
                },
                ..self
            },
            _ => self,
        }
    }

    /// The free-text option, with suggestions as it is typed.
    const fn completes(self, what: Complete) -> Opt {
        match self.kind {
            Kind::Text { max, one_word, .. } => Opt {
                kind: Kind::Text {
                    max,
                    one_word,
                    complete: Some(what),
                },
                ..self
            },
            _ => self,
        }
    }
}

/// The games, as the core names them (`GameId`'s order).
pub const GAMES: &[(&str, &str)] = &[
    ("Lanrick (Third Edition, 1881)", "lanrick"),
    ("Lanrick (first version, 1880)", "lanrick1880"),
    ("Arithmetical Croquet", "croquet"),
    ("Lanko-88", "lanko88"),
    ("Lanko-68", "lanko68"),
    ("Lanko-103", "lanko103"),
];

/// What `/puzzle` may ask besides a puzzle.
const PUZZLE_ASKS: &[(&str, &str)] = &[
    ("The day's puzzle", "daily"),
    ("Your puzzle rating, streak and tries", "rating"),
    ("The solution of your puzzle", "solution"),
];

/// An offer (of a draw, of a takeback) and its answers.
const ANSWERS: &[(&str, &str)] = &[
    ("Offer or ask", "offer"),
    ("Accept", "accept"),
    ("Decline", "decline"),
];

/// Muster's levels of play.
const BOTS: &[(&str, &str)] = &[
    ("Easy", "bot:easy"),
    ("Good", "bot:good"),
    ("Strong (perfect play in Croquet)", "bot:strong"),
];

/// What a clock running out does.
const TIMEOUTS: &[(&str, &str)] = &[
    ("Auto: the game ends when a clock runs out", "auto"),
    ("Claim: the opponent may claim the win", "claim"),
];

/// Where reminders go.
const MODES: &[(&str, &str)] = &[
    ("Mention me in the game's channel", "mention"),
    ("Direct message", "dm"),
    ("Off: no reminders", "off"),
];

/// Where a player with linked accounts has every reminder sent.
const ROUTES: &[(&str, &str)] = &[
    ("Each game's own platform", "each"),
    ("Discord, by direct message", "discord"),
    ("Matrix, by direct message", "matrix"),
];

/// A vacation's start or end.
const VACATION: &[(&str, &str)] = &[("Start", "start"), ("End", "end")];

/// Which side is at the bottom of a player's boards.
const ORIENTATIONS: &[(&str, &str)] = &[
    ("Flip: turn my boards over", "flip"),
    ("White's side at the bottom", "white"),
    ("Black's side at the bottom", "black"),
];

/// The colours of a player's boards.
const THEMES: &[(&str, &str)] = &[
    ("Classic: paper and wood", "classic"),
    ("Dark: for dark screens", "dark"),
    (
        "Contrast: strong colours, safe for colour blindness",
        "contrast",
    ),
];

/// How large a player's boards are drawn.
const SIZES: &[(&str, &str)] = &[("Small", "small"), ("Normal", "normal"), ("Large", "large")];

/// How an event's rounds are paired.
const SYSTEMS: &[(&str, &str)] = &[
    ("Swiss", "swiss"),
    ("Round robin", "roundrobin"),
    ("Double round robin", "double"),
    ("Knockout", "knockout"),
];

/// A board's result in an event.
const RESULTS: &[(&str, &str)] = &[
    ("1-0: White (the first seat) wins", "1-0"),
    ("0-1: Black wins", "0-1"),
    ("½-½: drawn", "1/2-1/2"),
    ("White forfeits", "forfeit white"),
    ("Black forfeits", "forfeit black"),
];

/// The formats of an event's export.
const EXPORT_FORMATS: &[(&str, &str)] = &[
    ("JSON: the whole event", "json"),
    (
        "TRF: FIDE's Tournament Report File (not for a knockout)",
        "trf",
    ),
];

/// A seat's name, as every game names its seats.
const SEAT: u16 = 16;
/// A clock, such as `10d+1d`.
const CLOCK: u16 = 20;

/// The longest account of another platform (a Matrix id is at most 255 bytes).
const ACCOUNT: u16 = 255;
/// A finished game's id, such as `g18446744073709551615`.
const GAME_ID: u16 = 32;
/// An event's name, as the core allows it.
const EVENT: u16 = 24;
/// What a clock running out does, asked when a game or an event is opened.
const TIMEOUT: Opt = choice(
    "timeout",
    "When a clock runs out: the game ends, or the opponent may claim the win",
    TIMEOUTS,
)
.after("timeout");
/// The event a tournament subcommand is about.
const EVENT_NAME: Opt =
    text("name", "The event (default: this channel's)", EVENT).completes(Complete::Event);

/// A command without options.
const fn bare(name: &'static str, description: &'static str) -> Command {
    Command {
        name,
        description,
        options: &[],
        subcommands: &[],
    }
}

/// Every slash command, in the order they are registered.
pub const COMMANDS: &[Command] = &[
    Command {
        name: "new",
        description: "Start a game here: challenge players, leave seats open, or play the bot",
        options: &[
            choice("game", "Which game", GAMES).required(),
            user("opponent", "Challenge this player"),
            user("second", "A second player (Lanko)"),
            user("third", "A third player (Lanko)"),
            text(
                "elsewhere",
                "Or a player on another platform: a Matrix id (@alice:example.org) or a linked player's name",
                ACCOUNT,
            )
            .one_word(),
            choice("bot", "Play against Muster at this level", BOTS),
            text(
                "seat",
                "Your side: white or black (Lanko: s, w, n or e)",
                SEAT,
            )
            .after("as"),
            integer("players", "Lanko: how many players (2, 3 or 4)", 2, 4).after("for"),
            text(
                "clock",
                "time control: 3d per move, 10d+1d bank and increment, none",
                CLOCK,
            )
            .one_word()
            .after("clock"),
            TIMEOUT,
            flag("casual", "A casual game: not rated", "casual"),
        ],
        subcommands: &[],
    },
    Command {
        name: "join",
        description: "Take an open seat in this channel's game",
        options: &[text("seat", "Which seat (if several are open)", SEAT).after("as")],
        subcommands: &[],
    },
    bare("accept", "Accept the challenge in this channel"),
    bare("decline", "Decline the challenge in this channel"),
    bare(
        "abort",
        "Call off this channel's game before the first move",
    ),
    Command {
        name: "move",
        description: "Play your move (the whole turn); suggestions show the legal moves as you type",
        // The longest notation of any game.
        options: &[text(
            "notation",
            "The move in notation, e.g. c1-c3 d1-e2",
            muster_rules::MAX_NOTATION as u16,
        )
        .completes(Complete::Move)
        .required()],
        subcommands: &[],
    },
    bare(
        "declare",
        "Lanko: declare that your castles stay out of the middle squares",
    ),
    Command {
        name: "board",
        description: "Your view of the board (only you see it); the options change how your boards look",
        options: &[
            choice(
                "orientation",
                "Which side is at the bottom of your boards",
                ORIENTATIONS,
            ),
            choice("theme", "The colours of your boards", THEMES),
            choice("size", "How large your boards are drawn", SIZES),
        ],
        subcommands: &[],
    },
    bare("moves", "List the legal moves"),
    bare("history", "Show the game's record so far"),
    Command {
        name: "export",
        description: "The record as a file (this game, or a finished game by its id)",
        options: &[text("id", "A finished game's id", GAME_ID)],
        subcommands: &[],
    },
    Command {
        name: "replay",
        description: "The game as an animation (this game so far, or a finished game by its id)",
        options: &[text("id", "A finished game's id", GAME_ID)],
        subcommands: &[],
    },
    bare("resign", "Resign this game"),
    Command {
        name: "draw",
        description: "Offer a draw, or answer your opponent's offer",
        options: &[choice("answer", "Offer, accept or decline", ANSWERS)],
        subcommands: &[],
    },
    Command {
        name: "takeback",
        description: "Ask to take back your last move, or answer such a request",
        options: &[choice("answer", "Ask, accept or decline", ANSWERS)],
        subcommands: &[],
    },
    bare("hint", "Your best decision now, by the bot (in Croquet the perfect step)"),
    Command {
        name: "rules",
        description: "The rules of a game",
        options: &[choice(
            "game",
            "Which game (default: this channel's)",
            GAMES,
        )],
        subcommands: &[],
    },
    Command {
        name: "learn",
        description: "Lessons on a board: your next lesson, one by number, or your answer to it",
        options: &[
            choice("game", "The game's course (without it: your progress)", GAMES),
            integer("lesson", "The lesson's number (default: your next)", 1, 20),
            text(
                "answer",
                "Your decision in the lesson you are taking, in notation",
                muster_rules::MAX_NOTATION as u16,
            ),
        ],
        subcommands: &[],
    },
    Command {
        name: "puzzle",
        description: "A proved puzzle from the bot's games, rated: a new one, the day's, or your answer",
        options: &[
            choice("ask", "Instead of a new puzzle: the day's, your rating, the solution", PUZZLE_ASKS),
            choice("game", "The game (default: any)", GAMES),
            text(
                "answer",
                "Your decision in the puzzle you are taking, in notation",
                muster_rules::MAX_NOTATION as u16,
            ),
        ],
        subcommands: &[],
    },
    Command {
        name: "notation",
        description: "How moves are written in a game",
        options: &[choice(
            "game",
            "Which game (default: this channel's)",
            GAMES,
        )],
        subcommands: &[],
    },
    Command {
        name: "help",
        description: "The commands, or help on one",
        options: &[text("command", "A command, such as new or move", 32)],
        subcommands: &[],
    },
    Command {
        name: "games",
        description: "Your games: live ones (your move first) in every channel, then finished ones",
        options: &[user("player", "Whose games")],
        subcommands: &[],
    },
    bare(
        "claim",
        "Claim the win: your opponent's clock ran out (in a game whose timeouts are claimed)",
    ),
    Command {
        name: "notify",
        description: "How and when you are reminded of your move; with no option, your settings",
        options: &[
            choice("mode", "Where reminders go", MODES),
            text(
                "remind",
                "Remind me at these times left, such as 24h 1h (or off, default)",
                40,
            )
            .after("remind"),
            text(
                "quiet",
                "No reminders in these hours, such as 22:00-07:00 Europe/Berlin (or off)",
                64,
            )
            .after("quiet"),
            choice(
                "on",
                "With accounts linked: the platform every reminder goes to",
                ROUTES,
            )
            .after("on"),
        ],
        subcommands: &[],
    },
    Command {
        name: "vacation",
        description: "Your vacation: clocks stand still meanwhile; with no option, what is left this year",
        options: &[
            choice("action", "Start or end a vacation", VACATION),
            integer(
                "days",
                "How many days (default: all you have left this year)",
                1,
                366,
            )
            .implies("start", "action"),
        ],
        subcommands: &[],
    },
    TOURNAMENT,
    Command {
        name: "rating",
        description: "A player's ratings here: every game, or one",
        options: &[
            user("player", "Whose (default: yours)"),
            choice("game", "Which game", GAMES),
        ],
        subcommands: &[],
    },
    Command {
        name: "leaderboard",
        description: "The strongest established players of a game here",
        options: &[choice("game", "Which game", GAMES).required()],
        subcommands: &[],
    },
    Command {
        name: "ratings",
        description: "Every rated game here and every rating, as a JSON file",
        options: &[choice("game", "Only this game", GAMES)],
        subcommands: &[],
    },
    Command {
        name: "link",
        description: "One player on two platforms: a code for you alone, or the code from the other",
        options: &[text(
            "code",
            "The code the other platform gave you (ABCD-EFGH); leave it out for a new code",
            16,
        )],
        subcommands: &[],
    },
    bare("unlink", "Part your account from those linked with it"),
    bare("whoami", "Your account here, and those linked with it"),
];

/// `/tournament`: a subcommand per action of the core's `tournament …` (docs/tournaments.md).
/// The event's name comes first in the core's words; it is completed from the server's events,
/// and in the event's channel it may be left out.
const TOURNAMENT: Command = Command {
    name: "tournament",
    description: "Tournaments: open, join, follow and run events",
    options: &[],
    subcommands: &[
        Command {
            name: "new",
            description: "Open an event in this channel (you organise it)",
            options: &[
                text(
                    "name",
                    "A short name: lowercase letters, digits, hyphens (spring-2026)",
                    EVENT,
                )
                .required(),
                choice("game", "Which game", GAMES).required(),
                choice("system", "How rounds are paired", SYSTEMS).required(),
                integer(
                    "rounds",
                    "Swiss: how many rounds (default: enough to separate the field)",
                    1,
                    30,
                )
                .after("rounds"),
                text(
                    "clock",
                    "time control of every game: 3d per move, 10d+1d bank and increment, none",
                    CLOCK,
                )
                .one_word()
                .after("clock"),
                TIMEOUT,
                flag("pairs", "Lanko: entrants are pairs of players", "pairs"),
            ],
            subcommands: &[],
        },
        bare("list", "The events of this server"),
        Command {
            name: "join",
            description: "Enter an event (Lanko pairs: name your partner)",
            options: &[
                EVENT_NAME,
                user("partner", "Your partner, in a pairs event"),
            ],
            subcommands: &[],
        },
        on_the_event("leave", "Withdraw from an event"),
        on_the_event(
            "start",
            "Organisers: close entries and pair the first round",
        ),
        on_the_event(
            "standings",
            "The standings with every tie-break, or the knockout bracket",
        ),
        Command {
            name: "pairings",
            description: "A round's boards (default: the current round)",
            options: &[EVENT_NAME, integer("round", "Which round", 1, 60)],
            subcommands: &[],
        },
        Command {
            name: "export",
            description: "The whole event as a file: JSON, or FIDE's Tournament Report File (TRF)",
            options: &[
                EVENT_NAME,
                choice("format", "JSON (the default) or TRF-16", EXPORT_FORMATS),
            ],
            subcommands: &[],
        },
        Command {
            name: "add",
            description: "Organisers: enter a player (or a Lanko pair)",
            options: &[
                EVENT_NAME,
                user("player", "Who").required(),
                user("partner", "Their partner, in a pairs event"),
            ],
            subcommands: &[],
        },
        Command {
            name: "kick",
            description: "Organisers: withdraw a player",
            options: &[EVENT_NAME, user("player", "Who").required()],
            subcommands: &[],
        },
        Command {
            name: "result",
            description: "Organisers: give a board of the current round its result",
            options: &[
                EVENT_NAME,
                integer("board", "The board", 1, 100).required(),
                choice("result", "The result", RESULTS).required(),
            ],
            subcommands: &[],
        },
        on_the_event(
            "pause",
            "Organisers: pair no new round until resumed (games go on)",
        ),
        on_the_event("resume", "Organisers: pair rounds again"),
        on_the_event("cancel", "Organisers: call the event off"),
    ],
};

/// A tournament subcommand whose only option is the event's name.
const fn on_the_event(name: &'static str, description: &'static str) -> Command {
    Command {
        name,
        description,
        options: &[EVENT_NAME],
        subcommands: &[],
    }
}

/// The slash command named `name`.
pub fn find(name: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.name == name)
}

impl Command {
    /// The option named `name`.
    pub fn option(&self, name: &str) -> Option<&'static Opt> {
        self.options.iter().find(|o| o.name == name)
    }

    /// The subcommand named `name`.
    pub fn subcommand(&self, name: &str) -> Option<&'static Command> {
        self.subcommands.iter().find(|c| c.name == name)
    }
}
