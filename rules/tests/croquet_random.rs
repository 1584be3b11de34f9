//! Seeded random games of Arithmetical Croquet checking the invariants at every position, and
//! the perfect-play table's consistency: every position's value agrees with its children's.

mod common;

use common::Rng;
use muster_rules::croquet::solve::{self, Value};
use muster_rules::croquet::{Croquet, Status, Step};
use muster_rules::{Game, Outcome, Seat, Team};

const GAMES: u64 = 300;

fn other(seat: Seat) -> Seat {
    if seat == Seat::WHITE {
        Seat::BLACK
    } else {
        Seat::WHITE
    }
}

/// The value of `g` from the table, recomputed from its children's stored values.
fn from_children(g: &Croquet) -> Value {
    let table = solve::table();
    let mut best = Value::Loss;
    for step in g.legal_steps() {
        let child = solve::after(g, step);
        let mine = match child.outcome() {
            Some(Outcome::Winner { team, .. })
                if Some(team.index()) == g.to_move().map(|s| s.index()) =>
            {
                Value::Win
            }
            Some(Outcome::Winner { .. }) => Value::Loss,
            Some(Outcome::Draw { .. }) => Value::Draw,
            None => {
                let v = table
                    .lookup(&child)
                    .expect("every reachable child is in the table");
                if child.to_move() == g.to_move() {
                    v
                } else {
                    v.flip()
                }
            }
        };
        if mine == Value::Win || (mine == Value::Draw && best == Value::Loss) {
            best = mine;
        }
    }
    best
}

#[test]
fn seeded_random_games_keep_the_invariants_and_the_table_agrees() {
    let table = solve::table();
    let (mut finished, mut checked) = (0, 0);
    for seed in 0..GAMES {
        let mut rng = Rng::new(seed);
        let mut g = Croquet::new();
        let mut history: Vec<String> = Vec::new();
        let mut hoops = [0u8; 2];
        while let Some(seat) = g.to_move() {
            assert!(history.len() < 400, "seed {seed}: the game should end");
            let legal = g.legal_steps();
            assert!(
                !legal.is_empty(),
                "a player to move has a step (passes are automatic)"
            );
            // Legal exactly when listed; a refused step leaves the game as it was.
            for s in (-8..=8).filter(|s| *s != 0) {
                let mut copy = g.clone();
                let ok = copy.play(seat, &Step(s)).is_ok();
                assert_eq!(ok, legal.contains(&Step(s)), "step {s} at {}", g.position());
                if !ok {
                    assert_eq!(copy, g);
                }
            }
            assert!(
                g.clone().play(other(seat), &legal[0]).is_err(),
                "only the side to move may move"
            );
            // Position strings round-trip.
            let back = Croquet::from_position(&g.position()).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(
                (back.position(), back.legal_steps()),
                (g.position(), legal.clone())
            );
            // The table values every reachable position, consistently with its children.
            let v = table
                .lookup(&g)
                .expect("reachable positions are in the table");
            assert_eq!(v, from_children(&g), "seed {seed} at {}", g.position());
            checked += 1;
            // Mostly random, sometimes the best step, so games reach the peg.
            let step = if rng.chance(30) {
                solve::analyse(&g).1[0]
            } else {
                legal[rng.below(legal.len())]
            };
            let text = g.format_move(&step);
            g.play_text(seat, &text).expect("legal");
            history.push(text);
            for s in [Seat::WHITE, Seat::BLACK] {
                let taken = g.ball(s).hoops_taken();
                assert!(taken >= hoops[s.index()], "hoops are never lost");
                hoops[s.index()] = taken;
            }
        }
        let mut replayed = Croquet::new();
        for text in &history {
            let seat = replayed.to_move().expect("to move");
            replayed.play_text(seat, text).expect("replays");
        }
        assert_eq!(replayed, g, "replaying seed {seed} gives the same game");
        finished += 1;
    }
    assert_eq!(finished, GAMES);
    assert!(checked > 3_000, "{checked} positions checked");
}

#[test]
fn the_opening_is_a_win_for_white_and_the_table_is_complete() {
    // docs/rules/croquet.md states both figures.
    let table = solve::table();
    assert_eq!(table.len(), 581_926);
    assert_eq!(table.lookup(&Croquet::new()), Some(Value::Win));
    let (value, best) = solve::analyse(&Croquet::new());
    assert_eq!(value, Value::Win);
    assert_eq!(
        best.iter().map(|s| s.0).collect::<Vec<_>>(),
        [1],
        "only 1 keeps the win"
    );
}

#[test]
fn when_only_second_misses_are_left_one_must_be_played() {
    // C-5: White has missed 20 once; 1 and 8 are barred, 2 may not be repeated while Black is
    // in hoop 30 needing 7 (C-7): 3 … 7 all miss 20 again, and are still legal.
    let g = Croquet::from_position("19/20/n! 30/30/h7 w 1 2,0").expect("valid");
    let legal: Vec<i8> = g.legal_steps().iter().map(|s| s.0).collect();
    assert_eq!(legal, [3, 4, 5, 6, 7]);
    for s in legal {
        let mut after = g.clone();
        after.play(Seat::WHITE, &Step(s)).expect("legal");
        assert_eq!(
            after.outcome(),
            Some(Outcome::Winner {
                team: Team::BLACK,
                reason: muster_rules::EndReason::Goal
            })
        );
    }
    assert_eq!(g.ball(Seat::BLACK).status, Status::InHoop);
}
