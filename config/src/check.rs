//! What every part of the settings checks with: the error that names a setting and says why,
//! and the checks of values several parts take (a command prefix, a number of days, a clock, a
//! timeout policy).

use std::fmt;

/// A setting as given: its value, with where it came from (`muster.toml` or the variable's
/// name), or `None` when it is not set.
pub(crate) type Given = Option<(String, String)>;

/// A setting that could not be used.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ConfigError {
    /// Where the value came from: `muster.toml` or the variable's name.
    pub source: String,
    /// The key, or empty when the file as a whole is wrong.
    pub key: String,
    /// Why, and what to write instead.
    pub reason: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.key.is_empty() {
            write!(f, "{}: {}", self.source, self.reason)
        } else {
            write!(f, "{}: `{}` {}", self.source, self.key, self.reason)
        }
    }
}

impl std::error::Error for ConfigError {}

pub(crate) fn check_prefix(source: &str, key: &str, value: &str) -> Result<String, ConfigError> {
    let bad = |reason: &str| ConfigError {
        source: source.into(),
        key: key.into(),
        reason: reason.into(),
    };
    if value.is_empty() || value.chars().count() > 3 {
        return Err(bad("must be one to three characters, such as \"!\""));
    }
    if value
        .chars()
        .any(|c| c.is_whitespace() || c.is_alphanumeric())
    {
        return Err(bad(
            "must be punctuation without spaces or letters, such as \"!\" or \"?\"",
        ));
    }
    Ok(value.to_string())
}

pub(crate) fn check_days(source: &str, value: &str) -> Result<u64, ConfigError> {
    value
        .trim()
        .parse::<u64>()
        .ok()
        .filter(|d| *d <= 366)
        .ok_or_else(|| ConfigError {
            source: source.into(),
            key: "vacation_days".into(),
            reason: format!("must be a number of days from 0 to 366, not \"{value}\""),
        })
}

/// A time control as written in the settings: `none`, or durations such as `3d`, `1d12h`,
/// `10d+1d` (the bot checks the amounts when it starts).
pub(crate) fn check_clock(source: &str, key: &str, value: &str) -> Result<String, ConfigError> {
    let v = value.trim().to_ascii_lowercase();
    let shaped = v == "none"
        || (!v.is_empty()
            && v.split('+').count() <= 2
            && v.split('+').all(|part| {
                !part.is_empty()
                    && part
                        .chars()
                        .all(|c| c.is_ascii_digit() || "dhms".contains(c))
                    && part.starts_with(|c: char| c.is_ascii_digit())
            }));
    if shaped {
        Ok(v)
    } else {
        Err(ConfigError {
            source: source.into(),
            key: key.into(),
            reason: format!(
                "must be a time control such as \"3d\" (per move), \"10d+1d\" (a bank and an increment) or \"none\", not \"{value}\""
            ),
        })
    }
}

/// `auto` (a run-out clock ends the game) or `claim` (the opponent claims the win).
pub(crate) fn check_timeout(source: &str, key: &str, value: &str) -> Result<bool, ConfigError> {
    match value.trim().to_ascii_lowercase().as_str() {
        "auto" => Ok(false),
        "claim" => Ok(true),
        _ => Err(ConfigError {
            source: source.into(),
            key: key.into(),
            reason: format!("must be \"auto\" or \"claim\", not \"{value}\""),
        }),
    }
}

/// The error of the setting `key` given in `source`.
pub(crate) fn invalid(source: &str, key: &str, reason: impl Into<String>) -> ConfigError {
    ConfigError {
        source: source.into(),
        key: key.into(),
        reason: reason.into(),
    }
}

/// The game ids a Discord server or a Matrix room may offer (the same as the rules' game ids).
pub const GAME_IDS: [&str; 6] = [
    "lanrick",
    "lanrick1880",
    "croquet",
    "lanko88",
    "lanko68",
    "lanko103",
];

/// The games a place offers (`<key>.games`), each one Muster plays.
pub(crate) fn check_games(
    source: &str,
    key: &str,
    games: Option<&[String]>,
) -> Result<(), ConfigError> {
    let known = GAME_IDS;
    match games
        .into_iter()
        .flatten()
        .find(|g| !known.contains(&g.as_str()))
    {
        None => Ok(()),
        Some(bad) => Err(invalid(
            source,
            &format!("{key}.games"),
            format!(
                "names an unknown game \"{bad}\"; the games are {}",
                known.join(", ")
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_may_offer_only_the_games_muster_plays() {
        let games = ["croquet".to_string(), "chess".to_string()];
        let e = check_games("muster.toml", "matrix.rooms.\"!r:hs\"", Some(&games)).unwrap_err();
        assert_eq!(e.key, "matrix.rooms.\"!r:hs\".games");
        assert!(
            e.reason.starts_with("names an unknown game \"chess\""),
            "{}",
            e.reason
        );
        assert!(check_games("muster.toml", "k", Some(&games[..1])).is_ok());
        assert!(check_games("muster.toml", "k", None).is_ok());
    }
}
