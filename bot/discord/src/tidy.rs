//! Only the channel's newest message of the bot that shows a board or buttons keeps its buttons.
//! After each such message the bot reads the channel's recent history from Discord and takes the
//! buttons off its older messages: nothing is kept in the store for it, so it holds across
//! restarts and beside other instances, and of two boards posted at once the newer (by Discord's
//! message id, which grows with time) keeps its buttons, whichever is posted last. A button
//! pressed on an older message still answers (the core tells the presser what holds now).
//! Link buttons to a web page are no action: they stay.

use serenity::all as serenity;
use serenity::{
    ActionRowComponent, ButtonKind, ChannelId, CreateActionRow, CreateButton, EditMessage,
    GetMessages, Http, Message, MessageId,
};

use super::Shared;

/// How far back the history is read: further than any board's buttons outlive it.
const LOOKBACK: u8 = 25;

/// The links of `m`'s link buttons: label and address.
fn links(m: &Message) -> Vec<(String, String)> {
    m.components
        .iter()
        .flat_map(|row| &row.components)
        .filter_map(|c| match c {
            ActionRowComponent::Button(b) => match &b.data {
                ButtonKind::Link { url } => {
                    Some((b.label.clone().unwrap_or_default(), url.clone()))
                }
                _ => None,
            },
            _ => None,
        })
        .collect()
}

/// Whether `m` has buttons that are actions (not only links).
fn acts(m: &Message) -> bool {
    let all = m
        .components
        .iter()
        .map(|row| row.components.len())
        .sum::<usize>();
    all > links(m).len()
}

/// Whether `m` shows a board (an image) or has buttons.
fn shown(m: &Message) -> bool {
    acts(m)
        || m.attachments.iter().any(|a| {
            a.content_type
                .as_deref()
                .is_some_and(|t| t.starts_with("image/"))
                || a.filename.ends_with(".png")
                || a.filename.ends_with(".gif")
        })
}

/// Takes the buttons off every message of the bot in `channel` but the newest that shows a
/// board or buttons (at least as new as the one just posted, whose id `sent` gives when it is
/// known); the messages it took them off. The history is read while `sent` is asked for.
pub async fn tidy(
    shared: &Shared,
    http: &Http,
    channel: ChannelId,
    sent: impl Future<Output = Option<MessageId>>,
) -> Vec<MessageId> {
    let (me, sent, recent) = tokio::join!(
        shared.bot_user(http),
        sent,
        channel.messages(http, GetMessages::new().limit(LOOKBACK))
    );
    let Some(me) = me else {
        return Vec::new();
    };
    let recent = match recent {
        Ok(recent) => recent,
        Err(e) => {
            tracing::warn!(
                %channel,
                "the channel's history cannot be read to take older buttons off ({e}); Muster \
                 needs the Read Message History permission there"
            );
            return Vec::new();
        }
    };
    let mine: Vec<&Message> = recent.iter().filter(|m| m.author.id == me).collect();
    let Some(newest) = mine
        .iter()
        .filter(|m| shown(m))
        .map(|m| m.id)
        .chain(sent)
        .max()
    else {
        return Vec::new();
    };
    let mut cleared = Vec::new();
    for m in mine {
        if m.id != newest && acts(m) {
            clear_keeping(http, channel, m.id, &links(m)).await;
            cleared.push(m.id);
        }
    }
    cleared
}

/// Takes the buttons off `message`.
pub async fn clear(http: &Http, channel: ChannelId, message: MessageId) {
    clear_keeping(http, channel, message, &[]).await;
}

/// Takes the buttons off `message` but its `links` (label, address).
async fn clear_keeping(
    http: &Http,
    channel: ChannelId,
    message: MessageId,
    links: &[(String, String)],
) {
    let rows = if links.is_empty() {
        vec![]
    } else {
        vec![CreateActionRow::Buttons(
            links
                .iter()
                .map(|(label, url)| CreateButton::new_link(url.clone()).label(label.clone()))
                .collect(),
        )]
    };
    let edit = EditMessage::new().components(rows);
    if let Err(e) = channel.edit_message(http, message, edit).await {
        tracing::warn!("could not remove the buttons of message {message}: {e}");
    }
}
