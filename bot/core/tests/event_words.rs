//! What an event's messages say, as its players read them (docs/tournaments.md).

use std::sync::Arc;

use muster_core::desk::{Core, Reply};
use muster_core::store::MemoryStore;

use muster_core::testing as common;

/// A Swiss event of Croquet in `#hall` with `entrants` players, started.
fn started(entrants: usize) -> Core {
    let core = Core::new(Arc::new(MemoryStore::default()), "!");
    let say = |user: &str, text: &str| {
        let out = core.handle(&common::request(user, "hall", text));
        assert!(common::privates(&out).is_empty(), "{text}: {out:?}");
    };
    say("olive", "tournament new cup croquet swiss rounds 3");
    for n in 1..=entrants {
        say(&format!("p{n}"), "tournament join cup");
    }
    say("olive", "tournament start cup");
    common::open_places(&core);
    core
}

/// The description of the standings image that `tournament standings cup` shows.
fn standings_alt(core: &Core) -> String {
    let out = core.handle(&common::request(
        "olive",
        "hall",
        "tournament standings cup",
    ));
    out.iter()
        .find_map(|r| match r {
            Reply::Board(b) => Some(b.drawn().expect("the standings draw").alt.clone()),
            _ => None,
        })
        .expect("a standings image")
}

#[test]
fn a_standings_image_names_the_first_eight_and_says_how_many_more_and_where() {
    let alt = standings_alt(&started(11));
    let named = (1..=11)
        .filter(|n| alt.contains(&format!(" p{n} ")))
        .count();
    assert_eq!(named, 8, "{alt}");
    assert!(
        alt.ends_with("and 3 more (the command tournament standings cup lists everyone)."),
        "{alt}"
    );
}

#[test]
fn a_standings_image_of_eight_names_them_all_and_no_more() {
    let alt = standings_alt(&started(8));
    assert!(!alt.contains("more"), "{alt}");
    for n in 1..=8 {
        assert!(alt.contains(&format!(" p{n} ")), "p{n}: {alt}");
    }
}

/// What `tournament …` by the organiser answers in `#hall`, as one text.
fn said(core: &Core, text: &str) -> Vec<Reply> {
    let out = core.handle(&common::request("olive", "hall", text));
    assert!(common::privates(&out).is_empty(), "{text}: {out:?}");
    out
}

/// The texts among `replies`.
fn texts(replies: &[Reply]) -> String {
    replies
        .iter()
        .filter_map(|r| match r {
            Reply::Text(t) => Some(t.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A Swiss of five after round 1: board 1's White won by forfeit, board 2's White over the
/// board (as the organiser gave it), one entrant had the bye. The core, the bye's entrant, the
/// forfeit's winner and loser, and board 2's winner and loser.
fn bye_and_forfeit() -> (Core, [String; 5]) {
    let core = started(5);
    let pairings = texts(&said(&core, "tournament pairings cup"));
    let board = |b: usize| -> (String, String) {
        let line = pairings
            .lines()
            .find(|l| l.starts_with(&format!("Board {b}: ")))
            .unwrap_or_else(|| panic!("no board {b}: {pairings}"));
        let rest = &line[format!("Board {b}: ").len()..];
        let (white, rest) = rest.split_once(" (White) v ").expect("White");
        let (black, _) = rest.split_once(" (Black)").expect("Black");
        (white.to_string(), black.to_string())
    };
    let bye = pairings
        .lines()
        .find_map(|l| l.strip_suffix(": bye (1 point)"))
        .unwrap_or_else(|| panic!("no bye: {pairings}"))
        .to_string();
    let ((w1, b1), (w2, b2)) = (board(1), board(2));
    said(&core, "tournament result cup 1 forfeit black");
    said(&core, "tournament result cup 2 1-0");
    (core, [bye, w1, b1, w2, b2])
}

/// The standings' text and image of `cup`.
fn standings(core: &Core) -> (String, String, Vec<u8>) {
    let out = said(core, "tournament standings cup");
    let drawn = out
        .iter()
        .find_map(|r| match r {
            Reply::Board(b) => Some(b.drawn().expect("the standings draw")),
            _ => None,
        })
        .expect("a standings image");
    (texts(&out), drawn.alt.clone(), drawn.png.clone())
}

#[test]
fn points_won_by_a_bye_or_a_forfeit_are_marked_in_the_standings_and_the_others_not() {
    let (core, [bye, forfeit_won, forfeit_lost, won, lost]) = bye_and_forfeit();
    let (text, alt, png) = standings(&core);
    // Each entrant's line: `  1 p3                      1*     0 …`.
    let line = |name: &str| -> &str {
        text.lines()
            .find(|l| l.get(4..24).map(str::trim_end) == Some(name))
            .unwrap_or_else(|| panic!("no line of {name}:\n{text}"))
    };
    let points = |name: &str| line(name)[25..30].to_string();
    assert_eq!(points(&bye), "   1*", "{text}");
    assert_eq!(points(&forfeit_won), "   1*", "{text}");
    for name in [&forfeit_lost, &won, &lost] {
        assert!(!points(name).contains('*'), "{name}:\n{text}");
    }
    assert_eq!(points(&won), "   1 ", "{text}");
    // The note under the table says whose points and how many, both of them and no other.
    let note = text
        .split_once("* points won without playing (bye or forfeit):")
        .unwrap_or_else(|| panic!("no note:\n{text}"))
        .1;
    for name in [&bye, &forfeit_won] {
        assert!(note.contains(&format!("{name} 1")), "{name}: {note}");
    }
    for name in [&forfeit_lost, &won, &lost] {
        assert!(!note.contains(name.as_str()), "{name}: {note}");
    }
    assert!(note.trim_end().ends_with("```"), "{text}");
    for l in text.lines() {
        assert!(
            l.chars().count() <= 60,
            "{} characters: {l}",
            l.chars().count()
        );
    }
    // The image's description says it too.
    for name in [&bye, &forfeit_won] {
        assert!(
            alt.contains(&format!(" {name} 1 (1 without playing)")),
            "{alt}"
        );
    }
    assert!(alt.contains(&format!(" {won} 1,")), "{alt}");
    if let Some(dir) = std::env::var_os("MUSTER_RENDER_OUT") {
        // To look at, as the golden images are: MUSTER_RENDER_OUT=<dir> cargo test -p muster-core --test event_words.
        let dir = std::path::Path::new(&dir);
        std::fs::write(dir.join("standings-unplayed.png"), &png).expect("written");
        std::fs::write(dir.join("standings-unplayed.txt"), &text).expect("written");
    }
}

#[test]
fn the_export_gives_each_standing_its_points_won_without_playing() {
    let (core, [bye, forfeit_won, forfeit_lost, won, lost]) = bye_and_forfeit();
    let out = said(&core, "tournament export cup");
    let json = out
        .iter()
        .find_map(|r| match r {
            Reply::File { content, .. } => Some(content.clone()),
            _ => None,
        })
        .expect("an export");
    let x: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    let unplayed = |name: &str| {
        x["standings"]
            .as_array()
            .expect("standings")
            .iter()
            .find(|l| l["name"] == name)
            .unwrap_or_else(|| panic!("{name} not in {x}"))["unplayed_points"]
            .as_f64()
            .expect("a number")
    };
    assert_eq!(unplayed(&bye), 1.0);
    assert_eq!(unplayed(&forfeit_won), 1.0);
    for name in [&forfeit_lost, &won, &lost] {
        assert_eq!(unplayed(name), 0.0, "{name}");
    }
}

#[test]
fn standings_without_unplayed_points_mark_nobody_and_have_no_note() {
    let core = started(4);
    said(&core, "tournament result cup 1 1-0");
    said(&core, "tournament result cup 2 1/2-1/2");
    let (text, alt, _) = standings(&core);
    assert!(!text.contains('*'), "{text}");
    assert!(!text.contains("without playing"), "{text}");
    assert!(!alt.contains("without playing"), "{alt}");
}
