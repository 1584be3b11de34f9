//! The Matrix adapter's settings: `[matrix]` in `muster.toml` and `MUSTER_MATRIX_*`.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::check::{ConfigError, Given, check_games, check_prefix, invalid};
use crate::discord::Secret;

/// How the bot account signs in.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Login {
    /// With the account's password (a new device on the first start; the session is kept).
    Password(Secret),
    /// With an access token issued for the account (its device is the bot's device).
    Token(Secret),
}

/// Whose invitations the bot accepts.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct AutoJoin {
    /// Everyone's (`"*"`).
    pub everyone: bool,
    /// These users' (`"@alice:example.org"`).
    pub users: Vec<String>,
    /// Users of these servers (`"example.org"`).
    pub servers: Vec<String>,
}

impl AutoJoin {
    /// Whether an invitation from `user` (a full Matrix id) is accepted.
    pub fn accepts(&self, user: &str) -> bool {
        let server = user.split_once(':').map_or("", |(_, s)| s);
        self.everyone
            || self.users.iter().any(|u| u == user)
            || self.servers.iter().any(|s| s == server)
    }
}

/// One room's settings.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Room {
    /// The command prefix there, instead of the adapter's.
    pub prefix: Option<String>,
    /// The games that may be started there; `None` for all.
    pub games: Option<Vec<String>>,
    /// The time control of games there that name none, instead of the adapter's.
    pub clock: Option<String>,
    /// The community the room belongs to, for ratings and tournament names (rooms without
    /// one form the homeserver's community).
    pub community: Option<String>,
}

/// The validated Matrix settings; present when a homeserver is configured.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Matrix {
    /// The homeserver's client address (`homeserver`, `MUSTER_MATRIX_HOMESERVER`).
    pub homeserver: String,
    /// The bot's account: a full id or a localpart (`user`, `MUSTER_MATRIX_USER`).
    pub user: String,
    /// Password or access token (`password` / `access_token`, `MUSTER_MATRIX_PASSWORD` /
    /// `MUSTER_MATRIX_ACCESS_TOKEN`). Used only when no session is stored yet.
    pub login: Login,
    /// The name of the bot's device (`device_name`, `MUSTER_MATRIX_DEVICE_NAME`).
    pub device_name: String,
    /// The account's recovery key (`recovery_key`, `MUSTER_MATRIX_RECOVERY_KEY`), for a new
    /// device — a second instance, a restore onto an empty data directory — to adopt the
    /// account's cross-signing identity and read its key backup. Not needed by the instance
    /// that wrote it (`<data_dir>/matrix/recovery-key`).
    pub recovery_key: Option<Secret>,
    /// The command prefix in rooms (`prefix`, `MUSTER_MATRIX_PREFIX`; default: the top-level
    /// `prefix`).
    pub prefix: Option<String>,
    /// Whose invitations are accepted (`auto_join`, `MUSTER_MATRIX_AUTO_JOIN`, comma-separated;
    /// default: nobody's).
    pub auto_join: AutoJoin,
    /// Users who count as organisers in every room (`organisers`, `MUSTER_MATRIX_ORGANISERS`);
    /// room moderators (power level 50 or more) count there too.
    pub organisers: Vec<String>,
    /// Commands each user may send per minute (`rate_per_minute`,
    /// `MUSTER_MATRIX_RATE_PER_MINUTE`; default 30, 0 for no limit). Commands that move a
    /// game on are not counted.
    pub rate_per_minute: u32,
    /// How many commands may come at once before the rate applies (`rate_burst`,
    /// `MUSTER_MATRIX_RATE_BURST`; default 10).
    pub rate_burst: u32,
    /// Settings per room (`[matrix.rooms."!id:server"]`).
    pub rooms: BTreeMap<String, Room>,
    /// The time control of games that name none (`clock`, `MUSTER_MATRIX_CLOCK`: `3d`,
    /// `10d+1d`, `none`; default `3d`, correspondence play).
    pub clock: String,
    /// Whether a run-out clock waits for the opponent's `claim` (`timeout = "claim"`,
    /// `MUSTER_MATRIX_TIMEOUT`) instead of ending the game (`"auto"`, the default).
    pub timeout_claim: bool,
}

/// What `[matrix]` may contain.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct File {
    homeserver: Option<String>,
    user: Option<String>,
    password: Option<String>,
    access_token: Option<String>,
    device_name: Option<String>,
    recovery_key: Option<String>,
    prefix: Option<String>,
    auto_join: Option<Vec<String>>,
    organisers: Option<Vec<String>>,
    rate_per_minute: Option<u32>,
    rate_burst: Option<u32>,
    #[serde(default)]
    rooms: BTreeMap<String, RoomFile>,
    clock: Option<String>,
    timeout: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RoomFile {
    prefix: Option<String>,
    games: Option<Vec<String>>,
    clock: Option<String>,
    community: Option<String>,
}

/// The raw values, file first, then the environment over them.
#[derive(Default)]
pub(crate) struct Raw {
    homeserver: Given,
    user: Given,
    password: Given,
    access_token: Given,
    device_name: Given,
    recovery_key: Given,
    prefix: Given,
    auto_join: Given,
    organisers: Given,
    rate_per_minute: Given,
    rate_burst: Given,
    rooms: BTreeMap<String, RoomFile>,
    clock: Given,
    timeout: Given,
}

const FILE: &str = "muster.toml";

fn list(items: &[String]) -> String {
    items.join(",")
}

fn split(value: &str) -> impl Iterator<Item = String> + '_ {
    value
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

fn is_user_id(s: &str) -> bool {
    s.strip_prefix('@')
        .and_then(|s| s.split_once(':'))
        .is_some_and(|(local, server)| {
            !local.is_empty() && !server.is_empty() && !s.contains(char::is_whitespace)
        })
}

impl Raw {
    pub(crate) fn from_file(file: File) -> Raw {
        let at = |v: Option<String>| v.map(|v| (FILE.to_string(), v));
        Raw {
            homeserver: at(file.homeserver),
            user: at(file.user),
            password: at(file.password),
            access_token: at(file.access_token),
            recovery_key: at(file.recovery_key),
            device_name: at(file.device_name),
            prefix: at(file.prefix),
            auto_join: at(file.auto_join.as_deref().map(list)),
            organisers: at(file.organisers.as_deref().map(list)),
            rate_per_minute: at(file.rate_per_minute.map(|v| v.to_string())),
            rate_burst: at(file.rate_burst.map(|v| v.to_string())),
            rooms: file.rooms,
            clock: at(file.clock),
            timeout: at(file.timeout),
        }
    }

    /// Takes `MUSTER_MATRIX_*`; false for any other variable.
    pub(crate) fn env(&mut self, key: &str, value: &str) -> bool {
        let slot = match key {
            "MUSTER_MATRIX_HOMESERVER" => &mut self.homeserver,
            "MUSTER_MATRIX_USER" => &mut self.user,
            "MUSTER_MATRIX_PASSWORD" => &mut self.password,
            "MUSTER_MATRIX_ACCESS_TOKEN" => &mut self.access_token,
            "MUSTER_MATRIX_DEVICE_NAME" => &mut self.device_name,
            "MUSTER_MATRIX_RECOVERY_KEY" => &mut self.recovery_key,
            "MUSTER_MATRIX_PREFIX" => &mut self.prefix,
            "MUSTER_MATRIX_AUTO_JOIN" => &mut self.auto_join,
            "MUSTER_MATRIX_ORGANISERS" => &mut self.organisers,
            "MUSTER_MATRIX_RATE_PER_MINUTE" => &mut self.rate_per_minute,
            "MUSTER_MATRIX_RATE_BURST" => &mut self.rate_burst,
            "MUSTER_MATRIX_CLOCK" => &mut self.clock,
            "MUSTER_MATRIX_TIMEOUT" => &mut self.timeout,
            _ => return false,
        };
        *slot = Some((key.to_string(), value.to_string()));
        true
    }

    /// The settings, or `None` when no homeserver is set (Matrix is off).
    pub(crate) fn build(self) -> Result<Option<Matrix>, ConfigError> {
        let Some((source, homeserver)) = self.homeserver.filter(|(_, h)| !h.trim().is_empty())
        else {
            return Ok(None);
        };
        let homeserver = homeserver_address(&source, &homeserver)?;
        let user = user(self.user)?;
        let nonempty = |v: Given| v.filter(|(_, s)| !s.trim().is_empty());
        let login = match (nonempty(self.password), nonempty(self.access_token)) {
            (_, Some((_, t))) => Login::Token(Secret::new(t.trim())),
            (Some((_, p)), None) => Login::Password(Secret::new(&p)),
            (None, None) => {
                return Err(invalid(
                    "MUSTER_MATRIX_PASSWORD",
                    "matrix.password",
                    "or `matrix.access_token` must be set when a homeserver is",
                ));
            }
        };
        let device_name = nonempty(self.device_name).map_or("Muster".to_string(), |(_, d)| d);
        let recovery_key = nonempty(self.recovery_key).map(|(_, k)| Secret::new(k.trim()));
        let prefix = match self.prefix {
            None => None,
            Some((s, p)) => Some(check_prefix(&s, "matrix.prefix", p.trim())?),
        };
        let auto_join = auto_join(self.auto_join)?;
        let organisers = organisers(self.organisers)?;
        let rate_per_minute = count(self.rate_per_minute, "matrix.rate_per_minute", 30)?;
        let rate_burst = count(self.rate_burst, "matrix.rate_burst", 10)?.max(1);
        let mut rooms = BTreeMap::new();
        for (id, r) in self.rooms {
            let room = room(&id, r)?;
            rooms.insert(id, room);
        }
        let clock = match self.clock {
            None => "3d".to_string(),
            Some((s, c)) => crate::check::check_clock(&s, "matrix.clock", &c)?,
        };
        let timeout_claim = match self.timeout {
            None => false,
            Some((s, t)) => crate::check::check_timeout(&s, "matrix.timeout", &t)?,
        };
        Ok(Some(Matrix {
            clock,
            timeout_claim,
            homeserver,
            user,
            login,
            device_name,
            recovery_key,
            prefix,
            auto_join,
            organisers,
            rate_per_minute,
            rate_burst,
            rooms,
        }))
    }
}

/// The homeserver's client address, without a trailing slash.
fn homeserver_address(source: &str, given: &str) -> Result<String, ConfigError> {
    let homeserver = given.trim().trim_end_matches('/').to_string();
    if !(homeserver.starts_with("http://") || homeserver.starts_with("https://")) {
        return Err(invalid(
            source,
            "matrix.homeserver",
            "must be the homeserver's client address, such as \"https://matrix.example.org\"",
        ));
    }
    Ok(homeserver)
}

/// The bot's account: a Matrix id or a localpart.
fn user(given: Given) -> Result<String, ConfigError> {
    let Some((source, user)) = given.filter(|(_, u)| !u.trim().is_empty()) else {
        return Err(invalid(
            "MUSTER_MATRIX_USER",
            "matrix.user",
            "must be set when a homeserver is: the bot's account, such as \"@muster:example.org\"",
        ));
    };
    let user = user.trim().to_string();
    if user.contains(char::is_whitespace) || (user.starts_with('@') && !is_user_id(&user)) {
        return Err(invalid(
            &source,
            "matrix.user",
            "must be a Matrix id such as \"@muster:example.org\" or a localpart such as \"muster\"",
        ));
    }
    Ok(user)
}

/// Whose invitations the bot accepts: users, servers, or everyone (`*`).
fn auto_join(given: Given) -> Result<AutoJoin, ConfigError> {
    let mut auto_join = AutoJoin::default();
    let Some((s, v)) = given else {
        return Ok(auto_join);
    };
    for item in split(&v) {
        if item == "*" {
            auto_join.everyone = true;
        } else if item.starts_with('@') {
            if !is_user_id(&item) {
                return Err(invalid(
                    &s,
                    "matrix.auto_join",
                    format!(
                        "lists \"{item}\"; write users as \"@alice:example.org\", servers as \"example.org\", or \"*\" for everyone"
                    ),
                ));
            }
            auto_join.users.push(item);
        } else if item.contains(['@', '/', ' ']) || !item.contains(|c: char| c != '.') {
            return Err(invalid(
                &s,
                "matrix.auto_join",
                format!("lists \"{item}\", which is neither a user id nor a server name"),
            ));
        } else {
            auto_join.servers.push(item);
        }
    }
    Ok(auto_join)
}

fn organisers(given: Given) -> Result<Vec<String>, ConfigError> {
    let mut organisers = Vec::new();
    if let Some((s, v)) = given {
        for item in split(&v) {
            if !is_user_id(&item) {
                return Err(invalid(
                    &s,
                    "matrix.organisers",
                    format!("lists \"{item}\"; write users as \"@alice:example.org\""),
                ));
            }
            organisers.push(item);
        }
    }
    Ok(organisers)
}

/// A count from 0 to 10,000, `default` when not given.
fn count(given: Given, key: &str, default: u32) -> Result<u32, ConfigError> {
    match given {
        None => Ok(default),
        Some((s, n)) => n
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= 10_000)
            .ok_or_else(|| invalid(&s, key, "must be a whole number from 0 to 10000")),
    }
}

/// `[matrix.rooms."<id>"]`: one room's settings, checked.
fn room(id: &str, r: RoomFile) -> Result<Room, ConfigError> {
    let key = format!("matrix.rooms.\"{id}\"");
    // Room ids are `!opaque:server`, or (room version 12 on) `!opaque`.
    if !id.starts_with('!') || id.len() < 2 || id.contains(char::is_whitespace) {
        return Err(invalid(
            FILE,
            &key,
            "must be a room id such as \"!abcdef:example.org\" (Room settings → Advanced in Element)",
        ));
    }
    check_games(FILE, &key, r.games.as_deref())?;
    let prefix = match r.prefix {
        None => None,
        Some(p) => Some(check_prefix(FILE, &format!("{key}.prefix"), p.trim())?),
    };
    let community = match r.community.map(|c| c.trim().to_string()) {
        Some(c)
            if c.is_empty()
                || c.len() > 64
                || !c
                    .chars()
                    .all(|x| x.is_ascii_alphanumeric() || x == '-' || x == '_') =>
        {
            return Err(invalid(
                FILE,
                &format!("{key}.community"),
                "must be a name of 1 to 64 letters, digits, hyphens or underscores",
            ));
        }
        c => c,
    };
    let clock = match r.clock {
        None => None,
        Some(c) => Some(crate::check::check_clock(
            FILE,
            &format!("{key}.clock"),
            &c,
        )?),
    };
    Ok(Room {
        prefix,
        community,
        games: r.games,
        clock,
    })
}

#[cfg(test)]
mod tests {
    use crate::Settings;

    use super::*;

    const BASE: [(&str, &str); 3] = [
        ("MUSTER_MATRIX_HOMESERVER", "http://127.0.0.1:8008/"),
        ("MUSTER_MATRIX_USER", "@muster:localhost"),
        ("MUSTER_MATRIX_PASSWORD", "hunter2"),
    ];

    #[test]
    fn matrix_is_off_without_a_homeserver_and_checked_with_one() {
        assert_eq!(Settings::load_from(None, &[]).unwrap().matrix, None);
        let e = Settings::load_from(None, &BASE[..1]).unwrap_err();
        assert_eq!(e.key, "matrix.user");
        let e = Settings::load_from(None, &BASE[..2]).unwrap_err();
        assert_eq!(e.key, "matrix.password");
        let m = Settings::load_from(None, &BASE).unwrap().matrix.unwrap();
        assert_eq!(m.homeserver, "http://127.0.0.1:8008");
        assert_eq!(m.login, Login::Password(Secret::new("hunter2")));
        assert_eq!((m.rate_per_minute, m.rate_burst), (30, 10));
        // Nobody's invitations are accepted unless configured.
        assert!(!m.auto_join.accepts("@alice:localhost"));
        // The password is never shown.
        assert!(!format!("{m:?}").contains("hunter2"), "{m:?}");
        let mut env = BASE.to_vec();
        env.push(("MUSTER_MATRIX_ACCESS_TOKEN", "syt_abc"));
        let m = Settings::load_from(None, &env).unwrap().matrix.unwrap();
        assert_eq!(m.login, Login::Token(Secret::new("syt_abc")));
        assert!(!format!("{m:?}").contains("syt_abc"));
        // The recovery key, for a new device only: none unless given, never shown.
        assert_eq!(m.recovery_key, None);
        env.push(("MUSTER_MATRIX_RECOVERY_KEY", " EsTc abcd efgh "));
        let m = Settings::load_from(None, &env).unwrap().matrix.unwrap();
        assert_eq!(m.recovery_key, Some(Secret::new("EsTc abcd efgh")));
        assert!(!format!("{m:?}").contains("abcd"), "{m:?}");
        let e =
            Settings::load_from(None, &[("MUSTER_MATRIX_HOMESERVER", "matrix.org")]).unwrap_err();
        assert_eq!(e.key, "matrix.homeserver");
    }

    #[test]
    fn invitations_come_from_listed_users_or_servers() {
        let mut env = BASE.to_vec();
        env.push((
            "MUSTER_MATRIX_AUTO_JOIN",
            "@alice:example.org, club.example",
        ));
        let m = Settings::load_from(None, &env).unwrap().matrix.unwrap();
        assert!(m.auto_join.accepts("@alice:example.org"));
        assert!(m.auto_join.accepts("@bob:club.example"));
        assert!(!m.auto_join.accepts("@bob:example.org"));
        assert!(!m.auto_join.accepts("@mallory:evil.example"));
        env.pop();
        env.push(("MUSTER_MATRIX_AUTO_JOIN", "*"));
        let m = Settings::load_from(None, &env).unwrap().matrix.unwrap();
        assert!(m.auto_join.accepts("@anyone:anywhere.example"));
        env.pop();
        env.push(("MUSTER_MATRIX_AUTO_JOIN", "@alice"));
        let e = Settings::load_from(None, &env).unwrap_err();
        assert_eq!(e.key, "matrix.auto_join");
        assert!(e.reason.contains("\"@alice\""), "{e}");
        env.pop();
        // A bare name is a server (such as localhost).
        env.push(("MUSTER_MATRIX_AUTO_JOIN", "localhost"));
        let m = Settings::load_from(None, &env).unwrap().matrix.unwrap();
        assert!(m.auto_join.accepts("@alice:localhost"));
    }

    #[test]
    fn rooms_choose_their_prefix_and_games() {
        let file = "[matrix]\nhomeserver = \"https://matrix.example.org\"\nuser = \"muster\"\n\
                    password = \"pw\"\nprefix = \"?\"\norganisers = [\"@carol:example.org\"]\n\
                    [matrix.rooms.\"!abc:example.org\"]\nprefix = \"&\"\ngames = [\"croquet\"]\n";
        let m = Settings::load_from(Some(file), &[])
            .unwrap()
            .matrix
            .unwrap();
        assert_eq!(m.prefix.as_deref(), Some("?"));
        assert_eq!(m.organisers, vec!["@carol:example.org".to_string()]);
        let room = &m.rooms["!abc:example.org"];
        assert_eq!(room.prefix.as_deref(), Some("&"));
        assert_eq!(room.games.as_deref(), Some(&["croquet".to_string()][..]));
        let bad = file.replace("\"&\"", "\"go\"");
        let e = Settings::load_from(Some(&bad), &[]).unwrap_err();
        assert_eq!(e.key, "matrix.rooms.\"!abc:example.org\".prefix");
        let bad = file.replace("!abc:example.org", "#games:example.org");
        assert!(Settings::load_from(Some(&bad), &[]).is_err());
        let v12 = file.replace(
            "!abc:example.org",
            "!31hneApxJ_1o-63DmFrpeqnkFfWppnzWso1JvH3ogLM",
        );
        assert!(Settings::load_from(Some(&v12), &[]).is_ok());
        let bad = file.replace("\"@carol:example.org\"", "\"carol\"");
        assert_eq!(
            Settings::load_from(Some(&bad), &[]).unwrap_err().key,
            "matrix.organisers"
        );
    }
}
