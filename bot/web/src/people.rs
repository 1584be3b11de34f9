//! A player's page (`/p/<token>`): his ratings in a community, game by game, each with its
//! history drawn as a chart (SVG, drawn here), and his recent games; and a community's
//! leaderboard of one game (`/l/<token>`).

use maud::{Markup, html};
use muster_rules::GameId;

use super::Shared;
use super::cards::Preview;
use super::html::{Head, name, page, time};
use muster_core::desk::{Core, Point, Scope};
use muster_core::kernel::pages::Page;
use muster_core::kernel::store::{GameRecord, GameStore, Status};

/// How many recent games a player's page lists.
const RECENT: usize = 20;

/// How many lines a card of ratings shows.
const CARD_ROWS: usize = 5;

/// A player's page or a leaderboard as found: its title, heading, the part that changes as
/// games are rated (`#live`), and what its link shows in a chat.
pub struct Found {
    /// The title (a player's name cleaned).
    pub title: String,
    /// The heading, a name isolated.
    pub heading: Markup,
    /// The part that changes.
    pub part: Markup,
    /// The link's preview.
    pub preview: Preview,
}

/// The player's page, unless his place keeps off the web.
pub fn player(shared: &Shared, page_of: &Page) -> Option<Found> {
    let Page::Player {
        platform,
        community,
        channel,
        user,
    } = page_of
    else {
        return None;
    };
    if !shared.shows(platform, community, channel) {
        return None;
    }
    let core = &shared.core;
    let store = core.store_arc().as_ref();
    let scope = core.rating_scope(platform, community, channel);
    let key = scope.key(store, platform, user);
    let (name, ratings) = ratings_of(core, &scope, &key);
    let recent = recent_games(store, platform, user);
    let name = name
        .or_else(|| {
            recent
                .iter()
                .flat_map(|r| r.seats.iter().filter_map(|s| s.player.as_ref()))
                .find(|p| p.id == *user)
                .map(|p| p.name.clone())
        })
        .unwrap_or_else(|| "A player".into());
    let name = muster_core::kernel::text::clean_name(&name);
    let playing = super::calendar::players_games(shared, page_of);
    Some(Found {
        heading: html! { (self::name(&name)) },
        preview: player_preview(&name, &ratings, recent.len()),
        title: name,
        part: player_part(shared, &ratings, &playing, &recent),
    })
}

/// One game's rating on a player's page: the game, the rating shown, the rated games, its
/// history.
type Rated = (GameId, String, u32, Vec<Point>);

/// The player kept under `key`: his name as the ratings last saw it, and his rating in each
/// game he has one in.
fn ratings_of(core: &Core, scope: &Scope, key: &str) -> (Option<String>, Vec<Rated>) {
    let mut name = None;
    let mut ratings = Vec::new();
    for game in GameId::ALL {
        let all = core.ranked(scope, game);
        let Some(me) = all.iter().find(|r| r.key == key) else {
            continue;
        };
        name.get_or_insert_with(|| me.standing.name.clone());
        let history = core.rating_history(scope, game, key);
        ratings.push((
            game,
            core.rating_shown(&me.now, game),
            me.standing.games,
            history,
        ));
    }
    (name, ratings)
}

/// The player's newest finished games on `platform`, at most [`RECENT`].
fn recent_games(store: &dyn GameStore, platform: &str, user: &str) -> Vec<GameRecord> {
    let mut recent: Vec<GameRecord> = store
        .games_of(user)
        .unwrap_or_default()
        .into_iter()
        .filter(|r| r.status == Status::Finished && r.platform == *platform)
        .collect();
    recent.sort_by_key(|r| std::cmp::Reverse(r.updated));
    recent.truncate(RECENT);
    recent
}

/// What the player's link shows in a chat: his ratings, and how many recent games he has.
fn player_preview(name: &str, ratings: &[Rated], recent: usize) -> Preview {
    let lines: Vec<String> = ratings
        .iter()
        .take(CARD_ROWS)
        .map(|(game, shown, games, _)| format!("{}: {shown}, {}", game.title(), rated(*games)))
        .collect();
    Preview {
        description: if lines.is_empty() {
            format!("{name} has no rated game yet.")
        } else {
            format!("{name}'s ratings: {}.", lines.join("; "))
        },
        card: muster_render::card::Card {
            title: name.to_string(),
            status: lines
                .first()
                .cloned()
                .unwrap_or_else(|| "No rated game yet".into()),
            lines: lines.iter().skip(1).cloned().collect(),
            footer: format!("Muster · {}", finished(recent)),
        },
        board: None,
    }
}

/// The part of the player's page that changes: his ratings with their charts, his games being
/// played and his recent ones.
fn player_part(
    shared: &Shared,
    ratings: &[Rated],
    playing: &[GameRecord],
    recent: &[GameRecord],
) -> Markup {
    html! { section id="live" {
        h2 { "Ratings" }
        @if ratings.is_empty() {
            p { "No rated game yet." }
        }
        @for (game, shown, games, history) in ratings {
            h3 { (game.title()) }
            p { "Rating " strong { (shown) } ", " (games) " rated game" @if *games != 1 { "s" } "." @if shown.ends_with('?') { " The question mark: provisional, until enough games are played." } }
            (chart(game.title(), history))
        }
        h2 { "Being played" }
        @if playing.is_empty() {
            p { "No game being played here." }
        } @else {
            ul {
                @for r in playing {
                    li {
                        (super::game::linked_title(shared, r))
                        @if let Some(at) = r.deadline() { " — deadline " (time(at)) }
                    }
                }
            }
        }
        h2 { "Recent games" }
        @if recent.is_empty() {
            p { "No finished game yet." }
        } @else {
            ul {
                @for r in recent {
                    li {
                        (super::game::linked_title(shared, r))
                        " — " (time(r.updated))
                    }
                }
            }
        }
    } }
}

/// `1 rated game`, `12 rated games`.
fn rated(games: u32) -> String {
    if games == 1 {
        "1 rated game".into()
    } else {
        format!("{games} rated games")
    }
}

/// How many finished games the page lists.
fn finished(n: usize) -> String {
    match n {
        0 => "no finished game yet".into(),
        1 => "1 recent game".into(),
        n => format!("{n} recent games"),
    }
}

/// A rating's history as a line chart: each rated game a point, the rating after it upwards.
fn chart(game: &str, history: &[Point]) -> Markup {
    if history.len() < 2 {
        return html! {};
    }
    let (w, h, pad) = (640.0_f64, 240.0_f64, 40.0_f64);
    let low = history.iter().map(|p| p.rating).fold(f64::MAX, f64::min);
    let high = history.iter().map(|p| p.rating).fold(f64::MIN, f64::max);
    let span = (high - low).max(1.0);
    let x = |i: usize| pad + (w - 2.0 * pad) * i as f64 / (history.len() - 1) as f64;
    let y = |r: f64| h - pad - (h - 2.0 * pad) * (r - low) / span;
    let points: Vec<String> = history
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{:.1},{:.1}", x(i), y(p.rating)))
        .collect();
    let first = history.first().map_or(0.0, |p| p.rating);
    let last = history.last().map_or(0.0, |p| p.rating);
    let label = format!(
        "{game}: the rating over {} rated games, from {:.0} to {:.0} (lowest {:.0}, highest {:.0}).",
        history.len(),
        first,
        last,
        low,
        high
    );
    html! {
        svg.chart viewBox={"0 0 " (w) " " (h)} role="img" aria-label=(label) xmlns="http://www.w3.org/2000/svg" {
            line.axis x1=(pad) y1=(h - pad) x2=(w - pad) y2=(h - pad) {}
            line.axis x1=(pad) y1=(pad) x2=(pad) y2=(h - pad) {}
            text x="4" y=(y(high) + 4.0) { (format!("{high:.0}")) }
            text x="4" y=(y(low) + 4.0) { (format!("{low:.0}")) }
            text x=(pad) y=(h - 12.0) { "first" }
            text x=(w - pad - 24.0) y=(h - 12.0) { "latest" }
            polyline.line points=(points.join(" ")) {}
            @for (i, p) in history.iter().enumerate() {
                circle.dot cx=(format!("{:.1}", x(i))) cy=(format!("{:.1}", y(p.rating))) r="3.5" {
                    title { (p.id) ": " (format!("{:.0}", p.rating)) }
                }
            }
        }
    }
}

/// A community's leaderboard of one game, unless its place keeps off the web.
pub fn leaders(shared: &Shared, page_of: &Page) -> Option<Found> {
    let Page::Leaders {
        platform,
        community,
        channel,
        game,
    } = page_of
    else {
        return None;
    };
    if !shared.shows(platform, community, channel) {
        return None;
    }
    let game: GameId = game.parse().ok()?;
    let core = &shared.core;
    let scope = core.rating_scope(platform, community, channel);
    let all = core.ranked(&scope, game);
    let established: Vec<_> = all.iter().filter(|r| !r.provisional).collect();
    let provisional: Vec<_> = all.iter().filter(|r| r.provisional).collect();
    let title = format!("Leaderboard of {}", game.title());
    let lines: Vec<String> = established
        .iter()
        .take(CARD_ROWS)
        .enumerate()
        .map(|(i, r)| {
            let who = muster_core::kernel::text::clean_name(&r.standing.name);
            format!("{}. {who} — {}", i + 1, core.rating_shown(&r.now, game))
        })
        .collect();
    let status = format!(
        "{} ranked, {} provisional",
        established.len(),
        provisional.len()
    );
    let preview = Preview {
        description: match lines.first() {
            Some(first) => format!("{status}. {first}."),
            None => format!("{status}."),
        },
        card: muster_render::card::Card {
            title: title.clone(),
            status,
            lines,
            footer: "Muster · Glicko-2 ratings".into(),
        },
        board: None,
    };
    Some(Found {
        heading: html! { (title) },
        title,
        preview,
        part: html! { section id="live" {
            @if established.is_empty() {
                p { "Nobody is established yet: a rating is provisional, shown with ?, until enough games have been played." }
            } @else {
                table {
                    caption.visually-hidden { "Established ratings, highest first" }
                    thead { tr { th.n scope="col" { "Rank" } th scope="col" { "Name" } th.n scope="col" { "Rating" } th.n scope="col" { "Games" } } }
                    tbody {
                        @for (i, r) in established.iter().enumerate() {
                            tr { td.n { (i + 1) } td { (name(&r.standing.name)) } td.n { (core.rating_shown(&r.now, game)) } td.n { (r.standing.games) } }
                        }
                    }
                }
            }
            @if !provisional.is_empty() {
                h2 { "Provisional ratings" }
                p { "Not ranked until enough games have been played." }
                ul {
                    @for r in &provisional {
                        li { (name(&r.standing.name)) " " (core.rating_shown(&r.now, game)) ", " (r.standing.games) " game" @if r.standing.games != 1 { "s" } }
                    }
                }
            }
        } },
    })
}

/// The whole page of a player or a leaderboard (`kind`: `p` or `l`), with its live stream.
pub fn render(shared: &Shared, token: &str, kind: &str, found: Found) -> Markup {
    let live = format!("/{kind}/{token}/events");
    let version = super::hub::version(&found.part.0);
    let path = format!("/{kind}/{token}");
    let head = Head {
        title: found.title,
        heading: Some(found.heading),
        description: found.preview.description.clone(),
        card: Some(found.preview.image(&path)),
        path,
        live: Some((live, version)),
    };
    let calendar = (kind == "p").then(|| format!("/p/{token}/calendar.ics"));
    page(
        &head,
        &shared.base(),
        html! {
            (found.part)
            @if let Some(calendar) = calendar {
                h2 { "Calendar" }
                p { a href=(calendar) { "The deadlines of the games being played, as a calendar" } " — to subscribe to in a calendar application (iCalendar)" }
            }
        },
    )
}
