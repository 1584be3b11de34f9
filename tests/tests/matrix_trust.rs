//! The bot as Element and its operator see it in encrypted rooms, on a real Synapse: its device
//! signed by the account's cross-signing identity (checked from another client, through
//! `/keys/query` and by matrix-sdk's own verification), its room keys in the key backup, the
//! same identity after a restart, a bot restored onto an empty data directory from the
//! recovery key reading the boards it posted before, and no warning in a whole game's log.

use muster_tests::data_dir;
use muster_tests::matrix::Player;
use muster_tests::synapse::Synapse;
use serde_json::{Value, json};

mod matrix_play;
use matrix_play::*;

/// A client-server API call with `token`; the answer's JSON.
async fn api(
    synapse: &Synapse,
    token: &str,
    method: &str,
    path: &str,
    body: Option<Value>,
) -> Value {
    let client = reqwest::Client::new();
    let url = format!("{}{path}", synapse.url());
    let mut request = match method {
        "POST" => client.post(&url),
        _ => client.get(&url),
    }
    .header("Authorization", format!("Bearer {token}"));
    if let Some(body) = body {
        request = request
            .header("Content-Type", "application/json")
            .body(body.to_string());
    }
    let response = request.send().await.expect("Synapse answers");
    let status = response.status();
    let text = response.text().await.expect("a body");
    assert!(status.is_success(), "{method} {path}: {status} {text}");
    serde_json::from_str(&text).expect("JSON")
}

/// The bot's stored session: its device and access token.
fn session(dir: &std::path::Path) -> (String, String) {
    let text = std::fs::read_to_string(dir.join("data/matrix/session.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    (
        v["device_id"].as_str().unwrap().to_string(),
        v["access_token"].as_str().unwrap().to_string(),
    )
}

/// The bot's cross-signing keys as `/keys/query` gives them to anyone: the master key, and
/// whether `device` is signed by the self-signing key.
async fn identity(synapse: &Synapse, token: &str, user: &str, device: &str) -> (String, bool) {
    let keys = api(
        synapse,
        token,
        "POST",
        "/_matrix/client/v3/keys/query",
        Some(json!({ "device_keys": { user: [] } })),
    )
    .await;
    let only_key = |v: &Value| -> String {
        let keys = v["keys"]
            .as_object()
            .unwrap_or_else(|| panic!("no keys: {v}"));
        assert_eq!(keys.len(), 1, "{v}");
        keys.keys().next().unwrap().clone()
    };
    let master = only_key(&keys["master_keys"][user]);
    let self_signing = only_key(&keys["self_signing_keys"][user]);
    // The self-signing key is itself signed by the master key.
    assert!(
        keys["self_signing_keys"][user]["signatures"][user][&master].is_string(),
        "{keys}"
    );
    let signed = keys["device_keys"][user][device]["signatures"][user][&self_signing].is_string();
    (master, signed)
}

/// Whether `player`'s client (matrix-sdk, as Element would) finds `device` of `user` signed by
/// its owner's identity.
async fn cross_signed_for(player: &Player, user: &str, device: &str) -> bool {
    let encryption = player.client().encryption();
    let user = matrix_sdk::ruma::UserId::parse(user).unwrap();
    encryption.request_user_identity(&user).await.unwrap();
    let device: matrix_sdk::ruma::OwnedDeviceId = device.into();
    encryption
        .get_device(&user, &device)
        .await
        .unwrap()
        .is_some_and(|d| d.is_cross_signed_by_owner())
}

/// The log's warnings and errors.
fn warnings(log: &str) -> Vec<&str> {
    log.lines()
        .filter(|l| l.contains(" WARN ") || l.contains(" ERROR "))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bot_is_cross_signed_backs_its_keys_up_and_is_restored_from_its_recovery_key() {
    let t = muster_tests::matrix_bot::table().await;
    let dir = data_dir("matrix", "trust");
    let bot_id = t.bot.user_id.clone();
    let bot = start(&t.synapse, &t.bot, &dir, &[]).await;

    // The recovery key: written once where the operator finds it, for its owner only; its
    // place said in the log, never the key.
    let key_file = dir.join("data/matrix/recovery-key");
    let key = std::fs::read_to_string(&key_file)
        .expect("the recovery key is written at the first start")
        .trim()
        .to_string();
    assert!(key.len() > 40, "{key}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&key_file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    assert!(
        bot.log().contains(&key_file.display().to_string()),
        "{}",
        bot.log()
    );
    assert!(!bot.log().contains(&key));

    // Anyone's view of the bot's keys: a master and a self-signing key, the device signed.
    let (device, token) = session(&dir);
    let (master, signed) = identity(&t.synapse, &token, &bot_id, &device).await;
    assert!(
        signed,
        "the bot's device is not signed by its self-signing key"
    );
    // And as Element's crypto judges it, from alice's client.
    assert!(cross_signed_for(&t.alice, &bot_id, &device).await);

    // A whole game in an encrypted room.
    let room = open_room(&t, "Croquet", true).await;
    invite_bot(&t, &room).await;
    let mut board = challenge(&t, &room, "croquet").await;
    for mv in record(CROQUET) {
        board = play(&t, &room, &bot_id, &board, mv).await;
    }
    assert!(board.body.to_lowercase().contains("win"), "{board:?}");
    // Nothing in the log for an operator to act on, start to end.
    let log = bot.log();
    assert_eq!(warnings(&log), Vec::<&str>::new(), "{log}");

    // The key backup holds the room's keys.
    let version = api(
        &t.synapse,
        &token,
        "GET",
        "/_matrix/client/v3/room_keys/version",
        None,
    )
    .await;
    let version = version["version"]
        .as_str()
        .expect("a backup version")
        .to_string();
    let keys = api(
        &t.synapse,
        &token,
        "GET",
        &format!("/_matrix/client/v3/room_keys/keys?version={version}"),
        None,
    )
    .await;
    let sessions = keys["rooms"][&room]["sessions"].as_object();
    assert!(sessions.is_some_and(|s| !s.is_empty()), "{keys}");
    bot.stop();

    // A restart: the same device and identity, nothing made again.
    let bot = start(&t.synapse, &t.bot, &dir, &[]).await;
    assert_eq!(session(&dir).0, device);
    assert_eq!(
        identity(&t.synapse, &token, &bot_id, &device).await,
        (master.clone(), true)
    );
    assert_eq!(std::fs::read_to_string(&key_file).unwrap().trim(), key);
    assert_eq!(warnings(&bot.log()), Vec::<&str>::new(), "{}", bot.log());
    bot.stop();

    // The data directory lost: a bot started afresh with the recovery key is a new device of
    // the same identity, signed by it, and reads the boards it posted before.
    let restored = data_dir("matrix", "trust-restored");
    let bot = start(
        &t.synapse,
        &t.bot,
        &restored,
        &[("MUSTER_MATRIX_RECOVERY_KEY", key.as_str())],
    )
    .await;
    let (new_device, new_token) = session(&restored);
    assert_ne!(new_device, device);
    assert_eq!(
        identity(&t.synapse, &new_token, &bot_id, &new_device).await,
        (master, true)
    );
    assert!(cross_signed_for(&t.alice, &bot_id, &new_device).await);
    let log = bot.log();
    assert!(!log.contains(&key));
    let line = log
        .lines()
        .find(|l| l.contains("earlier encrypted messages"))
        .unwrap_or_else(|| panic!("nothing read back:\n{log}"));
    let boards: usize = line
        .split(", ")
        .last()
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(boards > 0, "{line}");
    assert!(!restored.join("data/matrix/recovery-key").exists());
    // Nothing to act on either, but one known line: the old device's reserved upload addresses
    // still count against the account's pending uploads at Synapse (for a day), so the new
    // one may find none to reserve, and says it will upload boards before their messages.
    let others: Vec<&str> = warnings(&log)
        .into_iter()
        .filter(|l| !l.contains("reserves no media address") && !l.contains("status_code: 429"))
        .collect();
    assert_eq!(others, Vec::<&str>::new(), "{log}");
    // And it plays on: a command in the old room is answered.
    let ev = t.alice.send_text(&room, "!help").await;
    answer(&t.alice, &room, &bot_id, &ev).await;
    bot.stop();
}
