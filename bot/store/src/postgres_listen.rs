//! The PostgreSQL store's change notifications: one connection of its own that listens to
//! `muster_changes`, which the tables' triggers send when a transaction commits (migration 2 of
//! [`super::postgres_schema`]), so that every instance on the database hears of every change.

use tokio_postgres::NoTls;

use super::changes::{Changed, Changes};

/// Tells `changes` of every change the database notifies (`muster_changes`, sent by the
/// tables' triggers when a transaction commits: migration 2), from this instance and the
/// others, for as long as the store lives. A lost connection is logged and made again, after
/// a second, doubling up to a minute; listening again, it tells of a change that may be any
/// ([`Changed::anything`]), for what changed meanwhile.
pub(super) async fn listen(config: tokio_postgres::Config, changes: std::sync::Arc<Changes>) {
    use futures_util::StreamExt;
    let mut wait = std::time::Duration::from_secs(1);
    let mut listened = false;
    loop {
        match config.connect(NoTls).await {
            Err(e) => tracing::warn!(
                "cannot listen to the store's changes: {e}; trying again in {wait:?}"
            ),
            Ok((client, mut connection)) => {
                let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
                let driver = tokio::spawn(async move {
                    let mut messages =
                        futures_util::stream::poll_fn(move |cx| connection.poll_message(cx));
                    while let Some(message) = messages.next().await {
                        match message {
                            Ok(tokio_postgres::AsyncMessage::Notification(n)) => {
                                if tx.send(n.payload().to_string()).is_err() {
                                    return;
                                }
                            }
                            Ok(_) => {}
                            Err(e) => {
                                tracing::warn!("the store's change notifications broke off: {e}");
                                return;
                            }
                        }
                    }
                });
                match client.batch_execute("LISTEN muster_changes").await {
                    Err(e) => tracing::warn!("cannot listen to the store's changes: {e}"),
                    Ok(()) => {
                        wait = std::time::Duration::from_secs(1);
                        // What changed while nobody listened is looked at again.
                        if listened {
                            changes.tell(Changed::anything());
                        }
                        listened = true;
                        while let Some(payload) = rx.recv().await {
                            if let Some(changed) = notified(&payload) {
                                changes.tell(changed);
                            }
                        }
                        tracing::warn!(
                            "the store's change notifications stopped; listening again in {wait:?}"
                        );
                    }
                }
                driver.abort();
            }
        }
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(std::time::Duration::from_secs(60));
    }
}

/// A notification's change: `g␟platform␟channel` for a live game, `n␟platform␟channel␟name`
/// for a note.
fn notified(payload: &str) -> Option<Changed> {
    let mut parts = payload.split('\u{1f}');
    let kind = parts.next()?;
    let platform = parts.next()?.to_string();
    let channel = parts.next()?.to_string();
    let note = match kind {
        "g" => None,
        "n" => Some(parts.next()?.to_string()),
        _ => return None,
    };
    Some(Changed {
        platform,
        channel,
        note,
    })
}
