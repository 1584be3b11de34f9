//! The signals that ask the process to stop (Ctrl-C, SIGTERM). They are listened for once per
//! process, from [`install`] on, and remembered: an adapter that asks only later (it was still
//! starting) learns of a signal that came before, so no stop is ever missed. A second signal
//! while the first is honoured ends the process at once (status 143 for SIGTERM, 130 for
//! SIGINT).

use std::sync::OnceLock;

use tokio::sync::watch;

static STOPPING: OnceLock<watch::Sender<bool>> = OnceLock::new();

/// Starts listening for the stop signals, if not yet done. Call it before starting anything
/// that should stop cleanly; inside a Tokio runtime.
pub fn install() -> &'static watch::Sender<bool> {
    let mut first = false;
    let stopping = STOPPING.get_or_init(|| {
        first = true;
        watch::channel(false).0
    });
    if first {
        // The handlers are registered here, before this returns, so that a signal arriving
        // from now on is caught rather than ending the process abruptly.
        #[cfg(unix)]
        let (term, interrupt) = {
            use tokio::signal::unix::{SignalKind, signal};
            (
                signal(SignalKind::terminate()).ok(),
                signal(SignalKind::interrupt()).ok(),
            )
        };
        tokio::spawn(async move {
            #[cfg(unix)]
            {
                let (mut term, mut interrupt) = (term, interrupt);
                tokio::select! {
                    () = received(&mut term) => {}
                    () = received(&mut interrupt) => {}
                }
                stopping.send_replace(true);
                // A second signal while the first is being honoured: stop at once. Every
                // change is already durable in the store.
                let code = tokio::select! {
                    () = received(&mut term) => 128 + 15,
                    () = received(&mut interrupt) => 128 + 2,
                };
                tracing::warn!("a second stop signal: exiting at once");
                std::process::exit(code);
            }
            #[cfg(not(unix))]
            {
                let _ = tokio::signal::ctrl_c().await;
                stopping.send_replace(true);
            }
        });
    }
    stopping
}

/// Completes when `signal` (if it could be listened for) arrives.
#[cfg(unix)]
async fn received(signal: &mut Option<tokio::signal::unix::Signal>) {
    match signal {
        Some(s) => {
            s.recv().await;
        }
        None => std::future::pending::<()>().await,
    }
}

/// Completes when the process has been asked to stop (at once if it already has been).
pub async fn shutdown() {
    let mut stopping = install().subscribe();
    let _ = stopping.wait_for(|stop| *stop).await;
}
