//! The live streams' bookkeeping: how many each address holds open, and which pages are
//! watched, each with where its updates go.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use tokio::sync::broadcast;

use crate::kernel::pages::Page;

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
    per_address: usize,
    open: Mutex<HashMap<IpAddr, usize>>,
    /// The pages watched, by token.
    pub watched: Mutex<HashMap<String, Watch>>,
}

/// A stream's place among its address's: given back when the stream ends.
pub struct Permit {
    hub: Arc<Hub>,
    address: IpAddr,
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut open = self.hub.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = open.get_mut(&self.address) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                open.remove(&self.address);
            }
        }
    }
}

impl Hub {
    /// No streams yet; each address may hold `per_address`.
    pub fn new(per_address: usize) -> Hub {
        Hub {
            per_address,
            open: Mutex::default(),
            watched: Mutex::default(),
        }
    }
}

/// A place for one more stream from `address`, if it holds fewer than allowed.
pub fn permit(hub: &Arc<Hub>, address: IpAddr) -> Option<Permit> {
    let mut open = hub.open.lock().unwrap_or_else(|p| p.into_inner());
    let n = open.entry(address).or_insert(0);
    if *n >= hub.per_address {
        return None;
    }
    *n += 1;
    Some(Permit {
        hub: Arc::clone(hub),
        address,
    })
}

/// The version of a page's part: a short fingerprint of its text (FNV-1a), which changes when
/// it does.
pub fn version(part: &str) -> String {
    let hash = part.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:x}")
}
