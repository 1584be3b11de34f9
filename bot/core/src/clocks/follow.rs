//! The clocks' follow-up of a stored change: the channel's next due moment brought up to date
//! from the record as written (its deadline, or the next reminder of the player to move).

use super::schedule;
use crate::games::follow::{FollowUp, Stored};
use crate::kernel::context::Context;
use crate::kernel::store::Status;

/// The clocks' follow-ups.
pub struct Clocks;

impl FollowUp for Clocks {
    fn after_the_change(&self, core: &Context, stored: &mut Stored<'_, '_>) {
        let live = (stored.written.status != Status::Finished).then_some(stored.written);
        schedule::reschedule_written(core, &stored.key, live, stored.moved, stored.profiles);
    }
}
