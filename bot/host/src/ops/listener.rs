//! The operations listener (`ops_listen`, `MUSTER_OPS_LISTEN`; off by default):
//!
//! - `GET /healthz` — 200 while the process is up;
//! - `GET /readyz` — 200 when the store is open and every configured adapter is connected,
//!   else 503 with one line a reason;
//! - `GET /metrics` — the metrics in Prometheus' text format;
//! - `POST /backup` — a snapshot of the store written into the backup directory; answers with
//!   the file as JSON.
//!
//! It has no authentication: bind it to localhost or a private network (docs/deploy.md).

use std::net::SocketAddr;
use std::sync::Arc;

use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use serde_json::json;

use super::backups::Backups;
use muster_core::kernel::store::GameStore;

/// What the listener serves from.
pub struct Ops {
    /// The store, for the count of live games.
    pub store: Arc<dyn GameStore>,
    /// Backups on request.
    pub backups: Arc<Backups>,
}

type Reply = Response<Full<Bytes>>;

fn reply(status: StatusCode, content_type: &str, body: String) -> Reply {
    let mut r = Response::new(Full::new(Bytes::from(body)));
    *r.status_mut() = status;
    if let Ok(v) = hyper::header::HeaderValue::from_str(content_type) {
        r.headers_mut().insert(hyper::header::CONTENT_TYPE, v);
    }
    r
}

/// 405, naming the methods `allow`ed.
fn not_allowed(allow: &'static str, body: String) -> Reply {
    let mut r = reply(StatusCode::METHOD_NOT_ALLOWED, TEXT, body);
    r.headers_mut().insert(
        hyper::header::ALLOW,
        hyper::header::HeaderValue::from_static(allow),
    );
    r
}

const TEXT: &str = "text/plain; charset=utf-8";
const JSON: &str = "application/json";

impl Ops {
    async fn serve(
        self: Arc<Self>,
        req: Request<Incoming>,
    ) -> Result<Reply, std::convert::Infallible> {
        let path = req.uri().path().to_string();
        let method = req.method().clone();
        Ok(match (method, path.as_str()) {
            (Method::GET | Method::HEAD, "/healthz") => reply(StatusCode::OK, TEXT, "ok\n".into()),
            (Method::GET | Method::HEAD, "/readyz") => match muster_core::telemetry::health::readiness() {
                Ok(parts) => reply(StatusCode::OK, TEXT, format!("ready\n{}\n", parts.join("\n"))),
                Err(why) => reply(
                    StatusCode::SERVICE_UNAVAILABLE,
                    TEXT,
                    format!("not ready\n{}\n", why.join("\n")),
                ),
            },
            (Method::GET | Method::HEAD, "/metrics") => {
                let store = Arc::clone(&self.store);
                let active = tokio::task::spawn_blocking(move || store.live_count().ok())
                    .await
                    .ok()
                    .flatten();
                let text = muster_core::telemetry::metrics::metrics().encode(active);
                reply(StatusCode::OK, muster_core::telemetry::metrics::CONTENT_TYPE, text)
            }
            (Method::POST, "/backup") => {
                let backups = Arc::clone(&self.backups);
                match tokio::task::spawn_blocking(move || backups.take()).await {
                    Ok(Ok(t)) => {
                        tracing::info!(file = %t.file.display(), entries = t.entries, "backup written on request");
                        let body = json!({
                            "file": t.file.to_string_lossy(),
                            "entries": t.entries,
                            "trees": t.trees,
                            "removed": t.removed,
                        });
                        reply(StatusCode::OK, JSON, format!("{body}\n"))
                    }
                    Ok(Err(why)) => {
                        tracing::error!("a backup on request failed: {why}");
                        reply(
                            StatusCode::INTERNAL_SERVER_ERROR,
                            JSON,
                            format!("{}\n", json!({ "error": why })),
                        )
                    }
                    Err(e) => reply(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        JSON,
                        format!("{}\n", json!({ "error": e.to_string() })),
                    ),
                }
            }
            (_, "/backup") => not_allowed("POST", "POST /backup takes a backup\n".into()),
            (_, "/healthz" | "/readyz" | "/metrics") => {
                not_allowed("GET, HEAD", format!("{path} answers GET\n"))
            }
            _ => reply(
                StatusCode::NOT_FOUND,
                TEXT,
                "not found: this is Muster's operations listener (/healthz, /readyz, /metrics, POST /backup)\n".into(),
            ),
        })
    }
}

/// Binds the listener on `addr` (an error says why it cannot).
pub async fn bind(addr: SocketAddr) -> Result<tokio::net::TcpListener, String> {
    tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("the operations listener cannot listen on {addr} (ops_listen): {e}"))
}

/// Serves `ops` on `listener` until the process ends: while it stops, `/readyz` says so.
pub async fn serve(listener: tokio::net::TcpListener, ops: Arc<Ops>) {
    if let Ok(local) = listener.local_addr() {
        tracing::info!(
            "operations listener on http://{local}/ (/healthz, /readyz, /metrics, POST /backup)"
        );
    }
    loop {
        let (stream, _) = match listener.accept().await {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!("the operations listener could not accept a connection: {e}");
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
                continue;
            }
        };
        let ops = Arc::clone(&ops);
        tokio::spawn(async move {
            let service = service_fn(move |req| Arc::clone(&ops).serve(req));
            if let Err(e) = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service)
                .await
            {
                tracing::debug!("an operations connection failed: {e}");
            }
        });
    }
}
