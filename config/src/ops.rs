//! Operations settings: the logs' format, the operations listener, periodic backups
//! (docs/operations.md).

use std::net::SocketAddr;
use std::path::PathBuf;

use crate::check::ConfigError;

/// How log lines are written (`log_format`, `MUSTER_LOG_FORMAT`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum LogFormat {
    /// Readable lines (the default).
    #[default]
    Text,
    /// JSON lines.
    Json,
}

/// How Muster is run as a service.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Ops {
    /// The logs' format.
    pub log_format: LogFormat,
    /// Where the operations listener (`/healthz`, `/readyz`, `/metrics`, `POST /backup`)
    /// listens (`ops_listen`, `MUSTER_OPS_LISTEN`); off when `None`, the default.
    pub listen: Option<SocketAddr>,
    /// Where backups taken by a running Muster go (`backup_dir`, `MUSTER_BACKUP_DIR`); `None`:
    /// `<data_dir>/backups`.
    pub backup_dir: Option<PathBuf>,
    /// Seconds between periodic backups (`backup_every`, `MUSTER_BACKUP_EVERY`, such as "6h"
    /// or "1d"); `None` (the default): none taken unasked.
    pub backup_every: Option<u64>,
    /// How many backups to keep in the directory, the newest (`backup_keep`,
    /// `MUSTER_BACKUP_KEEP`; default 7).
    pub backup_keep: usize,
}

impl Default for Ops {
    fn default() -> Self {
        Ops {
            log_format: LogFormat::Text,
            listen: None,
            backup_dir: None,
            backup_every: None,
            backup_keep: 7,
        }
    }
}

fn bad(source: &str, key: &str, reason: String) -> ConfigError {
    ConfigError {
        source: source.into(),
        key: key.into(),
        reason,
    }
}

impl Ops {
    /// Sets `key` (a file key) from `value`, as read from `source`. `Ok(false)` for a key that
    /// is not one of these settings.
    pub(crate) fn set(
        &mut self,
        source: &str,
        key: &str,
        value: &str,
    ) -> Result<bool, ConfigError> {
        let v = value.trim();
        match key {
            "log_format" => {
                self.log_format = match v.to_ascii_lowercase().as_str() {
                    "text" => LogFormat::Text,
                    "json" => LogFormat::Json,
                    _ => {
                        return Err(bad(
                            source,
                            key,
                            format!("must be \"text\" or \"json\", not \"{value}\""),
                        ));
                    }
                }
            }
            "ops_listen" => {
                self.listen = match v {
                    "" | "off" => None,
                    _ => Some(v.parse().map_err(|_| {
                        bad(
                            source,
                            key,
                            format!(
                                "must be an address and port such as \"127.0.0.1:9100\" (or \"off\"), not \"{value}\""
                            ),
                        )
                    })?),
                }
            }
            "backup_dir" => {
                if v.is_empty() {
                    return Err(bad(source, key, "must name a directory, such as \"backups\"".into()));
                }
                self.backup_dir = Some(PathBuf::from(v));
            }
            "backup_every" => {
                self.backup_every = match v.to_ascii_lowercase().as_str() {
                    "" | "off" | "never" => None,
                    every => Some(interval(every).ok_or_else(|| {
                        bad(
                            source,
                            key,
                            format!(
                                "must be an interval of at least a minute such as \"6h\", \"1d\" or \"90m\" (or \"off\"), not \"{value}\""
                            ),
                        )
                    })?),
                }
            }
            "backup_keep" => {
                self.backup_keep = v
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=1000).contains(n))
                    .ok_or_else(|| {
                        bad(
                            source,
                            key,
                            format!("must be a number of backups from 1 to 1000, not \"{value}\""),
                        )
                    })?
            }
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// Seconds in an interval written as amounts with units (`1d12h`, `90m`, `30s`); at least a
/// minute.
fn interval(text: &str) -> Option<u64> {
    let mut total: u64 = 0;
    let mut number = String::new();
    for c in text.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let unit = match c {
            'd' => 86_400,
            'h' => 3_600,
            'm' => 60,
            's' => 1,
            _ => return None,
        };
        let n: u64 = number.parse().ok()?;
        number.clear();
        total = total.checked_add(n.checked_mul(unit)?)?;
    }
    (number.is_empty() && total >= 60).then_some(total)
}

#[cfg(test)]
mod tests {
    use crate::Settings;

    use super::*;

    #[test]
    fn operations_settings_are_read_and_checked() {
        let s = Settings::load_from(
            Some("ops_listen = \"127.0.0.1:9100\"\nbackup_every = \"1d12h\"\nlog_format = \"json\"\n"),
            &[("MUSTER_BACKUP_KEEP", "3"), ("MUSTER_BACKUP_DIR", "/srv/backups")],
        )
        .unwrap();
        assert_eq!(s.ops.listen, Some("127.0.0.1:9100".parse().unwrap()));
        assert_eq!(s.ops.backup_every, Some(129_600));
        assert_eq!(s.ops.backup_keep, 3);
        assert_eq!(s.ops.log_format, LogFormat::Json);
        assert_eq!(s.ops.backup_dir, Some(PathBuf::from("/srv/backups")));
        assert_eq!(Settings::load_from(None, &[]).unwrap().ops, Ops::default());
        let e = Settings::load_from(None, &[("MUSTER_OPS_LISTEN", "localhost")]).unwrap_err();
        assert_eq!(
            (e.source.as_str(), e.key.as_str()),
            ("MUSTER_OPS_LISTEN", "ops_listen")
        );
        let e = Settings::load_from(Some("backup_every = \"30s\"\n"), &[]).unwrap_err();
        assert!(e.reason.contains("at least a minute"), "{e}");
        let e = Settings::load_from(None, &[("MUSTER_BACKUP_KEEP", "0")]).unwrap_err();
        assert_eq!(e.key, "backup_keep");
        let e = Settings::load_from(None, &[("MUSTER_LOG_FORMAT", "xml")]).unwrap_err();
        assert!(e.reason.contains("\"json\""), "{e}");
    }
}
