//! What the core says when no command asked: [`Notice`]s left in an outbox for each platform's
//! adapter to post (timeouts, reminders, the bot's moves, an event's rounds), and the agenda of
//! due moments that the scheduler watches ([`Timers`]). Also how time is kept, from the settings
//! ([`TimePolicy`]).

use std::collections::HashMap;
use std::sync::Mutex;

use super::clock::agenda::Agenda;
use super::clock::control::Control;
use super::reply::Reply;
use super::request::User;
use super::store::ChannelKey;
use super::surface::Opening;

/// Where a message goes that no command asked for.
#[derive(Clone, PartialEq, Debug)]
pub enum Target {
    /// A channel (or room) on the platform.
    Channel(String),
    /// A user, directly (a direct message, a direct room, the console's own line).
    Direct(User),
    /// Not a message: a tournament board needs a place (a thread, a room, a console channel);
    /// the adapter opens it and answers with the desk's `place_opened`.
    Open(Box<Opening>),
}

/// A message no command asked for: a timeout, a reminder, a vacation's announcement.
#[derive(Clone, PartialEq, Debug)]
pub struct Notice {
    /// The platform, as its adapter names it.
    pub platform: String,
    /// Where it goes.
    pub target: Target,
    /// What it says.
    pub replies: Vec<Reply>,
    /// What to post instead if it cannot be delivered directly (a player who takes no direct
    /// messages is reminded in the game's channel).
    pub fallback: Option<Box<Notice>>,
    /// The id of the receipt the notice is kept under until it is sent (see
    /// the desk's `notice_sent`): a timeout's announcement is stored with the game's end, so that
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
    /// The command prefix players type there (`/` for slash commands), for messages no command asked
    /// for; `None` for the core's own.
    pub prefix: Option<String>,
    /// Channels with a prefix of their own (a room's).
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
    pub(crate) policy: TimePolicy,
    /// The platforms whose due moments this instance sees to (`None`: all). Beside other
    /// instances on one store, each fires only what it can announce.
    fired: Mutex<Option<std::collections::HashSet<String>>>,
    /// Channels whose due moment could not be seen to, with how many times in a row.
    failures: Mutex<HashMap<ChannelKey, u32>>,
}

impl Timers {
    /// Timers under `policy`.
    pub fn new(policy: TimePolicy) -> Timers {
        Timers {
            policy,
            ..Timers::default()
        }
    }

    /// The agenda, locked.
    pub(crate) fn agenda(&self) -> std::sync::MutexGuard<'_, Agenda> {
        self.agenda.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Sets `key`'s next due moment (and the hint of the player it concerns), or with `None`
    /// takes it off the agenda; wakes the scheduler when the earliest moment comes forward.
    pub(crate) fn set(&self, key: &ChannelKey, due: Option<(u64, u32)>) {
        if self.agenda().set(key, due) {
            self.changed.notify_one();
        }
    }

    /// Takes off the agenda every channel due by `now`, earliest first.
    pub(crate) fn take_due(&self, now: u64) -> Vec<(u64, ChannelKey)> {
        self.agenda().take_due(now)
    }

    /// Counts a failure to see to `key`'s due moment: how many came before it in a row.
    pub(crate) fn failed(&self, key: &ChannelKey) -> u32 {
        let mut failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        let n = failures.entry(key.clone()).or_default();
        *n += 1;
        *n - 1
    }

    /// `key`'s due moment was seen to: its failures are forgotten.
    pub(crate) fn succeeded(&self, key: &ChannelKey) {
        let mut failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        if !failures.is_empty() {
            failures.remove(key);
        }
    }

    /// Leaves `notice` in the outbox (an adapter telling of something it could not do).
    pub fn post_notice(&self, notice: Notice) {
        self.post(notice);
    }

    pub(crate) fn post(&self, notice: Notice) {
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
