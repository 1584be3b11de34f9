//! The shared kernel: what every capability of the core speaks and works with, below all of
//! them. [`store`] keeps the games and everything else Muster remembers (the store crate,
//! `muster_store`, and what the core wraps it in); [`replayable`] plays a stored record as its
//! game; [`clock`] reads and writes time; [`request`] and [`reply`] are what comes in and goes out; [`board`] (drawn by
//! [`draw`] and [`replay`]) is a board in a reply; [`receipt`] is a request answered once;
//! [`outbox`] holds what the core says unasked and the agenda of due moments, [`kept`] how such
//! a notice is written down before it is posted, so that it goes once; [`surface`] is how
//! each platform shows what the core says; [`community`] the communities that span platforms;
//! [`pages`] the web pages' tokens;
//! [`context`] is the [`Context`](context::Context) that holds them all, which the front desk
//! wraps and hands to the capabilities.
//!
//! Nothing in the kernel knows a capability (games, clocks, events, ratings, players), the front
//! desk or an adapter.

pub mod board;
pub mod clock;
pub mod community;
pub mod context;
pub mod draw;
pub mod kept;
pub mod outbox;
pub mod pages;
pub mod receipt;
pub mod replay;
pub mod replayable;
pub mod reply;
pub mod request;
pub mod store;
pub mod surface;
pub mod text;
