//! The live streams' bookkeeping: how many each address and everyone hold open, and which
//! pages are watched, each with where its updates go.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use super::allowance::{Allowance, Full, Place};

use tokio::sync::broadcast;

use muster_core::kernel::pages::Page;

/// One update: the page's changing part and its version, as the stream sends it (JSON).
pub type Update = Arc<String>;

/// A page being watched: what it shows, and where its updates go.
pub struct Watch {
    /// What the page shows.
    pub page: Page,
    /// Where its updates go.
    pub sender: broadcast::Sender<Update>,
    /// The last update sent (or the first made): what a new reader begins with.
    pub last: Update,
}

/// The live streams of this instance.
pub struct Hub {
    /// How many streams each address, and everyone, may hold open.
    pub streams: Arc<Allowance>,
    /// The pages watched, by token.
    pub watched: Mutex<HashMap<String, Watch>>,
}

impl Hub {
    /// No streams yet; each address may hold `per_address`, everyone together `overall`.
    pub fn new(per_address: usize, overall: usize) -> Hub {
        Hub {
            streams: Allowance::new(per_address, overall),
            watched: Mutex::default(),
        }
    }
}

/// A place for one more stream from `address`, unless it or everyone holds all allowed.
pub fn permit(hub: &Hub, address: IpAddr) -> Result<Place, Full> {
    hub.streams.take(address)
}

/// The version of a page's part: a short fingerprint of its text (FNV-1a), which changes when
/// it does.
pub fn version(part: &str) -> String {
    let hash = part.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:x}")
}
