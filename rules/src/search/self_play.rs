//! Games the bot plays against itself (or against random play): the strength ladder of
//! docs/ai.md and the first version's analysis (docs/analysis.md) are made of them, and the
//! tests check the levels' order on a small sample with them.

use std::time::{Duration, Instant};

use super::{Rng, best_any, random_any};
use crate::any::AnyGame;
use crate::{GameId, Outcome, Team};

/// Who decides for one side.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Player {
    /// A uniformly random legal decision.
    Random,
    /// A search at a level (a time budget counted from each decision).
    Level(super::Level),
    /// A search of this many iterations.
    Iterations(u64),
}

impl Player {
    /// The player named `word`: `random`, a level's word (`easy`, `good`, `strong`, a number
    /// of milliseconds) or `it<N>` for a search of N iterations.
    pub fn parse(word: &str) -> Option<Player> {
        if word == "random" {
            return Some(Player::Random);
        }
        if let Some(n) = word.strip_prefix("it").and_then(|n| n.parse().ok()) {
            return Some(Player::Iterations(n));
        }
        super::Level::parse(word).map(Player::Level)
    }

    /// This player's decision in `game`, with chance from `seed`. Croquet is searched from
    /// its table whatever the player.
    pub fn decide(self, game: &AnyGame, seed: u64) -> Option<String> {
        match self {
            Player::Random => random_any(game, seed),
            Player::Level(level) => {
                best_any(game, level.budget(game.id()), seed).map(|f| f.decision)
            }
            Player::Iterations(n) => {
                best_any(game, super::Budget::iterations(n), seed).map(|f| f.decision)
            }
        }
    }
}

/// A game played out.
#[derive(Clone, Debug)]
pub struct Played {
    /// The game at its end (or where it was stopped).
    pub game: AnyGame,
    /// How it ended; `None` if it was stopped at the ply limit.
    pub outcome: Option<Outcome>,
    /// Decisions made.
    pub plies: usize,
    /// Time spent deciding, and decisions made, by White's side and by Black's.
    pub thinking: [(Duration, u32); 2],
}

impl Played {
    /// The score of `team`'s side: 1 a win, ½ a draw or a game stopped at the ply limit, 0 a
    /// loss.
    pub fn score(&self, team: Team) -> f64 {
        self.outcome.map_or(0.5, |o| o.result_for(team).score())
    }
}

/// Plays `game` on from its position: White's side (team) decided by `white`, Black's by
/// `black`, each decision's chance from a generator seeded with `seed`, for at most
/// `max_plies` decisions.
pub fn play_from(
    mut game: AnyGame,
    white: Player,
    black: Player,
    seed: u64,
    max_plies: usize,
) -> Played {
    let mut rng = Rng::new(seed);
    let mut thinking = [(Duration::ZERO, 0u32); 2];
    let mut plies = 0;
    while let Some(seat) = game.to_move() {
        if plies >= max_plies {
            break;
        }
        let side = usize::from(game.table().team_of(seat) != Team::WHITE);
        let player = [white, black][side];
        let started = Instant::now();
        let Some(text) = player.decide(&game, rng.next_u64()) else {
            break;
        };
        thinking[side].0 += started.elapsed();
        thinking[side].1 += 1;
        if let Err(e) = game.play_text(seat, &text) {
            // A decision the rules refuse is a defect of the search, never a move.
            panic!("{player:?} chose `{text}`, refused: {e:?}");
        }
        plies += 1;
    }
    Played {
        outcome: game.outcome(),
        game,
        plies,
        thinking,
    }
}

/// A new game of `id` played out (see [`play_from`]).
pub fn play(id: GameId, white: Player, black: Player, seed: u64, max_plies: usize) -> Played {
    play_from(AnyGame::new(id), white, black, seed, max_plies)
}

/// A match's score for its first player, with a 95 % interval (Wilson's, which stays honest
/// at a score of 0 or 1) and the Elo differences they mean.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Score {
    /// Games played.
    pub games: u32,
    /// The first player's mean score.
    pub mean: f64,
    /// The interval's ends.
    pub low: f64,
    pub high: f64,
}

impl Score {
    /// The score of `points` in `games` games.
    pub fn of(points: f64, games: u32) -> Score {
        const Z: f64 = 1.96;
        let n = f64::from(games.max(1));
        let mean = points / n;
        let shrink = 1.0 + Z * Z / n;
        let centre = (mean + Z * Z / (2.0 * n)) / shrink;
        let half = Z / shrink * (mean * (1.0 - mean) / n + Z * Z / (4.0 * n * n)).sqrt();
        Score {
            games,
            mean,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }

    /// The Elo difference a mean score of `p` means (a certain score is clamped at 99.9 %).
    pub fn elo(p: f64) -> f64 {
        -400.0 * (1.0 / p.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_s_interval_and_elo() {
        let s = Score::of(75.0, 100);
        assert!((s.mean - 0.75).abs() < 1e-9);
        assert!((s.low - 0.657).abs() < 1e-3 && (s.high - 0.825).abs() < 1e-3);
        let all = Score::of(100.0, 100);
        assert!((all.low - 0.963).abs() < 1e-3 && (all.high - 1.0).abs() < 1e-9);
        assert!((Score::elo(0.75) - 190.8).abs() < 0.1);
        assert_eq!(Score::elo(0.5), 0.0);
        assert_eq!(Player::parse("it300"), Some(Player::Iterations(300)));
        assert_eq!(
            Player::parse("good"),
            Some(Player::Level(super::super::Level::Good))
        );
        assert_eq!(Player::parse("sometimes"), None);
    }
}
