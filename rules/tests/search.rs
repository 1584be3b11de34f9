//! The search: every decision it makes is legal (checked through the rules, in random positions
//! of every game), a seed and an iteration budget reproduce a search, it finds what is plainly
//! best, and the levels keep their order.

use muster_rules::lanko::{Lanko, Variant};
use muster_rules::lanrick::Lanrick;
use muster_rules::lanrick1880::Lanrick1880;
use muster_rules::search::lanko::{LankoSearch, moves_to_goal, prospects};
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

/// A Lanko-88 position from its rows (north to south), `seat` to move.
fn lanko88(rows: [&str; 10], seat: &str) -> Lanko {
    let text = format!("{} {seat} - 0", rows.join("/"));
    Lanko::from_position(Variant::L88, &text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn lanko_values_castles_by_the_moves_they_need_to_a_free_middle_square() {
    // docs/ai.md, "Playouts and evaluation": a castle on a middle square counts triple (K-9),
    // so a castle near a free one is worth part of that gain, less with each move to go.
    let near = |points: f64, moves: i32| points * 0.8 * 0.7f64.powi(moves - 1);
    let close = |a: f64, b: f64| (a - b).abs() < 1e-9;
    // White's big castle on N7, next to M1; Black's small castle on 52, six moves from M4.
    let game = lanko88(
        [
            "......",
            "........",
            "..........",
            "....B.....",
            "..........",
            "..........",
            "..........",
            "..........",
            "........",
            ".....s",
        ],
        "s",
    );
    let [white, black] = prospects(&game);
    assert!(close(white, near(24.0, 1)), "{white}");
    assert!(close(black, near(12.0, 6)), "{black}");
    // Three middle squares taken: only M4 is free. The big castle on N7 stands two squares
    // from it as the crow flies, but must go round the taken squares and the small castle on
    // N8: seven moves. The small castle needs four (by E1 and E5). Only one castle a side can
    // still get there, so the nearer counts.
    let game = lanko88(
        [
            "......",
            "........",
            "..........",
            "....BS....",
            "....BB....",
            "....b.....",
            "..........",
            "..........",
            "........",
            ".....s",
        ],
        "s",
    );
    assert_eq!(
        moves_to_goal(&game)[game.board().square("N7").unwrap() as usize],
        7
    );
    let [white, black] = prospects(&game);
    assert!(close(white, near(12.0, 4)), "{white}");
    assert!(close(black, near(12.0, 6)), "{black}");
    // Walled in by its own pawns, the small castle on 52 cannot get there at all.
    let game = lanko88(
        [
            "......",
            "........",
            "..........",
            "....BS....",
            "....BB....",
            "....b.....",
            "..........",
            "..........",
            "......pp",
            "....ps",
        ],
        "s",
    );
    assert_eq!(prospects(&game)[1], 0.0);
    // Every middle square taken: nothing left to gain.
    let game = lanko88(
        [
            "......",
            "........",
            "..........",
            "....BS....",
            "....BB....",
            "....bB....",
            "..........",
            "..........",
            "........",
            ".....s",
        ],
        "s",
    );
    assert_eq!(prospects(&game), [0.0, 0.0]);
}

#[test]
fn the_bot_declares_only_to_end_a_lanko_game_its_pair_leads() {
    // K-8: the game ends when every seat still holding castles has declared and no castle can
    // be taken. E holds Black's last castle off the middle; White has only a pawn besides its
    // castle on M3.
    let rows = |m1: char, m2: char, m3: char| {
        [
            "P.....".to_string(),
            "........".into(),
            "..........".into(),
            "..........".into(),
            format!("....{m1}{m2}...."),
            format!("....{m3}....."),
            "..........".into(),
            "..........".into(),
            "........".into(),
            ".....s".into(),
        ]
    };
    let position = |m1, m2, m3| {
        let rows = rows(m1, m2, m3);
        lanko88(std::array::from_fn(|i| rows[i].as_str()), "e")
    };
    // Black leads 78 to 38: E declares, and the game is over, won.
    let leading = position('b', 'b', 'B');
    let found = search::best(&LankoSearch::new(&leading), Budget::iterations(300), 1).unwrap();
    assert_eq!(found.decision, "===");
    let mut game = leading.clone();
    game.play_text(Seat::new(3).unwrap(), &found.decision)
        .unwrap();
    assert_eq!(
        game.outcome().map(|o| o.result_for(Team::BLACK).score()),
        Some(1.0)
    );
    // Black trails 42 to 74: E plays on, bringing its castle towards M4.
    let trailing = position('B', 'B', 'b');
    let found = search::best(&LankoSearch::new(&trailing), Budget::iterations(300), 1).unwrap();
    assert_ne!(found.decision, "===");
    assert!(
        trailing
            .clone()
            .play_text(Seat::new(3).unwrap(), &found.decision)
            .is_ok()
    );
}
