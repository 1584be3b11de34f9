//! Lanrick's first version for the search. The set-up (3.3 billion ways to set ten men) is
//! searched square by square: White's five men in ascending order of their squares, then
//! Black's, so that each set of squares is reached one way only. A turn is searched step by
//! step as in the Third Edition (each man once), a shift of the mark is one choice.

use super::lanrick::{Choice, Turn, distance, evaluate, spread};
use super::{Position, Rng};
use crate::Game;
use crate::lanrick::{BORDER, ManRule, Square, Squares, squares};
use crate::lanrick1880::{Lanrick1880, Move, Phase};
use crate::seat::Seat;

/// A first-version game as the search plays it.
#[derive(Clone, Debug)]
pub struct Lanrick1880Search {
    game: Lanrick1880,
    /// The set-up chosen so far: White's men, then Black's.
    setup: Vec<Square>,
    turn: Option<Turn>,
    last: Option<Move>,
}

impl Lanrick1880Search {
    /// The search's view of `game`.
    pub fn new(game: &Lanrick1880) -> Lanrick1880Search {
        Lanrick1880Search {
            game: game.clone(),
            setup: Vec::new(),
            turn: None,
            last: None,
        }
    }

    fn commit(&mut self, mv: Move) {
        if let Some(seat) = self.game.to_move() {
            let _ = self.game.play(seat, &mv);
        }
        self.turn = None;
        self.setup.clear();
        self.last = Some(mv);
    }

    fn new_turn(&self, seat: Seat) -> Option<Turn> {
        let g = &self.game;
        Some(Turn::new(
            g.men(seat),
            g.men(seat.opponent()),
            g.mark()?,
            g.budget()?,
            ManRule::Once,
        ))
    }
}

/// The border squares still free for the set-up's next man: after the last of the same colour
/// (ascending), and not taken by the other colour.
fn setup_squares(chosen: &[Square]) -> Vec<Square> {
    let (white, black) = chosen.split_at(chosen.len().min(5));
    let last = if chosen.len() < 5 {
        white.last()
    } else {
        black.last()
    };
    let used: Squares = chosen.iter().fold(0, |a, s| a | s.bit());
    let left_after = 4 - (chosen.len() % 5);
    let mut free: Vec<Square> = squares(BORDER & !used)
        .filter(|s| last.is_none_or(|l| s.index() > l.index()))
        .collect();
    // Room must be left for the colour's remaining men.
    let keep = free.len().saturating_sub(left_after);
    free.truncate(keep);
    free
}

impl Position for Lanrick1880Search {
    type Choice = Choice;

    fn chooser(&self) -> Option<usize> {
        self.game.to_move().map(Seat::index)
    }

    fn team(&self, seat: usize) -> usize {
        seat
    }

    fn choices(&self, out: &mut Vec<Choice>) {
        let Some(seat) = self.game.to_move() else {
            return;
        };
        let g = &self.game;
        match g.phase() {
            Phase::Setup => out.extend(setup_squares(&self.setup).into_iter().map(Choice::Square)),
            Phase::Choose => {
                // Centres far from the first player's men and near the chooser's, first.
                let mut centres: Vec<Square> = squares(g.legal_centres()).collect();
                let (own, opp) = (g.men(seat), g.men(seat.opponent()));
                centres.sort_by_cached_key(|c| {
                    (spread(own, *c) as i32 - spread(opp, *c) as i32, c.index())
                });
                out.extend(centres.into_iter().map(Choice::Square));
            }
            Phase::Play => match &self.turn {
                Some(turn) => {
                    let mut steps = Vec::new();
                    turn.next(&mut steps);
                    let mark = g.mark().unwrap_or(Square::A1);
                    let gaining = steps
                        .iter()
                        .take_while(|s| distance(s.to, mark) < distance(s.from, mark))
                        .count();
                    out.extend(steps[..gaining].iter().map(|s| Choice::Step(*s)));
                    out.push(Choice::End);
                    out.extend(steps[gaining..].iter().map(|s| Choice::Step(*s)));
                }
                None => {
                    let mut steps = Vec::new();
                    if let Some(turn) = self.new_turn(seat) {
                        turn.next(&mut steps);
                    }
                    out.extend(steps.into_iter().map(Choice::Step));
                    out.extend(g.legal_shifts().into_iter().map(Choice::Square));
                }
            },
            Phase::Capture => out.extend(
                squares(g.men(seat.opponent()) & !g.rendezvous().unwrap_or(0)).map(Choice::Square),
            ),
            Phase::Wanderers => out.extend(g.legal_moves().into_iter().filter_map(|m| match m {
                Move::ToBorder(s) => Some(Choice::Step(s)),
                _ => None,
            })),
            Phase::Over => {}
        }
    }

    fn choose(&mut self, choice: Choice) {
        let Some(seat) = self.game.to_move() else {
            return;
        };
        match (self.game.phase(), choice) {
            (Phase::Setup, Choice::Square(s)) => {
                self.setup.push(s);
                if self.setup.len() == 10 {
                    let set = |men: &[Square]| men.iter().fold(0, |a, s| a | s.bit());
                    let (white, black) = (set(&self.setup[..5]), set(&self.setup[5..]));
                    self.commit(Move::Setup { white, black });
                }
            }
            (Phase::Choose, Choice::Square(s)) => self.commit(Move::Choose(s)),
            (Phase::Capture, Choice::Square(s)) => self.commit(Move::Take(s)),
            (Phase::Play, Choice::Square(s)) => self.commit(Move::Shift(s)),
            (Phase::Play, Choice::End) => {
                if let Some(turn) = self.turn.take() {
                    self.commit(Move::Turn(turn.steps));
                }
            }
            (Phase::Play, Choice::Step(step)) => {
                if self.turn.is_none() {
                    self.turn = self.new_turn(seat);
                }
                let done = self.turn.as_mut().is_none_or(|turn| {
                    turn.step(step);
                    !turn.can_go_on()
                });
                if done && let Some(turn) = self.turn.take() {
                    self.commit(Move::Turn(turn.steps));
                }
            }
            (Phase::Wanderers, Choice::Step(step)) => self.commit(Move::ToBorder(step)),
            _ => {}
        }
    }

    fn mid_decision(&self) -> bool {
        self.turn.is_some() || !self.setup.is_empty()
    }

    fn last_decision(&self) -> Option<String> {
        self.last.as_ref().map(|m| self.game.format_move(m))
    }

    fn value(&self) -> f64 {
        evaluate(self.game.common(), self.game.stage(), 0.9)
    }

    fn playout_pick(&self, choices: &[Choice], rng: &mut Rng) -> usize {
        if self.game.phase() == Phase::Setup || rng.below(4) == 0 {
            rng.below(choices.len())
        } else {
            rng.below(choices.len().min(3))
        }
    }
}
