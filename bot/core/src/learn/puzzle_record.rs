//! Puzzles in the store (docs/puzzles.md): each solver's puzzle rating (Glicko-2), streak and
//! history with the puzzle he is taking, and each puzzle's own rating, moved by every first
//! try. Notes beside no platform (`\u{1e}puzzles`): a solver under his linked player when his
//! accounts are linked (else his account), a puzzle under `puzzle:<id>`. Changed by
//! compare-and-swap. None of it is read by the game ratings.

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

use super::progress::{account, key_of};
use crate::kernel::store::{ChannelKey, GameStore};
use crate::players::links;

/// How many tries the history keeps, the latest last.
pub const HISTORY: usize = 50;

/// A Glicko-2 rating (rating, deviation, volatility).
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
pub struct Rating {
    /// The rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
}

impl Rating {
    /// A new rating at `rating`, as uncertain as a new player's.
    pub fn starting(rating: f64) -> Rating {
        let new = Glicko2Rating::new();
        Rating {
            rating,
            deviation: new.deviation,
            volatility: new.volatility,
        }
    }

    fn glicko(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }

    fn from(r: Glicko2Rating) -> Rating {
        Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// A first try as one rated game between the solver and the puzzle: their new ratings. The
/// system constant τ is Lichess's 0.75, as for games (docs/ratings.md).
pub fn rate(solver: Rating, puzzle: Rating, solved: bool) -> (Rating, Rating) {
    let config = Glicko2Config {
        tau: 0.75,
        ..Glicko2Config::new()
    };
    let outcome = if solved {
        Outcomes::WIN
    } else {
        Outcomes::LOSS
    };
    let (s, p) = glicko2(&solver.glicko(), &puzzle.glicko(), &outcome, &config);
    (Rating::from(s), Rating::from(p))
}

/// One first try.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Try {
    /// The puzzle.
    pub puzzle: String,
    /// Whether it was solved at the first try.
    pub solved: bool,
    /// The solver's rating after it.
    pub rating: f64,
    /// When (seconds since the Unix epoch, UTC).
    pub at: u64,
}

/// The puzzle being taken.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Taking {
    /// The puzzle.
    pub puzzle: String,
    /// Whether a first try has been rated (a wrong answer; later answers are not).
    pub tried: bool,
}

/// A solver's puzzles: his rating, streak, history and the puzzle he is taking.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Record {
    /// His puzzle rating.
    pub rating: Rating,
    /// Puzzles solved at the first try in a row, up to now.
    pub streak: u32,
    /// His longest such run.
    pub best_streak: u32,
    /// His latest first tries.
    #[serde(default)]
    pub history: Vec<Try>,
    /// The puzzle he is taking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub taking: Option<Taking>,
}

impl Default for Record {
    fn default() -> Record {
        Record {
            rating: Rating::starting(1500.0),
            streak: 0,
            best_streak: 0,
            history: Vec::new(),
            taking: None,
        }
    }
}

impl Record {
    /// Whether he has tried `puzzle` before (a first try on record).
    pub fn has_tried(&self, puzzle: &str) -> bool {
        self.history.iter().any(|t| t.puzzle == puzzle)
    }

    /// A first try counted in: the streak, the history and the new rating.
    pub fn count(&mut self, puzzle: &str, solved: bool, rating: Rating, at: u64) {
        self.rating = rating;
        self.streak = if solved { self.streak + 1 } else { 0 };
        self.best_streak = self.best_streak.max(self.streak);
        self.history.push(Try {
            puzzle: puzzle.to_string(),
            solved,
            rating: rating.rating,
            at,
        });
        let over = self.history.len().saturating_sub(HISTORY);
        self.history.drain(..over);
    }
}

fn home() -> ChannelKey {
    ChannelKey::new("", "\u{1e}puzzles")
}

fn read<T: for<'de> Deserialize<'de>>(
    store: &dyn GameStore,
    key: &str,
) -> Result<(Option<String>, Option<T>), String> {
    let text = store.note(&home(), key).map_err(|e| e.to_string())?;
    let value = text.as_deref().and_then(|t| serde_json::from_str(t).ok());
    Ok((text, value))
}

/// The solver `user` of `platform` is: his player's record; before that is first written, the
/// record of whichever of his accounts has tried the most puzzles.
pub fn of(store: &dyn GameStore, platform: &str, user: &str) -> Result<Record, String> {
    let key = key_of(store, platform, user);
    let (_, kept) = read::<Record>(store, &key)?;
    if let Some(kept) = kept {
        return Ok(kept);
    }
    let mut best = Record::default();
    if key.starts_with("player:") {
        for a in links::accounts_of(store, platform, user) {
            if let (_, Some(s)) = read::<Record>(store, &account(&a.platform, &a.id))?
                && s.history.len() > best.history.len()
            {
                best = s;
            }
        }
    }
    Ok(best)
}

/// Changes the solver record of `user` on `platform` (compare-and-swap, retried).
pub fn update<T>(
    store: &dyn GameStore,
    platform: &str,
    user: &str,
    change: impl Fn(&mut Record) -> T,
) -> Result<T, String> {
    let key = key_of(store, platform, user);
    for _ in 0..8 {
        let (old, _) = read::<Record>(store, &key)?;
        let mut record = of(store, platform, user)?;
        let out = change(&mut record);
        let new = serde_json::to_string(&record).map_err(|e| e.to_string())?;
        if store
            .swap_note(&home(), &key, old.as_deref(), Some(&new))
            .map_err(|e| e.to_string())?
        {
            return Ok(out);
        }
    }
    Err("your puzzles changed at the same moment; try again".into())
}

/// The rating of puzzle `id`: as tried so far, else its starting rating.
pub fn puzzle(store: &dyn GameStore, id: &str, starting: f64) -> Result<Rating, String> {
    Ok(stored_puzzle(store, id)?.unwrap_or_else(|| Rating::starting(starting)))
}

/// The rating of puzzle `id` as tries have moved it; `None` while it is untried.
pub fn stored_puzzle(store: &dyn GameStore, id: &str) -> Result<Option<Rating>, String> {
    Ok(read::<Rating>(store, &format!("puzzle:{id}"))?.1)
}

/// Sets the rating of puzzle `id`, if it is still `was` (compare-and-swap); whether it was.
pub fn set_puzzle(
    store: &dyn GameStore,
    id: &str,
    was: Option<&Rating>,
    now: &Rating,
) -> Result<bool, String> {
    let key = format!("puzzle:{id}");
    let (old, kept) = read::<Rating>(store, &key)?;
    if kept.as_ref() != was {
        return Ok(false);
    }
    let new = serde_json::to_string(now).map_err(|e| e.to_string())?;
    store
        .swap_note(&home(), &key, old.as_deref(), Some(&new))
        .map_err(|e| e.to_string())
}
