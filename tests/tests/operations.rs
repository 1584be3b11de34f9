//! Running Muster as a service, end to end with the built binary: the operations listener
//! beside a console game (health, readiness, the metrics counting what was played, a backup
//! taken on request and restored record by record), periodic backups on a manual clock, and
//! SIGTERM finishing the command in hand and exiting 0.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use muster_tests::{capture_stderr, data_dir, free_addr, http, muster_binary, run};

/// How long any one wait may take.
const WAIT: Duration = Duration::from_secs(20);

/// The value of the sample `name` (with its labels, as written) in a metrics text; 0 if absent.
fn sample(metrics: &str, name: &str) -> f64 {
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
        .unwrap_or(0.0)
}

/// A console on `dir` reading its script from a pipe, with `env` set.
struct Console {
    child: Child,
    log: std::sync::Arc<std::sync::Mutex<String>>,
}

impl Console {
    fn start(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> Console {
        let mut cmd = Command::new(muster_binary!());
        cmd.args([
            "console",
            "--data",
            dir.to_str().expect("UTF-8"),
            "--script",
            "-",
        ])
        .args(args)
        .env_remove("MUSTER_CONFIG")
        .env_remove("RUST_LOG")
        .current_dir(std::env::temp_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("the console starts");
        let log = capture_stderr(&mut child);
        Console { child, log }
    }

    fn say(&mut self, lines: &str) {
        let stdin = self.child.stdin.as_mut().expect("a piped standard input");
        stdin
            .write_all(lines.as_bytes())
            .expect("the console reads");
        stdin.flush().expect("the console reads");
    }

    fn log(&self) -> String {
        self.log.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn terminate(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success());
    }

    /// SIGTERM, then the exit with status 0 within 10 seconds.
    fn stop_as_a_service_manager_does(&mut self) {
        self.terminate();
        assert_eq!(
            self.exited(Duration::from_secs(10)),
            Some(0),
            "{}",
            self.log()
        );
    }

    /// The exit status, waiting up to `within`.
    fn exited(&mut self, within: Duration) -> Option<i32> {
        let deadline = Instant::now() + within;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for Console {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits until `found` holds of the metrics at `addr`; returns them.
fn metrics_when(addr: &str, what: &str, found: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + WAIT;
    loop {
        let (status, text) = http(addr, "GET", "/metrics");
        assert_eq!(status, 200, "{text}");
        if found(&text) {
            return text;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what}:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Waits until the operations listener at `addr` answers.
fn listening(addr: &str, console: &Console) {
    let deadline = Instant::now() + WAIT;
    while std::net::TcpStream::connect(addr).is_err() {
        assert!(
            Instant::now() < deadline,
            "no listener on {addr}:\n{}",
            console.log()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `muster backup --data <dir> --out -`: the snapshot it writes.
fn backup_of(dir: &Path) -> String {
    let out = run(
        &muster_binary!(),
        &[
            "backup",
            "--data",
            dir.to_str().expect("UTF-8"),
            "--out",
            "-",
        ],
        "",
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
}

/// The entries of a backup file, without its header (which carries the time it was taken).
fn entries(text: &str) -> Vec<String> {
    text.lines().skip(1).map(str::to_string).collect()
}

#[test]
fn a_console_game_is_counted_served_backed_up_and_stopped_cleanly() {
    let dir = data_dir("operations", "console");
    let addr = free_addr();
    let mut console = Console::start(&dir, &[], &[("MUSTER_OPS_LISTEN", &addr)]);
    listening(&addr, &console);
    assert_eq!(http(&addr, "GET", "/healthz"), (200, "ok\n".into()));
    let (status, ready) = http(&addr, "GET", "/readyz");
    assert_eq!(status, 200, "{ready}");
    assert!(
        ready.contains("console: ready") && ready.contains("store: ready"),
        "{ready}"
    );

    console.say(
        "alice t new croquet @bob\n\
         bob t accept\n\
         alice t move 3\n\
         alice t move 2\n\
         bob t move 4\n\
         bob t !frobnicate\n\
         alice t resign\n\
         carol u new lanrick @dave\n",
    );
    let m = metrics_when(&addr, "eight commands", |m| {
        sample(
            m,
            "muster_command_duration_seconds_count{platform=\"console\"}",
        ) >= 8.0
    });
    let count = |labels: &str| sample(&m, &format!("muster_commands_total{{{labels}}}"));
    assert_eq!(
        count("command=\"new\",outcome=\"changed\",platform=\"console\""),
        2.0,
        "{m}"
    );
    assert_eq!(
        count("command=\"accept\",outcome=\"changed\",platform=\"console\""),
        1.0
    );
    assert_eq!(
        count("command=\"move\",outcome=\"changed\",platform=\"console\""),
        2.0,
        "{m}"
    );
    // Alice's second move came out of turn: answered, nothing stored.
    assert_eq!(
        count("command=\"move\",outcome=\"answered\",platform=\"console\""),
        1.0,
        "{m}"
    );
    assert_eq!(
        count("command=\"invalid\",outcome=\"invalid\",platform=\"console\""),
        1.0,
        "{m}"
    );
    assert_eq!(
        count("command=\"resign\",outcome=\"changed\",platform=\"console\""),
        1.0
    );
    assert_eq!(
        sample(&m, "muster_moves_total{game=\"croquet\"}"),
        2.0,
        "{m}"
    );
    assert_eq!(
        sample(&m, "muster_games_started_total{game=\"croquet\"}"),
        1.0,
        "{m}"
    );
    // Carol's challenge waits for Dave: live, not started.
    assert_eq!(
        sample(&m, "muster_games_started_total{game=\"lanrick\"}"),
        0.0,
        "{m}"
    );
    assert_eq!(
        sample(
            &m,
            "muster_games_finished_total{game=\"croquet\",termination=\"resigned\"}"
        ),
        1.0,
        "{m}"
    );
    assert_eq!(sample(&m, "muster_active_games"), 1.0, "{m}");
    assert!(
        sample(&m, "muster_render_duration_seconds_count{game=\"croquet\"}") >= 3.0,
        "{m}"
    );
    assert!(
        sample(
            &m,
            "muster_store_duration_seconds_count{operation=\"commit\"}"
        ) >= 5.0
    );
    assert!(
        m.contains("# TYPE muster_command_duration_seconds histogram"),
        "{m}"
    );

    // A backup while the console runs, restored into an empty directory, entry by entry.
    assert_eq!(http(&addr, "GET", "/backup").0, 405);
    let (status, body) = http(&addr, "POST", "/backup");
    assert_eq!(status, 200, "{body}");
    let taken: serde_json::Value = serde_json::from_str(&body).expect("JSON");
    let file = PathBuf::from(taken["file"].as_str().expect("a file"));
    assert!(file.starts_with(dir.join("backups")), "{}", file.display());
    let copy = data_dir("operations", "console-restored");
    let restored = run(
        &muster_binary!(),
        &[
            "restore",
            "--data",
            copy.to_str().expect("UTF-8"),
            file.to_str().expect("UTF-8"),
        ],
        "",
    );
    assert_eq!(restored.code, 0, "{}", restored.stderr);
    let original = std::fs::read_to_string(&file).expect("the backup");
    assert_eq!(entries(&backup_of(&copy)), entries(&original));
    assert_eq!(
        taken["entries"].as_u64(),
        Some(entries(&original).len() as u64 - 1)
    );
    // The finished game is in it, whole.
    let archived = original
        .lines()
        .find(|l| l.contains("\"tree\":\"archive\""))
        .expect("the archived game");
    assert!(archived.contains("resigned"), "{archived}");

    // SIGTERM: the command sent just before is finished and stored; the exit is clean.
    console.say("dave u accept\n");
    metrics_when(&addr, "the accept", |m| {
        sample(
            m,
            "muster_command_duration_seconds_count{platform=\"console\"}",
        ) >= 9.0
    });
    console.stop_as_a_service_manager_does();
    let after = backup_of(&dir);
    assert!(after.contains("\\\"status\\\":\\\"active\\\""), "{after}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&copy);
}

#[test]
fn periodic_backups_follow_the_clock_and_keep_the_newest() {
    let dir = data_dir("operations", "periodic");
    let addr = free_addr();
    let mut console = Console::start(
        &dir,
        &["--clock", "manual", "--start", "2026-11-25T10:00:00Z"],
        &[
            ("MUSTER_OPS_LISTEN", &addr),
            ("MUSTER_BACKUP_EVERY", "6h"),
            ("MUSTER_BACKUP_KEEP", "2"),
        ],
    );
    listening(&addr, &console);
    let backups = dir.join("backups");
    let names = || -> Vec<String> {
        let mut n: Vec<String> = std::fs::read_dir(&backups)
            .map(|d| {
                d.filter_map(Result::ok)
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        n.sort();
        n
    };
    let wait_for = |want: &[&str]| {
        let deadline = Instant::now() + WAIT;
        while names() != want {
            assert!(
                Instant::now() < deadline,
                "backups {:?}, not {want:?}",
                names()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    };
    console.say("alice t new lanrick @bob\n~ +5h\n");
    std::thread::sleep(Duration::from_millis(1500));
    assert!(names().is_empty(), "{:?}", names());
    console.say("~ +1h\n");
    wait_for(&["muster-2026-11-25T16-00-00Z.backup"]);
    console.say("~ +6h\n");
    wait_for(&[
        "muster-2026-11-25T16-00-00Z.backup",
        "muster-2026-11-25T22-00-00Z.backup",
    ]);
    console.say("~ +6h\n");
    wait_for(&[
        "muster-2026-11-25T22-00-00Z.backup",
        "muster-2026-11-26T04-00-00Z.backup",
    ]);
    let newest = std::fs::read_to_string(backups.join("muster-2026-11-26T04-00-00Z.backup"))
        .expect("the newest backup");
    assert!(
        newest.starts_with("{\"format\":\"muster-backup\""),
        "{newest}"
    );
    assert!(
        newest.contains("\"created\":\"2026-11-26T04:00:00Z\""),
        "{newest}"
    );
    assert!(newest.contains("\"tree\":\"live\""), "{newest}");
    console.stop_as_a_service_manager_does();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn health_asks_the_listener_and_fails_when_nothing_answers() {
    let addr = free_addr();
    let out = run(&muster_binary!(), &["health", &addr], "");
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("nothing answers"), "{}", out.stderr);
    let out = run(&muster_binary!(), &["health", "not-an-address"], "");
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("127.0.0.1:9100"), "{}", out.stderr);
    let dir = data_dir("operations", "health");
    let console = Console::start(&dir, &[], &[("MUSTER_OPS_LISTEN", &addr)]);
    listening(&addr, &console);
    let out = run(&muster_binary!(), &["health", &addr], "");
    assert_eq!(
        (out.code, out.stdout.as_str()),
        (0, "ok\n"),
        "{}",
        out.stderr
    );
    drop(console);
    let _ = std::fs::remove_dir_all(&dir);
}
