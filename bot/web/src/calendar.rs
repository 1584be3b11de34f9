//! Calendars (RFC 5545) to subscribe to: an event's rounds and the deadline of each of its
//! games being played (`/e/<token>/calendar.ics`), and a player's deadlines in the games his
//! page shows (`/p/<token>/calendar.ics`). Times are UTC; each entry's UID stays the same for
//! as long as it lives, and its SEQUENCE grows whenever what it says may have changed (the
//! games' versions, which every write raises), so that a calendar that keeps entries replaces
//! them rather than adding a second one.

use icalendar::{Calendar, Component, Event as Entry, EventLike, Property};

use super::Shared;
use muster_core::desk::{Event, words};
use muster_core::kernel::pages::Page;
use muster_core::kernel::replayable::Replayable;
use muster_core::kernel::store::{ChannelKey, GameRecord, Status};
use muster_core::kernel::text::clean_name;

/// How often a calendar application should look again, as the calendar asks.
const REFRESH: &str = "PT1H";

/// An instant for the calendar.
fn utc(at: u64) -> chrono::DateTime<chrono::Utc> {
    chrono::DateTime::from_timestamp(i64::try_from(at).unwrap_or(i64::MAX), 0).unwrap_or_default()
}

/// The host the site is reached at, which every UID ends with (`@games.example.org`).
fn host(base: &str) -> String {
    let rest = base.split_once("://").map_or(base, |(_, r)| r);
    rest.split('/').next().unwrap_or(rest).to_string()
}

/// A sequence number from a count that only grows.
fn sequence(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A calendar named `name`, with `entries`.
fn calendar(name: &str, entries: Vec<Entry>) -> String {
    let mut cal = Calendar::empty();
    cal.append_property(Property::new("VERSION", "2.0"));
    cal.append_property(Property::new("PRODID", "-//Muster//Muster calendars//EN"));
    cal.append_property(Property::new("CALSCALE", "GREGORIAN"));
    cal.append_property(Property::new("METHOD", "PUBLISH"));
    cal.append_property(Property::new("X-WR-CALNAME", name));
    cal.append_property(Property::new("NAME", name));
    cal.append_property(
        Property::new("REFRESH-INTERVAL", REFRESH)
            .add_parameter("VALUE", "DURATION")
            .done(),
    );
    cal.append_property(Property::new("X-PUBLISHED-TTL", REFRESH));
    for entry in entries {
        cal.push(entry);
    }
    cal.to_string()
}

/// The entry of a running timed game's deadline, if it has one: the moment the player to
/// decide runs out of time.
fn deadline(shared: &Shared, record: &GameRecord, host: &str) -> Option<Entry> {
    if record.status != Status::Active {
        return None;
    }
    let at = record.deadline()?;
    let game = record.rebuild().ok()?;
    let seat = game.to_move()?;
    let who = words::who(record, &game, seat);
    let title = record.game_id().map_or(record.game.as_str(), |g| g.title());
    let names: Vec<String> = record
        .seats
        .iter()
        .filter_map(|s| s.player.as_ref().map(|p| clean_name(&p.name)))
        .collect();
    let mut entry = Entry::new();
    entry
        .uid(&format!("{}-deadline@{host}", record.id))
        .summary(&format!(
            "{} to decide — {} {}",
            clean_name(&who),
            short(title),
            record.id
        ))
        .description(&format!(
            "{title}, {}. The deadline of the decision being waited for: the clock runs out then.",
            names.join(" vs ")
        ))
        // An instant: no end (RFC 5545, 3.6.1: it ends when it starts).
        .starts(utc(at))
        .timestamp(utc(record.updated))
        .last_modified(utc(record.updated))
        .sequence(sequence(record.version))
        .add_property("TRANSP", "TRANSPARENT");
    if let Some(link) = shared.link(&Page::Game {
        id: record.id.clone(),
        platform: record.platform.clone(),
        channel: record.channel.clone(),
    }) {
        entry.url(&format!("{}{link}", shared.base()));
    }
    Some(entry.done())
}

/// `Lanrick` of `Lanrick (Third Edition, 1881)`.
fn short(title: &str) -> &str {
    title.split(" (").next().unwrap_or(title)
}

/// The game of an event's board: live in its place, else archived.
fn board_game(
    shared: &Shared,
    event: &Event,
    channel: Option<&str>,
    id: &str,
) -> Option<GameRecord> {
    let store = shared.core.store_arc();
    let live = channel.and_then(|c| {
        store
            .load(&ChannelKey::new(event.platform.as_str(), c))
            .ok()
            .flatten()
            .filter(|r| r.id == id)
    });
    live.or_else(|| store.archived(id).ok().flatten())
}

/// The calendar of `event` (its page's token `token`): each round from its first game's start
/// to its last game's end (or its latest deadline while it is played), and each game's deadline.
pub fn of_event(shared: &Shared, token: &str, event: &Event) -> String {
    let base = shared.base();
    let host = host(&base);
    let game = event
        .game
        .parse::<muster_rules::GameId>()
        .map_or(event.game.clone(), |g| short(g.title()).to_string());
    let mut entries = Vec::new();
    for (r, round) in event.played.iter().enumerate() {
        let games: Vec<GameRecord> = round
            .boards
            .iter()
            .flat_map(|b| {
                b.games
                    .iter()
                    .map(move |g| (b.channel.as_deref(), g.id.as_str()))
            })
            .filter_map(|(channel, id)| board_game(shared, event, channel, id))
            .collect();
        let Some(start) = games.iter().filter_map(|g| g.started).min() else {
            continue;
        };
        let end = games
            .iter()
            .map(|g| match g.status {
                Status::Finished => g.updated,
                _ => g.deadline().unwrap_or(g.updated),
            })
            .max()
            .unwrap_or(start)
            .max(start);
        let pairings: Vec<String> = games
            .iter()
            .map(|g| {
                let names: Vec<String> = g
                    .seats
                    .iter()
                    .filter_map(|s| s.player.as_ref().map(|p| clean_name(&p.name)))
                    .collect();
                names.join(" vs ")
            })
            .collect();
        let mut entry = Entry::new();
        entry
            .uid(&format!("{token}-round-{}@{host}", r + 1))
            .summary(&format!("{}: round {} ({game})", event.name, r + 1))
            .description(&format!("Round {}: {}.", r + 1, pairings.join("; ")))
            .starts(utc(start))
            .timestamp(utc(games.iter().map(|g| g.updated).max().unwrap_or(start)))
            .sequence(sequence(games.iter().map(|g| g.version).sum()))
            .url(&format!("{base}/e/{token}"))
            .add_property("TRANSP", "TRANSPARENT");
        if end > start {
            entry.ends(utc(end));
        }
        entries.push(entry.done());
        entries.extend(games.iter().filter_map(|g| deadline(shared, g, &host)));
    }
    calendar(&format!("Muster: {}", event.name), entries)
}

/// The games being played that a player's page shows: his, on its platform and in its
/// community, where the pages are shown.
pub fn players_games(shared: &Shared, page: &Page) -> Vec<GameRecord> {
    let Page::Player {
        platform,
        community,
        user,
        ..
    } = page
    else {
        return Vec::new();
    };
    let mut games: Vec<GameRecord> = (shared.core.store_arc())
        .live_games_of(platform, user)
        .unwrap_or_default()
        .into_iter()
        .filter(|r| r.status == Status::Active)
        .filter(|r| r.community.as_deref().unwrap_or_default() == community)
        .filter(|r| shared.shows(&r.platform, community, &r.channel))
        .collect();
    games.sort_by(|a, b| a.id.cmp(&b.id));
    games
}

/// The calendar of a player's page: the deadline of each of his games being played.
pub fn of_player(shared: &Shared, name: &str, page: &Page) -> String {
    let host = host(&shared.base());
    let entries = players_games(shared, page)
        .iter()
        .filter_map(|r| deadline(shared, r, &host))
        .collect();
    calendar(&format!("Muster: {}", clean_name(name)), entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uids_end_with_the_sites_host() {
        assert_eq!(host("https://games.example.org"), "games.example.org");
        assert_eq!(host("http://127.0.0.1:8080/muster"), "127.0.0.1:8080");
        assert_eq!(sequence(u64::MAX), u32::MAX);
    }
}
