//! The core's context: the handles every capability works with — the store (a request's staged
//! view while it is decided, and the real one), the clock, the outbox and agenda, the bot's
//! queue, the command prefix and the platforms' surfaces. The front desk (`desk::Core`) is made
//! once by the command line over one context, shared by every adapter; each request works on a
//! scratch copy over its own staged store ([`Context::staged_over`]). Capabilities are handed
//! the context, never the desk.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::time::{Duration, Instant};

use super::clock::{Clock, SystemClock};
use super::community::Communities;
use super::outbox::{Notice, TimePolicy, Timers};
use super::pages::{self, Page};
use super::store::{ChannelKey, GameRecord, GameStore, Staged};
use super::surface::{Both, Plain, Surface};
use crate::kernel::replayable::Replayable;

/// What every capability works with: the stores, the clock, the outbox and agenda, the bot's
/// queue, the prefix, the surfaces, the communities and the web's address.
pub struct Context {
    /// The store commands work on (a request's staged view while it is decided).
    pub(crate) store: Arc<dyn GameStore>,
    /// The real store, for what is written outside a request's one change (timeouts fired by
    /// the scheduler, settings, vacations, events).
    pub(crate) base: Arc<dyn GameStore>,
    /// The prefix of text commands (`!`).
    pub(crate) prefix: String,
    pub(crate) clock: Arc<dyn Clock>,
    /// The outbox and the agenda.
    pub(crate) timers: Arc<Timers>,
    /// Channels where the bot may have a decision to make.
    pub(crate) bots: Arc<BotQueue>,
    /// The platforms' surfaces, by platform name.
    surfaces: Arc<RwLock<HashMap<String, Arc<dyn Surface>>>>,
    /// The communities across platforms the settings declare.
    communities: Arc<RwLock<Arc<Communities>>>,
    /// The web pages' address (`[web] base_url`), while they are served.
    web: Arc<RwLock<Option<String>>>,
    /// The request's staged store, on a request's scratch core.
    pub(crate) staged: Option<Arc<Staged>>,
}

impl Context {
    /// A core over `store`, with `prefix` for text commands (`!`), on the system's clock.
    pub(crate) fn new(store: Arc<dyn GameStore>, prefix: &str) -> Context {
        Context::with_clock(store, prefix, Arc::new(SystemClock))
    }

    /// A core over `store`, with `prefix` for text commands, reading the time from `clock`.
    pub(crate) fn with_clock(
        store: Arc<dyn GameStore>,
        prefix: &str,
        clock: Arc<dyn Clock>,
    ) -> Context {
        Context {
            base: Arc::clone(&store),
            store,
            prefix: prefix.to_string(),
            clock,
            timers: Arc::new(Timers::default()),
            bots: Arc::new(BotQueue::default()),
            surfaces: Arc::default(),
            communities: Arc::default(),
            web: Arc::default(),
            staged: None,
        }
    }

    /// This core keeping time by `policy` (default controls, vacation allowance).
    pub(crate) fn with_time_policy(self, policy: TimePolicy) -> Context {
        Context {
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

    /// A core like this one with another command prefix (a room's own).
    pub(crate) fn with_prefix(&self, prefix: &str) -> Context {
        Context {
            store: Arc::clone(&self.store),
            base: Arc::clone(&self.base),
            prefix: prefix.to_string(),
            clock: Arc::clone(&self.clock),
            timers: Arc::clone(&self.timers),
            bots: Arc::clone(&self.bots),
            surfaces: Arc::clone(&self.surfaces),
            communities: Arc::clone(&self.communities),
            web: Arc::clone(&self.web),
            staged: None,
        }
    }

    /// A scratch copy of this core for one request, working over `staged`.
    pub(crate) fn staged_over(&self, staged: &Arc<Staged>) -> Context {
        Context {
            store: Arc::clone(staged) as Arc<dyn GameStore>,
            base: Arc::clone(&self.base),
            prefix: self.prefix.clone(),
            clock: Arc::clone(&self.clock),
            timers: Arc::clone(&self.timers),
            bots: Arc::clone(&self.bots),
            surfaces: Arc::clone(&self.surfaces),
            communities: Arc::clone(&self.communities),
            web: Arc::clone(&self.web),
            staged: Some(Arc::clone(staged)),
        }
    }

    /// The game `record` plays to: the one this request's staged store keeps for it (a bare
    /// move's channel was read and played to find the move), else the record replayed.
    pub(crate) fn replayed(
        &self,
        record: &GameRecord,
    ) -> Result<muster_rules::AnyGame, crate::kernel::replayable::ReplayError> {
        match self.staged.as_ref().and_then(|s| s.played(record)) {
            Some(game) => Ok(game),
            None => record.rebuild(),
        }
    }

    /// Gives the core `surface`, for the platform it names (replacing one given before): every
    /// core made from this one shares it.
    pub fn add_surface(&self, surface: Arc<dyn Surface>) {
        let mut surfaces = self.surfaces.write().unwrap_or_else(|p| p.into_inner());
        surfaces.insert(surface.platform().to_string(), surface);
    }

    /// This core with `surface` (see [`Context::add_surface`]).
    pub(crate) fn with_surface(self, surface: Arc<dyn Surface>) -> Context {
        self.add_surface(surface);
        self
    }

    /// Gives the core the communities across platforms (replacing those given before): every
    /// core made from this one shares them.
    pub fn set_communities(&self, communities: Communities) {
        let mut held = self.communities.write().unwrap_or_else(|p| p.into_inner());
        *held = Arc::new(communities);
    }

    /// The communities across platforms.
    pub fn communities(&self) -> Arc<Communities> {
        let held = self.communities.read().unwrap_or_else(|p| p.into_inner());
        Arc::clone(&held)
    }

    /// Serves the web pages at `base_url` (`None`: no pages, no links); every core made from
    /// this one shares it.
    pub fn set_web(&self, base_url: Option<String>) {
        let mut held = self.web.write().unwrap_or_else(|p| p.into_inner());
        *held = base_url;
    }

    /// The web pages' address, while they are served.
    pub fn web_base(&self) -> Option<String> {
        self.web.read().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// What the place (`channel` of `platform`'s `community`) shows on the web: its
    /// community's setting, `links` for a place outside every community.
    pub fn visibility(
        &self,
        platform: &str,
        community: &str,
        channel: &str,
    ) -> muster_config::Visibility {
        self.communities()
            .of(platform, community, channel)
            .map_or_else(Default::default, |c| c.web)
    }

    /// The address of `page`, linked from `channel` of `platform`'s `community`: `None` while
    /// the web is not served or the place's community keeps off it. The page's token is made
    /// the first time; a store that cannot keep it is logged and the link left out.
    pub fn page_link(
        &self,
        page: &Page,
        (platform, community, channel): (&str, &str, &str),
    ) -> Option<String> {
        let base = self.web_base()?;
        if self.visibility(platform, community, channel) == muster_config::Visibility::Off {
            return None;
        }
        match pages::token_for(self.base.as_ref(), page) {
            Ok(token) => Some(format!("{base}/{}/{token}", page.path())),
            Err(e) => {
                tracing::warn!(page = ?page, "a page's link could not be made: {e}; it is left out");
                None
            }
        }
    }

    /// The link to `record`'s page, as a reply (while the web is served and its place shows
    /// pages).
    pub fn game_link(&self, record: &GameRecord) -> Option<super::reply::Reply> {
        let page = Page::Game {
            id: record.id.clone(),
            platform: record.platform.clone(),
            channel: record.channel.clone(),
        };
        let community = record.community.as_deref().unwrap_or_default();
        let url = self.page_link(&page, (&record.platform, community, &record.channel))?;
        Some(super::reply::Reply::Link {
            kind: super::reply::LinkKind::Watch,
            url,
        })
    }

    /// How `platform` shows what the core says: its adapter's surface, or the plain one.
    pub fn surface(&self, platform: &str) -> Arc<dyn Surface> {
        let surfaces = self.surfaces.read().unwrap_or_else(|p| p.into_inner());
        surfaces
            .get(platform)
            .cloned()
            .unwrap_or_else(|| Arc::new(Plain(platform.to_string())))
    }

    /// How times and files are worded for `record`: its platform's surface, or for a game
    /// played in two places the plain way, read alike in both, with the smaller of their file
    /// limits.
    pub fn surface_of(&self, record: &GameRecord) -> Arc<dyn Surface> {
        let home = self.surface(&record.platform);
        match &record.away {
            None => home,
            Some(away) => Arc::new(Both {
                platform: record.platform.clone(),
                limit: home
                    .upload_limit()
                    .min(self.surface(&away.platform).upload_limit()),
            }),
        }
    }

    /// The platforms that have a surface.
    pub fn surfaces(&self) -> Vec<Arc<dyn Surface>> {
        let surfaces = self.surfaces.read().unwrap_or_else(|p| p.into_inner());
        surfaces.values().cloned().collect()
    }

    /// Seconds since the Unix epoch, by the core's clock.
    pub fn now(&self) -> u64 {
        self.clock.now()
    }

    /// The prefix players type in `channel` (the settings' for its platform, else this core's).
    pub fn prefix_in(&self, platform: &str, channel: &str) -> String {
        self.timers
            .policy
            .prefix_for(platform, channel)
            .unwrap_or(&self.prefix)
            .to_string()
    }

    /// The outbox and agenda (and their wake-ups), shared by every core made from this one.
    pub fn timers(&self) -> &Timers {
        &self.timers
    }

    /// Takes the notices waiting for `platform`.
    pub fn notices(&self, platform: &str) -> Vec<Notice> {
        self.timers.take(platform)
    }

    /// Whether the channel `key`'s bot decision is waiting (the queue is shared).
    pub(crate) fn queue_bot(&self, key: ChannelKey) {
        self.bots.push(key);
    }
}

/// The channels where the bot may have a decision to make, oldest first; and those to look at
/// again later (the store could not be read), each with when.
#[derive(Default)]
pub struct BotQueue {
    pub(crate) due: Mutex<VecDeque<ChannelKey>>,
    later: Mutex<Vec<(Instant, ChannelKey)>>,
    wake: Condvar,
}

impl BotQueue {
    /// Queues `key` (once).
    pub fn push(&self, key: ChannelKey) {
        let mut due = self.due.lock().unwrap_or_else(|p| p.into_inner());
        if !due.contains(&key) {
            due.push_back(key);
        }
        self.wake.notify_one();
    }

    /// Queues `key` again after `wait`.
    pub fn push_later(&self, key: ChannelKey, wait: Duration) {
        let mut later = self.later.lock().unwrap_or_else(|p| p.into_inner());
        later.push((Instant::now() + wait, key));
    }

    /// Moves what is due of the later channels to the queue.
    fn promote(&self) {
        let now = Instant::now();
        let ready: Vec<ChannelKey> = {
            let mut later = self.later.lock().unwrap_or_else(|p| p.into_inner());
            let (ready, rest) = later.drain(..).partition(|(at, _)| *at <= now);
            *later = rest;
            ready.into_iter().map(|(_, key)| key).collect()
        };
        for key in ready {
            self.push(key);
        }
    }

    /// The oldest queued channel.
    pub fn pop(&self) -> Option<ChannelKey> {
        self.promote();
        self.due
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .pop_front()
    }

    /// Waits for a channel (at most `patience`).
    pub fn wait(&self, patience: Duration) -> Option<ChannelKey> {
        self.promote();
        let due = self.due.lock().unwrap_or_else(|p| p.into_inner());
        let (mut due, _) = self
            .wake
            .wait_timeout_while(due, patience, |d| d.is_empty())
            .unwrap_or_else(|p| p.into_inner());
        due.pop_front()
    }
}
