//! The web listener under a hostile client (docs/web.md, "Privacy and safety"): connections
//! that say nothing or half a request, too many from one address, heads hyper would refuse
//! itself, and mangled addresses. Readers from other addresses are served meanwhile, every
//! refusal carries the pages' headers, and every address that shows nothing is the one 404.

mod common;

use std::io::{ErrorKind, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpStream};
use std::time::Duration;

use common::site::*;
use muster_core::kernel::community::Communities;
use muster_core::kernel::reply::LinkKind;
use muster_web::gate::{GUARDS, HeadLimits};
use muster_web::listen::Limits;

/// A connection to the site from `from` (any address of 127.0.0.0/8 is this machine's).
fn connect_from(site: &Site, from: &str) -> TcpStream {
    let from: IpAddr = from.parse().unwrap();
    let addr = site.addr;
    let stream = site.runtime.block_on(async move {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(SocketAddr::new(from, 0)).unwrap();
        socket.connect(addr).await.unwrap().into_std().unwrap()
    });
    stream.set_nonblocking(false).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream
}

/// Whether the listener closed `stream` (before its read timeout), having sent nothing.
fn closed_silently(stream: &mut TcpStream) -> bool {
    let mut buf = [0u8; 64];
    match stream.read(&mut buf) {
        Ok(0) => true,
        Ok(_) => false,
        Err(e) => matches!(e.kind(), ErrorKind::ConnectionReset | ErrorKind::BrokenPipe),
    }
}

/// Writes `raw` on a fresh connection and reads the whole answer, raw.
fn raw(site: &Site, raw: &[u8]) -> String {
    let mut s = connect_from(site, "127.0.0.1");
    s.write_all(raw).unwrap();
    let mut got = Vec::new();
    let _ = s.read_to_end(&mut got);
    String::from_utf8_lossy(&got).into_owned()
}

/// An answer's status and whether it carries every one of the pages' headers.
fn guarded(answer: &str) -> (u16, bool) {
    let (head, _) = answer.split_once("\r\n\r\n").unwrap_or((answer, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let lower = head.to_ascii_lowercase();
    let all = GUARDS.iter().all(|(name, value)| {
        lower.contains(&format!("\r\n{name}: {}", value.to_ascii_lowercase()))
    });
    (status, all)
}

#[test]
fn idle_and_half_sent_connections_cannot_crowd_out_other_readers() {
    let limits = Limits {
        connections_per_address: 8,
        // Long enough that nothing below is closed for being slow: only the allowance closes.
        head: HeadLimits {
            time: Duration::from_secs(60),
            ..HeadLimits::default()
        },
        ..Limits::default()
    };
    let site = site_limited(limits, Communities::default());
    let path = begun(&site, "alice");
    // Thirty connections from one address: some silent, some half a request.
    let mut held: Vec<TcpStream> = (0..30)
        .map(|i| {
            let mut s = connect_from(&site, "127.0.0.1");
            if i % 2 == 1 {
                s.write_all(b"GET /g/").unwrap();
            }
            s
        })
        .collect();
    // The listener keeps eight and closes the rest at once, without a word.
    let closed = held
        .iter_mut()
        .skip(8)
        .map(closed_silently)
        .filter(|&c| c)
        .count();
    assert_eq!(closed, 22);
    // A reader from another address is served meanwhile, and a move goes on being made.
    let mut reader = connect_from(&site, "127.0.0.2");
    write!(
        reader,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut page = String::new();
    reader.read_to_string(&mut page).unwrap();
    assert!(page.starts_with("HTTP/1.1 200 OK\r\n"), "{page}");
    say(&site.core, "alice", "general", "move b1");
    assert!(get_from(&site, "127.0.0.3", &path).contains("White b1"));
    // The first address gets a place again once one of its own closes.
    held.truncate(7);
    let again = (0..50).find_map(|_| {
        let answer = get_from(&site, "127.0.0.1", &path);
        if answer.is_empty() {
            std::thread::sleep(Duration::from_millis(100));
            None
        } else {
            Some(answer)
        }
    });
    assert!(again.is_some_and(|a| a.starts_with("HTTP/1.1 200 OK")));
}

/// `GET path` from `from`, the whole answer raw (empty if the connection was closed).
fn get_from(site: &Site, from: &str, path: &str) -> String {
    let mut s = connect_from(site, from);
    let _ = write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    );
    let mut got = Vec::new();
    let _ = s.read_to_end(&mut got);
    String::from_utf8_lossy(&got).into_owned()
}

#[test]
fn a_head_too_slow_and_a_connection_idle_too_long_are_closed() {
    let limits = Limits {
        head: HeadLimits {
            time: Duration::from_millis(300),
            ..HeadLimits::default()
        },
        idle: Duration::from_millis(500),
        ..Limits::default()
    };
    let site = site_limited(limits, Communities::default());
    let path = begun(&site, "alice");
    // Nothing at all, and half a head trickled in: both closed without an answer.
    let mut silent = connect_from(&site, "127.0.0.1");
    assert!(closed_silently(&mut silent));
    let mut slow = connect_from(&site, "127.0.0.1");
    for part in ["GET ", "/g/", "x HT"] {
        slow.write_all(part.as_bytes()).unwrap();
        std::thread::sleep(Duration::from_millis(150));
    }
    assert!(closed_silently(&mut slow));
    // A connection kept alive after its answer is closed once idle.
    let mut kept = connect_from(&site, "127.0.0.1");
    write!(kept, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        match kept.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) => panic!("the kept connection: {e}"),
        }
    }
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 200 OK"), "{text}");
    assert!(text.contains("</html>"), "{text}");
}

#[test]
fn what_hyper_would_answer_itself_is_answered_with_the_pages_headers() {
    let site = site();
    let long = format!("GET /g/{} HTTP/1.1\r\nHost: x\r\n\r\n", "a".repeat(9000));
    let fields = format!(
        "GET / HTTP/1.1\r\nHost: x\r\nX-Big: {}\r\n\r\n",
        "y".repeat(20_000)
    );
    let cases: [(&[u8], u16); 8] = [
        (b"NONSENSE\r\n\r\n", 400),
        (b"GET / HTTP/1.1\r\nBad Field: x\r\n\r\n", 400),
        (long.as_bytes(), 414),
        (fields.as_bytes(), 431),
        (b"POST /nothing HTTP/1.1\r\nHost: x\r\n\r\n", 405),
        (
            b"POST /g/x HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
            405,
        ),
        (
            b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
            400,
        ),
        (b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 400),
    ];
    for (request, status) in cases {
        let answer = raw(&site, request);
        let shown = String::from_utf8_lossy(&request[..request.len().min(40)]).into_owned();
        assert_eq!(guarded(&answer), (status, true), "{shown}: {answer}");
    }
    let allowed = raw(&site, b"DELETE /g/x HTTP/1.1\r\nHost: x\r\n\r\n");
    assert!(
        allowed
            .to_ascii_lowercase()
            .contains("\r\nallow: get, head\r\n"),
        "{allowed}"
    );
}

#[test]
fn every_malformed_address_is_the_one_404_byte_for_byte() {
    let site = site();
    let game = begun(&site, "alice");
    let game_token = game.strip_prefix("/g/").unwrap().to_string();
    let opened = say(
        &site.core,
        "olive",
        "hall",
        "tournament new league croquet swiss",
    );
    let event = link(&site, &opened, LinkKind::Event);
    let event_token = event.strip_prefix("/e/").unwrap().to_string();
    let unknown = get(&site, &format!("/g/{}", "0".repeat(32)));
    assert_eq!(unknown.status, 404);
    let mangled = [
        "/g/%ff".to_string(),
        "/c/%ff".to_string(),
        "/p/%c3".to_string(),
        "/l/%c3%28".to_string(),
        "/g/%ff/board.png".to_string(),
        format!("/e/{game_token}"),
        format!("/e/{game_token}/events"),
        format!("/l/{event_token}/events"),
        format!("/p/{game_token}/events"),
        format!("/g/{event_token}/events"),
        format!("/g/{event_token}/board.png"),
        format!("/e/{game_token}/export.json"),
        format!("/e/{game_token}/export.trf"),
        "/g/\u{e9}t\u{e9}".to_string(),
        "http://[::1/g".to_string(),
        "/.unreadable".to_string(),
        "/".to_string(),
    ];
    // While a game's page is watched, too: a stream of one kind is not found under another.
    let _watching = Stream::open(&site, &format!("{game}/events")).expect("a stream");
    let _watching_event = Stream::open(&site, &format!("{event}/events")).expect("a stream");
    let heads = |a: &Answer| {
        let mut h: Vec<(String, String)> = a
            .headers
            .iter()
            .filter(|(n, _)| n != "date")
            .cloned()
            .collect();
        h.sort();
        h
    };
    for path in &mangled {
        for method in ["GET", "HEAD"] {
            let a = ask(site.addr, method, path);
            assert_eq!(a.status, 404, "{method} {path}");
            assert_eq!(heads(&a), heads(&unknown), "{method} {path}");
            if method == "GET" {
                assert_eq!(a.body, unknown.body, "{path}");
            }
        }
    }
    // A query that does not read asks for nothing: the page as it stands.
    assert_eq!(get(&site, &format!("{game}?ply=%ff&theme=%c3")).status, 200);
}

#[test]
fn a_reader_that_stops_reading_is_let_go() {
    let limits = Limits {
        head: HeadLimits {
            stall: Duration::from_millis(300),
            ..HeadLimits::default()
        },
        ..Limits::default()
    };
    let site = site_limited(limits, Communities::default());
    let path = begun(&site, "alice");
    // A small window, and a thousand pipelined requests whose answers are never read: some
    // nine megabytes, far more than the connection's buffers hold.
    let addr = site.addr;
    let mut s = site.runtime.block_on(async move {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.set_recv_buffer_size(4096).unwrap();
        socket.connect(addr).await.unwrap().into_std().unwrap()
    });
    s.set_nonblocking(false).unwrap();
    let one = format!("GET {path} HTTP/1.1\r\nHost: x\r\n\r\n");
    let page = get(&site, &path).body.len();
    s.write_all(one.repeat(1000).as_bytes()).unwrap();
    std::thread::sleep(Duration::from_secs(2));
    // What was sent before the listener gave up, then the end: not every answer.
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut got = 0;
    let mut buf = [0u8; 65536];
    let ended = loop {
        match s.read(&mut buf) {
            Ok(0) => break true,
            Ok(n) => got += n,
            Err(e) if matches!(e.kind(), ErrorKind::ConnectionReset) => break true,
            Err(_) => break false,
        }
    };
    assert!(ended, "the connection was held after {got} bytes");
    assert!(got < 1000 * page, "{got} bytes of {}", 1000 * page);
}
