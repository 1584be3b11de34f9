//! `muster serve` on Matrix as the suites run it: the process (its log, its manual clock, a
//! clean stop), and a Synapse with the bot's account and three players.

use std::io::Write;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use muster_core::clock::{parse_duration, parse_rfc3339, rfc3339};

use crate::matrix::{Player, ProcessLog};
use crate::synapse::{Account, Synapse};

/// How long the suites wait for anything, in seconds.
pub const WAIT: u64 = 30;

/// The `muster serve` process under test.
pub struct Bot {
    /// The process.
    pub child: Child,
    log: Arc<ProcessLog>,
    /// On a manual clock: its standard input, and the time it shows.
    clock: Option<(ChildStdin, u64)>,
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Bot {
    pub fn log(&self) -> String {
        self.log.text()
    }

    /// Moves the bot's manual clock on by `by` (`+2d`) and waits until it has done what fell
    /// due on the way (it says `[clock] <the new time>`).
    pub async fn advance(&mut self, by: &str) {
        let (stdin, now) = self.clock.as_mut().expect("the bot runs on a manual clock");
        let to = *now + parse_duration(by.trim_start_matches('+')).expect("a duration");
        let mark = self.log.mark();
        writeln!(stdin, "~ {by}").expect("the bot reads its standard input");
        stdin.flush().expect("the bot reads its standard input");
        let expected = format!("[clock] {}", rfc3339(to));
        if let Err(log) = self.log.wait_for_line(mark, WAIT, |l| l == expected).await {
            panic!("the bot did not say {expected:?}:\n{log}");
        }
        *now = to;
    }

    /// Writes `line` to the bot's standard input (on a manual clock) without waiting for
    /// anything: `~ fault after 1`, or a move of the clock it may not live through.
    pub fn input(&mut self, line: &str) {
        let (stdin, _) = self.clock.as_mut().expect("the bot runs on a manual clock");
        writeln!(stdin, "{line}").expect("the bot reads its standard input");
        stdin.flush().expect("the bot reads its standard input");
    }

    /// Asks the bot to stop (SIGTERM) and waits until it has.
    pub fn stop(mut self) {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let deadline = Instant::now() + Duration::from_secs(WAIT);
        while self.child.try_wait().unwrap().is_none() {
            assert!(
                Instant::now() < deadline,
                "muster did not stop:\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        let status = self.child.wait().unwrap();
        assert!(
            status.success(),
            "muster stopped with {status}:\n{}",
            self.log()
        );
    }

    /// Waits until the bot listens.
    pub async fn listening(&mut self) {
        let started = self
            .log
            .wait_for_line(0, WAIT, |l| l.contains("listening as"))
            .await;
        if let Err(log) = started {
            panic!("muster did not start:\n{log}");
        }
    }

    /// Waits until the process has ended (killed from outside).
    pub async fn ended(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(WAIT);
        while self.child.try_wait().unwrap().is_none() {
            assert!(Instant::now() < deadline, "muster is still running");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    /// The resident memory of the process, in KiB.
    pub fn rss_kib(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).unwrap();
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap()
    }
}

/// Starts `muster serve` (the binary `binary`) as `bot` on `synapse`, accepting invitations
/// from alice, on a manual clock when `manual` names its start (RFC 3339); `extra` settings
/// last, so that they may override the others. It does not wait until the bot listens.
pub fn spawn_on(
    binary: &Path,
    synapse: &Synapse,
    bot: &Account,
    dir: &Path,
    extra: &[(&str, &str)],
    manual: Option<&str>,
) -> Bot {
    std::fs::create_dir_all(dir).unwrap();
    let mut cmd = Command::new(binary);
    cmd.arg("serve");
    if let Some(start) = manual {
        cmd.args(["--clock", "manual", "--start", start]);
    }
    cmd.current_dir(dir)
        .env_remove("MUSTER_CONFIG")
        .env("MUSTER_DATA_DIR", dir.join("data"))
        .env("MUSTER_MATRIX_HOMESERVER", synapse.url())
        .env("MUSTER_MATRIX_USER", &bot.user_id)
        .env("MUSTER_MATRIX_PASSWORD", &bot.password)
        .env("MUSTER_MATRIX_AUTO_JOIN", synapse.user_id("alice"))
        .env("MUSTER_MATRIX_TIMINGS", "1")
        .stdin(if manual.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    for (k, v) in extra {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("muster serve starts");
    let log = ProcessLog::capture(&mut child);
    let clock = manual.map(|start| {
        let stdin = child.stdin.take().expect("a piped standard input");
        (stdin, parse_rfc3339(start).expect("an RFC 3339 time"))
    });
    Bot { child, log, clock }
}

/// A Synapse with the bot's account and three players logged in.
pub struct Table {
    /// The homeserver.
    pub synapse: Synapse,
    /// The bot's account.
    pub bot: Account,
    /// The players.
    pub alice: Player,
    /// The players.
    pub bob: Player,
    /// The players.
    pub carol: Player,
}

/// Starts Synapse and logs the players in.
pub async fn table() -> Table {
    let synapse = Synapse::start();
    let accounts = synapse.register_many(&[
        ("muster", "bot-password"),
        ("alice", "alice-password"),
        ("bob", "bob-password"),
        ("carol", "carol-password"),
    ]);
    let alice = Player::login(&synapse, &accounts[1]).await;
    let bob = Player::login(&synapse, &accounts[2]).await;
    let carol = Player::login(&synapse, &accounts[3]).await;
    Table {
        bot: accounts[0].clone(),
        synapse,
        alice,
        bob,
        carol,
    }
}
