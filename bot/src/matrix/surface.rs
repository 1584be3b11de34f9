//! How Matrix shows what the core says: UTC times with the time left, rooms linked through
//! matrix.to, users named by their display names (the adapter makes the pills), an 8 MiB file,
//! a room opened for each event board — and, when the syncer takes the platform over, the
//! adapter itself posts what another instance stored and never posted.

use super::PLATFORM;
use crate::core::{Opening, Place, Surface};

/// Matrix's surface.
pub struct MatrixSurface;

impl Surface for MatrixSurface {
    fn platform(&self) -> &str {
        PLATFORM
    }

    fn channel_link(&self, channel: &str) -> String {
        format!("https://matrix.to/#/{channel}")
    }

    /// Under what homeservers commonly accept (Synapse's default is 50 MiB; many set less).
    fn upload_limit(&self) -> usize {
        8 << 20
    }

    fn place(&self, _: &Opening) -> Place {
        Place::Opened
    }

    fn posts_owed_notices(&self) -> bool {
        true
    }

    fn private_replies(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rooms_are_linked_through_matrix_to_and_times_are_utc() {
        let s = MatrixSurface;
        assert_eq!(
            s.channel_link("!room:example.org"),
            "https://matrix.to/#/!room:example.org"
        );
        assert_eq!(
            s.time(1_800_003_600, 1_800_000_000),
            "2027-01-15 09:00:00 UTC (in 1h)"
        );
    }
}
