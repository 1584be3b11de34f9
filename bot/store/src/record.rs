//! The stored game: a versioned envelope whose move list is the truth. The game state is
//! rebuilt by replaying the moves (the core's `kernel::replayable`, which knows the games);
//! nothing derived is stored except what the archive index needs to find a game without
//! replaying it, and what the scheduler needs to find deadlines ([`GameRecord::wait`]).

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::time::control::Control;
use crate::time::timing::{Pause, Wait};

/// The record layout written by this version of Muster.
pub const SCHEMA: u32 = 3;

/// A person (or the bot) at the table.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Player {
    /// The platform's stable id for the user (a console name, a chat account's id).
    pub id: String,
    /// The name to show.
    pub name: String,
}

/// One seat of the table.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct SeatEntry {
    /// Who sits there; `None` while the seat is open for `join`.
    pub player: Option<Player>,
    /// Whether the player has agreed to play (the challenger always has).
    pub accepted: bool,
    /// Seats with the same hand are held by one player (Lanko for two or three players);
    /// absent, the seat is a hand of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand: Option<u8>,
}

/// Where a game is in its life.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Waiting for seats to be filled or challenges accepted.
    Open,
    /// Being played.
    Active,
    /// Over; archived.
    Finished,
}

/// How a game ended, when the moves alone do not say.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "how", rename_all = "snake_case")]
pub enum Ending {
    /// The rules ended it (a win, a draw by repetition).
    Rules,
    /// The player on this seat resigned.
    Resigned { seat: usize },
    /// The players agreed a draw.
    DrawAgreed,
    /// Called off before the first move, or declined.
    Aborted,
    /// The player on this seat ran out of time (his side loses).
    Time { seat: usize },
    /// The player on this seat ran out of time before making a move of his own: a forfeit
    /// (his side loses; tournaments count the game as unplayed).
    Forfeit { seat: usize },
}

/// A game as stored.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct GameRecord {
    /// Layout version ([`SCHEMA`]).
    pub schema: u32,
    /// Unique id, assigned by the store.
    pub id: String,
    /// The game's id (`lanrick`).
    pub game: String,
    /// The platform, as its adapter names it.
    pub platform: String,
    /// The channel or room on that platform.
    pub channel: String,
    /// Seconds since the Unix epoch when it was created.
    pub created: u64,
    /// Seconds since the Unix epoch of the last change.
    pub updated: u64,
    /// Seconds since the Unix epoch when play began (every seat taken and accepted), once it
    /// has.
    #[serde(default)]
    pub started: Option<u64>,
    /// Incremented by every write; the compare-and-swap token.
    pub version: u64,
    /// The table, in turn order.
    pub seats: Vec<SeatEntry>,
    /// Where the game is in its life.
    pub status: Status,
    /// Every decision, in notation: the truth from which the game is rebuilt.
    pub moves: Vec<String>,
    /// When each decision was stored, in seconds since the Unix epoch (one per move; kept in
    /// step with `moves` on every write, see [`GameRecord::time_moves`]).
    #[serde(default)]
    pub times: Vec<u64>,
    /// How it ended, beyond the moves.
    pub ending: Option<Ending>,
    /// The seat that offered a draw, while the offer stands.
    pub draw_offer: Option<usize>,
    /// The seat that asked to take back the last move, while the request stands.
    pub takeback: Option<usize>,
    /// The time control; `None` for an untimed game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<Control>,
    /// Stretches during which a player's clocks stood or stand still (vacations).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pauses: Vec<Pause>,
    /// Whose clock runs, since when, with how much time: derived from the control and the
    /// move times at every write ([`GameRecord::refresh_clock`]), kept so that the scheduler
    /// finds deadlines without replaying games.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wait: Option<Wait>,
    /// The tournament board this game is played for, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<EventTag>,
    /// The community whose ratings the game counts for (a chat server; `None` where the
    /// platform is one community).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub community: Option<String>,
    /// Whether it was started `casual`: not rated.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub casual: bool,
    /// A game played in two places: its place on another platform, and who plays from there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub away: Option<Away>,
}

/// The other place of a game played on two platforms: the record lives in the challenger's
/// channel (its home), and the players of the other platform play in a place there (a room, a
/// thread) that shows the same game.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Away {
    /// The other platform.
    pub platform: String,
    /// The place there, once the adapter has opened it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    /// The ids of the players who play from there.
    pub players: Vec<String>,
    /// The channel there under which the place is opened (an event's channel on that
    /// platform), when not where the platform opens such places by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
}

/// A tournament game's place in its event.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct EventTag {
    /// The event's community.
    pub community: String,
    /// The event's name.
    pub event: String,
    /// The round, from 1.
    pub round: usize,
    /// The board, from 1.
    pub board: usize,
}

impl GameRecord {
    /// Keeps `times` in step with `moves`: moves taken back lose their times, and moves not
    /// yet timed are timed `now`.
    pub fn time_moves(&mut self, now: u64) {
        self.times.truncate(self.moves.len());
        self.times.resize(self.moves.len(), now);
    }

    /// How the game ended, as the record's header says it (`normal`, `resignation`,
    /// `agreement`, `aborted`), or `None` while it runs.
    pub fn termination(&self) -> Option<&'static str> {
        match self.ending? {
            Ending::Rules => Some("normal"),
            Ending::Resigned { .. } => Some("resignation"),
            Ending::DrawAgreed => Some("agreement"),
            Ending::Aborted => Some("aborted"),
            Ending::Time { .. } => Some("time"),
            Ending::Forfeit { .. } => Some("forfeit"),
        }
    }

    /// How the game ended, as the metrics label it (`rules` while it has not).
    pub fn ended_by(&self) -> &'static str {
        match self.ending {
            None | Some(Ending::Rules) => "rules",
            Some(Ending::Resigned { .. }) => "resigned",
            Some(Ending::DrawAgreed) => "draw_agreed",
            Some(Ending::Aborted) => "aborted",
            Some(Ending::Time { .. }) => "time",
            Some(Ending::Forfeit { .. }) => "forfeit",
        }
    }

    /// The stretches during which the player on `seat` has his clocks stand still.
    pub fn paused(&self, seat: usize) -> Vec<(u64, u64)> {
        let Some(player) = self.player(seat) else {
            return Vec::new();
        };
        self.pauses
            .iter()
            .filter(|p| p.player == player.id)
            .map(|p| (p.from, p.to))
            .collect()
    }

    /// When the seat to decide runs out of time, in a timed game being played.
    pub fn deadline(&self) -> Option<u64> {
        let wait = self.wait?;
        Some(wait.deadline(&self.paused(wait.seat)))
    }

    /// The seat `user` sits on, if any (the first, when one player holds several).
    pub fn seat_of(&self, user: &str) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| s.player.as_ref().is_some_and(|p| p.id == user))
    }

    /// The platform the player `user` plays from: the game's own, or its other place's.
    pub fn platform_of(&self, user: &str) -> &str {
        match &self.away {
            Some(away) if away.players.iter().any(|p| p == user) => &away.platform,
            _ => &self.platform,
        }
    }

    /// The game's place on `platform`: its own channel, or its other place once opened.
    pub fn place_on(&self, platform: &str) -> Option<&str> {
        if platform == self.platform {
            return Some(&self.channel);
        }
        self.away
            .as_ref()
            .filter(|a| a.platform == platform)
            .and_then(|a| a.channel.as_deref())
    }

    /// Whether `user` sits at the table.
    pub fn is_player(&self, user: &str) -> bool {
        self.seat_of(user).is_some()
    }

    /// The player on `seat`.
    pub fn player(&self, seat: usize) -> Option<&Player> {
        self.seats.get(seat).and_then(|s| s.player.as_ref())
    }

    /// Ids of everyone seated.
    pub fn player_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .seats
            .iter()
            .filter_map(|s| s.player.as_ref().map(|p| p.id.clone()))
            .collect();
        ids.dedup();
        ids
    }
}

/// Brings a stored record of any earlier layout up to [`SCHEMA`]. Each step upgrades one
/// version; a record newer than this program is refused rather than guessed at.
pub fn migrate(mut value: Value) -> Result<Value, String> {
    let schema = value
        .get("schema")
        .and_then(Value::as_u64)
        .ok_or("the record has no schema number")?;
    if schema > SCHEMA as u64 {
        return Err(format!(
            "the record was written by a newer Muster (schema {schema}, this one reads up to {SCHEMA})"
        ));
    }
    // Schema 2 keeps when each move was made. A schema-1 record did not: its moves are taken
    // as made at its last change, the latest time they can have been.
    if schema == 1
        && let Some(map) = value.as_object_mut()
    {
        let updated = map.get("updated").cloned().unwrap_or(Value::from(0));
        let count = map
            .get("moves")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        map.insert("times".into(), Value::Array(vec![updated; count]));
        // Play began no earlier than the game was made: the best a schema-1 record can say.
        if map.get("status").and_then(Value::as_str) != Some("open") {
            let created = map.get("created").cloned().unwrap_or(Value::from(0));
            map.insert("started".into(), created);
        }
    }
    // Schema 3 adds the time control, vacations and the running clock, all absent from an
    // untimed game: an older record reads as it is.
    if let Some(map) = value.as_object_mut() {
        map.insert("schema".into(), SCHEMA.into());
    }
    Ok(value)
}

/// Whether a store whose records are in layout `stored` (`None`: a new store) needs its
/// records rewritten in the current one; an error naming `what` (the data directory, the
/// database) when a newer Muster wrote it.
pub fn needs_rewrite(stored: Option<u32>, what: &str) -> Result<bool, String> {
    match stored {
        Some(v) if v > SCHEMA => Err(format!(
            "{what} was written by a newer Muster (schema {v}; this one knows {SCHEMA})"
        )),
        Some(v) => Ok(v < SCHEMA),
        None => Ok(true),
    }
}

/// The numbered part of a game id (`g12` → 12): new ids in a store that games were copied
/// into follow the highest copied.
pub fn id_number(id: &str) -> Option<u64> {
    id.strip_prefix('g')?.parse().ok()
}

/// Reads a record from stored bytes, migrating older layouts.
pub fn decode(bytes: &[u8]) -> Result<GameRecord, String> {
    let value: Value =
        serde_json::from_slice(bytes).map_err(|e| format!("not a readable record: {e}"))?;
    let value = migrate(value)?;
    serde_json::from_value(value).map_err(|e| format!("the record does not fit the layout: {e}"))
}

/// Writes a record for storage.
pub fn encode(record: &GameRecord) -> Vec<u8> {
    serde_json::to_vec(record).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> GameRecord {
        GameRecord {
            schema: SCHEMA,
            id: "g1".into(),
            game: "lanrick".into(),
            platform: "console".into(),
            channel: "general".into(),
            created: 1,
            updated: 1,
            started: None,
            version: 1,
            seats: vec![SeatEntry::default(), SeatEntry::default()],
            status: Status::Active,
            moves: vec!["a1".into(), "h8".into()],
            times: vec![1, 1],
            ending: None,
            draw_offer: None,
            takeback: None,
            clock: None,
            pauses: Vec::new(),
            wait: None,
            tournament: None,
            community: None,
            casual: false,
            away: None,
        }
    }

    #[test]
    fn records_round_trip() {
        let r = record();
        let back = decode(&encode(&r)).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn newer_or_broken_records_are_refused_with_a_reason() {
        let mut v: Value = serde_json::from_slice(&encode(&record())).unwrap();
        v["schema"] = 99.into();
        let err = decode(&serde_json::to_vec(&v).unwrap()).unwrap_err();
        assert!(err.contains("newer Muster"), "{err}");
        assert!(
            decode(b"{\"schema\": 1, \"id\": 3}")
                .unwrap_err()
                .contains("does not fit")
        );
        assert!(
            decode(b"\x00garbage")
                .unwrap_err()
                .contains("not a readable record")
        );
    }

    #[test]
    fn a_schema_1_record_gets_its_moves_timed_at_its_last_change() {
        let mut v: Value = serde_json::from_slice(&encode(&record())).unwrap();
        v["schema"] = 1.into();
        v["updated"] = 500.into();
        v.as_object_mut().unwrap().remove("times");
        let back = decode(&serde_json::to_vec(&v).unwrap()).unwrap();
        assert_eq!(back.schema, SCHEMA);
        assert_eq!(back.times, vec![500, 500]);
        assert_eq!(back.started, Some(back.created));
        // Times follow the moves at each write: a move taken back loses its time, new ones
        // are timed then.
        let mut r = back;
        r.moves.pop();
        r.time_moves(700);
        assert_eq!(r.times, vec![500]);
        r.moves.push("h7".into());
        r.moves.push("b1".into());
        r.time_moves(900);
        assert_eq!(r.times, vec![500, 900, 900]);
    }
}
