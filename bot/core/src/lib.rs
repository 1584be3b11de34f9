//! Muster's core: everything of the bot below its adapters, and nothing of a platform.
//!
//! The house, from the ground up (docs/architecture.md): [`telemetry`] (logs, metrics,
//! health) and [`signals`] (stop signals); the [`kernel`] every capability speaks — the store,
//! the clock, requests, replies, boards, receipts, the outbox and the platforms' surfaces; the
//! capabilities — [`players`]' settings, [`games`], [`clocks`], [`ratings`], [`events`]; and the
//! front [`desk`], the one part adapters call. A move walks one way: adapter → desk (parsed
//! once) → games (the record read once, played by the rules) → one atomic write → replies
//! worded from the game as played → adapter. [`machine`] is the machine interface (`muster
//! replay`, `muster moves`, `muster analyse`).
//!
//! The adapters (`muster-discord`, `muster-matrix`, `muster-web`) and the `muster` binary are
//! crates of their own above this one; Cargo keeps them apart.
//!
//! ```
//! use muster_core::machine::replay;
//! use muster_rules::GameId;
//!
//! let report = replay(GameId::Lanrick, "a1\n# a comment\nh8\n");
//! assert_eq!(report.applied, 2);
//! assert!(report.error.is_none());
//! ```

pub mod clocks;
pub mod desk;
pub mod events;
pub mod games;
pub mod kernel;
pub mod learn;
pub mod machine;
pub mod players;
pub mod ratings;
pub mod signals;
pub mod telemetry;
#[cfg(feature = "test-support")]
pub mod testing;

pub use kernel::{clock, store};
