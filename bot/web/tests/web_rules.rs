//! The rules pages (docs/web.md, "Rules"): every game's rules at `/rules/<game>`, with no
//! token, made from the repository's rules documents; their diagrams drawn by the renderer
//! and served beside them; no link to a file a reader of the site cannot open.

mod common;

use common::site::*;
use muster_rules::GameId;
use scraper::{Html, Selector};

fn select<'a>(doc: &'a Html, selector: &str) -> Vec<scraper::ElementRef<'a>> {
    doc.select(&Selector::parse(selector).unwrap()).collect()
}

#[test]
fn every_game_has_its_rules_page_with_its_diagrams_served() {
    let site = site();
    let index = get(&site, "/rules");
    assert_eq!(index.status, 200);
    let listed = Html::parse_document(&index.text());
    let links: Vec<String> = select(&listed, "main nav a")
        .iter()
        .filter_map(|a| a.value().attr("href").map(str::to_string))
        .collect();
    assert_eq!(links.len(), GameId::ALL.len(), "{links:?}");
    let mut diagrams = 0;
    for game in GameId::ALL {
        let path = format!("/rules/{game}");
        assert!(links.contains(&path), "{path} in {links:?}");
        let page = get(&site, &path);
        assert_eq!(page.status, 200, "{path}");
        let doc = Html::parse_document(&page.text());
        let h1: String = select(&doc, "h1")[0].text().collect();
        assert!(h1.starts_with("Rules of "), "{h1}");
        // The current page is marked in the games' list.
        let current: Vec<String> = select(&doc, "nav a[aria-current=page]")
            .iter()
            .filter_map(|a| a.value().attr("href").map(str::to_string))
            .collect();
        assert_eq!(current, std::slice::from_ref(&path));
        // No link to the repository's files: each goes to the site or to the web.
        for a in select(&doc, "article a") {
            let href = a.value().attr("href").unwrap_or_default();
            assert!(
                href.starts_with('#') || href.starts_with("/rules/") || href.starts_with("http"),
                "{path}: a link to {href}"
            );
            if let Some(section) = href.strip_prefix('#') {
                assert_eq!(
                    select(&doc, &format!("[id=\"{section}\"]")).len(),
                    1,
                    "{path}: the section {href} is on the page"
                );
            }
        }
        assert!(!page.text().contains("docs/rules/"), "{path}");
        // A rules page is no chat channel's page, and does not say it is.
        let footer: String = select(&doc, "footer")[0].text().collect();
        assert!(footer.contains("the rules Muster plays by"), "{footer}");
        // Every picture is served, a PNG, and described.
        for img in select(&doc, "article img") {
            let src = img.value().attr("src").unwrap();
            let alt = img.value().attr("alt").unwrap_or_default();
            assert!(alt.len() > 10, "{path}: {src} is described: {alt:?}");
            let png = get(&site, src);
            assert_eq!(png.status, 200, "{src}");
            assert_eq!(png.header("content-type"), Some("image/png"), "{src}");
            let (w, h) = png_size(&png.body).expect("a PNG");
            assert!(w >= 300 && h >= 300, "{src}: {w}×{h}");
            diagrams += usize::from(src.contains("/diagram-"));
        }
    }
    assert!(diagrams >= 3, "{diagrams} diagrams drawn");
}

#[test]
fn a_text_board_of_the_rules_is_drawn_with_its_notes_and_kept_as_text() {
    let site = site();
    let page = get(&site, "/rules/lanrick");
    let doc = Html::parse_document(&page.text());
    let figures = select(&doc, "figure.diagram");
    // Worked examples, 1, 5 and 6: placement, the game continued, and a won rendezvous's
    // taking, wanderers, equalising and the next round.
    assert_eq!(figures.len(), 6);
    let caption_of = |f: &scraper::ElementRef<'_>| -> String {
        f.select(&Selector::parse("figcaption").unwrap())
            .flat_map(|c| c.text())
            .collect()
    };
    // The notes beside the document's text board (Worked examples, 5) are its caption.
    let first = figures
        .iter()
        .find(|f| caption_of(f).contains("Mark on c4; rendezvous b3–d5."))
        .expect("example 5's board");
    assert!(caption_of(first).contains("White to play, budget 5."));
    let text: String = first
        .select(&Selector::parse("details pre").unwrap())
        .flat_map(|c| c.text())
        .collect();
    assert!(text.contains("8 . . . . . B . ."), "{text}");
    // The picture says what it shows: the men on it.
    let alt = first
        .select(&Selector::parse("img").unwrap())
        .next()
        .and_then(|i| i.value().attr("alt"))
        .unwrap()
        .to_string();
    assert!(alt.contains("c4"), "{alt}");
}

#[test]
fn what_is_not_a_rules_page_is_not_found_like_every_miss() {
    let site = site();
    let miss = get(&site, "/g/nothing-here").text();
    for path in [
        "/rules/chess",
        "/rules/lanrick/diagram-0.png",
        "/rules/lanrick/diagram-999.png",
        "/rules/lanrick/diagram-1.gif",
        // A picture of another page's document is not this page's.
        "/rules/lanrick/lanko88-start.png",
        "/rules/lanrick/../../Cargo.toml",
        "/rules/lanrick/%2e%2e%2fCargo.toml",
    ] {
        let answer = get(&site, path);
        assert_eq!(answer.status, 404, "{path}");
        assert_eq!(answer.text(), miss, "{path}");
    }
    assert_eq!(get(&site, "/rules/lanko88/lanko88-start.png").status, 200);
}

/// The text of `replies`, private ones included.
fn said(replies: &[muster_core::desk::Reply]) -> String {
    use muster_core::desk::Reply;
    replies
        .iter()
        .filter_map(|r| match r {
            Reply::Text(t) | Reply::Private(t) => Some(t.clone()),
            Reply::Mention { text, .. } => Some(text.clone()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn rules_notation_help_and_the_game_page_link_the_rules_pages() {
    let site = site();
    let base = format!("http://{}", site.addr);
    for game in GameId::ALL {
        let rules = said(&say(
            &site.core,
            "alice",
            "lounge",
            &format!("rules {game}"),
        ));
        let link = format!("{base}/rules/{game}");
        assert!(rules.ends_with(&link), "{rules}");
        assert!(!rules.contains("docs/"), "{rules}");
        assert_eq!(get(&site, &format!("/rules/{game}")).status, 200);
        // The notation's link goes to the page's section of that name.
        let notation = said(&say(
            &site.core,
            "alice",
            "lounge",
            &format!("notation {game}"),
        ));
        assert!(
            notation.ends_with(&format!("{link}#notation")),
            "{notation}"
        );
        let page = Html::parse_document(&get(&site, &format!("/rules/{game}")).text());
        assert_eq!(select(&page, "h2#notation").len(), 1, "{game}");
    }
    let help = said(&say(&site.core, "alice", "lounge", "help"));
    assert!(help.ends_with(&format!("{base}/rules")), "{help}");
    // A game's page says where its rules are.
    let page = get(&site, &begun(&site, "alice")).text();
    let doc = Html::parse_document(&page);
    let links: Vec<&str> = select(&doc, "p.rules a")
        .iter()
        .filter_map(|a| a.value().attr("href"))
        .collect();
    assert_eq!(links, ["/rules/lanrick"], "{page}");
}

#[test]
fn a_rules_pages_link_in_a_chat_has_its_title() {
    let site = site();
    let base = format!("http://{}", site.addr);
    let page = Html::parse_document(&get(&site, "/rules/croquet").text());
    let oembed = select(&page, "head link[type=\"application/json+oembed\"]")[0]
        .value()
        .attr("href")
        .unwrap()
        .to_string();
    let answer = get(&site, &oembed[base.len()..]);
    assert_eq!(answer.status, 200, "{oembed}");
    let v: serde_json::Value = serde_json::from_slice(&answer.body).unwrap();
    assert_eq!(v["title"], "Rules of Arithmetical Croquet (1889)");
    assert_eq!(v["type"], "link");
    let url = format!("/oembed?format=json&url={base}/rules/chess");
    assert_eq!(get(&site, &url).status, 404);
}
