//! Calendars to subscribe to (docs/web.md, "Calendars"): a player's deadlines in his games
//! and an event's rounds with its games' deadlines, read by an iCalendar parser of its own
//! (not the crate that writes them) as a calendar application reads them: UTC times, UIDs that
//! stay, a SEQUENCE that grows when a deadline moves. Linked from the pages and from `games`
//! and `tournament pairings`.

mod common;

use common::site::*;
use muster_core::desk::Reply;
use muster_core::kernel::reply::LinkKind;
use muster_core::store::{ChannelKey, GameRecord};

/// One calendar entry as a parser read it: its properties by name.
struct Entry(Vec<(String, String)>);

impl Entry {
    fn get(&self, name: &str) -> &str {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map_or("", |(_, v)| v.as_str())
    }
}

/// The calendar at `path`: its properties and its entries, checked to be one calendar served
/// as `text/calendar`.
fn calendar(site: &Site, path: &str) -> (Vec<(String, String)>, Vec<Entry>) {
    let answer = get(site, path);
    assert_eq!(answer.status, 200, "{path}");
    assert_eq!(
        answer.header("content-type"),
        Some("text/calendar; charset=utf-8")
    );
    let text = answer.text();
    assert!(text.ends_with("END:VCALENDAR\r\n"), "{text}");
    assert!(
        text.split("\r\n").all(|l| l.len() <= 75),
        "lines folded at 75 octets: {text}"
    );
    let mut parser = ical::IcalParser::new(std::io::BufReader::new(text.as_bytes()));
    let cal = parser.next().expect("a calendar").expect("one that parses");
    assert!(parser.next().is_none(), "one calendar");
    let props = |p: &[ical::property::Property]| {
        p.iter()
            .map(|p| (p.name.clone(), p.value.clone().unwrap_or_default()))
            .collect::<Vec<_>>()
    };
    let entries = cal
        .events
        .iter()
        .map(|e| Entry(props(&e.properties)))
        .collect();
    (props(&cal.properties), entries)
}

/// `at` as iCalendar writes a UTC time.
fn ical_time(at: u64) -> String {
    chrono::DateTime::from_timestamp(at as i64, 0)
        .unwrap()
        .format("%Y%m%dT%H%M%SZ")
        .to_string()
}

fn record(site: &Site, channel: &str) -> GameRecord {
    site.core
        .store_arc()
        .load(&ChannelKey::new("console", channel))
        .unwrap()
        .unwrap()
}

/// The calendar's address in a `games` answer.
fn calendar_in(out: &[Reply]) -> String {
    let text = common::privates(out).join("\n");
    let line = text
        .lines()
        .find(|l| l.contains("as a calendar to subscribe to: "))
        .unwrap_or_else(|| panic!("no calendar in {text}"));
    line.rsplit(' ').next().unwrap().to_string()
}

#[test]
fn a_players_calendar_holds_his_deadlines_and_follows_them() {
    let site = site();
    let core = &site.core;
    for (channel, new) in [
        ("general", "new lanrick @bob clock 3d"),
        ("hall", "new croquet @bob clock 10d+1d"),
        ("side", "new lanrick @bob"),
    ] {
        say(core, "alice", channel, new);
        say(core, "bob", channel, "accept");
    }
    let url = calendar_in(&say(core, "alice", "general", "games"));
    let base = format!("http://{}", site.addr);
    let path = url.strip_prefix(&base).expect("on the site").to_string();
    assert!(
        path.starts_with("/p/") && path.ends_with("/calendar.ics"),
        "{path}"
    );
    // The player's page links it too.
    let page = path.trim_end_matches("/calendar.ics");
    assert!(
        get(&site, page)
            .text()
            .contains(&format!("href=\"{path}\""))
    );
    let (props, entries) = calendar(&site, &path);
    assert!(
        props.contains(&("VERSION".into(), "2.0".into())),
        "{props:?}"
    );
    assert!(
        props
            .iter()
            .any(|(n, v)| n == "PRODID" && v.contains("Muster"))
    );
    // Two timed games; the untimed one has no deadline.
    assert_eq!(entries.len(), 2);
    let host = site.addr.to_string();
    let lanrick = record(&site, "general");
    let first = entries
        .iter()
        .find(|e| e.get("UID") == format!("{}-deadline@{host}", lanrick.id))
        .expect("the Lanrick game's deadline");
    assert_eq!(first.get("DTSTART"), ical_time(lanrick.deadline().unwrap()));
    assert!(
        first.get("SUMMARY").contains("alice (White) to decide"),
        "{}",
        first.get("SUMMARY")
    );
    assert!(first.get("URL").starts_with(&format!("{base}/g/")));
    let sequence: u32 = first.get("SEQUENCE").parse().expect("a number");
    // A day later alice moves: the same entry, later and with a higher sequence.
    site.clock.advance(86_400);
    say(core, "alice", "general", "move b1");
    let (_, entries) = calendar(&site, &path);
    let moved = entries
        .iter()
        .find(|e| e.get("UID") == first.get("UID"))
        .expect("the same entry");
    assert_ne!(moved.get("DTSTART"), first.get("DTSTART"));
    assert_eq!(
        moved.get("DTSTART"),
        ical_time(record(&site, "general").deadline().unwrap())
    );
    assert!(moved.get("SUMMARY").contains("bob (Black) to decide"));
    assert!(moved.get("SEQUENCE").parse::<u32>().unwrap() > sequence);
    // A game that ends leaves the calendar.
    say(core, "bob", "hall", "resign");
    let (_, entries) = calendar(&site, &path);
    assert_eq!(entries.len(), 1);
}

#[test]
fn an_events_calendar_holds_its_rounds_and_its_games_deadlines() {
    let site = site();
    let core = &site.core;
    say(
        core,
        "olive",
        "hall",
        "tournament new league croquet roundrobin clock 3d",
    );
    for p in ["ann", "ben", "cid", "dee"] {
        say(core, p, "hall", "tournament join league");
    }
    say(core, "olive", "hall", "tournament start league");
    common::open_places(core);
    let out = say(core, "ann", "hall", "tournament pairings league");
    let url = link(&site, &out, LinkKind::Calendar);
    assert!(
        url.starts_with("/e/") && url.ends_with("/calendar.ics"),
        "{url}"
    );
    let page = url.trim_end_matches("/calendar.ics").to_string();
    assert!(
        get(&site, &page)
            .text()
            .contains(&format!("href=\"{url}\""))
    );
    let token = page.strip_prefix("/e/").unwrap();
    let (_, entries) = calendar(&site, &url);
    let round = entries
        .iter()
        .find(|e| e.get("UID") == format!("{token}-round-1@{}", site.addr))
        .expect("round 1");
    assert!(
        round.get("SUMMARY").contains("league: round 1"),
        "{}",
        round.get("SUMMARY")
    );
    assert!(round.get("DTSTART").ends_with('Z'));
    assert!(
        round.get("DTEND") > round.get("DTSTART"),
        "its games' deadlines after its start"
    );
    let deadlines: Vec<&Entry> = entries
        .iter()
        .filter(|e| e.get("UID").contains("-deadline@"))
        .collect();
    assert_eq!(deadlines.len(), 2, "the round's two games");
    for d in &deadlines {
        assert!(d.get("DTSTART").ends_with('Z'));
        assert!(d.get("DTSTART") <= round.get("DTEND"));
    }
    // A result comes in: the round is revised, and its game's deadline is gone.
    let x = common::file_json(&say(core, "olive", "hall", "tournament export league"));
    let first = &x["rounds"][0]["pairings"][0];
    let place = first["channel"].as_str().unwrap();
    say(core, first["black_name"].as_str().unwrap(), place, "resign");
    common::open_places(core);
    let (_, after) = calendar(&site, &url);
    let revised = after
        .iter()
        .find(|e| e.get("UID") == round.get("UID"))
        .expect("round 1 still");
    assert!(
        revised.get("SEQUENCE").parse::<u32>().unwrap()
            > round.get("SEQUENCE").parse::<u32>().unwrap()
    );
    assert_eq!(
        after
            .iter()
            .filter(|e| e.get("UID").contains("-deadline@"))
            .count(),
        1
    );
}
