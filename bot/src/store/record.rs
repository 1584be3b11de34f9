//! The stored game: a versioned envelope whose move list is the truth. The game state is
//! rebuilt by replaying the moves; nothing derived is stored except what the archive index
//! needs to find a game without replaying it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use muster_rules::{AnyEvent, AnyGame, GameId, Outcome, Seat};

/// The record layout written by this version of Muster.
pub const SCHEMA: u32 = 1;

/// A person (or the bot) at the table.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Player {
    /// The platform's stable id for the user (a console name, a Matrix id, a Discord id).
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
    /// The platform (`console`, `discord`, `matrix`).
    pub platform: String,
    /// The channel or room on that platform.
    pub channel: String,
    /// Seconds since the Unix epoch when it was created.
    pub created: u64,
    /// Seconds since the Unix epoch of the last change.
    pub updated: u64,
    /// Incremented by every write; the compare-and-swap token.
    pub version: u64,
    /// The table, in turn order.
    pub seats: Vec<SeatEntry>,
    /// Where the game is in its life.
    pub status: Status,
    /// Every decision, in notation: the truth from which the game is rebuilt.
    pub moves: Vec<String>,
    /// How it ended, beyond the moves.
    pub ending: Option<Ending>,
    /// The seat that offered a draw, while the offer stands.
    pub draw_offer: Option<usize>,
    /// The seat that asked to take back the last move, while the request stands.
    pub takeback: Option<usize>,
}

/// A record that does not replay: its moves or ending do not fit the game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ReplayError(pub String);

impl GameRecord {
    /// The game kind.
    pub fn game_id(&self) -> Result<GameId, ReplayError> {
        self.game
            .parse()
            .map_err(|e: muster_rules::UnknownGame| ReplayError(e.to_string()))
    }

    /// Rebuilds the game from the moves (and the ending, for resignations and agreed draws).
    pub fn rebuild(&self) -> Result<AnyGame, ReplayError> {
        self.replay(self.moves.len()).map(|(game, _)| game)
    }

    /// Rebuilds the game, with the events of its decisions from `from` on: what a board marks
    /// as just played.
    pub fn replay(&self, from: usize) -> Result<(AnyGame, Vec<AnyEvent>), ReplayError> {
        let mut game = AnyGame::new(self.game_id()?);
        let mut events = Vec::new();
        for (i, text) in self.moves.iter().enumerate() {
            let seat = game
                .to_move()
                .ok_or_else(|| ReplayError(format!("move {} follows the end", i + 1)))?;
            let played = game
                .play_text(seat, text)
                .map_err(|e| ReplayError(format!("move {} `{text}`: {e}", i + 1)))?;
            if i >= from {
                events.extend(played);
            }
        }
        match self.ending {
            Some(Ending::Resigned { seat }) => {
                let seat =
                    Seat::new(seat).ok_or_else(|| ReplayError("bad resigning seat".into()))?;
                game.resign(seat).map_err(|e| ReplayError(e.to_string()))?;
            }
            Some(Ending::DrawAgreed) => {
                game.agree_draw().map_err(|e| ReplayError(e.to_string()))?
            }
            Some(Ending::Rules | Ending::Aborted) | None => {}
        }
        Ok((game, events))
    }

    /// The seat `user` sits on, if any (the first, when one player holds several).
    pub fn seat_of(&self, user: &str) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| s.player.as_ref().is_some_and(|p| p.id == user))
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

    /// A short result for lists: `white`, `black`, `draw`, `aborted`, or `-` while playing.
    pub fn result_word(&self, game: &AnyGame) -> String {
        if self.ending == Some(Ending::Aborted) {
            return "aborted".into();
        }
        match game.outcome() {
            Some(Outcome::Winner { team, .. }) => format!("{} won", game.table().team_name(team)),
            Some(Outcome::Draw { .. }) => "drawn".into(),
            None => "-".into(),
        }
    }

    /// The record as replayable text for `muster replay` (`export`).
    pub fn export(&self, game: &AnyGame) -> String {
        let mut out = format!("# Muster game {} — {}\n", self.id, game.id().title());
        for (i, seat) in self.seats.iter().enumerate() {
            let name = seat.player.as_ref().map_or("(open)", |p| p.name.as_str());
            let seat_name = Seat::new(i).map_or("?", |s| game.table().seat_name(s));
            out.push_str(&format!("# {seat_name}: {name}\n"));
        }
        out.push_str(&format!("# result: {}\n", self.result_word(game)));
        out.push_str(&format!(
            "# replay: muster replay --game {} FILE\n",
            self.game
        ));
        for m in &self.moves {
            out.push_str(m);
            out.push('\n');
        }
        if let (Some(_), Some(mark)) = (game.outcome(), game.end_mark()) {
            out.push_str(mark);
            out.push('\n');
        }
        out
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
    // Schema 1 is the first layout. A later layout adds a step here:
    // if schema == 1 { …transform value…; value["schema"] = 2.into(); }
    if let Some(map) = value.as_object_mut() {
        map.insert("schema".into(), SCHEMA.into());
    }
    Ok(value)
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
            version: 1,
            seats: vec![SeatEntry::default(), SeatEntry::default()],
            status: Status::Active,
            moves: vec!["a1".into(), "h8".into()],
            ending: None,
            draw_offer: None,
            takeback: None,
        }
    }

    #[test]
    fn records_round_trip_and_rebuild_the_game() {
        let r = record();
        let back = decode(&encode(&r)).unwrap();
        assert_eq!(back, r);
        let game = back.rebuild().unwrap();
        assert_eq!(game.position(), "7B/8/8/8/8/8/8/W7 placement w - 0-0 - -");
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
        let mut bad = record();
        bad.moves.push("z9".into());
        assert!(bad.rebuild().unwrap_err().0.contains("move 3"));
    }
}
