//! Clocks at work: timeouts, claims and reminders. Deadlines come from the records
//! ([`GameRecord::deadline`]); the agenda holds each timed channel's next due moment, and
//! [`Core::fire_due`] — run by the one scheduler of the process, or by a console `~` line —
//! does what fell due, in order, and leaves messages for the adapters in the outbox.
//!
//! A timeout ends the game by compare-and-swap, so a move stored a moment before the deadline
//! wins the race and a move coming after it finds the game lost on time; never both.
//! Reminders are kept once per move and point in a channel note (changed by compare-and-swap
//! before the reminder is sent), so a restart never repeats one.

use std::collections::HashMap;
use std::sync::Mutex;

use muster_rules::{AnyGame, Seat};

use super::actions::{Replies, private};
use super::dashboard::channel_link;
use super::notify::{Mode, Profile, profile};
use super::timeouts::{finish_on_time, notice_id};
use super::{Core, Reply, User, words};
use crate::clock::agenda::{Agenda, hint};
use crate::clock::control::Control;
use crate::clock::{duration, rfc3339};
use crate::store::{ChannelKey, GameRecord, Status};

/// Reminders due to one player within this many seconds of each other go out as one message.
pub const COALESCE: u64 = 15 * 60;

/// Where a message goes that no command asked for.
#[derive(Clone, PartialEq, Debug)]
pub enum Target {
    /// A channel (or room) on the platform.
    Channel(String),
    /// A user, directly (a Discord DM, a Matrix direct room, the console's own line).
    Direct(User),
    /// Not a message: a tournament board needs a place (a thread, a room, a console channel);
    /// the adapter opens it and answers with [`Core::place_opened`].
    Open(Box<super::tournament::Opening>),
}

/// A message no command asked for: a timeout, a reminder, a vacation's announcement.
#[derive(Clone, PartialEq, Debug)]
pub struct Notice {
    /// `console`, `discord`, `matrix`.
    pub platform: String,
    /// Where it goes.
    pub target: Target,
    /// What it says.
    pub replies: Vec<Reply>,
    /// What to post instead if it cannot be delivered directly (a player who takes no direct
    /// messages is reminded in the game's channel).
    pub fallback: Option<Box<Notice>>,
    /// The id of the receipt the notice is kept under until it is sent (see
    /// [`Core::notice_sent`]): a timeout's announcement is stored with the game's end, so that
    /// a crash before it is posted does not lose it.
    pub receipt: Option<String>,
}

/// Ids of notices kept as receipts begin with this.
pub const NOTICE: &str = "notice.";

/// The time controls of a platform, from the settings.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct PlatformTime {
    /// The control of a `new` game that names none.
    pub clock: Option<Control>,
    /// Channels with their own default.
    pub channels: HashMap<String, Option<Control>>,
    /// Whether a run-out clock waits for a claim by default.
    pub claim: bool,
    /// The command prefix players type there (`/` on Discord), for messages no command asked
    /// for; `None` for the core's own.
    pub prefix: Option<String>,
    /// Channels with a prefix of their own (a Matrix room's).
    pub channel_prefixes: HashMap<String, String>,
}

/// How time is kept, from the settings.
#[derive(Clone, PartialEq, Debug)]
pub struct TimePolicy {
    /// Per platform.
    pub platforms: HashMap<String, PlatformTime>,
    /// Days of vacation a player has each calendar year.
    pub vacation_days: u64,
}

impl Default for TimePolicy {
    fn default() -> TimePolicy {
        TimePolicy {
            platforms: HashMap::new(),
            vacation_days: 30,
        }
    }
}

impl TimePolicy {
    /// The default control of a channel.
    pub fn clock_for(&self, platform: &str, channel: &str) -> Option<Control> {
        let p = self.platforms.get(platform)?;
        p.channels.get(channel).copied().unwrap_or(p.clock)
    }

    /// Whether timeouts wait for a claim by default on `platform`.
    pub fn claim_for(&self, platform: &str) -> bool {
        self.platforms.get(platform).is_some_and(|p| p.claim)
    }

    /// The prefix players type in `channel` on `platform`, when the settings give one.
    pub fn prefix_for(&self, platform: &str, channel: &str) -> Option<&str> {
        let p = self.platforms.get(platform)?;
        p.channel_prefixes
            .get(channel)
            .or(p.prefix.as_ref())
            .map(String::as_str)
    }

    /// The vacation allowance in seconds.
    pub fn vacation_allowance(&self) -> u64 {
        self.vacation_days.saturating_mul(86_400)
    }
}

/// The scheduler's state, shared by a core and the cores made from it.
#[derive(Default)]
pub struct Timers {
    agenda: Mutex<Agenda>,
    outbox: Mutex<Vec<Notice>>,
    /// Woken when the earliest due moment comes forward.
    pub changed: tokio::sync::Notify,
    /// Per platform, woken when notices for it wait in the outbox.
    ready: Mutex<HashMap<String, std::sync::Arc<tokio::sync::Notify>>>,
    pub(super) policy: TimePolicy,
    /// The platforms whose due moments this instance sees to (`None`: all). Beside other
    /// instances on one store, each fires only what it can announce.
    fired: Mutex<Option<std::collections::HashSet<String>>>,
}

impl Timers {
    /// Timers under `policy`.
    pub fn new(policy: TimePolicy) -> Timers {
        Timers {
            policy,
            ..Timers::default()
        }
    }

    fn agenda(&self) -> std::sync::MutexGuard<'_, Agenda> {
        self.agenda.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn set(&self, key: &ChannelKey, due: Option<(u64, u32)>) {
        if self.agenda().set(key, due) {
            self.changed.notify_one();
        }
    }

    /// Leaves a notice for its adapter.
    /// Leaves `notice` in the outbox (an adapter telling of something it could not do).
    pub fn post_notice(&self, notice: Notice) {
        self.post(notice);
    }

    pub(super) fn post(&self, notice: Notice) {
        let ready = self.ready(&notice.platform);
        self.outbox
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(notice);
        ready.notify_one();
    }

    /// Woken (one waiter; a wake-up is kept when nobody waits) whenever notices for
    /// `platform` are left in the outbox: its adapter waits on it, then takes them.
    pub fn ready(&self, platform: &str) -> std::sync::Arc<tokio::sync::Notify> {
        let mut ready = self.ready.lock().unwrap_or_else(|p| p.into_inner());
        std::sync::Arc::clone(ready.entry(platform.to_string()).or_default())
    }

    /// Whether this instance sees to the due moments of games on `platform`.
    pub fn fires(&self, platform: &str) -> bool {
        let fired = self.fired.lock().unwrap_or_else(|p| p.into_inner());
        fired.as_ref().is_none_or(|f| f.contains(platform))
    }

    /// Sees to the due moments of games on `platform` from now on, or (`on` false) leaves them
    /// to another instance. The first call makes the instance fire only the platforms named.
    pub fn fire_for(&self, platform: &str, on: bool) {
        let mut fired = self.fired.lock().unwrap_or_else(|p| p.into_inner());
        let set = fired.get_or_insert_with(Default::default);
        if on {
            set.insert(platform.to_string());
        } else {
            set.remove(platform);
        }
    }

    /// Takes the notices waiting for `platform`, oldest first.
    pub fn take(&self, platform: &str) -> Vec<Notice> {
        let mut outbox = self.outbox.lock().unwrap_or_else(|p| p.into_inner());
        let (mine, rest): (Vec<Notice>, Vec<Notice>) =
            outbox.drain(..).partition(|n| n.platform == platform);
        *outbox = rest;
        mine
    }
}

/// A deadline as a platform shows it: Discord's own timestamps (each user sees his own time),
/// elsewhere the time left and the UTC time.
pub fn when(platform: &str, at: u64, now: u64) -> String {
    if platform == "discord" {
        return format!("<t:{at}:f> (<t:{at}:R>)");
    }
    let stamp = rfc3339(at).replacen('T', " ", 1).replace('Z', " UTC");
    if at > now {
        format!("{stamp} (in {})", duration(at - now))
    } else {
        stamp
    }
}

/// The state of a timed game's clocks at a moment, in words: `alice (White) 2d 4h ⏳ · bob
/// (Black) 3d`, the running clock marked.
pub fn clocks_line(record: &GameRecord, game: &AnyGame, at: u64) -> Option<String> {
    let (left, running) = record.time_left(at)?;
    let parts: Vec<String> = left
        .iter()
        .enumerate()
        .filter_map(|(i, left)| {
            let seat = Seat::new(i)?;
            let name = record.player(i).map_or("?", |p| p.name.as_str());
            let mark = if running == Some(i) { " ⏳" } else { "" };
            let title = words::seat_title(game, seat);
            Some(format!("{name} ({title}) {}{mark}", duration(*left)))
        })
        .collect();
    Some(parts.join(" · "))
}

/// A reminder to send: the game and the time left then.
struct Due {
    key: ChannelKey,
    record: GameRecord,
    left: u64,
    deadline: u64,
}

/// The note keeping which reminder points were sent for a game's current move.
const REMINDED: &str = "reminded";

/// The note (beside a platform's, on its empty channel) by which one instance claims a notice
/// another stored and never posted, followed by the notice's id.
const NOTICE_CLAIM: &str = "notice.claim:";

/// The note saying a run-out clock was announced (games whose timeouts are claimed).
const FLAGGED: &str = "flagged";

fn move_tag(record: &GameRecord) -> String {
    format!("{}:{}", record.id, record.moves.len())
}

/// The reminder points already sent for the current move, from the note's text.
fn sent_points(note: Option<&str>, record: &GameRecord) -> Vec<u64> {
    let tag = move_tag(record);
    note.and_then(|n| n.strip_prefix(&tag))
        .and_then(|r| r.strip_prefix('|'))
        .map(|r| r.split(',').filter_map(|p| p.parse().ok()).collect())
        .unwrap_or_default()
}

impl Core {
    /// The prefix players type in `channel` (the settings' for its platform, else this core's).
    pub(super) fn prefix_in(&self, platform: &str, channel: &str) -> String {
        self.timers
            .policy
            .prefix_for(platform, channel)
            .unwrap_or(&self.prefix)
            .to_string()
    }

    fn mover(&self, record: &GameRecord) -> Option<(usize, User)> {
        let wait = record.wait?;
        let p = record.player(wait.seat)?;
        Some((wait.seat, User::from(p)))
    }

    /// The player to move's reminders not yet sent: `(point, when)`, earliest first.
    fn pending(&self, key: &ChannelKey, record: &GameRecord, profile: &Profile) -> Vec<(u64, u64)> {
        let (Some(wait), Some(deadline)) = (record.wait, record.deadline()) else {
            return Vec::new();
        };
        if profile.notify == Mode::Off {
            return Vec::new();
        }
        let note = self.base.note(key, REMINDED).ok().flatten();
        let sent = sent_points(note.as_deref(), record);
        let pauses = record.paused(wait.seat);
        let mut out: Vec<(u64, u64)> = profile
            .points()
            .into_iter()
            .filter(|p| !sent.contains(p))
            .filter_map(|p| {
                let at = wait.when_left(p, &pauses)?;
                let at = profile.quiet.as_ref().map_or(at, |q| q.delay(at));
                (at < deadline).then_some((p, at))
            })
            .collect();
        out.sort_by_key(|&(_, at)| at);
        out
    }

    /// The next due moment of a channel's game: its deadline (unless a run-out clock waits
    /// for a claim and was announced) or its next reminder.
    /// With it, the hint of the player it concerns (see [`crate::clock::agenda::hint`]).
    fn next_moment(&self, key: &ChannelKey, record: &GameRecord) -> Option<(u64, u32)> {
        if record.status != Status::Active {
            return None;
        }
        let deadline = record.deadline()?;
        let claimed_and_told = record.clock.is_some_and(|c| c.claim())
            && self.base.note(key, FLAGGED).ok().flatten() == Some(move_tag(record));
        let (_, user) = self.mover(record)?;
        if super::bot::level_of(&user.id).is_some() {
            return None;
        }
        let profile = profile(self.base.as_ref(), &record.platform, &user.id);
        let reminder = self.pending(key, record, &profile).first().map(|p| p.1);
        let at = match (claimed_and_told, reminder) {
            (true, r) => r,
            (false, Some(r)) => Some(r.min(deadline)),
            (false, None) => Some(deadline),
        }?;
        Some((at, hint(&user.id)))
    }

    /// Brings the agenda up to date for `key`'s game.
    pub fn reschedule(&self, key: &ChannelKey) {
        let due = match self.base.load(key) {
            Ok(Some(record)) => self.next_moment(key, &record),
            _ => None,
        };
        self.timers.set(key, due);
    }

    /// Brings the agenda up to date for every game of a player (his settings changed).
    pub(super) fn reschedule_player(&self, platform: &str, user: &str) {
        if let Ok(games) = self.base.live_games_of(platform, user) {
            for g in games.iter().filter(|g| g.clock.is_some()) {
                self.reschedule(&ChannelKey::new(&g.platform, &g.channel));
            }
        }
    }

    /// Reads every timed game into the agenda (at start); how many have something due.
    pub fn load_agenda(&self) -> usize {
        let Ok(games) = self.base.timed_games() else {
            return 0;
        };
        let mut agenda = Vec::with_capacity(games.len());
        for record in &games {
            let key = ChannelKey::new(&record.platform, &record.channel);
            if let Some(due) = self.next_moment(&key, record) {
                agenda.push((key, due));
            }
        }
        let n = agenda.len();
        for (key, due) in agenda {
            self.timers.set(&key, Some(due));
        }
        n
    }

    /// An estimate of the bytes the scheduler's agenda holds (see
    /// [`crate::clock::agenda::Agenda::footprint`]).
    pub fn agenda_footprint(&self) -> usize {
        self.timers.agenda().footprint()
    }

    /// The earliest moment something is due.
    pub fn next_due(&self) -> Option<u64> {
        self.timers.agenda().next()
    }

    /// The scheduler's shared state (the outbox and its wake-ups).
    pub fn timers(&self) -> &Timers {
        &self.timers
    }

    /// Takes the notices waiting for `platform`.
    pub fn notices(&self, platform: &str) -> Vec<Notice> {
        self.timers.take(platform)
    }

    /// Does everything due by now, in order: timeouts (the game ended at its deadline),
    /// announcements of run-out clocks that wait for a claim, and reminders (coalesced per
    /// player). Leaves the messages in the outbox; how many notices were left.
    pub fn fire_due(&self) -> usize {
        let now = self.clock.now();
        let due = self.timers.agenda().take_due(now);
        let mut reminders: Vec<Due> = Vec::new();
        let mut posted = 0;
        for (_, key) in due {
            // Another instance sees to it (it is read again when this one takes it over).
            if !self.timers.fires(&key.platform) {
                continue;
            }
            let Ok(Some(record)) = self.base.load(&key) else {
                continue;
            };
            let id = record.id.clone();
            match self.tend(&key, record, now) {
                Tended::Notice(n) => {
                    crate::ops::metrics::metrics().timeout();
                    self.timers.post(n);
                    posted += 1;
                    // A game lost on time is rated, and reports to its event.
                    if let Ok(Some(ended)) = self.base.archived(&id) {
                        self.rate(&ended);
                        if let Some(tag) = &ended.tournament {
                            self.tournament_game_over(tag, &key.platform);
                        }
                    }
                }
                Tended::Remind(d) => reminders.push(*d),
                Tended::Nothing => {}
            }
            self.reschedule(&key);
        }
        // A player reminded now hears in the same message of his games due a little later.
        let mut players: Vec<(String, User)> = Vec::new();
        for d in &reminders {
            if let Some((_, u)) = self.mover(&d.record)
                && !players
                    .iter()
                    .any(|(p, x)| *p == d.record.platform && x.id == u.id)
            {
                players.push((d.record.platform.clone(), u));
            }
        }
        for (platform, user) in players {
            let mut mine: Vec<Due> = Vec::new();
            reminders.retain(|d| {
                let his = d.record.platform == platform
                    && self.mover(&d.record).is_some_and(|(_, u)| u.id == user.id);
                if his {
                    mine.push(Due {
                        key: d.key.clone(),
                        record: d.record.clone(),
                        left: d.left,
                        deadline: d.deadline,
                    });
                }
                !his
            });
            mine.extend(self.soon_for(&platform, &user, now, &mine));
            if let Some(n) = self.reminder(&platform, &user, mine, now) {
                crate::ops::metrics::metrics().reminder();
                self.timers.post(n);
                posted += 1;
            }
        }
        posted
    }

    /// The player's other reminders due within [`COALESCE`] of now (marked as sent): found
    /// among the channels the agenda has due in that window, not by reading every game.
    fn soon_for(&self, platform: &str, user: &User, now: u64, taken: &[Due]) -> Vec<Due> {
        let soon_keys = self
            .timers
            .agenda()
            .between(now, now + COALESCE, hint(&user.id));
        let profile = profile(self.base.as_ref(), platform, &user.id);
        let mut out = Vec::new();
        for key in soon_keys {
            if key.platform != platform || taken.iter().any(|d| d.key == key) {
                continue;
            }
            let Ok(Some(record)) = self.base.load(&key) else {
                continue;
            };
            if self.mover(&record).is_none_or(|(_, u)| u.id != user.id) {
                continue;
            }
            let soon: Vec<u64> = self
                .pending(&key, &record, &profile)
                .iter()
                .filter(|(_, at)| *at <= now + COALESCE)
                .map(|(p, _)| *p)
                .collect();
            if soon.is_empty() {
                continue;
            }
            if let Some(d) = self.mark_sent(&key, record, &soon, now) {
                out.push(d);
                self.reschedule(&key);
            }
        }
        out
    }

    /// Marks `points` as sent for the game's current move; the reminder, if this call marked
    /// them (another instance or an earlier run may have).
    fn mark_sent(
        &self,
        key: &ChannelKey,
        record: GameRecord,
        points: &[u64],
        now: u64,
    ) -> Option<Due> {
        let old = self.base.note(key, REMINDED).ok().flatten();
        let mut sent = sent_points(old.as_deref(), &record);
        // Points marked since they were found due (by another instance) are not sent again.
        let fresh: Vec<u64> = points
            .iter()
            .copied()
            .filter(|p| !sent.contains(p))
            .collect();
        if fresh.is_empty() {
            return None;
        }
        sent.extend_from_slice(&fresh);
        let list: Vec<String> = sent.iter().map(u64::to_string).collect();
        let new = format!("{}|{}", move_tag(&record), list.join(","));
        if !self
            .base
            .swap_note(key, REMINDED, old.as_deref(), Some(&new))
            .unwrap_or(false)
        {
            return None;
        }
        let wait = record.wait?;
        let deadline = record.deadline()?;
        Some(Due {
            key: key.clone(),
            left: wait.left_at(now, &record.paused(wait.seat)),
            deadline,
            record,
        })
    }

    /// What is due in one channel at `now`.
    fn tend(&self, key: &ChannelKey, record: GameRecord, now: u64) -> Tended {
        let Some(deadline) = record
            .deadline()
            .filter(|_| record.status == Status::Active)
        else {
            return Tended::Nothing;
        };
        if deadline <= now {
            let claim = record.clock.is_some_and(|c| c.claim());
            if !claim {
                let record_id = record.id.clone();
                return match self.time_out(key, record, deadline) {
                    Ok(replies) => Tended::Notice(Notice {
                        platform: key.platform.clone(),
                        target: Target::Channel(key.channel.clone()),
                        replies,
                        fallback: None,
                        receipt: Some(notice_id(&record_id)),
                    }),
                    Err(_) => Tended::Nothing,
                };
            }
            let tag = move_tag(&record);
            let old = self.base.note(key, FLAGGED).ok().flatten();
            if old.as_deref() == Some(tag.as_str())
                || !self
                    .base
                    .swap_note(key, FLAGGED, old.as_deref(), Some(&tag))
                    .unwrap_or(false)
            {
                return Tended::Nothing;
            }
            return Tended::Notice(Notice {
                platform: key.platform.clone(),
                target: Target::Channel(key.channel.clone()),
                replies: self.run_out_words(&record, deadline),
                fallback: None,
                receipt: None,
            });
        }
        let Some((_, user)) = self.mover(&record) else {
            return Tended::Nothing;
        };
        let profile = profile(self.base.as_ref(), &record.platform, &user.id);
        let points: Vec<u64> = self
            .pending(key, &record, &profile)
            .into_iter()
            .filter(|(_, at)| *at <= now)
            .map(|(p, _)| p)
            .collect();
        if points.is_empty() {
            return Tended::Nothing;
        }
        match self.mark_sent(key, record, &points, now) {
            Some(d) => Tended::Remind(Box::new(d)),
            None => Tended::Nothing,
        }
    }

    /// What is said when a clock that waits for a claim runs out.
    fn run_out_words(&self, record: &GameRecord, deadline: u64) -> Replies {
        let Ok(game) = record.rebuild() else {
            return Vec::new();
        };
        let Some(seat) = record.wait.and_then(|w| Seat::new(w.seat)) else {
            return Vec::new();
        };
        let others: Vec<String> = record
            .seats
            .iter()
            .enumerate()
            .filter(|(i, _)| {
                Seat::new(*i).is_some_and(|s| game.table().team_of(s) != game.table().team_of(seat))
            })
            .filter_map(|(_, s)| s.player.as_ref().map(|p| p.name.clone()))
            .collect();
        vec![Reply::Text(format!(
            "{}'s time ran out at {}. {} may `{}claim` the win, or keep waiting for the move.",
            words::who(record, &game, seat),
            when(&record.platform, deadline, deadline),
            dedup(others).join(" or "),
            self.prefix_in(&record.platform, &record.channel)
        ))]
    }

    /// Ends the game on time at `deadline` (by compare-and-swap on the real store): the
    /// announcement, with the board.
    fn time_out(
        &self,
        key: &ChannelKey,
        record: GameRecord,
        deadline: u64,
    ) -> Result<Replies, Replies> {
        let game = record.rebuild().map_err(|e| private(e.0))?;
        let seat = record.wait.map(|w| w.seat).ok_or_else(Vec::new)?;
        let ending = record.ran_out(seat);
        let id = notice_id(&record.id);
        finish_on_time(
            self,
            self.base.as_ref(),
            key,
            record,
            &game,
            ending,
            deadline,
            Some(&id),
        )
    }

    /// Forgets the notice kept as `id` on `platform`: an adapter calls this once it has posted
    /// the notice. (The Matrix adapter instead sends it as it sends answers, recording its
    /// progress in the receipt.)
    pub fn notice_sent(&self, platform: &str, id: &str) {
        let _ = self.base.set_receipt(platform, id, None);
        if self.base.shared() {
            let claim = format!("{NOTICE_CLAIM}{id}");
            let _ = self
                .base
                .set_note(&ChannelKey::new(platform, ""), &claim, None);
        }
    }

    /// The notices kept on `platform` and not yet sent (a crash came between storing them and
    /// posting them), oldest first.
    pub fn owed_notices(&self, platform: &str) -> Vec<Notice> {
        self.owed_notices_before(platform, u64::MAX)
    }

    /// Beside other instances on one store: the notices on `platform` stored at least `age`
    /// seconds ago and still not posted — the instance that stored them stopped first — each
    /// claimed by one instance only (a note beside the platform's), and left in this one's
    /// outbox for its adapter to post. How many.
    pub fn recover_notices(&self, platform: &str, age: u64) -> usize {
        let before = self.clock.now().saturating_sub(age);
        let key = ChannelKey::new(platform, "");
        let me = crate::store::lease::instance_name();
        let mut taken = 0;
        for notice in self.owed_notices_before(platform, before) {
            let Some(id) = notice.receipt.clone() else {
                continue;
            };
            let claim = format!("{NOTICE_CLAIM}{id}");
            if self
                .base
                .swap_note(&key, &claim, None, Some(me))
                .unwrap_or(false)
            {
                tracing::info!(
                    "posting notice {id}, which another instance stored but never posted"
                );
                self.timers.post(notice);
                taken += 1;
            }
        }
        taken
    }

    fn owed_notices_before(&self, platform: &str, before: u64) -> Vec<Notice> {
        let Ok(kept) = self.base.receipts(platform) else {
            return Vec::new();
        };
        let mut owed: Vec<(u64, String, Notice)> = kept
            .into_iter()
            .filter(|(id, _)| id.starts_with(NOTICE))
            .filter_map(|(id, body)| {
                let r = super::Receipt::decode(&body).ok()?;
                (!r.done && r.at <= before).then(|| {
                    let notice = Notice {
                        platform: platform.to_string(),
                        target: Target::Channel(r.channel.clone()),
                        replies: r.replies.get(r.sent..).unwrap_or_default().to_vec(),
                        fallback: None,
                        receipt: Some(id.clone()),
                    };
                    (r.at, id, notice)
                })
            })
            .collect();
        owed.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
        owed.into_iter().map(|(_, _, n)| n).collect()
    }
}

/// What one channel needed.
enum Tended {
    Notice(Notice),
    Remind(Box<Due>),
    Nothing,
}

fn dedup(mut names: Vec<String>) -> Vec<String> {
    let mut seen = Vec::new();
    names.retain(|n| {
        let new = !seen.contains(n);
        seen.push(n.clone());
        new
    });
    names
}

impl Core {
    /// A reminder for `user` about `games` (at least one), where his settings send it.
    fn reminder(
        &self,
        platform: &str,
        user: &User,
        mut games: Vec<Due>,
        now: u64,
    ) -> Option<Notice> {
        if games.is_empty() {
            return None;
        }
        games.sort_by_key(|d| d.deadline);
        let profile = profile(self.base.as_ref(), platform, &user.id);
        let line = |d: &Due| {
            let title = d.record.game_id().map_or("a game", |g| g.title());
            let others: Vec<&str> = d
                .record
                .seats
                .iter()
                .filter_map(|s| s.player.as_ref())
                .filter(|p| p.id != user.id)
                .map(|p| p.name.as_str())
                .collect();
            format!(
                "{} left for your move in {} ({title} against {}) — the deadline is {}",
                duration(d.left),
                channel_link(platform, &d.record.channel),
                dedup(others.iter().map(|s| s.to_string()).collect()).join(", "),
                when(platform, d.deadline, now)
            )
        };
        let text = if games.len() == 1 {
            format!("{}.", line(&games[0]))
        } else {
            let lines: Vec<String> = games.iter().map(|d| format!("• {}", line(d))).collect();
            format!(
                "your move is due soon in {} games:\n{}",
                games.len(),
                lines.join("\n")
            )
        };
        let target = match profile.notify {
            Mode::Off => return None,
            Mode::Dm => Target::Direct(user.clone()),
            Mode::Mention => Target::Channel(games[0].key.channel.clone()),
        };
        let in_channel = Notice {
            platform: platform.to_string(),
            target: Target::Channel(games[0].key.channel.clone()),
            replies: vec![Reply::Mention {
                user: user.clone(),
                text: text.clone(),
            }],
            fallback: None,
            receipt: None,
        };
        Some(match target {
            Target::Direct(_) => Notice {
                platform: platform.to_string(),
                target,
                replies: vec![Reply::Text(format!(
                    "Reminder: {}",
                    words::capitalised(&text)
                ))],
                fallback: Some(Box::new(in_channel)),
                receipt: None,
            },
            Target::Channel(_) | Target::Open(_) => in_channel,
        })
    }
}

impl Core {
    /// The clocks of a timed game in a line, with the running clock's deadline and, when its
    /// player is on vacation, why it stands still.
    pub(super) fn clock_words(&self, record: &GameRecord, game: &AnyGame) -> Option<String> {
        let now = self.clock.now();
        let line = clocks_line(record, game, now)?;
        let mut text = format!("Clocks: {line}");
        if let Some(deadline) = record.deadline() {
            text.push_str(&format!(
                " — deadline {}",
                when(&record.platform, deadline, now)
            ));
        }
        if let Some((_, user)) = self.mover(record)
            && let Some(to) =
                profile(self.base.as_ref(), &record.platform, &user.id).away_until(now)
        {
            text.push_str(&format!(
                "; {} is on vacation until {}, so the clock stands still",
                user.name,
                when(&record.platform, to, now)
            ));
        }
        Some(text)
    }
}
