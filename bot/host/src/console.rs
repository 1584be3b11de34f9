//! The console adapter: a local chat in the terminal, on the embedded store. Several users and
//! channels; console-only commands (starting with `/`) switch who is speaking and where. Board
//! images are written as PNG files whose paths are printed, with a text board beside them.
//!
//! With a script, each line that is not blank and not a `#` comment is
//! `<user> <channel> <message>`, handled in order as that user in that channel. Every reply is
//! printed prefixed with its channel: `[general] …`, private replies as
//! `[general] (to alice) …`, images as `[general] board: <path>`. With a manual clock
//! (`muster console --clock manual --start <RFC 3339>`), a line `~ +36h` moves the clock forward
//! by a duration and `~ <RFC 3339>` sets it to a later time; the new time is printed as
//! `[clock] <RFC 3339>`.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use std::sync::Arc;

use muster_core::desk::{Board, Core, Drawn, Notice, Reply, Target, User, command};
use muster_core::kernel::clock::{Clock, ManualClock, parse_duration, parse_rfc3339, rfc3339};

/// The console's platform name in requests and the store.
pub const PLATFORM: &str = "console";

/// The console's surface: the plain one — UTC times, `#channel`, `@name` — whose event boards
/// are played in channels named after them, open at once.
pub struct ConsoleSurface;

impl muster_core::desk::Surface for ConsoleSurface {
    fn platform(&self) -> &str {
        PLATFORM
    }
}

/// A console session: the core, and where files go.
pub struct Console {
    core: Core,
    data: PathBuf,
    /// Whether to print text boards (interactive use).
    pub text_boards: bool,
    /// The clock that `~` lines move, when the core runs on a manual one.
    manual: Option<Arc<ManualClock>>,
}

fn safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

impl Console {
    /// The core the console speaks to.
    pub fn core(&self) -> &Core {
        &self.core
    }

    /// A console over `core`, writing images and exports under `data`.
    pub fn new(core: Core, data: &Path) -> Console {
        core.add_surface(Arc::new(ConsoleSurface));
        Console {
            core,
            data: data.to_path_buf(),
            text_boards: false,
            manual: None,
        }
    }

    /// A console whose core runs on the manual clock `clock`, which scripts move.
    pub fn with_manual_clock(core: Core, data: &Path, clock: Arc<ManualClock>) -> Console {
        Console {
            manual: Some(clock),
            ..Console::new(core, data)
        }
    }

    /// Prints the messages no command asked for that wait in the outbox (timeouts, reminders,
    /// announcements): a channel's as `[channel] …`, a direct one as `[@user] …`.
    /// A tournament board's place is a console channel named after it, open at once.
    fn deliver(&self, out: &mut dyn Write) -> std::io::Result<()> {
        loop {
            // The bot's decisions owed by now come with the rest.
            self.core.play_bots();
            let notices = self.core.notices(PLATFORM);
            if notices.is_empty() {
                return Ok(());
            }
            self.print_notices(notices, out)?;
        }
    }

    fn print_notices(&self, notices: Vec<Notice>, out: &mut dyn Write) -> std::io::Result<()> {
        for notice in notices {
            if let Target::Open(opening) = &notice.target {
                self.core.place_opened(opening, &opening.name);
                continue;
            }
            let kept = notice.receipt.clone();
            for reply in notice.replies {
                match &notice.target {
                    Target::Channel(channel) => {
                        self.print(&User::named("?"), channel, reply, out)?
                    }
                    Target::Open(_) => {}
                    Target::Direct(user) => {
                        self.print(user, &format!("@{}", user.name), reply, out)?
                    }
                }
            }
            if let Some(id) = kept {
                self.core.notice_sent(PLATFORM, &id);
            }
        }
        Ok(())
    }

    /// Does what fell due by now (at start: what fell due while Muster was not running, each
    /// game ended at its deadline), and prints it.
    pub fn catch_up(&self, out: &mut dyn Write) -> std::io::Result<()> {
        // Announcements stored but not printed when Muster stopped come first.
        let owed = self.core.owed_notices(PLATFORM);
        self.print_notices(owed, out)?;
        self.core.load_agenda();
        self.core.fire_due();
        self.core.resume_ratings(PLATFORM);
        self.core.resume_tournaments(PLATFORM);
        self.core.resume_places(PLATFORM);
        self.core.resume_bots();
        self.deliver(out)
    }

    /// A `~` line: moves the manual clock (`+36h`) or sets it (`<RFC 3339>`), doing what falls
    /// due on the way, in order, and printing it after the time it happened at; the new time,
    /// or why not.
    fn move_clock(&self, to: &str, out: &mut dyn Write) -> Result<(), String> {
        let Some(clock) = &self.manual else {
            return Err(
                "`~` moves the clock only when the console runs on a manual clock: start it with \
                 --clock manual --start <RFC 3339>"
                    .into(),
            );
        };
        let to = to.trim();
        let target = if let Some(by) = to.strip_prefix('+') {
            clock.now().saturating_add(parse_duration(by)?)
        } else {
            let at = parse_rfc3339(to)?;
            if at < clock.now() {
                // Refused with the clock's own words.
                clock.set(at)?;
            }
            at
        };
        // Each stop's time is printed before what happened then; the final time last of all
        // when nothing happened at it.
        let mut failed = None;
        let mut printed = None;
        muster_core::desk::scheduler::advance(&self.core, clock, target, |at, _| {
            if failed.is_none() && printed != Some(at) {
                failed = writeln!(out, "[clock] {}", rfc3339(at)).err();
                printed = Some(at);
            }
            if failed.is_none() {
                failed = self.deliver(out).err();
            }
        });
        if failed.is_none() && printed != Some(clock.now()) {
            failed = writeln!(out, "[clock] {}", rfc3339(clock.now())).err();
        }
        match failed {
            Some(e) => Err(e.to_string()),
            None => Ok(()),
        }
    }

    /// Handles one message from `user` in `channel`, printing the replies to `out`.
    pub fn say(
        &self,
        user: &str,
        channel: &str,
        message: &str,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        let user = User::named(user);
        let mentions: Vec<User> = message
            .split_whitespace()
            .filter_map(|w| w.strip_prefix('@'))
            .map(|w| User::named(w.trim_end_matches([',', '.', ':', ';'])))
            .collect();
        let first = message
            .split_whitespace()
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        let replies = if !message.starts_with(self.core.prefix())
            && command::WORDS.contains(&first.as_str())
        {
            // In the console a command word needs no prefix.
            let prefixed = format!("{}{}", self.core.prefix(), message.trim());
            self.core
                .handle_message(PLATFORM, channel, &user, &prefixed, &mentions)
        } else {
            self.core
                .handle_message(PLATFORM, channel, &user, message, &mentions)
        };
        for reply in replies {
            self.print(&user, channel, reply, out)?;
        }
        Ok(())
    }

    /// Prints one reply to `user`'s command in `channel`, each line tagged `[channel]`: text
    /// as it is, private text `(to user)`, a mention `@user:`, boards and files as the files
    /// written for them, buttons as the commands they stand for.
    fn print(
        &self,
        user: &User,
        channel: &str,
        reply: Reply,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        let tag = format!("[{channel}]");
        match reply {
            Reply::Text(text) => {
                for line in text.lines() {
                    writeln!(out, "{tag} {line}")?;
                }
            }
            Reply::Private(text) => {
                for line in text.lines() {
                    writeln!(out, "{tag} (to {}) {line}", user.name)?;
                }
            }
            Reply::Mention { user, text } => {
                for (i, line) in text.lines().enumerate() {
                    if i == 0 {
                        writeln!(out, "{tag} @{}: {line}", user.name)?;
                    } else {
                        writeln!(out, "{tag} {line}")?;
                    }
                }
            }
            Reply::Board(board) => match board.drawn() {
                Ok(drawn) => self.print_board(user, channel, &tag, &board, drawn, out)?,
                Err(why) => writeln!(out, "{tag} (the board cannot be drawn: {why})")?,
            },
            Reply::Buttons(buttons) => {
                let list: Vec<String> = buttons
                    .iter()
                    .map(|b| format!("{} (`{}`)", b.label, b.command))
                    .collect();
                writeln!(out, "{tag} buttons: {}", list.join(" · "))?;
            }
            Reply::File { name, content } => self.print_file(&tag, &name, &content, out)?,
            Reply::Link { kind, url } => writeln!(out, "{tag} {}: {url}", kind.word())?,
        }
        Ok(())
    }

    /// Writes a drawn board (or replay) under `boards/<channel>` and prints its path, with its
    /// description or, interactively, its text board. The asker's own view is his file.
    fn print_board(
        &self,
        user: &User,
        channel: &str,
        tag: &str,
        board: &Board,
        drawn: &Drawn,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        let dir = self.data.join("boards").join(safe(channel));
        // The asker's own view is his file, beside the channel's board.
        let (path, tag) = if board.is_private() {
            let (stem, ext) = drawn.name.rsplit_once('.').unwrap_or((&drawn.name, "png"));
            let name = format!("{stem}-{}.{ext}", safe(&user.name));
            (dir.join(name), format!("{tag} (to {})", user.name))
        } else {
            (dir.join(&drawn.name), tag.to_string())
        };
        // What was stored stays stored: a board that cannot be written is said, and `board`
        // draws it again.
        if let Err(e) =
            std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, &drawn.png))
        {
            tracing::warn!(path = %path.display(), "a board could not be written: {e}");
            let what = if board.is_replay() { "replay" } else { "board" };
            writeln!(
                out,
                "{tag} (the {what} could not be written to {}: {e}; `{what}` draws it again)",
                path.display()
            )?;
            return Ok(());
        }
        if board.is_replay() {
            writeln!(out, "{tag} replay: {}", path.display())?;
            writeln!(out, "{tag} ({})", drawn.alt)?;
        } else if self.text_boards {
            writeln!(out, "{tag} board: {}", path.display())?;
            for line in drawn.text.lines() {
                writeln!(out, "{tag}   {line}")?;
            }
        } else {
            writeln!(out, "{tag} board: {}", path.display())?;
            writeln!(out, "{tag} ({})", drawn.alt)?;
        }
        Ok(())
    }

    /// Writes a file reply under `exports` (a record as `.txt`, an event's export as `.json` or
    /// `.trf`) and prints its path and its lines, each after `| `.
    fn print_file(
        &self,
        tag: &str,
        name: &str,
        content: &str,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        let dir = self.data.join("exports");
        // A record stays `.txt`; an event's export keeps `.json` or `.trf`.
        let (stem, ext) = match name.rsplit_once('.') {
            Some((stem, ext @ ("json" | "trf"))) => (stem, ext),
            _ => (name.trim_end_matches(".txt"), "txt"),
        };
        let path = dir.join(format!("{}.{ext}", safe(stem)));
        match std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, content)) {
            Ok(()) => writeln!(out, "{tag} file: {}", path.display())?,
            Err(e) => {
                tracing::warn!(path = %path.display(), "a file could not be written: {e}");
                writeln!(
                    out,
                    "{tag} (the file could not be written to {}: {e}; its lines follow)",
                    path.display()
                )?;
            }
        }
        for line in content.lines() {
            writeln!(out, "{tag} | {line}")?;
        }
        Ok(())
    }

    /// Runs a script (see the module documentation), line by line as it is read, so a script
    /// can be piped in. A malformed line is reported and skipped.
    pub fn run_script(&self, script: &mut dyn BufRead, out: &mut dyn Write) -> std::io::Result<()> {
        self.catch_up(out)?;
        let mut n = 0;
        loop {
            let mut line = String::new();
            if script.read_line(&mut line)? == 0 {
                return Ok(());
            }
            n += 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(to) = line.strip_prefix('~') {
                if let Err(why) = self.move_clock(to, out) {
                    writeln!(out, "[script] line {n}: {why}; skipped")?;
                }
                out.flush()?;
                continue;
            }
            let mut parts = line.splitn(3, char::is_whitespace);
            match (parts.next(), parts.next(), parts.next()) {
                (Some(user), Some(channel), Some(message)) if !message.trim().is_empty() => {
                    self.say(user, channel, message.trim(), out)?;
                    self.core.fire_due();
                    self.deliver(out)?;
                }
                _ => writeln!(
                    out,
                    "[script] line {n}: expected `<user> <channel> <message>`, skipped"
                )?,
            }
            out.flush()?;
        }
    }

    /// Runs the interactive chat until end of input or `/quit`.
    pub fn run_interactive(
        &self,
        input: &mut dyn BufRead,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        let (mut user, mut channel) = ("alice".to_string(), "general".to_string());
        writeln!(
            out,
            "Muster console — a local chat. You are {user} in #{channel}.\n\
             Type commands such as `new lanrick @bob` or `help`. Console commands:\n\
             /user NAME (speak as NAME) · /channel NAME (move to a channel) · /who · /quit\n\
             Boards are written under {}.",
            self.data.join("boards").display()
        )?;
        self.catch_up(out)?;
        loop {
            write!(out, "{user}@{channel}> ")?;
            out.flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                writeln!(out)?;
                return Ok(());
            }
            let line = line.trim();
            let mut words = line.split_whitespace();
            match words.next() {
                None => {}
                Some("/quit" | "/exit") => return Ok(()),
                Some("/user" | "/as") => match words.next() {
                    Some(name) => user = name.trim_start_matches('@').to_string(),
                    None => writeln!(out, "/user NAME — speak as NAME")?,
                },
                Some("/channel" | "/ch" | "/go") => match words.next() {
                    Some(name) => channel = name.trim_start_matches('#').to_string(),
                    None => writeln!(out, "/channel NAME — move to channel NAME")?,
                },
                Some("/who") => writeln!(out, "You are {user} in #{channel}.")?,
                Some(w) if w.starts_with('/') => writeln!(
                    out,
                    "Console commands: /user NAME · /channel NAME · /who · /quit"
                )?,
                Some(_) => {
                    // On the system's clock, what fell due while the user typed comes first.
                    self.core.fire_due();
                    self.deliver(out)?;
                    self.say(&user, &channel, line, out)?;
                    self.core.fire_due();
                    self.deliver(out)?;
                }
            }
        }
    }
}
