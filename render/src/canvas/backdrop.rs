//! What every board of a style begins as: its paper, squares and coordinates, drawn once.

use std::sync::OnceLock;

use tiny_skia::Pixmap;

/// The part of every board of a style that never changes (paper, squares, coordinates),
/// drawn once, with its palette indices worked out on first use: a board drawn on it is
/// encoded by comparing with it, and what still shows it takes its indices.
pub struct Backdrop {
    /// The pixels.
    pub pixmap: Pixmap,
    index: OnceLock<Vec<u8>>,
}

impl Backdrop {
    /// A backdrop of these pixels.
    pub fn new(pixmap: Pixmap) -> Backdrop {
        Backdrop {
            pixmap,
            index: OnceLock::new(),
        }
    }

    /// Its palette indices, which `make` works out from its pixels the first time (the
    /// encoder's, always in the same palette: a backdrop belongs to one theme).
    pub(crate) fn index(&self, make: impl FnOnce(&Pixmap) -> Vec<u8>) -> &[u8] {
        self.index.get_or_init(|| make(&self.pixmap))
    }
}
