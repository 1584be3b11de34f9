//! The golden transcript of a whole Croquet game (docs/examples/croquet-game.txt): each step,
//! what happened, the position after it and its perfect-play value, compared with
//! tests/golden/croquet-game.txt. MUSTER_BLESS=1 rewrites the golden file after a change meant
//! to alter it; read the difference before committing.

use std::fmt::Write;

use muster_rules::croquet::solve;
use muster_rules::croquet::{Croquet, CroquetEvent};
use muster_rules::{Game, Seat};

fn seat(s: Seat) -> &'static str {
    if s == Seat::WHITE { "White" } else { "Black" }
}

fn describe(e: &CroquetEvent) -> Option<String> {
    Some(match e {
        CroquetEvent::Stepped { .. } => return None,
        CroquetEvent::InHoop { hoop, .. } => format!("in hoop {hoop}"),
        CroquetEvent::TookHoop { hoop, .. } => format!("takes hoop {hoop}"),
        CroquetEvent::Missed { target, .. } => format!("misses {target}"),
        CroquetEvent::Passed { seat: s, .. } => format!("{} passes", seat(*s)),
        CroquetEvent::Won { seat: s } => format!("{} wins", seat(*s)),
    })
}

#[test]
fn a_whole_croquet_game_matches_its_golden_transcript() {
    let record = include_str!("../../docs/examples/croquet-game.txt");
    let mut g = Croquet::new();
    let mut out = String::from("# Golden transcript of docs/examples/croquet-game.txt\n");
    for (n, text) in record
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .enumerate()
    {
        let who = g.to_move().expect("the game goes on");
        let (value, best) = solve::analyse(&g);
        let best: Vec<String> = best.iter().map(|s| s.0.to_string()).collect();
        let events = g
            .play_text(who, text)
            .unwrap_or_else(|e| panic!("step {}: {text}: {e}", n + 1));
        let said: Vec<String> = events.iter().filter_map(describe).collect();
        let _ = write!(
            out,
            "{:>3}. {} {text} ({} for {}; best {})",
            n + 1,
            seat(who),
            value.as_str(),
            seat(who),
            best.join(" ")
        );
        if !said.is_empty() {
            let _ = write!(out, " — {}", said.join("; "));
        }
        let _ = writeln!(out, "\n     {}", g.position());
    }
    let _ = writeln!(out, "result: {:?}", g.outcome());
    let path = "tests/golden/croquet-game.txt";
    if std::env::var_os("MUSTER_BLESS").is_some() {
        std::fs::write(path, &out).expect("write the golden file");
    }
    let golden = std::fs::read_to_string(path).expect("tests/golden/croquet-game.txt exists");
    assert!(
        out == golden,
        "transcript differs from {path}; run with MUSTER_BLESS=1 and review the diff"
    );
    for needed in ["takes hoop", "in hoop", "misses", "passes", "White wins"] {
        assert!(golden.contains(needed), "the golden game shows {needed}");
    }
}
