//! Swiss pairing after the Dutch system's essentials (FIDE Handbook C.04.3, simplified):
//!
//! - players are ordered by score, then by their initial rank (seed);
//! - within a score group the top half meets the bottom half (1st v (n/2+1)th, …); a player
//!   who cannot be paired in his group — the lowest of an odd group — floats down to the next;
//! - no two players meet twice;
//! - colours: nobody gets the same colour three times in a row, and nobody's Whites and Blacks
//!   differ by more than two; otherwise each gets the colour he is due (the one he has had
//!   less, else the other than last time), the higher-ranked player's when both are due the
//!   same; in the first round the top seed has White and the boards alternate;
//! - in an odd field the lowest-ranked player of the lowest score group who has not had a bye
//!   gets one (at most one a player);
//! - withdrawn players are not paired.
//!
//! The search tries the Dutch order first and backtracks, so the first pairing found is the
//! one the system prefers among those that keep every rule. If the colour rules make a round
//! impossible (tiny fields late in an event), they are relaxed for that round, never the rule
//! against meeting twice; if even that fails there is no pairing and the event should end.
//!
//! The search has a budget (nodes visited per pass). When the strict pass uses it up without
//! an answer, the pairing is not known to be impossible: the relaxed pass is tried, and its
//! pairing says that the strict search gave up ([`Paired::gave_up`]). When the relaxed pass
//! gives up too, the answer is [`NoPairing::GaveUp`], which is not a proof that no pairing
//! exists: an event must not end on it.

use super::{Field, Pairing, Round};

/// Why no round could be paired.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NoPairing {
    /// No pairing exists without two players meeting again: the search tried every way.
    Impossible,
    /// The search used up its budget before it found a pairing or could tell that none exists.
    GaveUp,
}

/// A paired round, and whether the colour rules had to be relaxed to pair it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Paired {
    /// The round.
    pub round: Round,
    /// Whether a colour rule was relaxed.
    pub colours_relaxed: bool,
    /// Whether they were relaxed because the strict search used up its budget (rather than
    /// because no pairing keeps them).
    pub gave_up: bool,
}

/// What a player has had so far.
#[derive(Clone, Default, Debug)]
struct Past {
    /// Opponents met.
    met: Vec<usize>,
    /// Colours of the games played, in order: `true` for White.
    colours: Vec<bool>,
    /// Whether he has had a bye.
    bye: bool,
}

impl Past {
    fn difference(&self) -> i32 {
        self.colours.iter().map(|&w| if w { 1 } else { -1 }).sum()
    }

    /// Whether he may have White (`white`) in the next game under the absolute rules.
    fn may_have(&self, white: bool) -> bool {
        let d = self.difference() + if white { 1 } else { -1 };
        let last_two = self.colours.len() >= 2
            && self.colours[self.colours.len() - 2..]
                .iter()
                .all(|&c| c == white);
        d.abs() <= 2 && !last_two
    }

    /// The colour he is due, and how strongly (2: his Whites and Blacks differ, 1: he alternates,
    /// 0: no preference).
    fn due(&self) -> (Option<bool>, u8) {
        let d = self.difference();
        match (d, self.colours.last()) {
            (d, _) if d != 0 => (Some(d < 0), 2),
            (_, Some(&last)) => (Some(!last), 1),
            (_, None) => (None, 0),
        }
    }
}

/// Pairs the next round of a Swiss event.
pub fn pair(field: &Field) -> Result<Paired, NoPairing> {
    pair_with(field, None, [BUDGET; 2])
}

/// [`pair`], with `rest` given the bye (in an odd field).
pub fn pair_resting(field: &Field, rest: usize) -> Result<Paired, NoPairing> {
    pair_with(field, Some(rest), [BUDGET; 2])
}

/// What each entrant has had so far, as the pairing rules count it: only games played over the
/// board are meetings and give colours; a pairing-allocated bye, and any round scored as a win
/// without playing (a forfeit won), rule out another bye (C.04.1, C.04.3 C.2).
fn pasts(field: &Field) -> Vec<Past> {
    let mut past = vec![Past::default(); field.entrants()];
    for round in &field.rounds {
        for (e, entry) in round.iter().enumerate().take(past.len()) {
            if let Some((opponent, white)) = entry.played() {
                past[e].met.push(opponent);
                past[e].colours.push(white);
            } else if entry.points() >= 2 {
                past[e].bye = true;
            }
        }
    }
    past
}

fn pair_with(field: &Field, forced: Option<usize>, budgets: [u32; 2]) -> Result<Paired, NoPairing> {
    let entrants = field.entrants();
    let past = pasts(field);
    let points: Vec<u32> = (0..entrants).map(|e| field.points(e)).collect();
    let withdrawn = &field.out;
    let score = |e: usize| points.get(e).copied().unwrap_or(0);
    // The order of the field: score, then initial rank.
    let mut order: Vec<usize> = (0..entrants)
        .filter(|e| !withdrawn.get(*e).copied().unwrap_or(false))
        .collect();
    order.sort_by(|a, b| score(*b).cmp(&score(*a)).then(a.cmp(b)));
    if order.len() < 2 {
        return Err(NoPairing::Impossible);
    }
    // The first round: nobody has a colour yet.
    let first = past.iter().all(|p| p.colours.is_empty());
    let mut gave_up = false;
    for (strict, budget) in [true, false].into_iter().zip(budgets) {
        let search = Search {
            past: &past,
            score: &score,
            strict,
            budget: std::cell::Cell::new(budget),
            exhausted: std::cell::Cell::new(false),
        };
        // The bye: the lowest-ranked of the lowest score group without one, such that the rest
        // can be paired; then the next lowest, and so on.
        let byes: Vec<Option<usize>> = if order.len() % 2 == 1 && forced.is_some() {
            vec![forced.filter(|f| order.contains(f))]
        } else if order.len() % 2 == 1 {
            // The lowest score first; in a score group, the one with the fewest rounds
            // unplayed (C.04.3 as from 2026), then the lowest ranked.
            let mut byes: Vec<usize> = order
                .iter()
                .rev()
                .copied()
                .filter(|e| !past[*e].bye)
                .collect();
            let unplayed = |e: usize| field.rounds.len() - past[e].colours.len();
            byes.sort_by_key(|e| (score(*e), unplayed(*e)));
            byes.into_iter().map(Some).collect()
        } else {
            vec![None]
        };
        for bye in byes {
            let field: Vec<usize> = order.iter().copied().filter(|e| Some(*e) != bye).collect();
            if let Some(games) = search.pair(&field) {
                let mut pairings: Vec<Pairing> = games
                    .into_iter()
                    .enumerate()
                    .map(|(board, (a, b))| search.colours(a, b, first, board))
                    .collect();
                // Board order: the better of each pair's players first.
                let rank = |e: usize| order.iter().position(|x| *x == e).unwrap_or(usize::MAX);
                pairings.sort_by_key(|p| rank(p.white).min(rank(p.black)));
                return Ok(Paired {
                    round: Round {
                        pairings,
                        rest: bye,
                    },
                    colours_relaxed: !strict,
                    gave_up,
                });
            }
        }
        gave_up |= search.exhausted.get();
    }
    Err(if gave_up {
        NoPairing::GaveUp
    } else {
        NoPairing::Impossible
    })
}

/// The nodes one pass of the search may visit.
const BUDGET: u32 = 200_000;

struct Search<'a> {
    past: &'a [Past],
    score: &'a dyn Fn(usize) -> u32,
    /// Whether the colour rules hold.
    strict: bool,
    /// Nodes left to visit before giving up on this pass.
    budget: std::cell::Cell<u32>,
    /// Whether the budget ran out on this pass.
    exhausted: std::cell::Cell<bool>,
}

impl Search<'_> {
    /// Whether `a` and `b` may meet.
    fn compatible(&self, a: usize, b: usize) -> bool {
        if self.past[a].met.contains(&b) {
            return false;
        }
        !self.strict
            || (self.past[a].may_have(true) && self.past[b].may_have(false))
            || (self.past[a].may_have(false) && self.past[b].may_have(true))
    }

    /// Pairs `field` (in order: score, then rank), preferring the Dutch order; the games as
    /// `(higher, lower)`.
    fn pair(&self, field: &[usize]) -> Option<Vec<(usize, usize)>> {
        let Some((&a, rest)) = field.split_first() else {
            return Some(Vec::new());
        };
        let left = self.budget.get();
        if left == 0 {
            self.exhausted.set(true);
            return None;
        }
        self.budget.set(left - 1);
        for b in self.candidates(a, rest) {
            if !self.compatible(a, b) {
                continue;
            }
            let others: Vec<usize> = rest.iter().copied().filter(|x| *x != b).collect();
            if let Some(mut games) = self.pair(&others) {
                games.insert(0, (a, b));
                return Some(games);
            }
        }
        None
    }

    /// The opponents to try for `a`, the first of the field, in the order the Dutch system
    /// prefers: the player half his score group below him, then the rest of the bottom half,
    /// then the top half nearest first, then the lower groups in order.
    fn candidates(&self, a: usize, rest: &[usize]) -> Vec<usize> {
        let group: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|x| (self.score)(*x) == (self.score)(a))
            .collect();
        let lower: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|x| (self.score)(*x) != (self.score)(a))
            .collect();
        // With `a`, the group has `group.len() + 1` players; `a` is its first, and his ideal
        // opponent is the first of the bottom half.
        let half = group.len().div_ceil(2);
        let mut out: Vec<usize> = Vec::with_capacity(rest.len());
        if half >= 1 && !group.is_empty() {
            out.extend(group.iter().skip(half - 1));
            out.extend(group.iter().take(half - 1).rev());
        }
        out.extend(lower);
        out
    }

    /// The colours of a game between `a` (the higher) and `b`, on `board` (from 0).
    fn colours(&self, a: usize, b: usize, first_round: bool, board: usize) -> Pairing {
        let (pa, pb) = (&self.past[a], &self.past[b]);
        let a_white = if first_round {
            board.is_multiple_of(2)
        } else {
            match (pa.due(), pb.due()) {
                ((Some(ca), sa), (Some(cb), sb)) if ca == cb => {
                    // Both are due the same colour: the stronger claim wins, else the higher.
                    if sb > sa { !cb } else { ca }
                }
                ((Some(ca), _), _) => ca,
                (_, (Some(cb), _)) => !cb,
                _ => board.is_multiple_of(2),
            }
        };
        let fits = |a_white: bool| pa.may_have(a_white) && pb.may_have(!a_white);
        let a_white = if fits(a_white) || !fits(!a_white) {
            a_white
        } else {
            !a_white
        };
        if a_white {
            Pairing { white: a, black: b }
        } else {
            Pairing { white: b, black: a }
        }
    }
}

/// Rounds enough to separate a field of `entrants`: ⌈log2 n⌉ + 1.
pub fn default_rounds(entrants: usize) -> usize {
    let n = entrants.max(2);
    (usize::BITS - (n - 1).leading_zeros()) as usize + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n.max(1)
        }
    }

    fn round(pairs: &[(usize, usize)], rest: Option<usize>) -> Round {
        Round {
            pairings: pairs
                .iter()
                .map(|&(white, black)| Pairing { white, black })
                .collect(),
            rest,
        }
    }

    /// A field of `n` after `rounds`, each game won by White.
    fn field(n: usize, rounds: &[Round]) -> Field {
        let mut field = Field::new(n, 9);
        for r in rounds {
            field.push(r, |_, _| (2, false));
        }
        field
    }

    #[test]
    fn the_first_round_pairs_the_top_half_against_the_bottom_half_with_alternating_colours() {
        let paired = pair(&field(8, &[])).unwrap();
        let games: Vec<(usize, usize)> = paired
            .round
            .pairings
            .iter()
            .map(|p| (p.white, p.black))
            .collect();
        assert_eq!(games, [(0, 4), (5, 1), (2, 6), (7, 3)]);
        assert_eq!(paired.round.rest, None);
        // An odd field: the lowest seed rests.
        let odd = pair(&field(7, &[])).unwrap();
        assert_eq!(odd.round.rest, Some(6));
        assert_eq!(odd.round.pairings[0], Pairing { white: 0, black: 3 });
    }

    #[test]
    fn score_groups_pair_within_themselves_and_the_odd_one_floats_down() {
        // After round 1 of six: 0, 4 (White) and 2 won, 3, 1, 5 lost.
        let paired = pair(&field(6, &[round(&[(0, 3), (4, 1), (2, 5)], None)])).unwrap();
        let meets = |a: usize, b: usize| {
            paired
                .round
                .pairings
                .iter()
                .any(|p| (p.white, p.black) == (a, b) || (p.white, p.black) == (b, a))
        };
        // Winners 0, 2, 4: 0 v 4 would repeat nothing; the odd one floats down.
        assert!(meets(0, 4) || meets(0, 2), "{paired:?}");
        assert!(!paired.colours_relaxed);
    }

    #[test]
    fn a_forfeit_is_no_meeting_and_gives_no_colour() {
        // C.04.1: a game not played does not count as played; 0 won by forfeit against 1.
        let mut f = Field::new(2, 3);
        f.push(&round(&[(0, 1)], None), |_, _| (2, true));
        let paired = pair(&f).expect("the two may meet again");
        assert_eq!(paired.round.pairings.len(), 1);
        assert!(!paired.colours_relaxed);
        // Played over the board, they may not.
        let mut f = Field::new(2, 3);
        f.push(&round(&[(0, 1)], None), |_, _| (2, false));
        assert_eq!(pair(&f), Err(NoPairing::Impossible));
    }

    #[test]
    fn no_bye_for_a_player_who_won_a_round_without_playing() {
        // C.04.3 C.2: round 1, 0 beat 3, 4 won by forfeit against 1, 2 had the bye; 1 and 3
        // then withdraw. 0, 2 and 4 have a point each: 4, the lowest, won without playing and
        // 2 has had the bye, so the bye goes to 0.
        let mut f = Field::new(5, 3);
        f.push(&round(&[(0, 3), (1, 4)], Some(2)), |w, _| {
            if w == 0 { (2, false) } else { (0, true) }
        });
        f.out[1] = true;
        f.out[3] = true;
        let paired = pair(&f).unwrap();
        assert_eq!(paired.round.rest, Some(0), "{paired:?}");
        assert_eq!(paired.round.pairings.len(), 1);
    }

    #[test]
    fn the_bye_goes_to_the_one_with_fewest_rounds_unplayed_in_the_lowest_group() {
        // C.04.3 (as from 2026), the pairing-allocated bye: in the lowest score group, the
        // player with the fewest unplayed rounds. Round 1: 2 beat 0 over the board, 3 won by
        // forfeit against 1, and 4 entered late (absent). 0, 1 and 4 have nothing; only 0 has
        // played every round, so he rests, though he is the highest ranked of the three.
        let mut f = Field::new(5, 3);
        f.push(&round(&[(0, 2), (3, 1)], None), |w, _| {
            if w == 0 { (0, false) } else { (2, true) }
        });
        let paired = pair(&f).unwrap();
        assert_eq!(paired.round.rest, Some(0), "{paired:?}");
    }

    #[test]
    fn default_rounds_separate_the_field() {
        assert_eq!(default_rounds(2), 2);
        assert_eq!(default_rounds(7), 4);
        assert_eq!(default_rounds(8), 4);
        assert_eq!(default_rounds(9), 5);
        assert_eq!(default_rounds(64), 7);
    }

    #[test]
    fn random_events_keep_every_pairing_rule() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..300 {
            let n = 2 + rng.below(29) as usize;
            let mut f = Field::new(n, default_rounds(n));
            let mut relaxed = false;
            for _ in 0..default_rounds(n) {
                if rng.below(10) == 0 {
                    let w = rng.below(n as u64) as usize;
                    f.out[w] = true;
                }
                let Ok(paired) = pair(&f) else {
                    // Only a field too small for another round without a rematch stops.
                    let active = f.out.iter().filter(|w| !**w).count();
                    assert!(active < 2 || active <= 6, "n={n}: no pairing for {active}");
                    break;
                };
                let past = pasts(&f);
                let round = paired.round;
                let mut seen = vec![false; n];
                for p in &round.pairings {
                    for e in [p.white, p.black] {
                        assert!(!f.out[e], "a withdrawn player was paired");
                        assert!(!seen[e], "paired twice");
                        seen[e] = true;
                    }
                    // C.1: no two players meet twice over the board.
                    assert!(
                        !past[p.white].met.contains(&p.black),
                        "n={n}: a rematch {p:?}"
                    );
                }
                if let Some(r) = round.rest {
                    assert!(!seen[r] && !f.out[r]);
                    seen[r] = true;
                    // C.2: no second bye, nor one after a point won without playing.
                    assert!(!past[r].bye, "n={n}: a second bye for {r}");
                    // The bye goes to the player of the lowest score, then fewest rounds
                    // unplayed, then lowest rank, who may have it and leaves a field that can
                    // be paired: nobody before him in that order could have had it.
                    let unplayed = |e: usize| f.rounds.len() - past[e].colours.len();
                    let key = |e: usize| (f.points(e), unplayed(e), std::cmp::Reverse(e));
                    let lower = (0..n).filter(|e| !f.out[*e] && !past[*e].bye && key(*e) < key(r));
                    for e in lower {
                        let with = pair_resting(&f, e);
                        assert!(
                            with.is_err()
                                || with.is_ok_and(|p| p.colours_relaxed) && !paired.colours_relaxed,
                            "n={n}: the bye went to {r}, though {e} could have had it"
                        );
                    }
                }
                assert!(
                    (0..n).all(|e| f.out[e] || seen[e]),
                    "n={n}: someone left out"
                );
                f.push(&round, |_, _| match rng.below(7) {
                    0 => (2, true),
                    1 | 2 => (2, false),
                    3 | 4 => (0, false),
                    _ => (1, false),
                });
                relaxed |= paired.colours_relaxed;
                if !relaxed {
                    // Colours: never three in a row, never two apart by more than two.
                    for (e, p) in pasts(&f).iter().enumerate() {
                        assert!(p.difference().abs() <= 2, "n={n}: {e} has {:?}", p.colours);
                        assert!(
                            !p.colours.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]),
                            "n={n}: {e} has {:?}",
                            p.colours
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_search_that_gives_up_is_told_from_one_that_finds_no_pairing() {
        let mut f = Field::new(6, 9);
        f.push(&round(&[(0, 3), (4, 1), (2, 5)], None), |w, _| {
            if w == 4 { (0, false) } else { (2, false) }
        });
        f.push(&round(&[(3, 2), (1, 0), (5, 4)], None), |w, _| {
            if w == 5 { (0, false) } else { (2, false) }
        });
        // With its budget the search pairs the round, keeping the colour rules.
        let paired = pair_with(&f, None, [BUDGET; 2]).expect("pairs");
        assert!(!paired.colours_relaxed && !paired.gave_up);
        // The strict search gives up at once: the relaxed pairing stands, and says why.
        let relaxed = pair_with(&f, None, [1, BUDGET]).expect("pairs");
        assert!(relaxed.colours_relaxed && relaxed.gave_up);
        // Both give up: not a proof that no pairing exists.
        assert_eq!(pair_with(&f, None, [1, 1]), Err(NoPairing::GaveUp));
    }
}
