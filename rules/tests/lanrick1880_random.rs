//! Seeded random whole games of Lanrick's first version, checking the invariants at every
//! decision: shifts are legal exactly when listed, random written turns reach listed positions,
//! refused moves change nothing, position strings round-trip, replay gives the same game, and
//! men on the board plus men taken make five a side.

mod common;

use std::collections::HashSet;

use common::Rng;
use muster_rules::lanrick::{BORDER, Direction, Square, Step, squares};
use muster_rules::lanrick1880::{Lanrick1880, Move, Phase};
use muster_rules::{Game, Seat};

fn play(g: &mut Lanrick1880, text: &str) -> bool {
    let seat = g.to_move().expect("to move");
    g.play_text(seat, text).is_ok()
}

fn setup(rng: &mut Rng) -> String {
    let mut border: Vec<Square> = squares(BORDER).collect();
    let mut pick = |n: usize| {
        (0..n)
            .map(|_| border.swap_remove(rng.below(border.len())).to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let w = pick(5);
    let b = pick(5);
    format!("W:{w} B:{b}")
}

/// A random legal turn, each man once, mostly towards the mark.
fn random_turn(g: &Lanrick1880, rng: &mut Rng) -> Option<String> {
    let seat = g.to_move()?;
    let mark = g.mark()?;
    let mut steps: Vec<Step> = Vec::new();
    let mut moved: Vec<Square> = Vec::new();
    for _ in 0..1 + rng.below(4) {
        let men: Vec<Square> = squares(g.men(seat))
            .filter(|s| !steps.iter().any(|st| st.from == *s))
            .collect();
        let mut best: Option<(i32, Step)> = None;
        for _ in 0..16 {
            let from = men.get(rng.below(men.len().max(1)))?;
            if moved.contains(from) {
                continue;
            }
            let to = from.go(Direction::ALL[rng.below(8)], 1 + rng.below(2) as u8);
            let Some(to) = to else { continue };
            let mut trial = steps.clone();
            trial.push(Step { from: *from, to });
            let text = trial
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" ");
            if g.clone().play_text(seat, &text).is_ok() {
                let d = to
                    .file()
                    .abs_diff(mark.file())
                    .max(to.rank().abs_diff(mark.rank())) as i32;
                let score = d * 10 + rng.below(10) as i32;
                if best.is_none_or(|(b, _)| score < b) {
                    best = Some((score, Step { from: *from, to }));
                }
            }
        }
        let (_, step) = best?;
        moved.push(step.to);
        steps.push(step);
    }
    Some(
        steps
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" "),
    )
}

#[test]
fn seeded_random_games_keep_the_invariants() {
    let (mut finished, mut rounds, mut shifts) = (0, 0, 0);
    for seed in 0..60u64 {
        let mut rng = Rng::new(seed);
        let mut g = Lanrick1880::new();
        let mut history = vec![setup(&mut rng)];
        assert!(play(&mut g, &history[0]));
        while g.to_move().is_some() && history.len() < 800 {
            let seat = g.to_move().expect("to move");
            // Men and takings make five a side.
            for s in [Seat::WHITE, Seat::BLACK] {
                assert_eq!(g.men(s).count_ones() + g.taken(s.opponent()) as u32, 5);
            }
            let back = Lanrick1880::from_position(&g.position()).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(back.position(), g.position());
            // Shifts: legal exactly when listed; a refused one changes nothing.
            if g.phase() == Phase::Play {
                let listed = g.legal_shifts();
                for to in Square::all() {
                    let mut copy = g.clone();
                    let ok = copy.play_text(seat, &format!("*{to}")).is_ok();
                    assert_eq!(ok, listed.contains(&to), "*{to} at {}", g.position());
                    if !ok {
                        assert_eq!(copy, g);
                    }
                }
            }
            // At small budgets, every listed move plays and random turns reach listed positions.
            let small = g.budget().is_none_or(|b| b <= 3);
            if small && g.phase() != Phase::Setup && rng.chance(25) {
                let mut results = HashSet::new();
                for mv in g.legal_moves() {
                    let text = g.format_move(&mv);
                    let mut after = g.clone();
                    assert!(
                        after.play_text(seat, &text).is_ok(),
                        "listed {text} refused"
                    );
                    assert!(
                        results.insert(after.position()),
                        "two listed moves reach one position: {text}"
                    );
                }
                if let Some(turn) = random_turn(&g, &mut rng) {
                    let mut after = g.clone();
                    assert!(after.play_text(seat, &turn).is_ok());
                    assert!(
                        results.contains(&after.position()),
                        "{turn} reached an unlisted position"
                    );
                }
            }
            let text = match g.phase() {
                Phase::Play if !g.legal_shifts().is_empty() && rng.chance(15) => {
                    shifts += 1;
                    let s = g.legal_shifts();
                    format!("*{}", s[rng.below(s.len())])
                }
                Phase::Play => match random_turn(&g, &mut rng) {
                    Some(t) => t,
                    None => g.format_move(&g.legal_moves()[0]),
                },
                _ => {
                    let moves = g.legal_moves();
                    g.format_move(&moves[rng.below(moves.len())])
                }
            };
            let before = g.phase();
            assert!(play(&mut g, &text), "{text} at {}", g.position());
            if before == Phase::Play && g.phase() == Phase::Capture {
                rounds += 1;
            }
            history.push(text);
        }
        let mut replayed = Lanrick1880::new();
        for text in &history {
            assert!(play(&mut replayed, text), "replay of {text}");
        }
        assert_eq!(replayed, g, "seed {seed}");
        finished += usize::from(g.outcome().is_some());
        let _ = Move::Shift;
    }
    eprintln!("{finished} finished, {rounds} rendezvous won, {shifts} shifts");
    assert!(finished >= 25, "games finish: {finished}");
    assert!(rounds >= 200, "rounds are won: {rounds}");
    assert!(shifts >= 50, "marks are shifted: {shifts}");
}
