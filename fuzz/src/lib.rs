//! Muster's fuzz targets, one function per surface (see `surfaces`).

mod surfaces;

pub use surfaces::{command, discord, matrix, play, position, record};
