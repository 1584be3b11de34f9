//! Tournaments end to end through the console: whole events played game by game, each round in
//! a fresh process (so every event also survives restarts between rounds and mid-round), then
//! checked from the event's export by rules written here independently of the bot: pairings,
//! byes, colours, the bracket, and every tie-break recomputed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

fn data_dir(name: &str) -> PathBuf {
    muster_tests::data_dir("tournaments", name)
}

fn console(dir: &Path, script: &str) -> String {
    muster_tests::console(&muster_tests::muster_binary!(), dir, script)
}

/// One board as the round's announcement gives it.
#[derive(Debug, Clone)]
struct Board {
    number: usize,
    white: String,
    black: String,
    channel: String,
}

/// The boards and byes of round `round` of `event`, from its announcement in `hall`.
fn announced(out: &str, event: &str, round: usize) -> (Vec<Board>, Vec<String>) {
    let head = format!("[hall] {event} · round {round} of ");
    let lines: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with(&head))
        .skip(1)
        .take_while(|l| {
            l.starts_with("[hall] Board ") || l.contains(": bye") || l.contains("rests")
        })
        .collect();
    assert!(!lines.is_empty(), "round {round} was not announced:\n{out}");
    let mut boards = Vec::new();
    let mut byes = Vec::new();
    for l in lines {
        let l = l.trim_start_matches("[hall] ");
        if let Some(rest) = l.strip_prefix("Board ") {
            // Board 1: ann (White) v bob (Black) in #spring-1-1
            let (n, rest) = rest.split_once(": ").unwrap();
            let (white, rest) = rest.split_once(" (White) v ").unwrap();
            let (black, rest) = rest.split_once(" (Black) in #").unwrap();
            boards.push(Board {
                number: n.parse().unwrap(),
                white: white.into(),
                black: black.into(),
                channel: rest.split_whitespace().next().unwrap().into(),
            });
        } else {
            byes.push(l.split_once(':').unwrap().0.to_string());
        }
    }
    for (i, b) in boards.iter().enumerate() {
        assert_eq!(b.number, i + 1, "boards numbered in order");
    }
    (boards, byes)
}

/// How a board ends in these scripts.
#[derive(Clone, Copy, PartialEq, Debug)]
enum End {
    White,
    Black,
    Draw,
}

/// The lines that end `board` as `end`: the loser resigns, or a draw is agreed.
fn play(board: &Board, end: End) -> String {
    let (w, b, c) = (&board.white, &board.black, &board.channel);
    match end {
        End::White => format!("{b} {c} resign\n"),
        End::Black => format!("{w} {c} resign\n"),
        End::Draw => format!("{w} {c} draw\n{b} {c} draw accept\n"),
    }
}

fn code(end: End) -> &'static str {
    match end {
        End::White => "1-0",
        End::Black => "0-1",
        End::Draw => "1/2-1/2",
    }
}

/// The export printed for `event` (its `| ` lines) as JSON.
fn export(out: &str) -> Value {
    let text: String = out
        .lines()
        .filter_map(|l| l.strip_prefix("[hall] | "))
        .map(|l| format!("{l}\n"))
        .collect();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("no export ({e}):\n{out}"))
}

const SEVEN: [&str; 7] = ["ann", "bob", "cat", "dan", "eve", "fay", "gus"];

/// The result the script gives a board: decided by the names and round, so that the event
/// has wins both ways and draws.
fn swiss_result(round: usize, board: &Board) -> End {
    let w = SEVEN.iter().position(|n| *n == board.white).unwrap();
    let b = SEVEN.iter().position(|n| *n == board.black).unwrap();
    match (w * 3 + b + round) % 4 {
        0 => End::Draw,
        1 | 2 => {
            if w < b {
                End::White
            } else {
                End::Black
            }
        }
        _ => {
            if w < b {
                End::Black
            } else {
                End::White
            }
        }
    }
}

#[test]
fn a_swiss_of_seven_is_paired_played_and_ranked_as_the_rules_say_across_restarts() {
    let dir = data_dir("swiss7");
    let mut setup = String::from("org hall tournament new spring croquet swiss\n");
    for p in SEVEN {
        setup.push_str(&format!("{p} hall tournament join spring\n"));
    }
    setup.push_str("org hall tournament start spring\n");
    let mut out = console(&dir, &setup);
    assert!(out.contains("7 entrants, 4 rounds"), "{out}");
    let mut played: Vec<BTreeMap<(String, String), End>> = Vec::new();
    for round in 1..=4 {
        let (boards, byes) = announced(&out, "spring", round);
        assert_eq!(boards.len(), 3, "round {round}");
        assert_eq!(byes.len(), 1, "round {round}: one bye in a field of seven");
        // Each board's result in a process of its own: a restart mid-round loses nothing.
        let mut results = BTreeMap::new();
        for board in &boards {
            let end = swiss_result(round, board);
            results.insert((board.white.clone(), board.black.clone()), end);
            out = console(&dir, &play(board, end));
        }
        played.push(results);
    }
    assert!(out.contains("spring is over"), "{out}");
    // The final standings also come as a table image.
    let image = out
        .lines()
        .find_map(|l| {
            l.strip_prefix("[hall] board: ")
                .filter(|p| p.ends_with("spring-standings-4.png"))
        })
        .unwrap_or_else(|| panic!("no standings image:\n{out}"));
    let png = std::fs::read(image).unwrap();
    assert!(png.starts_with(b"\x89PNG"), "{image}");
    let out = console(&dir, "ann hall tournament export spring\n");
    let x = export(&out);
    check_swiss(&x, &played);
    // FIDE's report file, written beside the JSON, ranks and scores everyone as it does.
    let out = console(&dir, "ann hall tournament export spring trf\n");
    let path = out
        .lines()
        .find_map(|l| l.strip_prefix("[hall] file: "))
        .unwrap_or_else(|| panic!("no file:\n{out}"));
    assert!(path.ends_with("exports/spring.trf"), "{path}");
    let text = std::fs::read_to_string(path).unwrap();
    let report = muster_rules::tournament::trf::read(&text).unwrap();
    assert_eq!(report.field.rounds.len(), 4);
    for line in x["standings"].as_array().unwrap() {
        let e = line["seed"].as_u64().unwrap() as usize - 1;
        assert_eq!(report.players[e].name, line["name"].as_str().unwrap());
        assert_eq!(report.ranks[e], line["rank"].as_u64().unwrap() as usize);
        let points = f64::from(report.field.points(e)) / 2.0;
        assert_eq!(points, line["points"].as_f64().unwrap(), "{text}");
    }
}

/// Checks a Swiss event's export against the results played and the pairing rules.
fn check_swiss(x: &Value, played: &[BTreeMap<(String, String), End>]) {
    assert_eq!(x["system"], "swiss");
    assert_eq!(x["state"], "finished");
    let names: Vec<String> = x["entrants"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap().to_string())
        .collect();
    let n = names.len();
    let rounds = x["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), played.len());
    // Half points, colours, opponents, byes, as the games went.
    let mut points = vec![0u32; n];
    let mut colours: Vec<Vec<bool>> = vec![Vec::new(); n];
    let mut met: BTreeSet<(usize, usize)> = BTreeSet::new();
    let mut byes = vec![0; n];
    let mut games: Vec<Vec<(Option<usize>, u32)>> = vec![Vec::new(); n];
    for (r, round) in rounds.iter().enumerate() {
        // The bye goes to the lowest-ranked player who has not had one: nobody without a bye
        // has fewer points.
        let bye = round["bye"].as_u64().map(|s| s as usize - 1);
        if let Some(b) = bye {
            assert_eq!(byes[b], 0, "round {}: a second bye for {}", r + 1, names[b]);
            for e in 0..n {
                if e != b && byes[e] == 0 {
                    assert!(
                        points[e] >= points[b],
                        "round {}: the bye went to {} with {} half points, not to {} with {}",
                        r + 1,
                        names[b],
                        points[b],
                        names[e],
                        points[e]
                    );
                }
            }
        }
        // Score groups: the top board is played by one of the leaders.
        let top = round["pairings"][0]["white"].as_u64().unwrap() as usize - 1;
        let top2 = round["pairings"][0]["black"].as_u64().unwrap() as usize - 1;
        let lead = (0..n)
            .filter(|e| Some(*e) != bye)
            .map(|e| points[e])
            .max()
            .unwrap();
        assert!(
            points[top] == lead || points[top2] == lead,
            "round {}: board 1 is not the leaders'",
            r + 1
        );
        let mut round_points = vec![None; n];
        for p in round["pairings"].as_array().unwrap() {
            let (w, b) = (
                p["white"].as_u64().unwrap() as usize - 1,
                p["black"].as_u64().unwrap() as usize - 1,
            );
            assert!(
                met.insert((w.min(b), w.max(b))),
                "round {}: {} and {} meet twice",
                r + 1,
                names[w],
                names[b]
            );
            let end = played[r][&(names[w].clone(), names[b].clone())];
            assert_eq!(
                p["result"],
                code(end),
                "round {} {} v {}",
                r + 1,
                names[w],
                names[b]
            );
            assert_eq!(p["forfeit"], false);
            let (pw, pb) = match end {
                End::White => (2, 0),
                End::Black => (0, 2),
                End::Draw => (1, 1),
            };
            round_points[w] = Some((Some(b), pw));
            round_points[b] = Some((Some(w), pb));
            colours[w].push(true);
            colours[b].push(false);
        }
        if let Some(b) = bye {
            byes[b] += 1;
            round_points[b] = Some((None, 2));
        }
        for e in 0..n {
            let (opp, p) = round_points[e].expect("everyone plays or has the bye");
            points[e] += p;
            games[e].push((opp, p));
        }
    }
    // Colours: never three alike in a row, never two more of one than of the other.
    for (e, c) in colours.iter().enumerate() {
        let diff: i32 = c.iter().map(|w| if *w { 1 } else { -1 }).sum();
        assert!(diff.abs() <= 2, "{}: colours {c:?}", names[e]);
        assert!(
            !c.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]),
            "{}: colours {c:?}",
            names[e]
        );
    }
    // Tie-breaks recomputed: a bye counts as a game against a dummy with one's own score.
    let buchholz: Vec<Vec<u32>> = (0..n)
        .map(|e| {
            games[e]
                .iter()
                .map(|(o, _)| o.map_or(points[e], |o| points[o]))
                .collect()
        })
        .collect();
    for line in x["standings"].as_array().unwrap() {
        let e = line["seed"].as_u64().unwrap() as usize - 1;
        assert_eq!(
            line["points"].as_f64().unwrap(),
            f64::from(points[e]) / 2.0,
            "{}",
            names[e]
        );
        let bh: u32 = buchholz[e].iter().sum();
        // No round here is voluntarily unplayed: cut-1 drops the lowest value.
        let cut = *buchholz[e].iter().min().unwrap();
        let sb: u32 = games[e]
            .iter()
            .map(|(o, p)| o.map_or(points[e], |o| points[o]) * p)
            .sum();
        let wins = games[e]
            .iter()
            .filter(|(o, p)| o.is_some() && *p == 2)
            .count();
        let t = &line["tiebreaks"];
        assert_eq!(
            t["buchholz"].as_f64().unwrap(),
            f64::from(bh) / 2.0,
            "{} Buchholz",
            names[e]
        );
        assert_eq!(
            t["buchholz_cut1"].as_f64().unwrap(),
            f64::from(bh - cut) / 2.0,
            "{} cut-1",
            names[e]
        );
        assert_eq!(
            t["sonneborn_berger"].as_f64().unwrap(),
            f64::from(sb) / 4.0,
            "{} SB",
            names[e]
        );
        assert_eq!(
            t["wins"].as_u64().unwrap() as usize,
            wins,
            "{} wins",
            names[e]
        );
    }
    // In order: points, then the tie-breaks in turn.
    let keys: Vec<Vec<f64>> = x["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let t = &l["tiebreaks"];
            vec![
                l["points"].as_f64().unwrap(),
                t["buchholz_cut1"].as_f64().unwrap(),
                t["buchholz"].as_f64().unwrap(),
                t["sonneborn_berger"].as_f64().unwrap(),
                t["wins"].as_f64().unwrap(),
            ]
        })
        .collect();
    for pair in keys.windows(2) {
        assert!(pair[0] >= pair[1], "standings out of order: {keys:?}");
    }
}

#[test]
fn a_knockout_of_six_gives_the_top_seeds_byes_replays_draws_and_sends_the_higher_seed_through() {
    let dir = data_dir("knockout6");
    let six = ["ann", "bob", "cat", "dan", "eve", "fay"];
    let mut setup = String::from("org hall tournament new cup croquet knockout\n");
    for p in six {
        setup.push_str(&format!("{p} hall tournament join cup\n"));
    }
    setup.push_str("org hall tournament start cup\n");
    let out = console(&dir, &setup);
    // Seeds 1 and 2 have byes; 4 v 5 and 3 v 6 play, in bracket order.
    let (boards, byes) = announced(&out, "cup", 1);
    assert_eq!(byes, vec!["ann", "bob"]);
    let pairs: Vec<(&str, &str)> = boards
        .iter()
        .map(|b| (b.white.as_str(), b.black.as_str()))
        .collect();
    assert_eq!(pairs, vec![("dan", "eve"), ("cat", "fay")]);
    // Board 1: drawn, then the replay (colours reversed) won by eve, the lower seed.
    let out = console(&dir, &play(&boards[0], End::Draw));
    assert!(
        out.contains("game 2 of 3 is played with colours reversed"),
        "{out}"
    );
    assert!(out.contains("[cup-1-1] cup · round 1 · board 1 (game 2, colours reversed): eve (White) vs dan (Black)"), "{out}");
    let replay = Board {
        white: "eve".into(),
        black: "dan".into(),
        ..boards[0].clone()
    };
    console(&dir, &play(&replay, End::White));
    // Board 2: drawn three times; cat, the higher seed, goes through.
    let mut b = boards[1].clone();
    let mut out = String::new();
    for _ in 0..3 {
        out = console(&dir, &play(&b, End::Draw));
        std::mem::swap(&mut b.white, &mut b.black);
    }
    assert!(
        out.contains(
            "cat (3) v fay (6): 1/2-1/2, 1/2-1/2, 1/2-1/2 → cat through as the higher seed"
        ),
        "{out}"
    );
    // Semi-finals: ann v eve (the winner of 4 v 5), bob v cat.
    let (semis, byes) = announced(&out, "cup", 2);
    assert!(byes.is_empty());
    let pairs: Vec<(&str, &str)> = semis
        .iter()
        .map(|b| (b.white.as_str(), b.black.as_str()))
        .collect();
    assert_eq!(pairs, vec![("ann", "eve"), ("bob", "cat")]);
    console(&dir, &play(&semis[0], End::Black));
    let out = console(&dir, &play(&semis[1], End::White));
    let (fin, _) = announced(&out, "cup", 3);
    assert_eq!(
        (fin[0].white.as_str(), fin[0].black.as_str()),
        ("bob", "eve")
    );
    let out = console(
        &dir,
        &format!(
            "{}ann hall tournament export cup\n",
            play(&fin[0], End::Black)
        ),
    );
    assert!(out.contains("cup is over. The winner: eve."), "{out}");
    let x = export(&out);
    assert_eq!(x["winner"], 5);
    let r1 = &x["rounds"][0];
    assert_eq!(r1["byes"], serde_json::json!([1, 2]));
    assert_eq!(r1["matches"][0]["through"], 5);
    assert_eq!(r1["matches"][1]["through"], 3);
    assert_eq!(r1["matches"][1]["by_seed"], true);
    // Every game of a match is in the export, colours alternating.
    let games: Vec<(u64, u64, &str)> = r1["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["board"] == 2)
        .map(|p| {
            (
                p["white"].as_u64().unwrap(),
                p["black"].as_u64().unwrap(),
                p["result"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        games,
        vec![(3, 6, "1/2-1/2"), (6, 3, "1/2-1/2"), (3, 6, "1/2-1/2")]
    );
}

#[test]
fn a_round_robin_of_five_meets_everyone_once_with_one_rest_each_and_the_double_reverses_colours() {
    let dir = data_dir("rr5");
    let five = ["ann", "bob", "cat", "dan", "eve"];
    let mut script = String::from("org hall tournament new league croquet roundrobin\n");
    for p in five {
        script.push_str(&format!("{p} hall tournament join league\n"));
    }
    script.push_str("org hall tournament start league\n");
    let mut out = console(&dir, &script);
    let mut met = BTreeSet::new();
    let mut rests = BTreeMap::new();
    for round in 1..=5 {
        let (boards, byes) = announced(&out, "league", round);
        assert_eq!(boards.len(), 2);
        assert_eq!(byes.len(), 1);
        *rests.entry(byes[0].clone()).or_insert(0) += 1;
        let mut script = String::new();
        for b in &boards {
            assert!(
                met.insert(BTreeSet::from([b.white.clone(), b.black.clone()])),
                "{b:?} twice"
            );
            script.push_str(&play(b, End::White));
        }
        out = console(&dir, &script);
    }
    assert_eq!(met.len(), 10, "every pair meets once");
    assert!(
        rests.values().all(|n| *n == 1) && rests.len() == 5,
        "{rests:?}"
    );
    assert!(out.contains("league is over"), "{out}");
    let x = export(&console(&dir, "ann hall tournament export league\n"));
    // A rest is worth nothing and counts in no tie-break.
    assert!(x["rounds"][0]["rest"].as_u64().is_some());
    let total: f64 = x["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["points"].as_f64().unwrap())
        .sum();
    assert_eq!(total, 10.0, "ten games, one point each");
    assert_eq!(
        x["tiebreaks"],
        serde_json::json!(["sonneborn_berger", "direct_encounter", "wins"])
    );

    // A double round robin of three: each pair twice, the second time with colours reversed.
    let dir = data_dir("double3");
    let mut out = console(
        &dir,
        "org hall tournament new twice croquet double
         ann hall tournament join twice
         bob hall tournament join twice
         cat hall tournament join twice
         org hall tournament start twice
",
    );
    let mut games = Vec::new();
    for round in 1..=6 {
        let (boards, byes) = announced(&out, "twice", round);
        assert_eq!((boards.len(), byes.len()), (1, 1), "round {round}");
        games.push((boards[0].white.clone(), boards[0].black.clone()));
        out = console(&dir, &play(&boards[0], End::Draw));
    }
    assert!(out.contains("twice is over"), "{out}");
    for (w, b) in &games[..3] {
        assert!(
            games[3..].contains(&(b.clone(), w.clone())),
            "{w} v {b} not reversed: {games:?}"
        );
    }
}

#[test]
fn bad_tournament_input_is_refused_privately_and_changes_nothing() {
    let dir = data_dir("bad");
    let out = console(
        &dir,
        "org hall tournament new spring croquet swiss\n\
         eve hall tournament new spring lanrick knockout\n\
         org hall tournament start spring\n\
         ann hall tournament join spring\n\
         ann hall tournament join spring\n\
         ann hall tournament start spring\n\
         org hall tournament start spring\n\
         org hall tournament new cup croquet knockout\n\
         ann hall tournament join cup\n\
         bob hall tournament join cup\n\
         cat hall tournament join cup\n\
         org hall tournament start cup\n\
         bob hall tournament join spring\n\
         org hall tournament start spring\n\
         org hall tournament result spring 7 1-0\n\
         org hall tournament result spring 1 2-0\n\
         ann hall tournament kick spring bob\n\
         ann spring-1-1 abort\n\
         ann hall tournament standings nosuch\n",
    );
    for says in [
        "(to eve) The name `spring` is taken here",
        "(to org) spring needs at least 2 entrants to start a Swiss; it has 0.",
        "(to ann) You are already entered in spring (as ann).",
        "(to ann) Only the event's organisers (org and the community's organisers) may `tournament start`.",
        "(to org) cup needs at least 4 entrants to start a knockout; it has 3.",
        "(to org) Round 1 has boards 1 to 1; there is no board `7`.",
        "(to org) say `!tournament result spring <board> 1-0|0-1|1/2-1/2`",
        "(to ann) Only the event's organisers (org and the community's organisers) may `tournament kick`.",
        "(to ann) This is board 1 of round 1 of the event spring: it cannot be called off.",
        "(to ann) There is no event named `nosuch`.",
    ] {
        assert!(out.contains(says), "missing {says:?} in:\n{out}");
    }
    // The organiser gives a result by forfeit. A forfeit is no game played (FIDE C.04.1), so
    // the two are paired again in round 2; once that is decided over the board the event is
    // over and refuses changes.
    let out = console(
        &dir,
        "org hall tournament result spring 1 forfeit bob\n\
         ann hall tournament standings spring\n\
         org hall tournament result spring 1 1-0\n\
         org hall tournament result spring 1 1-0\n",
    );
    assert!(out.contains("[spring-1-1] The organiser gave this board's result (1-0, by forfeit); the game is closed."), "{out}");
    assert!(
        out.contains("spring · round 1 · board 1: ann 1-0 bob (forfeit), as org gave it."),
        "{out}"
    );
    assert!(
        out.contains("[spring-2-1]"),
        "round 2 pairs them again:\n{out}"
    );
    assert!(
        out.contains("(to org) spring is over: nothing about it can change any more."),
        "{out}"
    );
}

/// Runs a console script on a manual clock starting at 2026-11-25T10:00:00Z.
fn on_clock(dir: &Path, script: &str) -> String {
    muster_tests::console_at(
        &muster_tests::muster_binary!(),
        dir,
        "2026-11-25T10:00:00Z",
        script,
    )
}

#[test]
fn the_event_s_clock_ends_its_games_a_timeout_counts_and_a_forfeit_is_unplayed() {
    let dir = data_dir("clock");
    let out = on_clock(
        &dir,
        "org hall tournament new blitz croquet swiss rounds 1 clock 1d\n\
         ann hall tournament join blitz\n\
         bob hall tournament join blitz\n\
         cat hall tournament join blitz\n\
         dan hall tournament join blitz\n\
         org hall tournament start blitz\n",
    );
    assert!(out.contains("Clock: 1d per move."), "{out}");
    let (boards, _) = announced(&out, "blitz", 1);
    // Board 1: both move, then Black lets his clock run out: a loss on time. Board 2: White
    // never moves: a forfeit.
    let (one, two) = (&boards[0], &boards[1]);
    let out = on_clock(
        &dir,
        &format!(
            "{w} {c} move 1\n{b} {c} move 2\n{w} {c} move 3\n~ +2d\nann hall tournament export\n",
            w = one.white,
            b = one.black,
            c = one.channel
        ),
    );
    assert!(
        out.contains(&format!(
            "blitz · round 1 · board 1: {} 1-0 {}.",
            one.white, one.black
        )),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "blitz · round 1 · board 2: {} 0-1 {} (forfeit).",
            two.white, two.black
        )),
        "{out}"
    );
    assert!(out.contains("blitz is over."), "{out}");
    let x = export(&out);
    let p = &x["rounds"][0]["pairings"];
    assert_eq!(
        (p[0]["result"].as_str(), p[0]["forfeit"].as_bool()),
        (Some("1-0"), Some(false))
    );
    assert_eq!(
        (p[1]["result"].as_str(), p[1]["forfeit"].as_bool()),
        (Some("0-1"), Some(true))
    );
    // A forfeit win scores but is not a game won over the board; the forfeit's round counts
    // against a dummy with one's own score.
    let line = |name: &str| {
        x["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["name"] == name)
            .unwrap()
            .clone()
    };
    let winner = line(&two.black);
    assert_eq!(winner["points"], 1.0);
    assert_eq!(winner["tiebreaks"]["wins"], 0);
    assert_eq!(winner["tiebreaks"]["buchholz"], 1.0);
    let timed_out = line(&one.white);
    assert_eq!(timed_out["tiebreaks"]["wins"], 1);
    assert_eq!(timed_out["tiebreaks"]["buchholz"], 0.0);
}

#[test]
fn a_lanko_pairs_event_seats_each_pair_on_one_side_and_a_pair_s_loss_is_the_side_s() {
    let dir = data_dir("pairs");
    let out = console(
        &dir,
        "org hall tournament new duo lanko88 roundrobin pairs\n\
         ann hall tournament join duo @bob\n\
         cat hall tournament join duo @dan\n\
         dan hall tournament join duo\n\
         org hall tournament start duo\n",
    );
    assert!(
        out.contains("ann & bob are entered in duo (1 entrant)."),
        "{out}"
    );
    assert!(
        out.contains("(to dan) You are already entered in duo (as cat & dan)."),
        "{out}"
    );
    let (boards, _) = announced(&out, "duo", 1);
    assert_eq!(
        (boards[0].white.as_str(), boards[0].black.as_str()),
        ("ann & bob", "cat & dan")
    );
    assert!(out.contains("[duo-1-1] duo · round 1 · board 1: White: ann (S) and bob (N) vs Black: cat (W) and dan (E)."), "{out}");
    // bob resigns: his pair loses.
    let out = console(&dir, "bob duo-1-1 resign\nann hall tournament export\n");
    assert!(
        out.contains("duo · round 1 · board 1: ann & bob 0-1 cat & dan."),
        "{out}"
    );
    let x = export(&out);
    assert_eq!(x["pairs"], true);
    assert_eq!(
        x["entrants"][0]["players"],
        serde_json::json!([{"id": "ann", "name": "ann"}, {"id": "bob", "name": "bob"}])
    );
    assert_eq!(x["rounds"][0]["pairings"][0]["result"], "0-1");
}
