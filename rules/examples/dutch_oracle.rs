//! The Dutch-system oracle: random Swiss events paired round by round by Muster, each round
//! also paired by an independent FIDE-endorsed engine (bbpPairings) from the same history,
//! written as the TRF file Muster exports, and the two compared. Run by `scripts/dutch-oracle`.
//!
//!     dutch_oracle ENGINE EVENTS SEED [OUT_DIR]
//!
//! ENGINE is the bbpPairings binary. Every round that differs is written to OUT_DIR (the TRF
//! and both pairings) for study. The summary counts rounds identical (same boards, colours and
//! bye), with the same pairs (colours aside), and absolute criteria Muster broke.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use muster_rules::search::Rng;
use muster_rules::tournament::trf::{self, Player, Report};
use muster_rules::tournament::{Entry, Field, Round, swiss};

/// A round as a set of games `(white, black)` and the bye.
#[derive(PartialEq, Eq, Debug, Clone)]
struct Paired {
    games: BTreeSet<(usize, usize)>,
    bye: Option<usize>,
}

impl Paired {
    fn of(round: &Round) -> Paired {
        Paired {
            games: round.pairings.iter().map(|p| (p.white, p.black)).collect(),
            bye: round.rest,
        }
    }

    fn pairs(&self) -> BTreeSet<(usize, usize)> {
        self.games
            .iter()
            .map(|&(a, b)| (a.min(b), a.max(b)))
            .collect()
    }
}

/// The engine's pairing of the next round of `text`, or why there is none.
fn engine(bin: &Path, dir: &Path, text: &str) -> Result<Paired, String> {
    let input = dir.join("round.trf");
    let output = dir.join("round.out");
    std::fs::write(&input, text).map_err(|e| e.to_string())?;
    let run = Command::new(bin)
        .arg("--dutch")
        .arg(&input)
        .arg("-p")
        .arg(&output)
        .output()
        .map_err(|e| e.to_string())?;
    if !run.status.success() {
        return Err(format!(
            "exit {:?}: {}",
            run.status.code(),
            String::from_utf8_lossy(&run.stderr).trim()
        ));
    }
    let out = std::fs::read_to_string(&output).map_err(|e| e.to_string())?;
    let mut paired = Paired {
        games: BTreeSet::new(),
        bye: None,
    };
    for line in out.lines().skip(1) {
        let ids: Vec<usize> = line
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        match ids[..] {
            [a, 0] => paired.bye = Some(a - 1),
            [a, b] => {
                paired.games.insert((a - 1, b - 1));
            }
            _ => return Err(format!("unreadable line {line:?}")),
        }
    }
    Ok(paired)
}

/// Absolute criteria Muster's round breaks: a rematch over the board (C.1), a bye to a player
/// who has had one or won a round without playing (C.2), someone paired twice or left out.
fn broken(field: &Field, paired: &Paired) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = vec![0; field.entrants()];
    for &(w, b) in &paired.games {
        seen[w] += 1;
        seen[b] += 1;
        let met = field
            .rounds
            .iter()
            .any(|r| r[w].played().is_some_and(|(o, _)| o == b));
        if met {
            out.push(format!("C.1: {} and {} meet again", w + 1, b + 1));
        }
    }
    // C.3: two players with the same absolute colour preference do not meet, unless one of
    // them is a topscorer (more than half the points possible) in the last round.
    let last = field.rounds.len() + 1 == field.total_rounds;
    let top = |e: usize| field.points(e) > field.rounds.len() as u32;
    for &(w, b) in &paired.games {
        if let (Some(x), Some(y)) = (absolute(field, w), absolute(field, b))
            && x == y
            && !(last && (top(w) || top(b)))
        {
            out.push(format!(
                "C.3: {} and {} both must have {}",
                w + 1,
                b + 1,
                if x { "White" } else { "Black" }
            ));
        }
    }
    if let Some(r) = paired.bye {
        seen[r] += 1;
        if field.rounds.iter().any(|round| {
            let e = round[r];
            e.played().is_none() && e.points() >= 2
        }) {
            out.push(format!("C.2: a second bye for {}", r + 1));
        }
    }
    for (e, n) in seen.iter().enumerate() {
        let expected = usize::from(!field.out[e]);
        if *n != expected {
            out.push(format!("{} paired {n} times", e + 1));
        }
    }
    out
}

/// The colour entrant `e` must have (`true` White), if his preference is absolute: his Whites
/// and Blacks differ by more than one, or his last two games had the same colour.
fn absolute(field: &Field, e: usize) -> Option<bool> {
    let colours: Vec<bool> = field
        .rounds
        .iter()
        .filter_map(|r| r[e].played().map(|(_, white)| white))
        .collect();
    let d: i32 = colours.iter().map(|&w| if w { 1 } else { -1 }).sum();
    if d.abs() > 1 {
        return Some(d < 0);
    }
    match colours[..] {
        [.., a, b] if a == b => Some(!a),
        _ => None,
    }
}

fn report(field: &Field) -> Report {
    Report {
        name: "oracle".into(),
        kind: "Swiss (FIDE Dutch system)".into(),
        start: None,
        players: (0..field.entrants())
            .map(|e| Player {
                name: format!("Player {}", e + 1),
                rating: None,
            })
            .collect(),
        ranks: {
            let mut order: Vec<usize> = (0..field.entrants()).collect();
            order.sort_by_key(|e| (std::cmp::Reverse(field.points(*e)), *e));
            let mut ranks = vec![0; order.len()];
            for (place, e) in order.into_iter().enumerate() {
                ranks[e] = place + 1;
            }
            ranks
        },
        field: field.clone(),
        running: true,
    }
}

#[derive(Default)]
struct Tally {
    rounds: usize,
    identical: usize,
    same_pairs: usize,
    engine_none: usize,
    neither: usize,
    muster_none: usize,
    broken: usize,
    kinds: std::collections::BTreeMap<String, usize>,
}

fn event(rng: &mut Rng, bin: &Path, dir: &Path, out: Option<&Path>, id: usize, t: &mut Tally) {
    let n = 5 + rng.below(60);
    let rounds = (3 + rng.below(7)).min(n - 1);
    // Some entrants join late, before round 2 or 3.
    let late = if rng.below(4) == 0 { rng.below(4) } else { 0 };
    let mut field = Field::new(n - late, rounds);
    for r in 0..rounds {
        if r > 0 && r <= 2 && late > 0 && field.entrants() < n {
            let joining = if r == 2 {
                n - field.entrants()
            } else {
                late / 2
            };
            for _ in 0..joining {
                field.out.push(false);
                for round in &mut field.rounds {
                    round.push(Entry::Absent);
                }
            }
        }
        // Now and then someone withdraws (never more than a few).
        if r > 0 && rng.below(6) == 0 {
            let w = rng.below(field.entrants());
            field.out[w] = true;
        }
        if field.out.iter().filter(|o| !**o).count() < 2 {
            break;
        }
        let text = trf::write(&report(&field));
        let theirs = engine(bin, dir, &text);
        let ours = swiss::pair(&field);
        t.rounds += 1;
        let round = match (ours, theirs) {
            (Ok(ours), Ok(theirs)) => {
                let mine = Paired::of(&ours.round);
                let errors = broken(&field, &mine);
                if !errors.is_empty() {
                    t.broken += 1;
                    eprintln!("event {id} round {}: {errors:?}", r + 1);
                }
                if mine == theirs {
                    t.identical += 1;
                } else {
                    let kind = if mine.pairs() == theirs.pairs() && mine.bye == theirs.bye {
                        t.same_pairs += 1;
                        "colours"
                    } else if mine.bye != theirs.bye {
                        "bye"
                    } else {
                        "pairs"
                    };
                    *t.kinds.entry(kind.into()).or_default() += 1;
                    if let Some(out) = out {
                        let mut s = text.clone();
                        let _ = writeln!(s, "### muster {:?}", mine);
                        let _ = writeln!(s, "### engine {:?}", theirs);
                        let _ =
                            std::fs::write(out.join(format!("e{id:04}-r{}-{kind}.trf", r + 1)), s);
                    }
                }
                ours.round
            }
            (Err(_), Ok(theirs)) => {
                t.muster_none += 1;
                if let Some(out) = out {
                    let mut s = text.clone();
                    let _ = writeln!(s, "### engine {:?}", theirs);
                    let _ = std::fs::write(out.join(format!("e{id:04}-r{}-none.trf", r + 1)), s);
                }
                break;
            }
            (Ok(ours), Err(e)) => {
                let errors = broken(&field, &Paired::of(&ours.round));
                if !errors.is_empty() {
                    t.broken += 1;
                    eprintln!("event {id} round {}: {errors:?}", r + 1);
                }
                t.engine_none += 1;
                eprintln!("event {id} round {}: engine: {e}", r + 1);
                break;
            }
            (Err(_), Err(_)) => {
                t.neither += 1;
                break;
            }
        };
        field.push(&round, |_, _| match rng.below(20) {
            0 => (2, true),
            1 => (0, true),
            2..=8 => (2, false),
            9..=14 => (0, false),
            _ => (1, false),
        });
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: dutch_oracle ENGINE EVENTS SEED [OUT_DIR]");
        std::process::exit(2);
    }
    let bin = PathBuf::from(&args[1]);
    let events: usize = args[2].parse().expect("EVENTS is a number");
    let seed: u64 = args[3].parse().expect("SEED is a number");
    let out = args.get(4).map(PathBuf::from);
    if let Some(out) = &out {
        std::fs::create_dir_all(out).expect("the output directory");
    }
    let dir = std::env::temp_dir().join(format!("muster-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let mut rng = Rng::new(seed);
    let mut t = Tally::default();
    for id in 0..events {
        event(&mut rng, &bin, &dir, out.as_deref(), id, &mut t);
    }
    let _ = std::fs::remove_dir_all(&dir);
    // Shares of the rounds that were paired (by either).
    let pct = |k: usize| 100.0 * k as f64 / (t.rounds - t.neither).max(1) as f64;
    println!(
        "events: {events}, rounds compared: {} (neither could pair: {})",
        t.rounds, t.neither
    );
    println!(
        "identical: {} ({:.1} %), same pairs: {} ({:.1} %)",
        t.identical,
        pct(t.identical),
        t.identical + t.same_pairs,
        pct(t.identical + t.same_pairs)
    );
    println!(
        "absolute criteria broken by Muster: {} rounds; no pairing: Muster {}, engine {}",
        t.broken, t.muster_none, t.engine_none
    );
    for (kind, k) in &t.kinds {
        println!("differ in {kind}: {k}");
    }
}
