//! `tournament export <name> [json|trf]` as a user meets it: a Swiss event played to its end
//! (games resigned and drawn, a forfeit given by the organiser, a bye each round, a player who
//! withdrew), exported both ways, and FIDE's report file read back and held against the JSON
//! export (docs/machine-interface.md); a knockout's report file refused.

use std::sync::Arc;

use muster_core::clock::{ManualClock, parse_rfc3339};
use muster_core::desk::{Core, Reply};
use muster_core::store::MemoryStore;
use muster_rules::tournament::Entry;
use muster_rules::tournament::trf::{self, Report};
use serde_json::Value;

use muster_core::testing as common;
use muster_core::testing::say_and_open as say;

/// The day the events are opened.
const OPENED: &str = "2026-11-25T10:00:00Z";

fn core() -> Core {
    let clock = Arc::new(ManualClock::starting_at(parse_rfc3339(OPENED).unwrap()));
    Core::with_clock(Arc::new(MemoryStore::default()), "!", clock)
}

/// `user` says `text` in `channel`, which must not be refused.
fn done(core: &Core, user: &str, channel: &str, text: &str) {
    let out = say(core, user, channel, text);
    assert!(common::privates(&out).is_empty(), "{text}: {out:?}");
}

/// The one file among `replies`: its name and content.
fn file(replies: &[Reply]) -> (String, String) {
    let files: Vec<(String, String)> = replies
        .iter()
        .filter_map(|r| match r {
            Reply::File { name, content } => Some((name.clone(), content.clone())),
            _ => None,
        })
        .collect();
    match files.as_slice() {
        [one] => one.clone(),
        _ => panic!("not one file: {replies:?}"),
    }
}

/// The event's JSON export, asked for with `text` by olive in `#hall`.
fn json(core: &Core, text: &str) -> Value {
    let (name, content) = file(&say(core, "olive", "hall", text));
    assert!(name.ends_with(".json"), "{name}");
    serde_json::from_str(&content).expect("the export is JSON")
}

const PLAYERS: [&str; 5] = ["ann", "bob", "cat", "dan", "eve"];

/// A Swiss event of Croquet, `cup`, of three rounds for five players (a bye each round),
/// opened by olive in `#hall` and started.
fn started() -> Core {
    let core = core();
    done(
        &core,
        "olive",
        "hall",
        "tournament new cup croquet swiss rounds 3",
    );
    for p in PLAYERS {
        done(&core, p, "hall", "tournament join cup");
    }
    done(&core, "olive", "hall", "tournament start cup");
    core
}

/// Ends every running board of the current round: board 1 resigned by Black in its place,
/// board 2 a forfeit in round 1 and agreed drawn after that, in its place.
fn play_round(core: &Core, round: usize) {
    let x = json(core, "tournament export cup");
    let pairings = x["rounds"][round - 1]["pairings"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(pairings.len(), 2, "round {round}: {x}");
    for p in &pairings {
        let (board, place) = (p["board"].as_u64().unwrap(), p["channel"].as_str().unwrap());
        let name = |side: &str| p[side].as_str().unwrap().to_string();
        let (white, black) = (name("white_name"), name("black_name"));
        match (board, round) {
            (1, _) => done(core, &black, place, "resign"),
            (_, 1) => done(
                core,
                "olive",
                "hall",
                "tournament result cup 2 forfeit white",
            ),
            _ => {
                done(core, &white, place, "draw");
                done(core, &black, place, "draw accept");
            }
        }
    }
}

/// What the JSON export says of round `r` (from 0), entrant by entrant, as the report file
/// writes it.
fn expected_round(x: &Value, r: usize) -> Vec<Entry> {
    let round = &x["rounds"][r];
    let mut entries = vec![Entry::Absent; x["entrants"].as_array().unwrap().len()];
    for p in round["pairings"].as_array().unwrap() {
        let seed = |side: &str| p[side].as_u64().unwrap() as usize - 1;
        let (w, b) = (seed("white"), seed("black"));
        let white = match p["result"].as_str() {
            Some("1-0") => 2,
            Some("0-1") => 0,
            Some("1/2-1/2") => 1,
            other => panic!("round {} is complete, yet {other:?}", r + 1),
        };
        let forfeit = p["forfeit"].as_bool().unwrap();
        entries[w] = Entry::Game {
            opponent: b,
            white: true,
            points: white,
            forfeit,
        };
        entries[b] = Entry::Game {
            opponent: w,
            white: false,
            points: 2 - white,
            forfeit,
        };
    }
    if let Some(bye) = round["bye"].as_u64() {
        entries[bye as usize - 1] = Entry::Bye;
    }
    entries
}

/// Holds the report file against the JSON export: every entrant's name, points and rank, and
/// every completed round's opponent, colour and result of each.
fn check(report: &Report, x: &Value) {
    let entrants = x["entrants"].as_array().unwrap();
    assert_eq!(report.players.len(), entrants.len());
    for (e, entrant) in entrants.iter().enumerate() {
        assert_eq!(report.players[e].name, entrant["name"].as_str().unwrap());
        let line = x["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["seed"] == e + 1)
            .unwrap_or_else(|| panic!("seed {} stands nowhere: {x}", e + 1));
        assert_eq!(report.ranks[e], line["rank"].as_u64().unwrap() as usize);
        let points = line["points"].as_f64().unwrap();
        assert_eq!(f64::from(report.field.points(e)) / 2.0, points, "{line}");
    }
    let completed = x["rounds_completed"].as_u64().unwrap() as usize;
    assert_eq!(
        report.field.rounds.len(),
        completed,
        "only completed rounds"
    );
    for r in 0..completed {
        assert_eq!(
            report.field.rounds[r],
            expected_round(x, r),
            "round {}",
            r + 1
        );
    }
    assert_eq!(
        Some(report.field.total_rounds),
        x["rounds_planned"].as_u64().map(|n| n as usize)
    );
}

#[test]
fn a_swiss_event_s_report_file_says_what_its_json_export_says_round_by_round() {
    let core = started();
    play_round(&core, 1);
    // Eve withdraws once round 2 is paired: she plays it out and is out of round 3.
    done(&core, "eve", "hall", "tournament leave cup");
    // While it runs, the report file has the rounds completed (round 2 is under way)...
    let (name, text) = file(&say(&core, "olive", "hall", "tournament export cup trf"));
    assert_eq!(name, "cup.trf");
    let report = trf::read(&text).unwrap_or_else(|e| panic!("{e:?}:\n{text}"));
    check(&report, &json(&core, "tournament export cup"));
    assert!(
        !report.field.out.iter().any(|o| *o),
        "eve plays round 2:\n{text}"
    );
    // ... and once it is over, leaves eve out of the next.
    play_round(&core, 2);
    let text = file(&say(&core, "olive", "hall", "tournament export cup trf")).1;
    let report = trf::read(&text).unwrap_or_else(|e| panic!("{e:?}:\n{text}"));
    check(&report, &json(&core, "tournament export cup"));
    let eve = report.players.iter().position(|p| p.name == "eve").unwrap();
    assert!(report.running, "{text}");
    let out: Vec<usize> = (0..5).filter(|e| report.field.out[*e]).collect();
    assert_eq!(out, vec![eve], "{text}");
    let line = text.lines().find(|l| l.contains(" eve ")).unwrap();
    assert!(line.ends_with(" - Z"), "{text}");
    play_round(&core, 3);
    let x = json(&core, "tournament export cup json");
    assert_eq!(x["state"], "finished", "{x}");
    assert_eq!(x["rounds_completed"], 3);
    // The forfeit, the bye and the withdrawal are all in the event.
    let all: Vec<&Value> = (0..3)
        .flat_map(|r| x["rounds"][r]["pairings"].as_array().unwrap())
        .collect();
    assert!(all.iter().any(|p| p["forfeit"] == true), "{x}");
    assert!(x["rounds"][0]["bye"].is_u64() && x["rounds"][1]["bye"].is_u64());
    assert_eq!(x["entrants"][eve]["withdrawn_from_round"], 3, "{x}");
    // In the event's channel the name may be left out, and the format is the word left.
    let (name, text) = file(&say(&core, "ann", "hall", "tournament export trf"));
    assert_eq!(name, "cup.trf");
    assert_eq!(
        file(&say(&core, "ann", "hall", "tournament export cup TRF")).1,
        text
    );
    let lines: Vec<&str> = text.lines().collect();
    for head in [
        "012 cup",
        "042 2026/11/25",
        "062 5",
        "092 Swiss",
        "XXR 3",
        "XXC white1",
    ] {
        assert!(lines.iter().any(|l| l.starts_with(head)), "{head}:\n{text}");
    }
    let report = trf::read(&text).unwrap_or_else(|e| panic!("{e:?}:\n{text}"));
    assert!(
        !report.running && !report.field.out.iter().any(|o| *o),
        "{text}"
    );
    assert_eq!(report.start.as_deref(), Some("2026/11/25"));
    check(&report, &x);
    // Eve is absent from round 3: not paired, no bye.
    assert_eq!(report.field.rounds[2][eve], Entry::Absent, "{text}");
}

#[test]
fn a_wrong_format_or_a_knockout_s_report_file_is_refused_privately_with_what_to_say() {
    let core = started();
    let out = say(&core, "ann", "hall", "tournament export cup pdf");
    let said = common::privates(&out).join("\n");
    assert!(
        said.contains("`pdf` is not an export format")
            && said.contains("`!tournament export cup trf`")
            && said.contains("json"),
        "{said}"
    );
    assert!(out.iter().all(|r| !matches!(r, Reply::File { .. })));
    // Where no event was opened, `trf` is not taken for an event's name.
    let out = say(&core, "ann", "lounge", "tournament export trf");
    let said = common::privates(&out).join("\n");
    assert!(said.starts_with("Name the event"), "{said}");

    done(&core, "olive", "hall", "tournament new ko croquet knockout");
    for p in ["ann", "bob", "cat", "dan"] {
        done(&core, p, "hall", "tournament join ko");
    }
    done(&core, "olive", "hall", "tournament start ko");
    let out = say(&core, "ann", "hall", "tournament export ko trf");
    assert!(
        out.iter().all(|r| !matches!(r, Reply::File { .. })),
        "{out:?}"
    );
    let said = common::privates(&out).join("\n");
    assert!(
        said.contains("ko is a knockout")
            && said.contains("do not fit FIDE's report file")
            && said.contains("`!tournament export ko` gives the event as JSON"),
        "{said}"
    );
    // An event not yet paired has nothing for a report file.
    done(
        &core,
        "olive",
        "hall",
        "tournament new league croquet roundrobin",
    );
    let out = say(&core, "ann", "hall", "tournament export league trf");
    let said = common::privates(&out).join("\n");
    assert!(said.starts_with("league has no round paired yet"), "{said}");
    // The knockout's JSON export is there as before.
    let (name, _) = file(&say(&core, "ann", "hall", "tournament export ko"));
    assert_eq!(name, "ko.json");
}
