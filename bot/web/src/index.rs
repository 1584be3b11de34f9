//! A community's index (`/c/<community>`), for a community whose settings say `web =
//! "public"`: its live games, its events and its leaderboards, each linking to its page. Every
//! other community, and every name that is none, answers the same 404.

use maud::{Markup, html};
use muster_rules::GameId;

use super::Shared;
use super::cards::Preview;
use super::html::{Head, page};
use muster_core::kernel::pages::Page;
use muster_core::kernel::store::{GameRecord, Status};

/// A public community's index as found: its live games, its events, and a place of it (whose
/// leaderboards are the community's).
pub struct Index {
    /// The community's name.
    pub name: String,
    games: Vec<GameRecord>,
    events: Vec<(String, muster_core::desk::Listed)>,
    place: Option<(String, String, String)>,
}

/// The index of the community `name`, if it is public.
pub fn find(shared: &Shared, name: &str) -> Option<Index> {
    let core = &shared.core;
    let all = core.communities();
    let club = all.named(name)?;
    if club.web != muster_config::Visibility::Public {
        return None;
    }
    let store = core.store_arc().as_ref();
    let ours = |platform: &str, community: &str, channel: &str| {
        all.of(platform, community, channel)
            .is_some_and(|c| c.name == club.name)
    };
    let mut games = Vec::new();
    let mut events = Vec::new();
    for platform in club.platforms() {
        for r in store.live_games(platform).unwrap_or_default() {
            let community = r.community.as_deref().unwrap_or_default();
            if r.status != Status::Finished && ours(platform, community, &r.channel) {
                games.push(r);
            }
        }
        for e in core.events_of(platform) {
            if ours(platform, &e.community, &e.channel) {
                events.push((platform.to_string(), e));
            }
        }
    }
    games.sort_by(|a, b| a.id.cmp(&b.id));
    events.sort_by(|a, b| b.1.live.cmp(&a.1.live).then(a.1.name.cmp(&b.1.name)));
    // The leaderboards are the community's one table of each game, read from any of its places.
    let place = club.members.first().map(|m| {
        (
            m.platform.clone(),
            m.community.clone().unwrap_or_default(),
            m.channel.clone().unwrap_or_default(),
        )
    });
    Some(Index {
        name: club.name.clone(),
        games,
        events,
        place,
    })
}

/// What the index's link shows in a chat: how many games are being played and the events.
pub fn preview(index: &Index) -> Preview {
    let playing = match index.games.len() {
        0 => "No game being played".to_string(),
        1 => "1 game being played".to_string(),
        n => format!("{n} games being played"),
    };
    let live = index.events.iter().filter(|(_, e)| e.live).count();
    let events = format!(
        "{} event{}, {live} under way",
        index.events.len(),
        if index.events.len() == 1 { "" } else { "s" }
    );
    Preview {
        description: format!("{playing}; {events}."),
        card: muster_render::card::Card {
            title: title(index),
            status: playing,
            lines: std::iter::once(events)
                .chain(index.games.iter().take(4).map(super::game::title))
                .collect(),
            footer: "Muster · Lewis Carroll's games".into(),
        },
        board: None,
    }
}

fn title(index: &Index) -> String {
    format!("{} — games and events", index.name)
}

/// The whole page.
pub fn render(shared: &Shared, index: &Index) -> Markup {
    let Index {
        games,
        events,
        place,
        ..
    } = index;
    let path = format!("/c/{}", super::html::encoded(&index.name));
    let preview = preview(index);
    let head = Head {
        title: title(index),
        heading: None,
        description: preview.description.clone(),
        card: Some(preview.image(&path)),
        path,
        live: None,
    };
    page(
        &head,
        &shared.base(),
        html! {
            h2 { "Games being played" }
            @if games.is_empty() {
                p { "No game is being played." }
            } @else {
                ul {
                    @for r in games {
                        li {
                            (super::game::linked_title(shared, r))
                        }
                    }
                }
            }
            h2 { "Events" }
            @if events.is_empty() {
                p { "No event yet." }
            } @else {
                ul {
                    @for (platform, e) in events {
                        li {
                            @match shared.link(&Page::Event { platform: platform.clone(), community: e.community.clone(), name: e.name.clone() }) {
                                Some(link) => a href=(link) { (e.name) },
                                None => (e.name),
                            }
                            @if !e.live { " (over)" }
                        }
                    }
                }
            }
            @if let Some((platform, community, channel)) = place {
                h2 { "Leaderboards" }
                ul {
                    @for game in GameId::ALL {
                        @if let Some(link) = shared.link(&Page::Leaders { platform: platform.clone(), community: community.clone(), channel: channel.clone(), game: game.as_str().to_string() }) {
                            li { a href=(link) { (game.title()) } }
                        }
                    }
                }
            }
        },
    )
}
