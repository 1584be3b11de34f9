//! What the Matrix adapter's tasks share: the client, the settings, a core per command prefix,
//! the per-user budgets, the media reserve, and what is being sent.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use matrix_sdk::Client;
use muster_config::Matrix;

use super::limit::Limiter;
use super::media::MediaPool;
use muster_core::desk::Core;
use muster_core::kernel::clock::{Clock, SystemClock};
use muster_core::kernel::store::GameStore;

/// What the adapter's tasks share.
pub struct Shared {
    /// The client, logged in.
    pub client: Client,
    /// The settings.
    pub settings: Matrix,
    /// One core per prefix in use (the adapter's and the rooms' own).
    pub(super) cores: HashMap<String, Arc<Core>>,
    /// The adapter's prefix.
    pub(super) prefix: String,
    /// Per-user command budgets.
    pub limiter: Mutex<Limiter>,
    /// Media addresses reserved ahead, kept in the store.
    pub media: MediaPool,
    /// Whether an answer could not be sent and is owed: tried again after the next sync.
    pub owed_later: std::sync::atomic::AtomicBool,
    /// The receipts being sent now (by the sync loop or the notices' task).
    pub(super) sending: Mutex<HashSet<String>>,
    /// Held while a direct room is found or made.
    pub(super) direct: tokio::sync::Mutex<()>,
    /// Until when (Unix seconds, this machine's clock) this instance may count on the sync
    /// lease, on a store shared with other instances; `u64::MAX` on a store of its own.
    pub(super) trusted: std::sync::atomic::AtomicU64,
    /// The adapter's directory in the data directory (`matrix/`).
    pub(super) dir: std::path::PathBuf,
    /// Whether the device's identity and key backup were seen to at this start (once, after
    /// the first sync: the device's keys are on the homeserver by then).
    pub(super) secured: std::sync::atomic::AtomicBool,
}

impl Shared {
    /// The core answering in `room` (its prefix may be the room's own).
    pub fn core(&self, room: &str) -> &Arc<Core> {
        let prefix = self
            .settings
            .rooms
            .get(room)
            .and_then(|r| r.prefix.as_deref())
            .unwrap_or(&self.prefix);
        &self.cores[prefix]
    }

    /// The core of the adapter's own prefix (its timers are every core's).
    pub fn base(&self) -> &Arc<Core> {
        &self.cores[&self.prefix]
    }

    /// Now, by the cores' clock.
    pub fn now(&self) -> u64 {
        self.base().now()
    }

    /// Whether this instance is the one that syncs (always, on a store of its own).
    pub fn holds_lease(&self) -> bool {
        let now = SystemClock.now();
        now < self.trusted.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// The store shared by the cores.
    pub fn store(&self) -> &dyn GameStore {
        self.cores[&self.prefix].store()
    }
}
