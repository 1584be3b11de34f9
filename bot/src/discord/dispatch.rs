//! Each interaction either transport receives, answered once: a slash command or a button
//! ([`super::respond`]), or the suggestions for an option being typed ([`super::complete`]).

use std::time::Instant;

use serenity::all as serenity;
use serenity::{Http, Interaction};

use super::Shared;
use super::{complete, respond};

/// Answers one interaction (not a PING), unless it was handled before: a command, its
/// autocompletion, or a button.
pub async fn dispatch(shared: &Shared, http: &Http, interaction: &Interaction) {
    let id = match interaction {
        Interaction::Command(c) | Interaction::Autocomplete(c) => c.id.get(),
        Interaction::Component(c) => c.id.get(),
        _ => return,
    };
    if !shared.first_time(id, Instant::now()) {
        tracing::debug!("interaction {id} arrived again; it is answered once");
        return;
    }
    match interaction {
        Interaction::Command(c) => respond::command(shared, http, c).await,
        Interaction::Autocomplete(c) => complete::autocomplete(shared, http, c).await,
        Interaction::Component(c) => respond::component(shared, http, c).await,
        _ => {}
    }
}
