//! Games taken into their tables outside a command: a game ended on time ([`rate`], its
//! changes announced once) and the games a stop left untaken ([`resume`]).

use super::{foresee, home, mark_name, take};
use crate::kernel::context::Core;
use crate::kernel::kept;
use crate::kernel::outbox::{Notice, Target};
use crate::kernel::request::User;
use crate::kernel::store::GameRecord;

/// A game ended on time is taken into its rating table (once); the changes are announced in
/// its channel, said once: kept before the table is written, then posted (see `kernel::kept`),
/// under the id of the timeout's announcement and `.rating`, so that a restart that finds both
/// owed posts them in that order.
pub fn rate(core: &Core, record: &GameRecord) {
    let foreseen = foresee(core, record);
    let mut notice = Notice {
        platform: record.platform.clone(),
        target: Target::Channel(record.channel.clone()),
        replies: foreseen.clone(),
        fallback: None,
        receipt: Some(format!(
            "{}.rating",
            crate::games::timeouts::notice_id(&record.id)
        )),
    };
    let bot = User::named("muster");
    let fresh = !foreseen.is_empty()
        && match kept::keep(
            core.base.as_ref(),
            &notice,
            bot.clone(),
            core.clock.now(),
            Vec::new(),
        ) {
            Ok(fresh) => fresh.is_some(),
            Err(e) => {
                tracing::warn!(game = %record.id, "a rating's announcement could not be kept: {e}");
                true
            }
        };
    let taken = take(core, record);
    if !fresh || taken.is_empty() {
        return;
    }
    // Another game was rated between the two: the words kept are brought up to date.
    if taken != foreseen {
        notice.replies = taken;
        let receipt = kept::receipt_of(&notice, bot, core.clock.now(), Vec::new());
        if let Some(id) = notice.receipt.as_deref()
            && let Err(e) = core
                .base
                .set_receipt(&record.platform, id, Some(&receipt.encode()))
        {
            tracing::warn!(game = %record.id, "a rating's announcement could not be corrected: {e}");
        }
    }
    core.timers.post(notice);
}

/// Takes the finished games of `platform` that no table has taken yet (a crash came between
/// a game's end and its rating), in order of ending. How many were looked at.
pub fn resume(core: &Core, platform: &str) -> usize {
    let store = core.base.as_ref();
    let ids = match store.archive_ids() {
        Ok(ids) => ids,
        Err(e) => {
            tracing::error!(
                platform,
                "the finished games cannot be listed to rate them: {e}"
            );
            return 0;
        }
    };
    let mut pending: Vec<GameRecord> = Vec::new();
    for id in ids {
        let read = store
            .note(&home(platform), &mark_name(&id))
            .and_then(|mark| match mark {
                Some(_) => Ok(None),
                None => store.archived(&id),
            });
        match read {
            Ok(Some(r)) if r.platform == platform => pending.push(r),
            Ok(_) => {}
            Err(e) => {
                tracing::warn!(game = %id, "a finished game could not be read to rate it: {e}")
            }
        }
    }
    pending.sort_by(|a, b| a.updated.cmp(&b.updated).then_with(|| a.id.cmp(&b.id)));
    let n = pending.len();
    for record in pending {
        // Quietly: these games ended before this start.
        let _ = take(core, &record);
    }
    n
}
