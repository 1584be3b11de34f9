//! The scheduler's agenda: for each channel with a timed game, the next moment something is due
//! there (a deadline, a reminder), and the earliest of them all. The one scheduler of a process
//! sleeps until [`Agenda::next`] and is woken early when a change brings a moment forward; it
//! never polls and never keeps a timer per game.
//!
//! It is kept small, since a busy instance watches many games: each channel's key is stored
//! once (shared by the ordered queue and the index), with a 32-bit hint of whom the moment
//! concerns, so that a player's other reminders due soon are found without reading games.

use std::collections::hash_map::DefaultHasher;
use std::collections::{BTreeSet, HashMap};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::kernel::store::ChannelKey;

/// A channel's key as one string: platform, unit separator, channel.
type Key = Arc<str>;

fn key_of(key: &ChannelKey) -> Key {
    Arc::from(format!("{}\u{1f}{}", key.platform, key.channel))
}

fn channel_of(key: &str) -> ChannelKey {
    let (platform, channel) = key.split_once('\u{1f}').unwrap_or(("", key));
    ChannelKey::new(platform, channel)
}

/// A 32-bit hint of a player's id (equal ids, equal hints).
pub fn hint(player: &str) -> u32 {
    let mut h = DefaultHasher::new();
    player.hash(&mut h);
    h.finish() as u32
}

/// Next due moments by channel.
#[derive(Debug, Default)]
pub struct Agenda {
    /// Channel → (next moment, hint of the player it concerns).
    index: HashMap<Key, (u64, u32)>,
    queue: BTreeSet<(u64, Key)>,
}

impl Agenda {
    /// Sets (or with `None` clears) the next due moment of `key`, which concerns the player
    /// hinted by `who` (see [`hint`]). Whether the earliest moment of all came forward.
    pub fn set(&mut self, key: &ChannelKey, due: Option<(u64, u32)>) -> bool {
        let before = self.next();
        let text = key_of(key);
        if let Some((old, _)) = self.index.remove(&text) {
            self.queue.remove(&(old, Arc::clone(&text)));
        }
        if let Some((at, who)) = due {
            self.index.insert(Arc::clone(&text), (at, who));
            self.queue.insert((at, text));
        }
        match (before, self.next()) {
            (Some(b), Some(n)) => n < b,
            (None, Some(_)) => true,
            _ => false,
        }
    }

    /// The earliest due moment.
    pub fn next(&self) -> Option<u64> {
        self.queue.first().map(|(at, _)| *at)
    }

    /// Removes and returns the channels due at `now`, earliest first.
    pub fn take_due(&mut self, now: u64) -> Vec<(u64, ChannelKey)> {
        let mut due = Vec::new();
        while self.queue.first().is_some_and(|(at, _)| *at <= now) {
            let Some((at, key)) = self.queue.pop_first() else {
                break;
            };
            self.index.remove(&key);
            due.push((at, channel_of(&key)));
        }
        due
    }

    /// The channels whose next moment falls in `(after, until]` and concerns the player hinted
    /// by `who`, earliest first (left in the agenda). A hint may match another player too:
    /// callers check the game.
    pub fn between(&self, after: u64, until: u64, who: u32) -> Vec<ChannelKey> {
        if until <= after {
            return Vec::new();
        }
        let start: Key = Arc::from("");
        self.queue
            .range((after + 1, start)..)
            .take_while(|(at, _)| *at <= until)
            .filter(|(_, key)| self.index.get(key).is_some_and(|(_, w)| *w == who))
            .map(|(_, key)| channel_of(key))
            .collect()
    }

    /// How many channels have something due.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether nothing is due anywhere.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// An estimate of the bytes the agenda holds: its two tables at their capacity (the queue's
    /// nodes about two-thirds full, as a B-tree's are on average) and each key's one string.
    pub fn footprint(&self) -> usize {
        let entry = size_of::<(Key, (u64, u32))>() + 1;
        let element = size_of::<(u64, Key)>();
        let strings: usize = self
            .index
            .keys()
            // An Arc's two counts, then the text, allocated in 16-byte steps.
            .map(|k| (16 + k.len()).div_ceil(16) * 16)
            .sum();
        self.index.capacity() * entry + self.queue.len() * element * 3 / 2 + strings
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_earliest_moment_comes_first_and_a_channel_is_listed_once() {
        let (a, b) = (
            ChannelKey::new("console", "a"),
            ChannelKey::new("console", "b"),
        );
        let (alice, bob) = (hint("alice"), hint("bob"));
        let mut agenda = Agenda::default();
        assert!(agenda.set(&a, Some((50, alice))));
        assert!(!agenda.set(&b, Some((70, bob))));
        assert!(agenda.set(&b, Some((30, bob))));
        assert_eq!(agenda.next(), Some(30));
        assert_eq!(agenda.len(), 2);
        assert!(agenda.take_due(29).is_empty());
        assert_eq!(agenda.between(29, 60, alice), vec![a.clone()]);
        assert_eq!(agenda.between(29, 60, bob), vec![b.clone()]);
        assert!(agenda.between(30, 49, alice).is_empty());
        assert_eq!(agenda.take_due(60), vec![(30, b.clone()), (50, a.clone())]);
        assert!(agenda.is_empty());
        agenda.set(&a, Some((10, alice)));
        agenda.set(&a, None);
        assert_eq!(agenda.next(), None);
        assert_eq!(agenda.footprint() > 0, agenda.index.capacity() > 0);
    }

    #[test]
    fn keys_keep_their_platform_and_channel() {
        let key = ChannelKey::new("rooms", "!room:example.org");
        let mut agenda = Agenda::default();
        agenda.set(&key, Some((5, hint("@alice:example.org"))));
        assert_eq!(agenda.take_due(5), vec![(5, key)]);
    }
}
