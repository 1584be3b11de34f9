//! The gateway stand-in, on two addresses as Discord's gateway is: the one `GET /gateway` gives
//! (where sessions start) and READY's `resume_gateway_url` (where they are resumed). It says
//! HELLO, answers IDENTIFY with READY and a new session, and RESUME with the dispatches the
//! session missed and RESUMED; it acknowledges heartbeats and delivers what the suite
//! dispatches. Sessions outlive connections: a dispatch goes to the current session and waits
//! there, numbered, while no connection delivers it.
//!
//! The suite can also make it misbehave as Discord's gateway may: ask the client to reconnect
//! (op 7), invalidate its session (op 9), stall, reset or close the connection, revoke the
//! token, deliver an interaction twice. Every connection, IDENTIFY and RESUME is recorded, with
//! the address it came in on and how it ended.

use std::borrow::Cow;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tokio_tungstenite::tungstenite::protocol::CloseFrame;

use super::state::{
    Connection, Ending, GatewayConnection, Handshake, Listener, Out, Outcome, Session, State,
};
use super::{Shared, StandIn, fixtures, objects};

/// How long a control waits for a connected session to act on.
const LIVE_WAIT: Duration = Duration::from_secs(10);

/// Accepts gateway connections on `listener` (the address `which`) until the stand-in stops.
pub(crate) async fn serve(listener: tokio::net::TcpListener, which: Listener, shared: Arc<Shared>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        if shared.lock().outage {
            // Gone before any handshake: the client sees the connection fail.
            drop(stream);
            continue;
        }
        tokio::spawn(connection(stream, which, Arc::clone(&shared)));
    }
}

/// A frame with no sequence number.
fn control(op: u8, d: Value) -> String {
    json!({ "d": d, "op": op, "s": null, "t": null }).to_string()
}

/// Discord's reason for a close code.
fn reason(code: u16) -> &'static str {
    match code {
        4000 => "Unknown error.",
        4004 => "Authentication failed.",
        4005 => "Already authenticated.",
        4007 => "Invalid seq.",
        4009 => "Session timed out.",
        _ => "Closed by the stand-in.",
    }
}

/// Whether Discord forgets the session when it closes a connection with `code`: the client
/// must not resume it (4004, 4010 to 4014: it must not even reconnect).
fn ends_session(code: u16) -> bool {
    matches!(code, 4004 | 4007 | 4009 | 4010..=4014)
}

async fn connection(stream: tokio::net::TcpStream, which: Listener, shared: Arc<Shared>) {
    let mut query = String::new();
    // The handshake callback's type is tungstenite's, large error and all.
    #[allow(clippy::result_large_err)]
    let note_query = |request: &Request, response: Response| {
        query = request.uri().query().unwrap_or_default().to_owned();
        Ok::<Response, ErrorResponse>(response)
    };
    let Ok(mut ws) = tokio_tungstenite::accept_hdr_async(stream, note_query).await else {
        return;
    };
    let (outgoing, mut queued) = tokio::sync::mpsc::unbounded_channel::<Out>();
    let (number, interval) = {
        let mut state = shared.lock();
        let number = state.connections.len() + 1;
        state.connections.push(Connection {
            seen: GatewayConnection {
                number,
                listener: which,
                query,
                heartbeats: Vec::new(),
                last_seq: None,
                stalled: false,
                ending: None,
                requests_at_end: 0,
            },
            outgoing,
            session: None,
        });
        (number, state.heartbeat_interval)
    };
    shared.notify();
    let hello = json!({ "heartbeat_interval": interval, "_trace": ["[\"gateway-stand-in\",{\"micros\":0}]"] });
    let mut ending = match ws.send(Message::Text(control(10, hello))).await {
        Ok(()) => None,
        Err(_) => Some(Ending::Dropped),
    };
    while ending.is_none() {
        tokio::select! {
            incoming = ws.next() => match incoming {
                Some(Ok(Message::Text(text))) => receive(&shared, number, &text),
                Some(Ok(Message::Binary(bytes))) => {
                    receive(&shared, number, &String::from_utf8_lossy(&bytes));
                }
                Some(Ok(Message::Close(frame))) => {
                    ending = Some(Ending::ClientClosed(frame.map(|f| u16::from(f.code))));
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None => ending = Some(Ending::Dropped),
            },
            Some(out) = queued.recv() => match out {
                Out::Frame(text) => {
                    if ws.send(Message::Text(text)).await.is_err() {
                        ending = Some(Ending::Dropped);
                    }
                }
                Out::Close(code) => {
                    let frame = CloseFrame { code: code.into(), reason: Cow::Borrowed(reason(code)) };
                    let _ = ws.send(Message::Close(Some(frame))).await;
                    ending = Some(Ending::ServerClosed(code));
                }
                Out::Reset => ending = Some(Ending::Reset),
            },
        }
    }
    let ending = ending.unwrap_or(Ending::Dropped);
    // Recorded before the socket is let go, so that a client which reconnects at once finds
    // its old connection ended and its session free.
    {
        let mut state = shared.lock();
        let at = state.requests.len();
        let seen = &mut state.connection_mut(number).seen;
        seen.ending = Some(ending.clone());
        seen.requests_at_end = at;
        if let Some(session) = state.detach(number)
            && matches!(ending, Ending::ClientClosed(Some(1000 | 1001)))
        {
            // Discord ends the session of a client that closes normally.
            state.sessions[session].valid = false;
        }
    }
    shared.notify();
    match ending {
        Ending::Reset => {
            // No close frame, no FIN: an RST, as when a network path breaks.
            let _ = ws.get_ref().set_zero_linger();
        }
        Ending::ServerClosed(_) => {
            // Let the client answer the close frame (or give up on it).
            let drain = async { while let Some(Ok(_)) = ws.next().await {} };
            let _ = tokio::time::timeout(Duration::from_secs(2), drain).await;
        }
        Ending::ClientClosed(_) => {
            // Sends the answering close frame.
            let _ = ws.close(None).await;
        }
        Ending::Dropped => {}
    }
}

/// Takes one frame from the client on connection `number`.
fn receive(shared: &Shared, number: usize, text: &str) {
    let Ok(frame) = serde_json::from_str::<Value>(text) else {
        return;
    };
    {
        let mut state = shared.lock();
        let stalled = state.connection(number).seen.stalled;
        match frame["op"].as_u64() {
            Some(1) => {
                let seen = &mut state.connection_mut(number).seen;
                seen.heartbeats.push(frame["d"].clone());
                if !stalled {
                    state.send(number, Out::Frame(control(11, Value::Null)));
                }
            }
            // A stalled connection hears nothing more.
            _ if stalled => {}
            Some(2) => identify(&mut state, number, &frame["d"]),
            Some(6) => resume(&mut state, number, &frame["d"]),
            _ => {}
        }
    }
    shared.notify();
}

/// Records a handshake on connection `number`.
fn record(
    state: &mut State,
    op: u64,
    number: usize,
    session_id: &str,
    seq: Option<u64>,
    outcome: Outcome,
) {
    let listener = state.connection(number).seen.listener;
    state.handshakes.push(Handshake {
        op,
        listener,
        connection: number,
        session_id: session_id.to_owned(),
        seq,
        outcome,
    });
}

/// Closes connection `number` with `code`, forgetting its session if Discord would.
fn close(state: &mut State, number: usize, code: u16) {
    if let Some(session) = state.detach(number)
        && ends_session(code)
    {
        state.sessions[session].valid = false;
    }
    state.send(number, Out::Close(code));
}

/// IDENTIFY: a new session, and READY.
fn identify(state: &mut State, number: usize, d: &Value) {
    state.identifies.push(d.clone());
    // A shard, when given, is `[id, count]` with the id below the count (else 4010).
    let bad_shard = d.get("shard").is_some_and(|s| {
        let pair = s.as_array().map(|a| (a.len(), a.first(), a.get(1)));
        !matches!(pair, Some((2, Some(id), Some(count)))
            if id.as_u64().zip(count.as_u64()).is_some_and(|(i, c)| c >= 1 && i < c))
    });
    let refusal = if state.connection(number).session.is_some() {
        Some(4005)
    } else if state.revoked {
        Some(4004)
    } else if bad_shard {
        Some(4010)
    } else {
        None
    };
    if let Some(code) = refusal {
        record(state, 2, number, "", None, Outcome::Closed(code));
        close(state, number, code);
        return;
    }
    state.identified += 1;
    let id = format!("stand-in-session-{}", state.sessions.len() + 1);
    let ready = objects::ready(&state.app(), &id, &state.resume_url);
    let session = state.sessions.len();
    state.sessions.push(Session {
        id: id.clone(),
        seq: 1,
        events: Vec::new(),
        valid: true,
        connection: None,
    });
    state.attach(session, number);
    let frame = json!({ "d": ready, "op": 0, "s": 1, "t": "READY" }).to_string();
    state.connection_mut(number).seen.last_seq = Some(1);
    // Queued before anything dispatched to the new session: READY comes first.
    state.send(number, Out::Frame(frame));
    record(state, 2, number, &id, None, Outcome::Ready);
}

/// RESUME: the dispatches the session missed, then RESUMED; or op 9 if the session cannot be
/// resumed.
fn resume(state: &mut State, number: usize, d: &Value) {
    let id = d["session_id"].as_str().unwrap_or_default().to_owned();
    let seq = d["seq"].as_u64();
    let refusal = if state.connection(number).session.is_some() {
        Some(4005)
    } else if state.revoked {
        Some(4004)
    } else {
        None
    };
    if let Some(code) = refusal {
        record(state, 6, number, &id, seq, Outcome::Closed(code));
        close(state, number, code);
        return;
    }
    let Some(session) = state.sessions.iter().position(|s| s.valid && s.id == id) else {
        record(state, 6, number, &id, seq, Outcome::Invalid);
        state.send(number, Out::Frame(control(9, Value::Bool(false))));
        return;
    };
    let Some(seq) = seq.filter(|&seq| seq <= state.sessions[session].seq) else {
        record(state, 6, number, &id, seq, Outcome::Closed(4007));
        state.sessions[session].valid = false;
        state.send(number, Out::Close(4007));
        return;
    };
    state.attach(session, number);
    let missed: Vec<(u64, String)> = state.sessions[session]
        .events
        .iter()
        .filter(|(s, _)| *s > seq)
        .cloned()
        .collect();
    let replayed = missed.len();
    for (s, frame) in missed {
        state.connection_mut(number).seen.last_seq = Some(s);
        state.send(number, Out::Frame(frame));
    }
    let s = &mut state.sessions[session];
    s.seq += 1;
    let resumed = json!({
        "op": 0, "t": "RESUMED", "s": s.seq,
        "d": { "_trace": ["[\"gateway-stand-in\",{\"micros\":0}]"] },
    });
    let last = s.seq;
    state.connection_mut(number).seen.last_seq = Some(last);
    state.send(number, Out::Frame(resumed.to_string()));
    record(state, 6, number, &id, Some(seq), Outcome::Resumed(replayed));
}

/// Gateway sessions: what the suite sees of them and what it can make the gateway do.
impl StandIn {
    /// `ws://127.0.0.1:PORT`: the gateway's second address, READY's `resume_gateway_url`.
    pub fn resume_url(&self) -> String {
        self.shared.lock().resume_url.clone()
    }

    /// The heartbeat interval HELLO gives on connections opened from now on (41.25 s unless
    /// set: short ones let a client notice a stalled connection quickly).
    pub fn set_heartbeat_interval(&self, interval: Duration) {
        let ms = u64::try_from(interval.as_millis()).unwrap_or(u64::MAX);
        self.shared.lock().heartbeat_interval = ms;
    }

    /// Every gateway connection so far, in order.
    pub fn gateway_connections(&self) -> Vec<GatewayConnection> {
        let state = self.shared.lock();
        state.connections.iter().map(|c| c.seen.clone()).collect()
    }

    /// Every IDENTIFY and RESUME so far, in order, with what the stand-in answered.
    pub fn handshakes(&self) -> Vec<Handshake> {
        self.shared.lock().handshakes.clone()
    }

    /// The handshake at `index` (0 the first, see [`Self::handshakes`]), waiting for it up to
    /// `timeout`; panics listing the handshakes and connections seen.
    pub async fn wait_handshake(&self, index: usize, timeout: Duration) -> Handshake {
        let found = self
            .wait_until(timeout, |state| state.handshakes.get(index).cloned())
            .await;
        found.unwrap_or_else(|| {
            panic!(
                "timed out after {timeout:?} waiting for IDENTIFY or RESUME #{index}; \
                 handshakes: {:#?}\nconnections: {:#?}",
                self.handshakes(),
                self.gateway_connections()
            )
        })
    }

    /// Connection `number` once it has ended, waiting for that up to `timeout`.
    pub async fn wait_ended(&self, number: usize, timeout: Duration) -> GatewayConnection {
        let ended = self
            .wait_until(timeout, |state| {
                let seen = &state.connections.get(number.checked_sub(1)?)?.seen;
                seen.ending.is_some().then(|| seen.clone())
            })
            .await;
        ended.unwrap_or_else(|| {
            panic!(
                "timed out after {timeout:?} waiting for gateway connection {number} to end: \
                 {:#?}",
                self.gateway_connections()
            )
        })
    }

    /// The `d` of every heartbeat received on connection `number`, once there are at least
    /// `count`, waiting for them up to `timeout`.
    pub async fn wait_heartbeats(
        &self,
        number: usize,
        count: usize,
        timeout: Duration,
    ) -> Vec<Value> {
        let seen = self
            .wait_until(timeout, |state| {
                let seen = &state.connections.get(number.checked_sub(1)?)?.seen;
                (seen.heartbeats.len() >= count).then(|| seen.heartbeats.clone())
            })
            .await;
        seen.unwrap_or_else(|| {
            panic!(
                "timed out after {timeout:?} waiting for {count} heartbeats on gateway \
                 connection {number}: {:#?}",
                self.gateway_connections()
            )
        })
    }

    /// Sends op 7 (reconnect) on the current session's connection and delivers nothing more
    /// through it: the client should RESUME on a new connection to the resume URL. Returns
    /// the connection's number.
    pub async fn reconnect(&self) -> usize {
        self.on_live("send op 7", |state, number| {
            state.send(number, Out::Frame(control(7, Value::Null)));
            state.detach(number);
        })
        .await
    }

    /// Sends op 9 (invalid session) with `d: resumable` on the current session's connection
    /// and delivers nothing more through it. Unless `resumable`, the session is forgotten: a
    /// RESUME of it gets op 9 `d: false`, the client must IDENTIFY. Returns the connection's
    /// number.
    pub async fn invalidate_session(&self, resumable: bool) -> usize {
        self.on_live("send op 9", |state, number| {
            state.send(number, Out::Frame(control(9, Value::Bool(resumable))));
            if let Some(session) = state.detach(number)
                && !resumable
            {
                state.sessions[session].valid = false;
            }
        })
        .await
    }

    /// Stalls the current session's connection, as a zombied connection is: it stays open
    /// but heartbeats are no longer acknowledged, IDENTIFY and RESUME on it are ignored, and
    /// dispatches wait in the session for a RESUME elsewhere. Returns the connection's number.
    pub async fn stall(&self) -> usize {
        self.on_live("stall the connection", |state, number| {
            state.connection_mut(number).seen.stalled = true;
        })
        .await
    }

    /// Drops the current session's connection abruptly: an RST, no close frame. The session
    /// stays resumable. Returns the connection's number.
    pub async fn reset(&self) -> usize {
        self.on_live("reset the connection", |state, number| {
            state.detach(number);
            state.send(number, Out::Reset);
        })
        .await
    }

    /// Closes the current session's connection with `code`. After 4004, 4007, 4009 and 4010
    /// to 4014 the session cannot be resumed (as on Discord); after others it can. Returns the
    /// connection's number.
    pub async fn close_connection(&self, code: u16) -> usize {
        self.on_live("close the connection", |state, number| {
            close(state, number, code)
        })
        .await
    }

    /// Revokes the bot's token: the current session's connection (if any) is closed with 4004
    /// (authentication failed), and so is every later IDENTIFY or RESUME; REST requests get
    /// 401. Returns the closed connection's number, if there was one.
    pub fn revoke_token(&self) -> Option<usize> {
        let closed = {
            let mut state = self.shared.lock();
            state.revoked = true;
            let live = state.live_connection();
            if let Some(number) = live {
                close(&mut state, number, 4004);
            }
            live
        };
        self.shared.notify();
        closed
    }

    /// A gateway outage from now on (`true`) or its end (`false`): while it lasts, the current
    /// session's connection is reset and every new connection is dropped at once. Sessions
    /// stay resumable.
    pub async fn outage(&self, on: bool) {
        self.shared.lock().outage = on;
        if on {
            self.reset().await;
        }
    }

    /// An outage of the HTTP API from now on (`true`) or its end (`false`): while it lasts,
    /// every request is answered 503 and nothing it asks is done.
    pub fn rest_outage(&self, on: bool) {
        self.shared.lock().rest_outage = on;
    }

    /// Sends op 1 (a heartbeat request) on the current session's connection: the client should
    /// heartbeat at once. Returns the connection's number.
    pub async fn request_heartbeat(&self) -> usize {
        self.on_live("send op 1", |state, number| {
            state.send(number, Out::Frame(control(1, Value::Null)));
        })
        .await
    }

    /// As [`Self::dispatch`], but delivers the interaction twice, in two INTERACTION_CREATE
    /// dispatches with consecutive sequence numbers (Discord delivers at least once).
    pub async fn dispatch_twice(&self, interaction: Value) {
        self.dispatch_times(interaction, 2).await;
    }

    /// Sends `{"op":0,"t":"INTERACTION_CREATE","s":n,"d":interaction}` to the current session,
    /// `times` times, waiting up to 10 s for a session. The application id is set to the
    /// stand-in's, and the interaction is remembered (as by [`Self::expect_interaction`]) once.
    pub(crate) async fn dispatch_times(&self, mut interaction: Value, times: usize) {
        fixtures::retarget(&mut interaction, &self.application_id().to_string());
        self.expect_interaction(&interaction);
        let session = self
            .wait_until(LIVE_WAIT, |state| state.current_session())
            .await;
        let Some(session) = session else {
            panic!(
                "no gateway session to dispatch to after {LIVE_WAIT:?}; handshakes: {:#?}",
                self.handshakes()
            );
        };
        {
            let mut state = self.shared.lock();
            for _ in 0..times {
                state.dispatch(session, "INTERACTION_CREATE", &interaction);
            }
        }
        self.shared.notify();
    }

    /// Runs `act` on the current session's open connection, waiting up to 10 s for one;
    /// returns its number.
    async fn on_live(&self, what: &str, act: impl FnOnce(&mut State, usize)) -> usize {
        let mut act = Some(act);
        let acted = self
            .wait_until(LIVE_WAIT, |state| {
                let number = state.live_connection()?;
                if let Some(act) = act.take() {
                    act(state, number);
                }
                Some(number)
            })
            .await;
        let Some(number) = acted else {
            panic!(
                "no connected gateway session to {what} after {LIVE_WAIT:?}; connections: {:#?}",
                self.gateway_connections()
            );
        };
        self.shared.notify();
        number
    }
}
