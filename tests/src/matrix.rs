//! A real Matrix client for the end-to-end suites: a [`Player`] logs in to a test
//! [`Synapse`](crate::synapse::Synapse) with matrix-sdk, keeps syncing in the background and
//! records every `m.room.message` it receives (decrypted, in encrypted rooms) as a [`Seen`].
//!
//! Tests wait for what they expect with a mark taken before acting:
//!
//! ```ignore
//! let mark = alice.mark();
//! alice.send_text(&room, "!move e2e4").await;
//! let reply = alice.wait_for_after(mark, &room, 10, |s| s.sender == bot).await;
//! ```
//!
//! Encrypted rooms: the player encrypts for every device of every joined or invited member
//! whose device keys the server knows when it sends. A device (the bot) can only decrypt
//! messages sent after it uploaded its keys, which matrix-sdk does on its first sync: let the
//! other client sync once before a player sends to it.
//!
//! A [`ProcessLog`] keeps what the bot's process writes to standard error, for waiting on what
//! it says (`listening as …`, a manual clock's `[clock] <time>`) without polling.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use matrix_sdk::Client;
use matrix_sdk::attachment::{AttachmentConfig, AttachmentInfo, BaseImageInfo};
use matrix_sdk::config::SyncSettings;
use matrix_sdk::deserialized_responses::{TimelineEvent, TimelineEventKind};
use matrix_sdk::media::{MediaFormat, MediaRequestParameters};
use matrix_sdk::ruma::api::client::membership::joined_members;
use matrix_sdk::ruma::api::client::room::create_room;
use matrix_sdk::ruma::events::InitialStateEvent;
use matrix_sdk::ruma::events::room::MediaSource;
use matrix_sdk::ruma::events::room::encryption::RoomEncryptionEventContent;
use matrix_sdk::ruma::presence::PresenceState;
use matrix_sdk::ruma::{OwnedMxcUri, OwnedRoomId, OwnedUserId, RoomId, UInt};
use matrix_sdk::sync::SyncResponse;
use serde_json::{Value, json};
use tokio::sync::Notify;
use tokio::task::JoinHandle;

use crate::synapse::{Account, Synapse};

/// One `m.room.message` a player received.
#[derive(Clone, Debug)]
pub struct Seen {
    /// The room id.
    pub room: String,
    /// The event id.
    pub event_id: String,
    /// The sender's user id.
    pub sender: String,
    /// `m.text`, `m.notice`, `m.image`, `m.file`… For an event this client could not decrypt,
    /// `m.room.encrypted` (and the reason as the body).
    pub msgtype: String,
    /// The plain-text body.
    pub body: String,
    /// The HTML body (`format: org.matrix.custom.html`), if any.
    pub formatted_body: Option<String>,
    /// The users in `m.mentions.user_ids`.
    pub mentions: Vec<String>,
    /// The event this one replies to (`m.relates_to.m.in_reply_to`).
    pub in_reply_to: Option<String>,
    /// The thread's root event (`m.relates_to` with `rel_type: m.thread`).
    pub thread_root: Option<String>,
    /// For `m.image`: the image and its metadata.
    pub image: Option<ImageInfo>,
    /// The `filename` field (attachments), if any.
    pub filename: Option<String>,
    /// `origin_server_ts`, in milliseconds since the Unix epoch.
    pub ts_ms: u64,
    /// When this client received it.
    pub seen_at: Instant,
    /// The whole (decrypted) content, for anything else.
    pub content: Value,
}

/// An image message's picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageInfo {
    /// Its `mxc://` URI (of the encrypted file, in an encrypted room).
    pub url: String,
    /// `info.mimetype`.
    pub mimetype: Option<String>,
    /// `info.size`, in bytes.
    pub size: Option<u64>,
    /// `info.w`.
    pub width: Option<u64>,
    /// `info.h`.
    pub height: Option<u64>,
}

/// What a player has received, shared with its sync task.
#[derive(Default)]
struct Log {
    seen: Mutex<Vec<Seen>>,
    changed: Notify,
}

/// A Matrix user logged in with matrix-sdk, syncing in the background (see the module
/// documentation).
pub struct Player {
    client: Client,
    log: Arc<Log>,
    sync: JoinHandle<()>,
}

impl Drop for Player {
    fn drop(&mut self) {
        self.sync.abort();
    }
}

impl std::fmt::Debug for Player {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Player")
            .field("user_id", &self.client.user_id())
            .finish_non_exhaustive()
    }
}

/// Parses a room id, panicking with a clear message.
fn room_id(room: &str) -> OwnedRoomId {
    RoomId::parse(room).unwrap_or_else(|e| panic!("not a room id: {room:?} ({e})"))
}

/// Parses a user id, panicking with a clear message.
fn user_id(user: &str) -> OwnedUserId {
    OwnedUserId::try_from(user).unwrap_or_else(|e| panic!("not a user id: {user:?} ({e})"))
}

impl Player {
    /// Logs `account` in as a new device (password login, in-memory stores), syncs once, then
    /// keeps syncing in the background.
    pub async fn login(synapse: &Synapse, account: &Account) -> Player {
        let client = Client::builder()
            .homeserver_url(synapse.url())
            .build()
            .await
            .unwrap_or_else(|e| panic!("cannot build a client for {}: {e}", synapse.url()));
        client
            .matrix_auth()
            .login_username(&account.user_id, &account.password)
            .initial_device_display_name("muster-tests player")
            .send()
            .await
            .unwrap_or_else(|e| panic!("{} cannot log in: {e}", account.user_id));
        let log = Arc::new(Log::default());
        // Offline: no presence; 10 s long polls (the server answers at once when there is news).
        let settings = SyncSettings::new()
            .timeout(Duration::from_secs(10))
            .set_presence(PresenceState::Offline);
        let first = client
            .sync_once(settings.clone())
            .await
            .unwrap_or_else(|e| panic!("{}: first sync failed: {e}", account.user_id));
        record(&log, &first);
        let sync = tokio::spawn(sync_loop(
            client.clone(),
            settings,
            first.next_batch,
            log.clone(),
        ));
        Player { client, log, sync }
    }

    /// The matrix-sdk client, for anything this type does not offer.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// The full user id.
    pub fn user_id(&self) -> String {
        self.client.user_id().expect("logged in").to_string()
    }

    /// The joined room, as matrix-sdk knows it (panics when it is unknown).
    fn room(&self, room: &str) -> matrix_sdk::Room {
        self.client
            .get_room(&room_id(room))
            .unwrap_or_else(|| panic!("{} does not know room {room}", self.user_id()))
    }

    /// Creates a private room named `name`, inviting `invite`; with `encrypted`, end-to-end
    /// encrypted from its creation (m.room.encryption in the initial state). Returns its id.
    pub async fn create_room(&self, name: &str, invite: &[&str], encrypted: bool) -> String {
        let mut request = create_room::v3::Request::new();
        request.name = Some(name.to_owned());
        request.invite = invite.iter().map(|u| user_id(u)).collect();
        request.preset = Some(create_room::v3::RoomPreset::PrivateChat);
        if encrypted {
            let content = RoomEncryptionEventContent::with_recommended_defaults();
            request.initial_state =
                vec![InitialStateEvent::with_empty_state_key(content).to_raw_any()];
        }
        let room = self
            .client
            .create_room(request)
            .await
            .unwrap_or_else(|e| panic!("{} cannot create room {name:?}: {e}", self.user_id()));
        room.room_id().to_string()
    }

    /// Invites `user` to `room`.
    pub async fn invite(&self, room: &str, user: &str) {
        self.room(room)
            .invite_user_by_id(&user_id(user))
            .await
            .unwrap_or_else(|e| panic!("{} cannot invite {user} to {room}: {e}", self.user_id()));
    }

    /// Joins `room` (by id; after an invitation, for a private room).
    pub async fn join(&self, room: &str) {
        self.client
            .join_room_by_id(&room_id(room))
            .await
            .unwrap_or_else(|e| panic!("{} cannot join {room}: {e}", self.user_id()));
    }

    /// The rooms this player is invited to and has not joined (as of its last sync).
    pub fn invitations(&self) -> Vec<String> {
        self.client
            .invited_rooms()
            .iter()
            .map(|r| r.room_id().to_string())
            .collect()
    }

    /// Waits until this player is invited to a room, and returns the first such room's id.
    pub async fn wait_for_invitation(&self, timeout_secs: u64) -> String {
        let deadline = Instant::now() + Duration::from_secs(timeout_secs);
        loop {
            if let Some(room) = self.invitations().into_iter().next() {
                return room;
            }
            assert!(
                Instant::now() < deadline,
                "{} got no invitation within {timeout_secs} s",
                self.user_id()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Sends the message-like event content `content` (`m.room.message` JSON) to `room`,
    /// encrypted when the room is; returns the event id.
    pub async fn send_content(&self, room: &str, content: Value) -> String {
        let sent = self
            .room(room)
            .send_raw("m.room.message", content)
            .await
            .unwrap_or_else(|e| panic!("{} cannot send to {room}: {e}", self.user_id()));
        sent.response.event_id.to_string()
    }

    /// Sends a plain `m.text` message; returns its event id.
    pub async fn send_text(&self, room: &str, body: &str) -> String {
        self.send_content(room, json!({"msgtype": "m.text", "body": body}))
            .await
    }

    /// Sends an `m.text` message in the thread rooted at `root`; returns its event id.
    pub async fn send_text_in_thread(&self, room: &str, root: &str, body: &str) -> String {
        let content = json!({
            "msgtype": "m.text",
            "body": body,
            "m.relates_to": {
                "rel_type": "m.thread",
                "event_id": root,
                "is_falling_back": true,
                "m.in_reply_to": {"event_id": root},
            },
        });
        self.send_content(room, content).await
    }

    /// Sends an `m.text` message replying to the event `to`; returns its event id.
    pub async fn send_reply(&self, room: &str, to: &str, body: &str) -> String {
        let content = json!({
            "msgtype": "m.text",
            "body": body,
            "m.relates_to": {"m.in_reply_to": {"event_id": to}},
        });
        self.send_content(room, content).await
    }

    /// Sends an `m.text` message mentioning `users` (`m.mentions.user_ids`); returns its id.
    pub async fn send_with_mentions(&self, room: &str, body: &str, users: &[&str]) -> String {
        let content = json!({
            "msgtype": "m.text",
            "body": body,
            "m.mentions": {"user_ids": users},
        });
        self.send_content(room, content).await
    }

    /// Uploads `data` and sends it as an `m.image` (encrypted in an encrypted room), with its
    /// size and dimensions; returns the event id.
    pub async fn send_image(
        &self,
        room: &str,
        filename: &str,
        mimetype: &str,
        data: Vec<u8>,
        (width, height): (u32, u32),
    ) -> String {
        let mime: mime::Mime = mimetype
            .parse()
            .unwrap_or_else(|e| panic!("not a MIME type: {mimetype} ({e})"));
        let info = BaseImageInfo {
            width: Some(UInt::from(width)),
            height: Some(UInt::from(height)),
            size: UInt::try_from(data.len() as u64).ok(),
            ..BaseImageInfo::default()
        };
        let config = AttachmentConfig::new().info(AttachmentInfo::Image(info));
        let sent = self
            .room(room)
            .send_attachment(filename, &mime, data, config)
            .await
            .unwrap_or_else(|e| panic!("{} cannot send {filename} to {room}: {e}", self.user_id()));
        sent.event_id.to_string()
    }

    /// Downloads the media `mxc` (authenticated media). When the player received it as an
    /// encrypted attachment, decrypts it.
    pub async fn download(&self, mxc: &str) -> Vec<u8> {
        let encrypted = self.log.seen.lock().expect("log").iter().find_map(|s| {
            let file = s.content.get("file")?;
            (file.get("url")?.as_str()? == mxc).then(|| file.clone())
        });
        let source = match encrypted {
            Some(file) => MediaSource::Encrypted(Box::new(
                serde_json::from_value(file).expect("an encrypted file's description"),
            )),
            None => MediaSource::Plain(OwnedMxcUri::from(mxc)),
        };
        let request = MediaRequestParameters {
            source,
            format: MediaFormat::File,
        };
        self.client
            .media()
            .get_media_content(&request, false)
            .await
            .unwrap_or_else(|e| panic!("{} cannot download {mxc}: {e}", self.user_id()))
    }

    /// The users joined to `room` now, as the server says.
    pub async fn joined_members(&self, room: &str) -> Vec<String> {
        let request = joined_members::v3::Request::new(room_id(room));
        let response = self
            .client
            .send(request)
            .await
            .unwrap_or_else(|e| panic!("{}: members of {room}: {e}", self.user_id()));
        response.joined.keys().map(ToString::to_string).collect()
    }

    /// Waits until `user` has joined `room`.
    pub async fn wait_until_joined(&self, room: &str, user: &str, timeout_secs: u64) {
        let deadline = Instant::now() + Duration::from_secs(timeout_secs);
        loop {
            let members = self.joined_members(room).await;
            if members.iter().any(|m| m == user) {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{user} did not join {room} within {timeout_secs} s; members: {members:?}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// A mark in what this player has received: [`wait_for_after`](Self::wait_for_after)
    /// only considers what arrives after it.
    pub fn mark(&self) -> usize {
        self.log.seen.lock().expect("log").len()
    }

    /// Everything received in `room` so far, in order.
    pub fn messages(&self, room: &str) -> Vec<Seen> {
        self.log
            .seen
            .lock()
            .expect("log")
            .iter()
            .filter(|s| s.room == room)
            .cloned()
            .collect()
    }

    /// Everything received in any room so far, in order.
    pub fn all_messages(&self) -> Vec<Seen> {
        self.log.seen.lock().expect("log").clone()
    }

    /// The first message in `room` matching `pred`, received at any time; waits for it up to
    /// `timeout_secs` seconds, then panics listing what the room showed.
    pub async fn wait_for(
        &self,
        room: &str,
        timeout_secs: u64,
        pred: impl Fn(&Seen) -> bool,
    ) -> Seen {
        self.wait_for_after(0, room, timeout_secs, pred).await
    }

    /// The first message in `room` matching `pred` received after `mark` (see
    /// [`mark`](Self::mark)); waits for it up to `timeout_secs` seconds, then panics listing
    /// what the room showed.
    pub async fn wait_for_after(
        &self,
        mark: usize,
        room: &str,
        timeout_secs: u64,
        pred: impl Fn(&Seen) -> bool,
    ) -> Seen {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(timeout_secs);
        loop {
            let changed = self.log.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            let found = {
                let seen = self.log.seen.lock().expect("log");
                seen.iter()
                    .skip(mark)
                    .find(|s| s.room == room && pred(s))
                    .cloned()
            };
            if let Some(seen) = found {
                return seen;
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                panic!(
                    "{}: no matching message in {room} within {timeout_secs} s (after mark \
                     {mark}); the room showed:\n{}",
                    self.user_id(),
                    self.describe(room)
                );
            }
        }
    }

    /// A listing of what was received in `room`, for failure messages.
    pub fn describe(&self, room: &str) -> String {
        let seen = self.log.seen.lock().expect("log");
        let mut out = String::new();
        for (i, s) in seen.iter().enumerate().filter(|(_, s)| s.room == room) {
            let mut body: String = s.body.chars().take(200).collect();
            if body.len() < s.body.len() {
                body.push('…');
            }
            out.push_str(&format!(
                "  #{i} {} {} {}: {body:?}\n",
                s.event_id, s.sender, s.msgtype
            ));
        }
        if out.is_empty() {
            out.push_str("  (nothing)\n");
        }
        out
    }
}

/// Syncs until the task is aborted. A failed sync (the server restarting: matrix-sdk does not
/// retry network failures by itself) is retried every 100 ms with the same token.
async fn sync_loop(client: Client, settings: SyncSettings, mut token: String, log: Arc<Log>) {
    loop {
        match client
            .sync_once(settings.clone().token(token.clone()))
            .await
        {
            Ok(response) => {
                record(&log, &response);
                token = response.next_batch;
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// Appends the room messages of a sync response to the log.
fn record(log: &Log, response: &SyncResponse) {
    let now = Instant::now();
    let mut new = Vec::new();
    for (room, update) in &response.rooms.joined {
        new.extend(
            update
                .timeline
                .events
                .iter()
                .filter_map(|e| seen(room.as_str(), e, now)),
        );
    }
    if !new.is_empty() {
        log.seen.lock().expect("log").extend(new);
        log.changed.notify_waiters();
    }
}

/// The `m.room.message` (or undecryptable event) in a timeline event.
fn seen(room: &str, event: &TimelineEvent, now: Instant) -> Option<Seen> {
    // For an encrypted event that was decrypted, raw() is the decrypted event.
    let raw: Value = serde_json::from_str(event.raw().json().get()).ok()?;
    let text = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(str::to_owned);
    let mut content = raw.get("content").cloned().unwrap_or(Value::Null);
    let msgtype = match (&event.kind, raw.get("type").and_then(Value::as_str)) {
        (TimelineEventKind::UnableToDecrypt { utd_info, .. }, _) => {
            content = json!({
                "msgtype": "m.room.encrypted",
                "body": format!("(unable to decrypt: {:?})", utd_info.reason),
            });
            "m.room.encrypted".to_owned()
        }
        (_, Some("m.room.message")) => text(&content, "msgtype").unwrap_or_default(),
        _ => return None,
    };
    let relates = content.get("m.relates_to");
    let thread_root = relates
        .filter(|r| r.get("rel_type").and_then(Value::as_str) == Some("m.thread"))
        .and_then(|r| text(r, "event_id"));
    let in_reply_to = relates
        .and_then(|r| r.get("m.in_reply_to"))
        .and_then(|r| text(r, "event_id"));
    let mentions = content
        .pointer("/m.mentions/user_ids")
        .and_then(Value::as_array)
        .map(|ids| {
            ids.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default();
    let image = (msgtype == "m.image").then(|| {
        let url =
            text(&content, "url").or_else(|| content.get("file").and_then(|f| text(f, "url")));
        let info = content.get("info").cloned().unwrap_or(Value::Null);
        let number = |key: &str| info.get(key).and_then(Value::as_u64);
        ImageInfo {
            url: url.unwrap_or_default(),
            mimetype: text(&info, "mimetype"),
            size: number("size"),
            width: number("w"),
            height: number("h"),
        }
    });
    Some(Seen {
        room: room.to_owned(),
        event_id: text(&raw, "event_id").unwrap_or_default(),
        sender: text(&raw, "sender").unwrap_or_default(),
        msgtype,
        body: text(&content, "body").unwrap_or_default(),
        formatted_body: text(&content, "formatted_body"),
        mentions,
        in_reply_to,
        thread_root,
        image,
        filename: text(&content, "filename"),
        ts_ms: raw
            .get("origin_server_ts")
            .and_then(Value::as_u64)
            .unwrap_or_default(),
        seen_at: now,
        content,
    })
}

/// A child process's standard error (piped), kept line by line as it comes, for tests that wait
/// for what the process says.
#[derive(Default)]
pub struct ProcessLog {
    text: Mutex<String>,
    /// Whether the process closed its standard error (it ended).
    closed: std::sync::atomic::AtomicBool,
    changed: Notify,
}

impl ProcessLog {
    /// Starts reading `child`'s standard error in the background.
    pub fn capture(child: &mut std::process::Child) -> Arc<ProcessLog> {
        use std::io::BufRead;
        let log = Arc::new(ProcessLog::default());
        let Some(stderr) = child.stderr.take() else {
            log.closed.store(true, std::sync::atomic::Ordering::SeqCst);
            return log;
        };
        let sink = Arc::clone(&log);
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stderr)
                .lines()
                .map_while(Result::ok)
            {
                let mut text = sink.text.lock().unwrap_or_else(|e| e.into_inner());
                text.push_str(&line);
                text.push('\n');
                drop(text);
                sink.changed.notify_waiters();
            }
            sink.closed.store(true, std::sync::atomic::Ordering::SeqCst);
            sink.changed.notify_waiters();
        });
        log
    }

    /// Everything said so far.
    pub fn text(&self) -> String {
        self.text.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// A mark in the log (its length): [`wait_for_line`](Self::wait_for_line) only considers
    /// lines after it.
    pub fn mark(&self) -> usize {
        self.text.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// The first line after `mark` matching `pred`; waits for it up to `timeout_secs` seconds.
    /// `Err` with the whole log when it did not come (or the process ended first).
    pub async fn wait_for_line(
        &self,
        mark: usize,
        timeout_secs: u64,
        pred: impl Fn(&str) -> bool,
    ) -> Result<String, String> {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(timeout_secs);
        loop {
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            let closed = self.closed.load(std::sync::atomic::Ordering::SeqCst);
            let found = {
                let text = self.text.lock().unwrap_or_else(|e| e.into_inner());
                text.get(mark..)
                    .unwrap_or("")
                    .lines()
                    .find(|l| pred(l))
                    .map(str::to_owned)
            };
            if let Some(line) = found {
                return Ok(line);
            }
            if closed {
                return Err(format!("(the process ended)\n{}", self.text()));
            }
            if tokio::time::timeout_at(deadline, changed).await.is_err() {
                return Err(format!(
                    "(nothing within {timeout_secs} s)\n{}",
                    self.text()
                ));
            }
        }
    }
}
