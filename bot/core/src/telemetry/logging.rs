//! Logs: `tracing` events from Muster and from the crates it runs on (the chat clients; sled's
//! and the WebSocket crate's `log` records too), filtered by `RUST_LOG`
//! (default: info for Muster, warn for the libraries) and written to standard error, as
//! readable lines or, with `log_format = "json"`, as JSON lines.
//!
//! No secret reaches the output at any level: every line is scrubbed on its way out of the
//! configured secrets (a bot's token, an account's password), of those learnt while running
//! (an access token), and of the tokens that webhook and interaction paths carry (`/webhooks/<id>/<token>`, `/interactions/<id>/<token>`), whichever crate logged them.

use std::io::Write;
use std::sync::RwLock;

use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::MakeWriter;

/// The default filter: Muster's own events from `info`, the libraries' from `warn`. A target
/// is matched as a prefix, so `muster` names every crate of Muster (`muster_core`, an
/// adapter's `muster_<platform>`, the binary's `muster`).
pub const DEFAULT_FILTER: &str = "warn,muster=info";

/// The secrets to scrub, longest first (so that one containing another is scrubbed whole).
static SECRETS: RwLock<Vec<String>> = RwLock::new(Vec::new());

/// What a scrubbed secret becomes.
pub const HIDDEN: &str = "***";

/// Secrets shorter than this are not scrubbed: they would blank ordinary words of the log,
/// and are no secret worth the name.
const SHORTEST: usize = 4;

/// Never logs `secret` from now on (it is replaced by `***` wherever it appears).
pub fn redact(secret: &str) {
    let secret = secret.trim();
    if secret.len() < SHORTEST {
        return;
    }
    let mut secrets = SECRETS.write().unwrap_or_else(|p| p.into_inner());
    if !secrets.iter().any(|s| s == secret) {
        secrets.push(secret.to_string());
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
    }
}

/// `text` with every secret replaced by `***`.
pub fn scrub(text: &str) -> String {
    let mut out = text.to_string();
    for secret in SECRETS.read().unwrap_or_else(|p| p.into_inner()).iter() {
        if out.contains(secret.as_str()) {
            out = out.replace(secret.as_str(), HIDDEN);
        }
    }
    for route in ["/webhooks/", "/interactions/"] {
        out = scrub_route_tokens(&out, route);
    }
    for key in ["token", "password"] {
        out = scrub_keyed(&out, key);
    }
    out
}

/// Replaces the value given to a key ending in `key` (`"token":"…"`, `token: "…"`,
/// `access_token=…`, also inside escaped JSON): an interaction's token in a gateway frame or
/// in a library's debug output of a request, a password or an access token in a payload.
fn scrub_keyed(text: &str, key: &str) -> String {
    let is_value = |b: u8| b.is_ascii_alphanumeric() || b"-_.~+/=".contains(&b);
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(key) {
        let after = at + key.len();
        out.push_str(&rest[..after]);
        rest = &rest[after..];
        let sep = rest
            .bytes()
            .take(6)
            .take_while(|b| b"\\\": =".contains(b))
            .count();
        let separated = rest[..sep].contains([':', '=']);
        let value = rest[sep..].bytes().take_while(|b| is_value(*b)).count();
        // Short values are not secrets (`token: None`, `password: 0`).
        if separated && value >= 8 {
            out.push_str(&rest[..sep]);
            out.push_str(HIDDEN);
            rest = &rest[sep + value..];
        }
    }
    out.push_str(rest);
    out
}

/// Replaces the token in `<route><id>/<token>` wherever it appears (a webhook's or an
/// interaction's token: a credential for answering that interaction).
fn scrub_route_tokens(text: &str, route: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(route) {
        let after = at + route.len();
        out.push_str(&rest[..after]);
        rest = &rest[after..];
        let id_len = rest.bytes().take_while(u8::is_ascii_digit).count();
        if id_len == 0 || !rest[id_len..].starts_with('/') {
            continue;
        }
        out.push_str(&rest[..=id_len]);
        rest = &rest[id_len + 1..];
        let token_len = rest
            .bytes()
            .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
            .count();
        if token_len > 0 {
            out.push_str(HIDDEN);
            rest = &rest[token_len..];
        }
    }
    out.push_str(rest);
    out
}

/// Standard error, through [`scrub`]. The formatter hands each event over in one write.
struct Scrubbed;

impl Write for Scrubbed {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = scrub(&String::from_utf8_lossy(buf));
        std::io::stderr().lock().write_all(text.as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

struct ScrubbedStderr;

impl<'a> MakeWriter<'a> for ScrubbedStderr {
    type Writer = Scrubbed;

    fn make_writer(&'a self) -> Scrubbed {
        Scrubbed
    }
}

/// Counts every error and warning logged into `muster_errors_total`, by the part of Muster
/// (`core`, `clocks`, an adapter, …) or the library that logged it.
struct Counted;

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Counted {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        let level = *event.metadata().level();
        if level > tracing::Level::WARN {
            return;
        }
        let target = event.metadata().target();
        let mut parts = target.split("::");
        let first = parts.next().unwrap_or(target);
        let component = match first {
            // The core's parts by their folder (the desk's is `core`), an adapter by its
            // crate (`muster_web` is `web`), the binary's by its module.
            "muster_core" => match parts.next() {
                Some("desk") | None => "core",
                Some(part) => part,
            },
            "muster" => parts.next().unwrap_or("muster"),
            // `log` records keep their crate's name as the target.
            other => other.strip_prefix("muster_").unwrap_or(other),
        };
        let level = if level == tracing::Level::ERROR {
            "error"
        } else {
            "warn"
        };
        super::metrics::metrics().error(component, level);
    }
}

/// A kind of line a library writes that is no news to an operator, to be left out of the log:
/// its target, and a test of its message. An adapter registers those of its library
/// ([`quiet`]), with its reasons beside them.
pub struct Quiet {
    /// The event's target (its module path in the library).
    pub target: &'static str,
    /// Whether a message of that target is one to leave out.
    pub message: fn(&str) -> bool,
}

/// The kinds of line left out.
static QUIET: RwLock<Vec<Quiet>> = RwLock::new(Vec::new());

/// Leaves the lines `kind` describes out of the log from now on (and out of the error counts).
pub fn quiet(kind: Quiet) {
    QUIET.write().unwrap_or_else(|p| p.into_inner()).push(kind);
}

/// The layer that leaves out what [`quiet`] was given; every other line passes.
pub struct Quieted;

impl Quieted {
    fn vetoes(event: &tracing::Event<'_>) -> bool {
        let target = event.metadata().target();
        let kinds = QUIET.read().unwrap_or_else(|p| p.into_inner());
        if !kinds.iter().any(|k| k.target == target) {
            return false;
        }
        struct Message(String);
        impl tracing::field::Visit for Message {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                if field.name() == "message" {
                    self.0 = format!("{value:?}");
                }
            }
        }
        let mut message = Message(String::new());
        event.record(&mut message);
        kinds
            .iter()
            .any(|k| k.target == target && (k.message)(&message.0))
    }
}

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Quieted {
    fn event_enabled(
        &self,
        event: &tracing::Event<'_>,
        _: tracing_subscriber::layer::Context<'_, S>,
    ) -> bool {
        !Quieted::vetoes(event)
    }
}

/// The console's default: warnings only, since its log shares the terminal with the chat.
pub const CONSOLE_FILTER: &str = "warn";

/// Starts logging (once a process; later calls change nothing). `RUST_LOG`, when set and
/// valid, chooses what is logged; otherwise `default` ([`DEFAULT_FILTER`], or
/// [`CONSOLE_FILTER`]); an invalid `RUST_LOG` is reported and the default used.
pub fn init(format: muster_config::LogFormat, default: &str) {
    let (filter, bad) = match std::env::var("RUST_LOG") {
        Ok(spec) if !spec.trim().is_empty() => match EnvFilter::try_new(&spec) {
            Ok(f) => (f, None),
            Err(e) => (EnvFilter::new(default), Some(format!("{spec:?}: {e}"))),
        },
        _ => (EnvFilter::new(default), None),
    };
    use tracing_subscriber::Layer as _;
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::util::SubscriberInitExt as _;
    let lines = tracing_subscriber::fmt::layer()
        .with_writer(ScrubbedStderr)
        .with_ansi(false);
    let lines = match format {
        muster_config::LogFormat::Text => lines.boxed(),
        muster_config::LogFormat::Json => lines
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .boxed(),
    };
    let done = tracing_subscriber::registry()
        .with(filter)
        .with(Quieted)
        .with(lines)
        .with(Counted)
        .try_init();
    if done.is_ok()
        && let Some(why) = bad
    {
        tracing::warn!("RUST_LOG is not a valid filter ({why}); logging with {default}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_and_route_tokens_never_reach_the_log() {
        redact("sEcReT-t0ken.value");
        redact("ab");
        let line = "POST https://chat.example/api/v10/interactions/123456/aW50ZXJhY3Rpb246MTIz-_x/callback \
                    auth=Bot sEcReT-t0ken.value; /webhooks/99/tok.en_1/messages/@original ab";
        let out = scrub(line);
        assert!(!out.contains("sEcReT"), "{out}");
        assert!(!out.contains("aW50ZXJh"), "{out}");
        assert!(!out.contains("tok.en_1"), "{out}");
        assert!(out.contains("/interactions/123456/***/callback"), "{out}");
        assert!(out.contains("/webhooks/99/***/messages/@original"), "{out}");
        // Too short to be a secret: left alone rather than blanking words.
        assert!(out.ends_with(" ab"), "{out}");
        // A path without an id is not a token's.
        assert_eq!(scrub("/webhooks/new"), "/webhooks/new");
        // Tokens and passwords given as values, in JSON, in debug output, in escaped JSON.
        let line = r#"{"token":"aW50ZXJhY3Rpb246MTIz","d":1} route: Route { token: \"YWJjZGVmZ2hpams\" } access_token=syt_abc_123456 "password": "hunter2hunter2" the token is fine token: None"#;
        let out = scrub(line);
        for secret in ["aW50ZXJh", "YWJjZGVm", "syt_abc", "hunter2"] {
            assert!(!out.contains(secret), "{out}");
        }
        assert!(out.contains(r#"{"token":"***","d":1}"#), "{out}");
        assert!(out.ends_with("the token is fine token: None"), "{out}");
    }
}
