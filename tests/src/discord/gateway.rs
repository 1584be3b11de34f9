//! The gateway stand-in: HELLO, IDENTIFY → READY, heartbeat ACKs, RESUME refused, and the
//! dispatches the suite sends ([`super::StandIn::dispatch`]).

use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

use super::Shared;
use super::objects;
use super::state::Session;

/// Accepts gateway connections on `listener` until the stand-in stops.
pub(crate) async fn serve(listener: tokio::net::TcpListener, shared: Arc<Shared>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        tokio::spawn(session(stream, Arc::clone(&shared)));
    }
}

/// A frame with no sequence number.
fn control(op: u8, d: Value) -> String {
    json!({ "d": d, "op": op, "s": null, "t": null }).to_string()
}

async fn session(stream: tokio::net::TcpStream, shared: Arc<Shared>) {
    let Ok(mut ws) = tokio_tungstenite::accept_async(stream).await else {
        return;
    };
    let (outgoing, mut queued) = tokio::sync::mpsc::unbounded_channel::<String>();
    let number = {
        let mut state = shared.lock();
        state.next_session += 1;
        let number = state.next_session;
        state.sessions.push(Session {
            number,
            ready: false,
            seq: 0,
            outgoing: outgoing.clone(),
        });
        number
    };
    let hello = json!({ "heartbeat_interval": 41_250, "_trace": ["[\"gateway-stand-in\",{\"micros\":0}]"] });
    let mut open = ws.send(Message::Text(control(10, hello))).await.is_ok();
    while open {
        tokio::select! {
            incoming = ws.next() => {
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Binary(bytes))) => String::from_utf8_lossy(&bytes).into_owned(),
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                    Some(Ok(_)) => continue,
                };
                let Ok(frame) = serde_json::from_str::<Value>(&text) else { continue };
                if let Some(reply) = answer(&shared, number, &frame) {
                    open = ws.send(Message::Text(reply)).await.is_ok();
                }
            },
            Some(frame) = queued.recv() => {
                open = ws.send(Message::Text(frame)).await.is_ok();
            },
        }
    }
    let _ = ws.close(None).await;
    drop(queued);
    shared.lock().sessions.retain(|s| s.number != number);
    shared.notify();
}

/// The stand-in's answer to one frame from the client, if any.
fn answer(shared: &Shared, number: usize, frame: &Value) -> Option<String> {
    match frame["op"].as_u64()? {
        // Heartbeat.
        1 => Some(control(11, Value::Null)),
        // Identify.
        2 => {
            let reply = {
                let mut state = shared.lock();
                state.identified += 1;
                state.identifies.push(frame["d"].clone());
                let app = state.app();
                let resume = state.gateway_url.clone();
                let session_id = format!("stand-in-session-{}", state.identified);
                let session = state.sessions.iter_mut().find(|s| s.number == number)?;
                session.ready = true;
                session.seq = 1;
                json!({
                    "d": objects::ready(&app, &session_id, &resume),
                    "op": 0, "s": 1, "t": "READY",
                })
                .to_string()
            };
            // Sent before anything queued for this session: READY comes first.
            shared.notify();
            Some(reply)
        }
        // Resume: sessions are not kept, so the client must identify again.
        6 => Some(control(9, Value::Bool(false))),
        _ => None,
    }
}
