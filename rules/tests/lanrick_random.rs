//! Seeded random whole games of Lanrick, checking the engine's invariants:
//! a move is legal exactly when its result is among the listed moves' results; a refused move
//! leaves the game unchanged; notation and position strings round-trip; replaying the history
//! gives the same game; men on the board and men taken always make five a side.

mod common;

use std::collections::HashSet;

use common::{Rng, play};
use muster_rules::lanrick::{Direction, FIELD, Lanrick, Phase, Square, Step, squares};
use muster_rules::{Game, Seat};

const GAMES: u64 = 200;
const MAX_DECISIONS: usize = 500;

fn other(seat: Seat) -> Seat {
    if seat == Seat::WHITE {
        Seat::BLACK
    } else {
        Seat::WHITE
    }
}

fn text(steps: &[Step]) -> String {
    steps
        .iter()
        .map(Step::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn distance(a: Square, b: Square) -> u8 {
    a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank()))
}

/// A random legal turn built step by step, each prefix checked by the engine; mostly steps that
/// bring a man nearer the mark, so rounds end.
fn random_turn(game: &Lanrick, rng: &mut Rng) -> String {
    let seat = game.to_move().expect("to move");
    let mark = game.mark().expect("mark");
    let mut steps: Vec<Step> = Vec::new();
    loop {
        let mut at: Vec<Square> = squares(game.men(seat)).collect();
        for s in &steps {
            if let Some(m) = at.iter_mut().find(|m| **m == s.from) {
                *m = s.to;
            }
        }
        let mut candidates = Vec::new();
        for _ in 0..24 {
            let from = at[rng.below(at.len())];
            let dir = Direction::ALL[rng.below(8)];
            let Some(to) = from.go(dir, 1 + rng.below(3) as u8) else {
                continue;
            };
            let mut trial = steps.clone();
            trial.push(Step { from, to });
            let mut g = game.clone();
            if play(&mut g, &text(&trial)).is_ok() {
                candidates.push((Step { from, to }, g));
            }
        }
        if candidates.is_empty() {
            break;
        }
        let pick = if rng.chance(75) {
            let best = candidates
                .iter()
                .enumerate()
                .min_by_key(|(_, (s, _))| {
                    distance(s.to, mark) as i32 - distance(s.from, mark) as i32
                })
                .map(|(i, _)| i);
            best.unwrap_or(0)
        } else {
            rng.below(candidates.len())
        };
        let (step, after) = candidates.swap_remove(pick);
        steps.push(step);
        if after.phase() != Phase::Play || after.to_move() == Some(seat) || rng.chance(30) {
            break;
        }
    }
    if steps.is_empty() {
        // Nothing found by chance: take the first listed turn.
        return game.format_move(&game.legal_moves()[0]);
    }
    text(&steps)
}

fn choose(game: &Lanrick, rng: &mut Rng) -> String {
    if game.phase() == Phase::Play {
        return random_turn(game, rng);
    }
    let list = game.legal_moves();
    game.format_move(&list[rng.below(list.len())])
}

fn result_of(game: &Lanrick, text: &str) -> Option<Lanrick> {
    let mut g = game.clone();
    play(&mut g, text).ok().map(|()| g)
}

/// Checks made at every decision, before `next` is played.
fn cheap_invariants(game: &Lanrick, next: &str) {
    let seat = game
        .to_move()
        .expect("a game in progress has a player to move");
    for s in [Seat::WHITE, Seat::BLACK] {
        if game.phase() != Phase::Placement {
            assert_eq!(
                game.men(s).count_ones() + game.taken(other(s)) as u32,
                5,
                "{}",
                game.position()
            );
        }
    }
    if game.phase() == Phase::Mark {
        assert_eq!(
            game.occupied() & FIELD,
            0,
            "the mark is set with every man on the border"
        );
    }
    let back = Lanrick::from_position(&game.position()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.position(), game.position());
    // Only the seat to move may decide.
    let mut copy = game.clone();
    assert!(copy.play_text(other(seat), next).is_err());
    assert_eq!(&copy, game);
}

/// Every listed move round-trips and plays; random written turns are legal exactly when they
/// reach a listed turn's position.
fn full_invariants(game: &Lanrick, rng: &mut Rng) {
    let list = game.legal_moves();
    assert!(!list.is_empty(), "no legal move at {}", game.position());
    let mut results = HashSet::new();
    for mv in &list {
        let text = game.format_move(mv);
        let parsed = game
            .parse_move(&text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(&parsed, mv, "notation round trip of {text}");
        let after = result_of(game, &text).unwrap_or_else(|| panic!("listed move {text} refused"));
        assert!(
            results.insert(after.position()),
            "two listed moves reach one position: {text}"
        );
    }
    if game.phase() == Phase::Play {
        for _ in 0..12 {
            let turn = random_turn(game, rng);
            let after = result_of(game, &turn).expect("random turns are legal");
            assert!(
                results.contains(&after.position()),
                "{turn} reached an unlisted position"
            );
        }
    }
}

#[test]
fn seeded_random_games_keep_the_invariants() {
    let (mut finished, mut rounds, mut full_checks) = (0, 0, 0);
    for seed in 0..GAMES {
        let mut rng = Rng::new(seed);
        let mut game = Lanrick::new();
        let mut history: Vec<String> = Vec::new();
        while game.to_move().is_some() && history.len() < MAX_DECISIONS {
            let text = choose(&game, &mut rng);
            cheap_invariants(&game, &text);
            let small = game.budget().is_none_or(|b| b <= 2);
            if (small && rng.chance(20)) || rng.chance(1) {
                full_invariants(&game, &mut rng);
                full_checks += 1;
            }
            let before = game.clone();
            play(&mut game, &text)
                .unwrap_or_else(|e| panic!("{text}: {e} at {}", before.position()));
            if game.phase() == Phase::Capture && before.phase() != Phase::Capture {
                rounds += 1;
            }
            history.push(text);
        }
        // Replaying the history gives the same game.
        let mut replayed = Lanrick::new();
        for text in &history {
            play(&mut replayed, text).unwrap();
        }
        assert_eq!(replayed, game, "replay of seed {seed} differs");
        finished += usize::from(game.outcome().is_some());
    }
    eprintln!(
        "{GAMES} games: {finished} finished, {rounds} rendezvous won, {full_checks} full checks"
    );
    assert!(
        finished as u64 >= GAMES * 3 / 4,
        "most random games should finish, {finished} did"
    );
    assert!(
        rounds as u64 >= GAMES * 3,
        "rounds should be won, {rounds} were"
    );
}

#[test]
fn refused_moves_leave_the_game_unchanged() {
    let mut rng = Rng::new(7);
    let mut game = Lanrick::new();
    let junk = [
        "",
        "z9",
        "a1-",
        "xe5",
        "d4",
        "a1-a1",
        "b2-c4",
        "e5-e1 e1-e2",
        "xx",
        "a1-h8 h8-a1",
        "b1 b2",
    ];
    for _ in 0..400 {
        if game.to_move().is_none() {
            break;
        }
        for text in junk {
            let mut copy = game.clone();
            if play(&mut copy, text).is_err() {
                assert_eq!(copy, game, "refused `{text}` changed the game");
            }
        }
        let text = choose(&game, &mut rng);
        play(&mut game, &text).unwrap();
    }
}
