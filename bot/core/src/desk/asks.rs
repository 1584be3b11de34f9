//! What the web pages and an adapter's completion ask the desk: the events and their exports, the
//! rating tables and a player's history, and which stored changes a page shows. They read
//! through the desk, as commands do, and reach no capability themselves (a game in words is
//! the desk's `words`).

use muster_rules::GameId;

use super::front::Core;
use crate::events::{self, Event, Listed};
use crate::kernel::store::Changed;
use crate::ratings::maths::Rating;
use crate::ratings::scope::{self, Scope};
use crate::ratings::view::{self as tables, Point, Ranked};

impl Core {
    /// The events of `platform`, as its index lists them.
    pub fn events_of(&self, platform: &str) -> Vec<Listed> {
        events::index(self.base.as_ref(), platform)
    }

    /// The event `name` of `platform`'s `community`, if there is one and it can be read.
    pub fn event(&self, platform: &str, community: &str, name: &str) -> Option<Event> {
        events::reload(self.base.as_ref(), platform, community, name)
    }

    /// `event` as `tournament export` gives it (docs/tournaments.md).
    pub fn event_export(&self, event: &Event) -> serde_json::Value {
        events::report::export(event)
    }

    /// `event`'s results as a FIDE TRF report, once a game of it was played.
    pub fn event_trf(&self, event: &Event) -> Option<String> {
        events::field::trf_file(event)
    }

    /// The names of `platform`'s `community`'s events that start with `typed`.
    pub fn event_names(&self, platform: &str, community: &str, typed: &str) -> Vec<String> {
        events::report::names(self, platform, community, typed)
    }

    /// Whether `changed` is a change of the event `name` of `platform`'s `community`.
    pub fn changes_event(
        &self,
        changed: &Changed,
        platform: &str,
        community: &str,
        name: &str,
    ) -> bool {
        changed.platform == platform
            && changed.channel == events::HOME
            && changed.note.as_deref() == Some(&events::note_name(community, name))
    }

    /// Whether `changed` is a change of a rating table (a game rated).
    pub fn changes_ratings(&self, changed: &Changed) -> bool {
        changed.channel == scope::HOME && changed.note.is_some()
    }

    /// The rating table games played in `channel` of `platform`'s `community` count for.
    pub fn rating_scope(&self, platform: &str, community: &str, channel: &str) -> Scope {
        Scope::of(self, platform, community, channel)
    }

    /// The players of `scope`'s table of `game` now: established ones by rating, then the
    /// provisional ones.
    pub fn ranked(&self, scope: &Scope, game: GameId) -> Vec<Ranked> {
        tables::ranked(self.base.as_ref(), scope, game, self.now())
    }

    /// The player kept under `key` in `scope`'s table of `game`: his last rated games.
    pub fn rating_history(&self, scope: &Scope, game: GameId, key: &str) -> Vec<Point> {
        tables::history(self.base.as_ref(), scope, game, key)
    }

    /// `rating` as the table of `game` shows it.
    pub fn rating_shown(&self, rating: &Rating, game: GameId) -> String {
        tables::shown(rating, game)
    }
}
