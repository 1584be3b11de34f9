//! Notices kept until posted. A message no command asked for (a reminder, a claim notice, a
//! round's announcement) is first written down as a receipt under an id derived from what it is
//! about ([`intent`]) — the intent — then the marks that say it was said are made, then it is
//! posted with an idempotency key derived from that id (each adapter's own: see
//! docs/reliability.md), and at last marked done. A crash between any two of these steps neither loses it (the
//! receipt is owed and posted at the next start) nor doubles it (the same intent finds its
//! receipt and is not kept or posted again; a post made again carries the same key).

use super::outbox::{NOTICE, Notice, Target};
use super::receipt::Receipt;
use super::request::User;
use super::store::{GameStore, StoreError};

/// The id of a kept notice of `kind` about `parts` (a game's move, a round): the same every
/// time the same thing is to be said, so that saying it again finds the first.
pub fn intent(kind: &str, parts: &[&str]) -> String {
    format!("{NOTICE}{kind}.{:016x}", fnv1a(parts))
}

/// A 64-bit FNV-1a hash of `parts`, each followed by a zero byte (so that `["ab", "c"]` and
/// `["a", "bc"]` differ).
pub fn fnv1a(parts: &[&str]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in parts.iter().flat_map(|p| p.bytes().chain([0])) {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// `notice` (its `receipt` naming its id) as it is kept: in its channel, or to its user
/// directly with its fallback's words for the channel; on behalf of `user` for a channel's
/// notice; with `covers`, the marks it stands for.
pub fn receipt_of(notice: &Notice, user: User, at: u64, covers: Vec<String>) -> Receipt {
    let (channel, user, direct, fallback) = match &notice.target {
        Target::Channel(c) => (c.clone(), user, false, Vec::new()),
        Target::Direct(to) => {
            let (channel, words) = match notice.fallback.as_deref() {
                Some(Notice {
                    target: Target::Channel(c),
                    replies,
                    ..
                }) => (c.clone(), replies.clone()),
                _ => (String::new(), Vec::new()),
            };
            (channel, to.clone(), true, words)
        }
        Target::Open(o) => (o.parent.clone(), user, false, Vec::new()),
    };
    let mut r = Receipt::notice(&channel, user, at, notice.replies.clone());
    r.direct = direct;
    r.fallback = fallback;
    r.covers = covers;
    r
}

/// The kept notice `id` on `platform` read back, with what it has still to post.
pub fn notice_of(platform: &str, id: &str, r: &Receipt) -> Notice {
    let replies = r.replies.get(r.sent..).unwrap_or_default().to_vec();
    if !r.direct {
        return Notice {
            platform: platform.to_string(),
            target: Target::Channel(r.channel.clone()),
            replies,
            fallback: None,
            receipt: Some(id.to_string()),
        };
    }
    let fallback = (!r.fallback.is_empty() && !r.channel.is_empty()).then(|| {
        Box::new(Notice {
            platform: platform.to_string(),
            target: Target::Channel(r.channel.clone()),
            replies: r.fallback.clone(),
            fallback: None,
            receipt: Some(format!("{id}.fallback")),
        })
    });
    Notice {
        platform: platform.to_string(),
        target: Target::Direct(r.user.clone()),
        replies,
        fallback,
        receipt: Some(id.to_string()),
    }
}

/// Keeps `notice` (see [`receipt_of`]) under its receipt's id unless a notice is kept there
/// already — the same intent, written down before a crash or by another instance. `Ok(Some)`
/// with the receipt when this call kept it; `Ok(None)` when it was kept before (its marks are
/// then to be made, but it is not posted again from here: it is owed, or was posted).
pub fn keep(
    store: &dyn GameStore,
    notice: &Notice,
    user: User,
    at: u64,
    covers: Vec<String>,
) -> Result<Option<Receipt>, StoreError> {
    let Some(id) = notice.receipt.as_deref() else {
        return Err(StoreError::Io("a notice to keep needs an id".into()));
    };
    if store.receipt(&notice.platform, id)?.is_some() {
        return Ok(None);
    }
    let receipt = receipt_of(notice, user, at, covers);
    store.set_receipt(&notice.platform, id, Some(&receipt.encode()))?;
    Ok(Some(receipt))
}

/// Marks the kept notice `id` done (it was posted), keeping it a while so that the same intent
/// met again is known as said. Nothing when no notice is kept under `id`.
pub fn done(store: &dyn GameStore, platform: &str, id: &str) -> Result<(), StoreError> {
    let Some(body) = store.receipt(platform, id)? else {
        return Ok(());
    };
    let mut r = Receipt::decode(&body)?;
    if r.done {
        return Ok(());
    }
    r.done = true;
    r.sent = r.replies.len();
    store.set_receipt(platform, id, Some(&r.encode()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::reply::Reply;
    use crate::kernel::store::MemoryStore;
    use crate::kernel::store::Receipts;

    fn notice(id: &str, target: Target) -> Notice {
        Notice {
            platform: "console".into(),
            target,
            replies: vec![Reply::Text("two hours left".into())],
            fallback: Some(Box::new(Notice {
                platform: "console".into(),
                target: Target::Channel("general".into()),
                replies: vec![Reply::Text("@ann, two hours left".into())],
                fallback: None,
                receipt: None,
            })),
            receipt: Some(id.into()),
        }
    }

    #[test]
    fn the_same_intent_has_the_same_id_and_another_another() {
        let a = intent("remind", &["general", "g1:4", "3600"]);
        assert_eq!(a, intent("remind", &["general", "g1:4", "3600"]));
        assert_ne!(a, intent("remind", &["general", "g1:5", "3600"]));
        assert_ne!(
            intent("x", &["ab", "c"]),
            intent("x", &["a", "bc"]),
            "parts are kept apart"
        );
        assert!(a.starts_with(NOTICE));
    }

    #[test]
    fn a_notice_is_kept_once_and_a_direct_one_reads_back_with_its_fallback() {
        let store = MemoryStore::default();
        let ann = User::named("ann");
        let n = notice("notice.remind.1", Target::Direct(ann.clone()));
        let kept = keep(&store, &n, User::named("bot"), 10, vec!["c".into()]).unwrap();
        assert!(kept.is_some());
        // Met again (after a crash, or by another instance): not kept twice.
        assert!(
            keep(&store, &n, User::named("bot"), 11, Vec::new())
                .unwrap()
                .is_none()
        );
        let body = store
            .receipt("console", "notice.remind.1")
            .unwrap()
            .unwrap();
        let r = Receipt::decode(&body).unwrap();
        assert_eq!((r.at, r.covers.clone()), (10, vec!["c".to_string()]));
        let back = notice_of("console", "notice.remind.1", &r);
        assert_eq!(back.target, Target::Direct(ann));
        assert_eq!(back.replies, n.replies);
        let fallback = back.fallback.expect("the fallback is kept");
        assert_eq!(fallback.target, Target::Channel("general".into()));
        assert_eq!(fallback.replies, n.fallback.as_ref().unwrap().replies);
        // Posted: kept as done, and so still known.
        done(&store, "console", "notice.remind.1").unwrap();
        let r = Receipt::decode(
            &store
                .receipt("console", "notice.remind.1")
                .unwrap()
                .unwrap(),
        )
        .unwrap();
        assert!(r.done);
        assert!(
            keep(&store, &n, User::named("bot"), 12, Vec::new())
                .unwrap()
                .is_none()
        );
        done(&store, "console", "notice.none").unwrap();
    }
}
