//! The bot as an opponent, in every game. Croquet it plays from the perfect-play table at
//! once (`easy` any legal step, `good` the best three times in four, `strong` — `perfect` in
//! Croquet's words — always); Lanrick, its first version and Lanko it plays by search
//! ([`muster_rules::search`]) at the levels of docs/ai.md: `easy`, `good`, `strong`, or
//! `bot:<ms>` for a time budget. A search takes up to a few seconds, so it is made after the
//! move that gave the bot its turn has been answered (the desk's bot player). Its chance comes
//! from a generator seeded by the game and the move number, so a game at an iteration level
//! replays the same way.

use muster_rules::croquet::solve::{self, Value};
use muster_rules::croquet::{Croquet, Step};
use muster_rules::search::Found;
use muster_rules::{AnyGame, Game, GameId};

pub use muster_rules::search::Level;

use crate::kernel::replayable::Replayable;
use crate::kernel::store::{GameRecord, Player, Status};

/// The bot's player id prefix; the level follows (`bot:strong`, `bot:750`).
pub const ID: &str = "bot";

/// Reads `bot` or `bot:<level>`; `None` if the token does not name the bot.
pub fn parse(token: &str) -> Option<Result<Option<Level>, String>> {
    let rest = token.strip_prefix(ID)?;
    match rest.strip_prefix(':') {
        None if rest.is_empty() => Some(Ok(None)),
        None => None,
        Some(word) => Some(Level::parse(word).map(Some).ok_or_else(|| {
            format!(
                "`bot:{}`: the levels are easy, good and strong (perfect, in Croquet), or a \
                 number of milliseconds from {} to {}, such as `bot:500`",
                crate::kernel::text::excerpt(word, 24),
                muster_rules::search::MILLIS.start(),
                muster_rules::search::MILLIS.end()
            )
        })),
    }
}

/// The level the bot plays `game` at when none is named: `good` in every game, so that a
/// newcomer's first game is one he can win (in Croquet `strong` is perfect play, which wins
/// every game it can).
pub fn default_level(_game: GameId) -> Level {
    Level::Good
}

/// The level the bot holds a seat of `record`'s game at, as `new` names it (`good`, `perfect`,
/// `500`), if it does.
pub fn level_word(record: &GameRecord) -> Option<&str> {
    record
        .seats
        .iter()
        .filter_map(|s| s.player.as_ref())
        .find(|p| level_of(&p.id).is_some())
        .and_then(|p| p.id.split_once(':').map(|(_, word)| word))
}

/// The player entry for the bot at `level` in `game` (Croquet calls its strongest `perfect`):
/// `bot:good` named `Muster (good)`, `bot:500` named `Muster (500 ms)`.
pub fn player(level: Level, game: GameId) -> Player {
    let word = match level {
        Level::Strong if game == GameId::Croquet => "perfect".to_string(),
        other => other.name(),
    };
    let shown = match level {
        Level::Millis(ms) => format!("{ms} ms"),
        _ => word.clone(),
    };
    Player {
        id: format!("{ID}:{word}"),
        name: format!("Muster ({shown})"),
    }
}

/// The bot's level, if `id` is the bot's.
pub fn level_of(id: &str) -> Option<Level> {
    match parse(id)? {
        Ok(level) => level.or(Some(Level::Strong)),
        Err(_) => None,
    }
}

/// Whether the bot holds a seat of `record`'s game (such a game is not rated).
pub fn at_table(record: &GameRecord) -> bool {
    record
        .seats
        .iter()
        .any(|s| s.player.as_ref().is_some_and(|p| level_of(&p.id).is_some()))
}

/// Whether the bot decides `game` by search (after the move before it has been answered),
/// not at once from a table.
pub fn searches(game: GameId) -> bool {
    game != GameId::Croquet
}

/// The seed of the bot's decision after `ply` decisions of the game `game_id`.
pub fn seed(game_id: &str, ply: usize) -> u64 {
    game_id
        .bytes()
        .fold(ply as u64 ^ 0xA076_1D64_78BD_642F, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01B3)
        })
}

/// The bot's decision in `game` at `level`; `None` if it has none.
pub fn decide(game: &AnyGame, level: Level, game_id: &str, ply: usize) -> Option<Found> {
    muster_rules::search::decide(game, level, seed(game_id, ply))
}

/// A hint for the player to move: the best step, what it does, and the result it keeps. Among
/// the steps that keep the result it prefers one that does not lose at once (a second miss),
/// then one that does not miss, then the longest.
pub fn hint(g: &Croquet) -> Option<(Step, Value, Croquet)> {
    let (value, best) = solve::analyse(g);
    let seat = g.to_move()?;
    let step = *best.iter().max_by_key(|s| {
        let after = solve::after(g, **s);
        let survives = after
            .outcome()
            .is_none_or(|o| o.winner().map(|t| t.index()) == Some(seat.index()));
        let clean = after.ball(seat).status != muster_rules::croquet::Status::Missed;
        (survives, clean, s.0)
    })?;
    Some((step, value, solve::after(g, step)))
}

/// The search bot to decide in `record`'s game, if it is a search bot's turn: its seat's
/// player and level. `played` is the game as the record leaves it, when it is at hand;
/// otherwise the record is replayed, and only when the bot sits at the table.
pub fn to_decide(record: &GameRecord, played: Option<&AnyGame>) -> Option<(usize, Player, Level)> {
    if record.status != Status::Active || record.ending.is_some() {
        return None;
    }
    let game = record.game_id().ok()?;
    let seated = record
        .seats
        .iter()
        .any(|s| s.player.as_ref().is_some_and(|p| level_of(&p.id).is_some()));
    if !searches(game) || !seated {
        return None;
    }
    let to_move = match played {
        Some(g) => g.to_move(),
        None => record.rebuild().ok()?.to_move(),
    };
    let seat = to_move?.index();
    let player = record.player(seat)?.clone();
    let level = level_of(&player.id)?;
    Some((seat, player, level))
}
