//! Gateway mode: Muster's own client of Discord's gateway, which delivers the interactions over
//! one WebSocket session that must live for weeks through dropped, stalled and reset
//! connections. It follows the gateway's protocol as Discord documents it:
//!
//! - a new session IDENTIFYs at the address `GET /gateway` gives; READY names the session and
//!   the address to resume it at (`resume_gateway_url`);
//! - heartbeats every interval (the first after a random part of one); a heartbeat not
//!   acknowledged by the time the next is due means a dead connection (a *zombie*): it is
//!   closed and the session RESUMEd on a new one, so the interactions Discord queued meanwhile
//!   are delivered, not lost;
//! - RECONNECT (op 7), a reset or dropped connection and any close that keeps the session
//!   valid are RESUMEd at the resume address; INVALID SESSION (op 9) is resumed when Discord
//!   says it may be, else the client IDENTIFYs afresh after 1–5 s; close codes 4007 and 4009
//!   start a new session; an authentication failure (4004) and the other fatal codes end the
//!   adapter with the reason;
//! - every interaction is handed to [`dispatch`] on its own task (the connection keeps
//!   its heartbeats while commands run), which answers each interaction id once — a resume may
//!   deliver one again;
//! - asked to stop, it finishes the interactions being answered, then closes the connection
//!   with code 1000 (Discord then shows the bot offline at once).
//!
//! The slash commands are registered once, at the first READY.

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use serenity::all as serenity;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;

use super::dispatch::dispatch;
use super::register::register;
use super::{STOP_WITHIN, Shared};

/// The gateway version and encoding asked for.
const QUERY: &str = "v=10&encoding=json";
/// The intents: none is needed for interactions; GUILDS keeps the session's events few.
const INTENTS: u64 = 1;
/// How long to wait for HELLO, and for a frame to be written.
const HANDSHAKE: Duration = Duration::from_secs(20);
/// The close code Muster uses for a connection it drops but whose session it will resume
/// (any code but 1000 and 1001 keeps the session).
const RESUMABLE_CLOSE: u16 = 4000;

/// A gateway session that may be resumed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    /// The session's id (READY).
    pub id: String,
    /// Where to resume it (READY's `resume_gateway_url`).
    pub resume_url: String,
    /// The last sequence number received.
    pub seq: Option<u64>,
}

/// How a connection ended, and what to do next.
#[derive(Debug, PartialEq, Eq)]
pub enum End {
    /// Resume the session (if there is one) on a new connection.
    Resume,
    /// Start a new session after the pause.
    Fresh(Duration),
    /// The process was asked to stop, and the connection was closed.
    Stopped,
    /// Give up: the reason.
    Fatal(String),
}

/// What a close code from Discord means for the session.
pub fn on_close(code: u16) -> End {
    match code {
        4004 => End::Fatal("Discord refused the token (close 4004): check discord.token".into()),
        4010 => End::Fatal("Discord refused the shard (close 4010)".into()),
        4011 => End::Fatal("Discord requires sharding for this bot (close 4011)".into()),
        4012 => End::Fatal("Discord refused the gateway version (close 4012)".into()),
        4013 | 4014 => End::Fatal(format!(
            "Discord refused the intents (close {code}): check the bot's settings in the developer portal"
        )),
        // An invalid sequence, or a session that timed out: a new session.
        4007 | 4009 => End::Fresh(Duration::ZERO),
        _ => End::Resume,
    }
}

/// The address to connect to: `base` with the version and encoding asked for.
pub fn address(base: &str) -> String {
    let base = base.trim_end_matches('/');
    if base.contains('?') {
        format!("{base}&{QUERY}")
    } else {
        format!("{base}/?{QUERY}")
    }
}

/// A number in [0, 1) that differs from run to run (heartbeat jitter, reconnect pauses).
fn jitter() -> f64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos()),
    );
    (h.finish() >> 11) as f64 / (1u64 << 53) as f64
}

/// Connects to the gateway and serves until the process is asked to stop (`Ok`) or Discord
/// refuses the bot for good (`Err`).
pub async fn run(shared: Arc<Shared>, http: Arc<serenity::Http>) -> Result<(), String> {
    let Some(shards) = shared.settings.shards else {
        return run_shard(shared, http, None).await;
    };
    // One session per shard, side by side; the first to fail ends the adapter.
    let mut sessions = tokio::task::JoinSet::new();
    for shard in shards.each() {
        sessions.spawn(run_shard(
            Arc::clone(&shared),
            Arc::clone(&http),
            Some(shard),
        ));
    }
    while let Some(ended) = sessions.join_next().await {
        ended.map_err(|e| format!("a gateway shard stopped: {e}"))??;
    }
    Ok(())
}

/// One gateway session (of the shard `[id, count]`, if the bot is sharded), for as long as the
/// process runs.
async fn run_shard(
    shared: Arc<Shared>,
    http: Arc<serenity::Http>,
    shard: Option<[u32; 2]>,
) -> Result<(), String> {
    let mut stop = std::pin::pin!(muster_core::signals::shutdown());
    // The commands are registered by the first shard's session only (once for all).
    let registered = shard.is_some_and(|[id, _]| id != 0);
    if let Some([id, count]) = shard {
        tracing::info!("running gateway shard {id} of {count}");
    }
    let mut client = Client {
        shared,
        http,
        session: None,
        registered,
        shard,
    };
    let mut pause = Duration::ZERO;
    let mut failures = 0u32;
    loop {
        if !pause.is_zero() {
            tokio::select! {
                () = tokio::time::sleep(pause) => {}
                () = &mut stop => return Ok(()),
            }
        }
        let url = match &client.session {
            Some(s) => s.resume_url.clone(),
            None => match client.http.get_gateway().await {
                Ok(g) => g.url,
                Err(e) => {
                    failures += 1;
                    pause = backoff(failures);
                    muster_core::telemetry::health::down(
                        "discord",
                        &format!("cannot ask for the gateway's address ({e})"),
                    );
                    tracing::warn!(
                        "cannot ask for the gateway's address ({e}); trying again in {} s",
                        pause.as_secs()
                    );
                    continue;
                }
            },
        };
        let started = Instant::now();
        let end = client.connection(&url, &mut stop).await;
        if !matches!(end, End::Stopped) {
            muster_core::telemetry::health::down(
                "discord",
                "the gateway connection is down (reconnecting)",
            );
        }
        // A connection that lived a while resets the count of failures in a row.
        if started.elapsed() > Duration::from_secs(60) {
            failures = 0;
        }
        pause = match end {
            End::Stopped => return Ok(()),
            End::Fatal(why) => return Err(why),
            End::Resume if failures == 0 => {
                failures += 1;
                Duration::ZERO
            }
            End::Resume => {
                failures += 1;
                backoff(failures)
            }
            End::Fresh(wait) => {
                client.session = None;
                failures += 1;
                wait.max(backoff(failures.saturating_sub(1)))
            }
        };
    }
}

/// The pause before the `n`th attempt in a row: nothing for the first, then doubling from one
/// second to a minute.
fn backoff(n: u32) -> Duration {
    match n {
        0 | 1 => Duration::ZERO,
        n => Duration::from_secs(1 << (n - 2).min(6)).min(Duration::from_secs(60)),
    }
}

/// The client's state between connections.
struct Client {
    shared: Arc<Shared>,
    http: Arc<serenity::Http>,
    session: Option<Session>,
    registered: bool,
    /// `[id, count]` when the bot is sharded.
    shard: Option<[u32; 2]>,
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A text frame to send.
fn frame(op: u8, d: Value) -> Message {
    Message::Text(json!({ "op": op, "d": d }).to_string())
}

/// Writes `message`, giving up after [`HANDSHAKE`] (a dead connection may not take it).
async fn send(ws: &mut Socket, message: Message) -> bool {
    matches!(
        tokio::time::timeout(HANDSHAKE, ws.send(message)).await,
        Ok(Ok(()))
    )
}

/// Closes the connection with `code` (not waiting long for Discord's answer).
async fn close(ws: &mut Socket, code: u16, reason: &'static str) {
    let frame = CloseFrame {
        code: code.into(),
        reason: reason.into(),
    };
    let _ = tokio::time::timeout(Duration::from_secs(2), ws.close(Some(frame))).await;
}

impl Client {
    /// One connection: HELLO, IDENTIFY or RESUME, then events until it ends.
    async fn connection(
        &mut self,
        url: &str,
        stop: &mut std::pin::Pin<&mut impl Future<Output = ()>>,
    ) -> End {
        let (mut ws, interval) = match self.open(url).await {
            Ok(opened) => opened,
            Err(end) => return end,
        };
        let mut beat = Instant::now() + interval.mul_f64(jitter());
        let mut acknowledged = true;
        loop {
            let incoming = tokio::select! {
                () = tokio::time::sleep_until(beat) => {
                    if !acknowledged {
                        tracing::warn!("the gateway stopped answering heartbeats; resuming on a new connection");
                        close(&mut ws, RESUMABLE_CLOSE, "zombied").await;
                        return End::Resume;
                    }
                    acknowledged = false;
                    beat += interval;
                    if !send(&mut ws, self.heartbeat()).await {
                        return End::Resume;
                    }
                    continue;
                }
                m = ws.next() => m,
                () = stop.as_mut() => {
                    self.shared.drained(STOP_WITHIN).await;
                    close(&mut ws, 1000, "stopping").await;
                    tracing::info!("stopping");
                    return End::Stopped;
                }
            };
            let text = match text_of(incoming) {
                Ok(Some(text)) => text,
                Ok(None) => continue,
                Err(end) => return end,
            };
            let Ok(event) = serde_json::from_str::<Value>(&text) else {
                continue;
            };
            if event["op"].as_u64() == Some(11) {
                acknowledged = true;
            } else if let Some(end) = self.on_event(&mut ws, &event).await {
                return end;
            }
        }
    }

    /// Connects to `url`, waits for HELLO and greets the gateway: the socket and the heartbeat
    /// interval, or how the attempt ended.
    async fn open(&self, url: &str) -> Result<(Socket, Duration), End> {
        let connected =
            tokio::time::timeout(HANDSHAKE, tokio_tungstenite::connect_async(address(url))).await;
        let mut ws = match connected {
            Ok(Ok((ws, _))) => ws,
            Ok(Err(e)) => {
                tracing::warn!("cannot connect to the gateway at {url}: {e}");
                return Err(End::Resume);
            }
            Err(_) => {
                tracing::warn!("the gateway at {url} did not answer");
                return Err(End::Resume);
            }
        };
        let Some(interval) = hello(&mut ws).await else {
            tracing::warn!("the gateway sent no HELLO");
            close(&mut ws, RESUMABLE_CLOSE, "no hello").await;
            return Err(End::Resume);
        };
        if !send(&mut ws, self.greeting()).await {
            return Err(End::Resume);
        }
        Ok((ws, interval))
    }

    /// RESUME for a session that may be resumed, else IDENTIFY.
    fn greeting(&self) -> Message {
        let token = self.shared.settings.token.expose().to_string();
        match &self.session {
            Some(s) => frame(
                6,
                json!({ "token": token, "session_id": s.id, "seq": s.seq }),
            ),
            None => {
                let mut identify = json!({
                    "token": token,
                    "intents": INTENTS,
                    "properties": {
                        "os": std::env::consts::OS,
                        "browser": "muster",
                        "device": "muster",
                    },
                });
                if let Some(shard) = self.shard {
                    identify["shard"] = json!(shard);
                }
                frame(2, identify)
            }
        }
    }

    /// What an event (other than a heartbeat's acknowledgement) asks for: nothing more, or the
    /// end of the connection.
    async fn on_event(&mut self, ws: &mut Socket, event: &Value) -> Option<End> {
        match event["op"].as_u64() {
            Some(0) => self.dispatch(event).await,
            Some(1) if !send(ws, self.heartbeat()).await => return Some(End::Resume),
            Some(7) => {
                tracing::info!("the gateway asks to reconnect; resuming");
                close(ws, RESUMABLE_CLOSE, "reconnect").await;
                return Some(End::Resume);
            }
            Some(9) => {
                close(ws, RESUMABLE_CLOSE, "invalid session").await;
                if event["d"].as_bool() == Some(true) && self.session.is_some() {
                    tracing::info!("the session was interrupted; resuming");
                    return Some(End::Resume);
                }
                tracing::warn!("the session is no longer valid; starting a new one");
                return Some(End::Fresh(
                    Duration::from_secs(1).mul_f64(1.0 + 4.0 * jitter()),
                ));
            }
            _ => {}
        }
        None
    }

    fn heartbeat(&self) -> Message {
        let seq = self.session.as_ref().and_then(|s| s.seq);
        frame(1, json!(seq))
    }

    /// An event (op 0): the session's bookkeeping, and interactions handed on.
    async fn dispatch(&mut self, event: &Value) {
        let seq = event["s"].as_u64();
        if let (Some(s), Some(seq)) = (self.session.as_mut(), seq) {
            s.seq = Some(seq);
        }
        match event["t"].as_str() {
            Some("READY") => {
                let d = &event["d"];
                self.session = Some(Session {
                    id: d["session_id"].as_str().unwrap_or_default().to_string(),
                    resume_url: d["resume_gateway_url"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string(),
                    seq,
                });
                let name = d["user"]["username"].as_str().unwrap_or("?");
                tracing::info!("connected as {name} (gateway)");
                muster_core::telemetry::health::ready("discord");
                if !self.registered {
                    self.registered = true;
                    if let Err(e) = register(&self.http, &self.shared).await {
                        tracing::error!("{e}");
                    }
                }
            }
            Some("RESUMED") => {
                tracing::info!("the session was resumed");
                muster_core::telemetry::health::ready("discord");
            }
            Some("INTERACTION_CREATE") => match super::read_interaction(&event["d"]) {
                Ok(interaction) => {
                    let (shared, http) = (Arc::clone(&self.shared), Arc::clone(&self.http));
                    let answering = super::answering(&shared);
                    tokio::spawn(async move {
                        dispatch(&shared, &http, &interaction).await;
                        drop(answering);
                    });
                }
                Err(e) => tracing::warn!(
                    "an interaction could not be read ({e}): {}",
                    super::loggable(&event["d"], 2000)
                ),
            },
            _ => {}
        }
    }
}

/// The text of what the connection delivered: `None` for a frame without any (a ping), or how
/// the connection ended.
fn text_of(
    incoming: Option<Result<Message, tokio_tungstenite::tungstenite::Error>>,
) -> Result<Option<String>, End> {
    match incoming {
        Some(Ok(Message::Text(text))) => Ok(Some(text)),
        Some(Ok(Message::Binary(bytes))) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
        Some(Ok(Message::Close(frame))) => {
            let code = frame.as_ref().map_or(1005, |f| u16::from(f.code));
            let end = on_close(code);
            if matches!(end, End::Fatal(_)) {
                tracing::error!("the gateway closed the connection ({code}): {end:?}");
            } else {
                tracing::warn!("the gateway closed the connection ({code}): {end:?}");
            }
            Err(end)
        }
        Some(Ok(_)) => Ok(None),
        Some(Err(e)) => {
            tracing::warn!("the gateway connection failed ({e}); resuming");
            Err(End::Resume)
        }
        None => {
            tracing::warn!("the gateway connection ended; resuming");
            Err(End::Resume)
        }
    }
}

/// Waits for HELLO; the heartbeat interval it gives.
async fn hello(ws: &mut Socket) -> Option<Duration> {
    let deadline = Instant::now() + HANDSHAKE;
    loop {
        let m = tokio::time::timeout_at(deadline, ws.next()).await.ok()??;
        let text = match m.ok()? {
            Message::Text(t) => t,
            Message::Binary(b) => String::from_utf8_lossy(&b).into_owned(),
            Message::Close(_) => return None,
            _ => continue,
        };
        let event: Value = serde_json::from_str(&text).ok()?;
        if event["op"].as_u64() == Some(10) {
            let ms = event["d"]["heartbeat_interval"].as_u64()?;
            return Some(Duration::from_millis(ms.max(100)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_codes_decide_between_resuming_starting_anew_and_giving_up() {
        assert_eq!(on_close(4000), End::Resume);
        assert_eq!(on_close(1006), End::Resume);
        assert_eq!(on_close(4009), End::Fresh(Duration::ZERO));
        assert_eq!(on_close(4007), End::Fresh(Duration::ZERO));
        assert!(matches!(on_close(4004), End::Fatal(why) if why.contains("token")));
        for code in 4010..=4014 {
            assert!(matches!(on_close(code), End::Fatal(_)), "{code}");
        }
    }

    #[test]
    fn addresses_ask_for_version_10_in_json() {
        assert_eq!(
            address("wss://gateway.discord.gg"),
            "wss://gateway.discord.gg/?v=10&encoding=json"
        );
        assert_eq!(
            address("ws://127.0.0.1:9/"),
            "ws://127.0.0.1:9/?v=10&encoding=json"
        );
        assert_eq!(address("ws://h/?x=1"), "ws://h/?x=1&v=10&encoding=json");
        assert_eq!(backoff(1), Duration::ZERO);
        assert_eq!(backoff(2), Duration::from_secs(1));
        assert_eq!(backoff(30), Duration::from_secs(60));
        let j = jitter();
        assert!((0.0..1.0).contains(&j));
    }
}
