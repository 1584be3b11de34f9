//! Seeded random games of Lanko on all three boards, checking at every move: captures are
//! compulsory (found by a separate scan of the board), legal ⇔ listed, refused moves change
//! nothing, notation and position strings round-trip, piece counts only fall, the score
//! recomputed from the board matches, and replaying the record gives the same game.

mod common;

use std::collections::HashMap;

use common::Rng;
use muster_rules::lanko::{DIRS, Kind, Lanko, LankoMove, Layout, Role, Variant};
use muster_rules::{Game, Seat};

/// Whether `seat` has a capture, found by looking at the board directly (K-4, K-6): a piece it
/// may move, next to an enemy piece that is not fixed, with an empty square behind in a
/// capture direction and no barrier across.
fn capture_exists(g: &Lanko, seat: Seat) -> bool {
    let board = g.board();
    let white = seat.index().is_multiple_of(2);
    let at = |r: i32, c: i32| {
        if r < 0 || c < 0 || r >= board.rows as i32 || c >= board.cols as i32 {
            None
        } else {
            board.cell(r as u8, c as u8)
        }
    };
    let dirs: Vec<usize> = match board.layout {
        Layout::Orthogonal => vec![0, 2, 4, 6],
        Layout::Diagonal => vec![1, 3, 5, 7],
    };
    for (sq, info) in board.squares.iter().enumerate() {
        let Some(p) = g.cells()[sq] else { continue };
        let movers = if p.white {
            info.white_movers
        } else {
            info.black_movers
        };
        if p.white != white
            || movers & (1 << seat.index()) == 0
            || info.role.is_goal()
            || info.role == Role::Standby
        {
            continue;
        }
        for &d in &dirs {
            let (dr, dc) = (DIRS[d].0 as i32, DIRS[d].1 as i32);
            let (r, c) = (info.row as i32, info.col as i32);
            let (Some(over), Some(land)) = (at(r + dr, c + dc), at(r + 2 * dr, c + 2 * dc)) else {
                continue;
            };
            let Some(victim) = g.cells()[over as usize] else {
                continue;
            };
            if victim.white == white || board.info(over).role.is_goal() {
                continue;
            }
            if g.cells()[land as usize].is_some() || board.info(land).role == Role::Unused {
                continue;
            }
            let barred = board.barriers.iter().any(|&(a, b)| {
                (a as usize == sq && b == over)
                    || (b as usize == sq && a == over)
                    || (a == over && b == land)
                    || (b == over && a == land)
            });
            if barred {
                continue;
            }
            if g.declared()[seat.index()] && p.kind != Kind::Pawn && board.info(land).role.is_goal()
            {
                continue;
            }
            return true;
        }
    }
    false
}

/// The score from the machine interface's board rows (K-9).
fn score_from_rows(g: &Lanko) -> [u32; 2] {
    let state = g.state_json();
    let board = g.board();
    let mut score = [0, 0];
    for (r, row) in state["board"].as_array().unwrap().iter().enumerate() {
        for (c, ch) in row.as_str().unwrap().chars().enumerate() {
            let base = match ch.to_ascii_uppercase() {
                'B' => 12,
                'S' => 6,
                'P' => 2,
                _ => continue,
            };
            let sq = board.cell(r as u8, c as u8).unwrap();
            let triple = !ch.eq_ignore_ascii_case(&'p') && board.info(sq).role.is_goal();
            score[usize::from(ch.is_ascii_lowercase())] += if triple { base * 3 } else { base };
        }
    }
    score
}

fn counts(g: &Lanko) -> [usize; 2] {
    let mut n = [0, 0];
    for p in g.cells().iter().flatten() {
        n[usize::from(!p.white)] += 1;
    }
    n
}

fn random_text(g: &Lanko, rng: &mut Rng) -> String {
    let board = g.board();
    let labels: Vec<&str> = board
        .squares
        .iter()
        .filter(|s| s.role != Role::Unused)
        .map(|s| s.label.as_str())
        .collect();
    let a = labels[rng.below(labels.len())];
    let b = labels[rng.below(labels.len())];
    match rng.below(4) {
        0 => format!("{a};{b}"),
        1 => "---".into(),
        _ => format!("{a}-{b}"),
    }
}

fn run(variant: Variant, games: u64, max_moves: usize) -> HashMap<String, usize> {
    let mut endings = HashMap::new();
    for seed in 0..games {
        let mut rng = Rng::new(seed * 7 + variant as u64);
        let mut g = Lanko::new(variant);
        let mut record: Vec<String> = Vec::new();
        let mut last_counts = counts(&g);
        for _ in 0..max_moves {
            let Some(seat) = g.to_move() else { break };
            let legal = g.legal_moves();
            assert!(!legal.is_empty());
            // K-4, K-6: capturing is compulsory, and only captures are listed then.
            let must = capture_exists(&g, seat);
            assert_eq!(
                must,
                legal.iter().all(|m| matches!(m, LankoMove::Capture(_))),
                "{} seed {seed}: capture found {must}, listed {:?}",
                variant.id(),
                legal.iter().map(|m| g.format_move(m)).collect::<Vec<_>>()
            );
            // K-7: the pass is listed only alone.
            assert!(legal.len() == 1 || !legal.contains(&LankoMove::Pass));
            for mv in &legal {
                let text = g.format_move(mv);
                assert_eq!(g.parse_move(&text).as_ref(), Ok(mv), "{text}");
            }
            // A random written move: legal exactly when listed; refused ones change nothing.
            let before = g.clone();
            let text = random_text(&g, &mut rng);
            let listed = g.parse_move(&text).ok().is_some_and(|m| legal.contains(&m));
            let mut trial = g.clone();
            assert_eq!(trial.play_text(seat, &text).is_ok(), listed, "{text}");
            if !listed {
                assert_eq!(trial, before);
            }
            // Only the seat to move decides.
            let other = Seat::new((seat.index() + 1) % 4).unwrap();
            assert!(g.clone().play(other, &legal[0]).is_err());
            if rng.chance(1) && g.holds_castles(seat) && !g.declared()[seat.index()] {
                g.play(seat, &LankoMove::Declare).unwrap();
                record.push("===".into());
                if g.outcome().is_some() {
                    break;
                }
            }
            let legal = g.legal_moves();
            // Prefer captures of castles and entries, so that games reach their ends.
            let mv = legal[rng.below(legal.len())].clone();
            let text = g.format_move(&mv);
            g.play(seat, &mv).unwrap();
            record.push(text);
            let now = counts(&g);
            assert!(now[0] <= last_counts[0] && now[1] <= last_counts[1]);
            last_counts = now;
            assert_eq!(score_from_rows(&g), g.score());
            let pos = g.position();
            if g.outcome().is_none() {
                let back = Lanko::from_position(variant, &pos).unwrap();
                assert_eq!(back.position(), pos);
                assert_eq!(back.legal_moves(), g.legal_moves());
            }
        }
        let mut replayed = Lanko::new(variant);
        for line in &record {
            let seat = replayed.to_move().unwrap();
            replayed.play_text(seat, line).unwrap();
        }
        assert_eq!(replayed, g);
        let key = g
            .ending()
            .map_or("unfinished".to_string(), |e| format!("{e:?}"));
        *endings.entry(key).or_default() += 1;
    }
    endings
}

#[test]
fn random_games_on_lanko88_keep_the_rules() {
    let endings = run(Variant::L88, 60, 500);
    eprintln!("lanko88 endings: {endings:?}");
    assert!(endings.keys().any(|k| k != "unfinished"));
}

#[test]
fn random_games_on_lanko68_keep_the_rules() {
    let endings = run(Variant::L68, 60, 500);
    eprintln!("lanko68 endings: {endings:?}");
    assert!(endings.keys().any(|k| k != "unfinished"));
}

#[test]
fn random_games_on_lanko103_keep_the_rules() {
    let endings = run(Variant::L103, 60, 500);
    eprintln!("lanko103 endings: {endings:?}");
    assert!(endings.keys().any(|k| k != "unfinished"));
}
