//! The web listener cannot take the bot down (docs/web.md, "Privacy and safety"): `muster
//! console` allowed only 256 open files, with hundreds of idle and half-sent connections held
//! from one address, still serves a reader from another, stores each move and writes its board.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use muster_tests::web::Console;

/// A connection from `from` (any address of 127.0.0.0/8 is this machine's) to `to`.
fn connect_from(from: &str, to: SocketAddr) -> std::io::Result<TcpStream> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let from: SocketAddr = format!("{from}:0").parse().unwrap();
    let stream = runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4()?;
        socket.bind(from)?;
        socket.connect(to).await?.into_std()
    })?;
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_secs(20)))?;
    Ok(stream)
}

/// `GET path` from `from`: the answer's status line and its body.
fn get_from(from: &str, to: SocketAddr, path: &str) -> (String, Vec<u8>) {
    let mut s = connect_from(from, to).expect("a connection");
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("an answer");
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(raw.len());
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let status = head.lines().next().unwrap_or_default().to_string();
    (status, raw[(split + 4).min(raw.len())..].to_vec())
}

/// How many connections the listener closed at once for their address's allowance, as its
/// metrics count them.
fn refused_for_address(ops: &str) -> u64 {
    let (_, body) = muster_tests::http(ops, "GET", "/metrics");
    body.lines()
        .find(|l| l.starts_with("muster_web_refused_total{reason=\"address\"}"))
        .and_then(|l| l.rsplit(' ').next()?.parse().ok())
        .unwrap_or(0)
}

#[test]
fn hundreds_of_idle_connections_leave_the_pages_and_the_chat_working() {
    let ops = muster_tests::free_addr();
    let mut console = Console::start_limited(
        &muster_tests::muster_binary!(),
        "exhaustion",
        &[("MUSTER_OPS_LISTEN", ops.as_str())],
        256,
    );
    console.say("alice general new lanrick");
    console.say("bob general join");
    let page = console.link("general", "watch");
    let at: SocketAddr = page
        .strip_prefix("http://")
        .and_then(|r| r.split('/').next())
        .unwrap()
        .parse()
        .unwrap();
    let path = page.split_once(&format!("{at}")).unwrap().1.to_string();
    // 300 connections from one address: every other one sends half a request and stops.
    let mut held = Vec::new();
    for i in 0..300 {
        match connect_from("127.0.0.1", at) {
            Ok(mut s) => {
                if i % 2 == 1 {
                    let _ = s.write_all(b"GET /g/");
                }
                held.push(s);
            }
            // The listener's queue may be full for a moment: that is a refusal too.
            Err(_) => continue,
        }
    }
    // The listener keeps 64 from one address (of the 128 that half of 256 open files allow)
    // and closes the others at once.
    let closed = (0..300)
        .map(|_| {
            let refused = refused_for_address(&ops);
            if refused < 236 {
                std::thread::sleep(Duration::from_millis(100));
            }
            refused
        })
        .find(|&n| n >= 236);
    assert!(closed.is_some(), "{} refused", refused_for_address(&ops));
    // A reader from another address is served.
    let (status, body) = get_from("127.0.0.2", at, &path);
    assert_eq!(
        status,
        "HTTP/1.1 200 OK",
        "{}",
        String::from_utf8_lossy(&body)
    );
    // A move is stored and its board written while they are held.
    console.say("alice general move b1");
    // The board of the game's first decision (`g0-001.png`; the one that began it was `-000`).
    let line = console.wait_for("-001.png");
    assert!(line.starts_with("[general] board: "), "{line}");
    let file = line.split("board: ").nth(1).unwrap().trim().to_string();
    let png = std::fs::read(console.dir().join(&file)).expect("the board's file");
    assert!(png.starts_with(b"\x89PNG"), "{file}");
    let (status, board) = get_from("127.0.0.2", at, &format!("{path}/board.png"));
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(board.starts_with(b"\x89PNG"));
    // And the next one, with the connections still held.
    console.say("bob general move g8");
    console.wait_for("-002.png");
    let (_, page_now) = get_from("127.0.0.3", at, &path);
    let html = String::from_utf8_lossy(&page_now);
    assert!(
        html.contains("White b1") && html.contains("Black g8"),
        "{html}"
    );
    assert!(console.running(), "the console stopped");
    drop(held);
}
