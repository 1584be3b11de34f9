//! The Discord adapter. Two transports deliver the same interactions: a gateway connection
//! (poise on serenity, [`gateway`]) or an HTTP interactions endpoint ([`endpoint`]), chosen by
//! `discord.mode`. Both translate an interaction into a [`Request`] ([`commands`]), run it
//! through the same [`Core`], and map its replies to the same REST calls ([`respond`]). Nothing
//! here knows a game's rules or words a reply: the core does.

pub mod commands;
pub mod endpoint;
pub mod gateway;
pub mod respond;

use std::sync::Arc;
use std::time::Duration;

use muster_config::Discord;
use poise::serenity_prelude as serenity;
use serenity::{GuildId, Http, HttpBuilder, Member, Permissions, User as DiscordUser};

use crate::core::{Core, GameId, Policy, User};
use crate::store::GameStore;

/// The platform name in requests and the store.
pub const PLATFORM: &str = "discord";

/// What both transports share.
pub struct Shared {
    /// The command core, with `/` as its prefix (commands are slash commands here).
    pub core: Arc<Core>,
    /// The settings.
    pub settings: Discord,
    /// The slash commands' shapes, for translating interactions.
    pub defs: Vec<commands::Def>,
    /// How long the core may take before the reply is deferred.
    pub defer_after: Duration,
}

impl Shared {
    /// The shared state over `store`.
    pub fn new(store: Arc<dyn GameStore>, settings: Discord) -> Shared {
        let defer_after = Duration::from_millis(settings.defer_after_ms);
        Shared {
            core: Arc::new(Core::new(store, "/")),
            defs: commands::defs(&commands::all()),
            settings,
            defer_after,
        }
    }

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
        }
    }
}

/// The core's user for a Discord user: the server nickname if any, else the display name.
pub fn user(user: &DiscordUser, member: Option<&Member>) -> User {
    let name = member
        .and_then(|m| m.nick.clone())
        .unwrap_or_else(|| user.display_name().to_string());
    User {
        id: user.id.to_string(),
        name,
    }
}

/// The REST client: through the configured API proxy if any (serenity then needs its own
/// rate limiter off; the proxy is expected to keep to Discord's limits).
pub fn http(settings: &Discord) -> Http {
    let mut builder =
        HttpBuilder::new(settings.token.expose()).application_id(settings.application_id.into());
    if let Some(url) = &settings.api_url {
        builder = builder.proxy(url.clone()).ratelimiter_disabled(true);
    }
    builder.build()
}

/// Runs the Discord adapter until it fails or the process is stopped.
pub async fn serve(store: Arc<dyn GameStore>, settings: Discord) -> Result<(), String> {
    let shared = Arc::new(Shared::new(store, settings));
    match shared.settings.mode {
        muster_config::Mode::Gateway => gateway::run(shared).await,
        muster_config::Mode::Http => endpoint::run(shared).await,
    }
}
