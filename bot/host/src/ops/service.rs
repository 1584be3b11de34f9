//! Starting the operations side of a process: the listener and periodic backups beside
//! `muster serve`'s adapters, or on a thread of their own beside the console; the console's
//! input, which ends cleanly when the process is asked to stop; and `muster health`.

use std::io::{BufRead, Read};
use std::path::Path;
use std::sync::Arc;
use std::sync::mpsc;

use super::backups::Backups;
use super::listener::Ops;
use muster_core::kernel::clock::Clock;
use muster_core::kernel::store::GameStore;

/// Never logs the secrets in `settings` (see [`muster_core::telemetry::logging::redact`]).
pub fn redact_settings(settings: &muster_config::Settings) {
    if let Some(password) = settings.store.password() {
        muster_core::telemetry::logging::redact(password);
    }
    if let Some(d) = &settings.discord {
        muster_core::telemetry::logging::redact(d.token.expose());
    }
    if let Some(m) = &settings.matrix {
        match &m.login {
            muster_config::Login::Password(p) | muster_config::Login::Token(p) => {
                muster_core::telemetry::logging::redact(p.expose());
            }
        }
    }
}

/// The backups of `store` the settings ask for.
pub fn backups(
    store: &Arc<dyn GameStore>,
    clock: Arc<dyn Clock>,
    data_dir: &Path,
    ops: &muster_config::Ops,
) -> Arc<Backups> {
    let dir = ops
        .backup_dir
        .clone()
        .unwrap_or_else(|| data_dir.join("backups"));
    Arc::new(Backups::new(Arc::clone(store), clock, dir, ops.backup_keep))
}

/// Starts, on the current Tokio runtime, the operations listener (if `ops_listen` is set) and
/// periodic backups (if `backup_every` is); an error if the listener cannot bind.
pub async fn start(
    store: Arc<dyn GameStore>,
    backups: Arc<Backups>,
    ops: &muster_config::Ops,
) -> Result<(), String> {
    tokio::spawn(async {
        muster_core::signals::shutdown().await;
        muster_core::telemetry::health::down("muster", "stopping");
    });
    if let Some(addr) = ops.listen {
        let listener = super::listener::bind(addr).await?;
        let state = Arc::new(Ops {
            store,
            backups: Arc::clone(&backups),
        });
        tokio::spawn(super::listener::serve(listener, state));
    }
    if let Some(every) = ops.backup_every {
        tracing::info!(
            dir = %backups.dir().display(),
            "a backup every {}, the newest kept",
            muster_core::kernel::clock::duration(every)
        );
        tokio::spawn(super::backups::periodic(backups, every));
    }
    Ok(())
}

/// Lines of the console's input, read on a thread of their own, that end (as at the end of
/// the input) when the process is asked to stop: the command being handled is finished, the
/// next is not read.
pub struct Input {
    lines: mpsc::Receiver<Option<String>>,
    buf: Vec<u8>,
    at: usize,
    ended: bool,
}

impl Input {
    /// Reads `source` line by line. Also returns the sender that ends the input early (with
    /// `None`), for the thread that hears the stop signal (see [`muster_core::signals`]).
    pub fn new(mut source: Box<dyn BufRead + Send>) -> (Input, mpsc::Sender<Option<String>>) {
        let (tx, rx) = mpsc::channel();
        let lines = tx.clone();
        std::thread::spawn(move || {
            loop {
                let mut line = String::new();
                match source.read_line(&mut line) {
                    Ok(0) | Err(_) => {
                        let _ = lines.send(None);
                        return;
                    }
                    Ok(_) => {
                        if lines.send(Some(line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        (
            Input {
                lines: rx,
                buf: Vec::new(),
                at: 0,
                ended: false,
            },
            tx,
        )
    }
}

impl Read for Input {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let available = self.fill_buf()?;
        let n = available.len().min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Input {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.at >= self.buf.len() && !self.ended {
            match self.lines.recv() {
                Ok(Some(line)) => {
                    self.buf = line.into_bytes();
                    self.at = 0;
                }
                Ok(None) | Err(_) => self.ended = true,
            }
        }
        if self.ended && self.at >= self.buf.len() {
            return Ok(&[]);
        }
        Ok(&self.buf[self.at..])
    }

    fn consume(&mut self, n: usize) {
        self.at = (self.at + n).min(self.buf.len());
    }
}

/// Beside the console: a thread with a small runtime that listens for the stop signals (ending
/// `input` on the first), and runs the operations listener and periodic backups the settings
/// ask for. An error if the listener cannot bind.
pub fn beside_console(
    store: Arc<dyn GameStore>,
    backups: Arc<Backups>,
    ops: muster_config::Ops,
    end_input: mpsc::Sender<Option<String>>,
) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the operations runtime: {e}"))?;
    let (started_tx, started_rx) = mpsc::channel();
    std::thread::spawn(move || {
        runtime.block_on(async move {
            muster_core::signals::install();
            let started = start(store, backups, &ops).await;
            let failed = started.is_err();
            let _ = started_tx.send(started);
            if failed {
                return;
            }
            muster_core::signals::shutdown().await;
            tracing::info!("stopping: the command being handled is finished first");
            let _ = end_input.send(None);
            // The listener answers until the process ends.
            std::future::pending::<()>().await;
        });
    });
    started_rx
        .recv()
        .unwrap_or_else(|_| Err("the operations runtime stopped".into()))
}

/// `muster health [ADDR]`: asks the operations listener at `addr` (default: `ops_listen`, with
/// an unspecified address asked on localhost) for `/healthz`; 0 when it answers 200.
pub fn health(addr: Option<&str>, settings: Option<std::net::SocketAddr>) -> Result<(), String> {
    use std::io::Write;
    let addr: std::net::SocketAddr = match addr {
        Some(a) => a
            .parse()
            .map_err(|_| format!("`{a}` is not an address and port such as 127.0.0.1:9100"))?,
        None => {
            let mut a = settings.ok_or(
                "no operations listener is configured: set ops_listen (MUSTER_OPS_LISTEN) or give its address",
            )?;
            if a.ip().is_unspecified() {
                a.set_ip(match a {
                    std::net::SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
                    std::net::SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
                });
            }
            a
        }
    };
    let timeout = std::time::Duration::from_secs(3);
    let mut stream = std::net::TcpStream::connect_timeout(&addr, timeout)
        .map_err(|e| format!("nothing answers on {addr}: {e}"))?;
    let _ = stream.set_read_timeout(Some(timeout));
    write!(
        stream,
        "GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .map_err(|e| format!("cannot ask {addr}: {e}"))?;
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    let status = answer.lines().next().unwrap_or("");
    if status.split_whitespace().nth(1) == Some("200") {
        Ok(())
    } else if status.is_empty() {
        Err(format!("{addr} did not answer"))
    } else {
        Err(format!("{addr} answered {status}"))
    }
}
