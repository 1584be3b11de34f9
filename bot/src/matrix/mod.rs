//! The Matrix adapter, on matrix-sdk. The bot is one device of one account: its session and
//! its encryption keys live in the data directory (`matrix/`), so a restart is the same
//! device and can read the rooms' encrypted history it was sent keys for.
//!
//! Every sync is handled in full before the next one starts, and the sync token is stored
//! (in the game store, beside the games) only after its batch is handled, so a restart
//! repeats at most the last batch. A per-room cursor ([`inbound`]) makes every command run
//! once even then. Commands are the core's text commands after the room's prefix, or a move
//! written on its own ([`crate::core::Core::command_in`]); replies are mapped to Matrix
//! messages in [`outbound`].

pub mod inbound;
pub mod outbound;
mod session;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use matrix_sdk::Client;
use matrix_sdk::config::{SyncSettings, SyncToken};
use matrix_sdk::ruma::api::client::filter::{FilterDefinition, RoomEventFilter, RoomFilter};
use matrix_sdk::ruma::api::client::sync::sync_events::v3::Filter;
use matrix_sdk::ruma::presence::PresenceState;
use matrix_sdk::sync::SyncResponse;
use muster_config::Matrix;

use crate::core::Core;
use crate::store::{ChannelKey, GameStore};

/// The platform name in requests and the store.
pub const PLATFORM: &str = "matrix";

/// The note (on the adapter's own key) holding the sync token of the last handled batch.
const SYNC_NOTE: &str = "matrix.sync";

/// How many timeline events a sync brings per room: enough that commands sent while the bot
/// was down are all seen when it comes back.
const TIMELINE_LIMIT: u32 = 200;

/// How long one sync waits for news.
const LONG_POLL: Duration = Duration::from_secs(30);

/// What the adapter's tasks share.
pub struct Shared {
    /// The client, logged in.
    pub client: Client,
    /// The settings.
    pub settings: Matrix,
    /// One core per prefix in use (the adapter's and the rooms' own).
    cores: HashMap<String, Arc<Core>>,
    /// The adapter's prefix.
    prefix: String,
    /// Per-user command budgets.
    pub limiter: Mutex<inbound::Limiter>,
    /// Media addresses reserved ahead, so a board's upload runs beside its message.
    pub media: outbound::MediaPool,
}

impl Shared {
    /// The core answering in `room` (its prefix may be the room's own).
    pub fn core(&self, room: &str) -> &Arc<Core> {
        let prefix = self
            .settings
            .rooms
            .get(room)
            .and_then(|r| r.prefix.as_deref())
            .unwrap_or(&self.prefix);
        &self.cores[prefix]
    }

    /// The store shared by the cores.
    pub fn store(&self) -> &dyn GameStore {
        self.cores[&self.prefix].store()
    }
}

/// The key under which the adapter keeps its own notes.
fn own_key() -> ChannelKey {
    ChannelKey::new(PLATFORM, "")
}

fn sync_settings(token: Option<String>) -> SyncSettings {
    let mut timeline = RoomEventFilter::default();
    timeline.limit = Some(TIMELINE_LIMIT.into());
    let mut room = RoomFilter::default();
    room.timeline = timeline;
    room.state.lazy_load_options =
        matrix_sdk::ruma::api::client::filter::LazyLoadOptions::Enabled {
            include_redundant_members: false,
        };
    let mut filter = FilterDefinition::default();
    filter.room = room;
    filter.presence = matrix_sdk::ruma::api::client::filter::Filter::ignore_all();
    let settings = SyncSettings::new()
        .filter(Filter::FilterDefinition(filter))
        .set_presence(PresenceState::Online)
        .timeout(LONG_POLL);
    match token {
        Some(t) => settings.token(SyncToken::Specific(t)),
        None => settings.token(SyncToken::NoToken),
    }
}

/// Runs the Matrix adapter until it fails or the process is asked to stop.
pub async fn serve(
    store: Arc<dyn GameStore>,
    data_dir: &std::path::Path,
    prefix: &str,
    settings: Matrix,
) -> Result<(), String> {
    let client = session::connect(&settings, &data_dir.join("matrix")).await?;
    let prefix = settings
        .prefix
        .clone()
        .unwrap_or_else(|| prefix.to_string());
    let base = Core::new(store, &prefix);
    let mut cores = HashMap::new();
    for p in settings
        .rooms
        .values()
        .filter_map(|r| r.prefix.clone())
        .chain([prefix.clone()])
    {
        cores.insert(p.clone(), Arc::new(base.with_prefix(&p)));
    }
    let shared = Arc::new(Shared {
        media: outbound::MediaPool::new(client.clone()),
        limiter: Mutex::new(inbound::Limiter::new(
            settings.rate_per_minute,
            settings.rate_burst,
        )),
        client,
        settings,
        cores,
        prefix,
    });
    shared.media.refill();
    run(shared).await
}

/// The sync loop.
async fn run(shared: Arc<Shared>) -> Result<(), String> {
    let mut token = shared
        .store()
        .note(&own_key(), SYNC_NOTE)
        .map_err(|e| format!("cannot read the sync position: {e}"))?;
    let who = shared
        .client
        .user_id()
        .map(|u| u.to_string())
        .unwrap_or_default();
    if token.is_none() {
        // The first start: one sync to learn where the rooms are; their history is never
        // answered, but invitations waiting for the bot are.
        let response = sync_retrying(&shared.client, None).await;
        inbound::invitations(&shared, &response).await;
        save_token(&shared, &response.next_batch)?;
        token = Some(response.next_batch);
    }
    eprintln!("muster: Matrix: listening as {who}");
    let mut stop = std::pin::pin!(shutdown());
    loop {
        let response = tokio::select! {
            r = sync_retrying(&shared.client, token.clone()) => r,
            () = &mut stop => {
                eprintln!("muster: Matrix: stopping");
                return Ok(());
            }
        };
        inbound::invitations(&shared, &response).await;
        inbound::rooms(&shared, &response).await;
        save_token(&shared, &response.next_batch)?;
        token = Some(response.next_batch);
    }
}

fn save_token(shared: &Shared, token: &str) -> Result<(), String> {
    shared
        .store()
        .set_note(&own_key(), SYNC_NOTE, Some(token))
        .map_err(|e| format!("cannot store the sync position: {e}"))
}

/// One sync, retried (with a growing pause, at most 10 s) until the homeserver answers.
async fn sync_retrying(client: &Client, token: Option<String>) -> SyncResponse {
    let mut pause = Duration::from_millis(250);
    loop {
        match client.sync_once(sync_settings(token.clone())).await {
            Ok(r) => return r,
            Err(e) => {
                eprintln!(
                    "muster: Matrix: the homeserver did not answer the sync ({e}); trying again in {} ms",
                    pause.as_millis()
                );
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(10));
            }
        }
    }
}

/// Completes when the process is asked to stop (Ctrl-C or SIGTERM).
pub async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
