//! Games: the commands that seat, play, look at and end a channel's game, the offers that need
//! the other side's consent, the clocks running out, and the bot as a player. Every game write
//! goes through [`play::save`] into the request's one change; the replies are worded from the
//! game as played.

pub mod away;
pub mod bot;
pub mod command;
pub mod lanko_words;
pub mod offers;
pub mod play;
pub mod seating;
pub mod table;
pub mod timeouts;
pub mod view;
pub mod words;

use command::GameCommand;

use crate::kernel::context::Core;
use crate::kernel::reply::{Replies, Reply, private};
use crate::kernel::request::Request;
use crate::kernel::store::{ChannelKey, GameRecord, Status};

/// Runs a command that concerns the channel's game (`record` is its live record, if any, read
/// once by the desk): the record is replayed once, and the game as played words the replies.
pub fn run(
    core: &Core,
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
fn set_aside(core: &Core, key: &ChannelKey) -> Replies {
    match core.store.set_aside(key) {
        Ok(()) => vec![Reply::Text(
            "The game record that did not replay was set aside (an operator can still inspect it). \
             The channel is free: start a new game with `new`."
                .into(),
        )],
        Err(e) => private(format!("The record could not be set aside: {e}")),
    }
}
