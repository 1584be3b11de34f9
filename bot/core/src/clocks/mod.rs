//! Clocks: correspondence play in time. The agenda of due moments ([`schedule`]), deadlines
//! ([`deadlines`]): games lost on time and run-out clocks announced, reminders ([`reminders`]) where and when each player
//! wants them ([`notify`]), vacations that stop a player's clocks ([`vacation`]), and the
//! dashboard of a player's games ([`dashboard`]). The clocks' own arithmetic — controls, the
//! time each seat has left, pauses, quiet hours — is the kernel's (`kernel::clock`); ending a
//! game on time is the games' (`games::timeouts`): the clocks decide when.

pub mod command;
pub mod dashboard;
pub mod deadlines;
pub mod follow;
pub mod notify;
pub mod reminders;
pub mod schedule;
pub mod vacation;

use command::ClockCommand;

use crate::kernel::context::Context;
use crate::kernel::reply::Reply;
use crate::kernel::request::Request;

/// Runs a command of the clocks.
pub fn run(core: &Context, req: &Request, command: ClockCommand) -> Vec<Reply> {
    match command {
        ClockCommand::Notify(changes) => notify::notify(core, req, changes),
        ClockCommand::Vacation(what) => vacation::vacation(core, req, what),
        ClockCommand::Games(name) => dashboard::games(core, req, name),
    }
}
