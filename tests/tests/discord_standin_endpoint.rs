//! Discord's signed HTTP interactions, with no bot: the stand-in's signatures verify with
//! serenity's verifier, and the stand-in posts interactions to an HTTP endpoint as Discord does,
//! counting the answer the endpoint gives inline as the interaction's response.

use muster_tests::discord::{self, Person, STEP, StandIn, within};
use serde_json::json;
use serenity::interactions_endpoint::Verifier;

const APP: u64 = 1_400_000_000_000_000_001;
const DM: &str = "1400000000000000250";

#[test]
fn signatures_verify_with_serenity() {
    let key = discord::public_key_hex();
    let bytes: Vec<u8> = (0..32)
        .map(|i| u8::from_str_radix(&key[2 * i..2 * i + 2], 16).expect("hex"))
        .collect();
    let verifier = Verifier::try_new(bytes.try_into().expect("32 bytes")).expect("a valid key");
    let body = discord::ping().to_string();
    let signature = discord::sign(body.as_bytes(), "1717000000");
    assert!(
        verifier
            .verify(&signature, "1717000000", body.as_bytes())
            .is_ok()
    );
    assert!(
        verifier
            .verify(&signature, "1717000001", body.as_bytes())
            .is_err()
    );
    assert!(verifier.verify(&signature, "1717000000", b"{}").is_err());
}

/// A one-request-per-connection HTTP interactions endpoint, as a bot in HTTP mode has: checks
/// Discord's signature (401 if bad), answers PING with PONG and anything else inline.
async fn endpoint() -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let url = format!(
        "http://{}/interactions",
        listener.local_addr().expect("address")
    );
    let key = discord::public_key_hex();
    let key: Vec<u8> = (0..32)
        .map(|i| u8::from_str_radix(&key[2 * i..2 * i + 2], 16).expect("hex"))
        .collect();
    let verifier = Verifier::try_new(key.try_into().expect("32 bytes")).expect("a key");
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            let mut request = Vec::new();
            let mut buffer = [0u8; 4096];
            let (head, body) = loop {
                let n = stream.read(&mut buffer).await.unwrap_or(0);
                if n == 0 {
                    break (String::new(), Vec::new());
                }
                request.extend_from_slice(&buffer[..n]);
                let Some(end) = request.windows(4).position(|w| w == b"\r\n\r\n") else {
                    continue;
                };
                let head = String::from_utf8_lossy(&request[..end]).to_lowercase();
                let length: usize = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .map_or(0, |v| v.trim().parse().unwrap_or(0));
                if request.len() >= end + 4 + length {
                    break (head, request[end + 4..end + 4 + length].to_vec());
                }
            };
            let header = |name: &str| {
                head.lines()
                    .find_map(|l| l.strip_prefix(name))
                    .map(str::trim)
                    .unwrap_or_default()
                    .to_owned()
            };
            let signature = header("x-signature-ed25519:");
            let timestamp = header("x-signature-timestamp:");
            let (status, answer) = if verifier.verify(&signature, &timestamp, &body).is_err() {
                ("401 Unauthorized", json!({ "error": "bad signature" }))
            } else {
                let interaction: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
                if interaction["type"] == 1 {
                    ("200 OK", json!({ "type": 1 }))
                } else {
                    (
                        "200 OK",
                        json!({ "type": 4, "data": { "content": "Hello", "flags": 64 } }),
                    )
                }
            };
            let answer = answer.to_string();
            let response = format!(
                "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{answer}",
                answer.len()
            );
            let _ = stream.write_all(response.as_bytes()).await;
        }
    });
    url
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn interactions_posted_to_an_http_endpoint_are_signed_and_inline_answers_count() {
    let standin = StandIn::start(APP).await;
    let url = endpoint().await;
    let (status, body) = within("ping", standin.post_interaction(&url, discord::ping())).await;
    assert_eq!((status, body.as_str()), (200, r#"{"type":1}"#));
    let forged = discord::ping().to_string();
    let bad = discord::sign(b"something else", "1717000000");
    let (status, _) = within(
        "forged",
        discord::post_with_signature(&url, forged.as_bytes(), &bad, "1717000000"),
    )
    .await;
    assert_eq!(status, 401);

    let ada = Person::new("ada");
    let v = discord::command("help", serde_json::Value::Null, &ada, DM, None);
    let (status, _) = within("command", standin.post_interaction(&url, v.clone())).await;
    assert_eq!(status, 200);
    let token = v["token"].as_str().expect("a token");
    let inline = standin
        .wait_for("the inline answer", |r| r.callback_type() == Some(4), STEP)
        .await;
    assert_eq!(
        (inline.query.as_str(), inline.authorization.as_deref()),
        ("inline", None)
    );
    assert!(inline.path.ends_with(&format!("/{token}/callback")));
    let original = standin
        .original(token)
        .expect("the answer is the original response");
    assert_eq!(
        (
            original.content.as_str(),
            original.channel_id.as_str(),
            original.flags
        ),
        ("Hello", DM, 64)
    );
    // No PONG was recorded.
    assert_eq!(standin.requests().len(), 1);
}
