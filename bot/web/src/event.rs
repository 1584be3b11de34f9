//! An event's page (`/e/<token>`): standings with every tie-break, the crosstable of a round
//! robin or the bracket of a knockout, each round's pairings linking to their games, as the
//! event's export (docs/machine-interface.md, "Tournament export") has them; and its files,
//! `export.json` and `export.trf`.

use maud::{Markup, html};
use serde_json::Value;

use super::Shared;
use super::cards::Preview;
use super::html::{Head, name, page};
use muster_core::desk::{Event, System};
use muster_core::kernel::pages::Page;

/// The event `page` shows, unless its place keeps off the web.
pub fn find(shared: &Shared, page: &Page) -> Option<Event> {
    let Page::Event {
        platform,
        community,
        name,
    } = page
    else {
        return None;
    };
    let event = shared.core.event(platform, community, name)?;
    shared
        .shows(&event.platform, &event.community, &event.channel)
        .then_some(event)
}

/// The whole page.
pub fn render(shared: &Shared, token: &str, event: &Event) -> Markup {
    let part = part(shared, event);
    let live = format!("/e/{token}/events");
    let version = super::hub::version(&part.0);
    let trf = shared.core.event_trf(event).is_some();
    let path = format!("/e/{token}");
    let preview = preview(shared, event);
    let head = Head {
        title: format!("Tournament {}", event.name),
        heading: None,
        description: preview.description.clone(),
        card: Some(preview.image(&path)),
        path,
        live: event.live().then_some((live, version)),
    };
    page(
        &head,
        &shared.base(),
        html! {
            (part)
            h2 { "Files" }
            ul {
                li { a href={"/e/" (token) "/export.json"} { "The event as JSON" } " — Muster's tournament export" }
                @if trf {
                    li { a href={"/e/" (token) "/export.trf"} { "The event as FIDE's report file" } " (TRF-16)" }
                }
                li { a href={"/e/" (token) "/calendar.ics"} { "The rounds and deadlines as a calendar" } " — to subscribe to in a calendar application (iCalendar)" }
            }
        },
    )
}

/// How many standings a card shows.
const CARD_ROWS: usize = 5;

/// What the event's link shows in a chat: its game and system, where it stands, and the top
/// of its standings (or its entrants before the first round).
pub fn preview(shared: &Shared, event: &Event) -> Preview {
    let export = shared.core.event_export(event);
    let empty = Vec::new();
    let entrants = export["entrants"].as_array().unwrap_or(&empty);
    let standings = export["standings"].as_array().unwrap_or(&empty);
    let game = event
        .game
        .parse::<muster_rules::GameId>()
        .map_or(event.game.clone(), |g| g.title().to_string());
    let played = export["rounds_completed"].as_u64().unwrap_or(0);
    let rounds = match export["rounds_planned"].as_u64() {
        Some(n) => format!("{played} of {n} rounds played"),
        None => format!("{played} rounds played"),
    };
    let state = export["state"].as_str().unwrap_or_default();
    let status = format!("{} · {rounds} · {state}", plural(entrants.len(), "entrant"));
    let name_of = |v: &Value| muster_core::kernel::text::clean_name(v.as_str().unwrap_or("?"));
    let lines: Vec<String> = if standings.is_empty() {
        entrants
            .iter()
            .take(CARD_ROWS)
            .map(|e| name_of(&e["name"]))
            .collect()
    } else {
        standings
            .iter()
            .take(CARD_ROWS)
            .map(|l| {
                let p = points(&l["points"]);
                let unit = if p == "1" { "point" } else { "points" };
                format!("{}. {} — {p} {unit}", l["rank"], name_of(&l["name"]))
            })
            .collect()
    };
    let leader = standings.first().map(|l| name_of(&l["name"]));
    let mut description = format!("{} of {game}: {status}.", event.system.title());
    if let Some(leader) = &leader {
        description.push_str(&format!(" First: {leader}."));
    }
    Preview {
        description,
        card: muster_render::card::Card {
            title: format!("Tournament {}", event.name),
            status,
            lines,
            footer: format!("Muster · {} · {game}", event.system.title()),
        },
        board: None,
    }
}

/// `1 entrant`, `3 entrants`.
fn plural(n: usize, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

/// A number of points as the tables write it: `2½`, `¼` (Sonneborn–Berger counts quarters).
fn points(v: &Value) -> String {
    let Some(x) = v.as_f64() else {
        return v.to_string();
    };
    let whole = x.trunc() as i64;
    let part = match ((x - x.trunc()) * 4.0).round() as i64 {
        1 => "¼",
        2 => "½",
        3 => "¾",
        _ => "",
    };
    match (whole, part) {
        (0, p) if !p.is_empty() => p.to_string(),
        (w, p) => format!("{w}{p}"),
    }
}

/// A tie-break's name in a table's heading.
fn tiebreak(name: &str) -> &'static str {
    match name {
        "buchholz_cut1" => "Buchholz Cut 1",
        "buchholz" => "Buchholz",
        "sonneborn_berger" => "Sonneborn–Berger",
        "direct_encounter" => "Direct encounter",
        _ => "Wins",
    }
}

/// A result as a table writes it.
fn result(code: Option<&str>, forfeit: bool) -> String {
    let shown = match code {
        None => return "—".into(),
        Some("1/2-1/2") => "½–½".to_string(),
        Some(c) => c.replace('-', "–"),
    };
    if forfeit {
        format!("{shown} (forfeit)")
    } else {
        shown
    }
}

/// The part of the page that changes as the event goes on (`#live`).
pub fn part(shared: &Shared, event: &Event) -> Markup {
    let export = shared.core.event_export(event);
    let empty = Vec::new();
    let list = |key: &str| export[key].as_array().unwrap_or(&empty).clone();
    let entrants = list("entrants");
    let rounds = list("rounds");
    let standings = list("standings");
    let tiebreaks: Vec<String> = list("tiebreaks")
        .iter()
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    let name_of = |seed: &Value| {
        seed.as_u64()
            .and_then(|s| entrants.get(s as usize - 1))
            .and_then(|e| e["name"].as_str())
            .unwrap_or("?")
            .to_string()
    };
    let who = |v: &Value| name(v.as_str().unwrap_or("?"));
    let state = export["state"].as_str().unwrap_or_default();
    let game = event
        .game
        .parse::<muster_rules::GameId>()
        .map_or(event.game.as_str(), |g| g.title());
    html! {
        section id="live" {
            dl.facts {
                dt { "Game" } dd { (game) }
                dt { "System" } dd { (event.system.title()) }
                dt { "State" } dd { (state) }
                dt { "Rounds" } dd { (export["rounds_completed"]) " completed" @if let Some(n) = export["rounds_planned"].as_u64() { " of " (n) } }
                @if let Some(c) = export["clock"].as_str() { dt { "Clock" } dd { (c) } }
                dt { "Organiser" } dd { (name(&event.organiser.name)) }
                dt { "Entrants" } dd { (entrants.len()) }
            }
            @if event.system == System::Knockout {
                (bracket(&export, &name_of))
            } @else if !standings.is_empty() {
                h2 { "Standings" }
                div.wide {
                    table {
                        caption.visually-hidden { "Standings, with every tie-break" }
                        thead { tr {
                            th.n scope="col" { "Rank" } th scope="col" { "Name" } th.n scope="col" { "Points" }
                            @for t in &tiebreaks { th.n scope="col" { (tiebreak(t)) } }
                        } }
                        tbody {
                            @for line in &standings {
                                tr {
                                    td.n { (line["rank"]) }
                                    td { (who(&line["name"])) }
                                    td.n { (points(&line["points"])) }
                                    @for t in &tiebreaks { td.n { (points(&line["tiebreaks"][t.as_str()])) } }
                                }
                            }
                        }
                    }
                }
                @if matches!(event.system, System::RoundRobin | System::Double) {
                    (crosstable(&entrants, &rounds))
                }
            } @else {
                h2 { "Entrants" }
                ol { @for e in &entrants { li { (who(&e["name"])) } } }
            }
            @for round in rounds.iter().rev() {
                h2 { "Round " (round["round"]) }
                (pairings(shared, event, round, &name_of))
            }
        }
    }
}

/// A round's pairings, each game linking to its page.
fn pairings(
    shared: &Shared,
    event: &Event,
    round: &Value,
    name_of: &dyn Fn(&Value) -> String,
) -> Markup {
    let empty = Vec::new();
    let games = round["pairings"].as_array().unwrap_or(&empty);
    let rest = round["bye"].as_u64().or(round["rest"].as_u64());
    html! {
        div.wide {
            table {
                thead { tr { th.n scope="col" { "Board" } th scope="col" { "White" } th scope="col" { "Black" } th scope="col" { "Result" } th scope="col" { "Game" } } }
                tbody {
                    @for g in games {
                        tr {
                            td.n { (g["board"]) @if g["game"].as_u64().unwrap_or(1) > 1 { "." (g["game"]) } }
                            td { (name(g["white_name"].as_str().unwrap_or("?"))) }
                            td { (name(g["black_name"].as_str().unwrap_or("?"))) }
                            td { (result(g["result"].as_str(), g["forfeit"].as_bool().unwrap_or(false))) }
                            td {
                                @match game_link(shared, event, g) {
                                    Some((link, id)) => a href=(link) { "Game " (id) },
                                    None => "—",
                                }
                            }
                        }
                    }
                }
            }
        }
        @if let Some(seed) = rest {
            p { (name(&name_of(&Value::from(seed)))) " has no game this round." }
        }
    }
}

/// The page of a pairing's game, once it has one.
fn game_link(shared: &Shared, event: &Event, g: &Value) -> Option<(String, String)> {
    let id = g["game_id"].as_str()?;
    let channel = g["channel"].as_str()?;
    let link = shared.link(&Page::Game {
        id: id.to_string(),
        platform: event.platform.clone(),
        channel: channel.to_string(),
    })?;
    Some((link, id.to_string()))
}

/// A round robin's crosstable: each entrant's results against each other, by seed.
fn crosstable(entrants: &[Value], rounds: &[Value]) -> Markup {
    let n = entrants.len();
    let mut cells = vec![vec![String::new(); n]; n];
    for round in rounds {
        for g in round["pairings"].as_array().into_iter().flatten() {
            let (Some(w), Some(b)) = (g["white"].as_u64(), g["black"].as_u64()) else {
                continue;
            };
            let (w, b) = (w as usize - 1, b as usize - 1);
            if w >= n || b >= n {
                continue;
            }
            let (mine, theirs) = match g["result"].as_str() {
                Some("1-0") => ("1", "0"),
                Some("0-1") => ("0", "1"),
                Some(_) => ("½", "½"),
                None => ("·", "·"),
            };
            for (row, column, text) in [(w, b, mine), (b, w, theirs)] {
                let cell = &mut cells[row][column];
                if !cell.is_empty() {
                    cell.push(' ');
                }
                cell.push_str(text);
            }
        }
    }
    html! {
        h2 { "Crosstable" }
        div.wide {
            table {
                caption.visually-hidden { "Each entrant's results against each other; rows and columns by seed" }
                thead { tr {
                    th.n scope="col" { "Seed" } th scope="col" { "Name" }
                    @for i in 0..n { th.n scope="col" { (i + 1) } }
                } }
                tbody {
                    @for (i, e) in entrants.iter().enumerate() {
                        tr {
                            th.n scope="row" { (i + 1) }
                            td { (name(e["name"].as_str().unwrap_or("?"))) }
                            @for (j, cell) in cells[i].iter().enumerate() {
                                td.n { @if i == j { "×" } @else { (cell) } }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// A knockout's bracket: each round's matches, and who went through.
fn bracket(export: &Value, name_of: &dyn Fn(&Value) -> String) -> Markup {
    let empty = Vec::new();
    let rounds = export["rounds"].as_array().unwrap_or(&empty);
    html! {
        h2 { "Bracket" }
        @if rounds.is_empty() { p { "The first round is not paired yet." } }
        @for round in rounds {
            h3 { "Round " (round["round"]) }
            ul {
                @for m in round["matches"].as_array().unwrap_or(&empty) {
                    li {
                        (name(&name_of(&m["higher"]))) " vs " (name(&name_of(&m["lower"])))
                        @if !m["through"].is_null() { " — " strong { (name(&name_of(&m["through"]))) } " goes through" @if m["by_seed"].as_bool() == Some(true) { " by seed" } }
                    }
                }
                @for seed in round["byes"].as_array().unwrap_or(&empty) {
                    li { (name(&name_of(seed))) " goes through without a match" }
                }
            }
        }
        @if let Some(w) = export["winner"].as_u64() {
            p.status { "Winner: " (name(&name_of(&Value::from(w)))) }
        }
    }
}
