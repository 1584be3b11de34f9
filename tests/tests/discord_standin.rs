//! The Discord stand-ins (`muster_tests::discord`) against real serenity, no bot needed: the
//! fixtures are complete interactions, the REST stand-in answers what serenity sends as Discord
//! does, and a serenity client connects to the gateway stand-in and receives dispatches. Signed
//! HTTP interactions are tests/tests/discord_standin_endpoint.rs's; a bare gateway client,
//! tests/tests/discord_standin_gateway.rs's.

use std::future::IntoFuture;
use std::sync::Arc;

use muster_tests::discord::{self, Person, STEP, StandIn, within};
use serde_json::json;
use serenity::all::{
    ApplicationId, AutocompleteChoice, ButtonStyle, ChannelId, ChannelType, ClientBuilder, Command,
    CommandOptionType, Context, CreateActionRow, CreateAllowedMentions, CreateAttachment,
    CreateAutocompleteResponse, CreateButton, CreateCommand, CreateCommandOption,
    CreateInteractionResponse, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    CreateThread, EditInteractionResponse, EditMessage, EventHandler, GatewayIntents, GetMessages,
    GuildId, Http, HttpBuilder, Interaction, MessageFlags, MessageId, Ready, UserId,
};
use serenity::gateway::ShardManager;
use tokio::sync::mpsc;

/// Not the fixtures' application id: the stand-in puts its own in what it dispatches.
const APP: u64 = 1_400_000_000_000_000_001;
const GUILD: &str = "1400000000000000100";
const CHANNEL: &str = "1400000000000000200";
const DM: &str = "1400000000000000250";

fn http(standin: &StandIn) -> Http {
    HttpBuilder::new("Bot test-token")
        .proxy(standin.api_url())
        .ratelimiter_disabled(true)
        .application_id(ApplicationId::new(APP))
        .build()
}

/// A PNG header (signature and IHDR) for a `width` × `height` image, and some bytes after.
fn png(width: u32, height: u32) -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    bytes.extend(width.to_be_bytes());
    bytes.extend(height.to_be_bytes());
    bytes.extend([
        8, 6, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0, b'I', b'E', b'N', b'D',
    ]);
    bytes
}

fn parse(v: &serde_json::Value) -> Interaction {
    serde_json::from_value(v.clone())
        .unwrap_or_else(|e| panic!("serenity rejects the interaction: {e}\n{v:#}"))
}

/// The status and Discord error code of a failed serenity request.
fn failure(e: serenity::Error) -> (u16, isize) {
    match e {
        serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) => {
            (r.status_code.as_u16(), r.error.code)
        }
        other => panic!("not an unsuccessful request: {other}"),
    }
}

#[test]
fn fixtures_and_builders_are_interactions_serenity_accepts() {
    for name in [
        "guild-command",
        "dm-command",
        "autocomplete",
        "button",
        "ping",
    ] {
        let kind = match parse(&discord::fixture(name)) {
            Interaction::Command(_) => "command",
            Interaction::Autocomplete(_) => "autocomplete",
            Interaction::Component(_) => "component",
            Interaction::Ping(_) => "ping",
            _ => "other",
        };
        let expected = match name {
            "guild-command" | "dm-command" => "command",
            "button" => "component",
            other => other,
        };
        assert_eq!(kind, expected, "{name}");
    }

    let ada = Person::new("ada");
    let bruno = Person::new("bruno");
    let options = json!([
        { "name": "game", "type": 4, "value": 1 },
        { "name": "opponent", "type": 6, "value": bruno.id },
    ]);
    let in_guild = discord::command("new", options.clone(), &ada, CHANNEL, Some(GUILD));
    let again = discord::command("new", options.clone(), &ada, CHANNEL, Some(GUILD));
    assert_ne!(in_guild["id"], again["id"]);
    assert_ne!(in_guild["token"], again["token"]);
    let Interaction::Command(c) = parse(&in_guild) else {
        panic!("a command")
    };
    assert_eq!(c.data.name, "new");
    assert_eq!(c.user.id.to_string(), ada.id);
    assert_eq!(c.guild_id.map(|g| g.to_string()).as_deref(), Some(GUILD));
    assert_eq!(c.channel_id.to_string(), CHANNEL);
    let bruno_id = UserId::new(bruno.id.parse().expect("an id"));
    assert_eq!(c.data.resolved.users[&bruno_id].name, "bruno");
    assert!(c.data.resolved.members.contains_key(&bruno_id));

    let in_dm = discord::command("new", options, &ada, DM, None);
    let Interaction::Command(c) = parse(&in_dm) else {
        panic!("a command")
    };
    assert!(c.guild_id.is_none() && c.member.is_none());
    assert_eq!(c.user.id.to_string(), ada.id);
    assert_eq!(c.data.resolved.users[&bruno_id].name, "bruno");

    // The focused option nested in a subcommand, in a guild and in a DM.
    let nested = json!([{ "name": "lanko", "type": 1, "options": [
        { "name": "notation", "type": 3, "value": "c1-", "focused": true },
    ] }]);
    for guild in [Some(GUILD), None] {
        let v = discord::autocomplete("move", nested.clone(), &ada, CHANNEL, guild);
        let Interaction::Autocomplete(a) = parse(&v) else {
            panic!("autocomplete")
        };
        let focused = a.data.autocomplete().expect("a focused option");
        assert_eq!((focused.name, focused.value), ("notation", "c1-"));
    }

    let click = discord::button(
        "muster:board",
        ("1400000000000000600", CHANNEL),
        &bruno,
        CHANNEL,
        Some(GUILD),
    );
    let Interaction::Component(b) = parse(&click) else {
        panic!("a component")
    };
    assert_eq!(b.data.custom_id, "muster:board");
    assert_eq!(b.message.id.to_string(), "1400000000000000600");
    assert_eq!(b.message.attachments[0].filename, "board.png");
    assert_eq!(b.user.id.to_string(), bruno.id);
    assert!(matches!(parse(&discord::ping()), Interaction::Ping(_)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rest_stand_in_answers_serenity_as_discord_does() {
    let standin = StandIn::start(APP).await;
    let http = http(&standin);
    let ada = Person::new("ada");
    let channel = ChannelId::new(CHANNEL.parse().expect("an id"));

    // Startup calls.
    let me = within("users/@me", http.get_current_user())
        .await
        .expect("current user");
    assert!(me.bot && me.id.get() == APP);
    let info = within("application", http.get_current_application_info())
        .await
        .expect("app");
    assert_eq!(info.id.get(), APP);
    assert_eq!(
        info.owner.expect("an owner").id.to_string(),
        discord::owner().id
    );
    assert_eq!(info.verify_key, discord::public_key_hex());
    let gateway = within("gateway", http.get_gateway())
        .await
        .expect("gateway");
    assert_eq!(gateway.url, standin.gateway_url());
    let bot_gateway = within("gateway/bot", http.get_bot_gateway())
        .await
        .expect("gateway/bot");
    assert_eq!(bot_gateway.shards, 1);

    // Command registration.
    let new = CreateCommand::new("new")
        .description("Start a game here")
        .add_option(
            CreateCommandOption::new(CommandOptionType::Integer, "game", "Which game")
                .required(true),
        );
    let registered = within(
        "global commands",
        Command::set_global_commands(&http, vec![new.clone()]),
    )
    .await
    .expect("commands registered");
    assert_eq!(registered.len(), 1);
    assert_eq!(
        (
            registered[0].name.as_str(),
            registered[0].application_id.get()
        ),
        ("new", APP)
    );
    assert_eq!(registered[0].options[0].name, "game");
    let guild = GuildId::new(GUILD.parse().expect("an id"));
    let in_guild = within("guild commands", guild.set_commands(&http, vec![new])).await;
    assert_eq!(in_guild.expect("guild commands")[0].guild_id, Some(guild));
    let put = standin
        .wait_for(
            "PUT commands",
            |r| r.is("PUT", &format!("/applications/{APP}/commands")),
            STEP,
        )
        .await;
    assert_eq!(put.json[0]["name"], "new");
    assert_eq!(put.authorization.as_deref(), Some("Bot test-token"));

    // A command answered with a board: multipart PNG, components, allowed mentions.
    let v = discord::command(
        "new",
        json!([{ "name": "game", "type": 4, "value": 1 }]),
        &ada,
        CHANNEL,
        Some(GUILD),
    );
    standin.expect_interaction(&v);
    let Interaction::Command(cmd) = parse(&v) else {
        panic!("a command")
    };
    let board = png(480, 480);
    let ada_id = UserId::new(ada.id.parse().expect("an id"));
    let reply = CreateInteractionResponseMessage::new()
        .content(format!("{} to move.", ada.mention()))
        .add_file(CreateAttachment::bytes(board.clone(), "board.png"))
        .components(vec![CreateActionRow::Buttons(vec![
            CreateButton::new("muster:board")
                .label("Board")
                .style(ButtonStyle::Secondary),
        ])])
        .allowed_mentions(CreateAllowedMentions::new().users(vec![ada_id]));
    within(
        "callback",
        cmd.create_response(&http, CreateInteractionResponse::Message(reply)),
    )
    .await
    .expect("the callback is accepted");
    let callback = standin
        .wait_for("the callback", |r| r.callback_type() == Some(4), STEP)
        .await;
    assert!(
        callback
            .path
            .ends_with(&format!("/interactions/{}/{}/callback", cmd.id, cmd.token))
    );
    assert!(
        callback
            .content_type
            .starts_with("multipart/form-data; boundary=")
    );
    assert_eq!(callback.status, 204);
    assert_eq!(
        callback.files,
        vec![("files[0]".to_owned(), "board.png".to_owned(), board.clone())]
    );
    assert_eq!(
        callback.json["data"]["attachments"][0]["filename"],
        "board.png"
    );

    let original = within("@original", cmd.get_response(&http))
        .await
        .expect("the original");
    assert_eq!(original.channel_id, channel);
    assert_eq!(original.content, format!("<@{}> to move.", ada.id));
    assert_eq!(original.mentions[0].id, ada_id);
    assert_eq!(original.attachments.len(), 1);
    let attachment = &original.attachments[0];
    assert_eq!(
        (
            attachment.filename.as_str(),
            attachment.width,
            attachment.height
        ),
        ("board.png", Some(480), Some(480))
    );
    assert_eq!(attachment.content_type.as_deref(), Some("image/png"));
    assert_eq!(attachment.size as usize, board.len());
    assert_eq!(original.components.len(), 1);
    assert_eq!(original.author.id.get(), APP);
    let stored = standin.message(&original.id.to_string()).expect("stored");
    assert_eq!(
        stored.attachments,
        vec![("board.png".to_owned(), board.clone())]
    );
    assert_eq!(
        stored.components[0]["components"][0]["custom_id"],
        "muster:board"
    );
    assert_eq!(stored.allowed_mentions["users"][0], ada.id);
    assert_eq!(
        stored.interaction_token.as_deref(),
        Some(cmd.token.as_str())
    );
    assert_eq!(stored.flags, 0);

    // Answering twice is refused, as Discord does.
    let again =
        CreateInteractionResponse::Message(CreateInteractionResponseMessage::new().content("x"));
    let refused = within("second callback", cmd.create_response(&http, again))
        .await
        .expect_err("refused");
    assert_eq!(failure(refused), (400, 40060));

    // An ephemeral followup.
    let followup = CreateInteractionResponseFollowup::new()
        .content("Only you can see this")
        .ephemeral(true);
    let sent = within("followup", cmd.create_followup(&http, followup))
        .await
        .expect("followup");
    assert_ne!(sent.id, original.id);
    assert!(sent.flags.expect("flags").contains(MessageFlags::EPHEMERAL));
    assert_eq!(
        standin.message(&sent.id.to_string()).expect("stored").flags,
        64
    );

    // Removing the buttons with a channel message edit keeps the attachment.
    let edit = EditMessage::new().components(vec![]);
    let edited = within("edit", channel.edit_message(&http, original.id, edit))
        .await
        .expect("edited");
    assert!(edited.components.is_empty() && edited.edited_timestamp.is_some());
    assert_eq!(edited.attachments.len(), 1);
    let stored = standin.message(&original.id.to_string()).expect("stored");
    assert_eq!(stored.components, json!([]));
    assert_eq!(stored.attachments.len(), 1);

    // A new board replaces the old attachment.
    let next = png(480, 480).into_iter().chain([9, 9]).collect::<Vec<u8>>();
    let edit = EditInteractionResponse::new()
        .new_attachment(CreateAttachment::bytes(next.clone(), "board.png"));
    let edited = within("edit original", cmd.edit_response(&http, edit))
        .await
        .expect("edited");
    assert_eq!(edited.attachments.len(), 1);
    assert_eq!(
        standin
            .message(&original.id.to_string())
            .expect("stored")
            .attachments[0]
            .1,
        next
    );

    // The channel's history, newest first, without the ephemeral followup (an ephemeral
    // message is nobody's history).
    let history = within(
        "history",
        channel.messages(&http, GetMessages::new().limit(10)),
    )
    .await
    .expect("history");
    assert!(history.iter().all(|m| m.id != sent.id), "{history:?}");
    assert!(history.iter().any(|m| m.id == original.id));
    assert!(
        history.windows(2).all(|w| w[0].id > w[1].id),
        "newest first"
    );
    let older = GetMessages::new().before(original.id).limit(100);
    let before = within("history before", channel.messages(&http, older))
        .await
        .expect("history before");
    assert!(before.iter().all(|m| m.id < original.id));

    // Unknown messages and routes answer as Discord does.
    let unknown = channel.edit_message(&http, MessageId::new(1), EditMessage::new().content("x"));
    assert_eq!(
        failure(within("unknown message", unknown).await.expect_err("404")),
        (404, 10008)
    );
    let ephemeral = channel.edit_message(&http, sent.id, EditMessage::new().content("x"));
    assert_eq!(
        failure(within("ephemeral", ephemeral).await.expect_err("404")),
        (404, 10008)
    );
    let nowhere = within("unknown route", http.get_channel_invites(channel))
        .await
        .expect_err("404");
    assert_eq!(failure(nowhere), (404, 0));
    let recorded = standin
        .wait_for(
            "GET invites",
            |r| r.is("GET", &format!("/channels/{CHANNEL}/invites")),
            STEP,
        )
        .await;
    assert_eq!(recorded.status, 404);
    // A channel is read back as Discord gives it; one it does not have is refused.
    let read = within("a channel", http.get_channel(channel))
        .await
        .expect("the channel");
    let serenity::all::Channel::Guild(read) = read else {
        panic!("a server's channel: {read:?}");
    };
    assert_eq!(read.guild_id.to_string(), GUILD);
    let unknown = within("no channel", http.get_channel(ChannelId::new(42)))
        .await
        .expect_err("404");
    assert_eq!(failure(unknown), (404, 10003));

    // A thread in the command's channel.
    let thread = CreateThread::new("Game 1").kind(ChannelType::PublicThread);
    let thread = within("thread", channel.create_thread(&http, thread))
        .await
        .expect("a thread");
    assert_eq!(
        (thread.name.as_str(), thread.kind, thread.parent_id),
        ("Game 1", ChannelType::PublicThread, Some(channel))
    );
    assert_eq!(thread.guild_id, guild);
    assert_eq!(standin.threads().len(), 1);

    // Deferred: a loading message, which the first followup edits.
    let v = discord::command("board", serde_json::Value::Null, &ada, CHANNEL, Some(GUILD));
    standin.expect_interaction(&v);
    let Interaction::Command(cmd) = parse(&v) else {
        panic!("a command")
    };
    let defer =
        CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(true));
    within("defer", cmd.create_response(&http, defer))
        .await
        .expect("deferred");
    assert_eq!(
        standin
            .original(&cmd.token)
            .expect("a loading message")
            .flags,
        64 | 128
    );
    let followup = CreateInteractionResponseFollowup::new().content("Here it is");
    let sent = within("followup after defer", cmd.create_followup(&http, followup))
        .await
        .expect("sent");
    let original = standin.original(&cmd.token).expect("the original");
    assert_eq!(
        (
            sent.id.to_string(),
            original.content.as_str(),
            original.flags
        ),
        (original.id.clone(), "Here it is", 64)
    );

    // A button on the board updates that message.
    let board_message = standin
        .messages()
        .into_iter()
        .find(|m| m.content.contains("to move"))
        .expect("the board");
    let click = discord::button("muster:board", &board_message, &ada, CHANNEL, Some(GUILD));
    standin.expect_interaction(&click);
    let Interaction::Component(component) = parse(&click) else {
        panic!("a component")
    };
    assert_eq!(component.message.attachments[0].filename, "board.png");
    let update = CreateInteractionResponse::UpdateMessage(
        CreateInteractionResponseMessage::new().content("Moved."),
    );
    within("update", component.create_response(&http, update))
        .await
        .expect("updated");
    let updated = standin.message(&board_message.id).expect("still there");
    assert_eq!(updated.content, "Moved.");
    // serenity always sends `"attachments": []` with an update (serenity issue #3068), and
    // Discord then drops the message's attachments.
    assert!(updated.attachments.is_empty());
    // Acknowledging (deferred update) then editing @original keeps them.
    let board = png(480, 480);
    let keep = EditMessage::new().attachments(
        serenity::all::EditAttachments::new()
            .add(CreateAttachment::bytes(board.clone(), "board.png")),
    );
    within(
        "board back",
        channel.edit_message(
            &http,
            MessageId::new(board_message.id.parse().expect("an id")),
            keep,
        ),
    )
    .await
    .expect("edited");
    let click = discord::button(
        "muster:board",
        standin.message(&board_message.id).expect("there"),
        &ada,
        CHANNEL,
        Some(GUILD),
    );
    standin.expect_interaction(&click);
    let Interaction::Component(component) = parse(&click) else {
        panic!("a component")
    };
    within(
        "acknowledge",
        component.create_response(&http, CreateInteractionResponse::Acknowledge),
    )
    .await
    .expect("acknowledged");
    let edit = EditInteractionResponse::new().content("Moved again.");
    let edited = within(
        "edit after acknowledge",
        component.edit_response(&http, edit),
    )
    .await
    .expect("edited");
    assert_eq!(edited.id.to_string(), board_message.id);
    let updated = standin.message(&board_message.id).expect("still there");
    assert_eq!(
        (updated.content.as_str(), updated.attachments.len()),
        ("Moved again.", 1)
    );

    // Autocomplete is recorded.
    let v = discord::autocomplete(
        "move",
        json!([{ "name": "notation", "type": 3, "value": "c", "focused": true }]),
        &ada,
        CHANNEL,
        Some(GUILD),
    );
    standin.expect_interaction(&v);
    let Interaction::Autocomplete(a) = parse(&v) else {
        panic!("autocomplete")
    };
    let choices = CreateAutocompleteResponse::new()
        .set_choices(vec![AutocompleteChoice::new("c1-c3", "c1-c3")]);
    within(
        "autocomplete",
        a.create_response(&http, CreateInteractionResponse::Autocomplete(choices)),
    )
    .await
    .expect("choices");
    let answered = standin
        .wait_for("choices", |r| r.callback_type() == Some(8), STEP)
        .await;
    assert_eq!(answered.json["data"]["choices"][0]["name"], "c1-c3");

    // An interaction the stand-in was never told of is unknown.
    let Interaction::Command(stranger) =
        parse(&discord::command("new", json!([]), &ada, CHANNEL, None))
    else {
        panic!()
    };
    let pong =
        CreateInteractionResponse::Message(CreateInteractionResponseMessage::new().content("?"));
    let refused = within("unknown interaction", stranger.create_response(&http, pong))
        .await
        .expect_err("404");
    assert_eq!(failure(refused), (404, 10062));

    // Signed posts carry the interaction (here to the stand-in, which wants a bot token).
    let ping = discord::ping();
    let (status, _) = within(
        "signed post",
        discord::post_signed(&format!("{}/api/v10/endpoint", standin.api_url()), &ping),
    )
    .await;
    assert_eq!(status, 401);
    let posted = standin
        .wait_for("the signed post", |r| r.path.ends_with("/endpoint"), STEP)
        .await;
    assert_eq!(posted.json, ping);
}

/// Forwards what the client receives.
struct Forward(mpsc::UnboundedSender<Result<Interaction, Ready>>);

#[serenity::async_trait]
impl EventHandler for Forward {
    async fn ready(&self, _: Context, ready: Ready) {
        let _ = self.0.send(Err(ready));
    }

    async fn interaction_create(&self, _: Context, interaction: Interaction) {
        let _ = self.0.send(Ok(interaction));
    }
}

/// A serenity client on the stand-in, started; its events come out of the receiver.
async fn client(standin: &StandIn) -> (Events, Arc<ShardManager>, tokio::task::JoinHandle<()>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let builder = ClientBuilder::new_with_http(http(standin), GatewayIntents::GUILDS)
        .event_handler(Forward(tx));
    let mut client = within("the client", builder.into_future())
        .await
        .expect("a client");
    let shards = Arc::clone(&client.shard_manager);
    let task = tokio::spawn(async move {
        let _ = client.start().await;
    });
    (rx, shards, task)
}

type Events = mpsc::UnboundedReceiver<Result<Interaction, Ready>>;

async fn next(events: &mut Events) -> Result<Interaction, Ready> {
    within("a gateway event", events.recv())
        .await
        .expect("the client is running")
}

async fn stop(shards: Arc<ShardManager>, task: tokio::task::JoinHandle<()>) {
    within("shutting the shards down", shards.shutdown_all()).await;
    if tokio::time::timeout(STEP, task).await.is_err() {
        panic!("the client did not stop");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_serenity_client_connects_and_receives_dispatches() {
    let standin = StandIn::start(APP).await;
    let (mut events, shards, task) = client(&standin).await;
    standin.wait_ready(STEP).await;
    let Err(ready) = next(&mut events).await else {
        panic!("READY comes first")
    };
    assert_eq!(
        (ready.user.id.get(), ready.application.id.get()),
        (APP, APP)
    );
    assert_eq!(standin.connections(), 1);
    assert_eq!(
        standin.identifies()[0]["intents"],
        GatewayIntents::GUILDS.bits()
    );
    standin
        .wait_for("GET gateway", |r| r.is("GET", "/api/v10/gateway"), STEP)
        .await;

    let ada = Person::new("ada");
    let v = discord::command(
        "new",
        json!([{ "name": "game", "type": 4, "value": 2 }]),
        &ada,
        CHANNEL,
        Some(GUILD),
    );
    standin.dispatch(v.clone()).await;
    let Ok(Interaction::Command(c)) = next(&mut events).await else {
        panic!("a command")
    };
    assert_eq!(
        (c.token.as_str(), c.application_id.get()),
        (v["token"].as_str().expect("a token"), APP)
    );
    assert_eq!(c.user.id.to_string(), ada.id);

    // The fixtures as they are (their application id replaced).
    for name in ["button", "autocomplete", "dm-command", "guild-command"] {
        standin.dispatch(discord::fixture(name)).await;
        let Ok(interaction) = next(&mut events).await else {
            panic!("{name}: not an interaction")
        };
        assert_eq!(
            interaction.token(),
            discord::fixture(name)["token"].as_str().expect("a token"),
            "{name}"
        );
    }
    // A dispatched component's message is known to the stand-in.
    assert!(standin.message("1300000000000000600").is_some());

    // A restarted bot makes a second session, which gets the dispatches.
    stop(shards, task).await;
    let (mut events, shards, task) = client(&standin).await;
    standin.wait_connections(2, STEP).await;
    assert!(next(&mut events).await.is_err(), "READY comes first");
    let v = discord::command("board", serde_json::Value::Null, &ada, CHANNEL, Some(GUILD));
    standin.dispatch(v.clone()).await;
    let Ok(interaction) = next(&mut events).await else {
        panic!("an interaction")
    };
    assert_eq!(interaction.token(), v["token"].as_str().expect("a token"));
    stop(shards, task).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_with_an_enforced_nonce_is_made_once_as_discord_makes_it() {
    use serenity::all::{CreateMessage, Nonce};
    let standin = StandIn::start(APP).await;
    let http = http(&standin);
    // A direct-message channel (the stand-in knows channels it was told of or opened).
    let ada = Person::new("ada");
    let ada = UserId::new(ada.id.parse().expect("an id"));
    let channel = within("a direct channel", ada.create_dm_channel(&http))
        .await
        .expect("opened")
        .id;
    let send = |nonce: &str, enforce: bool| {
        channel.send_message(
            &http,
            CreateMessage::new()
                .content(format!("reminder {nonce}"))
                .nonce(Nonce::String(nonce.to_string()))
                .enforce_nonce(enforce),
        )
    };
    // The same nonce, enforced: the first message comes back, no second is made.
    let first = within("a message", send("reminder.g12.3600", true))
        .await
        .expect("sent");
    let again = within("the same message", send("reminder.g12.3600", true))
        .await
        .expect("sent");
    assert_eq!(again.id, first.id);
    let made = |text: &str| {
        standin
            .messages()
            .iter()
            .filter(|m| m.content == text)
            .count()
    };
    assert_eq!(made("reminder reminder.g12.3600"), 1);
    // Not enforced, a nonce is only carried: a second message is made.
    within("a message", send("reminder.g12.60", false))
        .await
        .expect("sent");
    within("another", send("reminder.g12.60", false))
        .await
        .expect("sent");
    assert_eq!(made("reminder reminder.g12.60"), 2);
    // Longer than 25 characters: refused, as Discord refuses it.
    let long = within("a long nonce", send(&"n".repeat(26), true)).await;
    assert!(long.is_err(), "{long:?}");
}
