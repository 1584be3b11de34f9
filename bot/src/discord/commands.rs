//! The slash commands: one per command word of the core's language, declared with poise (which
//! gives their registration, options and autocompletion flags), and the translation of an
//! interaction's options back into the core's text command, shared by both transports. Both
//! transports hand interactions to [`super::dispatch`] themselves; a command's poise body
//! answers the same way, for a poise framework that would run them.

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
pub const CHOICES: [(&str, &[(&str, &str)]); 11] = [
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
            ("Strong (perfect play in Croquet)", "bot:strong"),
        ],
    ),
    (
        "timeout",
        &[
            ("Auto: the game ends when a clock runs out", "auto"),
            ("Claim: the opponent may claim the win", "claim"),
        ],
    ),
    (
        "mode",
        &[
            ("Mention me in the game's channel", "mention"),
            ("Direct message", "dm"),
            ("Off: no reminders", "off"),
        ],
    ),
    ("action", &[("Start", "start"), ("End", "end")]),
    (
        "orientation",
        &[
            ("Flip: turn my boards over", "flip"),
            ("White's side at the bottom", "white"),
            ("Black's side at the bottom", "black"),
        ],
    ),
    (
        "theme",
        &[
            ("Classic: paper and wood", "classic"),
            ("Dark: for dark screens", "dark"),
            (
                "Contrast: strong colours, safe for colour blindness",
                "contrast",
            ),
        ],
    ),
    (
        "size",
        &[("Small", "small"), ("Normal", "normal"), ("Large", "large")],
    ),
    (
        "system",
        &[
            ("Swiss", "swiss"),
            ("Round robin", "roundrobin"),
            ("Double round robin", "double"),
            ("Knockout", "knockout"),
        ],
    ),
    (
        "result",
        &[
            ("1-0: White (the first seat) wins", "1-0"),
            ("0-1: Black wins", "0-1"),
            ("½-½: drawn", "1/2-1/2"),
            ("White forfeits", "forfeit white"),
            ("Black forfeits", "forfeit black"),
        ],
    ),
];

/// The longest value Discord lets a user type in each free-text option. poise takes only a
/// literal in `#[max_length]`, so the commands below repeat these numbers and a test keeps them
/// equal. The move fits the longest notation of any game; Discord refuses longer input before
/// it reaches Muster.
pub const MAX_LENGTHS: [(&str, &str, usize); 11] = [
    ("move", "notation", muster_rules::MAX_NOTATION),
    ("new", "seat", 16),
    ("new", "clock", 20),
    ("notify", "remind", 40),
    ("notify", "quiet", 64),
    ("join", "seat", 16),
    ("export", "id", 32),
    ("replay", "id", 32),
    ("help", "command", 32),
    ("tournament", "name", 24),
    ("tournament", "clock", 20),
];

/// Options whose value follows a word in the text command (`seat` → `as black`).
const WORDS: [(&str, &str); 7] = [
    ("seat", "as"),
    ("players", "for"),
    ("clock", "clock"),
    ("timeout", "timeout"),
    ("remind", "remind"),
    ("quiet", "quiet"),
    ("rounds", "rounds"),
];

/// Options that are a yes or no: the word the text command has when it is yes.
const FLAGS: [(&str, &str); 2] = [("pairs", "pairs"), ("casual", "casual")];

/// Options whose value is one word of the text command however it is typed: spaces in it
/// are dropped (`10d + 1d` is `10d+1d`), so that nothing typed there reads as another word.
const ONE_WORD: [&str; 1] = ["clock"];

/// A word the command implies when an option comes without the one before it
/// (`/vacation days:7` is `vacation start 7`): command, option, implied word, the option it
/// stands for.
const IMPLIED: [(&str, &str, &str, &str); 1] = [("vacation", "days", "start", "action")];

/// A slash command's shape: its name, its options in the order the core reads them, and its
/// subcommands (`/tournament join`).
#[derive(Clone, Debug)]
pub struct Def {
    /// The command's name.
    pub name: String,
    /// The options' names, in order.
    pub params: Vec<String>,
    /// Its subcommands' shapes.
    pub subcommands: Vec<Def>,
}

/// The shapes of `commands`.
pub fn defs(commands: &[Command]) -> Vec<Def> {
    commands
        .iter()
        .map(|c| Def {
            name: c.name.clone(),
            params: c.parameters.iter().map(|p| p.name.clone()).collect(),
            subcommands: defs(&c.subcommands),
        })
        .collect()
}

fn fill_choices(command: &mut Command) {
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
    for sub in &mut command.subcommands {
        fill_choices(sub);
    }
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
        replay(),
        resign(),
        draw(),
        takeback(),
        hint(),
        rules(),
        notation(),
        help(),
        games(),
        claim(),
        notify(),
        vacation(),
        super::tournament::tournament(),
        rating(),
        leaderboard(),
        ratings(),
    ];
    for command in &mut commands {
        fill_choices(command);
    }
    commands
}

/// The core's text command for a slash command, and the users its options name. `None` when
/// an option cannot be read (a choice Discord could not have sent).
pub fn text(defs: &[Def], data: &CommandData) -> Option<(String, Vec<User>)> {
    let def = defs.iter().find(|d| d.name == data.name)?;
    let mut mentions = Vec::new();
    let text = words(def, &data.options, data, &mut mentions)?;
    Some((text, mentions))
}

/// The text command for `def` given `options` (a subcommand's words follow its parent's).
fn words(
    def: &Def,
    options: &[serenity::CommandDataOption],
    data: &CommandData,
    mentions: &mut Vec<User>,
) -> Option<String> {
    if !def.subcommands.is_empty() {
        let option = options.first()?;
        let CommandDataOptionValue::SubCommand(inner) = &option.value else {
            return None;
        };
        let sub = def.subcommands.iter().find(|d| d.name == option.name)?;
        return Some(format!(
            "{} {}",
            def.name,
            words(sub, inner, data, mentions)?
        ));
    }
    // The words each option given adds, in the core's order.
    let mut given: Vec<(&str, Vec<String>)> = Vec::new();
    for param in &def.params {
        let Some(option) = options.iter().find(|o| &o.name == param) else {
            continue;
        };
        let value = match &option.value {
            CommandDataOptionValue::String(s) if ONE_WORD.contains(&param.as_str()) => {
                s.split_whitespace().collect()
            }
            CommandDataOptionValue::String(s) => s.trim().to_string(),
            CommandDataOptionValue::Integer(i) => {
                match CHOICES.iter().find(|(name, _)| name == param) {
                    Some((_, choices)) => choices.get(usize::try_from(*i).ok()?)?.1.to_string(),
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
            CommandDataOptionValue::Boolean(b) => {
                match FLAGS.iter().find(|(name, _)| name == param) {
                    Some((_, word)) if *b => (*word).to_string(),
                    Some(_) => continue,
                    None => b.to_string(),
                }
            }
            _ => continue,
        };
        if value.is_empty() {
            continue;
        }
        let mut words = Vec::new();
        if let Some((_, word)) = WORDS.iter().find(|(name, _)| name == param) {
            words.push((*word).to_string());
        }
        words.push(value);
        given.push((param.as_str(), words));
    }
    // An event's name comes first in the core's words, though Discord lists required options
    // before it.
    given.sort_by_key(|(p, _)| *p != "name");
    for (command, option, word, stands_for) in IMPLIED {
        let has = |name: &str| given.iter().any(|(p, _)| *p == name);
        if def.name == command && has(option) && !has(stands_for) {
            let at = given.iter().position(|(p, _)| *p == option).unwrap_or(0);
            given.insert(at, (stands_for, vec![word.to_string()]));
        }
    }
    let text = std::iter::once(def.name.clone())
        .chain(given.into_iter().flat_map(|(_, w)| w))
        .collect::<Vec<_>>()
        .join(" ");
    Some(text)
}

/// The focused option's text in an autocomplete interaction.
pub fn focused(data: &CommandData) -> String {
    data.autocomplete()
        .map(|a| a.value.to_string())
        .unwrap_or_default()
}

/// Discord's most choices in an autocomplete answer.
pub const MAX_CHOICES: usize = 25;
/// Discord's longest name or value of a choice; neither may be empty.
pub const MAX_CHOICE: usize = 100;

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
        .suggest(super::PLATFORM, channel, user, typed, MAX_CHOICES)
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

pub(super) async fn run(ctx: Context<'_>) -> Result<(), Error> {
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
    #[description = "Your side: white or black (Lanko: s, w, n or e)"]
    #[max_length = 16]
    seat: Option<String>,
    #[description = "Lanko: how many players (2, 3 or 4)"]
    #[min = 2]
    #[max = 4]
    players: Option<u8>,
    #[description = "time control: 3d per move, 10d+1d bank and increment, none"]
    #[max_length = 20]
    clock: Option<String>,
    #[description = "When a clock runs out: the game ends, or the opponent may claim the win"]
    timeout: Option<u8>,
    #[description = "A casual game: not rated"] casual: Option<bool>,
) -> Result<(), Error> {
    let _ = (
        game, opponent, second, third, bot, seat, players, clock, timeout, casual,
    );
    run(ctx).await
}

/// Take an open seat in this channel's game
#[poise::command(slash_command)]
async fn join(
    ctx: Context<'_>,
    #[description = "Which seat (if several are open)"]
    #[max_length = 16]
    seat: Option<String>,
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
    #[max_length = 100]
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

/// Your view of the board (only you see it); the options change how your boards look
#[poise::command(slash_command)]
async fn board(
    ctx: Context<'_>,
    #[description = "Which side is at the bottom of your boards"] orientation: Option<u8>,
    #[description = "The colours of your boards"] theme: Option<u8>,
    #[description = "How large your boards are drawn"] size: Option<u8>,
) -> Result<(), Error> {
    let _ = (orientation, theme, size);
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
    #[description = "A finished game's id"]
    #[max_length = 32]
    id: Option<String>,
) -> Result<(), Error> {
    let _ = id;
    run(ctx).await
}

/// The game as an animation (this game so far, or a finished game by its id)
#[poise::command(slash_command)]
async fn replay(
    ctx: Context<'_>,
    #[description = "A finished game's id"]
    #[max_length = 32]
    id: Option<String>,
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
    #[description = "A command, such as new or move"]
    #[max_length = 32]
    command: Option<String>,
) -> Result<(), Error> {
    let _ = command;
    run(ctx).await
}

/// Claim the win: your opponent's clock ran out (in a game whose timeouts are claimed)
#[poise::command(slash_command)]
async fn claim(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx).await
}

/// How and when you are reminded of your move; with no option, your settings
#[poise::command(slash_command)]
async fn notify(
    ctx: Context<'_>,
    #[description = "Where reminders go"] mode: Option<u8>,
    #[description = "Remind me at these times left, such as 24h 1h (or off, default)"]
    #[max_length = 40]
    remind: Option<String>,
    #[description = "No reminders in these hours, such as 22:00-07:00 Europe/Berlin (or off)"]
    #[max_length = 64]
    quiet: Option<String>,
) -> Result<(), Error> {
    let _ = (mode, remind, quiet);
    run(ctx).await
}

/// Your vacation: clocks stand still meanwhile; with no option, what is left this year
#[poise::command(slash_command)]
async fn vacation(
    ctx: Context<'_>,
    #[description = "Start or end a vacation"] action: Option<u8>,
    #[description = "How many days (default: all you have left this year)"]
    #[min = 1]
    #[max = 366]
    days: Option<u16>,
) -> Result<(), Error> {
    let _ = (action, days);
    run(ctx).await
}

/// A player's ratings here: every game, or one
#[poise::command(slash_command)]
async fn rating(
    ctx: Context<'_>,
    #[description = "Whose (default: yours)"] player: Option<serenity::User>,
    #[description = "Which game"] game: Option<u8>,
) -> Result<(), Error> {
    let _ = (player, game);
    run(ctx).await
}

/// The strongest established players of a game here
#[poise::command(slash_command)]
async fn leaderboard(
    ctx: Context<'_>,
    #[description = "Which game"] game: u8,
) -> Result<(), Error> {
    let _ = game;
    run(ctx).await
}

/// Every rated game here and every rating, as a JSON file
#[poise::command(slash_command)]
async fn ratings(
    ctx: Context<'_>,
    #[description = "Only this game"] game: Option<u8>,
) -> Result<(), Error> {
    let _ = game;
    run(ctx).await
}

/// Your games: live ones (your move first) in every channel, then finished ones
#[poise::command(slash_command)]
async fn games(
    ctx: Context<'_>,
    #[description = "Whose games"] player: Option<serenity::User>,
) -> Result<(), Error> {
    let _ = player;
    run(ctx).await
}

#[cfg(test)]
mod tests {
    use muster_rules::{AnyGame, GameId};

    use super::*;

    #[test]
    fn free_text_options_are_limited_as_registered() {
        let registered = poise::builtins::create_application_commands(&all());
        let json = serde_json::to_value(&registered).expect("JSON");
        let mut limited = Vec::new();
        for command in json.as_array().expect("commands") {
            // A subcommand's (type 1) options count under the command's name.
            let options: Vec<&serde_json::Value> = command["options"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|o| {
                    if o["type"] == 1 {
                        o["options"].as_array().into_iter().flatten().collect()
                    } else {
                        vec![o]
                    }
                })
                .collect();
            for option in options {
                // Type 3: a string, typed freely.
                if option["type"] != 3 {
                    continue;
                }
                let (c, o) = (command["name"].as_str(), option["name"].as_str());
                let max = MAX_LENGTHS
                    .iter()
                    .find(|(mc, mo, _)| Some(*mc) == c && Some(*mo) == o)
                    .unwrap_or_else(|| panic!("/{c:?} {o:?} has no limit in MAX_LENGTHS"))
                    .2;
                assert_eq!(option["max_length"], max, "/{c:?} {o:?}");
                if !limited.contains(&(c, o)) {
                    limited.push((c, o));
                }
            }
        }
        assert_eq!(limited.len(), MAX_LENGTHS.len());
        let play = json
            .as_array()
            .and_then(|a| a.iter().find(|c| c["name"] == "move"))
            .expect("/move");
        assert_eq!(play["options"][0]["max_length"], muster_rules::MAX_NOTATION);
        assert_eq!(play["options"][0]["autocomplete"], true);
        // What may be typed fits: every seat name, every command word, a game id.
        let limit = |c: &str, o: &str| {
            MAX_LENGTHS
                .iter()
                .find(|(mc, mo, _)| *mc == c && *mo == o)
                .map_or(0, |l| l.2)
        };
        for id in GameId::ALL {
            let table = AnyGame::new(id).table();
            for seat in table.all() {
                assert!(table.seat_name(seat).len() <= limit("join", "seat"));
                assert!(table.seat_name(seat).len() <= limit("new", "seat"));
            }
        }
        let longest_word = crate::core::command::WORDS.iter().map(|w| w.len()).max();
        assert!(longest_word.unwrap_or(0) <= limit("help", "command"));
        assert!(format!("g{}", u64::MAX).len() <= limit("export", "id"));
        assert!(format!("g{}", u64::MAX).len() <= limit("replay", "id"));
    }
}
