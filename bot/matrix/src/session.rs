//! Signing in: the first start logs in (password or access token) and keeps the session in
//! `<data>/matrix/session.json`; every later start restores it, so the bot stays one device
//! with one set of encryption keys (kept in `<data>/matrix/store`, an SQLite store).

use std::path::Path;

use matrix_sdk::authentication::matrix::MatrixSession;
use matrix_sdk::ruma::{OwnedDeviceId, OwnedUserId};
use matrix_sdk::store::StateStoreDataKey;
use matrix_sdk::{Client, SessionMeta, SessionTokens};
use muster_config::{Login, Matrix};
use serde::{Deserialize, Serialize};

/// What is kept of a session. The access token is a secret: the file is readable by its
/// owner only.
#[derive(Serialize, Deserialize)]
struct Saved {
    homeserver: String,
    user_id: String,
    device_id: String,
    access_token: String,
}

fn session_path(dir: &Path) -> std::path::PathBuf {
    dir.join("session.json")
}

async fn client(homeserver: &str, store: Option<&Path>) -> Result<Client, String> {
    // The configured address is used on every start: a login answer naming another base URL
    // (its `well_known`) does not move the bot off it, as a restored session would not be.
    let mut builder = Client::builder()
        .homeserver_url(homeserver)
        .respect_login_well_known(false);
    if let Some(path) = store {
        builder = builder.sqlite_store(path, None);
    }
    let client = builder
        .build()
        .await
        .map_err(|e| format!("cannot set up the Matrix client for {homeserver}: {e}"))?;
    // The SDK drops a sync response whose token equals the one it stored last, as a repeat.
    // The adapter keeps its own sync position and asks from there: after a crash the homeserver
    // may answer with the very response the SDK saw (and stored the token of) just before,
    // whose messages the adapter still has to handle. So the SDK starts with no token of its
    // own (it is read when the session is restored, just after this).
    client
        .state_store()
        .remove_kv_data(StateStoreDataKey::SyncToken)
        .await
        .map_err(|e| format!("cannot reset the Matrix client's sync position: {e}"))?;
    Ok(client)
}

fn write_session(dir: &Path, saved: &Saved) -> Result<(), String> {
    let text = serde_json::to_string_pretty(saved).map_err(|e| e.to_string())?;
    let path = session_path(dir);
    write_private(&path, &text)
        .map_err(|e| format!("cannot keep the Matrix session in {}: {e}", path.display()))
}

/// Writes `text` to `path`, readable by its owner only, whole or not at all (beside it first,
/// then moved over it).
pub(super) fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    let tmp = path.with_extension("tmp");
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    use std::io::Write;
    let mut f = options.open(&tmp)?;
    f.write_all(text.as_bytes())?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)
}

fn restore_from(saved: &Saved) -> Result<MatrixSession, String> {
    let user_id: OwnedUserId = saved
        .user_id
        .parse()
        .map_err(|e| format!("the stored session names a bad user id: {e}"))?;
    let device_id: OwnedDeviceId = saved.device_id.as_str().into();
    Ok(MatrixSession {
        meta: SessionMeta { user_id, device_id },
        tokens: SessionTokens {
            access_token: saved.access_token.clone(),
            refresh_token: None,
        },
    })
}

/// Never logs the session's tokens (access and refresh).
fn redact_tokens(tokens: &SessionTokens) {
    muster_core::telemetry::logging::redact(&tokens.access_token);
    if let Some(refresh) = &tokens.refresh_token {
        muster_core::telemetry::logging::redact(refresh);
    }
}

/// The session a configured access token belongs to (asked of the homeserver).
async fn token_session(settings: &Matrix, token: &str) -> Result<MatrixSession, String> {
    let probe = client(&settings.homeserver, None).await?;
    let placeholder: OwnedUserId = if settings.user.starts_with('@') {
        settings
            .user
            .parse()
            .map_err(|e| format!("matrix.user: {e}"))?
    } else {
        "@muster:invalid".parse().map_err(|e| format!("{e}"))?
    };
    probe
        .matrix_auth()
        .restore_session(
            MatrixSession {
                meta: SessionMeta {
                    user_id: placeholder,
                    device_id: "MUSTERPROBE".into(),
                },
                tokens: SessionTokens {
                    access_token: token.to_string(),
                    refresh_token: None,
                },
            },
            matrix_sdk::store::RoomLoadSettings::default(),
        )
        .await
        .map_err(|e| format!("cannot use the access token: {e}"))?;
    let me = probe.whoami().await.map_err(|e| {
        format!("the homeserver refused the access token (matrix.access_token): {e}")
    })?;
    let device_id = me.device_id.ok_or(
        "the access token has no device (use a token from a login, or a password: see docs/matrix.md)",
    )?;
    Ok(MatrixSession {
        meta: SessionMeta {
            user_id: me.user_id,
            device_id,
        },
        tokens: SessionTokens {
            access_token: token.to_string(),
            refresh_token: None,
        },
    })
}

/// A client signed in as the bot, its session and keys kept in `dir`.
pub async fn connect(settings: &Matrix, dir: &Path) -> Result<Client, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let stored = stored(settings, dir)?;
    let store = dir.join("store");
    if stored.is_none() && store.exists() {
        set_aside(dir, &store)?;
    }
    let client = client(&settings.homeserver, Some(&store)).await?;
    if let Some(saved) = stored {
        muster_core::telemetry::logging::redact(&saved.access_token);
        client
            .restore_session(restore_from(&saved)?)
            .await
            .map_err(|e| format!("cannot restore the Matrix session: {e}"))?;
        tracing::info!("restored {} (device {})", saved.user_id, saved.device_id);
        return Ok(client);
    }
    let session = log_in(settings, &client).await?;
    redact_tokens(&session.tokens);
    write_session(
        dir,
        &Saved {
            homeserver: settings.homeserver.clone(),
            user_id: session.meta.user_id.to_string(),
            device_id: session.meta.device_id.to_string(),
            access_token: session.tokens.access_token.clone(),
        },
    )?;
    tracing::info!(
        "logged in as {} (new device {})",
        session.meta.user_id,
        session.meta.device_id
    );
    Ok(client)
}

/// The session kept in `dir`, if there is one for the configured homeserver and user; a
/// session file that cannot be read is an error.
fn stored(settings: &Matrix, dir: &Path) -> Result<Option<Saved>, String> {
    let stored: Option<Saved> = match std::fs::read_to_string(session_path(dir)) {
        Ok(text) => Some(serde_json::from_str(&text).map_err(|e| {
            format!(
                "{} cannot be read ({e}); move the directory {} aside to log in afresh",
                session_path(dir).display(),
                dir.display()
            )
        })?),
        Err(_) => None,
    };
    Ok(stored.filter(|s| {
        let same = s.homeserver == settings.homeserver
            && (!settings.user.starts_with('@') || s.user_id == settings.user);
        if !same {
            tracing::warn!(
                "the stored session is for {} on {}; logging in as configured",
                s.user_id,
                s.homeserver
            );
        }
        same
    }))
}

/// Moves the keys of another device (the client's `store` in `dir`) aside, rather than mixing
/// two devices.
fn set_aside(dir: &Path, store: &Path) -> Result<(), String> {
    let aside = dir.join(format!(
        "store.old-{}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    ));
    std::fs::rename(store, &aside)
        .map_err(|e| format!("cannot move {} aside: {e}", store.display()))
}

/// Signs `client` in as configured, with the password or the access token; the new session.
async fn log_in(settings: &Matrix, client: &Client) -> Result<MatrixSession, String> {
    Ok(match &settings.login {
        Login::Password(password) => {
            muster_core::telemetry::logging::redact(password.expose());
            client
                .matrix_auth()
                .login_username(&settings.user, password.expose())
                .initial_device_display_name(&settings.device_name)
                .send()
                .await
                .map_err(|e| {
                    format!(
                        "the homeserver refused the login of {} (matrix.user / matrix.password): {e}",
                        settings.user
                    )
                })?;
            client
                .matrix_auth()
                .session()
                .ok_or("the login gave no session")?
        }
        Login::Token(token) => {
            muster_core::telemetry::logging::redact(token.expose());
            let session = token_session(settings, token.expose()).await?;
            client
                .restore_session(session.clone())
                .await
                .map_err(|e| format!("cannot use the access token: {e}"))?;
            session
        }
    })
}
