//! The slash commands as Discord registers them, made from the table of [`super::commands`],
//! and their registration, by either transport when it starts.

use serenity::all as serenity;
use serenity::{CommandOptionType, CreateCommand, CreateCommandOption};

use super::Shared;
use super::commands::{COMMANDS, Command, Kind, Opt};
use muster_config::Register;

/// The range a choice option was always registered with (its values are indexes, and Discord
/// offers only the choices).
const CHOICE_RANGE: (f64, f64) = (0.0, 255.0);

/// Every slash command, as Discord registers it.
pub fn commands() -> Vec<CreateCommand> {
    COMMANDS.iter().map(command).collect()
}

fn command(command: &Command) -> CreateCommand {
    let registered = CreateCommand::new(command.name).description(command.description);
    if command.subcommands.is_empty() {
        in_order(command.options)
            .map(option)
            .fold(registered, CreateCommand::add_option)
    } else {
        command
            .subcommands
            .iter()
            .map(subcommand)
            .fold(registered, CreateCommand::add_option)
    }
}

fn subcommand(command: &Command) -> CreateCommandOption {
    let registered = CreateCommandOption::new(
        CommandOptionType::SubCommand,
        command.name,
        command.description,
    );
    in_order(command.options)
        .map(option)
        .fold(registered, CreateCommandOption::add_sub_option)
}

/// `options` as Discord wants them: the required ones first, each group in the table's order.
fn in_order(options: &[Opt]) -> impl Iterator<Item = &Opt> {
    let required = options.iter().filter(|o| o.required);
    required.chain(options.iter().filter(|o| !o.required))
}

fn option(option: &Opt) -> CreateCommandOption {
    let kind = match option.kind {
        Kind::Choice(_) | Kind::Integer { .. } => CommandOptionType::Integer,
        Kind::Text { .. } => CommandOptionType::String,
        Kind::User => CommandOptionType::User,
        Kind::Flag(_) => CommandOptionType::Boolean,
    };
    let completes = matches!(
        option.kind,
        Kind::Text {
            complete: Some(_),
            ..
        }
    );
    let registered = CreateCommandOption::new(kind, option.name, option.description)
        .required(option.required)
        .set_autocomplete(completes);
    match option.kind {
        Kind::Choice(list) => {
            let (min, max) = CHOICE_RANGE;
            let registered = registered.min_number_value(min).max_number_value(max);
            // Each choice's value is its index; no translations (an empty list of them).
            (0..).zip(list).fold(registered, |o, (i, (label, _))| {
                o.add_int_choice_localized(*label, i, std::iter::empty::<(&str, &str)>())
            })
        }
        Kind::Text { max, .. } => registered.max_length(max),
        Kind::Integer { min, max } => registered
            .min_number_value(f64::from(min))
            .max_number_value(f64::from(max)),
        Kind::User | Kind::Flag(_) => registered,
    }
}

/// Registers the commands where the settings say: in one server (development, at once) or
/// globally (production).
pub async fn register(http: &serenity::Http, shared: &Shared) -> Result<(), String> {
    let commands = commands();
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
            tracing::info!(
                "{n} slash commands registered ({:?})",
                shared.settings.register
            );
            Ok(())
        }
        Err(e) => Err(format!("the slash commands could not be registered: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use muster_rules::{AnyGame, GameId};

    use super::*;

    /// Every free-text option's longest value in the table: command, option (a subcommand's
    /// count under the command's name), limit.
    fn limits() -> Vec<(&'static str, &'static str, usize)> {
        let mut limits: Vec<(&str, &str, usize)> = Vec::new();
        for command in COMMANDS {
            let options = command
                .options
                .iter()
                .chain(command.subcommands.iter().flat_map(|s| s.options));
            for option in options {
                if let Kind::Text { max, .. } = option.kind
                    && !limits
                        .iter()
                        .any(|(c, o, _)| *c == command.name && *o == option.name)
                {
                    limits.push((command.name, option.name, usize::from(max)));
                }
            }
        }
        limits
    }

    #[test]
    fn free_text_options_are_limited_as_registered() {
        let limits = limits();
        let json = serde_json::to_value(commands()).expect("JSON");
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
                let max = limits
                    .iter()
                    .find(|(mc, mo, _)| Some(*mc) == c && Some(*mo) == o)
                    .unwrap_or_else(|| panic!("/{c:?} {o:?} has no limit in the table"))
                    .2;
                assert_eq!(option["max_length"], max, "/{c:?} {o:?}");
                if !limited.contains(&(c, o)) {
                    limited.push((c, o));
                }
            }
        }
        assert_eq!(limited.len(), limits.len());
        let play = json
            .as_array()
            .and_then(|a| a.iter().find(|c| c["name"] == "move"))
            .expect("/move");
        assert_eq!(play["options"][0]["max_length"], muster_rules::MAX_NOTATION);
        assert_eq!(play["options"][0]["autocomplete"], true);
        // What may be typed fits: every seat name, every command word, a game id.
        let limit = |c: &str, o: &str| {
            limits
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
        let longest_word = muster_core::desk::command::WORDS
            .iter()
            .map(|w| w.len())
            .max();
        assert!(longest_word.unwrap_or(0) <= limit("help", "command"));
        assert!(format!("g{}", u64::MAX).len() <= limit("export", "id"));
        assert!(format!("g{}", u64::MAX).len() <= limit("replay", "id"));
    }
}
