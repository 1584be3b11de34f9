//! The pages' frame: the document around each page (its language, title, landmarks, the style
//! sheet and the script, both served from here so that the Content-Security-Policy allows no
//! inline code), what a chat shows when the page's link is posted (OpenGraph and Twitter card
//! tags, an oEmbed link), names isolated from the text around them, times as the reader's, and
//! the one "not found" page.

use maud::{DOCTYPE, Markup, PreEscaped, html};

use muster_core::kernel::text::clean_name;

/// The style sheet: readable at phone size, light and dark after the reader's settings.
pub const STYLE: &str = include_str!("muster.css");

/// The script: live updates and the replay's slider and keys. The pages read without it.
pub const SCRIPT: &str = include_str!("muster.js");

/// The colour a chat draws beside a page's preview, and a phone's browser around the page: the
/// pages' own strong colour (`--mark` in the style sheet).
pub const THEME_COLOUR: &str = "#7a3b00";

/// The site's name in a link's preview.
pub const SITE: &str = "Muster";

/// A link card's picture: where it is, its size and what it shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardImage {
    /// Its address under the site (`/g/<token>/card-12.png`).
    pub path: String,
    /// Its width and height in pixels.
    pub size: (u32, u32),
    /// What it shows, for those who cannot see it.
    pub alt: String,
}

/// What a page says of itself: in the tab, as its heading, and to a chat that shows its link.
pub struct Head {
    /// The title: plain text, its names cleaned (`Lanrick · g12: alice vs bob`).
    pub title: String,
    /// The heading, with its names isolated; the title when `None`.
    pub heading: Option<Markup>,
    /// What a link's preview says under the title.
    pub description: String,
    /// The page's own address under the site (`/g/<token>`).
    pub path: String,
    /// The picture a link's preview shows.
    pub card: Option<CardImage>,
    /// The page's live stream and the version of what the page shows, if it has one.
    pub live: Option<(String, String)>,
}

/// A whole page: `head` in the document's head and as its heading, `body` in its main
/// landmark; `base` is the address the site is reached at (`https://games.example.org`), which
/// a link's preview needs whole.
pub fn page(head: &Head, base: &str, body: Markup) -> Markup {
    let (address, version) = head
        .live
        .as_ref()
        .map(|(a, v)| (a.as_str(), v.as_str()))
        .unzip();
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (head.title) " · " (SITE) }
                (preview(head, base))
                link rel="stylesheet" href="/s/muster.css";
                script src="/s/muster.js" defer {}
            }
            body {
                header { p.brand { (SITE) } }
                main id="main" data-live=[address] data-version=[version] {
                    h1 {
                        @match &head.heading {
                            Some(heading) => (heading),
                            None => (head.title),
                        }
                    }
                    (body)
                }
                footer {
                    @if head.path.starts_with("/rules") {
                        p { "Muster — Lewis Carroll's games. These are the rules Muster plays by, with every ruling." }
                    } @else if head.path.starts_with("/learn") || head.path.starts_with("/puzzle") {
                        p { "Muster — Lewis Carroll's games. Answers here are checked by the rules and kept nowhere." }
                    } @else {
                        p { "Muster — Lewis Carroll's games. This page shows what its chat channel shows." }
                    }
                }
            }
        }
    }
}

/// The tags a chat reads to show a page's link (OpenGraph, Twitter's card, an oEmbed link).
fn preview(head: &Head, base: &str) -> Markup {
    let url = format!("{base}{}", head.path);
    let oembed = format!("{base}/oembed?format=json&url={}", encoded(&url));
    html! {
        meta name="description" content=(head.description);
        link rel="canonical" href=(url);
        meta property="og:site_name" content=(SITE);
        meta property="og:type" content="website";
        meta property="og:title" content=(head.title);
        meta property="og:description" content=(head.description);
        meta property="og:url" content=(url);
        @if let Some(card) = &head.card {
            meta property="og:image" content={(base) (card.path)};
            meta property="og:image:type" content="image/png";
            meta property="og:image:width" content=(card.size.0);
            meta property="og:image:height" content=(card.size.1);
            meta property="og:image:alt" content=(card.alt);
            meta name="twitter:card" content="summary_large_image";
            meta name="twitter:image" content={(base) (card.path)};
            meta name="twitter:image:alt" content=(card.alt);
        } @else {
            meta name="twitter:card" content="summary";
        }
        meta name="twitter:title" content=(head.title);
        meta name="twitter:description" content=(head.description);
        meta name="theme-color" content=(THEME_COLOUR);
        link rel="alternate" type="application/json+oembed" href=(oembed) title=(head.title);
    }
}

/// `text` as a query's value (RFC 3986: everything but the unreserved characters escaped).
pub fn encoded(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 3);
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A name in a page: cleaned of what could spoof its line, and isolated from the text around
/// it (`<bdi>`), so that a name written right to left does not turn its neighbours around.
pub fn name(name: &str) -> Markup {
    html! { bdi { (clean_name(name)) } }
}

/// `text` with each of `names` in it isolated as [`name`] isolates it (the longest first where
/// one holds another); the rest of the text as it is, escaped.
pub fn named(text: &str, names: &[&str]) -> Markup {
    let mut names: Vec<&str> = names.iter().copied().filter(|n| !n.is_empty()).collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    names.dedup();
    let mut out = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        let first = names
            .iter()
            .filter_map(|n| rest.find(n).map(|at| (at, *n)))
            .min_by_key(|(at, n)| (*at, std::cmp::Reverse(n.len())));
        let Some((at, n)) = first else {
            out.push_str(&html! { (rest) }.into_string());
            break;
        };
        out.push_str(&html! { (rest[..at]) bdi { (n) } }.into_string());
        rest = &rest[at + n.len()..];
    }
    PreEscaped(out)
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
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { "Not found · " (SITE) }
                link rel="stylesheet" href="/s/muster.css";
            }
            body {
                header { p.brand { (SITE) } }
                main id="main" {
                    h1 { "Not found" }
                    p { "There is no page at this address. Pages are reached through the links the chat gives." }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_isolated_in_their_line_and_the_rest_is_escaped() {
        let line = named("eve (White) beat <eve2> (Black)", &["eve", "<eve2>"]);
        assert_eq!(
            line.into_string(),
            "<bdi>eve</bdi> (White) beat <bdi>&lt;eve2&gt;</bdi> (Black)"
        );
        assert_eq!(
            name("mal\u{202e}lory\n").into_string(),
            "<bdi>mallory</bdi>"
        );
        assert_eq!(named("no names here", &[""]).into_string(), "no names here");
    }

    #[test]
    fn a_query_value_escapes_all_but_the_unreserved() {
        assert_eq!(
            encoded("https://x.org/g/ab?c=d e"),
            "https%3A%2F%2Fx.org%2Fg%2Fab%3Fc%3Dd%20e"
        );
    }
}
