//! A learner's progress: the stars of each lesson solved, and the lesson he is taking (its
//! decisions so far and his wrong tries). One note per player beside no platform
//! (`\u{1e}lessons`), under his linked player when his accounts are linked, so that his progress
//! follows him across platforms; what an account gathered before it was linked is counted in.
//! Changed by compare-and-swap.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::kernel::store::{ChannelKey, GameStore};
use crate::players::links;

/// The lesson being taken.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Taking {
    /// The lesson (`lanrick-4`).
    pub lesson: String,
    /// The learner's decisions so far, with the other side's answers, in the lesson's position.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Tries that were not what the task asks.
    #[serde(default)]
    pub wrong: u32,
}

/// A learner's progress.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Progress {
    /// The best stars of each lesson solved (1 to 3), by lesson id.
    #[serde(default)]
    pub stars: BTreeMap<String, u8>,
    /// The lesson being taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub taking: Option<Taking>,
}

impl Progress {
    /// Counts `other` in: the better stars of each lesson; with `taking`, its lesson being
    /// taken when this has none.
    fn merge(&mut self, other: Progress, taking: bool) {
        for (lesson, stars) in other.stars {
            let best = self.stars.entry(lesson).or_insert(0);
            *best = (*best).max(stars);
        }
        if taking && self.taking.is_none() {
            self.taking = other.taking;
        }
    }
}

fn home() -> ChannelKey {
    ChannelKey::new("", "\u{1e}lessons")
}

/// The note name of an account's own record (before it is linked to a player).
pub(super) fn account(platform: &str, user: &str) -> String {
    format!("account:{platform}\u{1f}{user}")
}

/// The note `user` of `platform` keeps his progress under (and his puzzles, beside theirs):
/// his linked player's, else his account's.
pub(super) fn key_of(store: &dyn GameStore, platform: &str, user: &str) -> String {
    match links::player_of(store, platform, user) {
        Some(player) => format!("player:{player}"),
        None => account(platform, user),
    }
}

fn read(store: &dyn GameStore, key: &str) -> Result<(Option<String>, Progress), String> {
    let text = store.note(&home(), key).map_err(|e| e.to_string())?;
    let progress = text
        .as_deref()
        .and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or_default();
    Ok((text, progress))
}

/// The progress of `user` on `platform`: his player's, with what each of his accounts gathered
/// before it was linked.
pub fn of(store: &dyn GameStore, platform: &str, user: &str) -> Result<Progress, String> {
    let key = key_of(store, platform, user);
    let (kept, mut progress) = read(store, &key)?;
    if key.starts_with("player:") {
        // An account's lesson being taken is the player's only until the player's own note is
        // first written; its stars always count.
        for a in links::accounts_of(store, platform, user) {
            let (_, before) = read(store, &account(&a.platform, &a.id))?;
            progress.merge(before, kept.is_none());
        }
    }
    Ok(progress)
}

/// Changes the progress of `user` on `platform` by `change` (compare-and-swap, retried); what
/// `change` returned.
pub fn update<T>(
    store: &dyn GameStore,
    platform: &str,
    user: &str,
    change: impl Fn(&mut Progress) -> T,
) -> Result<T, String> {
    let key = key_of(store, platform, user);
    for _ in 0..8 {
        let (old, _) = read(store, &key)?;
        let mut progress = of(store, platform, user)?;
        let out = change(&mut progress);
        let new = serde_json::to_string(&progress).map_err(|e| e.to_string())?;
        if store
            .swap_note(&home(), &key, old.as_deref(), Some(&new))
            .map_err(|e| e.to_string())?
        {
            return Ok(out);
        }
    }
    Err("your lessons changed at the same moment; try again".into())
}
