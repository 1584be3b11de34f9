//! A game's page (`/g/<token>`): the board at any position of its replay, the players, the
//! clocks and their deadline, whose decision it is, the moves, the result; and its files:
//! `board.png[?ply=N]`, `replay.gif`, `record.txt`.

use maud::{Markup, html};
use muster_render::Theme;
use muster_rules::{AnyGame, Seat};

use super::Shared;
use super::cards::Preview;
use super::html::{Head, name, named, page, time};
use muster_core::desk::words;
use muster_core::kernel::pages::Page;
use muster_core::kernel::replayable::Replayable;
use muster_core::kernel::store::{GameRecord, Status};
use muster_core::kernel::text::clean_name;

/// The game `page` shows as it stands: live in its home channel, else in the archive; `None`
/// when it is neither, or its place keeps off the web.
pub fn find(shared: &Shared, page: &Page) -> Option<GameRecord> {
    let Page::Game {
        id,
        platform,
        channel,
    } = page
    else {
        return None;
    };
    let store = shared.core.store_arc();
    let key = muster_core::kernel::store::ChannelKey::new(platform.as_str(), channel.as_str());
    let live = store.load(&key).ok().flatten().filter(|r| r.id == *id);
    let record = match live {
        Some(r) => r,
        None => store.archived(id).ok().flatten()?,
    };
    let community = record.community.as_deref().unwrap_or_default();
    shared
        .shows(&record.platform, community, &record.channel)
        .then(|| cleaned(record))
}

/// `record` with its players' names cleaned of what could spoof the lines they are shown in
/// (a record kept before names were cleaned where they enter Muster may hold such a name).
fn cleaned(mut record: GameRecord) -> GameRecord {
    for p in record.seats.iter_mut().filter_map(|s| s.player.as_mut()) {
        p.name = clean_name(&p.name);
    }
    record
}

/// The names of the players at the table, as the page writes them (cleaned).
fn names(record: &GameRecord) -> Vec<String> {
    record
        .seats
        .iter()
        .filter_map(|s| s.player.as_ref().map(|p| clean_name(&p.name)))
        .collect()
}

/// The same names, borrowed, as [`named`] takes them.
fn borrowed(names: &[String]) -> Vec<&str> {
    names.iter().map(String::as_str).collect()
}

/// What a page of the game shows: which position, in which theme.
#[derive(Clone, Copy, Debug, Default)]
pub struct View {
    /// The decisions shown (`None`: all, following the game).
    pub ply: Option<usize>,
    /// The board's theme, when the reader chose one.
    pub theme: Option<Theme>,
}

/// The game replayed once: the game after all its decisions, and who made each.
struct Replayed {
    game: AnyGame,
    by: Vec<String>,
}

fn replayed(record: &GameRecord) -> Option<Replayed> {
    let first = AnyGame::new(record.game_id().ok()?);
    let title = |g: &AnyGame| {
        g.to_move()
            .map_or_else(|| "?".to_string(), |s| words::seat_title(g, s))
    };
    let mut by = Vec::with_capacity(record.moves.len());
    let mut next = title(&first);
    let game = record
        .play_through(|game, _, _| {
            by.push(std::mem::replace(&mut next, title(game)));
            Ok(())
        })
        .ok()?;
    Some(Replayed { game, by })
}

/// The game's title: `Lanrick · g12: alice vs bob`.
pub fn title(record: &GameRecord) -> String {
    let names = names(record);
    let game = record.game_id().map_or(record.game.as_str(), |g| g.title());
    if names.is_empty() {
        format!("{game} · {}", record.id)
    } else {
        format!("{game} · {}: {}", record.id, names.join(" vs "))
    }
}

/// The game's title linking its page (the title alone where the page cannot be linked): how
/// other pages list a game.
pub fn linked_title(shared: &Shared, record: &GameRecord) -> Markup {
    let page = Page::Game {
        id: record.id.clone(),
        platform: record.platform.clone(),
        channel: record.channel.clone(),
    };
    html! {
        @match shared.link(&page) {
            Some(link) => a href=(link) { (title(record)) },
            None => (title(record)),
        }
    }
}

/// The game's heading: its title with the names isolated.
fn heading(record: &GameRecord) -> Markup {
    let game = record.game_id().map_or(record.game.as_str(), |g| g.title());
    html! {
        (game) " · " (record.id)
        @for (i, n) in names(record).iter().enumerate() {
            @if i == 0 { ": " } @else { " vs " }
            (name(n))
        }
    }
}

/// What the game's link shows in a chat: the newest position, whose decision it is or how it
/// ended, the players.
pub fn preview(record: &GameRecord) -> Preview {
    let game = record.rebuild().ok();
    let status = game
        .as_ref()
        .map_or_else(String::new, |g| status(record, g));
    let seats: Vec<String> = game.as_ref().map_or_else(Vec::new, |g| {
        g.table()
            .all()
            .map(|s| {
                let n = record.player(s.index()).map_or("open", |p| p.name.as_str());
                format!("{n} ({})", words::seat_title(g, s))
            })
            .collect()
    });
    let kind = record.game_id().map_or(record.game.as_str(), |g| g.title());
    let decisions = record.moves.len();
    let counted = format!(
        "{decisions} decision{}",
        if decisions == 1 { "" } else { "s" }
    );
    let mut footer = format!("Muster · {} · {counted}", short_title(record));
    if let Some(c) = record.clock {
        footer.push_str(&format!(" · clock {}", c.typed()));
    }
    Preview {
        description: format!("{status} {}. {kind}, {counted}.", seats.join(" · ")),
        card: muster_render::card::Card {
            title: format!("{} · {}", short_title(record), record.id),
            status,
            lines: seats,
            footer,
        },
        board: Some(record.clone()),
    }
}

/// The game's short name for a card (`Lanrick`, `Lanko-88`).
fn short_title(record: &GameRecord) -> String {
    let title = record.game_id().map_or(record.game.as_str(), |g| g.title());
    title.split(" (").next().unwrap_or(title).to_string()
}

/// The whole page.
pub fn render(shared: &Shared, token: &str, record: &GameRecord, view: View) -> Markup {
    let live = (record.status != Status::Finished).then(|| format!("/g/{token}/events"));
    let path = format!("/g/{token}");
    let preview = preview(record);
    let head = Head {
        title: title(record),
        heading: Some(heading(record)),
        description: preview.description.clone(),
        card: Some(preview.image(&path)),
        path,
        live: live.map(|a| (a, record.version.to_string())),
    };
    page(
        &head,
        &shared.base(),
        html! {
            (part(shared, token, record, view))
            @if let Ok(game) = record.game_id() {
                p.rules { "How to play: " a href={"/rules/" (game)} { "the rules of " (game.title()) } ", with the boards drawn." }
            }
            h2 { "Files" }
            ul {
                li { a href={"/g/" (token) "/record.txt"} download { "The record" } " — the moves with a dated header, replayable by " code { "muster replay" } }
                li { a href={"/g/" (token) "/replay.gif"} { "The replay" } " — every position, as an animation" }
            }
            h2 { "Board theme" }
            p {
                @for t in Theme::ALL {
                    a href={"/g/" (token) "?theme=" (t.name())} aria-current=[(view.theme == Some(t)).then_some("true")] { (t.name()) }
                    " "
                }
            }
        },
    )
}

/// The part of the page that changes as the game goes on (`#live`), as the live stream sends
/// it too.
pub fn part(shared: &Shared, token: &str, record: &GameRecord, view: View) -> Markup {
    let Some(r) = replayed(record) else {
        return html! { section id="live" { p { "This game's record does not replay; its moves are kept as they were played." } } };
    };
    let last = record.moves.len();
    let ply = view.ply.map_or(last, |p| p.min(last));
    let board = board_figure(shared, token, record, ply, view);
    let now = shared.core.now();
    let event = event_of(shared, record);
    let following = if ply == last { "yes" } else { "no" };
    // An earlier position is shown as it stood then: who was to decide, the clocks as they
    // ran, no result yet.
    let then = (ply < last).then(|| record.as_after(ply));
    let then_game = then.as_ref().and_then(|t| t.rebuild().ok());
    let (shown_record, shown_game) = match (&then, &then_game) {
        (Some(t), Some(g)) => (t, g),
        _ => (record, &r.game),
    };
    let earlier = then.is_some();
    html! {
        section id="live" data-following=(following) {
            p.status role="status" { (named(&status(shown_record, shown_game), &borrowed(&names(record)))) }
            (facts(record, &r.game, (shown_record, shown_game), earlier, now, event.as_ref()))
            (board)
            p id="newer" hidden {
                a href={"/g/" (token)} { "New decisions have been played: show the newest position" }
            }
            (replay_form(token, ply, last, view))
            p.visually-hidden { "The arrow keys step through the positions; Home and End go to the first and the last." }
            h2 { "Decisions" }
            (decisions(token, record, &r.by, ply))
        }
    }
}

/// The board after `ply` decisions, drawn (or found drawn) here, in the theme of `view`.
fn board_figure(
    shared: &Shared,
    token: &str,
    record: &GameRecord,
    ply: usize,
    view: View,
) -> Markup {
    let last = record.moves.len();
    let theme = view.theme.unwrap_or_default();
    let src = format!("/g/{token}/board.png");
    let mut shown = format!("{src}?ply={ply}");
    if let Some(t) = view.theme {
        shown.push_str(&format!("&theme={}", t.name()));
    }
    // The board is drawn (or found drawn) here: its description and size are the page's.
    let drawn = shared.boards.board(record, ply, theme).ok();
    let alt = drawn.as_ref().map_or_else(
        || format!("The board after {ply} of {last} decisions."),
        |d| d.alt.clone(),
    );
    let (width, height) = drawn.as_ref().and_then(|d| size(&d.png)).unzip();
    html! {
        figure.board {
            img id="board" src=(shown) data-src=(src) alt=(alt) width=[width] height=[height];
        }
    }
}

/// The link to the event `record` is a game of, and its words (event, round and board).
fn event_of(shared: &Shared, record: &GameRecord) -> Option<(String, String)> {
    let tag = record.tournament.as_ref()?;
    let link = shared.link(&Page::Event {
        platform: record.platform.clone(),
        community: tag.community.clone(),
        name: tag.event.clone(),
    })?;
    Some((
        link,
        format!("{}, round {}, board {}", tag.event, tag.round, tag.board),
    ))
}

/// The game's facts: players, clock, the time left and deadline of the position shown (as it
/// stood then, when `earlier`), when it started, its event.
fn facts(
    record: &GameRecord,
    game: &AnyGame,
    (shown_record, shown_game): (&GameRecord, &AnyGame),
    earlier: bool,
    now: u64,
    event: Option<&(String, String)>,
) -> Markup {
    let read_at = if earlier { shown_record.updated } else { now };
    let left = if earlier {
        "Time left then"
    } else {
        "Time left"
    };
    html! {
        dl.facts {
            dt { "Players" }
            dd { (players(record, game)) }
            @if let Some(c) = record.clock {
                dt { "Clock" }
                dd { (c.to_string()) }
            }
            @if shown_record.status == Status::Active {
                @if let Some(line) = words::clocks_line(shown_record, shown_game, read_at) {
                    dt { (left) }
                    dd { (named(&line, &borrowed(&names(record)))) }
                }
                @if let Some(deadline) = shown_record.deadline() {
                    dt { "Deadline" }
                    dd { (time(deadline)) }
                }
            }
            @if let Some(started) = record.started {
                dt { "Started" }
                dd { (time(started)) }
            }
            @if let Some((link, words)) = event {
                dt { "Tournament" }
                dd { a href=(link) { (words) } }
            }
        }
    }
}

/// The replay's controls: first, previous, the position by a slider, next, last.
fn replay_form(token: &str, ply: usize, last: usize, view: View) -> Markup {
    html! {
        form.replay method="get" action={"/g/" (token)} {
            a href={"/g/" (token) "?ply=0"} data-ply="0" { "First" }
            a href={"/g/" (token) "?ply=" (ply.saturating_sub(1))} data-ply=(ply.saturating_sub(1)) rel="prev" { "Previous" }
            label for="ply" { "Position" }
            input id="ply" type="range" name="ply" min="0" max=(last) value=(ply) aria-describedby="ply-shown";
            output id="ply-shown" for="ply" { (ply) " / " (last) }
            a href={"/g/" (token) "?ply=" ((ply + 1).min(last))} data-ply=((ply + 1).min(last)) rel="next" { "Next" }
            a href={"/g/" (token)} data-ply=(last) { "Last" }
            @if let Some(t) = view.theme {
                input type="hidden" name="theme" value=(t.name());
            }
            button id="ply-go" type="submit" { "Show" }
        }
    }
}

/// The decisions played, each a link to the position after it (`ply`'s marked current).
fn decisions(token: &str, record: &GameRecord, by: &[String], ply: usize) -> Markup {
    html! {
        @if record.moves.is_empty() {
            p { "No decision yet." }
        } @else {
            ol.moves {
                @for (i, (m, by)) in record.moves.iter().zip(by).enumerate() {
                    li data-ply=(i + 1) aria-current=[(i + 1 == ply).then_some("step")] {
                        a href={"/g/" (token) "?ply=" (i + 1)} data-ply=(i + 1) { (by) " " (m) }
                    }
                }
            }
        }
    }
}

/// A PNG's width and height, from its header.
fn size(png: &[u8]) -> Option<(u32, u32)> {
    let word = |at: usize| Some(u32::from_be_bytes(png.get(at..at + 4)?.try_into().ok()?));
    (png.get(12..16)? == b"IHDR").then_some((word(16)?, word(20)?))
}

/// Whose decision it is, or how the game ended.
fn status(record: &GameRecord, game: &AnyGame) -> String {
    match record.status {
        Status::Open => "Waiting for players to take their seats.".into(),
        Status::Finished if record.ending == Some(muster_core::kernel::store::Ending::Aborted) => {
            "The game was called off.".into()
        }
        Status::Finished => words::result(record, game),
        Status::Active => match game.to_move() {
            Some(seat) => format!("{} to decide.", words::who(record, game, seat)),
            None => words::result(record, game),
        },
    }
}

/// The seats and who holds them.
fn players(record: &GameRecord, game: &AnyGame) -> Markup {
    let seats: Vec<(String, String)> = game
        .table()
        .all()
        .map(|s: Seat| {
            let name = record
                .player(s.index())
                .map_or_else(|| "open".to_string(), |p| p.name.clone());
            (words::seat_title(game, s), name)
        })
        .collect();
    html! {
        @for (i, (seat, who)) in seats.iter().enumerate() {
            @if i > 0 { " · " }
            (name(who)) " (" (seat) ")"
        }
    }
}
