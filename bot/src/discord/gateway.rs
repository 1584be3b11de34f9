//! Gateway mode: poise on serenity. poise registers the slash commands and dispatches them and
//! their autocompletion; buttons arrive as plain interaction events. Every handler calls
//! [`super::respond`], like the HTTP endpoint does.

use std::sync::Arc;

use muster_config::Register;
use poise::serenity_prelude as serenity;
use serenity::{FullEvent, GatewayIntents, Interaction};

use super::Shared;
use super::commands::{self, Error};

async fn on_event(
    ctx: &serenity::Context,
    event: &FullEvent,
    shared: &Arc<Shared>,
) -> Result<(), Error> {
    if let FullEvent::InteractionCreate {
        interaction: Interaction::Component(component),
    } = event
    {
        super::respond::component(shared, &ctx.http, component).await;
    }
    Ok(())
}

async fn on_error(error: poise::FrameworkError<'_, Arc<Shared>, Error>) {
    match error {
        poise::FrameworkError::Setup { error, .. } => {
            eprintln!("discord: setting up failed: {error}");
        }
        poise::FrameworkError::ArgumentParse {
            error, input, ctx, ..
        } => {
            eprintln!(
                "discord: /{} arrived with options it could not read ({input:?}): {error}",
                ctx.command().name
            );
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                eprintln!("discord: handling an error failed: {e}");
            }
        }
    }
}

/// Registers the commands where the settings say: in one server (development, at once) or
/// globally (production).
pub async fn register(http: &serenity::Http, shared: &Shared) -> Result<(), String> {
    let commands = poise::builtins::create_application_commands(&commands::all());
    let result = match shared.settings.register {
        Register::Guild(id) => serenity::GuildId::new(id)
            .set_commands(http, commands)
            .await
            .map(|c| c.len()),
        Register::Global => serenity::Command::set_global_commands(http, commands)
            .await
            .map(|c| c.len()),
    };
    match result {
        Ok(n) => {
            eprintln!(
                "discord: {n} slash commands registered ({:?})",
                shared.settings.register
            );
            Ok(())
        }
        Err(e) => Err(format!("the slash commands could not be registered: {e}")),
    }
}

/// Connects to the gateway and serves until the connection ends for good.
pub async fn run(shared: Arc<Shared>) -> Result<(), String> {
    let data = shared.clone();
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: commands::all(),
            event_handler: |ctx, event, _framework, shared| Box::pin(on_event(ctx, event, shared)),
            on_error: |error| Box::pin(on_error(error)),
            initialize_owners: false,
            ..Default::default()
        })
        .setup(move |ctx, ready, _framework| {
            Box::pin(async move {
                eprintln!("discord: connected as {} (gateway)", ready.user.name);
                register(&ctx.http, &data).await?;
                Ok(data)
            })
        })
        .build();
    let http = super::http(&shared.settings);
    let mut client = serenity::ClientBuilder::new_with_http(http, GatewayIntents::GUILDS)
        .framework(framework)
        .await
        .map_err(|e| format!("cannot start the Discord client: {e}"))?;
    client
        .start()
        .await
        .map_err(|e| format!("the Discord connection ended: {e}"))
}
