//! The one scheduler of a process: it sleeps until the agenda's earliest moment, or until a
//! change brings that moment forward, then has the core do what fell due. At start it reads
//! every timed game, so whatever fell due while the bot was down is done at once (each game
//! ended at its deadline's time, not the restart's).

use std::sync::Arc;
use std::time::Duration;

use super::front::Core;
use crate::kernel::clock::{Clock, ManualClock};

/// The longest single sleep: the agenda is looked at again at least this often, so that a
/// clock set forward by the system is noticed.
const LONGEST_SLEEP: Duration = Duration::from_secs(3_600);

/// On a store shared with other instances, how often the agenda is read again from the store:
/// games the others started or moved in, and theirs to see to if they stopped.
pub const REREAD: Duration = Duration::from_secs(15);

/// On a shared store, how long (seconds) the bot may have been due to decide in a game before
/// this instance makes the decision another instance owed.
const BOT_IDLE: u64 = 30;

/// On a shared store, how old (seconds) a stored announcement still not posted must be before
/// this instance posts it for the instance that stored it.
const NOTICE_AGE: u64 = 60;

/// How often notices posted long ago are forgotten ([`Core::forget_old_notices`]) and the day's
/// puzzle posted where it is due ([`Core::post_daily_puzzles`]).
const FORGET_EVERY: Duration = Duration::from_secs(3_600);

/// Runs the scheduler for `core`'s games until the process is asked to stop.
pub async fn run(core: Arc<Core>) {
    let timed = {
        let core = Arc::clone(&core);
        tokio::task::spawn_blocking(move || core.load_agenda())
            .await
            .unwrap_or(0)
    };
    tracing::info!("the scheduler watches {timed} timed game(s)");
    let shared = core.store().shared();
    let mut reread = tokio::time::Instant::now() + REREAD;
    let mut forget = tokio::time::Instant::now();
    loop {
        if tokio::time::Instant::now() >= forget {
            forget = tokio::time::Instant::now() + FORGET_EVERY;
            let core = Arc::clone(&core);
            let _ = tokio::task::spawn_blocking(move || {
                core.forget_old_notices();
                core.post_daily_puzzles();
            })
            .await;
        }
        if shared && tokio::time::Instant::now() >= reread {
            reread = tokio::time::Instant::now() + REREAD;
            let core = Arc::clone(&core);
            let reread = tokio::task::spawn_blocking(move || {
                // Readiness follows the shared database (`/readyz`).
                match core.store().live_count() {
                    Ok(_) => crate::telemetry::health::ready("store"),
                    Err(e) => crate::telemetry::health::down("store", &e.to_string()),
                }
                core.load_agenda();
                core.resume_stalled_bots(BOT_IDLE);
                // An adapter that does not post what is owed on its platform when it takes the
                // platform over has it found here.
                for surface in core.surfaces() {
                    let platform = surface.platform();
                    if !surface.posts_owed_notices() && core.timers().fires(platform) {
                        core.recover_notices(platform, NOTICE_AGE);
                    }
                }
            })
            .await;
            if let Err(e) = reread {
                tracing::error!("reading the shared store's agenda failed: {e}");
            }
        }
        let changed = core.timers().changed.notified();
        let fired = {
            let core = Arc::clone(&core);
            tokio::task::spawn_blocking(move || core.fire_due()).await
        };
        if let Err(e) = fired {
            tracing::error!("firing what fell due failed: {e}; the agenda is looked at again");
        }
        let now = core.clock().now();
        let sleep = core
            .next_due()
            .map_or(LONGEST_SLEEP, |at| {
                Duration::from_secs(at.saturating_sub(now))
            })
            .min(if shared { REREAD } else { LONGEST_SLEEP });
        tokio::select! {
            _ = tokio::time::sleep(sleep) => {}
            _ = changed => {}
            _ = crate::signals::shutdown() => return,
        }
    }
}

/// Moves the manual `clock` forward to `to`, stopping at each due moment on the way to do what
/// is due then, in order (so a reminder due before a deadline goes out before the timeout, and
/// each at its own time); `each(moment, notices left)` follows every stop. The clock ends at
/// `to` (or where it was, if that is later).
pub fn advance(core: &Core, clock: &ManualClock, to: u64, mut each: impl FnMut(u64, usize)) {
    // Whatever is already due goes first.
    let fired = core.fire_due();
    if fired > 0 {
        each(clock.now(), fired);
    }
    let mut stops = 0;
    while let Some(at) = core.next_due().filter(|at| *at <= to) {
        stops += 1;
        if stops > 100_000 {
            break;
        }
        if at > clock.now() {
            let _ = clock.set(at);
        }
        let fired = core.fire_due();
        if fired > 0 {
            each(clock.now(), fired);
        } else if core.next_due() == Some(at) {
            // Nothing could be done there (the store refused): do not stop there for ever.
            break;
        }
    }
    let _ = clock.set(to);
    let fired = core.fire_due();
    if fired > 0 {
        each(clock.now(), fired);
    }
}
