//! The web pages' side of the bot's suites: a core with its pages served on a free port, and
//! a plain HTTP client that reads answers and live streams as they are sent.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use muster_core::clock::ManualClock;
use muster_core::desk::{Core, Reply, Target};
use muster_core::kernel::community::Communities;
use muster_core::kernel::reply::LinkKind;
use muster_core::store::{Changes, MemoryStore, Metered};
use muster_web::listen::Limits;
use muster_web::{Shared, serve};

/// A console command answered, as the suites of the core say it.
pub use muster_core::testing::say;

pub const START: u64 = 1_795_000_000;

/// A core on a store that tells its changes, with the pages served on a free port; the
/// runtime that serves them lives as long as the `Site`.
pub struct Site {
    pub core: Core,
    pub addr: SocketAddr,
    pub runtime: tokio::runtime::Runtime,
    /// The core's clock, which the suite moves.
    pub clock: Arc<ManualClock>,
}

pub fn site_with(streams: usize, communities: Communities) -> Site {
    let limits = Limits {
        streams_per_address: streams,
        ..Limits::default()
    };
    site_limited(limits, communities)
}

/// A site whose listener allows what `limits` allow.
pub fn site_limited(limits: Limits, communities: Communities) -> Site {
    let changes = Arc::new(Changes::default());
    let store = Arc::new(Metered::telling(
        Arc::new(MemoryStore::default()),
        Arc::clone(&changes),
    ));
    let clock = Arc::new(ManualClock::starting_at(START));
    let core = Core::with_clock(store, "!", Arc::clone(&clock) as _);
    core.set_communities(communities);
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let listener = runtime
        .block_on(serve::bind("127.0.0.1:0".parse().unwrap()))
        .expect("a free port");
    let addr = listener.local_addr().unwrap();
    core.set_web(Some(format!("http://{addr}")));
    let shared = Shared::new(Arc::new(core.with_prefix("!")), changes, limits);
    runtime.spawn(serve::run(shared, listener));
    Site {
        core,
        addr,
        runtime,
        clock,
    }
}

pub fn site() -> Site {
    site_with(16, Communities::default())
}

/// An answer: its status, its headers (names in lower case) and its body.
pub struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// Sends `method path` to the site and reads the whole answer.
pub fn ask(addr: SocketAddr, method: &str, path: &str) -> Answer {
    let mut s = TcpStream::connect(addr).expect("the listener");
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    // The whole answer within 20 s: a live stream, which never ends, fails here.
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let mut raw = Vec::new();
    let mut buf = [0u8; 16384];
    loop {
        assert!(
            std::time::Instant::now() < deadline,
            "{method} {path}: the answer did not end in 20 s"
        );
        match s.read(&mut buf).expect("an answer") {
            0 => break,
            n => raw.extend_from_slice(&buf[..n]),
        }
    }
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .expect("a status");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect::<Vec<_>>();
    let mut body = raw[split + 4..].to_vec();
    if headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v == "chunked")
    {
        body = unchunk(&body);
    }
    Answer {
        status,
        headers,
        body,
    }
}

pub fn unchunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(end) = raw.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&raw[..end]).trim(), 16).unwrap_or(0);
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&raw[end + 2..end + 2 + size]);
        raw = &raw[end + 2 + size + 2..];
    }
}

/// A PNG's width and height, from its header.
pub fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    if !png.starts_with(b"\x89PNG\r\n\x1a\n") || png.get(12..16)? != b"IHDR" {
        return None;
    }
    let word = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    Some((word(16), word(20)))
}

pub fn get(site: &Site, path: &str) -> Answer {
    ask(site.addr, "GET", path)
}

/// The path of the one link of `kind` among `replies`.
pub fn link(site: &Site, replies: &[Reply], kind: LinkKind) -> String {
    let links: Vec<&str> = replies
        .iter()
        .filter_map(|r| match r {
            Reply::Link { kind: k, url } if *k == kind => Some(url.as_str()),
            _ => None,
        })
        .collect();
    let [url] = links.as_slice() else {
        panic!("not one {kind:?} link: {replies:?}");
    };
    let base = format!("http://{}", site.addr);
    url.strip_prefix(&base)
        .unwrap_or_else(|| panic!("{url} is not on {base}"))
        .to_string()
}

/// A Lanrick game of alice and bob in `#general`, begun; its page's path.
pub fn begun(site: &Site, white: &str) -> String {
    say(&site.core, white, "general", "new lanrick");
    let out = say(&site.core, "bob", "general", "join");
    link(site, &out, LinkKind::Watch)
}

/// Reads the events of a live stream: each `update`'s data.
pub struct Stream {
    pub lines: BufReader<TcpStream>,
}

impl Stream {
    pub fn open(site: &Site, path: &str) -> Result<Stream, u16> {
        let mut s = TcpStream::connect(site.addr).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        write!(
            s,
            "GET {path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n"
        )
        .unwrap();
        let mut lines = BufReader::new(s);
        let mut status = String::new();
        lines.read_line(&mut status).unwrap();
        let code: u16 = status
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap();
        if code != 200 {
            return Err(code);
        }
        Ok(Stream { lines })
    }

    /// The first update from now on whose part has `needle` (the stream's read times out
    /// after 20 s without one).
    pub fn until(&mut self, needle: &str) -> serde_json::Value {
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        loop {
            assert!(
                std::time::Instant::now() < deadline,
                "no update with {needle:?} in 30 s"
            );
            let u = self.update();
            if u["html"].as_str().unwrap_or_default().contains(needle) {
                return u;
            }
        }
    }

    /// The next update's data (as JSON).
    pub fn update(&mut self) -> serde_json::Value {
        // Keep-alive comments come every 15 s: the read's own timeout alone would never end a
        // stream that says nothing else.
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        let mut line = String::new();
        loop {
            assert!(std::time::Instant::now() < deadline, "no update in 30 s");
            line.clear();
            self.lines.read_line(&mut line).expect("the stream goes on");
            // Chunk sizes and other lines are passed over.
            if let Some(data) = line.trim_end().strip_prefix("data: ") {
                return serde_json::from_str(data).expect("an update is JSON");
            }
        }
    }
}

/// The notices waiting for the console, places opened as asked.
pub fn notices(core: &Core) -> Vec<Reply> {
    let mut out = Vec::new();
    loop {
        let notices = core.notices("console");
        if notices.is_empty() {
            return out;
        }
        for n in notices {
            if let Target::Open(o) = &n.target {
                core.place_opened(o, &o.name);
            }
            out.extend(n.replies);
        }
    }
}
