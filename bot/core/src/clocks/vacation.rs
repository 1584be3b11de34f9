//! `vacation`: a player's yearly allowance of days on which his clocks stand still. While he is
//! away every timed game of his on the platform carries the stretch as a pause; his opponents
//! are told in each game's channel.

use super::command::VacationCommand;
use super::schedule::reschedule;
use crate::games::away;
use crate::kernel::clock::duration;
use crate::kernel::clock::timing::Pause;
use crate::kernel::context::Context;
use crate::kernel::kept;
use crate::kernel::outbox::{Notice, Target};
use crate::kernel::replayable::Replayable;
use crate::kernel::reply::{Replies, Reply, private};
use crate::kernel::request::Request;
use crate::kernel::store::{Change, ChannelKey, GameRecord, Status, StoreError};
use crate::players::profile::{Profile, profile, update, year};

/// The time left of the allowance in the year of `now`.
fn allowance_left(core: &Context, profile: &Profile, now: u64) -> u64 {
    core.timers
        .policy
        .vacation_allowance()
        .saturating_sub(profile.used(now))
}

/// `vacation …`.
pub fn vacation(core: &Context, req: &Request, what: VacationCommand) -> Replies {
    let now = core.clock.now();
    match what {
        VacationCommand::Show => show(core, req, now),
        VacationCommand::Start(length) => start(core, req, now, length),
        VacationCommand::End => end(core, req, now),
    }
}

/// `vacation`: whether one runs, and what is left of the allowance.
fn show(core: &Context, req: &Request, now: u64) -> Replies {
    let store = core.base.as_ref();
    let p = &core.prefix;
    let when = |to: u64| core.surface(&req.platform).time(to, now);
    let profile = profile(store, &req.platform, &req.user.id);
    let left = allowance_left(core, &profile, now);
    let mut text = match profile.away_until(now) {
        Some(to) => format!(
            "You are on vacation until {}: your clocks stand still. `{p}vacation end` when you are back.",
            when(to)
        ),
        None => "You are not on vacation.".to_string(),
    };
    text.push_str(&format!(
        " Vacation left this year: {} (of {}). `{p}vacation start [days]` takes it.",
        duration(left),
        duration(core.timers.policy.vacation_allowance())
    ));
    private(text)
}

/// `vacation start [days]`: the player's clocks stand still from now, for `length` seconds (the
/// allowance left when not said).
fn start(core: &Context, req: &Request, now: u64, length: Option<u64>) -> Replies {
    let store = core.base.as_ref();
    let p = &core.prefix;
    let when = |to: u64| core.surface(&req.platform).time(to, now);
    let allowance = core.timers.policy.vacation_allowance();
    let result = update(store, &req.platform, &req.user.id, |p| {
        if let Some(to) = p.away_until(now) {
            return Err(format!(
                "you are already on vacation until {}; `vacation end` ends it",
                when(to)
            ));
        }
        let left = allowance.saturating_sub(p.used(now));
        let length = length.unwrap_or(left);
        if left < 3_600 {
            return Err(format!(
                "you have no vacation left this year (the allowance is {} a calendar year)",
                duration(allowance)
            ));
        }
        if length > left {
            return Err(format!(
                "you have {} of vacation left this year, not {}; say `vacation start {}` or less",
                duration(left),
                duration(length),
                left / 86_400
            ));
        }
        if p.vacation.year != year(now) {
            p.vacation.used = 0;
            p.vacation.year = year(now);
        }
        p.vacation.used += length;
        p.vacation.current = Some((now, now + length));
        Ok((now + length, left - length))
    });
    let (until, left) = match result {
        Ok((_, out)) => out,
        Err(e) => {
            // A vacation begun before a crash, its games not all paused yet, is finished now.
            if let Some((from, to)) = profile(store, &req.platform, &req.user.id)
                .vacation
                .current
                .filter(|c| c.1 > now)
            {
                begin(core, req, (from, to));
            }
            return private(format!("No vacation was started: {e}."));
        }
    };
    let games = begin(core, req, (now, until));
    private(format!(
        "Your vacation runs until {} ({}): your clocks stand still in {} timed game{}. \
             Vacation left this year: {}. `{p}vacation end` when you are back.",
        when(until),
        duration(until - now),
        games.len(),
        if games.len() == 1 { "" } else { "s" },
        duration(left)
    ))
}

/// `vacation end`: the player's clocks run again; the days not taken go back to the allowance.
fn end(core: &Context, req: &Request, now: u64) -> Replies {
    let store = core.base.as_ref();
    let result = update(store, &req.platform, &req.user.id, |p| {
        let Some(to) = p.away_until(now) else {
            return Err(format!(
                "you are not on vacation (`{}vacation start [days]` starts one)",
                core.prefix
            ));
        };
        let from = p.vacation.current.map_or(now, |c| c.0);
        // The days not taken go back to the allowance.
        p.vacation.used = p.vacation.used.saturating_sub(to - now);
        p.vacation.current = Some((from, now));
        Ok(from)
    });
    let from = match result {
        Ok((_, from)) => from,
        Err(e) => {
            // A vacation ended before a crash, its games not all running again yet, is
            // finished now: each still paused beyond its end runs again from that end.
            let ended = profile(store, &req.platform, &req.user.id)
                .vacation
                .current
                .filter(|c| c.1 <= now);
            if let Some((from, ended)) = ended {
                let games = resume(core, req, from, ended);
                if !games.is_empty() {
                    return private(format!(
                        "Your vacation had ended already; a stop had left your clock standing in \
                         {} timed game{}, where it runs again from when you ended it.",
                        games.len(),
                        if games.len() == 1 { "" } else { "s" }
                    ));
                }
            }
            return private(format!("Nothing changed: {e}."));
        }
    };
    let games = resume(core, req, from, now);
    private(format!(
        "Welcome back: your clocks run again in {} timed game{}.",
        games.len(),
        if games.len() == 1 { "" } else { "s" }
    ))
}

/// Ends at `ended` the pauses of the vacation begun at `from` in every timed game of the
/// requester where it lasts beyond, each game told in the write that changes it; the channels
/// of the games being played.
fn resume(core: &Context, req: &Request, from: u64, ended: u64) -> Vec<ChannelKey> {
    let user = req.user.id.clone();
    let told = format!(
        "{} is back from vacation: their clock runs again.",
        req.user.name
    );
    let about = [user.as_str(), &from.to_string(), "end"];
    pause_games(core, req, (&told, &about), |pauses| {
        let mut changed = false;
        for pause in pauses.iter_mut() {
            if pause.player == user && pause.from == from && pause.to > ended {
                pause.to = ended;
                changed = true;
            }
        }
        changed
    })
}

/// Pauses the requester's clocks in every timed game of his from `from` to `until`, each game
/// told in the write that pauses it; a game paused so already is left alone. The channels of
/// the games being played.
fn begin(core: &Context, req: &Request, (from, until): (u64, u64)) -> Vec<ChannelKey> {
    let when = core.surface(&req.platform).time(until, core.clock.now());
    let told = format!(
        "{} is on vacation until {when}: their clock stands still in this game meanwhile.",
        req.user.name
    );
    let about = [req.user.id.as_str(), &from.to_string(), "start"];
    let user = req.user.id.clone();
    pause_games(core, req, (&told, &about), |pauses| {
        if pauses.iter().any(|p| p.player == user && p.from == from) {
            return false;
        }
        pauses.push(Pause {
            player: user.clone(),
            from,
            to: until,
        });
        true
    })
}

/// Changes the pauses of every timed live game of the requester on his platform by `change`
/// (each game by compare-and-swap, retried; `change` says whether it changed anything), and
/// says `told` in each game changed, kept in the same write (under an id of `about` and the
/// game), so that a crash neither loses nor repeats it; the channels of the games being played.
fn pause_games(
    core: &Context,
    req: &Request,
    (told, about): (&str, &[&str]),
    change: impl Fn(&mut Vec<Pause>) -> bool,
) -> Vec<ChannelKey> {
    let store = core.base.as_ref();
    let games = match store.live_games_of(&req.platform, &req.user.id) {
        Ok(g) => g,
        Err(e) => {
            tracing::warn!(user = %req.user.id, "a vacation could not reach the player's games: {e}");
            return Vec::new();
        }
    };
    let mut playing = Vec::new();
    for game in games.into_iter().filter(|g| g.clock.is_some()) {
        let key = ChannelKey::new(&game.platform, &game.channel);
        if pause_game(core, req, (told, about), &change, &key, game) {
            playing.push(key.clone());
        }
        reschedule(core, &key);
    }
    playing
}

/// Changes the pauses of one game by `change` and says `told` in it, as [`pause_games`] does
/// for each; whether the game is being played and was changed (and so told).
fn pause_game(
    core: &Context,
    req: &Request,
    (told, about): (&str, &[&str]),
    change: &impl Fn(&mut Vec<Pause>) -> bool,
    key: &ChannelKey,
    mut record: GameRecord,
) -> bool {
    let store = core.base.as_ref();
    for _ in 0..8 {
        let expected = record.version;
        if !change(&mut record.pauses) {
            return false;
        }
        record.version += 1;
        record.refresh_clock();
        let said = vacation_told(core, req, (told, about), &record, key);
        let update = Change::Update {
            expected,
            record: record.clone(),
        };
        // Only a game being played is told (one waiting for players has no clock running).
        let playing_now = record.status == Status::Active;
        let mut kept = Vec::new();
        if playing_now {
            kept.push((req.platform.as_str(), said.id.as_str(), said.body.as_str()));
            if let Some((n, b)) = &said.there {
                kept.push((n.platform.as_str(), said.there_id.as_str(), b.as_str()));
            }
        }
        match store.commit(key, Some(&update), &kept) {
            Ok(()) => {
                if playing_now {
                    core.timers.post(said.notice);
                    if let Some((n, _)) = said.there {
                        core.timers.post(n);
                    }
                }
                return playing_now;
            }
            Err(StoreError::Conflict) => match store.load(key) {
                Ok(Some(r)) => record = r,
                Ok(None) => return false,
                Err(e) => {
                    tracing::warn!(game = %record.id, "a vacation could not change a game's clock: {e}");
                    return false;
                }
            },
            Err(e) => {
                tracing::warn!(game = %record.id, "a vacation could not change a game's clock: {e}");
                return false;
            }
        }
    }
    false
}

/// What a vacation tells one game: the notice where the player plays it, kept as the receipt
/// `id` (its body `body`), and the notice for its other place, kept as `there_id`.
struct VacationTold {
    notice: Notice,
    id: String,
    body: String,
    there: Option<(Notice, String)>,
    there_id: String,
}

/// The notices that tell the game `record` (in the channel `key`) `told`, under an id of
/// `about` and the game.
fn vacation_told(
    core: &Context,
    req: &Request,
    (told, about): (&str, &[&str]),
    record: &GameRecord,
    key: &ChannelKey,
) -> VacationTold {
    let mut parts = about.to_vec();
    parts.push(&record.id);
    // Told where he plays the game (its other place, for a game on two platforms),
    // and its other place too.
    let here = record.place_on(&req.platform).unwrap_or(&key.channel);
    let notice = Notice {
        platform: req.platform.clone(),
        target: Target::Channel(here.to_string()),
        replies: vec![Reply::Text(told.to_string())],
        fallback: None,
        receipt: Some(kept::intent("vacation", &parts)),
    };
    let receipt = kept::receipt_of(&notice, req.user.clone(), core.clock.now(), Vec::new());
    let id = notice.receipt.clone().unwrap_or_default();
    let there_id = format!("{id}.away");
    let there = away::other_place(
        core,
        record,
        &req.platform,
        &notice.replies,
        &there_id,
        req.user.clone(),
    );
    VacationTold {
        notice,
        id,
        body: receipt.encode(),
        there,
        there_id,
    }
}
