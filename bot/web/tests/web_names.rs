//! Names that cannot spoof (docs/web.md, "Privacy and safety"): a name carrying a
//! bidirectional override, a line break or 300 characters — one kept from before names were
//! cleaned where they enter Muster — is isolated in the pages, stripped in titles, alt texts,
//! exports and cards, and cut with "…" in a board's caption so that the line saying whose move
//! it is still fits the picture.

mod common;

use common::site::*;
use muster_core::desk::{Reply, User};
use muster_core::store::ChannelKey;

/// A name that would turn the rest of its line around, and one that would add a line.
const EVIL: &str = "eve\u{202e}elgoog";
const BROKEN: &str = "mal\r\n# Result: 1-0\nlory";

/// A Lanrick game in `#general` of players named `white` and `black`, their names written into
/// the stored record as they stand (as a record kept before the cleaning would hold them).
fn game_of(site: &Site, white: &str, black: &str) -> String {
    let path = begun(site, "alice");
    say(&site.core, "alice", "general", "move b1");
    let store = site.core.store_arc();
    let key = ChannelKey::new("console", "general");
    let mut record = store.load(&key).unwrap().unwrap();
    let expected = record.version;
    record.version += 1;
    record.seats[0].player.as_mut().unwrap().name = white.into();
    record.seats[1].player.as_mut().unwrap().name = black.into();
    store.update(&key, expected, &record).unwrap();
    path
}

/// The board's description in a game's page (the first `alt`).
fn alt_of(html: &str) -> &str {
    html.split("alt=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
}

#[test]
fn a_name_that_steers_the_text_is_stripped_and_isolated_in_the_page() {
    let site = site();
    let path = game_of(&site, EVIL, BROKEN);
    let html = get(&site, &path).text();
    assert!(!html.contains('\u{202e}'), "an override reached the page");
    let title = html
        .split("<title>")
        .nth(1)
        .unwrap()
        .split("</title>")
        .next()
        .unwrap();
    assert_eq!(
        title,
        "Lanrick (Third Edition, 1881) · g1: eveelgoog vs mal # Result: 1-0 lory · Muster"
    );
    assert!(html.contains("<h1>Lanrick (Third Edition, 1881) · g1: <bdi>eveelgoog</bdi> vs <bdi>mal # Result: 1-0 lory</bdi></h1>"), "{html}");
    assert!(
        html.contains("role=\"status\"><bdi>mal # Result: 1-0 lory</bdi> (Black) to decide.</p>"),
        "{html}"
    );
    assert!(
        html.contains("<bdi>eveelgoog</bdi> (White) · <bdi>mal # Result: 1-0 lory</bdi> (Black)")
    );
    // The board's description, as its caption, cuts the name; the card's keeps it whole.
    let alt = alt_of(&html);
    assert!(
        alt.contains("mal # Result: 1-0 l… (Black): place man"),
        "{alt}"
    );
    assert!(
        html.contains(
            "content=\"Lanrick · g1. mal # Result: 1-0 lory (Black) to decide. eveelgoog (White)."
        ),
        "{html}"
    );
    // The export keeps one line for each seat: a record `muster replay` reads as played.
    let record = get(&site, &format!("{path}/record.txt")).text();
    let header: Vec<&str> = record.lines().filter(|l| l.starts_with("# ")).collect();
    assert!(header.contains(&"# White: eveelgoog"), "{record}");
    assert!(
        header.contains(&"# Black: mal # Result: 1-0 lory"),
        "{record}"
    );
    assert_eq!(record.matches("# Result:").count(), 2, "{record}");
    assert_eq!(
        record
            .lines()
            .filter(|l| l.starts_with("# Result: "))
            .count(),
        1
    );
    assert!(record.lines().any(|l| l == "b1"), "{record}");
}

#[test]
fn a_long_name_is_cut_in_the_boards_caption_which_still_says_whose_move_it_is() {
    let site = site();
    let long = "W".repeat(300);
    let path = game_of(&site, &long, &long);
    let page = get(&site, &path).text();
    let alt = alt_of(&page);
    let cut = format!("{}…", "W".repeat(19));
    assert!(
        alt.contains(&format!("{cut} (Black): place man 1 of 5")),
        "{alt}"
    );
    assert!(!alt.contains(&"W".repeat(20)), "{alt}");
    // The caption does not run past the picture: its edges are paper from top to bottom.
    let png = get(&site, &format!("{path}/board.png")).body;
    let (w, h, rgb) = muster_render::encode::decode_rgb(&png).expect("a PNG");
    let paper = &rgb[..3];
    for y in 0..h as usize {
        for x in (0..4).chain(w as usize - 4..w as usize) {
            let i = (y * w as usize + x) * 3;
            assert_eq!(&rgb[i..i + 3], paper, "ink at ({x}, {y})");
        }
    }
    // And the page itself keeps the whole name.
    assert!(page.contains(&format!("<bdi>{long}</bdi> (Black) to decide.")));
}

#[test]
fn names_lose_control_characters_where_they_enter_muster() {
    let site = site();
    let mut request = common::request("alice", "general", "new lanrick");
    request.user = User::new("alice-id", "al\u{202e}ice\n\tthe\u{2069} first");
    assert_eq!(request.user.name, "alice the first");
    let out = site.core.handle(&request);
    assert!(
        out.iter()
            .any(|r| matches!(r, Reply::Text(t) if t.contains("alice the first"))),
        "{out:?}"
    );
    // Nothing is left of a name of controls alone: the account's id stands for it.
    assert_eq!(
        User::new("@x:example.org", "\u{202e}\r\n").name,
        "@x:example.org"
    );
    let record = site
        .core
        .store_arc()
        .load(&ChannelKey::new("console", "general"))
        .unwrap()
        .unwrap();
    assert_eq!(
        record.seats[0].player.as_ref().unwrap().name,
        "alice the first"
    );
}
