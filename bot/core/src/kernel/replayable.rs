//! A stored record played: the game it holds rebuilt from its moves (and its ending), the clocks
//! as its decisions ran them, and its text for `muster replay`. The record is the store's
//! (`muster_store::record`); replaying it needs the rules, which the store does not know, so it
//! is done here, by the [`Replayable`] methods every part of the core and the adapters call.

use muster_rules::{AnyEvent, AnyGame, GameId, Outcome, Seat};
use muster_store::record::{Ending, GameRecord, Status};
use muster_store::time::rfc3339;
use muster_store::time::timing::{self, Clocks, Decision};

use super::text::clean_name;

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

/// What a record is as a game: rebuilt, timed and written out.
pub trait Replayable {
    /// The game kind.
    fn game_id(&self) -> Result<GameId, ReplayError>;

    /// The id of the player who made each decision of his own (forced passes left out), with
    /// the game after them; `None` if the record does not replay.
    fn own_decisions(&self) -> Option<(Vec<String>, AnyGame)>;

    /// Every seat's clock as the record stands (`None` for an untimed game or one not begun).
    fn clocks(&self) -> Option<Clocks>;

    /// Each seat's time left at `at` (the running clock counted down to then), with the seat
    /// whose clock runs; `None` for an untimed game or one not begun.
    fn time_left(&self, at: u64) -> Option<(Vec<u64>, Option<usize>)>;

    /// How a clock running out on `seat` ends the game: lost on time, or forfeited when its
    /// player never made a decision of his own (a forced pass is not one).
    fn ran_out(&self, seat: usize) -> Ending;

    /// Brings [`GameRecord::wait`] up to date with the moves (call after every change).
    fn refresh_clock(&mut self);

    /// The record as it stood after its first `ply` decisions: the later moves left out, and
    /// with them the ending, any offer standing, and the clocks as they ran then (read when
    /// the last decision shown was made) — what a board or page of an earlier position shows.
    /// The record itself when `ply` is all of them.
    fn as_after(&self, ply: usize) -> GameRecord;

    /// Rebuilds the game from the moves (and the ending, for resignations and agreed draws).
    fn rebuild(&self) -> Result<AnyGame, ReplayError>;

    /// Rebuilds the game, with the events of its decisions from `from` on: what a board marks
    /// as just played.
    fn replay(&self, from: usize) -> Result<(AnyGame, Vec<AnyEvent>), ReplayError>;

    /// Plays the record from the start, calling `each` with the game after each decision, that
    /// decision's events and how many decisions have been played; the ending the moves do not
    /// show (a resignation, an agreed draw, a clock run out) is applied before the last call
    /// (or at once, with no move). Returns the final game; the first error `each` gives stops it.
    fn play_through(
        &self,
        each: impl FnMut(&AnyGame, &[AnyEvent], usize) -> Result<(), ReplayError>,
    ) -> Result<AnyGame, ReplayError>;

    /// The result as a record's header gives it: `1-0`, `0-1` or `1/2-1/2` for two sides (the
    /// first seat's side first), the winning pair (`S+N`, `W+E`) in Lanko, `*` while the game
    /// runs or when it was aborted.
    fn result_code(&self, game: &AnyGame) -> String;

    /// A short result for lists: `white won`, `drawn`, `aborted`, or `-` while playing.
    fn result_word(&self, game: &AnyGame) -> String;

    /// The record as replayable text for `muster replay` (`export`).
    fn export(&self, game: &AnyGame) -> String;
}

impl Replayable for GameRecord {
    fn game_id(&self) -> Result<GameId, ReplayError> {
        self.game
            .parse()
            .map_err(|e: muster_rules::UnknownGame| ReplayError(e.to_string()))
    }

    fn own_decisions(&self) -> Option<(Vec<String>, AnyGame)> {
        let (decisions, game) = decisions(self)?;
        let ids = decisions
            .iter()
            .filter(|d| !d.forced)
            .filter_map(|d| self.player(d.seat).map(|p| p.id.clone()))
            .collect();
        Some((ids, game))
    }

    fn clocks(&self) -> Option<Clocks> {
        let control = self.clock.as_ref()?;
        let started = self.started?;
        let (decisions, game) = decisions(self)?;
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

    fn time_left(&self, at: u64) -> Option<(Vec<u64>, Option<usize>)> {
        let clocks = self.clocks()?;
        let mut left = clocks.left;
        if let Some(w) = clocks.wait
            && let Some(l) = left.get_mut(w.seat)
        {
            *l = w.left_at(at, &self.paused(w.seat));
        }
        Some((left, clocks.wait.map(|w| w.seat)))
    }

    fn ran_out(&self, seat: usize) -> Ending {
        let player = self.player(seat).map(|p| p.id.as_str());
        let moved = decisions(self).is_none_or(|(decisions, _)| {
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

    fn refresh_clock(&mut self) {
        self.wait = self.clocks().and_then(|c| c.wait);
    }

    fn as_after(&self, ply: usize) -> GameRecord {
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

    fn rebuild(&self) -> Result<AnyGame, ReplayError> {
        self.replay(self.moves.len()).map(|(game, _)| game)
    }

    fn replay(&self, from: usize) -> Result<(AnyGame, Vec<AnyEvent>), ReplayError> {
        let mut events = Vec::new();
        let game = self.play_through(|_, played, after| {
            if after > from {
                events.extend_from_slice(played);
            }
            Ok(())
        })?;
        Ok((game, events))
    }

    fn play_through(
        &self,
        mut each: impl FnMut(&AnyGame, &[AnyEvent], usize) -> Result<(), ReplayError>,
    ) -> Result<AnyGame, ReplayError> {
        #[cfg(feature = "test-support")]
        REPLAYS.with(|n| n.set(n.get() + 1));
        let mut game = AnyGame::new(self.game_id()?);
        let decisions = self.moves.len();
        if decisions == 0 {
            end(self, &mut game)?;
        }
        for (i, text) in self.moves.iter().enumerate() {
            let seat = game
                .to_move()
                .ok_or_else(|| ReplayError(format!("move {} follows the end", i + 1)))?;
            let played = game
                .play_text(seat, text)
                .map_err(|e| ReplayError(format!("move {} `{text}`: {e}", i + 1)))?;
            if i + 1 == decisions {
                end(self, &mut game)?;
            }
            each(&game, &played, i + 1)?;
        }
        Ok(game)
    }

    fn result_code(&self, game: &AnyGame) -> String {
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

    fn result_word(&self, game: &AnyGame) -> String {
        if self.ending == Some(Ending::Aborted) {
            return "aborted".into();
        }
        match game.outcome() {
            Some(Outcome::Winner { team, .. }) => format!("{} won", game.table().team_name(team)),
            Some(Outcome::Draw { .. }) => "drawn".into(),
            None => "-".into(),
        }
    }

    fn export(&self, game: &AnyGame) -> String {
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

/// Each decision as the clock sees it — the seat that made it, when, and whether it was
/// made for the seat (a forced pass) — with the game after them; `None` if the record does
/// not replay.
fn decisions(record: &GameRecord) -> Option<(Vec<Decision>, AnyGame)> {
    let mut game = AnyGame::new(record.game_id().ok()?);
    let mut decisions = Vec::with_capacity(record.moves.len());
    for (i, text) in record.moves.iter().enumerate() {
        let seat = game.to_move()?;
        let forced = game.forced_move().is_some();
        game.play_text(seat, text).ok()?;
        decisions.push(Decision {
            seat: seat.index(),
            at: record.times.get(i).copied().unwrap_or(record.updated),
            forced,
        });
    }
    Some((decisions, game))
}

/// Applies the ending the moves do not show.
fn end(record: &GameRecord, game: &mut AnyGame) -> Result<(), ReplayError> {
    match record.ending {
        Some(Ending::Resigned { seat }) => {
            let seat = Seat::new(seat).ok_or_else(|| ReplayError("bad resigning seat".into()))?;
            game.resign(seat).map_err(|e| ReplayError(e.to_string()))
        }
        Some(Ending::DrawAgreed) => game.agree_draw().map_err(|e| ReplayError(e.to_string())),
        Some(Ending::Time { seat } | Ending::Forfeit { seat }) => {
            let seat = Seat::new(seat).ok_or_else(|| ReplayError("bad timed-out seat".into()))?;
            game.time_out(seat).map_err(|e| ReplayError(e.to_string()))
        }
        Some(Ending::Rules | Ending::Aborted) | None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Lanrick game of two placements between alice and bob, begun at `started`.
    fn record(started: u64) -> GameRecord {
        let json = format!(
            r#"{{"schema": 3, "id": "g1", "game": "lanrick", "platform": "console",
                "channel": "general", "created": 1, "updated": 1, "started": {started},
                "version": 1, "status": "active", "moves": ["a1", "h8"], "times": [1, 1],
                "ending": null, "draw_offer": null, "takeback": null,
                "seats": [{{"player": {{"id": "a", "name": "alice"}}, "accepted": true}},
                          {{"player": {{"id": "b", "name": "bob"}}, "accepted": true}}]}}"#
        );
        muster_store::record::decode(json.as_bytes()).unwrap()
    }

    #[test]
    fn a_record_rebuilds_its_game_or_says_which_move_does_not_fit() {
        let r = record(1);
        let game = r.rebuild().unwrap();
        assert_eq!(game.position(), "7B/8/8/8/8/8/8/W7 placement w - 0-0 - -");
        let mut bad = r;
        bad.moves.push("z9".into());
        assert!(bad.rebuild().unwrap_err().0.contains("move 3"));
    }

    #[test]
    fn the_export_header_names_the_game_players_times_result_and_termination() {
        let mut r = record(1_795_000_000);
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
