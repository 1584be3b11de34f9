//! The ratings as the web pages show them (docs/web.md): a table's players in order, and one
//! player's ratings with their history. The chat's `rating` and `leaderboard` word the same
//! tables (`commands.rs`).

use muster_rules::GameId;

use super::maths;
use super::scope::Scope;
use super::{Standing, entry, system_of, table};
use crate::kernel::store::GameStore;

/// One player of a table: his key, his standing, his rating now (idle time counted), and
/// whether it is still provisional.
pub struct Ranked {
    /// The key he is kept under.
    pub key: String,
    /// His standing.
    pub standing: Standing,
    /// His rating now.
    pub now: maths::Rating,
    /// Whether it is provisional (not ranked).
    pub provisional: bool,
}

/// The players of `scope`'s table of `game` at `now`: established ones by rating, then the
/// provisional ones.
pub fn ranked(store: &dyn GameStore, scope: &Scope, game: GameId, now: u64) -> Vec<Ranked> {
    let system = system_of(game);
    let (t, _) = table(store, scope, game.as_str());
    let mut all: Vec<Ranked> = t
        .players
        .into_iter()
        .map(|(key, standing)| {
            let r = standing.now(system, now);
            Ranked {
                key,
                provisional: r.provisional(system),
                now: r,
                standing,
            }
        })
        .collect();
    all.sort_by(|a, b| {
        a.provisional
            .cmp(&b.provisional)
            .then(b.now.rating.total_cmp(&a.now.rating))
            .then(a.key.cmp(&b.key))
    });
    all
}

/// A rating as the tables show it (`1523?` while provisional).
pub fn shown(rating: &maths::Rating, game: GameId) -> String {
    rating.shown(system_of(game))
}

/// How far back a player's history is read: the table's last entries.
const HISTORY: u64 = 500;

/// One rated game of a player: when it ended, the game's id, and his rating after it.
pub struct Point {
    /// When the game ended (seconds since the Unix epoch).
    pub ended: u64,
    /// The game's id.
    pub id: String,
    /// His rating after it.
    pub rating: f64,
}

/// The rated games of the player kept under `key` in `scope`'s table of `game`, oldest first
/// (of the table's last 500 entries), with his rating after each.
pub fn history(store: &dyn GameStore, scope: &Scope, game: GameId, key: &str) -> Vec<Point> {
    let (t, _) = table(store, scope, game.as_str());
    let first = t.seq.saturating_sub(HISTORY) + 1;
    (first..=t.seq)
        .filter_map(|seq| entry(store, scope, game.as_str(), seq))
        .filter(|e| !e.void)
        .filter_map(|e| {
            let rated = e
                .players
                .iter()
                .find(|p| scope.key_of_account(store, &p.id) == key)?;
            Some(Point {
                ended: e.ended,
                id: e.id.clone(),
                rating: rated.after.rating,
            })
        })
        .collect()
}
