//! Turns of the play phase (Rules 2–4; L3-2 … L3-5).
//!
//! A turn is an ordered list of steps. [`check_turn`] reads a written turn step by step and says
//! exactly what is wrong with it; [`search`] walks every legal turn from a position, which gives
//! both the distinct positions a player can reach ([`distinct_turns`]) and the question Rule 5
//! asks of the mark: could the setter bring all his men in at once?

use std::collections::{HashMap, HashSet};

use crate::hash::Fast;

use super::board::{Axis, Direction, FIELD, Square, Squares, between, line_between, squares};

/// One step: a man moved any number of squares along one line.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Step {
    /// Where the man stands before the step.
    pub from: Square,
    /// Where the step ends.
    pub to: Square,
}

impl std::fmt::Display for Step {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// How often a man may be moved in one turn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ManRule {
    /// More than once, along one line through his starting square (Third Edition, Rule 4).
    SameLine,
    /// At most once (first version, Carroll's "safest rule" of June 1881).
    Once,
}

/// The most steps a turn can have: each step moves at least one square, and no budget exceeds
/// the five men a player starts with.
pub const MAX_STEPS: usize = 5;

/// A turn found by the search: at most [`MAX_STEPS`] steps, ordered first by length and then
/// step by step by square index, which is how the canonical turn to a position is chosen.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct Path {
    len: u8,
    steps: [Step; MAX_STEPS],
}

const NO_STEP: Step = Step {
    from: Square::A1,
    to: Square::A1,
};

impl Path {
    const EMPTY: Path = Path {
        len: 0,
        steps: [NO_STEP; MAX_STEPS],
    };

    fn with(mut self, step: Step) -> Path {
        self.steps[self.len as usize] = step;
        self.len += 1;
        self
    }

    /// The steps in order.
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }
}

/// A man during a turn: where he is, where he began, and the line he is bound to once moved.
#[derive(Clone, Copy, Debug)]
struct Man {
    at: Square,
    start: Square,
    axis: Option<Axis>,
}

fn axis_code(axis: Option<Axis>) -> u64 {
    match axis {
        None => 0,
        Some(Axis::File) => 1,
        Some(Axis::Rank) => 2,
        Some(Axis::Diagonal) => 3,
        Some(Axis::AntiDiagonal) => 4,
    }
}

#[derive(Clone, Copy)]
struct Node {
    men: [Man; MAX_STEPS],
    n: usize,
    own: Squares,
    used: u8,
    path: Path,
}

impl Node {
    /// The search state: budget used and, for each man, his square and line. Which man is which
    /// does not matter: a man's further steps depend only on where he is and the line he is
    /// bound to (the line through his square is the line through his starting square), so
    /// states that differ only by exchanging men are merged.
    fn key(&self) -> u64 {
        let mut codes = [0u64; MAX_STEPS];
        for (code, m) in codes.iter_mut().zip(&self.men[..self.n]) {
            *code = ((m.at.index() as u64) << 3) | axis_code(m.axis);
        }
        let codes = &mut codes[..self.n];
        codes.sort_unstable();
        codes
            .iter()
            .fold(self.used as u64, |key, code| (key << 9) | code)
    }
}

/// Visits every legal turn of the man set `own` against the men `opp`, with `budget` squares.
///
/// `visit(own_after, path)` is called for each turn's end (the first time each search state is
/// reached with its least path); a turn that brings all men into `zone` ends there (L3-5). The
/// least path (fewest steps, then by square index) to every reachable position is among those
/// visited.
pub fn search(
    own: Squares,
    opp: Squares,
    budget: u8,
    zone: Option<Squares>,
    rule: ManRule,
    mut visit: impl FnMut(Squares, &Path),
) {
    let limits = Limits {
        opp,
        budget,
        zone,
        rule,
    };
    let start = Node::start(own);
    let mut seen: HashSet<u64, Fast> = HashSet::default();
    seen.insert(start.key());
    let mut layer = vec![start];
    while !layer.is_empty() {
        let mut next: HashMap<u64, Node, Fast> = HashMap::default();
        for node in &layer {
            expand(node, &limits, &seen, &mut next, &mut visit);
        }
        layer = next.into_values().collect();
        for node in &layer {
            seen.insert(node.key());
            visit(node.own, &node.path);
        }
    }
}

/// What bounds a [`search`]: the adversary men, the budget, the rendezvous and the man rule.
struct Limits {
    opp: Squares,
    budget: u8,
    zone: Option<Squares>,
    rule: ManRule,
}

impl Node {
    /// The state before any step: each of the men of `own` (at most [`MAX_STEPS`]) unmoved.
    fn start(own: Squares) -> Node {
        let mut start = Node {
            men: [Man {
                at: Square::A1,
                start: Square::A1,
                axis: None,
            }; MAX_STEPS],
            n: 0,
            own,
            used: 0,
            path: Path::EMPTY,
        };
        for sq in squares(own).take(MAX_STEPS) {
            start.men[start.n] = Man {
                at: sq,
                start: sq,
                axis: None,
            };
            start.n += 1;
        }
        start
    }

    /// The state after man `i` steps `k` squares in `dir` to `to`.
    fn stepped(&self, i: usize, dir: Direction, k: u8, to: Square) -> Node {
        let man = self.men[i];
        let mut child = *self;
        child.men[i] = Man {
            at: to,
            start: man.start,
            axis: Some(dir.axis()),
        };
        child.own = self.own ^ man.at.bit() ^ to.bit();
        child.used = self.used + k;
        child.path = self.path.with(Step { from: man.at, to });
        child
    }
}

/// Every one-step successor of `node`: a turn that wins the rendezvous is visited at once
/// (L3-5); any other new state goes into `next`, keeping the least path to it.
fn expand(
    node: &Node,
    limits: &Limits,
    seen: &HashSet<u64, Fast>,
    next: &mut HashMap<u64, Node, Fast>,
    visit: &mut impl FnMut(Squares, &Path),
) {
    let occupied = node.own | limits.opp;
    let left = limits.budget.saturating_sub(node.used);
    for i in 0..node.n {
        let man = node.men[i];
        if limits.rule == ManRule::Once && man.axis.is_some() {
            continue;
        }
        let dirs: &[Direction] = match man.axis {
            None => &Direction::ALL,
            Some(axis) => &axis.directions(),
        };
        for &dir in dirs {
            for k in 1..=left {
                let Some(to) = man.at.go(dir, k) else { break };
                if occupied & to.bit() != 0 {
                    break;
                }
                let child = node.stepped(i, dir, k, to);
                if limits.zone.is_some_and(|z| child.own & !z == 0) {
                    visit(child.own, &child.path);
                    continue;
                }
                let key = child.key();
                if seen.contains(&key) {
                    continue;
                }
                match next.get_mut(&key) {
                    Some(old) if old.path <= child.path => {}
                    Some(old) => *old = child,
                    None => {
                        next.insert(key, child);
                    }
                }
            }
        }
    }
}

/// One canonical turn for each distinct position `own` can reach, sorted by the turns.
pub fn distinct_turns(
    own: Squares,
    opp: Squares,
    budget: u8,
    zone: Squares,
    rule: ManRule,
) -> Vec<(Squares, Path)> {
    let mut best: HashMap<Squares, Path, Fast> = HashMap::default();
    search(own, opp, budget, Some(zone), rule, |after, path| {
        best.entry(after)
            .and_modify(|p| {
                if *path < *p {
                    *p = *path;
                }
            })
            .or_insert(*path);
    });
    let mut turns: Vec<(Squares, Path)> = best.into_iter().collect();
    turns.sort_by_key(|(_, p)| *p);
    turns
}

/// The field squares on which a mark would make a rendezvous holding all of `men`.
#[cfg(test)]
fn covering_marks(men: Squares) -> Squares {
    squares(men).fold(FIELD, |acc, s| acc & s.zone())
}

/// The marks whose rendezvous holds none of `own` and into which `own` could bring every man
/// in one turn with his full budget: the second condition of Rule 5 (L3-9).
///
/// The search is exact, and small for a reason: with none of his men in the rendezvous each man
/// needs at least one square, and the budget is one square per man, so in any such turn every
/// man makes exactly one step of one square, onto a square that was empty before the turn (a
/// square another man left is outside the rendezvous). The search assigns each man one of his
/// empty neighbours, all different, and keeps the marks whose rendezvous holds every target.
/// `tests::one_square_search_agrees_with_the_full_search` checks this against [`search`].
pub fn reachable_marks(own: Squares, opp: Squares) -> Squares {
    let men: Vec<Square> = squares(own).collect();
    let outside = FIELD & !men.iter().fold(0, |acc, s| acc | s.zone());
    let mut found = 0;
    assign(
        &men,
        !(own | opp),
        outside,
        &mut Vec::new(),
        &mut |cover, _| {
            found |= cover;
            found
        },
    );
    found
}

/// A turn bringing all of `own` into the rendezvous of `mark` at once (see [`reachable_marks`]).
pub fn winning_turn(own: Squares, opp: Squares, mark: Square) -> Option<Vec<Step>> {
    let men: Vec<Square> = squares(own).collect();
    let mut turn = None;
    assign(
        &men,
        !(own | opp),
        mark.bit(),
        &mut Vec::new(),
        &mut |_, steps| {
            turn.get_or_insert_with(|| steps.to_vec());
            mark.bit()
        },
    );
    turn
}

/// Gives each man from `men[steps.len()..]` a distinct one-square step onto `free`, narrowing
/// `cover` to the marks whose rendezvous holds every target; `found` receives each complete
/// assignment and returns the marks already known, so branches that cannot add one are cut.
fn assign(
    men: &[Square],
    free: Squares,
    cover: Squares,
    steps: &mut Vec<Step>,
    found: &mut dyn FnMut(Squares, &[Step]) -> Squares,
) -> Squares {
    let Some(&from) = men.get(steps.len()) else {
        return found(cover, steps);
    };
    let mut known = 0;
    for dir in Direction::ALL {
        let Some(to) = from.go(dir, 1) else { continue };
        let narrowed = cover & to.zone();
        if free & to.bit() == 0 || narrowed & !known == 0 {
            continue;
        }
        steps.push(Step { from, to });
        known |= assign(men, free & !to.bit(), narrowed, steps, found);
        steps.pop();
    }
    known
}

/// The result of a written turn that obeys the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checked {
    /// The mover's men after the turn.
    pub own: Squares,
    /// Whether the last step brought all the mover's men into the rendezvous.
    pub won: bool,
}

/// Checks a written turn step by step (Rules 2–4, L3-2 … L3-5) and returns where it leaves the
/// mover's men, or a message saying which step is wrong and why.
pub fn check_turn(
    own: Squares,
    opp: Squares,
    budget: u8,
    zone: Squares,
    steps: &[Step],
    opponent: &str,
    rule: ManRule,
) -> Result<Checked, String> {
    let mut men: Vec<Man> = squares(own)
        .map(|s| Man {
            at: s,
            start: s,
            axis: None,
        })
        .collect();
    let mut own = own;
    let mut used: u32 = 0;
    let mut won = false;
    let written = steps
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    for (i, step) in steps.iter().enumerate() {
        if won {
            return Err(won_before(steps, i));
        }
        let (idx, dir, n) = check_step(&men, own, opp, *step, opponent, rule)?;
        let man = men[idx];
        used += n as u32;
        if used > budget as u32 {
            return Err(format!(
                "{written}: {used} squares exceed this turn's budget of {budget} (Rule 4)"
            ));
        }
        own ^= step.from.bit() ^ step.to.bit();
        men[idx] = Man {
            at: step.to,
            start: man.start,
            axis: Some(dir.axis()),
        };
        won = own & !zone == 0;
    }
    if steps.is_empty() {
        return Err("a turn must move at least one square".into());
    }
    Ok(Checked { own, won })
}

/// Why the steps from `steps[i]` on are too many: the rendezvous was won by the one before.
fn won_before(steps: &[Step], i: usize) -> String {
    format!(
        "all your men were in the rendezvous after {}; the rendezvous is won at that \
         moment and the turn ends there (Rule 6): leave out {}",
        steps[i - 1],
        steps[i..]
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    )
}

/// Checks one step of a turn against the men as they stand at that point of it (Rules 2, 4):
/// the index of the man it moves, its direction and its length, or what is wrong with it.
fn check_step(
    men: &[Man],
    own: Squares,
    opp: Squares,
    step: Step,
    opponent: &str,
    rule: ManRule,
) -> Result<(usize, Direction, u8), String> {
    let Some(idx) = men.iter().position(|m| m.at == step.from) else {
        return Err(if opp & step.from.bit() != 0 {
            format!(
                "{step}: the man on {} is {opponent}'s; move your own men",
                step.from
            )
        } else {
            format!(
                "{step}: there is no man of yours on {} at that point of the turn",
                step.from
            )
        });
    };
    let Some((dir, n)) = line_between(step.from, step.to) else {
        return Err(if step.from == step.to {
            format!("{step} does not move the man; every step moves at least one square")
        } else {
            format!(
                "{step}: {} is not on a rank, file or diagonal through {}; men move like \
                 chess queens (Rule 2)",
                step.to, step.from
            )
        });
    };
    let man = men[idx];
    if rule == ManRule::Once && man.axis.is_some() {
        return Err(format!(
            "{step}: the man that began this turn on {} has already moved; each man is moved at most once a turn (Carroll, June 1881)",
            man.start
        ));
    }
    if let Some(axis) = man.axis
        && axis != dir.axis()
    {
        return Err(format!(
            "{step}: the man that began this turn on {} has moved along {}; a man moved \
             more than once in a turn must keep to that line (Rule 4)",
            man.start,
            axis.describe(man.start)
        ));
    }
    let occupied = own | opp;
    if let Some(blocker) = squares(between(step.from, dir, n) & occupied).next() {
        return Err(format!(
            "{step} passes over the man on {blocker}; men may not pass over men (Rule 2)"
        ));
    }
    if occupied & step.to.bit() != 0 {
        return Err(format!("{step}: {} is occupied", step.to));
    }
    Ok((idx, dir, n))
}

/// The steps that may follow `prefix` in a turn (in square order): each makes `prefix` plus
/// that step a legal turn. Empty when `prefix` is itself not legal or has already won the
/// rendezvous. Every non-empty legal prefix is a legal turn (a turn may use less than its
/// budget), so a turn can be built up a step at a time from these.
pub fn next_steps(
    own: Squares,
    opp: Squares,
    budget: u8,
    zone: Squares,
    prefix: &[Step],
    rule: ManRule,
) -> Vec<Step> {
    let after = if prefix.is_empty() {
        own
    } else {
        match check_turn(own, opp, budget, zone, prefix, "", rule) {
            Ok(c) if !c.won => c.own,
            _ => return Vec::new(),
        }
    };
    let used: u32 = prefix
        .iter()
        .filter_map(|s| line_between(s.from, s.to))
        .map(|(_, n)| n as u32)
        .sum();
    let occupied = after | opp;
    let mut steps = prefix.to_vec();
    let mut out = Vec::new();
    for from in squares(after) {
        for to in squares(!occupied) {
            // Only the line rules are left to `check_turn`: the cheap tests come first.
            let Some((dir, n)) = line_between(from, to) else {
                continue;
            };
            if used + n as u32 > budget as u32 || between(from, dir, n) & occupied != 0 {
                continue;
            }
            steps.push(Step { from, to });
            if check_turn(own, opp, budget, zone, &steps, "", rule).is_ok() {
                out.push(Step { from, to });
            }
            steps.pop();
        }
    }
    out
}

#[cfg(test)]
mod tests;
