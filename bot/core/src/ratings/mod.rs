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
pub mod follow;
pub mod later;
pub mod maths;
pub mod scope;
pub mod view;

use std::collections::BTreeMap;

use muster_rules::{AnyGame, GameId, Outcome, Seat};
use serde::{Deserialize, Serialize};

use crate::games::bot;
use crate::kernel::context::Context;

use crate::kernel::replayable::Replayable;
use crate::kernel::reply::Reply;
use crate::kernel::store::{ChannelKey, Ending, GameRecord, GameStore, Status};
use crate::players::links;
use maths::{Rating, System};
use scope::{HOME, Scope};

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
    /// For a community across platforms, the count of link changes (`links::generation`) its
    /// players were keyed by: a table of another count is worked out again from its log.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub links: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
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
    /// Not counted: its sides became one player when accounts were linked (their ratings
    /// before and after are the same).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub void: bool,
}

/// One player of a side as a game is taken: his account (as the log names him), the key his
/// standing is kept under, and his name.
#[derive(Clone, Debug)]
struct Side {
    account: String,
    key: String,
    name: String,
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
/// with the table's next change). A shared table (a community across platforms) is worked out
/// from its log again when accounts were linked or unlinked since it was written, and made
/// the first time from its places' own tables (docs/ratings.md).
pub(crate) fn table(store: &dyn GameStore, scope: &Scope, game: &str) -> (Table, Option<String>) {
    let read = || {
        store
            .note(&scope.home, &table_name(&scope.community, game))
            .ok()
            .flatten()
    };
    let mut text = read();
    if scope.shared.is_some() {
        for _ in 0..5 {
            match rekeyed(store, scope, game, text.as_deref()) {
                Ok(None) => break,
                Ok(Some(written)) => {
                    text = Some(written);
                    break;
                }
                Err(e) => {
                    tracing::warn!(community = %scope.community, game, "a shared ratings table could not be worked out again: {e}");
                    text = read();
                }
            }
        }
    }
    let mut table: Table = text
        .as_deref()
        .and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or_default();
    if scope.shared.is_some() && text.is_none() {
        // A new shared table, keyed by the links as they are.
        table.links = links::generation(store);
        table.bests_kept = true;
    }
    if !table.bests_kept {
        recount_bests(store, scope, game, &mut table);
    }
    (table, text)
}

/// A shared table worked out again by its players' current keys, when the links changed since
/// it was written or it was never written: every rated game replayed in the order of its end
/// (its own log's order; for a new table, the places' own logs merged by end). Its log and
/// table are written, the table by compare-and-swap over `text`: the text written, `None`
/// when it was up to date, an error when it could not be written (read it again).
fn rekeyed(
    store: &dyn GameStore,
    scope: &Scope,
    game: &str,
    text: Option<&str>,
) -> Result<Option<String>, String> {
    let Ok(id) = game.parse::<GameId>() else {
        return Ok(None);
    };
    let generation = links::generation(store);
    let current: Option<Table> = text.and_then(|t| serde_json::from_str(t).ok());
    let entries = match &current {
        Some(t) if t.links == generation => return Ok(None),
        Some(t) => (1..=t.seq)
            .filter_map(|seq| entry(store, scope, game, seq))
            .collect(),
        None => merged_places(store, scope, game),
    };
    if current.is_none() && entries.is_empty() {
        return Ok(None);
    }
    let system = system_of(id);
    let mut table = Table {
        bests_kept: true,
        links: generation,
        ..Table::default()
    };
    for old in entries {
        let entry = replayed(store, scope, &mut table, system, id, old);
        let log = serde_json::to_string(&entry).map_err(|e| e.to_string())?;
        store
            .set_note(
                &scope.home,
                &log_name(&scope.community, game, entry.seq),
                Some(&log),
            )
            .map_err(|e| e.to_string())?;
    }
    let new = serde_json::to_string(&table).map_err(|e| e.to_string())?;
    let name = table_name(&scope.community, game);
    if store
        .swap_note(&scope.home, &name, text, Some(&new))
        .map_err(|e| e.to_string())?
    {
        tracing::info!(community = %scope.community, game, games = table.seq, links = generation, "a shared ratings table was worked out from its games");
        Ok(Some(new))
    } else {
        Err("another change came first".into())
    }
}

/// The rated games of a shared community's places, from their own tables, in order of their
/// end (a place's own order among games that ended in the same second), each player named by
/// his account.
fn merged_places(store: &dyn GameStore, scope: &Scope, game: &str) -> Vec<Entry> {
    let Some(community) = &scope.shared else {
        return Vec::new();
    };
    let mut all: Vec<(u64, String, u64, Entry)> = Vec::new();
    for member in &community.members {
        let Some(local) = &member.community else {
            continue;
        };
        let place = Scope::local(&member.platform, local);
        let (t, _) = table(store, &place, game);
        for seq in 1..=t.seq {
            if let Some(mut e) = entry(store, &place, game, seq) {
                for p in &mut e.players {
                    p.id = scope.account(&member.platform, &p.id);
                }
                all.push((e.ended, member.platform.clone(), seq, e));
            }
        }
    }
    all.sort_by(|a, b| (a.0, &a.1, a.2).cmp(&(b.0, &b.1, b.2)));
    all.into_iter().map(|(_, _, _, e)| e).collect()
}

/// `old` (a game of the log, its players named by account) taken again into `table`, by their
/// current keys. A game whose sides are now one player is kept in the log but not counted.
fn replayed(
    store: &dyn GameStore,
    scope: &Scope,
    table: &mut Table,
    system: System,
    game: GameId,
    old: Entry,
) -> Entry {
    let mut sides: [Vec<Side>; 2] = [Vec::new(), Vec::new()];
    for p in &old.players {
        let side = usize::from(p.side != "white");
        let key = scope.key_of_account(store, &p.id);
        if !sides[side].iter().any(|s| s.key == key) {
            sides[side].push(Side {
                account: p.id.clone(),
                key,
                name: p.name.clone(),
            });
        }
    }
    if one_player(&sides).is_some() || sides.iter().any(Vec::is_empty) {
        table.seq += 1;
        table.last = Some(old.id.clone());
        let players = old
            .players
            .into_iter()
            .map(|p| {
                let now = table
                    .players
                    .get(&scope.key_of_account(store, &p.id))
                    .map_or_else(|| Rating::new(system), |s| s.rating);
                Rated {
                    before: now,
                    after: now,
                    ..p
                }
            })
            .collect();
        return Entry {
            seq: table.seq,
            players,
            void: true,
            ..old
        };
    }
    let result = match old.result.as_str() {
        "1-0" => maths::Result::First,
        "0-1" => maths::Result::Second,
        _ => maths::Result::Draw,
    };
    apply(table, system, &old.id, old.ended, game, &sides, result)
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
fn recount_bests(store: &dyn GameStore, scope: &Scope, game: &str, table: &mut Table) {
    let Ok(system) = game.parse::<GameId>().map(system_of) else {
        return;
    };
    table
        .players
        .values_mut()
        .for_each(|s| s.best_established = None);
    for seq in 1..=table.seq {
        let Some(e) = entry(store, scope, game, seq) else {
            tracing::warn!(
                community = %scope.community,
                game,
                seq,
                "a rated game's log entry cannot be read to recount the best ratings"
            );
            continue;
        };
        for p in &e.players {
            let key = scope.key_of_account(store, &p.id);
            if let Some(s) = table.players.get_mut(&key) {
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
pub(crate) fn entry(store: &dyn GameStore, scope: &Scope, game: &str, seq: u64) -> Option<Entry> {
    store
        .note(&scope.home, &log_name(&scope.community, game, seq))
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

/// The sides of a finished game in `scope`: each side's distinct players, the first seat's side
/// first, and the result from its view; `None` when its record does not replay.
fn sides(
    store: &dyn GameStore,
    scope: &Scope,
    record: &GameRecord,
) -> Option<([Vec<Side>; 2], maths::Result)> {
    let game = record.rebuild().ok()?;
    let table = game.table();
    let first = table.team_of(Seat::new(0)?);
    let result = match game.outcome()? {
        Outcome::Draw { .. } => maths::Result::Draw,
        Outcome::Winner { team, .. } if team == first => maths::Result::First,
        Outcome::Winner { .. } => maths::Result::Second,
    };
    let mut sides: [Vec<Side>; 2] = [Vec::new(), Vec::new()];
    for seat in table.all() {
        let Some(p) = record.player(seat.index()) else {
            continue;
        };
        let side = usize::from(table.team_of(seat) != first);
        let key = scope.key(store, record.platform_of(&p.id), &p.id);
        if !sides[side].iter().any(|s| s.key == key) {
            sides[side].push(Side {
                account: scope.account(record.platform_of(&p.id), &p.id),
                key,
                name: p.name.clone(),
            });
        }
    }
    Some((sides, result))
}

/// Why a game of `scope` is not rated when [`unrated_because`] finds no reason: its sides are
/// one player (two accounts of his, linked).
fn one_player(sides: &[Vec<Side>; 2]) -> Option<&'static str> {
    sides[0]
        .iter()
        .any(|a| sides[1].iter().any(|b| a.key == b.key))
        .then_some("both sides are one player, by linked accounts")
}

/// The sides and result of `record`'s game as `scope` rates it, or why it is not rated.
fn rated_sides(
    store: &dyn GameStore,
    scope: &Scope,
    record: &GameRecord,
) -> Result<([Vec<Side>; 2], maths::Result), &'static str> {
    if let Some(why) = unrated_because(record) {
        return Err(why);
    }
    let (sides, result) = sides(store, scope, record).ok_or("its record does not replay")?;
    match one_player(&sides) {
        Some(why) => Err(why),
        None => Ok((sides, result)),
    }
}

/// Takes a finished game into its table, once. Returns the changes to announce (empty when it
/// is not rated or was taken before). A game that cannot be taken now (the store failed) is
/// logged with its id, and taken at the next start.
pub fn take(core: &Context, record: &GameRecord) -> Vec<Reply> {
    let scope = Scope::of_record(core, record);
    match take_once(core.base.as_ref(), &scope, record) {
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
pub fn foresee(core: &Context, record: &GameRecord) -> Vec<Reply> {
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
    let scope = Scope::of_record(core, record);
    let (sides, result) = match rated_sides(store, &scope, record) {
        Ok(rated) => rated,
        Err(why) => return not_rated(record, why).into_iter().collect(),
    };
    let system = system_of(game);
    let (mut current, _) = table(store, &scope, game.as_str());
    if current.last.as_deref() == Some(record.id.as_str()) {
        return Vec::new();
    }
    let entry = apply(
        &mut current,
        system,
        &record.id,
        record.updated,
        game,
        &sides,
        result,
    );
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
fn take_once(store: &dyn GameStore, scope: &Scope, record: &GameRecord) -> Result<Taken, String> {
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
    let (sides, result) = match rated_sides(store, scope, record) {
        Ok(rated) => rated,
        Err(why) => {
            store
                .set_note(&home(platform), &mark, Some("-"))
                .map_err(|e| e.to_string())?;
            return Ok(Taken::Unrated(why));
        }
    };
    let system = system_of(game);
    let name = table_name(&scope.community, game.as_str());
    let mut taken = None;
    for _ in 0..20 {
        let (mut current, text) = table(store, scope, game.as_str());
        if current.last.as_deref() == Some(record.id.as_str()) {
            // Taken before a crash: only the mark is missing.
            taken = entry(store, scope, game.as_str(), current.seq);
            break;
        }
        let entry = apply(
            &mut current,
            system,
            &record.id,
            record.updated,
            game,
            &sides,
            result,
        );
        let log = serde_json::to_string(&entry).map_err(|e| e.to_string())?;
        let log_key = log_name(&scope.community, game.as_str(), entry.seq);
        store
            .set_note(&scope.home, &log_key, Some(&log))
            .map_err(|e| e.to_string())?;
        let new = serde_json::to_string(&current).map_err(|e| e.to_string())?;
        let swapped = store
            .swap_note(&scope.home, &name, text.as_deref(), Some(&new))
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

/// The table after a game (`id`, ended at `ended`) is taken into it, and the game's log entry.
fn apply(
    table: &mut Table,
    system: System,
    id: &str,
    ended: u64,
    game: GameId,
    sides: &[Vec<Side>; 2],
    result: maths::Result,
) -> Entry {
    let before = |key: &str| {
        table.players.get(key).map_or_else(
            || Rating::new(system),
            |s| {
                let days = ended.saturating_sub(s.last_at) as f64 / 86_400.0;
                s.rating.idle(system, days)
            },
        )
    };
    let first: Vec<Rating> = sides[0].iter().map(|s| before(&s.key)).collect();
    let second: Vec<Rating> = sides[1].iter().map(|s| before(&s.key)).collect();
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
        for ((member, before), after) in members.iter().zip(befores.iter()).zip(afters.iter()) {
            let standing = table.players.entry(member.key.clone()).or_insert(Standing {
                name: member.name.clone(),
                rating: *before,
                games: 0,
                best: after.rating,
                best_established: None,
                last_change: 0.0,
                last_at: ended,
            });
            standing.name = member.name.clone();
            standing.games += 1;
            standing.last_change = after.rating - before.rating;
            standing.rating = *after;
            standing.best = standing.best.max(after.rating);
            standing.best_established = best_after(standing.best_established, after, system);
            standing.last_at = ended;
            players.push(Rated {
                id: member.account.clone(),
                name: member.name.clone(),
                side: if side == 0 { "white" } else { "black" }.into(),
                before: *before,
                after: *after,
            });
        }
    }
    table.seq += 1;
    table.last = Some(id.to_string());
    Entry {
        seq: table.seq,
        id: id.to_string(),
        game: game.as_str().to_string(),
        ended,
        result: match result {
            maths::Result::First => "1-0",
            maths::Result::Second => "0-1",
            maths::Result::Draw => "1/2-1/2",
        }
        .into(),
        players,
        void: false,
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
