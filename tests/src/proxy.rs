//! A reverse proxy on 127.0.0.1 in front of the test homeserver, through which the bot under
//! test talks to it. It records every request, and it can kill the bot (SIGKILL) at an exact
//! moment of one of them:
//!
//! - [`Trap::BeforeBoard`]: when the bot sends a board (an `m.image` message), before the
//!   request reaches the homeserver;
//! - [`Trap::AfterBoard`]: when the homeserver has stored the board, before the bot hears so;
//! - [`Trap::MidUpload`]: while the bot uploads a file, after half of it has arrived; the
//!   homeserver never gets it;
//! - [`Trap::BeforeCreateRoom`] and [`Trap::AfterCreateRoom`]: as the bot asks for a room, before
//!   the homeserver has the request, or once the homeserver has made it, before the bot hears so
//!   (it never learns the room's id: from the moment it asks, no sync reaches it either, so
//!   that its client never hears of the room);
//! - [`Trap::BeforeText`] and [`Trap::AfterText`]: as a message whose body contains a given text
//!   is sent, before the homeserver has it, or once it has stored it;
//! - [`Trap::AfterEncrypted`]: once the homeserver has stored an encrypted message.
//!
//! A trap fires once; the bot started again afterwards goes through untouched. The proxy can
//! also stand for a homeserver that is away ([`Proxy::set_away`]).

use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response};

/// When to kill the bot.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Trap {
    /// As a board's message is sent, before the homeserver has it.
    BeforeBoard,
    /// After the homeserver stored a board's message, before the bot hears so.
    AfterBoard,
    /// Half-way through an upload.
    MidUpload,
    /// As the bot asks for a room, before the homeserver has the request.
    BeforeCreateRoom,
    /// After the homeserver made a room, before the bot hears so.
    AfterCreateRoom,
    /// As a message whose body contains this is sent, before the homeserver has it.
    BeforeText(&'static str),
    /// After the homeserver stored a message whose body contains this.
    AfterText(&'static str),
    /// After the homeserver stored an encrypted message.
    AfterEncrypted,
}

/// One request the bot made: method, path, and the status it got (0: none, the bot was
/// killed).
#[derive(Clone, Debug)]
pub struct Seen {
    /// The method.
    pub method: String,
    /// The path.
    pub path: String,
    /// The status answered, 0 if none.
    pub status: u16,
}

#[derive(Default)]
struct State {
    armed: Option<(Trap, u32)>,
    fired: Option<Trap>,
    seen: Vec<Seen>,
    /// The homeserver is away: every request is answered 502 without reaching it.
    away: bool,
    /// Syncs are answered 502 (a room made for [`Trap::AfterCreateRoom`] is never heard of).
    hold_syncs: bool,
    /// Requests to make a room are answered 502, as while the homeserver is away.
    no_rooms: bool,
}

/// The proxy.
pub struct Proxy {
    port: u16,
    state: Arc<Mutex<State>>,
}

impl Proxy {
    /// A proxy to `upstream` (`http://127.0.0.1:PORT`), serving until the test ends.
    pub async fn start(upstream: &str) -> Proxy {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a free port");
        let port = listener.local_addr().expect("an address").port();
        let state = Arc::new(Mutex::new(State::default()));
        let http = reqwest::Client::builder()
            .no_proxy()
            .build()
            .expect("an HTTP client");
        let upstream = upstream.trim_end_matches('/').to_string();
        let shared = Arc::clone(&state);
        tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    continue;
                };
                let (state, http, upstream) = (Arc::clone(&shared), http.clone(), upstream.clone());
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(move |req| {
                        let (state, http, upstream) =
                            (Arc::clone(&state), http.clone(), upstream.clone());
                        async move { forward(&state, &http, &upstream, req).await }
                    });
                    let io = hyper_util::rt::TokioIo::new(stream);
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(io, service)
                        .await;
                });
            }
        });
        Proxy { port, state }
    }

    /// The proxy's address, for the bot's settings.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Kills the process `pid` at `trap`'s moment (once).
    pub fn arm(&self, trap: Trap, pid: u32) {
        let mut state = self.state.lock().unwrap();
        state.armed = Some((trap, pid));
        state.fired = None;
    }

    /// Waits until the armed trap has fired; panics after `secs`.
    pub async fn fired(&self, secs: u64) {
        let deadline = Instant::now() + Duration::from_secs(secs);
        while self.state.lock().unwrap().fired.is_none() {
            assert!(Instant::now() < deadline, "the trap did not fire");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// From now on (`true`) or no longer, every request is answered 502 Bad Gateway, as a
    /// reverse proxy does while its homeserver is down. A request already forwarded finishes.
    pub fn set_away(&self, away: bool) {
        self.state.lock().unwrap().away = away;
    }

    /// From now on (`true`) or no longer, requests to make a room are answered 502 Bad
    /// Gateway and the others go through: the bot can answer a command that makes a room, and
    /// the room is made only once this is lifted.
    pub fn hold_rooms(&self, hold: bool) {
        self.state.lock().unwrap().no_rooms = hold;
    }

    /// Every request seen so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.state.lock().unwrap().seen.clone()
    }
}

/// Whether the request is a board being sent: an `m.image` message.
fn is_board(method: &str, path: &str, body: &[u8]) -> bool {
    method == "PUT"
        && path.contains("/send/m.room.message/")
        && serde_json::from_slice::<serde_json::Value>(body)
            .is_ok_and(|v| v["msgtype"] == "m.image")
}

/// Whether the request sends a message whose body contains `needle`.
fn is_text(method: &str, path: &str, body: &[u8], needle: &str) -> bool {
    method == "PUT"
        && path.contains("/send/m.room.message/")
        && serde_json::from_slice::<serde_json::Value>(body)
            .is_ok_and(|v| v["body"].as_str().is_some_and(|b| b.contains(needle)))
}

/// Whether the trap is the moment of this request, `before` or after the homeserver answered.
fn is_moment(trap: Trap, before: bool, method: &str, path: &str, body: &[u8]) -> bool {
    match trap {
        Trap::BeforeText(needle) => before && is_text(method, path, body, needle),
        Trap::AfterText(needle) => !before && is_text(method, path, body, needle),
        Trap::BeforeCreateRoom => before && method == "POST" && path.ends_with("/createRoom"),
        Trap::AfterCreateRoom => !before && method == "POST" && path.ends_with("/createRoom"),
        Trap::AfterEncrypted => {
            !before && method == "PUT" && path.contains("/send/m.room.encrypted/")
        }
        Trap::BeforeBoard | Trap::AfterBoard | Trap::MidUpload => false,
    }
}

fn is_upload(method: &str, path: &str) -> bool {
    (method == "POST" || method == "PUT") && path.contains("/media/") && path.contains("/upload")
}

/// Takes the armed trap if `matches` says this is its moment.
fn spring(state: &Mutex<State>, matches: impl Fn(Trap) -> bool) -> Option<(Trap, u32)> {
    let mut state = state.lock().unwrap();
    let (trap, pid) = state.armed?;
    if !matches(trap) {
        return None;
    }
    state.armed = None;
    Some((trap, pid))
}

fn kill(state: &Mutex<State>, trap: Trap, pid: u32) {
    let _ = std::process::Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status();
    let mut state = state.lock().unwrap();
    state.fired = Some(trap);
    state.hold_syncs = false;
}

fn record(state: &Mutex<State>, method: &str, path: &str, status: u16) {
    state.lock().unwrap().seen.push(Seen {
        method: method.to_string(),
        path: path.to_string(),
        status,
    });
}

/// The answer the bot never reads (it is dead by then).
fn dropped() -> Result<Response<Full<Bytes>>, Infallible> {
    Ok(Response::builder()
        .status(502)
        .body(Full::new(Bytes::new()))
        .expect("a response"))
}

async fn forward(
    state: &Mutex<State>,
    http: &reqwest::Client,
    upstream: &str,
    req: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let (parts, mut body) = req.into_parts();
    let method = parts.method.as_str().to_string();
    let path = parts.uri.path().to_string();
    let no_room = method == "POST" && path.ends_with("/createRoom");
    let away = {
        let state = state.lock().unwrap();
        state.away || (no_room && state.no_rooms)
    };
    if away {
        let mut r = Response::new(Full::new(Bytes::from_static(b"homeserver away")));
        *r.status_mut() = hyper::StatusCode::BAD_GATEWAY;
        return Ok(r);
    }
    let length: usize = parts
        .headers
        .get("content-length")
        .and_then(|v| v.to_str().ok()?.parse().ok())
        .unwrap_or(0);
    let mut bytes = Vec::new();
    let mut upload_trap = None;
    while let Some(frame) = body.frame().await {
        let Ok(frame) = frame else {
            break;
        };
        if let Some(data) = frame.data_ref() {
            bytes.extend_from_slice(data);
        }
        if is_upload(&method, &path)
            && bytes.len() * 2 >= length
            && let Some(armed) = spring(state, |t| t == Trap::MidUpload)
        {
            upload_trap = Some(armed);
            break;
        }
    }
    if let Some((trap, pid)) = upload_trap {
        kill(state, trap, pid);
        record(state, &method, &path, 0);
        return dropped();
    }
    let board = is_board(&method, &path, &bytes);
    {
        let mut held = state.lock().unwrap();
        if matches!(held.armed, Some((Trap::AfterCreateRoom, _)))
            && method == "POST"
            && path.ends_with("/createRoom")
        {
            held.hold_syncs = true;
        }
    }
    if let Some((trap, pid)) = spring(state, |t| is_moment(t, true, &method, &path, &bytes)) {
        kill(state, trap, pid);
        record(state, &method, &path, 0);
        return dropped();
    }
    if board && let Some((trap, pid)) = spring(state, |t| t == Trap::BeforeBoard) {
        kill(state, trap, pid);
        record(state, &method, &path, 0);
        return dropped();
    }
    let url = format!(
        "{upstream}{}",
        parts.uri.path_and_query().map_or("/", |p| p.as_str())
    );
    let mut out = http.request(parts.method.clone(), url).body(bytes.clone());
    for (name, value) in &parts.headers {
        if name != "host" && name != "content-length" {
            out = out.header(name, value);
        }
    }
    let Ok(answer) = out.send().await else {
        record(state, &method, &path, 0);
        return dropped();
    };
    let status = answer.status().as_u16();
    let content_type = answer.headers().get("content-type").cloned();
    let body = answer.bytes().await.unwrap_or_default();
    if path.ends_with("/sync") && state.lock().unwrap().hold_syncs {
        record(state, &method, &path, 0);
        return dropped();
    }
    let after =
        |t: Trap| (board && t == Trap::AfterBoard) || is_moment(t, false, &method, &path, &bytes);
    if let Some((trap, pid)) = spring(state, after) {
        kill(state, trap, pid);
        record(state, &method, &path, 0);
        return dropped();
    }
    record(state, &method, &path, status);
    let mut response = Response::builder().status(status);
    if let Some(c) = content_type {
        response = response.header("content-type", c);
    }
    Ok(response.body(Full::new(body)).expect("a response"))
}
