//! The search: every decision it makes is legal (checked through the rules, in random positions
//! of every game), a seed and an iteration budget reproduce a search, it finds what is plainly
//! best, and the levels keep their order.

use muster_rules::lanko::{Lanko, Variant};
use muster_rules::lanrick::Lanrick;
use muster_rules::lanrick1880::Lanrick1880;
use muster_rules::search::lanko::LankoSearch;
use muster_rules::search::lanrick::LanrickSearch;
use muster_rules::search::lanrick1880::Lanrick1880Search;
use muster_rules::search::self_play::{Player, play};
use muster_rules::search::{self, Budget, Level, Position, Rng};
use muster_rules::{Game, GameId, Seat, Team};

/// Plays `games` games in which every decision is the search's (a small budget) or, to reach
/// varied positions, a random one; each of the search's decisions must be accepted by the game.
fn every_decision_is_legal<G: Game, P: Position>(
    games: usize,
    fresh: impl Fn() -> G,
    view: impl Fn(&G) -> P,
    iterations: u64,
) -> usize {
    let mut rng = Rng::new(2026);
    let mut checked = 0;
    for g in 0..games {
        let mut game = fresh();
        for ply in 0..400 {
            let Some(seat) = game.to_move() else { break };
            let position = view(&game);
            let text = if rng.below(3) == 0 {
                search::random(&position, &mut rng).expect("a random decision")
            } else {
                let found = search::best(
                    &position,
                    Budget::iterations(iterations),
                    (g * 1000 + ply) as u64,
                )
                .expect("a decision");
                checked += 1;
                found.decision
            };
            if let Err(e) = game.play_text(seat, &text) {
                panic!(
                    "game {g}, ply {ply}: `{text}` was refused: {e:?}\n{:?}",
                    game
                );
            }
        }
    }
    checked
}

// Thousands of positions of every game: a short search's decisions exercise the same choice
// builders as a long one's (a longer search only visits them more often).
#[test]
fn the_searchs_lanrick_decisions_are_legal() {
    let n = every_decision_is_legal(40, Lanrick::new, LanrickSearch::new, 24);
    assert!(n > 2_000, "{n} decisions checked");
}

#[test]
fn the_searchs_lanrick1880_decisions_are_legal() {
    let n = every_decision_is_legal(40, Lanrick1880::new, Lanrick1880Search::new, 24);
    assert!(n > 1_500, "{n} decisions checked");
}

#[test]
fn the_searchs_lanko_decisions_are_legal() {
    for variant in Variant::ALL {
        let n = every_decision_is_legal(12, || Lanko::new(variant), LankoSearch::new, 16);
        assert!(n > 800, "{variant:?}: {n} decisions checked");
    }
}

#[test]
fn the_search_finds_the_turn_that_wins_the_game() {
    // Rule 8, L3-11: White has taken three men; four of his men stand in the rendezvous about
    // d4 and the fifth can join them from e7, which takes Black's fourth man and wins.
    let position = "B6B/4W3/8/8/2W5/2WWW3/8/8 play w d4 3-0 - -";
    let game = Lanrick::from_position(position).expect("a position");
    let mut check = game.clone();
    check.play_text(Seat::WHITE, "e7-e5").expect("legal");
    assert!(
        check.to_move() == Some(Seat::WHITE),
        "White takes a man next"
    );
    for seed in 0..5 {
        let found = search::best(&LanrickSearch::new(&game), Budget::iterations(300), seed)
            .expect("a decision");
        let mut after = game.clone();
        after
            .play_text(Seat::WHITE, &found.decision)
            .expect("legal");
        assert!(
            after.to_move() == Some(Seat::WHITE) && after.taken(Seat::WHITE) == 3,
            "seed {seed}: `{}` does not win the rendezvous",
            found.decision
        );
        assert!(found.value > 0.9, "seed {seed}: {found:?}");
    }
}

/// The first player's score in `games` games against the second, each side half of them.
fn match_score(id: GameId, a: Player, b: Player, games: u32) -> f64 {
    let mut points = 0.0;
    for g in 0..games {
        let played = if g % 2 == 0 {
            play(id, a, b, u64::from(g), 600)
        } else {
            play(id, b, a, u64::from(g), 600)
        };
        points += played.score(if g % 2 == 0 { Team::WHITE } else { Team::BLACK });
    }
    points / f64::from(games)
}

#[test]
fn easy_beats_random_play_on_a_small_sample() {
    // docs/ai.md, "Strength": the full ladder is measured by rules/examples/ladder.rs; this
    // sample is seeded, so it checks the same games every time.
    for id in [GameId::Lanrick, GameId::Lanrick1880, GameId::Lanko88] {
        let easy = match_score(id, Player::Level(Level::Easy), Player::Random, 4);
        assert!(easy >= 0.75, "{id}: easy scored {easy} against random play");
    }
}

#[test]
fn good_beats_easy_on_a_small_sample() {
    let good = match_score(
        GameId::Lanrick,
        Player::Level(Level::Good),
        Player::Level(Level::Easy),
        4,
    );
    assert!(good >= 0.75, "good scored {good} against easy");
}

#[test]
fn a_seed_and_a_budget_reproduce_a_search() {
    let mut game = Lanrick::new();
    for text in [
        "a1", "h8", "c1", "f8", "e1", "a6", "h3", "c8", "h5", "a3", "d4",
    ] {
        let seat = game.to_move().unwrap();
        game.play_text(seat, text).unwrap();
    }
    let view = LanrickSearch::new(&game);
    let one = search::best(&view, Budget::iterations(500), 42).unwrap();
    let two = search::best(&view, Budget::iterations(500), 42).unwrap();
    assert_eq!(one, two);
    assert_eq!(one.iterations, 500);
}
