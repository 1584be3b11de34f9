//! A player's own settings for correspondence play, kept per platform: where reminders go
//! (`notify mention|dm|off`), at what times left (`notify remind 24h 1h`), his quiet hours, and
//! his vacation allowance (`vacation start|end`). While he is on vacation his clocks stand
//! still in every game he plays there: each timed game's record gets the stretch as a pause.

use serde::{Deserialize, Serialize};

use super::actions::{Replies, private};
use super::command::{NotifyCommand, VacationCommand};
use super::timers::{Notice, Target, when};
use super::{Core, Reply, Request};
use crate::clock::duration;
use crate::clock::quiet::Quiet;
use crate::clock::timing::Pause;
use crate::store::{ChannelKey, GameStore, Status, StoreError};

/// Where a player's reminders go.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// A mention in the game's channel.
    #[default]
    Mention,
    /// A direct message (Discord) or direct room (Matrix).
    Dm,
    /// No reminders.
    Off,
}

/// The times left at which a player is reminded, unless he says otherwise: a day and an hour.
pub const DEFAULT_REMIND: [u64; 2] = [86_400, 3_600];

/// A player's vacation: the allowance used in a calendar year, and the one running.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Vacation {
    /// The calendar year (UTC) `used` counts.
    pub year: i32,
    /// Seconds of vacation taken that year.
    pub used: u64,
    /// The running (or last) vacation: from, until.
    pub current: Option<(u64, u64)>,
}

/// A player's settings.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Profile {
    /// Where reminders go.
    #[serde(default)]
    pub notify: Mode,
    /// Times left to remind at, largest first; `None` for [`DEFAULT_REMIND`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remind: Option<Vec<u64>>,
    /// Quiet hours, during which reminders wait.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quiet: Option<Quiet>,
    /// Vacation.
    #[serde(default)]
    pub vacation: Vacation,
    /// How his boards are drawn.
    #[serde(default)]
    pub board: super::appearance::Appearance,
}

/// The calendar year (UTC) of `at`.
fn year(at: u64) -> i32 {
    use chrono::Datelike;
    chrono::DateTime::from_timestamp(i64::try_from(at).unwrap_or(0), 0).map_or(1970, |t| t.year())
}

impl Profile {
    /// The times left to remind at.
    pub fn points(&self) -> Vec<u64> {
        self.remind
            .clone()
            .unwrap_or_else(|| DEFAULT_REMIND.to_vec())
    }

    /// The running vacation at `now`: until when.
    pub fn away_until(&self, now: u64) -> Option<u64> {
        self.vacation
            .current
            .filter(|&(from, to)| from <= now && now < to)
            .map(|(_, to)| to)
    }

    /// Vacation taken in the calendar year of `now`.
    fn used(&self, now: u64) -> u64 {
        if self.vacation.year == year(now) {
            self.vacation.used
        } else {
            0
        }
    }
}

/// Where players' settings are kept: one note per player under this key.
fn profiles(platform: &str) -> ChannelKey {
    ChannelKey::new(platform, "\u{1e}players")
}

/// The settings of `user` on `platform` (the defaults if he has none).
pub fn profile(store: &dyn GameStore, platform: &str, user: &str) -> Profile {
    store
        .note(&profiles(platform), user)
        .ok()
        .flatten()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

/// Changes the settings of `user` by `change` (compare-and-swap, retried); the new settings.
pub(super) fn update<T>(
    store: &dyn GameStore,
    platform: &str,
    user: &str,
    change: impl Fn(&mut Profile) -> Result<T, String>,
) -> Result<(Profile, T), String> {
    let key = profiles(platform);
    for _ in 0..8 {
        let old = store.note(&key, user).map_err(|e| e.to_string())?;
        let mut profile: Profile = old
            .as_deref()
            .and_then(|t| serde_json::from_str(t).ok())
            .unwrap_or_default();
        let out = change(&mut profile)?;
        let new = serde_json::to_string(&profile).map_err(|e| e.to_string())?;
        if store
            .swap_note(&key, user, old.as_deref(), Some(&new))
            .map_err(|e| e.to_string())?
        {
            return Ok((profile, out));
        }
    }
    Err("your settings changed at the same moment; try again".into())
}

fn points_text(points: &[u64]) -> String {
    if points.is_empty() {
        return "never".into();
    }
    let list: Vec<String> = points.iter().map(|p| duration(*p)).collect();
    format!("at {} left", list.join(" and "))
}

/// `notify …`: the settings changed (all together), then shown.
pub(super) fn notify(core: &Core, req: &Request, changes: Vec<NotifyCommand>) -> Replies {
    let store = core.base.as_ref();
    let result = update(store, &req.platform, &req.user.id, |p| {
        for change in &changes {
            match change {
                NotifyCommand::Mode(m) => p.notify = *m,
                NotifyCommand::Remind(points) => p.remind = Some(points.clone()),
                NotifyCommand::RemindDefault => p.remind = None,
                NotifyCommand::Quiet(q) => p.quiet = q.clone(),
            }
        }
        Ok(())
    });
    let profile = match result {
        Ok((p, ())) => p,
        Err(e) => return private(format!("Your settings could not be saved: {e}.")),
    };
    core.reschedule_player(&req.platform, &req.user.id);
    let mode = match profile.notify {
        Mode::Mention => "a mention in the game's channel",
        Mode::Dm => "a direct message",
        Mode::Off => "nothing (reminders are off)",
    };
    let quiet = profile
        .quiet
        .as_ref()
        .map_or("none".to_string(), Quiet::typed);
    let mut text = format!(
        "Your reminders: {mode}, {}; quiet hours: {quiet}.",
        points_text(&profile.points())
    );
    if profile.notify != Mode::Off && !profile.points().is_empty() {
        text.push_str(" A point at or above a game's whole time is not used in that game.");
    }
    text.push_str(&format!(
        " Change them with `{p}notify mention|dm|off`, `{p}notify remind 24h 1h` or `{p}notify quiet 22:00-07:00 Europe/Berlin`.",
        p = core.prefix
    ));
    private(text)
}

/// The time left of the allowance in the year of `now`.
fn allowance_left(core: &Core, profile: &Profile, now: u64) -> u64 {
    core.timers
        .policy
        .vacation_allowance()
        .saturating_sub(profile.used(now))
}

/// `vacation …`.
pub(super) fn vacation(core: &Core, req: &Request, what: VacationCommand) -> Replies {
    let now = core.clock.now();
    let store = core.base.as_ref();
    let p = &core.prefix;
    match what {
        VacationCommand::Show => {
            let profile = profile(store, &req.platform, &req.user.id);
            let left = allowance_left(core, &profile, now);
            let mut text = match profile.away_until(now) {
                Some(to) => format!(
                    "You are on vacation until {}: your clocks stand still. `{p}vacation end` when you are back.",
                    when(&req.platform, to, now)
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
        VacationCommand::Start(length) => {
            let allowance = core.timers.policy.vacation_allowance();
            let result = update(store, &req.platform, &req.user.id, |p| {
                if let Some(to) = p.away_until(now) {
                    return Err(format!(
                        "you are already on vacation until {}; `vacation end` ends it",
                        when(&req.platform, to, now)
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
                Err(e) => return private(format!("No vacation was started: {e}.")),
            };
            let games = pause_games(core, req, |pauses| {
                pauses.push(Pause {
                    player: req.user.id.clone(),
                    from: now,
                    to: until,
                });
            });
            let announce = format!(
                "{} is on vacation until {}: their clock stands still in this game meanwhile.",
                req.user.name,
                when(&req.platform, until, now),
            );
            core.announce(&req.platform, &games, &announce);
            private(format!(
                "Your vacation runs until {} ({}): your clocks stand still in {} timed game{}. \
                 Vacation left this year: {}. `{p}vacation end` when you are back.",
                when(&req.platform, until, now),
                duration(until - now),
                games.len(),
                if games.len() == 1 { "" } else { "s" },
                duration(left)
            ))
        }
        VacationCommand::End => {
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
                Err(e) => return private(format!("Nothing changed: {e}.")),
            };
            let user = req.user.id.clone();
            let games = pause_games(core, req, |pauses| {
                for pause in pauses.iter_mut() {
                    if pause.player == user && pause.from == from && pause.to > now {
                        pause.to = now;
                    }
                }
            });
            core.announce(
                &req.platform,
                &games,
                &format!(
                    "{} is back from vacation: their clock runs again.",
                    req.user.name
                ),
            );
            private(format!(
                "Welcome back: your clocks run again in {} timed game{}.",
                games.len(),
                if games.len() == 1 { "" } else { "s" }
            ))
        }
    }
}

/// Changes the pauses of every timed live game of the requester on his platform by `change`
/// (each game by compare-and-swap, retried); the channels of the games being played.
fn pause_games(core: &Core, req: &Request, change: impl Fn(&mut Vec<Pause>)) -> Vec<ChannelKey> {
    let store = core.base.as_ref();
    let Ok(games) = store.live_games_of(&req.platform, &req.user.id) else {
        return Vec::new();
    };
    let mut playing = Vec::new();
    for game in games.into_iter().filter(|g| g.clock.is_some()) {
        let key = ChannelKey::new(&game.platform, &game.channel);
        let mut record = game;
        for _ in 0..8 {
            let expected = record.version;
            change(&mut record.pauses);
            record.version += 1;
            record.refresh_clock();
            match store.update(&key, expected, &record) {
                Ok(()) => {
                    if record.status == Status::Active {
                        playing.push(key.clone());
                    }
                    break;
                }
                Err(StoreError::Conflict) => match store.load(&key) {
                    Ok(Some(r)) => record = r,
                    _ => break,
                },
                Err(_) => break,
            }
        }
        core.reschedule(&key);
    }
    playing
}

impl Core {
    /// Posts `text` in each of `channels` (after the command's own replies).
    pub(super) fn announce(&self, platform: &str, channels: &[ChannelKey], text: &str) {
        for key in channels {
            self.timers.post(Notice {
                platform: platform.to_string(),
                target: Target::Channel(key.channel.clone()),
                replies: vec![Reply::Text(text.to_string())],
                fallback: None,
                receipt: None,
            });
        }
    }
}
