//! What the desk does that no command asks: the due moments of the clocks fired (and the games
//! they end rated and reported to their events), the agenda read at start, ratings and events
//! caught up after a restart, an event's place opened by an adapter taken in, and the day's
//! puzzle posted where it is asked for.

use super::front::Core;
use crate::clocks::{deadlines, schedule};
use crate::events;
use crate::games;
use crate::kernel::outbox::{Notice, Target};
use crate::kernel::reply::Reply;
use crate::kernel::store::GameRecord;
use crate::kernel::surface::Opening;
use crate::ratings;

impl Core {
    /// Posts the day's puzzle in the channels that ask for it and have not had it today
    /// (learn/daily.rs); how many were posted.
    pub fn post_daily_puzzles(&self) -> usize {
        match crate::learn::daily::post_due(self) {
            Ok(n) => n,
            Err(e) => {
                tracing::warn!("the day's puzzle could not be posted: {e}");
                0
            }
        }
    }

    /// Does everything due by now, in order: timeouts (the game ended at its deadline),
    /// announcements of run-out clocks that wait for a claim, and reminders (coalesced per
    /// player). Leaves the messages in the outbox; a game lost on time is rated and reports to
    /// its event. How many notices were left.
    pub fn fire_due(&self) -> usize {
        let fired = deadlines::fire_due(self);
        for ended in &fired.ended {
            super::follow::ended_on_time(self, ended);
        }
        fired.posted
    }

    /// Reads every timed game into the agenda (at start); how many have something due.
    pub fn load_agenda(&self) -> usize {
        match schedule::load_agenda(self) {
            Ok(n) => n,
            Err(e) => {
                tracing::error!(
                    "the timed games cannot be listed: {e}; their deadlines are read again at \
                     the next start (or, beside other instances, at the next reading)"
                );
                0
            }
        }
    }

    /// The earliest moment something is due.
    pub fn next_due(&self) -> Option<u64> {
        self.timers.agenda().next()
    }

    /// An estimate of the bytes the scheduler's agenda holds (see `Agenda::footprint`).
    pub fn agenda_footprint(&self) -> usize {
        self.timers.agenda().footprint()
    }

    /// Brings the agenda up to date for the game in `channel` on `platform`, read from the store.
    pub fn reschedule(&self, platform: &str, channel: &str) {
        schedule::reschedule(
            self,
            &crate::kernel::store::ChannelKey::new(platform, channel),
        );
    }

    /// Takes the finished games of `platform` that no table has taken yet (a crash came between
    /// a game's end and its rating), in order of ending. How many were looked at.
    /// Where communities span platforms, a link made just before a stop may not have been
    /// counted: the links' count is moved on, so that their shared tables are worked out again.
    pub fn resume_ratings(&self, platform: &str) -> usize {
        if !self.communities().all().is_empty()
            && let Err(e) = crate::players::links::changed(self.base.as_ref())
        {
            tracing::warn!("the links' count could not be moved on at start: {e}");
        }
        ratings::later::resume(self, platform)
    }

    /// Takes a finished game into its rating table (once) and returns the changes without
    /// announcing them.
    pub fn rate_now(&self, record: &GameRecord) -> Vec<Reply> {
        ratings::take(self, record)
    }

    /// Brings every running event of `platform` up to date (at start, after a restart): results
    /// of games that ended meanwhile, rounds to pair, places to open, announcements owed.
    pub fn resume_tournaments(&self, platform: &str) {
        events::play::resume(self, platform);
    }

    /// Asks again for the places on `platform` of games played in two places that a stop left
    /// unopened (at start): the adapter finds one it opened before rather than opening another.
    pub fn resume_places(&self, platform: &str) {
        match self.base.away_games() {
            Ok(games) => {
                for record in games {
                    if let Some(opening) =
                        games::away::opening(&record).filter(|n| n.platform == platform)
                    {
                        self.timers.post(opening);
                    }
                }
            }
            Err(e) => {
                tracing::error!(
                    platform,
                    "the games played in two places cannot be read: {e}; their places are asked for at the next start"
                );
            }
        }
    }

    /// Asks again, `after` from now, for the place of `opening` (its platform was away): the
    /// adapter then opens it, or finds it opened. Called from an adapter's async task.
    pub fn place_later(&self, opening: Opening, after: std::time::Duration) {
        let timers = std::sync::Arc::clone(&self.timers);
        tokio::spawn(async move {
            tokio::time::sleep(after).await;
            timers.post_notice(Notice {
                platform: opening.platform.clone(),
                target: Target::Open(Box::new(opening)),
                replies: Vec::new(),
                fallback: None,
                receipt: None,
            });
        });
    }

    /// The adapter could not open `opening`'s place (`why`): for a game played on two
    /// platforms, the game is called off and its channel told.
    pub fn place_failed(&self, opening: &Opening, why: &str) {
        if let Some(home) = &opening.home {
            games::away::failed(self, home, &opening.platform, why);
        }
    }

    /// The adapter opened `opening`'s place as `channel` (a thread, a room): the board's game
    /// starts there, or a game played on two platforms gets its other place.
    pub fn place_opened(&self, opening: &Opening, channel: &str) {
        match &opening.home {
            Some(home) => games::away::opened(self, home, &opening.platform, channel),
            None => events::places::opened(self, opening, channel),
        }
    }
}
