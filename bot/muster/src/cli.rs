//! The `muster` command line.

use std::io::{Read, Write};

use muster_rules::GameId;

use crate::cli_args::{USAGE_ERROR, fail_usage};
use muster_core::machine;

fn read_record(file: Option<&str>, stdin: &mut dyn Read) -> Result<String, String> {
    let mut text = String::new();
    match file {
        None | Some("-") => stdin
            .read_to_string(&mut text)
            .map_err(|e| format!("cannot read standard input: {e}"))?,
        Some(path) => {
            return std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"));
        }
    };
    Ok(text)
}

/// The settings, loaded once at the start of [`run`].
type Loaded = Result<muster_config::Settings, muster_config::ConfigError>;

/// `muster console`: the console on the settings' store (or sled in `data`), reading `script`
/// (a file, `-` for standard input) or, without one, an interactive session.
fn console(
    loaded: &Loaded,
    data: Option<std::path::PathBuf>,
    script: Option<String>,
    clock: &crate::cli_args::ClockArgs,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let settings = match loaded {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "muster: {e}");
            return USAGE_ERROR;
        }
    };
    let data = data.unwrap_or_else(|| settings.data_dir.clone());
    let start = match clock.start() {
        Ok(s) => s,
        Err(why) => return fail_usage(err, "console", &why),
    };
    let store =
        match muster_core::kernel::store::Named::from_settings(&settings.store, &data).open() {
            Ok(s) => s,
            Err(e) => {
                let _ = writeln!(err, "muster: {e}");
                return 1;
            }
        };
    // Croquet's perfect-play table takes under a second to build: build it while people type.
    std::thread::spawn(|| muster_rules::croquet::solve::table().len());
    let changes = std::sync::Arc::new(muster_core::kernel::store::Changes::default());
    let store: std::sync::Arc<dyn muster_core::kernel::store::GameStore> = std::sync::Arc::new(
        muster_core::kernel::store::Metered::telling(store, std::sync::Arc::clone(&changes)),
    );
    muster_core::telemetry::health::ready("store");
    let (mut console, backups) = console_on(settings, &data, &store, start);
    if let Some(web) = &settings.web {
        store.listen(std::sync::Arc::clone(&changes));
        let core = std::sync::Arc::new(console.core().with_prefix(&settings.prefix));
        let limits = muster_web::listen::Limits::from_settings(web);
        let shared = muster_web::Shared::new(core, changes, limits);
        if let Err(why) = muster_web::serve::beside_console(shared, web.listen) {
            let _ = writeln!(err, "muster console: {why}");
            return 1;
        }
    }
    // The input is read on a thread of its own, so that a stop signal ends it between commands.
    let source = match script_source(script.as_deref(), err) {
        Ok(source) => source,
        Err(code) => return code,
    };
    let (mut input, end_input) = crate::ops::service::Input::new(source);
    // Ready before the listener opens, so that nobody asking it sees the console missing.
    muster_core::telemetry::health::ready("console");
    if let Err(why) =
        crate::ops::service::beside_console(store, backups, settings.ops.clone(), end_input)
    {
        let _ = writeln!(err, "muster console: {why}");
        return 1;
    }
    let result = if script.is_some() {
        console.run_script(&mut input, out)
    } else {
        console.text_boards = true;
        console.run_interactive(&mut input, out)
    };
    muster_core::telemetry::health::down("console", "stopped");
    match result {
        Ok(()) => 0,
        Err(e) => {
            let _ = writeln!(err, "muster console: {e}");
            1
        }
    }
}

/// The console over a core on `store` (writing files under `data`), on a manual clock from
/// `start` if given, else the system's; and the backups a running console takes.
fn console_on(
    settings: &muster_config::Settings,
    data: &std::path::Path,
    store: &std::sync::Arc<dyn muster_core::kernel::store::GameStore>,
    start: Option<u64>,
) -> (
    crate::console::Console,
    std::sync::Arc<crate::ops::backups::Backups>,
) {
    let policy = muster_core::desk::TimePolicy {
        vacation_days: settings.vacation_days,
        ..Default::default()
    };
    let manual = start
        .map(|now| std::sync::Arc::new(muster_core::kernel::clock::ManualClock::starting_at(now)));
    let clock: std::sync::Arc<dyn muster_core::kernel::clock::Clock> = match &manual {
        Some(m) => m.clone(),
        None => std::sync::Arc::new(muster_core::kernel::clock::SystemClock),
    };
    let backups = crate::ops::service::backups(store, clock.clone(), data, &settings.ops);
    let core =
        muster_core::desk::Core::with_clock(std::sync::Arc::clone(store), &settings.prefix, clock)
            .with_time_policy(policy);
    core.set_web(settings.web.as_ref().map(|w| w.base_url.clone()));
    if core.store().shared() {
        // Other instances on the store see to their own platforms' clocks.
        core.timers().fire_for(crate::console::PLATFORM, true);
    }
    let console = match manual {
        Some(m) => crate::console::Console::with_manual_clock(core, data, m),
        None => crate::console::Console::new(core, data),
    };
    (console, backups)
}

/// Where the console reads its input: the file `script`, or standard input (`-` or none); a
/// file that cannot be opened is said on `err` and gives the usage error's status.
fn script_source(
    script: Option<&str>,
    err: &mut dyn Write,
) -> Result<Box<dyn std::io::BufRead + Send>, u8> {
    Ok(match script {
        None | Some("-") => Box::new(std::io::BufReader::new(std::io::stdin())),
        Some(path) => match std::fs::File::open(path) {
            Ok(file) => Box::new(std::io::BufReader::new(file)),
            Err(e) => {
                let _ = writeln!(err, "muster console: cannot read {path}: {e}");
                return Err(USAGE_ERROR);
            }
        },
    })
}

/// `muster serve`: runs the configured chat adapters on the embedded store.
fn serve(loaded: &Loaded, clock: &crate::cli_args::ClockArgs, err: &mut dyn Write) -> u8 {
    let start = match clock.start() {
        Ok(s) => s,
        Err(why) => return fail_usage(err, "serve", &why),
    };
    let settings = match loaded {
        Ok(s) => s.clone(),
        Err(e) => {
            let _ = writeln!(err, "muster: {e}");
            return USAGE_ERROR;
        }
    };
    if settings.discord.is_none() && settings.matrix.is_none() {
        let _ = writeln!(
            err,
            "muster serve: no chat is configured; set MUSTER_DISCORD_TOKEN and \
             MUSTER_DISCORD_APPLICATION_ID (see docs/discord.md) or MUSTER_MATRIX_HOMESERVER, \
             MUSTER_MATRIX_USER and MUSTER_MATRIX_PASSWORD (see docs/matrix.md), or run `muster console`"
        );
        return USAGE_ERROR;
    }
    let named =
        muster_core::kernel::store::Named::from_settings(&settings.store, &settings.data_dir);
    let store = match named.open() {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "muster: {e}");
            return 1;
        }
    };
    std::thread::spawn(|| muster_rules::croquet::solve::table().len());
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            let _ = writeln!(err, "muster serve: cannot start the async runtime: {e}");
            return 1;
        }
    };
    let policy = match time_policy(&settings) {
        Ok(p) => p,
        Err(e) => {
            let _ = writeln!(err, "{e}");
            return USAGE_ERROR;
        }
    };
    let changes = std::sync::Arc::new(muster_core::kernel::store::Changes::default());
    let store: std::sync::Arc<dyn muster_core::kernel::store::GameStore> = std::sync::Arc::new(
        muster_core::kernel::store::Metered::telling(store, std::sync::Arc::clone(&changes)),
    );
    muster_core::telemetry::health::ready("store");
    let base = served_core(store, &settings, start, policy);
    let result = runtime.block_on(crate::chats::serve_chats(base, settings, changes));
    // Requests still in flight (a long-polling sync) are not waited for.
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    match result {
        Ok(()) => 0,
        Err(e) => {
            let _ = writeln!(err, "muster serve: {e}");
            1
        }
    }
}

/// The core `muster serve` runs: on the wall clock, or on a manual one from `start` (moved by
/// its standard input), with every adapter's surface, the communities and the web's address
/// given before the scheduler or any adapter speaks.
fn served_core(
    store: std::sync::Arc<dyn muster_core::kernel::store::GameStore>,
    settings: &muster_config::Settings,
    start: Option<u64>,
    policy: muster_core::desk::TimePolicy,
) -> std::sync::Arc<muster_core::desk::Core> {
    let base = match start {
        Some(now) => {
            let clock =
                std::sync::Arc::new(muster_core::kernel::clock::ManualClock::starting_at(now));
            let core = muster_core::desk::Core::with_clock(store, &settings.prefix, clock.clone());
            let base = std::sync::Arc::new(core.with_time_policy(policy));
            clock_from_stdin(std::sync::Arc::clone(&base), clock);
            base
        }
        None => std::sync::Arc::new(
            muster_core::desk::Core::new(store, &settings.prefix).with_time_policy(policy),
        ),
    };
    base.add_surface(std::sync::Arc::new(
        muster_discord::surface::DiscordSurface::default(),
    ));
    base.add_surface(std::sync::Arc::new(
        muster_matrix::surface::MatrixSurface::default(),
    ));
    base.set_communities(communities(settings));
    base.set_web(settings.web.as_ref().map(|w| w.base_url.clone()));
    base
}

/// The communities across platforms of the settings, as the core knows them: each Discord
/// server a whole community of Discord's; each Matrix place a room (`!id:server`), or the rooms
/// of a Matrix community (`*` for those without one of their own).
fn communities(settings: &muster_config::Settings) -> muster_core::kernel::community::Communities {
    use muster_core::kernel::community::{Community, Member};
    let list = settings
        .communities
        .iter()
        .map(|c| {
            let discord = c
                .discord
                .iter()
                .map(|id| Member::community(muster_discord::PLATFORM, &id.to_string()));
            let matrix = c.matrix.iter().map(|place| match place.as_str() {
                "*" => Member::community(muster_matrix::PLATFORM, ""),
                room if room.starts_with('!') => Member::channel(muster_matrix::PLATFORM, room),
                named => Member::community(muster_matrix::PLATFORM, named),
            });
            Community {
                name: c.name.clone(),
                members: discord.chain(matrix).collect(),
                organisers: c.organisers.clone(),
                web: c.web,
            }
        })
        .collect();
    muster_core::kernel::community::Communities::new(list)
}

/// The store a `--data` command works on: the settings' PostgreSQL database when `store`
/// (`MUSTER_STORE`) names one, else sled in `--data DIR` or the settings' data directory.
fn store_named(
    data: Option<std::path::PathBuf>,
    loaded: &Loaded,
) -> Result<muster_core::kernel::store::Named, String> {
    match loaded {
        Ok(s) => {
            let dir = data.unwrap_or_else(|| s.data_dir.clone());
            Ok(muster_core::kernel::store::Named::from_settings(
                &s.store, &dir,
            ))
        }
        Err(e) => Err(e.to_string()),
    }
}

/// Runs the command line `args` (without the program name); returns the exit status.
pub fn run(args: &[String], stdin: &mut dyn Read, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let cli = match parsed(args, out, err) {
        Ok(c) => c,
        Err(code) => return code,
    };
    // Logs go to standard error from here on, secrets scrubbed.
    let loaded = muster_config::Settings::load();
    let settings = loaded.as_ref().ok();
    if let Some(s) = settings {
        crate::ops::service::redact_settings(s);
    }
    let chats = settings.is_some_and(|s| s.discord.is_some() || s.matrix.is_some());
    start_logging(cli.command.as_ref(), settings, chats);
    crate::ops::files::raise_open_files();
    let Some(command) = cli.command else {
        // With chat credentials configured, serve the chats; without, open the console.
        let clock = crate::cli_args::ClockArgs::default();
        return if chats {
            serve(&loaded, &clock, err)
        } else {
            console(&loaded, None, None, &clock, out, err)
        };
    };
    run_command(command, &loaded, stdin, out, err)
}

/// The command line parsed; help and the version are printed on `out` and a mistake on `err`,
/// and give the status to exit with.
fn parsed(
    args: &[String],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<crate::cli_args::Cli, u8> {
    use clap::Parser;
    use clap::error::ErrorKind;
    crate::cli_args::Cli::try_parse_from(
        std::iter::once("muster".to_string()).chain(args.iter().cloned()),
    )
    .map_err(|e| match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = write!(out, "{e}");
            0
        }
        _ => {
            let _ = write!(err, "{e}");
            USAGE_ERROR
        }
    })
}

/// Starts the logs, in the settings' format: quieter in the console (`command`, or none
/// without `chats` configured), which shares the terminal with them.
fn start_logging(
    command: Option<&crate::cli_args::Command>,
    settings: Option<&muster_config::Settings>,
    chats: bool,
) {
    use crate::cli_args::Command;
    let in_console = match command {
        Some(Command::Console { .. }) => true,
        None => !chats,
        Some(_) => false,
    };
    let filter = if in_console {
        muster_core::telemetry::logging::CONSOLE_FILTER
    } else {
        muster_core::telemetry::logging::DEFAULT_FILTER
    };
    let format = settings.map(|s| s.ops.log_format).unwrap_or_default();
    muster_core::telemetry::logging::init(format, filter);
}

/// Runs one command of the command line with the settings `loaded`; returns the exit status.
fn run_command(
    command: crate::cli_args::Command,
    loaded: &Loaded,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    use crate::cli_args::{Cli, Command, ConfigCommand};
    match command {
        Command::Console {
            data,
            script,
            clock,
        } => console(loaded, data, script, &clock, out, err),
        Command::Serve { clock } => serve(loaded, &clock, err),
        Command::Backup { data, out: file } => {
            crate::cli_store::backup(store_named(data, loaded), file, out, err)
        }
        Command::Restore { data, file } => {
            crate::cli_store::restore(store_named(data, loaded), &file, stdin, err)
        }
        Command::Migrate { from, to, replace } => {
            crate::cli_store::migrate(&from, &to, replace, err)
        }
        Command::Config {
            what: ConfigCommand::Check,
        } => config_check(loaded, out, err),
        Command::Health { addr } => {
            let listen = loaded.as_ref().ok().and_then(|s| s.ops.listen);
            health(addr.as_deref(), listen, out, err)
        }
        Command::Puzzles { what } => puzzles(what, stdin, out, err),
        Command::Completions { shell } => {
            use clap::CommandFactory;
            clap_complete::generate(shell, &mut Cli::command(), "muster", out);
            0
        }
        Command::Replay(r) => machine_command("replay", r, stdin, out, err),
        Command::Moves(r) => machine_command("moves", r, stdin, out, err),
        Command::Analyse(r) => machine_command("analyse", r, stdin, out, err),
        Command::Bestmove {
            record,
            level,
            millis,
            iterations,
            seed,
        } => match budget(level.as_deref(), millis, iterations, err) {
            Ok(budget) => bestmove(record, &*budget, seed, stdin, out, err),
            Err(code) => code,
        },
    }
}

/// `muster config check`: the settings in effect, printed as TOML with secrets masked; the
/// clocks checked as the chat reads them, and what is most likely a mistake warned of.
/// `muster puzzles generate|check`.
fn puzzles(
    what: crate::cli_args::PuzzlesCommand,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    use crate::cli_args::PuzzlesCommand;
    use crate::cli_puzzles::{Making, check, generate};
    match what {
        PuzzlesCommand::Generate {
            games,
            seed,
            per_game,
            per_kind,
        } => generate(
            Making {
                games,
                seed,
                per_game,
                per_kind,
            },
            out,
            err,
        ),
        PuzzlesCommand::Check { file } => match read_record(Some(&file), stdin) {
            Ok(text) => check(&text, out, err),
            Err(e) => {
                let _ = writeln!(err, "{e}");
                USAGE_ERROR
            }
        },
    }
}

fn config_check(loaded: &Loaded, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    match loaded {
        Ok(s) => {
            // The clocks as the chat reads them (`serve` refuses the same at start).
            if let Err(e) = time_policy(s) {
                let _ = writeln!(
                    err,
                    "muster config check: {}",
                    e.trim_start_matches("muster: ")
                );
                return 1;
            }
            for warning in crate::config_check::warnings(s) {
                let _ = writeln!(err, "muster config check: warning: {warning}.");
            }
            let _ = writeln!(
                out,
                "# The settings are valid. In effect (muster.toml, then MUSTER_* variables; secrets as ***):\n"
            );
            let _ = write!(out, "{}", crate::config_check::effective(s));
            0
        }
        Err(e) => {
            let _ = writeln!(err, "muster config check: {e}");
            1
        }
    }
}

/// `muster health`: asks the operations listener at `addr` (else the settings' `listen`)
/// whether Muster is healthy.
fn health(
    addr: Option<&str>,
    listen: Option<std::net::SocketAddr>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    match crate::ops::service::health(addr, listen) {
        Ok(()) => {
            let _ = writeln!(out, "ok");
            0
        }
        Err(why) => {
            let _ = writeln!(err, "muster health: {why}");
            1
        }
    }
}

/// The search's budget for `bestmove`: a named `level`, `millis` of time or `iterations`, the
/// good level by default. A level's budget depends on the game (known once the record is
/// read); a time budget starts now. An unknown level is said on `err` and gives the usage
/// error's status.
fn budget(
    level: Option<&str>,
    millis: Option<u64>,
    iterations: Option<u64>,
    err: &mut dyn Write,
) -> Result<Box<dyn Fn(GameId) -> muster_rules::search::Budget>, u8> {
    use muster_rules::search::{Budget, Level};
    Ok(match (level, millis, iterations) {
        (Some(word), _, _) => match Level::parse(word) {
            Some(l) if Level::NAMED.contains(&l) => Box::new(move |id| l.budget(id)),
            _ => {
                let why = format!("--level {word}: the levels are easy, good and strong");
                return Err(fail_usage(err, "bestmove", &why));
            }
        },
        (None, Some(ms), _) => {
            let b = Budget::millis(ms.max(1), u64::MAX);
            Box::new(move |_| b)
        }
        (None, None, Some(n)) => Box::new(move |_| Budget::iterations(n.max(1))),
        (None, None, None) => Box::new(|id| Level::Good.budget(id)),
    })
}

/// The record named by `args` (its game and file, `-` or none for standard input), replayed;
/// a game or file that cannot be read is said on `err` and gives the usage error's status.
fn replayed(
    command: &str,
    args: &crate::cli_args::Record,
    stdin: &mut dyn Read,
    err: &mut dyn Write,
) -> Result<machine::Replay, u8> {
    let id: GameId = match args.game.parse() {
        Ok(id) => id,
        Err(e) => return Err(fail_usage(err, command, &e.to_string())),
    };
    let record = read_record(args.file.as_deref(), stdin).map_err(|msg| {
        let _ = writeln!(err, "muster {command}: {msg}");
        USAGE_ERROR
    })?;
    Ok(machine::replay(id, &record))
}

/// `bestmove`: the record replayed as `replay` does, then the bot's best move there
/// (docs/machine-interface.md).
fn bestmove(
    args: crate::cli_args::Record,
    budget: &dyn Fn(GameId) -> muster_rules::search::Budget,
    seed: u64,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let replay = match replayed("bestmove", &args, stdin, err) {
        Ok(replay) => replay,
        Err(code) => return code,
    };
    if replay.exit_code() != 0 {
        let _ = writeln!(out, "{}", replay.to_json());
        return replay.exit_code();
    }
    let started = std::time::Instant::now();
    let budget = budget(replay.game.id());
    let Some(found) = muster_rules::search::best_any(&replay.game, budget, seed) else {
        let _ = writeln!(
            err,
            "muster bestmove: the game is over: there is no move to make"
        );
        return USAGE_ERROR;
    };
    let value = serde_json::json!({
        "move": found.decision,
        "value": (found.value * 1000.0).round() / 1000.0,
        "iterations": found.iterations,
        "millis": started.elapsed().as_millis() as u64,
    });
    let _ = writeln!(out, "{value}");
    0
}

/// `replay`, `moves`, `analyse`: the machine interface (docs/machine-interface.md).
fn machine_command(
    command: &str,
    args: crate::cli_args::Record,
    stdin: &mut dyn Read,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let replay = match replayed(command, &args, stdin, err) {
        Ok(replay) => replay,
        Err(code) => return code,
    };
    let value = match command {
        "replay" => replay.to_json(),
        "moves" => replay.moves_json(),
        _ => match replay.analyse_json() {
            Some(v) => v,
            None => {
                let why = format!(
                    "analyse is for croquet, which has a perfect-play solver; not for {}",
                    replay.game.id()
                );
                return fail_usage(err, command, &why);
            }
        },
    };
    let _ = writeln!(out, "{value}");
    replay.exit_code()
}

/// On a manual clock, `muster serve` reads lines `~ +36h` (or `~ <RFC 3339>`) from its standard
/// input and moves the clock, doing what falls due on the way in order; each new time is
/// written to standard error as `[clock] <RFC 3339>`. This rehearses reminders and timeouts on
/// a test server without waiting days.
fn clock_from_stdin(
    core: std::sync::Arc<muster_core::desk::Core>,
    clock: std::sync::Arc<muster_core::kernel::clock::ManualClock>,
) {
    use std::io::BufRead;
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { return };
            let Some(to) = line.trim().strip_prefix('~') else {
                if !line.trim().is_empty() {
                    eprintln!(
                        "muster: on a manual clock, standard input takes `~ +36h` or `~ <RFC 3339>` lines"
                    );
                }
                continue;
            };
            let to = to.trim();
            // `~ fault after 3`: crash tests aim at a write counted from here.
            if let Some(aim) = to.strip_prefix("fault ") {
                let mut words = aim.split_whitespace();
                match (words.next(), words.next().and_then(|n| n.parse().ok())) {
                    (Some(when @ ("after" | "before")), Some(n)) => {
                        muster_core::kernel::store::fault::arm(when == "before", n);
                        eprintln!("[fault] {when} {n}");
                    }
                    _ => eprintln!("muster: `~ fault after N` or `~ fault before N`"),
                }
                continue;
            }
            let now = muster_core::kernel::clock::Clock::now(clock.as_ref());
            let target = match to.strip_prefix('+') {
                Some(by) => {
                    muster_core::kernel::clock::parse_duration(by).map(|d| now.saturating_add(d))
                }
                None => muster_core::kernel::clock::parse_rfc3339(to).and_then(|t| {
                    if t < now {
                        Err(format!(
                            "the clock only goes forward: it shows {}",
                            muster_core::kernel::clock::rfc3339(now)
                        ))
                    } else {
                        Ok(t)
                    }
                }),
            };
            match target {
                Ok(t) => {
                    muster_core::desk::scheduler::advance(&core, &clock, t, |_, _| {});
                    eprintln!(
                        "[clock] {}",
                        muster_core::kernel::clock::rfc3339(
                            muster_core::kernel::clock::Clock::now(clock.as_ref())
                        )
                    );
                }
                Err(why) => eprintln!("muster: `~ {to}`: {why}"),
            }
        }
    });
}

/// How time is kept, from the settings: each adapter's default control (a room's or channel's
/// own where set), whether timeouts are claimed, the vacation allowance.
fn time_policy(
    settings: &muster_config::Settings,
) -> Result<muster_core::desk::TimePolicy, String> {
    use muster_core::desk::PlatformTime;
    use muster_core::kernel::clock::control::Control;
    let read = |key: &str, value: &str| {
        Control::parse(value).map_err(|e| format!("muster: setting {key}: {e}"))
    };
    let mut policy = muster_core::desk::TimePolicy {
        vacation_days: settings.vacation_days,
        ..Default::default()
    };
    if let Some(d) = &settings.discord {
        let mut channels = std::collections::HashMap::new();
        for (id, c) in &d.channel_clocks {
            channels.insert(
                id.to_string(),
                read(&format!("discord.channel_clocks.{id}"), c)?,
            );
        }
        let clock = match &d.clock {
            Some(c) => read("discord.clock", c)?,
            None => None,
        };
        policy.platforms.insert(
            "discord".into(),
            PlatformTime {
                clock,
                channels,
                claim: d.timeout_claim,
                prefix: Some("/".into()),
                channel_prefixes: Default::default(),
            },
        );
    }
    if let Some(m) = &settings.matrix {
        let mut channels = std::collections::HashMap::new();
        let mut channel_prefixes = std::collections::HashMap::new();
        for (id, room) in &m.rooms {
            if let Some(c) = &room.clock {
                channels.insert(
                    id.clone(),
                    read(&format!("matrix.rooms.\"{id}\".clock"), c)?,
                );
            }
            if let Some(p) = &room.prefix {
                channel_prefixes.insert(id.clone(), p.clone());
            }
        }
        policy.platforms.insert(
            "matrix".into(),
            PlatformTime {
                clock: read("matrix.clock", &m.clock)?,
                channels,
                claim: m.timeout_claim,
                prefix: Some(m.prefix.clone().unwrap_or_else(|| settings.prefix.clone())),
                channel_prefixes,
            },
        );
    }
    Ok(policy)
}
