//! The lessons' and puzzles' pages (docs/web.md, "Lessons and puzzles"), with no token (they
//! are the same for everyone): `/learn` the courses, `/learn/<game>` a course, each lesson its
//! board, its task and a form to answer it; `/puzzles` the shipped set, `/puzzle/<id>` one
//! puzzle. An answer is checked as in chat — by the rules engine, then by the lesson or the
//! puzzle's proof — and the page comes back with what it did; the decisions a lesson has had so
//! far travel in the form, and nothing is kept: no progress, no rating (those are the chat's,
//! for a player it knows). Forms and pictures: readable and playable without script.

use std::collections::HashMap;

use maud::{Markup, html};
use muster_core::learn::lessons::{Lesson, Verdict};
use muster_core::learn::puzzles::{Judged, find, judge, seat_of, set};
use muster_core::learn::{Answered, course, play, position};
use muster_render::{Style, any};
use muster_rules::{AnyGame, GameId, MAX_NOTATION};

use super::html::{Head, encoded, page};

/// The most decisions a lesson's form carries (every lesson needs far fewer).
const MOST_MOVES: usize = 40;

/// The games with a course, by the name of their page.
fn course_of(name: &str) -> Option<(GameId, &'static [Lesson])> {
    let game: GameId = name.parse().ok()?;
    let lessons = course(game);
    (!lessons.is_empty()).then_some((game, lessons))
}

/// The decisions a query carries (`moves=a|b`), or `None` when they are too many or too long.
fn moves_of(asked: &HashMap<String, String>) -> Option<Vec<String>> {
    let Some(text) = asked.get("moves").filter(|t| !t.is_empty()) else {
        return Some(Vec::new());
    };
    let moves: Vec<String> = text.split('|').map(str::to_string).collect();
    let fits = moves.len() <= MOST_MOVES && moves.iter().all(|m| m.len() <= MAX_NOTATION);
    fits.then_some(moves)
}

/// A board picture, drawn by the renderer (the seats said by their colours).
fn drawn(game: &AnyGame) -> any::Board {
    any::board(game, &[], [""; 4], "", Style::default())
}

/// `/learn/<game>/<n>.png?moves=…`: lesson `n`'s board after the decisions carried.
pub fn lesson_board(name: &str, file: &str, asked: &HashMap<String, String>) -> Option<Vec<u8>> {
    let (_, lessons) = course_of(name)?;
    let n: usize = file.strip_suffix(".png")?.parse().ok()?;
    let lesson = lessons.get(n.checked_sub(1)?)?;
    let game = position(lesson, &moves_of(asked)?)?;
    Some(drawn(&game).png)
}

/// What an answer to one lesson did, to be shown beside it.
struct Tried {
    n: usize,
    moves: Vec<String>,
    said: String,
    solved: bool,
}

/// The answer a query gives to one of `lessons` (`lesson=n&answer=…&moves=…`).
fn tried(lessons: &[Lesson], asked: &HashMap<String, String>) -> Option<Tried> {
    let n: usize = asked.get("lesson")?.parse().ok()?;
    let lesson = lessons.get(n.checked_sub(1)?)?;
    let before = moves_of(asked)?;
    let answer = asked
        .get("answer")
        .map(|a| a.trim())
        .filter(|a| !a.is_empty())?;
    if answer.len() > MAX_NOTATION {
        return Some(Tried {
            n,
            moves: before,
            said: format!("That answer is longer than {MAX_NOTATION} characters."),
            solved: false,
        });
    }
    let (moves, said, solved) = match play(lesson, &before, answer) {
        Answered::Refused(why) | Answered::Played(_, Verdict::Wrong(why)) => {
            (before, format!("{answer}: {why}. Try again."), false)
        }
        Answered::Played(moves, Verdict::More(next)) => (moves, next, false),
        Answered::Played(moves, Verdict::Solved) => {
            (moves, format!("Solved! {}", lesson.learnt), true)
        }
    };
    Some(Tried {
        n,
        moves,
        said,
        solved,
    })
}

/// `/learn/<game>`: the course, every lesson with its board, its task and its form.
pub fn course_page(name: &str, asked: &HashMap<String, String>, base: &str) -> Option<Markup> {
    let (game, lessons) = course_of(name)?;
    let tried = tried(lessons, asked);
    let head = Head {
        title: format!("Lessons of {}", game.title()),
        heading: None,
        description: format!(
            "{} short lessons of {}, each a board and a task checked by the rules.",
            lessons.len(),
            game.title()
        ),
        path: format!("/learn/{name}"),
        card: None,
        live: None,
    };
    let body = html! {
        p {
            "Each lesson is a position and a task. Type your decision in the game's notation; \
             the rules engine checks it, as in a game. Here nothing is kept: in a chat, "
            code { "learn " (name) }
            " keeps your stars. The rules: "
            a href={"/rules/" (super::rules::name_of(game))} { "the rules of " (game.title()) }
            "."
        }
        @for (i, lesson) in lessons.iter().enumerate() {
            @let n = i + 1;
            @let here = tried.as_ref().filter(|t| t.n == n);
            (lesson_section(name, n, lesson, here))
        }
    };
    Some(page(&head, base, body))
}

/// One lesson: its heading, board, task, what the last answer did, and the form.
fn lesson_section(name: &str, n: usize, lesson: &Lesson, tried: Option<&Tried>) -> Markup {
    let moves = tried.map(|t| t.moves.join("|")).unwrap_or_default();
    let picture = format!("/learn/{name}/{n}.png?moves={}", encoded(&moves));
    let game = position(lesson, tried.map_or(&[][..], |t| &t.moves[..]));
    let alt = game.as_ref().map(|g| drawn(g).alt).unwrap_or_default();
    html! {
        section.lesson id={"lesson-" (n)} aria-labelledby={"lesson-" (n) "-title"} {
            h2 id={"lesson-" (n) "-title"} { (n) ". " (lesson.title) " " small { "(" (lesson.rule) ")" } }
            img.board src=(picture) alt=(alt) loading="lazy";
            p.task { (lesson.task) }
            @if let Some(t) = tried {
                p.verdict role="status" { (t.said) }
            }
            @if !tried.is_some_and(|t| t.solved) {
                form method="get" action={"/learn/" (name) "#lesson-" (n)} {
                    input type="hidden" name="lesson" value=(n);
                    input type="hidden" name="moves" value=(moves);
                    label for={"answer-" (n)} { "Your decision" }
                    input type="text" id={"answer-" (n)} name="answer" maxlength=(MAX_NOTATION)
                        autocomplete="off" spellcheck="false" required;
                    button type="submit" { "Check" }
                }
            }
        }
    }
}

/// `/learn`: the courses.
pub fn learn_index(base: &str) -> Markup {
    let head = Head {
        title: "Lessons and puzzles".into(),
        heading: None,
        description: "Short lessons of Lanrick, Arithmetical Croquet and Lanko on a board, and \
                      puzzles from the bot's own games, each checked by the rules."
            .into(),
        path: "/learn".into(),
        card: None,
        live: None,
    };
    let body = html! {
        ul.games {
            @for game in GameId::ALL {
                @let lessons = course(game);
                @if !lessons.is_empty() {
                    li { a href={"/learn/" (game)} { (game.title()) } " — " (lessons.len()) " lessons" }
                }
            }
        }
        p { a href="/puzzles" { "Puzzles" } ": " (set().len()) " positions from the bot's own games, each proved." }
    };
    page(&head, base, body)
}

/// `/puzzles`: the shipped set, by game.
pub fn puzzles_index(base: &str) -> Markup {
    let head = Head {
        title: "Puzzles".into(),
        heading: None,
        description: format!(
            "{} puzzles from the bot's own games, each proved by trying every legal decision.",
            set().len()
        ),
        path: "/puzzles".into(),
        card: None,
        live: None,
    };
    let body = html! {
        p { "Each puzzle is a position from the bot's games against itself where one decision achieves \
             what the puzzle asks and no other does, proved by playing every legal decision. In a chat, "
            code { "puzzle" } " rates your first try." }
        @for game in GameId::ALL {
            @let of_game: Vec<_> = set().iter().filter(|e| e.game == game).collect();
            @if !of_game.is_empty() {
                h2 { (game.title()) }
                ul.puzzles {
                    @for e in of_game {
                        li { a href={"/puzzle/" (e.id)} { (e.id) } " — " (e.theme.task()) " (rated " (format!("{:.0}", e.rating)) " at first)" }
                    }
                }
            }
        }
    };
    page(&head, base, body)
}

/// `/puzzle/<id>/board.png?after=…`: the puzzle's board, or after a legal decision.
pub fn puzzle_board(id: &str, asked: &HashMap<String, String>) -> Option<Vec<u8>> {
    let entry = find(id)?;
    let mut game = entry.position().ok()?;
    if let Some(after) = asked.get("after").filter(|a| a.len() <= MAX_NOTATION) {
        let seat = game.to_move()?;
        game.play_text(seat, after).ok()?;
    }
    Some(drawn(&game).png)
}

/// `/puzzle/<id>`: the board, the task and the form; with `answer=…`, what it did.
pub fn puzzle_page(id: &str, asked: &HashMap<String, String>, base: &str) -> Option<Markup> {
    let entry = find(id)?;
    let game = entry.position().ok()?;
    let answer = asked
        .get("answer")
        .map(|a| a.trim())
        .filter(|a| !a.is_empty());
    let judged = answer.map(|a| match a.len() > MAX_NOTATION {
        true => Judged::Refused(format!("longer than {MAX_NOTATION} characters")),
        false => judge(entry, &game, a),
    });
    let (picture_after, said) = match (&judged, answer) {
        (
            Some(Judged::Solved {
                canonical,
                achieved,
            }),
            _,
        ) => (
            Some(canonical.clone()),
            format!("Solved: {canonical} {achieved}."),
        ),
        (Some(Judged::Wrong { canonical, why }), _) => {
            (None, format!("{canonical}: {why}. Try again."))
        }
        (Some(Judged::Refused(why)), Some(a)) => (None, format!("{a}: {why}. Try again.")),
        _ => (None, String::new()),
    };
    let shown = match &picture_after {
        Some(after) => {
            let mut g = game.clone();
            let seat = g.to_move()?;
            g.play_text(seat, after).ok()?;
            g
        }
        None => game.clone(),
    };
    let picture = match &picture_after {
        Some(after) => format!("/puzzle/{id}/board.png?after={}", encoded(after)),
        None => format!("/puzzle/{id}/board.png"),
    };
    let task = format!(
        "{} to play — {}.",
        seat_of(entry, &game),
        entry.theme.task()
    );
    let head = Head {
        title: format!("Puzzle {id}"),
        heading: None,
        description: format!("{}: {task}", entry.game.title()),
        path: format!("/puzzle/{id}"),
        card: None,
        live: None,
    };
    let solved = matches!(judged, Some(Judged::Solved { .. }));
    let body = html! {
        p { (entry.game.title()) " · from the bot's own games · proved: of its "
            (entry.decisions) " legal decisions, "
            @if entry.solutions == 1 { "only one achieves it." } @else { (entry.solutions) " achieve it, all alike." } }
        img.board src=(picture) alt=(drawn(&shown).alt);
        p.task { (task) }
        @if !said.is_empty() {
            p.verdict role="status" { (said) }
        }
        @if !solved {
            form method="get" action={"/puzzle/" (id)} {
                label for="answer" { "Your decision" }
                input type="text" id="answer" name="answer" maxlength=(MAX_NOTATION)
                    autocomplete="off" spellcheck="false" required;
                button type="submit" { "Check" }
            }
        }
        p { "Not rated here: in a chat, " code { "puzzle " (entry.game) } " rates your first try. "
            a href="/puzzles" { "Every puzzle" } " · "
            a href={"/rules/" (super::rules::name_of(entry.game))} { "the rules" } }
    };
    Some(page(&head, base, body))
}
