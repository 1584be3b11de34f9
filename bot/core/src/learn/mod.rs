//! Lessons (docs/learn.md): `learn` shows a player's progress, `learn <game> [n]` gives him a
//! lesson — a board and a task — and `learn <decision>` answers it, checked by the rules engine
//! and by the lesson ([`lessons`]). All of it for the asker alone; no channel's game is read or
//! changed. Progress is kept per player ([`progress`]), across platforms for linked accounts,
//! with up to three stars for a lesson solved in few tries. Lessons never count in ratings.

pub mod croquet;
pub mod daily;
pub mod lanko;
pub mod lanrick;
pub mod lanrick1880;
pub mod lessons;
pub mod progress;
pub mod puzzle_record;
pub mod puzzles;

use muster_rules::{AnyGame, GameId};

use lessons::{Lesson, Tried, Verdict};
use progress::Taking;

use crate::kernel::board::Board;
use crate::kernel::context::Context;
use crate::kernel::outbox::{Notice, Target};
use crate::kernel::reply::{Button, Replies, Reply, private};
use crate::kernel::request::Request;

/// What `learn` asks.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LearnCommand {
    /// `learn`: the progress in every game's course.
    Progress,
    /// `learn <game> [n]`: lesson `n` of the game's course, or the first not yet solved.
    Start(GameId, Option<usize>),
    /// `learn <decision>`: an answer to the lesson being taken.
    Answer(String),
    /// `learn solution`: the solution of the lesson being taken (then one star at most).
    Solution,
}

impl LearnCommand {
    /// The command's name, as logs and metrics label it.
    pub fn name(&self) -> &'static str {
        match self {
            LearnCommand::Answer(_) => "learn answer",
            _ => "learn",
        }
    }
}

/// Reads `learn`'s words: a game (and a lesson number), else an answer.
pub fn parse(rest: &str) -> Result<LearnCommand, String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let Some(first) = words.first() else {
        return Ok(LearnCommand::Progress);
    };
    if words.len() == 1 && first.eq_ignore_ascii_case("solution") {
        return Ok(LearnCommand::Solution);
    }
    // `lanko` alone names the board the lessons are on.
    let game = match first.to_ascii_lowercase().as_str() {
        "lanko" => Ok(GameId::Lanko88),
        _ => first.parse::<GameId>(),
    };
    let Ok(game) = game else {
        return Ok(LearnCommand::Answer(rest.trim().to_string()));
    };
    match words[1..] {
        [] => Ok(LearnCommand::Start(game, None)),
        [n] => match n.parse::<usize>() {
            Ok(n) => Ok(LearnCommand::Start(game, Some(n))),
            Err(_) => Err(format!(
                "`learn {game} {}`: say a lesson's number, such as `learn {game} 2`",
                crate::kernel::text::excerpt(n, 16)
            )),
        },
        _ => Err(format!("`learn {game}` takes at most a lesson's number")),
    }
}

/// A lesson's id (`lanrick-4`), by its game and place in the course (from 1).
fn id(game: GameId, n: usize) -> String {
    format!("{game}-{n}")
}

/// The lesson an id names, with its place in the course.
fn find(id: &str) -> Option<(usize, &'static Lesson)> {
    let (game, n) = id.rsplit_once('-')?;
    let game: GameId = game.parse().ok()?;
    let n: usize = n.parse().ok()?;
    course(game).get(n.checked_sub(1)?).map(|l| (n, l))
}

/// The lessons of `game`, in order (empty for a game with none).
pub fn course(game: GameId) -> &'static [Lesson] {
    match game {
        GameId::Lanrick => &lanrick::COURSE,
        GameId::Croquet => &croquet::COURSE,
        GameId::Lanrick1880 => &lanrick1880::COURSE,
        GameId::Lanko88 => &lanko::COURSE,
        GameId::Lanko68 | GameId::Lanko103 => &[],
    }
}

/// Runs `puzzle`: the channel's daily posting (daily.rs), else the asker's own puzzles.
pub fn puzzle(core: &Context, req: &Request, command: puzzles::PuzzleCommand) -> Replies {
    match command {
        puzzles::PuzzleCommand::Posting(on) => daily::set(core, req, on),
        other => privately(core, req, puzzles::run(core, req, other)),
    }
}

/// What `learn` and `puzzle` answer, kept the asker's: where the platform's private replies
/// are mentions in a room, and the room is not his direct room with the bot, the answer goes to
/// that direct room (made if need be) and the room is told where it went.
fn privately(core: &Context, req: &Request, out: Replies) -> Replies {
    if core.surface(&req.platform).private_replies() || req.policy.direct {
        return out;
    }
    core.timers.post(Notice {
        platform: req.platform.clone(),
        target: Target::Direct(req.user.clone()),
        replies: out,
        fallback: None,
        receipt: None,
    });
    private(
        "Sent to you in a direct message from me, for you alone: lessons and puzzles are answered there."
            .to_string(),
    )
}

/// Runs `learn`.
pub fn run(core: &Context, req: &Request, command: LearnCommand) -> Replies {
    let result = match command {
        LearnCommand::Progress => overview(core, req),
        LearnCommand::Start(game, n) => start(core, req, game, n),
        LearnCommand::Answer(text) => answer(core, req, &text),
        LearnCommand::Solution => solution(core, req),
    };
    let out = result
        .unwrap_or_else(|e| private(format!("Your lessons cannot be read now ({e}); try again.")));
    privately(core, req, out)
}

/// The stars as they are shown: `★★☆`.
fn stars(n: u8) -> String {
    (0..3).map(|i| if i < n { '★' } else { '☆' }).collect()
}

/// `learn`: each course with its lessons' stars, and what to type next.
fn overview(core: &Context, req: &Request) -> Result<Replies, String> {
    let p = &core.prefix;
    let progress = progress::of(core.base.as_ref(), &req.platform, &req.user.id)?;
    let mut lines = vec!["Lessons: short tasks on a board, checked by the rules. Up to three stars each, for solving it in few tries.".to_string()];
    for game in GameId::ALL.into_iter().filter(|g| !course(*g).is_empty()) {
        let lessons = course(game);
        let got: Vec<u8> = (1..=lessons.len())
            .map(|n| progress.stars.get(&id(game, n)).copied().unwrap_or(0))
            .collect();
        let solved = got.iter().filter(|s| **s > 0).count();
        let list: Vec<String> = lessons
            .iter()
            .zip(&got)
            .enumerate()
            .map(|(i, (l, s))| format!("{} {} {}", i + 1, l.title, stars(*s)))
            .collect();
        lines.push(format!(
            "{} — {solved} of {} solved, {} of {} stars (`{p}learn {game}`): {}",
            game.title(),
            lessons.len(),
            got.iter().map(|s| u32::from(*s)).sum::<u32>(),
            lessons.len() * 3,
            list.join(" · ")
        ));
    }
    if let Some(web) = core.web_base() {
        lines.push(format!(
            "The courses on the web, answerable there too: {web}/learn"
        ));
    }
    if let Some((n, lesson)) = progress.taking.as_ref().and_then(|t| find(&t.lesson)) {
        lines.push(format!(
            "You are taking {} lesson {n}, {}: answer with `{p}learn <decision>`.",
            lesson.game.title(),
            lesson.title
        ));
    }
    Ok(private(lines.join("\n")))
}

/// The games with a course, by their ids.
fn with_lessons() -> Vec<&'static str> {
    GameId::ALL
        .into_iter()
        .filter(|g| !course(*g).is_empty())
        .map(GameId::as_str)
        .collect()
}

/// `learn <game> [n]`: the lesson given, its board and its task.
fn start(core: &Context, req: &Request, game: GameId, n: Option<usize>) -> Result<Replies, String> {
    let p = &core.prefix;
    let lessons = course(game);
    if lessons.is_empty() {
        return Ok(private(format!(
            "{} has no lessons of its own: Lanko's lessons are on the Lanko-88 board \
             (`{p}learn lanko88`), and `{p}rules {game}` gives how {} differs.",
            game.title(),
            game.title()
        )));
    }
    let progress = progress::of(core.base.as_ref(), &req.platform, &req.user.id)?;
    let n = match n {
        Some(n) if (1..=lessons.len()).contains(&n) => n,
        Some(_) => {
            return Ok(private(format!(
                "{} has lessons 1 to {}: `{p}learn {game} 1` is the first.",
                game.title(),
                lessons.len()
            )));
        }
        None => (1..=lessons.len())
            .find(|n| !progress.stars.contains_key(&id(game, *n)))
            .unwrap_or(1),
    };
    progress::update(core.base.as_ref(), &req.platform, &req.user.id, |p| {
        p.taking = Some(Taking {
            lesson: id(game, n),
            moves: Vec::new(),
            wrong: 0,
        });
    })?;
    let lesson = &lessons[n - 1];
    let mut out = vec![board(lesson, &[], req, n)];
    out.push(Reply::Private(format!(
        "{} lesson {n} of {}: {} ({}). {} Answer with `{p}learn <decision>`.",
        game.title(),
        lessons.len(),
        lesson.title,
        lesson.rule,
        lesson.task
    )));
    Ok(out)
}

/// The board of `lesson` after its record and the decisions made in it, for the asker.
fn board(lesson: &Lesson, moves: &[String], req: &Request, n: usize) -> Reply {
    let all: Vec<String> = lesson
        .record
        .iter()
        .map(|m| m.to_string())
        .chain(moves.iter().cloned())
        .collect();
    let id = format!("lesson-{}-{n}", lesson.game);
    let place = (req.platform.as_str(), req.channel.as_str());
    let board = Board::shown(lesson.game, &id, all, lesson.record.len(), place);
    Reply::Board(Box::new(board.private()))
}

/// The lesson's position after its record and `moves`.
pub fn position(lesson: &Lesson, moves: &[String]) -> Option<AnyGame> {
    let mut game = AnyGame::new(lesson.game);
    for text in lesson
        .record
        .iter()
        .copied()
        .chain(moves.iter().map(String::as_str))
    {
        let seat = game.to_move()?;
        game.play_text(seat, text).ok()?;
    }
    Some(game)
}

/// What the answer `text` did to the lesson being taken: refused by the rules (why), or played
/// (the lesson's decisions now, with the other side's answers) and judged.
pub enum Answered {
    /// The rules refused it: why.
    Refused(String),
    /// Played: the lesson's decisions now (with the other side's answers), and the verdict.
    Played(Vec<String>, Verdict),
}

/// `text` played in `lesson` after `moves`: refused by the rules, or played and judged by the
/// lesson (and, when the task asks for more, answered by the other side while it is not the
/// learner's turn).
pub fn play(lesson: &Lesson, moves: &[String], text: &str) -> Answered {
    let Some(mut game) = position(lesson, moves) else {
        return Answered::Refused("this lesson's position no longer replays".into());
    };
    let Some(seat) = game.to_move() else {
        return Answered::Refused("the lesson's game is over".into());
    };
    let before = game.clone();
    // A Lanko declaration is typed as the command names it.
    let text = match (&game, text.trim()) {
        (AnyGame::Lanko(_), t) if t.eq_ignore_ascii_case("declare") => "===",
        _ => text,
    };
    let canonical = match game.canonical(&game.normalise(text)) {
        Ok(c) => c,
        Err(e) => return Answered::Refused(e.to_string()),
    };
    let events = match game.play_text(seat, &canonical) {
        Ok(events) => events,
        Err(e) => return Answered::Refused(e.to_string()),
    };
    let mut played = moves.to_vec();
    played.push(canonical.clone());
    // The lesson judges the position the learner's decision made.
    let verdict = (lesson.check)(&Tried {
        before: &before,
        after: &game,
        text: &canonical,
        seat,
        events: &events,
    });
    // Before his next decision, the other side answers with its first legal one.
    if matches!(verdict, Verdict::More(_)) {
        while let Some(other) = game.to_move().filter(|s| *s != seat) {
            let Some(reply) = game
                .forced_move()
                .or_else(|| game.legal_moves_text().into_iter().next())
            else {
                break;
            };
            if game.play_text(other, &reply).is_err() {
                break;
            }
            played.push(reply);
        }
    }
    Answered::Played(played, verdict)
}

/// The lesson a learner is taking, with its place in its course.
fn being_taken(progress: &progress::Progress) -> Option<(Taking, (usize, &'static Lesson))> {
    let taking = progress.taking.clone()?;
    let found = find(&taking.lesson)?;
    Some((taking, found))
}

/// `learn <decision>`: the answer checked, the progress kept.
fn answer(core: &Context, req: &Request, text: &str) -> Result<Replies, String> {
    let p = &core.prefix;
    let progress = progress::of(core.base.as_ref(), &req.platform, &req.user.id)?;
    let Some((taking, (n, lesson))) = being_taken(&progress) else {
        return Ok(private(format!(
            "You are not taking a lesson: `{p}learn <game>` starts one ({}), `{p}learn` shows \
             your progress.",
            with_lessons().join(", ")
        )));
    };
    let judged = play(lesson, &taking.moves, text);
    let excerpt = crate::kernel::text::excerpt(text, 32);
    match judged {
        Answered::Refused(why) | Answered::Played(_, Verdict::Wrong(why)) => {
            progress::update(core.base.as_ref(), &req.platform, &req.user.id, |p| {
                if let Some(t) = p.taking.as_mut().filter(|t| t.lesson == taking.lesson) {
                    t.wrong += 1;
                }
            })?;
            // The rules' own words may already begin with the decision.
            let said = format!("`{excerpt}`");
            let why = match why.strip_prefix(&said) {
                Some(_) => why,
                None => format!("{said}: {why}"),
            };
            Ok(private(format!(
                "{why}. The task: {} Try again with `{p}learn <decision>`.",
                lesson.task
            )))
        }
        Answered::Played(moves, Verdict::More(next)) => {
            progress::update(core.base.as_ref(), &req.platform, &req.user.id, |p| {
                if let Some(t) = p.taking.as_mut().filter(|t| t.lesson == taking.lesson) {
                    t.moves = moves.clone();
                }
            })?;
            Ok(vec![
                board(lesson, &moves, req, n),
                Reply::Private(format!("{next} Answer with `{p}learn <decision>`.")),
            ])
        }
        Answered::Played(moves, Verdict::Solved) => {
            let earned = 3u8.saturating_sub(taking.wrong.min(2) as u8);
            progress::update(core.base.as_ref(), &req.platform, &req.user.id, |p| {
                let best = p.stars.entry(taking.lesson.clone()).or_insert(0);
                *best = (*best).max(earned);
                p.taking = None;
            })?;
            let game = lesson.game;
            let mut buttons = vec![Button {
                label: "Your progress".into(),
                command: "learn".into(),
            }];
            if n < course(game).len() {
                buttons.insert(
                    0,
                    Button {
                        label: "Next lesson".into(),
                        command: format!("learn {game} {}", n + 1),
                    },
                );
            }
            Ok(vec![
                board(lesson, &moves, req, n),
                Reply::Private(solved(core, lesson, n, earned)),
                Reply::Buttons(buttons),
            ])
        }
    }
}

/// `learn solution`: the decisions that solve the lesson being taken; solved after it, the
/// lesson earns one star.
fn solution(core: &Context, req: &Request) -> Result<Replies, String> {
    let p = &core.prefix;
    let progress = progress::of(core.base.as_ref(), &req.platform, &req.user.id)?;
    let Some((taking, (n, lesson))) = being_taken(&progress) else {
        return Ok(private(format!(
            "You are not taking a lesson: `{p}learn <game>` starts one."
        )));
    };
    progress::update(core.base.as_ref(), &req.platform, &req.user.id, |p| {
        if let Some(t) = p.taking.as_mut().filter(|t| t.lesson == taking.lesson) {
            t.wrong = t.wrong.max(2);
        }
    })?;
    let steps: Vec<String> = lesson
        .answers
        .iter()
        .map(|a| format!("`{p}learn {a}`"))
        .collect();
    Ok(private(format!(
        "{} lesson {n}, {}: {}{}. Play it now to finish the lesson (one star).",
        lesson.game.title(),
        lesson.title,
        steps.join(", then "),
        if taking.moves.is_empty() {
            ""
        } else {
            " (from the lesson's start: your good decisions so far are part of it)"
        }
    )))
}

/// The words for a lesson solved: its stars, what it taught, and the next one.
fn solved(core: &Context, lesson: &Lesson, n: usize, earned: u8) -> String {
    let p = &core.prefix;
    let game = lesson.game;
    let next = match course(game).get(n) {
        Some(l) => format!(
            "Next: `{p}learn {game}` gives lesson {}, {}.",
            n + 1,
            l.title
        ),
        None => format!(
            "That was the last {} lesson: `{p}learn` shows your stars; `{p}new {game} bot:easy` plays a game.",
            game.title()
        ),
    };
    format!("Solved {}! {} {next}", stars(earned), lesson.learnt)
}
