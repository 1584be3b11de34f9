//! The command core: platform-neutral `Request → Vec<Reply>` (DESIGN.md, "How one command
//! flows"). It parses the command, loads the channel's game, plays it with the rules, writes it
//! back with compare-and-swap (the write is durable before any reply is made), renders the
//! board, and words every reply. Adapters only map requests and replies.

mod actions;
mod appearance;
pub mod board;
pub mod bot;
mod bot_moves;
pub use bot_moves::BotDecision;
pub mod command;
mod dashboard;
mod lanko_words;
pub mod notify;
mod offers;
pub mod ratings;
mod receipt;
mod replay;
mod seating;
mod timeouts;
pub mod timers;
pub mod tournament;
pub mod words;

use std::sync::Arc;

use muster_rules::{AnyGame, Seat};
use serde::{Deserialize, Serialize};

use crate::clock::{Clock, SystemClock};
use crate::store::{ChannelKey, GameRecord, GameStore, Staged, StoreError};

pub use board::{Board, Chart, ChartKind, ChartMatch, Drawn};
pub use command::{Answer, Command};
pub use muster_rules::GameId;
pub use receipt::{Handled, Receipt};
pub use timers::{Notice, Target, TimePolicy, Timers};

/// A user of a chat platform.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct User {
    /// The platform's stable id.
    pub id: String,
    /// The name to show.
    pub name: String,
}

impl From<&crate::store::Player> for User {
    fn from(p: &crate::store::Player) -> User {
        User {
            id: p.id.clone(),
            name: p.name.clone(),
        }
    }
}

impl From<&User> for crate::store::Player {
    fn from(u: &User) -> crate::store::Player {
        crate::store::Player {
            id: u.id.clone(),
            name: u.name.clone(),
        }
    }
}

impl User {
    /// A user whose id is also his name (the console).
    pub fn named(name: &str) -> User {
        User {
            id: name.to_string(),
            name: name.to_string(),
        }
    }
}

/// One command from one user in one channel.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Request {
    /// `console`, `discord`, `matrix`.
    pub platform: String,
    /// The channel, thread or room.
    pub channel: String,
    /// Who sent it.
    pub user: User,
    /// The command, without the prefix (`move c1-c3`).
    pub text: String,
    /// Users the platform resolved from mentions in the text.
    pub mentions: Vec<User>,
    /// What the place the command comes from allows this user.
    pub policy: Policy,
}

/// What a community allows (a Discord server's settings): the games that may be started and
/// whether the user counts as an organiser there. The default allows every game and makes no
/// one an organiser.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Policy {
    /// The games that may be started; `None` for all.
    pub games: Option<Vec<GameId>>,
    /// Whether the user is an organiser: organisers may call off any game in the channel.
    pub organiser: bool,
    /// Whether the platform can open a thread here for a new game (offered when the channel
    /// is busy, as a button running [`THREAD`] followed by the `new` command).
    pub threads: bool,
    /// The community the place belongs to (a Discord server's id), within which tournament
    /// names are unique; empty where the platform is one community.
    pub community: String,
}

/// The word before a command that the adapter runs in a new thread (see [`Policy::threads`]).
pub const THREAD: &str = "thread";

/// The name of a thread opened for `command` (a `new` command) by `user`.
pub fn thread_name(command: &str, user: &User) -> String {
    let game = command::parse(command).ok().and_then(|c| match c {
        Command::New { game, .. } => Some(game.title()),
        _ => None,
    });
    format!("{} — {}", game.unwrap_or("Game"), user.name)
}

/// A move offered for completion: what to show and what to insert.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Suggestion {
    /// What the user sees.
    pub label: String,
    /// What is filled in.
    pub value: String,
}

/// A suggested action: a label and the command it sends.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Button {
    /// What the button says.
    pub label: String,
    /// The command it runs (without the prefix).
    pub command: String,
}

/// One thing to say back.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub enum Reply {
    /// A message to the channel.
    Text(String),
    /// A message only the requesting user should see (an error, usually).
    Private(String),
    /// A message addressed to a user, who should be notified.
    Mention {
        /// Who.
        user: User,
        /// What.
        text: String,
    },
    /// The board as an image, drawn when it is sent.
    Board(Box<Board>),
    /// Actions offered as buttons where the platform has them.
    Buttons(Vec<Button>),
    /// A file (an exported record).
    File {
        /// Its name.
        name: String,
        /// Its content.
        content: String,
    },
}

impl Reply {
    /// The board of `record` after its decisions from `from` on (marked as just played).
    pub fn board(record: &GameRecord, from: usize) -> Reply {
        Reply::Board(Box::new(Board::new(record, from)))
    }
}

/// The command core, shared by every adapter.
pub struct Core {
    /// The store commands work on (a request's staged view while it is decided).
    store: Arc<dyn GameStore>,
    /// The real store, for what is written outside a request's one change (timeouts fired by
    /// the scheduler, settings, vacations).
    base: Arc<dyn GameStore>,
    prefix: String,
    clock: Arc<dyn Clock>,
    timers: Arc<Timers>,
    /// Channels where the bot may have a decision to make.
    bots: Arc<bot_moves::BotQueue>,
}

impl Core {
    /// A core over `store`, with `prefix` for text commands (`!`), on the system's clock.
    pub fn new(store: Arc<dyn GameStore>, prefix: &str) -> Core {
        Core::with_clock(store, prefix, Arc::new(SystemClock))
    }

    /// A core over `store`, with `prefix` for text commands, reading the time from `clock`.
    pub fn with_clock(store: Arc<dyn GameStore>, prefix: &str, clock: Arc<dyn Clock>) -> Core {
        Core {
            base: Arc::clone(&store),
            store,
            prefix: prefix.to_string(),
            clock,
            timers: Arc::new(Timers::default()),
            bots: bot_moves::shared(),
        }
    }

    /// This core keeping time by `policy` (default controls, vacation allowance).
    pub fn with_time_policy(self, policy: TimePolicy) -> Core {
        Core {
            timers: Arc::new(Timers::new(policy)),
            ..self
        }
    }

    /// The clock the core reads.
    pub fn clock(&self) -> &dyn Clock {
        self.clock.as_ref()
    }

    /// The store, shared (for what runs beside the core: backups, the operations listener).
    pub fn store_arc(&self) -> &Arc<dyn GameStore> {
        &self.base
    }

    /// The clock, shared.
    pub fn clock_arc(&self) -> Arc<dyn Clock> {
        Arc::clone(&self.clock)
    }

    /// The store the core works on (adapters keep their channel notes there).
    pub fn store(&self) -> &dyn GameStore {
        self.store.as_ref()
    }

    /// The command prefix.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// A chat message: a command after the prefix, or — in a channel whose game waits on this
    /// user — a move written on its own. Other chat gets no reply.
    pub fn handle_message(
        &self,
        platform: &str,
        channel: &str,
        user: &User,
        text: &str,
        mentions: &[User],
    ) -> Vec<Reply> {
        let Some(command) = self.command_in(platform, channel, user, text) else {
            return Vec::new();
        };
        self.handle(&Request {
            platform: platform.into(),
            channel: channel.into(),
            user: user.clone(),
            text: command,
            mentions: mentions.to_vec(),
            policy: Policy::default(),
        })
    }

    /// The command a chat message carries, without the prefix: the text after the prefix,
    /// or `move …` for a legal move written on its own in a channel whose live game waits on
    /// `user`. `None` for other chat, which gets no reply.
    pub fn command_in(
        &self,
        platform: &str,
        channel: &str,
        user: &User,
        text: &str,
    ) -> Option<String> {
        let text = text.trim();
        if let Some(command) = text.strip_prefix(self.prefix.as_str()) {
            return Some(command.to_string());
        }
        if text.is_empty() || text.lines().count() > 1 {
            return None;
        }
        let key = ChannelKey::new(platform, channel);
        let record = self.store.load(&key).ok()??;
        if record.status != crate::store::Status::Active {
            return None;
        }
        let game = record.rebuild().ok()?;
        let waits_on_user = game
            .to_move()
            .and_then(|s| record.player(s.index()))
            .is_some_and(|p| p.id == user.id);
        (waits_on_user && game.is_notation(&game.normalise(text))).then(|| format!("move {text}"))
    }

    /// A core like this one with another command prefix (a room's own).
    pub fn with_prefix(&self, prefix: &str) -> Core {
        Core {
            store: Arc::clone(&self.store),
            base: Arc::clone(&self.base),
            prefix: prefix.to_string(),
            clock: Arc::clone(&self.clock),
            timers: Arc::clone(&self.timers),
            bots: Arc::clone(&self.bots),
        }
    }

    /// Handles one command: works it out over the store with its writes held back, then
    /// stores its change (if any) in one compare-and-swap, with `receipt` — the request's id
    /// and the receipt worded from the replies — when given. Boards in the replies are
    /// described, not drawn (see [`Board`]).
    pub fn handle(&self, req: &Request) -> Vec<Reply> {
        self.run(req, None).replies
    }

    /// [`Core::handle`], keeping the receipt under `id` (in the same write as the change),
    /// answering in `place`, when an id is given. Logged in a span of its own (platform,
    /// channel, user, command, game), and counted in the metrics.
    fn run(&self, req: &Request, kept: Option<(&str, Option<&str>)>) -> Receipt {
        let command = command::parse(&req.text).map_or("invalid", |c| c.name());
        let span = tracing::info_span!(
            "command",
            platform = %req.platform,
            channel = %req.channel,
            user = %req.user.id,
            command,
            game = tracing::field::Empty,
        );
        let _entered = span.enter();
        let started = std::time::Instant::now();
        let (receipt, staged, failed) = self.run_staged(req, kept);
        let took = started.elapsed();
        let key = ChannelKey::new(&req.platform, &req.channel);
        let (before, written) = (staged.before(&key), staged.written());
        if let Some(id) = written
            .as_ref()
            .map(|w| &w.id)
            .or(before.as_ref().map(|b| &b.id))
        {
            span.record("game", id.as_str());
        }
        let outcome = if failed {
            "failed"
        } else if written.is_some() {
            "changed"
        } else if command == "invalid" {
            "invalid"
        } else {
            "answered"
        };
        let metrics = crate::ops::metrics::metrics();
        metrics.command(&req.platform, command, outcome, took);
        if let Some(w) = &written {
            let same = before.as_ref().filter(|b| b.id == w.id);
            let earlier = same.map_or(0, |b| b.moves);
            metrics.moves(&w.game, w.moves.len().saturating_sub(earlier) as u64);
            // A game created under way is counted by the store; one that a command set going
            // (a challenge accepted, the last seat taken) here.
            if w.status != crate::store::Status::Open
                && same.is_some_and(|b| b.status == crate::store::Status::Open)
            {
                metrics.started(&w.game);
            }
            // A clock found run out by this command (the scheduler counts those it finds).
            let on_time = matches!(crate::ops::metrics::termination(w), "time" | "forfeit");
            if on_time && command != "claim" && w.status == crate::store::Status::Finished {
                metrics.timeout();
            }
        }
        tracing::info!(
            outcome,
            ms = %format_args!("{:.2}", took.as_secs_f64() * 1000.0),
            "command handled"
        );
        receipt
    }

    /// [`Core::run`]'s work: the receipt, the request's staged store (what it read and
    /// stored), and whether a change it made could not be stored.
    fn run_staged(
        &self,
        req: &Request,
        kept: Option<(&str, Option<&str>)>,
    ) -> (Receipt, Arc<Staged>, bool) {
        let (id, place) = (kept.map(|k| k.0), kept.and_then(|k| k.1));
        let key = ChannelKey::new(&req.platform, &req.channel);
        // A command that lost a race (a move stored, a clock run out meanwhile) is decided
        // again over the new state, so its sender hears what it means now.
        let mut tries = 0;
        let (mut receipt, staged, result) = loop {
            tries += 1;
            let staged = Arc::new(Staged::over(Arc::clone(&self.store)));
            let scratch = Core {
                store: Arc::clone(&staged) as Arc<dyn GameStore>,
                base: Arc::clone(&self.base),
                prefix: self.prefix.clone(),
                clock: Arc::clone(&self.clock),
                timers: Arc::clone(&self.timers),
                bots: Arc::clone(&self.bots),
            };
            let mut replies = scratch.decide(req);
            scratch.style_boards(&req.platform, &mut replies, Some(&req.user.id));
            let receipt = Receipt::new(req, place, self.clock.now(), &replies);
            let body = id.map(|_| receipt.encode());
            let result = staged.commit(&req.platform, id.zip(body.as_deref()));
            if result != Err(StoreError::Conflict) || tries >= 3 {
                break (receipt, staged, result);
            }
        };
        if result.is_ok() && staged.touched() {
            self.reschedule(&key);
            // The bot decides after this command has been answered.
            if let Some(written) = staged.written() {
                self.bot_due(&written);
            }
            // A game that ended is rated, and reports to its event, now that its end is stored.
            // The rating changes end the command's own answer, after the result they follow.
            if let Some(ended) = staged.ended() {
                let mut changes = ratings::take(self, &ended);
                // The game's replay follows its result.
                let replayed = receipt
                    .replies
                    .iter()
                    .any(|r| matches!(r, Reply::Board(b) if b.is_replay()));
                if replay::worth_posting(&ended) && !replayed {
                    changes.push(Reply::Board(Box::new(Board::replay(
                        &ended,
                        replay::cap(&req.platform),
                    ))));
                }
                if !changes.is_empty() {
                    self.style_boards(&req.platform, &mut changes, Some(&req.user.id));
                    receipt.replies.extend(changes);
                    if let Some(id) = id {
                        let _ = self
                            .store
                            .set_receipt(&req.platform, id, Some(&receipt.encode()));
                    }
                }
                if let Some(tag) = &ended.tournament {
                    self.tournament_game_over(tag, &req.platform);
                }
            }
        }
        let changed = staged.touched();
        match result {
            Ok(()) => (receipt, staged, false),
            Err(e) if changed => {
                tracing::warn!("a command's change could not be stored: {e}");
                let failed = Receipt::new(req, place, receipt.at, &actions::not_saved(&e));
                if let Some(id) = id {
                    // Nothing was applied: a receipt of that alone needs no atomic write.
                    let _ = self
                        .store
                        .set_receipt(&req.platform, id, Some(&failed.encode()));
                }
                (failed, staged, true)
            }
            // Nothing was to change: the replies stand, though no receipt could be kept.
            Err(_) => (receipt, staged, false),
        }
    }

    /// Works a command out (writes go to the store this core is over).
    fn decide(&self, req: &Request) -> Vec<Reply> {
        let command = match command::parse(&req.text) {
            Ok(c) => c,
            Err(e) => return vec![Reply::Private(e)],
        };
        let p = &self.prefix;
        match command {
            Command::Help(topic) => return vec![Reply::Private(words::help(topic.as_deref(), p))],
            Command::Rules(game) => {
                let id = game
                    .or_else(|| self.current_game(req))
                    .unwrap_or(GameId::Lanrick);
                return vec![Reply::Private(words::rules(id))];
            }
            Command::Notation(game) => {
                let id = game
                    .or_else(|| self.current_game(req))
                    .unwrap_or(GameId::Lanrick);
                return vec![Reply::Private(words::notation(id))];
            }
            Command::Games(name) => return self.games(req, name),
            Command::Notify(what) => return notify::notify(self, req, what),
            Command::Vacation(what) => return notify::vacation(self, req, what),
            Command::Tournament(what) => return tournament::run(self, req, what),
            Command::Ratings(what) => return ratings::run(self, req, what),
            _ => {}
        }
        let key = ChannelKey::new(&req.platform, &req.channel);
        // Board settings change wherever they are said; the board follows if there is one.
        let mut settings = Vec::new();
        if let Command::Board(changes) = &command
            && !changes.is_empty()
        {
            settings = appearance::change(self, req, changes);
            if !matches!(self.store.load(&key), Ok(Some(_))) {
                return settings;
            }
        }
        let record = match self.store.load(&key) {
            Ok(r) => r,
            Err(StoreError::Corrupt(why)) => return self.damaged(req, &key, &command, &why),
            Err(e) => {
                return vec![Reply::Private(format!(
                    "The game store is not available ({e}); nothing was changed. Try again."
                ))];
            }
        };
        settings.extend(actions::run(self, req, &key, record, command));
        settings
    }

    /// Moves to offer `user` in `channel` for what he has typed so far (at most `limit`): the
    /// legal moves of the channel's game that match, or one entry saying why there are none
    /// (whose value is what was typed, so choosing it changes nothing).
    pub fn suggest(
        &self,
        platform: &str,
        channel: &str,
        user: &User,
        typed: &str,
        limit: usize,
    ) -> Vec<Suggestion> {
        let why = |label: String| {
            vec![Suggestion {
                label,
                value: typed.to_string(),
            }]
        };
        let key = ChannelKey::new(platform, channel);
        let record = match self.store.load(&key) {
            Ok(Some(r)) => r,
            Ok(None) => return why("No game in this channel — start one with new".into()),
            Err(_) => return Vec::new(),
        };
        let Ok(game) = record.rebuild() else {
            return Vec::new();
        };
        if record.status != crate::store::Status::Active {
            return why("The game has not started yet".into());
        }
        let Some(seat) = game.to_move() else {
            return why("The game is over".into());
        };
        let mover = record.player(seat.index());
        if mover.is_none_or(|p| p.id != user.id) {
            let name = mover.map_or("the other side".to_string(), |p| p.name.clone());
            return why(format!(
                "Not your turn: {name} ({}) is to move",
                words::seat_title(&game, seat)
            ));
        }
        let moves = game.suggest(typed, limit);
        if moves.is_empty() {
            return why(format!(
                "No legal move begins `{}` — see {}moves",
                words::excerpt(typed, 40),
                self.prefix
            ));
        }
        moves
            .into_iter()
            .map(|m| Suggestion {
                label: m.clone(),
                value: m,
            })
            .collect()
    }

    fn current_game(&self, req: &Request) -> Option<GameId> {
        let key = ChannelKey::new(&req.platform, &req.channel);
        self.store
            .load(&key)
            .ok()
            .flatten()
            .and_then(|r| r.game_id().ok())
    }

    fn damaged(
        &self,
        _req: &Request,
        key: &ChannelKey,
        command: &Command,
        why: &str,
    ) -> Vec<Reply> {
        if *command == Command::Abort {
            return match self.store.set_aside(key) {
                Ok(()) => vec![Reply::Text(
                    "The damaged game record of this channel was set aside (an operator can still inspect it). \
                     The channel is free: start a new game with `new`."
                        .into(),
                )],
                Err(e) => vec![Reply::Private(format!("The damaged record could not be set aside: {e}"))],
            };
        }
        vec![Reply::Private(format!(
            "This channel's game record cannot be read ({why}). Games in other channels are not affected. \
             Say `{}abort` to set the damaged record aside and free the channel.",
            self.prefix
        ))]
    }

    /// Who decides next, addressed to them, with what to do.
    fn next_up(&self, record: &GameRecord, game: &AnyGame) -> Vec<Reply> {
        let Some(seat) = game.to_move() else {
            return Vec::new();
        };
        let Some(player) = record.player(seat.index()) else {
            return Vec::new();
        };
        if bot::level_of(&player.id).is_some() {
            // The bot is not pinged: it says when it has decided.
            return vec![Reply::Text(format!(
                "{} is thinking ({}).",
                player.name,
                words::seat_title(game, seat)
            ))];
        }
        let user = User::from(player);
        let mut text = format!(
            "your turn ({}) — {}.",
            words::seat_title(game, seat),
            words::prompt(game, &self.prefix)
        );
        if let Some(line) = self.clock_words(record, game) {
            text.push_str(&format!("\n{line}"));
        }
        vec![
            Reply::Mention { user, text },
            Reply::Buttons(Self::turn_buttons(game)),
        ]
    }

    /// The buttons under a turn: Croquet's steps (there are at most eight), then the board.
    fn turn_buttons(game: &AnyGame) -> Vec<Button> {
        let mut buttons = Vec::new();
        if let AnyGame::Croquet(_) = game {
            buttons.extend(game.legal_moves_text().into_iter().map(|step| Button {
                command: format!("move {step}"),
                label: step,
            }));
        }
        buttons.push(Button {
            label: "Board".into(),
            command: "board".into(),
        });
        buttons
    }

    fn seat_name(game: &AnyGame, seat: Seat) -> String {
        words::seat_title(game, seat)
    }
}
