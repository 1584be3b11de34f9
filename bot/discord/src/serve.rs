//! The Discord adapter at work: the transport the settings choose (the gateway or the
//! interactions endpoint), and the delivery of the core's notices beside it.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use muster_config::{Discord, Mode};
use serenity::all as serenity;
use serenity::{Http, HttpBuilder};

use super::Shared;
use super::surface::DiscordSurface;
use super::{endpoint, gateway, notices};
use muster_core::desk::Core;

/// Runs the Discord adapter until it fails or the process is stopped: the transport the
/// settings choose, and the delivery of the core's notices ([`notices`]) beside it.
/// The adapter's future is boxed here, in its own crate, so that the binary awaiting it compiles
/// none of the adapter's code again (docs/performance.md, "Building").
pub fn serve(
    base: Arc<Core>,
    settings: Discord,
) -> Pin<Box<dyn Future<Output = Result<(), String>> + Send>> {
    Box::pin(serving(base, settings))
}

/// What [`serve`] boxes.
async fn serving(base: Arc<Core>, settings: Discord) -> Result<(), String> {
    base.add_surface(Arc::new(DiscordSurface::serving(settings.games_channel)));
    let shared = Arc::new(Shared::with_core(&base, settings));
    let http = Arc::new(http(&shared.settings));
    let delivering = tokio::spawn(notices::run(Arc::clone(&shared), Arc::clone(&http)));
    let result = match shared.settings.mode {
        Mode::Gateway => gateway::run(shared, http).await,
        Mode::Http => endpoint::run(shared, http).await,
    };
    // On a failure the process ends; the notices go with it.
    delivering.abort();
    result
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
