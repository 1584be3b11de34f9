//! HTTP mode: Discord POSTs each interaction to this endpoint (behind the operator's TLS proxy).
//! The raw body's Ed25519 signature is checked before anything is read (401 otherwise, as
//! Discord requires), stale timestamps are refused, PING is answered with PONG, and every other
//! interaction is answered through the same REST callback the gateway mode uses — the HTTP
//! request then gets 202 with no body. Nothing is kept between requests but the store.

use std::convert::Infallible;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serenity::all as serenity;
use serenity::interactions_endpoint::Verifier;
use serenity::{Http, Interaction};

use super::dispatch::dispatch;
use super::register::register;
use super::{STOP_WITHIN, Shared};

/// The largest body accepted.
const MAX_BODY: usize = 1 << 20;
/// How far a request's timestamp may be from now (replays older than this are refused).
pub const MAX_AGE: Duration = Duration::from_secs(5 * 60);

/// What the endpoint needs for each request.
struct Endpoint {
    shared: Arc<Shared>,
    http: Arc<Http>,
    verifier: Verifier,
}

type Reply = Response<Full<Bytes>>;

fn status(code: StatusCode, body: &str) -> Reply {
    let mut r = Response::new(Full::new(Bytes::from(body.to_string())));
    *r.status_mut() = code;
    r
}

fn json(body: &str) -> Reply {
    let mut r = status(StatusCode::OK, body);
    r.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    r
}

/// Whether `timestamp` (Unix seconds) is within [`MAX_AGE`] of now.
pub fn fresh(timestamp: &str, now: SystemTime) -> bool {
    let Ok(ts) = timestamp.trim().parse::<u64>() else {
        return false;
    };
    let now = now.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    now.abs_diff(ts) <= MAX_AGE.as_secs()
}

impl Endpoint {
    async fn serve(self: Arc<Self>, req: Request<Incoming>) -> Result<Reply, Infallible> {
        if req.method() != Method::POST {
            return Ok(status(
                StatusCode::METHOD_NOT_ALLOWED,
                "POST interactions here\n",
            ));
        }
        let header = |name: &str| {
            req.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let (signature, timestamp) = (
            header("x-signature-ed25519"),
            header("x-signature-timestamp"),
        );
        if signature.is_none() || timestamp.is_none() {
            return Ok(status(StatusCode::UNAUTHORIZED, "missing signature\n"));
        }
        let body = match Limited::new(req.into_body(), MAX_BODY).collect().await {
            Ok(b) => b.to_bytes(),
            Err(_) => return Ok(status(StatusCode::PAYLOAD_TOO_LARGE, "body too large\n")),
        };
        let signed = Signed {
            signature: signature.as_deref(),
            timestamp: timestamp.as_deref(),
            body: &body,
        };
        let interaction = match triage(&self.verifier, &signed, SystemTime::now()) {
            Triage::Refused(code, why) => return Ok(status(code, why)),
            Triage::Ping => return Ok(json("{\"type\":1}")),
            Triage::Answer(interaction) => interaction,
        };
        let http = self.http.clone();
        let shared = self.shared.clone();
        let _answering = super::answering(&shared);
        dispatch(&shared, &http, &interaction).await;
        Ok(status(StatusCode::ACCEPTED, ""))
    }
}

/// A request as it reached the endpoint: its signature headers and its raw body.
pub struct Signed<'a> {
    /// `X-Signature-Ed25519`.
    pub signature: Option<&'a str>,
    /// `X-Signature-Timestamp`.
    pub timestamp: Option<&'a str>,
    /// The body, exactly as received.
    pub body: &'a [u8],
}

/// What the endpoint does with a request.
pub enum Triage {
    /// Refused with this status and body (nothing is read of an unsigned or stale request).
    Refused(StatusCode, &'static str),
    /// Discord's PING, answered with PONG.
    Ping,
    /// An interaction to answer: a command, an autocomplete or a button.
    Answer(Box<Interaction>),
}

/// Checks a request's signature and age before anything is read, then reads the interaction.
pub fn triage(verifier: &Verifier, request: &Signed<'_>, now: SystemTime) -> Triage {
    let (Some(signature), Some(timestamp)) = (request.signature, request.timestamp) else {
        return Triage::Refused(StatusCode::UNAUTHORIZED, "missing signature\n");
    };
    if verifier.verify(signature, timestamp, request.body).is_err() {
        return Triage::Refused(StatusCode::UNAUTHORIZED, "invalid request signature\n");
    }
    if !fresh(timestamp, now) {
        return Triage::Refused(StatusCode::UNAUTHORIZED, "stale request timestamp\n");
    }
    let json = match serde_json::from_slice::<serde_json::Value>(request.body) {
        Ok(json) => json,
        Err(e) => {
            let size = request.body.len();
            tracing::warn!("an interaction could not be read ({e}): {size} bytes, not JSON");
            return Triage::Refused(StatusCode::BAD_REQUEST, "unreadable interaction\n");
        }
    };
    let interaction = match super::read_interaction(&json) {
        Ok(i) => i,
        Err(e) => {
            let shown = super::loggable(&json, 2000);
            tracing::warn!("an interaction could not be read ({e}): {shown}");
            return Triage::Refused(StatusCode::BAD_REQUEST, "unreadable interaction\n");
        }
    };
    match interaction {
        Interaction::Ping(_) => Triage::Ping,
        Interaction::Command(_) | Interaction::Autocomplete(_) | Interaction::Component(_) => {
            Triage::Answer(Box::new(interaction))
        }
        _ => Triage::Refused(StatusCode::BAD_REQUEST, "interaction type not handled\n"),
    }
}

/// Registers the commands, then serves the endpoint until the process is stopped.
pub async fn run(shared: Arc<Shared>, http: Arc<Http>) -> Result<(), String> {
    let key = shared
        .settings
        .public_key
        .ok_or("HTTP mode needs discord.public_key")?;
    let verifier = Verifier::try_new(key)
        .map_err(|_| "discord.public_key is not a valid Ed25519 public key")?;
    register(&http, &shared).await?;
    let listener = tokio::net::TcpListener::bind(&shared.settings.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", shared.settings.listen))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    tracing::info!("interactions endpoint listening on http://{local}/");
    muster_core::telemetry::health::ready("discord");
    let endpoint = Arc::new(Endpoint {
        shared,
        http,
        verifier,
    });
    let mut stop = std::pin::pin!(muster_core::signals::shutdown());
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            () = &mut stop => {
                // No new request; the interactions being answered are finished first.
                endpoint.shared.drained(STOP_WITHIN).await;
                tracing::info!("stopping");
                return Ok(());
            }
        };
        let (stream, _) = match accepted {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!("accepting a connection failed: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let endpoint = endpoint.clone();
        tokio::spawn(async move {
            let service = service_fn(move |req| endpoint.clone().serve(req));
            if let Err(e) = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await
            {
                tracing::warn!("an HTTP connection failed: {e}");
            }
        });
    }
}
