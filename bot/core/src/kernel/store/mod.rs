//! Where games and everything else Muster keeps live: the [`GameStore`] trait
//! (`interface.rs`) and its three backends — [`SledStore`] (embedded, the default),
//! [`PgStore`] (PostgreSQL, shared by several instances; `postgres_schema.rs` its migrations,
//! `postgres_listen.rs` its notifications of changes) and [`MemoryStore`] (tests) — with the
//! wrappers every backend can wear: [`Metered`] (timings and the process's [`Changes`]) and
//! [`Staged`] (one request's reads kept and writes held until one commit). Beside them:
//! [`GameRecord`] (`record.rs`, a game as stored), backups and migration between backends
//! (`backup.rs`, `named.rs`), leases (`lease.rs`: which instance does a piece of work), and the
//! crash tests' fault hooks (`fault.rs`). The contract every backend keeps (`contract.rs`) and a
//! store that counts what it is asked (`counted.rs`) are built for tests only (the
//! `test-support` feature).
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
mod metered;
pub mod named;
mod postgres;
mod postgres_listen;
mod postgres_schema;
pub mod record;
mod sled_store;
pub mod staged;

pub use changes::{Changed, Changes};
pub use interface::{Change, ChannelKey, GameStore, ReceiptToKeep, StoreError};
pub use memory::MemoryStore;
pub use metered::Metered;
pub use named::{Copied, Named, migrate};
pub use postgres::PgStore;
pub use record::{Away, Ending, EventTag, GameRecord, Player, SCHEMA, SeatEntry, Status};
pub use sled_store::SledStore;
pub use staged::Staged;

#[cfg(test)]
mod tests {
    #[test]
    fn memory_store_keeps_the_contract() {
        super::contract::keeps_the_contract(&super::MemoryStore::default());
    }

    #[test]
    fn memory_leases_have_one_holder() {
        super::contract::leases_have_one_holder(&super::MemoryStore::default());
    }

    #[test]
    fn memory_races_have_one_winner() {
        super::contract::races_have_one_winner(&super::MemoryStore::default());
    }
}
