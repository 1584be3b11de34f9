//! Completion of moves as a player types them (`AnyGame::suggest`), used by chat autocomplete:
//! every suggestion is a legal move, a Lanrick turn can be built up a step at a time, and the
//! budget and line rules bound what is offered.

mod common;

use common::{Rng, at};
use muster_rules::lanrick1880::Lanrick1880;
use muster_rules::{AnyGame, GameId, Seat};

const OPENING: &str = "W1W1W1WW/8/8/8/8/8/8/BB1B1B1B play b d4 0-0 2 -";

fn legal(game: &AnyGame, text: &str) -> bool {
    let seat = game.to_move().unwrap();
    game.clone().play_text(seat, text).is_ok()
}

#[test]
fn an_opening_turn_is_offered_step_by_step_within_the_budget() {
    // Rule 4, L3-3: the opening turn's budget is two squares.
    let game = AnyGame::Lanrick(at(OPENING));
    let first = game.suggest("", 100);
    assert!(!first.is_empty());
    assert!(first.iter().all(|s| legal(&game, s)), "{first:?}");
    assert!(first.contains(&"a1-a3".to_string()));
    assert!(
        !first.contains(&"a1-a4".to_string()),
        "three squares exceed the budget"
    );
    // After one step of one square, the turn itself comes first, then one more square.
    let after = game.suggest("a1-a2", 100);
    assert_eq!(after[0], "a1-a2");
    assert!(after.contains(&"a1-a2 a2-a3".to_string()));
    assert!(after.contains(&"a1-a2 b1-b2".to_string()));
    assert!(after.iter().all(|s| legal(&game, s)), "{after:?}");
    assert!(!after.iter().any(|s| s.contains("a2-a4")));
    // Rule 4: a man moved twice keeps to his line (a2 may not turn to b3).
    assert!(!after.contains(&"a1-a2 a2-b3".to_string()));
    // A partial square narrows the choice; case and spacing are forgiven.
    let narrowed = game.suggest("A1-A2  b", 100);
    assert!(!narrowed.is_empty());
    assert!(
        narrowed.iter().all(|s| s.starts_with("a1-a2 b")),
        "{narrowed:?}"
    );
    // The budget is spent: nothing may follow.
    assert_eq!(game.suggest("a1-a3 ", 100), vec!["a1-a3".to_string()]);
    // Nothing legal matches an illegal start.
    assert!(game.suggest("a1-a4 ", 100).is_empty());
    assert!(game.suggest("d4-d5", 100).is_empty());
    assert!(game.suggest("zz", 100).is_empty());
    // Chat platforms take at most 25.
    assert!(game.suggest("", 25).len() <= 25);
}

#[test]
fn every_legal_turn_can_be_built_up_from_the_suggestions() {
    // Rules 2–4: across seeded positions, each canonical turn's every prefix is offered after
    // the steps before it, and every offer is legal.
    let mut rng = Rng::new(7);
    for id in [GameId::Lanrick, GameId::Lanrick1880] {
        for _ in 0..2 {
            let mut game = match id {
                GameId::Lanrick1880 => AnyGame::Lanrick1880(
                    Lanrick1880::from_position("W1W1W1WW/8/8/8/8/8/8/BB1B1B1B play b d4 0-0 -")
                        .unwrap(),
                ),
                _ => AnyGame::new(id),
            };
            let mut checked = 0;
            for _ in 0..60 {
                let Some(seat) = game.to_move() else { break };
                if game.phase_name() == "play" {
                    let turns = game.legal_moves_text();
                    for turn in turns.iter().step_by(7).take(12) {
                        let steps: Vec<&str> = turn.split(' ').collect();
                        for k in 0..steps.len() {
                            let typed = if k == 0 {
                                String::new()
                            } else {
                                steps[..k].join(" ") + " "
                            };
                            let offered = game.suggest(&typed, usize::MAX);
                            let want = steps[..=k].join(" ");
                            assert!(offered.contains(&want), "{id:?}: `{typed}` lacks `{want}`");
                        }
                    }
                    for s in game.suggest("", usize::MAX) {
                        assert!(legal(&game, &s), "{id:?}: offered `{s}`");
                    }
                    checked += 1;
                }
                let all = game.legal_moves_text();
                if all.is_empty() {
                    break;
                }
                let mv = all[rng.below(all.len())].clone();
                game.play_text(seat, &mv).unwrap();
            }
            assert!(checked > 0, "{id:?}: no play turn reached");
        }
    }
}

#[test]
fn other_games_offer_the_legal_moves_that_match() {
    // Croquet: the steps from the start, all legal, narrowed by what was typed.
    let croquet = AnyGame::new(GameId::Croquet);
    let all = croquet.suggest("", 25);
    assert_eq!(all, croquet.legal_moves_text());
    let first = &all[0];
    let narrowed = croquet.suggest(&first[..1], 25);
    assert!(narrowed.contains(first));
    assert!(narrowed.iter().all(|s| legal(&croquet, s)));
    // Lanko: spaces and case are forgiven, as when a move is played.
    let lanko = AnyGame::new(GameId::Lanko88);
    let moves = lanko.legal_moves_text();
    let pick = &moves[moves.len() / 2];
    let typed = pick.to_ascii_lowercase().replace('-', " - ");
    assert_eq!(lanko.suggest(&typed, 25)[0], *pick);
    // Lanrick placement: squares that begin with what was typed (Rule 5: on the border).
    let lanrick = AnyGame::new(GameId::Lanrick);
    let placed = lanrick.suggest("a", 25);
    assert_eq!(placed.len(), 8);
    assert!(placed.iter().all(|s| s.starts_with('a')));
    // A finished game offers nothing.
    let mut over = AnyGame::new(GameId::Croquet);
    over.resign(Seat::WHITE).unwrap();
    assert!(over.suggest("", 25).is_empty());
}
