//! Games taken into their tables outside a command: a game ended on time ([`rate`], its
//! changes announced once) and the games a stop left untaken ([`resume`]).

use super::{foresee, home, mark_name, take};
use crate::games::away;
use crate::kernel::context::Context;
use crate::kernel::kept;
use crate::kernel::outbox::{Notice, Target};
use crate::kernel::request::User;
use crate::kernel::store::GameRecord;

/// A game ended on time is taken into its rating table (once); the changes are announced in
/// its channel, said once: kept before the table is written, then posted (see `kernel::kept`),
/// under the id of the timeout's announcement and `.rating`, so that a restart that finds both
/// owed posts them in that order.
pub fn rate(core: &Context, record: &GameRecord) {
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
    // A game played in two places: its other place is told too, kept the same way.
    let there_id = format!("{}.away", notice.receipt.as_deref().unwrap_or_default());
    let mut elsewhere = match fresh {
        false => None,
        true => away::keep_other_place(
            core,
            record,
            (&record.platform, &foreseen),
            &there_id,
            bot.clone(),
        )
        .unwrap_or_else(|e| {
            tracing::warn!(game = %record.id, "a rating's announcement could not be kept for the game's other place: {e}");
            None
        }),
    };
    let taken = take(core, record);
    if !fresh || taken.is_empty() {
        return;
    }
    // Another game was rated between the two: the words kept are brought up to date.
    if taken != foreseen {
        notice.replies = taken;
        let receipt = kept::receipt_of(&notice, bot.clone(), core.clock.now(), Vec::new());
        if let Some(id) = notice.receipt.as_deref()
            && let Err(e) = core
                .base
                .set_receipt(&record.platform, id, Some(&receipt.encode()))
        {
            tracing::warn!(game = %record.id, "a rating's announcement could not be corrected: {e}");
        }
        if elsewhere.is_some()
            && let Some((n, body)) = away::other_place(
                core,
                record,
                &record.platform,
                &notice.replies,
                &there_id,
                bot.clone(),
            )
        {
            if let Err(e) = core.base.set_receipt(&n.platform, &there_id, Some(&body)) {
                tracing::warn!(game = %record.id, "a rating's announcement could not be corrected in the game's other place: {e}");
            }
            elsewhere = Some(n);
        }
    }
    core.timers.post(notice);
    if let Some(n) = elsewhere {
        core.timers.post(n);
    }
}

/// Takes the finished games of `platform` that no table has taken yet (a crash came between
/// a game's end and its rating), in order of ending. How many were looked at.
pub fn resume(core: &Context, platform: &str) -> usize {
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
