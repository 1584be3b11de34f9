//! Standings and tie-breaks, after FIDE's tie-break regulations (2023) as the tournaments
//! issue settles them. Scores are kept in half points (a win 2, a draw 1) so that every value
//! is exact; Sonneborn-Berger products are in quarter points.
//!
//! Unplayed rounds:
//! - a player's own unplayed round (a bye, a forfeit, an absence) counts, in his Buchholz and
//!   Sonneborn-Berger, as a game against a dummy opponent whose score is his own final score;
//! - an opponent's unplayed rounds count as he scored them, except that after he withdrew each
//!   of his later rounds counts a draw (½);
//! - Buchholz cut-1 drops a voluntarily unplayed round first (an absence, a round after
//!   withdrawing), else the lowest value.
//!
//! Wins count games won over the board (a forfeit or a bye is not a won game).

/// One round of one entrant.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RoundResult {
    /// A game over the board against `opponent`, scoring `points` (half points).
    Played {
        /// The opponent (entrant index).
        opponent: usize,
        /// 2 a win, 1 a draw, 0 a loss.
        points: u32,
    },
    /// Not played: a bye, a forfeit (won or lost), an absence. `voluntary` when the entrant
    /// chose not to play (absent, or withdrawn).
    Unplayed {
        /// The points it gave (a pairing bye 2, a forfeit win 2, a loss or absence 0).
        points: u32,
        /// Whether the entrant chose not to play.
        voluntary: bool,
    },
    /// A round-robin rest in an odd field: worth nothing, and in no tie-break (everyone has
    /// one).
    Rest,
}

impl RoundResult {
    fn points(&self) -> u32 {
        match self {
            RoundResult::Played { points, .. } | RoundResult::Unplayed { points, .. } => *points,
            RoundResult::Rest => 0,
        }
    }
}

/// An entrant's rounds so far, and from which round (from 0) he was withdrawn, if he was.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Entrant {
    /// One result a round.
    pub rounds: Vec<RoundResult>,
    /// The first round missed because he withdrew.
    pub withdrawn_from: Option<usize>,
}

impl Entrant {
    /// His score in half points.
    pub fn score(&self) -> u32 {
        self.rounds.iter().map(RoundResult::points).sum()
    }

    /// His score as his opponents' tie-breaks count it: each round after he withdrew counts a
    /// draw.
    fn score_for_opponents(&self) -> u32 {
        self.rounds
            .iter()
            .enumerate()
            .map(|(i, r)| match self.withdrawn_from {
                Some(w) if i >= w => 1,
                _ => r.points(),
            })
            .sum()
    }

    /// Games won over the board.
    pub fn wins(&self) -> u32 {
        self.rounds
            .iter()
            .filter(|r| matches!(r, RoundResult::Played { points: 2, .. }))
            .count() as u32
    }
}

/// The Buchholz contributions of `e`'s rounds (rests left out), each with the points he scored
/// that round and whether the round was voluntarily unplayed.
fn contributions(all: &[Entrant], e: usize) -> Vec<(u32, u32, bool)> {
    let own = all[e].score();
    all[e]
        .rounds
        .iter()
        .filter_map(|r| match r {
            RoundResult::Played { opponent, points } => Some((
                all.get(*opponent).map_or(0, Entrant::score_for_opponents),
                *points,
                false,
            )),
            RoundResult::Unplayed { voluntary, points } => Some((own, *points, *voluntary)),
            RoundResult::Rest => None,
        })
        .collect()
}

/// Buchholz: the sum of the opponents' scores (half points).
pub fn buchholz(all: &[Entrant], e: usize) -> u32 {
    contributions(all, e).iter().map(|c| c.0).sum()
}

/// Buchholz cut-1: Buchholz without one round — a voluntarily unplayed one if there is one,
/// else the lowest.
pub fn buchholz_cut1(all: &[Entrant], e: usize) -> u32 {
    let mut values = contributions(all, e);
    if values.is_empty() {
        return 0;
    }
    let drop = values.iter().position(|c| c.2).unwrap_or_else(|| {
        values
            .iter()
            .enumerate()
            .min_by_key(|(_, c)| c.0)
            .map_or(0, |(i, _)| i)
    });
    values.remove(drop);
    values.iter().map(|c| c.0).sum()
}

/// Sonneborn-Berger: for each round, the opponent's score times the points scored against
/// him (quarter points: half points × half points).
pub fn sonneborn_berger(all: &[Entrant], e: usize) -> u32 {
    contributions(all, e)
        .iter()
        .map(|(opponent, points, _)| opponent * points)
        .sum()
}

/// Direct encounter among the entrants tied with `e` on `score`: his points in the games
/// between them, when every two of them met (else 0 for all).
pub fn direct_encounter(all: &[Entrant], e: usize, tied: &[usize]) -> u32 {
    let met = |a: usize, b: usize| {
        all[a]
            .rounds
            .iter()
            .any(|r| matches!(r, RoundResult::Played { opponent, .. } if *opponent == b))
    };
    let complete = tied
        .iter()
        .all(|&a| tied.iter().all(|&b| a == b || met(a, b)));
    if !complete {
        return 0;
    }
    all[e]
        .rounds
        .iter()
        .filter_map(|r| match r {
            RoundResult::Played { opponent, points } if tied.contains(opponent) => Some(*points),
            _ => None,
        })
        .sum()
}

/// Which system's tie-breaks apply.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum System {
    /// Buchholz cut-1, Buchholz, Sonneborn-Berger, wins.
    Swiss,
    /// Sonneborn-Berger, direct encounter, wins.
    RoundRobin,
}

/// One line of the standings.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Line {
    /// The entrant.
    pub entrant: usize,
    /// The rank (equal ranks share a number).
    pub rank: usize,
    /// The score in half points.
    pub score: u32,
    /// The tie-breaks in order (Buchholz values in half points, Sonneborn-Berger in quarter
    /// points, direct encounter in half points, wins as a count).
    pub tiebreaks: Vec<u32>,
}

/// The standings: by score, then the system's tie-breaks in order, then initial rank.
pub fn standings(all: &[Entrant], system: System) -> Vec<Line> {
    let mut lines: Vec<Line> = (0..all.len())
        .map(|e| {
            let tiebreaks = match system {
                System::Swiss => vec![
                    buchholz_cut1(all, e),
                    buchholz(all, e),
                    sonneborn_berger(all, e),
                    all[e].wins(),
                ],
                System::RoundRobin => {
                    let tied: Vec<usize> = (0..all.len())
                        .filter(|x| all[*x].score() == all[e].score())
                        .collect();
                    vec![
                        sonneborn_berger(all, e),
                        direct_encounter(all, e, &tied),
                        all[e].wins(),
                    ]
                }
            };
            Line {
                entrant: e,
                rank: 0,
                score: all[e].score(),
                tiebreaks,
            }
        })
        .collect();
    lines.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then_with(|| b.tiebreaks.cmp(&a.tiebreaks))
            .then(a.entrant.cmp(&b.entrant))
    });
    for i in 0..lines.len() {
        lines[i].rank = if i > 0
            && lines[i].score == lines[i - 1].score
            && lines[i].tiebreaks == lines[i - 1].tiebreaks
        {
            lines[i - 1].rank
        } else {
            i + 1
        };
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(opponent: usize, points: u32) -> RoundResult {
        RoundResult::Played { opponent, points }
    }

    /// Four players, three rounds, every game played:
    /// R1: A–B 1-0, C–D ½-½; R2: A–C ½-½, B–D 1-0; R3: A–D 0-1, B–C 1-0.
    /// Scores: A 1½, B 2, C 1, D 1½.
    fn four() -> Vec<Entrant> {
        let e = |rounds: Vec<RoundResult>| Entrant {
            rounds,
            withdrawn_from: None,
        };
        vec![
            e(vec![played(1, 2), played(2, 1), played(3, 0)]),
            e(vec![played(0, 0), played(3, 2), played(2, 2)]),
            e(vec![played(3, 1), played(0, 1), played(1, 0)]),
            e(vec![played(2, 1), played(1, 0), played(0, 2)]),
        ]
    }

    #[test]
    fn buchholz_and_sonneborn_berger_by_hand() {
        let all = four();
        assert_eq!(
            all.iter().map(Entrant::score).collect::<Vec<_>>(),
            [3, 4, 2, 3]
        );
        // A met B (2), C (1), D (1½): Buchholz 4½ = 9 half points; cut-1 drops C: 7.
        assert_eq!(buchholz(&all, 0), 9);
        assert_eq!(buchholz_cut1(&all, 0), 7);
        // A's SB: beat B (2 × 1) + drew C (1 × ½) + lost to D (0) = 2½ = 10 quarter points.
        assert_eq!(sonneborn_berger(&all, 0), 4 * 2 + 2);
        // D's SB: drew C (1 × ½) + lost to B + beat A (1½ × 1) = 2 = 8 quarter points.
        assert_eq!(sonneborn_berger(&all, 3), 2 + 6);
        let table = standings(&all, System::Swiss);
        let order: Vec<usize> = table.iter().map(|l| l.entrant).collect();
        // B first with 2; A and D tie on 1½ and on both Buchholz values (cut-1 3½, full 4½);
        // Sonneborn-Berger puts A ahead (2½ against 2); C last.
        assert_eq!(order, [1, 0, 3, 2]);
        assert_eq!(table[1].tiebreaks, [7, 9, 10, 1]);
        assert_eq!(table[2].tiebreaks, [7, 9, 8, 1]);
    }

    #[test]
    fn a_players_own_unplayed_round_counts_his_own_final_score() {
        // C had a pairing bye in round 3 (1 point) instead of playing B.
        let mut all = four();
        all[2].rounds[2] = RoundResult::Unplayed {
            points: 2,
            voluntary: false,
        };
        all[1].rounds[2] = RoundResult::Unplayed {
            points: 2,
            voluntary: false,
        };
        // C now has ½ + ½ + 1 = 2; his bye counts as an opponent with 2 points.
        assert_eq!(all[2].score(), 4);
        let d = all[3].score_for_opponents();
        let a = all[0].score_for_opponents();
        assert_eq!(buchholz(&all, 2), d + a + 4);
        // Not a voluntary round: cut-1 drops the lowest value.
        assert_eq!(buchholz_cut1(&all, 2), d + a + 4 - d.min(a).min(4));
        // His SB counts the dummy opponent's 2 points times the bye's 1 point.
        assert_eq!(sonneborn_berger(&all, 2), d + a + 4 * 2);
    }

    #[test]
    fn after_withdrawing_a_players_later_rounds_count_a_draw_for_his_opponents() {
        // D withdraws before round 3: A's round 3 is a forfeit win (D absent).
        let mut all = four();
        all[3].rounds[2] = RoundResult::Unplayed {
            points: 0,
            voluntary: true,
        };
        all[3].withdrawn_from = Some(2);
        all[0].rounds[2] = RoundResult::Unplayed {
            points: 2,
            voluntary: false,
        };
        // D scored ½ + 0, then counts ½ for the round he missed: 1 for his opponents.
        assert_eq!(all[3].score(), 1);
        assert_eq!(all[3].score_for_opponents(), 2);
        // D's own Buchholz: C (1), B (2), and his missed round against a dummy with his own
        // final score (½); cut-1 drops that voluntary round first.
        let own = all[3].score();
        let c = all[2].score_for_opponents();
        let b = all[1].score_for_opponents();
        assert_eq!(buchholz(&all, 3), c + b + own);
        assert_eq!(buchholz_cut1(&all, 3), c + b);
    }

    #[test]
    fn a_round_robin_rest_counts_in_no_tie_break() {
        let mut all = four();
        for e in &mut all {
            e.rounds.push(RoundResult::Rest);
        }
        assert_eq!(buchholz(&all, 0), 9);
        assert_eq!(buchholz_cut1(&all, 0), 7);
        assert_eq!(sonneborn_berger(&all, 0), 10);
    }

    #[test]
    fn round_robin_ties_go_to_sonneborn_berger_then_the_direct_encounter() {
        let all = four();
        let table = standings(&all, System::RoundRobin);
        // A and D both 1½ with SB A 2½ and D 2: A ahead.
        let pos = |e: usize| table.iter().position(|l| l.entrant == e).unwrap();
        assert!(pos(0) < pos(3));
        // A and D met (D won): D has the direct encounter among the two.
        assert_eq!(direct_encounter(&all, 3, &[0, 3]), 2);
        assert_eq!(direct_encounter(&all, 0, &[0, 3]), 0);
        // Ranks are shared only on equal score and tie-breaks.
        let ranks: Vec<usize> = table.iter().map(|l| l.rank).collect();
        assert_eq!(ranks, [1, 2, 3, 4]);
    }
}
