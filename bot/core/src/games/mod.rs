//! Games: the commands that seat, play, look at and end a channel's game, the offers that need
//! the other side's consent, the clocks running out, and the bot as a player. Every game write
//! goes through [`play::save`] into the request's one change; the replies are worded from the
//! game as played.

pub mod away;
pub mod bot;
pub mod command;
pub mod follow;
pub mod lanko_words;
pub mod offers;
pub mod play;
pub mod seating;
pub mod table;
pub mod timeouts;
pub mod view;
pub mod words;

use command::GameCommand;

use crate::kernel::context::Context;
use crate::kernel::replayable::Replayable;
use crate::kernel::reply::{Replies, Reply, private};
use crate::kernel::request::Request;
use crate::kernel::store::{ChannelKey, GameRecord, Status, StoreError};

/// The live game said in `key` and the key it lives under: the channel's own, or in the other
/// place of a game played on two platforms, the game at its home.
pub fn here(
    core: &Context,
    key: &ChannelKey,
) -> Result<Option<(ChannelKey, GameRecord)>, StoreError> {
    match core.store.load(key)? {
        Some(record) => Ok(Some((key.clone(), record))),
        None => away::game_of(core.store.as_ref(), key),
    }
}

/// The answer to a command for `game`, which ended while the command was being handled (it
/// lost its race to the game's end: a resignation, a clock run out): what the game came to.
pub fn ended_meanwhile(core: &Context, game: &str) -> Replies {
    let result = match core.store.archived(game) {
        Ok(Some(record)) => match record.rebuild() {
            Ok(played) => format!(" ({})", words::result(&record, &played)),
            Err(_) => String::new(),
        },
        _ => String::new(),
    };
    private(format!(
        "Game {game} ended while your command was being handled{result}; nothing of yours \
         was applied. `{p}export {game}` gives the record.",
        p = core.prefix
    ))
}

/// Runs a command that concerns the channel's game (`record` is its live record, if any, read
/// once by the desk): the record is replayed once, and the game as played words the replies.
pub fn run(
    core: &Context,
    req: &Request,
    key: &ChannelKey,
    record: Option<GameRecord>,
    command: GameCommand,
) -> Replies {
    match &command {
        GameCommand::New(new) => return table::new(core, req, key, record.as_ref(), new),
        GameCommand::Export(Some(id)) => return view::export_by_id(core, req, record.as_ref(), id),
        GameCommand::Replay(Some(id)) => return view::replay_by_id(core, req, record.as_ref(), id),
        _ => {}
    }
    let Some(record) = record else {
        return match command {
            GameCommand::Export(None) => view::export_last(core, req),
            GameCommand::Replay(None) => view::replay_last(core, req),
            _ => view::no_game(core),
        };
    };
    if record.status == Status::Active
        && !command.looks()
        && let Some(replies) = timeouts::overdue(core, key, &record)
    {
        return replies;
    }
    let game = match core.replayed(&record) {
        Ok(g) => g,
        Err(_) if command == GameCommand::Abort => return set_aside(core, key),
        Err(e) => {
            return private(format!(
                "This channel's game record does not replay ({}). Say `{}abort` to set it aside.",
                e.0, core.prefix
            ));
        }
    };
    match command {
        GameCommand::New(_) => Vec::new(),
        GameCommand::Join { seat } => table::join(core, req, key, record, &game, seat.as_deref()),
        GameCommand::Accept => table::accept(core, req, key, record, &game),
        GameCommand::Decline => table::decline(core, req, key, record, &game),
        GameCommand::Abort => table::abort(core, req, key, record, &game),
        GameCommand::Move(text) => play::play(core, req, key, record, game, &text),
        GameCommand::Board(_) => view::board(core, req, &record, &game),
        GameCommand::Moves => view::moves(&record, &game),
        GameCommand::History => view::history(&record, &game),
        GameCommand::Export(_) => view::export(&record, &game),
        GameCommand::Replay(_) => view::replay(core, &record),
        GameCommand::Resign => play::resign(core, req, key, record, game),
        GameCommand::Draw(answer) => offers::draw(core, req, key, record, game, answer),
        GameCommand::Takeback(answer) => offers::takeback(core, req, key, record, game, answer),
        GameCommand::Hint => offers::hint(core, req, &record, &game),
        GameCommand::Claim => timeouts::claim(core, req, key, record, &game),
    }
}

/// A record that does not replay, set aside (`abort` in its channel), freeing the channel.
fn set_aside(core: &Context, key: &ChannelKey) -> Replies {
    match core.store.set_aside(key) {
        Ok(()) => vec![Reply::Text(
            "The game record that did not replay was set aside (an operator can still inspect it). \
             The channel is free: start a new game with `new`."
                .into(),
        )],
        Err(e) => private(format!("The record could not be set aside: {e}")),
    }
}
