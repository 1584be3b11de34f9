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
}

/// One gateway connection.
pub(crate) struct Session {
    pub(crate) number: usize,
    pub(crate) ready: bool,
    pub(crate) seq: u64,
    pub(crate) outgoing: tokio::sync::mpsc::UnboundedSender<String>,
}

/// Everything the stand-in remembers.
pub(crate) struct State {
    pub(crate) application_id: u64,
    pub(crate) gateway_url: String,
    pub(crate) requests: Vec<Recorded>,
    /// Indexes of requests already returned by `wait_for`.
    pub(crate) returned: HashSet<usize>,
    pub(crate) interactions: HashMap<String, Interaction>,
    pub(crate) messages: Vec<Message>,
    pub(crate) channel_guild: HashMap<String, String>,
    pub(crate) threads: Vec<Value>,
    /// Commands registered: `None` global, `Some(guild)`.
    pub(crate) commands: HashMap<Option<String>, Value>,
    pub(crate) sessions: Vec<Session>,
    pub(crate) next_session: usize,
    pub(crate) identified: usize,
    pub(crate) identifies: Vec<Value>,
}

impl State {
    pub(crate) fn new(application_id: u64, gateway_url: String) -> State {
        State {
            application_id,
            gateway_url,
            requests: Vec::new(),
            returned: HashSet::new(),
            interactions: HashMap::new(),
            messages: Vec::new(),
            channel_guild: HashMap::new(),
            threads: Vec::new(),
            commands: HashMap::new(),
            sessions: Vec::new(),
            next_session: 0,
            identified: 0,
            identifies: Vec::new(),
        }
    }

    pub(crate) fn app(&self) -> String {
        self.application_id.to_string()
    }

    pub(crate) fn newest_ready(&self) -> Option<&Session> {
        self.sessions
            .iter()
            .rev()
            .find(|s| s.ready && !s.outgoing.is_closed())
    }

    pub(crate) fn newest_ready_mut(&mut self) -> Option<&mut Session> {
        self.sessions
            .iter_mut()
            .rev()
            .find(|s| s.ready && !s.outgoing.is_closed())
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
