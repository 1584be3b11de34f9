//! The settings as a whole: the defaults, `muster.toml` over them and `MUSTER_*` variables
//! over that, checked once at start; each platform's and each service's part is its own file.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::check::{ConfigError, check_days, check_prefix};
use crate::communities::{self, Community};
use crate::discord::{self, Discord, Secret};
use crate::matrix::{self, Matrix};
use crate::ops::Ops;
use crate::web::{self, Web};

/// The validated settings.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Settings {
    /// Where the embedded store and written boards live (`data_dir`, `MUSTER_DATA_DIR`).
    pub data_dir: PathBuf,
    /// The command prefix in text chats (`prefix`, `MUSTER_PREFIX`).
    pub prefix: String,
    /// Discord, when a token is configured (`[discord]`, `MUSTER_DISCORD_*`).
    pub discord: Option<Discord>,
    /// Matrix, when a homeserver is configured (`[matrix]`, `MUSTER_MATRIX_*`).
    pub matrix: Option<Matrix>,
    /// Days of vacation each player has a calendar year (`vacation_days`,
    /// `MUSTER_VACATION_DAYS`; default 30).
    pub vacation_days: u64,
    /// Logs, the operations listener and periodic backups.
    pub ops: Ops,
    /// Where games are kept (`store`, `MUSTER_STORE`): sled in the data directory, or a
    /// PostgreSQL database shared by several instances.
    pub store: Store,
    /// Communities across platforms (`[communities.<name>]`; only in the file).
    pub communities: Vec<Community>,
    /// The web pages, when they are served (`[web]`, `MUSTER_WEB_*`).
    pub web: Option<Web>,
}

/// Where games are kept.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub enum Store {
    /// sled, embedded in `<data_dir>/store` (`store = "sled"`, the default).
    #[default]
    Sled,
    /// A PostgreSQL database, by its `postgres://user:password@host:port/name` address.
    Postgres(Secret),
}

impl Store {
    /// Reads a `store` setting: `sled`, or a `postgres://` (or `postgresql://`) address.
    pub fn parse(value: &str) -> Result<Store, String> {
        let v = value.trim();
        if v == "sled" {
            return Ok(Store::Sled);
        }
        let rest = v
            .strip_prefix("postgres://")
            .or_else(|| v.strip_prefix("postgresql://"));
        match rest {
            Some(rest) if !rest.is_empty() => Ok(Store::Postgres(Secret::new(v))),
            _ => Err(format!(
                "must be \"sled\" or a PostgreSQL address such as \"postgres://muster:PASSWORD@db.example.org/muster\", not \"{}\"",
                Store::mask(v)
            )),
        }
    }

    /// The setting as it may be shown: a password in the address as `***`.
    pub fn shown(&self) -> String {
        match self {
            Store::Sled => "sled".into(),
            Store::Postgres(url) => Store::mask(url.expose()),
        }
    }

    /// The password in a PostgreSQL address, if it has one (for the logs to leave out).
    pub fn password(&self) -> Option<&str> {
        let Store::Postgres(url) = self else {
            return None;
        };
        let (_, rest) = url.expose().split_once("://")?;
        let (credentials, _) = rest.rsplit_once('@')?;
        credentials.split_once(':').map(|(_, p)| p)
    }

    /// `text` with the password of a `scheme://user:password@…` address as `***`.
    pub fn mask(text: &str) -> String {
        let Some((scheme, rest)) = text.split_once("://") else {
            return text.to_string();
        };
        let Some((credentials, host)) = rest.rsplit_once('@') else {
            return text.to_string();
        };
        match credentials.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
            None => text.to_string(),
        }
    }
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            data_dir: PathBuf::from("muster-data"),
            prefix: "!".into(),
            discord: None,
            matrix: None,
            vacation_days: 30,
            ops: Ops::default(),
            store: Store::Sled,
            communities: Vec::new(),
            web: None,
        }
    }
}

/// What `muster.toml` may contain; every key optional.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct File {
    data_dir: Option<String>,
    prefix: Option<String>,
    discord: Option<discord::File>,
    matrix: Option<matrix::File>,
    vacation_days: Option<u64>,
    log_format: Option<String>,
    ops_listen: Option<String>,
    backup_dir: Option<String>,
    backup_every: Option<String>,
    backup_keep: Option<toml::Value>,
    store: Option<String>,
    #[serde(default)]
    communities: std::collections::BTreeMap<String, communities::File>,
    web: Option<web::File>,
}

fn check_store(source: &str, value: &str) -> Result<Store, ConfigError> {
    Store::parse(value).map_err(|reason| ConfigError {
        source: source.into(),
        key: "store".into(),
        reason,
    })
}

fn check_dir(source: &str, key: &str, value: &str) -> Result<PathBuf, ConfigError> {
    if value.trim().is_empty() {
        return Err(ConfigError {
            source: source.into(),
            key: key.into(),
            reason: "must name a directory, such as \"muster-data\"".into(),
        });
    }
    Ok(PathBuf::from(value))
}

impl Settings {
    /// Loads `muster.toml` from the working directory (or the file named by `MUSTER_CONFIG`)
    /// and the process environment.
    pub fn load() -> Result<Settings, ConfigError> {
        let path = std::env::var("MUSTER_CONFIG").unwrap_or_else(|_| "muster.toml".into());
        let text = match std::fs::read_to_string(Path::new(&path)) {
            Ok(t) => Some(t),
            Err(e)
                if e.kind() == std::io::ErrorKind::NotFound
                    && std::env::var("MUSTER_CONFIG").is_err() =>
            {
                None
            }
            Err(e) => {
                return Err(ConfigError {
                    source: path,
                    key: String::new(),
                    reason: format!("cannot be read: {e}"),
                });
            }
        };
        let env: Vec<(String, String)> = std::env::vars()
            .filter(|(k, _)| k.starts_with("MUSTER_"))
            .collect();
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        Settings::load_from(text.as_deref(), &env)
    }

    /// Builds settings from a file's text (if any) and environment pairs.
    pub fn load_from(file: Option<&str>, env: &[(&str, &str)]) -> Result<Settings, ConfigError> {
        let mut s = Settings::default();
        let mut discord = discord::Raw::default();
        let mut matrix = matrix::Raw::default();
        let mut web = web::Raw::default();
        if let Some(text) = file {
            let parsed: File = toml::from_str(text).map_err(|e| {
                let at = e.span().map(|span| span.start);
                ConfigError {
                    source: "muster.toml".into(),
                    key: at.map(|at| key_at(text, at)).unwrap_or_default(),
                    reason: match at {
                        Some(at) => format!("{} (line {})", e.message(), line_of(text, at)),
                        None => e.message().to_string(),
                    },
                }
            })?;
            if let Some(dir) = parsed.data_dir {
                s.data_dir = check_dir("muster.toml", "data_dir", &dir)?;
            }
            if let Some(store) = parsed.store {
                s.store = check_store("muster.toml", &store)?;
            }
            if let Some(prefix) = parsed.prefix {
                s.prefix = check_prefix("muster.toml", "prefix", &prefix)?;
            }
            if let Some(days) = parsed.vacation_days {
                s.vacation_days = check_days("muster.toml", &days.to_string())?;
            }
            let ops = [
                ("log_format", parsed.log_format),
                ("ops_listen", parsed.ops_listen),
                ("backup_dir", parsed.backup_dir),
                ("backup_every", parsed.backup_every),
                (
                    "backup_keep",
                    parsed.backup_keep.map(|v| match v {
                        toml::Value::String(s) => s,
                        toml::Value::Integer(n) => n.to_string(),
                        other => format!("{other:?}"),
                    }),
                ),
            ];
            for (key, value) in ops {
                if let Some(value) = value {
                    s.ops.set("muster.toml", key, &value)?;
                }
            }
            s.communities = communities::build(parsed.communities)?;
            if let Some(d) = parsed.discord {
                discord = discord::Raw::from_file(d);
            }
            if let Some(m) = parsed.matrix {
                matrix = matrix::Raw::from_file(m);
            }
            if let Some(w) = parsed.web {
                web = web::Raw::from_file(w);
            }
        }
        for (key, value) in env {
            match *key {
                "MUSTER_DATA_DIR" => s.data_dir = check_dir(key, "data_dir", value)?,
                "MUSTER_PREFIX" => s.prefix = check_prefix(key, "prefix", value)?,
                "MUSTER_STORE" => s.store = check_store(key, value)?,
                "MUSTER_VACATION_DAYS" => s.vacation_days = check_days(key, value)?,
                _ => {
                    let setting = key.trim_start_matches("MUSTER_").to_ascii_lowercase();
                    if s.ops.set(key, &setting, value)? {
                        continue;
                    }
                    let _ =
                        discord.env(key, value) || matrix.env(key, value) || web.env(key, value);
                }
            }
        }
        s.discord = discord.build()?;
        s.matrix = matrix.build()?;
        s.web = web.build()?;
        Ok(s)
    }
}

/// The line (from 1) of `text` that byte `at` is on.
fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// The key of the setting written where byte `at` of `text` is, with its table
/// (`discord.prefix`): the key before `=` on that line, under the last `[table]` header above
/// it; the header itself when the line is one; empty when there is none.
fn key_at(text: &str, at: usize) -> String {
    let line = line_of(text, at);
    let lines: Vec<&str> = text.lines().take(line).collect();
    let header = |l: &str| {
        let l = l.trim();
        (l.starts_with('[') && l.ends_with(']'))
            .then(|| l.trim_matches(|c| c == '[' || c == ']').trim().to_string())
    };
    let Some(here) = lines.last() else {
        return String::new();
    };
    if let Some(table) = header(here) {
        return table;
    }
    let Some((key, _)) = here.split_once('=') else {
        return String::new();
    };
    let key = key.trim().trim_matches('"');
    match lines.iter().rev().skip(1).find_map(|l| header(l)) {
        Some(table) => format!("{table}.{key}"),
        None => key.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::*;

    const KEY: &str = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a";

    #[test]
    fn the_store_is_sled_unless_a_postgres_address_is_given() {
        assert_eq!(Settings::load_from(None, &[]).unwrap().store, Store::Sled);
        let url = "postgres://muster:hunter22@db:5432/muster";
        let s = Settings::load_from(Some("store = \"sled\""), &[("MUSTER_STORE", url)]).unwrap();
        assert_eq!(s.store, Store::Postgres(Secret::new(url)));
        // The password is never shown.
        assert_eq!(s.store.shown(), "postgres://muster:***@db:5432/muster");
        assert!(!format!("{s:?}").contains("hunter22"));
        assert_eq!(s.store.password(), Some("hunter22"));
        let e =
            Settings::load_from(None, &[("MUSTER_STORE", "mysql://a:hunter22@b/c")]).unwrap_err();
        assert_eq!(
            (e.source.as_str(), e.key.as_str()),
            ("MUSTER_STORE", "store")
        );
        assert!(e.reason.contains("postgres://"), "{}", e.reason);
        assert!(!e.reason.contains("hunter22"), "{}", e.reason);
        let e = Settings::load_from(Some("store = \"postgres://\""), &[]).unwrap_err();
        assert_eq!(e.source, "muster.toml");
    }

    #[test]
    fn gateway_shards_are_a_shard_or_a_range_below_the_count() {
        let env = |shards: &str| {
            Settings::load_from(
                None,
                &[
                    ("MUSTER_DISCORD_TOKEN", "abc.def"),
                    ("MUSTER_DISCORD_APPLICATION_ID", "1234"),
                    ("MUSTER_DISCORD_SHARDS", shards),
                ],
            )
        };
        let d = env("1/2").unwrap().discord.unwrap();
        let shards = d.shards.unwrap();
        assert_eq!(shards.each().collect::<Vec<_>>(), vec![[1, 2]]);
        let d = env("0-2/4").unwrap().discord.unwrap();
        assert_eq!(d.shards.unwrap().each().count(), 3);
        for bad in ["2/2", "1-0/4", "x/2", "0/0", "3"] {
            let e = env(bad).unwrap_err();
            assert_eq!(e.key, "discord.shards", "{bad}");
            assert!(e.reason.contains("\"0/2\""), "{}", e.reason);
        }
    }

    #[test]
    fn discord_is_off_without_a_token_and_checked_with_one() {
        assert_eq!(Settings::load_from(None, &[]).unwrap().discord, None);
        let e = Settings::load_from(None, &[("MUSTER_DISCORD_TOKEN", "abc")]).unwrap_err();
        assert_eq!(e.key, "discord.application_id");
        let env = [
            ("MUSTER_DISCORD_TOKEN", "abc.def"),
            ("MUSTER_DISCORD_APPLICATION_ID", "1234"),
        ];
        let d = Settings::load_from(None, &env).unwrap().discord.unwrap();
        assert_eq!(
            (d.application_id, d.mode, d.register),
            (1234, Mode::Gateway, Register::Global)
        );
        assert_eq!(d.token.expose(), "abc.def");
        // The token is never shown.
        assert!(!format!("{d:?}").contains("abc"), "{d:?}");
        let e = Settings::load_from(None, &[env[0], env[1], ("MUSTER_DISCORD_MODE", "http")])
            .unwrap_err();
        assert_eq!(e.key, "discord.public_key");
        let d = Settings::load_from(
            None,
            &[
                env[0],
                env[1],
                ("MUSTER_DISCORD_MODE", "http"),
                ("MUSTER_DISCORD_PUBLIC_KEY", KEY),
            ],
        )
        .unwrap()
        .discord
        .unwrap();
        assert_eq!((d.mode, d.public_key.unwrap()[0]), (Mode::Http, 0xd7));
    }

    #[test]
    fn a_community_joins_servers_and_rooms_and_each_place_is_in_one() {
        let file = "[communities.carroll-club]\ndiscord = [\"42\"]\n\
                    matrix = [\"!a:example.org\", \"*\"]\norganisers = [\"7\", \"@o:example.org\"]\n";
        let s = Settings::load_from(Some(file), &[]).unwrap();
        assert_eq!(
            s.communities,
            vec![Community {
                name: "carroll-club".into(),
                discord: vec![42],
                matrix: vec!["!a:example.org".into(), "*".into()],
                organisers: vec!["7".into(), "@o:example.org".into()],
                web: Visibility::Links,
            }]
        );
        let e =
            Settings::load_from(Some("[communities.Club]\ndiscord = [\"1\"]\n"), &[]).unwrap_err();
        assert_eq!(e.key, "communities.Club");
        let e = Settings::load_from(
            Some("[communities.a]\ndiscord = [\"1\"]\n[communities.b]\ndiscord = [\"1\"]\n"),
            &[],
        )
        .unwrap_err();
        assert_eq!(e.key, "communities.b.discord");
        assert!(e.reason.contains("\"a\""), "{}", e.reason);
        let e = Settings::load_from(Some("[communities.a]\nmatrix = [\"#alias:hs\"]\n"), &[])
            .unwrap_err();
        assert_eq!(e.key, "communities.a.matrix");
        let e = Settings::load_from(Some("[communities.a]\n"), &[]).unwrap_err();
        assert!(e.reason.contains("must list its places"), "{}", e.reason);
    }

    #[test]
    fn servers_choose_their_games_and_organisers() {
        let file = "[discord]\ntoken = \"t\"\napplication_id = \"99\"\nguild = \"42\"\n\
                    [discord.guilds.42]\ngames = [\"lanrick\", \"croquet\"]\norganisers = [\"7\"]\n";
        let d = Settings::load_from(Some(file), &[])
            .unwrap()
            .discord
            .unwrap();
        assert_eq!(d.register, Register::Guild(42));
        let g = &d.guilds[&42];
        assert_eq!(
            g.games.as_deref(),
            Some(&["lanrick".to_string(), "croquet".to_string()][..])
        );
        assert_eq!(g.organisers, vec![7]);
        let bad = file.replace("\"croquet\"", "\"chess\"");
        let e = Settings::load_from(Some(&bad), &[]).unwrap_err();
        assert_eq!(e.key, "discord.guilds.42.games");
        assert!(e.reason.contains("chess"), "{e}");
        let bad = file.replace("\"7\"", "\"mods\"");
        assert_eq!(
            Settings::load_from(Some(&bad), &[]).unwrap_err().key,
            "discord.guilds.42.organisers"
        );
    }

    #[test]
    fn environment_overrides_file_overrides_defaults() {
        assert_eq!(Settings::load_from(None, &[]).unwrap(), Settings::default());
        let file = "data_dir = \"from-file\"\nprefix = \"?\"\n";
        let s = Settings::load_from(Some(file), &[("MUSTER_DATA_DIR", "from-env")]).unwrap();
        assert_eq!(s.data_dir, PathBuf::from("from-env"));
        assert_eq!(s.prefix, "?");
    }

    #[test]
    fn errors_name_the_key_and_the_reason() {
        let e = Settings::load_from(Some("prefix = \"go \"\n"), &[]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "muster.toml: `prefix` must be punctuation without spaces or letters, such as \"!\" or \"?\""
        );
        let e = Settings::load_from(Some("colour = \"red\"\n"), &[]).unwrap_err();
        assert!(e.to_string().contains("colour"), "{e}");
        let e = Settings::load_from(None, &[("MUSTER_DATA_DIR", " ")]).unwrap_err();
        assert_eq!(e.source, "MUSTER_DATA_DIR");
        assert!(e.reason.contains("directory"));
    }

    #[test]
    fn clocks_and_vacations_are_set_per_adapter_and_checked() {
        let file = "vacation_days = 14\n\
                    [discord]\ntoken = \"t\"\napplication_id = \"123\"\nclock = \"10d+1d\"\ntimeout = \"claim\"\n\
                    [discord.channel_clocks]\n\"456\" = \"1d\"\n\
                    [matrix]\nhomeserver = \"http://h\"\nuser = \"@m:h\"\npassword = \"p\"\n\
                    [matrix.rooms.\"!r:h\"]\nclock = \"none\"\n";
        let s = Settings::load_from(Some(file), &[]).unwrap();
        assert_eq!(s.vacation_days, 14);
        let d = s.discord.unwrap();
        assert_eq!(d.clock.as_deref(), Some("10d+1d"));
        assert!(d.timeout_claim);
        assert_eq!(d.channel_clocks.get(&456).map(String::as_str), Some("1d"));
        let m = s.matrix.unwrap();
        // Matrix rooms play by correspondence: three days a move unless told otherwise.
        assert_eq!(m.clock, "3d");
        assert!(!m.timeout_claim);
        assert_eq!(m.rooms["!r:h"].clock.as_deref(), Some("none"));
        assert_eq!(Settings::default().vacation_days, 30);
        let e = Settings::load_from(None, &[("MUSTER_VACATION_DAYS", "400")]).unwrap_err();
        assert_eq!(e.key, "vacation_days");
        let e = Settings::load_from(
            None,
            &[
                ("MUSTER_MATRIX_HOMESERVER", "http://h"),
                ("MUSTER_MATRIX_USER", "@m:h"),
                ("MUSTER_MATRIX_PASSWORD", "p"),
                ("MUSTER_MATRIX_CLOCK", "3 days"),
            ],
        )
        .unwrap_err();
        assert_eq!(e.key, "matrix.clock");
        assert!(e.reason.contains("\"10d+1d\""), "{e}");
        let e = Settings::load_from(
            None,
            &[
                ("MUSTER_DISCORD_TOKEN", "t"),
                ("MUSTER_DISCORD_APPLICATION_ID", "1"),
                ("MUSTER_DISCORD_TIMEOUT", "never"),
            ],
        )
        .unwrap_err();
        assert_eq!(e.key, "discord.timeout");
    }

    #[test]
    fn a_value_of_the_wrong_type_names_its_key_and_line() {
        let text = "prefix = \"!\"\n\n[discord]\napplication_id = \"1\"\ntoken = 123\n";
        let e = Settings::load_from(Some(text), &[]).unwrap_err();
        assert_eq!(e.key, "discord.token", "{e}");
        assert!(e.to_string().contains("(line 5)"), "{e}");
        let e = Settings::load_from(Some("vacation_days = \"ten\"\n"), &[]).unwrap_err();
        assert_eq!(e.key, "vacation_days", "{e}");
    }
}
