//! Rooms the bot makes, found again. Creating a room is not idempotent on Matrix: a bot that
//! dies after the homeserver made a room and before the room was recorded would make a second
//! one at its next start. So each room is made with a mark in its creation event
//! (`muster.intent` in the content of `m.room.create`, which never changes) naming what it was
//! made for — a tournament board, a direct room with a user — and before making one the bot
//! looks among the rooms it is in for one with that mark: those its client knows, and then those
//! the homeserver says it is in that its client has not yet heard of (a room made just before a
//! crash, whose sync never came; answers owed from before are sent before this run's first
//! sync).

use matrix_sdk::deserialized_responses::RawAnySyncOrStrippedState;
use matrix_sdk::ruma::OwnedRoomId;
use matrix_sdk::ruma::api::client::room::create_room::v3::CreationContent;
use matrix_sdk::ruma::events::StateEventType;
use matrix_sdk::ruma::serde::Raw;

use super::shared::Shared;

/// The key of the mark in a room's creation content.
const MARK: &str = "muster.intent";

/// The creation content that marks a room as made for `intent`.
pub fn creation(intent: &str) -> Option<Raw<CreationContent>> {
    let content = serde_json::json!({ MARK: intent });
    let raw = serde_json::value::to_raw_value(&content).ok()?;
    Some(Raw::from_json(raw))
}

/// The room the bot is in that was made for `intent`, if there is one.
pub async fn made_before(shared: &Shared, intent: &str) -> Option<OwnedRoomId> {
    for room in shared.client.joined_rooms() {
        let Ok(Some(event)) = room.get_state_event(StateEventType::RoomCreate, "").await else {
            continue;
        };
        let json = match &event {
            RawAnySyncOrStrippedState::Sync(raw) => raw.json().get(),
            RawAnySyncOrStrippedState::Stripped(raw) => raw.json().get(),
        };
        let marked = serde_json::from_str::<serde_json::Value>(json)
            .ok()
            .is_some_and(|v| v["content"][MARK].as_str() == Some(intent));
        if marked {
            return Some(room.room_id().to_owned());
        }
    }
    unheard(shared, intent).await
}

/// The room made for `intent` among those the homeserver says the bot is in and its client does
/// not know (asked of the homeserver: the rooms joined, then each one's creation).
async fn unheard(shared: &Shared, intent: &str) -> Option<OwnedRoomId> {
    use matrix_sdk::ruma::api::client::membership::joined_rooms;
    use matrix_sdk::ruma::api::client::state::get_state_event_for_key;
    let joined = match shared.client.send(joined_rooms::v3::Request::new()).await {
        Ok(r) => r.joined_rooms,
        Err(e) => {
            tracing::warn!(
                "the rooms the bot is in cannot be listed ({e}); rooms it made before a crash but never heard of are not looked for"
            );
            return None;
        }
    };
    for id in joined {
        if shared.client.get_room(&id).is_some() {
            continue;
        }
        let asked = get_state_event_for_key::v3::Request::new(
            id.clone(),
            StateEventType::RoomCreate,
            String::new(),
        );
        let Ok(answer) = shared.client.send(asked).await else {
            continue;
        };
        let marked = serde_json::from_str::<serde_json::Value>(answer.event_or_content.get())
            .ok()
            .is_some_and(|v| {
                v[MARK].as_str() == Some(intent) || v["content"][MARK].as_str() == Some(intent)
            });
        if marked {
            tracing::info!(
                "{id}, made before a restart, was not yet heard of by the client: found on the homeserver"
            );
            return Some(id);
        }
    }
    None
}
