//! Clocks derived from a game's record: who is thinking since when, with how much time, and when
//! it runs out. Nothing here is a second truth: every figure follows from the control, the time
//! play began, the time of each decision, and the players' vacations (during which their clocks
//! stand still).

use serde::{Deserialize, Serialize};

use super::control::Control;

/// A stretch of time during which a player's clocks stand still (his vacation).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Pause {
    /// The player's id.
    pub player: String,
    /// From (seconds since the Unix epoch).
    pub from: u64,
    /// Until (seconds since the Unix epoch).
    pub to: u64,
}

/// One decision of a game, for the clock.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Decision {
    /// The seat that made it.
    pub seat: usize,
    /// When it was stored.
    pub at: u64,
    /// Whether it was made for the seat (a forced pass): it does not count as a move.
    pub forced: bool,
}

/// The seat whose clock runs, since when, and how much time it had then.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Wait {
    /// The seat to decide.
    pub seat: usize,
    /// When its clock started.
    pub since: u64,
    /// The time it had then, in seconds.
    pub left: u64,
}

/// Every seat's time as the record stands: the waiting seat's at the start of its wait, the
/// others' as they stand.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Clocks {
    /// Seconds per seat.
    pub left: Vec<u64>,
    /// The running clock, while a seat is to decide.
    pub wait: Option<Wait>,
}

/// Seconds of `[a, b)` covered by `pauses` (which may overlap one another: time covered twice
/// counts once).
pub fn overlap(pauses: &[(u64, u64)], a: u64, b: u64) -> u64 {
    let mut clipped: Vec<(u64, u64)> = pauses
        .iter()
        .map(|&(from, to)| (from.max(a), to.min(b)))
        .filter(|(from, to)| from < to)
        .collect();
    clipped.sort_unstable();
    let (mut covered, mut reached) = (0, a);
    for (from, to) in clipped {
        let from = from.max(reached);
        if to > from {
            covered += to - from;
            reached = to;
        }
    }
    covered
}

/// The moment a clock started at `since` has used `need` seconds, its standing still during
/// `pauses` not counted.
pub fn when_used(pauses: &[(u64, u64)], since: u64, need: u64) -> u64 {
    let mut sorted: Vec<(u64, u64)> = pauses.iter().copied().filter(|p| p.1 > p.0).collect();
    sorted.sort_unstable();
    let (mut t, mut need) = (since, need);
    for (from, to) in sorted {
        if to <= t {
            continue;
        }
        if from > t {
            let run = from - t;
            if run >= need {
                return t + need;
            }
            need -= run;
        }
        t = to;
    }
    t.saturating_add(need)
}

/// The clocks of a game under `control`, begun at `started`, after `decisions`, with `mover` to
/// decide; `paused(seat)` gives the stretches during which that seat's clock stands still.
pub fn derive(
    control: &Control,
    seats: usize,
    started: u64,
    decisions: &[Decision],
    mover: Option<usize>,
    paused: &dyn Fn(usize) -> Vec<(u64, u64)>,
) -> Clocks {
    let full = control.full();
    let mut left = vec![full; seats];
    let mut previous = started;
    for d in decisions {
        if !d.forced
            && let Control::Bank {
                start, increment, ..
            } = control
            && let Some(bank) = left.get_mut(d.seat)
        {
            let thought = d.at.saturating_sub(previous)
                - overlap(&paused(d.seat), previous, d.at).min(d.at.saturating_sub(previous));
            *bank = (bank.saturating_sub(thought) + increment).min(*start);
        }
        // A forced pass does not stop the passing seat's clock: the next seat's clock starts
        // when the last real decision was made, which is when the pass was stored.
        previous = d.at;
    }
    Clocks {
        wait: mover.map(|seat| Wait {
            seat,
            since: previous,
            left: left.get(seat).copied().unwrap_or(full),
        }),
        left,
    }
}

impl Wait {
    /// When the waiting seat's time runs out.
    pub fn deadline(&self, pauses: &[(u64, u64)]) -> u64 {
        when_used(pauses, self.since, self.left)
    }

    /// When the waiting seat has `remaining` seconds left (`None` if it never had more).
    pub fn when_left(&self, remaining: u64, pauses: &[(u64, u64)]) -> Option<u64> {
        (remaining < self.left).then(|| when_used(pauses, self.since, self.left - remaining))
    }

    /// The waiting seat's time left at `now`.
    pub fn left_at(&self, now: u64, pauses: &[(u64, u64)]) -> u64 {
        let used = now.saturating_sub(self.since) - overlap(pauses, self.since, now);
        self.left.saturating_sub(used)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: u64 = 3_600;
    const D: u64 = 86_400;

    fn none(_: usize) -> Vec<(u64, u64)> {
        Vec::new()
    }

    fn moves(times: &[(usize, u64)]) -> Vec<Decision> {
        times
            .iter()
            .map(|&(seat, at)| Decision {
                seat,
                at,
                forced: false,
            })
            .collect()
    }

    #[test]
    fn a_per_move_clock_is_full_again_after_each_move() {
        let control = Control::PerMove {
            per: 3 * D,
            claim: false,
        };
        let clocks = derive(
            &control,
            2,
            0,
            &moves(&[(0, 2 * D), (1, 4 * D)]),
            Some(0),
            &none,
        );
        let wait = clocks.wait.unwrap();
        assert_eq!(wait.since, 4 * D);
        assert_eq!(wait.left, 3 * D);
        assert_eq!(wait.deadline(&[]), 7 * D);
        assert_eq!(wait.when_left(24 * H, &[]), Some(6 * D));
        assert_eq!(wait.when_left(3 * D, &[]), None);
        assert_eq!(wait.left_at(5 * D, &[]), 2 * D);
    }

    #[test]
    fn a_bank_loses_the_time_used_and_gains_the_increment_up_to_its_start() {
        let control = Control::Bank {
            start: 10 * D,
            increment: D,
            claim: false,
        };
        // White thinks 3 days (10 - 3 + 1 = 8), Black half a day (capped at 10), White 6 days.
        let decisions = moves(&[(0, 3 * D), (1, 3 * D + 12 * H), (0, 9 * D + 12 * H)]);
        let clocks = derive(&control, 2, 0, &decisions, Some(1), &none);
        assert_eq!(clocks.left, vec![3 * D, 10 * D]);
        assert_eq!(clocks.wait.unwrap().deadline(&[]), 19 * D + 12 * H);
    }

    #[test]
    fn a_forced_pass_neither_stops_a_clock_nor_earns_an_increment() {
        let control = Control::Bank {
            start: 100,
            increment: 50,
            claim: false,
        };
        let decisions = vec![
            Decision {
                seat: 0,
                at: 40,
                forced: false,
            },
            Decision {
                seat: 1,
                at: 40,
                forced: true,
            },
        ];
        let clocks = derive(&control, 3, 0, &decisions, Some(2), &none);
        assert_eq!(clocks.left, vec![100, 100, 100]);
        assert_eq!(clocks.wait.unwrap().since, 40);
    }

    #[test]
    fn clocks_stand_still_during_a_pause() {
        let wait = Wait {
            seat: 0,
            since: 0,
            left: 10,
        };
        let pauses = [(5, 20), (25, 30)];
        // Runs 0–5, stands 5–20, runs 20–25 (10 used).
        assert_eq!(wait.deadline(&pauses), 25);
        assert_eq!(wait.left_at(22, &pauses), 3);
        assert_eq!(wait.when_left(8, &pauses), Some(2));
        assert_eq!(overlap(&pauses, 0, 100), 20);
        // Time covered by two pauses counts once.
        assert_eq!(overlap(&[(0, 10), (5, 15)], 0, 100), 15);
        // A bank loses only the time its player was not away.
        let control = Control::Bank {
            start: 100,
            increment: 0,
            claim: false,
        };
        let paused = |seat: usize| if seat == 0 { vec![(10, 50)] } else { vec![] };
        let clocks = derive(&control, 2, 0, &moves(&[(0, 60)]), Some(1), &paused);
        assert_eq!(clocks.left[0], 80);
    }

    /// A small deterministic generator for the randomised checks below.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n.max(1)
        }
    }

    #[test]
    fn random_games_keep_the_clock_invariants() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..2_000 {
            let start = 60 + rng.below(10 * D);
            let increment = rng.below(start / 2 + 1);
            let control = Control::Bank {
                start,
                increment,
                claim: false,
            };
            // A few pauses per seat, anywhere in the first weeks.
            let mut pauses: Vec<Vec<(u64, u64)>> = vec![Vec::new(), Vec::new()];
            for seat in &mut pauses {
                for _ in 0..rng.below(3) {
                    let from = rng.below(20 * D);
                    seat.push((from, from + 1 + rng.below(5 * D)));
                }
            }
            let paused = |seat: usize| pauses[seat].clone();
            // Decisions that each come within the mover's time.
            let mut decisions = Vec::new();
            let mut at = 0;
            for i in 0..rng.below(12) {
                let seat = (i % 2) as usize;
                let clocks = derive(&control, 2, 0, &decisions, Some(seat), &paused);
                let wait = clocks.wait.unwrap();
                let deadline = wait.deadline(&paused(seat));
                at = at.max(wait.since) + rng.below(deadline.saturating_sub(wait.since));
                decisions.push(Decision {
                    seat,
                    at,
                    forced: false,
                });
            }
            let mover = decisions.len() % 2;
            let clocks = derive(&control, 2, 0, &decisions, Some(mover), &paused);
            // A bank never grows above its start.
            assert!(clocks.left.iter().all(|l| *l <= start), "{clocks:?}");
            let wait = clocks.wait.unwrap();
            let pauses = paused(mover);
            let deadline = wait.deadline(&pauses);
            // Pauses only ever push a deadline later; at the deadline no time is left, and a
            // moment earlier when the clock was running, some was.
            assert!(deadline >= wait.since + wait.left);
            assert_eq!(wait.left_at(deadline, &pauses), 0);
            if wait.left > 0 && overlap(&pauses, deadline - 1, deadline) == 0 {
                assert_eq!(wait.left_at(deadline - 1, &pauses), 1);
            }
            // A reminder point comes before the deadline, and with that much time left.
            let point = rng.below(wait.left.max(1));
            if let Some(when) = wait.when_left(point, &pauses) {
                assert!(when <= deadline);
                assert_eq!(wait.left_at(when, &pauses), point);
            }
        }
    }
}
