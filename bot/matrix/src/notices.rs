//! Notices: messages no command asked for — reminders, timeouts, vacations' announcements —
//! which the core leaves in its outbox ([`muster_core::desk::Core::notices`]). Once the adapter has
//! started, one task waits for them and sends them, oldest first.
//!
//! Each notice is first kept in the store as a receipt of its own ([`outbound::NOTICE`]), then
//! sent as a command's answer is ([`outbound::deliver`]): the same messages (boards, mentions
//! with pills), the same retries and transaction ids, and, if the homeserver is away or the bot
//! stops, sent after the next sync or at the next start. A notice to a room is a message in the
//! room, replying to nothing. A notice to a user alone goes to his direct room with the bot: the
//! one the bot made before (its id kept in the store), or a new private, encrypted room to
//! which he is invited, marked as direct (`is_direct` on the invitation, and the room in the
//! bot's `m.direct` account data).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use matrix_sdk::ruma::UserId;
use matrix_sdk::ruma::api::client::room::create_room;

use super::PLATFORM;
use super::made;
use super::outbound;
use super::retry::{self, retrying};
use super::shared::Shared;
use muster_core::desk::{Notice, Receipt, Reply, Target, User};

/// How long a game's place waits before it is asked for again while the homeserver is away.
const AGAIN: std::time::Duration = std::time::Duration::from_secs(30);

/// Sends the core's notices for Matrix until the process is asked to stop.
pub async fn run(shared: Arc<Shared>) {
    let core = Arc::clone(shared.base());
    let ready = core.timers().ready(PLATFORM);
    let mut stop = std::pin::pin!(muster_core::signals::shutdown());
    // Games rated and events tended that a stop interrupted are brought up to date first.
    let resuming = Arc::clone(&core);
    let _ = tokio::task::spawn_blocking(move || {
        resuming.resume_ratings(PLATFORM);
        resuming.resume_tournaments(PLATFORM);
        resuming.resume_places(PLATFORM);
    })
    .await;
    loop {
        tokio::select! {
            () = ready.notified() => {}
            () = &mut stop => return,
        }
        for notice in core.notices(PLATFORM) {
            if let Target::Open(opening) = notice.target {
                open_room(&shared, *opening).await;
                continue;
            }
            // A timeout's announcement was stored with the game's end: sent from there.
            let kept = notice
                .receipt
                .as_deref()
                .and_then(|id| Some((id.to_string(), core.receipt(PLATFORM, id).ok()??)));
            let (id, receipt) = match kept {
                Some(k) => k,
                None => keep(&shared, notice),
            };
            outbound::deliver(&shared, &id, receipt).await;
        }
    }
}

/// Keeps `notice` in the store as a receipt (so that it is sent even if the bot stops first):
/// its id and the receipt.
fn keep(shared: &Shared, notice: Notice) -> (String, Receipt) {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let at = shared.now();
    // Ids sort as the notices came (the receipts owed are sent in that order).
    let id = format!(
        "{}{at:012}.{:08}.{}",
        outbound::NOTICE,
        COUNT.fetch_add(1, Ordering::SeqCst),
        matrix_sdk::ruma::TransactionId::new()
    );
    let bot = User {
        id: shared
            .client
            .user_id()
            .map(|u| u.to_string())
            .unwrap_or_default(),
        name: String::new(),
    };
    let (channel, user) = match notice.target {
        Target::Channel(room) => (room, bot),
        // The room is found (or made) when the notice is sent.
        Target::Direct(user) => (user.id.clone(), user),
        Target::Open(o) => (o.parent.clone(), bot),
    };
    // Nobody asked: there is nobody to answer privately.
    let replies = notice
        .replies
        .into_iter()
        .map(|r| match r {
            Reply::Private(text) => Reply::Text(text),
            other => other,
        })
        .collect();
    let receipt = Receipt::notice(&channel, user, at, replies);
    outbound::keep(shared, &id, &receipt);
    (id, receipt)
}

/// Opens a tournament board's place: a private room named after the board, its players
/// invited at its creation; the core then starts the board's game there and links it from the
/// event's room. If the homeserver refuses, the event's room is told.
async fn open_room(shared: &Shared, opening: muster_core::desk::Opening) {
    // A room made before a crash, and never recorded, is used rather than made again.
    if let Some(room) = made::made_before(shared, &opening.intent).await {
        let core = Arc::clone(shared.base());
        let id = room.to_string();
        tracing::info!(
            "found {id}, made for {} before a restart; it is used",
            opening.name
        );
        let _ = tokio::task::spawn_blocking(move || core.place_opened(&opening, &id)).await;
        return;
    }
    let mut request = create_room::v3::Request::new();
    request.creation_content = made::creation(&opening.intent);
    request.name = Some(opening.name.clone());
    request.topic = Some(match &opening.home {
        // A game played on two platforms: this room is its place on Matrix.
        Some(home) => format!(
            "Game {} · played here and on {}",
            home.game,
            muster_core::kernel::text::capitalised(&home.platform)
        ),
        None => format!(
            "{} · round {} · board {}",
            opening.event, opening.round, opening.board
        ),
    });
    request.invite = opening
        .players
        .iter()
        .filter_map(|p| UserId::parse(p.id.as_str()).ok())
        .collect();
    request.preset = Some(create_room::v3::RoomPreset::PrivateChat);
    let what = format!("opening the room {}", opening.name);
    match retrying(&what, || shared.client.create_room(request.clone())).await {
        Ok(room) => {
            let core = Arc::clone(shared.base());
            let id = room.room_id().to_string();
            tracing::info!("made {id} for {}", opening.name);
            let _ = tokio::task::spawn_blocking(move || core.place_opened(&opening, &id)).await;
        }
        // A game's place while the homeserver is away: asked for again a little later.
        Err(retry::Failed::Later) if opening.home.is_some() => {
            shared.base().place_later(opening, AGAIN);
        }
        Err(retry::Failed::Refused) if opening.home.is_some() => {
            let core = Arc::clone(shared.base());
            let why = "the homeserver refused to make its room".to_string();
            let _ = tokio::task::spawn_blocking(move || core.place_failed(&opening, &why)).await;
        }
        Err(_) => {
            let core = shared.base();
            core.timers().post_notice(Notice {
                platform: PLATFORM.to_string(),
                target: Target::Channel(opening.parent.clone()),
                replies: vec![Reply::Text(format!(
                    "Muster could not open a room for round {} · board {} of {}; the organiser \
                     can give the board's result with `tournament result`.",
                    opening.round, opening.board, opening.event
                ))],
                fallback: None,
                receipt: None,
            });
        }
    }
}
