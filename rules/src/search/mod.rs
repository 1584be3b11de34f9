//! Monte Carlo tree search (UCT) over any game that implements [`Position`], pure: no I/O and no
//! threads of its own. A game's decision may be huge (a Lanrick turn moves up to five men; the
//! first version's set-up has 3.3 billion), so the search never lists whole decisions: it walks
//! them as their sequence of small choices — one man's step, one square — that the game offers
//! one at a time, best first by its own prior. Where a node still has many choices, only the
//! first few are tried until it has been visited often (progressive widening); a playout
//! continues with the game's playout policy for a bounded number of choices and is then valued
//! by the game's evaluation.
//!
//! A search is bounded by iterations and, if asked, by a deadline; with a given seed and an
//! iteration budget (and no deadline) it is reproducible.
//!
//! ```
//! use muster_rules::lanrick::Lanrick;
//! use muster_rules::search::{self, Budget, lanrick::LanrickSearch};
//! use muster_rules::{Game, Seat};
//!
//! let mut game = Lanrick::new();
//! game.play_text(Seat::WHITE, "a1").unwrap();
//! let found = search::best(&LanrickSearch::new(&game), Budget::iterations(200), 7).unwrap();
//! assert!(game.clone().play_text(Seat::BLACK, &found.decision).is_ok());
//! ```

pub mod lanko;
pub mod lanrick;
pub mod lanrick1880;
mod level;
pub mod self_play;

pub use level::{Level, MILLIS, best_any, decide, hopeless, random_any};

use std::fmt::Debug;
use std::time::Instant;

/// A small seeded generator (SplitMix64): the search's only source of chance.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5851_F42D_4C95_7F2D)
    }

    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// A number in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A game as the search sees it: a state whose decisions are made as a sequence of choices.
pub trait Position: Clone {
    /// One small choice (a man's step, a square).
    type Choice: Copy + PartialEq + Debug;

    /// Whose choice it is (a seat index); `None` once the game is over.
    fn chooser(&self) -> Option<usize>;
    /// The team of a seat: 0 for White's, 1 for Black's.
    fn team(&self, seat: usize) -> usize;
    /// The choices open now, best first by the game's prior; none once the game is over.
    fn choices(&self, out: &mut Vec<Self::Choice>);
    /// Makes a choice (one of [`Position::choices`]).
    fn choose(&mut self, choice: Self::Choice);
    /// Whether a decision (a move of the notation) is under way: some of its choices made, more
    /// to come.
    fn mid_decision(&self) -> bool;
    /// The notation of the last whole decision made.
    fn last_decision(&self) -> Option<String>;
    /// How good the position is for White's team, from 0 to 1: the result once the game is
    /// over, else the game's estimate.
    fn value(&self) -> f64;
    /// Choices a playout makes before the position is valued, unless the budget says
    /// otherwise: a game whose evaluation sees further needs shorter playouts.
    const PLAYOUT: u32 = 40;
    /// The playout policy's pick among `choices` (as [`Position::choices`] gave them): by
    /// default the first (the prior's best) half the time, else any.
    fn playout_pick(&self, choices: &[Self::Choice], rng: &mut Rng) -> usize {
        if rng.below(2) == 0 {
            0
        } else {
            rng.below(choices.len())
        }
    }
}

/// How much a search may do.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Budget {
    /// At most this many iterations.
    pub iterations: u64,
    /// And stop at this moment, if set (the search is then not reproducible).
    pub deadline: Option<Instant>,
    /// Choices a playout makes before the position is valued; `None` for the game's own
    /// length ([`Position::PLAYOUT`]).
    pub playout: Option<u32>,
    /// UCT's exploration constant.
    pub exploration: f64,
}

impl Budget {
    /// `iterations` iterations, with the game's playout length and the default exploration.
    pub fn iterations(iterations: u64) -> Budget {
        Budget {
            iterations,
            deadline: None,
            playout: None,
            exploration: 0.9,
        }
    }

    /// As many iterations as `millis` milliseconds from now allow (and at most `cap`).
    pub fn millis(millis: u64, cap: u64) -> Budget {
        Budget {
            deadline: Some(Instant::now() + std::time::Duration::from_millis(millis)),
            ..Budget::iterations(cap)
        }
    }
}

/// What a search found.
#[derive(Clone, PartialEq, Debug)]
pub struct Found {
    /// The decision, in the game's notation.
    pub decision: String,
    /// Its value for the player who decides, from 0 to 1 (the playouts' average).
    pub value: f64,
    /// Iterations run.
    pub iterations: u64,
    /// How often the decision's last choice was visited.
    pub visits: u32,
}

struct Node<C> {
    /// The choice that led here (none at the root).
    choice: Option<C>,
    /// The team that made that choice.
    team: u8,
    visits: u32,
    /// The sum of the values, for `team`.
    total: f64,
    children: Vec<u32>,
    /// The choices not yet made into children, best first; `None` until first needed.
    untried: Option<Vec<C>>,
    /// How many of `untried` have been taken.
    taken: usize,
}

impl<C> Node<C> {
    fn new(choice: Option<C>, team: u8) -> Node<C> {
        Node {
            choice,
            team,
            visits: 0,
            total: 0.0,
            children: Vec::new(),
            untried: None,
            taken: 0,
        }
    }
}

/// How many children a node visited `visits` times may have (progressive widening: two, then
/// growing with the square root of its visits).
fn widened(visits: u32) -> usize {
    2 + ((visits as f64).sqrt() * 1.5) as usize
}

/// Searches from `root` within `budget`, with chance from `seed`; the best decision for the
/// player to decide, `None` if the game is over or a decision is already under way.
pub fn best<P: Position>(root: &P, budget: Budget, seed: u64) -> Option<Found> {
    let seat = root.chooser()?;
    if root.mid_decision() {
        return None;
    }
    let mut rng = Rng::new(seed);
    let mut tree: Vec<Node<P::Choice>> = vec![Node::new(None, root.team(seat) as u8)];
    let mut path: Vec<u32> = Vec::with_capacity(64);
    let mut scratch: Vec<P::Choice> = Vec::with_capacity(64);
    let mut iterations = 0;
    while iterations < budget.iterations.max(1) {
        if iterations % 64 == 0
            && iterations > 0
            && budget.deadline.is_some_and(|d| Instant::now() >= d)
        {
            break;
        }
        iterations += 1;
        let mut state = root.clone();
        descend(
            &mut tree,
            &mut state,
            &mut path,
            &mut scratch,
            budget.exploration,
        );
        // A playout of a bounded number of choices, then the position's value.
        let length = budget.playout.unwrap_or(P::PLAYOUT);
        playout(&mut state, length, &mut scratch, &mut rng);
        let white = state.value().clamp(0.0, 1.0);
        back_up(&mut tree, &path, white);
    }
    // The decision: the most visited choices from the root until the decision is whole.
    let (mut state, value, visits) = most_visited(root, &tree);
    // A decision the tree did not finish is finished by the prior.
    finish_by_prior(&mut state, &mut scratch);
    Some(Found {
        decision: state.last_decision()?,
        value,
        iterations,
        visits,
    })
}

/// One walk down the tree from the root, making its choices on `state` and noting the nodes
/// passed in `path`: it ends on a new child where a node may widen, else goes on by UCT until
/// the game is over or a node has no child.
fn descend<P: Position>(
    tree: &mut Vec<Node<P::Choice>>,
    state: &mut P,
    path: &mut Vec<u32>,
    scratch: &mut Vec<P::Choice>,
    exploration: f64,
) {
    let mut at = 0u32;
    path.clear();
    path.push(0);
    // Down the tree: widen where a node may have another child, else the best by UCT.
    while let Some(chooser) = state.chooser() {
        let node = &mut tree[at as usize];
        if node.untried.is_none() {
            scratch.clear();
            state.choices(scratch);
            node.untried = Some(scratch.clone());
        }
        let untried = node.untried.as_ref().map_or(0, Vec::len);
        let can_widen = node.taken < untried && node.children.len() < widened(node.visits);
        if can_widen {
            let choice = node.untried.as_ref().expect("listed")[node.taken];
            node.taken += 1;
            let team = state.team(chooser) as u8;
            state.choose(choice);
            let child = tree.len() as u32;
            tree.push(Node::new(Some(choice), team));
            tree[at as usize].children.push(child);
            path.push(child);
            break;
        }
        if node.children.is_empty() {
            break;
        }
        at = uct_child(tree, at, exploration);
        let choice = tree[at as usize].choice.expect("a child has a choice");
        state.choose(choice);
        path.push(at);
    }
}

/// The child of `at` with the best UCT score for exploration constant `c` (an unvisited child
/// first), the earliest of equals.
fn uct_child<C>(tree: &[Node<C>], at: u32, c: f64) -> u32 {
    let node = &tree[at as usize];
    let parent_visits = (node.visits.max(1) as f64).ln();
    let mut best = (f64::NEG_INFINITY, 0u32);
    for &child in &node.children {
        let n = &tree[child as usize];
        let score = if n.visits == 0 {
            f64::INFINITY
        } else {
            n.total / n.visits as f64 + c * (parent_visits / n.visits as f64).sqrt()
        };
        if score > best.0 {
            best = (score, child);
        }
    }
    best.1
}

/// A playout from `state` of at most `length` choices by the game's playout policy, stopping
/// early when the game is over or offers no choice.
fn playout<P: Position>(state: &mut P, length: u32, scratch: &mut Vec<P::Choice>, rng: &mut Rng) {
    for _ in 0..length {
        if state.chooser().is_none() {
            break;
        }
        scratch.clear();
        state.choices(scratch);
        if scratch.is_empty() {
            break;
        }
        let pick = state.playout_pick(scratch, rng).min(scratch.len() - 1);
        state.choose(scratch[pick]);
    }
}

/// Counts a visit of every node on `path` and adds the playout's value (`white`, for White's
/// team) for the team that made the node's choice.
fn back_up<C>(tree: &mut [Node<C>], path: &[u32], white: f64) {
    for &n in path {
        let node = &mut tree[n as usize];
        node.visits += 1;
        node.total += if node.team == 0 { white } else { 1.0 - white };
    }
}

/// The decision the tree chose: the most visited choices from the root (the earliest of
/// equals) until the decision is whole or the tree ends, made on a copy of `root`; with the
/// value and visits of the last choice's node (the root's, if it has no child).
fn most_visited<P: Position>(root: &P, tree: &[Node<P::Choice>]) -> (P, f64, u32) {
    let mut state = root.clone();
    let mut at = 0u32;
    let mut value = tree[0].total / tree[0].visits.max(1) as f64;
    let mut visits = tree[0].visits;
    loop {
        let node = &tree[at as usize];
        let Some(&child) = node
            .children
            .iter()
            .max_by_key(|c| (tree[**c as usize].visits, std::cmp::Reverse(**c)))
        else {
            break;
        };
        let n = &tree[child as usize];
        state.choose(n.choice.expect("a child has a choice"));
        value = n.total / n.visits.max(1) as f64;
        visits = n.visits;
        at = child;
        if !state.mid_decision() {
            break;
        }
    }
    (state, value, visits)
}

/// Finishes a decision the tree did not finish with the prior's first choices.
fn finish_by_prior<P: Position>(state: &mut P, scratch: &mut Vec<P::Choice>) {
    while state.mid_decision() {
        scratch.clear();
        state.choices(scratch);
        let Some(first) = scratch.first() else { break };
        state.choose(*first);
    }
}

/// A uniformly random decision for the player to decide, made choice by choice: what the
/// ladder's weakest player plays.
pub fn random<P: Position>(root: &P, rng: &mut Rng) -> Option<String> {
    root.chooser()?;
    let mut state = root.clone();
    let mut choices = Vec::new();
    loop {
        choices.clear();
        state.choices(&mut choices);
        if choices.is_empty() {
            return None;
        }
        state.choose(choices[rng.below(choices.len())]);
        if !state.mid_decision() {
            return state.last_decision();
        }
    }
}

/// The logistic curve: a score (positive good for White) as a value from 0 to 1.
pub(crate) fn logistic(score: f64) -> f64 {
    1.0 / (1.0 + (-score).exp())
}
