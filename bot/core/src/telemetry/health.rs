//! Readiness: whether the store is open and each configured adapter is connected, as the
//! adapters report it. `/readyz` answers 503 with the reasons while anything is not ready.

use std::collections::BTreeMap;
use std::sync::Mutex;

/// Each part's state: `None` when ready, else why not.
static PARTS: Mutex<BTreeMap<String, Option<String>>> = Mutex::new(BTreeMap::new());

fn parts() -> std::sync::MutexGuard<'static, BTreeMap<String, Option<String>>> {
    PARTS.lock().unwrap_or_else(|p| p.into_inner())
}

/// `part` is ready (connected).
pub fn ready(part: &str) {
    parts().insert(part.to_string(), None);
}

/// `part` (`store`, an adapter's platform, `muster`) is not ready: `why` (connecting,
/// reconnecting, stopping). Each configured adapter says so when it starts.
pub fn down(part: &str, why: &str) {
    parts().insert(part.to_string(), Some(why.to_string()));
}

/// Ready, or the reasons each part is not (one line each, `part: why`). Nothing expected yet
/// is not ready either.
pub fn readiness() -> Result<Vec<String>, Vec<String>> {
    let parts = parts();
    if parts.is_empty() {
        return Err(vec!["starting: nothing is ready yet".into()]);
    }
    let down: Vec<String> = parts
        .iter()
        .filter_map(|(p, why)| why.as_ref().map(|w| format!("{p}: {w}")))
        .collect();
    if down.is_empty() {
        Ok(parts.keys().map(|p| format!("{p}: ready")).collect())
    } else {
        Err(down)
    }
}
