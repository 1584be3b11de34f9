//! The REST routes: what Discord answers, and what each request does to the stand-in's state.

use serde_json::{Value, json};

use super::limits::{self, at};
use super::objects::{self, error, snowflake};
use super::state::{Attachment, Interaction, Message, State, or_empty};

/// A file part of a multipart body.
pub(crate) struct FilePart {
    pub(crate) name: String,
    pub(crate) filename: String,
    pub(crate) content_type: Option<String>,
    pub(crate) bytes: Vec<u8>,
}

/// A request, parsed.
pub(crate) struct Incoming {
    pub(crate) method: String,
    pub(crate) path: String,
    /// The query string, without `?`.
    pub(crate) query: String,
    pub(crate) authorization: Option<String>,
    pub(crate) json: Value,
    pub(crate) files: Vec<FilePart>,
}

/// An answer: status and JSON body (`None`: empty).
pub(crate) type Answer = (u16, Option<Value>);

fn not_found() -> Answer {
    (404, Some(error(0, "404: Not Found")))
}

fn unknown_message() -> Answer {
    (404, Some(error(10008, "Unknown Message")))
}

fn unknown_webhook() -> Answer {
    (404, Some(error(10015, "Unknown Webhook")))
}

fn unknown_interaction() -> Answer {
    (404, Some(error(10062, "Unknown interaction")))
}

fn invalid_form(why: &str) -> Answer {
    let errors =
        json!({ "type": { "_errors": [{ "code": "BASE_TYPE_CHOICES", "message": why }] } });
    (
        400,
        Some(json!({ "code": 50035, "errors": errors, "message": "Invalid Form Body" })),
    )
}

fn ok(v: Value) -> Answer {
    (200, Some(v))
}

/// Answers one request.
pub(crate) fn route(state: &mut State, req: &Incoming) -> Answer {
    let Some(rest) = req.path.strip_prefix("/api/v10/") else {
        return not_found();
    };
    if state.rest_outage {
        return (503, Some(error(0, "503: Service Unavailable")));
    }
    let segments: Vec<&str> = rest.trim_end_matches('/').split('/').collect();
    let app = state.app();
    let open = matches!(segments.first(), Some(&"interactions" | &"webhooks"));
    let authorized = req
        .authorization
        .as_deref()
        .is_some_and(|a| a.starts_with("Bot "));
    if !open && (!authorized || state.revoked) {
        return (401, Some(error(0, "401: Unauthorized")));
    }
    if let Some(rule) = state.throttled.iter_mut().find(|(m, suffix, left)| {
        *left > 0 && *m == req.method && req.path.ends_with(suffix.as_str())
    }) {
        rule.2 -= 1;
        let body = json!({ "global": false, "message": "You are being rate limited.", "retry_after": 0.5 });
        return (429, Some(body));
    }
    match (req.method.as_str(), segments.as_slice()) {
        ("GET", ["gateway"]) => ok(json!({ "url": state.gateway_url })),
        ("GET", ["gateway", "bot"]) => ok(objects::gateway_bot(&state.gateway_url)),
        ("GET", ["oauth2", "applications", "@me"] | ["applications", "@me"]) => {
            let owner = super::fixtures::owner();
            let owner = objects::user(&owner.id, &owner.name);
            ok(objects::application(
                &app,
                &owner,
                &super::fixtures::public_key_hex(),
            ))
        }
        ("GET", ["users", "@me"]) => ok(objects::current_user(&app)),
        ("GET", ["users", id]) => match super::fixtures::known_person(id) {
            Some(p) => ok(objects::user(&p.id, &p.name)),
            None => (404, Some(error(10013, "Unknown User"))),
        },
        ("PUT" | "GET", ["applications", a, "commands"]) if *a == app => {
            commands(state, &req.method, None, &req.json)
        }
        ("PUT" | "GET", ["applications", a, "guilds", guild, "commands"]) if *a == app => {
            commands(state, &req.method, Some(guild), &req.json)
        }
        ("POST", ["interactions", id, token, "callback"]) => callback(state, id, token, req),
        (_, ["webhooks", a, token, rest @ ..]) => {
            if *a != app
                || state
                    .interactions
                    .get(*token)
                    .is_none_or(|ix| ix.responded.is_none())
            {
                return unknown_webhook();
            }
            webhook(state, token, rest, req)
        }
        ("POST", ["users", "@me", "channels"]) => open_dm(state, &req.json),
        ("POST", ["channels", channel, "messages"]) => {
            if !state.knows_channel(channel) {
                return (404, Some(error(10003, "Unknown Channel")));
            }
            if state
                .dm_recipient(channel)
                .is_some_and(|r| state.dm_refused.contains(r))
            {
                return (403, Some(error(50007, "Cannot send messages to this user")));
            }
            let mut m = new_message(channel, req, None);
            if let Some(refused) = refusal(&req.json, req.files.len(), &[], &m) {
                return refused;
            }
            // A message in an archived thread brings it back.
            for t in &mut state.threads {
                if t["id"].as_str() == Some(*channel) {
                    t["thread_metadata"]["archived"] = false.into();
                }
            }
            m.kind = if req.json["message_reference"].is_object() {
                19
            } else {
                0
            };
            m.message_reference = req.json["message_reference"].clone();
            // A nonce (a string or a number) is kept with the message; with `enforce_nonce`, a
            // second message of the bot's with the same nonce within NONCE_KEPT is not made:
            // the first is returned, as Discord does.
            let nonce = match &req.json["nonce"] {
                Value::String(s) => Some(s.clone()),
                Value::Number(n) => Some(n.to_string()),
                _ => None,
            };
            if let Some(nonce) = &nonce
                && req.json["enforce_nonce"] == true
                && let Some(first) = state
                    .messages
                    .iter()
                    .find(|x| {
                        x.author.is_none()
                            && x.nonce
                                .as_ref()
                                .is_some_and(|(n, at)| n == nonce && at.elapsed() < NONCE_KEPT)
                    })
                    .cloned()
            {
                return ok(objects::message(state, &first));
            }
            m.nonce = nonce.map(|n| (n, std::time::Instant::now()));
            state.messages.push(m);
            ok(objects::message(
                state,
                state.messages.last().expect("just pushed"),
            ))
        }
        ("GET", ["channels", channel, "messages"]) => list_messages(state, channel, &req.query),
        (method, ["channels", channel, "messages", id]) => {
            let visible = state
                .find_message(id)
                .is_some_and(|m| m.channel_id == *channel && m.flags & 64 == 0);
            if !visible {
                return unknown_message();
            }
            match method {
                "GET" => ok(objects::message(
                    state,
                    state.find_message(id).expect("found"),
                )),
                "PATCH" => edit(state, id, &req.json, &req.files),
                "DELETE" => {
                    state.messages.retain(|m| m.id != *id);
                    (204, None)
                }
                _ => not_found(),
            }
        }
        // The server's active threads (Discord lists those the bot can see).
        ("GET", ["guilds", guild, "threads", "active"]) => {
            let threads: Vec<Value> = state
                .threads
                .iter()
                .filter(|t| t["guild_id"].as_str() == Some(guild))
                .filter(|t| t["thread_metadata"]["archived"] != true)
                .cloned()
                .collect();
            ok(json!({ "threads": threads, "members": [] }))
        }
        // A channel's archived public threads, the most recently archived first (one page:
        // the suites make few).
        ("GET", ["channels", parent, "threads", "archived", "public"]) => {
            let mut threads: Vec<Value> = state
                .threads
                .iter()
                .filter(|t| t["parent_id"].as_str() == Some(parent) && t["type"] == 11)
                .filter(|t| t["thread_metadata"]["archived"] == true)
                .cloned()
                .collect();
            threads.sort_by(|a, b| {
                let at = |t: &Value| {
                    t["thread_metadata"]["archive_timestamp"]
                        .as_str()
                        .map(str::to_owned)
                };
                at(b).cmp(&at(a))
            });
            ok(json!({ "threads": threads, "members": [], "has_more": false }))
        }
        // A channel: a thread as it was made, another channel of a server as a text channel.
        ("GET", ["channels", channel]) => {
            if let Some(t) = state
                .threads
                .iter()
                .find(|t| t["id"].as_str() == Some(channel))
            {
                return ok(t.clone());
            }
            match state.channel_guild.get(*channel) {
                Some(guild) => ok(objects::text_channel(channel, guild)),
                None => (404, Some(error(10003, "Unknown Channel"))),
            }
        }
        ("POST", ["channels", channel, "threads"]) => {
            let id = snowflake();
            thread(state, &id, channel, &req.json)
        }
        ("POST", ["channels", channel, "messages", id, "threads"]) => {
            if state
                .find_message(id)
                .is_none_or(|m| m.channel_id != *channel)
            {
                return unknown_message();
            }
            let id = (*id).to_owned();
            thread(state, &id, channel, &req.json)
        }
        _ => not_found(),
    }
}

/// `GET /channels/{id}/messages`: the channel's messages, newest first — `limit` of them (1 to
/// 100, 50 if not given), before, after or around a message when asked. Ephemeral messages are
/// no channel's history.
fn list_messages(state: &State, channel: &str, query: &str) -> Answer {
    if !state.knows_channel(channel) {
        return (404, Some(error(10003, "Unknown Channel")));
    }
    let param = |name: &str| {
        query
            .split('&')
            .filter_map(|kv| kv.split_once('='))
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v.to_owned())
    };
    let limit = match param("limit").map(|l| l.parse::<u64>()) {
        None => 50,
        Some(Ok(n)) if (1..=100).contains(&n) => n,
        Some(Ok(0)) => {
            return limits::invalid(vec![limits::problem(
                &["limit"],
                "NUMBER_TYPE_MIN",
                "int value should be greater than or equal to 1.",
            )]);
        }
        Some(Ok(_)) => {
            return limits::invalid(vec![limits::problem(
                &["limit"],
                "NUMBER_TYPE_MAX",
                "int value should be less than or equal to 100.",
            )]);
        }
        Some(Err(_)) => {
            return limits::invalid(vec![limits::problem(
                &["limit"],
                "NUMBER_TYPE_COERCE",
                "Value is not int.",
            )]);
        }
    };
    let number = |id: &str| id.parse::<u64>().unwrap_or(0);
    let (before, after) = (param("before"), param("after"));
    let mut found: Vec<&Message> = state
        .messages
        .iter()
        .filter(|m| m.channel_id == channel && m.flags & 64 == 0)
        .filter(|m| before.as_deref().is_none_or(|b| number(&m.id) < number(b)))
        .filter(|m| after.as_deref().is_none_or(|a| number(&m.id) > number(a)))
        .collect();
    found.sort_by_key(|m| std::cmp::Reverse(number(&m.id)));
    let shown: Vec<Value> = found
        .into_iter()
        .take(limit as usize)
        .map(|m| objects::message(state, m))
        .collect();
    ok(Value::Array(shown))
}

/// `POST /users/@me/channels`: the direct-message channel with `recipient_id` (a snowflake as
/// a string), made the first time and the same one after.
fn open_dm(state: &mut State, body: &Value) -> Answer {
    let recipient = &body["recipient_id"];
    let problem = match recipient {
        Value::Null => Some(limits::problem(
            &["recipient_id"],
            "BASE_TYPE_REQUIRED",
            "This field is required",
        )),
        Value::String(s) if is_snowflake(s) => None,
        other => {
            let shown = other
                .as_str()
                .map_or_else(|| other.to_string(), str::to_owned);
            Some(limits::problem(
                &["recipient_id"],
                "NUMBER_TYPE_COERCE",
                format!("Value \"{shown}\" is not snowflake."),
            ))
        }
    };
    if let Some(p) = problem {
        return limits::invalid(vec![p]);
    }
    let id = recipient.as_str().expect("checked above");
    let Some(person) = super::fixtures::known_person(id) else {
        return (400, Some(error(50033, "Invalid Recipient(s)")));
    };
    let channel = match state.dm_channels.iter().find(|(r, _)| r == id) {
        Some((_, c)) => c.clone(),
        None => {
            let c = snowflake();
            state.dm_channels.push((id.to_owned(), c.clone()));
            c
        }
    };
    let last = state
        .messages
        .iter()
        .rev()
        .find(|m| m.channel_id == channel)
        .map(|m| m.id.clone());
    ok(objects::dm_channel(
        &channel,
        &objects::user(&person.id, &person.name),
        last.as_deref(),
    ))
}

/// Whether `s` is a snowflake: a number of up to 20 digits that fits in 64 bits.
fn is_snowflake(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 20
        && s.bytes().all(|b| b.is_ascii_digit())
        && s.parse::<u64>().is_ok()
}

fn thread(state: &mut State, id: &str, parent: &str, body: &Value) -> Answer {
    let guild = state
        .channel_guild
        .get(parent)
        .cloned()
        .unwrap_or_else(|| objects::UNKNOWN_GUILD.to_owned());
    let channel = objects::thread(&state.app(), id, parent, &guild, body);
    state.channel_guild.insert(id.to_owned(), guild);
    state.threads.push(channel.clone());
    (201, Some(channel))
}

fn commands(state: &mut State, method: &str, guild: Option<&str>, body: &Value) -> Answer {
    let key = guild.map(str::to_owned);
    if method == "GET" {
        return ok(state
            .commands
            .get(&key)
            .cloned()
            .unwrap_or_else(|| json!([])));
    }
    let Some(sent) = body.as_array() else {
        return invalid_form("an array of commands");
    };
    let problems = limits::commands(sent);
    if !problems.is_empty() {
        return limits::invalid(problems);
    }
    let app = state.app();
    let out: Vec<Value> = sent
        .iter()
        .map(|c| objects::command(&app, guild, c))
        .collect();
    state.commands.insert(key, Value::Array(out.clone()));
    ok(Value::Array(out))
}

/// `POST /interactions/{id}/{token}/callback`.
fn callback(state: &mut State, id: &str, token: &str, req: &Incoming) -> Answer {
    let Some(ix) = state.interactions.get(token).filter(|ix| ix.id == id) else {
        return unknown_interaction();
    };
    if ix.responded.is_some() {
        return (
            400,
            Some(error(40060, "Interaction has already been acknowledged.")),
        );
    }
    let Some(kind) = req.json["type"].as_u64() else {
        return invalid_form("missing type");
    };
    let allowed: &[u64] = match ix.kind {
        1 => &[1],
        2 => &[4, 5, 9],
        3 => &[4, 5, 6, 7, 9],
        4 => &[8],
        5 => &[4, 5, 6, 7],
        _ => &[],
    };
    if !allowed.contains(&kind) {
        return invalid_form("this response type is not valid for this interaction");
    }
    let ix = ix.clone();
    let data = &req.json["data"];
    if kind == 8 {
        let problems = limits::choices(data);
        if !problems.is_empty() {
            return limits::invalid(problems);
        }
    }
    let original = match kind {
        4 | 5 => {
            let mut m = new_message(&ix.channel_id, req, Some(&ix));
            if kind == 4
                && let Some(refused) = refusal(data, req.files.len(), &at(&["data"]), &m)
            {
                return refused;
            }
            if kind == 5 {
                m.content.clear();
                m.components = json!([]);
                m.embeds = json!([]);
                m.attachments.clear();
                m.flags = data["flags"].as_u64().unwrap_or(0) | 128;
            }
            let id = m.id.clone();
            state.messages.push(m);
            Some(id)
        }
        6 | 7 => {
            let Some(on) = ix.message_id.clone() else {
                return unknown_message();
            };
            if state.find_message(&on).is_none() {
                return unknown_message();
            }
            if kind == 7 {
                let edited = edit_at(state, &on, data, &req.files, &at(&["data"]));
                if edited.0 != 200 {
                    return edited;
                }
            }
            Some(on)
        }
        _ => None,
    };
    let known = state.interactions.get_mut(token).expect("looked up above");
    known.responded = Some(kind);
    known.original = original;
    known.deferred = kind == 5;
    (204, None)
}

/// `/webhooks/{app}/{token}/...` for an interaction that has been responded to.
fn webhook(state: &mut State, token: &str, rest: &[&str], req: &Incoming) -> Answer {
    let ix = state
        .interactions
        .get(token)
        .expect("checked by the caller")
        .clone();
    match (req.method.as_str(), rest) {
        ("POST", []) => {
            if ix.deferred {
                // The first followup after a deferral edits the "thinking" message; it is
                // still checked as a new message.
                let m = new_message(&ix.channel_id, req, Some(&ix));
                if let Some(refused) = refusal(&req.json, req.files.len(), &[], &m) {
                    return refused;
                }
                let original = ix.original.clone().expect("a deferral has a message");
                return edit_original(state, token, &original, req);
            }
            let m = new_message(&ix.channel_id, req, Some(&ix));
            if let Some(refused) = refusal(&req.json, req.files.len(), &[], &m) {
                return refused;
            }
            state.messages.push(m);
            ok(objects::message(
                state,
                state.messages.last().expect("just pushed"),
            ))
        }
        (method, ["messages", which]) => {
            let id = if *which == "@original" {
                match ix.original.clone() {
                    Some(id) => id,
                    None => return unknown_message(),
                }
            } else {
                (*which).to_owned()
            };
            let mine = state.find_message(&id).is_some_and(|m| {
                m.interaction_token.as_deref() == Some(token) || ix.original.as_deref() == Some(&id)
            });
            if !mine {
                return unknown_message();
            }
            match method {
                "GET" => ok(objects::message(
                    state,
                    state.find_message(&id).expect("mine"),
                )),
                "PATCH" if ix.original.as_deref() == Some(id.as_str()) => {
                    edit_original(state, token, &id, req)
                }
                "PATCH" => edit(state, &id, &req.json, &req.files),
                "DELETE" => {
                    state.messages.retain(|m| m.id != id);
                    // With the deferred "thinking" message gone, a followup is a new message.
                    if let Some(ix) = state.interactions.get_mut(token)
                        && ix.original.as_deref() == Some(id.as_str())
                    {
                        ix.deferred = false;
                    }
                    (204, None)
                }
                _ => not_found(),
            }
        }
        _ => not_found(),
    }
}

fn edit_original(state: &mut State, token: &str, id: &str, req: &Incoming) -> Answer {
    let edited = edit(state, id, &req.json, &req.files);
    if edited.0 == 200
        && let Some(ix) = state.interactions.get_mut(token)
    {
        ix.deferred = false;
    }
    edited
}

/// Discord's refusal of a message body found at `at` in the request, or of the message `made`
/// from it, if it refuses them: fields out of bounds (50035), or nothing to show (50006).
fn refusal(body: &Value, files: usize, at: &[String], made: &Message) -> Option<Answer> {
    let problems = limits::message_fields(body, files, at);
    if !problems.is_empty() {
        return Some(limits::invalid(problems));
    }
    let files = made.attachments.len();
    limits::empty(&made.content, &made.embeds, files, &made.components).then(limits::empty_message)
}

/// How long Discord holds a message's nonce for `enforce_nonce`: "the past few minutes", by
/// its documentation. The stand-in holds it two, so that a suite never leans on a longer
/// window than Discord gives.
const NONCE_KEPT: std::time::Duration = std::time::Duration::from_secs(120);

/// A new message in `channel` from the request's body (or, for a callback, its `data`).
fn new_message(channel: &str, req: &Incoming, from: Option<&Interaction>) -> Message {
    let callback = req.path.ends_with("/callback");
    let body = if callback {
        &req.json["data"]
    } else {
        &req.json
    };
    let mut m = Message {
        id: snowflake(),
        channel_id: channel.to_owned(),
        kind: match from {
            Some(ix) if ix.kind == 2 && ix.command_type == Some(1) => 20,
            Some(ix) if ix.kind == 2 => 23,
            _ => 0,
        },
        content: String::new(),
        components: json!([]),
        embeds: json!([]),
        attachments: Vec::new(),
        flags: body["flags"].as_u64().unwrap_or(0) & !128,
        allowed_mentions: Value::Null,
        tts: body["tts"].as_bool().unwrap_or(false),
        timestamp: objects::now(),
        edited_timestamp: None,
        interaction_token: from.map(|ix| ix.token.clone()),
        webhook: from.is_some(),
        author: None,
        message_reference: Value::Null,
        nonce: None,
    };
    apply(&mut m, body, &req.files);
    m.edited_timestamp = None;
    m
}

/// `PATCH` of message `id` with `body` and `files`.
fn edit(state: &mut State, id: &str, body: &Value, files: &[FilePart]) -> Answer {
    edit_at(state, id, body, files, &[])
}

/// As [`edit`], with the body at `at` in the request (for errors): refused, and the message
/// left as it was, if a field is out of bounds or the edit would leave it showing nothing.
fn edit_at(state: &mut State, id: &str, body: &Value, files: &[FilePart], at: &[String]) -> Answer {
    let Some(m) = state.find_message_mut(id) else {
        return unknown_message();
    };
    let mut next = m.clone();
    apply(&mut next, body, files);
    if let Some(refused) = refusal(body, files.len(), at, &next) {
        return refused;
    }
    let was_loading = next.flags & 128 != 0;
    next.flags &= !128;
    if !was_loading {
        next.edited_timestamp = Some(objects::now());
    }
    *m = next;
    let m = state.find_message(id).expect("just edited");
    ok(objects::message(state, m))
}

/// Applies a message body: fields present replace; files are added as Discord does (with an
/// `attachments` array, exactly those kept or described; without one, existing ones kept).
fn apply(m: &mut Message, body: &Value, files: &[FilePart]) {
    if let Some(content) = body.get("content") {
        m.content = content.as_str().unwrap_or_default().to_owned();
    }
    if let Some(components) = body.get("components") {
        m.components = or_empty(components);
    }
    if let Some(embeds) = body.get("embeds") {
        m.embeds = or_empty(embeds);
    }
    if let Some(mentions) = body.get("allowed_mentions") {
        m.allowed_mentions = mentions.clone();
    }
    if let Some(flags) = body.get("flags").and_then(Value::as_u64) {
        m.flags = (m.flags & (64 | 128)) | (flags & !128);
    }
    let new_file = |f: &FilePart, described: Option<&Value>| Attachment {
        id: snowflake(),
        filename: described
            .and_then(|d| d["filename"].as_str())
            .unwrap_or(&f.filename)
            .to_owned(),
        description: described
            .and_then(|d| d["description"].as_str())
            .map(str::to_owned),
        content_type: f
            .content_type
            .clone()
            .unwrap_or_else(|| objects::content_type(&f.filename)),
        bytes: f.bytes.clone(),
        adopted: None,
    };
    let mut used = vec![false; files.len()];
    let mut next = Vec::new();
    match body.get("attachments").and_then(Value::as_array) {
        Some(listed) => {
            for entry in listed {
                let id = match &entry["id"] {
                    Value::String(s) => s.clone(),
                    Value::Number(n) => n.to_string(),
                    _ => continue,
                };
                let part = format!("files[{id}]");
                if let Some(i) = files.iter().position(|f| f.name == part) {
                    used[i] = true;
                    next.push(new_file(&files[i], Some(entry)));
                } else if let Some(kept) = m.attachments.iter().find(|a| a.id == id) {
                    let mut kept = kept.clone();
                    if let Some(d) = entry["description"].as_str() {
                        kept.description = Some(d.to_owned());
                    }
                    next.push(kept);
                }
            }
        }
        None => next = m.attachments.clone(),
    }
    for (i, f) in files.iter().enumerate() {
        if !used[i] && f.name.starts_with("file") {
            next.push(new_file(f, None));
        }
    }
    if body.get("attachments").is_some() || !files.is_empty() {
        m.attachments = next;
    }
}
