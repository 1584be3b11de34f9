//! Stand-ins of Discord for the suites: a REST API and a gateway on 127.0.0.1, and the
//! interactions Discord sends (built from complete fixtures in `tests/fixtures/discord`).
//!
//! The bot under test is pointed at [`StandIn::api_url`] (serenity's `HttpBuilder::proxy`, with
//! the ratelimiter disabled); `GET /api/v10/gateway` then sends its shards to the stand-in gateway.
//! Interactions go in with [`StandIn::dispatch`] (gateway) or [`StandIn::post_interaction`]
//! (the bot's HTTP interactions endpoint), and what the bot did comes back as the REST requests
//! it made ([`StandIn::requests`], [`StandIn::wait_for`]) and the messages those requests left
//! ([`StandIn::message`]), as Discord would show them.
//!
//! The gateway keeps sessions as Discord's does: READY's `resume_gateway_url` is a second
//! address ([`StandIn::resume_url`]), a session keeps its numbered dispatches while no
//! connection delivers them, and RESUME replays what it missed. A suite can make the gateway
//! misbehave as Discord's may ([`StandIn::reconnect`], [`StandIn::invalidate_session`],
//! [`StandIn::stall`], [`StandIn::reset`], [`StandIn::close_connection`],
//! [`StandIn::revoke_token`], [`StandIn::dispatch_twice`]) and read back every connection and
//! handshake ([`StandIn::gateway_connections`], [`StandIn::handshakes`]); it can hold the bot's
//! callbacks to keep interactions in flight ([`StandIn::hold_callbacks`]).
//!
//! The stand-in runs on its own thread and runtime, so a suite may block (wait for a child
//! process, say) without stalling it. Every wait has a timeout and panics with what was seen.
//! It refuses what Discord refuses (an empty or over-long message, too many buttons, a second
//! response, a followup before any response…) with Discord's codes, so a suite fails where
//! Discord would; it checks the slash commands registered as Discord does, too. The bot's own
//! messages (reminders, timeouts) land in channels it can see, or in the direct-message
//! channels it opens ([`StandIn::direct_channels`], [`StandIn::direct_messages`]); a suite can
//! make a user refuse DMs ([`StandIn::refuse_direct_messages`]) or Discord answer 429
//! ([`StandIn::throttle`]). [`bot`] runs `muster serve` against it, on the system's clock or on
//! a manual one that the suite moves ([`bot::start_at`], [`bot::Bot::advance`]).

pub mod bot;
mod fixtures;
mod gateway;
mod limits;
mod objects;
mod rest;
mod routes;
mod state;

use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

pub use fixtures::{
    OnMessage, Person, autocomplete, button, command, fixture, owner, ping, post_signed,
    post_with_signature, public_key_hex, sign,
};
pub use state::{Ending, GatewayConnection, Handshake, Listener, Outcome, Recorded, StoredMessage};

use state::{Interaction, State};

/// How long the stand-in suites wait for one step of a stand-in.
pub const STEP: Duration = Duration::from_secs(10);

/// `fut`, or a panic naming `what` after [`STEP`].
pub async fn within<T>(what: &str, fut: impl Future<Output = T>) -> T {
    tokio::time::timeout(STEP, fut)
        .await
        .unwrap_or_else(|_| panic!("timed out: {what}"))
}

/// What the server threads and the suite share.
pub(crate) struct Shared {
    state: Mutex<State>,
    /// Woken whenever a request is recorded or a gateway session changes.
    changed: tokio::sync::Notify,
}

impl Shared {
    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub(crate) fn notify(&self) {
        self.changed.notify_waiters();
    }
}

/// Discord's REST API and gateway, standing in on free 127.0.0.1 ports (the gateway on two: one
/// to start sessions, one to resume them).
pub struct StandIn {
    shared: Arc<Shared>,
    api_url: String,
    /// Dropping it stops the stand-in's thread.
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl StandIn {
    /// Starts a REST stand-in and a gateway stand-in on free 127.0.0.1 ports, for the
    /// application (and bot user) `application_id`.
    pub async fn start(application_id: u64) -> StandIn {
        let bind = || std::net::TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1:0");
        let (api, gateway, resume) = (bind(), bind(), bind());
        let port = |l: &std::net::TcpListener| l.local_addr().expect("local address").port();
        let api_url = format!("http://127.0.0.1:{}", port(&api));
        let gateway_url = format!("ws://127.0.0.1:{}", port(&gateway));
        let resume_url = format!("ws://127.0.0.1:{}", port(&resume));
        let shared = Arc::new(Shared {
            state: Mutex::new(State::new(application_id, gateway_url, resume_url)),
            changed: tokio::sync::Notify::new(),
        });
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let for_thread = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("discord-stand-in".into())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime for the stand-in");
                runtime.block_on(async move {
                    let listen = |l: std::net::TcpListener| {
                        l.set_nonblocking(true).expect("non-blocking listener");
                        tokio::net::TcpListener::from_std(l).expect("a listener")
                    };
                    let (api, gateway, resume) = (listen(api), listen(gateway), listen(resume));
                    let shared = &for_thread;
                    tokio::select! {
                        _ = stopped => {},
                        () = rest::serve(api, Arc::clone(shared)) => {},
                        () = gateway::serve(gateway, Listener::Main, Arc::clone(shared)) => {},
                        () = gateway::serve(resume, Listener::Resume, Arc::clone(shared)) => {},
                    }
                });
            })
            .expect("start the stand-in thread");
        StandIn {
            shared,
            api_url,
            _stop: stop,
        }
    }

    /// `http://127.0.0.1:PORT`: what the bot passes to serenity's `HttpBuilder::proxy`.
    pub fn api_url(&self) -> String {
        self.api_url.clone()
    }

    /// `ws://127.0.0.1:PORT`: the gateway, as `GET /api/v10/gateway` gives it.
    pub fn gateway_url(&self) -> String {
        self.shared.lock().gateway_url.clone()
    }

    /// The application (and bot user) id.
    pub fn application_id(&self) -> u64 {
        self.shared.lock().application_id
    }

    /// Every REST request so far, in order.
    pub fn requests(&self) -> Vec<Recorded> {
        self.shared.lock().requests.clone()
    }

    /// How many requests have been recorded so far: pass it to [`Self::wait_for_since`] to
    /// consider only later requests.
    pub fn mark(&self) -> usize {
        self.shared.lock().requests.len()
    }

    /// The first request matching `pred` that no earlier `wait_for` returned, waiting for it up to
    /// `timeout`; panics naming `what` and listing the requests seen.
    pub async fn wait_for(
        &self,
        what: &str,
        pred: impl Fn(&Recorded) -> bool,
        timeout: Duration,
    ) -> Recorded {
        self.wait_for_since(0, what, pred, timeout).await
    }

    /// As [`Self::wait_for`], among requests recorded at or after `mark` (see [`Self::mark`]).
    pub async fn wait_for_since(
        &self,
        mark: usize,
        what: &str,
        pred: impl Fn(&Recorded) -> bool,
        timeout: Duration,
    ) -> Recorded {
        let found = self
            .wait_until(timeout, |state| {
                let index = (mark..state.requests.len())
                    .find(|&i| !state.returned.contains(&i) && pred(&state.requests[i]))?;
                state.returned.insert(index);
                Some(state.requests[index].clone())
            })
            .await;
        found.unwrap_or_else(|| {
            panic!(
                "timed out after {timeout:?} waiting for {what} (requests from #{mark}); seen:\n{}",
                self.shared.lock().describe_requests()
            )
        })
    }

    /// Waits until a gateway client has IDENTIFYed and been sent READY, and the newest session
    /// still valid is delivered through an open connection.
    pub async fn wait_ready(&self, timeout: Duration) {
        let ready = self
            .wait_until(timeout, |state| state.live_connection().map(|_| ()))
            .await;
        if ready.is_none() {
            panic!(
                "timed out after {timeout:?} waiting for a gateway client to IDENTIFY; \
                 sessions so far: {}; requests seen:\n{}",
                self.connections(),
                self.shared.lock().describe_requests()
            );
        }
    }

    /// Waits until `count` gateway sessions in all have IDENTIFYed (a restarted bot makes a
    /// second) and the newest valid one is connected.
    pub async fn wait_connections(&self, count: usize, timeout: Duration) {
        let done = self
            .wait_until(timeout, |state| {
                (state.identified >= count && state.live_connection().is_some()).then_some(())
            })
            .await;
        if done.is_none() {
            panic!(
                "timed out after {timeout:?} waiting for {count} gateway sessions; got {}",
                self.connections()
            );
        }
    }

    /// How many gateway sessions have IDENTIFYed (and got READY) so far.
    pub fn connections(&self) -> usize {
        self.shared.lock().identified
    }

    /// The `d` of every IDENTIFY received, in order (token, intents, shard, ...).
    pub fn identifies(&self) -> Vec<serde_json::Value> {
        self.shared.lock().identifies.clone()
    }

    /// Sends `{"op":0,"t":"INTERACTION_CREATE","s":n,"d":interaction}` to the current gateway
    /// session (the newest still valid, waiting up to 10 s for one): through its connection,
    /// or kept for a RESUME if it has none or that one is stalled. The application id is set
    /// to the stand-in's, and the interaction is remembered (as by [`Self::expect_interaction`])
    /// so that its responses land in its channel.
    pub async fn dispatch(&self, interaction: serde_json::Value) {
        self.dispatch_times(interaction, 1).await;
    }

    /// Makes `channel` a text channel of the server `guild` (one no interaction came from yet,
    /// such as the channel games from another platform get their threads under).
    pub fn add_channel(&self, channel: &str, guild: &str) {
        self.shared
            .lock()
            .channel_guild
            .insert(channel.to_owned(), guild.to_owned());
    }

    /// Remembers an interaction delivered some other way (an HTTP POST to the bot's endpoint):
    /// its token is then valid for the callback and webhook routes, and its responses land in
    /// its channel.
    pub fn expect_interaction(&self, interaction: &serde_json::Value) {
        let mut state = self.shared.lock();
        let known = Interaction::from_json(interaction);
        if let Some(message) = interaction.get("message").filter(|m| m.is_object()) {
            state.adopt_message(message);
        }
        if let Some(guild) = &known.guild_id {
            state
                .channel_guild
                .insert(known.channel_id.clone(), guild.clone());
        }
        state.interactions.insert(known.token.clone(), known);
    }

    /// Posts `interaction` to the bot's HTTP interactions endpoint `endpoint`, signed with
    /// [`sign`] as Discord does (after [`Self::expect_interaction`], with the application id set
    /// to the stand-in's); returns the status and the body. An inline answer (a 200 whose body is
    /// an interaction response other than PONG, JSON or multipart) is taken as Discord takes it,
    /// as the interaction's callback: recorded as its `POST .../callback` with the query `inline`.
    pub async fn post_interaction(
        &self,
        endpoint: &str,
        mut interaction: serde_json::Value,
    ) -> (u16, String) {
        fixtures::retarget(&mut interaction, &self.application_id().to_string());
        self.expect_interaction(&interaction);
        let body = serde_json::to_vec(&interaction).expect("JSON");
        let timestamp = fixtures::timestamp_now();
        let signature = sign(&body, &timestamp);
        self.shared.lock().signatures.push(signature.clone());
        let (status, content_type, answer) =
            fixtures::post_raw(endpoint, &body, &signature, &timestamp).await;
        if status == 200 {
            rest::take_inline(&self.shared, &interaction, &content_type, &answer);
        }
        (status, String::from_utf8_lossy(&answer).into_owned())
    }

    /// Every signature the stand-in has put on an interaction posted to an endpoint.
    pub fn signatures(&self) -> Vec<String> {
        self.shared.lock().signatures.clone()
    }

    /// Holds every interaction callback (`POST /interactions/{id}/{token}/callback`) that
    /// arrives from now on unanswered, until [`Self::release_callbacks`]: the interaction is
    /// then in flight in the bot.
    pub fn hold_callbacks(&self) {
        self.shared.lock().hold_callbacks = true;
    }

    /// Answers the held callbacks, and the later ones at once.
    pub fn release_callbacks(&self) {
        self.shared.lock().hold_callbacks = false;
        self.shared.notify();
    }

    /// Waits up to `timeout` until `count` callbacks are held.
    pub async fn wait_held_callbacks(&self, count: usize, timeout: Duration) {
        let held = self
            .wait_until(timeout, |state| (state.held >= count).then_some(()))
            .await;
        if held.is_none() {
            panic!(
                "timed out after {timeout:?} waiting for {count} held callbacks; requests seen:\n{}",
                self.shared.lock().describe_requests()
            );
        }
    }

    /// A message created by an interaction response, a followup or a channel message, as it is
    /// now.
    pub fn message(&self, id: &str) -> Option<StoredMessage> {
        let state = self.shared.lock();
        state.find_message(id).map(|m| state.snapshot(m))
    }

    /// Every message that exists now, oldest first.
    pub fn messages(&self) -> Vec<StoredMessage> {
        let state = self.shared.lock();
        state.messages.iter().map(|m| state.snapshot(m)).collect()
    }

    /// The original response of the interaction with `token` (also for a deferred update, the
    /// message its component was on), as it is now.
    pub fn original(&self, token: &str) -> Option<StoredMessage> {
        let state = self.shared.lock();
        let id = state.interactions.get(token)?.original.clone()?;
        state.find_message(&id).map(|m| state.snapshot(m))
    }

    /// The thread channels created so far, as returned to the bot.
    pub fn threads(&self) -> Vec<serde_json::Value> {
        self.shared.lock().threads.clone()
    }

    /// Archives every thread, as Discord does when a thread's auto-archive time passes without
    /// a message: it leaves the server's active threads, is listed among its parent's archived
    /// ones, and a message posted in it brings it back.
    pub fn archive_threads(&self) {
        let now = objects::now();
        for t in &mut self.shared.lock().threads {
            t["thread_metadata"]["archived"] = true.into();
            t["thread_metadata"]["archive_timestamp"] = now.clone().into();
        }
    }

    /// The direct-message channels the bot opened (`POST /users/@me/channels`): recipient id
    /// and channel id, in the order they were first opened.
    pub fn direct_channels(&self) -> Vec<(String, String)> {
        self.shared.lock().dm_channels.clone()
    }

    /// The messages in the bot's direct-message channel with `person`, oldest first (none if
    /// it never opened one).
    pub fn direct_messages(&self, person: &Person) -> Vec<StoredMessage> {
        let state = self.shared.lock();
        let Some((_, channel)) = state.dm_channels.iter().find(|(r, _)| *r == person.id) else {
            return Vec::new();
        };
        state
            .messages
            .iter()
            .filter(|m| &m.channel_id == channel)
            .map(|m| state.snapshot(m))
            .collect()
    }

    /// Waits up to `timeout` for a message matching `pred` (among all that exist now or
    /// later), and returns it; panics naming `what` and listing the requests seen.
    pub async fn wait_message(
        &self,
        what: &str,
        pred: impl Fn(&StoredMessage) -> bool,
        timeout: Duration,
    ) -> StoredMessage {
        let found = self
            .wait_until(timeout, |state| {
                state
                    .messages
                    .iter()
                    .map(|m| state.snapshot(m))
                    .find(|m| pred(m))
            })
            .await;
        found.unwrap_or_else(|| {
            panic!(
                "timed out after {timeout:?} waiting for {what}; requests seen:\n{}",
                self.shared.lock().describe_requests()
            )
        })
    }

    /// Makes `person` accept no direct message from the bot: messages in his DM channel are
    /// refused as Discord refuses them (403, code 50007).
    pub fn refuse_direct_messages(&self, person: &Person) {
        self.shared.lock().dm_refused.insert(person.id.clone());
    }

    /// Refuses the next `times` requests `method` on a path ending with `suffix` with 429
    /// (too many requests), as Discord does when a rate limit is hit.
    pub fn throttle(&self, method: &str, suffix: &str, times: usize) {
        self.shared
            .lock()
            .throttled
            .push((method.to_owned(), suffix.to_owned(), times));
    }

    /// Runs `check` on the state whenever it changes, until it gives a value or `timeout` passes.
    async fn wait_until<T>(
        &self,
        timeout: Duration,
        mut check: impl FnMut(&mut State) -> Option<T>,
    ) -> Option<T> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let changed = self.shared.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            if let Some(found) = check(&mut self.shared.lock()) {
                return Some(found);
            }
            // A short poll as well, in case a change slipped between the check and the wait.
            let next = (tokio::time::Instant::now() + Duration::from_millis(200)).min(deadline);
            if tokio::time::timeout_at(next, changed).await.is_err()
                && tokio::time::Instant::now() >= deadline
            {
                return check(&mut self.shared.lock());
            }
        }
    }
}
