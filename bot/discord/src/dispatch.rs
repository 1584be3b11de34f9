//! Each interaction either transport receives, answered once: a slash command or a button
//! ([`super::respond`]), or the suggestions for an option being typed ([`super::complete`]).
//!
//! Once per process by its id ([`Shared::first_time`]); and, when several instances share the
//! store (PostgreSQL behind one Interactions Endpoint URL), once across them: the first to
//! claim the id in the store answers it, and an instance that finds it claimed — a proxy's
//! retry delivered elsewhere — leaves it. Claims are kept for [`REMEMBERED`], the token's
//! lifetime, after which Discord takes no answer to it anyway.

use std::time::Instant;

use serenity::all as serenity;
use serenity::{Http, Interaction};

use super::{PLATFORM, REMEMBERED, Shared};
use super::{complete, respond};
use muster_core::kernel::store::{ChannelKey, GameStore, StoreError};

/// The claims are spread over this many notes (on the adapter's own key), by id, so that
/// instances answering at once seldom write the same one.
const CLAIM_NOTES: u64 = 16;

/// Answers one interaction (not a PING), unless it was handled before: a command, its
/// autocompletion, or a button.
pub async fn dispatch(shared: &Shared, http: &Http, interaction: &Interaction) {
    let id = match interaction {
        Interaction::Command(c) | Interaction::Autocomplete(c) => c.id.get(),
        Interaction::Component(c) => c.id.get(),
        _ => return,
    };
    if !shared.first_time(id, Instant::now()) {
        tracing::debug!("interaction {id} arrived again; it is answered once");
        return;
    }
    let store = shared.core.store();
    if store.shared() {
        match claim(store, id, shared.core.now()) {
            Ok(true) => {}
            Ok(false) => {
                tracing::debug!("interaction {id} is answered by another instance");
                return;
            }
            // Unclaimed, it is answered: a store that cannot be written refuses the command's
            // change anyway, and the player is told so.
            Err(e) => tracing::warn!("cannot claim interaction {id} in the store ({e})"),
        }
    }
    match interaction {
        Interaction::Command(c) => respond::command(shared, http, c).await,
        Interaction::Autocomplete(c) => complete::autocomplete(shared, http, c).await,
        Interaction::Component(c) => respond::component(shared, http, c).await,
        _ => {}
    }
}

/// Claims interaction `id` for this instance at `now` (Unix seconds): false when another has.
/// A note holds its share of the claims of the last [`REMEMBERED`] as lines `<id> <time>`,
/// changed by compare-and-swap.
pub fn claim(store: &dyn GameStore, id: u64, now: u64) -> Result<bool, StoreError> {
    let key = ChannelKey::new(PLATFORM, "");
    let name = format!("interactions.{}", id % CLAIM_NOTES);
    let kept = REMEMBERED.as_secs();
    loop {
        let old = store.note(&key, &name)?;
        let mut lines: Vec<(u64, u64)> = old
            .as_deref()
            .unwrap_or_default()
            .lines()
            .filter_map(|l| {
                let (i, t) = l.split_once(' ')?;
                Some((i.parse().ok()?, t.parse().ok()?))
            })
            .filter(|&(_, t)| now.saturating_sub(t) < kept)
            .collect();
        if lines.iter().any(|&(i, _)| i == id) {
            return Ok(false);
        }
        lines.push((id, now));
        let new: String = lines.iter().map(|(i, t)| format!("{i} {t}\n")).collect();
        if store.swap_note(&key, &name, old.as_deref(), Some(&new))? {
            return Ok(true);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use muster_core::kernel::store::MemoryStore;
    use muster_core::store::Notes;

    #[test]
    fn an_interaction_is_claimed_once_for_its_tokens_lifetime() {
        let store = MemoryStore::default();
        assert!(claim(&store, 1234, 1_000).unwrap());
        assert!(!claim(&store, 1234, 1_001).unwrap());
        // Another id in the same note, and one in another.
        assert!(claim(&store, 1234 + CLAIM_NOTES, 1_002).unwrap());
        assert!(claim(&store, 1235, 1_002).unwrap());
        // Forgotten once Discord takes no answer to it: the note does not grow for ever.
        assert!(claim(&store, 1234, 1_002 + REMEMBERED.as_secs()).unwrap());
        let note = store
            .note(
                &ChannelKey::new(PLATFORM, ""),
                &format!("interactions.{}", 1234 % CLAIM_NOTES),
            )
            .unwrap()
            .unwrap();
        assert_eq!(note.lines().count(), 1, "{note}");
    }
}
