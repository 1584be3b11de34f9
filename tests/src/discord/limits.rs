//! What Discord refuses in a message or an interaction response, answered as Discord answers
//! it: an empty message is 50006 "Cannot send an empty message"; a field out of bounds is
//! 50035 "Invalid Form Body" with the field's path in `errors`. The routes check every message
//! body they take (callbacks, followups, channel messages, edits) here, so that a suite fails
//! where Discord would.

use serde_json::{Map, Value, json};

use super::objects::error;
use super::routes::Answer;

/// The longest message, in characters.
pub(crate) const MAX_CONTENT: usize = 2000;
/// The most action rows on a message.
pub(crate) const MAX_ROWS: usize = 5;
/// The most buttons in one action row (and a row holds at least one).
pub(crate) const MAX_IN_ROW: usize = 5;
/// The longest custom id of a component (and the shortest is one character).
pub(crate) const MAX_CUSTOM_ID: usize = 100;
/// The longest label of a button.
pub(crate) const MAX_LABEL: usize = 80;
/// The longest address of a link button.
pub(crate) const MAX_URL: usize = 512;
/// The most choices in an autocomplete answer.
pub(crate) const MAX_CHOICES: usize = 25;
/// The longest name or value of a choice (and the shortest is one character).
pub(crate) const MAX_CHOICE: usize = 100;
/// The most files on a message.
pub(crate) const MAX_FILES: usize = 10;
/// The longest nonce a message may carry as a string.
pub(crate) const MAX_NONCE: usize = 25;

/// One field Discord finds wrong: where it is in the body, and Discord's code and words.
pub(crate) struct Problem {
    path: Vec<String>,
    code: &'static str,
    message: String,
}

impl Problem {
    fn new(at: &[String], key: impl ToString, code: &'static str, message: String) -> Problem {
        let mut path = at.to_vec();
        path.push(key.to_string());
        Problem {
            path,
            code,
            message,
        }
    }

    fn too_long(at: &[String], key: impl ToString, max: usize) -> Problem {
        let message = format!("Must be {max} or fewer in length.");
        Problem::new(at, key, "BASE_TYPE_MAX_LENGTH", message)
    }

    fn bad_length(at: &[String], key: impl ToString, max: usize) -> Problem {
        let message = format!("Must be between 1 and {max} in length.");
        Problem::new(at, key, "BASE_TYPE_BAD_LENGTH", message)
    }
}

/// A problem with the field at `path` (keys, or indexes as strings), with Discord's code and
/// words.
pub(crate) fn problem(path: &[&str], code: &'static str, message: impl Into<String>) -> Problem {
    let (key, at) = path.split_last().expect("a path");
    let at: Vec<String> = at.iter().map(|s| (*s).to_owned()).collect();
    Problem::new(&at, key, code, message.into())
}

/// 400 with code 50035, the problems nested by their paths as Discord nests them:
/// `{"data": {"content": {"_errors": [{"code": …, "message": …}]}}}`.
pub(crate) fn invalid(problems: Vec<Problem>) -> Answer {
    let mut errors = Value::Object(Map::new());
    for p in problems {
        let mut at = &mut errors;
        for key in &p.path {
            at = at
                .as_object_mut()
                .expect("error paths hold objects")
                .entry(key.clone())
                .or_insert_with(|| Value::Object(Map::new()));
        }
        let list = at
            .as_object_mut()
            .expect("an object")
            .entry("_errors")
            .or_insert_with(|| json!([]));
        if let Some(list) = list.as_array_mut() {
            list.push(json!({ "code": p.code, "message": p.message }));
        }
    }
    (
        400,
        Some(json!({ "code": 50035, "errors": errors, "message": "Invalid Form Body" })),
    )
}

/// 400 with code 50006.
pub(crate) fn empty_message() -> Answer {
    (400, Some(error(50006, "Cannot send an empty message")))
}

/// The path of a body inside the request: `["data"]` for a callback's message.
pub(crate) fn at(keys: &[&str]) -> Vec<String> {
    keys.iter().map(|k| (*k).to_owned()).collect()
}

/// The problems with the fields of a message body (new or edited) found at `at`: its text, its
/// components and how many files it carries.
pub(crate) fn message_fields(body: &Value, files: usize, at: &[String]) -> Vec<Problem> {
    let mut problems = Vec::new();
    if let Some(content) = body["content"].as_str()
        && content.chars().count() > MAX_CONTENT
    {
        problems.push(Problem::too_long(at, "content", MAX_CONTENT));
    }
    if files > MAX_FILES {
        problems.push(Problem::too_long(at, "attachments", MAX_FILES));
    }
    if let Some(nonce) = body["nonce"].as_str()
        && nonce.chars().count() > MAX_NONCE
    {
        problems.push(Problem::too_long(at, "nonce", MAX_NONCE));
    }
    let Some(rows) = body["components"].as_array() else {
        return problems;
    };
    let mut at = at.to_vec();
    at.push("components".into());
    if rows.len() > MAX_ROWS {
        let (last, path) = at.split_last().expect("just pushed");
        problems.push(Problem::too_long(path, last, MAX_ROWS));
    }
    let mut seen: Vec<&str> = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let mut row_at = at.clone();
        row_at.push(r.to_string());
        let buttons = row["components"].as_array().map_or(&[][..], Vec::as_slice);
        if buttons.is_empty() || buttons.len() > MAX_IN_ROW {
            problems.push(Problem::bad_length(&row_at, "components", MAX_IN_ROW));
        }
        row_at.push("components".into());
        for (b, button) in buttons.iter().enumerate() {
            let mut button_at = row_at.clone();
            button_at.push(b.to_string());
            if let Some(label) = button["label"].as_str()
                && label.chars().count() > MAX_LABEL
            {
                problems.push(Problem::too_long(&button_at, "label", MAX_LABEL));
            }
            // A link button (style 5) has a url (of at most 512 characters) instead of a
            // custom id.
            if button["style"] == 5 {
                let url = button["url"].as_str().unwrap_or_default();
                if url.is_empty() {
                    let why = "This field is required".to_owned();
                    problems.push(Problem::new(&button_at, "url", "BASE_TYPE_REQUIRED", why));
                } else if url.chars().count() > MAX_URL {
                    problems.push(Problem::too_long(&button_at, "url", MAX_URL));
                }
                continue;
            }
            let id = button["custom_id"].as_str().unwrap_or_default();
            let length = id.chars().count();
            if length == 0 || length > MAX_CUSTOM_ID {
                problems.push(Problem::bad_length(&button_at, "custom_id", MAX_CUSTOM_ID));
            } else if seen.contains(&id) {
                let why = "Component custom id cannot be duplicated".to_owned();
                let code = "COMPONENT_CUSTOM_ID_DUPLICATED";
                problems.push(Problem::new(&button_at, "custom_id", code, why));
            }
            seen.push(id);
        }
    }
    problems
}

/// Whether a message with this text, these embeds, this many files and these components shows
/// nothing at all (text of spaces only counts as none).
pub(crate) fn empty(content: &str, embeds: &Value, files: usize, components: &Value) -> bool {
    let none = |v: &Value| v.as_array().is_none_or(Vec::is_empty);
    content.trim().is_empty() && none(embeds) && files == 0 && none(components)
}

/// The problems with an autocomplete answer's `data`: how many choices, and each one's name
/// and value.
pub(crate) fn choices(data: &Value) -> Vec<Problem> {
    let mut problems = Vec::new();
    let at = at(&["data"]);
    let Some(choices) = data["choices"].as_array() else {
        problems.push(Problem::new(
            &at,
            "choices",
            "BASE_TYPE_REQUIRED",
            "This field is required".to_owned(),
        ));
        return problems;
    };
    if choices.len() > MAX_CHOICES {
        problems.push(Problem::too_long(&at, "choices", MAX_CHOICES));
    }
    for (i, choice) in choices.iter().enumerate() {
        let choice_at = [at.clone(), vec!["choices".into(), i.to_string()]].concat();
        for key in ["name", "value"] {
            // A number value (for a number option) has no length.
            if key == "value" && choice[key].is_number() {
                continue;
            }
            let length = choice[key].as_str().map(|s| s.chars().count());
            if length.is_none_or(|n| n == 0 || n > MAX_CHOICE) {
                problems.push(Problem::bad_length(&choice_at, key, MAX_CHOICE));
            }
        }
    }
    problems
}

/// The longest name of a command or an option.
pub(crate) const MAX_NAME: usize = 32;
/// The longest description of a command or an option (and the shortest is one character).
pub(crate) const MAX_DESCRIPTION: usize = 100;
/// The most options of a command, and the most choices of an option.
pub(crate) const MAX_OPTIONS: usize = 25;
/// The most characters of a command's name, description, and its options' names,
/// descriptions and choices, together.
pub(crate) const MAX_COMMAND_SIZE: usize = 4000;
/// The longest `max_length` of a string option.
pub(crate) const MAX_STRING_OPTION: u64 = 6000;

/// Whether `name` is a valid name of a slash command or an option: 1 to 32 letters, digits,
/// `-`, `_` or `'`, none of them upper case.
fn valid_name(name: &str) -> bool {
    let n = name.chars().count();
    (1..=MAX_NAME).contains(&n)
        && name
            .chars()
            .all(|c| (c.is_alphanumeric() || matches!(c, '-' | '_' | '\'')) && !c.is_uppercase())
}

/// The problems with slash commands as `PUT .../commands` sends them (an array): names,
/// descriptions, how many options and choices, their lengths and order, as Discord checks them.
pub(crate) fn commands(body: &[Value]) -> Vec<Problem> {
    let mut problems = Vec::new();
    let chars = |v: &Value| v.as_str().map_or(0, |s| s.chars().count());
    let mut names: Vec<&str> = Vec::new();
    for (i, command) in body.iter().enumerate() {
        let at = vec![i.to_string()];
        let name = command["name"].as_str().unwrap_or_default();
        if !valid_name(name) {
            let why = "Command name is invalid";
            problems.push(Problem::new(
                &at,
                "name",
                "APPLICATION_COMMAND_INVALID_NAME",
                why.into(),
            ));
        } else if names.contains(&name) {
            let why = "Application command names must be unique";
            problems.push(Problem::new(
                &at,
                "name",
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                why.into(),
            ));
        }
        names.push(name);
        let chat_input = command["type"].as_u64().is_none_or(|t| t == 1);
        let description = chars(&command["description"]);
        if chat_input && !(1..=MAX_DESCRIPTION).contains(&description) {
            problems.push(Problem::bad_length(&at, "description", MAX_DESCRIPTION));
        }
        let mut size = chars(&command["name"]) + description;
        let options = command["options"].as_array().map_or(&[][..], Vec::as_slice);
        if options.len() > MAX_OPTIONS {
            problems.push(Problem::too_long(&at, "options", MAX_OPTIONS));
        }
        let options_at = [at.clone(), vec!["options".into()]].concat();
        let mut optional_seen = false;
        let mut option_names: Vec<&str> = Vec::new();
        for (j, option) in options.iter().enumerate() {
            let option_at = [options_at.clone(), vec![j.to_string()]].concat();
            let name = option["name"].as_str().unwrap_or_default();
            if !valid_name(name) {
                let why = "Command name is invalid";
                problems.push(Problem::new(
                    &option_at,
                    "name",
                    "APPLICATION_COMMAND_INVALID_NAME",
                    why.into(),
                ));
            } else if option_names.contains(&name) {
                let why = "Option names must be unique";
                problems.push(Problem::new(
                    &option_at,
                    "name",
                    "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                    why.into(),
                ));
            }
            option_names.push(name);
            let description = chars(&option["description"]);
            if !(1..=MAX_DESCRIPTION).contains(&description) {
                problems.push(Problem::bad_length(
                    &option_at,
                    "description",
                    MAX_DESCRIPTION,
                ));
            }
            size += chars(&option["name"]) + description;
            let required = option["required"].as_bool().unwrap_or(false);
            if required && optional_seen {
                let (last, path) = options_at.split_last().expect("options");
                let why = "Required options must be placed before non-required options";
                problems.push(Problem::new(
                    path,
                    last,
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    why.into(),
                ));
            }
            optional_seen |= !required;
            for key in ["min_length", "max_length"] {
                if let Some(n) = option.get(key).filter(|v| !v.is_null()) {
                    let least = u64::from(key == "max_length");
                    if n.as_u64()
                        .is_none_or(|n| n < least || n > MAX_STRING_OPTION)
                    {
                        let why =
                            format!("int value should be between {least} and {MAX_STRING_OPTION}.");
                        problems.push(Problem::new(&option_at, key, "NUMBER_TYPE_MAX", why));
                    }
                }
            }
            let choices = option["choices"].as_array().map_or(&[][..], Vec::as_slice);
            if choices.len() > MAX_OPTIONS {
                problems.push(Problem::too_long(&option_at, "choices", MAX_OPTIONS));
            }
            for (k, choice) in choices.iter().enumerate() {
                let choice_at = [option_at.clone(), vec!["choices".into(), k.to_string()]].concat();
                let name = chars(&choice["name"]);
                if !(1..=MAX_CHOICE).contains(&name) {
                    problems.push(Problem::bad_length(&choice_at, "name", MAX_CHOICE));
                }
                if choice["value"].is_string()
                    && !(1..=MAX_CHOICE).contains(&chars(&choice["value"]))
                {
                    problems.push(Problem::bad_length(&choice_at, "value", MAX_CHOICE));
                }
                size += name + choice["value"].as_str().map_or(0, |v| v.chars().count());
            }
        }
        if size > MAX_COMMAND_SIZE {
            let why = format!("Command exceeds maximum size ({MAX_COMMAND_SIZE})");
            let (last, path) = at.split_last().expect("an index");
            problems.push(Problem::new(
                path,
                last,
                "APPLICATION_COMMAND_TOO_LARGE",
                why,
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_nest_by_their_paths_as_discord_nests_them() {
        let body = json!({
            "content": "x".repeat(MAX_CONTENT + 1),
            "components": [{ "type": 1, "components": [
                { "type": 2, "style": 2, "custom_id": "a", "label": "A" },
                { "type": 2, "style": 2, "custom_id": "a", "label": "B" },
            ] }],
        });
        let (status, answer) = invalid(message_fields(&body, 0, &at(&["data"])));
        let answer = answer.expect("a body");
        assert_eq!((status, answer["code"].as_u64()), (400, Some(50035)));
        let data = &answer["errors"]["data"];
        assert_eq!(
            data["content"]["_errors"][0]["code"],
            "BASE_TYPE_MAX_LENGTH"
        );
        let duplicate = &data["components"]["0"]["components"]["1"]["custom_id"]["_errors"][0];
        assert_eq!(duplicate["code"], "COMPONENT_CUSTOM_ID_DUPLICATED");
        assert!(empty(" \n", &json!([]), 0, &Value::Null));
        // Slash commands: a bad name, a long description, an optional option before a
        // required one, 26 choices.
        let choices: Vec<Value> = (0..26)
            .map(|i| json!({"name": format!("c{i}"), "value": i}))
            .collect();
        let sent = json!([
            {"name": "Move", "description": "d", "type": 1},
            {"name": "new", "description": "x".repeat(101), "type": 1, "options": [
                {"name": "a", "description": "a", "type": 3},
                {"name": "b", "description": "b", "type": 4, "required": true, "choices": choices},
            ]},
        ]);
        let (_, answer) = invalid(commands(sent.as_array().expect("commands")));
        let errors = &answer.expect("a body")["errors"];
        assert_eq!(
            errors["0"]["name"]["_errors"][0]["code"],
            "APPLICATION_COMMAND_INVALID_NAME"
        );
        assert_eq!(
            errors["1"]["description"]["_errors"][0]["code"],
            "BASE_TYPE_BAD_LENGTH"
        );
        assert_eq!(
            errors["1"]["options"]["_errors"][0]["code"],
            "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID"
        );
        assert_eq!(
            errors["1"]["options"]["1"]["choices"]["_errors"][0]["code"],
            "BASE_TYPE_MAX_LENGTH"
        );
        assert!(!empty("", &json!([]), 1, &Value::Null));
    }
}
