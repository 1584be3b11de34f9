//! Interactions as Discord sends them, built from the complete fixtures in
//! `tests/fixtures/discord`, and Discord's signature on the HTTP interactions endpoint.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};
use std::time::Duration;

use ed25519_dalek::{Signer, SigningKey};
use serde_json::{Value, json};

use super::objects::{self, snowflake};
use super::state::StoredMessage;

/// The application id in the fixtures (the stand-in puts its own in what it dispatches).
pub(crate) const FIXTURE_APPLICATION: &str = "1300000000000000001";

/// The seed of the test signing key (stands in for Discord's private key).
const SEED: [u8; 32] = *b"muster-test-interactions-key-01!";

/// A fixture by name: `guild-command`, `dm-command`, `autocomplete`, `button` or `ping`.
pub fn fixture(name: &str) -> Value {
    let text = match name {
        "guild-command" => include_str!("../../fixtures/discord/guild-command.json"),
        "dm-command" => include_str!("../../fixtures/discord/dm-command.json"),
        "autocomplete" => include_str!("../../fixtures/discord/autocomplete.json"),
        "button" => include_str!("../../fixtures/discord/button.json"),
        "ping" => include_str!("../../fixtures/discord/ping.json"),
        other => panic!("no Discord fixture named {other}"),
    };
    serde_json::from_str(text).unwrap_or_else(|e| panic!("fixture {name} is not JSON: {e}"))
}

/// Someone on Discord. Every person made here is remembered, so that interactions naming them
/// (a user option) can carry their complete user and member objects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Person {
    /// Their user id.
    pub id: String,
    /// Their username (the display name is the same, capitalised).
    pub name: String,
}

static PEOPLE: LazyLock<Mutex<HashMap<String, String>>> = LazyLock::new(Default::default);

impl Person {
    /// A new person with a fresh id.
    pub fn new(name: &str) -> Person {
        Person::with_id(&snowflake(), name)
    }

    /// A person with a given id.
    pub fn with_id(id: &str, name: &str) -> Person {
        let mut people = PEOPLE.lock().unwrap_or_else(|p| p.into_inner());
        people.insert(id.to_owned(), name.to_owned());
        Person {
            id: id.to_owned(),
            name: name.to_owned(),
        }
    }

    /// Their user object, as Discord sends it.
    pub fn user(&self) -> Value {
        objects::user(&self.id, &self.name)
    }

    /// Their member object in an interaction's `member` (with `user`).
    pub fn member(&self) -> Value {
        let mut member = fixture("guild-command")["member"].clone();
        member["user"] = self.user();
        member
    }

    /// `<@id>`.
    pub fn mention(&self) -> String {
        format!("<@{}>", self.id)
    }
}

/// A person made with [`Person::new`] or [`Person::with_id`], by id.
pub(crate) fn known_person(id: &str) -> Option<Person> {
    let people = PEOPLE.lock().unwrap_or_else(|p| p.into_inner());
    people.get(id).map(|name| Person {
        id: id.to_owned(),
        name: name.clone(),
    })
}

/// The application's owner, as `GET /oauth2/applications/@me` gives it.
pub fn owner() -> Person {
    Person::with_id("1300000000000000042", "owner")
}

/// A slash command `/name` with `options` (the `data.options` array as Discord sends it), used
/// by `user` in `channel` of `guild` (`None`: a DM). Fresh interaction id and token; user
/// options (type 6, and mentionables naming a [`Person`]) are resolved.
pub fn command(
    name: &str,
    options: Value,
    user: &Person,
    channel: &str,
    guild: Option<&str>,
) -> Value {
    let base = if guild.is_some() {
        "guild-command"
    } else {
        "dm-command"
    };
    let mut v = envelope(base, user, channel, guild);
    fill_command(&mut v, name, options, guild);
    v
}

/// An autocomplete request (type 4) for `/name` while `user` types: one option in `options`
/// (possibly inside a subcommand) has `"focused": true`.
pub fn autocomplete(
    name: &str,
    options: Value,
    user: &Person,
    channel: &str,
    guild: Option<&str>,
) -> Value {
    let mut v = envelope("autocomplete", user, channel, guild);
    fill_command(&mut v, name, options, guild);
    v
}

/// The message a button is on: a [`StoredMessage`] from the stand-in, or `(message_id,
/// channel_id)` for a message the stand-in never saw (it gets the fixture's board message).
pub trait OnMessage {
    /// The whole message object, as it goes in the interaction.
    fn message_object(&self) -> Value;
}

impl OnMessage for StoredMessage {
    fn message_object(&self) -> Value {
        self.object.clone()
    }
}

impl OnMessage for (&str, &str) {
    fn message_object(&self) -> Value {
        let mut message = fixture("button")["message"].clone();
        message["id"] = self.0.into();
        message["channel_id"] = self.1.into();
        for a in message["attachments"].as_array_mut().into_iter().flatten() {
            for key in ["url", "proxy_url"] {
                if let Some(url) = a[key].as_str() {
                    let url = url.replace("1300000000000000200", self.1);
                    a[key] = url.into();
                }
            }
        }
        message
    }
}

impl<T: OnMessage + ?Sized> OnMessage for &T {
    fn message_object(&self) -> Value {
        (**self).message_object()
    }
}

/// A click (type 3, component type 2) on the button `custom_id` of `message`, by `user` in
/// `channel` of `guild` (`None`: a DM).
pub fn button(
    custom_id: &str,
    message: impl OnMessage,
    user: &Person,
    channel: &str,
    guild: Option<&str>,
) -> Value {
    let mut v = envelope("button", user, channel, guild);
    let message = message.message_object();
    let mut data = json!({ "component_type": 2, "custom_id": custom_id });
    if let Some(id) = component_id(&message["components"], custom_id) {
        data["id"] = id;
    }
    v["data"] = data;
    v["message"] = message;
    v
}

/// A PING (type 1), with a fresh id and token.
pub fn ping() -> Value {
    let mut v = fixture("ping");
    fresh_ids(&mut v);
    v
}

/// The hex Ed25519 signature over `timestamp ++ body` with the test key, as Discord sends in
/// `X-Signature-Ed25519`.
pub fn sign(body: &[u8], timestamp: &str) -> String {
    let mut message = timestamp.as_bytes().to_vec();
    message.extend_from_slice(body);
    hex(&SigningKey::from_bytes(&SEED).sign(&message).to_bytes())
}

/// The test key's public half, in hex: the bot's configured application public key.
pub fn public_key_hex() -> String {
    hex(SigningKey::from_bytes(&SEED).verifying_key().as_bytes())
}

/// POSTs `interaction` to an HTTP interactions endpoint as Discord does (signed, timestamp now);
/// returns the status and body.
pub async fn post_signed(url: &str, interaction: &Value) -> (u16, String) {
    let body = serde_json::to_vec(interaction).expect("JSON");
    let timestamp = timestamp_now();
    post_with_signature(url, &body, &sign(&body, &timestamp), &timestamp).await
}

/// POSTs `body` with the given signature headers (to probe with bad signatures or old
/// timestamps); returns the status and body.
pub async fn post_with_signature(
    url: &str,
    body: &[u8],
    signature: &str,
    timestamp: &str,
) -> (u16, String) {
    let (status, _, body) = post_raw(url, body, signature, timestamp).await;
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// As [`post_with_signature`], also giving the response's content type, and its body as bytes.
pub(crate) async fn post_raw(
    url: &str,
    body: &[u8],
    signature: &str,
    timestamp: &str,
) -> (u16, String, Vec<u8>) {
    let client = reqwest::Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(30))
        .build()
        .expect("an HTTP client");
    let response = client
        .post(url)
        .header("content-type", "application/json")
        .header(
            "user-agent",
            "Discord-Interactions/1.0 (+https://discord.com)",
        )
        .header("x-signature-ed25519", signature)
        .header("x-signature-timestamp", timestamp)
        .body(body.to_vec())
        .send()
        .await
        .unwrap_or_else(|e| panic!("POST {url}: {e}"));
    let status = response.status().as_u16();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let body = response
        .bytes()
        .await
        .map(|b| b.to_vec())
        .unwrap_or_default();
    (status, content_type, body)
}

/// The current Unix time in seconds, as `X-Signature-Timestamp` carries it.
pub(crate) fn timestamp_now() -> String {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
        .to_string()
}

/// Sets what the stand-in needs in an interaction it receives: its application id, here and in
/// a component's message the fixture made.
pub(crate) fn retarget(interaction: &mut Value, app: &str) {
    interaction["application_id"] = app.into();
    let message = &mut interaction["message"];
    if message["author"]["id"] == FIXTURE_APPLICATION {
        message["author"]["id"] = app.into();
        message["application_id"] = app.into();
        if message["webhook_id"].is_string() {
            message["webhook_id"] = app.into();
        }
    }
}

/// Fixture `base` for `user` in `channel` of `guild` (a DM when `None`), with fresh ids.
fn envelope(base: &str, user: &Person, channel: &str, guild: Option<&str>) -> Value {
    let mut v = fixture(base);
    fresh_ids(&mut v);
    match guild {
        Some(guild) => {
            v["guild_id"] = guild.into();
            v["guild"]["id"] = guild.into();
            v["channel"]["guild_id"] = guild.into();
            v["authorizing_integration_owners"] = json!({ "0": guild });
            v["member"] = user.member();
        }
        None => {
            if v.get("user").is_none() {
                let dm = fixture("dm-command");
                let object = v.as_object_mut().expect("an object");
                for key in ["guild_id", "guild", "guild_locale", "member"] {
                    object.remove(key);
                }
                for key in [
                    "channel",
                    "context",
                    "authorizing_integration_owners",
                    "app_permissions",
                ] {
                    object.insert(key.to_owned(), dm[key].clone());
                }
            }
            v["channel"]["recipients"] = json!([user.user()]);
            v["user"] = user.user();
        }
    }
    v["channel_id"] = channel.into();
    v["channel"]["id"] = channel.into();
    v
}

/// Fresh `id` and `token`.
fn fresh_ids(v: &mut Value) {
    let id = snowflake();
    v["token"] = token(&id).into();
    v["id"] = id.into();
}

/// An interaction token like Discord's: base64url of `interaction:<id>:<secret>`.
fn token(id: &str) -> String {
    let secret: String = format!(
        "{:x}",
        fnv(id.as_bytes()).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    );
    let plain = format!("interaction:{id}:{secret}{secret}");
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::new();
    for chunk in plain.as_bytes().chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Names the command, sets its options and resolves the users they name.
fn fill_command(v: &mut Value, name: &str, options: Value, guild: Option<&str>) {
    let data = &mut v["data"];
    data["name"] = name.into();
    // A command keeps its id, as on Discord: derived from its name.
    data["id"] = (1_300_000_000_000_000_000 + fnv(name.as_bytes()) % 1_000_000_000)
        .to_string()
        .into();
    let mut users = serde_json::Map::new();
    let mut members = serde_json::Map::new();
    resolve(&options, &mut users, &mut members);
    match options {
        Value::Null => {
            data.as_object_mut().map(|d| d.remove("options"));
        }
        options => data["options"] = options,
    }
    data.as_object_mut().map(|d| d.remove("resolved"));
    if !users.is_empty() {
        data["resolved"] = json!({ "users": users });
        if guild.is_some() {
            data["resolved"]["members"] = Value::Object(members);
        }
    }
}

fn resolve(
    options: &Value,
    users: &mut serde_json::Map<String, Value>,
    members: &mut serde_json::Map<String, Value>,
) {
    for option in options.as_array().into_iter().flatten() {
        resolve(&option["options"], users, members);
        let kind = option["type"].as_u64();
        if !matches!(kind, Some(6 | 9)) || option["focused"] == true {
            continue;
        }
        let Some(id) = option["value"].as_str() else {
            continue;
        };
        let Some(person) = known_person(id) else {
            if kind == Some(6) {
                panic!(
                    "user option {} names {id}, not a Person (make it with Person::new)",
                    option["name"]
                );
            }
            continue;
        };
        users.insert(id.to_owned(), person.user());
        let mut member = person.member();
        if let Some(m) = member.as_object_mut() {
            for key in ["user", "deaf", "mute"] {
                m.remove(key);
            }
        }
        members.insert(id.to_owned(), member);
    }
}

/// The numeric id Discord gave the component `custom_id` in `components`.
fn component_id(components: &Value, custom_id: &str) -> Option<Value> {
    for c in components.as_array().into_iter().flatten() {
        if c["custom_id"] == custom_id {
            return c.get("id").cloned();
        }
        if let Some(found) = component_id(&c["components"], custom_id) {
            return Some(found);
        }
    }
    None
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
