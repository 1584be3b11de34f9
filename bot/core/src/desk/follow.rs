//! The follow-ups plugged into the desk: every capability's [`FollowUp`], in the order they
//! run. The router asks them around each stored change and names none of them; a capability
//! with something to do after a change adds itself to [`FOLLOW_UPS`].

use crate::games::follow::{FollowUp, Stored};
use crate::kernel::context::Context;
use crate::kernel::outbox::Notice;
use crate::kernel::reply::Reply;
use crate::kernel::request::Request;
use crate::kernel::store::{GameRecord, Staged};
use crate::{clocks, events, games, ratings};

/// Every capability's follow-ups, in the order they run: the agenda first (it reads the game as
/// written), then the ratings (whose words come before the replay), the games (the replay, the
/// other place, the bot's turn) and the events (told last, once the game is rated).
const FOLLOW_UPS: [&dyn FollowUp; 4] = [
    &clocks::follow::Clocks,
    &ratings::follow::Ratings,
    &games::follow::Games,
    &events::follow::Events,
];

/// What each follow-up said in the write that ended a game, in [`FOLLOW_UPS`]' order.
pub(super) type Said = Vec<Vec<Reply>>;

/// The words every follow-up says in the write that ends `ended`, added to `replies` in turn;
/// returns what each said.
pub(super) fn words_at_the_end(
    core: &Context,
    ended: &GameRecord,
    replies: &mut Vec<Reply>,
) -> Said {
    FOLLOW_UPS
        .iter()
        .map(|f| {
            let words = f.words_at_the_end(core, ended, replies);
            replies.extend(words.iter().cloned());
            words
        })
        .collect()
}

/// The notices told in the same write as `staged`'s change (the answer worded for its place
/// where one asks it).
pub(super) fn told_with_the_change(
    core: &Context,
    req: &Request,
    staged: &Staged,
    replies: &mut Vec<Reply>,
) -> Vec<Notice> {
    FOLLOW_UPS
        .iter()
        .filter_map(|f| f.told_with_the_change(core, req, staged, replies))
        .collect()
}

/// What follows a stored change, every capability in turn.
pub(super) fn after_the_change(core: &Context, stored: &mut Stored<'_, '_>) {
    for f in FOLLOW_UPS {
        f.after_the_change(core, stored);
    }
}

/// What follows a game the scheduler ended on time, every capability in turn.
pub(super) fn ended_on_time(core: &Context, ended: &GameRecord) {
    for f in FOLLOW_UPS {
        f.ended_on_time(core, ended);
    }
}

/// What follows a stored change that ended `ended`, every capability in turn; words one of
/// them said in the write (`said`) and now says otherwise are replaced in `replies`. Returns
/// whether any were.
pub(super) fn at_the_end(
    core: &Context,
    ended: &GameRecord,
    said: &Said,
    replies: &mut Vec<Reply>,
) -> bool {
    let mut changed = false;
    // A game ended by what its command did not foresee (no words were said in the write).
    let nothing: &[Reply] = &[];
    let said = said
        .iter()
        .map(Vec::as_slice)
        .chain(std::iter::repeat(nothing));
    for (f, said) in FOLLOW_UPS.iter().zip(said) {
        let Some(words) = f.at_the_end(core, ended, said) else {
            continue;
        };
        let at = (!said.is_empty())
            .then(|| replies.windows(said.len()).position(|w| w == said))
            .flatten();
        if let Some(at) = at {
            replies.splice(at..at + said.len(), words);
            changed = true;
        }
    }
    changed
}
