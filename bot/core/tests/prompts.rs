//! Every example a prompt shows is a legal move where it is shown: at every position of a whole
//! recorded Lanrick game and of a Lanrick 1880 record through every phase, and along games of
//! every kind played at random from the start and from those positions, every `move …` the prompt
//! writes is played on a copy of the game by the rules engine, which must take it.

use std::collections::BTreeSet;

use muster_core::games::words::prompt;
use muster_rules::{AnyGame, GameId};

/// A whole game of Lanrick, Third Edition: six rounds, with takings, wanderers, equalising,
/// returns and new marks.
const WHOLE_GAME: &str = include_str!("../../../docs/examples/lanrick-whole-game.txt");

/// The main record of docs/rules/lanrick1880.md: a set-up, a rendezvous won, a man taken, the
/// wanderers sent to the border and the next rendezvous chosen.
const RECORD_1880: [&str; 15] = [
    "W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7",
    "e3",
    "*e4",
    "e8-e5 h7-f5",
    "*d4",
    "c8-f5",
    "c1-c3 e1-e2 g1-f2",
    "a8-c6 g8-g5",
    "h2-g3",
    "c6-c5 g5-e3 f5-e4",
    "xa1",
    "e2-e1",
    "f2-f1",
    "g3-g1",
    "g6",
];

/// A small deterministic generator (xorshift), so that a failure can be played again.
struct Dice(u64);

impl Dice {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The notations a prompt gives as examples: what follows `move ` inside backticks.
fn examples(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|quoted| quoted.strip_prefix("move "))
        .map(str::to_string)
        .collect()
}

/// Checks every example the prompt of `game` shows (at least one) against the rules; returns
/// them.
fn check(game: &AnyGame, what: &str) -> Vec<String> {
    let seat = game.to_move().expect("a seat to decide");
    let said = prompt(game, "");
    let shown = examples(&said);
    assert!(!shown.is_empty(), "{what}: no example in {said:?}");
    for example in &shown {
        if let Err(e) = game.clone().play_text(seat, example) {
            panic!(
                "{what}: the prompt {said:?} shows `{example}`, which is refused: {e:?}\nposition: {}",
                game.position()
            );
        }
    }
    shown
}

/// Plays `game` on at random from `seed` for at most `plies` decisions, checking every prompt;
/// returns how many examples were checked, adding to `phases` the phases they were shown in.
fn play_checking(
    mut game: AnyGame,
    seed: u64,
    plies: usize,
    phases: &mut BTreeSet<&'static str>,
) -> usize {
    let mut dice = Dice(seed);
    let mut checked = 0;
    for ply in 0..plies {
        let Some(seat) = game.to_move() else {
            break;
        };
        phases.insert(game.phase_name());
        let shown = check(&game, &format!("{:?} (seed {seed}) ply {ply}", game.id()));
        checked += shown.len();
        let legal = game.legal_moves_text();
        let next = if legal.is_empty() {
            // Lanrick 1880's set-up: too many to list; the prompt's example is one.
            shown[0].clone()
        } else {
            legal[dice.below(legal.len())].clone()
        };
        game.play_text(seat, &next)
            .unwrap_or_else(|e| panic!("ply {ply}: `{next}` refused: {e:?}"));
    }
    checked
}

#[test]
fn every_example_a_prompt_shows_is_a_legal_move_in_every_game_from_the_start() {
    for id in GameId::ALL {
        let mut phases = BTreeSet::new();
        let checked: usize = (1..=4)
            .map(|seed| play_checking(AnyGame::new(id), seed * 7919, 150, &mut phases))
            .sum();
        assert!(checked > 40, "{id:?}: only {checked} examples checked");
    }
}

#[test]
fn every_example_is_legal_in_every_phase_of_a_whole_lanrick_game() {
    let mut game = AnyGame::new(GameId::Lanrick);
    let mut phases = BTreeSet::new();
    let moves = WHOLE_GAME
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    for (ply, mv) in moves.enumerate() {
        let Some(seat) = game.to_move() else {
            break;
        };
        phases.insert(game.phase_name());
        check(&game, &format!("the whole game, ply {ply}"));
        // From every tenth position, a few decisions played at random as well.
        if ply % 10 == 0 {
            play_checking(game.clone(), ply as u64 + 1, 12, &mut phases);
        }
        game.play_text(seat, mv)
            .unwrap_or_else(|e| panic!("the record's `{mv}`: {e:?}"));
    }
    for phase in [
        "placement",
        "mark",
        "play",
        "capture",
        "wanderers",
        "equalise",
        "return",
    ] {
        assert!(phases.contains(phase), "no {phase} in {phases:?}");
    }
}

#[test]
fn every_example_is_legal_in_every_phase_of_lanrick_1880() {
    let mut game = AnyGame::new(GameId::Lanrick1880);
    let mut phases = BTreeSet::new();
    for (ply, mv) in RECORD_1880.iter().enumerate() {
        let seat = game.to_move().expect("the record goes on");
        phases.insert(game.phase_name());
        check(&game, &format!("the 1880 record, ply {ply}"));
        play_checking(game.clone(), ply as u64 + 11, 12, &mut phases);
        game.play_text(seat, mv)
            .unwrap_or_else(|e| panic!("the record's `{mv}`: {e:?}"));
    }
    for phase in ["setup", "choose", "play", "capture", "wanderers"] {
        assert!(phases.contains(phase), "no {phase} in {phases:?}");
    }
}

#[test]
fn the_examples_are_drawn_from_the_position_not_written_once() {
    // Lanrick: after White places on a square, Black is not told to place on it (the trap a
    // newcomer met: the example was always `b1`, whether or not White had just taken it).
    let mut game = AnyGame::new(GameId::Lanrick);
    let first = check(&game, "the start")[0].clone();
    let seat = game.to_move().expect("White places first");
    game.play_text(seat, &first).expect("the example is legal");
    let second = check(&game, "after one placement");
    assert!(!second.contains(&first), "{second:?} after {first}");
    // Croquet: after White's 4, Black's 4 and 5 are barred (C-6), and 5 is not shown.
    let mut croquet = AnyGame::new(GameId::Croquet);
    let seat = croquet.to_move().expect("White to move");
    croquet.play_text(seat, "4").expect("a legal opening step");
    let said = prompt(&croquet, "");
    assert!(said.contains("4 and 5 are barred"), "{said}");
    assert!(!examples(&said).contains(&"5".to_string()), "{said}");
}
