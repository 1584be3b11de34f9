//! Muster's settings, typed and validated once at start: defaults, overridden by `muster.toml`,
//! overridden by `MUSTER_*` environment variables. Every error names the key and says why.
//!
//! ```
//! use muster_config::Settings;
//!
//! let s = Settings::load_from(Some("data_dir = \"games\"\n"), &[("MUSTER_PREFIX", "?")]).unwrap();
//! assert_eq!(s.data_dir.to_str(), Some("games"));
//! assert_eq!(s.prefix, "?");
//! ```
//!
//! The keys are documented in `muster.example.toml` at the root of the repository.

mod check;
pub mod communities;
pub mod discord;
pub mod matrix;
pub mod ops;
mod settings;
pub mod web;

pub use check::ConfigError;
pub use communities::Community;
pub use discord::{Discord, Mode, Register, Secret, Shards};
pub use matrix::{AutoJoin, Login, Matrix};
pub use ops::{LogFormat, Ops};
pub use settings::{Settings, Store};
pub use web::{Visibility, Web};
