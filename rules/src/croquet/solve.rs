//! Perfect play: the exact value (win, loss or draw with best play, for the player to move) of
//! every position reachable from the start, and the moves that keep it.
//!
//! Croquet's positions form no cycles: a ball only moves back once after each miss, a second
//! miss ends the game, and passes come at most two in a row (after two, the bar is lifted and
//! both keeping-in runs are broken), so every line of play advances a ball before long. A memoised depth-first search therefore values every position from its
//! children; a position met again while it is still being valued would be a cycle, and is
//! counted a draw (none occurs). Positions are keyed by everything that decides the future and
//! nothing else: a bar of s and of 9 − s bar the same steps, so both are stored as the smaller.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::{Ball, Croquet, Status, Step};
use crate::game::{Game, Outcome};
use crate::hash::Fast;
use crate::seat::Seat;

/// The result with perfect play, for the player to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Value {
    /// He wins.
    Win,
    /// He loses.
    Loss,
    /// Neither can force a win.
    Draw,
}

impl Value {
    /// As the machine interface writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Loss => "loss",
            Value::Draw => "draw",
        }
    }

    fn code(self) -> i8 {
        match self {
            Value::Win => 1,
            Value::Loss => -1,
            Value::Draw => 0,
        }
    }

    fn from_code(code: i8) -> Value {
        match code {
            1 => Value::Win,
            -1 => Value::Loss,
            _ => Value::Draw,
        }
    }

    /// The value for the other player.
    pub fn flip(self) -> Value {
        Value::from_code(-self.code())
    }
}

const IN_PROGRESS: i8 = 2;

fn ball_key(b: &Ball) -> u64 {
    let status = match b.status {
        Status::Normal => 0,
        Status::InHoop => 1,
        Status::Missed => 2,
    };
    (b.pos as u64)
        | (b.target as u64 / 10) << 7
        | status << 11
        | (b.need as u64) << 13
        | (b.missed_once as u64) << 17
}

/// Everything about a position that decides its future, in 64 bits.
pub fn key(g: &Croquet) -> u64 {
    let bar = if g.bar == 0 {
        0
    } else {
        g.bar.min(9 - g.bar) as u64
    };
    ball_key(&g.balls[0])
        | ball_key(&g.balls[1]) << 18
        | (g.side.index() as u64) << 36
        | bar << 37
        | (g.run[0] as u64) << 40
        | (g.run[1] as u64) << 44
}

/// Values of positions, filled in as they are asked for.
#[derive(Clone, Default)]
pub struct Solver {
    memo: HashMap<u64, i8, Fast>,
}

/// A finished game's value for the player who would move next: the winner moved last, so a
/// loss; or a draw.
fn finished(outcome: Outcome) -> i8 {
    match outcome {
        Outcome::Winner { .. } => -1,
        Outcome::Draw { .. } => 0,
    }
}

/// The value for `mover` of the position `child` he moved to, whose own value (for its player
/// to move) is `v`. A finished child is judged by who won; otherwise the child's player to move
/// is the other, unless the other had to pass and it is the mover again.
fn for_mover(mover: Seat, child: &Croquet, v: i8) -> i8 {
    match child.outcome() {
        Some(Outcome::Winner { team, .. }) if team.index() == mover.index() => 1,
        Some(Outcome::Winner { .. }) => -1,
        Some(Outcome::Draw { .. }) => 0,
        None if child.side == mover => v,
        None => -v,
    }
}

impl Solver {
    /// How many positions have been valued.
    pub fn len(&self) -> usize {
        self.memo.len()
    }

    /// Whether nothing has been valued yet.
    pub fn is_empty(&self) -> bool {
        self.memo.is_empty()
    }

    /// The value of `g` for the player to move. A finished game has nobody to move: it is
    /// valued for the player who would have moved next, the loser (a loss), or drawn.
    pub fn value(&mut self, g: &Croquet) -> Value {
        Value::from_code(self.code(g))
    }

    fn code(&mut self, g: &Croquet) -> i8 {
        if let Some(outcome) = g.outcome() {
            return finished(outcome);
        }
        let k = key(g);
        match self.memo.get(&k) {
            Some(&IN_PROGRESS) => return 0,
            Some(&v) => return v,
            None => {}
        }
        self.memo.insert(k, IN_PROGRESS);
        let mut best = -1;
        for step in g.legal_steps() {
            let child = after(g, step);
            let v = self.code(&child);
            best = best.max(for_mover(g.side, &child, v));
        }
        self.memo.insert(k, best);
        best
    }

    /// The moves that keep the value of `g`, in the fixed order of the legal moves.
    pub fn best(&mut self, g: &Croquet) -> (Value, Vec<Step>) {
        let value = self.value(g);
        let mut best = Vec::new();
        for step in g.legal_steps() {
            if self.value_after(g, step) == value {
                best.push(step);
            }
        }
        (value, best)
    }

    /// The value for the player to move in `g` if he plays `step`.
    pub fn value_after(&mut self, g: &Croquet, step: Step) -> Value {
        let child = after(g, step);
        let v = self.code(&child);
        Value::from_code(for_mover(g.side, &child, v))
    }

    /// The stored value of `g`, without computing anything.
    pub fn lookup(&self, g: &Croquet) -> Option<Value> {
        if let Some(outcome) = g.outcome() {
            return Some(Value::from_code(finished(outcome)));
        }
        match self.memo.get(&key(g)) {
            Some(&IN_PROGRESS) | None => None,
            Some(&v) => Some(Value::from_code(v)),
        }
    }

    /// The stored value of `g` and the moves that keep it, if every child is stored.
    pub fn lookup_best(&self, g: &Croquet) -> Option<(Value, Vec<Step>)> {
        let value = self.lookup(g)?;
        let mut best = Vec::new();
        for step in g.legal_steps() {
            let child = after(g, step);
            let v = self.lookup(&child)?;
            if Value::from_code(for_mover(g.side, &child, v.code())) == value {
                best.push(step);
            }
        }
        Some((value, best))
    }
}

/// The game after the side to move plays `step` (which must be legal).
pub fn after(g: &Croquet, step: Step) -> Croquet {
    let mut child = g.clone();
    let seat: Seat = g.side;
    let _ = child.play(seat, &step);
    child
}

/// Every position reachable from the start, valued once and shared (built on first use).
pub fn table() -> &'static Solver {
    static TABLE: OnceLock<Solver> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut solver = Solver::default();
        solver.value(&Croquet::new());
        solver
    })
}

/// The value of `g` and its best moves, from the shared table where it has the position (every
/// position of a game played from the start), else computed afresh.
pub fn analyse(g: &Croquet) -> (Value, Vec<Step>) {
    match table().lookup_best(g) {
        Some(found) => found,
        None => Solver::default().best(g),
    }
}
