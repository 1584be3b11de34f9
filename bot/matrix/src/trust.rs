//! The bot's identity in encrypted rooms (docs/matrix.md, "Encryption"): its device signed by
//! the account's cross-signing identity, so that Element shows its messages as from a
//! verified device; and its room keys in the homeserver's key backup, under a recovery key
//! that the operator keeps, so that a bot restored onto an empty data directory reads the
//! rooms' history again.
//!
//! - First start of the account: the identity is created (master, self-signing and
//!   user-signing keys, the device signed), with the account's password when the homeserver
//!   asks for it; then recovery is enabled (secret storage and a key backup), and the recovery
//!   key written to `<data>/matrix/recovery-key` (mode 0600), never to the log.
//! - Every later start on the same data directory finds its keys in its store: nothing is made
//!   again.
//! - A new device of an account that has an identity (a second instance, a restore onto an
//!   empty directory) adopts it with the recovery key (`matrix.recovery_key`, or the key file
//!   copied into its directory): the identity's keys and the backup's key come from secret
//!   storage, and the device is signed. Without the key it says what to do, and never makes a
//!   new identity while the old one stands.

use std::path::{Path, PathBuf};

use matrix_sdk::Client;
use matrix_sdk::encryption::recovery::RecoveryState;
use matrix_sdk::room::MessagesOptions;
use matrix_sdk::ruma::api::client::uiaa;
use matrix_sdk::ruma::events::AnySyncTimelineEvent;
use muster_config::{Login, Matrix};

use super::own_key;
use muster_core::kernel::store::GameStore;

/// The note (on the adapter's own key) by which one instance claims the making of the
/// account's identity, when several share a store: `<device> <Unix seconds>`.
const MAKING: &str = "matrix.identity";

/// How long a claim to make the identity holds, in seconds: an instance that died making it
/// leaves it to another after this.
const MAKING_TTL: u64 = 600;

/// The file in the adapter's directory that holds the recovery key.
pub fn key_path(dir: &Path) -> PathBuf {
    dir.join("recovery-key")
}

/// What [`secure`] did.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Secured {
    /// This device adopted the account's identity with the recovery key: the rooms' earlier
    /// messages are to be read back from the key backup once they are known.
    pub adopted: bool,
}

/// Gives the bot's device the account's cross-signing identity and a key backup, as the
/// module says. A failure is logged with what to do and is not fatal: the bot still plays,
/// its messages marked as from an unverified device.
pub async fn secure(
    client: &Client,
    settings: &Matrix,
    dir: &Path,
    store: &dyn GameStore,
    now: u64,
) -> Secured {
    match try_secure(client, settings, dir, store, now).await {
        Ok(secured) => secured,
        Err(why) => {
            tracing::warn!("{why}");
            Secured::default()
        }
    }
}

async fn try_secure(
    client: &Client,
    settings: &Matrix,
    dir: &Path,
    store: &dyn GameStore,
    now: u64,
) -> Result<Secured, String> {
    let encryption = client.encryption();
    encryption.wait_for_e2ee_initialization_tasks().await;
    let me = client.user_id().ok_or("no session")?.to_owned();
    let key = configured_key(settings, dir)?;
    let mut secured = Secured::default();
    let held = encryption
        .cross_signing_status()
        .await
        .is_some_and(|s| s.is_complete());
    if !held {
        let identity = encryption.request_user_identity(&me).await.map_err(|e| {
            format!("cannot look up the account's cross-signing identity ({e}); the bot's device stays unverified until the next start")
        })?;
        match (identity, &key) {
            (None, _) => {
                claim(client, store, now)?;
                bootstrap(client, settings).await?;
                tracing::info!(
                    "created the cross-signing identity of {me} and signed this device with it"
                );
            }
            (Some(_), Some(key)) => {
                recover(client, key).await?;
                secured.adopted = true;
                tracing::info!(
                    "adopted the cross-signing identity of {me} with the recovery key; this device is signed by it and backs its keys up"
                );
                return Ok(secured);
            }
            (Some(_), None) => {
                return Err(format!(
                    "{me} has a cross-signing identity that this device does not hold, so its \
                     messages show as from an unverified device: give Muster the recovery key \
                     (matrix.recovery_key or MUSTER_MATRIX_RECOVERY_KEY; it is in the \
                     recovery-key file of the data directory that first ran the account)"
                ));
            }
        }
    }
    match client.encryption().recovery().state() {
        RecoveryState::Enabled => {}
        RecoveryState::Disabled => enable(client, dir).await?,
        RecoveryState::Incomplete => match &key {
            Some(key) => recover(client, key).await?,
            None => {
                return Err(format!(
                    "the key backup of {me} is not open on this device: give Muster the \
                     recovery key (matrix.recovery_key or MUSTER_MATRIX_RECOVERY_KEY)"
                ));
            }
        },
        RecoveryState::Unknown => {
            return Err(
                "the state of the account's secret storage is not known yet; the key backup is \
                 looked at again at the next start"
                    .to_string(),
            );
        }
    }
    Ok(secured)
}

/// Opens the account's secret storage with `key`: the identity's keys and the backup's key
/// imported, this device signed.
async fn recover(client: &Client, key: &str) -> Result<(), String> {
    client
        .encryption()
        .recovery()
        .recover(key)
        .await
        .map_err(|e| {
            format!(
                "the recovery key does not open the account's secret storage ({e}): give the key \
             written when the identity was made (matrix.recovery_key)"
            )
        })
}

/// Claims the making of the identity for this device, so that two instances starting together
/// on one store do not both make one (the second would replace the first).
fn claim(client: &Client, store: &dyn GameStore, now: u64) -> Result<(), String> {
    let device = client.device_id().ok_or("no session")?.to_string();
    let mine = format!("{device} {now}");
    let unreadable = |e| format!("cannot claim the making of the cross-signing identity: {e}");
    let held = store.note(&own_key(), MAKING).map_err(unreadable)?;
    if let Some(held) = &held {
        let (by, at) = held.split_once(' ').unwrap_or((held, "0"));
        let at: u64 = at.parse().unwrap_or(0);
        if by != device && now < at.saturating_add(MAKING_TTL) {
            return Err(format!(
                "another instance (device {by}) is making the account's cross-signing identity;                  give this one the recovery key it writes (matrix.recovery_key)"
            ));
        }
    }
    if store
        .swap_note(&own_key(), MAKING, held.as_deref(), Some(&mine))
        .map_err(unreadable)?
    {
        Ok(())
    } else {
        Err("another instance is making the account's cross-signing identity; give this one the recovery key it writes (matrix.recovery_key)".to_string())
    }
}

/// The recovery key given to this instance: the setting, else the file in its directory.
fn configured_key(settings: &Matrix, dir: &Path) -> Result<Option<String>, String> {
    if let Some(key) = &settings.recovery_key {
        muster_core::telemetry::logging::redact(key.expose());
        return Ok(Some(key.expose().trim().to_string()));
    }
    let path = key_path(dir);
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let key = text.trim().to_string();
            muster_core::telemetry::logging::redact(&key);
            Ok(Some(key).filter(|k| !k.is_empty()))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// Creates the account's cross-signing identity, authenticating with the password when the
/// homeserver asks.
async fn bootstrap(client: &Client, settings: &Matrix) -> Result<(), String> {
    let encryption = client.encryption();
    let Err(first) = encryption.bootstrap_cross_signing(None).await else {
        return Ok(());
    };
    let Some(uiaa) = first.as_uiaa_response() else {
        return Err(format!("cannot create the cross-signing identity: {first}"));
    };
    let Login::Password(password) = &settings.login else {
        return Err(
            "the homeserver asks for the account's password to create its cross-signing \
             identity, and Muster signs in with an access token: set matrix.password too, or \
             create the identity from another client and give Muster its recovery key"
                .to_string(),
        );
    };
    let user = client.user_id().ok_or("no session")?.localpart().to_owned();
    let mut auth = uiaa::Password::new(
        uiaa::UserIdentifier::Matrix(uiaa::MatrixUserIdentifier::new(user)),
        password.expose().to_owned(),
    );
    auth.session = uiaa.session.clone();
    encryption
        .bootstrap_cross_signing(Some(uiaa::AuthData::Password(auth)))
        .await
        .map_err(|e| format!("cannot create the cross-signing identity: {e}"))
}

/// Enables secret storage and the key backup, and writes the new recovery key.
async fn enable(client: &Client, dir: &Path) -> Result<(), String> {
    let key = client
        .encryption()
        .recovery()
        .enable()
        .wait_for_backups_to_upload()
        .await
        .map_err(|e| format!("cannot enable the key backup: {e}"))?;
    muster_core::telemetry::logging::redact(&key);
    let path = key_path(dir);
    super::session::write_private(&path, &format!("{key}\n"))
        .map_err(|e| format!("cannot write the recovery key to {}: {e}", path.display()))?;
    tracing::info!(
        "enabled the key backup; its recovery key is in {} — keep a copy somewhere safe: a bot restored without it cannot read its rooms' history",
        path.display()
    );
    Ok(())
}

/// How many of each room's latest messages are read back after an adoption.
const READ_BACK: u32 = 50;

/// After an adoption, once the rooms are known: fetches each encrypted room's keys from the
/// backup and reads its latest messages, and says how many could be read (the boards among
/// them), so that the operator sees the restore worked.
pub async fn read_back(client: &Client) {
    let me = client.user_id().map(|u| u.to_owned());
    let (mut rooms, mut read, mut unreadable, mut boards) = (0, 0, 0, 0);
    for room in client.joined_rooms() {
        if !room.encryption_state().is_encrypted() {
            continue;
        }
        rooms += 1;
        if let Err(e) = client
            .encryption()
            .backups()
            .download_room_keys_for_room(room.room_id())
            .await
        {
            tracing::warn!(room = %room.room_id(), "cannot fetch the room's keys from the key backup: {e}");
        }
        let mut options = MessagesOptions::backward();
        options.limit = READ_BACK.into();
        let Ok(messages) = room.messages(options).await else {
            continue;
        };
        for event in messages.chunk {
            let Ok(AnySyncTimelineEvent::MessageLike(m)) = event.raw().deserialize() else {
                continue;
            };
            if m.event_type().to_string() == "m.room.encrypted" {
                unreadable += 1;
                continue;
            }
            if event.encryption_info().is_none() {
                continue;
            }
            read += 1;
            let text = event.raw().json().get();
            if Some(m.sender()) == me.as_deref() && text.contains("\"m.image\"") {
                boards += 1;
            }
        }
    }
    // Messages sent before the bot joined were never shared with it: not a fault.
    tracing::info!(
        "read back {read} of {} earlier encrypted messages in {rooms} rooms with keys from the key backup, {boards} of them the bot's boards",
        read + unreadable
    );
}
