//! Muster, a chat bot for Lewis Carroll's games.
//!
//! The house, from the ground up (docs/architecture.md): [`telemetry`] (logs, metrics,
//! health); the [`kernel`] every capability speaks — the store, the clock, requests, replies,
//! boards, receipts, the outbox and the platforms' surfaces; the capabilities — [`players`]'
//! settings, [`games`], [`clocks`], [`ratings`], [`events`]; the front desk [`core`], the one
//! part adapters call; the adapters [`console`], [`discord`], [`matrix`] and the [`web`] pages; and the command
//! line ([`cli`]) that wires them, with the [`ops`] service beside it. A move walks one way:
//! adapter → desk (parsed once) → games (the record read once, played by the rules) → one
//! atomic write → replies worded from the game as played → adapter. [`machine`] is the machine
//! interface (`muster replay`, `muster moves`, `muster analyse`).
//!
//! ```
//! use muster_bot::machine::replay;
//! use muster_rules::GameId;
//!
//! let report = replay(GameId::Lanrick, "a1\n# a comment\nh8\n");
//! assert_eq!(report.applied, 2);
//! assert!(report.error.is_none());
//! ```

/// The allocator: jemalloc, with its background threads giving freed memory back to the
/// system while Muster is idle. With the system's (glibc's), a load of the web pages — boards
/// drawn on several threads at once — left tens of megabytes held by its arenas for good
/// (docs/performance.md, "Memory of the web pages").
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

pub mod cli;
pub mod cli_args;
mod cli_store;
pub mod clocks;
pub mod config_check;
pub mod console;
pub mod core;
pub mod discord;
pub mod events;
pub mod games;
pub mod kernel;
pub mod machine;
pub mod matrix;
pub mod ops;
pub mod players;
pub mod ratings;
pub mod signals;
pub mod telemetry;
pub mod web;

pub use kernel::{clock, store};
