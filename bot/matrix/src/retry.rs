//! Requests to the homeserver tried again while it is away or asks the bot to slow down, within a
//! limit: what a failure says (worth another try later, or refused for good).

use std::time::Duration;

/// How long to wait before trying `error` again, or `None` if trying again cannot help.
pub fn retry_after(error: &matrix_sdk::Error, pause: Duration) -> Option<Duration> {
    use matrix_sdk::ruma::api::error::{ErrorKind, RetryAfter};
    match error.client_api_error_kind() {
        Some(ErrorKind::LimitExceeded(limit)) => Some(match &limit.retry_after {
            Some(RetryAfter::Delay(d)) => *d,
            Some(RetryAfter::DateTime(at)) => at
                .duration_since(std::time::SystemTime::now())
                .unwrap_or_default(),
            None => pause,
        }),
        // The homeserver refused the request itself: making it again is refused again.
        Some(
            ErrorKind::Forbidden
            | ErrorKind::TooLarge
            | ErrorKind::BadJson
            | ErrorKind::NotJson
            | ErrorKind::InvalidParam
            | ErrorKind::NotFound
            | ErrorKind::InvalidUsername,
        ) => None,
        _ => Some(pause),
    }
}

/// The longest a request is tried at once: past it, the receipt stays owed, and the adapter
/// tries it again after its next sync (and at its next start), so that one unreachable room
/// does not hold the others up.
const GIVE_UP_AFTER: Duration = Duration::from_secs(60);

/// Why a request tried for a while did not go through.
pub enum Failed {
    /// The homeserver refused it: trying again cannot help.
    Refused,
    /// The homeserver was away or kept asking the bot to slow down: it is worth another try
    /// later.
    Later,
}

/// Makes a request (`attempt`), again while the homeserver is away or asks the bot to slow
/// down (429, waited out as it asks), for up to [`GIVE_UP_AFTER`]; `what` names it in the log
/// (`sending to !room:server`).
pub async fn retrying<T, F>(what: &str, mut attempt: impl FnMut() -> F) -> Result<T, Failed>
where
    F: Future<Output = Result<T, matrix_sdk::Error>>,
{
    let started = std::time::Instant::now();
    let mut pause = Duration::from_millis(250);
    loop {
        let error = match attempt().await {
            Ok(done) => return Ok(done),
            Err(e) => e,
        };
        let Some(wait) = retry_after(&error, pause) else {
            tracing::warn!("gave up {what}: {error}");
            return Err(Failed::Refused);
        };
        if started.elapsed() + wait >= GIVE_UP_AFTER {
            tracing::warn!("gave up {what} for now: {error}");
            return Err(Failed::Later);
        }
        tracing::warn!(
            "{what} failed ({error}); trying again in {} ms",
            wait.as_millis()
        );
        tokio::time::sleep(wait).await;
        pause = (pause * 2).min(Duration::from_secs(10));
    }
}
