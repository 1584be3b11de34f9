//! Leases: one instance at a time does a thing (syncs a chat, say) among several sharing one
//! store. A lease is a note, `<holder> <expiry>`, taken and renewed by compare-and-swap, so it
//! works on every store; an instance that dies stops renewing, and its lease lapses at its
//! expiry for another to take.
//!
//! A holder counts its lease as held only until [`MARGIN`] before the expiry it wrote (by its
//! own clock), and others take it only after the expiry (by theirs): with clocks that agree
//! within the margin, two instances never both believe they hold it.

use super::interface::{ChannelKey, GameStore, StoreError};

/// How long before a lease's expiry its holder stops counting on it, in seconds.
pub const MARGIN: u64 = 3;

/// A lease held by `holder`, as a note `name` on `key`.
#[derive(Clone, Debug)]
pub struct Lease {
    key: ChannelKey,
    name: String,
    holder: String,
    /// How long a taking or renewal lasts, in seconds.
    ttl: u64,
}

/// Who holds a lease, and until when.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Held {
    /// The holder's name.
    pub holder: String,
    /// When it lapses unless renewed (Unix seconds).
    pub until: u64,
}

fn parse(value: &str) -> Option<Held> {
    let (holder, until) = value.rsplit_once(' ')?;
    Some(Held {
        holder: holder.to_string(),
        until: until.parse().ok()?,
    })
}

impl Lease {
    /// The lease `name` on `key`, for `holder`, lasting `ttl` seconds at each renewal (at least
    /// twice [`MARGIN`]).
    pub fn new(key: ChannelKey, name: &str, holder: &str, ttl: u64) -> Lease {
        Lease {
            key,
            name: name.to_string(),
            holder: holder.to_string(),
            ttl: ttl.max(2 * MARGIN),
        }
    }

    /// Who holds the lease now, if anyone does (a lapsed lease is held by no one).
    pub fn holder(&self, store: &dyn GameStore, now: u64) -> Result<Option<Held>, StoreError> {
        let note = store.note(&self.key, &self.name)?;
        Ok(note.as_deref().and_then(parse).filter(|h| h.until > now))
    }

    /// Takes the lease if no one holds it, or renews it if this holder does; until when it is
    /// held, or `None` when another holds it (or took it first).
    pub fn take(&self, store: &dyn GameStore, now: u64) -> Result<Option<u64>, StoreError> {
        let note = store.note(&self.key, &self.name)?;
        if let Some(held) = note.as_deref().and_then(parse)
            && held.holder != self.holder
            && held.until > now
        {
            return Ok(None);
        }
        let until = now + self.ttl;
        let value = format!("{} {until}", self.holder);
        let swapped = store.swap_note(&self.key, &self.name, note.as_deref(), Some(&value))?;
        Ok(swapped.then_some(until))
    }

    /// Lets the lease go at once, if this holder holds it (another may take it at once).
    pub fn release(&self, store: &dyn GameStore) -> Result<(), StoreError> {
        let note = store.note(&self.key, &self.name)?;
        if note
            .as_deref()
            .and_then(parse)
            .is_some_and(|h| h.holder == self.holder)
        {
            store.swap_note(&self.key, &self.name, note.as_deref(), None)?;
        }
        Ok(())
    }

    /// Until when (by this holder's clock) a lease renewed to `until` may be counted on.
    pub fn trusted_until(until: u64) -> u64 {
        until.saturating_sub(MARGIN)
    }

    /// How long a taking or renewal lasts, in seconds.
    pub fn ttl(&self) -> u64 {
        self.ttl
    }
}

/// This process's name among instances sharing a store: the host, the process and when it
/// started (the same for every caller in the process).
pub fn instance_name() -> &'static str {
    static NAME: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    NAME.get_or_init(|| {
        let host = std::fs::read_to_string("/etc/hostname")
            .ok()
            .map(|h| h.trim().to_string())
            .filter(|h| !h.is_empty())
            .or_else(|| std::env::var("HOSTNAME").ok())
            .unwrap_or_else(|| "muster".into());
        let started = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis());
        format!("{host}/{}/{started}", std::process::id())
    })
}
