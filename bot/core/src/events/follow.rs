//! The events' follow-up of a game's end (by a command or on time): a tournament game's event is told, so that its result
//! is taken and the next round paired when the round is complete.

use crate::games::follow::FollowUp;
use crate::kernel::context::Context;
use crate::kernel::reply::Reply;
use crate::kernel::store::GameRecord;

/// The events' follow-ups.
pub struct Events;

impl FollowUp for Events {
    fn at_the_end(
        &self,
        core: &Context,
        ended: &GameRecord,
        _said: &[Reply],
    ) -> Option<Vec<Reply>> {
        if let Some(tag) = &ended.tournament {
            super::play::game_over(core, tag, &ended.platform);
        }
        None
    }

    fn ended_on_time(&self, core: &Context, ended: &GameRecord) {
        self.at_the_end(core, ended, &[]);
    }
}
