//! The day's puzzle posted in the channels that ask for it (docs/puzzles.md): `puzzle daily on`
//! (organisers only) has it posted there once a day, the same puzzle everywhere that day (UTC);
//! `puzzle daily off` stops it. The channels and the day each was last posted are one note
//! beside no platform (`\u{1e}puzzles`, `daily`), changed by compare-and-swap; the scheduler
//! looks every hour and posts where the day has not been posted yet.

use std::collections::BTreeMap;

use super::puzzles::of_the_day;
use crate::kernel::context::Context;
use crate::kernel::outbox::{Notice, Target};
use crate::kernel::reply::{Replies, Reply, private};
use crate::kernel::request::Request;
use crate::kernel::store::{ChannelKey, GameStore};

/// The channels posted in, `platform␟channel`, with the last day posted (days since the Unix
/// epoch, UTC).
type Posting = BTreeMap<String, u64>;

fn home() -> ChannelKey {
    ChannelKey::new("", "\u{1e}puzzles")
}

const NOTE: &str = "daily";

fn place(platform: &str, channel: &str) -> String {
    format!("{platform}\u{1f}{channel}")
}

fn read(store: &dyn GameStore) -> Result<(Option<String>, Posting), String> {
    let text = store.note(&home(), NOTE).map_err(|e| e.to_string())?;
    let posting = text
        .as_deref()
        .and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or_default();
    Ok((text, posting))
}

/// Changes the posting list by `change` (compare-and-swap, retried).
fn update(store: &dyn GameStore, mut change: impl FnMut(&mut Posting)) -> Result<(), String> {
    for _ in 0..8 {
        let (old, mut posting) = read(store)?;
        change(&mut posting);
        let new = serde_json::to_string(&posting).map_err(|e| e.to_string())?;
        if store
            .swap_note(&home(), NOTE, old.as_deref(), Some(&new))
            .map_err(|e| e.to_string())?
        {
            return Ok(());
        }
    }
    Err("the daily puzzles changed at the same moment; try again".into())
}

/// `puzzle daily on|off` in `req`'s channel.
pub fn set(core: &Context, req: &Request, on: bool) -> Replies {
    let p = &core.prefix;
    if !req.policy.organiser {
        return private(format!(
            "Only organisers may have the day's puzzle posted here; `{p}puzzle daily` gives it to you."
        ));
    }
    let here = place(&req.platform, &req.channel);
    let done = update(core.base.as_ref(), |posting| {
        if on {
            // Yesterday's mark: today's is posted at the next look.
            let yesterday = (core.clock.now() / 86_400).saturating_sub(1);
            posting.entry(here.clone()).or_insert(yesterday);
        } else {
            posting.remove(&here);
        }
    });
    match (done, on) {
        (Err(e), _) => private(format!("The setting could not be kept ({e}); try again.")),
        (Ok(()), true) => vec![Reply::Text(format!(
            "The day's puzzle will be posted here once a day (the day by UTC), within the hour for today; `{p}puzzle daily off` stops it."
        ))],
        (Ok(()), false) => vec![Reply::Text(
            "The day's puzzle is no longer posted here.".into(),
        )],
    }
}

/// Posts the day's puzzle in every channel that asks for it and has not had it today; how many
/// were posted.
pub fn post_due(core: &Context) -> Result<usize, String> {
    let today = core.clock.now() / 86_400;
    let Some(entry) = of_the_day(today) else {
        return Ok(0);
    };
    let (_, posting) = read(core.base.as_ref())?;
    let mut posted = 0;
    for (at, last) in posting {
        if last >= today {
            continue;
        }
        let Some((platform, channel)) = at.split_once('\u{1f}') else {
            continue;
        };
        // Marked first: a crash after it loses one day's post rather than doubling it.
        let mut claimed = false;
        update(core.base.as_ref(), |p| {
            claimed = false;
            if let Some(day) = p.get_mut(&at).filter(|d| **d < today) {
                *day = today;
                claimed = true;
            }
        })?;
        if !claimed {
            continue;
        }
        let prefix = core.prefix_in(platform, channel);
        let board = super::puzzles::shown(entry, None, (platform, channel));
        let seat = entry
            .position()
            .map(|g| super::puzzles::seat_of(entry, &g))
            .unwrap_or_default();
        let text = format!(
            "The day's puzzle, {}: {seat} to play — {}. Try it with `{prefix}puzzle daily`: for you alone, and rated at your first try.",
            entry.game.title(),
            entry.theme.task()
        );
        core.timers.post_notice(Notice {
            platform: platform.to_string(),
            target: Target::Channel(channel.to_string()),
            replies: vec![Reply::Board(Box::new(board)), Reply::Text(text)],
            fallback: None,
            receipt: None,
        });
        posted += 1;
    }
    Ok(posted)
}
