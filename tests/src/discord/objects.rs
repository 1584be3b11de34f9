//! Discord's objects as Discord sends them today: users, the application, messages, threads,
//! commands, READY. Complete, because serenity's model rejects partial ones.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};

use super::state::{Attachment, Message, State};

/// The bot's discriminator (bots still have one).
const BOT_DISCRIMINATOR: &str = "7291";
/// The bot's name.
pub(crate) const BOT_NAME: &str = "Muster";
/// The channel of a response to an interaction the stand-in was never told about.
pub(crate) const UNKNOWN_CHANNEL: &str = "1300000000000000999";
/// The guild of a channel the stand-in knows nothing about.
pub(crate) const UNKNOWN_GUILD: &str = "1300000000000000100";

/// Milliseconds since the Unix epoch.
fn now_millis() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// A fresh snowflake, unique in this process and increasing, with the current time in it.
pub(crate) fn snowflake() -> String {
    static LAST: AtomicU64 = AtomicU64::new(0);
    const DISCORD_EPOCH: u64 = 1_420_070_400_000;
    let now = now_millis().saturating_sub(DISCORD_EPOCH) << 22;
    let mut last = LAST.load(Ordering::Relaxed);
    loop {
        let next = now.max(last + 1);
        match LAST.compare_exchange_weak(last, next, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return next.to_string(),
            Err(seen) => last = seen,
        }
    }
}

/// The current time as Discord writes it: `2024-05-04T12:00:00.123456+00:00`.
pub(crate) fn now() -> String {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let secs = since.as_secs();
    let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:06}+00:00",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60,
        since.subsec_micros()
    )
}

/// A person's user object, as in interactions and messages.
pub(crate) fn user(id: &str, name: &str) -> Value {
    let mut display = name.to_owned();
    if let Some(first) = display.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    json!({
        "avatar": null,
        "avatar_decoration_data": null,
        "clan": null,
        "collectibles": null,
        "discriminator": "0",
        "global_name": display,
        "id": id,
        "primary_guild": null,
        "public_flags": 0,
        "username": name,
    })
}

/// The bot user, as a message author.
pub(crate) fn bot_user(app: &str) -> Value {
    json!({
        "avatar": null,
        "avatar_decoration_data": null,
        "bot": true,
        "clan": null,
        "collectibles": null,
        "discriminator": BOT_DISCRIMINATOR,
        "global_name": null,
        "id": app,
        "primary_guild": null,
        "public_flags": 524_288,
        "username": BOT_NAME,
    })
}

/// The bot user as `GET /users/@me` and READY give it.
pub(crate) fn current_user(app: &str) -> Value {
    let mut user = bot_user(app);
    let extra = json!({
        "accent_color": null,
        "banner": null,
        "banner_color": null,
        "bio": "",
        "email": null,
        "flags": 524_288,
        "locale": "en-US",
        "mfa_enabled": false,
        "premium_type": 0,
        "verified": true,
    });
    merge(&mut user, extra);
    user
}

/// `GET /oauth2/applications/@me`.
pub(crate) fn application(app: &str, owner: &Value, verify_key: &str) -> Value {
    json!({
        "approximate_guild_count": 1,
        "approximate_user_auth_count": 0,
        "approximate_user_install_count": 0,
        "bot": current_user(app),
        "bot_public": true,
        "bot_require_code_grant": false,
        "description": "",
        "explicit_content_filter": 0,
        "flags": 8_953_856,
        "hook": true,
        "icon": null,
        "id": app,
        "install_params": { "permissions": "2248473465835073", "scopes": ["bot", "applications.commands"] },
        "integration_public": true,
        "integration_require_code_grant": false,
        "integration_types_config": {
            "0": { "oauth2_install_params": { "permissions": "2248473465835073", "scopes": ["bot", "applications.commands"] } },
            "1": {}
        },
        "interactions_endpoint_url": null,
        "interactions_event_types": [],
        "interactions_version": 1,
        "is_discoverable": false,
        "is_monetized": false,
        "is_verified": false,
        "name": BOT_NAME,
        "owner": owner,
        "redirect_uris": [],
        "role_connections_verification_url": null,
        "rpc_origins": [],
        "storefront_available": false,
        "summary": "",
        "tags": [],
        "team": null,
        "type": null,
        "verify_key": verify_key,
    })
}

/// `GET /gateway/bot`.
pub(crate) fn gateway_bot(url: &str) -> Value {
    json!({
        "session_start_limit": { "max_concurrency": 1, "remaining": 999, "reset_after": 0, "total": 1000 },
        "shards": 1,
        "url": url,
    })
}

/// The READY payload for session `session_id`.
pub(crate) fn ready(app: &str, session_id: &str, resume_url: &str) -> Value {
    json!({
        "_trace": ["[\"gateway-stand-in\",{\"micros\":0}]"],
        "application": { "flags": 8_953_856, "id": app },
        "auth": {},
        "geo_ordered_rtc_regions": ["rotterdam", "madrid", "milan", "bucharest", "stockholm"],
        "guild_join_requests": [],
        "guilds": [],
        "presences": [],
        "private_channels": [],
        "relationships": [],
        "resume_gateway_url": resume_url,
        "session_id": session_id,
        "session_type": "normal",
        "shard": [0, 1],
        "user": current_user(app),
        "user_settings": {},
        "v": 10,
    })
}

/// A registered command, as `PUT .../commands` returns it.
pub(crate) fn command(app: &str, guild: Option<&str>, sent: &Value) -> Value {
    let mut out = json!({
        "application_id": app,
        "contexts": null,
        "default_member_permissions": null,
        "description": "",
        "description_localizations": null,
        "dm_permission": true,
        "id": snowflake(),
        "integration_types": [0],
        "name_localizations": null,
        "nsfw": false,
        "options": [],
        "type": 1,
        "version": snowflake(),
    });
    if let Some(guild) = guild {
        out["guild_id"] = guild.into();
        out.as_object_mut().map(|o| o.remove("dm_permission"));
    }
    merge(&mut out, sent.clone());
    out
}

/// A server's text channel (type 0), as `GET /channels/{id}` returns it.
pub(crate) fn text_channel(id: &str, guild: &str) -> Value {
    json!({
        "flags": 0,
        "guild_id": guild,
        "id": id,
        "last_message_id": null,
        "name": "games",
        "nsfw": false,
        "parent_id": null,
        "permission_overwrites": [],
        "position": 0,
        "rate_limit_per_user": 0,
        "topic": null,
        "type": 0,
    })
}

/// A thread channel created in `parent` of `guild`.
pub(crate) fn thread(app: &str, id: &str, parent: &str, guild: &str, body: &Value) -> Value {
    let now = now();
    let kind = body["type"].as_u64().unwrap_or(11);
    let mut metadata = json!({
        "archive_timestamp": now,
        "archived": false,
        "auto_archive_duration": body["auto_archive_duration"].as_u64().unwrap_or(4320),
        "create_timestamp": now,
        "locked": false,
    });
    if kind == 12 {
        metadata["invitable"] = body["invitable"].as_bool().unwrap_or(true).into();
    }
    json!({
        "flags": 0,
        "guild_id": guild,
        "id": id,
        "last_message_id": null,
        "member": { "flags": 1, "id": id, "join_timestamp": now, "mute_config": null, "muted": false, "user_id": app },
        "member_count": 1,
        "message_count": 0,
        "name": body["name"].as_str().unwrap_or("thread"),
        "owner_id": app,
        "parent_id": parent,
        "rate_limit_per_user": body["rate_limit_per_user"].as_u64().unwrap_or(0),
        "thread_metadata": metadata,
        "total_message_sent": 0,
        "type": kind,
    })
}

/// A direct-message channel (type 1) with `recipient`, as `POST /users/@me/channels` returns
/// it.
pub(crate) fn dm_channel(id: &str, recipient: &Value, last_message: Option<&str>) -> Value {
    let mut user = recipient.clone();
    merge(
        &mut user,
        json!({ "accent_color": null, "banner": null, "banner_color": null, "flags": 0 }),
    );
    json!({
        "flags": 0,
        "id": id,
        "last_message_id": last_message,
        "recipients": [user],
        "type": 1,
    })
}

/// Discord's error body.
pub(crate) fn error(code: u64, message: &str) -> Value {
    json!({ "code": code, "message": message })
}

/// A message as Discord returns it over REST.
pub(crate) fn message(state: &State, m: &Message) -> Value {
    let app = state.app();
    let ephemeral = m.flags & 64 != 0;
    let attachments: Vec<Value> = m
        .attachments
        .iter()
        .map(|a| attachment(&m.channel_id, a, ephemeral))
        .collect();
    let mentions: Vec<Value> = mentioned_users(&m.content);
    let mut out = json!({
        "attachments": attachments,
        "author": m.author.clone().unwrap_or_else(|| bot_user(&app)),
        "channel_id": m.channel_id,
        "components": number_components(&m.components),
        "content": m.content,
        "edited_timestamp": m.edited_timestamp,
        "embeds": rich(&m.embeds),
        "flags": m.flags,
        "id": m.id,
        "mention_everyone": false,
        "mention_roles": [],
        "mentions": mentions,
        "pinned": false,
        "timestamp": m.timestamp,
        "tts": m.tts,
        "type": m.kind,
    });
    if m.author.is_none() {
        out["application_id"] = app.clone().into();
    }
    if m.webhook {
        out["webhook_id"] = app.into();
    }
    if !m.message_reference.is_null() {
        out["message_reference"] = m.message_reference.clone();
    }
    let token = m.interaction_token.as_deref();
    if let Some(ix) = token.and_then(|t| state.interactions.get(t)) {
        let mut meta = json!({
            "authorizing_integration_owners": ix.owners,
            "id": ix.id,
            "type": ix.kind,
            "user": ix.user,
        });
        if ix.original.as_deref() != Some(m.id.as_str()) {
            meta["original_response_message_id"] = ix.original.clone().into();
        }
        if ix.kind == 2 {
            meta["name"] = ix.command_name.clone().into();
            meta["command_type"] = ix.command_type.into();
            out["interaction"] = json!({
                "id": ix.id, "name": ix.command_name, "type": ix.kind, "user": ix.user,
            });
        } else if let Some(on) = &ix.message_id {
            meta["interacted_message_id"] = on.clone().into();
        }
        out["interaction_metadata"] = meta;
    }
    out
}

/// An attachment object.
fn attachment(channel: &str, a: &Attachment, ephemeral: bool) -> Value {
    if let Some(adopted) = &a.adopted {
        return adopted.clone();
    }
    let url = format!(
        "https://cdn.discordapp.com/attachments/{channel}/{}/{}",
        a.id, a.filename
    );
    let signed = "?ex=6650a1b2&is=664f5032&hm=5d1c0ffee";
    let mut out = json!({
        "content_scan_version": 0,
        "content_type": a.content_type,
        "filename": a.filename,
        "id": a.id,
        "proxy_url": format!("https://media.discordapp.net/attachments/{channel}/{}/{}{signed}", a.id, a.filename),
        "size": a.bytes.len(),
        "url": format!("{url}{signed}"),
    });
    if let Some((width, height)) = png_size(&a.bytes) {
        out["width"] = width.into();
        out["height"] = height.into();
        out["placeholder"] = "XQgKDQJ4h4iIeHeIh3d4h3eHd4B4".into();
        out["placeholder_version"] = 1.into();
    }
    if let Some(description) = &a.description {
        out["description"] = description.clone().into();
    }
    if ephemeral {
        out["ephemeral"] = true.into();
    }
    out
}

/// The media type Discord gives a file named `filename`.
pub(crate) fn content_type(filename: &str) -> String {
    let ext = filename
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        "txt" => "text/plain; charset=utf-8",
        "json" => "application/json; charset=utf-8",
        "pgn" => "application/vnd.chess-pgn",
        _ => "application/octet-stream",
    }
    .to_owned()
}

/// Width and height from a PNG's IHDR.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.len() < 24 || &bytes[..8] != b"\x89PNG\r\n\x1a\n" || &bytes[12..16] != b"IHDR" {
        return None;
    }
    let word =
        |at: usize| u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]);
    Some((word(16), word(20)))
}

/// The users `<@id>` / `<@!id>` in `content` names, when known (see `Person`).
fn mentioned_users(content: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let mut rest = content;
    while let Some(at) = rest.find("<@") {
        rest = &rest[at + 2..];
        let id: &str = rest.trim_start_matches('!');
        let digits = id.find(|c: char| !c.is_ascii_digit()).unwrap_or(id.len());
        if id[digits..].starts_with('>')
            && let Some(person) = super::fixtures::known_person(&id[..digits])
        {
            let user = user(&person.id, &person.name);
            if !out.contains(&user) {
                out.push(user);
            }
        }
    }
    out
}

/// Components as Discord returns them: every component gets a numeric `id`, in order.
fn number_components(components: &Value) -> Value {
    fn walk(v: &mut Value, next: &mut u64) {
        if let Some(o) = v.as_object_mut() {
            if o.contains_key("type") && !o.contains_key("id") {
                o.insert("id".into(), (*next).into());
            }
            *next += 1;
            if let Some(children) = o.get_mut("components") {
                walk(children, next);
            }
        } else if let Some(a) = v.as_array_mut() {
            a.iter_mut().for_each(|c| walk(c, next));
        }
    }
    let mut out = components.clone();
    walk(&mut out, &mut 1);
    out
}

/// Embeds as Discord returns them: with their `type`.
fn rich(embeds: &Value) -> Value {
    let mut out = embeds.clone();
    for e in out.as_array_mut().into_iter().flatten() {
        if e.is_object() && e.get("type").is_none() {
            e["type"] = "rich".into();
            e["content_scan_version"] = 0.into();
        }
    }
    out
}

/// Sets every key of `extra` in `into`.
pub(crate) fn merge(into: &mut Value, extra: Value) {
    if let (Some(into), Value::Object(extra)) = (into.as_object_mut(), extra) {
        into.extend(extra);
    }
}
