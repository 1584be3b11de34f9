//! The web pages (docs/web.md): an adapter of the core that shows games, events, players and
//! leaderboards read-only, in a browser, each at the address its link from the chat gives.
//! From the bottom up: `html.rs` (the frame, the style sheet and script), `gate.rs` (request
//! heads judged before hyper sees them), `allowance.rs` (what an address and everyone may hold),
//! `listen.rs` (connections within their allowance, behind the gate), `asked.rs` (what an
//! address asks for), `boards.rs` (drawn boards kept for the pages), `cards.rs` (link cards),
//! `hub.rs` (the open live streams and who watches what),
//! `shared.rs` (what the handlers share), `game.rs`, `event.rs`, `people.rs` and `index.rs`
//! (the pages), `calendar.rs` (an event's and a player's calendar), `previews.rs` (a page's
//! card and oEmbed answer), `rules.rs` (the games' rules pages, from the rules documents),
//! `learning.rs` (the lessons' and puzzles' pages, answered by the rules engine),
//! `live.rs` (their live streams, one rendering per change for every reader), `serve.rs` (the
//! listener, its routes and headers). This file only declares them.

pub mod allowance;
pub mod asked;
pub mod boards;
pub mod calendar;
pub mod cards;
pub mod event;
pub mod game;
pub mod gate;
pub mod html;
pub mod hub;
pub mod index;
pub mod learning;
pub mod listen;
pub mod live;
pub mod people;
pub mod previews;
pub mod rules;
pub mod serve;
pub mod shared;

pub use shared::Shared;
