//! The web pages' side of the suites: `muster console` run with its pages served, as a newcomer
//! runs it, and a reader of a page's live stream.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A free port on 127.0.0.1.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// `muster console`, reading commands from a pipe, serving the pages on a free port.
pub struct Console {
    child: Child,
    stdin: ChildStdin,
    lines: mpsc::Receiver<String>,
    dir: PathBuf,
    port: u16,
}

impl Console {
    /// Starts the binary `bin` (`muster_binary!()`) in a fresh directory named after `name`,
    /// on the embedded store.
    pub fn start(bin: &Path, name: &str) -> Console {
        Console::start_with(bin, name, &[])
    }

    /// As [`Console::start`], with `env` set (`MUSTER_STORE`).
    pub fn start_with(bin: &Path, name: &str, env: &[(&str, &str)]) -> Console {
        Console::launch(bin, name, env, None)
    }

    /// As [`Console::start_with`], the process allowed only `open_files` open files (its soft
    /// and hard limit, set by the shell before it starts).
    pub fn start_limited(bin: &Path, name: &str, env: &[(&str, &str)], open_files: u64) -> Console {
        Console::launch(bin, name, env, Some(open_files))
    }

    fn launch(bin: &Path, name: &str, env: &[(&str, &str)], open_files: Option<u64>) -> Console {
        let dir = std::env::temp_dir().join(format!("muster-web-{name}-{}", std::process::id()));
        let port = free_port();
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(
            dir.join("muster.toml"),
            format!("data_dir = \"data\"\n[web]\nlisten = \"127.0.0.1:{port}\"\n"),
        )
        .unwrap();
        let mut command = match open_files {
            None => Command::new(bin),
            Some(n) => {
                let mut c = Command::new("sh");
                c.arg("-c")
                    .arg(format!("ulimit -n {n} && exec \"$0\" \"$@\""))
                    .arg(bin);
                c
            }
        };
        let mut child = command
            .args(["console", "--script", "-"])
            .envs(env.iter().copied())
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("muster starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in stdout.lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Console {
            child,
            stdin,
            lines,
            dir,
            port,
        }
    }

    /// Its directory (the data is in `data/` under it).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether the process is still running.
    pub fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// The address its pages are served at (`http://127.0.0.1:PORT`).
    pub fn base(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Types `line` (`<user> <channel> <command>`).
    pub fn say(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The first line printed from now on that contains `needle`.
    pub fn wait_for(&self, needle: &str) -> String {
        loop {
            match self.lines.recv_timeout(Duration::from_secs(30)) {
                Ok(line) if line.contains(needle) => return line,
                Ok(_) => {}
                Err(e) => panic!("no line with `{needle}` ({e})"),
            }
        }
    }

    /// The address after `[channel] <word>: ` in the next line that has it.
    pub fn link(&self, channel: &str, word: &str) -> String {
        let line = self.wait_for(&format!("[{channel}] {word}: "));
        let url = line.rsplit(' ').next().unwrap().to_string();
        assert!(url.starts_with("http://127.0.0.1:"), "{line}");
        url
    }
}

impl Drop for Console {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A page's live stream, read as a browser's `EventSource` would: each `update`'s data.
pub struct Stream {
    lines: BufReader<std::net::TcpStream>,
}

impl Stream {
    /// Opens the stream at `url` (`http://host:port/g/<token>/events`); `Err` with the status
    /// of an answer that is not one.
    pub fn open(url: &str) -> Result<Stream, u16> {
        let rest = url.strip_prefix("http://").expect("an http:// address");
        let (host, path) = rest.split_once('/').expect("a path");
        let mut s = std::net::TcpStream::connect(host).expect("the pages' listener");
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        write!(
            s,
            "GET /{path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n"
        )
        .unwrap();
        let mut lines = BufReader::new(s);
        let mut status = String::new();
        lines.read_line(&mut status).unwrap();
        let code: u16 = status
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        if code != 200 {
            return Err(code);
        }
        Ok(Stream { lines })
    }

    /// The next update's data, as JSON (`version`, `html`); panics after 20 s without one.
    pub fn update(&mut self) -> serde_json::Value {
        // Keep-alive comments come every 15 s: the read's own timeout alone would never end a
        // stream that says nothing else.
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        let mut line = String::new();
        loop {
            assert!(std::time::Instant::now() < deadline, "no update in 30 s");
            line.clear();
            let n = self.lines.read_line(&mut line).expect("the stream goes on");
            assert!(n > 0, "the stream ended");
            if let Some(data) = line.trim_end().strip_prefix("data: ") {
                return serde_json::from_str(data).expect("an update is JSON");
            }
        }
    }

    /// The first update from now on whose part has `needle`.
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
}
