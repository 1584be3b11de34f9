//! Time as an input. Everything in Muster that reads the time reads it from a [`Clock`]: the
//! system's in service, a [`ManualClock`] that a test or a console script sets and advances,
//! so that nothing ever waits for real time to pass. Instants are seconds since the Unix epoch,
//! in UTC; they are written as RFC 3339 (`2026-11-25T09:30:00Z`) and durations in the form
//! players type (`1d12h`, `36h`, `90m`). Those values, and a game's time control and clocks as
//! its record keeps them, are the store's (`muster_store::time`), re-exported here.

pub mod agenda;
pub mod quiet;

use std::sync::atomic::{AtomicU64, Ordering};

/// Where the time comes from.
pub trait Clock: Send + Sync {
    /// Now, in seconds since the Unix epoch (UTC).
    fn now(&self) -> u64;
}

/// The system's clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    }
}

/// A clock that stands still until it is moved: forward only, as time goes.
#[derive(Debug)]
pub struct ManualClock {
    now: AtomicU64,
}

impl ManualClock {
    /// A clock showing `start`.
    pub fn starting_at(start: u64) -> ManualClock {
        ManualClock {
            now: AtomicU64::new(start),
        }
    }

    /// Moves the clock forward by `seconds`; returns the new time.
    pub fn advance(&self, seconds: u64) -> u64 {
        self.now.fetch_add(seconds, Ordering::SeqCst) + seconds
    }

    /// Sets the clock to `to`, which may not be earlier than it shows.
    pub fn set(&self, to: u64) -> Result<(), String> {
        let now = self.now.load(Ordering::SeqCst);
        if to < now {
            return Err(format!(
                "the clock only goes forward: it shows {}, and {} is earlier",
                rfc3339(now),
                rfc3339(to)
            ));
        }
        self.now.store(to, Ordering::SeqCst);
        Ok(())
    }
}

impl Clock for ManualClock {
    fn now(&self) -> u64 {
        self.now.load(Ordering::SeqCst)
    }
}

pub use muster_store::time::{control, duration, parse_duration, parse_rfc3339, rfc3339, timing};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manual_clock_moves_only_when_told_and_only_forward() {
        let clock = ManualClock::starting_at(1_000);
        assert_eq!(clock.now(), 1_000);
        assert_eq!(clock.advance(36 * 3_600), 1_000 + 129_600);
        assert!(clock.set(5).is_err());
        assert_eq!(clock.now(), 130_600);
        clock.set(200_000).unwrap();
        assert_eq!(clock.now(), 200_000);
        assert!(SystemClock.now() > 1_700_000_000);
    }
}
