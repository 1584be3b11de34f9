//! The agenda of the clocks: each timed channel's next due moment — its deadline, or the next
//! reminder of the player to move — worked out from its record and notes, brought up to date
//! whenever a game or a player's settings change, read whole at start. Nothing due is dropped: a
//! channel whose record or notes cannot be read is logged, with its game, and comes back on the
//! agenda a little later (30 s, doubling up to an hour) until it can be seen to.

use crate::games::bot;
use crate::kernel::clock::agenda::hint;
use crate::kernel::context::Context;
use crate::kernel::request::User;
use crate::kernel::store::{ChannelKey, GameRecord, Status, StoreError};
use crate::players::profile::{Mode, Profile, Profiles};

/// The note keeping which reminder points were sent for a game's current move.
pub(super) const REMINDED: &str = "reminded";

/// The note saying a run-out clock was announced (games whose timeouts are claimed).
pub(super) const FLAGGED: &str = "flagged";

/// The first wait before a channel that could not be seen to is tried again, in seconds; each
/// further failure doubles it, up to [`LONGEST_RETRY`].
const FIRST_RETRY: u64 = 30;

/// The longest wait between two tries of a channel that cannot be seen to, in seconds.
const LONGEST_RETRY: u64 = 3_600;

/// The tag of a game's current move, as the notes keep it.
pub(super) fn move_tag(record: &GameRecord) -> String {
    format!("{}:{}", record.id, record.moves.len())
}

/// The reminder points already sent for the current move, from the note's text.
pub(super) fn sent_points(note: Option<&str>, record: &GameRecord) -> Vec<u64> {
    let tag = move_tag(record);
    note.and_then(|n| n.strip_prefix(&tag))
        .and_then(|r| r.strip_prefix('|'))
        .map(|r| r.split(',').filter_map(|p| p.parse().ok()).collect())
        .unwrap_or_default()
}

/// The player whose clock runs, with his seat.
pub(super) fn mover(record: &GameRecord) -> Option<(usize, User)> {
    let wait = record.wait?;
    let p = record.player(wait.seat)?;
    Some((wait.seat, User::from(p)))
}

/// The player to move's reminders not yet sent (`sent` are those sent for this move):
/// `(point, when)`, earliest first.
pub(super) fn pending(record: &GameRecord, profile: &Profile, sent: &[u64]) -> Vec<(u64, u64)> {
    let (Some(wait), Some(deadline)) = (record.wait, record.deadline()) else {
        return Vec::new();
    };
    if profile.notify == Mode::Off {
        return Vec::new();
    }
    let pauses = record.paused(wait.seat);
    let mut out: Vec<(u64, u64)> = profile
        .points()
        .into_iter()
        .filter(|p| !sent.contains(p))
        .filter_map(|p| {
            let at = wait.when_left(p, &pauses)?;
            let at = profile.quiet.as_ref().map_or(at, |q| q.delay(at));
            (at < deadline).then_some((p, at))
        })
        .collect();
    out.sort_by_key(|&(_, at)| at);
    out
}

/// The reminder points sent for `record`'s current move, from its channel's note.
pub(super) fn sent(
    core: &Context,
    key: &ChannelKey,
    record: &GameRecord,
) -> Result<Vec<u64>, StoreError> {
    let note = core.base.note(key, REMINDED)?;
    Ok(sent_points(note.as_deref(), record))
}

/// The next due moment of a channel's game: its deadline (unless a run-out clock waits for a
/// claim and was announced) or its next reminder; with it, the hint of the player it concerns
/// (see `agenda::hint`). `fresh`: the record was just written by a move, so that no note can
/// concern its current move yet.
fn next_moment(
    core: &Context,
    key: &ChannelKey,
    record: &GameRecord,
    fresh: bool,
    profiles: &mut Profiles<'_>,
) -> Result<Option<(u64, u32)>, StoreError> {
    if record.status != Status::Active {
        return Ok(None);
    }
    let Some(deadline) = record.deadline() else {
        return Ok(None);
    };
    let Some((_, user)) = mover(record) else {
        return Ok(None);
    };
    if bot::level_of(&user.id).is_some() {
        return Ok(None);
    }
    let claim = record.clock.is_some_and(|c| c.claim());
    let told = claim && !fresh && core.base.note(key, FLAGGED)? == Some(move_tag(record));
    let sent = if fresh {
        Vec::new()
    } else {
        sent(core, key, record)?
    };
    let profile = profiles.of(record.platform_of(&user.id), &user.id);
    let reminder = pending(record, &profile, &sent).first().map(|p| p.1);
    let at = match (told, reminder) {
        (true, r) => r,
        (false, Some(r)) => Some(r.min(deadline)),
        (false, None) => Some(deadline),
    };
    Ok(at.map(|at| (at, hint(&user.id))))
}

/// Brings the agenda up to date for `key`'s game, read from the store.
pub fn reschedule(core: &Context, key: &ChannelKey) {
    let mut profiles = Profiles::new(core.base.as_ref());
    match core.base.load(key) {
        Ok(live) => reschedule_written(core, key, live.as_ref(), false, &mut profiles),
        Err(e) => retry(core, key, None, &format!("its record cannot be read: {e}")),
    }
}

/// Brings the agenda up to date for `key`'s game as a command just wrote it (`live`: the live
/// record, none once the game is over), without reading it again; `moved` when the command
/// played a decision (no note can concern the new move yet).
pub fn reschedule_written(
    core: &Context,
    key: &ChannelKey,
    live: Option<&GameRecord>,
    moved: bool,
    profiles: &mut Profiles<'_>,
) {
    let Some(record) = live else {
        core.timers.set(key, None);
        return;
    };
    match next_moment(core, key, record, moved, profiles) {
        Ok(due) => {
            core.timers.set(key, due);
            core.timers.succeeded(key);
        }
        Err(e) => retry(
            core,
            key,
            Some(record),
            &format!("its notes cannot be read: {e}"),
        ),
    }
}

/// Brings the agenda up to date for every game of a player (his settings changed).
pub fn reschedule_player(core: &Context, platform: &str, user: &str) {
    match core.base.live_games_of(platform, user) {
        Ok(games) => {
            for g in games.iter().filter(|g| g.clock.is_some()) {
                reschedule(core, &ChannelKey::new(&g.platform, &g.channel));
            }
        }
        Err(e) => tracing::warn!(
            user,
            platform,
            "the clocks of a player's games could not be brought up to date: {e}"
        ),
    }
}

/// Puts `key` back on the agenda a little later, after a failure said in `why`: logged (and so
/// counted in `muster_errors_total`) with its game, never dropped.
pub(super) fn retry(core: &Context, key: &ChannelKey, record: Option<&GameRecord>, why: &str) {
    let tries = core.timers.failed(key);
    let wait = FIRST_RETRY
        .saturating_mul(1 << tries.min(7))
        .min(LONGEST_RETRY);
    let game = record.map_or("?", |r| r.id.as_str());
    tracing::warn!(
        %key,
        game,
        tries,
        "a due moment could not be seen to ({why}); tried again in {wait} s"
    );
    let who = record.and_then(mover).map_or(0, |(_, u)| hint(&u.id));
    core.timers.set(key, Some((core.clock.now() + wait, who)));
}

/// Reads every timed game into the agenda (at start); how many have something due. `Err` when
/// the games cannot be listed.
pub fn load_agenda(core: &Context) -> Result<usize, StoreError> {
    let games = core.base.timed_games()?;
    let mut profiles = Profiles::new(core.base.as_ref());
    let mut n = 0;
    for record in &games {
        let key = ChannelKey::new(&record.platform, &record.channel);
        match next_moment(core, &key, record, false, &mut profiles) {
            Ok(Some(due)) => {
                core.timers.set(&key, Some(due));
                n += 1;
            }
            Ok(None) => {}
            Err(e) => retry(
                core,
                &key,
                Some(record),
                &format!("its notes cannot be read: {e}"),
            ),
        }
    }
    Ok(n)
}
