//! A player's settings, kept per platform: where and when he is reminded, his vacation, and how
//! he likes his boards drawn. One note per player, changed by compare-and-swap
//! ([`update`]); a player with no note has the defaults.

use muster_render::{Size, Theme};
use serde::{Deserialize, Serialize};

use crate::kernel::clock::quiet::Quiet;
use crate::kernel::store::{ChannelKey, GameStore};

/// Where a player's reminders go.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// A mention in the game's channel.
    #[default]
    Mention,
    /// A direct message, or a direct room.
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
    /// For a player whose accounts are linked: the platform all his reminders go to, as direct
    /// messages to his account there (`notify on <platform>`); `None`: each game's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub route: Option<String>,
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
    pub board: Appearance,
}

/// The calendar year (UTC) of `at`.
pub fn year(at: u64) -> i32 {
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
    pub fn used(&self, now: u64) -> u64 {
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
pub fn update<T>(
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

/// Which colour a player wants at the bottom of his boards.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// White's side: Lanrick's first rank; on a Lanko board a White seat, the player's own if
    /// he holds one, else S.
    White,
    /// Black's side: Lanrick's eighth rank; on a Lanko board a Black seat, the player's own if
    /// he holds one, else W.
    Black,
}

/// A player's board settings.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Appearance {
    /// The colour at the bottom; `None` until he chooses, which draws White's side there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<Side>,
    /// The colours.
    #[serde(default)]
    pub theme: Theme,
    /// The size.
    #[serde(default)]
    pub size: Size,
}

/// The settings of the players one piece of work needs, each read from the store once.
pub struct Profiles<'a> {
    store: &'a dyn GameStore,
    read: Vec<((String, String), Profile)>,
}

impl<'a> Profiles<'a> {
    /// Nothing read yet, from `store`.
    pub fn new(store: &'a dyn GameStore) -> Profiles<'a> {
        Profiles {
            store,
            read: Vec::new(),
        }
    }

    /// The settings of `user` on `platform` (read on the first call).
    pub fn of(&mut self, platform: &str, user: &str) -> Profile {
        if let Some((_, p)) = self
            .read
            .iter()
            .find(|((pl, u), _)| pl == platform && u == user)
        {
            return p.clone();
        }
        let p = profile(self.store, platform, user);
        self.read
            .push(((platform.to_string(), user.to_string()), p.clone()));
        p
    }
}
