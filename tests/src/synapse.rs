//! A real Matrix homeserver (Synapse, from PyPI) for the end-to-end suites.
//!
//! [`Synapse::start`] installs Synapse once into a virtual environment (`scripts/synapse-venv`),
//! writes a small configuration for a fresh data directory and starts the server on a free
//! loopback port; dropping the value stops the server and removes its data. Users are registered
//! with the shared-secret admin API, so no open registration is needed.
//!
//! Everything here blocks: call it from `#[tokio::test(flavor = "multi_thread")]` tests so that
//! clients keep running while the server starts, stops or restarts.
//!
//! `MUSTER_KEEP_SYNAPSE=1` keeps the data directory (config, database, `homeserver.log`,
//! `stderr.log`) after the test; `MUSTER_TEST_VERBOSE=1` reports each start's duration;
//! `MUSTER_SYNAPSE_VENV` moves the virtual environment (scripts/synapse-venv).

use std::fmt;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How long [`Synapse::start`] waits for the server to answer.
const START_TIMEOUT: Duration = Duration::from_secs(60);
/// How long [`Synapse::stop`] waits after SIGTERM before it sends SIGKILL.
const STOP_TIMEOUT: Duration = Duration::from_secs(10);
/// The server name of every test server.
const SERVER_NAME: &str = "localhost";
/// The shared secret for the admin registration API (a test server on loopback only).
const SHARED_SECRET: &str = "muster-tests-registration-secret";

/// A Synapse homeserver running on 127.0.0.1 for one test (see the module documentation).
pub struct Synapse {
    python: PathBuf,
    dir: PathBuf,
    port: u16,
    child: Option<Child>,
}

/// A registered user.
#[derive(Clone)]
pub struct Account {
    /// The full user id, `@localpart:localhost`.
    pub user_id: String,
    /// The access token of the device created by the registration.
    pub access_token: String,
    /// The device created by the registration.
    pub device_id: String,
    /// The password (to log in other devices).
    pub password: String,
}

impl fmt::Debug for Account {
    /// Never shows the password or the access token.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Account")
            .field("user_id", &self.user_id)
            .field("device_id", &self.device_id)
            .finish_non_exhaustive()
    }
}

impl fmt::Debug for Synapse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Synapse")
            .field("url", &self.url())
            .field("data_dir", &self.dir)
            .field("pid", &self.child.as_ref().map(Child::id))
            .finish()
    }
}

impl Synapse {
    /// Installs Synapse if needed, then starts a fresh server and waits until it answers.
    /// Panics, with the end of the server's log, when it does not start.
    pub fn start() -> Synapse {
        let python = venv().join("bin").join("python");
        let dir = fresh_dir();
        let port = free_port();
        write_config(&dir, port);
        generate_keys(&python, &dir);
        let mut synapse = Synapse {
            python,
            dir,
            port,
            child: None,
        };
        synapse.launch();
        synapse
    }

    /// The client-server API's base URL, `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The server name: user ids are `@name:localhost`.
    pub fn server_name(&self) -> &str {
        SERVER_NAME
    }

    /// The data directory (configuration, database, media, logs).
    pub fn data_dir(&self) -> &Path {
        &self.dir
    }

    /// The full user id of `localpart` on this server.
    pub fn user_id(&self, localpart: &str) -> String {
        format!("@{localpart}:{SERVER_NAME}")
    }

    /// Registers a (non-admin) user through the shared-secret admin API.
    pub fn register(&self, localpart: &str, password: &str) -> Account {
        self.register_many(&[(localpart, password)]).remove(0)
    }

    /// Registers several (non-admin) users at once (one Python process), in order.
    pub fn register_many(&self, users: &[(&str, &str)]) -> Vec<Account> {
        let input = serde_json::json!({
            "base": self.url(),
            "secret": SHARED_SECRET,
            "users": users.iter().map(|(u, p)| [u, p]).collect::<Vec<_>>(),
        });
        let mut child = Command::new(&self.python)
            .args(["-c", REGISTER_PY])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", self.python.display()));
        let mut stdin = child.stdin.take().expect("piped stdin");
        stdin
            .write_all(input.to_string().as_bytes())
            .expect("write to the registration script");
        drop(stdin);
        let out = child
            .wait_with_output()
            .expect("the registration script ran");
        let names: Vec<&str> = users.iter().map(|(u, _)| *u).collect();
        assert!(
            out.status.success(),
            "registering {names:?} on {} failed: {}",
            self.url(),
            String::from_utf8_lossy(&out.stderr)
        );
        let answers: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("registering {names:?}: unexpected output ({e})"));
        answers
            .into_iter()
            .zip(users)
            .map(|(answer, (_, password))| {
                let field = |key: &str| {
                    answer[key]
                        .as_str()
                        .unwrap_or_else(|| panic!("registering {names:?}: no {key} in the answer"))
                        .to_owned()
                };
                Account {
                    user_id: field("user_id"),
                    access_token: field("access_token"),
                    device_id: field("device_id"),
                    password: (*password).to_owned(),
                }
            })
            .collect()
    }

    /// Stops the server (SIGTERM to its process group, SIGKILL after 10 s) and waits until it
    /// is gone. Does nothing when it is not running.
    pub fn stop(&mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        let pid = child.id();
        signal_group(pid, "TERM");
        let deadline = Instant::now() + STOP_TIMEOUT;
        loop {
            // try_wait reaps the process, so it never lingers as a zombie.
            match child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20))
                }
                _ => {
                    eprintln!(
                        "synapse: pid {pid} ignored SIGTERM for {STOP_TIMEOUT:?}; killing it"
                    );
                    signal_group(pid, "KILL");
                    let _ = child.kill();
                    let _ = child.wait();
                    break;
                }
            }
        }
    }

    /// Stops the server and starts it again on the same port with the same data, and waits
    /// until it answers (clients connected before can reconnect to the same URL).
    pub fn restart(&mut self) {
        self.stop();
        self.launch();
    }

    /// Whether the server process is running.
    pub fn is_running(&mut self) -> bool {
        self.child
            .as_mut()
            .is_some_and(|c| matches!(c.try_wait(), Ok(None)))
    }

    /// Starts the server process on the configured port and waits until it answers.
    fn launch(&mut self) {
        assert!(self.child.is_none(), "synapse is already running");
        let output = |name: &str| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(self.dir.join(name))
                .unwrap_or_else(|e| panic!("cannot open {name} in {}: {e}", self.dir.display()))
        };
        let started = Instant::now();
        let child = std::os::unix::process::CommandExt::process_group(
            Command::new(&self.python)
                .args(["-c", SERVE_PY])
                .current_dir(&self.dir)
                .stdin(Stdio::null())
                .stdout(output("stdout.log"))
                .stderr(output("stderr.log")),
            0,
        )
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start synapse ({}): {e}", self.python.display()));
        self.child = Some(child);
        loop {
            if let Some(status) = self
                .child
                .as_mut()
                .and_then(|c| c.try_wait().ok().flatten())
            {
                self.child = None;
                panic!("synapse exited at start ({status})\n{}", self.log_tail());
            }
            if versions_status(self.port) == Some(200) {
                break;
            }
            if started.elapsed() > START_TIMEOUT {
                let tail = self.log_tail();
                self.stop();
                panic!(
                    "synapse did not answer on {} within {START_TIMEOUT:?}\n{tail}",
                    self.url()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        if std::env::var_os("MUSTER_TEST_VERBOSE").is_some() {
            eprintln!("synapse: {} up in {:?}", self.url(), started.elapsed());
        }
    }

    /// The last lines of the server's logs, for failure messages.
    pub fn log_tail(&self) -> String {
        let mut out = String::new();
        for name in ["stderr.log", "stdout.log", "homeserver.log"] {
            let text = std::fs::read_to_string(self.dir.join(name)).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            let tail = &lines[lines.len().saturating_sub(40)..];
            if !tail.is_empty() {
                out.push_str(&format!("--- {name} (last {} lines)\n", tail.len()));
                for line in tail {
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
        if out.is_empty() {
            out.push_str("(synapse logged nothing)\n");
        }
        out
    }
}

impl Drop for Synapse {
    fn drop(&mut self) {
        self.stop();
        if std::env::var_os("MUSTER_KEEP_SYNAPSE").is_none() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// The virtual environment with Synapse, installed on first use (once per test process).
fn venv() -> PathBuf {
    static VENV: OnceLock<PathBuf> = OnceLock::new();
    VENV.get_or_init(|| {
        // Tests run in their package's directory (the checkout's, not the one they were built in).
        let script = std::env::current_dir()
            .expect("a current directory")
            .join("../scripts/synapse-venv");
        let started = Instant::now();
        let out = Command::new(&script)
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", script.display()));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "{} failed ({}):\n{stderr}",
            script.display(),
            out.status
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        let path = stdout.lines().last().unwrap_or_default().trim();
        assert!(
            !path.is_empty(),
            "{} printed no path:\n{stderr}",
            script.display()
        );
        if !stderr.is_empty() {
            eprintln!("{}({:.1?})", stderr, started.elapsed());
        }
        PathBuf::from(path)
    })
    .clone()
}

/// A new, empty directory under the system's temporary directory, unique to this call.
fn fresh_dir() -> PathBuf {
    static COUNT: AtomicUsize = AtomicUsize::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "muster-synapse-{}-{n}-{nanos:08x}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("media"))
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

/// A loopback port that was free a moment ago.
fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a free loopback port");
    listener.local_addr().expect("its address").port()
}

/// Sends `signal` (TERM, KILL) to the process group led by `pid`.
fn signal_group(pid: u32, signal: &str) {
    // The shell's kill: `unsafe` is forbidden here, and /bin/kill may be missing.
    let _ = Command::new("sh")
        .args(["-c", &format!("kill -s {signal} -- -{pid}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// The HTTP status of `GET /_matrix/client/versions` on the port, if it answers at all.
fn versions_status(port: u16) -> Option<u16> {
    let timeout = Duration::from_secs(2);
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let mut stream = TcpStream::connect_timeout(&addr, timeout).ok()?;
    stream.set_read_timeout(Some(timeout)).ok()?;
    stream.set_write_timeout(Some(timeout)).ok()?;
    let request = format!(
        "GET /_matrix/client/versions HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).ok()?;
    let mut head = [0u8; 32];
    let mut len = 0;
    while len < head.len() {
        match stream.read(&mut head[len..]) {
            Ok(0) | Err(_) => break,
            Ok(n) => len += n,
        }
    }
    let text = std::str::from_utf8(&head[..len]).ok()?;
    text.strip_prefix("HTTP/1.")?.get(2..5)?.parse().ok()
}

/// Writes homeserver.yaml, the logging configuration and the signing key's place.
fn write_config(dir: &Path, port: u16) {
    let d = dir.display();
    let mut limits = String::new();
    for key in RATE_LIMITS {
        // "a.b" is the nested key b of a.
        match key.split_once('.') {
            Some((outer, inner)) => {
                if !limits.contains(&format!("\n{outer}:\n")) {
                    limits.push_str(&format!("\n{outer}:\n"));
                }
                limits.push_str(&format!(
                    "  {inner}: {{per_second: 1000000, burst_count: 1000000}}\n"
                ));
            }
            None => limits.push_str(&format!(
                "\n{key}: {{per_second: 1000000, burst_count: 1000000}}\n"
            )),
        }
    }
    let config = format!(
        r#"# Written by muster-tests (tests/src/synapse.rs) for one test server.
server_name: "{SERVER_NAME}"
public_baseurl: "http://127.0.0.1:{port}/"
pid_file: "{d}/homeserver.pid"
listeners:
  - port: {port}
    bind_addresses: ["127.0.0.1"]
    type: http
    tls: false
    x_forwarded: false
    resources:
      - names: [client]
        compress: false
database:
  name: sqlite3
  args:
    database: "{d}/homeserver.db"
log_config: "{d}/log.yaml"
media_store_path: "{d}/media"
enable_media_repo: true
max_upload_size: 10M
signing_key_path: "{d}/signing.key"
trusted_key_servers: []
suppress_key_server_warning: true
federation_domain_whitelist: []
report_stats: false
enable_metrics: false
presence:
  enabled: false
bcrypt_rounds: 4
enable_registration: false
registration_shared_secret: "{SHARED_SECRET}"
macaroon_secret_key: "muster-tests-macaroon-secret"
form_secret: "muster-tests-form-secret"
url_preview_enabled: false
{limits}"#
    );
    let log = format!(
        r#"version: 1
formatters:
  plain:
    format: "%(asctime)s %(levelname)s %(name)s: %(message)s"
handlers:
  file:
    class: logging.FileHandler
    formatter: plain
    filename: "{d}/homeserver.log"
loggers:
  # Each request and its answer (status, time): what a client was answered, and when.
  synapse.access.http:
    level: INFO
root:
  level: WARNING
  handlers: [file]
disable_existing_loggers: false
"#
    );
    for (name, text) in [("homeserver.yaml", config), ("log.yaml", log)] {
        std::fs::write(dir.join(name), text)
            .unwrap_or_else(|e| panic!("cannot write {name} in {d}: {e}"));
    }
}

/// Every rate limiter of Synapse 1.163 (synapse/config/ratelimiting.py), each raised far above
/// what a test does: `per_second: 0` would block forever after the burst instead.
const RATE_LIMITS: &[&str] = &[
    "rc_message",
    "rc_registration",
    "rc_registration_token_validity",
    "rc_login.address",
    "rc_login.account",
    "rc_login.failed_attempts",
    "rc_admin_redaction",
    "rc_joins.local",
    "rc_joins.remote",
    "rc_joins_per_room",
    "rc_key_requests",
    "rc_3pid_validation",
    "rc_invites.per_room",
    "rc_invites.per_user",
    "rc_invites.per_issuer",
    "rc_third_party_invite",
    "rc_media_create",
    "rc_presence.per_user",
    "rc_delayed_event_mgmt",
    "rc_room_creation",
    "rc_reports",
    "rc_user_directory",
    "rc_profile",
];

/// Generates the server's signing key, as `--generate-keys` would but without loading all of
/// Synapse (0.06 s instead of 1.2 s).
fn generate_keys(python: &Path, dir: &Path) {
    let script = "import signedjson.key as k, sys\n\
                  k.write_signing_keys(open(sys.argv[1], 'w'), [k.generate_signing_key('a_test')])";
    let out = Command::new(python)
        .args(["-c", script, "signing.key"])
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", python.display()));
    assert!(
        out.status.success() && dir.join("signing.key").exists(),
        "generating synapse's signing key failed ({}):\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs Synapse like `python -m synapse.app.homeserver -c homeserver.yaml`, and stops it when
/// the test process that started it dies without stopping it (killed, or interrupted: the
/// server has its own process group, so a Ctrl-C does not reach it).
const SERVE_PY: &str = r#"
import os, runpy, signal, sys, threading, time

parent = os.getppid()

def orphaned():
    while os.getppid() == parent:
        time.sleep(1)
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(10)
    os._exit(1)

threading.Thread(target=orphaned, daemon=True).start()
sys.argv = ["synapse.app.homeserver", "-c", "homeserver.yaml"]
runpy.run_module("synapse.app.homeserver", run_name="__main__", alter_sys=True)
"#;

/// Registers users with the shared-secret admin API. Reads {"base", "secret", "users":
/// [[localpart, password], …]} on standard input and prints a JSON list of {user_id,
/// access_token, device_id}; on failure prints the server's answer (never a password).
const REGISTER_PY: &str = r#"
import hashlib, hmac, json, sys, urllib.error, urllib.request

req = json.load(sys.stdin)
base, secret = req["base"], req["secret"].encode()

def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    r = urllib.request.Request(base + path, data=data, method=method,
                               headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(r, timeout=30) as resp:
            return json.load(resp)
    except urllib.error.HTTPError as e:
        sys.exit(f"{method} {path}: HTTP {e.code}: {e.read().decode(errors='replace')}")

out = []
for user, password in req["users"]:
    nonce = call("GET", "/_synapse/admin/v1/register")["nonce"]
    mac = hmac.new(secret, digestmod=hashlib.sha1)
    for part in (nonce, user, password, "notadmin"):
        if part != nonce:
            mac.update(b"\x00")
        mac.update(part.encode())
    answer = call("POST", "/_synapse/admin/v1/register", {
        "nonce": nonce, "username": user, "password": password,
        "admin": False, "mac": mac.hexdigest(),
    })
    out.append({k: answer.get(k) for k in ("user_id", "access_token", "device_id")})
print(json.dumps(out))
"#;
