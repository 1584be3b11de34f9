//! What the stand-in remembers: requests, interactions, messages, gateway sessions.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::objects;

/// One REST request the stand-in received, with the status it answered.
#[derive(Clone, Debug)]
pub struct Recorded {
    /// `GET`, `POST`, `PATCH`, `PUT` or `DELETE`.
    pub method: String,
    /// The path without the query, e.g. `/api/v10/interactions/123/tok/callback`.
    pub path: String,
    /// The query string without `?` (serenity writes `?&wait=true`-style queries), or empty.
    pub query: String,
    /// The `Content-Type` header, or empty.
    pub content_type: String,
    /// The JSON body, or the `payload_json` part of a multipart body; `Null` if none.
    pub json: Value,
    /// The file parts of a multipart body: part name (`files[0]`), filename, bytes.
    pub files: Vec<(String, String, Vec<u8>)>,
    /// The `Authorization` header.
    pub authorization: Option<String>,
    /// The status the stand-in answered with.
    pub status: u16,
}

impl Recorded {
    /// Whether this is `method` on a path ending with `suffix`.
    pub fn is(&self, method: &str, suffix: &str) -> bool {
        self.method == method && self.path.ends_with(suffix)
    }

    /// The interaction callback's `type` (4 message, 5 deferred, 6 deferred update, 7 update,
    /// 8 autocomplete result, 9 modal), if this is a callback.
    pub fn callback_type(&self) -> Option<u64> {
        if self.method == "POST" && self.path.ends_with("/callback") {
            self.json["type"].as_u64()
        } else {
            None
        }
    }
}

/// A message as it is now in the stand-in.
#[derive(Clone, Debug)]
pub struct StoredMessage {
    /// Its snowflake.
    pub id: String,
    /// The channel it is in.
    pub channel_id: String,
    /// Its text.
    pub content: String,
    /// Its components as the bot sent them (action rows), `[]` if none.
    pub components: Value,
    /// Its attachments: filename and bytes.
    pub attachments: Vec<(String, Vec<u8>)>,
    /// Its flags (64 ephemeral, 128 loading: a deferred response not yet edited).
    pub flags: u64,
    /// The `allowed_mentions` last sent with it, `Null` if none.
    pub allowed_mentions: Value,
    /// The token of the interaction whose response or followup created it.
    pub interaction_token: Option<String>,
    /// Its embeds, `[]` if none.
    pub embeds: Value,
    /// The whole message object, as the stand-in returns it over REST.
    pub object: Value,
}

/// An interaction the stand-in was told about.
#[derive(Clone, Debug)]
pub(crate) struct Interaction {
    pub(crate) id: String,
    pub(crate) token: String,
    /// 1 ping, 2 command, 3 component, 4 autocomplete, 5 modal.
    pub(crate) kind: u64,
    pub(crate) channel_id: String,
    pub(crate) guild_id: Option<String>,
    pub(crate) user: Value,
    pub(crate) command_name: Option<String>,
    pub(crate) command_type: Option<u64>,
    pub(crate) owners: Value,
    /// The message a component was on.
    pub(crate) message_id: Option<String>,
    /// The callback type it got, once it got one.
    pub(crate) responded: Option<u64>,
    /// The message `@original` names.
    pub(crate) original: Option<String>,
    /// Deferred (type 5) and not edited yet: the first followup edits the original instead.
    pub(crate) deferred: bool,
}

impl Interaction {
    pub(crate) fn from_json(v: &Value) -> Interaction {
        let text = |v: &Value| v.as_str().map(str::to_owned);
        let channel_id = text(&v["channel_id"])
            .or_else(|| text(&v["channel"]["id"]))
            .unwrap_or_else(|| objects::UNKNOWN_CHANNEL.to_owned());
        let user = if v["member"]["user"].is_object() {
            v["member"]["user"].clone()
        } else {
            v["user"].clone()
        };
        Interaction {
            id: text(&v["id"]).unwrap_or_default(),
            token: text(&v["token"]).unwrap_or_default(),
            kind: v["type"].as_u64().unwrap_or(0),
            channel_id,
            guild_id: text(&v["guild_id"]),
            user,
            command_name: text(&v["data"]["name"]),
            command_type: v["data"]["type"].as_u64(),
            owners: v["authorizing_integration_owners"].clone(),
            message_id: text(&v["message"]["id"]),
            responded: None,
            original: None,
            deferred: false,
        }
    }
}

/// An attachment the stand-in holds.
#[derive(Clone, Debug)]
pub(crate) struct Attachment {
    pub(crate) id: String,
    pub(crate) filename: String,
    pub(crate) description: Option<String>,
    pub(crate) content_type: String,
    pub(crate) bytes: Vec<u8>,
    /// Known only from an object (adopted message): its size, url and image size.
    pub(crate) adopted: Option<Value>,
}

/// A message the stand-in holds.
#[derive(Clone, Debug)]
pub(crate) struct Message {
    pub(crate) id: String,
    pub(crate) channel_id: String,
    pub(crate) kind: u64,
    pub(crate) content: String,
    pub(crate) components: Value,
    pub(crate) embeds: Value,
    pub(crate) attachments: Vec<Attachment>,
    pub(crate) flags: u64,
    pub(crate) allowed_mentions: Value,
    pub(crate) tts: bool,
    pub(crate) timestamp: String,
    pub(crate) edited_timestamp: Option<String>,
    pub(crate) interaction_token: Option<String>,
    /// Sent through the interaction webhook (rather than the channel route).
    pub(crate) webhook: bool,
    /// The author, when not the bot (an adopted message).
    pub(crate) author: Option<Value>,
    pub(crate) message_reference: Value,
    /// The nonce it was created with, and when (for `enforce_nonce`).
    pub(crate) nonce: Option<(String, std::time::Instant)>,
}

/// Which of the gateway stand-in's two addresses a connection came in on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Listener {
    /// The address `GET /gateway` (and `/gateway/bot`) gives: where sessions start.
    Main,
    /// The address READY gives as `resume_gateway_url`: where Discord wants sessions resumed.
    Resume,
}

/// How a gateway connection ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The client sent a close frame with this code (`None`: a close frame without a code).
    ClientClosed(Option<u16>),
    /// The client's side went away without a close frame.
    Dropped,
    /// The stand-in sent a close frame with this code.
    ServerClosed(u16),
    /// The stand-in reset it: no close frame, the TCP connection dropped with an RST.
    Reset,
}

/// One gateway connection, as the suite sees it.
#[derive(Clone, Debug)]
pub struct GatewayConnection {
    /// Numbered from 1 in the order the stand-in accepted them.
    pub number: usize,
    /// The address it came in on.
    pub listener: Listener,
    /// The query of the WebSocket request, e.g. `v=10&encoding=json`.
    pub query: String,
    /// The `d` of every heartbeat (op 1) the client sent on it: the last sequence number it had
    /// seen, or `null`.
    pub heartbeats: Vec<Value>,
    /// The `s` of the last dispatch sent on it (READY's is 1), if any.
    pub last_seq: Option<u64>,
    /// Whether the suite stalled it: heartbeats are not acknowledged, nothing is delivered.
    pub stalled: bool,
    /// How it ended, once it has.
    pub ending: Option<Ending>,
    /// How many REST requests had been recorded when it ended: what the client did before
    /// closing it.
    pub requests_at_end: usize,
}

/// What the stand-in answered to an IDENTIFY or a RESUME.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// READY: a new session.
    Ready,
    /// The session resumed: this many dispatches it had missed were replayed, then RESUMED.
    Resumed(usize),
    /// Op 9 with `d: false`: the session is unknown or no longer valid.
    Invalid,
    /// The connection was closed with this code (4004 a revoked token, 4005 already
    /// identified or resumed on this connection, 4007 a sequence number the session never
    /// reached).
    Closed(u16),
}

/// An IDENTIFY (op 2) or a RESUME (op 6) the gateway received.
#[derive(Clone, Debug)]
pub struct Handshake {
    /// 2 (IDENTIFY) or 6 (RESUME).
    pub op: u64,
    /// The address of the connection it came on.
    pub listener: Listener,
    /// The connection it came on (see [`GatewayConnection::number`]).
    pub connection: usize,
    /// IDENTIFY: the new session's id (empty if refused); RESUME: the id the client gave.
    pub session_id: String,
    /// RESUME: the sequence number the client gave.
    pub seq: Option<u64>,
    /// What the stand-in answered.
    pub outcome: Outcome,
}

/// What a connection's task is told to do, in order.
pub(crate) enum Out {
    /// Send this text frame.
    Frame(String),
    /// Send a close frame with this code, then end the connection.
    Close(u16),
    /// Drop the TCP connection at once, with an RST and no close frame.
    Reset,
}

/// A gateway connection the stand-in accepted.
pub(crate) struct Connection {
    pub(crate) seen: GatewayConnection,
    pub(crate) outgoing: tokio::sync::mpsc::UnboundedSender<Out>,
    /// The session identified or resumed on it and still delivered through it (an index
    /// into `State::sessions`).
    pub(crate) session: Option<usize>,
}

/// A gateway session: what IDENTIFY starts and RESUME continues, on any connection.
pub(crate) struct Session {
    pub(crate) id: String,
    /// The last sequence number given out (READY is 1).
    pub(crate) seq: u64,
    /// Every dispatch after READY, with its sequence number, for replay on RESUME.
    pub(crate) events: Vec<(u64, String)>,
    /// Whether it may still be resumed (and gets dispatches).
    pub(crate) valid: bool,
    /// The connection it is delivered through now, if any.
    pub(crate) connection: Option<usize>,
}

/// Everything the stand-in remembers.
pub(crate) struct State {
    pub(crate) application_id: u64,
    pub(crate) gateway_url: String,
    /// READY's `resume_gateway_url`: the second gateway address.
    pub(crate) resume_url: String,
    pub(crate) requests: Vec<Recorded>,
    /// Indexes of requests already returned by `wait_for`.
    pub(crate) returned: HashSet<usize>,
    pub(crate) interactions: HashMap<String, Interaction>,
    pub(crate) messages: Vec<Message>,
    pub(crate) channel_guild: HashMap<String, String>,
    pub(crate) threads: Vec<Value>,
    /// Commands registered: `None` global, `Some(guild)`.
    pub(crate) commands: HashMap<Option<String>, Value>,
    /// Every gateway connection, in order (connection `n` at index `n - 1`).
    pub(crate) connections: Vec<Connection>,
    pub(crate) sessions: Vec<Session>,
    pub(crate) handshakes: Vec<Handshake>,
    /// Sessions started (READY sent).
    pub(crate) identified: usize,
    pub(crate) identifies: Vec<Value>,
    /// The heartbeat interval HELLO gives, in milliseconds.
    pub(crate) heartbeat_interval: u64,
    /// The bot's token no longer works: IDENTIFY and RESUME are closed with 4004, REST
    /// requests get 401.
    pub(crate) revoked: bool,
    /// A gateway outage: new connections are dropped as they come.
    pub(crate) outage: bool,
    /// An outage of the HTTP API: every request the bot makes is answered 503 (interaction
    /// callbacks and webhooks included), as Discord answers while it is down.
    pub(crate) rest_outage: bool,
    /// Every signature put on an interaction posted to the endpoint.
    pub(crate) signatures: Vec<String>,
    /// Interaction callbacks wait until this is cleared.
    pub(crate) hold_callbacks: bool,
    /// How many callbacks are waiting now.
    pub(crate) held: usize,
    /// Direct-message channels opened (`POST /users/@me/channels`): recipient id, channel id.
    pub(crate) dm_channels: Vec<(String, String)>,
    /// Users who accept no direct message from the bot.
    pub(crate) dm_refused: HashSet<String>,
    /// Requests to refuse with 429: method, path suffix, how many more.
    pub(crate) throttled: Vec<(String, String, usize)>,
}

impl State {
    pub(crate) fn new(application_id: u64, gateway_url: String, resume_url: String) -> State {
        State {
            application_id,
            gateway_url,
            resume_url,
            requests: Vec::new(),
            returned: HashSet::new(),
            interactions: HashMap::new(),
            messages: Vec::new(),
            channel_guild: HashMap::new(),
            threads: Vec::new(),
            commands: HashMap::new(),
            connections: Vec::new(),
            sessions: Vec::new(),
            handshakes: Vec::new(),
            identified: 0,
            identifies: Vec::new(),
            heartbeat_interval: 41_250,
            revoked: false,
            outage: false,
            rest_outage: false,
            signatures: Vec::new(),
            hold_callbacks: false,
            held: 0,
            dm_channels: Vec::new(),
            dm_refused: HashSet::new(),
            throttled: Vec::new(),
        }
    }

    pub(crate) fn app(&self) -> String {
        self.application_id.to_string()
    }

    /// The session dispatches go to: the newest that is still valid.
    pub(crate) fn current_session(&self) -> Option<usize> {
        self.sessions.iter().rposition(|s| s.valid)
    }

    /// The open connection the current session is delivered through, if any (a stalled one
    /// counts: its client cannot tell yet).
    pub(crate) fn live_connection(&self) -> Option<usize> {
        let session = &self.sessions[self.current_session()?];
        let number = session.connection?;
        self.connection(number)
            .seen
            .ending
            .is_none()
            .then_some(number)
    }

    pub(crate) fn connection(&self, number: usize) -> &Connection {
        &self.connections[number - 1]
    }

    pub(crate) fn connection_mut(&mut self, number: usize) -> &mut Connection {
        &mut self.connections[number - 1]
    }

    /// Queues `out` on connection `number`.
    pub(crate) fn send(&mut self, number: usize, out: Out) {
        // A connection whose task has ended has dropped its receiver: nothing to do.
        let _ = self.connection(number).outgoing.send(out);
    }

    /// Delivers `session` through connection `number` from now on (and no longer through the
    /// one before).
    pub(crate) fn attach(&mut self, session: usize, number: usize) {
        if let Some(before) = self.sessions[session].connection.take() {
            self.connection_mut(before).session = None;
        }
        self.sessions[session].connection = Some(number);
        self.connection_mut(number).session = Some(session);
    }

    /// Stops delivering through connection `number`; its session (if any) keeps its
    /// dispatches for a RESUME elsewhere. Returns that session.
    pub(crate) fn detach(&mut self, number: usize) -> Option<usize> {
        let session = self.connection_mut(number).session.take()?;
        self.sessions[session].connection = None;
        Some(session)
    }

    /// Gives `session` its next dispatch `t` with data `d`: kept for replay, and sent now
    /// through its connection unless it has none or that one is stalled.
    pub(crate) fn dispatch(&mut self, session: usize, t: &str, d: &Value) {
        let s = &mut self.sessions[session];
        s.seq += 1;
        let seq = s.seq;
        let frame = serde_json::json!({ "op": 0, "t": t, "s": seq, "d": d }).to_string();
        s.events.push((seq, frame.clone()));
        let Some(number) = s.connection else { return };
        if self.connection(number).seen.stalled {
            return;
        }
        self.connection_mut(number).seen.last_seq = Some(seq);
        self.send(number, Out::Frame(frame));
    }

    /// Whether the bot can see channel `id`: one an interaction came from, a thread, or a
    /// direct-message channel it opened.
    pub(crate) fn knows_channel(&self, id: &str) -> bool {
        self.channel_guild.contains_key(id)
            || self.dm_channels.iter().any(|(_, c)| c == id)
            || self.interactions.values().any(|ix| ix.channel_id == id)
    }

    /// The recipient of the direct-message channel `id`, if it is one.
    pub(crate) fn dm_recipient(&self, id: &str) -> Option<&str> {
        self.dm_channels
            .iter()
            .find(|(_, c)| c == id)
            .map(|(r, _)| r.as_str())
    }

    pub(crate) fn find_message(&self, id: &str) -> Option<&Message> {
        self.messages.iter().find(|m| m.id == id)
    }

    pub(crate) fn find_message_mut(&mut self, id: &str) -> Option<&mut Message> {
        self.messages.iter_mut().find(|m| m.id == id)
    }

    /// Takes in a message object Discord sent inside an interaction (the message a component is
    /// on), unless the stand-in already holds that message.
    pub(crate) fn adopt_message(&mut self, v: &Value) {
        let Some(id) = v["id"].as_str() else { return };
        if self.find_message(id).is_some() {
            return;
        }
        let text = |v: &Value| v.as_str().unwrap_or_default().to_owned();
        let attachments = v["attachments"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|a| Attachment {
                id: text(&a["id"]),
                filename: text(&a["filename"]),
                description: a["description"].as_str().map(str::to_owned),
                content_type: text(&a["content_type"]),
                bytes: Vec::new(),
                adopted: Some(a.clone()),
            })
            .collect();
        let bot = v["author"]["id"].as_str() == Some(&self.app());
        self.messages.push(Message {
            id: id.to_owned(),
            channel_id: text(&v["channel_id"]),
            kind: v["type"].as_u64().unwrap_or(0),
            content: text(&v["content"]),
            components: or_empty(&v["components"]),
            embeds: or_empty(&v["embeds"]),
            attachments,
            flags: v["flags"].as_u64().unwrap_or(0),
            allowed_mentions: Value::Null,
            tts: v["tts"].as_bool().unwrap_or(false),
            timestamp: v["timestamp"]
                .as_str()
                .map_or_else(objects::now, str::to_owned),
            edited_timestamp: v["edited_timestamp"].as_str().map(str::to_owned),
            interaction_token: None,
            webhook: v["webhook_id"].is_string(),
            author: (!bot).then(|| v["author"].clone()),
            message_reference: v["message_reference"].clone(),
            nonce: None,
        });
    }

    pub(crate) fn snapshot(&self, m: &Message) -> StoredMessage {
        StoredMessage {
            id: m.id.clone(),
            channel_id: m.channel_id.clone(),
            content: m.content.clone(),
            components: m.components.clone(),
            attachments: m
                .attachments
                .iter()
                .map(|a| (a.filename.clone(), a.bytes.clone()))
                .collect(),
            flags: m.flags,
            allowed_mentions: m.allowed_mentions.clone(),
            interaction_token: m.interaction_token.clone(),
            embeds: m.embeds.clone(),
            object: objects::message(self, m),
        }
    }

    /// One line per request, for panic messages.
    pub(crate) fn describe_requests(&self) -> String {
        let mut out = String::new();
        for (i, r) in self.requests.iter().enumerate() {
            let mut json = r.json.to_string();
            if json.len() > 300 {
                let mut cut = 300;
                while !json.is_char_boundary(cut) {
                    cut -= 1;
                }
                json.truncate(cut);
                json.push('…');
            }
            let names: Vec<String> = r
                .files
                .iter()
                .map(|(part, name, bytes)| format!("{part}={name} ({} B)", bytes.len()))
                .collect();
            let files = if names.is_empty() {
                String::new()
            } else {
                format!(" files: {}", names.join(", "))
            };
            out.push_str(&format!(
                "  #{i} {} {} -> {} {json}{files}\n",
                r.method, r.path, r.status
            ));
        }
        if out.is_empty() {
            out.push_str("  (none)\n");
        }
        out
    }
}

/// `v` if it is an array, else `[]`.
pub(crate) fn or_empty(v: &Value) -> Value {
    if v.is_array() {
        v.clone()
    } else {
        Value::Array(Vec::new())
    }
}
