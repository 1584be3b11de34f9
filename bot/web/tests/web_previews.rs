//! A page's link as a chat shows it (docs/web.md, "Links in a chat"): every page's OpenGraph
//! and Twitter card tags, read by an HTML parser as a chat's crawler reads them; its card, a
//! landscape PNG whose address changes with the position; and the oEmbed answer the page
//! links.

mod common;

use common::site::*;
use muster_core::kernel::reply::LinkKind;
use scraper::{Html, Selector};

/// The tags of a page's head that a chat reads: `property` or `name`, and `content`.
struct Tags {
    doc: Html,
}

impl Tags {
    fn of(html: &str) -> Tags {
        Tags {
            doc: Html::parse_document(html),
        }
    }

    /// The content of the one `meta` whose `property` (or `name`) is `key`.
    fn meta(&self, key: &str) -> String {
        let selector = Selector::parse(&format!(
            "head meta[property=\"{key}\"], head meta[name=\"{key}\"]"
        ))
        .unwrap();
        let found: Vec<_> = self.doc.select(&selector).collect();
        assert_eq!(found.len(), 1, "one {key}");
        found[0]
            .value()
            .attr("content")
            .unwrap_or_default()
            .to_string()
    }

    /// The `href` of the one `link` in the head matching `selector`.
    fn link(&self, selector: &str) -> String {
        let s = Selector::parse(&format!("head link{selector}")).unwrap();
        let found: Vec<_> = self.doc.select(&s).collect();
        assert_eq!(found.len(), 1, "one link{selector}");
        found[0]
            .value()
            .attr("href")
            .unwrap_or_default()
            .to_string()
    }
}

/// Checks the tags every page carries, and that its card is a 1200 × 630 PNG; the card's
/// address, under the site.
fn every_tag(site: &Site, path: &str) -> String {
    let base = format!("http://{}", site.addr);
    let tags = Tags::of(&get(site, path).text());
    assert_eq!(tags.meta("og:url"), format!("{base}{path}"));
    assert_eq!(tags.link("[rel=canonical]"), format!("{base}{path}"));
    assert_eq!(tags.meta("og:site_name"), "Muster");
    assert_eq!(tags.meta("og:type"), "website");
    assert!(!tags.meta("og:title").is_empty());
    assert!(!tags.meta("og:description").is_empty());
    assert_eq!(tags.meta("twitter:title"), tags.meta("og:title"));
    assert_eq!(
        tags.meta("twitter:description"),
        tags.meta("og:description")
    );
    assert_eq!(tags.meta("twitter:card"), "summary_large_image");
    assert!(tags.meta("theme-color").starts_with('#'));
    let image = tags.meta("og:image");
    assert_eq!(tags.meta("twitter:image"), image);
    assert_eq!(tags.meta("og:image:type"), "image/png");
    assert_eq!(
        (tags.meta("og:image:width"), tags.meta("og:image:height")),
        ("1200".to_string(), "630".to_string())
    );
    assert!(
        tags.meta("og:image:alt").len() > 10,
        "{}",
        tags.meta("og:image:alt")
    );
    let card = image
        .strip_prefix(&base)
        .expect("an absolute address on the site");
    let png = get(site, card);
    assert_eq!(png.status, 200, "{card}");
    assert_eq!(png.header("content-type"), Some("image/png"));
    assert_eq!(png_size(&png.body), Some((1200, 630)), "{card}");
    // The oEmbed link names this page, and its answer this card.
    let oembed = tags.link("[rel=alternate][type=\"application/json+oembed\"]");
    let answer = get(site, oembed.strip_prefix(&base).expect("on the site"));
    assert_eq!(answer.header("content-type"), Some("application/json"));
    let json: serde_json::Value = serde_json::from_slice(&answer.body).expect("JSON");
    assert_eq!(json["version"], "1.0");
    assert_eq!(json["type"], "photo");
    assert_eq!(json["url"], image.as_str());
    assert_eq!(
        (json["width"].as_u64(), json["height"].as_u64()),
        (Some(1200), Some(630))
    );
    assert_eq!(json["title"], tags.meta("og:title").as_str());
    card.to_string()
}

#[test]
fn a_games_link_shows_its_board_and_the_card_follows_the_position() {
    let site = site();
    let path = begun(&site, "alice");
    let first = every_tag(&site, &path);
    let first_card = get(&site, &first).body;
    let tags = Tags::of(&get(&site, &path).text());
    assert!(
        tags.meta("og:title").contains("alice vs bob"),
        "{}",
        tags.meta("og:title")
    );
    assert!(
        tags.meta("og:description")
            .contains("alice (White) to decide."),
        "{}",
        tags.meta("og:description")
    );
    say(&site.core, "alice", "general", "move b1");
    let second = every_tag(&site, &path);
    assert_ne!(first, second, "a new position, a new address");
    assert!(
        first_card != get(&site, &second).body,
        "the card shows the new position"
    );
    let tags = Tags::of(&get(&site, &path).text());
    assert!(
        tags.meta("og:description")
            .contains("bob (Black) to decide.")
    );
    assert!(tags.meta("og:image:alt").contains("bob (Black) to decide"));
    say(&site.core, "bob", "general", "resign");
    let over = Tags::of(&get(&site, &path).text());
    assert!(
        over.meta("og:description")
            .contains("alice (White) wins by resignation."),
        "{}",
        over.meta("og:description")
    );
    assert_ne!(every_tag(&site, &path), second);
}

#[test]
fn the_oembed_answer_is_for_the_sites_pages_only_and_in_json() {
    let site = site();
    let path = begun(&site, "alice");
    let url = format!("http://{}{path}", site.addr);
    let ask_for = |query: &str| get(&site, &format!("/oembed?{query}"));
    let encoded = muster_web::html::encoded(&url);
    assert_eq!(ask_for(&format!("url={encoded}")).status, 200);
    assert_eq!(ask_for(&format!("url={encoded}&format=xml")).status, 501);
    let small: serde_json::Value =
        serde_json::from_slice(&ask_for(&format!("url={encoded}&maxwidth=600")).body).unwrap();
    assert_eq!(small["type"], "link");
    assert!(small.get("url").is_none(), "{small}");
    let unknown = get(&site, &format!("/g/{}", "0".repeat(32)));
    for other in [
        format!(
            "url={}",
            muster_web::html::encoded("https://elsewhere.example.org/g/x")
        ),
        format!("url={encoded}%2Fboard.png"),
        "url=".to_string(),
        String::new(),
    ] {
        let a = ask_for(&other);
        assert_eq!((a.status, a.body), (404, unknown.body.clone()), "{other}");
    }
}

#[test]
fn every_kind_of_page_has_its_card() {
    let communities = muster_core::kernel::community::Communities::new(vec![
        muster_core::kernel::community::Community {
            name: "club".into(),
            members: vec![muster_core::kernel::community::Member::channel(
                "console", "general",
            )],
            web: muster_config::Visibility::Public,
            ..Default::default()
        },
    ]);
    let site = site_with(16, communities);
    let core = &site.core;
    for _ in 0..2 {
        say(core, "bob", "general", "new croquet");
        say(core, "alice", "general", "join");
        for (n, who) in ["bob", "alice", "bob", "alice"].iter().enumerate() {
            say(core, who, "general", &format!("move {}", n + 1));
        }
        say(core, "bob", "general", "resign");
    }
    let player = link(
        &site,
        &say(core, "alice", "general", "rating"),
        LinkKind::Player,
    );
    let leaders = link(
        &site,
        &say(core, "alice", "general", "leaderboard croquet"),
        LinkKind::Leaders,
    );
    let opened = say(
        core,
        "olive",
        "general",
        "tournament new league croquet roundrobin",
    );
    let event = link(&site, &opened, LinkKind::Event);
    for p in ["ann", "ben"] {
        say(core, p, "general", "tournament join league");
    }
    let before = every_tag(&site, &event);
    let tags = Tags::of(&get(&site, &event).text());
    assert!(
        tags.meta("og:image:alt").contains("ann"),
        "{}",
        tags.meta("og:image:alt")
    );
    say(core, "olive", "general", "tournament start league");
    common::open_places(core);
    assert_ne!(
        every_tag(&site, &event),
        before,
        "the card follows the event"
    );
    let card = every_tag(&site, &player);
    assert!(card.starts_with(&format!("{player}/card-")), "{card}");
    every_tag(&site, &leaders);
    every_tag(&site, "/c/club");
}
