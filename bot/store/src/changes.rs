//! What the store tells of its changes as they are made: a channel's game written, a note
//! changed. The web pages' live streams follow them (docs/web.md). The core's `Metered` store
//! tells of the writes this instance makes; a store shared by several instances also tells of
//! theirs ([`crate::GameStore::listen`]: PostgreSQL's notifications).

use tokio::sync::broadcast;

/// One change.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Changed {
    /// The platform of the channel whose game, or whose note, changed.
    pub platform: String,
    /// The channel.
    pub channel: String,
    /// The note's name; `None` for the channel's game.
    pub note: Option<String>,
}

/// Where changes are told, to anyone listening. A listener that falls behind by more than
/// `CAPACITY` changes is told it missed some (and looks again at what it shows).
pub struct Changes {
    sender: broadcast::Sender<Changed>,
}

/// How many changes a slow listener may fall behind.
const CAPACITY: usize = 1024;

impl Default for Changes {
    fn default() -> Self {
        Changes {
            sender: broadcast::channel(CAPACITY).0,
        }
    }
}

impl Changed {
    /// A change that may be any: told after a while in which changes could have been missed
    /// (a lost connection to the database), so that listeners look again at all they show.
    pub fn anything() -> Changed {
        Changed {
            platform: String::new(),
            channel: String::new(),
            note: None,
        }
    }

    /// Whether it is [`Changed::anything`].
    pub fn is_anything(&self) -> bool {
        self.platform.is_empty() && self.channel.is_empty() && self.note.is_none()
    }
}

impl Changes {
    /// Tells of `changed` (nobody listening is no error).
    pub fn tell(&self, changed: Changed) {
        let _ = self.sender.send(changed);
    }

    /// Listens from now on.
    pub fn listen(&self) -> broadcast::Receiver<Changed> {
        self.sender.subscribe()
    }
}
