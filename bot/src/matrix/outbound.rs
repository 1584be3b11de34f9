//! From the core's replies to Matrix messages. Every answer is a reply to the command (or,
//! when the command was in a thread, a message in that thread). Public text gathers into one
//! message per board: the board is an `m.image` (PNG, with its size and dimensions) whose
//! caption is the text — the move and who is to move. Users the core addresses are mentioned
//! (`m.mentions` and a pill). Private replies, errors mostly, cannot be private in a room:
//! they are a reply to the erring user that mentions him.
//!
//! A board's upload runs beside the message that shows it: the media address is reserved
//! ahead ([`MediaPool`]), so the message does not wait for the upload. In encrypted rooms the
//! image is encrypted and uploaded first, as Matrix requires.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use matrix_sdk::Client;
use matrix_sdk::Room;
use matrix_sdk::media::PreallocatedMxcUri;
use matrix_sdk::ruma::events::Mentions;
use matrix_sdk::ruma::events::relation::{InReplyTo, Reply as ReplyRelation, Thread};
use matrix_sdk::ruma::events::room::ImageInfo;
use matrix_sdk::ruma::events::room::message::{
    FileInfo, FileMessageEventContent, FormattedBody, ImageMessageEventContent, MessageType,
    Relation, RoomMessageEventContent,
};
use matrix_sdk::ruma::{
    OwnedEventId, OwnedTransactionId, OwnedUserId, TransactionId, UInt, UserId,
};

use super::Shared;
use super::inbound::Message;
use crate::core::Reply;

/// Where and to what an answer goes.
pub struct Context {
    room: Room,
    event: OwnedEventId,
    thread: Option<OwnedEventId>,
    sender: OwnedUserId,
    name: String,
}

/// The name `user` shows in `room`: his display name there, or his id's localpart.
pub async fn member_name(room: &Room, user: &UserId) -> String {
    match room.get_member_no_sync(user).await {
        Ok(Some(member)) => member.name().to_string(),
        _ => user.localpart().to_string(),
    }
}

impl Context {
    /// Answers to `message` in `room`.
    pub async fn new(room: &Room, message: &Message) -> Context {
        Context {
            room: room.clone(),
            event: message.event_id.clone(),
            thread: message.thread.clone(),
            sender: message.sender.clone(),
            name: member_name(room, &message.sender).await,
        }
    }

    /// The name the sender shows in the room.
    pub fn name(&self) -> &str {
        &self.name
    }

    fn relation(
        &self,
    ) -> Relation<matrix_sdk::ruma::events::room::message::RoomMessageEventContentWithoutRelation>
    {
        match &self.thread {
            Some(root) => Relation::Thread(Thread::reply(root.clone(), self.event.clone())),
            None => Relation::Reply(ReplyRelation::new(InReplyTo::new(self.event.clone()))),
        }
    }
}

/// One message to send.
#[derive(Default, Debug, PartialEq, Eq)]
pub struct Outgoing {
    /// The text (a board's caption).
    pub body: String,
    /// The same as HTML, with pills for mentioned users.
    pub html: String,
    /// Users to notify.
    pub mentions: Vec<OwnedUserId>,
    /// A board: file name, PNG, description.
    pub image: Option<(String, Vec<u8>, String)>,
    /// A file: name and content.
    pub file: Option<(String, Vec<u8>)>,
}

impl Outgoing {
    fn line(&mut self, plain: &str, html: &str) {
        if !self.body.is_empty() {
            self.body.push('\n');
            self.html.push_str("<br>");
        }
        self.body.push_str(plain);
        self.html.push_str(html);
    }

    fn mention(&mut self, id: &str) {
        if let Ok(id) = UserId::parse(id)
            && !self.mentions.contains(&id)
        {
            self.mentions.push(id);
        }
    }
}

/// HTML for a line of the core's text: escaped, with `code` spans.
pub fn html(text: &str) -> String {
    let escaped = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;");
    let paired = escaped.matches('`').count().is_multiple_of(2);
    let mut out = String::new();
    for (i, part) in escaped.split('`').enumerate() {
        match (i % 2 == 1, paired) {
            (true, true) => {
                out.push_str("<code>");
                out.push_str(part);
                out.push_str("</code>");
            }
            (_, false) if i > 0 => {
                out.push('`');
                out.push_str(part);
            }
            _ => out.push_str(part),
        }
    }
    out.replace('\n', "<br>")
}

fn pill(id: &str, name: &str) -> String {
    format!("<a href=\"https://matrix.to/#/{id}\">{}</a>", html(name))
}

/// Maps the core's replies to messages for a command from `sender` (`id`, `name`): public
/// replies gather into messages (a new one for each further board or file, which the text
/// before it captions), and
/// private replies gather into one message addressed to the sender. Buttons have no Matrix
/// form; the core's text already says what to type.
pub fn plan(replies: Vec<Reply>, sender: (&str, &str)) -> Vec<Outgoing> {
    let mut public: Vec<Outgoing> = Vec::new();
    let mut private: Option<Outgoing> = None;
    fn current(list: &mut Vec<Outgoing>) -> &mut Outgoing {
        if list.is_empty() {
            list.push(Outgoing::default());
        }
        list.last_mut().unwrap_or_else(|| unreachable!())
    }
    for reply in replies {
        match reply {
            Reply::Text(text) => current(&mut public).line(&text, &html(&text)),
            Reply::Mention { user, text } => {
                let out = current(&mut public);
                out.line(
                    &format!("{}: {text}", user.name),
                    &format!("{}: {}", pill(&user.id, &user.name), html(&text)),
                );
                out.mention(&user.id);
            }
            Reply::Board { png, alt, name, .. } => {
                if public.last().is_some_and(|o| o.image.is_some()) {
                    public.push(Outgoing::default());
                }
                current(&mut public).image = Some((name, png, alt));
            }
            Reply::File { name, content } => {
                // The text before it is its caption, as for a board.
                if public
                    .last()
                    .is_some_and(|o| o.image.is_some() || o.file.is_some())
                {
                    public.push(Outgoing::default());
                }
                current(&mut public).file = Some((name, content.into_bytes()));
            }
            Reply::Private(text) => {
                let out = private.get_or_insert_with(|| {
                    let mut o = Outgoing {
                        body: format!("{}: ", sender.1),
                        html: format!("{}: ", pill(sender.0, sender.1)),
                        ..Outgoing::default()
                    };
                    o.mention(sender.0);
                    o
                });
                let first = out.body.ends_with(": ") && out.image.is_none();
                if first {
                    out.body.push_str(&text);
                    out.html.push_str(&html(&text));
                } else {
                    out.line(&text, &html(&text));
                }
            }
            Reply::Buttons(_) => {}
        }
    }
    public.into_iter().chain(private).collect()
}

/// A PNG's width and height, from its header.
pub fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    if png.len() < 24 || &png[..8] != b"\x89PNG\r\n\x1a\n" {
        return None;
    }
    let w = u32::from_be_bytes(png[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(png[20..24].try_into().ok()?);
    Some((w, h))
}

/// Media addresses reserved ahead (Matrix's asynchronous upload): a board's message can name
/// its image before the upload has finished.
#[derive(Clone)]
pub struct MediaPool {
    client: Client,
    ready: Arc<Mutex<Vec<(PreallocatedMxcUri, Instant)>>>,
}

/// How many addresses are kept in reserve.
const RESERVE: usize = 4;
/// How long a reserved address is used.
const RESERVATION_AGE: Duration = Duration::from_secs(3600);

impl MediaPool {
    /// An empty pool for `client`.
    pub fn new(client: Client) -> MediaPool {
        MediaPool {
            client,
            ready: Arc::new(Mutex::new(Vec::new())),
        }
    }

    fn take(&self) -> Option<PreallocatedMxcUri> {
        let mut ready = self.ready.lock().ok()?;
        while let Some((uri, at)) = ready.pop() {
            // Homeservers keep a reservation for a day (Synapse) or more: an hour is safe.
            if at.elapsed() < RESERVATION_AGE {
                return Some(uri);
            }
        }
        None
    }

    /// Tops the reserve up in the background (a failure only means the next board's upload
    /// goes before its message).
    pub fn refill(&self) {
        let pool = self.clone();
        tokio::spawn(async move { pool.top_up().await });
    }

    async fn top_up(&self) {
        let missing = self
            .ready
            .lock()
            .map_or(0, |r| RESERVE.saturating_sub(r.len()));
        for _ in 0..missing {
            match self.client.media().create_content_uri().await {
                Ok(uri) => {
                    if let Ok(mut r) = self.ready.lock() {
                        r.push((uri, Instant::now()));
                    }
                }
                Err(_) => return,
            }
        }
    }
}

fn content(msgtype: MessageType, out: &Outgoing, ctx: &Context) -> RoomMessageEventContent {
    let mut content = RoomMessageEventContent::new(msgtype);
    content.relates_to = Some(ctx.relation());
    content.mentions = Some(Mentions::with_user_ids(out.mentions.iter().cloned()));
    content
}

fn image_info(png: &[u8]) -> ImageInfo {
    let mut info = ImageInfo::new();
    info.mimetype = Some("image/png".into());
    info.size = UInt::new(png.len() as u64);
    if let Some((w, h)) = png_size(png) {
        info.width = Some(w.into());
        info.height = Some(h.into());
    }
    info
}

async fn send_one(
    shared: &Shared,
    ctx: &Context,
    out: &Outgoing,
    txn: &TransactionId,
) -> Result<(), matrix_sdk::Error> {
    let client = &shared.client;
    let encrypted = ctx.room.encryption_state().is_encrypted();
    let formatted = (!out.html.is_empty()).then(|| FormattedBody::html(out.html.clone()));
    if let Some((name, png, alt)) = &out.image {
        let body = if out.body.is_empty() {
            alt.clone()
        } else {
            out.body.clone()
        };
        let mut upload = None;
        let mut image = if encrypted {
            let file = client
                .upload_encrypted_file(&mut std::io::Cursor::new(png.as_slice()))
                .await?;
            ImageMessageEventContent::encrypted(body, file)
        } else if let Some(uri) = shared.media.take() {
            let mxc = uri.uri.clone();
            let media = client.media();
            let data = png.clone();
            upload = Some(async move {
                media
                    .upload_preallocated(uri, &"image/png".parse().expect("a MIME type"), data)
                    .await
            });
            ImageMessageEventContent::plain(body, mxc)
        } else {
            let response = client
                .media()
                .upload(
                    &"image/png".parse().expect("a MIME type"),
                    png.clone(),
                    None,
                )
                .await?;
            ImageMessageEventContent::plain(body, response.content_uri)
        };
        image.filename = Some(name.clone());
        image.formatted = formatted;
        image.info = Some(Box::new(image_info(png)));
        let message = content(MessageType::Image(image), out, ctx);
        let send = ctx.room.send(message).with_transaction_id(txn.to_owned());
        match upload {
            Some(upload) => {
                let (sent, uploaded) = tokio::join!(send.into_future(), upload);
                sent?;
                uploaded?;
            }
            None => {
                send.await?;
            }
        }
        return Ok(());
    }
    if let Some((name, bytes)) = &out.file {
        let mime: mime::Mime = "text/plain".parse().expect("a MIME type");
        let body = if out.body.is_empty() {
            name.clone()
        } else {
            out.body.clone()
        };
        let mut file = if encrypted {
            let f = client
                .upload_encrypted_file(&mut std::io::Cursor::new(bytes.as_slice()))
                .await?;
            FileMessageEventContent::encrypted(body, f)
        } else {
            let response = client.media().upload(&mime, bytes.clone(), None).await?;
            FileMessageEventContent::plain(body, response.content_uri)
        };
        file.formatted = formatted;
        let mut info = FileInfo::new();
        info.mimetype = Some("text/plain".into());
        info.size = UInt::new(bytes.len() as u64);
        file.info = Some(Box::new(info));
        file.filename = Some(name.clone());
        let message = content(MessageType::File(file), out, ctx);
        ctx.room
            .send(message)
            .with_transaction_id(txn.to_owned())
            .await?;
        return Ok(());
    }
    let text = RoomMessageEventContent::text_html(out.body.clone(), out.html.clone());
    let message = content(text.msgtype, out, ctx);
    ctx.room
        .send(message)
        .with_transaction_id(txn.to_owned())
        .await?;
    Ok(())
}

/// Sends the replies as messages, each retried while the homeserver is away (with the same
/// transaction id, so a retry never posts twice).
pub async fn send(shared: &Shared, ctx: &Context, replies: Vec<Reply>) {
    let sender = ctx.sender.to_string();
    let plan = plan(replies, (&sender, &ctx.name));
    let boards = plan.iter().any(|o| o.image.is_some());
    for (i, out) in plan.iter().enumerate() {
        let txn: OwnedTransactionId =
            format!("muster.{}.{i}", ctx.event.as_str().trim_start_matches('$')).into();
        let mut pause = Duration::from_millis(250);
        for attempt in 0.. {
            match send_one(shared, ctx, out, &txn).await {
                Ok(()) => break,
                Err(e) if attempt < 8 => {
                    eprintln!(
                        "muster: Matrix: sending to {} failed ({e}); trying again in {} ms",
                        ctx.room.room_id(),
                        pause.as_millis()
                    );
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(10));
                }
                Err(e) => {
                    eprintln!(
                        "muster: Matrix: gave up sending to {}: {e}",
                        ctx.room.room_id()
                    );
                    break;
                }
            }
        }
    }
    if boards {
        shared.media.refill();
    }
}
