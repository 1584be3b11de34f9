//! What the web pages' suites share: the bot's test helpers and a site served on a free port.
#![allow(dead_code)]

pub mod site;

// Each suite uses a part of them.
#[allow(unused_imports)]
pub use muster_core::testing::*;
