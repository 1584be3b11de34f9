//! Puzzles (docs/puzzles.md): positions where one decision achieves something definite, proved
//! by trying every legal decision there. A theme says what is to be achieved and measures what
//! each decision gains towards it; a position is a puzzle of that theme when the best gain is a
//! real achievement and few decisions reach it:
//!
//! - `rendezvous` (Lanrick, both versions): win the rendezvous with this turn. Every listed
//!   turn is played; the winning ones must all leave the men on the same squares (one result,
//!   whatever the order of the steps), among at least [`LEAST_DECISIONS`] decisions.
//! - `win` (Croquet): the only step that keeps a won game won, by the perfect-play solver.
//! - `points` (Lanko): the one decision that gains the most points (a capture, a castle onto a
//!   middle or end square), where at least two decisions gain some.
//!
//! The proof is made again by the tests for every puzzle shipped, and a learner's answer is
//! judged by the same measure: it solves the puzzle when it gains what the solution gains.

use std::collections::BTreeSet;

use crate::any::AnyGame;
use crate::croquet::solve::{self, Value};
use crate::{Game, GameId, Seat};

/// A puzzle's position has at least this many legal decisions.
pub const LEAST_DECISIONS: usize = 3;

/// What a puzzle asks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Theme {
    /// Win the rendezvous with this turn (Lanrick).
    Rendezvous,
    /// Keep a won game won with the only step that does (Croquet).
    Win,
    /// Capture for the most points (Lanko).
    Points,
}

impl Theme {
    /// Every theme.
    pub const ALL: [Theme; 3] = [Theme::Rendezvous, Theme::Win, Theme::Points];

    /// The theme's word, as the puzzle set writes it.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Rendezvous => "rendezvous",
            Theme::Win => "win",
            Theme::Points => "points",
        }
    }

    /// The theme a word names.
    pub fn parse(word: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.name() == word)
    }

    /// The theme of a game's puzzles.
    pub fn of(game: GameId) -> Theme {
        match game {
            GameId::Lanrick | GameId::Lanrick1880 => Theme::Rendezvous,
            GameId::Croquet => Theme::Win,
            GameId::Lanko88 | GameId::Lanko68 | GameId::Lanko103 => Theme::Points,
        }
    }

    /// What the learner is to do, in the rules' words.
    pub fn task(self) -> &'static str {
        match self {
            Theme::Rendezvous => "win the rendezvous with this turn: all your men in it",
            Theme::Win => "find the only step that keeps your won game won, by perfect play",
            Theme::Points => {
                "make the decision that gains your pair the most points now: a capture, or a castle onto a middle square"
            }
        }
    }
}

/// What a decision gained towards the theme, for the player who made it: larger is better.
/// `None` when the rules refuse the decision.
pub fn gain(before: &AnyGame, theme: Theme, decision: &str) -> Option<i64> {
    let seat = before.to_move()?;
    let mut after = before.clone();
    after.play_text(seat, decision).ok()?;
    Some(measure(before, &after, seat, theme, decision))
}

fn measure(before: &AnyGame, after: &AnyGame, seat: Seat, theme: Theme, decision: &str) -> i64 {
    match (theme, before, after) {
        (Theme::Rendezvous, AnyGame::Lanrick(_), AnyGame::Lanrick(a)) => {
            i64::from(a.phase() == crate::lanrick::Phase::Capture && a.to_move() == Some(seat))
        }
        (Theme::Rendezvous, AnyGame::Lanrick1880(_), AnyGame::Lanrick1880(a)) => {
            i64::from(a.phase() == crate::lanrick1880::Phase::Capture && a.to_move() == Some(seat))
        }
        (Theme::Win, AnyGame::Croquet(b), _) => {
            let (value, best) = solve::analyse(b);
            let kept = best.iter().any(|s| s.0.to_string() == decision);
            match value {
                Value::Win if kept => 1,
                _ => 0,
            }
        }
        (Theme::Points, AnyGame::Lanko(b), AnyGame::Lanko(a)) => {
            let margin = |g: &crate::lanko::Lanko| {
                let [white, black] = g.score();
                let m = i64::from(white) - i64::from(black);
                if crate::lanko::plays_white(seat) {
                    m
                } else {
                    -m
                }
            };
            margin(a) - margin(b)
        }
        _ => 0,
    }
}

/// A position proved a puzzle: what its solutions gain and what they are.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Proof {
    /// Legal decisions tried.
    pub decisions: usize,
    /// The decisions that gain the most, in the game's fixed order.
    pub solutions: Vec<String>,
    /// What they gain.
    pub gain: i64,
}

/// Every legal decision of `game` tried for `theme`: the proof that it is a puzzle, or why not.
pub fn prove(game: &AnyGame, theme: Theme) -> Result<Proof, String> {
    let seat = game.to_move().ok_or("the game is over")?;
    if Theme::of(game.id()) != theme {
        return Err(format!("{} is not a theme of {}", theme.name(), game.id()));
    }
    let legal = game.legal_moves_text();
    if legal.len() < LEAST_DECISIONS {
        return Err(format!("only {} legal decisions", legal.len()));
    }
    let mut tried: Vec<(i64, String, String)> = Vec::with_capacity(legal.len());
    let mut gains = BTreeSet::new();
    for text in legal.iter() {
        let mut after = game.clone();
        after
            .play_text(seat, text)
            .map_err(|e| format!("`{text}` is listed but refused: {e}"))?;
        let g = measure(game, &after, seat, theme, text);
        gains.insert(g);
        tried.push((g, text.clone(), after.position()));
    }
    let best = *gains.last().ok_or("no decision")?;
    let solutions: Vec<&(i64, String, String)> = tried.iter().filter(|t| t.0 == best).collect();
    let results: BTreeSet<&str> = solutions.iter().map(|t| t.2.as_str()).collect();
    let enough = match theme {
        Theme::Rendezvous | Theme::Win => best == 1,
        // A choice between gains: at least two decisions gain something.
        Theme::Points => best > 0 && tried.iter().filter(|t| t.0 > 0).count() >= 2,
    };
    if !enough {
        return Err("no decision achieves the theme".into());
    }
    if results.len() != 1 {
        return Err(format!("{} different results achieve it", results.len()));
    }
    if solutions.len() == legal.len() {
        return Err("every decision achieves it".into());
    }
    Ok(Proof {
        decisions: legal.len(),
        solutions: solutions.iter().map(|t| t.1.clone()).collect(),
        gain: best,
    })
}

/// A puzzle of the set: where it comes from, what it asks and its proof's figures.
#[derive(Clone, PartialEq, Debug)]
pub struct Entry {
    /// Its id: the game's id and a hash of its position (`lanrick-3f9a2c`).
    pub id: String,
    /// The game.
    pub game: GameId,
    /// What it asks.
    pub theme: Theme,
    /// Its starting rating (then moved by every first try).
    pub rating: f64,
    /// The decisions from the start that reach its position.
    pub record: Vec<String>,
    /// The first solution, in the game's fixed order.
    pub answer: String,
    /// How many decisions solve it, of how many legal ones.
    pub solutions: usize,
    /// Legal decisions in the position.
    pub decisions: usize,
}

impl Entry {
    /// The position the record reaches, or why it cannot be replayed.
    pub fn position(&self) -> Result<AnyGame, String> {
        replay(self.game, &self.record)
    }

    /// What its solution gains (0 when its record or answer no longer plays, which the
    /// set's check refuses).
    pub fn gain(&self) -> i64 {
        self.position()
            .ok()
            .and_then(|g| gain(&g, self.theme, &self.answer))
            .unwrap_or(0)
    }

    /// The line of the set that writes it.
    pub fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{:.0}\t{}\t{}\t{}\t{}",
            self.id,
            self.game,
            self.theme.name(),
            self.rating,
            self.answer,
            self.solutions,
            self.decisions,
            self.record.join(" | ")
        )
    }

    /// The entry a line of the set writes.
    pub fn parse(line: &str) -> Result<Entry, String> {
        let f: Vec<&str> = line.split('\t').collect();
        let [
            id,
            game,
            theme,
            rating,
            answer,
            solutions,
            decisions,
            record,
        ] = f[..]
        else {
            return Err(format!("{} fields, not 8", f.len()));
        };
        let number = |s: &str| {
            s.parse::<usize>()
                .map_err(|_| format!("`{s}` is not a count"))
        };
        Ok(Entry {
            id: id.to_string(),
            game: game.parse().map_err(|_| format!("unknown game `{game}`"))?,
            theme: Theme::parse(theme).ok_or(format!("unknown theme `{theme}`"))?,
            rating: rating
                .parse()
                .map_err(|_| format!("`{rating}` is not a rating"))?,
            answer: answer.to_string(),
            solutions: number(solutions)?,
            decisions: number(decisions)?,
            record: record.split(" | ").map(str::to_string).collect(),
        })
    }
}

/// The game `id` after `record`, played from the start.
pub fn replay(id: GameId, record: &[String]) -> Result<AnyGame, String> {
    let mut game = AnyGame::new(id);
    for (i, text) in record.iter().enumerate() {
        let seat = game
            .to_move()
            .ok_or(format!("the game is over before decision {}", i + 1))?;
        game.play_text(seat, text)
            .map_err(|e| format!("decision {} `{text}`: {e}", i + 1))?;
    }
    Ok(game)
}

/// Reads a puzzle set: one entry a line, `#` lines and blank lines aside.
pub fn read_set(text: &str) -> Result<Vec<Entry>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| Entry::parse(l).map_err(|e| format!("line {}: {e}", i + 1)))
        .collect()
}

/// A puzzle's id: its game and six hexadecimal digits of an FNV-1a hash of its position.
pub fn id_of(game: &AnyGame) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in game.position().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{}-{:06x}", game.id(), h & 0xff_ffff)
}

/// The starting rating of a proved puzzle: higher the rarer its solutions among the legal
/// decisions, 1000 + 250 · log10(decisions / solutions), kept within 800–2200.
pub fn starting_rating(proof: &Proof) -> f64 {
    let odds = proof.decisions as f64 / proof.solutions.len().max(1) as f64;
    (1000.0 + 250.0 * odds.log10()).clamp(800.0, 2200.0).round()
}

/// The puzzles found in one game played out by `player` on both sides from the start, with
/// chance from `seed`, for at most `max_plies` decisions: each position tried for its game's
/// theme, at most `per_game` of them (the latest first, nearest the game's deciding moments).
pub fn from_self_play(
    id: GameId,
    player: crate::search::self_play::Player,
    seed: u64,
    max_plies: usize,
    per_game: usize,
) -> Vec<Entry> {
    let theme = Theme::of(id);
    let mut rng = crate::search::Rng::new(seed);
    let mut game = AnyGame::new(id);
    let mut record: Vec<String> = Vec::new();
    let mut found = Vec::new();
    while let Some(seat) = game.to_move() {
        if record.len() >= max_plies {
            break;
        }
        if let Ok(proof) = prove(&game, theme) {
            found.push(Entry {
                id: id_of(&game),
                game: id,
                theme,
                rating: starting_rating(&proof),
                record: record.clone(),
                answer: proof.solutions[0].clone(),
                solutions: proof.solutions.len(),
                decisions: proof.decisions,
            });
        }
        let Some(text) = player.decide(&game, rng.next_u64()) else {
            break;
        };
        if game.play_text(seat, &text).is_err() {
            break;
        }
        record.push(text);
    }
    found.reverse();
    found.truncate(per_game);
    found
}

/// Proves `entry` again: its record replays, its id is its position's, and the proof finds
/// the same first solution, as many solutions and as many legal decisions.
pub fn check(entry: &Entry) -> Result<(), String> {
    let game = entry.position()?;
    if id_of(&game) != entry.id {
        return Err(format!("its position's id is {}", id_of(&game)));
    }
    if Theme::of(entry.game) != entry.theme {
        return Err(format!(
            "{} is not the theme of {}",
            entry.theme.name(),
            entry.game
        ));
    }
    let proof = prove(&game, entry.theme)?;
    if proof.solutions.first() != Some(&entry.answer) {
        return Err(format!(
            "the first solution is {:?}, not {}",
            proof.solutions.first(),
            entry.answer
        ));
    }
    if proof.solutions.len() != entry.solutions || proof.decisions != entry.decisions {
        return Err(format!(
            "{} of {} decisions solve it, not {} of {}",
            proof.solutions.len(),
            proof.decisions,
            entry.solutions,
            entry.decisions
        ));
    }
    Ok(())
}
