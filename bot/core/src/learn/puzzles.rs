//! Puzzles (docs/puzzles.md): `puzzle [game]` gives a proved position from the bot's own games
//! (the set shipped with Muster, `bot/core/puzzles/set.txt`, made by `muster puzzles
//! generate`), `puzzle <decision>` answers it, judged by the proof's measure
//! ([`muster_rules::puzzle::gain`]). The first try of each puzzle is a rated game between the
//! solver and the puzzle (Glicko-2, [`puzzle_record`]); later tries teach but count nothing.
//! `puzzle daily` is the day's puzzle, the same for everyone; `puzzle rating` the solver's
//! rating, streak and history. All for the asker alone; never a game's rating.

use std::sync::OnceLock;

use muster_rules::croquet::solve::{self, Value};
use muster_rules::puzzle::{self as proof, Entry, Theme};
use muster_rules::{AnyGame, Game, GameId, Seat};

use super::puzzle_record::{self as record, Taking};
use crate::kernel::board::Board;
use crate::kernel::context::Context;
use crate::kernel::reply::{Button, Replies, Reply, private};
use crate::kernel::request::Request;

/// The set shipped with Muster.
const SET: &str = include_str!("../../puzzles/set.txt");

/// The shipped puzzles, read once (a set that does not read is a defect the tests catch; the
/// bot then has none rather than stopping).
pub fn set() -> &'static [Entry] {
    static READ: OnceLock<Vec<Entry>> = OnceLock::new();
    READ.get_or_init(|| {
        proof::read_set(SET).unwrap_or_else(|e| {
            tracing::error!("the puzzle set does not read: {e}");
            Vec::new()
        })
    })
}

/// The set's puzzle `id`.
pub fn find(id: &str) -> Option<&'static Entry> {
    set().iter().find(|e| e.id == id)
}

/// What `puzzle` asks.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PuzzleCommand {
    /// `puzzle [game]`: a new puzzle near the solver's rating.
    Next(Option<GameId>),
    /// `puzzle daily`: the day's puzzle.
    Daily,
    /// `puzzle daily on|off`: the day's puzzle posted in this channel, or no longer.
    Posting(bool),
    /// `puzzle rating`: the solver's rating, streak and history.
    Rating,
    /// `puzzle solution`: the solution of the puzzle being taken (a first try lost).
    Solution,
    /// `puzzle <decision>`: an answer.
    Answer(String),
}

impl PuzzleCommand {
    /// The command's name, as logs and metrics label it.
    pub fn name(&self) -> &'static str {
        match self {
            PuzzleCommand::Answer(_) => "puzzle answer",
            _ => "puzzle",
        }
    }
}

/// Reads `puzzle`'s words.
pub fn parse(rest: &str) -> Result<PuzzleCommand, String> {
    let rest = rest.trim();
    Ok(match rest.to_ascii_lowercase().as_str() {
        "" => PuzzleCommand::Next(None),
        "daily" | "today" => PuzzleCommand::Daily,
        "daily on" => PuzzleCommand::Posting(true),
        "daily off" => PuzzleCommand::Posting(false),
        "rating" | "stats" | "history" => PuzzleCommand::Rating,
        "solution" | "answer" | "show" => PuzzleCommand::Solution,
        "lanko" => PuzzleCommand::Next(Some(GameId::Lanko88)),
        word => match word.parse::<GameId>() {
            Ok(game) => PuzzleCommand::Next(Some(game)),
            Err(_) => PuzzleCommand::Answer(rest.to_string()),
        },
    })
}

/// Runs `puzzle`.
pub fn run(core: &Context, req: &Request, command: PuzzleCommand) -> Replies {
    let result = match command {
        PuzzleCommand::Next(game) => next(core, req, game),
        PuzzleCommand::Daily => daily(core, req),
        // Said by the daily posting (learn/daily.rs), which the module above dispatches to.
        PuzzleCommand::Posting(_) => Err("not a puzzle of one's own".into()),
        PuzzleCommand::Rating => rating(core, req),
        PuzzleCommand::Solution => solution(core, req),
        PuzzleCommand::Answer(text) => answer(core, req, &text),
    };
    result.unwrap_or_else(|e| private(format!("Your puzzles cannot be read now ({e}); try again.")))
}

/// The seat to decide in a puzzle's position, as a sentence begins with it (`White`, `N`).
pub fn seat_of(entry: &Entry, game: &AnyGame) -> String {
    let seat = game.to_move().unwrap_or(Seat::WHITE);
    let name = entry.game.table().seat_name(seat);
    let mut letters = name.chars();
    letters
        .next()
        .map(|c| c.to_uppercase().chain(letters).collect())
        .unwrap_or_default()
}

/// The buttons under a puzzle: its solution while it is being taken, else the next one of its
/// game and the solver's rating.
fn buttons(entry: &Entry, taking: bool) -> Reply {
    let button = |label: &str, command: String| Button {
        label: label.into(),
        command,
    };
    Reply::Buttons(if taking {
        vec![button("Show the solution", "puzzle solution".into())]
    } else {
        vec![
            button("Next puzzle", format!("puzzle {}", entry.game)),
            button("Your puzzle rating", "puzzle rating".into()),
        ]
    })
}

/// The board of `entry` shown in `place`: its position with its last decision marked, or
/// after the decision `after`, marked.
pub fn shown(entry: &Entry, after: Option<&str>, place: (&str, &str)) -> Board {
    let mut moves = entry.record.clone();
    let from = match after {
        Some(decision) => {
            moves.push(decision.to_string());
            entry.record.len()
        }
        None => entry.record.len().saturating_sub(1),
    };
    Board::shown(
        entry.game,
        &format!("puzzle-{}", entry.id),
        moves,
        from,
        place,
    )
}

/// Whether an answer to `entry` now would be the solver's first try of it.
fn is_first(solver: &record::Record, entry: &Entry) -> bool {
    !solver.taking.as_ref().is_some_and(|t| t.tried) && !solver.has_tried(&entry.id)
}

/// A puzzle given: its board (the last decision marked) and its task.
fn give(core: &Context, req: &Request, entry: &Entry, heading: &str) -> Result<Replies, String> {
    let p = &core.prefix;
    let game = entry.position()?;
    let rating = record::puzzle(core.base.as_ref(), &entry.id, entry.rating)?;
    record::update(core.base.as_ref(), &req.platform, &req.user.id, |r| {
        r.taking = Some(Taking {
            puzzle: entry.id.clone(),
            tried: false,
        });
    })?;
    let board = shown(entry, None, (&req.platform, &req.channel));
    Ok(vec![
        Reply::Board(Box::new(board.private())),
        Reply::Private(format!(
            "{heading}Puzzle {} ({}, rated {:.0}): {} to play — {}. Answer with `{p}puzzle <decision>`; `{p}puzzle solution` shows it.",
            entry.id,
            entry.game.title(),
            rating.rating,
            seat_of(entry, &game),
            entry.theme.task()
        )),
        buttons(entry, true),
    ])
}

/// `puzzle [game]`: the puzzle nearest the solver's rating that he has not tried.
fn next(core: &Context, req: &Request, game: Option<GameId>) -> Result<Replies, String> {
    let p = &core.prefix;
    let solver = record::of(core.base.as_ref(), &req.platform, &req.user.id)?;
    let of_game: Vec<&Entry> = set()
        .iter()
        .filter(|e| game.is_none_or(|g| e.game == g))
        .collect();
    if of_game.is_empty() {
        let games: Vec<&str> = GameId::ALL
            .into_iter()
            .filter(|g| set().iter().any(|e| e.game == *g))
            .map(GameId::as_str)
            .collect();
        return Ok(private(format!(
            "There are no puzzles for {} yet. Puzzles: {} (`{p}puzzle <game>`).",
            game.map_or("this game", GameId::title),
            games.join(", ")
        )));
    }
    let fresh: Vec<&Entry> = of_game
        .iter()
        .copied()
        .filter(|e| !solver.has_tried(&e.id))
        .collect();
    let pool = if fresh.is_empty() { of_game } else { fresh };
    let mut best: Option<(&Entry, f64)> = None;
    for e in pool {
        let r = record::puzzle(core.base.as_ref(), &e.id, e.rating)?.rating;
        let d = (r - solver.rating.rating).abs();
        if best.is_none_or(|(_, b)| d < b) {
            best = Some((e, d));
        }
    }
    let (entry, _) = best.ok_or("no puzzle")?;
    give(core, req, entry, "")
}

/// The set's puzzle of the day `day` (days since the Unix epoch, UTC): the same for everyone,
/// each puzzle once before any comes again.
pub fn of_the_day(day: u64) -> Option<&'static Entry> {
    let n = set().len() as u64;
    // A step prime to the set's size visits every puzzle before repeating.
    let step = (1..n.max(2))
        .rev()
        .find(|s| gcd(*s, n) == 1 && *s <= n / 2 + 1)
        .unwrap_or(1);
    set().get(((day * step) % n.max(1)) as usize)
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// `puzzle daily`: the day's puzzle.
fn daily(core: &Context, req: &Request) -> Result<Replies, String> {
    let day = core.clock.now() / 86_400;
    let entry = of_the_day(day).ok_or("the puzzle set is empty")?;
    give(core, req, entry, "Today's puzzle (UTC). ")
}

/// `puzzle rating`: the solver's rating, streak and latest tries.
fn rating(core: &Context, req: &Request) -> Result<Replies, String> {
    let p = &core.prefix;
    let r = record::of(core.base.as_ref(), &req.platform, &req.user.id)?;
    if r.history.is_empty() {
        return Ok(private(format!(
            "You have tried no puzzle yet: `{p}puzzle` gives one. Everyone starts at 1500."
        )));
    }
    let solved = r.history.iter().filter(|t| t.solved).count();
    let web = core
        .web_base()
        .map(|w| format!(" Every puzzle on the web: {w}/puzzles"))
        .unwrap_or_default();
    let latest: Vec<String> = r
        .history
        .iter()
        .rev()
        .take(10)
        .map(|t| format!("{} {}", t.puzzle, if t.solved { "✓" } else { "✗" }))
        .collect();
    Ok(private(format!(
        "Your puzzle rating: {:.0} (±{:.0}). Streak {} (best {}). First tries: {solved} solved of {}. Latest: {}.{web}",
        r.rating.rating,
        r.rating.deviation * 2.0,
        r.streak,
        r.best_streak,
        r.history.len(),
        latest.join(" · ")
    )))
}

/// The puzzle `req`'s solver is taking, with its position.
fn taking(
    core: &Context,
    req: &Request,
) -> Result<Result<(record::Record, &'static Entry, AnyGame), String>, String> {
    let p = &core.prefix;
    let solver = record::of(core.base.as_ref(), &req.platform, &req.user.id)?;
    let Some(entry) = solver.taking.as_ref().and_then(|t| find(&t.puzzle)) else {
        return Ok(Err(format!(
            "You are not taking a puzzle: `{p}puzzle` gives one (`{p}puzzle lanrick`, `{p}puzzle croquet`, `{p}puzzle lanko`)."
        )));
    };
    let game = entry.position()?;
    Ok(Ok((solver, entry, game)))
}

/// What a decision that does not solve the puzzle did instead, in the rules' words.
fn why_not(entry: &Entry, before: &AnyGame, text: &str, gained: i64) -> String {
    let seat = before.to_move().unwrap_or(Seat::WHITE);
    let mut after = before.clone();
    let _ = after.play_text(seat, text);
    match (entry.theme, &after) {
        (Theme::Rendezvous, AnyGame::Lanrick(a)) => outside(a.men(seat), a.mark()),
        (Theme::Rendezvous, AnyGame::Lanrick1880(a)) => outside(a.men(seat), a.mark()),
        (Theme::Win, AnyGame::Croquet(a)) => {
            let value = match a.outcome() {
                Some(_) => Value::Loss,
                None if a.to_move() == Some(seat) => solve::analyse(a).0,
                None => solve::analyse(a).0.flip(),
            };
            match value {
                Value::Draw => {
                    "after it, perfect play from both sides gives a draw: the win is lost".into()
                }
                _ => "after it, the other side wins with perfect play".into(),
            }
        }
        _ => format!(
            "that gains your pair {gained} point{}; one decision gains more",
            if gained == 1 { "" } else { "s" }
        ),
    }
}

/// The learner's men left out of the rendezvous around `mark`.
fn outside(men: u64, mark: Option<muster_rules::lanrick::Square>) -> String {
    let zone = mark.map_or(0, muster_rules::lanrick::Square::zone);
    let out: Vec<String> = muster_rules::lanrick::squares(men & !zone)
        .map(|s| s.to_string())
        .collect();
    match out.len() {
        0 => "the rendezvous is not won by it".into(),
        1 => format!(
            "your man on {} is not in the rendezvous at the end of it",
            out[0]
        ),
        _ => format!(
            "your men on {} are not in the rendezvous at the end of it",
            out.join(", ")
        ),
    }
}

/// A first try counted: the solver's and the puzzle's ratings moved, his streak and history;
/// his rating before and after.
fn first_try(
    core: &Context,
    req: &Request,
    entry: &Entry,
    solved: bool,
) -> Result<(f64, f64), String> {
    let store = core.base.as_ref();
    let now = core.clock.now();
    let kept = record::puzzle(store, &entry.id, entry.rating)?;
    let (before, after) = record::update(store, &req.platform, &req.user.id, |r| {
        let before = r.rating;
        let (mine, _) = record::rate(r.rating, kept, solved);
        r.count(&entry.id, solved, mine, now);
        if let Some(t) = r.taking.as_mut() {
            t.tried = true;
        }
        (before, mine)
    })?;
    // The puzzle's side of the game, against the solver as he was.
    for _ in 0..8 {
        let was = record::stored_puzzle(store, &entry.id)?;
        let current = was.unwrap_or_else(|| record::Rating::starting(entry.rating));
        let (_, theirs) = record::rate(before, current, solved);
        if record::set_puzzle(store, &entry.id, was.as_ref(), &theirs)? {
            break;
        }
    }
    Ok((before.rating, after.rating))
}

/// `puzzle <decision>`: the answer judged; its first try rated.
fn answer(core: &Context, req: &Request, text: &str) -> Result<Replies, String> {
    let p = &core.prefix;
    let (solver, entry, game) = match taking(core, req)? {
        Ok(found) => found,
        Err(said) => return Ok(private(said)),
    };
    let excerpt = crate::kernel::text::excerpt(text, 32);
    let (canonical, solved, why) = match judge(entry, &game, text) {
        Judged::Refused(why) => return Ok(refused(core, entry, &excerpt, &why)),
        Judged::Wrong { canonical, why } => (canonical, false, why),
        Judged::Solved { canonical, .. } => (canonical, true, String::new()),
    };
    let first = is_first(&solver, entry);
    let moved = if first {
        let (before, after) = first_try(core, req, entry, solved)?;
        format!(" Your puzzle rating: {before:.0} → {after:.0}.")
    } else {
        " A later try: your rating stays.".to_string()
    };
    if !solved {
        return Ok(vec![
            Reply::Private(format!(
                "`{excerpt}`: {why}.{moved} The puzzle: {} to play — {}. Try again with `{p}puzzle <decision>`, or `{p}puzzle solution`.",
                seat_of(entry, &game),
                entry.theme.task()
            )),
            buttons(entry, true),
        ]);
    }
    let streak = record::update(core.base.as_ref(), &req.platform, &req.user.id, |r| {
        r.taking = None;
        r.streak
    })?;
    let board = shown(entry, Some(&canonical), (&req.platform, &req.channel));
    Ok(vec![
        Reply::Board(Box::new(board.private())),
        Reply::Private(format!(
            "Solved: `{canonical}` {}.{moved} Streak: {streak}. `{p}puzzle` gives the next.",
            achieved(entry.theme, entry.gain())
        )),
        buttons(entry, false),
    ])
}

/// What an answer to a puzzle did: refused by the rules (why), legal but not the solution
/// (what it did instead), or a solution (what it achieves).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Judged {
    /// The rules refuse it, in their words.
    Refused(String),
    /// Legal, but it does not achieve what the puzzle asks.
    Wrong {
        /// The decision in canonical notation.
        canonical: String,
        /// What it did instead.
        why: String,
    },
    /// It achieves what the solution does.
    Solved {
        /// The decision in canonical notation.
        canonical: String,
        /// What it achieves.
        achieved: String,
    },
}

/// `text` as an answer to `entry`, whose position is `game`, judged by the proof's measure.
pub fn judge(entry: &Entry, game: &AnyGame, text: &str) -> Judged {
    let Some(seat) = game.to_move() else {
        return Judged::Refused("the puzzle's game is over".into());
    };
    let canonical = match game.canonical(&game.normalise(text)) {
        Ok(c) => c,
        Err(e) => return Judged::Refused(e.to_string()),
    };
    if let Err(e) = game.clone().play_text(seat, &canonical) {
        return Judged::Refused(e.to_string());
    }
    let wanted = entry.gain();
    match proof::gain(game, entry.theme, &canonical) {
        Some(g) if g >= wanted => Judged::Solved {
            achieved: achieved(entry.theme, wanted),
            canonical,
        },
        gained => Judged::Wrong {
            why: why_not(entry, game, &canonical, gained.unwrap_or(0)),
            canonical,
        },
    }
}

/// What the solution achieves, said when it is found.
fn achieved(theme: Theme, gain: i64) -> String {
    match theme {
        Theme::Rendezvous => "brings all your men into the rendezvous: it is won".into(),
        Theme::Win => "is the only step that keeps the win".into(),
        Theme::Points => format!("gains your pair {gain} points, more than any other decision"),
    }
}

/// An answer the rules refuse: why, and the task again; nothing counted.
fn refused(core: &Context, entry: &Entry, excerpt: &str, why: &str) -> Replies {
    let p = &core.prefix;
    let said = format!("`{excerpt}`");
    let why = if why.starts_with(&said) {
        why.to_string()
    } else {
        format!("{said}: {why}")
    };
    private(format!(
        "{why}. Nothing is counted. The puzzle: {}. Answer with `{p}puzzle <decision>`.",
        entry.theme.task()
    ))
}

/// `puzzle solution`: the solution shown; an untried puzzle counts as a first try lost.
fn solution(core: &Context, req: &Request) -> Result<Replies, String> {
    let p = &core.prefix;
    let (solver, entry, _) = match taking(core, req)? {
        Ok(found) => found,
        Err(said) => return Ok(private(said)),
    };
    let first = is_first(&solver, entry);
    let moved = if first {
        let (before, after) = first_try(core, req, entry, false)?;
        format!(" Your puzzle rating: {before:.0} → {after:.0}.")
    } else {
        String::new()
    };
    record::update(core.base.as_ref(), &req.platform, &req.user.id, |r| {
        r.taking = None
    })?;
    let board = shown(entry, Some(&entry.answer), (&req.platform, &req.channel));
    let others = match entry.solutions {
        1 => String::new(),
        n => format!(" ({n} decisions do it, all with the same result)"),
    };
    Ok(vec![
        Reply::Board(Box::new(board.private())),
        Reply::Private(format!(
            "The solution of puzzle {}: `{}`{others}, which {}; of the {} legal decisions no other does.{moved} `{p}puzzle` gives the next.",
            entry.id,
            entry.answer,
            achieved(entry.theme, entry.gain()),
            entry.decisions
        )),
        buttons(entry, false),
    ])
}
