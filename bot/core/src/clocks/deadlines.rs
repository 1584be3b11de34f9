//! Clocks at work: timeouts, claims and reminders. Deadlines come from the records
//! (`GameRecord::deadline`); the agenda holds each timed channel's next due moment, and
//! [`fire_due`] — run by the one scheduler of the process, or by a console `~` line — does what
//! fell due, in order, and leaves messages for the adapters in the outbox.
//!
//! A timeout ends the game by compare-and-swap, so a move stored a moment before the deadline
//! wins the race and a move coming after it finds the game lost on time; never both.
//! Reminders are kept once per move and point in a channel note (changed by compare-and-swap
//! before the reminder is sent), so a restart never repeats one. What cannot be seen to now is
//! logged and put back on the agenda ([`super::schedule`]).

use muster_rules::Seat;

use super::reminders::{self, Due};
use super::schedule::{FLAGGED, move_tag, mover, pending, reschedule, retry, sent};
use crate::games::away;
use crate::games::timeouts::{finish_on_time, notice_id};
use crate::games::words;
use crate::kernel::context::Context;
use crate::kernel::kept;
use crate::kernel::outbox::{Notice, Target};
use crate::kernel::replayable::Replayable;
use crate::kernel::reply::{Replies, Reply};
use crate::kernel::request::User;
use crate::kernel::store::{ChannelKey, GameRecord, Status, StoreError};
use crate::players::profile::Profiles;
use crate::telemetry::metrics::metrics;

/// What [`fire_due`] did: how many notices it left in the outbox, and the games that ended on
/// time (to be rated and reported to their events by the desk).
#[derive(Default)]
pub struct Fired {
    /// Notices left in the outbox.
    pub posted: usize,
    /// Games lost on time, as archived.
    pub ended: Vec<GameRecord>,
}

/// Does everything due by now, in order: timeouts (the game ended at its deadline),
/// announcements of run-out clocks that wait for a claim, and reminders (coalesced per
/// player). Leaves the messages in the outbox.
pub fn fire_due(core: &Context) -> Fired {
    let now = core.clock.now();
    let due = core.timers.take_due(now);
    let mut reminders: Vec<Due> = Vec::new();
    let mut fired = Fired::default();
    for (_, key) in due {
        // Another instance sees to it (it is read again when this one takes it over).
        if !core.timers.fires(&key.platform) {
            continue;
        }
        let record = match core.base.load(&key) {
            Ok(Some(r)) => r,
            // The game is gone (ended by a command meanwhile): nothing is due there.
            Ok(None) => continue,
            Err(e) => {
                retry(core, &key, None, &format!("its record cannot be read: {e}"));
                continue;
            }
        };
        match tend(core, &key, &record, now) {
            Ok(Tended::Notice(told)) => {
                let (n, ended) = *told;
                core.timers.post(n);
                fired.posted += 1;
                if let Some(ended) = ended {
                    metrics().timeout();
                    fired.ended.push(ended);
                }
            }
            Ok(Tended::Remind(d)) => reminders.push(*d),
            Ok(Tended::Nothing) => {}
            Err(why) => {
                retry(core, &key, Some(&record), &why);
                continue;
            }
        }
        reschedule(core, &key);
    }
    fired.posted += reminders::send(core, reminders, now);
    fired
}

/// What one channel needed.
enum Tended {
    /// A notice to post; with the game, when it ended on time.
    Notice(Box<(Notice, Option<GameRecord>)>),
    /// A reminder, to be sent with the player's others.
    Remind(Box<Due>),
    Nothing,
}

/// What is due in one channel at `now`; `Err` says why it could not be seen to.
fn tend(core: &Context, key: &ChannelKey, record: &GameRecord, now: u64) -> Result<Tended, String> {
    let Some(deadline) = record
        .deadline()
        .filter(|_| record.status == Status::Active)
    else {
        return Ok(Tended::Nothing);
    };
    if deadline <= now {
        return if record.clock.is_some_and(|c| c.claim()) {
            flag(core, key, record, deadline)
        } else {
            time_out(core, key, record, deadline)
        };
    }
    let Some((_, user)) = mover(record) else {
        return Ok(Tended::Nothing);
    };
    let profile = Profiles::new(core.base.as_ref()).of(record.platform_of(&user.id), &user.id);
    let sent = sent(core, key, record).map_err(|e| format!("its reminders cannot be read: {e}"))?;
    let points: Vec<u64> = pending(record, &profile, &sent)
        .into_iter()
        .filter(|(_, at)| *at <= now)
        .map(|(p, _)| p)
        .collect();
    if points.is_empty() {
        return Ok(Tended::Nothing);
    }
    Ok(Due::new(key, record.clone(), points, now)
        .map_or(Tended::Nothing, |d| Tended::Remind(Box::new(d))))
}

/// A run-out clock that waits for a claim: announced once. The announcement is kept first
/// (under an id of the game's move), then the note marks the clock as announced, then it is
/// posted: a crash between two steps neither loses it nor says it twice (see `kernel::kept`).
fn flag(
    core: &Context,
    key: &ChannelKey,
    record: &GameRecord,
    deadline: u64,
) -> Result<Tended, String> {
    let tag = move_tag(record);
    let why = |e: StoreError| format!("its run-out clock cannot be marked: {e}");
    let old = core.base.note(key, FLAGGED).map_err(why)?;
    if old.as_deref() == Some(tag.as_str()) {
        return Ok(Tended::Nothing);
    }
    let id = kept::intent("flag", &[&key.channel, &tag]);
    let notice = Notice {
        platform: key.platform.clone(),
        target: Target::Channel(key.channel.clone()),
        replies: run_out_words(core, record, deadline),
        fallback: None,
        receipt: Some(id),
    };
    let loser = mover(record).map_or_else(|| User::named("?"), |(_, u)| u);
    // A game played in two places: its other place is told too, kept the same way.
    let away_id = format!("{}.away", notice.receipt.as_deref().unwrap_or_default());
    let elsewhere = away::keep_other_place(
        core,
        record,
        (&key.platform, &notice.replies),
        &away_id,
        loser.clone(),
    )
    .map_err(|e| format!("its run-out clock's notice cannot be kept: {e}"))?;
    let fresh = kept::keep(
        core.base.as_ref(),
        &notice,
        loser,
        core.clock.now(),
        Vec::new(),
    )
    .map_err(|e| format!("its run-out clock's notice cannot be kept: {e}"))?
    .is_some();
    // Marked by another instance meanwhile: then it found this notice kept, and leaves it to
    // this one to post.
    core.base
        .swap_note(key, FLAGGED, old.as_deref(), Some(&tag))
        .map_err(why)?;
    if let Some(there) = elsewhere {
        core.timers.post(there);
    }
    // Kept before: a crash came before the mark, and the notice is owed from there.
    if !fresh {
        return Ok(Tended::Nothing);
    }
    Ok(Tended::Notice(Box::new((notice, None))))
}

/// What is said when a clock that waits for a claim runs out.
fn run_out_words(core: &Context, record: &GameRecord, deadline: u64) -> Replies {
    let Ok(game) = record.rebuild() else {
        return Vec::new();
    };
    let Some(seat) = record.wait.and_then(|w| Seat::new(w.seat)) else {
        return Vec::new();
    };
    let table = game.table();
    let mut others: Vec<String> = Vec::new();
    for s in table
        .all()
        .filter(|s| table.team_of(*s) != table.team_of(seat))
    {
        if let Some(p) = record.player(s.index())
            && !others.contains(&p.name)
        {
            others.push(p.name.clone());
        }
    }
    vec![Reply::Text(format!(
        "{}'s time ran out at {}. {} may `{}claim` the win, or keep waiting for the move.",
        words::who(record, &game, seat),
        core.surface_of(record).time(deadline, deadline),
        others.join(" or "),
        core.prefix_in(&record.platform, &record.channel)
    ))]
}

/// Ends the game on time at `deadline` (by compare-and-swap on the real store): the
/// announcement, with the board, kept as a receipt until it is posted; and the ended game.
fn time_out(
    core: &Context,
    key: &ChannelKey,
    record: &GameRecord,
    deadline: u64,
) -> Result<Tended, String> {
    let game = record
        .rebuild()
        .map_err(|e| format!("its record does not replay: {}", e.0))?;
    let Some(seat) = record.wait.map(|w| w.seat) else {
        return Ok(Tended::Nothing);
    };
    let ending = record.ran_out(seat);
    let id = notice_id(&record.id);
    let store = core.base.as_ref();
    match finish_on_time(
        core,
        store,
        key,
        record.clone(),
        &game,
        ending,
        deadline,
        Some(&id),
    ) {
        Ok((replies, ended)) => {
            let notice = Notice {
                platform: key.platform.clone(),
                target: Target::Channel(key.channel.clone()),
                replies,
                fallback: None,
                receipt: Some(id),
            };
            Ok(Tended::Notice(Box::new((notice, Some(ended)))))
        }
        // A move stored at the last moment won the race: the game goes on.
        Err(StoreError::Conflict) => Ok(Tended::Nothing),
        Err(e) => Err(format!("its end on time cannot be stored: {e}")),
    }
}
