//! `muster config check`: the settings loaded and validated as `muster serve` loads them
//! (muster.toml, then `MUSTER_*` variables over it), printed as the TOML they amount to, every
//! default filled in and every secret shown as `***`.

use std::fmt::Write as _;

use muster_config::{Discord, Login, Matrix, Mode, Register, Settings, Shards};

fn quoted(s: &str) -> String {
    format!("{s:?}")
}

fn list<T: std::fmt::Display>(items: &[T], quote: bool) -> String {
    let parts: Vec<String> = items
        .iter()
        .map(|i| {
            if quote {
                quoted(&i.to_string())
            } else {
                i.to_string()
            }
        })
        .collect();
    format!("[{}]", parts.join(", "))
}

/// The effective settings as TOML, secrets masked.
pub fn effective(s: &Settings) -> String {
    let mut out = String::new();
    general(&mut out, s);
    operations(&mut out, s);
    match &s.discord {
        None => out.push_str("\n# [discord]: not configured (no token)\n"),
        Some(d) => {
            discord(&mut out, d);
            discord_tables(&mut out, d);
        }
    }
    match &s.matrix {
        None => out.push_str("\n# [matrix]: not configured (no homeserver)\n"),
        Some(m) => {
            matrix(&mut out, m);
            matrix_rooms(&mut out, m);
        }
    }
    match &s.web {
        None => out.push_str("\n# [web]: not served (no listen)\n"),
        Some(w) => {
            out.push_str("\n[web]\n");
            let _ = writeln!(out, "listen = {}", quoted(&w.listen.to_string()));
            let _ = writeln!(out, "base_url = {}", quoted(&w.base_url));
            let _ = writeln!(out, "streams_per_address = {}", w.streams_per_address);
            let _ = writeln!(
                out,
                "connections_per_address = {}",
                w.connections_per_address
            );
            let _ = writeln!(out, "connections = {}", w.connections);
        }
    }
    for c in &s.communities {
        let _ = writeln!(out, "\n[communities.{}]", c.name);
        let ids: Vec<String> = c.discord.iter().map(u64::to_string).collect();
        let _ = writeln!(out, "discord = {}", list(&ids, true));
        let _ = writeln!(out, "matrix = {}", list(&c.matrix, true));
        let _ = writeln!(out, "organisers = {}", list(&c.organisers, true));
        let _ = writeln!(out, "web = {}", quoted(c.web.name()));
    }
    out
}

/// What the settings allow but an operator most likely did not mean, each a sentence saying
/// what to do: a Matrix account that accepts nobody's invitation, two listeners on one address.
pub fn warnings(s: &Settings) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(m) = &s.matrix
        && auto_join(m).is_empty()
    {
        out.push(format!(
            "`matrix.auto_join` is empty, so the bot declines every invitation: name who may \
             invite it (`auto_join = [\"@you:example.org\"]`, a whole server `\"example.org\"`, \
             or `\"*\"` for anyone), then invite {} to your room",
            m.user
        ));
    }
    let mut listeners: Vec<(&str, std::net::SocketAddr)> = Vec::new();
    if let Some(addr) = s.ops.listen {
        listeners.push(("ops_listen", addr));
    }
    if let Some(w) = &s.web {
        listeners.push(("web.listen", w.listen));
    }
    if let Some(d) = &s.discord
        && d.mode == Mode::Http
        && let Ok(addr) = d.listen.parse()
    {
        listeners.push(("discord.listen", addr));
    }
    for (i, (a, at)) in listeners.iter().enumerate() {
        for (b, bt) in &listeners[i + 1..] {
            let same_ip =
                at.ip() == bt.ip() || at.ip().is_unspecified() || bt.ip().is_unspecified();
            if at.port() != 0 && at.port() == bt.port() && same_ip {
                out.push(format!(
                    "`{a}` ({at}) and `{b}` ({bt}) would listen on one address, and only one \
                     of them can: give each its own port"
                ));
            }
        }
    }
    out
}

/// The top-level keys: where data is kept, the prefix, the vacation allowance, the log format.
fn general(out: &mut String, s: &Settings) {
    let _ = writeln!(out, "data_dir = {}", quoted(&s.data_dir.to_string_lossy()));
    let _ = writeln!(out, "store = {}", quoted(&s.store.shown()));
    let _ = writeln!(out, "prefix = {}", quoted(&s.prefix));
    let _ = writeln!(out, "vacation_days = {}", s.vacation_days);
    let format = match s.ops.log_format {
        muster_config::LogFormat::Text => "text",
        muster_config::LogFormat::Json => "json",
    };
    let _ = writeln!(out, "log_format = {}", quoted(format));
}

/// The operations keys: the listener and the backups, each one off said as a comment.
fn operations(out: &mut String, s: &Settings) {
    match s.ops.listen {
        Some(addr) => {
            let _ = writeln!(out, "ops_listen = {}", quoted(&addr.to_string()));
        }
        None => out.push_str("# ops_listen: off (no operations listener)\n"),
    }
    match &s.ops.backup_dir {
        Some(dir) => {
            let _ = writeln!(out, "backup_dir = {}", quoted(&dir.to_string_lossy()));
        }
        None => {
            let dir = s.data_dir.join("backups");
            let _ = writeln!(
                out,
                "# backup_dir: {} (in the data directory)",
                dir.display()
            );
        }
    }
    match s.ops.backup_every {
        Some(every) => {
            let _ = writeln!(out, "backup_every = \"{}m\"", every / 60);
        }
        None => out.push_str("# backup_every: off (backups only when asked)\n"),
    }
    let _ = writeln!(out, "backup_keep = {}", s.ops.backup_keep);
}

/// The `[discord]` table's own keys, the secrets masked.
fn discord(out: &mut String, d: &Discord) {
    out.push_str("\n[discord]\n");
    let _ = writeln!(out, "token = \"{}\"", d.token);
    let _ = writeln!(out, "application_id = \"{}\"", d.application_id);
    let mode = match d.mode {
        Mode::Gateway => "gateway",
        Mode::Http => "http",
    };
    let _ = writeln!(out, "mode = {}", quoted(mode));
    if d.public_key.is_some() {
        out.push_str("public_key = \"***\"\n");
    }
    let _ = writeln!(out, "listen = {}", quoted(&d.listen));
    match d.register {
        Register::Global => out.push_str("# commands registered globally\n"),
        Register::Guild(g) => {
            let _ = writeln!(out, "guild = \"{g}\"");
        }
    }
    if let Some(url) = &d.api_url {
        let _ = writeln!(out, "api_url = {}", quoted(url));
    }
    let _ = writeln!(out, "defer_after_ms = {}", d.defer_after_ms);
    if let Some(sh) = d.shards {
        let _ = writeln!(out, "shards = \"{}/{}\"", shard_ids(&sh), sh.count);
    }
    match &d.clock {
        Some(c) => {
            let _ = writeln!(out, "clock = {}", quoted(c));
        }
        None => out.push_str("# clock: games untimed unless they name one\n"),
    }
    match d.games_channel {
        Some(c) => {
            let _ = writeln!(out, "games_channel = \"{c}\"");
        }
        None => out.push_str("# games_channel: no games challenged from another platform\n"),
    }
    let timeout = if d.timeout_claim { "claim" } else { "auto" };
    let _ = writeln!(out, "timeout = {}", quoted(timeout));
}

/// The shards an instance runs as the setting writes them: `2`, or `0-1`.
fn shard_ids(sh: &Shards) -> String {
    if sh.first == sh.last {
        sh.first.to_string()
    } else {
        format!("{}-{}", sh.first, sh.last)
    }
}

/// The tables under `[discord]`: the channels' own clocks, then each server's settings.
fn discord_tables(out: &mut String, d: &Discord) {
    if !d.channel_clocks.is_empty() {
        out.push_str("\n[discord.channel_clocks]\n");
        for (channel, clock) in &d.channel_clocks {
            let _ = writeln!(out, "\"{channel}\" = {}", quoted(clock));
        }
    }
    for (id, g) in &d.guilds {
        let _ = writeln!(out, "\n[discord.guilds.\"{id}\"]");
        if let Some(games) = &g.games {
            let _ = writeln!(out, "games = {}", list(games, true));
        }
        let _ = writeln!(out, "organisers = {}", list(&g.organisers, true));
    }
}

/// The `[matrix]` table's own keys, the password or access token masked.
fn matrix(out: &mut String, m: &Matrix) {
    out.push_str("\n[matrix]\n");
    let _ = writeln!(out, "homeserver = {}", quoted(&m.homeserver));
    let _ = writeln!(out, "user = {}", quoted(&m.user));
    match &m.login {
        Login::Password(_) => out.push_str("password = \"***\"\n"),
        Login::Token(_) => out.push_str("access_token = \"***\"\n"),
    }
    let _ = writeln!(out, "device_name = {}", quoted(&m.device_name));
    if m.recovery_key.is_some() {
        out.push_str("recovery_key = \"***\"\n");
    }
    if let Some(p) = &m.prefix {
        let _ = writeln!(out, "prefix = {}", quoted(p));
    }
    let _ = writeln!(out, "auto_join = {}", list(&auto_join(m), true));
    let _ = writeln!(out, "organisers = {}", list(&m.organisers, true));
    let _ = writeln!(out, "rate_per_minute = {}", m.rate_per_minute);
    let _ = writeln!(out, "rate_burst = {}", m.rate_burst);
    let _ = writeln!(out, "clock = {}", quoted(&m.clock));
    let timeout = if m.timeout_claim { "claim" } else { "auto" };
    let _ = writeln!(out, "timeout = {}", quoted(timeout));
}

/// Whose invitations are accepted, as `auto_join` lists them: `*` for everyone, then the users,
/// then the servers.
fn auto_join(m: &Matrix) -> Vec<String> {
    let mut auto_join: Vec<String> = Vec::new();
    if m.auto_join.everyone {
        auto_join.push("*".into());
    }
    auto_join.extend(m.auto_join.users.iter().cloned());
    auto_join.extend(m.auto_join.servers.iter().cloned());
    auto_join
}

/// A table for each room with settings of its own.
fn matrix_rooms(out: &mut String, m: &Matrix) {
    for (id, r) in &m.rooms {
        let _ = writeln!(out, "\n[matrix.rooms.{}]", quoted(id));
        if let Some(p) = &r.prefix {
            let _ = writeln!(out, "prefix = {}", quoted(p));
        }
        if let Some(games) = &r.games {
            let _ = writeln!(out, "games = {}", list(games, true));
        }
        if let Some(c) = &r.clock {
            let _ = writeln!(out, "clock = {}", quoted(c));
        }
        if let Some(c) = &r.community {
            let _ = writeln!(out, "community = {}", quoted(c));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_masked_and_defaults_shown() {
        let file = "prefix = \"?\"\n\
                    [discord]\ntoken = \"Bot.sekrit-token\"\napplication_id = \"1234\"\n\
                    [matrix]\nhomeserver = \"https://m.example.org\"\nuser = \"@muster:example.org\"\n\
                    password = \"hunter2-password\"\n\
                    [matrix.rooms.\"!abc:example.org\"]\ncommunity = \"club\"\n\
                    [communities.club]\ndiscord = [\"42\"]\nmatrix = [\"club\"]\n";
        let s = Settings::load_from(Some(file), &[]).expect("valid");
        let shown = effective(&s);
        assert!(
            !shown.contains("sekrit") && !shown.contains("hunter2"),
            "{shown}"
        );
        assert!(shown.contains("token = \"***\""), "{shown}");
        assert!(shown.contains("password = \"***\""), "{shown}");
        assert!(shown.contains("prefix = \"?\""), "{shown}");
        assert!(shown.contains("vacation_days = 30"), "{shown}");
        assert!(shown.contains("clock = \"3d\""), "{shown}");
        assert!(shown.contains("community = \"club\""), "{shown}");
        assert!(
            shown.contains("[communities.club]\ndiscord = [\"42\"]"),
            "{shown}"
        );
        // What is printed reads back as the same settings.
        let again = Settings::load_from(
            Some(
                &shown
                    .replace("token = \"***\"", "token = \"Bot.sekrit-token\"")
                    .replace("password = \"***\"", "password = \"hunter2-password\""),
            ),
            &[],
        )
        .expect("the printed settings read back");
        assert_eq!(again, s);
    }
}
