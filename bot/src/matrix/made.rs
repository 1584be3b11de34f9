//! Rooms the bot makes, found again. Creating a room is not idempotent on Matrix: a bot that
//! dies after the homeserver made a room and before the room was recorded would make a second
//! one at its next start. So each room is made with a mark in its creation event
//! (`muster.intent` in the content of `m.room.create`, which never changes) naming what it was
//! made for — a tournament board, a direct room with a user — and before making one the bot
//! looks among the rooms it is in for one with that mark. The bot's first sync has come before
//! it makes any room, so a room made before a crash is among them.

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
    None
}
