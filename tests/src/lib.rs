//! End-to-end suites for Muster. They drive the built `muster` binary as other programs do;
//! this library holds what the suites share.

pub mod browser;
pub mod discord;
pub mod hydrogen;
pub mod matrix;
pub mod matrix_bot;
pub mod postgres;
pub mod proxy;
pub mod synapse;
pub mod web;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};

/// The `muster` binary, built by Cargo from bot/muster/src/main.rs for these suites. Cargo passes its
/// path to integration tests only, so each suite names it: `muster_binary!()`.
#[macro_export]
macro_rules! muster_binary {
    () => {
        std::path::PathBuf::from(env!("CARGO_BIN_EXE_muster-under-test"))
    };
}

/// Collects a child's standard error (piped) line by line, as it comes, into a shared log.
pub fn capture_stderr(child: &mut std::process::Child) -> Arc<Mutex<String>> {
    let log = Arc::new(Mutex::new(String::new()));
    let Some(stderr) = child.stderr.take() else {
        return log;
    };
    let sink = Arc::clone(&log);
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let mut log = sink.lock().unwrap_or_else(|e| e.into_inner());
            log.push_str(&line);
            log.push('\n');
        }
    });
    log
}

/// What one run of `muster` printed, and its exit status.
#[derive(Debug)]
pub struct Run {
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// Exit status.
    pub code: i32,
}

impl Run {
    /// Standard output read as one JSON value.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(self.stdout.trim())
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", self.stdout, self.stderr))
    }
}

/// Runs the binary `bin` with `args` and `input` on standard input.
pub fn run(bin: &std::path::Path, args: &[&str], input: &str) -> Run {
    let mut child = Command::new(bin)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(input.as_bytes()).expect("write stdin");
    }
    let out = child.wait_with_output().expect("muster ran");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().unwrap_or(-1),
    }
}

/// A fresh, empty data directory for one test of `suite`, under the system's temporary
/// directory (named after the process, so that parallel runs do not meet).
pub fn data_dir(suite: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("muster-{suite}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Runs a console script (`<user> <channel> <message>` lines) with `bin` on the data directory
/// `dir`, and returns what the console printed; the run must succeed.
pub fn console(bin: &std::path::Path, dir: &std::path::Path, script: &str) -> String {
    let dir = dir.to_str().expect("a UTF-8 path");
    let out = run(bin, &["console", "--data", dir, "--script", "-"], script);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
}

/// Runs a console script as [`console`] does, on a manual clock starting at `start` (RFC
/// 3339), which the script's `~` lines move.
pub fn console_at(
    bin: &std::path::Path,
    dir: &std::path::Path,
    start: &str,
    script: &str,
) -> String {
    let dir = dir.to_str().expect("a UTF-8 path");
    let args = [
        "console", "--data", dir, "--clock", "manual", "--start", start, "--script", "-",
    ];
    let out = run(bin, &args, script);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
}

/// A free port on 127.0.0.1, as `127.0.0.1:PORT` (for a listener the binary under test opens).
pub fn free_addr() -> String {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    l.local_addr().expect("its address").to_string()
}

/// One HTTP/1.1 request with an empty body to `addr` (`127.0.0.1:PORT`); the status and the
/// body (status 0 when nothing answers).
pub fn http(addr: &str, method: &str, path: &str) -> (u16, String) {
    use std::io::Read;
    let Ok(mut s) = std::net::TcpStream::connect(addr) else {
        return (0, String::new());
    };
    let _ = s.set_read_timeout(Some(std::time::Duration::from_secs(30)));
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    if s.write_all(request.as_bytes()).is_err() {
        return (0, String::new());
    }
    let mut answer = String::new();
    let _ = s.read_to_string(&mut answer);
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = answer
        .split_once("\r\n\r\n")
        .map_or(String::new(), |(_, b)| b.to_string());
    (status, body)
}

/// Waits up to `within` until `GET path` at `addr` answers `status`; returns the body, or
/// panics with what it answered and `log()` (the process's log).
pub async fn wait_http(
    addr: &str,
    path: &str,
    status: u16,
    within: std::time::Duration,
    log: impl Fn() -> String,
) -> String {
    let deadline = std::time::Instant::now() + within;
    loop {
        let (got, body) = http(addr, "GET", path);
        if got == status {
            return body;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{path} answered {got} ({body}), not {status}:\n{}",
            log()
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// Panics, showing the line, if any of `secrets` appears in `log`.
pub fn assert_no_secret(log: &str, secrets: &[&str]) {
    for s in secrets {
        assert!(s.len() >= 8, "too short to look for: {s:?}");
        if let Some(at) = log.find(s) {
            let from = log[..at].rfind('\n').map_or(0, |n| n + 1);
            let to = log[at..].find('\n').map_or(log.len(), |n| at + n);
            panic!("a secret ({s}) is in the log:\n{}", &log[from..to]);
        }
    }
}
