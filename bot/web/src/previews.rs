//! What a chat fetches to show a page's link: the page found by its token, its card's picture
//! (`…/card-<version>.png`) and its oEmbed answer (`/oembed?url=…`, oembed.com), both saying
//! what the page's OpenGraph tags say.

use std::sync::Arc;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use super::Shared;
use super::asked::{Asked, Tokens, blocking, not_found};
use super::cards::{Preview, is_card};
use muster_core::kernel::pages::{Page, well_formed};
use muster_core::kernel::store::GameRecord;

/// The page `token` names if it is of `kind` (`g`, `e`, …).
pub fn page_of(shared: &Shared, token: &str, kind: &str) -> Option<Page> {
    if !well_formed(token) {
        return None;
    }
    shared.page(token).filter(|p| p.path() == kind)
}

/// The game `token` names, as it stands (unless it shows nothing).
pub fn game_of(shared: &Shared, token: &str) -> Option<GameRecord> {
    page_of(shared, token, "g").and_then(|p| super::game::find(shared, &p))
}

/// The event `token` names (unless it shows nothing).
pub fn event_of(shared: &Shared, token: &str) -> Option<muster_core::desk::Event> {
    page_of(shared, token, "e").and_then(|p| super::event::find(shared, &p))
}

/// The title and preview of the page of `kind` that `key` names (a token; a community's name
/// for `c`), unless it shows nothing.
pub fn preview_of(shared: &Shared, kind: &str, key: &str) -> Option<(String, Preview)> {
    match kind {
        "g" => game_of(shared, key).map(|r| (super::game::title(&r), super::game::preview(&r))),
        "e" => event_of(shared, key).map(|e| {
            (
                format!("Tournament {}", e.name),
                super::event::preview(shared, &e),
            )
        }),
        "p" | "l" => {
            let page = page_of(shared, key, kind)?;
            let found = if kind == "p" {
                super::people::player(shared, &page)
            } else {
                super::people::leaders(shared, &page)
            }?;
            Some((found.title, found.preview))
        }
        "c" => super::index::find(shared, key).map(|i| {
            (
                format!("{} — games and events", i.name),
                super::index::preview(&i),
            )
        }),
        _ => None,
    }
}

/// A page's card (`/<kind>/<key>/card-<version>.png`): the card of the page as it stands,
/// whichever version the address names (the address only keeps a chat's cache apart).
pub async fn card(shared: Arc<Shared>, kind: &'static str, Tokens(key, file): Tokens) -> Response {
    if !is_card(&file) {
        return not_found();
    }
    blocking(move || {
        let Some((_, preview)) = preview_of(&shared, kind, &key) else {
            return not_found();
        };
        match shared.cards.draw(&preview, &shared.boards) {
            Ok(png) => (
                [
                    (header::CONTENT_TYPE, "image/png"),
                    (header::CACHE_CONTROL, "public, max-age=3600"),
                ],
                png.as_ref().clone(),
            )
                .into_response(),
            Err(why) => {
                tracing::warn!("a link card could not be drawn: {why}");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    format!("The card cannot be drawn: {why}"),
                )
                    .into_response()
            }
        }
    })
    .await
}

/// The page a page's address names, as (kind, key): `https://base/g/<token>` → (`g`, token).
fn addressed<'a>(base: &str, url: &'a str) -> Option<(&'a str, &'a str)> {
    let path = url.strip_prefix(base)?.strip_prefix('/')?;
    let path = path.split(['?', '#']).next()?;
    let (kind, key) = path.split_once('/')?;
    let kind = ["g", "e", "p", "l", "c"].into_iter().find(|k| *k == kind)?;
    (!key.is_empty() && !key.contains('/')).then_some((kind, key))
}

/// The title of the rules page at `url` (`/rules`, `/rules/<game>`), if it is one.
fn rules_title(base: &str, url: &str) -> Option<String> {
    let path = url.strip_prefix(base)?.split(['?', '#']).next()?;
    match path.strip_prefix("/rules") {
        Some("" | "/") => Some("Rules of the games".into()),
        Some(rest) => {
            let page = super::rules::page(rest.strip_prefix('/')?)?;
            Some(format!("Rules of {}", page.title))
        }
        None => None,
    }
}

/// The oEmbed answer for the page at `url` (oembed.com, JSON only): a photo, its card, unless
/// the card is larger than the asker allows (`maxwidth`, `maxheight`), then a link. Another
/// format is 501, as the specification says; an address that shows nothing is the one 404.
pub async fn oembed(State(shared): State<Arc<Shared>>, Asked(asked): Asked) -> Response {
    if asked.get("format").is_some_and(|f| f != "json") {
        return (
            StatusCode::NOT_IMPLEMENTED,
            "Only JSON is answered: ask with format=json.",
        )
            .into_response();
    }
    blocking(move || {
        let base = shared.base();
        let url = asked.get("url").map(String::as_str).unwrap_or_default();
        if let Some(title) = rules_title(&base, url) {
            // A rules page has no card: its answer is a link.
            let answer = serde_json::json!({
                "version": "1.0",
                "type": "link",
                "title": title,
                "provider_name": super::html::SITE,
                "provider_url": base,
                "cache_age": 3600,
            });
            return (
                [(header::CONTENT_TYPE, "application/json")],
                answer.to_string(),
            )
                .into_response();
        }
        let Some((kind, key)) = addressed(&base, url) else {
            return not_found();
        };
        let key = percent_decoded(key);
        let Some((title, preview)) = preview_of(&shared, kind, &key) else {
            return not_found();
        };
        let path = format!("/{kind}/{}", super::html::encoded(&key));
        let image = preview.image(&path);
        let fits = |limit: &str, size: u32| {
            asked
                .get(limit)
                .and_then(|v| v.parse::<u32>().ok())
                .is_none_or(|max| size <= max)
        };
        let mut answer = serde_json::json!({
            "version": "1.0",
            "type": "link",
            "title": title,
            "provider_name": super::html::SITE,
            "provider_url": base,
            "cache_age": 300,
        });
        if fits("maxwidth", image.size.0) && fits("maxheight", image.size.1) {
            answer["type"] = "photo".into();
            answer["url"] = format!("{base}{}", image.path).into();
            answer["width"] = image.size.0.into();
            answer["height"] = image.size.1.into();
        }
        (
            [(header::CONTENT_TYPE, "application/json")],
            answer.to_string(),
        )
            .into_response()
    })
    .await
}

/// `text` with its `%XX` escapes read (a community's name in an address); unreadable escapes
/// are left as they are.
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) if hex(h).is_some() && hex(l).is_some() => {
                out.push((hex(h).unwrap_or(0) * 16 + hex(l).unwrap_or(0)) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_page_of_the_site_is_addressed() {
        let base = "https://games.example.org";
        assert_eq!(
            addressed(base, "https://games.example.org/g/abc?ply=3"),
            Some(("g", "abc"))
        );
        assert_eq!(
            addressed(base, "https://games.example.org/c/club"),
            Some(("c", "club"))
        );
        for other in [
            "https://elsewhere.example.org/g/abc",
            "https://games.example.org/g/abc/board.png",
            "https://games.example.org/x/abc",
            "https://games.example.org/g/",
            "https://games.example.org.evil/g/abc",
        ] {
            assert_eq!(addressed(base, other), None, "{other}");
        }
        assert_eq!(percent_decoded("carroll%20club%zz"), "carroll club%zz");
    }
}
