//! The slash commands: one per command word of the core's language, declared with poise (which
//! registers them and, in gateway mode, dispatches them), and the translation of an
//! interaction's options back into the core's text command, shared by both transports.

use std::sync::Arc;

use poise::serenity_prelude as serenity;
use serenity::{AutocompleteChoice, CommandData, CommandDataOptionValue};

use super::Shared;
use crate::core::User;

/// An error in a poise command (logged; users get the core's replies).
pub type Error = Box<dyn std::error::Error + Send + Sync>;
/// The poise context.
pub type Context<'a> = poise::Context<'a, Arc<Shared>, Error>;
/// A poise command of this bot.
pub type Command = poise::Command<Arc<Shared>, Error>;

/// Options offered as fixed choices: the label shown and the word the core reads.
pub const CHOICES: [(&str, &[(&str, &str)]); 3] = [
    (
        "game",
        &[
            ("Lanrick (Third Edition, 1881)", "lanrick"),
            ("Lanrick (first version, 1880)", "lanrick1880"),
            ("Arithmetical Croquet", "croquet"),
            ("Lanko-88", "lanko88"),
            ("Lanko-68", "lanko68"),
            ("Lanko-103", "lanko103"),
        ],
    ),
    (
        "answer",
        &[
            ("Offer or ask", "offer"),
            ("Accept", "accept"),
            ("Decline", "decline"),
        ],
    ),
    (
        "bot",
        &[
            ("Easy", "bot:easy"),
            ("Good", "bot:good"),
            ("Perfect", "bot:perfect"),
        ],
    ),
];

/// Options whose value follows a word in the text command (`seat` → `as black`).
const WORDS: [(&str, &str); 2] = [("seat", "as"), ("players", "for")];

/// A slash command's shape: its name and its options in the order the core reads them.
#[derive(Clone, Debug)]
pub struct Def {
    /// The command's name.
    pub name: String,
    /// The options' names, in order.
    pub params: Vec<String>,
}

/// The shapes of `commands`.
pub fn defs(commands: &[Command]) -> Vec<Def> {
    commands
        .iter()
        .map(|c| Def {
            name: c.name.clone(),
            params: c.parameters.iter().map(|p| p.name.clone()).collect(),
        })
        .collect()
}

/// Every slash command, with its fixed choices filled in from [`CHOICES`].
pub fn all() -> Vec<Command> {
    let mut commands = vec![
        new(),
        join(),
        accept(),
        decline(),
        abort(),
        play(),
        declare(),
        board(),
        moves(),
        history(),
        export(),
        resign(),
        draw(),
        takeback(),
        hint(),
        rules(),
        notation(),
        help(),
        games(),
    ];
    for command in &mut commands {
        for param in &mut command.parameters {
            if let Some((_, choices)) = CHOICES.iter().find(|(name, _)| *name == param.name) {
                param.choices = choices
                    .iter()
                    .map(|(label, _)| poise::CommandParameterChoice {
                        name: (*label).to_string(),
                        localizations: Default::default(),
                        __non_exhaustive: (),
                    })
                    .collect();
            }
        }
    }
    commands
}

/// The core's text command for a slash command, and the users its options name.
pub fn text(defs: &[Def], data: &CommandData) -> Option<(String, Vec<User>)> {
    let def = defs.iter().find(|d| d.name == data.name)?;
    let mut words = vec![def.name.clone()];
    let mut mentions = Vec::new();
    for param in &def.params {
        let Some(option) = data.options.iter().find(|o| &o.name == param) else {
            continue;
        };
        let value = match &option.value {
            CommandDataOptionValue::String(s) => s.trim().to_string(),
            CommandDataOptionValue::Integer(i) => {
                match CHOICES.iter().find(|(name, _)| name == param) {
                    Some((_, choices)) => choices.get(*i as usize)?.1.to_string(),
                    None => i.to_string(),
                }
            }
            CommandDataOptionValue::User(id) => {
                let resolved = data.resolved.users.get(id);
                let member = data.resolved.members.get(id);
                let name = member
                    .and_then(|m| m.nick.clone())
                    .or_else(|| resolved.map(|u| u.display_name().to_string()))
                    .unwrap_or_else(|| id.to_string());
                mentions.push(User {
                    id: id.to_string(),
                    name,
                });
                id.to_string()
            }
            CommandDataOptionValue::Boolean(b) => b.to_string(),
            _ => continue,
        };
        if value.is_empty() {
            continue;
        }
        if let Some((_, word)) = WORDS.iter().find(|(name, _)| name == param) {
            words.push((*word).to_string());
        }
        words.push(value);
    }
    Some((words.join(" "), mentions))
}

/// The focused option's text in an autocomplete interaction.
pub fn focused(data: &CommandData) -> String {
    data.autocomplete()
        .map(|a| a.value.to_string())
        .unwrap_or_default()
}

/// Choices for the move being typed (at most 25, as Discord allows).
pub fn move_choices(
    shared: &Shared,
    channel: &str,
    user: &User,
    typed: &str,
) -> Vec<AutocompleteChoice> {
    shared
        .core
        .suggest(super::PLATFORM, channel, user, typed, 25)
        .into_iter()
        .map(|s| {
            let label: String = s.label.chars().take(100).collect();
            let value: String = s.value.chars().take(100).collect();
            AutocompleteChoice::new(label, value)
        })
        .collect()
}

async fn run(ctx: Context<'_>) -> Result<(), Error> {
    if let poise::Context::Application(app) = ctx {
        let shared = ctx.data().clone();
        super::respond::command(&shared, &ctx.serenity_context().http, app.interaction).await;
    }
    Ok(())
}

async fn complete_move(ctx: Context<'_>, partial: &str) -> Vec<AutocompleteChoice> {
    let poise::Context::Application(app) = ctx else {
        return Vec::new();
    };
    let started = std::time::Instant::now();
    let i = app.interaction;
    let user = super::user(&i.user, i.member.as_deref());
    let choices = move_choices(ctx.data(), &i.channel_id.to_string(), &user, partial);
    // poise sends the answer after this returns.
    super::respond::log_time("autocomplete", "move", started);
    choices
}

/// Start a game here: challenge players, leave seats open, or play the bot
// The options are Discord's, one argument each.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command)]
async fn new(
    ctx: Context<'_>,
    #[description = "Which game"] game: u8,
    #[description = "Challenge this player"] opponent: Option<serenity::User>,
    #[description = "A second player (Lanko)"] second: Option<serenity::User>,
    #[description = "A third player (Lanko)"] third: Option<serenity::User>,
    #[description = "Play against Muster at this level"] bot: Option<u8>,
    #[description = "Your side: white or black (Lanko: s, w, n or e)"] seat: Option<String>,
    #[description = "Lanko: how many players (2, 3 or 4)"]
    #[min = 2]
    #[max = 4]
    players: Option<u8>,
) -> Result<(), Error> {
    let _ = (game, opponent, second, third, bot, seat, players);
    run(ctx).await
}

/// Take an open seat in this channel's game
#[poise::command(slash_command)]
async fn join(
    ctx: Context<'_>,
    #[description = "Which seat (if several are open)"] seat: Option<String>,
) -> Result<(), Error> {
    let _ = seat;
    run(ctx).await
}

/// Accept the challenge in this channel
#[poise::command(slash_command)]
async fn accept(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx).await
}

/// Decline the challenge in this channel
#[poise::command(slash_command)]
async fn decline(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx).await
}

/// Call off this channel's game before the first move
#[poise::command(slash_command)]
async fn abort(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx).await
}

/// Play your move (the whole turn); suggestions show the legal moves as you type
#[poise::command(slash_command, rename = "move")]
async fn play(
    ctx: Context<'_>,
    #[description = "The move in notation, e.g. c1-c3 d1-e2"]
    #[autocomplete = "complete_move"]
    notation: String,
) -> Result<(), Error> {
    let _ = notation;
    run(ctx).await
}

/// Lanko: declare that your castles stay out of the middle squares
#[poise::command(slash_command)]
async fn declare(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx).await
}

/// Show the board again
#[poise::command(slash_command)]
async fn board(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx).await
}

/// List the legal moves
#[poise::command(slash_command)]
async fn moves(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx).await
}

/// Show the game's record so far
#[poise::command(slash_command)]
async fn history(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx).await
}

/// The record as a file (this game, or a finished game by its id)
#[poise::command(slash_command)]
async fn export(
    ctx: Context<'_>,
    #[description = "A finished game's id"] id: Option<String>,
) -> Result<(), Error> {
    let _ = id;
    run(ctx).await
}

/// Resign this game
#[poise::command(slash_command)]
async fn resign(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx).await
}

/// Offer a draw, or answer your opponent's offer
#[poise::command(slash_command)]
async fn draw(
    ctx: Context<'_>,
    #[description = "Offer, accept or decline"] answer: Option<u8>,
) -> Result<(), Error> {
    let _ = answer;
    run(ctx).await
}

/// Ask to take back your last move, or answer such a request
#[poise::command(slash_command)]
async fn takeback(
    ctx: Context<'_>,
    #[description = "Ask, accept or decline"] answer: Option<u8>,
) -> Result<(), Error> {
    let _ = answer;
    run(ctx).await
}

/// Croquet: what perfect play would do now
#[poise::command(slash_command)]
async fn hint(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx).await
}

/// The rules of a game
#[poise::command(slash_command)]
async fn rules(
    ctx: Context<'_>,
    #[description = "Which game (default: this channel's)"] game: Option<u8>,
) -> Result<(), Error> {
    let _ = game;
    run(ctx).await
}

/// How moves are written in a game
#[poise::command(slash_command)]
async fn notation(
    ctx: Context<'_>,
    #[description = "Which game (default: this channel's)"] game: Option<u8>,
) -> Result<(), Error> {
    let _ = game;
    run(ctx).await
}

/// The commands, or help on one
#[poise::command(slash_command)]
async fn help(
    ctx: Context<'_>,
    #[description = "A command, such as new or move"] command: Option<String>,
) -> Result<(), Error> {
    let _ = command;
    run(ctx).await
}

/// Finished games of a player (default: yours)
#[poise::command(slash_command)]
async fn games(
    ctx: Context<'_>,
    #[description = "Whose games"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let _ = player;
    run(ctx).await
}
