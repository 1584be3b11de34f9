//! Where a game's ratings are kept: the table of its platform's own community, or, for a place
//! of a community across platforms, that community's one table (docs/ratings.md, "One rating
//! across platforms"). In a shared table each player is kept under his linked player when his
//! accounts are linked, and under his account (`<platform>:<id>`) otherwise.

use std::sync::Arc;

use crate::kernel::community::Community;
use crate::kernel::context::Context;
use crate::kernel::request::Request;
use crate::kernel::store::{ChannelKey, GameRecord, GameStore};
use crate::players::links;

/// Where the tables, logs and marks are kept.
pub const HOME: &str = "\u{1e}ratings";

/// A table's place: its home note space and its community's name in it.
#[derive(Clone, Debug)]
pub struct Scope {
    /// The notes' channel: the platform's, or beside every platform for a shared community.
    pub home: ChannelKey,
    /// The community's name in it.
    pub community: String,
    /// The community across platforms, for a shared table.
    pub shared: Option<Arc<Community>>,
}

impl Scope {
    /// The table of `platform`'s own `community`.
    pub fn local(platform: &str, community: &str) -> Scope {
        Scope {
            home: ChannelKey::new(platform, HOME),
            community: community.to_string(),
            shared: None,
        }
    }

    /// The table of games played in `channel` of `platform`'s `community`.
    pub fn of(core: &Context, platform: &str, community: &str, channel: &str) -> Scope {
        match core.communities().of(platform, community, channel) {
            Some(c) => Scope {
                home: ChannelKey::new("", HOME),
                community: c.name.clone(),
                shared: Some(c),
            },
            None => Scope::local(platform, community),
        }
    }

    /// The table `record`'s game counts for.
    pub fn of_record(core: &Context, record: &GameRecord) -> Scope {
        let community = record.community.as_deref().unwrap_or_default();
        Scope::of(core, &record.platform, community, &record.channel)
    }

    /// The table of the place `req` comes from.
    pub fn of_request(core: &Context, req: &Request) -> Scope {
        Scope::of(core, &req.platform, &req.policy.community, &req.channel)
    }

    /// How the log names `platform`'s user `id`: his id, or in a shared table `<platform>:<id>`.
    pub fn account(&self, platform: &str, id: &str) -> String {
        match self.shared {
            Some(_) => format!("{platform}:{id}"),
            None => id.to_string(),
        }
    }

    /// The key `platform`'s user `id` is kept under in the table.
    pub fn key(&self, store: &dyn GameStore, platform: &str, id: &str) -> String {
        match self.shared {
            Some(_) => match links::player_of(store, platform, id) {
                Some(player) => format!("player:{player}"),
                None => format!("{platform}:{id}"),
            },
            None => id.to_string(),
        }
    }

    /// The key of an account as the log names it (see [`Scope::account`]).
    pub fn key_of_account(&self, store: &dyn GameStore, account: &str) -> String {
        match (&self.shared, account.split_once(':')) {
            (Some(_), Some((platform, id))) => self.key(store, platform, id),
            _ => account.to_string(),
        }
    }
}
