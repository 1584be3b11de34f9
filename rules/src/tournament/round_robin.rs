//! Round robin by Berger tables (FIDE Handbook C.05, Annex 1): every entrant meets every other
//! once (twice in a double round robin, colours reversed in the second cycle). In an odd field
//! a dummy entrant makes the count even, and whoever meets it rests that round.
//!
//! With `n` even and `m = n − 1`, round `r` (from 1) pairs entrant `n` with `p`, where
//! `p = (r + 1) / 2` in odd rounds (`p` has White) and `p = r / 2 + n / 2` in even rounds (`n`
//! has White); the others meet as `p + k` (White) against `p − k`, counted round `1..=m`, for
//! `k = 1 …` — which gives FIDE's published tables exactly.

use super::{Pairing, Round};

/// The rounds of a round robin of `entrants` (numbered by seed, from 0); `double` plays every
/// pairing a second time with the colours reversed. Empty for fewer than two entrants.
pub fn rounds(entrants: usize, double: bool) -> Vec<Round> {
    if entrants < 2 {
        return Vec::new();
    }
    let n = entrants + entrants % 2;
    let m = n - 1;
    // Entrants as the tables number them: 1..=n; `n` is the dummy in an odd field.
    let wrap = |x: isize| -> usize { (x - 1).rem_euclid(m as isize) as usize + 1 };
    let mut cycle = Vec::with_capacity(m);
    for r in 1..=m {
        let p = if r % 2 == 1 {
            r.div_ceil(2)
        } else {
            r / 2 + n / 2
        };
        let mut games = vec![if r % 2 == 1 { (p, n) } else { (n, p) }];
        for k in 1..=(m - 1) / 2 {
            let (k, p) = (k as isize, p as isize);
            games.push((wrap(p + k), wrap(p - k)));
        }
        let mut round = Round::default();
        for (white, black) in games {
            if entrants % 2 == 1 && (white == n || black == n) {
                round.rest = Some(if white == n { black } else { white } - 1);
            } else {
                round.pairings.push(Pairing {
                    white: white - 1,
                    black: black - 1,
                });
            }
        }
        cycle.push(round);
    }
    if double {
        let second: Vec<Round> = cycle
            .iter()
            .map(|r| Round {
                pairings: r
                    .pairings
                    .iter()
                    .map(|p| Pairing {
                        white: p.black,
                        black: p.white,
                    })
                    .collect(),
                rest: r.rest,
            })
            .collect();
        cycle.extend(second);
    }
    cycle
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A round as FIDE prints it: `1-6 2-5 3-4`, entrants from 1.
    fn printed(round: &Round) -> String {
        round
            .pairings
            .iter()
            .map(|p| format!("{}-{}", p.white + 1, p.black + 1))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn the_tables_are_fides_for_four_and_six_entrants() {
        let four: Vec<String> = rounds(4, false).iter().map(printed).collect();
        assert_eq!(four, ["1-4 2-3", "4-3 1-2", "2-4 3-1"]);
        let six: Vec<String> = rounds(6, false).iter().map(printed).collect();
        assert_eq!(
            six,
            [
                "1-6 2-5 3-4",
                "6-4 5-3 1-2",
                "2-6 3-1 4-5",
                "6-5 1-4 2-3",
                "3-6 4-2 5-1"
            ]
        );
    }

    #[test]
    fn every_pair_meets_once_a_cycle_and_everyone_plays_or_rests_each_round() {
        for n in 2..=24 {
            for double in [false, true] {
                let all = rounds(n, double);
                let cycles = if double { 2 } else { 1 };
                assert_eq!(all.len(), cycles * (n + n % 2 - 1), "n={n}");
                let mut met = vec![vec![0; n]; n];
                let mut white = vec![0i32; n];
                let mut rests = vec![0; n];
                for round in &all {
                    let mut seen = vec![false; n];
                    for p in &round.pairings {
                        assert_ne!(p.white, p.black);
                        for e in [p.white, p.black] {
                            assert!(!seen[e], "n={n}: {e} twice in a round");
                            seen[e] = true;
                        }
                        met[p.white][p.black] += 1;
                        met[p.black][p.white] += 1;
                        white[p.white] += 1;
                        white[p.black] -= 1;
                    }
                    if let Some(r) = round.rest {
                        assert!(!seen[r]);
                        seen[r] = true;
                        rests[r] += 1;
                    }
                    assert!(seen.iter().all(|s| *s), "n={n}: someone left out");
                    assert_eq!(round.rest.is_some(), n % 2 == 1);
                }
                for (a, row) in met.iter().enumerate() {
                    for (b, times) in row.iter().enumerate() {
                        let want = if a == b { 0 } else { cycles };
                        assert_eq!(*times, want, "n={n}: {a} and {b}");
                    }
                    // Colours balanced: at most one more White than Black in a cycle, and
                    // exactly even over a double round robin.
                    assert!(white[a].abs() <= if double { 0 } else { 1 }, "n={n}");
                    assert_eq!(rests[a], if n % 2 == 1 { cycles } else { 0 });
                }
            }
        }
    }
}
