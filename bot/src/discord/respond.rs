//! From an interaction to the core and back: the core runs off the async threads (deferring
//! the reply if it takes long), and its replies become Discord messages — public text, the
//! board PNG with its alt text, buttons, pings limited to the users the core mentions, and
//! ephemeral messages for private replies. Only the newest message with buttons in a channel
//! keeps them.

use std::time::Instant;

use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, ChannelId, ChannelType, CommandInteraction, ComponentInteraction, CreateActionRow,
    CreateAllowedMentions, CreateAttachment, CreateButton, CreateInteractionResponse,
    CreateInteractionResponseFollowup, CreateInteractionResponseMessage, CreateMessage,
    CreateThread, EditInteractionResponse, EditMessage, Http, MessageId,
};

use super::{PLATFORM, Shared};
use crate::core::{Button, Reply, Request, THREAD, User, thread_name};
use crate::store::ChannelKey;

/// Discord's longest message.
const MAX_CONTENT: usize = 2000;
/// The prefix of a button's custom id; the rest is the command it runs.
const BUTTON_PREFIX: &str = "muster:";
/// The channel note naming the newest message with buttons (`channel/message`).
const BUTTONS_NOTE: &str = "discord.buttons";

/// One message to send.
#[derive(Default, Debug)]
pub struct Outgoing {
    /// The text.
    pub content: String,
    /// Files: name, bytes, description (alt text).
    pub files: Vec<(String, Vec<u8>, Option<String>)>,
    /// Buttons.
    pub buttons: Vec<Button>,
    /// Users this message may ping.
    pub pings: Vec<u64>,
    /// Only the requesting user sees it.
    pub ephemeral: bool,
    /// Whether it shows a board.
    pub board: bool,
}

/// Maps the core's replies to messages: public replies gather into messages (a new one for
/// each further board), private replies into ephemeral ones; buttons go with the message
/// before them; long text is split at line ends.
pub fn plan(replies: Vec<Reply>) -> Vec<Outgoing> {
    let mut public: Vec<Outgoing> = Vec::new();
    let mut private: Vec<Outgoing> = Vec::new();
    let mut last_private = false;
    fn current(list: &mut Vec<Outgoing>, ephemeral: bool) -> &mut Outgoing {
        if list.is_empty() {
            list.push(Outgoing {
                ephemeral,
                ..Default::default()
            });
        }
        list.last_mut().unwrap_or_else(|| unreachable!())
    }
    fn add_line(out: &mut Outgoing, line: &str) {
        if !out.content.is_empty() {
            out.content.push('\n');
        }
        out.content.push_str(line);
    }
    for reply in replies {
        match reply {
            Reply::Text(text) => {
                add_line(current(&mut public, false), &text);
                last_private = false;
            }
            Reply::Mention { user, text } => {
                let out = current(&mut public, false);
                add_line(out, &format!("<@{}> {text}", user.id));
                if let Ok(id) = user.id.parse::<u64>()
                    && !out.pings.contains(&id)
                {
                    out.pings.push(id);
                }
                last_private = false;
            }
            Reply::Board { png, alt, name, .. } => {
                if public.last().is_some_and(|o| o.board) {
                    public.push(Outgoing::default());
                }
                let out = current(&mut public, false);
                out.files.push((name, png, Some(alt)));
                out.board = true;
                last_private = false;
            }
            Reply::File { name, content } => {
                current(&mut public, false)
                    .files
                    .push((name, content.into_bytes(), None));
                last_private = false;
            }
            Reply::Private(text) => {
                add_line(current(&mut private, true), &text);
                last_private = true;
            }
            Reply::Buttons(buttons) => {
                let out = if last_private {
                    current(&mut private, true)
                } else {
                    current(&mut public, false)
                };
                for b in buttons {
                    if !out.buttons.iter().any(|x| x.command == b.command) {
                        out.buttons.push(b);
                    }
                }
            }
        }
    }
    public
        .into_iter()
        .chain(private)
        .flat_map(split_long)
        .collect()
}

/// Splits a message whose text is too long at line ends; files and buttons go with the last.
fn split_long(mut out: Outgoing) -> Vec<Outgoing> {
    if out.content.chars().count() <= MAX_CONTENT {
        return vec![out];
    }
    let mut parts: Vec<String> = vec![String::new()];
    for line in out.content.lines() {
        let line: String = line.chars().take(MAX_CONTENT).collect();
        let last = parts.last_mut().unwrap_or_else(|| unreachable!());
        if last.chars().count() + line.chars().count() + 1 > MAX_CONTENT {
            parts.push(line);
        } else {
            if !last.is_empty() {
                last.push('\n');
            }
            last.push_str(&line);
        }
    }
    let n = parts.len();
    parts
        .into_iter()
        .enumerate()
        .map(|(i, content)| {
            if i + 1 == n {
                Outgoing {
                    content,
                    ..std::mem::take(&mut out)
                }
            } else {
                Outgoing {
                    content,
                    ephemeral: out.ephemeral,
                    pings: out.pings.clone(),
                    ..Default::default()
                }
            }
        })
        .collect()
}

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

fn rows(buttons: &[Button]) -> Vec<CreateActionRow> {
    buttons
        .chunks(5)
        .take(5)
        .map(|chunk| {
            CreateActionRow::Buttons(
                chunk
                    .iter()
                    .map(|b| {
                        let id: String = format!("{BUTTON_PREFIX}{}", b.command)
                            .chars()
                            .take(100)
                            .collect();
                        CreateButton::new(id)
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
            .components(rows(&out.buttons));
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

impl Target<'_> {
    fn channel(&self) -> ChannelId {
        either!(self, i => i.channel_id)
    }

    async fn defer(&self, http: &Http) -> serenity::Result<()> {
        match self {
            Target::Command(i) => i.defer(http).await,
            // Not serenity's `defer` (a deferred *update* of the pressed message): the answer
            // is a new message, like a command's.
            Target::Component(i) => {
                let defer =
                    CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new());
                i.create_response(http, defer).await
            }
        }
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

/// Runs `request` in the core off the async threads; if it takes longer than the configured
/// time, the interaction is deferred first (Discord wants a first response within 3 s).
/// Returns the replies and whether the response was deferred.
async fn run_core(
    shared: &Shared,
    http: &Http,
    target: &Target<'_>,
    request: Request,
) -> (Vec<Reply>, bool) {
    let core = shared.core.clone();
    let mut job = tokio::task::spawn_blocking(move || core.handle(&request));
    let mut deferred = false;
    let finished = if shared.defer_after.is_zero() {
        None
    } else {
        tokio::time::timeout(shared.defer_after, &mut job)
            .await
            .ok()
    };
    let result = match finished {
        Some(r) => r,
        None => {
            if let Err(e) = target.defer(http).await {
                eprintln!("discord: deferring a reply failed: {e}");
            }
            deferred = true;
            job.await
        }
    };
    match result {
        Ok(replies) => (replies, deferred),
        Err(e) => {
            eprintln!("discord: the command failed: {e}");
            (
                vec![Reply::Private(
                    "Muster failed while handling this command; nothing was changed. Try again."
                        .into(),
                )],
                deferred,
            )
        }
    }
}

/// Sends the replies to `target`; remembers the newest message with buttons in the channel and
/// takes the buttons off the one before.
async fn send(
    shared: &Shared,
    http: &Http,
    target: &Target<'_>,
    replies: Vec<Reply>,
    deferred: bool,
) {
    let mut outgoing = plan(replies);
    if outgoing.is_empty() {
        outgoing.push(Outgoing {
            content: "\u{2705}".into(),
            ephemeral: true,
            ..Default::default()
        });
    }
    let channel = target.channel();
    let mut first = true;
    for out in &outgoing {
        let sent = if first && !deferred {
            let r = target
                .respond(http, CreateInteractionResponse::Message(message(out)))
                .await;
            match r {
                Ok(()) if !out.ephemeral && (out.board || !out.buttons.is_empty()) => {
                    target.original(http).await.map(Some)
                }
                Ok(()) => Ok(None),
                Err(e) => Err(e),
            }
        } else if first && !out.ephemeral {
            target.edit_original(http, edit(out)).await.map(Some)
        } else {
            if first {
                // A deferred response is public: an ephemeral first reply replaces it.
                let _ = target.delete_original(http).await;
            }
            target.follow(http, followup(out)).await.map(Some)
        };
        first = false;
        match sent {
            Ok(Some(m)) if !out.ephemeral && (out.board || !out.buttons.is_empty()) => {
                newest_buttons(shared, http, channel, m.id, !out.buttons.is_empty()).await;
            }
            Ok(_) => {}
            Err(e) => eprintln!("discord: a reply could not be sent: {e}"),
        }
    }
}

/// Takes the buttons off the channel's previous message with buttons, and remembers `message`
/// if it has some.
async fn newest_buttons(
    shared: &Shared,
    http: &Http,
    channel: ChannelId,
    message: MessageId,
    has_buttons: bool,
) {
    let key = ChannelKey::new(PLATFORM, channel.to_string());
    let store = shared.core.store();
    let previous = store.note(&key, BUTTONS_NOTE).ok().flatten();
    if let Some(prev) = previous.as_deref().and_then(parse_note)
        && prev != (channel, message)
    {
        clear_buttons(http, prev.0, prev.1).await;
    }
    let value = has_buttons.then(|| format!("{channel}/{message}"));
    if let Err(e) = store.set_note(&key, BUTTONS_NOTE, value.as_deref()) {
        eprintln!("discord: cannot remember the board message: {e}");
    }
}

fn parse_note(note: &str) -> Option<(ChannelId, MessageId)> {
    let (c, m) = note.split_once('/')?;
    Some((
        ChannelId::new(c.parse().ok()?),
        MessageId::new(m.parse().ok()?),
    ))
}

async fn clear_buttons(http: &Http, channel: ChannelId, message: MessageId) {
    let edit = EditMessage::new().components(vec![]);
    if let Err(e) = channel.edit_message(http, message, edit).await {
        eprintln!("discord: could not remove the buttons of message {message}: {e}");
    }
}

/// A slash command: translate, run, reply.
pub async fn command(shared: &Shared, http: &Http, interaction: &CommandInteraction) {
    let started = Instant::now();
    let target = Target::Command(interaction);
    let Some((text, mentions)) = super::commands::text(&shared.defs, &interaction.data) else {
        let replies = vec![Reply::Private(format!(
            "`/{}` is not a Muster command any more; type `/` to see the commands.",
            interaction.data.name
        ))];
        send(shared, http, &target, replies, false).await;
        return;
    };
    let no_threads = no_threads(interaction.channel.as_ref().map(|c| c.kind));
    let request = Request {
        platform: PLATFORM.into(),
        channel: interaction.channel_id.to_string(),
        user: super::user(&interaction.user, interaction.member.as_deref()),
        text,
        mentions,
        policy: shared.policy(
            interaction.guild_id,
            interaction.member.as_deref(),
            no_threads,
        ),
    };
    let (replies, deferred) = run_core(shared, http, &target, request).await;
    send(shared, http, &target, replies, deferred).await;
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
    let Some(command) = interaction.data.custom_id.strip_prefix(BUTTON_PREFIX) else {
        return;
    };
    let target = Target::Component(interaction);
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
    let (replies, deferred) = run_core(shared, http, &target, request).await;
    let public = replies
        .iter()
        .any(|r| !matches!(r, Reply::Private(_) | Reply::Buttons(_)));
    let key = ChannelKey::new(PLATFORM, interaction.channel_id.to_string());
    let noted = || {
        let note = shared.core.store().note(&key, BUTTONS_NOTE).ok().flatten();
        note.as_deref().and_then(parse_note)
    };
    let pressed = (interaction.channel_id, interaction.message.id);
    let before = noted();
    send(shared, http, &target, replies, deferred).await;
    let ephemeral = interaction
        .message
        .flags
        .is_some_and(|f| f.contains(serenity::MessageFlags::EPHEMERAL));
    if public && !ephemeral && !interaction.message.components.is_empty() {
        // A newer message with buttons has already taken them off the pressed one if it was
        // the channel's newest; otherwise they come off here.
        let after = noted();
        if before != Some(pressed) {
            clear_buttons(http, pressed.0, pressed.1).await;
        } else if after == Some(pressed) {
            clear_buttons(http, pressed.0, pressed.1).await;
            let _ = shared.core.store().set_note(&key, BUTTONS_NOTE, None);
        }
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
    policy: crate::core::Policy,
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
            eprintln!("discord: could not open a thread: {e}");
            let replies = vec![Reply::Private(
                "Muster could not open a thread here (it needs the Create Public Threads permission); start the game in another channel."
                    .into(),
            )];
            send(shared, http, &target, replies, false).await;
            return;
        }
    };
    let _ = target
        .respond(
            http,
            CreateInteractionResponse::Message(
                CreateInteractionResponseMessage::new().content(format!("<#{}>", thread.id)),
            ),
        )
        .await;
    let request = Request {
        platform: PLATFORM.into(),
        channel: thread.id.to_string(),
        user,
        text: new.to_string(),
        mentions: named_users(http, new).await,
        policy: crate::core::Policy {
            threads: false,
            ..policy
        },
    };
    let core = shared.core.clone();
    let replies = tokio::task::spawn_blocking(move || core.handle(&request))
        .await
        .unwrap_or_default();
    for out in plan(replies).iter().filter(|o| !o.ephemeral) {
        let m = built!(CreateMessage::new(), out, add_file);
        match thread.id.send_message(http, m).await {
            Ok(sent) if out.board || !out.buttons.is_empty() => {
                newest_buttons(shared, http, thread.id, sent.id, !out.buttons.is_empty()).await;
            }
            Ok(_) => {}
            Err(e) => eprintln!("discord: a reply could not be sent in the thread: {e}"),
        }
    }
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
        users.push(User {
            id: word.to_string(),
            name,
        });
    }
    users
}

/// With `MUSTER_DISCORD_TIMINGS` set, logs how long an interaction took to answer.
pub fn log_time(kind: &str, what: &str, started: Instant) {
    if std::env::var_os("MUSTER_DISCORD_TIMINGS").is_some() {
        eprintln!(
            "discord: {kind} {what} answered in {:.2} ms",
            started.elapsed().as_secs_f64() * 1000.0
        );
    }
}

/// Answers an autocomplete interaction.
pub async fn autocomplete(shared: &Shared, http: &Http, interaction: &CommandInteraction) {
    let started = Instant::now();
    let typed = super::commands::focused(&interaction.data);
    let user = super::user(&interaction.user, interaction.member.as_deref());
    let choices =
        super::commands::move_choices(shared, &interaction.channel_id.to_string(), &user, &typed);
    let response = serenity::CreateAutocompleteResponse::new().set_choices(choices);
    if let Err(e) = interaction
        .create_response(http, CreateInteractionResponse::Autocomplete(response))
        .await
    {
        eprintln!("discord: autocomplete could not be answered: {e}");
    }
    log_time("autocomplete", &interaction.data.name, started);
}
