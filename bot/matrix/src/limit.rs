//! Per-user budgets of commands: a user may send `burst` commands at once, refilled at
//! `rate_per_minute`; a move that moved a game on is given back, so play is never limited.

use std::collections::HashMap;
use std::time::Instant;

/// Per-user budgets of commands: `burst` at once, refilled at `per_minute`.
pub struct Limiter {
    per_minute: u32,
    burst: u32,
    users: HashMap<String, Budget>,
}

struct Budget {
    tokens: f64,
    at: Instant,
    warned: bool,
}

/// What the limiter says about one command.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Verdict {
    /// Run it.
    Go,
    /// Refuse it and say why (the first refusal in a row).
    Warn {
        /// Seconds until the next command will run.
        wait: u64,
    },
    /// Refuse it silently (already warned).
    Quiet,
}

impl Limiter {
    /// A limiter; `per_minute` 0 lets everything through.
    pub fn new(per_minute: u32, burst: u32) -> Limiter {
        Limiter {
            per_minute,
            burst: burst.max(1),
            users: HashMap::new(),
        }
    }

    /// Gives back the command just taken from `user`'s budget: one that moved a game on
    /// (moves come one per turn, so play is never limited).
    pub fn refund(&mut self, user: &str) {
        let burst = f64::from(self.burst);
        if let Some(b) = self.users.get_mut(user) {
            b.tokens = (b.tokens + 1.0).min(burst);
        }
    }

    /// Takes one command from `user`'s budget at `now`.
    pub fn check(&mut self, user: &str, now: Instant) -> Verdict {
        if self.per_minute == 0 {
            return Verdict::Go;
        }
        let rate = f64::from(self.per_minute) / 60.0;
        let burst = f64::from(self.burst);
        let budget = self.users.entry(user.to_string()).or_insert(Budget {
            tokens: burst,
            at: now,
            warned: false,
        });
        let elapsed = now.saturating_duration_since(budget.at).as_secs_f64();
        budget.tokens = (budget.tokens + elapsed * rate).min(burst);
        budget.at = now;
        if budget.tokens >= 1.0 {
            budget.tokens -= 1.0;
            budget.warned = false;
            Verdict::Go
        } else if budget.warned {
            Verdict::Quiet
        } else {
            budget.warned = true;
            Verdict::Warn {
                wait: ((1.0 - budget.tokens) / rate).ceil() as u64,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limiter_allows_a_burst_then_the_rate_and_warns_once() {
        let mut l = Limiter::new(60, 3);
        let t = Instant::now();
        for _ in 0..3 {
            assert_eq!(l.check("@a:x", t), Verdict::Go);
        }
        assert_eq!(l.check("@a:x", t), Verdict::Warn { wait: 1 });
        assert_eq!(l.check("@a:x", t), Verdict::Quiet);
        // Another user has his own budget.
        assert_eq!(l.check("@b:x", t), Verdict::Go);
        // A second later one more command is allowed.
        let later = t + std::time::Duration::from_secs(1);
        assert_eq!(l.check("@a:x", later), Verdict::Go);
        assert_eq!(l.check("@a:x", later), Verdict::Warn { wait: 1 });
        assert_eq!(Limiter::new(0, 1).check("@a:x", t), Verdict::Go);
        // A command that moved a game on is given back.
        let mut l = Limiter::new(60, 1);
        assert_eq!(l.check("@a:x", t), Verdict::Go);
        l.refund("@a:x");
        assert_eq!(l.check("@a:x", t), Verdict::Go);
        assert_eq!(l.check("@a:x", t), Verdict::Warn { wait: 1 });
    }
}
