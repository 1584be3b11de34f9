//! Muster, a chat bot for Lewis Carroll's games.
//!
//! The parts, in the order a command flows through them (DESIGN.md, "How one command flows"):
//! an adapter ([`console`]) turns platform input into a [`core::Request`]; [`core::Core`]
//! parses the command, loads the channel's game from the [`store`], plays it with the rules,
//! writes it back with compare-and-swap, renders the board and answers with [`core::Reply`]s,
//! which the adapter maps to the platform's messages. [`machine`] is the machine interface
//! (`muster replay`, `muster moves`), and [`cli`] the command line.
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
pub mod cli_args;
mod cli_store;
pub mod clock;
pub mod config_check;
pub mod console;
pub mod core;
pub mod discord;
pub mod machine;
pub mod matrix;
pub mod ops;
pub mod signals;
pub mod store;
