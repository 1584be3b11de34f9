//! Media addresses reserved ahead (Matrix's asynchronous upload), so that a board's message and
//! its upload go out side by side instead of one after the other (the homeserver answers an
//! upload only once it has stored the image and made its thumbnails).
//!
//! The reserve is kept in the store, not in memory: a restart uses what an earlier run
//! reserved, so reservations never pile up on the homeserver (Synapse refuses new ones once a
//! few are pending). An address taken for a message is written into the command's receipt
//! before the message is sent ([`muster_core::desk::Receipt::media`]), so an upload cut short by a
//! crash is finished at the same address when the answer is sent again. A refusal to reserve
//! (429) is waited out as the homeserver asks; meanwhile boards are uploaded before their
//! messages.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use serde::{Deserialize, Serialize};

use matrix_sdk::Client;

use super::own_key;
use super::retry::retry_after;
use muster_core::kernel::store::GameStore;

/// The note (on the adapter's own key) holding the reserve.
const MEDIA_NOTE: &str = "matrix.media";
/// How many addresses are kept in reserve (Synapse refuses more than a few pending at once).
const RESERVE: usize = 3;
/// How long a reserved address is used, in seconds: homeservers keep one a day (Synapse), so
/// an hour leaves a wide margin for a message and its upload, even across a restart.
pub const USABLE_FOR: u64 = 3600;
/// How long an address written into a receipt may still be uploaded to, in seconds: Synapse
/// lets an unused reservation go after a day.
pub const FINISHABLE_FOR: u64 = 20 * 3600;

/// Now by the system's clock, in seconds since the Unix epoch. Reservations age on the
/// homeserver by real time, whatever the games' clock (a manual clock jumps by days).
pub fn wall_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// One reserved address and when it was reserved (seconds since the Unix epoch).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reserved {
    /// The `mxc://` address.
    pub uri: String,
    /// When it was reserved.
    pub at: u64,
}

/// The reserve.
#[derive(Default)]
pub struct MediaPool {
    /// Serialises changes to the stored reserve.
    lock: Mutex<()>,
    /// Whether a top-up is running (one at a time).
    topping_up: AtomicBool,
    /// Until when the homeserver asked not to reserve more (seconds since the Unix epoch).
    paused_until: AtomicU64,
}

fn read(store: &dyn GameStore) -> Vec<Reserved> {
    store
        .note(&own_key(), MEDIA_NOTE)
        .ok()
        .flatten()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

fn write(store: &dyn GameStore, reserve: &[Reserved]) {
    let text = serde_json::to_string(reserve).unwrap_or_default();
    if let Err(e) = store.set_note(&own_key(), MEDIA_NOTE, Some(&text)) {
        tracing::error!("cannot keep the reserved media addresses: {e}");
    }
}

impl MediaPool {
    /// Takes a reserved address still usable at `now` (older ones are dropped: the homeserver
    /// lets them expire), or `None` when the reserve is empty.
    pub fn take(&self, store: &dyn GameStore, now: u64) -> Option<Reserved> {
        let _guard = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        let mut reserve = read(store);
        let before = reserve.len();
        reserve.retain(|r| now < r.at + USABLE_FOR);
        let taken = reserve.pop();
        if taken.is_some() || reserve.len() != before {
            write(store, &reserve);
        }
        taken
    }

    /// How many addresses are in reserve.
    fn len(&self, store: &dyn GameStore) -> usize {
        read(store).len()
    }

    /// Reserves addresses until the reserve is full, unless another top-up is running or the
    /// homeserver asked to wait.
    pub async fn top_up(&self, store: &dyn GameStore, client: &Client) {
        use matrix_sdk::ruma::api::client::media::create_mxc_uri;
        let now = wall_now();
        if now < self.paused_until.load(Ordering::SeqCst)
            || self.topping_up.swap(true, Ordering::SeqCst)
        {
            return;
        }
        while self.len(store) < RESERVE {
            // Not retried by matrix-sdk, which would wait out a refusal (429) here, however
            // long the homeserver asks: the reserve is paused instead.
            let request = client
                .send(create_mxc_uri::v1::Request::default())
                .with_request_config(matrix_sdk::config::RequestConfig::new().disable_retry());
            match request.await {
                Ok(reserved) => {
                    let _guard = self.lock.lock().unwrap_or_else(|p| p.into_inner());
                    let mut reserve = read(store);
                    reserve.push(Reserved {
                        uri: reserved.content_uri.to_string(),
                        at: wall_now(),
                    });
                    write(store, &reserve);
                }
                Err(e) => {
                    let e = matrix_sdk::Error::from(e);
                    let wait = retry_after(&e, std::time::Duration::from_secs(60))
                        .unwrap_or(std::time::Duration::from_secs(3600));
                    self.paused_until
                        .store(wall_now() + wait.as_secs().max(1), Ordering::SeqCst);
                    tracing::warn!(
                        "the homeserver reserves no media address ({e}); boards are uploaded before their messages for the next {} s",
                        wait.as_secs().max(1)
                    );
                    break;
                }
            }
        }
        self.topping_up.store(false, Ordering::SeqCst);
    }
}
