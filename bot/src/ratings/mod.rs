//! Ratings: one per player, per game, per community, kept in the store and updated the moment a
//! rated game ends, in order of ending (docs/ratings.md).
//!
//! Each community's game has one table (a note), changed by compare-and-swap: both players'
//! new ratings land in one write. The table remembers the last game it took, and every game it
//! took is kept as an entry of its log (for `ratings export`), written before the table; a game
//! is marked as taken after. A crash anywhere in between is repaired by taking the game again:
//! the log entry is rewritten the same, and a table that already took it is not changed twice.
//! A game whose end was stored but never taken (a crash right after it) is found at start
//! among the archived games without a mark.

pub mod commands;
pub mod maths;

use std::collections::BTreeMap;

use muster_rules::{AnyGame, GameId, Outcome, Seat};
use serde::{Deserialize, Serialize};

use crate::games::bot;
use crate::kernel::context::Core;
use crate::kernel::kept;
use crate::kernel::outbox::{Notice, Target};
use crate::kernel::reply::Reply;
use crate::kernel::request::User;
use crate::kernel::store::{ChannelKey, Ending, GameRecord, GameStore, Status};
use maths::{Rating, System};

/// Where the tables, logs and marks are kept.
const HOME: &str = "\u{1e}ratings";

/// One player's standing in a table.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Standing {
    /// The name last seen.
    pub name: String,
    /// The rating after his last rated game.
    pub rating: Rating,
    /// Rated games played.
    pub games: u32,
    /// His highest rating after any game, provisional ones included: what Muster kept as his
    /// best before it counted established ratings only. Still kept, so that the table reads the
    /// same to older code; the ratings export gives it as `best`.
    pub best: f64,
    /// His best rating: the highest a game left established, none while none has
    /// (docs/ratings.md). Missing from a table written by older code, which [`table`] recounts
    /// from the log.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_established: Option<f64>,
    /// His last change.
    pub last_change: f64,
    /// When his last rated game ended (seconds since the Unix epoch).
    pub last_at: u64,
}

impl Standing {
    /// His rating as of `now`, the deviation grown with the days since his last game.
    pub fn now(&self, system: System, now: u64) -> Rating {
        let days = now.saturating_sub(self.last_at) as f64 / 86_400.0;
        self.rating.idle(system, days)
    }
}

/// A community's table of one game.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize, Default)]
pub struct Table {
    /// Rated games taken.
    pub seq: u64,
    /// The last game taken.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last: Option<String>,
    /// The players, by id.
    pub players: BTreeMap<String, Standing>,
    /// Whether its players' `best_established` are kept: false in a table last written by code
    /// that did not keep them (it drops this field too), whose bests [`table`] recounts.
    #[serde(default)]
    pub bests_kept: bool,
}

/// One player of a rated game, as the log keeps him.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Rated {
    /// His id.
    pub id: String,
    /// His name.
    pub name: String,
    /// His side: `white` (the first seat's) or `black`.
    pub side: String,
    /// His rating before the game (after the inactivity rule).
    pub before: Rating,
    /// After it.
    pub after: Rating,
}

/// A rated game as the log keeps it.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Entry {
    /// Its place in the table's order (from 1).
    pub seq: u64,
    /// The game's record id.
    pub id: String,
    /// The game (`lanrick`).
    pub game: String,
    /// When it ended (seconds since the Unix epoch).
    pub ended: u64,
    /// `1-0`, `0-1` or `1/2-1/2`, the first side's first.
    pub result: String,
    /// The players.
    pub players: Vec<Rated>,
}

fn home(platform: &str) -> ChannelKey {
    ChannelKey::new(platform, HOME)
}

fn table_name(community: &str, game: &str) -> String {
    format!("{community}/{game}")
}

fn log_name(community: &str, game: &str, seq: u64) -> String {
    format!("{community}/{game}/log/{seq:08}")
}

fn mark_name(id: &str) -> String {
    format!("rated/{id}")
}

/// The rating system of a game.
pub fn system_of(game: GameId) -> System {
    if AnyGame::new(game).table().len() > 2 {
        System::WengLin
    } else {
        System::Glicko2
    }
}

/// A table and its text (the compare-and-swap token). A table written by code that did not
/// keep each player's best established rating has them recounted from its log (written back
/// with the table's next change).
pub(crate) fn table(
    store: &dyn GameStore,
    platform: &str,
    community: &str,
    game: &str,
) -> (Table, Option<String>) {
    let text = store
        .note(&home(platform), &table_name(community, game))
        .ok()
        .flatten();
    let mut table: Table = text
        .as_deref()
        .and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or_default();
    if !table.bests_kept {
        recount_bests(store, platform, community, game, &mut table);
    }
    (table, text)
}

/// A player's best established rating once `after` (his rating after a game) is taken.
fn best_after(best: Option<f64>, after: &Rating, system: System) -> Option<f64> {
    if after.provisional(system) {
        return best;
    }
    Some(best.map_or(after.rating, |b| b.max(after.rating)))
}

/// Each player's best established rating, from the table's log: the highest rating after a
/// game that left it established. A player whose log entries cannot be read but whose last
/// rating is established has at least that.
fn recount_bests(
    store: &dyn GameStore,
    platform: &str,
    community: &str,
    game: &str,
    table: &mut Table,
) {
    let Ok(system) = game.parse::<GameId>().map(system_of) else {
        return;
    };
    table
        .players
        .values_mut()
        .for_each(|s| s.best_established = None);
    for seq in 1..=table.seq {
        let Some(e) = entry(store, platform, community, game, seq) else {
            tracing::warn!(
                community,
                game,
                seq,
                "a rated game's log entry cannot be read to recount the best ratings"
            );
            continue;
        };
        for p in &e.players {
            if let Some(s) = table.players.get_mut(&p.id) {
                s.best_established = best_after(s.best_established, &p.after, system);
            }
        }
    }
    for s in table.players.values_mut() {
        s.best_established = best_after(s.best_established, &s.rating, system);
    }
    table.bests_kept = true;
}

/// The log entry `seq` of a table.
pub(crate) fn entry(
    store: &dyn GameStore,
    platform: &str,
    community: &str,
    game: &str,
    seq: u64,
) -> Option<Entry> {
    store
        .note(&home(platform), &log_name(community, game, seq))
        .ok()
        .flatten()
        .and_then(|t| serde_json::from_str(&t).ok())
}

/// Why a finished game is not rated, if it is not.
pub fn unrated_because(record: &GameRecord) -> Option<&'static str> {
    if record.status != Status::Finished {
        return Some("it is not over");
    }
    match record.ending {
        Some(Ending::Aborted) => return Some("it was called off"),
        Some(Ending::Forfeit { .. }) => return Some("it was forfeited before a move"),
        _ => {}
    }
    if record.casual {
        return Some("it was casual");
    }
    if bot::at_table(record) {
        return Some("the bot played");
    }
    let (decisions, _) = match record.own_decisions() {
        Some(d) => d,
        None => return Some("its record does not replay"),
    };
    // Each player must have made two decisions of his own (a takeback can make it shorter).
    let players = record.player_ids();
    if players
        .iter()
        .any(|p| decisions.iter().filter(|d| *d == p).count() < 2)
    {
        return Some("a player made fewer than two moves");
    }
    None
}

/// The sides of a finished game: each side's distinct players, the first seat's side first,
/// and the result from its view.
/// Each side's players, as (id, name).
type Sides = [Vec<(String, String)>; 2];

fn sides(record: &GameRecord) -> Option<(Sides, maths::Result)> {
    let game = record.rebuild().ok()?;
    let table = game.table();
    let first = table.team_of(Seat::new(0)?);
    let result = match game.outcome()? {
        Outcome::Draw { .. } => maths::Result::Draw,
        Outcome::Winner { team, .. } if team == first => maths::Result::First,
        Outcome::Winner { .. } => maths::Result::Second,
    };
    let mut sides: Sides = [Vec::new(), Vec::new()];
    for seat in table.all() {
        let Some(p) = record.player(seat.index()) else {
            continue;
        };
        let side = usize::from(table.team_of(seat) != first);
        if !sides[side].iter().any(|(id, _)| *id == p.id) {
            sides[side].push((p.id.clone(), p.name.clone()));
        }
    }
    Some((sides, result))
}

/// Takes a finished game into its table, once. Returns the changes to announce (empty when it
/// is not rated or was taken before). A game that cannot be taken now (the store failed) is
/// logged with its id, and taken at the next start.
pub fn take(core: &Core, record: &GameRecord) -> Vec<Reply> {
    match take_once(core.base.as_ref(), record) {
        Ok(Taken::Rated(entry, system)) => vec![Reply::Text(changes(&entry, system))],
        Ok(Taken::Unrated(why)) => not_rated(record, why).into_iter().collect(),
        Ok(Taken::Before) => Vec::new(),
        Err(e) => {
            tracing::warn!(
                game = %record.id,
                "a game's rating could not be stored ({e}); it is taken at the next start"
            );
            Vec::new()
        }
    }
}

/// The words [`take`] would say of `record` now, without taking it: what a command that ends a
/// game says in the write that ends it, and what the notice of a game ended on time is kept
/// with, so that a crash before the take loses no word of it. Nothing when it was taken before
/// or cannot be worked out now (the take then says it, or the restart takes it quietly).
pub fn foresee(core: &Core, record: &GameRecord) -> Vec<Reply> {
    let store = core.base.as_ref();
    let platform = &record.platform;
    if !matches!(
        store.note(&home(platform), &mark_name(&record.id)),
        Ok(None)
    ) {
        return Vec::new();
    }
    let Ok(game) = record.game_id() else {
        return Vec::new();
    };
    let unrated = unrated_because(record);
    let Some((sides, result)) = unrated.is_none().then(|| sides(record)).flatten() else {
        return not_rated(record, unrated.unwrap_or("its record does not replay"))
            .into_iter()
            .collect();
    };
    let system = system_of(game);
    let community = record.community.clone().unwrap_or_default();
    let (mut current, _) = table(store, platform, &community, game.as_str());
    if current.last.as_deref() == Some(record.id.as_str()) {
        return Vec::new();
    }
    let entry = apply(&mut current, system, record, game, &sides, result);
    vec![Reply::Text(changes(&entry, system))]
}

/// What taking a finished game into its table came to.
enum Taken {
    /// The entry the game made in its table.
    Rated(Entry, System),
    /// Not rated, for this reason.
    Unrated(&'static str),
    /// Taken before (a second call, or after a restart).
    Before,
}

/// The line that says a finished game is not rated, and why; none for a game called off (it
/// was never played).
fn not_rated(record: &GameRecord, why: &str) -> Option<Reply> {
    if record.ending == Some(Ending::Aborted) {
        return None;
    }
    Some(Reply::Text(if record.casual {
        "Casual game — not rated.".into()
    } else {
        format!("Not rated: {why}.")
    }))
}

/// [`take`]'s work.
fn take_once(store: &dyn GameStore, record: &GameRecord) -> Result<Taken, String> {
    let platform = &record.platform;
    let mark = mark_name(&record.id);
    if store
        .note(&home(platform), &mark)
        .map_err(|e| e.to_string())?
        .is_some()
    {
        return Ok(Taken::Before);
    }
    let game = record.game_id().map_err(|e| e.0)?;
    let unrated = unrated_because(record);
    let Some((sides, result)) = unrated.is_none().then(|| sides(record)).flatten() else {
        store
            .set_note(&home(platform), &mark, Some("-"))
            .map_err(|e| e.to_string())?;
        return Ok(Taken::Unrated(
            unrated.unwrap_or("its record does not replay"),
        ));
    };
    let system = system_of(game);
    let community = record.community.clone().unwrap_or_default();
    let name = table_name(&community, game.as_str());
    let mut taken = None;
    for _ in 0..20 {
        let (mut current, text) = table(store, platform, &community, game.as_str());
        if current.last.as_deref() == Some(record.id.as_str()) {
            // Taken before a crash: only the mark is missing.
            taken = entry(store, platform, &community, game.as_str(), current.seq);
            break;
        }
        let entry = apply(&mut current, system, record, game, &sides, result);
        let log = serde_json::to_string(&entry).map_err(|e| e.to_string())?;
        let log_key = log_name(&community, game.as_str(), entry.seq);
        store
            .set_note(&home(platform), &log_key, Some(&log))
            .map_err(|e| e.to_string())?;
        let new = serde_json::to_string(&current).map_err(|e| e.to_string())?;
        let swapped = store
            .swap_note(&home(platform), &name, text.as_deref(), Some(&new))
            .map_err(|e| e.to_string())?;
        if swapped {
            taken = Some(entry);
            break;
        }
    }
    store
        .set_note(&home(platform), &mark, Some("1"))
        .map_err(|e| e.to_string())?;
    Ok(taken.map_or(Taken::Before, |entry| Taken::Rated(entry, system)))
}

/// The table after `record`'s game, and the game's log entry.
fn apply(
    table: &mut Table,
    system: System,
    record: &GameRecord,
    game: GameId,
    sides: &Sides,
    result: maths::Result,
) -> Entry {
    let ended = record.updated;
    let before = |id: &str| {
        table.players.get(id).map_or_else(
            || Rating::new(system),
            |s| {
                let days = ended.saturating_sub(s.last_at) as f64 / 86_400.0;
                s.rating.idle(system, days)
            },
        )
    };
    let first: Vec<Rating> = sides[0].iter().map(|(id, _)| before(id)).collect();
    let second: Vec<Rating> = sides[1].iter().map(|(id, _)| before(id)).collect();
    let (a, b) = match system {
        System::Glicko2 => {
            let (a, b) = maths::two_players(first[0], second[0], result);
            (vec![a], vec![b])
        }
        System::WengLin => maths::two_sides(&first, &second, result),
    };
    let mut players = Vec::new();
    for (side, (members, (befores, afters))) in
        sides.iter().zip([(&first, &a), (&second, &b)]).enumerate()
    {
        for (((id, name), before), after) in members.iter().zip(befores.iter()).zip(afters.iter()) {
            let standing = table.players.entry(id.clone()).or_insert(Standing {
                name: name.clone(),
                rating: *before,
                games: 0,
                best: after.rating,
                best_established: None,
                last_change: 0.0,
                last_at: ended,
            });
            standing.name = name.clone();
            standing.games += 1;
            standing.last_change = after.rating - before.rating;
            standing.rating = *after;
            standing.best = standing.best.max(after.rating);
            standing.best_established = best_after(standing.best_established, after, system);
            standing.last_at = ended;
            players.push(Rated {
                id: id.clone(),
                name: name.clone(),
                side: if side == 0 { "white" } else { "black" }.into(),
                before: *before,
                after: *after,
            });
        }
    }
    table.seq += 1;
    table.last = Some(record.id.clone());
    Entry {
        seq: table.seq,
        id: record.id.clone(),
        game: game.as_str().to_string(),
        ended,
        result: match result {
            maths::Result::First => "1-0",
            maths::Result::Second => "0-1",
            maths::Result::Draw => "1/2-1/2",
        }
        .into(),
        players,
    }
}

/// `Ratings: alice 1500 → 1662 (+162) · bob 1500 → 1338 (−162)`.
fn changes(entry: &Entry, system: System) -> String {
    let parts: Vec<String> = entry
        .players
        .iter()
        .map(|p| {
            let delta = p.after.rating - p.before.rating;
            let shown = match system {
                System::Glicko2 => format!("{:+}", delta.round() as i64),
                System::WengLin => format!("{delta:+.1}"),
            }
            .replace('-', "−");
            format!(
                "{} {} → {} ({shown})",
                p.name,
                p.before.shown(system),
                p.after.shown(system)
            )
        })
        .collect();
    format!("Ratings: {}.", parts.join(" · "))
}

/// A game ended on time is taken into its rating table (once); the changes are announced in
/// its channel, said once: kept before the table is written, then posted (see `kernel::kept`),
/// under the id of the timeout's announcement and `.rating`, so that a restart that finds both
/// owed posts them in that order.
pub fn rate(core: &Core, record: &GameRecord) {
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
    let taken = take(core, record);
    if !fresh || taken.is_empty() {
        return;
    }
    // Another game was rated between the two: the words kept are brought up to date.
    if taken != foreseen {
        notice.replies = taken;
        let receipt = kept::receipt_of(&notice, bot, core.clock.now(), Vec::new());
        if let Some(id) = notice.receipt.as_deref()
            && let Err(e) = core
                .base
                .set_receipt(&record.platform, id, Some(&receipt.encode()))
        {
            tracing::warn!(game = %record.id, "a rating's announcement could not be corrected: {e}");
        }
    }
    core.timers.post(notice);
}

/// Takes the finished games of `platform` that no table has taken yet (a crash came between
/// a game's end and its rating), in order of ending. How many were looked at.
pub fn resume(core: &Core, platform: &str) -> usize {
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
