//! Board views for Muster. The renderer takes a small view of a game (what stands where, what
//! to highlight), never the rules themselves: `LanrickView` is built from a game and the events
//! of its last decision, then drawn and encoded as a PNG that reads well at phone size.
//!
//! ```
//! use muster_rules::lanrick::Lanrick;
//!
//! let png = muster_render::lanrick::png(&Lanrick::new(), &[], ["Alice", "Bob"]);
//! assert_eq!(&png[1..4], b"PNG");
//! let board = muster_render::text::lanrick(&Lanrick::new());
//! assert!(board.starts_with("  a b c d e f g h"));
//! ```

pub mod canvas;
pub mod croquet;
pub mod encode;
pub mod lanrick;
pub mod text;
