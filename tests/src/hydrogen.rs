//! Hydrogen, a Matrix web client people use, in headless Chromium: what a person sees of
//! Muster's messages — the thumbnails a client asks for, tiles that stay broken — rather than
//! what a protocol client downloads.
//!
//! `scripts/prepare` builds the client's folder (`tests/hydrogen/` bundled with
//! `hydrogen-view-sdk` and libolm) and names it `MUSTER_HYDROGEN_SITE`. [`Site::serve`] serves it
//! from loopback with a `config.json` naming the homeserver; [`Hydrogen::start`] opens it in a
//! fresh browser (see [`crate::browser`]) and logs in, or returns `None` when the browser
//! tests are skipped (`MUSTER_SKIP_BROWSER`). The browser reaches no host but loopback.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use fantoccini::Locator;
use serde_json::Value;

use crate::browser::Browser;

/// How long a step in the client may take (login and the first sync are the slowest).
const WAIT: Duration = Duration::from_secs(60);

/// The folder `scripts/prepare` built, or why there is none.
fn site_dir() -> Result<PathBuf, String> {
    let dir = std::env::var_os("MUSTER_HYDROGEN_SITE")
        .map(PathBuf::from)
        .ok_or("MUSTER_HYDROGEN_SITE is not set: run the tests with scripts/test, whose scripts/prepare builds Hydrogen")?;
    if dir.join("client.js").is_file() {
        Ok(dir)
    } else {
        Err(format!("{} holds no Hydrogen (client.js)", dir.display()))
    }
}

/// Hydrogen's folder served on a free loopback port, for as long as the value lives.
pub struct Site {
    port: u16,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Drop for Site {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

/// A file's type by its name's ending: the service worker, the scripts and olm's WebAssembly
/// are only run when served as what they are.
fn content_type(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "wasm" => "application/wasm",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        _ => "application/octet-stream",
    }
}

/// Answers one request on `stream` from `root` (`config.json` is `config`).
fn answer(mut stream: TcpStream, root: &Path, config: &str) {
    let mut line = String::new();
    let mut reader = BufReader::new(&stream);
    if reader.read_line(&mut line).is_err() {
        return;
    }
    // The rest of the head is not needed.
    let mut rest = String::new();
    while reader.read_line(&mut rest).is_ok_and(|n| n > 2) {
        rest.clear();
    }
    let path = line.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split(['?', '#']).next().unwrap_or("/");
    let (status, kind, body) = if path == "/config.json" {
        ("200 OK", "application/json", config.as_bytes().to_vec())
    } else {
        let relative = path.trim_start_matches('/');
        let relative = if relative.is_empty() {
            "index.html"
        } else {
            relative
        };
        let file = root.join(relative);
        match (relative.contains(".."), std::fs::read(&file)) {
            (false, Ok(bytes)) => ("200 OK", content_type(&file), bytes),
            _ => ("404 Not Found", "text/plain", b"not found".to_vec()),
        }
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\n\
         Cache-Control: no-store\r\nService-Worker-Allowed: /\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&body);
}

impl Site {
    /// Serves Hydrogen for the homeserver at `homeserver` (`http://127.0.0.1:PORT`); `None`
    /// when the browser tests are skipped (`MUSTER_SKIP_BROWSER`, said), and a panic saying
    /// what to do when the folder is missing otherwise.
    pub fn serve(homeserver: &str) -> Option<Site> {
        if let Some(why) = std::env::var_os("MUSTER_SKIP_BROWSER") {
            eprintln!("skipped: {}", why.to_string_lossy());
            return None;
        }
        let root = site_dir().unwrap_or_else(|why| panic!("{why}"));
        let config = serde_json::json!({ "defaultHomeServer": homeserver }).to_string();
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
        let port = listener.local_addr().unwrap().port();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopped = std::sync::Arc::clone(&stop);
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                if stopped.load(std::sync::atomic::Ordering::SeqCst) {
                    return;
                }
                let Ok(stream) = stream else { continue };
                let (root, config) = (root.clone(), config.clone());
                std::thread::spawn(move || answer(stream, &root, &config));
            }
        });
        Some(Site { port, stop })
    }

    /// Where it is served.
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }
}

/// Hydrogen in a browser, logged in as one user.
pub struct Hydrogen {
    browser: Browser,
}

/// Chromium's flags for the client: no host but loopback, no background traffic.
const ISOLATED: [&str; 5] = [
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
];

/// Counts a page's images: `[shown, broken, loading]` for those under `selector`, each image
/// shown when loaded with a width, broken when it failed or loaded empty.
const COUNT_IMAGES: &str = r#"
const [selector] = arguments;
const out = [0, 0, 0];
for (const img of document.querySelectorAll(selector)) {
    if (img.complete && img.naturalWidth > 0) {
        out[0] += 1;
    } else if (img.complete && img.getAttribute("src")) {
        out[1] += 1;
    } else {
        out[2] += 1;
    }
}
return out;
"#;

/// Watches the timeline and keeps when each text first appeared (milliseconds since the Unix
/// epoch), in `window.__musterTexts`; returns when `needle` did, or null.
const TEXT_SEEN: &str = r#"
const [needle] = arguments;
if (!window.__musterWatch) {
    window.__musterTexts = [];
    window.__musterWatch = new MutationObserver(() => {
        const now = Date.now();
        for (const el of document.querySelectorAll(".Timeline_message")) {
            const text = el.innerText;
            if (!window.__musterTexts.some(([t]) => t === text)) {
                window.__musterTexts.push([text, now]);
            }
        }
    });
    window.__musterWatch.observe(document.body, { childList: true, subtree: true, characterData: true });
}
const seen = window.__musterTexts.find(([t]) => t.includes(needle));
return seen ? seen[1] : null;
"#;

/// Watches every image of the timeline and keeps when each first loaded with a width
/// (milliseconds since the Unix epoch, by `src`), in `window.__musterShown`.
const WATCH_IMAGES: &str = r#"
window.__musterShown = window.__musterShown || {};
const mark = (img) => {
    const seen = () => {
        if (img.naturalWidth > 0 && !window.__musterShown[img.src]) {
            window.__musterShown[img.src] = Date.now();
        }
    };
    if (img.complete) { seen(); }
    img.addEventListener("load", seen);
};
if (!window.__musterImages) {
    window.__musterImages = new MutationObserver(() => {
        document.querySelectorAll(".Timeline img").forEach(mark);
    });
    window.__musterImages.observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["src"] });
}
document.querySelectorAll(".Timeline img").forEach(mark);
return true;
"#;

impl Hydrogen {
    /// Opens Hydrogen at `site` in a fresh browser and logs in as `user` (a local part) with
    /// `password`, waiting until the room list shows; `None` when the browser tests are skipped
    /// (or the folder was not built: then it says why and skips too, unless that folder was
    /// expected).
    pub async fn start(site: &Site, user: &str, password: &str) -> Option<Hydrogen> {
        let browser = Browser::start_with(&ISOLATED).await?;
        let c = browser.client();
        c.goto(&site.url()).await.expect("Hydrogen's page");
        let username = c
            .wait()
            .at_most(WAIT)
            .for_element(Locator::Css("#username"))
            .await
            .expect("Hydrogen's login form");
        username.send_keys(user).await.unwrap();
        let field = c.find(Locator::Css("#password")).await.unwrap();
        field.send_keys(password).await.unwrap();
        field.send_keys("\u{e007}").await.unwrap();
        c.wait()
            .at_most(WAIT)
            .for_element(Locator::Css(".SessionView .RoomList"))
            .await
            .expect("Hydrogen's session after logging in");
        Some(Hydrogen { browser })
    }

    /// The WebDriver client.
    pub fn client(&self) -> &fantoccini::Client {
        self.browser.client()
    }

    /// Opens the room named `name` from the room list (waiting for it to be listed), and waits
    /// for its composer.
    pub async fn open_room(&self, name: &str) {
        let c = self.client();
        let deadline = Instant::now() + WAIT;
        loop {
            let found = c
                .execute(
                    r#"const [name] = arguments;
                       const item = [...document.querySelectorAll(".RoomList li a")]
                           .find((a) => a.innerText.includes(name));
                       if (item) { item.click(); return true; }
                       return false;"#,
                    vec![Value::from(name)],
                )
                .await
                .unwrap();
            if found == Value::Bool(true) {
                break;
            }
            assert!(Instant::now() < deadline, "the room {name} is not listed");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        c.wait()
            .at_most(WAIT)
            .for_element(Locator::Css(".MessageComposer textarea"))
            .await
            .expect("the room's composer");
        c.execute(WATCH_IMAGES, vec![]).await.unwrap();
        c.execute(TEXT_SEEN, vec![Value::from("")]).await.unwrap();
    }

    /// Types `text` into the composer and sends it (Enter); when it was sent (milliseconds since
    /// the Unix epoch).
    pub async fn say(&self, text: &str) -> u64 {
        let c = self.client();
        let composer = c
            .find(Locator::Css(".MessageComposer textarea"))
            .await
            .expect("the composer");
        composer.send_keys(text).await.unwrap();
        let at = now_ms();
        composer.send_keys("\u{e007}").await.unwrap();
        at
    }

    /// The timeline's images: shown, broken, still loading.
    pub async fn images(&self) -> [u64; 3] {
        let v = self
            .client()
            .execute(COUNT_IMAGES, vec![Value::from(".Timeline img")])
            .await
            .unwrap();
        let n = |i: usize| v[i].as_u64().unwrap_or(0);
        [n(0), n(1), n(2)]
    }

    /// Waits until at least `n` images of the timeline are shown and none is loading; the
    /// counts then. Panics after a minute, with the counts.
    pub async fn wait_for_images(&self, n: u64) -> [u64; 3] {
        let deadline = Instant::now() + WAIT;
        loop {
            let counts = self.images().await;
            if counts[0] + counts[1] >= n && counts[2] == 0 {
                return counts;
            }
            assert!(
                Instant::now() < deadline,
                "not {n} images in the timeline: {counts:?} (shown, broken, loading)"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// When each image of the timeline was first shown (milliseconds since the Unix epoch),
    /// in the order they were.
    pub async fn shown_at(&self) -> Vec<u64> {
        let v = self
            .client()
            .execute("return Object.values(window.__musterShown || {});", vec![])
            .await
            .unwrap();
        let mut at: Vec<u64> = v
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_u64).collect())
            .unwrap_or_default();
        at.sort_unstable();
        at
    }

    /// When a message of the timeline holding `needle` first appeared (milliseconds since the
    /// Unix epoch), waiting up to a minute.
    pub async fn text_seen(&self, needle: &str) -> u64 {
        let deadline = Instant::now() + WAIT;
        loop {
            let v = self
                .client()
                .execute(TEXT_SEEN, vec![Value::from(needle)])
                .await
                .unwrap();
            if let Some(at) = v.as_u64() {
                return at;
            }
            assert!(Instant::now() < deadline, "no message with {needle:?}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// The timeline's text, for a failure's message.
    pub async fn timeline(&self) -> String {
        self.client()
            .execute(
                "const t = document.querySelector('.Timeline'); return t ? t.innerText : '';",
                vec![],
            )
            .await
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }

    /// A screenshot of the client, written to `path`.
    pub async fn screenshot_to(&self, path: &Path) {
        self.browser.screenshot_to(path).await;
    }

    /// Closes the browser.
    pub async fn close(self) {
        self.browser.close().await;
    }
}

/// Now, in milliseconds since the Unix epoch (the clock the page's `Date.now()` reads).
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}
