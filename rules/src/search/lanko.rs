//! Lanko for the search: a move is one choice (its legal moves are few, a few dozen), captures
//! first, then moves that bring a castle home, then the rest. Positions are valued by the score
//! the board gives each side (K-9) and by what its castles stand to gain: a castle near a free
//! middle (end) square is worth part of the points it would gain there. With that in the
//! evaluation, playouts are short (six moves). The bot declares (K-8) only when that ends a
//! game its pair leads.

use super::{Position, Rng, logistic};
use crate::Game;
use crate::lanko::{Lanko, LankoMove, Layout, Role, Sq, movable};
use crate::seat::Seat;

/// The share of its gain a castle one move from a free middle (end) square counts for.
const NEXT_TO_GOAL: f64 = 0.8;
/// And how that share shrinks with each further move to go.
const PER_SQUARE: f64 = 0.7;
/// The points difference that makes a value of 0.73 (the logistic curve's scale).
const SCALE: f64 = 6.0;

/// What each side's castles stand to gain by reaching the free middle (end) squares, in points
/// (K-9: a castle's points triple there). A castle `d` moves from the nearest free one counts
/// for `NEXT_TO_GOAL · PER_SQUARE^(d-1)` of its gain, the moves counted round pieces and
/// barriers ([`moves_to_goal`]). A castle that cannot get there, or that only seats which have
/// declared may move, counts for nothing; as many castles count for each side as there are
/// free squares, its nearest first.
pub fn prospects(game: &Lanko) -> [f64; 2] {
    let board = game.board();
    let cells = game.cells();
    let free = board
        .goals()
        .filter(|g| cells[*g as usize].is_none())
        .count();
    if free == 0 {
        return [0.0, 0.0];
    }
    let to_go = moves_to_goal(game);
    let declared = game.declared();
    let mut gains: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
    for (sq, cell) in cells.iter().enumerate() {
        let Some(piece) = cell else { continue };
        let moves = to_go[sq];
        if !piece.kind.is_castle() || moves == u8::MAX {
            continue;
        }
        let sq = sq as Sq;
        let mover = (0..4)
            .filter_map(Seat::new)
            .any(|s| !declared[s.index()] && movable(board, cells, s, sq));
        if !mover {
            continue;
        }
        let gain = f64::from(piece.kind.points(true) - piece.kind.points(false));
        gains[usize::from(!piece.white)]
            .push(gain * NEXT_TO_GOAL * PER_SQUARE.powi(i32::from(moves.max(1)) - 1));
    }
    gains.map(|mut side| {
        side.sort_by(|a, b| b.total_cmp(a));
        side.iter().take(free).sum()
    })
}

/// For each square, the fewest moves a castle standing there needs to reach a free middle
/// (end) square, going only over empty squares and never across a barrier (`u8::MAX` where it
/// cannot, and for the goal squares themselves). The moves are rook steps on Lanko-88 and 68;
/// on Lanko-103 diagonal steps over dark squares, the last a straight step from a manoeuvre
/// square. Which way each seat calls forward is not counted: a seat's partner or the common
/// strip can usually turn a castle round.
pub fn moves_to_goal(game: &Lanko) -> Vec<u8> {
    let board = game.board();
    let cells = game.cells();
    let mut to_go = vec![u8::MAX; board.len()];
    let mut queue: std::collections::VecDeque<Sq> = board
        .goals()
        .filter(|g| cells[*g as usize].is_none())
        .collect();
    let diagonal = board.layout == Layout::Diagonal;
    // Outwards from the free goal squares: each square reached is one move further out.
    while let Some(sq) = queue.pop_front() {
        let here = board.info(sq).role;
        let next = if here.is_goal() {
            1
        } else {
            to_go[sq as usize] + 1
        };
        let dirs: &[usize] = match (diagonal, here.is_goal()) {
            (false, _) | (true, true) => &[0, 2, 4, 6],
            (true, false) => &[1, 3, 5, 7],
        };
        for &dir in dirs {
            if !diagonal && board.barred(sq, dir) {
                continue;
            }
            let Some(from) = board.neighbour(sq, dir) else {
                continue;
            };
            let info = board.info(from);
            let ground = match (diagonal, here.is_goal()) {
                (false, _) => info.role != Role::Unused,
                (true, true) => info.role == Role::Manoeuvre,
                (true, false) => info.dark,
            };
            if !ground || info.role.is_goal() || to_go[from as usize] != u8::MAX {
                continue;
            }
            to_go[from as usize] = next;
            // A castle may start from an occupied square (its own), but not pass one.
            if cells[from as usize].is_none() && next < u8::MAX - 1 {
                queue.push_back(from);
            }
        }
    }
    to_go
}

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
        // A declaration that ends a game the seat's pair leads wins it (K-8, K-9): it comes
        // first. The bot declares at no other time.
        if let Some(seat) = self.game.to_move() {
            let score = self.game.score();
            let ours = usize::from(!crate::lanko::plays_white(seat));
            if score[ours] > score[1 - ours] && self.game.declaring_ends(seat) {
                moves.insert(0, LankoMove::Declare);
            }
        }
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

    const PLAYOUT: u32 = 6;

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
        let [to_gain_w, to_gain_b] = prospects(&self.game);
        logistic((f64::from(w) + to_gain_w - f64::from(b) - to_gain_b) / SCALE)
    }

    fn playout_pick(&self, choices: &[u16], rng: &mut Rng) -> usize {
        if rng.below(3) != 0 {
            0
        } else {
            rng.below(choices.len())
        }
    }
}
