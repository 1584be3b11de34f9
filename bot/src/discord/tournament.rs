//! `/tournament`: one slash command with a subcommand per action of the core's `tournament …`
//! (docs/tournaments.md). The event's name is completed from the server's events; in
//! the event's channel it may be left out. The options become the text command in
//! [`super::commands::text`].

use poise::serenity_prelude as serenity;
use serenity::AutocompleteChoice;

use super::commands::{Context, Error, MAX_CHOICES, run};

/// The server's events whose names begin with what is typed.
pub async fn complete_event(ctx: Context<'_>, partial: &str) -> Vec<AutocompleteChoice> {
    let poise::Context::Application(app) = ctx else {
        return Vec::new();
    };
    let community = app
        .interaction
        .guild_id
        .map(|g| g.get().to_string())
        .unwrap_or_default();
    event_choices(&ctx.data().core, &community, partial)
}

/// Choices for an event's name: the community's events beginning with `typed`.
pub fn event_choices(
    core: &crate::core::Core,
    community: &str,
    typed: &str,
) -> Vec<AutocompleteChoice> {
    crate::events::report::names(
        core,
        super::PLATFORM,
        community,
        &typed.to_ascii_lowercase(),
    )
    .into_iter()
    .take(MAX_CHOICES)
    .map(|n| AutocompleteChoice::new(n.clone(), n))
    .collect()
}

/// A subcommand whose only option is the event's name.
macro_rules! on_the_event {
    ($fn:ident, $word:literal, $doc:literal) => {
        #[doc = $doc]
        #[poise::command(slash_command, rename = $word)]
        async fn $fn(
            ctx: Context<'_>,
            #[description = "The event (default: this channel's)"]
            #[max_length = 24]
            #[autocomplete = "complete_event"]
            name: Option<String>,
        ) -> Result<(), Error> {
            let _ = name;
            run(ctx).await
        }
    };
}

on_the_event!(t_leave, "leave", "Withdraw from an event");
on_the_event!(
    t_start,
    "start",
    "Organisers: close entries and pair the first round"
);
on_the_event!(
    t_standings,
    "standings",
    "The standings with every tie-break, or the knockout bracket"
);
on_the_event!(t_export, "export", "The whole event as a JSON file");
on_the_event!(
    t_pause,
    "pause",
    "Organisers: pair no new round until resumed (games go on)"
);
on_the_event!(t_resume, "resume", "Organisers: pair rounds again");
on_the_event!(t_cancel, "cancel", "Organisers: call the event off");

/// Tournaments: open, join, follow and run events
#[poise::command(
    slash_command,
    subcommands(
        "t_new",
        "t_list",
        "t_join",
        "t_leave",
        "t_start",
        "t_standings",
        "t_pairings",
        "t_export",
        "t_add",
        "t_kick",
        "t_result",
        "t_pause",
        "t_resume",
        "t_cancel"
    ),
    subcommand_required
)]
pub async fn tournament(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Open an event in this channel (you organise it)
// The options are Discord's, one argument each.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, rename = "new")]
async fn t_new(
    ctx: Context<'_>,
    #[description = "A short name: lowercase letters, digits, hyphens (spring-2026)"]
    #[max_length = 24]
    name: String,
    #[description = "Which game"] game: u8,
    #[description = "How rounds are paired"] system: u8,
    #[description = "Swiss: how many rounds (default: enough to separate the field)"]
    #[min = 1]
    #[max = 30]
    rounds: Option<u8>,
    #[description = "time control of every game: 3d per move, 10d+1d bank and increment, none"]
    #[max_length = 20]
    clock: Option<String>,
    #[description = "When a clock runs out: the game ends, or the opponent may claim the win"]
    timeout: Option<u8>,
    #[description = "Lanko: entrants are pairs of players"] pairs: Option<bool>,
) -> Result<(), Error> {
    let _ = (name, game, system, rounds, clock, timeout, pairs);
    run(ctx).await
}

/// The events of this server
#[poise::command(slash_command, rename = "list")]
async fn t_list(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx).await
}

/// Enter an event (Lanko pairs: name your partner)
#[poise::command(slash_command, rename = "join")]
async fn t_join(
    ctx: Context<'_>,
    #[description = "The event (default: this channel's)"]
    #[max_length = 24]
    #[autocomplete = "complete_event"]
    name: Option<String>,
    #[description = "Your partner, in a pairs event"] partner: Option<serenity::User>,
) -> Result<(), Error> {
    let _ = (name, partner);
    run(ctx).await
}

/// A round's boards (default: the current round)
#[poise::command(slash_command, rename = "pairings")]
async fn t_pairings(
    ctx: Context<'_>,
    #[description = "The event (default: this channel's)"]
    #[max_length = 24]
    #[autocomplete = "complete_event"]
    name: Option<String>,
    #[description = "Which round"]
    #[min = 1]
    #[max = 60]
    round: Option<u8>,
) -> Result<(), Error> {
    let _ = (name, round);
    run(ctx).await
}

/// Organisers: enter a player (or a Lanko pair)
#[poise::command(slash_command, rename = "add")]
async fn t_add(
    ctx: Context<'_>,
    #[description = "Who"] player: serenity::User,
    #[description = "The event (default: this channel's)"]
    #[max_length = 24]
    #[autocomplete = "complete_event"]
    name: Option<String>,
    #[description = "Their partner, in a pairs event"] partner: Option<serenity::User>,
) -> Result<(), Error> {
    let _ = (name, player, partner);
    run(ctx).await
}

/// Organisers: withdraw a player
#[poise::command(slash_command, rename = "kick")]
async fn t_kick(
    ctx: Context<'_>,
    #[description = "Who"] player: serenity::User,
    #[description = "The event (default: this channel's)"]
    #[max_length = 24]
    #[autocomplete = "complete_event"]
    name: Option<String>,
) -> Result<(), Error> {
    let _ = (name, player);
    run(ctx).await
}

/// Organisers: give a board of the current round its result
#[poise::command(slash_command, rename = "result")]
async fn t_result(
    ctx: Context<'_>,
    #[description = "The board"]
    #[min = 1]
    #[max = 100]
    board: u8,
    #[description = "The result"] result: u8,
    #[description = "The event (default: this channel's)"]
    #[max_length = 24]
    #[autocomplete = "complete_event"]
    name: Option<String>,
) -> Result<(), Error> {
    let _ = (name, board, result);
    run(ctx).await
}
