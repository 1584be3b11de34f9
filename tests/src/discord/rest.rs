//! The REST stand-in's HTTP server: reads each request (JSON or multipart), lets the routes
//! answer it, and records it.

use std::convert::Infallible;
use std::sync::Arc;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming as Body};
use hyper::{Request, Response};
use serde_json::Value;

use super::Shared;
use super::routes::{self, FilePart, Incoming};
use super::state::Recorded;

/// Serves REST requests on `listener` until the stand-in stops.
pub(crate) async fn serve(listener: tokio::net::TcpListener, shared: Arc<Shared>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        let shared = Arc::clone(&shared);
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |req| {
                let shared = Arc::clone(&shared);
                async move { Ok::<_, Infallible>(handle(&shared, req).await) }
            });
            let io = hyper_util::rt::TokioIo::new(stream);
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(io, service)
                .await;
        });
    }
}

async fn handle(shared: &Shared, req: Request<Body>) -> Response<Full<Bytes>> {
    let (parts, body) = req.into_parts();
    let body = body
        .collect()
        .await
        .map(|b| b.to_bytes())
        .unwrap_or_default();
    let header = |name: &str| {
        parts
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let content_type = header("content-type").unwrap_or_default();
    let (json, files) = read_body(&content_type, &body);
    let query = parts.uri.query().unwrap_or_default().to_owned();
    let incoming = Incoming {
        method: parts.method.as_str().to_owned(),
        path: parts.uri.path().to_owned(),
        query: query.clone(),
        authorization: header("authorization"),
        json,
        files,
    };
    if incoming.method == "POST" && incoming.path.ends_with("/callback") {
        hold(shared).await;
    }
    let (status, answer) = answer_and_record(shared, incoming, query, content_type);
    let mut response = Response::builder().status(status);
    if status == 429 {
        response = response
            .header("retry-after", "1")
            .header("x-ratelimit-scope", "user");
    }
    let body = match answer {
        Some(v) => {
            response = response.header("content-type", "application/json");
            Bytes::from(v.to_string())
        }
        None => Bytes::new(),
    };
    response.body(Full::new(body)).expect("a valid response")
}

/// Waits while interaction callbacks are held ([`StandIn::hold_callbacks`]), counted as held.
pub(crate) async fn hold(shared: &Shared) {
    let mut counted = false;
    loop {
        let changed = shared.changed.notified();
        tokio::pin!(changed);
        changed.as_mut().enable();
        {
            let mut state = shared.lock();
            if !state.hold_callbacks {
                if counted {
                    state.held -= 1;
                }
                return;
            }
            if !counted {
                state.held += 1;
                counted = true;
                drop(state);
                shared.notify();
            }
        }
        changed.await;
    }
}

/// Lets the routes answer `incoming`, records it, and wakes the waiters.
fn answer_and_record(
    shared: &Shared,
    incoming: Incoming,
    query: String,
    content_type: String,
) -> (u16, Option<Value>) {
    let (status, answer) = {
        let mut state = shared.lock();
        let (status, answer) = routes::route(&mut state, &incoming);
        let Incoming {
            method,
            path,
            query: _,
            authorization,
            json,
            files,
        } = incoming;
        state.requests.push(Recorded {
            method,
            path,
            query,
            content_type,
            json,
            files: files
                .into_iter()
                .map(|f| (f.name, f.filename, f.bytes))
                .collect(),
            authorization,
            status,
        });
        (status, answer)
    };
    shared.notify();
    (status, answer)
}

/// Takes the bot's inline answer to an interaction POSTed to its HTTP endpoint (the body of a
/// 200) as Discord does: as that interaction's callback. It is recorded as
/// `POST /api/v10/interactions/{id}/{token}/callback` with the query `inline`. A PONG is not.
pub(crate) fn take_inline(shared: &Shared, interaction: &Value, content_type: &str, body: &[u8]) {
    let (json, files) = read_body(content_type, body);
    if json["type"].as_u64().is_none_or(|kind| kind == 1) {
        return;
    }
    let text = |key: &str| interaction[key].as_str().unwrap_or_default().to_owned();
    let incoming = Incoming {
        method: "POST".into(),
        path: format!(
            "/api/v10/interactions/{}/{}/callback",
            text("id"),
            text("token")
        ),
        query: String::new(),
        authorization: None,
        json,
        files,
    };
    answer_and_record(shared, incoming, "inline".into(), content_type.to_owned());
}

/// The JSON of a body (a multipart body's `payload_json`) and its file parts.
fn read_body(content_type: &str, body: &[u8]) -> (Value, Vec<FilePart>) {
    if content_type.starts_with("multipart/form-data") {
        let mut json = Value::Null;
        let mut files = Vec::new();
        for part in multipart(content_type, body) {
            match part.filename {
                Some(filename) => files.push(FilePart {
                    name: part.name,
                    filename,
                    content_type: part.content_type,
                    bytes: part.data,
                }),
                None if part.name == "payload_json" => {
                    json = serde_json::from_slice(&part.data).unwrap_or(Value::Null);
                }
                None => {}
            }
        }
        (json, files)
    } else if body.is_empty() {
        (Value::Null, Vec::new())
    } else {
        let json = serde_json::from_slice(body)
            .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(body).into_owned()));
        (json, Vec::new())
    }
}

/// One part of a `multipart/form-data` body.
struct Part {
    name: String,
    filename: Option<String>,
    content_type: Option<String>,
    data: Vec<u8>,
}

/// The parts of a `multipart/form-data` body (boundary from `content_type`); stops at anything
/// malformed.
fn multipart(content_type: &str, body: &[u8]) -> Vec<Part> {
    let Some(boundary) = parameter(content_type, "boundary") else {
        return Vec::new();
    };
    let delimiter = format!("--{boundary}").into_bytes();
    let next_delimiter = [b"\r\n".as_slice(), &delimiter].concat();
    let mut parts = Vec::new();
    let Some(first) = find(body, &delimiter, 0) else {
        return parts;
    };
    let mut at = first + delimiter.len();
    loop {
        if body[at..].starts_with(b"--") {
            break;
        }
        if body[at..].starts_with(b"\r\n") {
            at += 2;
        }
        let Some(headers_end) = find(body, b"\r\n\r\n", at) else {
            break;
        };
        let Some(end) = find(body, &next_delimiter, headers_end + 4) else {
            break;
        };
        let headers = String::from_utf8_lossy(&body[at..headers_end]);
        let mut part = Part {
            name: String::new(),
            filename: None,
            content_type: None,
            data: body[headers_end + 4..end].to_vec(),
        };
        for line in headers.split("\r\n") {
            let Some((name, value)) = line.split_once(':') else {
                continue;
            };
            match name.trim().to_ascii_lowercase().as_str() {
                "content-disposition" => {
                    part.name = parameter(value, "name").unwrap_or_default();
                    part.filename = parameter(value, "filename").map(|f| percent_decode(&f));
                }
                "content-type" => part.content_type = Some(value.trim().to_owned()),
                _ => {}
            }
        }
        parts.push(part);
        at = end + next_delimiter.len();
    }
    parts
}

/// The value of `key` among a header's `; key=value` parameters (quoted or not).
fn parameter(header: &str, key: &str) -> Option<String> {
    let mut rest = header;
    while let Some(semicolon) = rest.find(';') {
        rest = rest[semicolon + 1..].trim_start();
        let (k, v) = rest.split_once('=')?;
        let (value, after) = match v.strip_prefix('"') {
            Some(quoted) => {
                let mut value = String::new();
                let mut chars = quoted.char_indices();
                let mut end = quoted.len();
                while let Some((i, c)) = chars.next() {
                    match c {
                        '\\' => value.extend(chars.next().map(|(_, c)| c)),
                        '"' => {
                            end = i + 1;
                            break;
                        }
                        c => value.push(c),
                    }
                }
                (value, &quoted[end..])
            }
            None => {
                let end = v.find(';').unwrap_or(v.len());
                (v[..end].trim().to_owned(), &v[end..])
            }
        };
        if k.trim().eq_ignore_ascii_case(key) {
            return Some(value);
        }
        rest = after;
    }
    None
}

/// `%XX` escapes decoded (reqwest percent-encodes filenames).
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if from > haystack.len() {
        return None;
    }
    haystack[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|i| i + from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_multipart_bodies() {
        let body = b"--XyZ\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"my%20board.png\"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n--XyZ\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{\"content\":\"hi\"}\r\n--XyZ--\r\n";
        let (json, files) = read_body("multipart/form-data; boundary=XyZ", body);
        assert_eq!(json["content"], "hi");
        assert_eq!(files.len(), 1);
        assert_eq!(files[0].name, "files[0]");
        assert_eq!(files[0].filename, "my board.png");
        assert_eq!(files[0].content_type.as_deref(), Some("image/png"));
        assert_eq!(files[0].bytes, b"\x89PNG");
        assert_eq!(
            parameter("form-data; name=\"a;b\"; filename=x.png", "filename").as_deref(),
            Some("x.png")
        );
    }
}
