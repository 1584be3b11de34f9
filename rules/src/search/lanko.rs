//! Lanko for the search: a move is one choice (its legal moves are few, a few dozen), captures
//! first, then moves that bring a castle home, then the rest. Positions are valued by the score
//! the board gives each side (K-9). The bot does not declare (a declaration is never needed to
//! play on).

use super::{Position, Rng, logistic};
use crate::Game;
use crate::lanko::{Lanko, LankoMove};
use crate::seat::Seat;

/// A Lanko game as the search plays it.
#[derive(Clone, Debug)]
pub struct LankoSearch {
    game: Lanko,
    /// The last move made, in notation (which depends on the position it was made in).
    last: Option<String>,
    /// The ordered moves of the position as it stands, once listed (a playout lists them, then
    /// picks one).
    listed: std::cell::RefCell<Option<Vec<LankoMove>>>,
}

impl LankoSearch {
    /// The search's view of `game`.
    pub fn new(game: &Lanko) -> LankoSearch {
        LankoSearch {
            game: game.clone(),
            last: None,
            listed: std::cell::RefCell::new(None),
        }
    }

    /// The legal moves, best first by the prior.
    fn ordered(&self) -> Vec<LankoMove> {
        let board = self.game.board();
        let goal = |sq: &u8| board.info(*sq).role.is_goal();
        let mut moves = self.game.legal_moves();
        let rank = |m: &LankoMove| match m {
            LankoMove::Capture(path) => 0i32 - path.len() as i32,
            LankoMove::Step { to, .. } | LankoMove::Jump { to, .. } if goal(to) => 1,
            _ => 2,
        };
        moves.sort_by_cached_key(rank);
        moves
    }
}

impl Position for LankoSearch {
    type Choice = u16;

    fn chooser(&self) -> Option<usize> {
        self.game.to_move().map(Seat::index)
    }

    fn team(&self, seat: usize) -> usize {
        seat % 2
    }

    fn choices(&self, out: &mut Vec<u16>) {
        if self.game.to_move().is_some() {
            let moves = self.ordered();
            out.extend(0..moves.len() as u16);
            *self.listed.borrow_mut() = Some(moves);
        }
    }

    fn choose(&mut self, choice: u16) {
        let moves = self
            .listed
            .get_mut()
            .take()
            .unwrap_or_else(|| self.ordered());
        if let Some(mv) = moves.into_iter().nth(choice as usize) {
            self.last = Some(self.game.format_move(&mv));
            self.game.play_unchecked(&mv);
        }
    }

    fn mid_decision(&self) -> bool {
        false
    }

    fn last_decision(&self) -> Option<String> {
        self.last.clone()
    }

    fn value(&self) -> f64 {
        if let Some(outcome) = self.game.outcome() {
            return outcome.result_for(crate::seat::Team::WHITE).score();
        }
        let [w, b] = self.game.score();
        logistic((w as f64 - b as f64) / 6.0)
    }

    fn playout_pick(&self, choices: &[u16], rng: &mut Rng) -> usize {
        if rng.below(3) != 0 {
            0
        } else {
            rng.below(choices.len())
        }
    }
}
