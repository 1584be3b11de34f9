//! Reminders: a player's reminder points falling due, and those due to one player within a
//! short while gathered into one message. Each message is kept first (a notice under an id of
//! what it covers, see `kernel::kept`), then its points are marked as sent in each game's
//! channel note (by compare-and-swap), then it is posted: a crash between two steps neither
//! loses it (the kept notice is owed and posted at the next start, and its marks are made again
//! from what it covers, [`settle`]) nor sends it twice.

use std::collections::HashSet;
use std::sync::{LazyLock, Mutex};

use super::schedule::{self, REMINDED, move_tag, mover, pending, sent_points};
use crate::kernel::clock::agenda::hint;
use crate::kernel::clock::duration;
use crate::kernel::context::Context;
use crate::kernel::kept;
use crate::kernel::outbox::{NOTICE, Notice, Target};
use crate::kernel::receipt::Receipt;
use crate::kernel::replayable::Replayable;
use crate::kernel::reply::Reply;
use crate::kernel::request::User;
use crate::kernel::store::{ChannelKey, GameRecord, StoreError};
use crate::kernel::surface::Surface;
use crate::kernel::text::capitalised;
use crate::players::links;
use crate::players::profile::{Mode, Profiles};
use crate::telemetry::metrics::metrics;

/// Reminders due to one player within this many seconds of each other go out as one message.
pub const COALESCE: u64 = 15 * 60;

/// The kind of a reminder's kept notice (its id is `notice.remind.<hash>`).
const KIND: &str = "remind";

/// How long (seconds) a kept reminder is left to the run that kept it before [`settle`] makes
/// its marks for it (that run stopped first).
const IN_FLIGHT: u64 = 60;

/// How long (seconds) a reminder kept by another run at this moment is left to it before its
/// games are looked at again.
const LATER: u64 = 30;

/// A reminder to send: the game, its points due, and the time left then.
#[derive(Clone)]
pub struct Due {
    key: ChannelKey,
    record: GameRecord,
    points: Vec<u64>,
    left: u64,
    deadline: u64,
}

impl Due {
    /// The reminder of `points` in `key`'s game, as of `now`; none when its clock does not run.
    pub(super) fn new(
        key: &ChannelKey,
        record: GameRecord,
        points: Vec<u64>,
        now: u64,
    ) -> Option<Due> {
        let (wait, deadline) = (record.wait?, record.deadline()?);
        Some(Due {
            key: key.clone(),
            left: wait.left_at(now, &record.paused(wait.seat)),
            deadline,
            points,
            record,
        })
    }

    /// Where the player to move plays: the game's platform and channel, or for one who plays
    /// a game from its other place (docs/guide.md, "Games across platforms"), that place.
    fn place(&self) -> (&str, &str) {
        let Some((_, user)) = mover(&self.record) else {
            return (&self.key.platform, &self.key.channel);
        };
        let platform = self.record.platform_of(&user.id);
        match self.record.place_on(platform) {
            Some(channel) if platform != self.key.platform => (platform, channel),
            _ => (&self.key.platform, &self.key.channel),
        }
    }

    /// What the reminder covers, as its kept notice says it: `channel␟move␟points␟platform`
    /// (the platform, since a linked player's reminder may be sent on another; a cover
    /// without it is of the notice's own platform).
    fn cover(&self) -> String {
        let points: Vec<String> = self.points.iter().map(u64::to_string).collect();
        format!(
            "{}\u{1f}{}\u{1f}{}\u{1f}{}",
            self.key.channel,
            move_tag(&self.record),
            points.join(","),
            self.key.platform
        )
    }
}

/// Whom a reminder goes to: the player to move, on the game's platform; or, for a player whose
/// accounts are linked and who said `notify on <platform>`, his account there, by direct
/// message (`routed`).
#[derive(Clone, PartialEq, Eq, Debug)]
struct Recipient {
    platform: String,
    user: User,
    routed: bool,
    /// His accounts whose games' reminders go to him so: (platform, user).
    sources: Vec<(String, User)>,
}

impl Recipient {
    /// The recipient of the reminders of `user`, to move on `platform`.
    fn of(core: &Context, platform: &str, user: &User) -> Recipient {
        let store = core.base.as_ref();
        let own = Recipient {
            platform: platform.to_string(),
            user: user.clone(),
            routed: false,
            sources: vec![(platform.to_string(), user.clone())],
        };
        let Some(route) = Profiles::new(store).of(platform, &user.id).route else {
            return own;
        };
        let accounts = links::accounts_of(store, platform, &user.id);
        let Some(there) = accounts.iter().find(|a| a.platform == route) else {
            return own;
        };
        let sources = accounts
            .iter()
            .map(|a| {
                let name = if a.platform == platform {
                    &user.name
                } else {
                    &a.name
                };
                (
                    a.platform.clone(),
                    User {
                        id: a.id.clone(),
                        name: name.clone(),
                    },
                )
            })
            .collect();
        Recipient {
            platform: route.clone(),
            user: User {
                id: there.id.clone(),
                name: there.name.clone(),
            },
            routed: route != platform,
            sources,
        }
    }
}

/// Sends the reminders that fell due at `now` (their points not yet marked), one message per
/// player, each with his other games due a little later; how many notices were left in the
/// outbox.
pub(super) fn send(core: &Context, reminders: Vec<Due>, now: u64) -> usize {
    let mut recipients: Vec<Recipient> = Vec::new();
    for d in &reminders {
        if let Some((_, u)) = mover(&d.record)
            && !recipients.iter().any(|r| {
                r.sources
                    .iter()
                    .any(|(p, x)| *p == d.place().0 && x.id == u.id)
            })
        {
            let r = Recipient::of(core, d.place().0, &u);
            if !recipients.contains(&r) {
                recipients.push(r);
            }
        }
    }
    let mut platforms: Vec<&str> = reminders.iter().map(|d| d.key.platform.as_str()).collect();
    platforms.extend(recipients.iter().map(|r| r.platform.as_str()));
    platforms.sort_unstable();
    platforms.dedup();
    for platform in platforms {
        settle(core, platform);
    }
    // Points marked meanwhile (by a notice settled just now, or another instance) are not
    // sent again.
    let mut reminders: Vec<Due> = reminders
        .into_iter()
        .filter_map(|mut d| {
            let sent = schedule::sent(core, &d.key, &d.record).ok()?;
            d.points.retain(|p| !sent.contains(p));
            (!d.points.is_empty()).then_some(d)
        })
        .collect();
    let mut posted = 0;
    for recipient in recipients {
        let (mut mine, rest): (Vec<Due>, Vec<Due>) = reminders.into_iter().partition(|d| {
            recipient.sources.iter().any(|(p, u)| {
                d.place().0 == *p && mover(&d.record).is_some_and(|(_, m)| m.id == u.id)
            })
        });
        reminders = rest;
        for (platform, user) in &recipient.sources {
            let soon = soon_for(core, platform, user, now, &mine);
            mine.extend(soon);
        }
        match remind(core, &recipient, &mine, now) {
            Reminded::Post(n) => {
                metrics().reminder();
                core.timers.post(*n);
                posted += 1;
            }
            Reminded::Nothing => {}
            // Another run kept this very reminder a moment ago: it marks and posts it; these
            // games are looked at again a little later.
            Reminded::Elsewhere => {
                for d in &mine {
                    let who = mover(&d.record).map_or(0, |(_, u)| hint(&u.id));
                    core.timers.set(&d.key, Some((now + LATER, who)));
                }
                continue;
            }
        }
        // Their next moments, now that the points are marked.
        for d in &mine {
            schedule::reschedule(core, &d.key);
        }
    }
    posted
}

/// Keeps the reminder of `games` for `user`, marks its points, and gives it to post — unless it
/// was kept before (by an earlier run, whose kept notice is owed and whose marks [`settle`]
/// makes, or by another instance at this moment, which marks and posts it) or his settings send
/// none. Games another instance marked meanwhile are left out of the message (it reminds of
/// them); with none left, nothing is posted.
/// What [`remind`] came to.
enum Reminded {
    /// A notice to post.
    Post(Box<Notice>),
    /// Nothing to post (no reminders wanted, or every game reminded by another run).
    Nothing,
    /// Kept before by another run, which posts it.
    Elsewhere,
}

fn remind(core: &Context, recipient: &Recipient, games: &[Due], now: u64) -> Reminded {
    let (platform, user) = (recipient.platform.as_str(), &recipient.user);
    let covers: Vec<String> = games.iter().map(Due::cover).collect();
    let mut parts: Vec<&str> = vec![&user.id];
    parts.extend(covers.iter().map(String::as_str));
    let id = kept::intent(KIND, &parts);
    let Some(notice) = reminder(core, recipient, games, now, &id) else {
        // No reminders wanted: the points are marked, and nothing is said.
        for d in games {
            let _ = mark(core, &d.key, &d.record, &d.points);
        }
        return Reminded::Nothing;
    };
    let store = core.base.as_ref();
    // This run makes its marks itself: [`settle`] in this process leaves it alone, however
    // far a manual clock jumps meanwhile.
    settled().insert(id.clone());
    match kept::keep(store, &notice, user.clone(), now, covers) {
        Ok(Some(_)) => {}
        Ok(None) => return Reminded::Elsewhere,
        Err(e) => {
            tracing::warn!(user = %user.id, "a reminder could not be kept: {e}; it is sent when its game is next seen to");
            for d in games {
                schedule::retry(core, &d.key, Some(&d.record), "its reminder cannot be kept");
            }
            return Reminded::Nothing;
        }
    }
    let mut ours: Vec<&Due> = Vec::new();
    for d in games {
        match mark(core, &d.key, &d.record, &d.points) {
            Ok(true) => ours.push(d),
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(key = %d.key, game = %d.record.id, "a reminder's points could not be marked as sent: {e}; its kept notice marks them at the next start");
                ours.push(d);
            }
        }
    }
    if ours.len() == games.len() {
        return Reminded::Post(Box::new(notice));
    }
    // Another instance reminds of the others: the kept notice covers this one's alone.
    let ours: Vec<Due> = ours.into_iter().cloned().collect();
    let rest = reminder(core, recipient, &ours, now, &id).filter(|_| !ours.is_empty());
    let body = rest.as_ref().map(|n| {
        let covers = ours.iter().map(Due::cover).collect();
        kept::receipt_of(n, user.clone(), now, covers).encode()
    });
    if let Err(e) = store.set_receipt(platform, &id, body.as_deref()) {
        tracing::warn!(user = %user.id, "a reminder's kept notice could not be narrowed: {e}");
    }
    rest.map_or(Reminded::Nothing, |n| Reminded::Post(Box::new(n)))
}

/// The ids of kept reminders whose marks this process makes or has made (or found made).
fn settled() -> std::sync::MutexGuard<'static, HashSet<String>> {
    static SETTLED: LazyLock<Mutex<HashSet<String>>> = LazyLock::new(Default::default);
    SETTLED.lock().unwrap_or_else(|p| p.into_inner())
}

/// Makes the marks of every reminder kept on `platform` that this process has not yet seen to:
/// a reminder kept before a crash, whose points were not yet marked, is known as sent.
pub(super) fn settle(core: &Context, platform: &str) {
    let now = core.clock.now();
    let prefix = format!("{NOTICE}{KIND}.");
    let kept = match core.base.receipts(platform) {
        Ok(kept) => kept,
        Err(e) => {
            tracing::warn!(platform, "the reminders kept cannot be read: {e}");
            return;
        }
    };
    for (id, body) in kept {
        if !id.starts_with(&prefix) || settled().contains(&id) {
            continue;
        }
        let Ok(receipt) = Receipt::decode(&body) else {
            continue;
        };
        // A young one may be in flight (this process's, or another instance's): its keeper
        // marks it.
        if receipt.at + IN_FLIGHT > now {
            continue;
        }
        let mut all = true;
        for cover in &receipt.covers {
            let Some((key, tag, points)) = covered(cover, platform) else {
                continue;
            };
            let done = match core.base.load(&key) {
                // The game moved on or ended: nothing is left to mark.
                Ok(Some(record)) if move_tag(&record) == tag => {
                    mark(core, &key, &record, &points).is_ok()
                }
                Ok(_) => true,
                Err(_) => false,
            };
            all &= done;
        }
        if all {
            settled().insert(id);
        }
    }
}

/// What a kept reminder of `platform` covers in one game, read back from [`Due::cover`]: the
/// game's channel (on the platform the cover names, else `platform`), its move and the points.
fn covered(cover: &str, platform: &str) -> Option<(ChannelKey, String, Vec<u64>)> {
    let mut parts = cover.split('\u{1f}');
    let (channel, tag, points) = (parts.next()?, parts.next()?, parts.next()?);
    let points = points.split(',').filter_map(|p| p.parse().ok()).collect();
    let key = ChannelKey::new(parts.next().unwrap_or(platform), channel);
    Some((key, tag.to_string(), points))
}

/// Marks `points` as sent for `record`'s current move (merged with those marked already, by
/// compare-and-swap, tried again if the note changed meanwhile); whether this call marked any
/// (`false`: all were marked before, by another instance or an earlier run).
fn mark(
    core: &Context,
    key: &ChannelKey,
    record: &GameRecord,
    points: &[u64],
) -> Result<bool, StoreError> {
    for _ in 0..5 {
        let old = core.base.note(key, REMINDED)?;
        let mut sent = sent_points(old.as_deref(), record);
        let fresh: Vec<u64> = points
            .iter()
            .copied()
            .filter(|p| !sent.contains(p))
            .collect();
        if fresh.is_empty() {
            return Ok(false);
        }
        sent.extend_from_slice(&fresh);
        let list: Vec<String> = sent.iter().map(u64::to_string).collect();
        let new = format!("{}|{}", move_tag(record), list.join(","));
        if core
            .base
            .swap_note(key, REMINDED, old.as_deref(), Some(&new))?
        {
            return Ok(true);
        }
    }
    Err(StoreError::Conflict)
}

/// The player's other reminders due within [`COALESCE`] of now (not yet marked): found
/// among the channels the agenda has due in that window, not by reading every game.
fn soon_for(core: &Context, platform: &str, user: &User, now: u64, taken: &[Due]) -> Vec<Due> {
    let soon_keys = core
        .timers
        .agenda()
        .between(now, now + COALESCE, hint(&user.id));
    let profile = Profiles::new(core.base.as_ref()).of(platform, &user.id);
    let mut out = Vec::new();
    for key in soon_keys {
        if key.platform != platform || taken.iter().any(|d| d.key == key) {
            continue;
        }
        // What cannot be read now is sent at its own time (the agenda still has it).
        let Ok(Some(record)) = core.base.load(&key) else {
            continue;
        };
        if mover(&record).is_none_or(|(_, u)| u.id != user.id) {
            continue;
        }
        let Ok(sent) = schedule::sent(core, &key, &record) else {
            continue;
        };
        let soon: Vec<u64> = pending(&record, &profile, &sent)
            .iter()
            .filter(|(_, at)| *at <= now + COALESCE)
            .map(|(p, _)| *p)
            .collect();
        if soon.is_empty() {
            continue;
        }
        if let Some(d) = Due::new(&key, record, soon, now) {
            out.push(d);
        }
    }
    out
}

/// A reminder for `recipient` about `games` (at least one), where his settings send it.
fn reminder(
    core: &Context,
    recipient: &Recipient,
    games: &[Due],
    now: u64,
    id: &str,
) -> Option<Notice> {
    let (platform, user) = (recipient.platform.as_str(), &recipient.user);
    let mut games: Vec<&Due> = games.iter().collect();
    if games.is_empty() {
        return None;
    }
    games.sort_by_key(|d| d.deadline);
    let profile = Profiles::new(core.base.as_ref()).of(platform, &user.id);
    let text = reminder_text(core, platform, &games, now);
    let direct = |fallback: Option<Box<Notice>>| Notice {
        platform: platform.to_string(),
        target: Target::Direct(user.clone()),
        replies: vec![Reply::Text(format!("Reminder: {}", capitalised(&text)))],
        fallback,
        receipt: Some(id.to_string()),
    };
    if profile.notify == Mode::Off {
        return None;
    }
    // Sent to his account on another platform: a direct message there, with no channel of
    // that platform to fall back on; so too when none of the games is played there.
    let home = games.iter().find(|d| d.place().0 == platform);
    let Some(home) = home.filter(|_| !recipient.routed) else {
        return Some(direct(None));
    };
    let in_channel = Notice {
        platform: platform.to_string(),
        target: Target::Channel(home.place().1.to_string()),
        replies: vec![Reply::Mention {
            user: user.clone(),
            text: text.clone(),
        }],
        fallback: None,
        receipt: Some(id.to_string()),
    };
    Some(match profile.notify {
        Mode::Dm => direct(Some(Box::new(Notice {
            receipt: Some(format!("{id}.fallback")),
            ..in_channel
        }))),
        Mode::Mention | Mode::Off => in_channel,
    })
}

/// A reminder's words for a player of `platform` about `games` (sorted by deadline, at least
/// one): one line, or a list of them.
fn reminder_text(core: &Context, platform: &str, games: &[&Due], now: u64) -> String {
    let surface = core.surface(platform);
    let line = |d: &Due| due_line(core, surface.as_ref(), platform, d, now);
    if games.len() == 1 {
        format!("{}.", line(games[0]))
    } else {
        let lines: Vec<String> = games.iter().map(|d| format!("• {}", line(d))).collect();
        format!(
            "your move is due soon in {} games:\n{}",
            games.len(),
            lines.join("\n")
        )
    }
}

/// One game's line of a reminder: the time left, where (on `platform`, through `surface`, or
/// on another platform), the game and the opponents, and the deadline.
fn due_line(core: &Context, surface: &dyn Surface, platform: &str, d: &Due, now: u64) -> String {
    let title = d.record.game_id().map_or("a game", |g| g.title());
    let me = mover(&d.record).map(|(_, u)| u.id);
    let mut others: Vec<&str> = Vec::new();
    for p in d.record.seats.iter().filter_map(|s| s.player.as_ref()) {
        if Some(&p.id) != me.as_ref() && !others.contains(&p.name.as_str()) {
            others.push(p.name.as_str());
        }
    }
    let (game_platform, channel) = d.place();
    let place = if game_platform == platform {
        surface.channel_link(channel)
    } else {
        let there = core.surface(game_platform);
        let community = (game_platform == d.record.platform)
            .then_some(d.record.community.as_deref())
            .flatten();
        format!(
            "{} on {}",
            there.address(community, channel),
            capitalised(game_platform)
        )
    };
    format!(
        "{} left for your move in {place} ({title} against {}) — the deadline is {}",
        duration(d.left),
        others.join(", "),
        surface.time(d.deadline, now)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cover_names_its_games_platform_and_one_kept_before_it_did_is_of_its_own() {
        let now = "c1\u{1f}g7:3\u{1f}3600,86400\u{1f}chat";
        let (key, tag, points) = covered(now, "rooms").expect("read");
        assert_eq!(key, ChannelKey::new("chat", "c1"));
        assert_eq!((tag.as_str(), points), ("g7:3", vec![3_600, 86_400]));
        let before = "c1\u{1f}g7:3\u{1f}3600";
        assert_eq!(
            covered(before, "rooms").map(|c| c.0),
            Some(ChannelKey::new("rooms", "c1"))
        );
        assert_eq!(covered("c1", "rooms"), None);
    }
}
