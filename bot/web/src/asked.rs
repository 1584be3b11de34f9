//! What an address asks for, read so that nothing unreadable answers anything but the one 404
//! (a token or name that is not UTF-8, a query that does not parse), and the answers every
//! handler gives: a page, the one 404, and work done off the async threads.

use std::collections::HashMap;

use axum::extract::{FromRequestParts, Path, Query};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};

/// The one answer for every address that shows nothing.
pub fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        axum::response::Html(super::html::not_found().into_string()),
    )
        .into_response()
}

/// Runs `work` off the async threads (the store may block); a failure is logged and answered
/// as a server error.
pub async fn blocking(work: impl FnOnce() -> Response + Send + 'static) -> Response {
    match off_thread(work).await {
        Ok(response) => response,
        Err(e) => {
            tracing::error!("a page could not be made: {e}");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                "The page could not be made; try again.",
            )
                .into_response()
        }
    }
}

/// How many pieces of the pages' work run at once: four for each processor, at least 4 and at
/// most 32. The work is drawing and rendering, which gain nothing from many more threads than
/// the processors can run (a little more lets a slow store read wait beside other work);
/// every thread more is memory its allocator keeps.
fn at_once() -> &'static tokio::sync::Semaphore {
    static AT_ONCE: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    AT_ONCE.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        tokio::sync::Semaphore::new((cores * 4).clamp(4, 32))
    })
}

/// Runs `work` off the async threads (the store may block, boards are drawn), no more of the
/// pages' work at once than [`at_once`] allows; `Err` if it panicked.
pub async fn off_thread<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, tokio::task::JoinError> {
    let _turn = at_once().acquire().await;
    tokio::task::spawn_blocking(work).await
}

/// A token (or a community's name) from the address: one the router cannot read (bytes that
/// are not UTF-8) answers the one 404, as any other address that shows nothing.
pub struct Token(pub String);

impl<S: Send + Sync> FromRequestParts<S> for Token {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Token, Response> {
        match Path::<String>::from_request_parts(parts, state).await {
            Ok(Path(token)) => Ok(Token(token)),
            Err(_) => Err(not_found()),
        }
    }
}

/// What the address's query asks for (`ply`, `theme`); a query that does not read is taken as
/// asking for nothing.
pub struct Asked(pub HashMap<String, String>);

impl<S: Send + Sync> FromRequestParts<S> for Asked {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Asked, Response> {
        let query = Query::<HashMap<String, String>>::from_request_parts(parts, state).await;
        Ok(Asked(query.map(|Query(q)| q).unwrap_or_default()))
    }
}

/// Two parts of an address (a token and a file's name), read as [`Token`] reads one.
pub struct Tokens(pub String, pub String);

impl<S: Send + Sync> FromRequestParts<S> for Tokens {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Tokens, Response> {
        match Path::<(String, String)>::from_request_parts(parts, state).await {
            Ok(Path((a, b))) => Ok(Tokens(a, b)),
            Err(_) => Err(not_found()),
        }
    }
}

/// A page as the answer.
pub fn answer_page(markup: maud::Markup) -> Response {
    axum::response::Html(markup.into_string()).into_response()
}
