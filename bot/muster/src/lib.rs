//! The `muster` binary's library: the command line ([`cli`]) that wires the adapters — the
//! [`console`] here, Discord (`muster-discord`), Matrix (`muster-matrix`) and the web pages
//! (`muster-web`) — to one core (`muster-core`), with the [`ops`] service beside it and the
//! settings check ([`config_check`]). docs/architecture.md has the house.

mod chats;
pub mod cli;
pub mod cli_args;
mod cli_store;
pub mod config_check;
pub mod console;
pub mod ops;
