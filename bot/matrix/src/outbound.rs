//! From the core's replies to Matrix messages. Every answer is a reply to the command (or,
//! when the command was in a thread, a message in that thread). Public text gathers into one
//! message per board: the board is an `m.image` (PNG, with its size and dimensions) whose
//! caption is the text — the move and who is to move. Users the core addresses are mentioned
//! (`m.mentions` and a pill). Private replies, errors mostly, cannot be private in a room:
//! they are a reply to the erring user that mentions him.
//!
//! The replies to a command are its receipt ([`Receipt`]), kept in the store with the change
//! the command made. Its messages go out in order, each with a transaction id made from the
//! command's event and the message's place, and the receipt records each one sent: a bot
//! restarted in the middle sends the rest, and the homeserver takes a message it already has
//! (the same transaction id from the same device) as the one it has. A board's image is
//! uploaded, and its upload answered, before the message that shows it is sent, so no message
//! ever names an image (or a thumbnail) that a client cannot load yet.
//!
//! Notices — messages no command asked for, such as reminders and timeouts
//! ([`super::notices`]) — are receipts too, kept under an id of their own ([`NOTICE`]): they
//! go out the same way, as messages of their own rather than replies.

use matrix_sdk::Room;
use matrix_sdk::ruma::events::Mentions;
use matrix_sdk::ruma::events::relation::{InReplyTo, Reply as ReplyRelation, Thread};
use matrix_sdk::ruma::events::room::message::{
    FileInfo, FileMessageEventContent, FormattedBody, ImageMessageEventContent, MessageType,
    Relation, RoomMessageEventContent,
};
use matrix_sdk::ruma::events::room::{ImageInfo, MediaSource, ThumbnailInfo};
use matrix_sdk::ruma::{
    OwnedEventId, OwnedTransactionId, OwnedUserId, TransactionId, UInt, UserId,
};

use super::PLATFORM;
use super::direct::{direct_room, is_direct};
use super::retry::{Failed, retrying};
use super::shared::Shared;
use muster_core::desk::{Board, Receipt, Reply};

/// The start of the receipt ids of notices (no command's event: their messages reply to
/// nothing).
pub use muster_core::kernel::outbox::NOTICE;

/// Where and to what an answer goes.
pub struct Context {
    room: Room,
    /// The command answered; `None` for a notice.
    event: Option<OwnedEventId>,
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
    /// Answers to the event `event` of `sender` (named `name`) in `room`, in the thread
    /// `thread` if any.
    pub fn new(
        room: &Room,
        event: OwnedEventId,
        thread: Option<OwnedEventId>,
        sender: OwnedUserId,
        name: String,
    ) -> Context {
        Context {
            room: room.clone(),
            event: Some(event),
            thread,
            sender,
            name,
        }
    }

    /// Where the answers of `receipt`, kept for the event `event` (or as a notice), go;
    /// `None` when the bot is no longer in that room or the receipt names no valid user or
    /// event.
    pub fn of(shared: &Shared, event: &str, receipt: &Receipt) -> Option<Context> {
        let room = shared
            .client
            .get_room(receipt.channel.as_str().try_into().ok()?)?;
        let event = match event.starts_with(NOTICE) {
            true => None,
            false => Some(event.try_into().ok()?),
        };
        Some(Context {
            room,
            event,
            thread: receipt.place.as_deref().and_then(|t| t.try_into().ok()),
            sender: receipt.user.id.as_str().try_into().ok()?,
            name: receipt.user.name.clone(),
        })
    }

    fn relation(
        &self,
    ) -> Option<
        Relation<matrix_sdk::ruma::events::room::message::RoomMessageEventContentWithoutRelation>,
    > {
        let event = self.event.clone()?;
        Some(match &self.thread {
            Some(root) => Relation::Thread(Thread::reply(root.clone(), event)),
            None => Relation::Reply(ReplyRelation::new(InReplyTo::new(event))),
        })
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
    /// For an animated image (a replay): a still of it (PNG), its thumbnail.
    pub poster: Option<Vec<u8>>,
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
/// private replies gather into a message addressed to the sender (one more for each further
/// board of his). Buttons have no Matrix
/// form; the core's text already says what to type.
pub fn plan(replies: Vec<Reply>, sender: (&str, &str)) -> Vec<Outgoing> {
    let mut public: Vec<Outgoing> = Vec::new();
    let mut private: Vec<Outgoing> = Vec::new();
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
            Reply::Board(board) if board.is_private() => own_board(&mut private, sender, &board),
            Reply::Board(board) => match board.drawn() {
                Ok(d) => {
                    if public.last().is_some_and(|o| o.image.is_some()) {
                        public.push(Outgoing::default());
                    }
                    let out = current(&mut public);
                    out.image = Some((d.name.clone(), d.png.clone(), d.alt.clone()));
                    out.poster = d.poster.clone();
                }
                Err(why) => {
                    let line = format!("(The board cannot be drawn: {why}.)");
                    current(&mut public).line(&line, &html(&line));
                }
            },
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
                let out = addressed(&mut private, sender);
                let first = out.body.ends_with(": ");
                if first {
                    out.body.push_str(&text);
                    out.html.push_str(&html(&text));
                } else {
                    out.line(&text, &html(&text));
                }
            }
            Reply::Link { kind, url } => current(&mut public).line(
                &format!("{}: {url}", kind.label()),
                &format!("<a href=\"{}\">{}</a>", html(&url), kind.label()),
            ),
            Reply::Buttons(_) => {}
        }
    }
    public.into_iter().chain(private).collect()
}

/// The asker's own view of a board: Matrix has no message for one member's eyes, so it goes in
/// the message addressed to him, which its text captions; a further board of his in a further
/// message (the rules' steps, each on its board).
fn own_board(private: &mut Vec<Outgoing>, sender: (&str, &str), board: &Board) {
    if private.last().is_some_and(|o| o.image.is_some()) {
        private.push(addressed_to(sender));
    }
    let out = addressed(private, sender);
    match board.drawn() {
        Ok(d) => {
            out.image = Some((d.name.clone(), d.png.clone(), d.alt.clone()));
            out.poster = d.poster.clone();
        }
        Err(why) => {
            let line = format!("(The board cannot be drawn: {why}.)");
            out.line(&line, &html(&line));
        }
    }
}

/// The newest message addressed to the sender (`id`, `name`), begun if there is none.
fn addressed<'a>(private: &'a mut Vec<Outgoing>, sender: (&str, &str)) -> &'a mut Outgoing {
    if private.is_empty() {
        private.push(addressed_to(sender));
    }
    private.last_mut().unwrap_or_else(|| unreachable!())
}

/// A message addressed to the sender (`id`, `name`): begun with his name, mentioning him.
fn addressed_to(sender: (&str, &str)) -> Outgoing {
    let mut o = Outgoing {
        body: format!("{}: ", sender.1),
        html: format!("{}: ", pill(sender.0, sender.1)),
        ..Outgoing::default()
    };
    o.mention(sender.0);
    o
}

/// A PNG's or a GIF's width and height, from its header.
pub fn png_size(image: &[u8]) -> Option<(u32, u32)> {
    if image.len() >= 10 && image.starts_with(b"GIF8") {
        let w = u16::from_le_bytes([image[6], image[7]]);
        let h = u16::from_le_bytes([image[8], image[9]]);
        return Some((w.into(), h.into()));
    }
    if image.len() < 24 || &image[..8] != b"\x89PNG\r\n\x1a\n" {
        return None;
    }
    let w = u32::from_be_bytes(image[16..20].try_into().ok()?);
    let h = u32::from_be_bytes(image[20..24].try_into().ok()?);
    Some((w, h))
}

/// The MIME type of an image the bot sends: a GIF (a replay), else a PNG (a board).
fn mime_of(image: &[u8]) -> &'static str {
    if image.starts_with(b"GIF8") {
        "image/gif"
    } else {
        "image/png"
    }
}

fn content(msgtype: MessageType, out: &Outgoing, ctx: &Context) -> RoomMessageEventContent {
    let mut content = RoomMessageEventContent::new(msgtype);
    content.relates_to = ctx.relation();
    content.mentions = Some(Mentions::with_user_ids(out.mentions.iter().cloned()));
    content
}

fn image_info(png: &[u8]) -> ImageInfo {
    let mut info = ImageInfo::new();
    info.mimetype = Some(mime_of(png).into());
    info.size = UInt::new(png.len() as u64);
    if let Some((w, h)) = png_size(png) {
        info.width = Some(w.into());
        info.height = Some(h.into());
    }
    info
}

/// The sizes, type and dimensions of `image` as a thumbnail's.
fn thumbnail_info(image: &[u8]) -> ThumbnailInfo {
    let sized = image_info(image);
    let mut info = ThumbnailInfo::new();
    info.width = sized.width;
    info.height = sized.height;
    info.mimetype = sized.mimetype;
    info.size = sized.size;
    info
}

/// Uploads `png` to the reserved address `uri`; an address that already holds it (an upload
/// finished before a restart) counts as done.
async fn upload_reserved(
    shared: &Shared,
    uri: &str,
    png: Vec<u8>,
) -> Result<(), matrix_sdk::Error> {
    use matrix_sdk::ruma::api::client::media::create_content_async;
    use matrix_sdk::ruma::api::error::ErrorKind;
    let uri = matrix_sdk::ruma::OwnedMxcUri::from(uri);
    let mime = mime_of(&png);
    let mut request = create_content_async::v3::Request::from_url(&uri, png)
        .map_err(|e| matrix_sdk::Error::UnknownError(Box::new(e)))?;
    request.content_type = Some(mime.into());
    match shared.client.send(request).await {
        Ok(_) => Ok(()),
        Err(e) if e.client_api_error_kind() == Some(&ErrorKind::CannotOverwriteMedia) => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// Sends `out` to `ctx` under the transaction id `txn`: a board's image, a file, or text.
/// `reserved`: the address reserved for a board's image in a plain room. An image is always
/// uploaded, and its upload answered, before the message that shows it is sent: a client
/// shown the message asks for its thumbnail at once, and one refused (Synapse makes the
/// thumbnails before it answers the upload) may never ask again.
async fn send_one(
    shared: &Shared,
    ctx: &Context,
    out: &Outgoing,
    txn: &TransactionId,
    reserved: Option<&str>,
) -> Result<(), matrix_sdk::Error> {
    let encrypted = encrypted(&ctx.room).await;
    let formatted = (!out.html.is_empty()).then(|| FormattedBody::html(out.html.clone()));
    let msgtype = if let Some(image) = &out.image {
        image_message(shared, out, image, formatted, reserved, encrypted).await?
    } else if let Some(file) = &out.file {
        file_message(shared, out, file, formatted, encrypted).await?
    } else {
        RoomMessageEventContent::text_html(out.body.clone(), out.html.clone()).msgtype
    };
    let message = content(msgtype, out, ctx);
    ctx.room
        .send(message)
        .with_transaction_id(txn.to_owned())
        .await?;
    Ok(())
}

/// A board's message: its image (`name`, `png`, `alt`) captioned by `out`'s text (or `alt`),
/// uploaded and answered before the message is made. In an encrypted room the image is
/// uploaded encrypted; in a plain one to the address `reserved` for it (kept in the receipt,
/// so that an upload cut short by a crash is finished at the same address), or without one as
/// a new upload. Its `info` gives the size, type and dimensions a client lays the tile out
/// with, and a thumbnail: the image itself for a board or chart (small enough already), a
/// still uploaded beside it for a replay (`out.poster`), so that no client need make one.
async fn image_message(
    shared: &Shared,
    out: &Outgoing,
    (name, png, alt): &(String, Vec<u8>, String),
    formatted: Option<FormattedBody>,
    reserved: Option<&str>,
    encrypted: bool,
) -> Result<MessageType, matrix_sdk::Error> {
    let body = if out.body.is_empty() {
        alt.clone()
    } else {
        out.body.clone()
    };
    // The image and, for a replay, its still, uploaded together; both answered before the
    // message names them.
    let (source, poster) = match &out.poster {
        Some(poster) => {
            let (source, still) = tokio::try_join!(
                uploaded(shared, png, reserved, encrypted),
                uploaded(shared, poster, None, encrypted)
            )?;
            (source, Some((still, poster.as_slice())))
        }
        None => (uploaded(shared, png, reserved, encrypted).await?, None),
    };
    let (thumb_source, thumb) = poster.unwrap_or_else(|| (source.clone(), png.as_slice()));
    let mut info = image_info(png);
    info.thumbnail_info = Some(Box::new(thumbnail_info(thumb)));
    info.thumbnail_source = Some(thumb_source);
    let mut image = match source {
        MediaSource::Plain(uri) => ImageMessageEventContent::plain(body, uri),
        MediaSource::Encrypted(file) => ImageMessageEventContent::encrypted(body, *file),
    };
    image.filename = Some(name.clone());
    image.formatted = formatted;
    image.info = Some(Box::new(info));
    Ok(MessageType::Image(image))
}

/// `bytes` (an image) uploaded and answered: encrypted in an encrypted room; in a plain one to
/// the address `reserved` for it, or as a new upload without one.
async fn uploaded(
    shared: &Shared,
    bytes: &[u8],
    reserved: Option<&str>,
    encrypted: bool,
) -> Result<MediaSource, matrix_sdk::Error> {
    let client = &shared.client;
    if encrypted {
        let file = client
            .upload_encrypted_file(&mut std::io::Cursor::new(bytes))
            .await?;
        return Ok(MediaSource::Encrypted(Box::new(file)));
    }
    if let Some(uri) = reserved {
        upload_reserved(shared, uri, bytes.to_vec()).await?;
        return Ok(MediaSource::Plain(matrix_sdk::ruma::OwnedMxcUri::from(uri)));
    }
    let response = client
        .media()
        .upload(
            &mime_of(bytes).parse().expect("a MIME type"),
            bytes.to_vec(),
            None,
        )
        .await?;
    Ok(MediaSource::Plain(response.content_uri))
}

/// A file's message: the text file (`name`, `bytes`), uploaded (encrypted in an encrypted
/// room) and captioned by `out`'s text (or its name).
async fn file_message(
    shared: &Shared,
    out: &Outgoing,
    (name, bytes): &(String, Vec<u8>),
    formatted: Option<FormattedBody>,
    encrypted: bool,
) -> Result<MessageType, matrix_sdk::Error> {
    let client = &shared.client;
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
    Ok(MessageType::File(file))
}

/// The transaction id of the `index`th message answering `event`: the same on every try and
/// after a restart, so the homeserver never posts one message twice.
pub fn transaction(event: &str, index: usize) -> OwnedTransactionId {
    format!("muster.{}.{index}", event.trim_start_matches('$')).into()
}

/// Whether `room` is end-to-end encrypted, asking the homeserver when the client does not know
/// yet (a room it has just made, before a sync has shown it).
pub(super) async fn encrypted(room: &Room) -> bool {
    match room.latest_encryption_state().await {
        Ok(state) => state.is_encrypted(),
        Err(_) => room.encryption_state().is_encrypted(),
    }
}

/// Marks a receipt as being sent, for as long as it lives: the sync loop's sending of what is
/// owed and the notices' task never send one receipt side by side.
struct Sending<'a> {
    shared: &'a Shared,
    id: String,
}

impl<'a> Sending<'a> {
    fn start(shared: &'a Shared, id: &str) -> Option<Sending<'a>> {
        let mut sending = shared.sending.lock().unwrap_or_else(|p| p.into_inner());
        sending.insert(id.to_string()).then(|| Sending {
            shared,
            id: id.to_string(),
        })
    }
}

impl Drop for Sending<'_> {
    fn drop(&mut self) {
        self.shared
            .sending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&self.id);
    }
}

/// How long (seconds) a notice for a room the client has not yet heard of waits for a sync that
/// brings the room, before it is given up.
const UNHEARD_WAIT: u64 = 600;

/// Sends what is still owed of `receipt`, kept for the event `event` (or as a notice): each
/// message in order, retried while the homeserver is away or asks the bot to slow down (with
/// the same transaction id, so a retry never posts twice), the receipt updated after each. A
/// notice to a user alone goes to his direct room, made first if need be. Returns whether
/// every message went out.
pub async fn deliver(shared: &Shared, event: &str, mut receipt: Receipt) -> bool {
    if receipt.done {
        return true;
    }
    let Some(_sending) = Sending::start(shared, event) else {
        // Being sent already: whoever sends it keeps it owed if it does not go.
        return false;
    };
    if is_direct(&receipt) && !to_direct_room(shared, event, &mut receipt).await {
        return false;
    }
    let Some(ctx) = Context::of(shared, event, &receipt) else {
        // A room found on the homeserver, made before a restart, that the client has not yet
        // heard of: the next sync brings it.
        let unheard = matrix_sdk::ruma::OwnedRoomId::try_from(receipt.channel.as_str())
            .is_ok_and(|id| shared.client.get_room(&id).is_none());
        if unheard && event.starts_with(NOTICE) && shared.now() < receipt.at + UNHEARD_WAIT {
            tracing::info!(
                "{} is not yet known to the client: {event} waits for the next sync",
                receipt.channel
            );
            shared
                .owed_later
                .store(true, std::sync::atomic::Ordering::SeqCst);
            return false;
        }
        tracing::warn!(
            "the answer to {event} in {} cannot be sent (not in that room); dropped",
            receipt.channel
        );
        receipt.done = true;
        keep(shared, event, &receipt);
        return false;
    };
    let plan = planned(&ctx, &receipt).await;
    let plain = !encrypted(&ctx.room).await;
    let mut boards = false;
    let what = format!("sending to {}", ctx.room.room_id());
    for (i, out) in plan.iter().enumerate().skip(receipt.sent) {
        let txn = transaction(event, i);
        boards |= out.image.is_some();
        let reserved = reserved_for(shared, event, &mut receipt, i, plain && out.image.is_some());
        let sent = retrying(&what, || {
            send_one(shared, &ctx, out, &txn, reserved.as_deref())
        })
        .await;
        match sent {
            // Refused for good: the message is skipped, the rest still goes.
            Ok(()) | Err(Failed::Refused) => {}
            Err(Failed::Later) => {
                shared
                    .owed_later
                    .store(true, std::sync::atomic::Ordering::SeqCst);
                return false;
            }
        }
        receipt.sent = i + 1;
        receipt.done = receipt.sent == plan.len();
        keep(shared, event, &receipt);
    }
    if !receipt.done {
        receipt.done = true;
        keep(shared, event, &receipt);
    }
    if boards {
        shared.media.top_up(shared.store(), &shared.client).await;
    }
    true
}

/// Addresses a notice to a user alone (kept for the event `event`) to his direct room, made
/// first if need be; whether it can go. With the homeserver away it stays owed for later; when
/// no direct room can be had, it is dropped.
async fn to_direct_room(shared: &Shared, event: &str, receipt: &mut Receipt) -> bool {
    match direct_room(shared, &receipt.user).await {
        Ok(room) => {
            receipt.channel = room;
            receipt.direct = false;
            keep(shared, event, receipt);
            true
        }
        Err(Failed::Later) => {
            shared
                .owed_later
                .store(true, std::sync::atomic::Ordering::SeqCst);
            false
        }
        // A notice with words for its game's room (a reminder) is said there instead.
        Err(Failed::Refused) if receipt.direct && !receipt.fallback.is_empty() => {
            tracing::warn!(
                "no direct room with {}: the notice {event} goes to {} instead",
                receipt.user.id,
                receipt.channel
            );
            receipt.replies = std::mem::take(&mut receipt.fallback);
            receipt.direct = false;
            keep(shared, event, receipt);
            true
        }
        Err(Failed::Refused) => {
            tracing::warn!(
                "the notice {event} to {} cannot be sent (no direct room); dropped",
                receipt.user.id
            );
            receipt.done = true;
            keep(shared, event, receipt);
            false
        }
    }
}

/// The messages of `receipt`'s replies, for `ctx`; the boards are drawn here, off the async
/// threads.
async fn planned(ctx: &Context, receipt: &Receipt) -> Vec<Outgoing> {
    let (replies, sender, name) = (
        receipt.replies.clone(),
        ctx.sender.to_string(),
        ctx.name.clone(),
    );
    tokio::task::spawn_blocking(move || plan(replies, (&sender, &name)))
        .await
        .unwrap_or_default()
}

/// The address reserved for the board of message `i`. A board in a plain room
/// (`plain_board`) goes beside its upload, to an address written into the receipt before the
/// message names it (or kept there from a try before a restart).
fn reserved_for(
    shared: &Shared,
    event: &str,
    receipt: &mut Receipt,
    i: usize,
    plain_board: bool,
) -> Option<String> {
    let now = super::media::wall_now();
    if receipt
        .media
        .get(&i)
        .is_some_and(|(_, at)| now >= at + super::media::FINISHABLE_FOR)
    {
        // Reserved so long ago that the homeserver has let it go.
        receipt.media.remove(&i);
    }
    if plain_board
        && !receipt.media.contains_key(&i)
        && let Some(r) = shared.media.take(shared.store(), now)
    {
        receipt.media.insert(i, (r.uri, r.at));
        keep(shared, event, receipt);
    }
    receipt.media.get(&i).map(|(uri, _)| uri.clone())
}

/// Stores how far `receipt` has been sent.
pub(super) fn keep(shared: &Shared, event: &str, receipt: &Receipt) {
    if let Err(e) = shared
        .store()
        .set_receipt(PLATFORM, event, Some(&receipt.encode()))
    {
        tracing::error!("cannot note the answer to {event} as sent: {e}");
    }
}
