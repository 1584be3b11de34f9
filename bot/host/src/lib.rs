//! What hosts the bot on this machine, below the chat adapters: the [`console`] (a local chat in
//! the terminal), the [`ops`] service (the operations listener, health, periodic backups), the
//! command line's shape ([`cli_args`]), the settings check ([`config_check`]) and the store
//! commands ([`cli_store`]: backup, restore, migrate) and the puzzle set's ([`cli_puzzles`]). It knows no chat platform, so that a
//! change in an adapter does not rebuild it: the `muster` crate above wires it to the adapters.
//! docs/architecture.md has the house.

pub mod cli_args;
pub mod cli_puzzles;
pub mod cli_store;
pub mod config_check;
pub mod console;
pub mod ops;
