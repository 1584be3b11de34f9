//! Requests handled once. A request with an id on its platform (a chat event, an interaction)
//! leaves a receipt — the replies the core made of it, and how far the adapter got in sending
//! them — stored in the same write as the change it made to a game. A request that comes again
//! finds its receipt and is not run again; an adapter restarted after a crash finds the
//! receipts it has not finished sending and sends the rest. Messages no request asked for (a
//! timeout, the bot's move) are kept the same way, as notices, until they are posted.

use super::front::Core;
use super::router::Found;
use crate::kernel::outbox::{NOTICE, Notice};
use crate::kernel::receipt::{Handled, Receipt};
use crate::kernel::request::Request;
use crate::kernel::store::{ChannelKey, StoreError};

/// The note (beside a platform's, on its empty channel) by which one instance claims a notice
/// another stored and never posted, followed by the notice's id.
const NOTICE_CLAIM: &str = "notice.claim:";

/// How long (seconds) a posted notice stays kept, done: long enough that an intent met again
/// after a crash and a restart finds it said.
const NOTICES_KEPT: u64 = 2 * 86_400;

impl Core {
    /// Handles the request whose id on its platform is `id`, once: the first time it runs
    /// and its receipt (answering in `place`) is kept with its change; every later time the
    /// kept receipt is returned and nothing runs. `Err` only when the store cannot be read.
    pub fn handle_once(
        &self,
        req: &Request,
        id: &str,
        place: Option<&str>,
    ) -> Result<Handled, StoreError> {
        if let Some(body) = self.store.receipt(&req.platform, id)? {
            return Ok(Handled {
                receipt: Receipt::decode(&body)?,
                fresh: false,
                changed: false,
            });
        }
        let (receipt, changed) = self.run(req, Some((id, place)), None);
        Ok(Handled {
            receipt,
            fresh: true,
            changed,
        })
    }

    /// Handles a chat message's command whose receipt its adapter has just looked for and not
    /// found (the message was not met before): runs it, keeping its receipt under `id` with
    /// its change, without reading the receipt again; a move written on its own is decided
    /// over the game [`Core::command_in`] read to find it. `req` carries `found`'s text.
    pub fn handle_unmet(
        &self,
        req: &Request,
        found: Found,
        id: &str,
        place: Option<&str>,
    ) -> Handled {
        let (receipt, changed) = self.run(req, Some((id, place)), found.read);
        Handled {
            receipt,
            fresh: true,
            changed,
        }
    }

    /// Keeps a receipt for a request the core did not run (an adapter's own answer, such as a
    /// refusal to read an unreadable message), so that it too is answered once.
    pub fn keep_receipt(
        &self,
        platform: &str,
        id: &str,
        receipt: &Receipt,
    ) -> Result<(), StoreError> {
        self.store
            .set_receipt(platform, id, Some(&receipt.encode()))
    }

    /// The receipt of `id` on `platform`, if one is kept.
    pub fn receipt(&self, platform: &str, id: &str) -> Result<Option<Receipt>, StoreError> {
        self.store
            .receipt(platform, id)?
            .map(|b| Receipt::decode(&b))
            .transpose()
    }

    /// The receipts on `platform` whose messages are not all sent: `(id, receipt)`, oldest
    /// first. Unreadable receipts are left out.
    pub fn owed(&self, platform: &str) -> Result<Vec<(String, Receipt)>, StoreError> {
        let mut owed: Vec<(String, Receipt)> = self
            .store
            .receipts(platform)?
            .into_iter()
            .filter_map(|(id, body)| Some((id, Receipt::decode(&body).ok()?)))
            .filter(|(_, r)| !r.done)
            .collect();
        owed.sort_by(|a, b| a.1.at.cmp(&b.1.at).then_with(|| a.0.cmp(&b.0)));
        Ok(owed)
    }

    /// Forgets the finished receipts on `platform` handled before `before` (seconds since the
    /// Unix epoch); returns how many.
    pub fn forget_receipts(&self, platform: &str, before: u64) -> Result<usize, StoreError> {
        self.forget(platform, before, "")
    }

    /// Forgets the finished (or unreadable) receipts on `platform` whose ids begin with
    /// `prefix`, handled before `before`; how many.
    fn forget(&self, platform: &str, before: u64, prefix: &str) -> Result<usize, StoreError> {
        let mut forgotten = 0;
        for (id, body) in self.store.receipts(platform)? {
            if !id.starts_with(prefix) {
                continue;
            }
            let old = Receipt::decode(&body).map_or(true, |r| r.done && r.at < before);
            if old {
                self.store.set_receipt(platform, &id, None)?;
                forgotten += 1;
            }
        }
        Ok(forgotten)
    }

    /// Marks the notice kept as `id` on `platform` as posted: an adapter calls this once it has
    /// posted the notice. (An adapter may instead send it as it sends answers, recording its
    /// progress in the receipt.) It stays kept, done, for a while (see [`Core::forget_notices`]),
    /// so that the same intent met again is known as said.
    pub fn notice_sent(&self, platform: &str, id: &str) {
        // A notice still owed would be posted again at the next start: say so.
        if let Err(e) = crate::kernel::kept::done(self.base.as_ref(), platform, id) {
            tracing::warn!(
                notice = id,
                "a posted notice could not be marked as posted: {e}"
            );
        }
        if self.base.shared() {
            let claim = format!("{NOTICE_CLAIM}{id}");
            let key = ChannelKey::new(platform, "");
            if let Err(e) = self.base.set_note(&key, &claim, None) {
                tracing::warn!(
                    notice = id,
                    "a posted notice's claim could not be dropped: {e}"
                );
            }
        }
    }

    /// Forgets the notices on `platform` posted and kept since before `before` (seconds since the
    /// Unix epoch); how many.
    pub fn forget_notices(&self, platform: &str, before: u64) -> Result<usize, StoreError> {
        self.forget(platform, before, NOTICE)
    }

    /// Forgets, on every platform, the notices posted more than [`NOTICES_KEPT`] ago (the
    /// scheduler does, hourly).
    pub fn forget_old_notices(&self) {
        let before = self.clock.now().saturating_sub(NOTICES_KEPT);
        for surface in self.surfaces() {
            let platform = surface.platform();
            match self.forget_notices(platform, before) {
                Ok(0) => {}
                Ok(n) => tracing::debug!(platform, "forgot {n} notice(s) posted long ago"),
                Err(e) => tracing::warn!(
                    platform,
                    "notices posted long ago could not be forgotten: {e}"
                ),
            }
        }
    }

    /// The notices kept on `platform` and not yet sent (a crash came between storing them and
    /// posting them), oldest first.
    pub fn owed_notices(&self, platform: &str) -> Vec<Notice> {
        self.owed_notices_before(platform, u64::MAX)
    }

    /// Beside other instances on one store: the notices on `platform` stored at least `age`
    /// seconds ago and still not posted — the instance that stored them stopped first — each
    /// claimed by one instance only (a note beside the platform's), and left in this one's
    /// outbox for its adapter to post. How many.
    pub fn recover_notices(&self, platform: &str, age: u64) -> usize {
        let before = self.clock.now().saturating_sub(age);
        let key = ChannelKey::new(platform, "");
        let me = crate::kernel::store::lease::instance_name();
        let mut taken = 0;
        for notice in self.owed_notices_before(platform, before) {
            let Some(id) = notice.receipt.clone() else {
                continue;
            };
            let claim = format!("{NOTICE_CLAIM}{id}");
            let claimed = self.base.swap_note(&key, &claim, None, Some(me));
            if let Err(e) = &claimed {
                tracing::warn!(notice = %id, "an owed notice could not be claimed: {e}; tried again later");
            }
            if claimed.unwrap_or(false) {
                tracing::info!(
                    "posting notice {id}, which another instance stored but never posted"
                );
                self.timers.post(notice);
                taken += 1;
            }
        }
        taken
    }

    fn owed_notices_before(&self, platform: &str, before: u64) -> Vec<Notice> {
        let kept = match self.base.receipts(platform) {
            Ok(kept) => kept,
            Err(e) => {
                tracing::warn!(
                    platform,
                    "the notices owed cannot be read: {e}; read again later"
                );
                return Vec::new();
            }
        };
        let mut owed: Vec<(u64, String, Notice)> = kept
            .into_iter()
            .filter(|(id, _)| id.starts_with(NOTICE))
            .filter_map(|(id, body)| {
                let r = match Receipt::decode(&body) {
                    Ok(r) => r,
                    Err(e) => {
                        tracing::warn!(notice = %id, "a kept notice cannot be read and is not posted: {e}");
                        return None;
                    }
                };
                (!r.done && r.at <= before).then(|| {
                    let notice = crate::kernel::kept::notice_of(platform, &id, &r);
                    (r.at, id, notice)
                })
            })
            .collect();
        owed.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
        owed.into_iter().map(|(_, _, n)| n).collect()
    }
}
