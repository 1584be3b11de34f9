//! An interaction's options read back into the core's text command, by the table of
//! [`super::commands`]: the command's name, then each option given in the order the core reads
//! them — a choice as its word, free text as typed, a number, a user's id, a flag's word when
//! yes — each after its word if it has one (`as black`), and a word implied where an option
//! stands for it (`vacation start 7`). Shared by both transports.

use serenity::all as serenity;
use serenity::{CommandData, CommandDataOption, CommandDataOptionValue};

use super::commands::{self, Command, Kind, Opt};
use muster_core::desk::User;

/// The core's text command for a slash command, and the users its options name. `None` when
/// the command is not one of Muster's or an option cannot be read (a choice Discord could not
/// have sent).
pub fn text(data: &CommandData) -> Option<(String, Vec<User>)> {
    let command = commands::find(&data.name)?;
    let mut mentions = Vec::new();
    let text = words(command, &data.options, data, &mut mentions)?;
    Some((text, mentions))
}

/// The text command for `command` given `options` (a subcommand's words follow its parent's).
fn words(
    command: &Command,
    options: &[CommandDataOption],
    data: &CommandData,
    mentions: &mut Vec<User>,
) -> Option<String> {
    if !command.subcommands.is_empty() {
        let option = options.first()?;
        let CommandDataOptionValue::SubCommand(inner) = &option.value else {
            return None;
        };
        let sub = command.subcommand(&option.name)?;
        let words = words(sub, inner, data, mentions)?;
        return Some(format!("{} {words}", command.name));
    }
    // The words each option given adds, in the core's order.
    let mut given: Vec<(&str, Vec<String>)> = Vec::new();
    for declared in command.options {
        let Some(option) = options.iter().find(|o| o.name == declared.name) else {
            continue;
        };
        let Some(value) = word(declared, &option.value, data, mentions)? else {
            continue;
        };
        let mut words: Vec<String> = declared.after.map(String::from).into_iter().collect();
        words.push(value);
        given.push((declared.name, words));
    }
    for declared in command.options {
        let Some(implied) = declared.implies else {
            continue;
        };
        let has = |name: &str| given.iter().any(|(p, _)| *p == name);
        if has(declared.name) && !has(implied.stands_for) {
            let at = given
                .iter()
                .position(|(p, _)| *p == declared.name)
                .unwrap_or(0);
            given.insert(at, (implied.stands_for, vec![implied.word.to_string()]));
        }
    }
    let text = std::iter::once(command.name.to_string())
        .chain(given.into_iter().flat_map(|(_, w)| w))
        .collect::<Vec<_>>()
        .join(" ");
    Some(text)
}

/// The word `value` is in the text command as the option `declared`: `Some(None)` when it adds
/// none (no is not a flag's word; nothing was typed), `None` when it cannot be read.
fn word(
    declared: &Opt,
    value: &CommandDataOptionValue,
    data: &CommandData,
    mentions: &mut Vec<User>,
) -> Option<Option<String>> {
    let word = match (value, declared.kind) {
        (CommandDataOptionValue::String(s), Kind::Text { one_word: true, .. }) => {
            s.split_whitespace().collect()
        }
        (CommandDataOptionValue::String(s), _) => s.trim().to_string(),
        (CommandDataOptionValue::Integer(i), Kind::Choice(list)) => {
            list.get(usize::try_from(*i).ok()?)?.1.to_string()
        }
        (CommandDataOptionValue::Integer(i), _) => i.to_string(),
        (CommandDataOptionValue::User(id), _) => {
            let resolved = data.resolved.users.get(id);
            let member = data.resolved.members.get(id);
            let name = member
                .and_then(|m| m.nick.clone())
                .or_else(|| resolved.map(|u| u.display_name().to_string()))
                .unwrap_or_else(|| id.to_string());
            mentions.push(User::new(id.to_string(), &name));
            id.to_string()
        }
        (CommandDataOptionValue::Boolean(true), Kind::Flag(word)) => word.to_string(),
        (CommandDataOptionValue::Boolean(false), Kind::Flag(_)) => return Some(None),
        (CommandDataOptionValue::Boolean(b), _) => b.to_string(),
        _ => return Some(None),
    };
    Some((!word.is_empty()).then_some(word))
}
