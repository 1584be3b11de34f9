//! The Matrix adapter at work: the sync loop (one syncer at a time beside other instances, by a
//! lease in the store), each batch's events handed to the inbound path, what is owed sent after
//! each sync, and the notices' task beside it.

use std::collections::{HashMap, HashSet};
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use matrix_sdk::Client;
use matrix_sdk::config::{SyncSettings, SyncToken};
use matrix_sdk::ruma::api::client::filter::{FilterDefinition, RoomEventFilter, RoomFilter};
use matrix_sdk::ruma::api::client::sync::sync_events::v3::Filter;
use matrix_sdk::ruma::presence::PresenceState;
use matrix_sdk::sync::SyncResponse;
use muster_config::Matrix;

use super::limit::Limiter;
use super::media::MediaPool;
use super::shared::Shared;
use super::{PLATFORM, inbound, notices, outbound, own_key, session, surface, trust};
use muster_core::desk::Core;
use muster_core::kernel::store::GameStore;

/// The note (on the adapter's own key) holding the sync token of the last batch kept.
const SYNC_NOTE: &str = "matrix.sync";

/// The note (on the adapter's own key) holding the batch being handled.
const INBOX_NOTE: &str = "matrix.inbox";

/// How long a finished receipt is kept, in seconds: far longer than a batch can come again.
const RECEIPTS_KEPT: u64 = 2 * 24 * 3600;

/// How many timeline events a sync brings per room: enough that commands sent while the bot
/// was down are all seen when it comes back.
const TIMELINE_LIMIT: u32 = 200;

/// How long one sync waits for news.
const LONG_POLL: Duration = Duration::from_secs(30);

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
/// The adapter's future is boxed here, in its own crate, so that the binary awaiting it compiles
/// none of the adapter's code again (docs/performance.md, "Building").
pub fn serve<'a>(
    core: Arc<Core>,
    data_dir: &'a std::path::Path,
    settings: Matrix,
) -> Pin<Box<dyn Future<Output = Result<(), String>> + Send + 'a>> {
    Box::pin(serving(core, data_dir, settings))
}

/// What [`serve`] boxes.
async fn serving(
    core: Arc<Core>,
    data_dir: &std::path::Path,
    settings: Matrix,
) -> Result<(), String> {
    super::noise::quiet_the_noise();
    let dir = data_dir.join("matrix");
    let client = session::connect(&settings, &dir).await?;
    let prefix = settings
        .prefix
        .clone()
        .unwrap_or_else(|| core.prefix().to_string());
    core.add_surface(Arc::new(surface::MatrixSurface::serving(
        client.clone(),
        tokio::runtime::Handle::current(),
    )));
    let base = core.with_prefix(&prefix);
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
        media: MediaPool::default(),
        owed_later: std::sync::atomic::AtomicBool::new(false),
        sending: Mutex::new(HashSet::new()),
        direct: tokio::sync::Mutex::new(()),
        trusted: std::sync::atomic::AtomicU64::new(u64::MAX),
        dir,
        secured: std::sync::atomic::AtomicBool::new(false),
        limiter: Mutex::new(Limiter::new(settings.rate_per_minute, settings.rate_burst)),
        client,
        settings,
        cores,
        prefix,
    });
    if shared.store().shared() {
        return serve_shared(shared).await;
    }
    sync(shared, None).await.map(|_| ())
}

/// The lease (a note on the adapter's own key) held by the one instance that syncs, when
/// several share a store.
const SYNC_LEASE: &str = "matrix.syncer";

/// How long a taking or renewal of [`SYNC_LEASE`] lasts, in seconds: another instance takes
/// over this long after the syncer stopped renewing (at most).
const LEASE_TTL: u64 = 10;

/// How often the syncer renews its lease, and a standby instance looks whether it is free.
const LEASE_EVERY: Duration = Duration::from_secs(2);

/// The syncer's hold on [`SYNC_LEASE`] (how long it may be counted on is the adapter's
/// [`Shared::holds_lease`]).
struct Holding {
    shared: Arc<Shared>,
    lease: muster_core::kernel::store::lease::Lease,
    /// Woken when the lease is lost.
    lost: tokio::sync::Notify,
}

impl Holding {
    fn held(&self) -> bool {
        self.shared.holds_lease()
    }

    fn trust(&self, until: u64) {
        self.shared
            .trusted
            .store(until, std::sync::atomic::Ordering::SeqCst);
    }

    /// Returns once the lease is lost.
    async fn lost(&self) {
        loop {
            let lost = self.lost.notified();
            if !self.held() {
                return;
            }
            let _ = tokio::time::timeout(LEASE_EVERY, lost).await;
        }
    }

    /// Renews the lease every [`LEASE_EVERY`] for as long as it is held.
    async fn renew(self: Arc<Self>, store: Arc<dyn GameStore>) {
        loop {
            tokio::time::sleep(LEASE_EVERY).await;
            let now =
                muster_core::kernel::clock::Clock::now(&muster_core::kernel::clock::SystemClock);
            let taken = {
                let (store, lease) = (Arc::clone(&store), self.lease.clone());
                tokio::task::spawn_blocking(move || lease.take(&*store, now)).await
            };
            match taken {
                Ok(Ok(Some(until))) => {
                    self.trust(muster_core::kernel::store::lease::Lease::trusted_until(
                        until,
                    ));
                }
                other => {
                    let why = match other {
                        Ok(Ok(_)) => "another instance holds it".to_string(),
                        Ok(Err(e)) => e.to_string(),
                        Err(e) => e.to_string(),
                    };
                    tracing::warn!("the Matrix sync lease could not be renewed ({why})");
                    self.trust(0);
                    self.lost.notify_waiters();
                    return;
                }
            }
        }
    }
}

/// How a turn as the syncer ended.
enum Ended {
    /// The process is stopping.
    Stopped,
    /// The lease was lost: another instance syncs now.
    Lost,
}

/// With several instances on one store: waits (standing by) until this instance holds the
/// sync lease, syncs while it holds it, and stands by again if it loses it. Meanwhile the
/// Matrix games' reminders and timeouts are left to the syncer, which announces them.
async fn serve_shared(shared: Arc<Shared>) -> Result<(), String> {
    let name = muster_core::kernel::store::lease::instance_name();
    let lease =
        muster_core::kernel::store::lease::Lease::new(own_key(), SYNC_LEASE, name, LEASE_TTL);
    let base = Arc::clone(shared.base());
    let store = Arc::clone(base.store_arc());
    base.timers().fire_for(PLATFORM, false);
    shared.trusted.store(0, std::sync::atomic::Ordering::SeqCst);
    let mut stop = std::pin::pin!(muster_core::signals::shutdown());
    let mut said = false;
    loop {
        let now = muster_core::kernel::clock::Clock::now(&muster_core::kernel::clock::SystemClock);
        let taken = {
            let (store, lease) = (Arc::clone(&store), lease.clone());
            tokio::task::spawn_blocking(move || lease.take(&*store, now))
                .await
                .map_err(|e| e.to_string())?
        };
        let until = match taken {
            Ok(Some(until)) => until,
            Ok(None) | Err(_) => {
                if !said {
                    said = true;
                    let holder = lease.holder(&*store, now).ok().flatten();
                    let who = holder.map_or("another instance".into(), |h| h.holder);
                    tracing::info!("standing by: {who} syncs Matrix");
                    muster_core::telemetry::health::ready("matrix");
                }
                tokio::select! {
                    () = tokio::time::sleep(LEASE_EVERY) => continue,
                    () = &mut stop => return Ok(()),
                }
            }
        };
        said = false;
        tracing::info!("this instance syncs Matrix now ({name})");
        let holding = Arc::new(Holding {
            shared: Arc::clone(&shared),
            lease: lease.clone(),
            lost: tokio::sync::Notify::new(),
        });
        holding.trust(muster_core::kernel::store::lease::Lease::trusted_until(
            until,
        ));
        let renewing = tokio::spawn(Arc::clone(&holding).renew(Arc::clone(&store)));
        base.timers().fire_for(PLATFORM, true);
        {
            // The Matrix games' due moments, as the store has them now.
            let base = Arc::clone(&base);
            let _ = tokio::task::spawn_blocking(move || base.load_agenda()).await;
        }
        let ended = sync(Arc::clone(&shared), Some(Arc::clone(&holding))).await;
        renewing.abort();
        holding.trust(0);
        base.timers().fire_for(PLATFORM, false);
        match ended {
            Ok(Ended::Lost) => {
                tracing::warn!("this instance no longer holds the Matrix sync lease; standing by");
            }
            other => {
                let _ = lease.release(&*store);
                return other.map(|_| ());
            }
        }
    }
}

/// How often the homeserver is asked whether it answers at all while a sync is pending.
const PROBE: Duration = Duration::from_secs(10);

/// `sync` (pending for as long as the long poll, or as matrix-sdk retries a sync that fails,
/// which it does for as long as it fails), while the homeserver is asked every [`PROBE`] for
/// its versions, once and briefly: readiness (`/readyz`) follows the answers.
async fn watched<T>(
    client: &Client,
    sync: impl Future<Output = Result<T, matrix_sdk::Error>>,
) -> Result<T, matrix_sdk::Error> {
    use matrix_sdk::ruma::api::client::discovery::get_supported_versions;
    let mut sync = std::pin::pin!(sync);
    let mut next = tokio::time::Instant::now() + PROBE;
    loop {
        tokio::select! {
            r = &mut sync => return r,
            () = tokio::time::sleep_until(next) => {
                next += PROBE;
                let once = matrix_sdk::config::RequestConfig::new()
                    .disable_retry()
                    .timeout(Duration::from_secs(5));
                match client
                    .send(get_supported_versions::Request::new())
                    .with_request_config(once)
                    .await
                {
                    Ok(_) => muster_core::telemetry::health::ready("matrix"),
                    Err(e) => muster_core::telemetry::health::down(
                        "matrix",
                        &format!("the homeserver does not answer ({e})"),
                    ),
                }
            }
        }
    }
}

/// The sync loop: until the process stops, or (with `holding`) until the lease is lost.
async fn sync(shared: Arc<Shared>, holding: Option<Arc<Holding>>) -> Result<Ended, String> {
    let lost = async {
        match &holding {
            Some(h) => h.lost().await,
            None => std::future::pending().await,
        }
    };
    let mut lost = std::pin::pin!(lost);
    let mut token = Some(position(&shared).await?);
    if !caught_up(&shared).await? {
        return Ok(Ended::Lost);
    }
    // Reminders, timeouts and announcements, from now on (while this instance syncs).
    let notices = tokio::spawn(notices::run(Arc::clone(&shared)));
    let _notices = AbortOnDrop(notices);
    let who = shared
        .client
        .user_id()
        .map(|u| u.to_string())
        .unwrap_or_default();
    if !shared
        .secured
        .swap(true, std::sync::atomic::Ordering::SeqCst)
    {
        let secured = trust::secure(
            &shared.client,
            &shared.settings,
            &shared.dir,
            shared.store(),
            shared.now(),
        )
        .await;
        if secured.adopted {
            trust::read_back(&shared.client).await;
        }
    }
    tracing::info!("listening as {who}");
    let mut stop = std::pin::pin!(muster_core::signals::shutdown());
    let mut tidied = 0;
    loop {
        let response = tokio::select! {
            r = sync_retrying(&shared.client, token.clone()) => r,
            () = &mut stop => {
                tracing::info!("stopping");
                return Ok(Ended::Stopped);
            }
            () = &mut lost => return Ok(Ended::Lost),
        };
        if !handled(&shared, &response).await? {
            return Ok(Ended::Lost);
        }
        token = Some(response.next_batch.clone());
        tidy(&shared, &mut tidied);
    }
}

/// Where the sync goes on from: the position kept, or on the first start the one after a
/// sync that learns where the rooms are (their history is never answered, but invitations
/// waiting for the bot are).
async fn position(shared: &Arc<Shared>) -> Result<String, String> {
    let token = shared
        .store()
        .note(&own_key(), SYNC_NOTE)
        .map_err(|e| format!("cannot read the sync position: {e}"))?;
    if let Some(token) = token {
        return Ok(token);
    }
    let response = sync_retrying(&shared.client, None).await;
    inbound::invitations(shared, &response).await;
    save_token(shared, &response.next_batch)?;
    Ok(response.next_batch)
}

/// Finishes what a run before this one left: the rest of its batch, then every answer owed.
/// False when the lease was lost meanwhile.
async fn caught_up(shared: &Arc<Shared>) -> Result<bool, String> {
    if let Some(batch) = kept_batch(shared)? {
        inbound::rooms(shared, batch).await;
        if !shared.holds_lease() {
            return Ok(false);
        }
        keep_batch(shared, None)?;
    }
    owed(shared).await?;
    shared.media.top_up(shared.store(), &shared.client).await;
    Ok(true)
}

/// Handles one sync's `response`: its batch kept, its position saved, its invitations and
/// rooms handled, then the answers owed sent. False when the lease was lost meanwhile.
async fn handled(shared: &Arc<Shared>, response: &SyncResponse) -> Result<bool, String> {
    // A batch is kept and handled only by the holder of the lease: if it lapsed during
    // the sync, the next syncer fetches the batch again from the stored position.
    if !shared.holds_lease() {
        return Ok(false);
    }
    let batch = inbound::batch(shared, response);
    if !batch.is_empty() {
        keep_batch(shared, Some(&batch))?;
    }
    save_token(shared, &response.next_batch)?;
    inbound::invitations(shared, response).await;
    if !batch.is_empty() {
        inbound::rooms(shared, batch).await;
        // Unfinished if the lease went meanwhile: the next syncer finishes it.
        if !shared.holds_lease() {
            return Ok(false);
        }
        keep_batch(shared, None)?;
    }
    // Answers that could not be sent (the homeserver away) go once it answers again.
    if shared
        .owed_later
        .swap(false, std::sync::atomic::Ordering::SeqCst)
    {
        owed(shared).await?;
    }
    Ok(true)
}

/// Forgets the receipts finished longer ago than [`RECEIPTS_KEPT`], at most once an hour
/// (`tidied`: when last).
fn tidy(shared: &Shared, tidied: &mut u64) {
    let now = shared.cores[&shared.prefix].now();
    if now >= *tidied + 3600 {
        *tidied = now;
        let before = now.saturating_sub(RECEIPTS_KEPT);
        if let Err(e) = shared.cores[&shared.prefix].forget_receipts(PLATFORM, before) {
            tracing::error!("cannot forget old receipts: {e}");
        }
    }
}

/// Keeps (or with `None` clears) the batch being handled; durable on return.
fn keep_batch(shared: &Shared, batch: Option<&inbound::Batch>) -> Result<(), String> {
    let text = batch
        .map(serde_json::to_string)
        .transpose()
        .map_err(|e| format!("cannot write the batch down: {e}"))?;
    shared
        .store()
        .set_note(&own_key(), INBOX_NOTE, text.as_deref())
        .map_err(|e| format!("cannot store the batch being handled: {e}"))
}

/// The batch a run before this one was handling when it stopped, if any.
fn kept_batch(shared: &Shared) -> Result<Option<inbound::Batch>, String> {
    let text = shared
        .store()
        .note(&own_key(), INBOX_NOTE)
        .map_err(|e| format!("cannot read the batch being handled: {e}"))?;
    match text.map(|t| serde_json::from_str(&t)) {
        None => Ok(None),
        Some(Ok(batch)) => Ok(Some(batch)),
        Some(Err(e)) => {
            tracing::warn!("the kept batch cannot be read ({e}); it is dropped");
            Ok(None)
        }
    }
}

/// Sends every answer still owed, oldest first.
async fn owed(shared: &Shared) -> Result<(), String> {
    let owed = shared.cores[&shared.prefix]
        .owed(PLATFORM)
        .map_err(|e| format!("cannot read the answers owed: {e}"))?;
    if !owed.is_empty() {
        tracing::info!("sending {} answer(s) owed from before", owed.len());
    }
    for (event, receipt) in owed {
        outbound::deliver(shared, &event, receipt).await;
    }
    Ok(())
}

/// Aborts a task when dropped.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
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
        match watched(client, client.sync_once(sync_settings(token.clone()))).await {
            Ok(r) => {
                muster_core::telemetry::health::ready("matrix");
                return r;
            }
            Err(e) => {
                muster_core::telemetry::health::down("matrix", &format!("the sync failed: {e}"));
                tracing::warn!(
                    "the homeserver did not answer the sync ({e}); trying again in {} ms",
                    pause.as_millis()
                );
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(10));
            }
        }
    }
}
