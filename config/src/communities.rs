//! Communities across platforms: `[communities.<name>]` in `muster.toml`. A community joins
//! Discord servers and Matrix rooms (or all of a homeserver's rooms without a community of their
//! own) into one club, whose ratings, leaderboards, tournament names and organisers are shared.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::check::ConfigError;

/// One community across platforms.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Community {
    /// Its name (the table's key: `[communities.club]` is `club`).
    pub name: String,
    /// Its Discord servers, by id.
    pub discord: Vec<u64>,
    /// Its Matrix places: a room (`!id:server`), a Matrix community named by rooms' own
    /// `community` setting, or `*` for the rooms without one.
    pub matrix: Vec<String>,
    /// Its organisers, by their ids on either platform (`"7"`, `"@alice:example.org"`).
    pub organisers: Vec<String>,
    /// What it shows on the web (`web`: `"links"`, the default, `"public"` or `"off"`).
    pub web: crate::web::Visibility,
}

/// `[communities.<name>]` as written.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct File {
    #[serde(default)]
    discord: Vec<String>,
    #[serde(default)]
    matrix: Vec<String>,
    #[serde(default)]
    organisers: Vec<String>,
    web: Option<String>,
}

/// The communities of the file, checked: a name of lower-case letters, digits and dashes; each
/// server or Matrix place in one community at most; at least one place on each of two
/// platforms is not required (a community may start on one).
pub(crate) fn build(files: BTreeMap<String, File>) -> Result<Vec<Community>, ConfigError> {
    let mut out: Vec<Community> = Vec::new();
    for (name, file) in files {
        let key = format!("communities.{name}");
        let shaped = !name.is_empty()
            && name.len() <= 32
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
        if !shaped {
            return Err(bad(
                key,
                "must be named with lower-case letters, digits and dashes (at most 32), such as \
                 [communities.carroll-club]"
                    .into(),
            ));
        }
        let discord = servers(&key, &file, &out)?;
        let matrix = rooms(&key, &file, &out)?;
        if discord.is_empty() && matrix.is_empty() {
            return Err(bad(
                key,
                "must list its places: `discord` (server ids) and `matrix` (rooms, or \"*\")"
                    .into(),
            ));
        }
        let organisers = file
            .organisers
            .iter()
            .map(|o| o.trim().to_string())
            .filter(|o| !o.is_empty())
            .collect();
        let web = match &file.web {
            None => crate::web::Visibility::default(),
            Some(word) => crate::web::Visibility::parse(word).ok_or_else(|| {
                bad(
                    format!("{key}.web"),
                    format!("must be \"links\", \"public\" or \"off\", not \"{word}\""),
                )
            })?,
        };
        out.push(Community {
            name,
            discord,
            matrix,
            organisers,
            web,
        });
    }
    Ok(out)
}

/// The error of the setting `key` of the file.
fn bad(key: String, reason: String) -> ConfigError {
    ConfigError {
        source: "muster.toml".into(),
        key,
        reason,
    }
}

/// The community's Discord servers, each in no earlier community.
fn servers(key: &str, file: &File, earlier: &[Community]) -> Result<Vec<u64>, ConfigError> {
    let mut discord = Vec::new();
    for id in &file.discord {
        let n = id
            .trim()
            .parse::<u64>()
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| {
                bad(
                    format!("{key}.discord"),
                    format!("must list Discord server ids (digits), not \"{id}\""),
                )
            })?;
        if let Some(other) = earlier.iter().find(|c| c.discord.contains(&n)) {
            return Err(bad(
                format!("{key}.discord"),
                format!(
                    "lists the server {n}, which is in the community \"{}\" already: a \
                     server belongs to one community",
                    other.name
                ),
            ));
        }
        discord.push(n);
    }
    Ok(discord)
}

/// The community's Matrix rooms (ids, rooms' community names, or `*`), each in no earlier one.
fn rooms(key: &str, file: &File, earlier: &[Community]) -> Result<Vec<String>, ConfigError> {
    let mut matrix = Vec::new();
    for place in &file.matrix {
        let p = place.trim();
        let room = p.starts_with('!') && p.contains(':');
        let named = !p.is_empty() && p.chars().all(|c| c.is_alphanumeric() || "-_.".contains(c));
        if !(p == "*" || room || named) {
            return Err(bad(
                format!("{key}.matrix"),
                format!(
                    "must list Matrix rooms (\"!id:example.org\"), rooms' community names, or \
                     \"*\" for the rooms without one, not \"{place}\""
                ),
            ));
        }
        if let Some(other) = earlier.iter().find(|c| c.matrix.iter().any(|m| m == p)) {
            return Err(bad(
                format!("{key}.matrix"),
                format!(
                    "lists \"{p}\", which is in the community \"{}\" already",
                    other.name
                ),
            ));
        }
        matrix.push(p.to_string());
    }
    Ok(matrix)
}
