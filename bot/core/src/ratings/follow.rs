//! The ratings' follow-ups of a game's end: the changes foreseen in the write that ends it, then
//! the game taken into its table once stored (and the words corrected if another game was rated
//! in between); a game ended on time rated with an announcement of its own.

use crate::games::follow::FollowUp;
use crate::kernel::context::Context;
use crate::kernel::reply::Reply;
use crate::kernel::store::GameRecord;

/// The ratings' follow-ups.
pub struct Ratings;

impl FollowUp for Ratings {
    fn words_at_the_end(&self, core: &Context, ended: &GameRecord, _said: &[Reply]) -> Vec<Reply> {
        super::foresee(core, ended)
    }

    fn at_the_end(&self, core: &Context, ended: &GameRecord, said: &[Reply]) -> Option<Vec<Reply>> {
        let taken = super::take(core, ended);
        (!taken.is_empty() && taken != said).then_some(taken)
    }

    fn ended_on_time(&self, core: &Context, ended: &GameRecord) {
        super::later::rate(core, ended);
    }
}
