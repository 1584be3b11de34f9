//! Reminders: a player's reminder points falling due, each marked as sent (compare-and-swap on
//! a channel note) before the reminder goes out, so that no instance and no restart repeats one;
//! and those due to one player within a short while gathered into one message.

use super::schedule::{self, REMINDED, move_tag, mover, pending, sent_points};
use crate::kernel::clock::agenda::hint;
use crate::kernel::clock::duration;
use crate::kernel::context::Core;
use crate::kernel::outbox::{Notice, Target};
use crate::kernel::reply::Reply;
use crate::kernel::request::User;
use crate::kernel::store::{ChannelKey, GameRecord, StoreError};
use crate::kernel::text::capitalised;
use crate::players::profile::{Mode, Profiles};
use crate::telemetry::metrics::metrics;

/// Reminders due to one player within this many seconds of each other go out as one message.
pub const COALESCE: u64 = 15 * 60;

/// A reminder to send: the game and the time left then.
pub struct Due {
    key: ChannelKey,
    record: GameRecord,
    left: u64,
    deadline: u64,
}

/// Sends the reminders that fell due at `now`, one message per player, each with his other
/// games due a little later; how many notices were left in the outbox.
pub(super) fn send(core: &Core, mut reminders: Vec<Due>, now: u64) -> usize {
    let mut players: Vec<(String, User)> = Vec::new();
    for d in &reminders {
        if let Some((_, u)) = mover(&d.record)
            && !players
                .iter()
                .any(|(p, x)| *p == d.record.platform && x.id == u.id)
        {
            players.push((d.record.platform.clone(), u));
        }
    }
    let mut posted = 0;
    for (platform, user) in players {
        let (mut mine, rest): (Vec<Due>, Vec<Due>) = reminders.into_iter().partition(|d| {
            d.record.platform == platform && mover(&d.record).is_some_and(|(_, u)| u.id == user.id)
        });
        reminders = rest;
        mine.extend(soon_for(core, &platform, &user, now, &mine));
        if let Some(n) = reminder(core, &platform, &user, mine, now) {
            metrics().reminder();
            core.timers.post(n);
            posted += 1;
        }
    }
    posted
}

/// The player's other reminders due within [`COALESCE`] of now (marked as sent): found
/// among the channels the agenda has due in that window, not by reading every game.
fn soon_for(core: &Core, platform: &str, user: &User, now: u64, taken: &[Due]) -> Vec<Due> {
    let soon_keys = core
        .timers
        .agenda()
        .between(now, now + COALESCE, hint(&user.id));
    let profile = Profiles::new(core.base.as_ref()).of(platform, &user.id);
    let mut out = Vec::new();
    for key in soon_keys {
        if key.platform != platform || taken.iter().any(|d| d.key == key) {
            continue;
        }
        // What cannot be read now is sent at its own time (the agenda still has it).
        let Ok(Some(record)) = core.base.load(&key) else {
            continue;
        };
        if mover(&record).is_none_or(|(_, u)| u.id != user.id) {
            continue;
        }
        let Ok(sent) = schedule::sent(core, &key, &record) else {
            continue;
        };
        let soon: Vec<u64> = pending(&record, &profile, &sent)
            .iter()
            .filter(|(_, at)| *at <= now + COALESCE)
            .map(|(p, _)| *p)
            .collect();
        if soon.is_empty() {
            continue;
        }
        if let Ok(Some(d)) = mark_sent(core, &key, record, &soon, now) {
            out.push(d);
            schedule::reschedule(core, &key);
        }
    }
    out
}

/// Marks `points` as sent for the game's current move; the reminder, if this call marked
/// them (another instance or an earlier run may have).
pub(super) fn mark_sent(
    core: &Core,
    key: &ChannelKey,
    record: GameRecord,
    points: &[u64],
    now: u64,
) -> Result<Option<Due>, StoreError> {
    let old = core.base.note(key, REMINDED)?;
    let mut sent = sent_points(old.as_deref(), &record);
    // Points marked since they were found due (by another instance) are not sent again.
    let fresh: Vec<u64> = points
        .iter()
        .copied()
        .filter(|p| !sent.contains(p))
        .collect();
    if fresh.is_empty() {
        return Ok(None);
    }
    sent.extend_from_slice(&fresh);
    let list: Vec<String> = sent.iter().map(u64::to_string).collect();
    let new = format!("{}|{}", move_tag(&record), list.join(","));
    if !core
        .base
        .swap_note(key, REMINDED, old.as_deref(), Some(&new))?
    {
        return Ok(None);
    }
    let (Some(wait), Some(deadline)) = (record.wait, record.deadline()) else {
        return Ok(None);
    };
    Ok(Some(Due {
        key: key.clone(),
        left: wait.left_at(now, &record.paused(wait.seat)),
        deadline,
        record,
    }))
}
/// A reminder for `user` about `games` (at least one), where his settings send it.
fn reminder(
    core: &Core,
    platform: &str,
    user: &User,
    mut games: Vec<Due>,
    now: u64,
) -> Option<Notice> {
    if games.is_empty() {
        return None;
    }
    games.sort_by_key(|d| d.deadline);
    let profile = Profiles::new(core.base.as_ref()).of(platform, &user.id);
    let surface = core.surface(platform);
    let line = |d: &Due| {
        let title = d.record.game_id().map_or("a game", |g| g.title());
        let mut others: Vec<&str> = Vec::new();
        for p in d.record.seats.iter().filter_map(|s| s.player.as_ref()) {
            if p.id != user.id && !others.contains(&p.name.as_str()) {
                others.push(p.name.as_str());
            }
        }
        format!(
            "{} left for your move in {} ({title} against {}) — the deadline is {}",
            duration(d.left),
            surface.channel_link(&d.record.channel),
            others.join(", "),
            surface.time(d.deadline, now)
        )
    };
    let text = if games.len() == 1 {
        format!("{}.", line(&games[0]))
    } else {
        let lines: Vec<String> = games.iter().map(|d| format!("• {}", line(d))).collect();
        format!(
            "your move is due soon in {} games:\n{}",
            games.len(),
            lines.join("\n")
        )
    };
    let target = match profile.notify {
        Mode::Off => return None,
        Mode::Dm => Target::Direct(user.clone()),
        Mode::Mention => Target::Channel(games[0].key.channel.clone()),
    };
    let in_channel = Notice {
        platform: platform.to_string(),
        target: Target::Channel(games[0].key.channel.clone()),
        replies: vec![Reply::Mention {
            user: user.clone(),
            text: text.clone(),
        }],
        fallback: None,
        receipt: None,
    };
    Some(match target {
        Target::Direct(_) => Notice {
            platform: platform.to_string(),
            target,
            replies: vec![Reply::Text(format!("Reminder: {}", capitalised(&text)))],
            fallback: Some(Box::new(in_channel)),
            receipt: None,
        },
        Target::Channel(_) | Target::Open(_) => in_channel,
    })
}
