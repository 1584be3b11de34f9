//! From a sync to commands: invitations are accepted or declined, and every room's new
//! messages are read in order. A message is a command when the core finds one in it
//! ([`muster_core::desk::Core::command_in`]). Each command runs once: the core keeps what it made
//! of it — its receipt — under the command's event id, in the same write as the change it
//! made to the room's game ([`muster_core::desk::Core::handle_once`]). A message met again (a batch
//! handled again after a restart) finds its receipt: it does not run again, and whatever of
//! its answer was not yet sent is sent ([`outbound::deliver`]).

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Instant;

use matrix_sdk::Room;
use matrix_sdk::deserialized_responses::{TimelineEvent, TimelineEventKind};
use matrix_sdk::ruma::events::room::member::MembershipState;
use matrix_sdk::ruma::events::room::message::{MessageType, Relation, RoomMessageEventContent};
use matrix_sdk::ruma::events::{
    AnySyncMessageLikeEvent, AnySyncStateEvent, AnySyncTimelineEvent, SyncMessageLikeEvent,
    SyncStateEvent,
};
use matrix_sdk::ruma::serde::Raw;
use matrix_sdk::ruma::{OwnedEventId, OwnedRoomId, OwnedUserId, UserId};
use matrix_sdk::sync::SyncResponse;

use serde::{Deserialize, Serialize};

use super::PLATFORM;
use super::limit::Verdict;
use super::outbound::{self, member_name};
use super::shared::Shared;
use muster_core::desk::{Core, Found, GameId, Policy, Receipt, Reply, Request, User};

/// A message that may be a command.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Message {
    /// Its event.
    pub event_id: OwnedEventId,
    /// Who sent it.
    pub sender: OwnedUserId,
    /// The text, without a reply's quotation.
    pub body: String,
    /// Users it mentions.
    pub mentions: Vec<OwnedUserId>,
    /// The thread it is in, if any.
    pub thread: Option<OwnedEventId>,
    /// The encrypted event, while the bot has no key for it.
    pub undecrypted: Option<Raw<AnySyncTimelineEvent>>,
}

/// Accepts the invitations of users the settings trust and declines the others.
pub async fn invitations(shared: &Arc<Shared>, response: &SyncResponse) {
    for room_id in response.rooms.invited.keys() {
        let Some(room) = shared.client.get_room(room_id) else {
            continue;
        };
        let inviter = match room.invite_details().await {
            Ok(invite) => invite.inviter_id.to_string(),
            Err(_) => continue,
        };
        if shared.settings.auto_join.accepts(&inviter) {
            match join(&room).await {
                Ok(()) => tracing::info!("joined {room_id} (invited by {inviter})"),
                Err(e) => tracing::warn!("cannot join {room_id}: {e}"),
            }
        } else {
            tracing::info!(
                "declined an invitation to {room_id} from {inviter} (not in matrix.auto_join)"
            );
            let _ = room.leave().await;
        }
    }
}

async fn join(room: &Room) -> Result<(), matrix_sdk::Error> {
    let mut pause = std::time::Duration::from_millis(200);
    for _ in 0..5 {
        match room.join().await {
            Ok(()) => return Ok(()),
            Err(_) => {
                tokio::time::sleep(pause).await;
                pause *= 2;
            }
        }
    }
    room.join().await
}

/// The messages of a sync that may be commands, room by room.
pub type Batch = Vec<(OwnedRoomId, Vec<Message>)>;

/// The messages others sent in every joined room, from a sync.
pub fn batch(shared: &Shared, response: &SyncResponse) -> Batch {
    let Some(me) = shared.client.user_id() else {
        return Vec::new();
    };
    response
        .rooms
        .joined
        .iter()
        .map(|(room_id, update)| (room_id.clone(), messages(me, &update.timeline.events)))
        .filter(|(_, messages)| !messages.is_empty())
        .collect()
}

/// Handles a batch: the rooms side by side, each room's messages in order.
pub async fn rooms(shared: &Arc<Shared>, batch: Batch) {
    let mut tasks = Vec::new();
    for (room_id, messages) in batch {
        let shared = Arc::clone(shared);
        tasks.push(tokio::spawn(async move {
            room(&shared, &room_id, messages).await;
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
}

/// The messages that may be commands among timeline events given as the JSON a homeserver
/// sends (one event each), as a sync's batch finds them for the bot `me`. Events that are not
/// JSON objects are skipped, as a sync skips what it cannot read.
pub fn messages_in_json(me: &str, events: &[&str]) -> Vec<Message> {
    let Ok(me) = UserId::parse(me) else {
        return Vec::new();
    };
    let events: Vec<TimelineEvent> = events
        .iter()
        .filter_map(|json| Raw::<AnySyncTimelineEvent>::from_json_string(json.to_string()).ok())
        .map(TimelineEvent::from_plaintext)
        .collect();
    messages(&me, &events)
}

/// The messages others sent in a timeline after the bot joined (a join in the timeline means
/// everything before it is history the bot was not there for).
fn messages(me: &UserId, events: &[TimelineEvent]) -> Vec<Message> {
    let mut out = Vec::new();
    for event in events {
        if let TimelineEventKind::UnableToDecrypt { event, .. } = &event.kind {
            let sender = event.get_field::<OwnedUserId>("sender").ok().flatten();
            let id = event.get_field::<OwnedEventId>("event_id").ok().flatten();
            if let (Some(sender), Some(event_id)) = (sender, id)
                && sender != me
            {
                out.push(Message {
                    event_id,
                    sender,
                    body: String::new(),
                    mentions: Vec::new(),
                    thread: None,
                    undecrypted: Some(event.clone()),
                });
            }
            continue;
        }
        let Ok(event) = event.raw().deserialize() else {
            continue;
        };
        match event {
            AnySyncTimelineEvent::State(AnySyncStateEvent::RoomMember(
                SyncStateEvent::Original(m),
            )) if m.state_key == me && m.content.membership == MembershipState::Join => {
                let was_joined = m
                    .unsigned
                    .prev_content
                    .as_ref()
                    .is_some_and(|p| p.membership == MembershipState::Join);
                if !was_joined {
                    out.clear();
                }
            }
            AnySyncTimelineEvent::MessageLike(AnySyncMessageLikeEvent::RoomMessage(
                SyncMessageLikeEvent::Original(m),
            )) if m.sender != me => {
                if let Some(message) = message(m.event_id, m.sender, m.content) {
                    out.push(message);
                }
            }
            _ => {}
        }
    }
    out
}

/// A text message's command text: edits and notices (other bots) are not commands, and a
/// reply's quotation of the message it answers is dropped.
fn message(
    event_id: OwnedEventId,
    sender: OwnedUserId,
    content: RoomMessageEventContent,
) -> Option<Message> {
    let MessageType::Text(text) = content.msgtype else {
        return None;
    };
    let thread = match &content.relates_to {
        Some(Relation::Replacement(_)) => return None,
        Some(Relation::Thread(t)) => Some(t.event_id.clone()),
        _ => None,
    };
    let is_reply = matches!(content.relates_to, Some(Relation::Reply(_)));
    let body = if is_reply {
        strip_quote(&text.body)
    } else {
        text.body.clone()
    };
    let mut mentions: Vec<OwnedUserId> = content
        .mentions
        .map(|m| m.user_ids.into_iter().collect())
        .unwrap_or_default();
    for word in body.split_whitespace() {
        let word = word.trim_end_matches([',', '.', ';', ')']);
        if let Ok(id) = UserId::parse(word)
            && !mentions.contains(&id)
        {
            mentions.push(id);
        }
    }
    Some(Message {
        event_id,
        sender,
        body: body.trim().to_string(),
        mentions,
        thread,
        undecrypted: None,
    })
}

/// The reply fallback some clients put before a reply's text (`> <@a:b> …` lines, then a
/// blank line).
fn strip_quote(body: &str) -> String {
    let mut lines = body.lines().peekable();
    if !lines.peek().is_some_and(|l| l.starts_with("> ")) {
        return body.to_string();
    }
    let rest: Vec<&str> = lines.skip_while(|l| l.starts_with('>')).collect();
    rest.join("\n").trim_start().to_string()
}

async fn room(shared: &Arc<Shared>, room_id: &OwnedRoomId, messages: Vec<Message>) {
    let Some(room) = shared.client.get_room(room_id) else {
        return;
    };
    for m in &messages {
        // Another instance took over the sync: it handles the rest of the kept batch.
        if !shared.holds_lease() {
            return;
        }
        command(shared, &room, m).await;
    }
}

/// An encrypted message whose key came late: tried again for a moment (keys usually follow
/// within a sync or two).
/// `Err` when it still cannot be read; `Ok(None)` when it is no text message.
async fn decrypt(room: &Room, raw: &Raw<AnySyncTimelineEvent>) -> Result<Option<Message>, ()> {
    for attempt in 0..4 {
        if attempt > 0 {
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
        }
        let Ok(event) = room.decrypt_event(raw.cast_ref_unchecked(), None).await else {
            continue;
        };
        if let TimelineEventKind::UnableToDecrypt { .. } = event.kind {
            continue;
        }
        if let Ok(AnySyncTimelineEvent::MessageLike(AnySyncMessageLikeEvent::RoomMessage(
            SyncMessageLikeEvent::Original(m),
        ))) = event.raw().deserialize()
        {
            return Ok(message(m.event_id, m.sender, m.content));
        }
        return Ok(None);
    }
    Err(())
}

/// What the room allows this user: its games, and whether he is an organiser (one of the
/// configured users, or a moderator of the room).
async fn policy(shared: &Shared, room: &Room, user: &UserId) -> Policy {
    let member = room.get_member_no_sync(user).await.ok().flatten();
    let moderator = member.is_some_and(|m| {
        m.normalized_power_level()
            >= matrix_sdk::ruma::events::room::power_levels::UserPowerLevel::Int(50.into())
    });
    let organiser = moderator
        || shared
            .settings
            .organisers
            .iter()
            .any(|o| o == user.as_str());
    let room_settings = shared.settings.rooms.get(room.room_id().as_str());
    let games = room_settings.and_then(|r| r.games.as_ref()).map(|names| {
        names
            .iter()
            .filter_map(|n| n.parse::<GameId>().ok())
            .collect()
    });
    Policy {
        games,
        organiser,
        threads: false,
        community: room_settings
            .and_then(|r| r.community.clone())
            .unwrap_or_default(),
        direct: super::direct::is_direct_room_of(shared, room.room_id().as_str(), user.as_str()),
    }
}

/// The request a command message makes: its sender (by the name he shows in the room), the
/// users it names, and what the room allows him.
async fn request(shared: &Shared, room_handle: &Room, m: &Message, text: String) -> Request {
    let room = room_handle.room_id().as_str();
    let policy = policy(shared, room_handle, &m.sender).await;
    let mut mentions = Vec::new();
    for id in &m.mentions {
        mentions.push(User::new(
            id.to_string(),
            &member_name(room_handle, id).await,
        ));
    }
    // Players named by a bare name (`!new lanrick bob`): the room's members of that name.
    let word = text.split_whitespace().next().unwrap_or("");
    if word.eq_ignore_ascii_case("new") || word.eq_ignore_ascii_case("games") {
        let names: Vec<String> = text
            .split_whitespace()
            .skip(2)
            .map(|w| w.trim_start_matches('@').to_lowercase())
            .collect();
        if !names.is_empty()
            && let Ok(members) = room_handle
                .members(matrix_sdk::RoomMemberships::JOIN | matrix_sdk::RoomMemberships::INVITE)
                .await
        {
            for member in members {
                let id = member.user_id();
                let known = mentions.iter().any(|u| u.id == id.as_str());
                let named = names.iter().any(|n| {
                    *n == id.localpart().to_lowercase() || *n == member.name().to_lowercase()
                });
                if named && !known && id != m.sender {
                    mentions.push(User::new(id.to_string(), member.name()));
                }
            }
        }
    }
    Request {
        platform: PLATFORM.into(),
        channel: room.to_string(),
        user: User::new(
            m.sender.to_string(),
            &member_name(room_handle, &m.sender).await,
        ),
        text,
        mentions,
        policy,
    }
}

/// Answers `m` with `text` alone, without running a command (a refusal to read it), once.
async fn answer(shared: &Shared, room: &Room, m: &Message, text: String) {
    let request = Request {
        platform: PLATFORM.into(),
        channel: room.room_id().to_string(),
        user: User::new(m.sender.to_string(), &member_name(room, &m.sender).await),
        text: String::new(),
        mentions: Vec::new(),
        policy: Policy::default(),
    };
    let core = shared.core(room.room_id().as_str());
    let thread = m.thread.as_ref().map(|t| t.as_str());
    let receipt = Receipt::new(&request, thread, core.now(), &[Reply::Private(text)]);
    if let Err(e) = core.keep_receipt(PLATFORM, m.event_id.as_str(), &receipt) {
        tracing::error!("cannot keep the answer to {}: {e}", m.event_id);
    }
    outbound::deliver(shared, m.event_id.as_str(), receipt).await;
}

/// Runs one message if it is a command, once, under the sender's budget, and sends its answer
/// (or what is still owed of it).
async fn command(shared: &Arc<Shared>, room: &Room, m: &Message) {
    let started = Instant::now();
    let room_id = room.room_id().as_str().to_string();
    let core = Arc::clone(shared.core(&room_id));
    if met_before(shared, &core, m).await {
        return;
    }
    let Some(m) = readable(shared, room, m).await else {
        return;
    };
    let Some(found) = command_text(&core, &room_id, &m).await else {
        return;
    };
    if !admitted(shared, room, &m).await {
        return;
    }
    let request = request(shared, room, &m, found.text().to_string()).await;
    let Some((receipt, changed)) = run_once(shared, room, core, &m, (request, found)).await else {
        return;
    };
    let core_time = started.elapsed();
    // A command that moved a game on is given back: play is never limited.
    if changed && let Ok(mut limiter) = shared.limiter.lock() {
        limiter.refund(m.sender.as_str());
    }
    outbound::deliver(shared, m.event_id.as_str(), receipt).await;
    if std::env::var_os("MUSTER_MATRIX_TIMINGS").is_some() {
        tracing::info!(
            "{} answered in {:.2} ms (core {:.2} ms)",
            m.event_id,
            started.elapsed().as_secs_f64() * 1000.0,
            core_time.as_secs_f64() * 1000.0
        );
    }
}

/// Whether `m` was met before: its answer is kept, and whatever of it is still owed is sent.
/// A receipt that cannot be read counts as met: the message is not run.
async fn met_before(shared: &Shared, core: &Core, m: &Message) -> bool {
    match core.receipt(PLATFORM, m.event_id.as_str()) {
        Ok(Some(receipt)) => {
            outbound::deliver(shared, m.event_id.as_str(), receipt).await;
            true
        }
        Ok(None) => false,
        Err(e) => {
            tracing::error!("cannot read the receipt of {}: {e}", m.event_id);
            true
        }
    }
}

/// `m` as the bot reads it: itself, or decrypted. `None` when there is nothing to run: the
/// decrypted event is no message, or its key has not come (which its sender is told).
async fn readable<'a>(shared: &Shared, room: &Room, m: &'a Message) -> Option<Cow<'a, Message>> {
    let Some(raw) = &m.undecrypted else {
        return Some(Cow::Borrowed(m));
    };
    match decrypt(room, raw).await {
        Ok(Some(d)) => Some(Cow::Owned(d)),
        Ok(None) => None,
        Err(()) => {
            let device = shared
                .client
                .device_id()
                .map(|d| d.to_string())
                .unwrap_or_default();
            tracing::info!(
                room = %room.room_id(),
                sender = %m.sender,
                "an encrypted message whose key has not reached this device; its sender is asked to send it again"
            );
            let text = format!(
                "I could not read your encrypted message: its key has not reached my device \
                 ({device}). Please send it again; if this keeps happening, let your client \
                 share keys with unverified devices."
            );
            answer(shared, room, m, text).await;
            None
        }
    }
}

/// The command the core finds in `m` in the room `room_id`, if any (looked for off the async
/// threads), with what it read to find it.
async fn command_text(core: &Arc<Core>, room_id: &str, m: &Message) -> Option<Found> {
    let user = User {
        id: m.sender.to_string(),
        name: String::new(),
    };
    let (body, room_for_core, finder) = (m.body.clone(), room_id.to_string(), Arc::clone(core));
    let Ok(Some(text)) = tokio::task::spawn_blocking(move || {
        finder.command_in(PLATFORM, &room_for_core, &user, &body)
    })
    .await
    else {
        return None;
    };
    Some(text)
}

/// Whether the sender's budget lets `m` run. Over it, he is told once when to send it again,
/// and after that nothing.
async fn admitted(shared: &Shared, room: &Room, m: &Message) -> bool {
    let verdict = shared
        .limiter
        .lock()
        .map(|mut l| l.check(m.sender.as_str(), Instant::now()))
        .unwrap_or(Verdict::Go);
    match verdict {
        Verdict::Go => true,
        Verdict::Warn { wait } => {
            let (per_minute, burst) = (shared.settings.rate_per_minute, shared.settings.rate_burst);
            let text = format!(
                "Slow down: apart from moves, each player may send {burst} commands at once and \
                 {per_minute} a minute here. This one was not run; send it again in {wait} s."
            );
            answer(shared, room, m, text).await;
            false
        }
        Verdict::Quiet => false,
    }
}

/// Runs `request`, the command of `m` found as `found`, once under `m`'s event id (off the async
/// threads; [`met_before`] has just found no receipt for it): its receipt, and whether it
/// changed a game. When the handling fails, the sender is told that nothing was changed, and
/// there is none.
async fn run_once(
    shared: &Shared,
    room: &Room,
    core: Arc<Core>,
    m: &Message,
    (request, found): (Request, Found),
) -> Option<(Receipt, bool)> {
    let (event, thread) = (
        m.event_id.to_string(),
        m.thread.as_ref().map(|t| t.to_string()),
    );
    let handled = tokio::task::spawn_blocking(move || {
        core.handle_unmet(&request, found, &event, thread.as_deref())
    })
    .await;
    match handled {
        Ok(handled) => Some((handled.receipt, handled.changed)),
        Err(e) => {
            tracing::error!("handling {} failed: {e}", m.event_id);
            let text =
                "Something went wrong while handling your command; nothing was changed. Try again.";
            answer(shared, room, m, text.into()).await;
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_quotation_is_not_part_of_the_command() {
        assert_eq!(
            strip_quote("> <@bob:x> !new lanrick\n> more\n\n!accept"),
            "!accept"
        );
        assert_eq!(strip_quote("!move a1"), "!move a1");
    }
}
