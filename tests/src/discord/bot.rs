//! The `muster serve` process under test against the stand-ins, and what the Discord suites do
//! with it: deliver an interaction as its mode receives it (a gateway dispatch or a signed POST
//! to its endpoint), wait for its answer, and read back what a user would see of it.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use super::{Person, Recorded, StandIn, StoredMessage, button, command};

/// The application (and bot user) id the bot is configured with.
pub const APP: u64 = 1_300_000_000_000_000_001;
/// The server the commands are registered in.
pub const GUILD: &str = "1300000000000000100";
/// The channel the suites play in.
pub const CHANNEL: &str = "1300000000000000200";
/// How long any one wait may take.
pub const WAIT: Duration = Duration::from_secs(20);
/// Discord's longest message, in characters.
pub const MAX_CONTENT: usize = super::limits::MAX_CONTENT;

/// The `muster serve` process under test; killed when dropped.
pub struct Bot {
    child: Child,
    log: Arc<Log>,
    /// Its standard input, when it runs on a manual clock.
    stdin: Mutex<Option<ChildStdin>>,
    /// The HTTP interactions endpoint, in HTTP mode.
    pub endpoint: Option<String>,
}

/// A child's standard error as it comes, and a wake-up for each line.
#[derive(Default)]
struct Log {
    text: Mutex<String>,
    grew: tokio::sync::Notify,
}

/// Collects `child`'s standard error (piped), line by line, waking the waiters at each.
fn capture(child: &mut Child) -> Arc<Log> {
    let log = Arc::new(Log::default());
    let Some(stderr) = child.stderr.take() else {
        return log;
    };
    let sink = Arc::clone(&log);
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            {
                let mut text = sink.text.lock().unwrap_or_else(|e| e.into_inner());
                text.push_str(&line);
                text.push('\n');
            }
            sink.grew.notify_waiters();
        }
        // The end of the log wakes them too.
        sink.grew.notify_waiters();
    });
    log
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Bot {
    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// What it has written to standard error so far.
    pub fn log(&self) -> String {
        self.log
            .text
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Waits, up to [`WAIT`], until its log gives `found` a value (checked at each new line),
    /// and returns it; panics naming `what`, with the log.
    pub async fn wait_log<T>(&self, what: &str, found: impl Fn(&str) -> Option<T>) -> T {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let grew = self.log.grew.notified();
            tokio::pin!(grew);
            grew.as_mut().enable();
            if let Some(v) = found(&self.log()) {
                return v;
            }
            if tokio::time::timeout_at(deadline, grew).await.is_err() {
                return found(&self.log()).unwrap_or_else(|| {
                    panic!(
                        "timed out after {WAIT:?} waiting for {what}:\n{}",
                        self.log()
                    )
                });
            }
        }
    }

    /// Moves its manual clock (see [`start_at`]) by `by` (`+2d`) or to a time (RFC 3339): writes
    /// `~ {by}` to its standard input and waits until it has done what fell due meanwhile,
    /// which its `[clock] <time>` line on standard error says; returns that time. What it
    /// posts about it (reminders, timeouts) is sent after that: wait for those messages.
    pub async fn advance(&self, by: &str) -> String {
        let lines = |log: &str| -> Vec<String> {
            log.lines()
                .filter_map(|l| l.strip_prefix("[clock] "))
                .map(str::to_string)
                .collect()
        };
        let before = lines(&self.log()).len();
        {
            let mut stdin = self.stdin.lock().unwrap_or_else(|e| e.into_inner());
            let stdin = stdin
                .as_mut()
                .expect("a bot on a manual clock (bot::start_at)");
            writeln!(stdin, "~ {by}").expect("write to muster's standard input");
            stdin.flush().expect("flush muster's standard input");
        }
        self.wait_log(&format!("the clock to move by `~ {by}`"), |log| {
            lines(log).get(before).cloned()
        })
        .await
    }

    /// Writes `line` to its standard input (on a manual clock, see [`start_at`]) without waiting
    /// for anything: `~ fault after 2` aims a crash at the second write from then.
    pub fn input(&self, line: &str) {
        let mut stdin = self.stdin.lock().unwrap_or_else(|e| e.into_inner());
        let stdin = stdin
            .as_mut()
            .expect("a bot on a manual clock (bot::start_at)");
        writeln!(stdin, "{line}").expect("write to muster's standard input");
        stdin.flush().expect("flush muster's standard input");
    }

    /// Asks it to stop as a service manager does: SIGTERM.
    pub fn terminate(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(
            status.success(),
            "SIGTERM could not be sent:\n{}",
            self.log()
        );
    }

    /// Whether it is still running.
    pub fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Its exit status, once it has exited, waiting up to `timeout`; panics with its log if it
    /// is still running then.
    pub async fn exit_status(&mut self, timeout: Duration) -> std::process::ExitStatus {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("the child's status") {
                return status;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "muster did not exit within {timeout:?}:\n{}",
                self.log()
            );
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

/// How the bot receives interactions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// A gateway connection.
    Gateway,
    /// An HTTP interactions endpoint.
    Http,
}

/// Starts `binary` (`muster_binary!()`) as `muster serve` in `dir` against `standin`, in
/// `mode`, with `extra` settings in its environment; returns once it listens (HTTP) or its
/// gateway session is ready.
pub async fn start(
    standin: &StandIn,
    binary: &Path,
    dir: &Path,
    mode: Mode,
    extra: &[(&str, &str)],
) -> Bot {
    launch(standin, binary, dir, mode, extra, None).await
}

/// As [`start`], on a manual clock starting at `at` (RFC 3339): `muster serve --clock manual
/// --start <at>`, its standard input piped so that [`Bot::advance`] moves the clock.
pub async fn start_at(
    standin: &StandIn,
    binary: &Path,
    dir: &Path,
    mode: Mode,
    extra: &[(&str, &str)],
    at: &str,
) -> Bot {
    launch(standin, binary, dir, mode, extra, Some(at)).await
}

async fn launch(
    standin: &StandIn,
    binary: &Path,
    dir: &Path,
    mode: Mode,
    extra: &[(&str, &str)],
    clock: Option<&str>,
) -> Bot {
    std::fs::create_dir_all(dir).expect("a data directory");
    let mut cmd = Command::new(binary);
    cmd.arg("serve");
    if let Some(at) = clock {
        cmd.args(["--clock", "manual", "--start", at]);
    }
    cmd.current_dir(dir)
        .env_remove("MUSTER_CONFIG")
        .env("MUSTER_DATA_DIR", dir.join("data"))
        .env("MUSTER_DISCORD_TOKEN", "test-token")
        .env("MUSTER_DISCORD_APPLICATION_ID", APP.to_string())
        .env("MUSTER_DISCORD_API_URL", standin.api_url())
        .env("MUSTER_DISCORD_GUILD", GUILD)
        .env("MUSTER_DISCORD_TIMINGS", "1")
        .stdin(if clock.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if mode == Mode::Http {
        cmd.env("MUSTER_DISCORD_MODE", "http")
            .env("MUSTER_DISCORD_PUBLIC_KEY", super::public_key_hex())
            .env("MUSTER_DISCORD_LISTEN", "127.0.0.1:0");
    }
    for (k, v) in extra {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("muster serve starts");
    let log = capture(&mut child);
    let stdin = Mutex::new(child.stdin.take());
    let mut bot = Bot {
        child,
        log,
        stdin,
        endpoint: None,
    };
    if mode == Mode::Http {
        let deadline = std::time::Instant::now() + WAIT;
        loop {
            let log = bot.log();
            if let Some(rest) = log.split("listening on ").nth(1) {
                let url = rest.lines().next().unwrap_or_default().trim();
                bot.endpoint = Some(url.to_string());
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the endpoint did not start:\n{log}"
            );
            let running = bot.child.try_wait().ok().flatten().is_none();
            assert!(running, "muster exited:\n{log}");
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    } else {
        standin.wait_ready(WAIT).await;
    }
    bot
}

/// Delivers an interaction as the bot's mode receives it.
pub async fn deliver(standin: &StandIn, bot: &Bot, interaction: Value) {
    match &bot.endpoint {
        None => standin.dispatch(interaction).await,
        Some(url) => {
            let (status, body) = standin.post_interaction(url, interaction).await;
            assert_eq!(
                status, 202,
                "the endpoint answers through the callback: {body}"
            );
        }
    }
}

/// Sends an interaction and returns the requests the bot made in answer: it has answered when
/// it logs the interaction's timing (`MUSTER_DISCORD_TIMINGS`), after its last REST call.
/// (The interaction's response is waited for too, should an answer ever be logged before it.)
/// Every one of those requests must have been accepted, as Discord would have to accept it.
pub async fn interact(standin: &StandIn, bot: &Bot, interaction: Value) -> Vec<Recorded> {
    let token = interaction["token"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let done = |log: &str| log.matches(" answered in ").count();
    let before = done(&bot.log());
    let mark = standin.mark();
    deliver(standin, bot, interaction).await;
    bot.wait_log(&format!("an answer to {token}"), |log| {
        (done(log) > before).then_some(())
    })
    .await;
    standin
        .wait_for_since(
            mark,
            &format!("the response to interaction {token}"),
            |r| r.path.contains(&token) && r.callback_type() != Some(5),
            WAIT,
        )
        .await;
    let requests = standin.requests().split_off(mark);
    assert_none_refused(&requests, &bot.log());
    requests
}

/// Posts `interaction` to the HTTP endpoint `endpoint` and waits for its answer: whether only
/// its sender saw it (a refusal), and its text. Several may be on their way at once.
pub async fn answered(standin: &StandIn, endpoint: &str, interaction: Value) -> (bool, String) {
    let token = interaction["token"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let mark = standin.mark();
    let (status, body) = standin.post_interaction(endpoint, interaction).await;
    assert_eq!(status, 202, "{body}");
    let first = standin
        .wait_for_since(
            mark,
            &format!("the answer to {token}"),
            |r| r.path.contains(&token) && r.callback_type().is_some_and(|t| t != 5),
            WAIT,
        )
        .await;
    let answer = callback(&[first]);
    (ephemeral(&answer), text(&answer))
}

/// `/name` with `options` by `who` in the suites' channel.
pub async fn slash(
    standin: &StandIn,
    bot: &Bot,
    who: &Person,
    name: &str,
    options: Value,
) -> Vec<Recorded> {
    let interaction = command(name, options, who, CHANNEL, Some(GUILD));
    interact(standin, bot, interaction).await
}

/// A click by `who` on the button `id` of message `on`.
pub async fn press(
    standin: &StandIn,
    bot: &Bot,
    who: &Person,
    id: &str,
    on: &StoredMessage,
) -> Vec<Recorded> {
    let interaction = button(id, on.clone(), who, CHANNEL, Some(GUILD));
    interact(standin, bot, interaction).await
}

/// The newest message whose text contains `text` (such as a challenge: "challenges you").
pub fn newest_saying(standin: &StandIn, text: &str) -> StoredMessage {
    standin
        .messages()
        .into_iter()
        .rev()
        .find(|m| m.content.contains(text))
        .unwrap_or_else(|| panic!("no message says {text:?}"))
}

/// The first message the bot answered with: the interaction response, or after a deferral the
/// edit of the deferred response (or the followup replacing it).
pub struct Answer {
    /// The message body sent.
    pub data: Value,
    /// Its files: part name, filename, bytes.
    pub files: Vec<(String, String, Vec<u8>)>,
    /// The callback's type (5: deferred first).
    pub kind: u64,
}

/// The first message the bot answered with among `requests`.
pub fn callback(requests: &[Recorded]) -> Answer {
    let cb = requests
        .iter()
        .find(|r| r.callback_type().is_some())
        .unwrap_or_else(|| panic!("no callback among {:?}", paths(requests)));
    let kind = cb.callback_type().unwrap_or(0);
    if kind != 5 {
        return Answer {
            data: cb.json["data"].clone(),
            files: cb.files.clone(),
            kind,
        };
    }
    let next = requests
        .iter()
        .find(|r| {
            r.is("PATCH", "/messages/@original")
                || (r.method == "POST" && r.path.contains("/webhooks/"))
        })
        .unwrap_or_else(|| {
            panic!(
                "a deferred reply was never completed: {:?}",
                paths(requests)
            )
        });
    Answer {
        data: next.json.clone(),
        files: next.files.clone(),
        kind,
    }
}

/// `METHOD path` of each request.
pub fn paths(requests: &[Recorded]) -> Vec<String> {
    requests
        .iter()
        .map(|r| format!("{} {}", r.method, r.path))
        .collect()
}

/// Whether only the user sees the answer.
pub fn ephemeral(a: &Answer) -> bool {
    a.data["flags"].as_u64().unwrap_or(0) & 64 != 0
}

/// The answer's text.
pub fn text(a: &Answer) -> String {
    a.data["content"].as_str().unwrap_or("").to_string()
}

/// The custom ids of a message's buttons, in order.
pub fn button_ids(m: &StoredMessage) -> Vec<String> {
    m.components
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter_map(|b| b["custom_id"].as_str().map(str::to_string))
        .collect()
}

/// The one message a user sees in answer to the interaction `token`, checked as Discord and the
/// user see it: the interaction got exactly one callback (a deferral counts as the start of
/// it), and exactly one message was left for it — not still "thinking…", not blank, within
/// Discord's 2,000 characters.
pub fn sole_message(standin: &StandIn, requests: &[Recorded], token: &str) -> StoredMessage {
    let callbacks = requests
        .iter()
        .filter(|r| r.path.contains(token) && r.callback_type().is_some())
        .count();
    assert_eq!(callbacks, 1, "one callback: {:?}", paths(requests));
    let mut left: Vec<StoredMessage> = standin
        .messages()
        .into_iter()
        .filter(|m| m.interaction_token.as_deref() == Some(token))
        .collect();
    assert_eq!(
        left.len(),
        1,
        "one message for the interaction: {left:#?}\n{:?}",
        paths(requests)
    );
    let m = left.remove(0);
    assert_eq!(m.flags & 128, 0, "still thinking: {m:?}");
    assert!(
        !m.content.trim().is_empty() || !m.attachments.is_empty(),
        "a blank message: {m:?}"
    );
    assert!(m.content.chars().count() <= MAX_CONTENT, "{}", m.content);
    m
}

/// A multi-threaded runtime with two workers, for a suite's test.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}

/// Fails if Discord would have refused any of `requests` (a status of 300 or more), showing
/// them and the bot's `log`.
pub fn assert_none_refused(requests: &[Recorded], log: &str) {
    let refused: Vec<String> = requests
        .iter()
        .filter(|r| r.status >= 300)
        .map(|r| format!("{} {} -> {}: {}", r.method, r.path, r.status, r.json))
        .collect();
    assert!(
        refused.is_empty(),
        "Discord would have refused these:\n{}\n{}",
        refused.join("\n"),
        log
    );
}

/// alice challenges bob to Lanrick with `options` added (she plays white: she moves first),
/// and bob accepts.
pub async fn timed_game(
    standin: &StandIn,
    bot: &Bot,
    alice: &Person,
    bob: &Person,
    options: Value,
) {
    let mut all = vec![
        json!({"name": "game", "type": 4, "value": 0}),
        json!({"name": "opponent", "type": 6, "value": bob.id}),
        json!({"name": "seat", "type": 3, "value": "white"}),
    ];
    all.extend(options.as_array().cloned().unwrap_or_default());
    let out = slash(standin, bot, alice, "new", Value::Array(all)).await;
    let answer = callback(&out);
    assert!(!ephemeral(&answer), "{}", text(&answer));
    assert!(
        text(&answer).contains("challenges you"),
        "{}",
        text(&answer)
    );
    let out = slash(standin, bot, bob, "accept", json!([])).await;
    let answer = callback(&out);
    assert!(!ephemeral(&answer), "{}", text(&answer));
}
