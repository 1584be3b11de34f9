//! The web pages' settings: `[web]` in `muster.toml` (`MUSTER_WEB_*`), and each community's
//! `web` (docs/web.md).

use std::net::SocketAddr;

use serde::Deserialize;

use crate::check::ConfigError;

/// What a community's games, events and players show on the web (`web` of
/// `[communities.<name>]`; a place outside every community has the default).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Visibility {
    /// Pages exist, reached only through the links the chat gives (the default).
    #[default]
    Links,
    /// As `Links`, and the community's index of live games and events is open to anyone.
    Public,
    /// No pages, no links.
    Off,
}

impl Visibility {
    /// The setting's word.
    pub fn name(self) -> &'static str {
        match self {
            Visibility::Links => "links",
            Visibility::Public => "public",
            Visibility::Off => "off",
        }
    }

    /// Reads a setting's word.
    pub fn parse(word: &str) -> Option<Visibility> {
        match word.trim().to_ascii_lowercase().as_str() {
            "links" => Some(Visibility::Links),
            "public" => Some(Visibility::Public),
            "off" => Some(Visibility::Off),
            _ => None,
        }
    }
}

/// The web listener.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Web {
    /// Where the pages are served (`[web] listen`, `MUSTER_WEB_LISTEN`).
    pub listen: SocketAddr,
    /// The address the links in the chat start with (`[web] base_url`,
    /// `MUSTER_WEB_BASE_URL`), without a trailing slash: the proxy's, when one is in front;
    /// by default `http://<listen>`.
    pub base_url: String,
    /// How many live streams one address may hold open at once (`[web] streams_per_address`,
    /// `MUSTER_WEB_STREAMS_PER_ADDRESS`; default 16).
    pub streams_per_address: usize,
    /// How many connections one address may hold open at once, an IPv6 client's /64 counted
    /// as one address (`[web] connections_per_address`, `MUSTER_WEB_CONNECTIONS_PER_ADDRESS`;
    /// default 64).
    pub connections_per_address: usize,
    /// How many connections the listener holds open in all (`[web] connections`,
    /// `MUSTER_WEB_CONNECTIONS`; default 4096), never more than half the process's open-files
    /// limit allows.
    pub connections: usize,
}

/// `[web]` as written.
#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub(crate) struct File {
    listen: Option<String>,
    base_url: Option<String>,
    streams_per_address: Option<u64>,
    connections_per_address: Option<u64>,
    connections: Option<u64>,
}

/// The settings as read from the file, then the environment; checked by [`Raw::build`].
#[derive(Default)]
pub(crate) struct Raw {
    listen: Option<(String, String)>,
    base_url: Option<(String, String)>,
    streams: Option<(String, String)>,
    connections_per_address: Option<(String, String)>,
    connections: Option<(String, String)>,
}

fn bad(source: &str, key: &str, reason: String) -> ConfigError {
    ConfigError {
        source: source.into(),
        key: key.into(),
        reason,
    }
}

impl Raw {
    /// The file's `[web]`.
    pub(crate) fn from_file(file: File) -> Raw {
        let at = |v: Option<String>| v.map(|v| ("muster.toml".to_string(), v));
        Raw {
            listen: at(file.listen),
            base_url: at(file.base_url),
            streams: at(file.streams_per_address.map(|n| n.to_string())),
            connections_per_address: at(file.connections_per_address.map(|n| n.to_string())),
            connections: at(file.connections.map(|n| n.to_string())),
        }
    }

    /// Takes `key` from the environment if it is one of these settings.
    pub(crate) fn env(&mut self, key: &str, value: &str) -> bool {
        let slot = match key {
            "MUSTER_WEB_LISTEN" => &mut self.listen,
            "MUSTER_WEB_BASE_URL" => &mut self.base_url,
            "MUSTER_WEB_STREAMS_PER_ADDRESS" => &mut self.streams,
            "MUSTER_WEB_CONNECTIONS_PER_ADDRESS" => &mut self.connections_per_address,
            "MUSTER_WEB_CONNECTIONS" => &mut self.connections,
            _ => return false,
        };
        *slot = Some((key.to_string(), value.to_string()));
        true
    }

    /// The web settings: `None` while `listen` is unset (or "off").
    pub(crate) fn build(self) -> Result<Option<Web>, ConfigError> {
        let Some((source, listen)) = self.listen else {
            return Ok(None);
        };
        let listen = listen.trim();
        if listen.is_empty() || listen == "off" {
            return Ok(None);
        }
        let listen: SocketAddr = listen.parse().map_err(|_| {
            bad(
                &source,
                "web.listen",
                format!(
                    "must be an address and port such as \"127.0.0.1:8080\" (or \"off\"), not \"{listen}\""
                ),
            )
        })?;
        let base_url = match self.base_url {
            None => format!("http://{listen}"),
            Some((source, url)) => {
                let url = url.trim().trim_end_matches('/');
                let scheme = url
                    .strip_prefix("https://")
                    .or_else(|| url.strip_prefix("http://"));
                let shaped = scheme.is_some_and(|rest| {
                    !rest.is_empty()
                        && !rest.contains(['?', '#'])
                        && !rest.chars().any(char::is_whitespace)
                });
                if !shaped {
                    return Err(bad(
                        &source,
                        "web.base_url",
                        format!(
                            "must be the pages' address as people reach it, such as \"https://games.example.org\", not \"{url}\""
                        ),
                    ));
                }
                url.to_string()
            }
        };
        let streams_per_address = count(self.streams, "web.streams_per_address", 16)?;
        let connections_per_address = count(
            self.connections_per_address,
            "web.connections_per_address",
            64,
        )?;
        let connections = count(self.connections, "web.connections", 4096)?;
        Ok(Some(Web {
            listen,
            base_url,
            streams_per_address,
            connections_per_address,
            connections,
        }))
    }
}

/// A number from 1 to 100000 set as `key` (`default` when unset).
fn count(set: Option<(String, String)>, key: &str, default: usize) -> Result<usize, ConfigError> {
    let Some((source, n)) = set else {
        return Ok(default);
    };
    n.trim()
        .parse::<usize>()
        .ok()
        .filter(|n| (1..=100_000).contains(n))
        .ok_or_else(|| {
            bad(
                &source,
                key,
                format!("must be a number from 1 to 100000, not \"{n}\""),
            )
        })
}

#[cfg(test)]
mod tests {
    use crate::Settings;

    use super::*;

    #[test]
    fn the_web_is_off_until_it_listens_and_its_links_follow_the_listener() {
        assert_eq!(Settings::load_from(None, &[]).unwrap().web, None);
        let s = Settings::load_from(Some("[web]\nlisten = \"127.0.0.1:8080\"\n"), &[]).unwrap();
        let web = s.web.unwrap();
        assert_eq!(web.base_url, "http://127.0.0.1:8080");
        assert_eq!(web.streams_per_address, 16);
        assert_eq!((web.connections_per_address, web.connections), (64, 4096));
        let s = Settings::load_from(
            Some("[web]\nlisten = \"127.0.0.1:8080\"\n"),
            &[
                ("MUSTER_WEB_BASE_URL", "https://games.example.org/"),
                ("MUSTER_WEB_STREAMS_PER_ADDRESS", "2000"),
                ("MUSTER_WEB_CONNECTIONS_PER_ADDRESS", "500"),
                ("MUSTER_WEB_CONNECTIONS", "9000"),
            ],
        )
        .unwrap();
        let web = s.web.unwrap();
        assert_eq!(web.base_url, "https://games.example.org");
        assert_eq!(web.streams_per_address, 2000);
        assert_eq!((web.connections_per_address, web.connections), (500, 9000));
        let e = Settings::load_from(
            Some("[web]\nlisten = \"127.0.0.1:8080\"\nconnections = 0\n"),
            &[],
        )
        .unwrap_err();
        assert_eq!(e.key, "web.connections");
        let e = Settings::load_from(None, &[("MUSTER_WEB_LISTEN", "localhost")]).unwrap_err();
        assert_eq!(
            (e.source.as_str(), e.key.as_str()),
            ("MUSTER_WEB_LISTEN", "web.listen")
        );
        let e = Settings::load_from(
            Some("[web]\nlisten = \"127.0.0.1:8080\"\nbase_url = \"games.example.org\"\n"),
            &[],
        )
        .unwrap_err();
        assert_eq!(e.key, "web.base_url");
        assert!(e.reason.contains("https://"), "{e}");
    }

    #[test]
    fn a_community_says_what_it_shows_on_the_web() {
        let s = Settings::load_from(
            Some(
                "[communities.club]\ndiscord = [\"7\"]\nweb = \"public\"\n\
                 [communities.quiet]\nmatrix = [\"*\"]\nweb = \"off\"\n\
                 [communities.plain]\ndiscord = [\"8\"]\n",
            ),
            &[],
        )
        .unwrap();
        let web: Vec<(&str, Visibility)> = s
            .communities
            .iter()
            .map(|c| (c.name.as_str(), c.web))
            .collect();
        assert_eq!(
            web,
            [
                ("club", Visibility::Public),
                ("plain", Visibility::Links),
                ("quiet", Visibility::Off)
            ]
        );
        let e = Settings::load_from(
            Some("[communities.club]\ndiscord = [\"7\"]\nweb = \"everyone\"\n"),
            &[],
        )
        .unwrap_err();
        assert_eq!(e.key, "communities.club.web");
    }
}
