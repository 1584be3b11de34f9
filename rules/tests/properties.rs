//! Property tests (proptest) of what players rely on, for random games of every rule set:
//! every move `moves` lists is one `play` accepts; whatever `play` accepts is one of the listed
//! decisions (it leads where a listed one leads), and whatever it refuses changes nothing; and
//! the game replayed from its record is the live game, equal in every field. proptest shrinks a
//! failing game to its shortest form.

use muster_rules::{AnyGame, GameId};
use proptest::prelude::*;

/// How many decisions a random game makes at most.
const PLIES: usize = 60;

/// Positions with more listed decisions than this are checked on a sample of them (a Lanrick
/// turn can have hundreds).
const LISTED_IN_FULL: usize = 120;

fn game_id() -> impl Strategy<Value = GameId> {
    prop::sample::select(GameId::ALL.to_vec())
}

/// Text shaped like notation: squares, numbers, separators, and some noise.
fn notation_like() -> impl Strategy<Value = String> {
    prop::string::string_regex(
        "[a-k]?[0-9]{0,2}([ x-]?[a-k][0-9]{1,2}){0,3}|[0-9]{1,2}|[A-Za-z ]{0,6}",
    )
    .expect("a valid pattern")
}

/// The positions reached from `game` by each listed decision (all of them, or every `step`th).
fn reached(game: &AnyGame, listed: &[String], step: usize) -> Vec<String> {
    let seat = game.to_move().expect("a seat to move");
    listed
        .iter()
        .step_by(step)
        .map(|m| {
            let mut next = game.clone();
            next.play_text(seat, m)
                .unwrap_or_else(|e| panic!("listed {m:?} refused: {e:?}"));
            next.position()
        })
        .collect()
}

/// A first-version set-up: five White and five Black men on border squares chosen by `choices`.
fn setup_1880(choices: &[u16]) -> String {
    let mut border: Vec<String> = Vec::new();
    for file in 'a'..='h' {
        for rank in 1..=8 {
            if matches!(file, 'a' | 'h') || matches!(rank, 1 | 8) {
                border.push(format!("{file}{rank}"));
            }
        }
    }
    let mut picks = choices.iter().cycle();
    let mut men: Vec<String> = (0..10)
        .map(|_| {
            let at = *picks.next().expect("a choice") as usize % border.len();
            border.swap_remove(at)
        })
        .collect();
    let black = men.split_off(5);
    format!("W:{} B:{}", men.join(","), black.join(","))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn listed_and_accepted_agree_and_the_record_replays_to_the_live_game(
        id in game_id(),
        choices in prop::collection::vec(any::<u16>(), 1..PLIES),
        tries in prop::collection::vec(notation_like(), PLIES),
    ) {
        let mut game = AnyGame::new(id);
        let mut record: Vec<String> = Vec::new();
        for (ply, choice) in choices.iter().enumerate() {
            let Some(seat) = game.to_move() else { break };
            let listed = game.legal_moves_text();
            if listed.is_empty() {
                // Only the first version's set-up lists nothing (3.3 billion of them,
                // docs/machine-interface.md): one is made of the choices.
                prop_assert_eq!(game.phase_name(), "setup", "{:?}: nothing listed", id);
                let setup = setup_1880(&choices);
                game.play_text(seat, &setup).expect("a set-up of ten border squares");
                record.push(setup);
                continue;
            }
            let step = listed.len().div_ceil(LISTED_IN_FULL).max(1);
            let positions = reached(&game, &listed, step);
            // Text a player might type: refused without a trace, or one of the decisions.
            let typed = &tries[ply];
            let mut tried = game.clone();
            match tried.play_text(seat, typed) {
                Err(_) => prop_assert_eq!(&tried, &game, "{:?}: refused {:?} changed the game", id, typed),
                Ok(_) if step == 1 => prop_assert!(
                    positions.contains(&tried.position()),
                    "{:?}: {:?} accepted but leads nowhere listed", id, typed
                ),
                Ok(_) => {}
            }
            // A listed decision, as the record keeps it.
            let chosen = listed[*choice as usize % listed.len()].clone();
            game.play_text(seat, &chosen).expect("listed, so accepted");
            record.push(chosen);
        }
        // The record, replayed from the start, is the live game.
        let mut replayed = AnyGame::new(id);
        for m in &record {
            let seat = replayed.to_move().expect("a seat to move");
            replayed.play_text(seat, m).expect("the record replays");
        }
        prop_assert_eq!(&replayed, &game);
        prop_assert_eq!(replayed.position(), game.position());
        prop_assert_eq!(replayed.state_json(), game.state_json());
    }
}

/// A random game of `id` from `choices`: the decisions (as the record keeps them) and the
/// game after each (the first is the initial position).
fn random_game(id: GameId, choices: &[u16]) -> (Vec<String>, Vec<AnyGame>) {
    let mut game = AnyGame::new(id);
    let mut record = Vec::new();
    let mut history = vec![game.clone()];
    for choice in choices {
        let Some(seat) = game.to_move() else { break };
        let listed = game.legal_moves_text();
        let chosen = if listed.is_empty() {
            setup_1880(choices)
        } else {
            listed[*choice as usize % listed.len()].clone()
        };
        game.play_text(seat, &chosen).expect("listed, so accepted");
        record.push(chosen);
        history.push(game.clone());
    }
    (record, history)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// A takeback rebuilds the game from its record without the decisions taken back: that
    /// must be exactly the game as it stood before them, for every number taken back.
    #[test]
    fn taking_back_returns_the_exact_earlier_game(
        id in game_id(),
        choices in prop::collection::vec(any::<u16>(), 1..PLIES),
    ) {
        let (record, history) = random_game(id, &choices);
        for (kept, earlier) in history.iter().enumerate() {
            let mut rebuilt = AnyGame::new(id);
            for m in &record[..kept] {
                let seat = rebuilt.to_move().expect("a seat to move");
                rebuilt.play_text(seat, m).expect("the record replays");
            }
            prop_assert_eq!(&rebuilt, earlier, "{:?}: {} decisions kept", id, kept);
        }
    }

    /// Every position reached has a position string that reads back to the same game: the
    /// same string, seat to move, phase, state, result and decisions.
    #[test]
    fn position_strings_read_back_at_every_ply(
        id in game_id(),
        choices in prop::collection::vec(any::<u16>(), 1..PLIES),
    ) {
        let (_, history) = random_game(id, &choices);
        for (ply, game) in history.iter().enumerate() {
            // A finished Croquet game's string gives the winner where the side to move stands,
            // which a live position can share (docs/rules/croquet.md, "Position string").
            if id == GameId::Croquet && game.outcome().is_some() {
                continue;
            }
            let written = game.position();
            let back = AnyGame::from_position(id, &written)
                .map_err(|e| TestCaseError::fail(format!("{id:?} {written:?}: {e}")))?;
            prop_assert_eq!(back.position(), written.clone());
            prop_assert_eq!(back.to_move(), game.to_move(), "{}", written);
            prop_assert_eq!(back.phase_name(), game.phase_name(), "{}", written);
            prop_assert_eq!(back.state_json(), game.state_json(), "{}", written);
            prop_assert_eq!(back.outcome(), game.outcome(), "{}", written);
            // The decisions too (listing them is the costly part: every fourth position).
            if ply % 4 == 0 {
                prop_assert_eq!(back.legal_moves_text(), game.legal_moves_text(), "{}", written);
            }
        }
    }
}

/// Found by the `position` fuzz target (fuzz/regressions/position): a Lanrick board rank
/// written with more digits than 255 squares overflowed the square count. Both editions read
/// the board the same way; such a rank is refused, saying how many squares it describes.
#[test]
fn a_rank_of_many_digits_is_refused_not_a_panic() {
    let long = "5".repeat(60);
    for (id, rest) in [
        (GameId::Lanrick, "play w - 0-0 - -"),
        (GameId::Lanrick1880, "play w - 0-0 -"),
    ] {
        let text = format!("2W{long}/8/8/8/8/8/8/8 {rest}");
        let refused = AnyGame::from_position(id, &text).expect_err("too many squares");
        assert!(
            refused.contains("describes 303 squares, not 8"),
            "{refused}"
        );
    }
}
