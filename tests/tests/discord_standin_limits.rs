//! The REST stand-in refuses what Discord refuses, with Discord's status, code and error shape,
//! so that a suite fails where Discord would: empty and over-long messages, too many choices,
//! rows or buttons, over-long custom ids, followups before any response, second responses.
//! Requests go out raw (serenity refuses some of them before sending) and, where it can send
//! them, through serenity, which must read the errors as it reads Discord's.

use muster_tests::discord::{self, Person, StandIn};
use serde_json::{Value, json};
use serenity::all::{
    ApplicationId, ButtonStyle, CreateActionRow, CreateButton, CreateInteractionResponse,
    CreateInteractionResponseMessage, HttpBuilder, Interaction,
};

const APP: u64 = 1_500_000_000_000_000_001;
const GUILD: &str = "1500000000000000100";
const CHANNEL: &str = "1500000000000000200";

/// Sends `body` (JSON, or nothing) with `method` to `path` under the stand-in's `/api/v10`, as
/// the bot would; returns the status and the JSON answer (`Null` if none).
async fn call(standin: &StandIn, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let url = format!("{}/api/v10{path}", standin.api_url());
    let client = reqwest::Client::builder()
        .no_proxy()
        .build()
        .expect("a client");
    let method = reqwest::Method::from_bytes(method.as_bytes()).expect("a method");
    let mut request = client
        .request(method, &url)
        .header("authorization", "Bot test-token");
    if let Some(body) = body {
        request = request
            .header("content-type", "application/json")
            .body(body.to_string());
    }
    let response = request.send().await.expect("the stand-in answers");
    let status = response.status().as_u16();
    let bytes = response.bytes().await.expect("a body");
    let json = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, json)
}

/// A slash command the stand-in expects; returns its interaction.
fn expected(standin: &StandIn, name: &str) -> Value {
    let v = discord::command(name, Value::Null, &Person::new("ada"), CHANNEL, Some(GUILD));
    standin.expect_interaction(&v);
    v
}

fn callback_path(v: &Value) -> String {
    let (id, token) = (v["id"].as_str(), v["token"].as_str());
    format!(
        "/interactions/{}/{}/callback",
        id.unwrap_or(""),
        token.unwrap_or("")
    )
}

fn webhook_path(v: &Value, rest: &str) -> String {
    format!(
        "/webhooks/{APP}/{}{rest}",
        v["token"].as_str().unwrap_or("")
    )
}

/// The first error Discord lists at `path` (keys through the nested `errors`).
fn error_at<'a>(answer: &'a Value, path: &[&str]) -> &'a Value {
    let mut at = &answer["errors"];
    for key in path {
        at = &at[*key];
    }
    &at["_errors"][0]
}

/// Asserts a 50035 naming `path` with Discord's `code`.
fn assert_invalid(got: &(u16, Value), path: &[&str], code: &str) {
    assert_eq!(got.0, 400, "{:?}", got.1);
    assert_eq!(got.1["code"], 50035, "{:?}", got.1);
    assert_eq!(got.1["message"], "Invalid Form Body");
    assert_eq!(
        error_at(&got.1, path)["code"],
        code,
        "{path:?}: {:?}",
        got.1
    );
}

fn assert_empty_refused(got: &(u16, Value)) {
    let expected = json!({ "code": 50006, "message": "Cannot send an empty message" });
    assert_eq!(got, &(400, expected));
}

fn row(ids: &[String]) -> Value {
    let buttons: Vec<Value> = ids
        .iter()
        .map(|id| json!({ "type": 2, "style": 2, "custom_id": id, "label": "B" }))
        .collect();
    json!({ "type": 1, "components": buttons })
}

fn ids(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|i| format!("{prefix}{i}")).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_channel_s_history_is_at_most_a_hundred_messages_of_a_known_channel() {
    let standin = StandIn::start(APP).await;
    // The channel is known once an interaction has come from it.
    expected(&standin, "board");
    let path = |q: &str| format!("/channels/{CHANNEL}/messages{q}");
    let (status, body) = call(&standin, "GET", &path("?limit=101"), None).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        body["errors"]["limit"]["_errors"][0]["code"],
        "NUMBER_TYPE_MAX"
    );
    let (status, body) = call(&standin, "GET", &path("?limit=0"), None).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        body["errors"]["limit"]["_errors"][0]["code"],
        "NUMBER_TYPE_MIN"
    );
    let (status, body) = call(&standin, "GET", &path(""), None).await;
    assert_eq!((status, body), (200, json!([])));
    let (status, body) = call(&standin, "GET", "/channels/1/messages", None).await;
    assert_eq!((status, body["code"].clone()), (404, json!(10003)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn interaction_responses_are_refused_as_discord_refuses_them() {
    let standin = StandIn::start(APP).await;
    let message = |data: Value| Some(json!({ "type": 4, "data": data }));

    // Nothing to show, or only spaces: 50006; the interaction is still unanswered after.
    let v = expected(&standin, "board");
    for data in [
        json!({}),
        json!({ "content": "" }),
        json!({ "content": " \n ", "flags": 64 }),
    ] {
        let got = call(&standin, "POST", &callback_path(&v), message(data)).await;
        assert_empty_refused(&got);
    }
    // A followup before any response: the webhook does not exist yet.
    let got = call(
        &standin,
        "POST",
        &webhook_path(&v, ""),
        Some(json!({ "content": "hi" })),
    )
    .await;
    assert_eq!(
        got,
        (404, json!({ "code": 10015, "message": "Unknown Webhook" }))
    );
    // 2,001 characters: 50035 at data.content; 2,000 are taken.
    let long = json!({ "content": "x".repeat(2001) });
    let got = call(&standin, "POST", &callback_path(&v), message(long)).await;
    assert_invalid(&got, &["data", "content"], "BASE_TYPE_MAX_LENGTH");
    let fits = json!({ "content": "x".repeat(2000) });
    let got = call(&standin, "POST", &callback_path(&v), message(fits)).await;
    assert_eq!(got.0, 204, "{:?}", got.1);
    // A second response: 40060.
    let again = message(json!({ "content": "again" }));
    let got = call(&standin, "POST", &callback_path(&v), again).await;
    assert_eq!((got.0, &got.1["code"]), (400, &json!(40060)));

    // Followups: empty and over-long refused, as new messages are.
    let followups = webhook_path(&v, "");
    let follow = |body: Value| call(&standin, "POST", &followups, Some(body));
    assert_empty_refused(&follow(json!({ "content": "", "flags": 64 })).await);
    let got = follow(json!({ "content": "y".repeat(2001) })).await;
    assert_invalid(&got, &["content"], "BASE_TYPE_MAX_LENGTH");
    assert_eq!(follow(json!({ "content": "Only you." })).await.0, 200);

    // Components: at most 5 rows of at most 5 buttons, custom ids of 1 to 100 characters,
    // none twice.
    let cases = [
        (
            json!(
                (0..6)
                    .map(|r| row(&ids(&format!("r{r}-"), 1)))
                    .collect::<Vec<_>>()
            ),
            vec!["data", "components"],
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            json!([row(&ids("b", 6))]),
            vec!["data", "components", "0", "components"],
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            json!([row(&["x".repeat(101)])]),
            vec!["data", "components", "0", "components", "0", "custom_id"],
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            json!([row(&["a".into()]), row(&["a".into()])]),
            vec!["data", "components", "1", "components", "0", "custom_id"],
            "COMPONENT_CUSTOM_ID_DUPLICATED",
        ),
    ];
    for (components, path, code) in cases {
        let v = expected(&standin, "board");
        let data = json!({ "content": "Buttons", "components": components });
        let got = call(&standin, "POST", &callback_path(&v), message(data)).await;
        assert_invalid(&got, &path, code);
        // 5 rows of 5 with ids of 100 characters are taken.
        let full: Vec<Value> = (0..5)
            .map(|r| row(&ids(&format!("{}{r}-", "i".repeat(97)), 5)))
            .collect();
        let data = json!({ "content": "Buttons", "components": full });
        let got = call(&standin, "POST", &callback_path(&v), message(data)).await;
        assert_eq!(got.0, 204, "{:?}", got.1);
    }

    // Autocomplete: at most 25 choices, names and values of 1 to 100 characters.
    let typing = json!([{ "name": "notation", "type": 3, "value": "c", "focused": true }]);
    let choices = |n: usize, value: &str| -> Option<Value> {
        let list: Vec<Value> = (0..n)
            .map(|i| json!({ "name": format!("c{i}"), "value": format!("{value}{i}") }))
            .collect();
        Some(json!({ "type": 8, "data": { "choices": list } }))
    };
    let v = discord::autocomplete("move", typing, &Person::new("ada"), CHANNEL, Some(GUILD));
    standin.expect_interaction(&v);
    let got = call(&standin, "POST", &callback_path(&v), choices(26, "c")).await;
    assert_invalid(&got, &["data", "choices"], "BASE_TYPE_MAX_LENGTH");
    let empty_value = Some(
        json!({ "type": 8, "data": { "choices": [{ "name": "Not your turn", "value": "" }] } }),
    );
    let got = call(&standin, "POST", &callback_path(&v), empty_value).await;
    assert_invalid(
        &got,
        &["data", "choices", "0", "value"],
        "BASE_TYPE_BAD_LENGTH",
    );
    let long_value = "v".repeat(100);
    let got = call(
        &standin,
        "POST",
        &callback_path(&v),
        choices(1, &long_value),
    )
    .await;
    assert_invalid(
        &got,
        &["data", "choices", "0", "value"],
        "BASE_TYPE_BAD_LENGTH",
    );
    let got = call(&standin, "POST", &callback_path(&v), choices(25, "c")).await;
    assert_eq!(got.0, 204, "{:?}", got.1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn edits_are_refused_when_they_would_leave_a_message_empty_or_too_long() {
    let standin = StandIn::start(APP).await;
    // A deferred "thinking…" response: editing it to nothing is refused and leaves it
    // thinking; an edit with text completes it.
    let v = expected(&standin, "board");
    let got = call(
        &standin,
        "POST",
        &callback_path(&v),
        Some(json!({ "type": 5 })),
    )
    .await;
    assert_eq!(got.0, 204);
    let original = webhook_path(&v, "/messages/@original");
    let edit = |body: Value| call(&standin, "PATCH", &original, Some(body));
    assert_empty_refused(&edit(json!({ "content": "" })).await);
    let got = edit(json!({ "content": "z".repeat(2001) })).await;
    assert_invalid(&got, &["content"], "BASE_TYPE_MAX_LENGTH");
    let token = v["token"].as_str().expect("a token");
    let thinking = standin.original(token).expect("the deferred response");
    assert_eq!(thinking.flags & 128, 128, "still thinking: {thinking:?}");
    let (status, done) = edit(json!({ "content": "The board." })).await;
    assert_eq!(
        (status, done["content"].as_str()),
        (200, Some("The board."))
    );

    // A channel message: emptied, refused; its text may go when an attachment stays.
    let posted = call(
        &standin,
        "POST",
        &format!("/channels/{CHANNEL}/messages"),
        Some(json!({ "content": "A note." })),
    )
    .await;
    assert_eq!(posted.0, 200);
    let id = posted.1["id"].as_str().expect("an id");
    let path = format!("/channels/{CHANNEL}/messages/{id}");
    let got = call(&standin, "PATCH", &path, Some(json!({ "content": " " }))).await;
    assert_empty_refused(&got);
    assert_eq!(standin.message(id).expect("kept").content, "A note.");
    let got = call(
        &standin,
        "POST",
        &format!("/channels/{CHANNEL}/messages"),
        Some(json!({})),
    )
    .await;
    assert_empty_refused(&got);

    // Updating the message a button is on (type 7): checked at data, as the edit it is. The
    // fixture's board message keeps its image, so its text may go.
    let click = discord::button(
        "muster:board",
        ("1500000000000000600", CHANNEL),
        &Person::new("ada"),
        CHANNEL,
        Some(GUILD),
    );
    standin.expect_interaction(&click);
    let update = |data: Value| Some(json!({ "type": 7, "data": data }));
    let got = call(
        &standin,
        "POST",
        &callback_path(&click),
        update(json!({ "content": "w".repeat(2001) })),
    )
    .await;
    assert_invalid(&got, &["data", "content"], "BASE_TYPE_MAX_LENGTH");
    let got = call(
        &standin,
        "POST",
        &callback_path(&click),
        update(json!({ "content": "", "components": [] })),
    )
    .await;
    assert_eq!(got.0, 204, "{:?}", got.1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serenity_reads_the_refusals_as_discord_s() {
    let standin = StandIn::start(APP).await;
    let http = HttpBuilder::new("Bot test-token")
        .proxy(standin.api_url())
        .ratelimiter_disabled(true)
        .application_id(ApplicationId::new(APP))
        .build();
    let v = expected(&standin, "board");
    let Ok(Interaction::Command(cmd)) = serde_json::from_value::<Interaction>(v) else {
        panic!("a command");
    };
    let failure = |e: serenity::Error| match e {
        serenity::Error::Http(serenity::http::HttpError::UnsuccessfulRequest(r)) => r,
        other => panic!("not an unsuccessful request: {other}"),
    };
    let empty = CreateInteractionResponse::Message(CreateInteractionResponseMessage::new());
    let refused = failure(
        cmd.create_response(&http, empty)
            .await
            .expect_err("refused"),
    );
    assert_eq!(
        (refused.status_code.as_u16(), refused.error.code),
        (400, 50006)
    );
    let long_id = CreateButton::new("m".repeat(101))
        .label("Board")
        .style(ButtonStyle::Secondary);
    let buttons = CreateInteractionResponseMessage::new()
        .content("Board")
        .components(vec![CreateActionRow::Buttons(vec![long_id])]);
    let refused = failure(
        cmd.create_response(&http, CreateInteractionResponse::Message(buttons))
            .await
            .expect_err("refused"),
    );
    assert_eq!(refused.error.code, 50035);
    let paths: Vec<&str> = refused
        .error
        .errors
        .iter()
        .map(|e| e.path.as_str())
        .collect();
    assert_eq!(paths, vec!["data.components.0.components.0.custom_id"]);
    let fine = CreateInteractionResponseMessage::new().content("Board");
    cmd.create_response(&http, CreateInteractionResponse::Message(fine))
        .await
        .expect("taken once the refusals are fixed");
}
