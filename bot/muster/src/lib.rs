//! The `muster` binary's library: the command line ([`cli`]) that wires the adapters — the
//! console (`muster-host`, with the operations service and the settings check), Discord
//! (`muster-discord`), Matrix (`muster-matrix`) and the web pages (`muster-web`) — to one core
//! (`muster-core`). docs/architecture.md has the house.

mod chats;
pub mod cli;

pub use muster_host::{cli_args, cli_puzzles, cli_store, config_check, console, ops};
