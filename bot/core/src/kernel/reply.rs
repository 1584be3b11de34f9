//! What the core answers: [`Reply`]s, worded once for every platform; each adapter maps them to
//! its messages. Boards travel as descriptions ([`Board`]), drawn when they are sent.

use muster_rules::{AnyEvent, AnyGame};
use serde::{Deserialize, Serialize};

use super::board::Board;
use super::request::User;
use super::store::{GameRecord, StoreError};

/// The replies to one command.
pub type Replies = Vec<Reply>;

/// A suggested action: a label and the command it sends.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Button {
    /// What the button says.
    pub label: String,
    /// The command it runs (without the prefix).
    pub command: String,
}

/// One thing to say back.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub enum Reply {
    /// A message to the channel.
    Text(String),
    /// A message only the requesting user should see (an error, usually).
    Private(String),
    /// A message addressed to a user, who should be notified.
    Mention {
        /// Who.
        user: User,
        /// What.
        text: String,
    },
    /// The board as an image, drawn when it is sent.
    Board(Box<Board>),
    /// Actions offered as buttons where the platform has them.
    Buttons(Vec<Button>),
    /// A page on the web (docs/web.md): a link button where the platform has them.
    Link {
        /// What it is the page of.
        kind: LinkKind,
        /// Its address.
        url: String,
    },
    /// A file (an exported record).
    File {
        /// Its name.
        name: String,
        /// Its content.
        content: String,
    },
}

/// What a linked page shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub enum LinkKind {
    /// A game, to watch (or study once it is over).
    Watch,
    /// A tournament.
    Event,
    /// A player's ratings and games.
    Player,
    /// A leaderboard.
    Leaders,
    /// A calendar to subscribe to (an event's rounds and deadlines).
    Calendar,
}

impl LinkKind {
    /// Its word in the console's lines (`[general] watch: URL`).
    pub fn word(self) -> &'static str {
        match self {
            LinkKind::Watch => "watch",
            LinkKind::Event => "event",
            LinkKind::Player => "player",
            LinkKind::Leaders => "leaderboard",
            LinkKind::Calendar => "calendar",
        }
    }

    /// What a link button says.
    pub fn label(self) -> &'static str {
        match self {
            LinkKind::Watch => "Watch on the web",
            LinkKind::Event => "Event page",
            LinkKind::Player => "Player page",
            LinkKind::Leaders => "Leaderboard page",
            LinkKind::Calendar => "Calendar (iCalendar)",
        }
    }
}

impl Reply {
    /// The board of `record` after its decisions from `from` on (marked as just played).
    pub fn board(record: &GameRecord, from: usize) -> Reply {
        Reply::Board(Box::new(Board::new(record, from)))
    }

    /// The board of `record` as `game` stands after it, already played (see [`Board::played`]).
    pub fn played_board(
        record: &GameRecord,
        from: usize,
        game: &AnyGame,
        events: Vec<AnyEvent>,
    ) -> Reply {
        Reply::Board(Box::new(Board::played(record, from, game, events)))
    }
}

/// A private answer: `text` for the asker alone.
pub fn private(text: impl Into<String>) -> Replies {
    vec![Reply::Private(text.into())]
}

/// What the user is told when his command's change could not be stored.
pub fn not_saved(e: &StoreError) -> Replies {
    match e {
        StoreError::Conflict => private(
            "The board changed while your command was being handled (someone else moved first); nothing of yours \
             was applied. Look at the `board` and try again.",
        ),
        StoreError::Exists => {
            private("Someone started a game in this channel a moment ago; look at the `board`.")
        }
        e => private(format!(
            "Your command could not be saved ({e}); nothing was changed. Try again."
        )),
    }
}
