//! No legal move of any game is written longer than `MAX_NOTATION`: the limit the chat
//! adapters put on a typed move (Discord's `max_length`, the core's refusal of longer input)
//! never refuses a real move. Seeded random games of every game, every listed move measured;
//! Lanrick 1880's set-up, too many to list, is measured at its longest form.

mod common;

use common::Rng;
use muster_rules::{AnyGame, GameId, MAX_NOTATION};

#[test]
fn every_legal_move_of_every_game_fits_the_notation_limit() {
    // Five squares a side, each with its colour: the longest a 1880 set-up is written.
    let setup = "W:a1,c1,e1,g1,h2 B:a8,c8,e8,g8,h7";
    assert!(setup.len() <= MAX_NOTATION);
    let mut longest = Vec::new();
    for id in GameId::ALL {
        let mut rng = Rng::new(7 + id as u64);
        let mut most = (0, String::new());
        // A Lanrick turn list takes tens of milliseconds to make: fewer decisions there.
        let (games, decisions) = match id {
            GameId::Lanrick | GameId::Lanrick1880 => (1, 80),
            _ => (3, 200),
        };
        for _ in 0..games {
            let mut game = AnyGame::new(id);
            for _ in 0..decisions {
                let Some(seat) = game.to_move() else { break };
                let moves = game.legal_moves_text();
                if moves.is_empty() {
                    // The 1880 set-up: played as written above.
                    game.play_text(seat, setup).expect("a set-up");
                    continue;
                }
                for m in &moves {
                    assert!(
                        m.chars().count() <= MAX_NOTATION,
                        "{id:?}: `{m}` is longer than {MAX_NOTATION}"
                    );
                    if m.chars().count() > most.0 {
                        most = (m.chars().count(), m.clone());
                    }
                }
                let pick = moves[rng.below(moves.len())].clone();
                game.play_text(seat, &pick).expect("a listed move is legal");
            }
        }
        longest.push(format!("{}: {} (`{}`)", id.as_str(), most.0, most.1));
    }
    println!("longest legal moves seen: {}", longest.join("; "));
}
