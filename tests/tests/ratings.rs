//! Ratings end to end through the console: rated games on a manual clock, each result message
//! with both players' changes, the export recomputed by a Glicko-2 written here from Glickman's
//! paper (independently of the crate the bot uses) with the inactivity rule of
//! docs/ratings.md, what is rated and what is not, ratings across restarts, the leaderboard's
//! order, and Lanko's sides.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

fn data_dir(name: &str) -> PathBuf {
    muster_tests::data_dir("ratings", name)
}

const START: &str = "2026-11-25T10:00:00Z";

fn run(dir: &Path, script: &str) -> String {
    muster_tests::console_at(&muster_tests::muster_binary!(), dir, START, script)
}

/// A Croquet game in `channel` between `white` and `black` (challenge, accept, two steps each),
/// ended as `end` says: `white`/`black` (that side wins: the other resigns) or `draw`.
fn croquet(channel: &str, white: &str, black: &str, end: &str) -> String {
    let mut s = format!(
        "{white} {channel} new croquet @{black}\n{black} {channel} accept\n\
         {white} {channel} move 1\n{black} {channel} move 2\n{white} {channel} move 3\n{black} {channel} move 4\n"
    );
    s.push_str(&match end {
        "white" => format!("{black} {channel} resign\n"),
        "black" => format!("{white} {channel} resign\n"),
        _ => format!("{white} {channel} draw\n{black} {channel} draw accept\n"),
    });
    s
}

/// The export's JSON (the `| ` lines of its file).
fn export(out: &str) -> Value {
    let text: String = out
        .lines()
        .filter_map(|l| l.split_once("] | ").map(|(_, rest)| format!("{rest}\n")))
        .collect();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("no export ({e}):\n{out}"))
}

// Glicko-2 after Glickman, "Example of the Glicko-2 system" (2013), steps 1–8.
const SCALE: f64 = 173.7178;

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// One rating period with one game: the player's new (rating, deviation, volatility).
fn glicko2(me: (f64, f64, f64), them: (f64, f64), score: f64, tau: f64) -> (f64, f64, f64) {
    let (mu, phi, sigma) = ((me.0 - 1500.0) / SCALE, me.1 / SCALE, me.2);
    let (mu_j, phi_j) = ((them.0 - 1500.0) / SCALE, them.1 / SCALE);
    let e = 1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp());
    let v = 1.0 / (g(phi_j).powi(2) * e * (1.0 - e));
    let delta = v * g(phi_j) * (score - e);
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (tau * tau)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 {
            k += 1.0;
        }
        a - k * tau
    };
    let (mut fa, mut fb) = (f(big_a), f(big_b));
    while (big_b - big_a).abs() > 1e-6 {
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
    }
    let sigma2 = (big_a / 2.0).exp();
    let phi_star = (phi * phi + sigma2 * sigma2).sqrt();
    let phi2 = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu2 = mu + phi2 * phi2 * g(phi_j) * (score - e);
    (mu2 * SCALE + 1500.0, phi2 * SCALE, sigma2)
}

fn triple(v: &Value) -> (f64, f64, f64) {
    (
        v["rating"].as_f64().unwrap(),
        v["deviation"].as_f64().unwrap(),
        v["volatility"].as_f64().unwrap(),
    )
}

fn close(a: (f64, f64, f64), b: (f64, f64, f64), what: &str) {
    assert!(
        (a.0 - b.0).abs() < 0.01 && (a.1 - b.1).abs() < 0.01 && (a.2 - b.2).abs() < 1e-6,
        "{what}: {a:?} ≠ {b:?}"
    );
}

/// Seconds since the epoch of an RFC 3339 time the export gives (`…Z`, whole seconds).
fn seconds(text: &str) -> u64 {
    muster_core::clock::parse_rfc3339(text).unwrap()
}

/// Recomputes every Glicko-2 game of an export from the start: each player's rating before a
/// game is his rating after his previous one with the deviation grown over the days between
/// (0.21436 periods a day), or the newcomer's 1500/350/0.06; after it, one rating period.
fn recompute(x: &Value) {
    let g2 = &x["glicko2"];
    let tau = g2["tau"].as_f64().unwrap();
    let per_day = g2["periods_per_day"].as_f64().unwrap();
    let mut last: HashMap<String, ((f64, f64, f64), u64)> = HashMap::new();
    for game in x["games"].as_array().unwrap() {
        let ended = seconds(game["ended"].as_str().unwrap());
        let players = game["players"].as_array().unwrap();
        assert_eq!(players.len(), 2);
        let before: Vec<(f64, f64, f64)> = players
            .iter()
            .map(|p| match last.get(p["id"].as_str().unwrap()) {
                None => (1500.0, 350.0, 0.06),
                Some(((r, rd, s), at)) => {
                    let n = (ended - at) as f64 / 86_400.0 * per_day;
                    let phi = rd / SCALE;
                    let grown = ((phi * phi + n * s * s).sqrt() * SCALE).min(350.0);
                    (*r, grown, *s)
                }
            })
            .collect();
        let score = match game["result"].as_str().unwrap() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        for (i, p) in players.iter().enumerate() {
            let id = p["id"].as_str().unwrap().to_string();
            close(
                triple(&p["before"]),
                before[i],
                &format!("{id} before {}", game["id"]),
            );
            let (other, s) = if i == 0 {
                (before[1], score)
            } else {
                (before[0], 1.0 - score)
            };
            let after = glicko2(before[i], (other.0, other.1), s, tau);
            close(
                triple(&p["after"]),
                after,
                &format!("{id} after {}", game["id"]),
            );
            last.insert(id, (after, ended));
        }
    }
}

#[test]
fn rated_games_update_both_players_as_glicko2_says_and_the_rest_are_not_rated() {
    let dir = data_dir("glicko");
    let mut script = croquet("a", "alice", "bob", "black");
    // What is not rated: casual, against the bot, called off, a move each, forfeited.
    script.push_str("alice b new croquet @bob casual\nbob b accept\nalice b move 1\nbob b move 2\nalice b move 3\nbob b move 4\nalice b resign\n");
    script.push_str("alice c new croquet bot:easy\nalice c move 1\nalice c resign\n");
    script.push_str("alice d new croquet @bob\nalice d abort\n");
    script.push_str("alice e new croquet @carol\ncarol e accept\nalice e move 1\ncarol e move 2\nalice e resign\n");
    script.push_str("alice f new croquet @carol clock 1d\ncarol f accept\n~ +2d\n");
    // Ten days on, with her deviation grown, alice wins the return game; then a draw.
    script.push_str("~ +10d\n");
    script.push_str(&croquet("a", "bob", "alice", "black"));
    script.push_str(&croquet("g", "carol", "alice", "draw"));
    script.push_str("dave g ratings export\n");
    let out = run(&dir, &script);
    assert!(
        out.contains("[a] Ratings: alice 1500? → 1338? (−162) · bob 1500? → 1662? (+162)."),
        "{out}"
    );
    assert_eq!(
        out.matches("] Ratings: ").count(),
        3,
        "three rated games:\n{out}"
    );
    // Each game that is not rated says so, with the reason: when it begins if that is known
    // then, and when it ends; a game called off, never played, says nothing of ratings.
    for line in [
        "[b] The game begins: alice (White) vs bob (Black). Casual — not rated.",
        "[b] Casual game — not rated.",
        "Not rated: the bot plays.",
        "[c] Not rated: the bot played.",
        "[e] Not rated: a player made fewer than two moves.",
        "[f] Not rated: it was forfeited before a move.",
    ] {
        assert!(out.contains(line), "{line}:\n{out}");
    }
    assert!(!out.contains("[d] Not rated"), "{out}");
    assert!(!out.contains("[a] Not rated"), "{out}");
    let x = export(&out);
    let games = x["games"].as_array().unwrap();
    assert_eq!(games.len(), 3, "{x}");
    assert_eq!(games[2]["result"], "1/2-1/2");
    recompute(&x);
    // alice's second game started from a deviation grown over the ten days.
    let before = triple(&games[1]["players"][1]["before"]);
    let after_first = triple(&games[0]["players"][0]["after"]);
    assert!(
        before.1 > after_first.1 + 0.3,
        "{before:?} vs {after_first:?}"
    );

    // A restart keeps every rating; the rating command shows them.
    let out = run(&dir, "bob z rating\nbob z rating @alice croquet\n");
    assert!(
        out.contains("[z] bob's ratings:") && out.contains("Arithmetical Croquet (1889): "),
        "{out}"
    );
    assert!(out.contains("2 games"), "{out}");
    let again = export(&run(&dir, "dave g ratings export croquet\n"));
    assert_eq!(again["games"], x["games"]);
}

#[test]
fn the_leaderboard_ranks_established_players_by_rating_and_places_the_asker() {
    let dir = data_dir("leaderboard");
    let people = ["ann", "ben", "cid", "dot"];
    let mut script = String::new();
    let mut n = 0;
    // Twelve cycles of everyone against everyone (enough games to establish the ratings):
    // the earlier name mostly wins.
    for cycle in 0..12 {
        for i in 0..4 {
            for j in (i + 1)..4 {
                let (w, b) = if cycle % 2 == 0 {
                    (people[i], people[j])
                } else {
                    (people[j], people[i])
                };
                let upset = (cycle % 4 == 3 && i == 0 && j == 1) || (cycle == 5 && i == 2);
                let winner_is_white = (w == people[i]) != upset;
                let end = if (cycle + i + j) % 7 == 0 {
                    "draw"
                } else if winner_is_white {
                    "white"
                } else {
                    "black"
                };
                script.push_str(&croquet(&format!("t{n}"), w, b, end));
                n += 1;
            }
        }
    }
    script.push_str("cid hall leaderboard croquet\ncid hall ratings export\n");
    let out = run(&dir, &script);
    let x = export(&out);
    recompute(&x);
    let mut established: Vec<(String, f64)> = x["players"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["provisional"] == false)
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["rating"].as_f64().unwrap(),
            )
        })
        .collect();
    assert!(established.len() >= 3, "{x}");
    established.sort_by(|a, b| b.1.total_cmp(&a.1));
    let lines: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.contains("Leaderboard of Arithmetical Croquet"))
        .skip(1)
        .take(established.len())
        .collect();
    for (i, (name, rating)) in established.iter().enumerate() {
        let expected = format!("[hall] {}. {name} {} ", i + 1, rating.round() as i64);
        assert!(
            lines[i].starts_with(&expected),
            "{:?} vs {expected:?}",
            lines[i]
        );
    }
    assert_eq!(established[0].0, "ann", "{established:?}");
    let place = established.iter().position(|e| e.0 == "cid").unwrap() + 1;
    assert!(
        out.contains(&format!("You: {place}")),
        "cid is told his place:\n{out}"
    );
    assert!(
        out.contains("[hall] board: ") && out.contains("leaderboard-croquet.png"),
        "{out}"
    );

    // A tournament seeds its entrants by rating, the unrated after them in joining order.
    let out = run(
        &dir,
        "org hall tournament new cup croquet roundrobin\n\
         dot hall tournament join cup\neve hall tournament join cup\ncid hall tournament join cup\n\
         ben hall tournament join cup\nann hall tournament join cup\norg hall tournament start cup\n\
         org hall tournament export cup\n",
    );
    let mut by_rating: Vec<(String, f64)> = x["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["rating"].as_f64().unwrap(),
            )
        })
        .collect();
    by_rating.sort_by(|a, b| b.1.total_cmp(&a.1));
    let seeds: Vec<String> = by_rating
        .iter()
        .enumerate()
        .map(|(i, (n, r))| format!("{}. {n} ({})", i + 1, r.round() as i64))
        .chain(std::iter::once("5. eve".to_string()))
        .collect();
    assert!(
        out.contains(&format!("Seeds: {}.", seeds.join(", "))),
        "{seeds:?}\n{out}"
    );
    let event = export(&out);
    assert!(event["entrants"][0]["rating"].as_f64().is_some());
    assert_eq!(event["entrants"][4]["rating"], Value::Null);
}

#[test]
fn a_lanko_game_rates_each_side_with_weng_lin() {
    let dir = data_dir("lanko");
    // The first eight moves of the Lanko-88 golden game, two by each player, then S resigns.
    let moves = [
        "S7-S6", "35-37", "7-14", "17-10", "44;29", "28;30", "2-7", "33-E6",
    ];
    let seats = ["ann", "ben", "cid", "dot"];
    let mut script = String::from(
        "ann l new lanko88 @ben @cid @dot\nben l accept\ncid l accept\ndot l accept\n",
    );
    for (i, m) in moves.iter().enumerate() {
        script.push_str(&format!("{} l {m}\n", seats[i % 4]));
    }
    script.push_str("ann l resign\nann l ratings export lanko88\n");
    let out = run(&dir, &script);
    let line = out
        .lines()
        .find(|l| l.starts_with("[l] Ratings: "))
        .unwrap_or_else(|| panic!("no ratings line:\n{out}"));
    // ann and cid (S and N) lose together; ben and dot (W and E) win together.
    for (who, sign) in [("ann", "−"), ("cid", "−"), ("ben", "+"), ("dot", "+")] {
        assert!(line.contains(&format!("{who} 25.0? → ")), "{line}");
        assert!(line.contains(&format!("({sign}")), "{line}");
    }
    let x = export(&out);
    let game = &x["games"][0];
    assert_eq!(game["result"], "0-1");
    let after = |id: &str| {
        game["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == id)
            .map(|p| p["after"]["rating"].as_f64().unwrap())
            .unwrap()
    };
    // Each player's side is named by its seats, as the game's record names it.
    for (id, side) in [
        ("ann", "S+N"),
        ("cid", "S+N"),
        ("ben", "W+E"),
        ("dot", "W+E"),
    ] {
        let p = game["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == id)
            .unwrap();
        assert_eq!(p["side"], side, "{id}: {p}");
    }
    assert!((after("ann") - after("cid")).abs() < 1e-9);
    assert!((after("ben") - after("dot")).abs() < 1e-9);
    assert!(after("ben") > 25.0 && after("ann") < 25.0);
    assert!(
        x["players"]
            .as_array()
            .unwrap()
            .iter()
            .all(|p| p["system"] == "weng_lin")
    );
}
