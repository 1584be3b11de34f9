//! The web listener: its routes (GET and HEAD only; every address that shows nothing answers
//! the same 404), the headers every answer carries (a Content-Security-Policy without inline
//! code, `nosniff`, no referrer), and the pages' work done off the async threads.

use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;

use axum::Router;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use muster_render::Theme;

use super::Shared;
use super::allowance::Full;
use super::asked::{Asked, Token, Tokens, answer_page, blocking, not_found};
use super::game::View;
use super::html;
use super::previews::{card, event_of, game_of, page_of};
use muster_core::kernel::pages::well_formed;
use muster_core::kernel::replayable::Replayable;

/// The routes, over `shared`.
pub fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route(
            "/s/muster.css",
            get(|| async { asset("text/css; charset=utf-8", html::STYLE) }),
        )
        .route(
            "/s/muster.js",
            get(|| async { asset("text/javascript; charset=utf-8", html::SCRIPT) }),
        )
        .route("/g/{token}", get(game_page))
        .route("/g/{token}/events", get(|s, t, c| stream(s, t, c, "g")))
        .route("/g/{token}/board.png", get(board))
        .route("/g/{token}/replay.gif", get(replay))
        .route("/g/{token}/record.txt", get(record))
        .route("/e/{token}", get(event_page))
        .route("/e/{token}/events", get(|s, t, c| stream(s, t, c, "e")))
        .route("/e/{token}/export.json", get(event_json))
        .route("/e/{token}/export.trf", get(event_trf))
        .route("/e/{token}/calendar.ics", get(event_calendar))
        .route(
            "/p/{token}",
            get(|State(s), Token(t)| people_page(s, t, "p")),
        )
        .route("/p/{token}/events", get(|s, t, c| stream(s, t, c, "p")))
        .route("/p/{token}/calendar.ics", get(player_calendar))
        .route(
            "/l/{token}",
            get(|State(s), Token(t)| people_page(s, t, "l")),
        )
        .route("/l/{token}/events", get(|s, t, c| stream(s, t, c, "l")))
        .route("/c/{community}", get(community_page))
        .route("/g/{token}/{file}", get(|State(s), t| card(s, "g", t)))
        .route("/e/{token}/{file}", get(|State(s), t| card(s, "e", t)))
        .route("/p/{token}/{file}", get(|State(s), t| card(s, "p", t)))
        .route("/l/{token}/{file}", get(|State(s), t| card(s, "l", t)))
        .route("/c/{community}/{file}", get(|State(s), t| card(s, "c", t)))
        .route("/oembed", get(super::previews::oembed))
        .route("/rules", get(rules_index))
        .route("/rules/{game}", get(rules_page))
        .route("/rules/{game}/{file}", get(rules_file))
        .route("/learn", get(learn_index))
        .route("/learn/{game}", get(course_page))
        .route("/learn/{game}/{file}", get(lesson_board))
        .route("/puzzles", get(puzzles_index))
        .route("/puzzle/{id}", get(puzzle_page))
        .route("/puzzle/{id}/{file}", get(puzzle_board))
        .fallback(|| async { not_found() })
        .layer(axum::middleware::map_response(headers))
        .with_state(shared)
}

/// The headers every answer carries.
async fn headers(mut response: Response) -> Response {
    let h = response.headers_mut();
    for (name, value) in super::gate::GUARDS {
        h.insert(name, HeaderValue::from_static(value));
    }
    h.entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-cache"));
    response
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        body,
    )
        .into_response()
}

/// What a game's page is asked for: `?ply=N`, `?theme=dark`. Words that are not one are left
/// out (the newest position, the classic theme).
fn view(query: &HashMap<String, String>) -> View {
    View {
        ply: query.get("ply").and_then(|p| p.parse().ok()),
        theme: query.get("theme").and_then(|t| Theme::from_name(t)),
    }
}

async fn game_page(
    State(shared): State<Arc<Shared>>,
    Token(token): Token,
    Asked(query): Asked,
) -> Response {
    blocking(move || {
        let Some(record) = game_of(&shared, &token) else {
            return not_found();
        };
        let markup = super::game::render(&shared, &token, &record, view(&query));
        answer_page(markup)
    })
    .await
}

async fn board(
    State(shared): State<Arc<Shared>>,
    Token(token): Token,
    Asked(query): Asked,
) -> Response {
    blocking(move || {
        let Some(record) = game_of(&shared, &token) else {
            return not_found();
        };
        let v = view(&query);
        let ply = v.ply.unwrap_or(record.moves.len());
        match shared
            .boards
            .board(&record, ply, v.theme.unwrap_or_default())
        {
            Ok(drawn) => ([(header::CONTENT_TYPE, drawn.mime)], drawn.png.clone()).into_response(),
            Err(why) => {
                tracing::warn!(game = %record.id, "a board could not be drawn for a page: {why}");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("The board cannot be drawn: {why}"),
                )
                    .into_response()
            }
        }
    })
    .await
}

async fn replay(
    State(shared): State<Arc<Shared>>,
    Token(token): Token,
    Asked(query): Asked,
) -> Response {
    blocking(move || {
        let Some(record) = game_of(&shared, &token) else {
            return not_found();
        };
        match shared
            .boards
            .replay(&record, view(&query).theme.unwrap_or_default())
        {
            Ok(drawn) => ([(header::CONTENT_TYPE, drawn.mime)], drawn.png.clone()).into_response(),
            Err(why) => {
                tracing::warn!(game = %record.id, "a replay could not be drawn for a page: {why}");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("The replay cannot be drawn: {why}"),
                )
                    .into_response()
            }
        }
    })
    .await
}

/// A file to download, named `name`.
fn file(kind: &'static str, name: &str, body: String) -> Response {
    let disposition = format!("attachment; filename=\"{name}\"");
    match HeaderValue::from_str(&disposition) {
        Ok(d) => (
            [
                (header::CONTENT_TYPE, HeaderValue::from_static(kind)),
                (header::CONTENT_DISPOSITION, d),
            ],
            body,
        )
            .into_response(),
        Err(_) => ([(header::CONTENT_TYPE, kind)], body).into_response(),
    }
}

async fn record(State(shared): State<Arc<Shared>>, Token(token): Token) -> Response {
    blocking(move || {
        let Some(record) = game_of(&shared, &token) else {
            return not_found();
        };
        match record.rebuild() {
            Ok(game) => file(
                "text/plain; charset=utf-8",
                &format!("{}-{}.txt", record.game, record.id),
                record.export(&game),
            ),
            Err(e) => (
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("The record does not replay: {}", e.0),
            )
                .into_response(),
        }
    })
    .await
}

async fn event_page(State(shared): State<Arc<Shared>>, Token(token): Token) -> Response {
    blocking(move || {
        let Some(event) = event_of(&shared, &token) else {
            return not_found();
        };
        let markup = super::event::render(&shared, &token, &event);
        answer_page(markup)
    })
    .await
}

async fn event_json(State(shared): State<Arc<Shared>>, Token(token): Token) -> Response {
    blocking(move || {
        let Some(event) = event_of(&shared, &token) else {
            return not_found();
        };
        let body =
            serde_json::to_string_pretty(&shared.core.event_export(&event)).unwrap_or_default();
        file("application/json", &format!("{}.json", event.name), body)
    })
    .await
}

async fn event_trf(State(shared): State<Arc<Shared>>, Token(token): Token) -> Response {
    blocking(move || {
        let Some(event) = event_of(&shared, &token) else {
            return not_found();
        };
        match shared.core.event_trf(&event) {
            Some(body) => file(
                "text/plain; charset=utf-8",
                &format!("{}.trf", event.name),
                body,
            ),
            None => not_found(),
        }
    })
    .await
}

/// A calendar to subscribe to (`text/calendar`), named `name`.
fn calendar(name: &str, body: String) -> Response {
    let file: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    let disposition = format!("inline; filename=\"{file}.ics\"");
    (
        [
            (
                header::CONTENT_TYPE,
                "text/calendar; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        body,
    )
        .into_response()
}

async fn event_calendar(State(shared): State<Arc<Shared>>, Token(token): Token) -> Response {
    blocking(move || match event_of(&shared, &token) {
        Some(event) => calendar(
            &event.name,
            super::calendar::of_event(&shared, &token, &event),
        ),
        None => not_found(),
    })
    .await
}

async fn player_calendar(State(shared): State<Arc<Shared>>, Token(token): Token) -> Response {
    blocking(move || {
        let Some(page) = page_of(&shared, &token, "p") else {
            return not_found();
        };
        match super::people::player(&shared, &page) {
            Some(found) => calendar(
                &found.title,
                super::calendar::of_player(&shared, &found.title, &page),
            ),
            None => not_found(),
        }
    })
    .await
}

/// A player's page (`kind` `p`) or a leaderboard (`l`).
async fn people_page(shared: Arc<Shared>, token: String, kind: &'static str) -> Response {
    blocking(move || {
        let page = page_of(&shared, &token, kind);
        let found = page.and_then(|p| match kind {
            "p" => super::people::player(&shared, &p),
            _ => super::people::leaders(&shared, &p),
        });
        match found {
            Some(found) => answer_page(super::people::render(&shared, &token, kind, found)),
            None => not_found(),
        }
    })
    .await
}

async fn community_page(State(shared): State<Arc<Shared>>, Token(name): Token) -> Response {
    blocking(move || match super::index::find(&shared, &name) {
        Some(index) => answer_page(super::index::render(&shared, &index)),
        None => not_found(),
    })
    .await
}

/// `/rules`: the games' rules pages.
async fn rules_index(State(shared): State<Arc<Shared>>) -> Response {
    blocking(move || answer_page(super::rules::index(&shared.base()))).await
}

/// `/rules/<game>`: a game's rules, with no token (they are the same for everyone).
async fn rules_page(State(shared): State<Arc<Shared>>, Token(name): Token) -> Response {
    blocking(move || match super::rules::page(&name) {
        Some(page) => answer_page(super::rules::render(page, &shared.base())),
        None => not_found(),
    })
    .await
}

/// A diagram or picture of a rules page (`/rules/lanrick/diagram-2.png`).
async fn rules_file(Tokens(name, file): Tokens) -> Response {
    blocking(move || match super::rules::file(&name, &file) {
        Some(png) => (
            [
                (header::CONTENT_TYPE, "image/png"),
                (header::CACHE_CONTROL, "public, max-age=3600"),
            ],
            png,
        )
            .into_response(),
        None => not_found(),
    })
    .await
}

/// A PNG as the answer, kept by caches for an hour (the same address, the same picture).
fn png(png: Vec<u8>) -> Response {
    (
        [
            (header::CONTENT_TYPE, "image/png"),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        png,
    )
        .into_response()
}

/// `/learn`: the courses and the puzzles.
async fn learn_index(State(shared): State<Arc<Shared>>) -> Response {
    blocking(move || answer_page(super::learning::learn_index(&shared.base()))).await
}

/// `/learn/<game>`: a course, with an answer to one lesson when the query carries it.
async fn course_page(
    State(shared): State<Arc<Shared>>,
    Token(name): Token,
    Asked(query): Asked,
) -> Response {
    blocking(
        move || match super::learning::course_page(&name, &query, &shared.base()) {
            Some(page) => answer_page(page),
            None => not_found(),
        },
    )
    .await
}

/// A lesson's board (`/learn/lanrick/5.png?moves=…`).
async fn lesson_board(Tokens(name, file): Tokens, Asked(query): Asked) -> Response {
    blocking(
        move || match super::learning::lesson_board(&name, &file, &query) {
            Some(board) => png(board),
            None => not_found(),
        },
    )
    .await
}

/// `/puzzles`: the shipped set.
async fn puzzles_index(State(shared): State<Arc<Shared>>) -> Response {
    blocking(move || answer_page(super::learning::puzzles_index(&shared.base()))).await
}

/// `/puzzle/<id>`: one puzzle, with an answer when the query carries it.
async fn puzzle_page(
    State(shared): State<Arc<Shared>>,
    Token(id): Token,
    Asked(query): Asked,
) -> Response {
    blocking(
        move || match super::learning::puzzle_page(&id, &query, &shared.base()) {
            Some(page) => answer_page(page),
            None => not_found(),
        },
    )
    .await
}

/// A puzzle's board (`/puzzle/<id>/board.png`, `?after=<decision>`).
async fn puzzle_board(Tokens(id, file): Tokens, Asked(query): Asked) -> Response {
    blocking(move || match file.as_str() {
        "board.png" => super::learning::puzzle_board(&id, &query).map_or_else(not_found, png),
        _ => not_found(),
    })
    .await
}

/// A page's live stream (of a page of `kind`): its changing part as it stands, then again at
/// every change. The address's allowance is checked before any work is done for it.
async fn stream(
    State(shared): State<Arc<Shared>>,
    Token(token): Token,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    kind: &'static str,
) -> Response {
    if !well_formed(&token) {
        return not_found();
    }
    let permit = match super::hub::permit(&shared.live, from.ip()) {
        Ok(permit) => permit,
        Err(full) => {
            let why = match full {
                Full::Address => {
                    "Too many live pages are open from this address; close some and reload this one."
                }
                Full::Overall => {
                    "Too many live pages are open just now; reload this one in a while."
                }
            };
            return (StatusCode::TOO_MANY_REQUESTS, why).into_response();
        }
    };
    // A page others watch already begins with what they were sent last.
    if let Some((first, receiver)) = super::live::watching(&shared, &token, kind) {
        return super::live::stream(first, receiver, permit).into_response();
    }
    let found = {
        let shared = Arc::clone(&shared);
        let token = token.clone();
        super::asked::off_thread(move || {
            let page = shared.page(&token).filter(|p| p.path() == kind)?;
            let first = super::live::render(&shared, &token, &page)?;
            Some((page, first))
        })
        .await
        .ok()
        .flatten()
    };
    let Some((page, first)) = found else {
        return not_found();
    };
    let (first, receiver) = super::live::watch(&shared, &token, page, first);
    super::live::stream(first, receiver, permit).into_response()
}

/// Serves the pages on `listen` until the process is asked to stop; `Err` if it cannot bind.
/// The live streams follow the store's changes from then on.
pub async fn serve(shared: Arc<Shared>, listen: SocketAddr) -> Result<(), String> {
    let listener = bind(listen).await?;
    run(shared, listener).await;
    Ok(())
}

/// Binds the listener.
pub async fn bind(listen: SocketAddr) -> Result<tokio::net::TcpListener, String> {
    tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| format!("the web pages cannot listen on {listen}: {e}"))
}

/// Serves the pages on `listener` until the process is asked to stop.
/// The pages' future is boxed here, in its own crate, so that the binary awaiting it compiles
/// none of the pages' code again (docs/performance.md, "Building").
pub fn run(
    shared: Arc<Shared>,
    listener: tokio::net::TcpListener,
) -> Pin<Box<dyn Future<Output = ()> + Send>> {
    Box::pin(running(shared, listener))
}

/// What [`run`] boxes.
async fn running(shared: Arc<Shared>, listener: tokio::net::TcpListener) {
    tokio::spawn(super::live::run(Arc::clone(&shared)));
    // The rules pages are made at start, off the async threads, not for their first reader.
    tokio::task::spawn_blocking(super::rules::pages);
    if let Ok(at) = listener.local_addr() {
        tracing::info!(%at, base = ?shared.core.web_base(), "the web pages are served");
    }
    let limits = shared.limits;
    super::listen::accept(listener, router(shared), limits).await;
}

/// Beside the console: a thread with a small runtime serving the pages. `Err` if the listener
/// cannot bind.
pub fn beside_console(shared: Arc<Shared>, listen: SocketAddr) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("muster-web")
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the web pages' runtime: {e}"))?;
    let listener = runtime.block_on(bind(listen))?;
    std::thread::Builder::new()
        .name("muster-web".into())
        .spawn(move || runtime.block_on(run(shared, listener)))
        .map_err(|e| format!("cannot start the web pages' thread: {e}"))?;
    Ok(())
}
