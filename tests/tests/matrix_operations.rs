//! Muster on Matrix run as a service, end to end with a real Synapse behind a proxy: the
//! operations listener's readiness follows the sync through a homeserver outage, the metrics
//! count the commands, a finished game's replay arrives as a GIF, `RUST_LOG=debug`
//! (matrix-sdk's events included) never shows the password or the access token, and SIGTERM
//! ends the bot with status 0 within 10 seconds.

use std::time::{Duration, Instant};

use muster_tests::matrix_bot::{WAIT, spawn_on, table};
use muster_tests::proxy::Proxy;
use muster_tests::{assert_no_secret, data_dir, free_addr, http, muster_binary, wait_http};

/// Waits until `/readyz` answers `status`; returns its body. The bot asks the homeserver every
/// 10 s while a sync is pending.
async fn readiness(addr: &str, status: u16, log: impl Fn() -> String) -> String {
    wait_http(addr, "/readyz", status, Duration::from_secs(WAIT + 15), log).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_follows_the_sync_no_secret_is_logged_and_sigterm_exits_0_within_10s() {
    let t = table().await;
    let dir = data_dir("matrix-operations", "ready");
    let proxy = Proxy::start(&t.synapse.url()).await;
    let (via, ops) = (proxy.url(), free_addr());
    let mut bot = spawn_on(
        &muster_binary!(),
        &t.synapse,
        &t.bot,
        &dir,
        &[
            ("MUSTER_MATRIX_HOMESERVER", &via),
            ("RUST_LOG", "debug"),
            ("MUSTER_OPS_LISTEN", &ops),
        ],
        None,
    );
    bot.listening().await;
    let ready = readiness(&ops, 200, || bot.log()).await;
    assert!(ready.contains("matrix: ready"), "{ready}");
    let bob = t.bob.user_id();
    let room = t.alice.create_room("operations", &[&bob], false).await;
    t.bob.join(&room).await;
    t.alice.invite(&room, &t.bot.user_id).await;
    t.alice.wait_until_joined(&room, &t.bot.user_id, WAIT).await;
    let from_bot = |s: &muster_tests::matrix::Seen| s.sender == t.bot.user_id;
    let mark = t.alice.mark();
    t.alice.send_text(&room, "!help").await;
    t.alice.wait_for_after(mark, &room, WAIT, from_bot).await;

    // The homeserver goes away: a command wakes the sync in flight, the bot answers it (the
    // answer is owed), and the next sync fails: not ready, with the reason.
    proxy.set_away(true);
    let mark = t.alice.mark();
    t.alice.send_text(&room, "!rules croquet").await;
    let down = readiness(&ops, 503, || bot.log()).await;
    assert!(
        down.contains("matrix: the homeserver does not answer"),
        "{down}"
    );
    assert_eq!(http(&ops, "GET", "/healthz"), (200, "ok\n".into()));
    proxy.set_away(false);
    readiness(&ops, 200, || bot.log()).await;
    // The owed answer is sent once the homeserver is back.
    t.alice.wait_for_after(mark, &room, WAIT, from_bot).await;

    // A game ended by a resignation: its replay follows, an m.image GIF of the start and each
    // decision.
    for (who, says) in [
        (&t.alice, "!new croquet bob"),
        (&t.bob, "!accept"),
        (&t.alice, "!move 3"),
        (&t.bob, "!move 4"),
    ] {
        let mark = t.alice.mark();
        who.send_text(&room, says).await;
        t.alice.wait_for_after(mark, &room, WAIT, from_bot).await;
    }
    t.alice.send_text(&room, "!resign").await;
    let replay = t
        .bob
        .wait_for(&room, WAIT, |s| {
            s.sender == t.bot.user_id && s.filename.as_deref() == Some("g0-replay.gif")
        })
        .await;
    let image = replay.image.clone().expect("an m.image");
    assert_eq!(image.mimetype.as_deref(), Some("image/gif"), "{replay:?}");
    let gif = t.bob.download(&image.url).await;
    assert_eq!(image.size, Some(gif.len() as u64));
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(&gif[..]).expect("a GIF");
    assert_eq!(
        (
            Some(u64::from(decoder.width())),
            Some(u64::from(decoder.height()))
        ),
        (image.width, image.height)
    );
    let mut frames = 0;
    while decoder.read_next_frame().expect("a frame").is_some() {
        frames += 1;
    }
    assert_eq!(frames, 3, "the start and two decisions");

    let (status, metrics) = http(&ops, "GET", "/metrics");
    assert_eq!(status, 200);
    for line in [
        "muster_commands_total{command=\"help\",outcome=\"answered\",platform=\"matrix\"} 1",
        "muster_commands_total{command=\"rules\",outcome=\"answered\",platform=\"matrix\"} 1",
    ] {
        assert!(metrics.contains(line), "{line} in:\n{metrics}");
    }

    // SIGTERM: out of the long poll, exit 0, within 10 seconds.
    let pid = bot.child.id().to_string();
    let asked = Instant::now();
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status();
    let status = loop {
        if let Some(status) = bot.child.try_wait().expect("the bot's status") {
            break status;
        }
        assert!(
            asked.elapsed() < Duration::from_secs(10),
            "still running 10 s after SIGTERM:\n{}",
            bot.log()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_eq!(status.code(), Some(0), "{}", bot.log());

    // No secret in the log, matrix-sdk's debug events and all.
    let log = bot.log();
    assert!(
        log.contains(" DEBUG matrix_sdk"),
        "no matrix-sdk event in the log"
    );
    let session =
        std::fs::read_to_string(dir.join("data/matrix/session.json")).expect("the saved session");
    let session: serde_json::Value = serde_json::from_str(&session).expect("JSON");
    let token = session["access_token"].as_str().expect("an access token");
    assert_no_secret(&log, &[token, t.bot.password.as_str()]);
    let _ = std::fs::remove_dir_all(&dir);
}
