//! A real browser for the suites that check web pages: headless Chromium driven over WebDriver
//! (ChromeDriver, through fantoccini), with the axe-core accessibility checker run inside it.
//!
//! [`Browser::start`] spawns `chromedriver` on a free loopback port and opens a session in a
//! fresh headless Chromium; [`Browser::close`] ends the session, which closes the browser, and
//! stops the driver. A value dropped without being closed kills the driver's whole process
//! group, the browser with it, so that nothing is left running after a failed test.
//!
//! `scripts/prepare` (run by the test command) installs Chromium, ChromeDriver and axe-core and
//! names them: `MUSTER_CHROMIUM` (else `/usr/bin/chromium`), `MUSTER_CHROMEDRIVER` (else
//! `chromedriver` on the `PATH`) and `MUSTER_AXE_JS` (axe.min.js, no default). When one of them
//! could not be installed it sets `MUSTER_SKIP_BROWSER` to why, and [`Browser::start`] then
//! returns `None` after printing `skipped: <why>`, so that each test skips:
//!
//! ```ignore
//! let Some(browser) = Browser::start().await else { return };
//! ```
//!
//! Without `MUSTER_SKIP_BROWSER`, a missing piece fails the test, saying what to install.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use fantoccini::error::NewSessionError;
use fantoccini::wd::Capabilities;
use fantoccini::{Client, ClientBuilder};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::{Value, json};

/// How long [`Browser::start`] waits for the driver to answer.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
/// How long the driver may take to start the browser, once it answers.
const SESSION_TIMEOUT: Duration = Duration::from_secs(60);
/// Chromium's flags: headless, as root (no sandbox), without /dev/shm or a GPU.
const CHROMIUM_ARGS: [&str; 5] = [
    "--headless=new",
    "--no-sandbox",
    "--disable-dev-shm-usage",
    "--disable-gpu",
    "--window-size=1280,1000",
];
/// Runs axe-core on the whole document and hands back `impact:rule:nodes` per violation, or
/// `error: …` when axe fails (the callback of `execute_async` is the last argument).
const AXE_RUN: &str = r#"
const done = arguments[arguments.length - 1];
axe.run(document, { resultTypes: ["violations"] }).then(
    (r) => done(r.violations.map((v) => String(v.impact) + ":" + v.id + ":" + v.nodes.length)),
    (e) => done("error: " + e),
);
"#;

/// A headless Chromium session for one test (see the module documentation).
pub struct Browser {
    client: Client,
    driver: Driver,
    /// Whether pages run their scripts (not after [`Browser::start_without_javascript`]).
    javascript: bool,
}

/// The running `chromedriver`, in a process group of its own with the browser it starts.
/// Dropping it kills the group.
struct Driver {
    child: tokio::process::Child,
    path: PathBuf,
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The group's id is the driver's pid (it leads the group); `kill -- -PGID` reaches every
        // process of the group, the browser's too, which the driver's own death would orphan.
        if let Some(pid) = self.child.id() {
            let _ = std::process::Command::new("kill")
                .args(["-KILL", "--", &format!("-{pid}")])
                .stderr(Stdio::null())
                .status();
        }
        let _ = self.child.start_kill();
    }
}

impl Browser {
    /// Starts ChromeDriver and a headless Chromium, and opens a session; `None` (with the
    /// reason on standard error) when `MUSTER_SKIP_BROWSER` is set. Panics, saying what is
    /// missing or what went wrong, when it cannot.
    pub async fn start() -> Option<Browser> {
        Browser::launch(None, &[]).await
    }

    /// As [`Browser::start`], with Chromium's flags `args` besides its own (to keep a client from
    /// every host but loopback, say).
    pub async fn start_with(args: &[&str]) -> Option<Browser> {
        Browser::launch(None, args).await
    }

    /// As [`Browser::start`], with JavaScript turned off for every page (Chromium's content
    /// setting), to see a page as a reader without scripts does. WebDriver's own scripts
    /// ([`Client::execute`]) still run, but no timer or promise of theirs fires, so axe-core
    /// cannot: [`Browser::axe_violations`] panics here (check accessibility in a browser from
    /// [`Browser::start`]).
    pub async fn start_without_javascript() -> Option<Browser> {
        let prefs = json!({ "profile.managed_default_content_settings.javascript": 2 });
        Browser::launch(Some(prefs), &[]).await
    }

    async fn launch(prefs: Option<Value>, args: &[&str]) -> Option<Browser> {
        let javascript = prefs.is_none();
        if let Some(why) = skip_reason() {
            eprintln!("skipped: {why}");
            return None;
        }
        let chromium = chromium();
        let path = chromedriver();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = tokio::process::Command::new(&path)
            .arg(format!("--port={port}"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", path.display()));
        let mut driver = Driver { child, path };

        let all: Vec<&str> = CHROMIUM_ARGS.iter().chain(args).copied().collect();
        let mut options = json!({ "binary": chromium, "args": all });
        if let Some(prefs) = prefs {
            options["prefs"] = prefs;
        }
        let mut capabilities = Capabilities::new();
        capabilities.insert("goog:chromeOptions".to_string(), options);
        // The driver is on this machine, spoken to in plain HTTP: no TLS is needed.
        let mut builder = ClientBuilder::new(HttpConnector::new());
        builder.capabilities(capabilities);

        let url = format!("http://127.0.0.1:{port}");
        let deadline = Instant::now() + CONNECT_TIMEOUT;
        let client = loop {
            let attempt = tokio::time::timeout(SESSION_TIMEOUT, builder.connect(&url)).await;
            let error = match attempt {
                Ok(Ok(client)) => break client,
                Ok(Err(NewSessionError::SessionNotCreated(e))) => panic!(
                    "{} could not start {}: {e}",
                    driver.path.display(),
                    chromium.display()
                ),
                Ok(Err(e)) => e.to_string(),
                Err(_) => panic!(
                    "{} did not start {} within {SESSION_TIMEOUT:?}",
                    driver.path.display(),
                    chromium.display()
                ),
            };
            if let Ok(Some(status)) = driver.child.try_wait() {
                panic!(
                    "{} exited ({status}) before it answered",
                    driver.path.display()
                );
            }
            assert!(
                Instant::now() < deadline,
                "{} did not answer on port {port} within {CONNECT_TIMEOUT:?}: {error}",
                driver.path.display()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        Some(Browser {
            client,
            driver,
            javascript,
        })
    }

    /// The WebDriver client, for everything else (`goto`, `find`, `execute`, `wait`…).
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// Ends the session (the browser quits) and stops the driver.
    pub async fn close(self) {
        let Browser { client, driver, .. } = self;
        if let Err(e) = client.close().await {
            eprintln!("closing the browser session: {e}");
        }
        drop(driver);
    }

    /// axe-core's violations on the current page, each as `impact:rule:nodes` (for example
    /// `serious:color-contrast:3`), in axe's order. axe-core is injected into the page first
    /// when it is not there yet (after each navigation). Panics when `MUSTER_AXE_JS` names no
    /// file, when axe fails, and in a browser without JavaScript.
    pub async fn axe_violations(&self) -> Vec<String> {
        assert!(
            self.javascript,
            "axe-core cannot run with JavaScript off (its timers never fire there): check \
             accessibility in a browser from Browser::start"
        );
        let loaded = self
            .client
            .execute("return typeof window.axe === 'object';", vec![])
            .await
            .unwrap_or_else(|e| panic!("cannot run a script in the page: {e}"));
        if loaded != Value::Bool(true) {
            let source = axe_source();
            self.client
                .execute(&source, vec![])
                .await
                .unwrap_or_else(|e| panic!("cannot inject axe-core: {e}"));
        }
        let result = self
            .client
            .execute_async(AXE_RUN, vec![])
            .await
            .unwrap_or_else(|e| panic!("axe-core did not run: {e}"));
        match result {
            Value::Array(items) => items
                .into_iter()
                .map(|v| match v {
                    Value::String(s) => s,
                    other => other.to_string(),
                })
                .collect(),
            other => panic!("axe-core failed: {other}"),
        }
    }

    /// The violations of [`Browser::axe_violations`] whose impact is `serious` or `critical`.
    pub async fn serious_violations(&self) -> Vec<String> {
        self.axe_violations()
            .await
            .into_iter()
            .filter(|v| v.starts_with("serious:") || v.starts_with("critical:"))
            .collect()
    }

    /// Saves a PNG of the window (1280×1000) at `path`, for a person to look at.
    pub async fn screenshot_to(&self, path: &Path) {
        let png = self
            .client
            .screenshot()
            .await
            .unwrap_or_else(|e| panic!("no screenshot: {e}"));
        std::fs::write(path, png)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
    }
}

/// Why the browser tests skip (`MUSTER_SKIP_BROWSER`, when set and not empty).
fn skip_reason() -> Option<String> {
    std::env::var("MUSTER_SKIP_BROWSER")
        .ok()
        .filter(|why| !why.trim().is_empty())
}

/// What to say when a piece is missing.
const INSTALL_HINT: &str = "scripts/prepare installs it (run by scripts/test); \
     MUSTER_SKIP_BROWSER=<why> skips the browser tests instead";

/// The Chromium binary: `MUSTER_CHROMIUM`, else `/usr/bin/chromium`.
fn chromium() -> PathBuf {
    let path = std::env::var_os("MUSTER_CHROMIUM")
        .map_or_else(|| PathBuf::from("/usr/bin/chromium"), PathBuf::from);
    assert!(
        path.is_file(),
        "Chromium is not installed ({} is missing; apt-get install chromium, or set \
         MUSTER_CHROMIUM): {INSTALL_HINT}",
        path.display()
    );
    path
}

/// ChromeDriver: `MUSTER_CHROMEDRIVER`, else `chromedriver` on the `PATH`.
fn chromedriver() -> PathBuf {
    if let Some(path) = std::env::var_os("MUSTER_CHROMEDRIVER") {
        let path = PathBuf::from(path);
        assert!(
            path.is_file(),
            "MUSTER_CHROMEDRIVER names no file ({}): {INSTALL_HINT}",
            path.display()
        );
        return path;
    }
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|dir| dir.join("chromedriver"))
        .find(|p| p.is_file())
        .unwrap_or_else(|| {
            panic!(
                "ChromeDriver is not installed (no chromedriver on the PATH; apt-get install \
                 chromium-driver, or set MUSTER_CHROMEDRIVER): {INSTALL_HINT}"
            )
        })
}

/// The text of axe.min.js, from `MUSTER_AXE_JS`.
fn axe_source() -> String {
    let Some(path) = std::env::var_os("MUSTER_AXE_JS") else {
        panic!("MUSTER_AXE_JS is not set (the path of axe-core's axe.min.js): {INSTALL_HINT}");
    };
    let path = PathBuf::from(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read axe-core at {} (MUSTER_AXE_JS): {e}; {INSTALL_HINT}",
            path.display()
        )
    })
}
