//! From an interaction to the core and back. The core decides first (a command takes a few
//! milliseconds), so the answer's visibility is known before Discord hears anything: a private
//! answer — an error, mostly — is ephemeral from its first byte. Only drawing the boards of a
//! public answer may be deferred (a public "thinking…" while they are drawn). The replies become
//! Discord messages — public text, the board PNG with its alt text, buttons, pings limited to
//! the users the core mentions, and ephemeral messages for private replies — each non-empty and
//! within Discord's limits. Every interaction gets exactly one response. Only the newest message
//! with buttons in a channel keeps them.

use std::time::{Duration, Instant};

use serenity::all as serenity;
use serenity::{
    ButtonStyle, ChannelId, ChannelType, CommandInteraction, ComponentInteraction, CreateActionRow,
    CreateAllowedMentions, CreateAttachment, CreateButton, CreateInteractionResponse,
    CreateInteractionResponseFollowup, CreateInteractionResponseMessage, CreateMessage,
    CreateThread, EditInteractionResponse, Http, MessageId,
};

pub use super::outgoing::{MAX_CONTENT, Outgoing, is_public, plan, split_text};
use super::tidy::{self, tidy};
use super::{PLATFORM, Shared, commands, log_time, words};
use muster_core::desk::{Button, Reply, Request, THREAD, User, thread_name};
use muster_core::kernel::text::excerpt;

/// Discord's most buttons on a message (five rows of five).
const MAX_BUTTONS: usize = 25;
/// Discord's longest custom id.
const MAX_CUSTOM_ID: usize = 100;
/// How long the core may take to decide before the interaction is acknowledged privately
/// (it takes milliseconds; Discord wants a first response within 3 s).
const DECIDE_WITHIN: Duration = Duration::from_millis(1500);
/// The prefix of a button's custom id; the rest is the command it runs.
pub const BUTTON_PREFIX: &str = "muster:";
/// The answer to a button that is not (or no longer) one of Muster's.
pub const STALE_BUTTON: &str = "This button is no longer valid (it is from an older message). Type `/board` to see this channel's game.";
fn style(command: &str) -> ButtonStyle {
    if command.ends_with("accept") || command == "join" {
        ButtonStyle::Success
    } else if command.ends_with("decline") {
        ButtonStyle::Danger
    } else if command.starts_with("move ") {
        ButtonStyle::Primary
    } else {
        ButtonStyle::Secondary
    }
}

/// The buttons' rows, five to a row, and the link buttons to web pages in a row of their own.
fn rows_with_links(buttons: &[Button], links: &[(String, String)]) -> Vec<CreateActionRow> {
    let mut out = rows(buttons);
    if !links.is_empty() && out.len() < 5 {
        out.push(CreateActionRow::Buttons(
            links
                .iter()
                .take(5)
                .map(|(label, url)| CreateButton::new_link(url.clone()).label(label.clone()))
                .collect(),
        ));
    }
    out
}

fn rows(buttons: &[Button]) -> Vec<CreateActionRow> {
    // A button whose command does not fit in a custom id is left out rather than cut short.
    let fitting: Vec<(String, &Button)> = buttons
        .iter()
        .map(|b| (format!("{BUTTON_PREFIX}{}", b.command), b))
        .filter(|(id, _)| id.chars().count() <= MAX_CUSTOM_ID)
        .take(MAX_BUTTONS)
        .collect();
    fitting
        .chunks(5)
        .map(|chunk| {
            CreateActionRow::Buttons(
                chunk
                    .iter()
                    .map(|(id, b)| {
                        CreateButton::new(id.clone())
                            .label(b.label.chars().take(80).collect::<String>())
                            .style(style(&b.command))
                    })
                    .collect(),
            )
        })
        .collect()
}

fn attachments(out: &Outgoing) -> Vec<CreateAttachment> {
    out.files
        .iter()
        .map(|(name, bytes, alt)| {
            let file = CreateAttachment::bytes(bytes.clone(), name.clone());
            match alt {
                Some(alt) => file.description(alt.chars().take(1024).collect::<String>()),
                None => file,
            }
        })
        .collect()
}

fn pings(out: &Outgoing) -> CreateAllowedMentions {
    CreateAllowedMentions::new().users(out.pings.iter().map(|&id| serenity::UserId::new(id)))
}

/// One of serenity's message builders filled from `out`: text, pings, buttons, then each file
/// added with `$add` (the builders share these methods but no trait).
macro_rules! built {
    ($builder:expr, $out:expr, $add:ident) => {{
        let out = $out;
        let mut m = $builder
            .content(out.content.clone())
            .allowed_mentions(pings(out))
            .components(rows_with_links(&out.buttons, &out.links));
        for file in attachments(out) {
            m = m.$add(file);
        }
        m
    }};
}

fn message(out: &Outgoing) -> CreateInteractionResponseMessage {
    built!(CreateInteractionResponseMessage::new(), out, add_file).ephemeral(out.ephemeral)
}

fn followup(out: &Outgoing) -> CreateInteractionResponseFollowup {
    built!(CreateInteractionResponseFollowup::new(), out, add_file).ephemeral(out.ephemeral)
}

fn edit(out: &Outgoing) -> EditInteractionResponse {
    built!(EditInteractionResponse::new(), out, new_attachment)
}

/// `$body` with `$i` bound to whichever interaction `$target` holds (both kinds have the same
/// response methods but no common trait).
macro_rules! either {
    ($target:expr, $i:ident => $body:expr) => {
        match $target {
            Target::Command($i) => $body,
            Target::Component($i) => $body,
        }
    };
}

/// The interaction being answered.
pub enum Target<'a> {
    /// A slash command.
    Command(&'a CommandInteraction),
    /// A button.
    Component(&'a ComponentInteraction),
}

/// How an interaction has been acknowledged so far.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ack {
    /// Not yet: the first message is the interaction's response.
    None,
    /// Deferred with a public "thinking…": the first public message replaces it.
    Public,
    /// Deferred with a "thinking…" only the user sees: the first private message replaces it.
    Private,
}

impl Target<'_> {
    fn channel(&self) -> ChannelId {
        either!(self, i => i.channel_id)
    }

    /// Acknowledges the interaction with a "thinking…" message (seen only by the user when
    /// `private`). A button's answer is a new message, like a command's: not serenity's
    /// deferred *update* of the pressed message.
    async fn defer(&self, http: &Http, private: bool) -> Ack {
        let r = CreateInteractionResponse::Defer(
            CreateInteractionResponseMessage::new().ephemeral(private),
        );
        if let Err(e) = self.respond(http, r).await {
            tracing::warn!("deferring a reply failed: {e}");
        }
        if private { Ack::Private } else { Ack::Public }
    }

    async fn respond(&self, http: &Http, r: CreateInteractionResponse) -> serenity::Result<()> {
        either!(self, i => i.create_response(http, r).await)
    }

    async fn original(&self, http: &Http) -> serenity::Result<serenity::Message> {
        either!(self, i => i.get_response(http).await)
    }

    async fn edit_original(
        &self,
        http: &Http,
        e: EditInteractionResponse,
    ) -> serenity::Result<serenity::Message> {
        either!(self, i => i.edit_response(http, e).await)
    }

    async fn delete_original(&self, http: &Http) -> serenity::Result<()> {
        either!(self, i => i.delete_response(http).await)
    }

    async fn follow(
        &self,
        http: &Http,
        f: CreateInteractionResponseFollowup,
    ) -> serenity::Result<serenity::Message> {
        either!(self, i => i.create_followup(http, f).await)
    }
}

/// Runs `request` in the core off the async threads, then draws the boards of a public answer; an answer whose boards take longer
/// than the configured time to draw is deferred publicly first (it will be public). Only a core
/// that takes far longer than it ever does to decide makes the interaction be deferred
/// privately. Returns the replies, boards drawn, and how the interaction was acknowledged.
async fn run_core(
    shared: &Shared,
    http: &Http,
    target: &Target<'_>,
    request: Request,
) -> (Vec<Reply>, Ack) {
    let started = Instant::now();
    let core = shared.core.clone();
    let mut decided = tokio::task::spawn_blocking(move || core.handle(&request));
    let mut ack = Ack::None;
    let result = match tokio::time::timeout(DECIDE_WITHIN, &mut decided).await {
        Ok(r) => r,
        Err(_) => {
            ack = target.defer(http, true).await;
            decided.await
        }
    };
    let replies = match result {
        Ok(replies) => replies,
        Err(e) => {
            tracing::error!("the command failed: {e}");
            return (
                vec![Reply::Private(
                    "Muster failed while handling this command; nothing was changed. Try again."
                        .into(),
                )],
                ack,
            );
        }
    };
    if !replies.iter().any(|r| matches!(r, Reply::Board(_))) {
        return (replies, ack);
    }
    // An answer for the asker alone (his own view of the board) is private from its first byte.
    let private = !replies.iter().any(is_public);
    let mut drawing = tokio::task::spawn_blocking(move || draw(replies));
    let budget = shared.defer_after.saturating_sub(started.elapsed());
    let drawn = if ack == Ack::None && !budget.is_zero() {
        tokio::time::timeout(budget, &mut drawing).await.ok()
    } else {
        None
    };
    let drawn = match drawn {
        Some(r) => r,
        None => {
            if ack == Ack::None {
                ack = target.defer(http, private).await;
            }
            drawing.await
        }
    };
    match drawn {
        Ok(replies) => (replies, ack),
        Err(e) => {
            tracing::error!("drawing a board failed: {e}");
            (
                vec![Reply::Private(
                    "Muster could not draw the board; your command was handled. Type `/board` to see the game."
                        .into(),
                )],
                ack,
            )
        }
    }
}

/// Sends the replies to `target`, acknowledged as `ack` so far: the first message is the
/// response (or replaces the "thinking…" of a deferral of the same visibility), the others
/// follow it. After a board or buttons, the channel's older messages lose their buttons
/// ([`tidy`]); the messages that did.
async fn send(
    shared: &Shared,
    http: &Http,
    target: &Target<'_>,
    replies: Vec<Reply>,
    ack: Ack,
) -> Vec<MessageId> {
    let mut outgoing = plan(replies);
    if outgoing.is_empty() {
        outgoing.push(Outgoing {
            content: "\u{2705}".into(),
            ephemeral: true,
            ..Default::default()
        });
    }
    let channel = target.channel();
    let shown = |out: &Outgoing| !out.ephemeral && (out.board || !out.buttons.is_empty());
    let mut cleared = Vec::new();
    for (i, out) in outgoing.iter().enumerate() {
        let sent = match (i, ack) {
            (0, Ack::None) => target
                .respond(http, CreateInteractionResponse::Message(message(out)))
                .await
                .map(|()| Sent::Response),
            (0, Ack::Public) if !out.ephemeral => target
                .edit_original(http, edit(out))
                .await
                .map(|m| Sent::Posted(m.id)),
            (0, Ack::Private) if out.ephemeral => target
                .edit_original(http, edit(out))
                .await
                .map(|m| Sent::Posted(m.id)),
            (0, _) => {
                // The "thinking…" has the other visibility: it goes, and the answer follows.
                if let Err(e) = target.delete_original(http).await {
                    tracing::warn!("the deferred response could not be removed: {e}");
                }
                target
                    .follow(http, followup(out))
                    .await
                    .map(|m| Sent::Posted(m.id))
            }
            _ => target
                .follow(http, followup(out))
                .await
                .map(|m| Sent::Posted(m.id)),
        };
        match sent {
            Ok(sent) if shown(out) => {
                // The response's id is asked of Discord while the channel's history is read.
                let id = async {
                    match sent {
                        Sent::Posted(id) => Some(id),
                        Sent::Response => match target.original(http).await {
                            Ok(m) => Some(m.id),
                            Err(e) => {
                                tracing::warn!("the response just sent cannot be read: {e}");
                                None
                            }
                        },
                    }
                };
                cleared.extend(tidy(shared, http, channel, id).await);
            }
            Ok(_) => {}
            Err(e) => tracing::warn!("a reply could not be sent: {e}"),
        }
    }
    cleared
}

/// What sending one reply gave back.
enum Sent {
    /// The interaction's response, whose message Discord gives only when asked.
    Response,
    /// A message whose id Discord gave back.
    Posted(MessageId),
}

/// Answers `target` with one private message (no core involved).
async fn tell(shared: &Shared, http: &Http, target: &Target<'_>, text: String) {
    send(shared, http, target, vec![Reply::Private(text)], Ack::None).await;
}

/// A slash command: translate, run, reply.
pub async fn command(shared: &Shared, http: &Http, interaction: &CommandInteraction) {
    let started = Instant::now();
    let target = Target::Command(interaction);
    let Some((text, mentions)) = words::text(&interaction.data) else {
        let name = excerpt(&interaction.data.name, 32);
        let why = if commands::find(&interaction.data.name).is_some() {
            format!(
                "`/{name}` arrived with options Muster cannot read; type `/{name}` again and pick them from the list."
            )
        } else {
            format!("`/{name}` is not a Muster command any more; type `/` to see the commands.")
        };
        tell(shared, http, &target, why).await;
        log_time("command", &interaction.data.name, started);
        return;
    };
    let no_threads = no_threads(interaction.channel.as_ref().map(|c| c.kind));
    let policy = shared.policy(
        interaction.guild_id,
        interaction.member.as_deref(),
        no_threads,
    );
    let request = Request {
        platform: PLATFORM.into(),
        channel: interaction.channel_id.to_string(),
        user: super::user(&interaction.user, interaction.member.as_deref()),
        text,
        mentions,
        policy,
    };
    let (replies, ack) = run_core(shared, http, &target, request).await;
    send(shared, http, &target, replies, ack).await;
    log_time("command", &interaction.data.name, started);
}

/// Whether no thread can be opened from this channel: it is a thread already, or a DM.
fn no_threads(kind: Option<ChannelType>) -> bool {
    matches!(
        kind,
        Some(
            ChannelType::PublicThread
                | ChannelType::PrivateThread
                | ChannelType::NewsThread
                | ChannelType::Private
        )
    )
}

/// A button: run its command as the user who pressed it; on a public answer, the pressed
/// message loses its buttons.
pub async fn component(shared: &Shared, http: &Http, interaction: &ComponentInteraction) {
    let started = Instant::now();
    let target = Target::Component(interaction);
    let Some(command) = interaction.data.custom_id.strip_prefix(BUTTON_PREFIX) else {
        // Not one of Muster's buttons (another bot's, or forged): still answered.
        tell(shared, http, &target, STALE_BUTTON.into()).await;
        log_time("button", "(foreign)", started);
        return;
    };
    let user = super::user(&interaction.user, interaction.member.as_ref());
    let no_threads = no_threads(interaction.channel.as_ref().map(|c| c.kind));
    let policy = shared.policy(
        interaction.guild_id,
        interaction.member.as_ref(),
        no_threads,
    );
    if let Some(new) = command.strip_prefix(THREAD).map(str::trim) {
        thread(shared, http, interaction, new, user, policy).await;
        log_time("button", THREAD, started);
        return;
    }
    let request = Request {
        platform: PLATFORM.into(),
        channel: interaction.channel_id.to_string(),
        user,
        text: command.to_string(),
        mentions: Vec::new(),
        policy,
    };
    let (replies, ack) = run_core(shared, http, &target, request).await;
    let public = replies.iter().any(is_public);
    let cleared = send(shared, http, &target, replies, ack).await;
    let pressed = interaction.message.id;
    let ephemeral = interaction
        .message
        .flags
        .is_some_and(|f| f.contains(serenity::MessageFlags::EPHEMERAL));
    // A public answer takes the buttons off the pressed message, if a newer board has not.
    if public
        && !ephemeral
        && !interaction.message.components.is_empty()
        && !cleared.contains(&pressed)
    {
        tidy::clear(http, interaction.channel_id, pressed).await;
    }
    log_time("button", command, started);
}

/// "Start it in a new thread": open a thread under the channel, run the `new` command there
/// and post its replies in the thread; the answer to the button points to the thread.
async fn thread(
    shared: &Shared,
    http: &Http,
    interaction: &ComponentInteraction,
    new: &str,
    user: User,
    policy: muster_core::desk::Policy,
) {
    let target = Target::Component(interaction);
    let name: String = thread_name(new, &user).chars().take(100).collect();
    let created = interaction
        .channel_id
        .create_thread(
            http,
            CreateThread::new(name).kind(ChannelType::PublicThread),
        )
        .await;
    let thread = match created {
        Ok(t) => t,
        Err(e) => {
            tracing::warn!("could not open a thread: {e}");
            let why = "Muster could not open a thread here (it needs the Create Public Threads permission); start the game in another channel.";
            tell(shared, http, &target, why.into()).await;
            return;
        }
    };
    let link = CreateInteractionResponseMessage::new().content(format!("<#{}>", thread.id));
    if let Err(e) = target
        .respond(http, CreateInteractionResponse::Message(link))
        .await
    {
        tracing::warn!("the thread could not be announced: {e}");
    }
    let request = Request {
        platform: PLATFORM.into(),
        channel: thread.id.to_string(),
        user,
        text: new.to_string(),
        mentions: named_users(http, new).await,
        policy: muster_core::desk::Policy {
            threads: false,
            ..policy
        },
    };
    let core = shared.core.clone();
    let replies = tokio::task::spawn_blocking(move || draw(core.handle(&request)))
        .await
        .unwrap_or_default();
    for out in plan(replies) {
        if out.ephemeral {
            // An error about the game asked for: to the user only.
            if let Err(e) = target.follow(http, followup(&out)).await {
                tracing::warn!("a reply could not be sent: {e}");
            }
            continue;
        }
        if let Err(e) = post(shared, http, thread.id, &out, None).await {
            tracing::warn!("a reply could not be sent in the thread: {e}");
        }
    }
}

/// Posts `out` in `channel` as a message of the bot's own (not an answer to an interaction):
/// text, pings, the board with its alt text, buttons. After a board or buttons, the channel's
/// older messages lose their buttons ([`tidy`]). Discord's "too many requests" is waited out.
///
/// With a `nonce` (a message stored before it is posted, posted again after a crash), Discord
/// is asked to enforce it: the same nonce within a few minutes gives back the message already
/// made instead of a second one.
pub async fn post(
    shared: &Shared,
    http: &Http,
    channel: ChannelId,
    out: &Outgoing,
    nonce: Option<&str>,
) -> serenity::Result<serenity::Message> {
    let sent = patiently(|| {
        let mut message = built!(CreateMessage::new(), out, add_file);
        if let Some(nonce) = nonce {
            message = message
                .nonce(serenity::Nonce::String(nonce.to_string()))
                .enforce_nonce(true);
        }
        channel.send_message(http, message)
    })
    .await?;
    if out.board || !out.buttons.is_empty() {
        tidy(shared, http, channel, std::future::ready(Some(sent.id))).await;
    }
    Ok(sent)
}

/// How many times a request refused with 429 (too many requests) is sent again.
const RETRIES: u32 = 3;

/// `send()`, sent again while Discord answers 429 (too many requests), up to three more
/// times, waiting 1, 2, then 4 s. serenity's rate limiter already waits these out when it is
/// on; behind an API proxy (`discord.api_url`) it is off, and this keeps a message that no one
/// will ask for again from being lost to a moment's limit.
pub async fn patiently<T, F, Fut>(mut send: F) -> serenity::Result<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = serenity::Result<T>>,
{
    let mut wait = Duration::from_secs(1);
    for _ in 0..RETRIES {
        match send().await {
            Err(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)))
                if r.status_code.as_u16() == 429 =>
            {
                // The URL of an interaction's answer carries its token: never logged.
                tracing::warn!(
                    "too many requests ({} {}); trying again in {} s",
                    r.method,
                    muster_core::telemetry::logging::scrub(&r.url),
                    wait.as_secs()
                );
                tokio::time::sleep(wait).await;
                wait *= 2;
            }
            other => return other,
        }
    }
    send().await
}

/// `replies` with their boards drawn.
pub fn draw(replies: Vec<Reply>) -> Vec<Reply> {
    for reply in &replies {
        if let Reply::Board(board) = reply {
            let _ = board.drawn();
        }
    }
    replies
}

/// The users a command names by id, with their names from Discord.
async fn named_users(http: &Http, text: &str) -> Vec<User> {
    let mut users = Vec::new();
    for word in text.split_whitespace() {
        let Ok(id) = word.parse::<u64>() else {
            continue;
        };
        if id == 0 {
            continue;
        }
        let name = match http.get_user(serenity::UserId::new(id)).await {
            Ok(u) => u.display_name().to_string(),
            Err(_) => word.to_string(),
        };
        users.push(User::new(word, &name));
    }
    users
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buttons_keep_to_discord_s_rows_and_custom_ids() {
        let mut buttons: Vec<Button> = (0..30)
            .map(|i| Button {
                label: format!("Step {i}"),
                command: format!("move s{i}"),
            })
            .collect();
        buttons.insert(
            0,
            Button {
                label: "Too long".into(),
                command: format!("move {}", "c1-c3 ".repeat(20)),
            },
        );
        let rows = serde_json::to_value(rows(&buttons)).expect("JSON");
        let rows = rows.as_array().expect("rows");
        assert_eq!(rows.len(), 5);
        for row in rows {
            let row = row["components"].as_array().expect("buttons");
            assert_eq!(row.len(), 5);
            for b in row {
                let id = b["custom_id"].as_str().expect("an id");
                assert!(id.starts_with(BUTTON_PREFIX) && id.chars().count() <= MAX_CUSTOM_ID);
            }
        }
        assert_eq!(rows[0]["components"][0]["custom_id"], "muster:move s0");
    }
}
