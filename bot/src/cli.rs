//! The `muster` command line.

use std::io::{Read, Write};

use muster_rules::GameId;

use crate::machine;

const USAGE: &str = "\
muster — Lewis Carroll's games, for chat

Usage:
  muster                             open the console: a local chat in this terminal
  muster serve [--clock manual --start TIME]
                                     serve the configured chats (Discord, Matrix); `muster`
                                     alone does this when either is configured; on a manual
                                     clock, `~ +36h` lines on standard input move it
  muster console [--data DIR] [--script FILE] [--clock manual --start TIME]
                                     the console; with a script (- for standard input),
                                     lines `<user> <channel> <message>`; on a manual clock
                                     starting at TIME (RFC 3339), `~ +36h` lines move it
  muster replay --game <id> [FILE]   play a game record, print the result as JSON
  muster moves --game <id> [FILE]    play a record, print the legal moves as JSON
  muster analyse --game croquet [FILE]
                                     play a record, print the perfect-play value and best moves
  muster backup [--data DIR] --out FILE
                                     write a snapshot of the store (Muster not running on
                                     DIR) to FILE (- for standard output)
  muster restore [--data DIR] FILE   restore a snapshot into an empty data directory and
                                     check it entry by entry (- for standard input)
  muster config check                load and check the settings, print the effective ones
                                     (secrets as ***)
  muster help                        this text

Settings come from muster.toml and MUSTER_* variables (see muster.example.toml).

A record has one move per line in the game's notation; blank lines and lines
starting with # are skipped; without FILE it is read from standard input.
Games: lanrick, lanrick1880, croquet, lanko88, lanko68, lanko103. See docs/machine-interface.md and docs/rules/.
";

/// Exit status for bad usage or an unknown game.
pub const USAGE_ERROR: u8 = 2;

struct Args {
    game: Option<String>,
    file: Option<String>,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let mut out = Args {
        game: None,
        file: None,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if let Some(v) = arg.strip_prefix("--game=") {
            out.game = Some(v.to_string());
        } else if arg == "--game" {
            out.game = Some(
                it.next()
                    .ok_or("--game needs a game id, such as --game lanrick")?
                    .clone(),
            );
        } else if arg.starts_with('-') && arg != "-" {
            return Err(format!("unknown option '{arg}'"));
        } else if out.file.is_none() {
            out.file = Some(arg.clone());
        } else {
            return Err(format!(
                "unexpected argument '{arg}': give one record file at most"
            ));
        }
    }
    Ok(out)
}

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

fn console(args: &[String], stdin: &mut dyn Read, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let settings = match muster_config::Settings::load() {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "muster: {e}");
            return USAGE_ERROR;
        }
    };
    let mut data = settings.data_dir.clone();
    let mut script = None;
    let (start, args) = match clock_args(args) {
        Ok(c) => c,
        Err(why) => return fail_usage(err, "console", &why),
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--data" => match it.next() {
                Some(d) => data = d.into(),
                None => return fail_usage(err, "console", "--data needs a directory"),
            },
            "--script" => match it.next() {
                Some(f) => script = Some(f.clone()),
                None => return fail_usage(err, "console", "--script needs a file"),
            },
            other => return fail_usage(err, "console", &format!("unexpected argument '{other}'")),
        }
    }
    let store = match crate::store::SledStore::open(&data.join("store")) {
        Ok(s) => s,
        Err(e) => {
            let _ = writeln!(err, "muster: {e}");
            return 1;
        }
    };
    // Croquet's perfect-play table takes under a second to build: build it while people type.
    std::thread::spawn(|| muster_rules::croquet::solve::table().len());
    let store = std::sync::Arc::new(store);
    let policy = crate::core::TimePolicy {
        vacation_days: settings.vacation_days,
        ..Default::default()
    };
    let mut console = if let Some(now) = start {
        let clock = std::sync::Arc::new(crate::clock::ManualClock::starting_at(now));
        let core = crate::core::Core::with_clock(store, &settings.prefix, clock.clone())
            .with_time_policy(policy);
        crate::console::Console::with_manual_clock(core, &data, clock)
    } else {
        let core = crate::core::Core::new(store, &settings.prefix).with_time_policy(policy);
        crate::console::Console::new(core, &data)
    };
    let result = match script {
        Some(path) if path == "-" => console.run_script(&mut std::io::BufReader::new(stdin), out),
        Some(path) => match std::fs::File::open(&path) {
            Ok(file) => console.run_script(&mut std::io::BufReader::new(file), out),
            Err(e) => {
                let _ = writeln!(err, "muster console: cannot read {path}: {e}");
                return USAGE_ERROR;
            }
        },
        None => {
            console.text_boards = true;
            console.run_interactive(&mut std::io::BufReader::new(stdin), out)
        }
    };
    match result {
        Ok(()) => 0,
        Err(e) => {
            let _ = writeln!(err, "muster console: {e}");
            1
        }
    }
}

/// `muster serve`: runs the configured chat adapters on the embedded store.
fn serve(args: &[String], err: &mut dyn Write) -> u8 {
    let (start, args) = match clock_args(args) {
        Ok(c) => c,
        Err(why) => return fail_usage(err, "serve", &why),
    };
    if let Some(other) = args.first() {
        return fail_usage(err, "serve", &format!("unexpected argument '{other}'"));
    }
    let settings = match muster_config::Settings::load() {
        Ok(s) => s,
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
    let store = match crate::store::SledStore::open(&settings.data_dir.join("store")) {
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
    let store: std::sync::Arc<dyn crate::store::GameStore> = std::sync::Arc::new(store);
    let base = match start {
        Some(now) => {
            let clock = std::sync::Arc::new(crate::clock::ManualClock::starting_at(now));
            let core = crate::core::Core::with_clock(store, &settings.prefix, clock.clone());
            let base = std::sync::Arc::new(core.with_time_policy(policy));
            clock_from_stdin(std::sync::Arc::clone(&base), clock);
            base
        }
        None => std::sync::Arc::new(
            crate::core::Core::new(store, &settings.prefix).with_time_policy(policy),
        ),
    };
    let result = runtime.block_on(serve_chats(base, settings));
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

/// Runs every configured adapter; returns when one fails, or when the process is asked to
/// stop and every adapter has stopped (each finishes what it is answering first: the Matrix
/// adapter its batch, the Discord adapter its interactions, closing its gateway connection).
async fn serve_chats(
    base: std::sync::Arc<crate::core::Core>,
    settings: muster_config::Settings,
) -> Result<(), String> {
    // From here on a stop signal is caught and remembered, even by an adapter still starting.
    crate::signals::install();
    let muster_config::Settings {
        data_dir,
        discord,
        matrix,
        ..
    } = settings;
    // One core's timers serve every adapter: one scheduler for the process.
    tokio::spawn(crate::clock::scheduler::run(std::sync::Arc::clone(&base)));
    let discord = async {
        match discord {
            Some(d) => crate::discord::serve(std::sync::Arc::clone(&base), d).await,
            None => {
                crate::signals::shutdown().await;
                Ok(())
            }
        }
    };
    let matrix = async {
        match matrix {
            Some(m) => crate::matrix::serve(std::sync::Arc::clone(&base), &data_dir, m).await,
            None => {
                crate::signals::shutdown().await;
                Ok(())
            }
        }
    };
    let (mut discord, mut matrix) = (std::pin::pin!(discord), std::pin::pin!(matrix));
    // The first to end: a failure ends the process; a stop waits for the other adapter to
    // finish what it is answering, for a while (it may still be starting, or waiting on an
    // unreachable server).
    let grace = std::time::Duration::from_secs(15);
    tokio::select! {
        r = &mut discord => {
            r?;
            tokio::time::timeout(grace, matrix).await.unwrap_or(Ok(()))
        }
        r = &mut matrix => {
            r?;
            tokio::time::timeout(grace, discord).await.unwrap_or(Ok(()))
        }
    }
}

/// `--data DIR` (default: the settings' data directory) and the other arguments.
fn data_args(args: &[String]) -> Result<(std::path::PathBuf, Vec<String>), String> {
    let mut data = muster_config::Settings::load()
        .map_err(|e| e.to_string())?
        .data_dir;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if arg == "--data" {
            data = it.next().ok_or("--data needs a directory")?.into();
        } else {
            rest.push(arg.clone());
        }
    }
    Ok((data, rest))
}

/// `muster backup [--data DIR] --out FILE`.
fn backup(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let (data, rest) = match data_args(args) {
        Ok(a) => a,
        Err(why) => return fail_usage(err, "backup", &why),
    };
    let file = match rest.as_slice() {
        [flag, file] if flag == "--out" => file.clone(),
        _ => {
            return fail_usage(
                err,
                "backup",
                "say where to write it: --out FILE (- for standard output)",
            );
        }
    };
    let store = data.join("store");
    let created = crate::clock::rfc3339(crate::clock::Clock::now(&crate::clock::SystemClock));
    let written = if file == "-" {
        crate::store::backup::write(&store, &created, out)
    } else {
        // Written beside the target, then moved over it: a backup is whole or absent.
        let partial = format!("{file}.partial");
        let result = std::fs::File::create(&partial)
            .map_err(|e| format!("cannot write {partial}: {e}"))
            .and_then(|f| {
                let mut w = std::io::BufWriter::new(f);
                crate::store::backup::write(&store, &created, &mut w)
            })
            .and_then(|s| {
                std::fs::rename(&partial, &file)
                    .map(|()| s)
                    .map_err(|e| format!("cannot write {file}: {e}"))
            });
        if result.is_err() {
            let _ = std::fs::remove_file(&partial);
        }
        result
    };
    match written {
        Ok(s) => {
            let _ = writeln!(
                err,
                "muster backup: {} entries of {} trees from {} written to {file}",
                s.entries,
                s.trees,
                store.display()
            );
            0
        }
        Err(why) => {
            let _ = writeln!(err, "muster backup: {why}");
            1
        }
    }
}

/// `muster restore [--data DIR] FILE`.
fn restore(args: &[String], stdin: &mut dyn Read, err: &mut dyn Write) -> u8 {
    let (data, rest) = match data_args(args) {
        Ok(a) => a,
        Err(why) => return fail_usage(err, "restore", &why),
    };
    let [file] = rest.as_slice() else {
        return fail_usage(
            err,
            "restore",
            "name the backup to restore: muster restore FILE (- for standard input)",
        );
    };
    let store = data.join("store");
    let result = if file == "-" {
        crate::store::backup::restore(&store, &mut std::io::BufReader::new(stdin))
    } else {
        match std::fs::File::open(file) {
            Ok(f) => crate::store::backup::restore(&store, &mut std::io::BufReader::new(f)),
            Err(e) => Err(format!("cannot read {file}: {e}")),
        }
    };
    match result {
        Ok(s) => {
            let _ = writeln!(
                err,
                "muster restore: {} entries of {} trees restored into {} and checked",
                s.entries,
                s.trees,
                store.display()
            );
            0
        }
        Err(why) => {
            let _ = writeln!(err, "muster restore: {why}");
            1
        }
    }
}

fn fail_usage(err: &mut dyn Write, command: &str, msg: &str) -> u8 {
    let _ = writeln!(err, "muster {command}: {msg}\n\n{USAGE}");
    USAGE_ERROR
}

/// Runs the command line `args` (without the program name); returns the exit status.
pub fn run(args: &[String], stdin: &mut dyn Read, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let Some(command) = args.first() else {
        // With chat credentials configured, serve the chats; without, open the console.
        return match muster_config::Settings::load() {
            Ok(s) if s.discord.is_some() || s.matrix.is_some() => serve(&[], err),
            _ => console(&[], stdin, out, err),
        };
    };
    match command.as_str() {
        "console" => console(&args[1..], stdin, out, err),
        "serve" => serve(&args[1..], err),
        "backup" => backup(&args[1..], out, err),
        "config" => match args.get(1).map(String::as_str) {
            Some("check") if args.len() == 2 => match muster_config::Settings::load() {
                Ok(s) => {
                    let _ = writeln!(
                        out,
                        "# The settings are valid. In effect (muster.toml, then MUSTER_* variables; secrets as ***):\n"
                    );
                    let _ = write!(out, "{}", crate::config_check::effective(&s));
                    0
                }
                Err(e) => {
                    let _ = writeln!(err, "muster config check: {e}");
                    1
                }
            },
            _ => fail_usage(err, "config", "say `muster config check`"),
        },
        "restore" => restore(&args[1..], stdin, err),
        "help" | "--help" | "-h" => {
            let _ = write!(out, "{USAGE}");
            0
        }
        "--version" | "-V" => {
            let _ = writeln!(out, "muster {}", env!("CARGO_PKG_VERSION"));
            0
        }
        "replay" | "moves" | "analyse" | "analyze" => {
            let fail = |err: &mut dyn Write, msg: String| {
                let _ = writeln!(err, "muster {command}: {msg}\n\n{USAGE}");
                USAGE_ERROR
            };
            let args = match parse(&args[1..]) {
                Ok(a) => a,
                Err(msg) => return fail(err, msg),
            };
            let Some(game) = args.game else {
                return fail(err, "--game is required, such as --game lanrick".into());
            };
            let id: GameId = match game.parse() {
                Ok(id) => id,
                Err(e) => return fail(err, e.to_string()),
            };
            let record = match read_record(args.file.as_deref(), stdin) {
                Ok(r) => r,
                Err(msg) => {
                    let _ = writeln!(err, "muster {command}: {msg}");
                    return USAGE_ERROR;
                }
            };
            let replay = machine::replay(id, &record);
            let value = match command.as_str() {
                "replay" => replay.to_json(),
                "moves" => replay.moves_json(),
                _ => match replay.analyse_json() {
                    Some(v) => v,
                    None => {
                        let why = format!(
                            "analyse is for croquet, which has a perfect-play solver; not for {id}"
                        );
                        return fail(err, why);
                    }
                },
            };
            let _ = writeln!(out, "{value}");
            replay.exit_code()
        }
        other => {
            let _ = writeln!(err, "muster: unknown command '{other}'\n\n{USAGE}");
            USAGE_ERROR
        }
    }
}

/// `--clock manual|system` and `--start TIME` among `args`: the manual clock's start (`None`
/// on the system's clock), and the other arguments.
fn clock_args(args: &[String]) -> Result<(Option<u64>, Vec<String>), String> {
    let (mut manual, mut start, mut rest) = (false, None, Vec::new());
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--clock" => match it.next().map(String::as_str) {
                Some("manual") => manual = true,
                Some("system") => manual = false,
                _ => return Err("--clock is `manual` or `system`".into()),
            },
            "--start" => match it.next().map(|t| crate::clock::parse_rfc3339(t)) {
                Some(Ok(t)) => start = Some(t),
                Some(Err(why)) => return Err(format!("--start: {why}")),
                None => return Err("--start needs a time (RFC 3339)".into()),
            },
            _ => rest.push(arg.clone()),
        }
    }
    match (manual, start) {
        (false, Some(_)) => Err("--start sets a manual clock: add --clock manual".into()),
        (true, None) => Ok((
            Some(crate::clock::Clock::now(&crate::clock::SystemClock)),
            rest,
        )),
        (_, start) => Ok((start, rest)),
    }
}

/// On a manual clock, `muster serve` reads lines `~ +36h` (or `~ <RFC 3339>`) from its standard
/// input and moves the clock, doing what falls due on the way in order; each new time is
/// written to standard error as `[clock] <RFC 3339>`. This rehearses reminders and timeouts on
/// a test server without waiting days.
fn clock_from_stdin(
    core: std::sync::Arc<crate::core::Core>,
    clock: std::sync::Arc<crate::clock::ManualClock>,
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
            let now = crate::clock::Clock::now(clock.as_ref());
            let target = match to.strip_prefix('+') {
                Some(by) => crate::clock::parse_duration(by).map(|d| now.saturating_add(d)),
                None => crate::clock::parse_rfc3339(to).and_then(|t| {
                    if t < now {
                        Err(format!(
                            "the clock only goes forward: it shows {}",
                            crate::clock::rfc3339(now)
                        ))
                    } else {
                        Ok(t)
                    }
                }),
            };
            match target {
                Ok(t) => {
                    crate::clock::scheduler::advance(&core, &clock, t, |_, _| {});
                    eprintln!(
                        "[clock] {}",
                        crate::clock::rfc3339(crate::clock::Clock::now(clock.as_ref()))
                    );
                }
                Err(why) => eprintln!("muster: `~ {to}`: {why}"),
            }
        }
    });
}

/// How time is kept, from the settings: each adapter's default control (a room's or channel's
/// own where set), whether timeouts are claimed, the vacation allowance.
fn time_policy(settings: &muster_config::Settings) -> Result<crate::core::TimePolicy, String> {
    use crate::clock::control::Control;
    use crate::core::timers::PlatformTime;
    let read = |key: &str, value: &str| {
        Control::parse(value).map_err(|e| format!("muster: setting {key}: {e}"))
    };
    let mut policy = crate::core::TimePolicy {
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
