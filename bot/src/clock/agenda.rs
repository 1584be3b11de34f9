//! The scheduler's agenda: for each channel with a timed game, the next moment something is due
//! there (a deadline, a reminder), and the earliest of them all. The one scheduler of a process
//! sleeps until [`Agenda::next`] and is woken early when a change brings a moment forward; it
//! never polls and never keeps a timer per game.

use std::collections::{BTreeSet, HashMap};

use crate::store::ChannelKey;

/// Next due moments by channel.
#[derive(Debug, Default)]
pub struct Agenda {
    by_key: HashMap<ChannelKey, u64>,
    queue: BTreeSet<(u64, ChannelKey)>,
}

impl Agenda {
    /// Sets (or with `None` clears) the next due moment of `key`. Whether the earliest moment
    /// of all came forward.
    pub fn set(&mut self, key: &ChannelKey, due: Option<u64>) -> bool {
        let before = self.next();
        if let Some(old) = self.by_key.remove(key) {
            self.queue.remove(&(old, key.clone()));
        }
        if let Some(at) = due {
            self.by_key.insert(key.clone(), at);
            self.queue.insert((at, key.clone()));
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
        while let Some((at, key)) = self.queue.first().cloned() {
            if at > now {
                break;
            }
            self.queue.pop_first();
            self.by_key.remove(&key);
            due.push((at, key));
        }
        due
    }

    /// The channels whose next moment falls in `(after, until]`, earliest first (left in
    /// the agenda).
    pub fn between(&self, after: u64, until: u64) -> Vec<ChannelKey> {
        if until <= after {
            return Vec::new();
        }
        self.queue
            .range((after + 1, ChannelKey::new("", ""))..)
            .take_while(|(at, _)| *at <= until)
            .map(|(_, key)| key.clone())
            .collect()
    }

    /// How many channels have something due.
    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    /// Whether nothing is due anywhere.
    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
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
        let mut agenda = Agenda::default();
        assert!(agenda.set(&a, Some(50)));
        assert!(!agenda.set(&b, Some(70)));
        assert!(agenda.set(&b, Some(30)));
        assert_eq!(agenda.next(), Some(30));
        assert_eq!(agenda.len(), 2);
        assert!(agenda.take_due(29).is_empty());
        assert_eq!(agenda.between(30, 50), vec![a.clone()]);
        assert_eq!(agenda.between(29, 49), vec![b.clone()]);
        assert_eq!(agenda.take_due(60), vec![(30, b.clone()), (50, a.clone())]);
        assert!(agenda.is_empty());
        agenda.set(&a, Some(10));
        agenda.set(&a, None);
        assert_eq!(agenda.next(), None);
    }
}
