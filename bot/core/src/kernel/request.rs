//! What reaches the core: one command from one user in one place ([`Request`]), with what the
//! place allows ([`Policy`]). Every adapter makes its platform's input into these.

use serde::{Deserialize, Serialize};

use muster_rules::GameId;

use super::store::Player;
use super::text::clean_name;

/// A user of a chat platform.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct User {
    /// The platform's stable id.
    pub id: String,
    /// The name to show.
    pub name: String,
}

impl From<&Player> for User {
    fn from(p: &Player) -> User {
        User {
            id: p.id.clone(),
            name: p.name.clone(),
        }
    }
}

impl From<&User> for Player {
    fn from(u: &User) -> Player {
        Player {
            id: u.id.clone(),
            name: clean_name(&u.name),
        }
    }
}

impl User {
    /// A user of a chat platform as he enters Muster: his name made fit to show (no control
    /// characters, nothing that steers the direction of text: [`clean_name`]); his id when
    /// nothing is left of it.
    pub fn new(id: impl Into<String>, name: &str) -> User {
        let id = id.into();
        let name = clean_name(name);
        let name = if name.is_empty() { id.clone() } else { name };
        User { id, name }
    }

    /// A user whose id is also his name (the console).
    pub fn named(name: &str) -> User {
        User::new(name, name)
    }
}

/// One command from one user in one channel.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Request {
    /// The platform, as its adapter names it.
    pub platform: String,
    /// The channel, thread or room.
    pub channel: String,
    /// Who sent it.
    pub user: User,
    /// The command, without the prefix (`move c1-c3`).
    pub text: String,
    /// Users the platform resolved from mentions in the text.
    pub mentions: Vec<User>,
    /// What the place the command comes from allows this user.
    pub policy: Policy,
}

/// What a community allows (a chat server's settings): the games that may be started and
/// whether the user counts as an organiser there. The default allows every game and makes no
/// one an organiser.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Policy {
    /// The games that may be started; `None` for all.
    pub games: Option<Vec<GameId>>,
    /// Whether the user is an organiser: organisers may call off any game in the channel.
    pub organiser: bool,
    /// Whether the platform can open a thread here for a new game (offered when the channel
    /// is busy, as a button running [`THREAD`] followed by the `new` command).
    pub threads: bool,
    /// The community the place belongs to (a chat server's id), within which tournament
    /// names are unique; empty where the platform is one community.
    pub community: String,
    /// Whether the place is the user's own direct room with the bot, where what is said is
    /// seen by him alone whatever the platform's replies.
    pub direct: bool,
}

/// The word before a command that the adapter runs in a new thread (see [`Policy::threads`]).
pub const THREAD: &str = "thread";

/// A move offered for completion: what to show and what to insert.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Suggestion {
    /// What the user sees.
    pub label: String,
    /// What is filled in.
    pub value: String,
}

/// The user a command names by `token`: one of the users the platform resolved from its
/// mentions (by id, name, or the local part of an id shaped `@local:server`), else a user of
/// that name.
pub fn resolve_user(req: &Request, token: &str) -> User {
    req.mentions
        .iter()
        .find(|m| {
            m.id == token
                || m.id.strip_prefix('@') == Some(token)
                || m.name.eq_ignore_ascii_case(token)
                // The local part of an id shaped `@local:server` (`bob` for `@bob:example.org`).
                || m.id.strip_prefix('@').and_then(|r| r.split_once(':')).is_some_and(
                    |(local, _)| local.eq_ignore_ascii_case(token),
                )
        })
        .cloned()
        .unwrap_or_else(|| User::named(token))
}
