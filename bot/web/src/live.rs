//! The pages' live streams (`…/events`, `text/event-stream`): each open page of a running game
//! or event is told its changing part again whenever the store tells of a change to it. A
//! change is rendered once for all the readers of a page, off the async threads; each address
//! may hold a limited number of streams open at once.

use std::convert::Infallible;
use std::sync::Arc;

use axum::response::sse::{Event as Sent, KeepAlive, Sse};
use futures_util::Stream;
use tokio::sync::broadcast;

use super::Shared;
use super::allowance::Place;
use super::hub::{Update, Watch, version};
use muster_core::desk::Core;
use muster_core::kernel::pages::Page;
use muster_core::kernel::store::Changed;

/// Whether `changed` changes what `page` shows.
fn touches(core: &Core, page: &Page, changed: &Changed) -> bool {
    match page {
        Page::Game {
            platform, channel, ..
        } => changed.note.is_none() && changed.platform == *platform && changed.channel == *channel,
        Page::Event {
            platform,
            community,
            name,
        } => core.changes_event(changed, platform, community, name),
        // A game rated changes the tables (and with them, a player's recent games).
        Page::Player { .. } | Page::Leaders { .. } => core.changes_ratings(changed),
    }
}

/// The update of the page `token` names as it stands (`None` when it shows nothing now).
pub fn render(shared: &Shared, token: &str, page: &Page) -> Option<Update> {
    let (version, html) = match page {
        Page::Game { .. } => {
            let record = super::game::find(shared, page)?;
            let part = super::game::part(shared, token, &record, super::game::View::default());
            (record.version.to_string(), part.into_string())
        }
        Page::Event { .. } => {
            let event = super::event::find(shared, page)?;
            versioned(super::event::part(shared, &event).into_string())
        }
        Page::Player { .. } => versioned(super::people::player(shared, page)?.part.into_string()),
        Page::Leaders { .. } => versioned(super::people::leaders(shared, page)?.part.into_string()),
    };
    let body = serde_json::json!({ "version": version, "html": html });
    Some(Arc::new(body.to_string()))
}

/// A part with its version.
fn versioned(part: String) -> (String, String) {
    (version(&part), part)
}

/// Listens to the store's changes for as long as the process runs, and sends each watched page
/// its new part.
pub async fn run(shared: Arc<Shared>) {
    let mut changes = shared.changes.listen();
    loop {
        let changed = match changes.recv().await {
            Ok(c) => c,
            Err(broadcast::error::RecvError::Lagged(missed)) => {
                tracing::warn!(
                    "the live pages missed {missed} changes of the store; every watched page is sent again"
                );
                refresh_all(&shared).await;
                continue;
            }
            Err(broadcast::error::RecvError::Closed) => return,
        };
        if changed.is_anything() {
            refresh_all(&shared).await;
            continue;
        }
        let due: Vec<(String, Page)> = {
            let mut watched = shared
                .live
                .watched
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            watched.retain(|_, w| w.sender.receiver_count() > 0);
            watched
                .iter()
                .filter(|(_, w)| touches(&shared.core, &w.page, &changed))
                .map(|(t, w)| (t.clone(), w.page.clone()))
                .collect()
        };
        for (token, page) in due {
            send(&shared, token, page).await;
        }
    }
}

async fn refresh_all(shared: &Arc<Shared>) {
    let all: Vec<(String, Page)> = {
        let watched = shared
            .live
            .watched
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        watched
            .iter()
            .map(|(t, w)| (t.clone(), w.page.clone()))
            .collect()
    };
    for (token, page) in all {
        send(shared, token, page).await;
    }
}

/// Renders the page's part once (off the async threads) and sends it to its readers.
async fn send(shared: &Arc<Shared>, token: String, page: Page) {
    let s = Arc::clone(shared);
    let t = token.clone();
    let update = super::asked::off_thread(move || render(&s, &t, &page))
        .await
        .ok()
        .flatten();
    let Some(update) = update else {
        return;
    };
    let mut watched = shared
        .live
        .watched
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    if let Some(w) = watched.get_mut(&token) {
        w.last = Arc::clone(&update);
        let _ = w.sender.send(update);
    }
}

/// The page `token` names, if readers watch it already and it is a page of `kind` (`g`,
/// `e`, …): what a new reader begins with, and his place among them.
pub fn watching(
    shared: &Shared,
    token: &str,
    kind: &str,
) -> Option<(Update, broadcast::Receiver<Update>)> {
    let watched = shared
        .live
        .watched
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    let w = watched.get(token).filter(|w| w.page.path() == kind)?;
    Some((Arc::clone(&w.last), w.sender.subscribe()))
}

/// Watches `page` (its token `token`), whose part as it stands is `first`: what a new reader
/// begins with (another's, if one began meanwhile), and his place among its readers.
pub fn watch(
    shared: &Shared,
    token: &str,
    page: Page,
    first: Update,
) -> (Update, broadcast::Receiver<Update>) {
    let mut watched = shared
        .live
        .watched
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    let w = watched.entry(token.to_string()).or_insert_with(|| Watch {
        page,
        sender: broadcast::channel(16).0,
        last: first,
    });
    (Arc::clone(&w.last), w.sender.subscribe())
}

/// A reader's stream: `first`, then every update `receiver` gets; `permit` is held while it is
/// open.
pub fn stream(
    first: Update,
    receiver: broadcast::Receiver<Update>,
    permit: Place,
) -> Sse<impl Stream<Item = Result<Sent, Infallible>> + use<>> {
    let start = (Some(first), receiver, permit);
    let stream = futures_util::stream::unfold(start, |(first, mut receiver, permit)| async move {
        if let Some(update) = first {
            let sent = Sent::default().event("update").data(update.as_str());
            return Some((Ok(sent), (None, receiver, permit)));
        }
        loop {
            match receiver.recv().await {
                Ok(update) => {
                    let sent = Sent::default().event("update").data(update.as_str());
                    return Some((Ok(sent), (None, receiver, permit)));
                }
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => return None,
            }
        }
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}
