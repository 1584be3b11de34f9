//! The rules pages (docs/web.md, "Rules"): `/rules/<game>` shows the game's rules document as
//! the repository keeps it (docs/rules/<game>.md, built into Muster), turned into HTML by
//! pulldown-cmark the first time the pages are asked for, so that the repository and the site
//! have one text. Each text board of a document (a code block with a `position:` line) is
//! drawn by the renderer from that position and served beside the page; the board pictures a
//! document shows are served from the repository's copies. Links to another rules document go
//! to its page; links to the rest of the repository, which a reader of the site cannot open,
//! keep their words and lose their link.

use std::collections::HashMap;
use std::sync::OnceLock;

use maud::{Markup, PreEscaped, html};
use muster_render::{Style, any};
use muster_rules::{AnyGame, GameId};
use pulldown_cmark::{CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// Each game's page name, its rules document, and the games the document's positions may be.
const DOCUMENTS: [(&str, &str, &[GameId]); 6] = [
    (
        "lanrick",
        include_str!("../../../docs/rules/lanrick.md"),
        &[GameId::Lanrick],
    ),
    (
        "lanrick1880",
        include_str!("../../../docs/rules/lanrick1880.md"),
        &[GameId::Lanrick1880],
    ),
    (
        "croquet",
        include_str!("../../../docs/rules/croquet.md"),
        &[GameId::Croquet],
    ),
    (
        "lanko88",
        LANKO,
        &[GameId::Lanko88, GameId::Lanko68, GameId::Lanko103],
    ),
    (
        "lanko68",
        LANKO,
        &[GameId::Lanko68, GameId::Lanko88, GameId::Lanko103],
    ),
    (
        "lanko103",
        LANKO,
        &[GameId::Lanko103, GameId::Lanko88, GameId::Lanko68],
    ),
];

/// The one document of the three Lanko boards.
const LANKO: &str = include_str!("../../../docs/rules/lanko.md");

/// The board pictures the documents show, by the path they give (the renderer's drawings,
/// kept in the repository beside the documents), and the name each is served under.
const PICTURES: [(&str, &str, &[u8]); 4] = [
    (
        "../images/lanko88-start.png",
        "lanko88-start.png",
        include_bytes!("../../../docs/images/lanko88-start.png"),
    ),
    (
        "../images/lanko68-start.png",
        "lanko68-start.png",
        include_bytes!("../../../docs/images/lanko68-start.png"),
    ),
    (
        "../images/lanko103-start.png",
        "lanko103-start.png",
        include_bytes!("../../../docs/images/lanko103-start.png"),
    ),
    (
        "../../render/tests/golden/lanrick1880-classic-white.png",
        "lanrick1880-shift.png",
        include_bytes!("../../../render/tests/golden/lanrick1880-classic-white.png"),
    ),
];

/// A board drawn for a page: the PNG and what it shows.
pub struct Diagram {
    /// The picture.
    pub png: Vec<u8>,
    /// Its description, for those who cannot see it.
    pub alt: String,
}

/// A game's rules page, made once.
pub struct RulesPage {
    /// The page's name in its address (`lanrick`).
    pub name: &'static str,
    /// The document's title (`Lanrick (Third Edition, 1881)`).
    pub title: String,
    /// The document's first paragraph, as plain text (a link's preview).
    pub summary: String,
    /// The document as HTML, its title left out (the page's heading says it).
    pub body: String,
    /// Its diagrams, in order: `diagram-1.png` is the first.
    pub diagrams: Vec<Diagram>,
}

/// Every game's page, made the first time one is asked for (the listener asks at start).
pub fn pages() -> &'static [RulesPage] {
    static PAGES: OnceLock<Vec<RulesPage>> = OnceLock::new();
    PAGES.get_or_init(make)
}

/// Every game's page, made now: each document converted and its diagrams drawn.
pub fn make() -> Vec<RulesPage> {
    DOCUMENTS
        .iter()
        .map(|(name, text, games)| convert(name, text, games))
        .collect()
}

/// The page of the game named `name` (`lanrick`), if there is one.
pub fn page(name: &str) -> Option<&'static RulesPage> {
    pages().iter().find(|p| p.name == name)
}

/// The page's name of `game`'s rules (`lanko68` for Lanko-68).
pub fn name_of(game: GameId) -> &'static str {
    game.as_str()
}

/// A file served beside the page `name`: a diagram (`diagram-3.png`) or a picture the
/// document shows (`lanko88-start.png`).
pub fn file(name: &str, file: &str) -> Option<&'static [u8]> {
    let page = page(name)?;
    if let Some(n) = file
        .strip_prefix("diagram-")
        .and_then(|n| n.strip_suffix(".png"))
        .and_then(|n| n.parse::<usize>().ok())
    {
        return page.diagrams.get(n.checked_sub(1)?).map(|d| &d.png[..]);
    }
    PICTURES
        .iter()
        .find(|(_, served, _)| *served == file)
        .filter(|(path, _, _)| page.body.contains(&picture_address(name, path)))
        .map(|(_, _, png)| *png)
}

/// The address a picture of the document is served at on the page `name`.
fn picture_address(name: &str, path: &str) -> String {
    let served = PICTURES
        .iter()
        .find(|(p, _, _)| *p == path)
        .map_or("", |(_, served, _)| *served);
    format!("/rules/{name}/{served}")
}

/// What converting a document gathers besides its events.
struct Gathered {
    title: Option<String>,
    summary: Option<String>,
    ids: HashMap<String, usize>,
    diagrams: Vec<Diagram>,
}

/// `text`, the document of the page `name`, as a page; its positions are read as the first
/// of `games` that reads them.
fn convert(name: &'static str, text: &str, games: &[GameId]) -> RulesPage {
    let mut gathered = Gathered {
        title: None,
        summary: None,
        ids: HashMap::new(),
        diagrams: Vec::new(),
    };
    let mut out: Vec<Event<'_>> = Vec::new();
    let mut events = Parser::new_ext(text, Options::ENABLE_TABLES);
    let mut unlinked = false;
    while let Some(event) = events.next() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                let inner = until(&mut events, |e| matches!(e, Event::End(TagEnd::Heading(_))));
                heading(level, inner, &mut gathered, &mut out);
            }
            Event::Start(Tag::Paragraph) if gathered.summary.is_none() => {
                let inner = until(&mut events, |e| matches!(e, Event::End(TagEnd::Paragraph)));
                gathered.summary = Some(plain(&inner));
                out.push(Event::Start(Tag::Paragraph));
                out.extend(inner);
                out.push(Event::End(TagEnd::Paragraph));
            }
            Event::Start(Tag::CodeBlock(_)) => {
                let inner = until(&mut events, |e| matches!(e, Event::End(TagEnd::CodeBlock)));
                let code: String = plain(&inner);
                match drawn(&code, games) {
                    Some(board) => {
                        let n = gathered.diagrams.len() + 1;
                        out.push(Event::Html(figure(name, n, &board.alt, &code).into()));
                        gathered.diagrams.push(Diagram {
                            png: board.png,
                            alt: board.alt,
                        });
                    }
                    // A block that may scroll sideways is reached by the keyboard too.
                    None => out.push(Event::Html(code_block(&code).into())),
                }
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => match address(&dest_url) {
                Some(to) => out.push(Event::Start(Tag::Link {
                    link_type,
                    dest_url: to.into(),
                    title,
                    id,
                })),
                None => unlinked = true,
            },
            Event::End(TagEnd::Link) if unlinked => unlinked = false,
            Event::Start(Tag::Image { dest_url, .. }) => {
                let inner = until(&mut events, |e| matches!(e, Event::End(TagEnd::Image)));
                out.push(Event::Html(picture(name, &dest_url, &plain(&inner)).into()));
            }
            other => out.push(other),
        }
    }
    let mut body = String::new();
    pulldown_cmark::html::push_html(&mut body, out.into_iter());
    RulesPage {
        name,
        title: gathered.title.unwrap_or_else(|| name.to_string()),
        summary: gathered.summary.unwrap_or_default(),
        body,
        diagrams: gathered.diagrams,
    }
}

/// The events up to the one `end` matches, which is consumed and left out.
fn until<'a>(events: &mut Parser<'a>, end: impl Fn(&Event<'a>) -> bool) -> Vec<Event<'a>> {
    let mut inner = Vec::new();
    for event in events.by_ref() {
        if end(&event) {
            break;
        }
        inner.push(event);
    }
    inner
}

/// The text of `events`, without their markup.
fn plain(events: &[Event<'_>]) -> String {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
            Event::SoftBreak => Some(" "),
            Event::HardBreak => Some("\n"),
            _ => None,
        })
        .collect()
}

/// A heading: the document's first, its title, is kept for the page's own heading (without
/// its `— game id …`); the others get the anchors GitHub gives them, so that the documents'
/// links to their own sections work on the page as in the repository.
fn heading<'a>(
    level: HeadingLevel,
    inner: Vec<Event<'a>>,
    gathered: &mut Gathered,
    out: &mut Vec<Event<'a>>,
) {
    let text = plain(&inner);
    if level == HeadingLevel::H1 && gathered.title.is_none() {
        let title = text.split(" — game id").next().unwrap_or(&text);
        gathered.title = Some(title.trim().to_string());
        return;
    }
    let mut id = anchor(&text);
    let seen = gathered.ids.entry(id.clone()).or_insert(0);
    if *seen > 0 {
        id = format!("{id}-{seen}");
    }
    *seen += 1;
    let tag = match level {
        HeadingLevel::H1 | HeadingLevel::H2 => "h2",
        HeadingLevel::H3 => "h3",
        HeadingLevel::H4 => "h4",
        _ => "h5",
    };
    out.push(Event::Html(format!("<{tag} id=\"{id}\">").into()));
    out.extend(inner);
    out.push(Event::Html(format!("</{tag}>").into()));
}

/// A heading's anchor as GitHub makes it: lower case, spaces as hyphens, other punctuation
/// left out.
pub fn anchor(text: &str) -> String {
    text.to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// Where a link of a document goes on the site: a section of the page, another rules page,
/// or a page elsewhere on the web; `None` for a file of the repository.
fn address(to: &CowStr<'_>) -> Option<String> {
    if to.starts_with('#') || to.starts_with("https://") || to.starts_with("http://") {
        return Some(to.to_string());
    }
    let (file, section) = to.split_once('#').unwrap_or((to, ""));
    let name = file.strip_suffix(".md")?;
    let name = if name == "lanko" { "lanko88" } else { name };
    DOCUMENTS.iter().find(|(n, _, _)| *n == name)?;
    Some(match section {
        "" => format!("/rules/{name}"),
        s => format!("/rules/{name}#{s}"),
    })
}

/// The board a code block shows, drawn, if the block has a `position:` line that one of
/// `games` reads.
fn drawn(code: &str, games: &[GameId]) -> Option<any::Board> {
    let position = code
        .lines()
        .find_map(|l| l.split_once("position: ").map(|(_, p)| p.trim()))?;
    let game = games
        .iter()
        .find_map(|g| AnyGame::from_position(*g, position).ok())?;
    // No names: the seats are said by their colours (`White to play`).
    Some(any::board(&game, &[], [""; 4], "", Style::default()))
}

/// A diagram's notes: beside a text board's rows (`8 . . B . . . . .     Mark on c4.`), or
/// lines of their own above the position (Croquet's, which has no text board); the position
/// itself left out.
fn notes(code: &str) -> String {
    code.lines()
        .filter_map(|l| {
            let board_row = l.starts_with(|c: char| c.is_ascii_digit() || c == ' ');
            match l.trim_start().split_once("   ") {
                Some((_, note)) => Some(note.trim()),
                None if !board_row => Some(l.trim()),
                None => None,
            }
        })
        .filter(|note| !note.is_empty() && !note.starts_with("position:"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A diagram in the page: the drawing, its notes as its caption, and the board as the
/// document writes it, for those who read text.
fn figure(name: &str, n: usize, alt: &str, code: &str) -> String {
    let notes = notes(code);
    let markup: Markup = html! {
        figure.diagram {
            img src={"/rules/" (name) "/diagram-" (n) ".png"} alt=(alt) loading="lazy";
            @if !notes.is_empty() {
                figcaption { (notes) }
            }
            details {
                summary { "The board as text" }
                pre tabindex="0" { code { (code.trim_end()) } }
            }
        }
    };
    markup.into_string()
}

/// A code block that is no board, as text that scrolls sideways where it is wide.
fn code_block(code: &str) -> String {
    html! { pre tabindex="0" { code { (code.trim_end_matches('\n')) } } }.into_string()
}

/// A picture the document shows: served beside the page when it is one of the board
/// pictures, else its description alone (never a broken image).
fn picture(name: &str, path: &str, alt: &str) -> String {
    let markup: Markup = if PICTURES.iter().any(|(p, _, _)| *p == path) {
        html! { img src=(picture_address(name, path)) alt=(alt) loading="lazy"; }
    } else {
        html! { (alt) }
    };
    markup.into_string()
}

/// The page of `page`, within the site's frame at `base`.
pub fn render(page: &RulesPage, base: &str) -> Markup {
    let head = super::html::Head {
        title: format!("Rules of {}", page.title),
        heading: None,
        description: page.summary.clone(),
        path: format!("/rules/{}", page.name),
        card: None,
        live: None,
    };
    super::html::page(
        &head,
        base,
        html! {
            (games_nav(Some(page.name)))
            article.rules { (PreEscaped(&page.body)) }
        },
    )
}

/// `/rules`: the games, each with its page.
pub fn index(base: &str) -> Markup {
    let head = super::html::Head {
        title: "Rules of the games".into(),
        heading: None,
        description: "The rules of Lewis Carroll's Lanrick and Arithmetical Croquet, and of \
                      Lanko, as Muster plays them, with every ruling."
            .into(),
        path: "/rules".into(),
        card: None,
        live: None,
    };
    super::html::page(
        &head,
        base,
        html! {
            p { "Each page gives a game's rules in full, as Muster plays them: the rule texts, \
                 every gap in them and how it is closed, the notation, and worked examples." }
            (games_nav(None))
        },
    )
}

/// The list of the games' rules pages, the one shown marked.
fn games_nav(shown: Option<&str>) -> Markup {
    html! {
        nav aria-label="Rules of each game" {
            ul.games {
                @for game in GameId::ALL {
                    @let name = name_of(game);
                    li {
                        @if shown == Some(name) {
                            a href={"/rules/" (name)} aria-current="page" { (game.title()) }
                        } @else {
                            a href={"/rules/" (name)} { (game.title()) }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_a_rules_document_writes_under_its_board_is_drawn() {
        for page in pages() {
            let (_, text, _) = DOCUMENTS.iter().find(|(n, _, _)| *n == page.name).unwrap();
            // The `position:` lines of its code blocks.
            let mut in_code = false;
            let written = text
                .lines()
                .filter(|l| {
                    if l.starts_with("```") {
                        in_code = !in_code;
                    }
                    in_code && l.contains("position: ")
                })
                .count();
            assert_eq!(page.diagrams.len(), written, "{}", page.name);
        }
        assert!(page("lanrick").is_some_and(|p| !p.diagrams.is_empty()));
    }

    #[test]
    fn anchors_are_githubs() {
        assert_eq!(anchor("The rules (K-1 … K-9)"), "the-rules-k-1--k-9");
        assert_eq!(anchor("Worked examples"), "worked-examples");
        assert_eq!(
            address(&"lanrick.md#position-string".into()).as_deref(),
            Some("/rules/lanrick#position-string")
        );
        assert_eq!(address(&"../machine-interface.md".into()), None);
        assert_eq!(
            address(&"lanko.md".into()).as_deref(),
            Some("/rules/lanko88")
        );
    }
}
