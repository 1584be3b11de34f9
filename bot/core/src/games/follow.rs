//! What follows a change to a channel's game, plugged in by each capability: the desk stores a
//! command's change and then asks every capability's [`FollowUp`] in turn, naming none of
//! them (`desk/follow.rs` holds the list). A capability says words in the write that ends a
//! game (a rating foreseen, the replay), tells another place in the same write (a game played
//! on two platforms), does what follows a stored change (the agenda, the bot's turn, a place to
//! open) and what follows a game's end (its rating stored, its event told), whether a command
//! ended it or its clock did.
//!
//! The games' own follow-ups are here too ([`Games`]).

use muster_rules::AnyGame;

use super::{away, bot, play};
use crate::kernel::context::Context;
use crate::kernel::outbox::Notice;
use crate::kernel::reply::Reply;
use crate::kernel::request::Request;
use crate::kernel::store::{ChannelKey, GameRecord, Staged};
use crate::players::profile::Profiles;

/// A command's change as stored, as a follow-up sees it.
pub struct Stored<'a, 'p> {
    /// Where the written game lives.
    pub key: ChannelKey,
    /// The game as written.
    pub written: &'a GameRecord,
    /// Whether the change moved the game on (a new game, or moves played), not only changed
    /// its settings or offers.
    pub moved: bool,
    /// The game `written` plays to, when the request played it.
    pub played: Option<&'a AnyGame>,
    /// The players' settings the request has read (read once for all the follow-ups).
    pub profiles: &'a mut Profiles<'p>,
}

/// What a capability does around a stored change. Every part does nothing unless the
/// capability has something to do there.
pub trait FollowUp: Sync {
    /// Words added to the answer of a command that ends `ended`, said in the write that ends it
    /// (so that a crash before they are acted on loses none); `said` is the answer so far.
    fn words_at_the_end(
        &self,
        _core: &Context,
        _ended: &GameRecord,
        _said: &[Reply],
    ) -> Vec<Reply> {
        Vec::new()
    }

    /// A notice told in the same write as the change, beside the answer (which it may word for
    /// its place); posted once the change is stored.
    fn told_with_the_change(
        &self,
        _core: &Context,
        _req: &Request,
        _staged: &Staged,
        _replies: &mut Vec<Reply>,
    ) -> Option<Notice> {
        None
    }

    /// What follows a stored change of a channel's game.
    fn after_the_change(&self, _core: &Context, _stored: &mut Stored<'_, '_>) {}

    /// What follows a stored change that ended `ended`. `said` is what this capability's
    /// [`FollowUp::words_at_the_end`] said in the write; when what it now knows differs (another
    /// game was rated in between), the words as they should read, which replace those.
    fn at_the_end(
        &self,
        _core: &Context,
        _ended: &GameRecord,
        _said: &[Reply],
    ) -> Option<Vec<Reply>> {
        None
    }

    /// What follows a game the scheduler ended on time (its deadline passed), stored with its
    /// announcement by no command.
    fn ended_on_time(&self, _core: &Context, _ended: &GameRecord) {}
}

/// The games' follow-ups: the replay at a game's end, the other place of a game played on two
/// platforms told in the same write and opened when it has no channel yet, the bot queued when
/// it is to decide.
pub struct Games;

impl FollowUp for Games {
    fn words_at_the_end(&self, core: &Context, ended: &GameRecord, said: &[Reply]) -> Vec<Reply> {
        let replayed = said
            .iter()
            .any(|r| matches!(r, Reply::Board(b) if b.is_replay()));
        if play::worth_replaying(ended) && !replayed {
            vec![play::replay_board(core, ended)]
        } else {
            Vec::new()
        }
    }

    fn told_with_the_change(
        &self,
        core: &Context,
        req: &Request,
        staged: &Staged,
        replies: &mut Vec<Reply>,
    ) -> Option<Notice> {
        away::mirror(core, req, staged, replies)
    }

    fn after_the_change(&self, core: &Context, stored: &mut Stored<'_, '_>) {
        if let Some(opening) = away::opening(stored.written) {
            // Asked again while it is not open: the adapter finds a place it opened before.
            core.timers.post(opening);
        }
        // The bot decides after this command has been answered.
        if bot::to_decide(stored.written, stored.played).is_some() {
            core.queue_bot(stored.key.clone());
        }
    }
}
