//! Gateway mode: poise on serenity. poise registers the slash commands and dispatches them and
//! their autocompletion; buttons arrive as plain interaction events. Every handler calls
//! [`super::respond`], like the HTTP endpoint does.

use std::sync::Arc;

use muster_config::Register;
use poise::serenity_prelude as serenity;
use serenity::{CommandInteraction, FullEvent, GatewayIntents, Interaction};

use super::Shared;
use super::commands::{self, Error};
use crate::core::words::excerpt;

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

/// A slash command poise could not run (options it cannot read, or a command it does not
/// know) is still answered, as the HTTP endpoint answers it: [`super::respond`] reads the
/// options itself and answers privately what it cannot read.
async fn on_error(error: poise::FrameworkError<'_, Arc<Shared>, Error>) {
    match error {
        poise::FrameworkError::Setup { error, .. } => {
            eprintln!("discord: setting up failed: {error}");
        }
        poise::FrameworkError::ArgumentParse {
            error, input, ctx, ..
        } => {
            eprintln!(
                "discord: /{} arrived with options poise could not read ({}): {error}",
                ctx.command().name,
                input.as_deref().map_or(String::new(), |i| excerpt(i, 64))
            );
            if let poise::Context::Application(app) = ctx {
                answer_anyway(app.data(), &app.serenity_context.http, app.interaction).await;
            }
        }
        poise::FrameworkError::CommandStructureMismatch {
            description, ctx, ..
        } => {
            eprintln!(
                "discord: /{} does not match its registration: {description}",
                ctx.command.name
            );
            answer_anyway(ctx.data(), &ctx.serenity_context.http, ctx.interaction).await;
        }
        poise::FrameworkError::UnknownInteraction {
            ctx,
            framework,
            interaction,
            ..
        } => {
            answer_anyway(framework.user_data, &ctx.http, interaction).await;
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                eprintln!("discord: handling an error failed: {e}");
            }
        }
    }
}

/// Answers a command, or an autocomplete request (it has a focused option), that poise did not.
async fn answer_anyway(shared: &Shared, http: &serenity::Http, interaction: &CommandInteraction) {
    if interaction.data.autocomplete().is_some() {
        super::respond::autocomplete(shared, http, interaction).await;
    } else {
        super::respond::command(shared, http, interaction).await;
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
