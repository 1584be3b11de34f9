//! `muster puzzles generate` and `muster puzzles check` (docs/puzzles.md): the puzzle set made
//! from the bot's games against itself, each position proved by trying every legal decision
//! ([`muster_rules::puzzle`]), and a set proved again.

use std::collections::BTreeSet;
use std::io::Write;
use std::time::{Duration, Instant};

use muster_rules::GameId;
use muster_rules::puzzle::{self, Entry};
use muster_rules::search::self_play::Player;

/// How the set is made: how many games of each kind, from which seed, keeping how many
/// puzzles of each game and in all.
#[derive(Clone, Copy, Debug)]
pub struct Making {
    /// Self-play games per game kind.
    pub games: u64,
    /// The first game's seed (the others follow).
    pub seed: u64,
    /// Puzzles kept from one game.
    pub per_game: usize,
    /// Puzzles kept of one game kind.
    pub per_kind: usize,
}

/// Who plays the games the puzzles come from: the bot's search at 200 iterations; in Croquet,
/// whose bot plays from its perfect table at every level but the easiest, the easiest level's
/// play (any legal step), so that the games reach positions with a mistake to avoid.
fn player(game: GameId) -> Player {
    match game {
        GameId::Croquet => Player::Random,
        _ => Player::Iterations(200),
    }
}

/// The fewest decisions before a puzzle's position: not the opening's first moves.
const FIRST_PLY: usize = 6;

/// The longest game played for puzzles.
const MAX_PLIES: usize = 400;

/// Plays and proves, writing the set to `out` and a table of what was found to `err`.
pub fn generate(making: Making, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let mut set: Vec<Entry> = Vec::new();
    let mut rows = Vec::new();
    for game in GameId::ALL {
        let started = Instant::now();
        let mut seen = BTreeSet::new();
        let mut kept = Vec::new();
        for seed in making.seed..making.seed + making.games {
            let found =
                puzzle::from_self_play(game, player(game), seed, MAX_PLIES, making.per_game * 4);
            let fresh: Vec<Entry> = found
                .into_iter()
                .filter(|e| e.record.len() >= FIRST_PLY && seen.insert(e.id.clone()))
                .take(making.per_game)
                .collect();
            kept.extend(fresh);
        }
        kept.sort_by(|a, b| a.rating.total_cmp(&b.rating).then(a.id.cmp(&b.id)));
        kept = spread(kept, making.per_kind);
        rows.push((game, kept.len(), started.elapsed()));
        set.extend(kept);
    }
    let _ = writeln!(
        out,
        "# Muster's puzzle set (docs/puzzles.md), made by `muster puzzles generate --games {} --seed {}`.\n\
         # One puzzle a line, fields separated by tabs: id, game, theme, starting rating, the first\n\
         # solution, how many decisions solve it, how many are legal, the record from the start.",
        making.games, making.seed
    );
    for e in &set {
        let _ = writeln!(out, "{}", e.line());
    }
    let _ = writeln!(err, "game\tpuzzles\tplaying and proving");
    for (game, n, took) in rows {
        let _ = writeln!(err, "{game}\t{n}\t{:.1} s", took.as_secs_f64());
    }
    0
}

/// At most `n` of `sorted` (by rating), spread evenly over its ratings.
fn spread(sorted: Vec<Entry>, n: usize) -> Vec<Entry> {
    if sorted.len() <= n || n == 0 {
        return sorted;
    }
    let len = sorted.len();
    let picks: BTreeSet<usize> = (0..n).map(|i| i * (len - 1) / (n - 1).max(1)).collect();
    sorted
        .into_iter()
        .enumerate()
        .filter(|(i, _)| picks.contains(i))
        .map(|(_, e)| e)
        .collect()
}

/// Proves every puzzle of the set `text` again; 0 when all hold, 1 when one does not (each
/// named on `err`).
pub fn check(text: &str, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let set = match puzzle::read_set(text) {
        Ok(set) => set,
        Err(e) => {
            let _ = writeln!(err, "the set does not read: {e}");
            return 1;
        }
    };
    let mut failed = 0;
    let mut took = Duration::ZERO;
    for entry in &set {
        let started = Instant::now();
        if let Err(e) = puzzle::check(entry) {
            let _ = writeln!(err, "{}: {e}", entry.id);
            failed += 1;
        }
        took += started.elapsed();
    }
    let _ = writeln!(
        out,
        "{} puzzles proved again, {failed} failed, in {:.1} s",
        set.len(),
        took.as_secs_f64()
    );
    u8::from(failed > 0)
}
