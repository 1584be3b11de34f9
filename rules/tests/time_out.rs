//! A clock running out (the bot's time controls; no rule text has clocks): the seat's side
//! loses, as if it had resigned, but the reason says time. In Lanko the pair loses (K-1: S and
//! N play White, W and E Black).

use muster_rules::{AnyGame, EndReason, GameId, Outcome, PlayError, Seat, Team};

#[test]
fn a_seat_that_runs_out_of_time_loses_for_its_side_in_every_game() {
    for id in [
        GameId::Lanrick,
        GameId::Lanrick1880,
        GameId::Croquet,
        GameId::Lanko88,
        GameId::Lanko68,
        GameId::Lanko103,
    ] {
        let mut game = AnyGame::new(id);
        let first = Seat::new(0).expect("seat 0");
        game.time_out(first).expect("a running game can time out");
        // K-1: the first seat (White, or S with N in Lanko) loses; the other side wins.
        assert_eq!(
            game.outcome(),
            Some(Outcome::Winner {
                team: Team::BLACK,
                reason: EndReason::Time,
            }),
            "{id:?}"
        );
        assert_eq!(game.to_move(), None, "{id:?}");
        assert_eq!(game.time_out(first), Err(PlayError::GameOver), "{id:?}");
        assert_eq!(game.resign(first), Err(PlayError::GameOver), "{id:?}");
    }
}

#[test]
fn in_lanko_the_west_seat_running_out_loses_for_west_and_east() {
    // K-1: W and E play Black together.
    let mut game = AnyGame::new(GameId::Lanko88);
    game.time_out(Seat::new(1).expect("seat W")).expect("runs");
    assert_eq!(
        game.outcome(),
        Some(Outcome::Winner {
            team: Team::WHITE,
            reason: EndReason::Time,
        })
    );
}
