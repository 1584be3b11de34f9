//! The Discord adapter's settings: `[discord]` in `muster.toml` and `MUSTER_DISCORD_*`.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;

use crate::check::{ConfigError, Given, check_games, invalid};

/// The game ids a server may allow (the same as the rules' game ids).
pub use crate::check::GAME_IDS;

/// A value that must never be shown: its `Debug` and `Display` print `***`.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// A secret holding `value`.
    pub fn new(value: &str) -> Secret {
        Secret(value.to_string())
    }

    /// The secret itself, for the one place that needs it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// How Discord delivers interactions to Muster.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// A gateway (WebSocket) connection: one process.
    Gateway,
    /// An HTTP interactions endpoint: stateless, behind the operator's TLS proxy.
    Http,
}

/// Where the slash commands are registered.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Register {
    /// For every server (production; Discord may take a while to show changes).
    Global,
    /// In one server only, at once (development).
    Guild(u64),
}

/// The gateway shards one instance runs (`shards`, `MUSTER_DISCORD_SHARDS`): `2/4` (shard 2
/// of 4) or `0-1/4` (shards 0 and 1 of 4). Instances sharing a store split a bot's shards
/// between them; together they must run every shard of the count.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Shards {
    /// The first shard this instance runs.
    pub first: u32,
    /// The last shard this instance runs.
    pub last: u32,
    /// How many shards the bot has in all.
    pub count: u32,
}

impl Shards {
    /// Reads `ID/COUNT` or `FIRST-LAST/COUNT`.
    pub fn parse(text: &str) -> Option<Shards> {
        let (ids, count) = text.trim().split_once('/')?;
        let count: u32 = count.trim().parse().ok()?;
        let (first, last) = match ids.split_once('-') {
            Some((a, b)) => (a.trim().parse().ok()?, b.trim().parse().ok()?),
            None => {
                let id = ids.trim().parse().ok()?;
                (id, id)
            }
        };
        (count >= 1 && first <= last && last < count).then_some(Shards { first, last, count })
    }

    /// The shards, as `[id, count]` pairs for IDENTIFY.
    pub fn each(&self) -> impl Iterator<Item = [u32; 2]> + '_ {
        (self.first..=self.last).map(|id| [id, self.count])
    }
}

/// One server's settings.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Guild {
    /// The games that may be started there; `None` for all.
    pub games: Option<Vec<String>>,
    /// Role or user ids whose holders count as organisers.
    pub organisers: Vec<u64>,
}

/// The validated Discord settings; present when a token is configured.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Discord {
    /// The bot token (`token`, `MUSTER_DISCORD_TOKEN`).
    pub token: Secret,
    /// The application id (`application_id`, `MUSTER_DISCORD_APPLICATION_ID`).
    pub application_id: u64,
    /// Gateway or HTTP (`mode`, `MUSTER_DISCORD_MODE`).
    pub mode: Mode,
    /// The application's public key, hex (`public_key`, `MUSTER_DISCORD_PUBLIC_KEY`); needed
    /// in HTTP mode.
    pub public_key: Option<[u8; 32]>,
    /// Where the HTTP endpoint listens (`listen`, `MUSTER_DISCORD_LISTEN`).
    pub listen: String,
    /// Where commands are registered (`guild`, `MUSTER_DISCORD_GUILD`: a server id for
    /// development; absent for global).
    pub register: Register,
    /// A Discord API proxy to send REST calls through (`api_url`, `MUSTER_DISCORD_API_URL`).
    pub api_url: Option<String>,
    /// After how many milliseconds a reply showing a board is deferred while the board is drawn
    /// (`defer_after_ms`, `MUSTER_DISCORD_DEFER_AFTER_MS`; default 1000, 0 defers every reply
    /// with a board). Private replies (errors) are never deferred publicly. Discord allows
    /// 3 seconds for the first response.
    pub defer_after_ms: u64,
    /// Settings per server (`[discord.guilds.<id>]`).
    pub guilds: BTreeMap<u64, Guild>,
    /// The time control of games that name none (`clock`, `MUSTER_DISCORD_CLOCK`: `3d`,
    /// `10d+1d`, `none`; default: untimed).
    pub clock: Option<String>,
    /// Whether a run-out clock waits for the opponent's `claim` (`timeout = "claim"`,
    /// `MUSTER_DISCORD_TIMEOUT`) instead of ending the game (`"auto"`, the default).
    pub timeout_claim: bool,
    /// Channels with their own default time control (`[discord.channel_clocks]`, channel id =
    /// control).
    pub channel_clocks: BTreeMap<u64, String>,
    /// The gateway shards this instance runs (`shards`, `MUSTER_DISCORD_SHARDS`); `None`: the
    /// bot is not sharded (one connection).
    pub shards: Option<Shards>,
    /// The channel under which a game challenged from another platform gets its thread
    /// (`games_channel`, `MUSTER_DISCORD_GAMES_CHANNEL`); `None`: such games cannot be played
    /// on Discord.
    pub games_channel: Option<u64>,
}

/// What `[discord]` may contain.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct File {
    token: Option<String>,
    application_id: Option<String>,
    mode: Option<String>,
    public_key: Option<String>,
    listen: Option<String>,
    guild: Option<String>,
    api_url: Option<String>,
    defer_after_ms: Option<u64>,
    #[serde(default)]
    guilds: BTreeMap<String, GuildFile>,
    clock: Option<String>,
    timeout: Option<String>,
    #[serde(default)]
    channel_clocks: BTreeMap<String, String>,
    shards: Option<String>,
    games_channel: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct GuildFile {
    games: Option<Vec<String>>,
    #[serde(default)]
    organisers: Vec<String>,
}

/// The raw values, file first, then the environment over them.
#[derive(Default)]
pub(crate) struct Raw {
    token: Option<(String, String)>,
    application_id: Option<(String, String)>,
    mode: Option<(String, String)>,
    public_key: Option<(String, String)>,
    listen: Option<(String, String)>,
    guild: Option<(String, String)>,
    api_url: Option<(String, String)>,
    defer_after_ms: Option<(String, String)>,
    guilds: BTreeMap<String, GuildFile>,
    clock: Option<(String, String)>,
    timeout: Option<(String, String)>,
    channel_clocks: BTreeMap<String, String>,
    shards: Option<(String, String)>,
    games_channel: Option<(String, String)>,
}

const FILE: &str = "muster.toml";

impl Raw {
    pub(crate) fn from_file(file: File) -> Raw {
        let at = |v: Option<String>| v.map(|v| (FILE.to_string(), v));
        Raw {
            token: at(file.token),
            application_id: at(file.application_id),
            mode: at(file.mode),
            public_key: at(file.public_key),
            listen: at(file.listen),
            guild: at(file.guild),
            api_url: at(file.api_url),
            defer_after_ms: at(file.defer_after_ms.map(|v| v.to_string())),
            guilds: file.guilds,
            clock: at(file.clock),
            timeout: at(file.timeout),
            channel_clocks: file.channel_clocks,
            shards: at(file.shards),
            games_channel: at(file.games_channel),
        }
    }

    /// Takes `MUSTER_DISCORD_*`; false for any other variable.
    pub(crate) fn env(&mut self, key: &str, value: &str) -> bool {
        let slot = match key {
            "MUSTER_DISCORD_TOKEN" => &mut self.token,
            "MUSTER_DISCORD_APPLICATION_ID" => &mut self.application_id,
            "MUSTER_DISCORD_MODE" => &mut self.mode,
            "MUSTER_DISCORD_PUBLIC_KEY" => &mut self.public_key,
            "MUSTER_DISCORD_LISTEN" => &mut self.listen,
            "MUSTER_DISCORD_GUILD" => &mut self.guild,
            "MUSTER_DISCORD_API_URL" => &mut self.api_url,
            "MUSTER_DISCORD_DEFER_AFTER_MS" => &mut self.defer_after_ms,
            "MUSTER_DISCORD_CLOCK" => &mut self.clock,
            "MUSTER_DISCORD_TIMEOUT" => &mut self.timeout,
            "MUSTER_DISCORD_SHARDS" => &mut self.shards,
            "MUSTER_DISCORD_GAMES_CHANNEL" => &mut self.games_channel,
            _ => return false,
        };
        *slot = Some((key.to_string(), value.to_string()));
        true
    }

    /// The settings, or `None` when no token is set (Discord is off).
    pub(crate) fn build(self) -> Result<Option<Discord>, ConfigError> {
        let Some((source, token)) = self.token.filter(|(_, t)| !t.trim().is_empty()) else {
            return Ok(None);
        };
        let token = bot_token(&source, &token)?;
        let Some((src, app)) = self.application_id else {
            return Err(invalid(
                "MUSTER_DISCORD_APPLICATION_ID",
                "discord.application_id",
                "must be set when a Discord token is: the application id from the Developer Portal",
            ));
        };
        let application_id = snowflake(&src, "discord.application_id", &app)?;
        let mode = mode(self.mode)?;
        let public_key = public_key(self.public_key, mode)?;
        let listen = listen(self.listen)?;
        let register = match self.guild {
            None => Register::Global,
            Some((_, g)) if g.trim().is_empty() => Register::Global,
            Some((s, g)) => Register::Guild(snowflake(&s, "discord.guild", &g)?),
        };
        let api_url = api_url(self.api_url)?;
        let defer_after_ms = defer_after_ms(self.defer_after_ms)?;
        let shards = shards(self.shards, mode)?;
        let guilds = guilds(self.guilds)?;
        let clock = match self.clock {
            None => None,
            Some((s, c)) => Some(crate::check::check_clock(&s, "discord.clock", &c)?),
        };
        let timeout_claim = match self.timeout {
            None => false,
            Some((s, t)) => crate::check::check_timeout(&s, "discord.timeout", &t)?,
        };
        let mut channel_clocks = BTreeMap::new();
        for (id, c) in self.channel_clocks {
            let key = format!("discord.channel_clocks.{id}");
            let channel = snowflake(FILE, &key, &id)?;
            channel_clocks.insert(channel, crate::check::check_clock(FILE, &key, &c)?);
        }
        let games_channel = match self.games_channel {
            None => None,
            Some((_, c)) if c.trim().is_empty() => None,
            Some((s, c)) => Some(snowflake(&s, "discord.games_channel", &c)?),
        };
        Ok(Some(Discord {
            games_channel,
            clock,
            timeout_claim,
            channel_clocks,
            token: Secret(token),
            application_id,
            mode,
            public_key,
            listen,
            register,
            api_url,
            defer_after_ms,
            guilds,
            shards,
        }))
    }
}

/// The bot token, without the `Bot ` an operator may have copied with it.
fn bot_token(source: &str, token: &str) -> Result<String, ConfigError> {
    let token = token.trim().trim_start_matches("Bot ").to_string();
    if token.contains(char::is_whitespace) {
        return Err(invalid(
            source,
            "discord.token",
            "must be the bot token from the Developer Portal, without spaces",
        ));
    }
    Ok(token)
}

fn mode(given: Given) -> Result<Mode, ConfigError> {
    match given.as_ref().map(|(s, m)| (s, m.to_ascii_lowercase())) {
        None => Ok(Mode::Gateway),
        Some((_, m)) if m == "gateway" => Ok(Mode::Gateway),
        Some((_, m)) if m == "http" => Ok(Mode::Http),
        Some((s, _)) => Err(invalid(
            s,
            "discord.mode",
            "must be \"gateway\" or \"http\"",
        )),
    }
}

/// The application's public key, which HTTP mode needs to check what Discord signs.
fn public_key(given: Given, mode: Mode) -> Result<Option<[u8; 32]>, ConfigError> {
    let key = match given {
        None => None,
        Some((s, k)) => Some(hex32(k.trim()).ok_or_else(|| {
            invalid(
                &s,
                "discord.public_key",
                "must be the application's public key: 64 hexadecimal digits",
            )
        })?),
    };
    if mode == Mode::Http && key.is_none() {
        return Err(invalid(
            "MUSTER_DISCORD_PUBLIC_KEY",
            "discord.public_key",
            "must be set in HTTP mode: the application's public key from the Developer Portal",
        ));
    }
    Ok(key)
}

fn listen(given: Given) -> Result<String, ConfigError> {
    match given {
        None => Ok("127.0.0.1:8080".to_string()),
        Some((s, l)) if l.parse::<std::net::SocketAddr>().is_err() => Err(invalid(
            &s,
            "discord.listen",
            "must be an address and port, such as \"127.0.0.1:8080\"",
        )),
        Some((_, l)) => Ok(l),
    }
}

fn api_url(given: Given) -> Result<Option<String>, ConfigError> {
    let Some((s, u)) = given else {
        return Ok(None);
    };
    let u = u.trim().trim_end_matches('/').to_string();
    if !(u.starts_with("http://") || u.starts_with("https://")) {
        return Err(invalid(
            &s,
            "discord.api_url",
            "must be an http:// or https:// address",
        ));
    }
    Ok(Some(u))
}

fn defer_after_ms(given: Given) -> Result<u64, ConfigError> {
    let Some((s, v)) = given else {
        return Ok(1000);
    };
    v.trim()
        .parse::<u64>()
        .ok()
        .filter(|&v| v <= 2500)
        .ok_or_else(|| {
            invalid(
                &s,
                "discord.defer_after_ms",
                "must be a number of milliseconds from 0 to 2500",
            )
        })
}

/// The gateway's shards this instance connects, which HTTP mode has no use for.
fn shards(given: Given, mode: Mode) -> Result<Option<Shards>, ConfigError> {
    let shards = match given {
        None => None,
        Some((s, v)) => Some(Shards::parse(&v).ok_or_else(|| {
            invalid(
                &s,
                "discord.shards",
                format!(
                    "must be a shard and the count, such as \"0/2\", or a range of shards, \
                     such as \"0-1/4\" (each below the count), not \"{v}\""
                ),
            )
        })?),
    };
    if shards.is_some() && mode == Mode::Http {
        return Err(invalid(
            "MUSTER_DISCORD_SHARDS",
            "discord.shards",
            "is for gateway mode; in HTTP mode any instance answers any interaction",
        ));
    }
    Ok(shards)
}

/// `[discord.guilds.<id>]`: each server's games and organisers' roles, checked.
fn guilds(given: BTreeMap<String, GuildFile>) -> Result<BTreeMap<u64, Guild>, ConfigError> {
    let mut guilds = BTreeMap::new();
    for (id, g) in given {
        let key = format!("discord.guilds.{id}");
        let gid = snowflake(FILE, &key, &id)?;
        check_games(FILE, &key, g.games.as_deref())?;
        let organisers = g
            .organisers
            .iter()
            .map(|o| snowflake(FILE, &format!("{key}.organisers"), o))
            .collect::<Result<Vec<_>, _>>()?;
        let guild = Guild {
            games: g.games,
            organisers,
        };
        guilds.insert(gid, guild);
    }
    Ok(guilds)
}

fn snowflake(source: &str, key: &str, value: &str) -> Result<u64, ConfigError> {
    value
        .trim()
        .parse::<u64>()
        .ok()
        .filter(|&v| v > 0)
        .ok_or_else(|| ConfigError {
            source: source.into(),
            key: key.into(),
            reason: format!(
                "must be a Discord id (a number such as \"123456789012345678\"), not \"{value}\""
            ),
        })
}

fn hex32(text: &str) -> Option<[u8; 32]> {
    if text.len() != 64 || !text.is_ascii() {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}
