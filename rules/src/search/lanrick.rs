//! Lanrick (Third Edition) for the search, and the turn builder both editions share: a turn is
//! searched one man's step at a time, then ended (or ended by the rules: the budget spent, no
//! step left, the rendezvous won). The playouts move men towards the rendezvous; positions are
//! valued by the men taken and by the race to the rendezvous.

use super::{Position, Rng, logistic};
use crate::Game;
use crate::lanrick::common::{Common, Stage};
use crate::lanrick::{
    Axis, BORDER, Direction, Lanrick, LanrickMove, ManRule, Phase, Square, Squares, Step, squares,
};
use crate::seat::Seat;

/// One choice of a Lanrick decision.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Choice {
    /// A square: where a man is placed, where the mark goes, which man is taken, where the
    /// mark is shifted or the rendezvous chosen (1880), a man of the set-up (1880).
    Square(Square),
    /// A man's step in a turn, or a man moved to the border.
    Step(Step),
    /// The turn ends here.
    End,
}

/// How far `sq` is from the rendezvous around `mark`, in king steps (0 inside it).
pub(crate) fn distance(sq: Square, mark: Square) -> u8 {
    let df = (sq.file() as i8 - mark.file() as i8).unsigned_abs();
    let dr = (sq.rank() as i8 - mark.rank() as i8).unsigned_abs();
    df.max(dr).saturating_sub(1)
}

/// The sum of the distances of `men` from the rendezvous around `mark`.
pub(crate) fn spread(men: Squares, mark: Square) -> u32 {
    squares(men).map(|s| distance(s, mark) as u32).sum()
}

/// A man as the turn moves him: where he is, where he began, the line he is bound to.
#[derive(Clone, Copy, Debug)]
struct Man {
    at: Square,
    axis: Option<Axis>,
}

/// A turn being built step by step, under the same rules as the turn checker (Rules 2–4; the
/// first version's each man once).
#[derive(Clone, Debug)]
pub(crate) struct Turn {
    own: Squares,
    opp: Squares,
    zone: Squares,
    mark: Square,
    left: u8,
    rule: ManRule,
    men: Vec<Man>,
    pub(crate) steps: Vec<Step>,
    /// The last step brought every man into the rendezvous: the turn is over.
    pub(crate) won: bool,
}

impl Turn {
    /// A turn for the men `own` against `opp`, with `budget` squares, towards the rendezvous
    /// around `mark`.
    pub(crate) fn new(own: Squares, opp: Squares, mark: Square, budget: u8, rule: ManRule) -> Turn {
        Turn {
            own,
            opp,
            zone: mark.zone(),
            mark,
            left: budget,
            rule,
            men: squares(own).map(|at| Man { at, axis: None }).collect(),
            steps: Vec::new(),
            won: false,
        }
    }

    /// The steps that may come next, best first: those bringing a man nearer the rendezvous,
    /// the longest first.
    pub(crate) fn next(&self, out: &mut Vec<Step>) {
        let mark = self.mark;
        let mut keyed: Vec<(i16, Step)> = Vec::with_capacity(48);
        self.each_step(|s, n| {
            let gain = distance(s.to, mark) as i16 - distance(s.from, mark) as i16;
            // Nearer first, then longer, then the generation order (stable).
            keyed.push((gain * 8 - n as i16, s));
            true
        });
        keyed.sort_by_key(|(k, _)| *k);
        out.extend(keyed.into_iter().map(|(_, s)| s));
    }

    /// Calls `f` with each possible next step and its length, until `f` says to stop.
    fn each_step(&self, mut f: impl FnMut(Step, u8) -> bool) {
        if self.won {
            return;
        }
        let occupied = self.own | self.opp;
        for man in &self.men {
            let dirs: &[Direction] = match (self.rule, man.axis) {
                (ManRule::Once, Some(_)) => &[],
                (ManRule::SameLine, Some(axis)) => &axis.directions(),
                _ => &Direction::ALL,
            };
            for &dir in dirs {
                for n in 1..=self.left {
                    let Some(to) = man.at.go(dir, n) else { break };
                    if occupied & to.bit() != 0 {
                        break;
                    }
                    if !f(Step { from: man.at, to }, n) {
                        return;
                    }
                }
            }
        }
    }

    fn length(s: Step) -> u8 {
        let df = (s.from.file() as i8 - s.to.file() as i8).unsigned_abs();
        let dr = (s.from.rank() as i8 - s.to.rank() as i8).unsigned_abs();
        df.max(dr)
    }

    /// Makes the step.
    pub(crate) fn step(&mut self, s: Step) {
        let Some(i) = self.men.iter().position(|m| m.at == s.from) else {
            return;
        };
        let dir = Direction::ALL
            .into_iter()
            .find(|d| (1..=7).any(|n| s.from.go(*d, n) == Some(s.to)));
        self.men[i].at = s.to;
        self.men[i].axis = dir.map(Direction::axis);
        self.left = self.left.saturating_sub(Self::length(s));
        self.own ^= s.from.bit() ^ s.to.bit();
        self.steps.push(s);
        self.won = self.own & !self.zone == 0;
    }

    /// Whether the turn can go on: not won, and a step is left.
    pub(crate) fn can_go_on(&self) -> bool {
        let mut any = false;
        self.each_step(|_, _| {
            any = true;
            false
        });
        any
    }
}

/// A Lanrick game as the search plays it.
#[derive(Clone, Debug)]
pub struct LanrickSearch {
    game: Lanrick,
    turn: Option<Turn>,
    last: Option<LanrickMove>,
}

impl LanrickSearch {
    /// The search's view of `game`.
    pub fn new(game: &Lanrick) -> LanrickSearch {
        LanrickSearch {
            game: game.clone(),
            turn: None,
            last: None,
        }
    }

    /// The game as it stands (a turn under way not yet played).
    pub fn game(&self) -> &Lanrick {
        &self.game
    }

    fn seat(&self) -> Option<Seat> {
        self.game.to_move()
    }

    fn commit(&mut self, mv: LanrickMove) {
        if let Some(seat) = self.seat() {
            // The choices come from the rules, so the decision is legal; a refusal would leave
            // the game as it was and end the search's line there.
            let _ = self.game.play(seat, &mv);
        }
        self.turn = None;
        self.last = Some(mv);
    }

    fn end_turn(&mut self) {
        if let Some(turn) = self.turn.take() {
            self.commit(LanrickMove::Turn(turn.steps));
        }
    }
}

/// A race score: how much nearer White is to the rendezvous than Black, in turns, counting
/// whose turn it is.
pub(crate) fn race(men: [Squares; 2], mark: Square, to_move: Seat) -> f64 {
    let need = |i: usize| spread(men[i], mark) as f64 / (men[i].count_ones().max(1)) as f64;
    let tempo = if to_move == Seat::WHITE { 0.5 } else { -0.5 };
    need(1) - need(0) + tempo
}

/// White's value of a position of either edition (docs/ai.md): `per_man` for each man taken
/// ahead, 0.9 for the side about to take a man, and while racing the race to the rendezvous;
/// 1, ½ or 0 once the game is over.
pub(crate) fn evaluate<K: PartialEq + Copy>(c: &Common<K>, stage: Stage, per_man: f64) -> f64 {
    if let Some(outcome) = c.outcome {
        return outcome.result_for(crate::seat::Team::WHITE).score();
    }
    let taken = f64::from(c.taken[0]) - f64::from(c.taken[1]);
    let side = if c.side == Seat::WHITE { 1.0 } else { -1.0 };
    let now = match (stage, c.mark) {
        (Stage::Taking, _) => 0.9 * side,
        (Stage::Wanderers, _) => 0.2 * side,
        (Stage::Racing, Some(mark)) => 0.5 * (race(c.men, mark, c.side) / 2.0).tanh(),
        _ => 0.0,
    };
    logistic(per_man * taken + now)
}

impl Position for LanrickSearch {
    type Choice = Choice;

    fn chooser(&self) -> Option<usize> {
        self.seat().map(Seat::index)
    }

    fn team(&self, seat: usize) -> usize {
        seat
    }

    fn choices(&self, out: &mut Vec<Choice>) {
        let Some(seat) = self.seat() else { return };
        let g = &self.game;
        match g.phase() {
            Phase::Placement => {
                // Border squares nearest the middle of their edge first.
                let mut free: Vec<Square> = squares(BORDER & !g.occupied()).collect();
                free.sort_by_cached_key(|s| {
                    let mid = |v: u8| (2 * v as i8 - 7).unsigned_abs();
                    (mid(s.file()).min(mid(s.rank())), s.index())
                });
                out.extend(free.into_iter().map(Choice::Square));
            }
            Phase::Mark => {
                // Marks the setter's men are near and the opponent's far from, first.
                let mut marks: Vec<Square> = squares(g.legal_marks()).collect();
                let (own, opp) = (g.men(seat), g.men(seat.opponent()));
                marks.sort_by_cached_key(|m| {
                    (spread(own, *m) as i32 - spread(opp, *m) as i32, m.index())
                });
                out.extend(marks.into_iter().map(Choice::Square));
            }
            Phase::Play => match &self.turn {
                Some(turn) => {
                    let mut steps = Vec::new();
                    turn.next(&mut steps);
                    let gaining = steps
                        .iter()
                        .take_while(|s| distance(s.to, turn.mark) < distance(s.from, turn.mark))
                        .count();
                    out.extend(steps[..gaining].iter().map(|s| Choice::Step(*s)));
                    out.push(Choice::End);
                    out.extend(steps[gaining..].iter().map(|s| Choice::Step(*s)));
                }
                None => {
                    let (Some(mark), Some(budget)) = (g.mark(), g.budget()) else {
                        return;
                    };
                    let turn = Turn::new(
                        g.men(seat),
                        g.men(seat.opponent()),
                        mark,
                        budget,
                        ManRule::SameLine,
                    );
                    let mut steps = Vec::new();
                    turn.next(&mut steps);
                    out.extend(steps.into_iter().map(Choice::Step));
                }
            },
            Phase::Capture => out.extend(
                squares(g.men(seat.opponent()) & !g.rendezvous().unwrap_or(0)).map(Choice::Square),
            ),
            Phase::Wanderers | Phase::Equalise | Phase::Return => {
                out.extend(g.legal_moves().into_iter().filter_map(|m| match m {
                    LanrickMove::ToBorder(s) => Some(Choice::Step(s)),
                    _ => None,
                }))
            }
            Phase::Over => {}
        }
    }

    fn choose(&mut self, choice: Choice) {
        let Some(seat) = self.seat() else { return };
        match (self.game.phase(), choice) {
            (Phase::Placement, Choice::Square(s)) => self.commit(LanrickMove::Place(s)),
            (Phase::Mark, Choice::Square(s)) => self.commit(LanrickMove::Mark(s)),
            (Phase::Capture, Choice::Square(s)) => self.commit(LanrickMove::Take(s)),
            (Phase::Play, Choice::End) => self.end_turn(),
            (Phase::Play, Choice::Step(step)) => {
                if self.turn.is_none() {
                    let g = &self.game;
                    let (Some(mark), Some(budget)) = (g.mark(), g.budget()) else {
                        return;
                    };
                    self.turn = Some(Turn::new(
                        g.men(seat),
                        g.men(seat.opponent()),
                        mark,
                        budget,
                        ManRule::SameLine,
                    ));
                }
                if let Some(turn) = self.turn.as_mut() {
                    turn.step(step);
                    if !turn.can_go_on() {
                        self.end_turn();
                    }
                }
            }
            (_, Choice::Step(step)) => self.commit(LanrickMove::ToBorder(step)),
            _ => {}
        }
    }

    fn mid_decision(&self) -> bool {
        self.turn.is_some()
    }

    fn last_decision(&self) -> Option<String> {
        self.last.as_ref().map(|m| self.game.format_move(m))
    }

    fn value(&self) -> f64 {
        evaluate(self.game.common(), self.game.stage(), 1.1)
    }

    fn playout_pick(&self, choices: &[Choice], rng: &mut Rng) -> usize {
        // Mostly the prior's first few: men towards the rendezvous, an end when nothing gains.
        if rng.below(4) != 0 {
            rng.below(choices.len().min(3))
        } else {
            rng.below(choices.len())
        }
    }
}
