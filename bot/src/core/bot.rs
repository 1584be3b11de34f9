//! The bot as an opponent. It plays Croquet from the perfect-play table, at three levels:
//! `perfect` always keeps the best result, `good` does so three times in four, and `easy` picks
//! any legal step. Its choices come from a generator seeded by the game and the move number, so
//! a game replays the same way.

use muster_rules::croquet::solve::{self, Value};
use muster_rules::croquet::{Croquet, Step};
use muster_rules::{AnyGame, Game, GameId};

use crate::store::Player;

/// How well the bot plays.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Level {
    /// Any legal step.
    Easy,
    /// The best step three times in four, else any.
    Good,
    /// Always a step that keeps the best result.
    Perfect,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::Easy, Level::Good, Level::Perfect];

    /// The level's name.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Good => "good",
            Level::Perfect => "perfect",
        }
    }
}

/// The bot's player id prefix; the level follows (`bot:perfect`).
pub const ID: &str = "bot";

/// Reads `bot` or `bot:<level>`; `None` if the token does not name the bot.
pub fn parse(token: &str) -> Option<Result<Level, String>> {
    let rest = token.strip_prefix(ID)?;
    let level = match rest.strip_prefix(':').unwrap_or(rest) {
        "" | "perfect" => Ok(Level::Perfect),
        "good" | "medium" => Ok(Level::Good),
        "easy" => Ok(Level::Easy),
        other if rest.starts_with(':') => Err(format!(
            "`bot:{}`: the levels are easy, good and perfect",
            super::words::excerpt(other, 24)
        )),
        _ => return None,
    };
    Some(level)
}

/// The player entry for the bot at `level`.
pub fn player(level: Level) -> Player {
    Player {
        id: format!("{ID}:{}", level.name()),
        name: format!("Muster ({})", level.name()),
    }
}

/// The bot's level, if `id` is the bot's.
pub fn level_of(id: &str) -> Option<Level> {
    parse(id).and_then(Result::ok)
}

/// Whether the bot can play `game`.
pub fn plays(game: GameId) -> bool {
    game == GameId::Croquet
}

/// A small seeded generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn seed(game_id: &str, ply: usize) -> u64 {
    game_id
        .bytes()
        .fold(ply as u64 ^ 0xA076_1D64_78BD_642F, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01B3)
        })
}

/// The bot's move in `game`, as notation; `None` if it has none (or does not play the game).
pub fn choose(game: &AnyGame, level: Level, game_id: &str, ply: usize) -> Option<String> {
    let AnyGame::Croquet(g) = game else {
        return None;
    };
    let step = choose_croquet(g, level, &mut Rng(seed(game_id, ply)))?;
    Some(step.0.to_string())
}

fn choose_croquet(g: &Croquet, level: Level, rng: &mut Rng) -> Option<Step> {
    let legal = g.legal_steps();
    if legal.is_empty() {
        return None;
    }
    let (_, best) = solve::analyse(g);
    let perfect = match level {
        Level::Perfect => true,
        Level::Good => rng.below(4) != 0,
        Level::Easy => false,
    };
    let pool = if perfect && !best.is_empty() {
        &best
    } else {
        &legal
    };
    Some(pool[rng.below(pool.len())])
}

/// A hint for the player to move: the best step, what it does, and the result it keeps. Among
/// the steps that keep the result it prefers one that does not lose at once (a second miss),
/// then one that does not miss, then the longest.
pub fn hint(g: &Croquet) -> Option<(Step, Value, Croquet)> {
    let (value, best) = solve::analyse(g);
    let seat = g.to_move()?;
    let step = *best.iter().max_by_key(|s| {
        let after = solve::after(g, **s);
        let survives = after
            .outcome()
            .is_none_or(|o| o.winner().map(|t| t.index()) == Some(seat.index()));
        let clean = after.ball(seat).status != muster_rules::croquet::Status::Missed;
        (survives, clean, s.0)
    })?;
    Some((step, value, solve::after(g, step)))
}
