//! The bot's decisions in the games it searches (Lanrick, its first version, Lanko). A search
//! takes up to a few seconds, so it is not made inside the command that gave the bot its turn:
//! that command is answered at once, and the channel is queued. The bot then decides as a
//! player would — its move (or its resignation, when the game is hopeless) goes through the
//! command core like anyone's, stored by compare-and-swap together with its announcement, kept
//! as a receipt until an adapter has posted it — so that a restart neither loses nor repeats a
//! bot move. The decisions it makes in a row (a won rendezvous's takings, returns and fields)
//! are searched in that same command (`games::play::bot_turns`) and said as one message. The
//! console makes the queued decisions after each command; `muster serve` on one
//! worker thread of its own, so that searches never take more than one core from the players.

use super::front::Core;
use crate::games::bot;
use crate::kernel::outbox::{NOTICE, Notice, Target};
use crate::kernel::replayable::Replayable;
use crate::kernel::reply::Reply;
use crate::kernel::request::{Request, User};
use crate::kernel::store::{ChannelKey, GameRecord, Player};

/// A decision the bot has searched and not yet made: the game and its decisions when the
/// search began, the bot's seat's player and the command it will give.
pub struct BotDecision {
    game: String,
    moves: Vec<String>,
    player: Player,
    text: String,
}

/// The id of the receipt the bot's decision after `ply` decisions is announced under.
fn notice_id(game: &str, ply: usize) -> String {
    format!("{NOTICE}bot.{game}.{ply}")
}

impl Core {
    /// Queues the channel of `record` if the bot is to decide there.
    fn bot_due(&self, record: &GameRecord) {
        if bot::to_decide(record, None).is_some() {
            self.queue_bot(ChannelKey::new(&record.platform, &record.channel));
        }
    }

    /// Queues every live game in which the bot is to decide (at start: a decision the bot owed
    /// when Muster stopped is made now).
    pub fn resume_bots(&self) {
        if let Ok(games) = self.base.bot_games() {
            for record in games {
                self.bot_due(&record);
            }
        }
    }

    /// Beside other instances on one store: queues the games in which the bot has been due to
    /// decide for `idle` seconds or more, on the platforms this instance sees to — decisions
    /// an instance that stopped meanwhile owed. (Should that instance be only slow, the first
    /// decision stored wins; the other is refused as a move on a changed board.)
    pub fn resume_stalled_bots(&self, idle: u64) {
        let now = self.clock.now();
        if let Ok(games) = self.base.bot_games() {
            for record in games {
                if self.timers.fires(&record.platform) && record.updated + idle <= now {
                    self.bot_due(&record);
                }
            }
        }
    }

    /// Makes every queued decision of the bot, one after another (the console, after each
    /// command, so that a script reads in order).
    pub fn play_bots(&self) {
        while let Some(key) = self.bots.pop() {
            self.play_bot(&key);
        }
    }

    /// Makes the bot's queued decisions as they come, on the calling thread, until `stop`
    /// says so (checked at least every second): `muster serve`'s bot worker.
    pub fn bot_worker(&self, stop: impl Fn() -> bool) {
        while !stop() {
            if let Some(key) = self.bots.wait(std::time::Duration::from_secs(1)) {
                self.play_bot(&key);
            }
        }
    }

    /// The bot's decision in the channel `key`, if it is to decide there: searched, then made
    /// as the bot's command — a move, or a resignation when the game is hopeless
    /// (docs/ai.md) — stored with its announcement, which goes to the outbox.
    pub fn play_bot(&self, key: &ChannelKey) {
        if let Some(decision) = self.bot_search(key) {
            self.bot_decide(key, decision);
        }
    }

    /// The search for the bot's decision in the channel `key`, if it is to decide there (the
    /// first half of [`Core::play_bot`], which may take seconds).
    pub fn bot_search(&self, key: &ChannelKey) -> Option<BotDecision> {
        let record = match self.store.load(key) {
            Ok(record) => record?,
            Err(e) => {
                tracing::warn!(%key, "the bot cannot read its game ({e}); it looks again in a minute");
                self.bots
                    .push_later(key.clone(), std::time::Duration::from_secs(60));
                return None;
            }
        };
        let (_, player, level) = bot::to_decide(&record, None)?;
        let game = match record.rebuild() {
            Ok(game) => game,
            Err(e) => {
                tracing::warn!(game = %record.id, "the bot's game does not replay: {}", e.0);
                return None;
            }
        };
        let started = std::time::Instant::now();
        let ply = record.moves.len();
        let found = bot::decide(&game, level, &record.id, ply)?;
        let resign = ply >= 12 && muster_rules::search::hopeless(&game, found.value);
        tracing::info!(
            game = %record.id,
            level = %level.name(),
            decision = %found.decision,
            value = found.value,
            iterations = found.iterations,
            ms = started.elapsed().as_millis() as u64,
            resign,
            "the bot decided"
        );
        let text = if resign {
            "resign".to_string()
        } else {
            format!("move {}", found.decision)
        };
        Some(BotDecision {
            game: record.id,
            moves: record.moves,
            player,
            text,
        })
    }

    /// Makes the bot's searched `decision` in the channel `key` (the second half of
    /// [`Core::play_bot`]). If the game changed while the bot was thinking (a takeback and
    /// another move, a resignation), the decision is dropped and the channel queued again,
    /// so that the bot never plays a move searched for another position.
    pub fn bot_decide(&self, key: &ChannelKey, decision: BotDecision) {
        let unchanged = self
            .store
            .load(key)
            .ok()
            .flatten()
            .is_some_and(|now| now.id == decision.game && now.moves == decision.moves);
        if !unchanged {
            tracing::info!(game = %decision.game, "the game changed while the bot was thinking");
            self.queue_bot(key.clone());
            return;
        }
        let req = Request {
            platform: key.platform.clone(),
            channel: key.channel.clone(),
            user: User::from(&decision.player),
            text: decision.text,
            mentions: Vec::new(),
            policy: Default::default(),
        };
        let id = notice_id(&decision.game, decision.moves.len());
        let (receipt, _) = self.run(&req, Some((&id, None)), None);
        let (public, private): (Vec<Reply>, Vec<Reply>) = receipt
            .replies
            .into_iter()
            .partition(|r| !matches!(r, Reply::Private(_)));
        if !private.is_empty() {
            tracing::warn!(game = %decision.game, replies = ?private, "the bot's decision was refused");
        }
        if public.is_empty() {
            self.notice_sent(&key.platform, &id);
            return;
        }
        self.timers.post(Notice {
            platform: key.platform.clone(),
            target: Target::Channel(key.channel.clone()),
            replies: public,
            fallback: None,
            receipt: Some(id),
        });
    }

    /// Whether a decision of the bot is queued (the console waits for none to be).
    pub fn bots_pending(&self) -> bool {
        !self
            .bots
            .due
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_empty()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::desk::{Request, User};
    use crate::kernel::clock::ManualClock;
    use crate::kernel::store::MemoryStore;

    #[test]
    fn a_decision_another_instance_owed_is_made_once_it_has_waited() {
        let store: Arc<dyn crate::kernel::store::GameStore> = Arc::new(MemoryStore::default());
        let clock = Arc::new(ManualClock::starting_at(1_000_000));
        let core = Core::with_clock(Arc::clone(&store), "!", clock.clone());
        let request = Request {
            platform: "chat".into(),
            channel: "c".into(),
            user: User::named("alice"),
            text: "new lanrick bot:easy as black".into(),
            mentions: Vec::new(),
            policy: Default::default(),
        };
        core.handle(&request);
        let key = ChannelKey::new("chat", "c");
        // The instance that made the game stopped before the bot opened: nothing is queued
        // in this one.
        assert!(core.bots.pop().is_some());
        assert!(core.bots.pop().is_none());
        assert!(store.load(&key).unwrap().unwrap().moves.is_empty());
        clock.advance(10);
        core.resume_stalled_bots(30);
        core.play_bots();
        assert!(store.load(&key).unwrap().unwrap().moves.is_empty());
        // Another platform's games are left to the instance that announces them.
        core.timers().fire_for("rooms", true);
        clock.advance(30);
        core.resume_stalled_bots(30);
        core.play_bots();
        assert!(store.load(&key).unwrap().unwrap().moves.is_empty());
        core.timers().fire_for("chat", true);
        core.resume_stalled_bots(30);
        core.play_bots();
        assert_eq!(store.load(&key).unwrap().unwrap().moves.len(), 1);
    }
}
