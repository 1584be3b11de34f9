//! Crash testing at exact moments: with `MUSTER_FAULT_AFTER_WRITES=N` in its environment, the
//! process dies at once — `abort`, which like SIGKILL runs no destructor and flushes nothing —
//! right after its N-th store write has committed and before anything is said about it: the
//! moment between storing a move and replying, a timeout stored and not announced, a round
//! paired and its games not yet created. The crash suites (tests/tests/crash.rs) set it; without
//! it a write costs one more atomic load.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

/// The variable that names the write to die after.
pub const VARIABLE: &str = "MUSTER_FAULT_AFTER_WRITES";

static LIMIT: OnceLock<Option<u64>> = OnceLock::new();
static WRITES: AtomicU64 = AtomicU64::new(0);

/// Counts a committed write; dies if it is the one [`VARIABLE`] names.
pub fn wrote() {
    let limit = LIMIT.get_or_init(|| std::env::var(VARIABLE).ok()?.trim().parse().ok());
    if let Some(limit) = *limit
        && WRITES.fetch_add(1, Ordering::Relaxed) + 1 == limit
    {
        std::process::abort();
    }
}
