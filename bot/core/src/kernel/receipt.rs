//! Requests handled once. A request with an id on its platform (a chat event) leaves a
//! receipt — the replies the core made of it, and how far the adapter got in sending them —
//! stored in the same write as the change it made to a game. A request that comes again finds
//! its receipt and is not run again; an adapter restarted after a crash finds the receipts it
//! has not finished sending and sends the rest: the very replies of the move, its board and
//! its mention, as they would have been.

use serde::{Deserialize, Serialize};

use super::reply::Reply;
use super::request::{Request, User};
use super::store::StoreError;

/// What the core made of one request, and how much of it has been sent.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct Receipt {
    /// The channel the request came from.
    pub channel: String,
    /// Who sent it (the replies may address him).
    pub user: User,
    /// Where in the channel the answers go, in the adapter's terms (a thread), if not
    /// in the channel itself.
    #[serde(default)]
    pub place: Option<String>,
    /// When it was handled, in seconds since the Unix epoch.
    pub at: u64,
    /// The replies.
    pub replies: Vec<Reply>,
    /// How many of the adapter's messages for the replies have been sent.
    pub sent: usize,
    /// Addresses the adapter reserved for the files of its messages, by message, with when
    /// they were reserved (seconds since the Unix epoch): written down before a message naming
    /// one is sent, so that an upload cut short is finished at the same address.
    #[serde(default)]
    pub media: std::collections::BTreeMap<usize, (String, u64)>,
    /// Whether every message has been sent.
    pub done: bool,
    /// For a notice to one user (kept, see [`Receipt::notice`]): posted to `user` directly (a
    /// direct message) rather than in `channel`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub direct: bool,
    /// For a direct notice: what is posted in `channel` instead when `user` cannot be written to
    /// directly.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fallback: Vec<Reply>,
    /// What a kept notice stands for, in its capability's words (the reminder points it sends):
    /// the marks that say it was said, made again from here if a crash came between keeping the
    /// notice and making them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub covers: Vec<String>,
}

/// A request handled once: its receipt, and whether it ran just now (`false`: it had run
/// before, and the receipt is the one kept then).
#[derive(Clone, PartialEq, Debug)]
pub struct Handled {
    /// The receipt.
    pub receipt: Receipt,
    /// Whether the request ran now.
    pub fresh: bool,
    /// Whether it ran now and changed a game (a move played, a challenge accepted).
    pub changed: bool,
}

impl Receipt {
    /// A receipt of `replies` to `req`, to be sent in `place`, nothing sent yet.
    pub fn new(req: &Request, place: Option<&str>, at: u64, replies: &[Reply]) -> Receipt {
        Receipt {
            place: place.map(str::to_string),
            ..Receipt::notice(&req.channel, req.user.clone(), at, replies.to_vec())
        }
    }

    /// A notice no request asked for, kept until it is posted: `replies` in `channel` (or to
    /// `user` directly, when `direct`), on behalf of `user`, nothing sent yet.
    pub fn notice(channel: &str, user: User, at: u64, replies: Vec<Reply>) -> Receipt {
        Receipt {
            channel: channel.to_string(),
            user,
            place: None,
            at,
            replies,
            sent: 0,
            media: Default::default(),
            done: false,
            direct: false,
            fallback: Vec::new(),
            covers: Vec::new(),
        }
    }

    /// The receipt as stored.
    pub fn encode(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// A stored receipt read back.
    pub fn decode(body: &str) -> Result<Receipt, StoreError> {
        serde_json::from_str(body)
            .map_err(|e| StoreError::Corrupt(format!("a receipt cannot be read: {e}")))
    }
}
