//! Each request's head, read and judged before hyper sees it, so that no request hyper would
//! refuse with an answer of its own (which carries none of the pages' headers) reaches it, and
//! so that a head must arrive whole within a few seconds of its first byte.
//!
//! The pages take only `GET` and `HEAD` without a body. The gate answers itself, with the
//! pages' headers: a head that does not parse (400), a request line too long (414), a head too
//! large or with too many fields (431), another method (405, with `Allow`), a body (400). An
//! address hyper could not read (bytes outside ASCII, say) is handed on as [`UNREADABLE`],
//! which answers the pages' one 404. A head that passes goes on unchanged, byte for byte. An
//! answer the client has stopped reading is given up after [`HeadLimits::stall`], so that a
//! reader who never reads holds no connection for long.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// The address an unreadable one is handed on as: no page is there, so it answers the one 404.
pub const UNREADABLE: &str = "/.unreadable";

/// Every answer's Content-Security-Policy: the pages' own style sheet, script and images, and
/// their live streams; nothing inline, nothing from elsewhere.
pub const POLICY: &str = "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; \
                          connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The headers every answer carries, the pages' and the gate's alike.
pub const GUARDS: [(&str, &str); 4] = [
    ("content-security-policy", POLICY),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("x-frame-options", "DENY"),
];

/// How much a request may say before its body, and how soon.
#[derive(Clone, Copy, Debug)]
pub struct HeadLimits {
    /// The longest head, in bytes.
    pub head: usize,
    /// The longest request line, in bytes.
    pub line: usize,
    /// The most header fields.
    pub fields: usize,
    /// How long a head may take from its first byte (or, for a connection's first request,
    /// from the connection's opening).
    pub time: Duration,
    /// How long an answer may wait for the client to read it before the connection is closed
    /// (a reader that stops reading holds a connection no longer).
    pub stall: Duration,
}

impl Default for HeadLimits {
    fn default() -> HeadLimits {
        HeadLimits {
            head: 16 * 1024,
            line: 8 * 1024,
            fields: 64,
            time: Duration::from_secs(5),
            stall: Duration::from_secs(30),
        }
    }
}

/// Why a request is answered by the gate instead of the pages.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Refusal {
    /// The head does not parse, or the request has a body.
    BadRequest,
    /// The request line is too long.
    UriTooLong,
    /// The head is too large, or has too many fields.
    FieldsTooLarge,
    /// A method other than `GET` and `HEAD`.
    MethodNotAllowed,
}

impl Refusal {
    /// The status line's code and reason.
    pub fn status(self) -> (u16, &'static str) {
        match self {
            Refusal::BadRequest => (400, "Bad Request"),
            Refusal::UriTooLong => (414, "URI Too Long"),
            Refusal::FieldsTooLarge => (431, "Request Header Fields Too Large"),
            Refusal::MethodNotAllowed => (405, "Method Not Allowed"),
        }
    }

    /// The refusal as the metrics count it.
    pub fn label(self) -> &'static str {
        match self {
            Refusal::BadRequest => "bad_request",
            Refusal::UriTooLong => "uri_too_long",
            Refusal::FieldsTooLarge => "fields_too_large",
            Refusal::MethodNotAllowed => "method",
        }
    }

    /// What the answer's body says.
    pub fn words(self) -> &'static str {
        match self {
            Refusal::BadRequest => {
                "This is not a request the pages can read: ask for a page with GET, without a body.\n"
            }
            Refusal::UriTooLong => "The address is too long: no page has one so long.\n",
            Refusal::FieldsTooLarge => {
                "The request's header fields are too large: send fewer or shorter ones.\n"
            }
            Refusal::MethodNotAllowed => "The pages can only be read: use GET or HEAD.\n",
        }
    }
}

/// The whole answer to `refusal`, dated `now`: its status, the pages' headers, and words
/// saying what to do instead; the connection closes after it.
pub fn answer(refusal: Refusal, now: chrono::DateTime<chrono::Utc>) -> String {
    let (code, reason) = refusal.status();
    let body = refusal.words();
    let mut head = format!("HTTP/1.1 {code} {reason}\r\n");
    for (name, value) in GUARDS {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    if refusal == Refusal::MethodNotAllowed {
        head.push_str("allow: GET, HEAD\r\n");
    }
    head.push_str(&format!(
        "content-type: text/plain; charset=utf-8\r\ncache-control: no-cache\r\n\
         connection: close\r\ncontent-length: {}\r\ndate: {}\r\n\r\n{body}",
        body.len(),
        now.format("%a, %d %b %Y %H:%M:%S GMT")
    ));
    head
}

/// What the gate makes of the bytes received so far.
#[derive(Debug, PartialEq, Eq)]
pub enum Judged {
    /// Not a whole head yet.
    Incomplete,
    /// A head of `len` bytes that may go on, as `bytes` (the same, or with its address made
    /// [`UNREADABLE`]).
    Pass { len: usize, bytes: Vec<u8> },
    /// A request the gate answers itself.
    Refused(Refusal),
}

/// Judges the bytes `buf` received at the start of a request.
pub fn judge(buf: &[u8], limits: &HeadLimits) -> Judged {
    let line_end = buf.iter().position(|&b| b == b'\n');
    // Empty lines before a request line are allowed (RFC 9112, 2.2), and skipped by the parser.
    let leading = buf
        .iter()
        .take_while(|&&b| b == b'\r' || b == b'\n')
        .count();
    match line_end {
        None if buf.len() - leading > limits.line => return Judged::Refused(Refusal::UriTooLong),
        Some(end) if end >= leading && end - leading > limits.line => {
            return Judged::Refused(Refusal::UriTooLong);
        }
        _ => {}
    }
    let mut fields = vec![httparse::EMPTY_HEADER; limits.fields];
    let mut request = httparse::Request::new(&mut fields);
    let len = match request.parse(buf) {
        Ok(httparse::Status::Complete(len)) => len,
        Ok(httparse::Status::Partial) if buf.len() > limits.head => {
            return Judged::Refused(Refusal::FieldsTooLarge);
        }
        Ok(httparse::Status::Partial) => return Judged::Incomplete,
        Err(httparse::Error::TooManyHeaders) => return Judged::Refused(Refusal::FieldsTooLarge),
        Err(_) => return Judged::Refused(Refusal::BadRequest),
    };
    if len > limits.head {
        return Judged::Refused(Refusal::FieldsTooLarge);
    }
    if !matches!(request.method, Some("GET" | "HEAD")) {
        return Judged::Refused(Refusal::MethodNotAllowed);
    }
    if has_body(request.headers) {
        return Judged::Refused(Refusal::BadRequest);
    }
    let target = request.path.unwrap_or("/");
    let mut bytes = buf[..len].to_vec();
    if axum::http::Uri::try_from(target).is_err() {
        // The target lies inside `buf`: where it starts is where its bytes are.
        let at = target.as_ptr() as usize - buf.as_ptr() as usize;
        bytes.splice(at..at + target.len(), UNREADABLE.bytes());
    }
    Judged::Pass { len, bytes }
}

/// Whether the head announces a body: a `Transfer-Encoding`, or a `Content-Length` that is
/// anything but zero (an unreadable one included).
fn has_body(fields: &[httparse::Header<'_>]) -> bool {
    fields.iter().any(|f| {
        if f.name.eq_ignore_ascii_case("transfer-encoding") {
            return true;
        }
        f.name.eq_ignore_ascii_case("content-length")
            && !f
                .value
                .split(|&b| b == b',')
                .all(|v| v.trim_ascii() == b"0")
    })
}

/// A connection seen through the gate: hyper reads only heads that passed it. When a request
/// is refused, hyper reads the end of the connection, and the refusal is left in
/// [`Gated::refusal`] for whoever holds the connection to answer.
pub struct Gated<S> {
    inner: S,
    limits: HeadLimits,
    /// Received, not yet judged.
    pending: Vec<u8>,
    /// Judged, not yet read by hyper.
    passed: Vec<u8>,
    passed_at: usize,
    /// When the head being received must be whole.
    deadline: Option<Pin<Box<Sleep>>>,
    /// When an answer the client has stopped reading is given up.
    stalled: Option<Pin<Box<Sleep>>>,
    /// The request the gate answers itself, once there is one.
    pub refusal: Option<Refusal>,
    /// Whether a head took too long.
    pub timed_out: bool,
}

impl<S> Gated<S> {
    /// `inner`, just opened: its first head is due within `limits.time`.
    pub fn new(inner: S, limits: HeadLimits) -> Gated<S> {
        Gated {
            inner,
            limits,
            pending: Vec::new(),
            passed: Vec::new(),
            passed_at: 0,
            deadline: Some(Box::pin(tokio::time::sleep(limits.time))),
            stalled: None,
            refusal: None,
            timed_out: false,
        }
    }

    /// The connection itself.
    pub fn into_inner(self) -> S {
        self.inner
    }

    /// Judges what has been received: `true` if there is something for hyper to read (or the
    /// end, after a refusal).
    fn judge_pending(&mut self) -> bool {
        if self.refusal.is_some() {
            return true;
        }
        if self.pending.is_empty() {
            return false;
        }
        match judge(&self.pending, &self.limits) {
            Judged::Incomplete => false,
            Judged::Pass { len, bytes } => {
                self.pending.drain(..len);
                self.passed = bytes;
                self.passed_at = 0;
                self.deadline = None;
                true
            }
            Judged::Refused(r) => {
                self.refusal = Some(r);
                self.pending.clear();
                true
            }
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Gated<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        dst: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        loop {
            if this.passed_at < this.passed.len() {
                let n = dst.remaining().min(this.passed.len() - this.passed_at);
                dst.put_slice(&this.passed[this.passed_at..this.passed_at + n]);
                this.passed_at += n;
                return Poll::Ready(Ok(()));
            }
            if this.refusal.is_some() {
                // The end, as hyper sees it: the refusal is answered by the connection's holder.
                return Poll::Ready(Ok(()));
            }
            if this.judge_pending() {
                continue;
            }
            if let Some(deadline) = this.deadline.as_mut()
                && deadline.as_mut().poll(cx).is_ready()
            {
                this.timed_out = true;
                return Poll::Ready(Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    "the request's head did not arrive in time",
                )));
            }
            let mut chunk = [0u8; 4096];
            let mut read = ReadBuf::new(&mut chunk);
            ready!(Pin::new(&mut this.inner).poll_read(cx, &mut read))?;
            let got = read.filled();
            if got.is_empty() {
                // The end of the connection; a head cut short is dropped with it.
                this.pending.clear();
                return Poll::Ready(Ok(()));
            }
            if this.pending.is_empty() && this.deadline.is_none() {
                this.deadline = Some(Box::pin(tokio::time::sleep(this.limits.time)));
            }
            this.pending.extend_from_slice(got);
        }
    }
}

impl<S> Gated<S> {
    /// What a write of the answer came to: progress clears the stall's clock; waiting starts
    /// it, and once it has run out the connection is given up.
    fn watch_stall<T>(
        &mut self,
        cx: &mut Context<'_>,
        wrote: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if wrote.is_ready() {
            self.stalled = None;
            return wrote;
        }
        let stall = self.limits.stall;
        let clock = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(stall)));
        if clock.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client stopped reading the answer",
            )));
        }
        Poll::Pending
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Gated<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let wrote = Pin::new(&mut self.inner).poll_write(cx, buf);
        self.watch_stall(cx, wrote)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let flushed = Pin::new(&mut self.inner).poll_flush(cx);
        self.watch_stall(cx, flushed)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let wrote = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        self.watch_stall(cx, wrote)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(raw: &str) -> Judged {
        judge(raw.as_bytes(), &HeadLimits::default())
    }

    #[test]
    fn a_plain_request_passes_unchanged_and_the_next_waits() {
        let raw = "GET /g/abc HTTP/1.1\r\nHost: x\r\n\r\nGET /next";
        let Judged::Pass { len, bytes } = judged(raw) else {
            panic!("{:?}", judged(raw));
        };
        assert_eq!(&raw[..len], "GET /g/abc HTTP/1.1\r\nHost: x\r\n\r\n");
        assert_eq!(bytes, &raw.as_bytes()[..len]);
        assert_eq!(judged("GET /g/abc HTTP/1.1\r\nHost:"), Judged::Incomplete);
        assert_eq!(judged(""), Judged::Incomplete);
        assert!(matches!(
            judged("\r\nHEAD / HTTP/1.0\r\n\r\n"),
            Judged::Pass { .. }
        ));
    }

    #[test]
    fn what_hyper_would_refuse_is_refused_here() {
        assert_eq!(
            judged("GARBAGE\r\n\r\n"),
            Judged::Refused(Refusal::BadRequest)
        );
        assert_eq!(
            judged("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
            Judged::Refused(Refusal::BadRequest)
        );
        assert_eq!(
            judged("GET / HTTP/1.1\r\nBad Field: x\r\n\r\n"),
            Judged::Refused(Refusal::BadRequest)
        );
        let long = format!("GET /{} HTTP/1.1\r\n\r\n", "a".repeat(9000));
        assert_eq!(judged(&long), Judged::Refused(Refusal::UriTooLong));
        // Even before the line ends.
        assert_eq!(
            judged(&format!("GET /{}", "a".repeat(9000))),
            Judged::Refused(Refusal::UriTooLong)
        );
        let many: String = (0..65).map(|i| format!("X-{i}: y\r\n")).collect();
        assert_eq!(
            judged(&format!("GET / HTTP/1.1\r\n{many}\r\n")),
            Judged::Refused(Refusal::FieldsTooLarge)
        );
        let big = format!("GET / HTTP/1.1\r\nX: {}\r\n", "y".repeat(17_000));
        assert_eq!(judged(&big), Judged::Refused(Refusal::FieldsTooLarge));
    }

    #[test]
    fn only_bodiless_gets_and_heads_are_pages_requests() {
        for method in ["POST", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE"] {
            assert_eq!(
                judged(&format!("{method} /g/x HTTP/1.1\r\n\r\n")),
                Judged::Refused(Refusal::MethodNotAllowed),
                "{method}"
            );
        }
        for body in [
            "Content-Length: 5",
            "Transfer-Encoding: chunked",
            "Content-Length: 0, 5",
            "Content-Length: x",
        ] {
            assert_eq!(
                judged(&format!("GET / HTTP/1.1\r\n{body}\r\n\r\n")),
                Judged::Refused(Refusal::BadRequest),
                "{body}"
            );
        }
        assert!(matches!(
            judged("GET / HTTP/1.1\r\nContent-Length: 0\r\n\r\n"),
            Judged::Pass { .. }
        ));
    }

    #[test]
    fn a_refusal_carries_the_pages_headers_and_says_what_to_do() {
        let at = chrono::DateTime::from_timestamp(1_795_000_000, 0).unwrap();
        let a = answer(Refusal::MethodNotAllowed, at);
        assert!(a.starts_with("HTTP/1.1 405 Method Not Allowed\r\n"), "{a}");
        for (name, value) in GUARDS {
            assert!(a.contains(&format!("\r\n{name}: {value}\r\n")), "{a}");
        }
        assert!(a.contains("\r\nallow: GET, HEAD\r\n"), "{a}");
        assert!(a.contains("date: Wed, 18 Nov 2026 11:06:40 GMT\r\n"), "{a}");
        let (head, body) = a.split_once("\r\n\r\n").unwrap();
        assert!(
            head.contains(&format!("content-length: {}", body.len())),
            "{a}"
        );
        assert_eq!(body, "The pages can only be read: use GET or HEAD.\n");
    }

    #[test]
    fn an_address_hyper_cannot_read_becomes_the_pages_404() {
        // Bytes outside ASCII hyper reads, and the router finds no page there.
        let plain = "GET /g/\u{e9}t\u{e9} HTTP/1.1\r\nHost: x\r\n\r\n";
        assert_eq!(
            judged(plain),
            Judged::Pass {
                len: plain.len(),
                bytes: plain.as_bytes().to_vec()
            }
        );
        let raw = "GET http://[::1/g HTTP/1.1\r\nHost: x\r\n\r\n";
        let Judged::Pass { len, bytes } = judged(raw) else {
            panic!("{:?}", judged(raw));
        };
        assert_eq!(len, raw.len());
        assert_eq!(bytes, b"GET /.unreadable HTTP/1.1\r\nHost: x\r\n\r\n");
    }
}
