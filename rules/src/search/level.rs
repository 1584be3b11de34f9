//! The bot's levels (docs/ai.md) and its decision in any game: Croquet from its perfect-play
//! table, the other games by search.

use super::lanko::LankoSearch;
use super::lanrick::LanrickSearch;
use super::lanrick1880::Lanrick1880Search;
use super::{Budget, Found, Rng, best};
use crate::any::AnyGame;
use crate::croquet::solve::{self, Value};
use crate::{Game, GameId, Seat};

/// How hard the bot plays.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Level {
    /// A short search: 100 iterations (in Croquet, any legal step).
    Easy,
    /// A fuller search: 1,500 iterations, 500 in Lanko (in Croquet, the best step three times
    /// in four).
    Good,
    /// As long a search as 1.8 seconds allow (in Croquet, perfect play).
    Strong,
    /// A search of this many milliseconds (in Croquet, perfect play).
    Millis(u64),
}

/// The shortest and longest time a `bot:<ms>` level may have.
pub const MILLIS: std::ops::RangeInclusive<u64> = 20..=20_000;

impl Level {
    /// Every named level, weakest first.
    pub const NAMED: [Level; 3] = [Level::Easy, Level::Good, Level::Strong];

    /// The level named `word`: `easy`, `good`, `strong` (`perfect` in Croquet's words), or a
    /// number of milliseconds.
    pub fn parse(word: &str) -> Option<Level> {
        match word.to_ascii_lowercase().as_str() {
            "easy" => Some(Level::Easy),
            "good" | "medium" => Some(Level::Good),
            "strong" | "perfect" | "hard" => Some(Level::Strong),
            other => other
                .strip_suffix("ms")
                .unwrap_or(other)
                .parse::<u64>()
                .ok()
                .filter(|ms| MILLIS.contains(ms))
                .map(Level::Millis),
        }
    }

    /// The level's word (a number of milliseconds for a time budget).
    pub fn name(self) -> String {
        match self {
            Level::Easy => "easy".into(),
            Level::Good => "good".into(),
            Level::Strong => "strong".into(),
            Level::Millis(ms) => ms.to_string(),
        }
    }

    /// What a search at this level may do in `game`. Lanko's `good` searches 500 iterations:
    /// its evaluation sees far enough that 1,500 come close to what 1.8 seconds find, and the
    /// levels are spaced by strength (docs/ai.md, "Strength").
    pub fn budget(self, game: GameId) -> Budget {
        let lanko = matches!(game, GameId::Lanko88 | GameId::Lanko68 | GameId::Lanko103);
        match self {
            Level::Easy => Budget::iterations(100),
            Level::Good if lanko => Budget::iterations(500),
            Level::Good => Budget::iterations(1_500),
            Level::Strong => Budget::millis(1_800, 200_000),
            Level::Millis(ms) => Budget::millis(ms, 2_000_000),
        }
    }
}

/// The best decision for the player to decide in `game` within `budget`, with chance from
/// `seed`: Croquet's from its table (every best step equally likely), the others' by search.
pub fn best_any(game: &AnyGame, budget: Budget, seed: u64) -> Option<Found> {
    game.to_move()?;
    match game {
        AnyGame::Croquet(g) => {
            let (value, best) = solve::analyse(g);
            let pick = *best.get(Rng::new(seed).below(best.len()))?;
            Some(Found {
                decision: pick.0.to_string(),
                value: match value {
                    Value::Win => 1.0,
                    Value::Loss => 0.0,
                    Value::Draw => 0.5,
                },
                iterations: 0,
                visits: 0,
            })
        }
        AnyGame::Lanrick(g) => best(&LanrickSearch::new(g), budget, seed),
        AnyGame::Lanrick1880(g) => best(&Lanrick1880Search::new(g), budget, seed),
        AnyGame::Lanko(g) => best(&LankoSearch::new(g), budget, seed),
    }
}

/// The bot's decision at `level` in `game`, with chance from `seed`.
pub fn decide(game: &AnyGame, level: Level, seed: u64) -> Option<Found> {
    if let AnyGame::Croquet(g) = game {
        let mut rng = Rng::new(seed);
        let perfect = match level {
            Level::Easy => false,
            Level::Good => rng.below(4) != 0,
            Level::Strong | Level::Millis(_) => true,
        };
        if !perfect {
            let legal = g.legal_moves();
            let step = legal.get(rng.below(legal.len()))?;
            return Some(Found {
                decision: step.0.to_string(),
                value: 0.5,
                iterations: 0,
                visits: 0,
            });
        }
    }
    best_any(game, level.budget(game.id()), seed)
}

/// A uniformly random legal decision in `game` (the ladder's weakest player): one of the
/// game's listed moves, or for the first version's set-up (too many to list) one square at a
/// time.
pub fn random_any(game: &AnyGame, seed: u64) -> Option<String> {
    let mut rng = Rng::new(seed);
    let listed = game.legal_moves_text();
    if !listed.is_empty() {
        return listed.get(rng.below(listed.len())).cloned();
    }
    match game {
        AnyGame::Lanrick1880(g) => super::random(&Lanrick1880Search::new(g), &mut rng),
        AnyGame::Lanrick(g) => super::random(&LanrickSearch::new(g), &mut rng),
        AnyGame::Lanko(g) => super::random(&LankoSearch::new(g), &mut rng),
        AnyGame::Croquet(_) => None,
    }
}

/// Whether the side to decide in `game` has nothing left to play for, by a search's value
/// `value` for him: the bot resigns then (docs/ai.md, "Resigning"). It must be lost on the board
/// and the search must give it less than a 12 % chance.
pub fn hopeless(game: &AnyGame, value: f64) -> bool {
    const BELOW: f64 = 0.12;
    let Some(seat) = game.to_move() else {
        return false;
    };
    value < BELOW && lost_on_the_board(game, seat)
}

/// Whether `seat` is all but beaten on the board: in Lanrick the other side needs one more
/// taking to win (his fourth; in the first version his fifth, the last man) while `seat` is at
/// least two takings behind; in Lanko his pair is at least 24 points (two big castles) behind.
fn lost_on_the_board(game: &AnyGame, seat: Seat) -> bool {
    let one_from = |mine: u8, theirs: u8, wins: u8| theirs + 1 == wins && mine + 2 <= theirs;
    match game {
        AnyGame::Lanrick(g) => one_from(g.taken(seat), g.taken(seat.opponent()), 4),
        AnyGame::Lanrick1880(g) => one_from(g.taken(seat), g.taken(seat.opponent()), 5),
        AnyGame::Lanko(g) => {
            let [w, b] = g.score();
            let (mine, theirs) = if seat.index().is_multiple_of(2) {
                (w, b)
            } else {
                (b, w)
            };
            mine + 24 <= theirs
        }
        AnyGame::Croquet(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_read_by_their_words_and_milliseconds() {
        assert_eq!(Level::parse("easy"), Some(Level::Easy));
        assert_eq!(Level::parse("Good"), Some(Level::Good));
        assert_eq!(Level::parse("perfect"), Some(Level::Strong));
        assert_eq!(Level::parse("750"), Some(Level::Millis(750)));
        assert_eq!(Level::parse("750ms"), Some(Level::Millis(750)));
        assert_eq!(Level::parse("5"), None, "below the shortest");
        assert_eq!(Level::parse("100000"), None, "above the longest");
        assert_eq!(Level::parse("wise"), None);
        for level in [Level::Easy, Level::Good, Level::Strong, Level::Millis(300)] {
            assert_eq!(Level::parse(&level.name()), Some(level));
        }
    }

    #[test]
    fn the_bot_resigns_only_a_game_lost_on_the_board_with_no_chance() {
        // Black has lost three men to none; White is close to the rendezvous.
        let lost =
            crate::lanrick::Lanrick::from_position("B6B/8/8/8/8/8/1W6/2WWW1W1 play b d4 3-0 - b")
                .expect("a position");
        let game = AnyGame::Lanrick(lost);
        assert!(hopeless(&game, 0.01));
        assert!(hopeless(&game, 0.11));
        assert!(!hopeless(&game, 0.2), "a chance is left");
        // Two men down, but White still needs two more rendezvous.
        let behind =
            crate::lanrick::Lanrick::from_position("B6B/8/8/8/8/2B5/1W6/2WWW1W1 play b d4 2-0 - b")
                .expect("a position");
        assert!(!hopeless(&AnyGame::Lanrick(behind), 0.01));
        let even = AnyGame::new(GameId::Lanrick);
        assert!(!hopeless(&even, 0.01), "nothing lost on the board");
        let croquet = AnyGame::new(GameId::Croquet);
        assert!(!hopeless(&croquet, 0.0));
    }

    #[test]
    fn an_iteration_level_is_reproducible_and_a_time_level_keeps_its_time() {
        let mut game = AnyGame::new(GameId::Lanrick);
        for text in ["a1", "h8", "c1", "f8", "e1", "a6", "h3", "c8", "h5", "a3"] {
            let seat = game.to_move().expect("to move");
            game.play_text(seat, text).expect("legal");
        }
        let one = decide(&game, Level::Good, 9).expect("a decision");
        assert_eq!(Some(one.clone()), decide(&game, Level::Good, 9));
        assert_eq!(one.iterations, 1_500);
        let timed = decide(&game, Level::Millis(150), 9).expect("a decision");
        assert!(timed.iterations > 0);
        let mut after = game.clone();
        let seat = after.to_move().expect("to move");
        after.play_text(seat, &timed.decision).expect("legal");
    }
}
