//! Messages nobody asked for — reminders, timeouts, vacations — which the core leaves for
//! Discord in its outbox. One task, started with the adapter in either mode, waits for them and
//! posts each where the core says: in a channel (`POST /channels/{id}/messages`), or to a user
//! in his direct-message channel (opened with `POST /users/@me/channels` first). They become
//! the same messages as an answer's ([`respond::plan`]): text, pings limited to the users
//! mentioned, the board with its alt text, buttons. A kept notice that Discord cannot take
//! now (it is down, or answers 5xx or 429 after the retries) stays owed and is tried again
//! every [`AGAIN`] until it goes; one Discord refuses (4xx) is logged and dropped. Nothing here
//! stops the adapter.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use serenity::all as serenity;
use serenity::{ChannelId, Http};

use super::respond;
use super::{PLATFORM, Shared};
use muster_core::desk::{Notice, Target, User};

/// Delivers the core's notices for Discord until the process is asked to stop. While it
/// delivers a batch it counts as answering, so a stopping adapter waits for it
/// ([`Shared::drained`]).
pub async fn run(shared: Arc<Shared>, http: Arc<Http>) {
    let ready = shared.core.timers().ready(PLATFORM);
    let mut stop = std::pin::pin!(muster_core::signals::shutdown());
    // Games rated and events tended that a stop interrupted are brought up to date first.
    let core = Arc::clone(&shared.core);
    let _ = tokio::task::spawn_blocking(move || {
        core.resume_ratings(PLATFORM);
        core.resume_tournaments(PLATFORM);
        core.resume_places(PLATFORM);
    })
    .await;
    // Announcements stored but not posted when Muster stopped go first. (Beside other
    // instances, the scheduler posts those left a while ago, each by one instance.)
    let owed = if shared.core.store().shared() {
        Vec::new()
    } else {
        shared.core.owed_notices(PLATFORM)
    };
    if !owed.is_empty() {
        let _answering = super::answering(&shared);
        for notice in owed {
            deliver(&shared, &http, notice).await;
        }
    }
    // When the notices Discord could not take are tried again.
    let mut again: Option<tokio::time::Instant> = None;
    loop {
        if again.is_none() && shared.owed_later.load(Ordering::SeqCst) {
            again = Some(tokio::time::Instant::now() + AGAIN);
        }
        let mut retry = false;
        tokio::select! {
            biased;
            () = &mut stop => return,
            () = ready.notified() => {}
            () = tokio::time::sleep_until(again.unwrap_or_else(tokio::time::Instant::now)),
                if again.is_some() => retry = true,
        }
        let _answering = super::answering(&shared);
        for notice in shared.core.notices(PLATFORM) {
            deliver(&shared, &http, notice).await;
        }
        if retry {
            // The notices Discord could not take, tried again (beside other instances, the
            // scheduler leaves those owed a while in the outbox of one of them).
            again = None;
            shared.owed_later.store(false, Ordering::SeqCst);
            if !shared.core.store().shared() {
                for notice in shared.core.owed_notices(PLATFORM) {
                    deliver(&shared, &http, notice).await;
                }
            }
        }
    }
}

/// How long a notice Discord could not take waits before it is tried again.
pub const AGAIN: Duration = Duration::from_secs(10);

/// What came of posting a notice.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Delivery {
    /// Posted, or refused for good (it is not tried again).
    Done,
    /// Not taken for a reason that passes: tried again later.
    Later,
}

/// Whether `e` is a failure that passes: Discord unreachable, or answering 5xx, or 429 still
/// after the retries.
fn passing(e: &serenity::Error) -> bool {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            r.status_code.is_server_error() || r.status_code.as_u16() == 429
        }
        serenity::Error::Http(serenity::HttpError::Request(_)) => true,
        _ => false,
    }
}

/// Posts one notice where it goes (a kept one with a nonce for each message, see [`nonce`]); a notice kept in the store is then forgotten there (tried:
/// a refusal that outlasted the retries is logged, not tried again at every start).
pub async fn deliver(shared: &Shared, http: &Http, notice: Notice) {
    let receipt = notice.receipt.clone();
    let outcome = send(shared, http, notice).await;
    match (receipt, outcome) {
        (Some(id), Delivery::Later) => {
            tracing::warn!(
                notice = %id,
                "Discord cannot take a notice now; it stays owed and is tried again in {} s",
                AGAIN.as_secs()
            );
            shared.owed_later.store(true, Ordering::SeqCst);
        }
        (Some(id), Delivery::Done) => shared.core.notice_sent(PLATFORM, &id),
        (None, _) => {}
    }
}

async fn send(shared: &Shared, http: &Http, notice: Notice) -> Delivery {
    if let Target::Open(opening) = notice.target {
        open_thread(shared, http, *opening).await;
        return Delivery::Done;
    }
    let Notice {
        target,
        replies,
        fallback,
        receipt,
        ..
    } = notice;
    // A player who cannot be written to directly is told in the game's channel instead.
    let fall_back = |why: &str| {
        if let Some(f) = &fallback {
            tracing::warn!("{why}; the notice goes to channel {:?} instead", f.target);
        }
        fallback.clone()
    };
    let replies = match tokio::task::spawn_blocking(move || respond::draw(replies)).await {
        Ok(r) => r,
        Err(e) => {
            tracing::error!("a notice could not be drawn: {e}");
            return Delivery::Done;
        }
    };
    let outgoing = respond::plan(replies);
    if outgoing.is_empty() {
        return Delivery::Done;
    }
    let (channel, direct) = match &target {
        Target::Channel(id) => match snowflake(id) {
            Some(id) => (ChannelId::new(id), false),
            None => {
                tracing::error!("a notice for channel {id:?} was dropped: not a channel id");
                return Delivery::Done;
            }
        },
        Target::Open(_) => return Delivery::Done,
        Target::Direct(user) => match direct_channel(http, user).await {
            Ok(Some(c)) => (c, true),
            Ok(None) => {
                if let Some(f) = fall_back("no direct message could be opened") {
                    return Box::pin(send(shared, http, *f)).await;
                }
                return Delivery::Done;
            }
            Err(later) => return later,
        },
    };
    for (i, out) in outgoing.iter().enumerate() {
        if out.ephemeral && !direct {
            // Words meant for one user only are never posted in a channel.
            tracing::warn!("a private reply in a notice for channel {channel} was dropped");
            continue;
        }
        let nonce = receipt.as_deref().map(|id| nonce(id, i));
        if let Err(e) = respond::post(shared, http, channel, out, nonce.as_deref()).await {
            if passing(&e) {
                // Tried again whole: the messages posted already carry the same nonces.
                return Delivery::Later;
            }
            let place = match &target {
                Target::Direct(user) => format!("to {} ({})", user.name, user.id),
                Target::Channel(_) | Target::Open(_) => format!("in channel {channel}"),
            };
            tracing::warn!("a notice could not be sent {place}: {e}");
            if direct && let Some(f) = fall_back("the direct message was refused") {
                return Box::pin(send(shared, http, *f)).await;
            }
            break;
        }
    }
    Delivery::Done
}

/// Opens a tournament board's place: a public thread under the event's channel
/// (`POST /channels/{id}/threads`), where the core then starts the board's game. If Discord
/// refuses, the event's channel is told why, so that the organiser can act. A game challenged
/// from another platform gets its thread under the games channel of the settings.
async fn open_thread(shared: &Shared, http: &Http, opening: muster_core::desk::Opening) {
    if opening.home.is_some() {
        return open_game_thread(shared, http, opening).await;
    }
    let Some(parent) = snowflake(&opening.parent) else {
        tracing::error!(
            "no thread for {}: {:?} is not a channel id",
            opening.name,
            opening.parent
        );
        return;
    };
    let Some(guild) = snowflake(&opening.community) else {
        tracing::error!(
            "no thread for {}: {:?} is not a server id",
            opening.name,
            opening.community
        );
        return;
    };
    match find_or_open(http, &opening, guild, parent).await {
        Ok(thread) => {
            let core = Arc::clone(&shared.core);
            let id = thread.to_string();
            let _ = tokio::task::spawn_blocking(move || core.place_opened(&opening, &id)).await;
        }
        Err(e) => {
            tracing::warn!("could not open the thread {}: {e}", opening.name);
            let why = format!(
                "Muster could not open the thread {} for round {} · board {} of {} (it needs the \
                 Create Public Threads permission here). Grant it and restart Muster, or give the \
                 board's result with `/tournament result`.",
                opening.name, opening.round, opening.board, opening.event
            );
            let _ = ChannelId::new(parent).say(http, why).await;
        }
    }
}

/// Opens the place of a game challenged from another platform: a public thread under the games
/// channel of the settings (an event's game: under the event's channel on Discord), found again
/// rather than opened twice. Discord away (5xx, 429, the network), it is asked for again a
/// little later; a refusal calls the challenge off.
async fn open_game_thread(shared: &Shared, http: &Http, opening: muster_core::desk::Opening) {
    let core = Arc::clone(&shared.core);
    let failed = |why: String| {
        let core = Arc::clone(&core);
        let opening = opening.clone();
        async move {
            let _ = tokio::task::spawn_blocking(move || core.place_failed(&opening, &why)).await;
        }
    };
    // An event's game opens under the event's channel here; another under the games channel.
    let Some(parent) = snowflake(&opening.parent).or(shared.settings.games_channel) else {
        return failed("Discord has no channel for games from other platforms here".into()).await;
    };
    let later = |e: &serenity::Error| {
        tracing::warn!(
            "the thread {} could not be opened now ({e}); asked for again in {}s",
            opening.name,
            AGAIN.as_secs()
        );
        core.place_later(opening.clone(), AGAIN);
    };
    let guild = match respond::patiently(|| ChannelId::new(parent).to_channel(http)).await {
        Ok(serenity::Channel::Guild(channel)) => channel.guild_id.get(),
        Ok(_) => return failed("the games channel is not a server's channel".into()).await,
        Err(e) if passing(&e) => return later(&e),
        Err(e) => return failed(format!("the games channel cannot be read: {e}")).await,
    };
    let id = match find_or_open(http, &opening, guild, parent).await {
        Ok(thread) => thread.to_string(),
        Err(e) if passing(&e) => return later(&e),
        Err(e) => return failed(format!("Discord refused to open its thread: {e}")).await,
    };
    let _ = tokio::task::spawn_blocking(move || core.place_opened(&opening, &id)).await;
}

/// The thread of `opening` under `parent` of `guild`: the one opened before a crash and never
/// recorded, found again rather than opened twice, else a new public thread.
async fn find_or_open(
    http: &Http,
    opening: &muster_core::desk::Opening,
    guild: u64,
    parent: u64,
) -> Result<ChannelId, serenity::Error> {
    if let Some(thread) = opened_before(http, opening, guild, parent).await {
        tracing::info!(
            "found the thread {} ({thread}), opened before a restart; it is used",
            opening.name
        );
        return Ok(thread);
    }
    let thread = ChannelId::new(parent)
        .create_thread(
            http,
            serenity::CreateThread::new(opening.name.clone())
                .kind(serenity::ChannelType::PublicThread),
        )
        .await?;
    Ok(thread.id)
}

/// The thread of `opening` if it is open already: among the server's active threads, one of
/// that name under the event's channel, made since the event was (Discord has no idempotent
/// way to open a thread; the window this leaves is in docs/operations.md).
async fn opened_before(
    http: &Http,
    opening: &muster_core::desk::Opening,
    guild: u64,
    parent: u64,
) -> Option<ChannelId> {
    let active =
        match respond::patiently(|| serenity::GuildId::new(guild).get_active_threads(http)).await {
            Ok(active) => active,
            Err(e) => {
                tracing::warn!(
                    "the active threads could not be listed ({e}); the thread {} is opened anew",
                    opening.name
                );
                return None;
            }
        };
    let since = i64::try_from(opening.since).unwrap_or(i64::MAX);
    let ours = |threads: &[serenity::GuildChannel]| {
        threads
            .iter()
            .filter(|t| t.parent_id == Some(ChannelId::new(parent)) && t.name == opening.name)
            .filter(|t| t.id.created_at().unix_timestamp() >= since)
            .map(|t| t.id)
            .min()
    };
    if let Some(found) = ours(&active.threads) {
        return Some(found);
    }
    // Archived meanwhile (a thread left a day without a message is): among the parent's
    // archived public threads, the most recently archived first. A message posted in it brings
    // it back.
    let archived = respond::patiently(|| {
        ChannelId::new(parent).get_archived_public_threads(http, None, Some(100))
    })
    .await;
    match archived {
        Ok(archived) => ours(&archived.threads),
        Err(e) => {
            tracing::warn!(
                "the archived threads could not be listed ({e}); the thread {} is opened anew",
                opening.name
            );
            None
        }
    }
}

/// The direct-message channel with `user`, opened (or found again: Discord gives the same one)
/// with `POST /users/@me/channels`.
async fn direct_channel(http: &Http, user: &User) -> Result<Option<ChannelId>, Delivery> {
    if snowflake(&user.id).is_none() {
        tracing::warn!(
            "a notice for {} was dropped: {:?} is not a user id",
            user.name,
            user.id
        );
        return Ok(None);
    }
    let body = serde_json::json!({ "recipient_id": user.id });
    match respond::patiently(|| http.create_private_channel(&body)).await {
        Ok(channel) => Ok(Some(channel.id)),
        Err(e) if passing(&e) => Err(Delivery::Later),
        Err(e) => {
            tracing::warn!(
                "no direct message could be opened with {} ({}): {e}",
                user.name,
                user.id
            );
            Ok(None)
        }
    }
}

/// The nonce of the `i`-th message of the notice kept as `id`: the same at every attempt, so
/// that a notice posted again after a crash (between posting it and forgetting it) is made
/// once. Discord takes at most 25 characters: an FNV-1a hash of both, in hex.
fn nonce(id: &str, i: usize) -> String {
    format!(
        "m{:016x}",
        muster_core::kernel::kept::fnv1a(&[id, &i.to_string()])
    )
}

/// A Discord id (a non-zero number).
fn snowflake(text: &str) -> Option<u64> {
    text.parse::<u64>().ok().filter(|&n| n != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_notices_messages_have_nonces_the_same_at_every_attempt() {
        let a = nonce("notice.timeout.g12.7", 0);
        assert_eq!(a, nonce("notice.timeout.g12.7", 0));
        assert!(a.len() <= 25, "{a}");
        assert_ne!(a, nonce("notice.timeout.g12.7", 1));
        assert_ne!(a, nonce("notice.timeout.g12.8", 0));
    }
}
