//! Where games and everything else Muster keeps live: the [`GameStore`] trait (`interface.rs`)
//! and its three backends — [`SledStore`] (embedded, the default), [`PgStore`] (PostgreSQL,
//! shared by several instances; `postgres_schema.rs` its migrations, `postgres_listen.rs` its
//! notifications of changes) and [`MemoryStore`] (tests) — with [`GameRecord`] (`record.rs`, a
//! game as stored) and the time its clocks keep (`time/`), backups and migration between
//! backends (`backup.rs`, `named.rs`), leases (`lease.rs`: which instance does a piece of work),
//! the changes the store tells of (`changes.rs`), and the crash tests' fault hooks (`fault.rs`).
//! The contract every backend keeps (`contract.rs`) and a store that counts what it is asked
//! (`counted.rs`) are built for tests only (the `test-support` feature).
//!
//! The store knows no game's rules and no platform: a record's moves are text, replayed by the
//! core (`muster_core::kernel::replayable`), which also wraps every backend in what a request
//! needs (`muster_core::kernel::store`: `Metered`, `Staged`).
//!
//! Each channel of each platform has at most one live game. A write names the version it read
//! (compare-and-swap), so of two moves racing on one channel exactly one is applied; sled
//! writes are flushed before they return, so an acknowledged move survives the process being
//! killed. Finished games move to an archive indexed by player. A request with an id on its
//! platform can keep a receipt — what the core answered — in the same write as the change it
//! made, so that an adapter restarted after a crash knows which requests ran and what it still
//! owes their senders.

pub mod backup;
pub mod changes;
// The contract every backend keeps and a store that counts what it is asked: for tests only
// (the `test-support` feature, which only the suites enable).
#[cfg(any(test, feature = "test-support"))]
pub mod contract;
#[cfg(any(test, feature = "test-support"))]
pub mod counted;
pub mod fault;
pub mod interface;
pub mod lease;
mod memory;
pub mod named;
mod pass;
mod postgres;
mod postgres_listen;
mod postgres_schema;
pub mod record;
mod sled_store;
pub mod text;
pub mod time;

pub use changes::{Changed, Changes};
pub use interface::{
    Change, ChannelKey, GameStore, Lists, Live, Notes, PassLists, PassNotes, PassReceipts,
    PassUpkeep, ReceiptToKeep, Receipts, StoreError, Upkeep, Wears,
};
pub use memory::MemoryStore;
pub use named::{Copied, Named, migrate};
pub use postgres::PgStore;
pub use record::{Away, Ending, EventTag, GameRecord, Player, SCHEMA, SeatEntry, Status};
pub use sled_store::SledStore;

#[cfg(test)]
mod tests {
    #[test]
    fn memory_store_keeps_the_contract() {
        crate::contract::keeps_the_contract(&crate::MemoryStore::default());
    }

    #[test]
    fn memory_leases_have_one_holder() {
        crate::contract::leases_have_one_holder(&crate::MemoryStore::default());
    }

    #[test]
    fn memory_races_have_one_winner() {
        crate::contract::races_have_one_winner(&crate::MemoryStore::default());
    }
}
