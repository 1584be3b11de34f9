//! The command line's shape, with `clap`: every subcommand, its options and their help. The
//! machine interface (`replay`, `moves`, `analyse`) keeps its arguments and output exactly as
//! docs/machine-interface.md gives them.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// What follows the subcommands in `muster --help`.
const AFTER: &str = "\
Machine interface (docs/machine-interface.md):
  muster replay --game <id> [FILE]   play a game record, print the result as JSON
  muster moves --game <id> [FILE]    play a record, print the legal moves as JSON
  muster analyse --game croquet [FILE]
                                     play a record, print the perfect-play value and best moves
  muster bestmove --game <id> [--level L | --millis N | --iterations N] [--seed S] [FILE]
                                     play a record, print the bot's best move as JSON

A record has one move per line in the game's notation; blank lines and lines starting with #
are skipped; without FILE (or with -) it is read from standard input.
Games: lanrick, lanrick1880, croquet, lanko88, lanko68, lanko103.

Settings come from muster.toml and MUSTER_* variables (see muster.example.toml;
`muster config check` prints them). With no command, Muster serves the configured chats, or
opens the console when none is configured.";

/// muster — Lewis Carroll's games, for chat
#[derive(Parser, Debug)]
#[command(name = "muster", version, after_long_help = AFTER, after_help = AFTER)]
pub struct Cli {
    /// What to do (nothing: serve the configured chats, or open the console).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Open the console: a local chat in this terminal, on the embedded store
    Console {
        /// The data directory (default: the settings' `data_dir`)
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
        /// Run a script of lines `<user> <channel> <message>` (- for standard input)
        #[arg(long, value_name = "FILE")]
        script: Option<String>,
        #[command(flatten)]
        clock: ClockArgs,
    },
    /// Serve the configured chats (Discord, Matrix)
    Serve {
        #[command(flatten)]
        clock: ClockArgs,
    },
    /// Play a game record, print the result as JSON
    Replay(Record),
    /// Play a game record, print the legal moves as JSON
    Moves(Record),
    /// Play a Croquet record, print the perfect-play value and best moves as JSON
    #[command(alias = "analyze")]
    Analyse(Record),
    /// Play a game record, print the bot's best move there as JSON
    Bestmove {
        #[command(flatten)]
        record: Record,
        /// The bot's level: easy, good or strong
        #[arg(long, value_name = "LEVEL", conflicts_with_all = ["millis", "iterations"])]
        level: Option<String>,
        /// Search for this many milliseconds
        #[arg(long, value_name = "N", conflicts_with = "iterations")]
        millis: Option<u64>,
        /// Search this many iterations (reproducible with --seed)
        #[arg(long, value_name = "N")]
        iterations: Option<u64>,
        /// The search's seed (default 1)
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
    },
    /// Write a snapshot of the store (sled: Muster not running on it)
    Backup {
        /// The data directory (default: the settings' `data_dir`)
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
        /// Where to write it (- for standard output)
        #[arg(long, value_name = "FILE")]
        out: String,
    },
    /// Restore a snapshot into an empty data directory, checking every entry
    Restore {
        /// The data directory (default: the settings' `data_dir`)
        #[arg(long, value_name = "DIR")]
        data: Option<PathBuf>,
        /// The backup (- for standard input)
        #[arg(value_name = "FILE")]
        file: String,
    },
    /// Copy every game, note and receipt from one store into another, and compare the copy
    Migrate {
        /// The store to copy: sled:<data dir> or a postgres:// address
        #[arg(long, value_name = "STORE")]
        from: String,
        /// The store to copy into (empty, unless --replace): sled:<data dir> or postgres://…
        #[arg(long, value_name = "STORE")]
        to: String,
        /// Empty the target first when it already holds games
        #[arg(long)]
        replace: bool,
    },
    /// The settings
    Config {
        #[command(subcommand)]
        what: ConfigCommand,
    },
    /// Ask the operations listener whether Muster is up (exit 0 if /healthz answers 200)
    Health {
        /// The listener's address (default: the settings' `ops_listen`)
        #[arg(value_name = "ADDR")]
        addr: Option<String>,
    },
    /// The puzzle set: make it from the bot's games against itself, or prove one again
    Puzzles {
        #[command(subcommand)]
        what: PuzzlesCommand,
    },
    /// Print a completion script for a shell
    Completions {
        /// The shell
        shell: clap_complete::Shell,
    },
}

/// `muster puzzles …`.
#[derive(Subcommand, Debug)]
pub enum PuzzlesCommand {
    /// Play the bot against itself in every game, prove the puzzles found, print the set
    Generate {
        /// Games played of each kind
        #[arg(long, value_name = "N", default_value_t = 12)]
        games: u64,
        /// The first game's seed
        #[arg(long, value_name = "S", default_value_t = 1)]
        seed: u64,
        /// Puzzles kept from one game
        #[arg(long, value_name = "N", default_value_t = 2)]
        per_game: usize,
        /// Puzzles kept of one game kind
        #[arg(long, value_name = "N", default_value_t = 12)]
        per_kind: usize,
    },
    /// Prove every puzzle of a set again (exit 1 if one fails)
    Check {
        /// The set (- for standard input)
        #[arg(value_name = "FILE")]
        file: String,
    },
}

/// `muster config …`.
#[derive(Subcommand, Debug)]
pub enum ConfigCommand {
    /// Load and check the settings; print the effective ones, secrets as ***
    Check,
}

/// A game record to read.
#[derive(Args, Debug)]
pub struct Record {
    /// The game: lanrick, lanrick1880, croquet, lanko88, lanko68, lanko103
    #[arg(long, value_name = "ID")]
    pub game: String,
    /// The record (default, or -: standard input)
    #[arg(value_name = "FILE")]
    pub file: Option<String>,
}

/// Which clock Muster reads.
#[derive(ValueEnum, Clone, Copy, PartialEq, Eq, Debug)]
pub enum ClockKind {
    /// The system's clock
    System,
    /// A clock that `~ +36h` lines move (rehearsing reminders and timeouts)
    Manual,
}

/// `--clock` and `--start`.
#[derive(Args, Debug, Default)]
pub struct ClockArgs {
    /// The clock: system, or manual (moved by `~ +36h` lines on standard input)
    #[arg(long, value_enum)]
    pub clock: Option<ClockKind>,
    /// Where a manual clock starts (RFC 3339; default: now)
    #[arg(long, value_name = "TIME")]
    pub start: Option<String>,
}

impl ClockArgs {
    /// The manual clock's start (`None` on the system's clock).
    pub fn start(&self) -> Result<Option<u64>, String> {
        let start = match &self.start {
            Some(t) => Some(
                muster_core::kernel::clock::parse_rfc3339(t)
                    .map_err(|why| format!("--start: {why}"))?,
            ),
            None => None,
        };
        match (self.clock, start) {
            (Some(ClockKind::Manual), Some(t)) => Ok(Some(t)),
            (Some(ClockKind::Manual), None) => Ok(Some(muster_core::kernel::clock::Clock::now(
                &muster_core::kernel::clock::SystemClock,
            ))),
            (_, Some(_)) => Err("--start sets a manual clock: add --clock manual".into()),
            (_, None) => Ok(None),
        }
    }
}

/// Exit status for bad usage or an unknown game.
pub const USAGE_ERROR: u8 = 2;

pub fn fail_usage(err: &mut dyn Write, command: &str, msg: &str) -> u8 {
    let _ = writeln!(
        err,
        "muster {command}: {msg}\n\nFor more information, try 'muster {command} --help'."
    );
    USAGE_ERROR
}
