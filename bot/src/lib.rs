//! Muster, a chat bot for Lewis Carroll's games.
//!
//! This crate holds the `muster` binary and what it is made of. So far: the machine interface
//! ([`machine`]: `muster replay` and `muster moves`, a contract other tools rely on) and the
//! command-line entry point ([`cli`]).
//!
//! ```
//! use muster_bot::machine::replay;
//! use muster_rules::GameId;
//!
//! let report = replay(GameId::Lanrick, "a1\n# a comment\nh8\n");
//! assert_eq!(report.applied, 2);
//! assert!(report.error.is_none());
//! ```

pub mod cli;
pub mod machine;
