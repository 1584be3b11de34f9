//! The machine interface (docs/machine-interface.md): replaying a game record and listing
//! the legal moves, as JSON. Other programs rely on this output exactly as specified.

use serde::Serialize;
use serde_json::{Value, json};

use muster_rules::{AnyGame, GameId, Outcome};

/// Where a record stopped being legal.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct RecordError {
    /// 1-based line number in the record.
    pub line: usize,
    /// The move as written on that line.
    #[serde(rename = "move")]
    pub text: String,
    /// Why it was refused.
    pub reason: String,
}

/// A record played from the initial position.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The game after the last legal move.
    pub game: AnyGame,
    /// How many moves were applied.
    pub applied: usize,
    /// The first illegal move, if any.
    pub error: Option<RecordError>,
}

/// The moves of a record: one per line; blank lines and lines starting with `#` are skipped.
pub fn record_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, line)| (i + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
}

/// Plays `record` from the initial position of `id`, stopping at the first illegal move.
pub fn replay(id: GameId, record: &str) -> Replay {
    let mut game = AnyGame::new(id);
    let mut applied = 0;
    for (line, text) in record_lines(record) {
        if game.outcome().is_some() && game.is_end_mark(text) {
            // Lanko's `+++` closes a finished game's record; it is not a move.
            continue;
        }
        let result = match game.to_move() {
            Some(seat) => game
                .play_text(seat, text)
                .map(|_| ())
                .map_err(|e| e.to_string()),
            None => Err("the game is over; no move can follow".to_string()),
        };
        if let Err(reason) = result {
            let error = RecordError {
                line,
                text: text.to_string(),
                reason,
            };
            return Replay {
                game,
                applied,
                error: Some(error),
            };
        }
        applied += 1;
    }
    Replay {
        game,
        applied,
        error: None,
    }
}

fn seat_value(game: &AnyGame) -> Value {
    game.to_move()
        .map_or(Value::Null, |s| json!(game.table().seat_name(s)))
}

fn result_value(game: &AnyGame) -> Value {
    match game.outcome() {
        None => Value::Null,
        Some(Outcome::Winner { team, .. }) => json!({"winner": game.table().team_name(team)}),
        Some(Outcome::Draw { .. }) => json!({"draw": true}),
    }
}

impl Replay {
    /// Exit status: 0 when every line applied, 1 at an illegal move.
    pub fn exit_code(&self) -> u8 {
        u8::from(self.error.is_some())
    }

    /// The `muster replay` object.
    pub fn to_json(&self) -> Value {
        json!({
            "game": self.game.id().as_str(),
            "applied": self.applied,
            "error": self.error,
            "to_move": seat_value(&self.game),
            "phase": self.game.phase_name(),
            "result": result_value(&self.game),
            "position": self.game.position(),
            "state": self.game.state_json(),
        })
    }

    /// The `muster analyse` object for Croquet: the value with perfect play for the player to
    /// move and every move that keeps it. `None` for games without a solver. A finished game is
    /// a loss for the side that would move next (the winner moved last), with no moves.
    pub fn analyse_json(&self) -> Option<Value> {
        let AnyGame::Croquet(g) = &self.game else {
            return None;
        };
        let (value, best) = muster_rules::croquet::solve::analyse(g);
        let best: Vec<String> = best.iter().map(|s| s.0.to_string()).collect();
        let mut out = json!({"value": value.as_str(), "best": best});
        if let (Some(error), Some(map)) = (&self.error, out.as_object_mut()) {
            map.insert("error".into(), json!(error));
        }
        Some(out)
    }

    /// The `muster moves` object: the legal moves where the record ends (or stopped).
    pub fn moves_json(&self) -> Value {
        let moves = self.game.legal_moves_text();
        let mut out = json!({
            "to_move": seat_value(&self.game),
            "phase": self.game.phase_name(),
            "count": self.game.legal_move_count(),
            "moves": moves,
        });
        if let (Some(error), Some(map)) = (&self.error, out.as_object_mut()) {
            map.insert("error".into(), json!(error));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_reports_the_first_illegal_line() {
        let r = replay(GameId::Lanrick, "a1\n\n# comment\nd4\nh8\n");
        assert_eq!(r.applied, 1);
        let e = r.error.as_ref().unwrap();
        assert_eq!((e.line, e.text.as_str()), (4, "d4"));
        assert!(e.reason.contains("field"), "{}", e.reason);
        assert_eq!(r.exit_code(), 1);
    }

    #[test]
    fn json_keys_follow_the_contract() {
        let r = replay(GameId::Lanrick, "a1\n");
        let v = r.to_json();
        for key in [
            "game", "applied", "error", "to_move", "phase", "result", "position", "state",
        ] {
            assert!(v.get(key).is_some(), "missing {key}");
        }
        assert_eq!(v["to_move"], "black");
        assert_eq!(v["state"]["board"][7], "W.......");
        assert_eq!(r.moves_json()["count"], 27);
    }
}
