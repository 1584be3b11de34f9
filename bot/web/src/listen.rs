//! The listener's connections, none of which can exhaust the process: each address (an IPv6
//! client's /64) and everyone together hold a limited number open, never more than half the
//! open files the process may have; a connection past its allowance is closed at once. Each is
//! served by hyper behind the gate (`gate.rs`: a head whole within a few seconds of its first
//! byte, nothing hyper would answer itself), and closed after a while without a request.

use std::net::SocketAddr;
use std::pin::Pin;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tower::ServiceExt;

use super::allowance::{Allowance, Full, Place};
use super::gate::{self, Gated, HeadLimits, Refusal};

/// What the listener allows.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Connections one address may hold open.
    pub connections_per_address: usize,
    /// Connections held open in all.
    pub connections: usize,
    /// Live streams one address may hold open.
    pub streams_per_address: usize,
    /// What a request's head may be, and how soon it must come.
    pub head: HeadLimits,
    /// How long a connection may wait for its next request.
    pub idle: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            connections_per_address: 64,
            connections: 4096,
            streams_per_address: 16,
            head: HeadLimits::default(),
            idle: Duration::from_secs(30),
        }
    }
}

impl Limits {
    /// The limits the settings give.
    pub fn from_settings(web: &muster_config::Web) -> Limits {
        Limits {
            connections_per_address: web.connections_per_address,
            connections: web.connections,
            streams_per_address: web.streams_per_address,
            ..Limits::default()
        }
    }

    /// The same, with connections held to half the open files this process may have (the
    /// rest are the store's, the chats', the boards'), and no address allowed more than all.
    pub fn within_open_files(mut self) -> Limits {
        if let Ok((soft, _)) = rlimit::getrlimit(rlimit::Resource::NOFILE) {
            let half = usize::try_from(soft / 2).unwrap_or(usize::MAX).max(8);
            self.connections = self.connections.min(half);
        }
        self.connections_per_address = self.connections_per_address.min(self.connections);
        self
    }

    /// Live streams held open in all: three in four connections, so that pages can still be
    /// read while streams hold all they may.
    pub fn streams(&self) -> usize {
        (self.connections * 3 / 4).max(1)
    }
}

/// Accepts connections on `listener` and serves each with `router` until the process is asked
/// to stop.
pub async fn accept(listener: TcpListener, router: Router, limits: Limits) {
    let allowance = Allowance::new(limits.connections_per_address, limits.connections);
    tracing::info!(
        connections = limits.connections,
        per_address = limits.connections_per_address,
        "the web listener's allowance"
    );
    let mut stopping = std::pin::pin!(muster_core::signals::shutdown());
    let mut refused = Refused::default();
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            () = &mut stopping => return,
        };
        let (stream, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of open files, or the like: wait a little rather than spin, and go on.
                refused.note(&format!("a connection could not be accepted: {e}"));
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        match allowance.take(peer.ip()) {
            Ok(place) => {
                tokio::spawn(serve_one(stream, peer, router.clone(), limits, place));
            }
            Err(full) => {
                muster_core::telemetry::metrics::metrics().web_refused(match full {
                    Full::Address => "address",
                    Full::Overall => "overall",
                });
                refused.note(&format!(
                    "a connection from {peer} was closed: {}",
                    match full {
                        Full::Address => "its address holds all the connections it may",
                        Full::Overall => "the listener holds all the connections it may",
                    }
                ));
                drop(stream);
            }
        }
    }
}

/// Refusals told in the log at most once a minute, with how many there were meanwhile.
#[derive(Default)]
struct Refused {
    last: Option<std::time::Instant>,
    since: u64,
}

impl Refused {
    fn note(&mut self, what: &str) {
        self.since += 1;
        let due = self
            .last
            .is_none_or(|l| l.elapsed() >= Duration::from_secs(60));
        if due {
            tracing::warn!(
                refused = self.since,
                "{what} ({} such in the last minute)",
                self.since
            );
            self.last = Some(std::time::Instant::now());
            self.since = 0;
        }
    }
}

/// Serves one connection until it ends, the process stops, or it is idle too long; answers a
/// refusal the gate left.
async fn serve_one(
    stream: TcpStream,
    peer: SocketAddr,
    router: Router,
    limits: Limits,
    _place: Place,
) {
    let _ = stream.set_nodelay(true);
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        Box::pin(router.clone().oneshot(request))
    });
    let mut connection = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        // Counted from the end of an answer: the time a kept-alive connection may stay idle.
        .header_read_timeout(limits.idle)
        .serve_connection(TokioIo::new(Gated::new(stream, limits.head)), service);
    let ended = tokio::select! {
        r = std::future::poll_fn(|cx| connection.poll_without_shutdown(cx)) => Some(r),
        () = muster_core::signals::shutdown() => None,
    };
    match ended {
        Some(Err(e)) => tracing::debug!(%peer, "a connection ended: {e}"),
        Some(Ok(())) => {}
        None => {
            // The process stops: the answer being written may finish, briefly.
            Pin::new(&mut connection).graceful_shutdown();
            let finish = std::future::poll_fn(|cx| connection.poll_without_shutdown(cx));
            let _ = tokio::time::timeout(Duration::from_secs(2), finish).await;
        }
    }
    let gated = connection.into_parts().io.into_inner();
    if gated.timed_out {
        muster_core::telemetry::metrics::metrics().web_refused("slow_head");
    }
    let refusal = gated.refusal;
    let mut stream = gated.into_inner();
    match refusal {
        Some(r) => refuse(&mut stream, r).await,
        None => {
            let _ = stream.shutdown().await;
        }
    }
}

/// Answers `refusal` with the pages' headers, then closes the connection, reading what the
/// client still sends for a moment so that the answer is not lost to a reset.
async fn refuse(stream: &mut TcpStream, refusal: Refusal) {
    muster_core::telemetry::metrics::metrics().web_refused(refusal.label());
    let answer = gate::answer(refusal, chrono::Utc::now());
    let written = tokio::time::timeout(Duration::from_secs(5), async {
        stream.write_all(answer.as_bytes()).await?;
        stream.shutdown().await
    })
    .await;
    if !matches!(written, Ok(Ok(()))) {
        return;
    }
    let drain = async {
        let mut sink = [0u8; 4096];
        let mut left: usize = 64 * 1024;
        while left > 0 {
            match stream.read(&mut sink).await {
                Ok(0) | Err(_) => return,
                Ok(n) => left = left.saturating_sub(n),
            }
        }
    };
    let _ = tokio::time::timeout(Duration::from_secs(2), drain).await;
}
