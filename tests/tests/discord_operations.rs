//! Muster on Discord run as a service, end to end against the stand-ins: with `RUST_LOG=trace`
//! the log carries the libraries' events and never a secret (the bot token, an interaction's
//! token, a request's signature); the operations listener's readiness follows the gateway
//! connection through an outage; the metrics count the commands; SIGTERM exits 0.

use std::time::Duration;

use muster_tests::discord::bot::{self, Bot, Mode, WAIT, callback, press, runtime, slash};
use muster_tests::discord::{Person, StandIn};
use muster_tests::{assert_no_secret, data_dir, free_addr, http, muster_binary, wait_http};
use serde_json::json;

/// Waits until `/readyz` answers `status`; returns its body.
async fn readiness(addr: &str, status: u16, bot: &Bot) -> String {
    wait_http(addr, "/readyz", status, WAIT, || bot.log()).await
}

/// Every token of the interactions sent, gathered as they are made.
#[derive(Default)]
struct Tokens(Vec<String>);

impl Tokens {
    fn of(&mut self, sent: &[muster_tests::discord::Recorded]) {
        for r in sent {
            for marker in ["/interactions/", "/webhooks/"] {
                if let Some((_, rest)) = r.path.split_once(marker) {
                    let mut parts = rest.split('/');
                    if let (Some(_), Some(token)) = (parts.next(), parts.next())
                        && token.len() > 8
                    {
                        self.0.push(token.to_string());
                    }
                }
            }
        }
    }
}

/// Asserts that none of `secrets` appears in `log`, which must hold the libraries' trace.
fn no_secret(log: &str, secrets: &[String]) {
    assert!(
        log.contains("TRACE") || log.contains("DEBUG"),
        "the log is not at trace:\n{log}"
    );
    let secrets: Vec<&str> = secrets.iter().map(String::as_str).collect();
    assert_no_secret(log, &secrets);
}

/// A challenge by `alice` to `bob` at Croquet, accepted; then `alice` resigns.
async fn a_short_game(standin: &StandIn, bot: &Bot, tokens: &mut Tokens) {
    let (alice, bob) = (Person::new("alice"), Person::new("bob"));
    let options = json!([
        {"name": "game", "type": 4, "value": 2},
        {"name": "opponent", "type": 6, "value": bob.id},
    ]);
    let out = slash(standin, bot, &alice, "new", options).await;
    tokens.of(&out);
    let challenge = bot::newest_saying(standin, "challenges you");
    let out = press(standin, bot, &bob, "muster:accept", &challenge).await;
    tokens.of(&out);
    let out = slash(standin, bot, &alice, "resign", json!([])).await;
    assert!(
        bot::text(&callback(&out)).contains("resigns"),
        "{}",
        bot::text(&callback(&out))
    );
    tokens.of(&out);
}

#[test]
fn the_gateway_bot_logs_no_secret_is_ready_when_connected_and_stops_cleanly() {
    runtime().block_on(async {
        let standin = StandIn::start(bot::APP).await;
        let dir = data_dir("discord-operations", "gateway");
        let ops = free_addr();
        let mut bot = bot::start(
            &standin,
            &muster_binary!(),
            &dir,
            Mode::Gateway,
            &[("RUST_LOG", "trace"), ("MUSTER_OPS_LISTEN", &ops)],
        )
        .await;
        let ready = readiness(&ops, 200, &bot).await;
        assert!(ready.contains("discord: ready"), "{ready}");
        let mut tokens = Tokens::default();
        a_short_game(&standin, &bot, &mut tokens).await;
        assert!(tokens.0.len() >= 3, "{:?}", tokens.0);

        // The gateway goes away: not ready, with the reason; back, ready again.
        standin.outage(true).await;
        let down = readiness(&ops, 503, &bot).await;
        assert!(
            down.contains("discord: the gateway connection is down"),
            "{down}"
        );
        assert_eq!(http(&ops, "GET", "/healthz"), (200, "ok\n".into()));
        standin.outage(false).await;
        readiness(&ops, 200, &bot).await;

        let (status, metrics) = http(&ops, "GET", "/metrics");
        assert_eq!(status, 200);
        for line in [
            "muster_commands_total{command=\"new\",outcome=\"changed\",platform=\"discord\"} 1",
            "muster_commands_total{command=\"resign\",outcome=\"changed\",platform=\"discord\"} 1",
            "muster_games_finished_total{game=\"croquet\",termination=\"resigned\"} 1",
        ] {
            assert!(metrics.contains(line), "{line} in:\n{metrics}");
        }
        assert!(
            metrics.contains("muster_errors_total{component=\"discord\",level=\"warn\"}"),
            "the outage's warnings are counted:\n{metrics}"
        );

        bot.terminate();
        let status = bot.exit_status(Duration::from_secs(10)).await;
        assert_eq!(status.code(), Some(0), "{status:?}\n{}", bot.log());
        let log = bot.log();
        let mut secrets = tokens.0.clone();
        secrets.push("test-token".into());
        no_secret(&log, &secrets);
        // The libraries' events are in the same output: serenity's request spans, the
        // WebSocket client's frames (through `log`).
        assert!(
            log.contains(" request{self=Http"),
            "no serenity span in the log"
        );
        assert!(
            log.contains("tungstenite::protocol"),
            "no WebSocket event in the log"
        );
        let _ = std::fs::remove_dir_all(&dir);
    });
}

#[test]
fn the_endpoint_logs_no_token_or_signature_and_is_ready_when_listening() {
    runtime().block_on(async {
        let standin = StandIn::start(bot::APP).await;
        let dir = data_dir("discord-operations", "http");
        let ops = free_addr();
        let mut bot = bot::start(
            &standin,
            &muster_binary!(),
            &dir,
            Mode::Http,
            &[
                ("RUST_LOG", "trace"),
                ("MUSTER_OPS_LISTEN", &ops),
                ("MUSTER_LOG_FORMAT", "json"),
            ],
        )
        .await;
        let ready = readiness(&ops, 200, &bot).await;
        assert!(ready.contains("discord: ready"), "{ready}");
        let mut tokens = Tokens::default();
        a_short_game(&standin, &bot, &mut tokens).await;
        bot.terminate();
        let status = bot.exit_status(Duration::from_secs(10)).await;
        assert_eq!(status.code(), Some(0), "{status:?}\n{}", bot.log());
        let log = bot.log();
        let mut secrets = tokens.0.clone();
        secrets.extend(standin.signatures());
        assert!(standin.signatures().len() >= 3);
        secrets.push("test-token".into());
        no_secret(&log, &secrets);
        // JSON lines, one per event; the command spans carry their fields.
        let handled: Vec<serde_json::Value> = log
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter(|v| v["message"] == "command handled")
            .collect();
        assert_eq!(handled.len(), 3, "{log}");
        assert_eq!(handled[0]["span"]["command"], "new");
        assert_eq!(handled[0]["span"]["platform"], "discord");
        assert_eq!(handled[2]["outcome"], "changed");
        assert!(
            handled[2]["span"]["game"]
                .as_str()
                .is_some_and(|g| g.starts_with('g'))
        );
        let _ = std::fs::remove_dir_all(&dir);
    });
}
