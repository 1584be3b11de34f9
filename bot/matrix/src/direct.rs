//! A user's direct room with the bot: found among the rooms the bot shares with him, or made
//! and remembered (a note per user), for reminders sent as direct messages.

use matrix_sdk::ruma::api::client::room::create_room;
use matrix_sdk::ruma::events::InitialStateEvent;
use matrix_sdk::ruma::events::room::encryption::RoomEncryptionEventContent;
use matrix_sdk::ruma::events::room::member::MembershipState;
use matrix_sdk::ruma::{OwnedUserId, UserId};
use matrix_sdk::{Room, RoomState};

use super::PLATFORM;
use super::made;
use super::retry::{Failed, retrying};
use super::shared::Shared;
use muster_core::desk::{Receipt, User};
use muster_core::kernel::store::ChannelKey;

/// The key whose notes hold each user's direct room (the note's name is the user's id).
fn direct_key() -> ChannelKey {
    ChannelKey::new(PLATFORM, "\u{1e}direct")
}

/// Whether `room` is the direct room kept for `user` (what the bot says there, he alone
/// reads).
pub fn is_direct_room_of(shared: &Shared, room: &str, user: &str) -> bool {
    shared
        .store()
        .note(&direct_key(), user)
        .ok()
        .flatten()
        .is_some_and(|kept| kept == room)
}

/// Whether `receipt` is a notice to a user whose direct room is not settled yet.
pub fn is_direct(receipt: &Receipt) -> bool {
    receipt.direct || receipt.channel.starts_with('@')
}

/// The id of the direct room with `user`: the one kept, if the bot is still in it and the user
/// has not left it; else a new one, to which he is invited.
pub async fn direct_room(shared: &Shared, user: &User) -> Result<String, Failed> {
    let Ok(user_id) = UserId::parse(&user.id) else {
        tracing::warn!("{} is no user id", user.id);
        return Err(Failed::Refused);
    };
    // One at a time, so that a user never gets two rooms.
    let _one = shared.direct.lock().await;
    let store = shared.store();
    let kept = store.note(&direct_key(), &user.id).ok().flatten();
    if let Some(room) = kept
        .as_deref()
        .and_then(|id| id.try_into().ok())
        .and_then(|id: matrix_sdk::ruma::OwnedRoomId| shared.client.get_room(&id))
        .filter(|room| room.state() == RoomState::Joined)
    {
        match membership(&room, &user_id).await {
            Some(MembershipState::Join | MembershipState::Invite) => {
                return Ok(room.room_id().to_string());
            }
            // Not invited as far as the bot knows (an invitation that failed before): invited
            // now. Refused, the room is used all the same (he may be in it after all).
            None => {
                if let Err(Failed::Later) = invite(shared, &room, &user_id).await {
                    return Err(Failed::Later);
                }
                return Ok(room.room_id().to_string());
            }
            // He left it (or declined it): the bot leaves too, and makes a new one.
            Some(_) => {
                tracing::info!(
                    "{} left the direct room {}; making a new one",
                    user.id,
                    room.room_id()
                );
                let _ = room.leave().await;
            }
        }
    }
    // Made for this user, replacing the room kept (if any): one made so before a crash, and
    // never kept, is used rather than made again.
    let intent = format!(
        "{:016x}",
        muster_core::kernel::kept::fnv1a(&[
            "direct",
            &user.id,
            kept.as_deref().unwrap_or_default()
        ])
    );
    if let Some(room) = made::made_before(shared, &intent).await {
        let id = room.to_string();
        if let Err(e) = store.set_note(&direct_key(), &user.id, Some(&id)) {
            tracing::error!("cannot keep {id} as the direct room with {}: {e}", user.id);
        }
        tracing::info!(
            "found {id}, a direct room with {} made before a restart",
            user.id
        );
        return Ok(id);
    }
    let request = direct_request(&intent, &user_id);
    let what = format!("opening a direct room with {}", user.id);
    let room = retrying(&what, || shared.client.create_room(request.clone())).await?;
    let id = room.room_id().to_string();
    if let Err(e) = store.set_note(&direct_key(), &user.id, Some(&id)) {
        tracing::error!("cannot keep {id} as the direct room with {}: {e}", user.id);
    }
    tracing::info!("made {id}, a direct room with {}", user.id);
    Ok(id)
}

/// The request that creates the direct room with `user` for `intent`: he is invited in the
/// room's creation, so that his invitation is marked direct (`is_direct`), as clients make
/// direct chats (matrix-sdk marks the room in the bot's `m.direct`), and it is encrypted.
fn direct_request(intent: &str, user: &UserId) -> create_room::v3::Request {
    let mut request = create_room::v3::Request::new();
    request.creation_content = made::creation(intent);
    request.is_direct = true;
    request.invite = vec![user.to_owned()];
    request.preset = Some(create_room::v3::RoomPreset::TrustedPrivateChat);
    request.initial_state = vec![
        InitialStateEvent::with_empty_state_key(
            RoomEncryptionEventContent::with_recommended_defaults(),
        )
        .to_raw_any(),
    ];
    request
}

/// `user`'s membership of `room` (asked of the homeserver when the client does not know it);
/// `None` when he was never a member.
async fn membership(room: &Room, user: &UserId) -> Option<MembershipState> {
    let member = match room.get_member(user).await {
        Ok(m) => m,
        Err(_) => room.get_member_no_sync(user).await.ok().flatten(),
    };
    member.map(|m| m.membership().clone())
}

/// Invites `user` again to the direct room `room` (an invitation that failed), and marks it as
/// direct with him in the bot's `m.direct` account data.
pub async fn invite(shared: &Shared, room: &Room, user: &OwnedUserId) -> Result<(), Failed> {
    let what = format!("inviting {user} to {}", room.room_id());
    retrying(&what, || room.invite_user_by_id(user)).await?;
    let what = format!("marking {} as direct with {user}", room.room_id());
    let account = shared.client.account();
    let marked = retrying(&what, || {
        account.mark_as_dm(room.room_id(), std::slice::from_ref(user))
    })
    .await;
    // Without the mark the room still works; clients just list it among the others.
    let _ = marked;
    Ok(())
}
