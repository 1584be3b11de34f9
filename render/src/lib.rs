//! Board views for Muster. The renderer takes a small view of a game (what stands where, what
//! to highlight), never the rules themselves.
//!
//! For now: the text board the console prints and tests read.
//!
//! ```
//! use muster_rules::lanrick::Lanrick;
//! let board = muster_render::text::lanrick(&Lanrick::new());
//! assert!(board.starts_with("  a b c d e f g h"));
//! ```

pub mod text;
