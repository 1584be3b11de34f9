//! Crash testing at exact moments: with `MUSTER_FAULT_AFTER_WRITES=N` in its environment, the
//! process dies at once — `abort`, which like SIGKILL runs no destructor and flushes nothing —
//! right after its N-th store write has committed and before anything is said about it: the
//! moment between storing a move and replying, a timeout stored and not announced, a round
//! paired and its games not yet created. With `MUSTER_FAULT_BEFORE_WRITES=N` it dies just before
//! its N-th write is tried (compare-and-swaps that change nothing count too): the moment after
//! an act on a platform (a message posted, a thread opened) and before it is recorded. On a
//! manual clock, `muster serve` also takes `~ fault after N` and `~ fault before N` on its
//! standard input, counted from then ([`arm`]), so that a test can aim past the writes of its
//! start. The crash suites (tests/tests/crash.rs, and the suites of each adapter that kill at
//! exact moments) use them; without them a write costs two more atomic loads.

use std::sync::Once;
use std::sync::atomic::{AtomicU64, Ordering};

/// The variable that names the write to die after.
pub const VARIABLE: &str = "MUSTER_FAULT_AFTER_WRITES";

/// The variable that names the write to die before.
pub const BEFORE: &str = "MUSTER_FAULT_BEFORE_WRITES";

/// Writes committed, and the one to die after (0: none).
static WRITES: AtomicU64 = AtomicU64::new(0);
static AFTER_LIMIT: AtomicU64 = AtomicU64::new(0);
/// Writes tried, and the one to die before (0: none).
static TRIED: AtomicU64 = AtomicU64::new(0);
static BEFORE_LIMIT: AtomicU64 = AtomicU64::new(0);
static FROM_ENV: Once = Once::new();

fn read_env() {
    FROM_ENV.call_once(|| {
        let var = |name: &str| std::env::var(name).ok()?.trim().parse::<u64>().ok();
        if let Some(n) = var(VARIABLE) {
            AFTER_LIMIT.store(n, Ordering::SeqCst);
        }
        if let Some(n) = var(BEFORE) {
            BEFORE_LIMIT.store(n, Ordering::SeqCst);
        }
    });
}

/// Dies after the `n`-th write committed from now (`before`: just before the `n`-th write tried
/// from now).
pub fn arm(before: bool, n: u64) {
    read_env();
    if before {
        BEFORE_LIMIT.store(TRIED.load(Ordering::SeqCst) + n, Ordering::SeqCst);
    } else {
        AFTER_LIMIT.store(WRITES.load(Ordering::SeqCst) + n, Ordering::SeqCst);
    }
}

/// Counts a write about to be tried; dies if it is the one to die before.
pub fn writing() {
    read_env();
    let limit = BEFORE_LIMIT.load(Ordering::Relaxed);
    if TRIED.fetch_add(1, Ordering::Relaxed) + 1 == limit {
        std::process::abort();
    }
}

/// Counts a committed write; dies if it is the one to die after.
pub fn wrote() {
    read_env();
    let limit = AFTER_LIMIT.load(Ordering::Relaxed);
    if WRITES.fetch_add(1, Ordering::Relaxed) + 1 == limit {
        std::process::abort();
    }
}
