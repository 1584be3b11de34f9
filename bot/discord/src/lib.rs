//! The Discord adapter. Two transports deliver the same interactions: a gateway connection
//! ([`gateway`]) or an HTTP interactions endpoint ([`endpoint`]), chosen by `discord.mode` and
//! started by [`serve::serve`]. Both hand each interaction, once, to [`dispatch`]: a slash command is
//! translated into a request ([`muster_core::desk::Request`], by [`words`]), run through the same
//! [`Core`], and its replies become the same REST calls ([`respond`]). The slash commands are
//! declared once, in the table of [`commands`], from which [`register`] makes their
//! registration, [`words`] reads their options and [`complete`] answers what is being typed;
//! serenity gives the REST client and the model. Nothing here knows a game's rules or words a
//! reply: the core does. Messages no interaction asked for (reminders, timeouts) come from the
//! core's outbox and are posted by [`notices`].
//!
//! This file holds what its files share: the platform's name, the [`Shared`] state and a few
//! helpers.

pub mod commands;
pub mod complete;
pub mod dispatch;
pub mod endpoint;
pub mod gateway;
pub mod notices;
pub mod outgoing;
pub mod register;
pub mod respond;
pub mod serve;
pub mod surface;
pub mod tidy;
pub mod words;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use muster_config::Discord;
use serenity::all as serenity;
use serenity::{GuildId, Interaction, Member, Permissions, User as DiscordUser};

use muster_core::desk::{Core, GameId, Policy, User};

/// The platform name in requests and the store.
pub const PLATFORM: &str = "discord";

/// What both transports share.
pub struct Shared {
    /// The command core, with `/` as its prefix (commands are slash commands here).
    pub core: Arc<Core>,
    /// The settings.
    pub settings: Discord,
    /// How long the core may take before the reply is deferred.
    pub defer_after: Duration,
    /// The interactions handled, by id, and when.
    handled: Mutex<HashMap<u64, Instant>>,
    /// How many interactions are being answered now.
    in_flight: tokio::sync::watch::Sender<usize>,
    /// The bot's own user, once asked.
    me: tokio::sync::OnceCell<serenity::UserId>,
    /// Whether a kept notice could not be posted for a reason that passes (Discord down or
    /// overloaded): the notices' task tries the owed ones again a little later.
    pub owed_later: std::sync::atomic::AtomicBool,
}

/// How long an interaction's id is remembered: its token's lifetime, after which Discord
/// accepts no answer to it anyway.
pub const REMEMBERED: Duration = Duration::from_secs(15 * 60);
/// How long a stopping process waits for the interactions it is answering.
pub const STOP_WITHIN: Duration = Duration::from_secs(10);

impl Shared {
    /// The shared state over `base`'s store, clock, timers and surfaces (Discord's among them:
    /// [`serve::serve`] gives it).
    pub fn with_core(base: &Core, settings: Discord) -> Shared {
        let defer_after = Duration::from_millis(settings.defer_after_ms);
        Shared {
            core: Arc::new(base.with_prefix("/")),
            settings,
            defer_after,
            handled: Mutex::new(HashMap::new()),
            owed_later: std::sync::atomic::AtomicBool::new(false),
            in_flight: tokio::sync::watch::Sender::new(0),
            me: tokio::sync::OnceCell::new(),
        }
    }

    /// The bot's own user id (asked of Discord once); `None` while Discord cannot say.
    pub async fn bot_user(&self, http: &serenity::Http) -> Option<serenity::UserId> {
        let asked = self
            .me
            .get_or_try_init(|| async { http.get_current_user().await.map(|u| u.id) })
            .await;
        match asked {
            Ok(id) => Some(*id),
            Err(e) => {
                tracing::warn!("Discord does not say who the bot is: {e}");
                None
            }
        }
    }

    /// Whether the interaction `id` arrives for the first time (a copy delivered again, as
    /// after a gateway resume, is not). Ids are remembered for [`REMEMBERED`].
    pub fn first_time(&self, id: u64, now: Instant) -> bool {
        let mut handled = self.handled.lock().unwrap_or_else(|p| p.into_inner());
        if handled.len() >= 1024 && handled.len().is_power_of_two() {
            handled.retain(|_, at| now.saturating_duration_since(*at) < REMEMBERED);
        }
        match handled.get(&id) {
            Some(at) if now.saturating_duration_since(*at) < REMEMBERED => false,
            _ => {
                handled.insert(id, now);
                true
            }
        }
    }

    /// Waits until no interaction is being answered, at most `limit`.
    pub async fn drained(&self, limit: Duration) {
        let mut watch = self.in_flight.subscribe();
        let _ = tokio::time::timeout(limit, watch.wait_for(|n| *n == 0)).await;
    }
}

/// An interaction being answered: counted from before its task starts until the guard is
/// dropped, so that a stopping process waits for it ([`Shared::drained`]).
pub struct Answering(Arc<Shared>);

impl Drop for Answering {
    fn drop(&mut self) {
        self.0.in_flight.send_modify(|n| *n = n.saturating_sub(1));
    }
}

/// Counts an interaction as being answered until the returned guard is dropped.
pub fn answering(shared: &Arc<Shared>) -> Answering {
    shared.in_flight.send_modify(|n| *n += 1);
    Answering(Arc::clone(shared))
}

impl Shared {
    /// What the server allows this member: its games, and whether he is an organiser (one of
    /// the configured users or roles, or anyone who may manage the server).
    pub fn policy(
        &self,
        guild: Option<GuildId>,
        member: Option<&Member>,
        no_threads: bool,
    ) -> Policy {
        let Some(guild) = guild else {
            return Policy::default();
        };
        let settings = self.settings.guilds.get(&guild.get());
        let games = settings.and_then(|g| g.games.as_ref()).map(|names| {
            names
                .iter()
                .filter_map(|n| n.parse::<GameId>().ok())
                .collect()
        });
        let organiser = member.is_some_and(|m| {
            let by_id = settings.is_some_and(|g| {
                g.organisers.contains(&m.user.id.get())
                    || m.roles.iter().any(|r| g.organisers.contains(&r.get()))
            });
            by_id
                || m.permissions
                    .is_some_and(|p| p.contains(Permissions::MANAGE_GUILD))
        });
        Policy {
            games,
            organiser,
            threads: !no_threads,
            community: guild.get().to_string(),
            // Discord's private answers are ephemeral: no place needs to be a direct one.
            direct: false,
        }
    }
}

/// The core's user for a Discord user: the server nickname if any, else the display name.
pub fn user(user: &DiscordUser, member: Option<&Member>) -> User {
    let name = member
        .and_then(|m| m.nick.clone())
        .unwrap_or_else(|| user.display_name().to_string());
    User::new(user.id.to_string(), &name)
}

/// With `MUSTER_DISCORD_TIMINGS` set, logs how long an interaction took to answer.
pub fn log_time(kind: &str, what: &str, started: Instant) {
    if std::env::var_os("MUSTER_DISCORD_TIMINGS").is_some() {
        tracing::info!(
            "discord: {kind} {what} answered in {:.2} ms",
            started.elapsed().as_secs_f64() * 1000.0
        );
    }
}

/// The fields serenity reads as image hashes (avatars, banners, icons…).
const IMAGE_HASHES: [&str; 10] = [
    "asset",
    "avatar",
    "badge",
    "banner",
    "cover_image",
    "discovery_splash",
    "icon",
    "icon_hash",
    "image",
    "splash",
];

/// Reads an interaction as Discord sends it, in an HTTP request's body or a gateway event.
/// Discord's image hashes are hexadecimal; serenity cuts a hash of 32 or 34 bytes into pairs of
/// bytes without looking, so a hash holding other characters would panic it. Such an
/// interaction is refused as unreadable before serenity reads it.
pub fn read_interaction(json: &serde_json::Value) -> Result<Interaction, String> {
    fn odd_hash(value: &serde_json::Value) -> Option<&str> {
        match value {
            serde_json::Value::Object(fields) => {
                fields.iter().find_map(|(name, field)| match field {
                    serde_json::Value::String(hash)
                        if !hash.is_ascii() && IMAGE_HASHES.contains(&name.as_str()) =>
                    {
                        Some(name.as_str())
                    }
                    _ => odd_hash(field),
                })
            }
            serde_json::Value::Array(items) => items.iter().find_map(odd_hash),
            _ => None,
        }
    }
    if let Some(name) = odd_hash(json) {
        return Err(format!("`{name}` is not an image hash"));
    }
    <Interaction as serde::Deserialize>::deserialize(json).map_err(|e| e.to_string())
}

/// An interaction's JSON for a log line, at most `max` characters, without its tokens (an
/// interaction's `token` answers it: a credential, never logged).
pub fn loggable(interaction: &serde_json::Value, max: usize) -> String {
    fn hide_tokens(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Object(fields) => {
                for (name, field) in fields.iter_mut() {
                    if name == "token" {
                        *field = muster_core::telemetry::logging::HIDDEN.into();
                    } else {
                        hide_tokens(field);
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(hide_tokens),
            _ => {}
        }
    }
    let mut shown = interaction.clone();
    hide_tokens(&mut shown);
    muster_core::kernel::text::excerpt(&shown.to_string(), max)
}
