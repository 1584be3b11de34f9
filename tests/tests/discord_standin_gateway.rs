//! The gateway stand-in's sessions, with no bot: a bare WebSocket client plays Discord's client
//! side by hand, and the stand-in must answer as Discord's gateway does. Sessions resume on the
//! second address with what they missed; op 7 and op 9 move a session off its connection; a
//! stalled connection neither acknowledges nor delivers; resets, close codes and a revoked
//! token end connections as Discord ends them; callbacks can be held in flight.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use muster_tests::discord::{self, Ending, Listener, Outcome, Person, STEP, StandIn, within};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message as Frame;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;

const APP: u64 = 1_400_000_000_000_000_001;
const GUILD: &str = "1400000000000000100";
const CHANNEL: &str = "1400000000000000200";

type Socket = tokio_tungstenite::WebSocketStream<tokio::net::TcpStream>;

/// A connection to the gateway address `url` as Discord's clients make it, and its HELLO.
async fn connect(url: &str) -> (Socket, Value) {
    let address = url.trim_start_matches("ws://").to_owned();
    let tcp = within("connect", tokio::net::TcpStream::connect(&address))
        .await
        .expect("connected");
    let request = format!("{url}/?v=10&encoding=json");
    let (mut ws, _) = within("handshake", tokio_tungstenite::client_async(request, tcp))
        .await
        .expect("a websocket");
    let hello = next(&mut ws).await;
    assert_eq!(hello["op"], 10, "{hello}");
    (ws, hello)
}

/// The next text frame, as JSON.
async fn next(ws: &mut Socket) -> Value {
    loop {
        match within("a gateway frame", ws.next()).await {
            Some(Ok(Frame::Text(text))) => return serde_json::from_str(&text).expect("JSON"),
            Some(Ok(Frame::Ping(_) | Frame::Pong(_))) => {}
            other => panic!("the gateway closed: {other:?}"),
        }
    }
}

async fn send(ws: &mut Socket, value: Value) {
    within("sending a frame", ws.send(Frame::Text(value.to_string())))
        .await
        .expect("sent");
}

/// The close code the gateway ends the connection with (`None`: no close frame).
async fn closed(ws: &mut Socket) -> Option<u16> {
    loop {
        match within("the connection's end", ws.next()).await {
            Some(Ok(Frame::Close(frame))) => return frame.map(|f| u16::from(f.code)),
            Some(Ok(Frame::Text(text))) => panic!("a frame instead of the end: {text}"),
            Some(Ok(_)) => {}
            Some(Err(_)) | None => return None,
        }
    }
}

fn identify() -> Value {
    json!({ "op": 2, "d": { "token": "test-token", "intents": 1, "properties": {} } })
}

fn resume(session_id: &str, seq: u64) -> Value {
    json!({ "op": 6, "d": { "token": "test-token", "session_id": session_id, "seq": seq } })
}

/// IDENTIFY on `ws`; returns READY.
async fn ready(ws: &mut Socket) -> Value {
    send(ws, identify()).await;
    let ready = next(ws).await;
    assert_eq!(
        (ready["t"].as_str(), ready["s"].as_u64()),
        (Some("READY"), Some(1))
    );
    ready
}

/// The session id a READY names.
fn session_id(ready: &Value) -> String {
    ready["d"]["session_id"]
        .as_str()
        .expect("a session id")
        .to_owned()
}

/// A fresh interaction, and its token.
fn interaction() -> (Value, String) {
    let v = discord::command(
        "board",
        Value::Null,
        &Person::new("ada"),
        CHANNEL,
        Some(GUILD),
    );
    let token = v["token"].as_str().expect("a token").to_owned();
    (v, token)
}

/// Reads an INTERACTION_CREATE with sequence number `seq` for the interaction `token`.
async fn delivered(ws: &mut Socket, seq: u64, token: &str) {
    let frame = next(ws).await;
    let got = (
        frame["t"].as_str(),
        frame["s"].as_u64(),
        frame["d"]["token"].as_str(),
    );
    assert_eq!(
        got,
        (Some("INTERACTION_CREATE"), Some(seq), Some(token)),
        "{frame}"
    );
}

/// Reads RESUMED, with sequence number `seq`.
async fn resumed(ws: &mut Socket, seq: u64) {
    let frame = next(ws).await;
    let got = (
        frame["op"].as_u64(),
        frame["t"].as_str(),
        frame["s"].as_u64(),
    );
    assert_eq!(got, (Some(0), Some("RESUMED"), Some(seq)), "{frame}");
}

async fn close_with(ws: &mut Socket, code: u16) {
    let frame = CloseFrame {
        code: code.into(),
        reason: "".into(),
    };
    within("closing", ws.send(Frame::Close(Some(frame))))
        .await
        .expect("a close frame sent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_resume_on_the_second_address_with_what_they_missed() {
    let standin = StandIn::start(APP).await;
    assert_ne!(standin.resume_url(), standin.gateway_url());
    let (mut ws, hello) = connect(&standin.gateway_url()).await;
    assert_eq!(hello["d"]["heartbeat_interval"], 41_250);
    let ready = ready(&mut ws).await;
    let session = session_id(&ready);
    assert_eq!(ready["d"]["resume_gateway_url"], standin.resume_url());
    for seq in [2, 3] {
        let (v, token) = interaction();
        standin.dispatch(v).await;
        delivered(&mut ws, seq, &token).await;
    }
    // A heartbeat carries the last sequence number; it is acknowledged and recorded.
    send(&mut ws, json!({ "op": 1, "d": 3 })).await;
    assert_eq!(next(&mut ws).await["op"], 11);
    assert_eq!(standin.wait_heartbeats(1, 1, STEP).await, vec![json!(3)]);

    // Closed with a code other than 1000 or 1001: the session stays, and keeps what is
    // dispatched meanwhile.
    close_with(&mut ws, 4000).await;
    let first = standin.wait_ended(1, STEP).await;
    assert_eq!(first.ending, Some(Ending::ClientClosed(Some(4000))));
    assert_eq!((first.listener, first.last_seq), (Listener::Main, Some(3)));
    let missed: Vec<(Value, String)> = (0..2).map(|_| interaction()).collect();
    for (v, _) in &missed {
        within("a dispatch with no connection", standin.dispatch(v.clone())).await;
    }
    let (mut ws, _) = connect(&standin.resume_url()).await;
    send(&mut ws, resume(&session, 3)).await;
    delivered(&mut ws, 4, &missed[0].1).await;
    delivered(&mut ws, 5, &missed[1].1).await;
    resumed(&mut ws, 6).await;
    let (v, token) = interaction();
    standin.dispatch(v).await;
    delivered(&mut ws, 7, &token).await;

    let handshakes = standin.handshakes();
    let seen: Vec<_> = handshakes
        .iter()
        .map(|h| (h.op, h.listener, h.connection, h.seq, h.outcome.clone()))
        .collect();
    assert_eq!(
        seen,
        vec![
            (2, Listener::Main, 1, None, Outcome::Ready),
            (6, Listener::Resume, 2, Some(3), Outcome::Resumed(2)),
        ]
    );
    assert!(handshakes.iter().all(|h| h.session_id == session));
    let second = &standin.gateway_connections()[1];
    assert_eq!(
        (second.listener, second.query.as_str()),
        (Listener::Resume, "v=10&encoding=json")
    );
    // No second READY: a resumed session is the same one.
    assert_eq!(standin.connections(), 1);

    // An unknown session cannot be resumed; nor can a session whose client closed normally.
    let (mut other, _) = connect(&standin.resume_url()).await;
    send(&mut other, resume("stand-in-session-99", 1)).await;
    assert_eq!(
        next(&mut other).await,
        json!({ "op": 9, "d": false, "s": null, "t": null })
    );
    close_with(&mut ws, 1000).await;
    let ended = standin.wait_ended(2, STEP).await;
    assert_eq!(ended.ending, Some(Ending::ClientClosed(Some(1000))));
    send(&mut other, resume(&session, 7)).await;
    assert_eq!(next(&mut other).await["op"], 9);
    // A sequence number the session never reached closes the connection with 4007.
    let ready = self::ready(&mut other).await;
    let session = session_id(&ready);
    let (mut third, _) = connect(&standin.resume_url()).await;
    send(&mut third, resume(&session, 50)).await;
    assert_eq!(closed(&mut third).await, Some(4007));
    let last = standin.handshakes().pop().expect("a handshake");
    assert_eq!(last.outcome, Outcome::Closed(4007));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn op_7_and_op_9_move_the_session_off_its_connection() {
    let standin = StandIn::start(APP).await;
    let (mut ws, _) = connect(&standin.gateway_url()).await;
    let ready = ready(&mut ws).await;
    let session = session_id(&ready);

    // Op 7: nothing more is delivered on the old connection; a RESUME elsewhere gets it.
    assert_eq!(standin.reconnect().await, 1);
    assert_eq!(
        next(&mut ws).await,
        json!({ "op": 7, "d": null, "s": null, "t": null })
    );
    let (v, token) = interaction();
    standin.dispatch(v).await;
    let (mut ws, _) = connect(&standin.resume_url()).await;
    send(&mut ws, resume(&session, 1)).await;
    delivered(&mut ws, 2, &token).await;
    resumed(&mut ws, 3).await;

    // Op 9, resumable: the session can be resumed, on a new connection.
    assert_eq!(standin.invalidate_session(true).await, 2);
    assert_eq!(
        next(&mut ws).await,
        json!({ "op": 9, "d": true, "s": null, "t": null })
    );
    let (mut ws, _) = connect(&standin.resume_url()).await;
    send(&mut ws, resume(&session, 3)).await;
    resumed(&mut ws, 4).await;
    assert_eq!(
        standin.handshakes().last().map(|h| h.outcome.clone()),
        Some(Outcome::Resumed(0))
    );

    // Op 9, not resumable: the session is gone; IDENTIFY starts another.
    assert_eq!(standin.invalidate_session(false).await, 3);
    assert_eq!(
        next(&mut ws).await,
        json!({ "op": 9, "d": false, "s": null, "t": null })
    );
    let (mut ws, _) = connect(&standin.gateway_url()).await;
    send(&mut ws, resume(&session, 4)).await;
    assert_eq!(next(&mut ws).await["d"], false);
    let ready = self::ready(&mut ws).await;
    assert_ne!(ready["d"]["session_id"], session.as_str());
    let (v, token) = interaction();
    standin.dispatch(v).await;
    delivered(&mut ws, 2, &token).await;
    assert_eq!(standin.connections(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_connection_neither_acknowledges_nor_delivers() {
    let standin = StandIn::start(APP).await;
    standin.set_heartbeat_interval(Duration::from_millis(300));
    let (mut ws, hello) = connect(&standin.gateway_url()).await;
    assert_eq!(hello["d"]["heartbeat_interval"], 300);
    let ready = ready(&mut ws).await;
    let session = session_id(&ready);
    send(&mut ws, json!({ "op": 1, "d": 1 })).await;
    assert_eq!(next(&mut ws).await["op"], 11);

    assert_eq!(standin.stall().await, 1);
    let (v, token) = interaction();
    standin.dispatch(v).await;
    send(&mut ws, json!({ "op": 1, "d": 1 })).await;
    standin.wait_heartbeats(1, 2, STEP).await;
    // Neither the ACK nor the dispatch comes. (Anything the stand-in sent would be here at
    // once; the wait only gives it the chance.)
    let quiet = tokio::time::timeout(Duration::from_millis(500), ws.next()).await;
    assert!(quiet.is_err(), "a stalled connection sent {quiet:?}");
    let stalled = &standin.gateway_connections()[0];
    assert!(stalled.stalled && stalled.ending.is_none());
    assert_eq!(stalled.last_seq, Some(1));

    // The dispatch waited in the session.
    let (mut fresh, _) = connect(&standin.resume_url()).await;
    send(&mut fresh, resume(&session, 1)).await;
    delivered(&mut fresh, 2, &token).await;
    resumed(&mut fresh, 3).await;
    drop(ws);
    let ended = standin.wait_ended(1, STEP).await;
    assert_eq!(ended.ending, Some(Ending::Dropped));
    // The new connection is not stalled.
    send(&mut fresh, json!({ "op": 1, "d": 3 })).await;
    assert_eq!(next(&mut fresh).await["op"], 11);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resets_close_codes_heartbeat_requests_duplicates_and_a_revoked_token() {
    let standin = StandIn::start(APP).await;
    let (mut ws, _) = connect(&standin.gateway_url()).await;
    let ready = ready(&mut ws).await;
    let session = session_id(&ready);

    // A reset: no close frame; the session stays.
    assert_eq!(standin.reset().await, 1);
    assert_eq!(closed(&mut ws).await, None);
    assert_eq!(
        standin.wait_ended(1, STEP).await.ending,
        Some(Ending::Reset)
    );
    let (mut ws, _) = connect(&standin.resume_url()).await;
    send(&mut ws, resume(&session, 1)).await;
    resumed(&mut ws, 2).await;

    // Op 1 from the gateway asks for a heartbeat.
    assert_eq!(standin.request_heartbeat().await, 2);
    assert_eq!(
        next(&mut ws).await,
        json!({ "op": 1, "d": null, "s": null, "t": null })
    );

    // The same interaction, twice.
    let (v, token) = interaction();
    standin.dispatch_twice(v).await;
    delivered(&mut ws, 3, &token).await;
    delivered(&mut ws, 4, &token).await;

    // 4000 leaves the session resumable; 4009 does not.
    assert_eq!(standin.close_connection(4000).await, 2);
    assert_eq!(closed(&mut ws).await, Some(4000));
    let (mut ws, _) = connect(&standin.resume_url()).await;
    send(&mut ws, resume(&session, 4)).await;
    resumed(&mut ws, 5).await;
    assert_eq!(standin.close_connection(4009).await, 3);
    assert_eq!(closed(&mut ws).await, Some(4009));
    assert_eq!(
        standin.wait_ended(3, STEP).await.ending,
        Some(Ending::ServerClosed(4009))
    );
    let (mut ws, _) = connect(&standin.resume_url()).await;
    send(&mut ws, resume(&session, 5)).await;
    assert_eq!(next(&mut ws).await["d"], false);
    self::ready(&mut ws).await;

    // A revoked token: the connection is closed with 4004, so is the next IDENTIFY, and REST
    // refuses the token.
    assert_eq!(standin.revoke_token(), Some(4));
    assert_eq!(closed(&mut ws).await, Some(4004));
    let (mut ws, _) = connect(&standin.gateway_url()).await;
    send(&mut ws, identify()).await;
    assert_eq!(closed(&mut ws).await, Some(4004));
    let last = standin.handshakes().pop().expect("a handshake");
    assert_eq!((last.op, last.outcome), (2, Outcome::Closed(4004)));
    let status = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("a client")
        .get(format!("{}/api/v10/gateway/bot", standin.api_url()))
        .header("authorization", "Bot test-token")
        .send()
        .await
        .expect("an answer")
        .status();
    assert_eq!(status.as_u16(), 401);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn callbacks_can_be_held_in_flight() {
    let standin = StandIn::start(APP).await;
    let (v, token) = interaction();
    standin.expect_interaction(&v);
    standin.hold_callbacks();
    let url = format!(
        "{}/api/v10/interactions/{}/{token}/callback",
        standin.api_url(),
        v["id"].as_str().expect("an id")
    );
    let answer = json!({ "type": 4, "data": { "content": "Hello" } });
    let call = tokio::spawn(async move {
        reqwest::Client::builder()
            .no_proxy()
            .build()
            .expect("a client")
            .post(url)
            .header("content-type", "application/json")
            .body(answer.to_string())
            .send()
            .await
            .expect("an answer")
            .status()
            .as_u16()
    });
    standin.wait_held_callbacks(1, STEP).await;
    assert!(standin.requests().is_empty(), "held, not answered yet");
    assert!(!call.is_finished());
    standin.release_callbacks();
    let status = within("the released callback", call)
        .await
        .expect("the call");
    assert_eq!(status, 204);
    let original = standin.original(&token).expect("the response");
    assert_eq!(original.content, "Hello");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gateway_greets_acknowledges_and_refuses_resumes() {
    let standin = StandIn::start(APP).await;
    let (mut ws, hello) = connect(&standin.gateway_url()).await;
    assert_eq!(hello["d"]["heartbeat_interval"].as_u64(), Some(41_250));
    send(&mut ws, json!({ "op": 1, "d": null })).await;
    assert_eq!(next(&mut ws).await["op"], 11);
    send(&mut ws, resume("old", 7)).await;
    assert_eq!(
        next(&mut ws).await,
        json!({ "op": 9, "d": false, "s": null, "t": null })
    );
    send(&mut ws, identify()).await;
    let ready = next(&mut ws).await;
    let kind = (
        ready["op"].as_u64(),
        ready["t"].as_str(),
        ready["s"].as_u64(),
    );
    assert_eq!(kind, (Some(0), Some("READY"), Some(1)));
    assert_eq!(ready["d"]["application"]["id"], APP.to_string());
    let parsed: serenity::all::Ready =
        serde_json::from_value(ready["d"].clone()).expect("serenity accepts READY");
    assert_eq!(parsed.user.id.get(), APP);
    standin.wait_ready(STEP).await;
    assert_eq!(standin.connections(), 1);
    standin.dispatch(discord::fixture("guild-command")).await;
    let dispatched = next(&mut ws).await;
    let kind = (dispatched["t"].as_str(), dispatched["s"].as_u64());
    assert_eq!(kind, (Some("INTERACTION_CREATE"), Some(2)));
    assert_eq!(dispatched["d"]["application_id"], APP.to_string());
}
