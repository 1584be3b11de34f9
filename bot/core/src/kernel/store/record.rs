//! The stored game: a versioned envelope whose move list is the truth. The game state is
//! rebuilt by replaying the moves; nothing derived is stored except what the archive index
//! needs to find a game without replaying it.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use muster_rules::{AnyEvent, AnyGame, GameId, Outcome, Seat};

use crate::kernel::clock::control::Control;
use crate::kernel::clock::rfc3339;
use crate::kernel::clock::timing::{self, Clocks, Decision, Pause, Wait};
use crate::kernel::text::clean_name;

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

/// A record that does not replay: its moves or ending do not fit the game.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ReplayError(pub String);

#[cfg(feature = "test-support")]
thread_local! {
    /// How many times a record was replayed on this thread (see [`replays`]).
    static REPLAYS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many times a record has been played through from its start on the calling thread: what
/// a command costs in replays, for the tests that keep a command to one. Only with the
/// `test-support` feature.
#[cfg(feature = "test-support")]
pub fn replays() -> u64 {
    REPLAYS.with(std::cell::Cell::get)
}

impl GameRecord {
    /// The game kind.
    pub fn game_id(&self) -> Result<GameId, ReplayError> {
        self.game
            .parse()
            .map_err(|e: muster_rules::UnknownGame| ReplayError(e.to_string()))
    }

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

    /// Each decision as the clock sees it — the seat that made it, when, and whether it was
    /// made for the seat (a forced pass) — with the game after them; `None` if the record does
    /// not replay.
    fn decisions(&self) -> Option<(Vec<Decision>, AnyGame)> {
        let mut game = AnyGame::new(self.game_id().ok()?);
        let mut decisions = Vec::with_capacity(self.moves.len());
        for (i, text) in self.moves.iter().enumerate() {
            let seat = game.to_move()?;
            let forced = game.forced_move().is_some();
            game.play_text(seat, text).ok()?;
            decisions.push(Decision {
                seat: seat.index(),
                at: self.times.get(i).copied().unwrap_or(self.updated),
                forced,
            });
        }
        Some((decisions, game))
    }

    /// The id of the player who made each decision of his own (forced passes left out), with
    /// the game after them; `None` if the record does not replay.
    pub fn own_decisions(&self) -> Option<(Vec<String>, AnyGame)> {
        let (decisions, game) = self.decisions()?;
        let ids = decisions
            .iter()
            .filter(|d| !d.forced)
            .filter_map(|d| self.player(d.seat).map(|p| p.id.clone()))
            .collect();
        Some((ids, game))
    }

    /// Every seat's clock as the record stands (`None` for an untimed game or one not begun).
    pub fn clocks(&self) -> Option<Clocks> {
        let control = self.clock.as_ref()?;
        let started = self.started?;
        let (decisions, game) = self.decisions()?;
        let mover = match self.status {
            Status::Active if self.ending.is_none() => game.to_move().map(Seat::index),
            _ => None,
        };
        let paused = |seat: usize| self.paused(seat);
        Some(timing::derive(
            control,
            self.seats.len(),
            started,
            &decisions,
            mover,
            &paused,
        ))
    }

    /// Each seat's time left at `at` (the running clock counted down to then), with the seat
    /// whose clock runs; `None` for an untimed game or one not begun.
    pub fn time_left(&self, at: u64) -> Option<(Vec<u64>, Option<usize>)> {
        let clocks = self.clocks()?;
        let mut left = clocks.left;
        if let Some(w) = clocks.wait
            && let Some(l) = left.get_mut(w.seat)
        {
            *l = w.left_at(at, &self.paused(w.seat));
        }
        Some((left, clocks.wait.map(|w| w.seat)))
    }

    /// How a clock running out on `seat` ends the game: lost on time, or forfeited when its
    /// player never made a decision of his own (a forced pass is not one).
    pub fn ran_out(&self, seat: usize) -> Ending {
        let player = self.player(seat).map(|p| p.id.as_str());
        let moved = self.decisions().is_none_or(|(decisions, _)| {
            decisions
                .iter()
                .any(|d| !d.forced && self.player(d.seat).map(|p| p.id.as_str()) == player)
        });
        if moved {
            Ending::Time { seat }
        } else {
            Ending::Forfeit { seat }
        }
    }

    /// Brings [`GameRecord::wait`] up to date with the moves (call after every change).
    pub fn refresh_clock(&mut self) {
        self.wait = self.clocks().and_then(|c| c.wait);
    }

    /// When the seat to decide runs out of time, in a timed game being played.
    pub fn deadline(&self) -> Option<u64> {
        let wait = self.wait?;
        Some(wait.deadline(&self.paused(wait.seat)))
    }

    /// The record as it stood after its first `ply` decisions: the later moves left out, and
    /// with them the ending, any offer standing, and the clocks as they ran then (read when
    /// the last decision shown was made) — what a board or page of an earlier position shows.
    /// The record itself when `ply` is all of them.
    pub fn as_after(&self, ply: usize) -> GameRecord {
        let mut then = self.clone();
        if ply >= self.moves.len() {
            return then;
        }
        then.moves.truncate(ply);
        then.times.truncate(ply);
        then.ending = None;
        then.draw_offer = None;
        then.takeback = None;
        if then.status == Status::Finished {
            then.status = Status::Active;
        }
        then.updated = (then.times.last().copied())
            .or(then.started)
            .unwrap_or(then.created);
        then.refresh_clock();
        then
    }

    /// Rebuilds the game from the moves (and the ending, for resignations and agreed draws).
    pub fn rebuild(&self) -> Result<AnyGame, ReplayError> {
        self.replay(self.moves.len()).map(|(game, _)| game)
    }

    /// Rebuilds the game, with the events of its decisions from `from` on: what a board marks
    /// as just played.
    pub fn replay(&self, from: usize) -> Result<(AnyGame, Vec<AnyEvent>), ReplayError> {
        let mut events = Vec::new();
        let game = self.play_through(|_, played, after| {
            if after > from {
                events.extend_from_slice(played);
            }
            Ok(())
        })?;
        Ok((game, events))
    }

    /// Plays the record from the start, calling `each` with the game after each decision, that
    /// decision's events and how many decisions have been played; the ending the moves do not
    /// show (a resignation, an agreed draw, a clock run out) is applied before the last call
    /// (or at once, with no move). Returns the final game; the first error `each` gives stops it.
    pub fn play_through(
        &self,
        mut each: impl FnMut(&AnyGame, &[AnyEvent], usize) -> Result<(), ReplayError>,
    ) -> Result<AnyGame, ReplayError> {
        #[cfg(feature = "test-support")]
        REPLAYS.with(|n| n.set(n.get() + 1));
        let mut game = AnyGame::new(self.game_id()?);
        let decisions = self.moves.len();
        if decisions == 0 {
            self.end(&mut game)?;
        }
        for (i, text) in self.moves.iter().enumerate() {
            let seat = game
                .to_move()
                .ok_or_else(|| ReplayError(format!("move {} follows the end", i + 1)))?;
            let played = game
                .play_text(seat, text)
                .map_err(|e| ReplayError(format!("move {} `{text}`: {e}", i + 1)))?;
            if i + 1 == decisions {
                self.end(&mut game)?;
            }
            each(&game, &played, i + 1)?;
        }
        Ok(game)
    }

    /// Applies the ending the moves do not show.
    fn end(&self, game: &mut AnyGame) -> Result<(), ReplayError> {
        match self.ending {
            Some(Ending::Resigned { seat }) => {
                let seat =
                    Seat::new(seat).ok_or_else(|| ReplayError("bad resigning seat".into()))?;
                game.resign(seat).map_err(|e| ReplayError(e.to_string()))
            }
            Some(Ending::DrawAgreed) => game.agree_draw().map_err(|e| ReplayError(e.to_string())),
            Some(Ending::Time { seat } | Ending::Forfeit { seat }) => {
                let seat =
                    Seat::new(seat).ok_or_else(|| ReplayError("bad timed-out seat".into()))?;
                game.time_out(seat).map_err(|e| ReplayError(e.to_string()))
            }
            Some(Ending::Rules | Ending::Aborted) | None => Ok(()),
        }
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

    /// The result as a record's header gives it: `1-0`, `0-1` or `1/2-1/2` for two sides (the
    /// first seat's side first), the winning pair (`S+N`, `W+E`) in Lanko, `*` while the game
    /// runs or when it was aborted.
    pub fn result_code(&self, game: &AnyGame) -> String {
        if self.ending == Some(Ending::Aborted) {
            return "*".into();
        }
        let table = game.table();
        match game.outcome() {
            None => "*".into(),
            Some(Outcome::Draw { .. }) => "1/2-1/2".into(),
            Some(Outcome::Winner { team, .. }) if table.len() > 2 => table.team_seats(team),
            Some(Outcome::Winner { team, .. }) => {
                let first = Seat::new(0).map(|s| table.team_of(s));
                if first == Some(team) { "1-0" } else { "0-1" }.into()
            }
        }
    }

    /// A short result for lists: `white won`, `drawn`, `aborted`, or `-` while playing.
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
        let table = game.table();
        let mut out = format!("# Game: {} ({})\n", game.id().title(), self.id);
        for (i, seat) in self.seats.iter().enumerate() {
            // One line each, whatever a name holds (a display name may have held a line break).
            let name = seat
                .player
                .as_ref()
                .map_or("(open)".to_string(), |p| clean_name(&p.name));
            let seat = Seat::new(i).map_or_else(|| "?".to_string(), |s| table.seat_title(s));
            out.push_str(&format!("# {seat}: {name}\n"));
        }
        let clock = self.clock.map_or_else(|| "none".to_string(), |c| c.typed());
        out.push_str(&format!("# Clock: {clock}\n"));
        if let Some(started) = self.started {
            out.push_str(&format!("# Started: {}\n", rfc3339(started)));
        }
        if self.status == Status::Finished {
            out.push_str(&format!("# Ended: {}\n", rfc3339(self.updated)));
        }
        out.push_str(&format!("# Result: {}\n", self.result_code(game)));
        if let Some(t) = self.termination() {
            out.push_str(&format!("# Termination: {t}\n"));
        }
        out.push_str(&format!(
            "# Replay: muster replay --game {} FILE\n",
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

    #[test]
    fn the_export_header_names_the_game_players_times_result_and_termination() {
        let mut r = record();
        r.seats = vec![
            SeatEntry {
                player: Some(Player {
                    id: "a".into(),
                    name: "alice".into(),
                }),
                accepted: true,
                hand: None,
            },
            SeatEntry {
                player: Some(Player {
                    id: "b".into(),
                    name: "bob".into(),
                }),
                accepted: true,
                hand: None,
            },
        ];
        r.started = Some(1_795_000_000);
        let game = r.rebuild().unwrap();
        let running = r.export(&game);
        let header: Vec<&str> = running.lines().take_while(|l| l.starts_with('#')).collect();
        assert_eq!(
            header,
            vec![
                "# Game: Lanrick (Third Edition, 1881) (g1)",
                "# White: alice",
                "# Black: bob",
                "# Clock: none",
                "# Started: 2026-11-18T11:06:40Z",
                "# Result: *",
                "# Replay: muster replay --game lanrick FILE",
            ]
        );
        // Black resigns: White wins, and the record says when and how it ended.
        r.status = Status::Finished;
        r.ending = Some(Ending::Resigned { seat: 1 });
        r.updated = 1_795_086_400;
        let game = r.rebuild().unwrap();
        let done = r.export(&game);
        assert!(done.contains("# Ended: 2026-11-19T11:06:40Z\n"), "{done}");
        assert!(
            done.contains("# Result: 1-0\n# Termination: resignation\n"),
            "{done}"
        );
        assert!(done.ends_with("a1\nh8\n"), "{done}");
    }
}
