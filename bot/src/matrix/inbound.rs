//! From a sync to commands: invitations are accepted or declined, and every room's new
//! messages are read in order. A message is a command when the core finds one in it
//! ([`crate::core::Core::command_in`]); each command runs once, guarded by the room's cursor:
//!
//! - before a command runs, the cursor notes its event and the room's game version
//!   (`<event> <version> running`); after its replies are sent, `<event> <version> done`;
//! - when a batch comes again (after a restart), everything up to the cursor's event has been
//!   handled; the cursor's own event, if still `running`, had its move saved exactly when the
//!   room's game version has moved on since — then the board is shown again instead.

use std::collections::HashMap;
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

use super::outbound::{self, Context, member_name};
use super::{PLATFORM, Shared};
use crate::core::{GameId, Policy, Reply, Request, User};
use crate::store::ChannelKey;

/// The room note holding the cursor.
const CURSOR_NOTE: &str = "matrix.cursor";

/// A message that may be a command.
#[derive(Clone, Debug)]
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

/// Per-user budgets of commands: `burst` at once, refilled at `per_minute`.
pub struct Limiter {
    per_minute: u32,
    burst: u32,
    users: HashMap<String, Budget>,
}

struct Budget {
    tokens: f64,
    at: Instant,
    warned: bool,
}

/// What the limiter says about one command.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// Run it.
    Go,
    /// Refuse it and say why (the first refusal in a row).
    Warn {
        /// Seconds until the next command will run.
        wait: u64,
    },
    /// Refuse it silently (already warned).
    Quiet,
}

impl Limiter {
    /// A limiter; `per_minute` 0 lets everything through.
    pub fn new(per_minute: u32, burst: u32) -> Limiter {
        Limiter {
            per_minute,
            burst: burst.max(1),
            users: HashMap::new(),
        }
    }

    /// Gives back the command just taken from `user`'s budget: one that moved a game on
    /// (moves come one per turn, so play is never limited).
    pub fn refund(&mut self, user: &str) {
        let burst = f64::from(self.burst);
        if let Some(b) = self.users.get_mut(user) {
            b.tokens = (b.tokens + 1.0).min(burst);
        }
    }

    /// Takes one command from `user`'s budget at `now`.
    pub fn check(&mut self, user: &str, now: Instant) -> Verdict {
        if self.per_minute == 0 {
            return Verdict::Go;
        }
        let rate = f64::from(self.per_minute) / 60.0;
        let burst = f64::from(self.burst);
        let budget = self.users.entry(user.to_string()).or_insert(Budget {
            tokens: burst,
            at: now,
            warned: false,
        });
        let elapsed = now.saturating_duration_since(budget.at).as_secs_f64();
        budget.tokens = (budget.tokens + elapsed * rate).min(burst);
        budget.at = now;
        if budget.tokens >= 1.0 {
            budget.tokens -= 1.0;
            budget.warned = false;
            Verdict::Go
        } else if budget.warned {
            Verdict::Quiet
        } else {
            budget.warned = true;
            Verdict::Warn {
                wait: ((1.0 - budget.tokens) / rate).ceil() as u64,
            }
        }
    }
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
                Ok(()) => eprintln!("muster: Matrix: joined {room_id} (invited by {inviter})"),
                Err(e) => eprintln!("muster: Matrix: cannot join {room_id}: {e}"),
            }
        } else {
            eprintln!(
                "muster: Matrix: declined an invitation to {room_id} from {inviter} (not in matrix.auto_join)"
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

/// Handles every joined room's new messages, the rooms side by side, each room in order.
pub async fn rooms(shared: &Arc<Shared>, response: &SyncResponse) {
    let Some(me) = shared.client.user_id().map(ToOwned::to_owned) else {
        return;
    };
    let mut tasks = Vec::new();
    for (room_id, update) in &response.rooms.joined {
        let messages = messages(&me, &update.timeline.events);
        if messages.is_empty() {
            continue;
        }
        let shared = Arc::clone(shared);
        let room_id = room_id.clone();
        tasks.push(tokio::spawn(async move {
            room(&shared, &room_id, messages).await;
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
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

/// A room's cursor: the last command handled (or being handled) there.
struct Cursor {
    event: String,
    version: String,
    done: bool,
}

impl Cursor {
    fn read(shared: &Shared, key: &ChannelKey) -> Option<Cursor> {
        let text = shared.store().note(key, CURSOR_NOTE).ok()??;
        let mut parts = text.split(' ');
        Some(Cursor {
            event: parts.next()?.to_string(),
            version: parts.next()?.to_string(),
            done: parts.next()? == "done",
        })
    }

    fn write(&self, shared: &Shared, key: &ChannelKey) -> Result<(), String> {
        let text = format!(
            "{} {} {}",
            self.event,
            self.version,
            if self.done { "done" } else { "running" }
        );
        shared
            .store()
            .set_note(key, CURSOR_NOTE, Some(&text))
            .map_err(|e| e.to_string())
    }
}

/// The room's game as a version string: which game and which write of it.
fn version(shared: &Shared, key: &ChannelKey) -> String {
    match shared.store().load(key) {
        Ok(Some(r)) => format!("{}.{}", r.id, r.version),
        _ => "-".to_string(),
    }
}

async fn room(shared: &Arc<Shared>, room_id: &OwnedRoomId, messages: Vec<Message>) {
    let Some(room) = shared.client.get_room(room_id) else {
        return;
    };
    let key = ChannelKey::new(PLATFORM, room_id.as_str());
    let cursor = Cursor::read(shared, &key);
    // Skip what an earlier run handled: everything up to the cursor's event.
    let start = cursor
        .as_ref()
        .and_then(|c| messages.iter().position(|m| m.event_id.as_str() == c.event))
        .map_or(0, |i| i + 1);
    if let Some(c) = cursor.as_ref().filter(|c| !c.done)
        && start > 0
    {
        let m = &messages[start - 1];
        if version(shared, &key) == c.version {
            // It never ran to its save: run it now.
            command(shared, &room, &key, m).await;
        } else {
            // Its move was saved, its replies perhaps not: show the board again.
            let ctx = Context::new(&room, m).await;
            let replies = run_core(shared, &room, &ctx, m, "board".into()).await;
            let replies: Vec<Reply> = replies
                .into_iter()
                .filter(|r| !matches!(r, Reply::Private(_)))
                .collect();
            outbound::send(shared, &ctx, replies).await;
            let _ = Cursor {
                event: c.event.clone(),
                version: c.version.clone(),
                done: true,
            }
            .write(shared, &key);
        }
    }
    for m in &messages[start..] {
        command(shared, &room, &key, m).await;
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
    let games = shared
        .settings
        .rooms
        .get(room.room_id().as_str())
        .and_then(|r| r.games.as_ref())
        .map(|names| {
            names
                .iter()
                .filter_map(|n| n.parse::<GameId>().ok())
                .collect()
        });
    Policy {
        games,
        organiser,
        threads: false,
    }
}

async fn run_core(
    shared: &Arc<Shared>,
    room_handle: &Room,
    ctx: &Context,
    m: &Message,
    text: String,
) -> Vec<Reply> {
    let room = room_handle.room_id().as_str();
    let policy = policy(shared, room_handle, &m.sender).await;
    let mut mentions = Vec::new();
    for id in &m.mentions {
        mentions.push(User {
            id: id.to_string(),
            name: member_name(room_handle, id).await,
        });
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
                    mentions.push(User {
                        id: id.to_string(),
                        name: member.name().to_string(),
                    });
                }
            }
        }
    }
    let request = Request {
        platform: PLATFORM.into(),
        channel: room.to_string(),
        user: User {
            id: m.sender.to_string(),
            name: ctx.name().to_string(),
        },
        text,
        mentions,
        policy,
    };
    let core = Arc::clone(shared.core(room));
    tokio::task::spawn_blocking(move || core.handle(&request))
        .await
        .unwrap_or_else(|_| {
            vec![Reply::Private(
                "Something went wrong while handling your command; nothing was changed. Try again."
                    .into(),
            )]
        })
}

/// Runs one message if it is a command, under the cursor and the sender's budget.
async fn command(shared: &Arc<Shared>, room: &Room, key: &ChannelKey, m: &Message) {
    let started = Instant::now();
    let decrypted;
    let m = match &m.undecrypted {
        None => m,
        Some(raw) => match decrypt(room, raw).await {
            Ok(Some(d)) => {
                decrypted = d;
                &decrypted
            }
            Ok(None) => return,
            Err(()) => {
                let device = shared
                    .client
                    .device_id()
                    .map(|d| d.to_string())
                    .unwrap_or_default();
                let ctx = Context::new(room, m).await;
                outbound::send(
                    shared,
                    &ctx,
                    vec![Reply::Private(format!(
                        "I could not read your encrypted message: its key has not reached my device \
                         ({device}). Please send it again; if this keeps happening, let your client \
                         share keys with unverified devices."
                    ))],
                )
                .await;
                return;
            }
        },
    };
    let room_id = room.room_id().as_str().to_string();
    let user = User {
        id: m.sender.to_string(),
        name: String::new(),
    };
    let core = Arc::clone(shared.core(&room_id));
    let (body, room_for_core) = (m.body.clone(), room_id.clone());
    let Ok(Some(text)) = tokio::task::spawn_blocking(move || {
        core.command_in(PLATFORM, &room_for_core, &user, &body)
    })
    .await
    else {
        return;
    };
    let ctx = Context::new(room, m).await;
    let verdict = shared
        .limiter
        .lock()
        .map(|mut l| l.check(m.sender.as_str(), Instant::now()))
        .unwrap_or(Verdict::Go);
    match verdict {
        Verdict::Go => {}
        Verdict::Warn { wait } => {
            let (per_minute, burst) = (shared.settings.rate_per_minute, shared.settings.rate_burst);
            outbound::send(
                shared,
                &ctx,
                vec![Reply::Private(format!(
                    "Slow down: apart from moves, each player may send {burst} commands at once and \
                     {per_minute} a minute here. This one was not run; send it again in {wait} s."
                ))],
            )
            .await;
            return;
        }
        Verdict::Quiet => return,
    }
    let mut cursor = Cursor {
        event: m.event_id.to_string(),
        version: version(shared, key),
        done: false,
    };
    if let Err(e) = cursor.write(shared, key) {
        outbound::send(
            shared,
            &ctx,
            vec![Reply::Private(format!(
                "The game store is not available ({e}); nothing was changed. Try again."
            ))],
        )
        .await;
        return;
    }
    let replies = run_core(shared, room, &ctx, m, text).await;
    let handled = started.elapsed();
    if version(shared, key) != cursor.version
        && let Ok(mut limiter) = shared.limiter.lock()
    {
        limiter.refund(m.sender.as_str());
    }
    outbound::send(shared, &ctx, replies).await;
    cursor.done = true;
    let _ = cursor.write(shared, key);
    if std::env::var_os("MUSTER_MATRIX_TIMINGS").is_some() {
        eprintln!(
            "muster: Matrix: {} answered in {:.2} ms (core {:.2} ms)",
            m.event_id,
            started.elapsed().as_secs_f64() * 1000.0,
            handled.as_secs_f64() * 1000.0
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limiter_allows_a_burst_then_the_rate_and_warns_once() {
        let mut l = Limiter::new(60, 3);
        let t = Instant::now();
        for _ in 0..3 {
            assert_eq!(l.check("@a:x", t), Verdict::Go);
        }
        assert_eq!(l.check("@a:x", t), Verdict::Warn { wait: 1 });
        assert_eq!(l.check("@a:x", t), Verdict::Quiet);
        // Another user has his own budget.
        assert_eq!(l.check("@b:x", t), Verdict::Go);
        // A second later one more command is allowed.
        let later = t + std::time::Duration::from_secs(1);
        assert_eq!(l.check("@a:x", later), Verdict::Go);
        assert_eq!(l.check("@a:x", later), Verdict::Warn { wait: 1 });
        assert_eq!(Limiter::new(0, 1).check("@a:x", t), Verdict::Go);
        // A command that moved a game on is given back.
        let mut l = Limiter::new(60, 1);
        assert_eq!(l.check("@a:x", t), Verdict::Go);
        l.refund("@a:x");
        assert_eq!(l.check("@a:x", t), Verdict::Go);
        assert_eq!(l.check("@a:x", t), Verdict::Warn { wait: 1 });
    }

    #[test]
    fn a_reply_quotation_is_not_part_of_the_command() {
        assert_eq!(
            strip_quote("> <@bob:x> !new lanrick\n> more\n\n!accept"),
            "!accept"
        );
        assert_eq!(strip_quote("!move a1"), "!move a1");
    }
}
