//! A command's walk through the desk, one way: the text is parsed once; the capability it
//! belongs to decides it over the request's staged store (a game command reads the channel's
//! record once, plays it with the rules, and words its replies from the game as played); the
//! boards are styled for their viewers; the change and the receipt are stored in one atomic
//! write; then what follows a stored change is done (the agenda, the bot's turn, a finished
//! game's rating and event). A command that lost a race is decided again over the new state.

use std::sync::Arc;

use muster_rules::{AnyGame, GameId};

use super::command::{self, Command};
use super::follow::{self, Said};
use super::front::Core;
use super::help;
use crate::clocks;
use crate::events;
use crate::games::follow::Stored;
use crate::games::{self, command::GameCommand, view};
use crate::kernel::receipt::Receipt;
use crate::kernel::replayable::Replayable;
use crate::kernel::reply::{Reply, not_saved};
use crate::kernel::request::{Policy, Request, Suggestion, User};
use crate::kernel::store::staged::Seen;
use crate::kernel::store::{ChannelKey, GameRecord, Staged, Status, StoreError};
use crate::players::profile::Profiles;
use crate::players::{appearance, links};
use crate::ratings;
use crate::telemetry::metrics::metrics;

/// Where a request's receipt is kept, when it is: its id on its platform, and where in the
/// channel its answers go (a thread), if not in the channel itself.
pub(crate) type ReceiptAt<'a> = Option<(&'a str, Option<&'a str>)>;

/// The command a chat message carries (see [`Core::command_in`]): its text without the
/// prefix, and — for a move written on its own — the channel's game as finding it read it.
pub struct Found {
    text: String,
    pub(crate) read: Option<Read>,
}

impl Found {
    /// The command, without the prefix (`move d1` for a bare `d1`).
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// A channel's game as [`Core::command_in`] read it to find a bare move: the channel, the key
/// the game lives under (the channel's own, or its home in a game played in two places), the
/// record and the game it plays to.
pub(crate) struct Read {
    key: ChannelKey,
    home: ChannelKey,
    record: GameRecord,
    game: AnyGame,
}

impl Read {
    /// Gives `staged` this read as its own first read of the channel (and of the game's home).
    fn seed(self, staged: &Staged) {
        if self.home != self.key {
            staged.seed(&self.key, None);
        }
        staged.keep_played(&self.record, &self.game);
        staged.seed(&self.home, Some(self.record));
    }
}

/// What running a request came to: its receipt, the staged store it ran over (what it read and
/// stored), and whether a change it made could not be stored.
struct Ran {
    receipt: Receipt,
    staged: Arc<Staged>,
    failed: bool,
}

impl Core {
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
        let Some(found) = self.command_in(platform, channel, user, text) else {
            return Vec::new();
        };
        let req = Request {
            platform: platform.into(),
            channel: channel.into(),
            user: user.clone(),
            text: found.text.clone(),
            mentions: mentions.to_vec(),
            policy: Policy::default(),
        };
        self.run(&req, None, found.read).0.replies
    }

    /// The command a chat message carries, without the prefix: the text after the prefix,
    /// or `move …` for a move written on its own in a channel whose live game waits on `user`
    /// (or for what looks like a try at one, which the move then answers with what a move looks
    /// like there: [`games::play::looks_like_a_move`]) — found by reading and playing the
    /// channel's game, which the [`Found`] hands on to the run. `None` for other chat, which
    /// gets no reply.
    pub fn command_in(
        &self,
        platform: &str,
        channel: &str,
        user: &User,
        text: &str,
    ) -> Option<Found> {
        let text = text.trim();
        if let Some(command) = text.strip_prefix(self.prefix.as_str()) {
            return Some(Found {
                text: command.to_string(),
                read: None,
            });
        }
        if text.is_empty() || text.lines().count() > 1 {
            return None;
        }
        let key = ChannelKey::new(platform, channel);
        let (home, record) = games::here(self, &key).ok()??;
        if record.status != Status::Active {
            return None;
        }
        let game = record.rebuild().ok()?;
        let waits_on_user = game
            .to_move()
            .and_then(|s| record.player(s.index()))
            .is_some_and(|p| p.id == user.id);
        // A move, or what looks like a try at one (answered with what a move looks like here).
        let attempt =
            game.is_notation(&game.normalise(text)) || games::play::looks_like_a_move(text);
        (waits_on_user && attempt).then(|| Found {
            text: format!("move {text}"),
            read: Some(Read {
                key,
                home,
                record,
                game,
            }),
        })
    }

    /// Handles one command: works it out over the store with its writes held back, then
    /// stores its change (if any) in one compare-and-swap. Boards in the replies are described,
    /// not drawn (see [`crate::kernel::board::Board`]).
    pub fn handle(&self, req: &Request) -> Vec<Reply> {
        self.run(req, None, None).0.replies
    }

    /// Moves to offer `user` in `channel` for what he has typed so far (at most `limit`): the
    /// legal moves of the channel's game that match, or one entry saying why there are none.
    pub fn suggest(
        &self,
        platform: &str,
        channel: &str,
        user: &User,
        typed: &str,
        limit: usize,
    ) -> Vec<Suggestion> {
        view::suggest(
            self,
            &ChannelKey::new(platform, channel),
            user,
            typed,
            limit,
        )
    }

    /// [`Core::handle`], keeping the receipt under the request's id (in the same write as the
    /// change) when one is given; with whether it changed a game. Logged in a span of its own
    /// (platform, channel, user, command, game), and counted in the metrics.
    ///
    /// `read` is the channel's game as [`Core::command_in`] read it, for a move written on its
    /// own: the first try is decided over it rather than reading and replaying it again (the
    /// commit still checks that the store holds it).
    pub(crate) fn run(
        &self,
        req: &Request,
        kept: ReceiptAt<'_>,
        read: Option<Read>,
    ) -> (Receipt, bool) {
        let widened = self.organised(req);
        let req = widened.as_ref().unwrap_or(req);
        let parsed = command::parse(&req.text);
        let name = parsed.as_ref().map_or("invalid", Command::name);
        let span = tracing::info_span!(
            "command",
            platform = %req.platform,
            channel = %req.channel,
            user = %req.user.id,
            command = name,
            game = tracing::field::Empty,
        );
        let _entered = span.enter();
        let started = std::time::Instant::now();
        let ran = self.run_staged(req, &parsed, kept, read);
        let took = started.elapsed();
        let key = ChannelKey::new(&req.platform, &req.channel);
        let (before, written) = (ran.staged.before(&key), ran.staged.written());
        if let Some(id) = written
            .as_ref()
            .map(|w| &w.id)
            .or(before.as_ref().map(|b| &b.id))
        {
            span.record("game", id.as_str());
        }
        let outcome = if ran.failed {
            "failed"
        } else if written.is_some() {
            "changed"
        } else if parsed.is_err() {
            "invalid"
        } else {
            "answered"
        };
        metrics().command(&req.platform, name, outcome, took);
        if let Some(w) = &written {
            count_change(name, before.as_ref(), w);
        }
        tracing::info!(
            outcome,
            ms = %format_args!("{:.2}", took.as_secs_f64() * 1000.0),
            "command handled"
        );
        (ran.receipt, written.is_some() && !ran.failed)
    }

    /// `req` made an organiser's, when its user (or an account linked with his) organises the
    /// community across platforms its place belongs to; `None` when it stays as it is.
    fn organised(&self, req: &Request) -> Option<Request> {
        if req.policy.organiser {
            return None;
        }
        let community =
            self.communities()
                .of(&req.platform, &req.policy.community, &req.channel)?;
        let organises = community.organised_by(&req.user.id)
            || links::accounts_of(self.base.as_ref(), &req.platform, &req.user.id)
                .iter()
                .any(|a| community.organised_by(&a.id));
        organises.then(|| {
            let mut req = req.clone();
            req.policy.organiser = true;
            req
        })
    }

    /// [`Core::run`]'s work: decided over a staged store and committed in one write, decided
    /// again (at most twice more) when it lost a race, then followed up.
    fn run_staged(
        &self,
        req: &Request,
        parsed: &Result<Command, String>,
        kept: ReceiptAt<'_>,
        mut read: Option<Read>,
    ) -> Ran {
        let (id, place) = (kept.map(|k| k.0), kept.and_then(|k| k.1));
        let key = ChannelKey::new(&req.platform, &req.channel);
        let mut tries = 0;
        // The game a try that lost its race saw.
        let mut lost: Option<Seen> = None;
        loop {
            tries += 1;
            let staged = Arc::new(Staged::over(Arc::clone(&self.store)));
            if let Some(read) = read.take() {
                read.seed(&staged);
            }
            let scratch = self.staged_over(&staged);
            let mut profiles = Profiles::new(self.base.as_ref());
            let mut replies = scratch.decide(req, parsed);
            if let Some(seen) = &lost
                && for_the_game(parsed)
                && staged.before(&key).is_none_or(|now| now.id != seen.id)
            {
                replies = games::ended_meanwhile(self, &seen.id);
            }
            // A game this command ends: what follows it (its rating, its replay) is said in
            // the same write.
            let said = staged
                .ending()
                .map(|ended| follow::words_at_the_end(self, &ended, &mut replies))
                .unwrap_or_default();
            appearance::style_boards(&mut profiles, &mut replies, Some(&req.user.id));
            // Another place told in the same write (a game played on two platforms).
            let told = follow::told_with_the_change(self, req, &staged, &mut replies);
            let mut receipt = Receipt::new(req, place, self.clock.now(), &replies);
            let body = id.map(|_| receipt.encode());
            let result = staged.commit(
                id.zip(body.as_deref())
                    .map(|(id, body)| (req.platform.as_str(), id, body)),
            );
            if result == Err(StoreError::Conflict) && tries < 3 {
                lost = lost.or_else(|| staged.before(&key));
                continue;
            }
            if let Err(e) = result {
                return self.not_stored(req, kept, receipt, staged, &e);
            }
            for notice in told {
                self.timers.post(notice);
            }
            if staged.touched() {
                self.follow(req, id, &mut receipt, &staged, (&mut profiles, &said));
            }
            return Ran {
                receipt,
                staged,
                failed: false,
            };
        }
    }

    /// A request whose change could not be stored: its sender is told, and nothing was applied.
    fn not_stored(
        &self,
        req: &Request,
        kept: ReceiptAt<'_>,
        receipt: Receipt,
        staged: Arc<Staged>,
        e: &StoreError,
    ) -> Ran {
        if !staged.touched() {
            // Nothing was to change: the replies stand, though no receipt could be kept.
            return Ran {
                receipt,
                staged,
                failed: false,
            };
        }
        tracing::warn!("a command's change could not be stored: {e}");
        let place = kept.and_then(|k| k.1);
        let failed = Receipt::new(req, place, receipt.at, &not_saved(e));
        if let Some((id, _)) = kept {
            // Nothing was applied: a receipt of that alone needs no atomic write.
            if let Err(e) = self
                .store
                .set_receipt(&req.platform, id, Some(&failed.encode()))
            {
                tracing::warn!("the receipt of {id} could not be kept: {e}");
            }
        }
        Ran {
            receipt: failed,
            staged,
            failed: true,
        }
    }

    /// What follows a stored change, every capability's follow-ups in turn (the agenda, the
    /// bot's turn, a place to open); then, for a game it ended, what follows its end (`said`:
    /// the words said of it in the write), and the receipt corrected if those words changed.
    fn follow(
        &self,
        req: &Request,
        id: Option<&str>,
        receipt: &mut Receipt,
        staged: &Staged,
        (profiles, said): (&mut Profiles<'_>, &Said),
    ) {
        let Some(written) = staged.written() else {
            return;
        };
        let key = ChannelKey::new(&written.platform, &written.channel);
        let moved = staged
            .before(&key)
            .is_none_or(|b| b.id != written.id || b.moves != written.moves.len());
        let played = staged.played(&written);
        let mut stored = Stored {
            key,
            written: &written,
            moved,
            played: played.as_ref(),
            profiles,
        };
        follow::after_the_change(self, &mut stored);
        let Some(ended) = staged.ended() else {
            return;
        };
        if follow::at_the_end(self, &ended, said, &mut receipt.replies)
            && let Some(id) = id
            && let Err(e) = self
                .store
                .set_receipt(&req.platform, id, Some(&receipt.encode()))
        {
            tracing::warn!(game = %ended.id, "the rating of a game could not be corrected in its answer: {e}");
        }
    }

    /// Works a command out (writes go to the store this core is over).
    fn decide(&self, req: &Request, parsed: &Result<Command, String>) -> Vec<Reply> {
        let command = match parsed {
            Ok(c) => c.clone(),
            Err(e) => return vec![Reply::Private(e.clone())],
        };
        match command {
            Command::Help(topic) => {
                vec![Reply::Private(help::help(
                    topic.as_deref(),
                    &self.prefix,
                    self.web_base().as_deref(),
                ))]
            }
            Command::Rules(game) => {
                let id = game
                    .or_else(|| self.current_game(req))
                    .unwrap_or(GameId::Lanrick);
                let web = self.web_base();
                super::rules_steps::rules(id, web.as_deref(), &req.platform, &req.channel)
            }
            Command::Notation(game) => {
                let id = game
                    .or_else(|| self.current_game(req))
                    .unwrap_or(GameId::Lanrick);
                vec![Reply::Private(help::notation(
                    id,
                    self.web_base().as_deref(),
                ))]
            }
            Command::Clock(what) => clocks::run(self, req, what),
            Command::Tournament(what) => events::manage::run(self, req, what),
            Command::Ratings(what) => ratings::commands::run(self, req, what),
            Command::Link(what) => links::run(self, req, what),
            Command::Learn(what) => crate::learn::run(self, req, what),
            Command::Puzzle(what) => crate::learn::puzzle(self, req, what),
            Command::Game(what) => self.game_command(req, what),
        }
    }

    /// A command about the channel's game: the record read once, then played by the games. In
    /// the other place of a game played on two platforms, that game, read at its home.
    fn game_command(&self, req: &Request, command: GameCommand) -> Vec<Reply> {
        let here = ChannelKey::new(&req.platform, &req.channel);
        let (key, record) = match games::here(self, &here) {
            Ok(Some((key, record))) => (key, Some(record)),
            Ok(None) => (here, None),
            Err(StoreError::Corrupt(why)) => return self.damaged(&here, &command, &why),
            Err(e) => {
                return vec![Reply::Private(format!(
                    "The game store is not available ({e}); nothing was changed. Try again."
                ))];
            }
        };
        // Board settings change wherever they are said; the board follows if there is one.
        let mut settings = Vec::new();
        if let GameCommand::Board(changes) = &command
            && !changes.is_empty()
        {
            settings = appearance::change(self, req, changes);
            if record.is_none() {
                return settings;
            }
        }
        settings.extend(games::run(self, req, &key, record, command));
        settings
    }

    /// The game of the request's channel, if it has one.
    fn current_game(&self, req: &Request) -> Option<GameId> {
        let key = ChannelKey::new(&req.platform, &req.channel);
        let (_, record) = games::here(self, &key).ok()??;
        record.game_id().ok()
    }

    /// A command in a channel whose record cannot be read: only `abort` helps, setting it aside.
    fn damaged(&self, key: &ChannelKey, command: &GameCommand, why: &str) -> Vec<Reply> {
        if *command == GameCommand::Abort {
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
}

/// Whether `parsed` is a command about the channel's game as it stands (not one that starts a
/// game or names a finished one).
fn for_the_game(parsed: &Result<Command, String>) -> bool {
    match parsed {
        Ok(Command::Game(c)) => !matches!(
            c,
            GameCommand::New(_) | GameCommand::Export(Some(_)) | GameCommand::Replay(Some(_))
        ),
        _ => false,
    }
}

/// Counts what a command's stored change did to its game: moves played, a game set going (one
/// created under way is counted by the store), a clock found run out.
fn count_change(command: &str, before: Option<&Seen>, w: &GameRecord) {
    let same = before.filter(|b| b.id == w.id);
    let earlier = same.map_or(0, |b| b.moves);
    metrics().moves(&w.game, w.moves.len().saturating_sub(earlier) as u64);
    if w.status != Status::Open && same.is_some_and(|b| b.status == Status::Open) {
        metrics().started(&w.game);
    }
    // A clock found run out by this command (the scheduler counts those it finds).
    let on_time = matches!(w.ended_by(), "time" | "forfeit");
    if on_time && command != "claim" && w.status == Status::Finished {
        metrics().timeout();
    }
}
