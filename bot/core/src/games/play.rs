//! Playing a game: a move (with the bot's decisions that follow at once), resigning, and every
//! game's end; the one way a game is written ([`save`]); and who decides next.

use muster_rules::{AnyEvent, AnyGame, Seat};

use super::bot;
use super::view::clock_words;
use super::words::{self, who};
use crate::kernel::board::Board;
use crate::kernel::context::Context;
use crate::kernel::replayable::Replayable;
use crate::kernel::reply::{Button, Replies, Reply, not_saved, private};
use crate::kernel::request::{Request, User};
use crate::kernel::store::{ChannelKey, Ending, GameRecord, Status};

/// Writes `record` as the next version of the channel's game (archiving it when finished),
/// into the request's one change; `game` is the game as the record leaves it, kept with the
/// change so that what follows it replays nothing. A lost race gives the user a reply instead.
pub fn save(
    core: &Context,
    key: &ChannelKey,
    mut record: GameRecord,
    game: &AnyGame,
) -> Result<GameRecord, Replies> {
    let expected = record.version;
    record.version += 1;
    record.updated = core.clock.now();
    record.time_moves(record.updated);
    record.refresh_clock();
    let result = if record.status == Status::Finished {
        core.store.archive(key, expected, &record)
    } else {
        core.store.update(key, expected, &record)
    };
    match result {
        Ok(()) => {
            if let Some(staged) = &core.staged {
                staged.keep_played(&record, game);
            }
            Ok(record)
        }
        Err(e) => Err(not_saved(&e)),
    }
}

/// Plays the bot's decisions while it is the one to decide; returns their events in order.
/// Decisions made at once (Croquet's, and a seat's forced pass) are made whoever moved; in the
/// games it searches, the bot goes on only for `searcher`, the seat whose own decision this
/// command is (the bot's, on its worker): the takings, returns and fields that follow its won
/// rendezvous are made in the same command, so that they are said in one message with one
/// board, not one message each.
pub fn bot_turns(
    record: &mut GameRecord,
    game: &mut AnyGame,
    searcher: Option<Seat>,
) -> Vec<AnyEvent> {
    let mut events = Vec::new();
    for _ in 0..32 {
        let Some(seat) = game.to_move() else { break };
        if let Some(text) = game.forced_move() {
            // A seat with no choice (a Lanko pass) is moved for, so that nobody waits on it.
            match game.play_text(seat, &text) {
                Ok(ev) => {
                    record.moves.push(text);
                    events.extend(ev);
                    continue;
                }
                Err(_) => break,
            }
        }
        let Some(level) = record
            .player(seat.index())
            .and_then(|p| bot::level_of(&p.id))
        else {
            break;
        };
        // A search takes a while: the bot decides after this command is answered, unless this
        // command is its own.
        if bot::searches(game.id()) && searcher != Some(seat) {
            break;
        }
        let Some(text) =
            bot::decide(game, level, &record.id, record.moves.len()).map(|found| found.decision)
        else {
            break;
        };
        match game.play_text(seat, &text) {
            Ok(ev) => {
                record.moves.push(text);
                events.extend(ev);
            }
            Err(_) => break,
        }
    }
    if game.outcome().is_some() {
        record.status = Status::Finished;
        record.ending = Some(Ending::Rules);
    }
    events
}

/// Events put into words, as one message (none if there are no events).
pub fn said(record: &GameRecord, game: &AnyGame, events: &[AnyEvent]) -> Replies {
    if events.is_empty() {
        return Vec::new();
    }
    let name = |s: Seat| match record.player(s.index()) {
        // With more than two seats, a player may hold several: say which one acted.
        Some(_) if game.table().len() > 2 => who(record, game, s),
        Some(p) => p.name.clone(),
        None => words::seat_title(game, s),
    };
    vec![Reply::Text(words::events(events, &name, game).join(" "))]
}

/// Checks that `req.user` is at the table of an active game.
pub fn player_seat(core: &Context, req: &Request, record: &GameRecord) -> Result<usize, Replies> {
    if record.status == Status::Open {
        return Err(private(format!(
            "The game has not started: seats are still open or challenges unanswered (`{}board`).",
            core.prefix
        )));
    }
    record
        .seat_of(&req.user.id)
        .ok_or_else(|| private("You are not playing in this game; you can watch it with `board`."))
}

pub fn play(
    core: &Context,
    req: &Request,
    key: &ChannelKey,
    mut record: GameRecord,
    mut game: AnyGame,
    text: &str,
) -> Replies {
    if let Err(e) = player_seat(core, req, &record) {
        return e;
    }
    let Some(seat) = game.to_move() else {
        return private("The game is over.");
    };
    let mover = record.player(seat.index()).map(|p| p.id.as_str());
    if mover != Some(req.user.id.as_str()) {
        return private(format!(
            "It is {}'s decision, not yours.",
            who(&record, &game, seat)
        ));
    }
    let canonical = match game.canonical(&game.normalise(text)) {
        Ok(c) => c,
        Err(e) => {
            return private(format!(
                "{e}. Here: {}. See `{}notation`.",
                words::prompt(&game, &core.prefix),
                core.prefix
            ));
        }
    };
    let events = match game.play_text(seat, &canonical) {
        Ok(ev) => ev,
        Err(e) => return private(format!("`{canonical}` is not legal: {e}.")),
    };
    let before = record.moves.len();
    record.moves.push(canonical);
    record.draw_offer = None;
    record.takeback = None;
    if game.outcome().is_some() {
        record.status = Status::Finished;
        record.ending = Some(Ending::Rules);
    }
    let searcher = bot::level_of(&req.user.id).map(|_| seat);
    let bot_events = bot_turns(&mut record, &mut game, searcher);
    let record = match save(core, key, record, &game) {
        Ok(r) => r,
        Err(e) => return e,
    };
    // The bot's own run is said as one message; another's move and the bot's answer as two.
    let mut out = if searcher.is_some() {
        let run: Vec<AnyEvent> = events.iter().chain(&bot_events).cloned().collect();
        said(&record, &game, &run)
    } else {
        let mut out = said(&record, &game, &events);
        out.extend(said(&record, &game, &bot_events));
        out
    };
    let marked = events.into_iter().chain(bot_events).collect();
    out.push(Reply::played_board(&record, before, &game, marked));
    if game.outcome().is_some() {
        out.push(game_over(core, &record, &game));
    } else {
        out.extend(next_up(core, &record, &game));
    }
    out
}

/// `Game over: alice (White) wins. `!export g12` gives the record.`
fn game_over(core: &Context, record: &GameRecord, game: &AnyGame) -> Reply {
    Reply::Text(format!(
        "Game over: {} `{}export {}` gives the record.",
        words::result(record, game),
        core.prefix,
        record.id
    ))
}

pub fn finish(
    core: &Context,
    key: &ChannelKey,
    mut record: GameRecord,
    game: &AnyGame,
    ending: Ending,
    said: String,
) -> Replies {
    record.status = Status::Finished;
    record.ending = Some(ending);
    record.draw_offer = None;
    record.takeback = None;
    match save(core, key, record, game) {
        Ok(record) => vec![
            Reply::Text(said),
            Reply::played_board(&record, record.moves.len(), game, Vec::new()),
            game_over(core, &record, game),
        ],
        Err(e) => e,
    }
}

/// Whether a finished game gets its replay posted with the result: one with a move at least,
/// not called off.
pub fn worth_replaying(record: &GameRecord) -> bool {
    !record.moves.is_empty() && record.ending != Some(Ending::Aborted)
}

/// The replay of a finished game, within what its platform takes.
pub fn replay_board(core: &Context, record: &GameRecord) -> Reply {
    let cap = core.surface_of(record).upload_limit();
    Reply::Board(Box::new(Board::replay(record, cap)))
}

pub fn resign(
    core: &Context,
    req: &Request,
    key: &ChannelKey,
    record: GameRecord,
    mut game: AnyGame,
) -> Replies {
    let seat = match player_seat(core, req, &record) {
        Ok(s) => s,
        Err(e) => return e,
    };
    let Some(s) = Seat::new(seat) else {
        return Vec::new();
    };
    if let Err(e) = game.resign(s) {
        return private(format!("{e}."));
    }
    // The bot resigns a hopeless game (docs/ai.md) as a good loser.
    let bot = record
        .player(seat)
        .is_some_and(|p| bot::level_of(&p.id).is_some());
    let said = if bot {
        format!("{} resigns. Well played!", who(&record, &game, s))
    } else {
        format!("{} resigns.", who(&record, &game, s))
    };
    finish(core, key, record, &game, Ending::Resigned { seat }, said)
}

/// Whether `text`, written on its own by the player to move, looks like an attempt at a move
/// that is not one (`a2a3`, `c 1`, a step number in Lanrick) rather than chat, so that it is
/// answered with what a move looks like instead of silence: one line of at most 40 characters,
/// with a digit, and no word of three letters or more (`hello`, `lol 5` are chat).
pub fn looks_like_a_move(text: &str) -> bool {
    let mut letters = 0;
    for c in text.chars() {
        letters = if c.is_alphabetic() { letters + 1 } else { 0 };
        if letters >= 3 {
            return false;
        }
    }
    text.chars().count() <= 40 && !text.contains('\n') && text.chars().any(|c| c.is_ascii_digit())
}

/// Who decides next, addressed to them, with what to do.
pub fn next_up(core: &Context, record: &GameRecord, game: &AnyGame) -> Vec<Reply> {
    let Some(seat) = game.to_move() else {
        return Vec::new();
    };
    let Some(player) = record.player(seat.index()) else {
        return Vec::new();
    };
    if bot::level_of(&player.id).is_some() {
        // The bot is not pinged: it says when it has decided.
        return vec![Reply::Text(format!(
            "{} is thinking ({}).",
            player.name,
            words::seat_title(game, seat)
        ))];
    }
    let user = User::from(player);
    let mut text = format!(
        "your turn ({}) — {}.",
        words::seat_title(game, seat),
        words::prompt(game, &core.prefix)
    );
    if let Some(line) = clock_words(core, record, game) {
        text.push_str(&format!("\n{line}"));
    }
    vec![
        Reply::Mention { user, text },
        Reply::Buttons(turn_buttons(game)),
    ]
}

/// The buttons under a turn: Croquet's steps (there are at most eight), then the board.
pub fn turn_buttons(game: &AnyGame) -> Vec<Button> {
    let mut buttons = Vec::new();
    if let AnyGame::Croquet(_) = game {
        buttons.extend(game.legal_moves_text().into_iter().map(|step| Button {
            command: format!("move {step}"),
            label: step,
        }));
    }
    buttons.push(Button {
        label: "Board".into(),
        command: "board".into(),
    });
    buttons
}
