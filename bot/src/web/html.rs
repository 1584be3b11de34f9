//! The pages' frame: the document around each page (its language, title, landmarks, the style
//! sheet and the script, both served from here so that the Content-Security-Policy allows no
//! inline code), times as the reader's, and the one "not found" page.

use maud::{DOCTYPE, Markup, html};

/// The style sheet: readable at phone size, light and dark after the reader's settings.
pub const STYLE: &str = include_str!("muster.css");

/// The script: live updates and the replay's slider and keys. The pages read without it.
pub const SCRIPT: &str = include_str!("muster.js");

/// A whole page: `title` in the tab and as its heading, `body` in its main landmark; `live`,
/// the address of its live stream and the version of what the page shows, if it has one.
pub fn page(title: &str, live: Option<(&str, &str)>, body: Markup) -> Markup {
    let (address, version) = live.unzip();
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · Muster" }
                link rel="stylesheet" href="/s/muster.css";
                script src="/s/muster.js" defer {}
            }
            body {
                header { p.brand { "Muster" } }
                main id="main" data-live=[address] data-version=[version] {
                    h1 { (title) }
                    (body)
                }
                footer {
                    p { "Muster — Lewis Carroll's games. This page shows what its chat channel shows." }
                }
            }
        }
    }
}

/// An instant as a `<time>`: UTC in the page (`2026-11-28 10:00 UTC`), which the script
/// writes again in the reader's own zone.
pub fn time(at: u64) -> Markup {
    let at = i64::try_from(at).unwrap_or(i64::MAX);
    let Some(t) = chrono::DateTime::from_timestamp(at, 0) else {
        return html! { "?" };
    };
    html! {
        time datetime=(t.format("%Y-%m-%dT%H:%M:%SZ").to_string()) {
            (t.format("%Y-%m-%d %H:%M UTC").to_string())
        }
    }
}

/// The page every address that shows nothing answers: an unknown token, a malformed path, a
/// community that keeps off the web. They are alike, so that none tells which it is.
pub fn not_found() -> Markup {
    page(
        "Not found",
        None,
        html! {
            p { "There is no page at this address. Pages are reached through the links the chat gives." }
        },
    )
}
