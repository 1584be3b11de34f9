//! Suggestions while an option is typed (autocomplete interactions): the table of
//! [`super::commands`] says what the focused option completes — the move being typed, from the
//! channel's game, or an event's name, from the server's events.

use std::time::Instant;

use serenity::all as serenity;
use serenity::{
    AutocompleteChoice, CommandData, CommandDataOption, CommandDataOptionValue, CommandInteraction,
    CreateAutocompleteResponse, CreateInteractionResponse, Http,
};

use super::commands::{self, Command, Complete, Kind};
use super::{PLATFORM, Shared, log_time};
use muster_core::desk::{Core, User};

/// Discord's most choices in an autocomplete answer.
pub const MAX_CHOICES: usize = 25;
/// Discord's longest name or value of a choice; neither may be empty.
pub const MAX_CHOICE: usize = 100;

/// Answers an autocomplete interaction. An option the table gives no suggestions for (a
/// command registered before this version) gets none.
pub async fn autocomplete(shared: &Shared, http: &Http, interaction: &CommandInteraction) {
    let started = Instant::now();
    let typed = focused(&interaction.data);
    let choices = match completes(&interaction.data) {
        Some(Complete::Event) => {
            let community = interaction
                .guild_id
                .map(|g| g.get().to_string())
                .unwrap_or_default();
            event_choices(&shared.core, &community, &typed)
        }
        Some(Complete::Move) => {
            let user = super::user(&interaction.user, interaction.member.as_deref());
            let channel = interaction.channel_id.to_string();
            move_choices(shared, &channel, &user, &typed)
        }
        None => Vec::new(),
    };
    let response = CreateAutocompleteResponse::new().set_choices(choices);
    if let Err(e) = interaction
        .create_response(http, CreateInteractionResponse::Autocomplete(response))
        .await
    {
        tracing::warn!("autocomplete could not be answered: {e}");
    }
    log_time("autocomplete", &interaction.data.name, started);
}

/// What the focused option of an autocomplete interaction completes, by the table.
pub fn completes(data: &CommandData) -> Option<Complete> {
    fn within(command: &Command, options: &[CommandDataOption]) -> Option<Complete> {
        for option in options {
            match &option.value {
                CommandDataOptionValue::SubCommand(inner) => {
                    return within(command.subcommand(&option.name)?, inner);
                }
                CommandDataOptionValue::Autocomplete { .. } => {
                    return match command.option(&option.name)?.kind {
                        Kind::Text { complete, .. } => complete,
                        _ => None,
                    };
                }
                _ => {}
            }
        }
        None
    }
    within(commands::find(&data.name)?, &data.options)
}

/// The focused option's text in an autocomplete interaction.
pub fn focused(data: &CommandData) -> String {
    data.autocomplete()
        .map(|a| a.value.to_string())
        .unwrap_or_default()
}

/// Choices for the move being typed, as Discord takes them: at most [`MAX_CHOICES`], each
/// name and value 1 to [`MAX_CHOICE`] characters. A hint (such as "Not your turn") whose
/// value would be empty (nothing typed yet) carries its own words as the value.
pub fn move_choices(
    shared: &Shared,
    channel: &str,
    user: &User,
    typed: &str,
) -> Vec<AutocompleteChoice> {
    let fit = |s: &str| -> String { s.trim().chars().take(MAX_CHOICE).collect() };
    shared
        .core
        .suggest(PLATFORM, channel, user, typed, MAX_CHOICES)
        .into_iter()
        .filter_map(|s| {
            let label = fit(&s.label);
            let value = match fit(&s.value) {
                v if v.is_empty() => label.clone(),
                v => v,
            };
            (!label.is_empty()).then(|| AutocompleteChoice::new(label, value))
        })
        .take(MAX_CHOICES)
        .collect()
}

/// Choices for an event's name: the community's events beginning with `typed`.
pub fn event_choices(core: &Core, community: &str, typed: &str) -> Vec<AutocompleteChoice> {
    core.event_names(PLATFORM, community, &typed.to_ascii_lowercase())
        .into_iter()
        .take(MAX_CHOICES)
        .map(|n| AutocompleteChoice::new(n.clone(), n))
        .collect()
}
