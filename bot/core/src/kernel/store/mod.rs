//! The store as the core uses it: the store crate's traits, records and backends
//! (`muster_store`, re-exported here so that the core and the adapters name one place), and
//! the wrappers every backend wears in the core: [`Metered`] (timings, the metrics, and the
//! process's [`Changes`]) and [`Staged`] (one request's reads kept and writes held until one
//! commit).

mod metered;
pub mod staged;

pub use muster_store::{
    Away, Change, Changed, Changes, ChannelKey, Copied, Ending, EventTag, GameRecord, GameStore,
    Lists, Live, MemoryStore, Named, Notes, PassLists, PassNotes, PassReceipts, PassUpkeep,
    PgStore, Player, ReceiptToKeep, Receipts, SCHEMA, SeatEntry, SledStore, Status, StoreError,
    Upkeep, Wears, backup, changes, fault, interface, lease, migrate, named, record,
};
#[cfg(feature = "test-support")]
pub use muster_store::{contract, counted};

pub use metered::Metered;
pub use staged::Staged;
