//! What the web pages' suites share: the bot's test helpers and a site served on a free port.
#![allow(dead_code)]

pub mod site;

pub use muster_core::testing::*;
