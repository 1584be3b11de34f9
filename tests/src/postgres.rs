//! A real PostgreSQL server for the store suites: a throwaway cluster, from the distribution's
//! packages (`apt-get install postgresql`), on a free loopback port.
//!
//! [`Postgres::start`] runs `initdb` into a fresh directory and starts the server on it;
//! [`Postgres::database`] makes an empty database and gives its `postgres://` address;
//! dropping the value stops the server (`pg_ctl stop -m immediate`) and removes the directory,
//! so nothing is left running. Run as root (as CI is), the server runs as the `postgres` user
//! the package creates, since PostgreSQL refuses to run as root.
//!
//! `MUSTER_POSTGRES_BIN` names the directory holding `initdb` and `pg_ctl` when it is not
//! `/usr/lib/postgresql/<newest>/bin` or on the `PATH`.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The cluster's superuser (trust authentication on loopback only).
const USER: &str = "muster";

/// A PostgreSQL server for one test (see the module documentation).
pub struct Postgres {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    as_postgres: bool,
    databases: AtomicUsize,
    /// The server's options (port, socket directory, fsync), for starting it again.
    options: String,
}

/// Where `initdb` and `pg_ctl` are.
fn bin_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("MUSTER_POSTGRES_BIN") {
        return PathBuf::from(dir);
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let v = e.file_name().to_str()?.parse().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").exists().then_some((v, bin))
        })
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return bin;
    }
    // On the PATH, where `which` finds it.
    let found = Command::new("sh")
        .args(["-c", "command -v initdb"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|p| !p.is_empty());
    match found {
        Some(p) => Path::new(&p)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default(),
        None => panic!(
            "PostgreSQL is not installed: `apt-get install postgresql` (as .ci/run does), \
             or set MUSTER_POSTGRES_BIN to the directory holding initdb and pg_ctl"
        ),
    }
}

fn running_as_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

impl Postgres {
    /// Starts a fresh cluster that does not wait for the disk (fast, for the suites); panics
    /// with the server's words when it cannot.
    pub fn start() -> Postgres {
        Postgres::start_with(false)
    }

    /// Starts a fresh cluster that syncs every commit to the disk, as a production server does
    /// (for measurements).
    pub fn start_durable() -> Postgres {
        Postgres::start_with(true)
    }

    fn start_with(fsync: bool) -> Postgres {
        static STARTED: AtomicUsize = AtomicUsize::new(0);
        let n = STARTED.fetch_add(1, Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("muster-pg-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a directory for the cluster");
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let mut pg = Postgres {
            bin: bin_dir(),
            as_postgres: running_as_root(),
            dir,
            port,
            databases: AtomicUsize::new(0),
            options: String::new(),
        };
        if pg.as_postgres {
            let ok = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(&pg.dir)
                .status()
                .is_ok_and(|s| s.success());
            assert!(ok, "cannot give {} to the postgres user", pg.dir.display());
        }
        let data = pg.dir.join("data");
        pg.run(
            "initdb",
            &[
                "-D",
                data.to_str().expect("a UTF-8 path"),
                "-U",
                USER,
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        );
        let fsync = if fsync { "on" } else { "off" };
        let options = format!(
            "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync={fsync} -c max_connections=200 \
             -c shared_buffers=32MB -c max_parallel_workers_per_gather=0",
            pg.dir.display()
        );
        pg.options = options;
        pg.resume();
        pg
    }

    /// Stops the server (the database goes away, as in an outage), keeping its data.
    pub fn pause(&self) {
        let data = self.dir.join("data");
        let data = data.to_str().expect("a UTF-8 path");
        self.run("pg_ctl", &["-D", data, "-m", "fast", "-w", "stop"]);
    }

    /// Starts the server (again) on its data, port and options.
    pub fn resume(&self) {
        let data = self.dir.join("data");
        let log = self.dir.join("server.log");
        self.run(
            "pg_ctl",
            &[
                "-D",
                data.to_str().expect("a UTF-8 path"),
                "-l",
                log.to_str().expect("a UTF-8 path"),
                "-o",
                &self.options,
                "-w",
                "-t",
                "60",
                "start",
            ],
        );
    }

    /// One of the server's programs, to be run as the postgres user when this runs as root.
    fn program(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&path);
            c
        } else {
            Command::new(&path)
        }
    }

    /// Runs one of the server's programs; panics with what it said if it fails.
    fn run(&self, program: &str, args: &[&str]) {
        let path = self.bin.join(program);
        let out = self
            .program(program)
            .args(args)
            .current_dir(&self.dir)
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", path.display()));
        let log = std::fs::read_to_string(self.dir.join("server.log")).unwrap_or_default();
        assert!(
            out.status.success(),
            "{program} failed:\n{}{}\n{log}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Runs `sql` in the database at `url` with the server's `psql`; panics if it fails.
    pub fn psql(&self, url: &str, sql: &str) {
        let out = Command::new(self.bin.join("psql"))
            .args([url, "-v", "ON_ERROR_STOP=1", "-c", sql])
            .stdin(Stdio::null())
            .output()
            .expect("psql runs");
        assert!(
            out.status.success(),
            "{sql}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// The port the server listens on (127.0.0.1).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// A new, empty database; its address.
    pub fn database(&self) -> String {
        let n = self.databases.fetch_add(1, Ordering::SeqCst);
        let name = format!("muster_{n}");
        let port = self.port.to_string();
        self.run(
            "createdb",
            &["-h", "127.0.0.1", "-p", &port, "-U", USER, &name],
        );
        self.url(&name)
    }

    /// The address of the database `name` through the server's Unix socket.
    pub fn socket_url(&self, name: &str) -> String {
        let dir = self.dir.to_str().expect("a UTF-8 path").replace('/', "%2F");
        format!("postgres://{USER}@{dir}:{}/{name}", self.port)
    }

    /// The address of the database `name`.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://{USER}@127.0.0.1:{}/{name}", self.port)
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let data = self.dir.join("data");
        let _ = self
            .program("pg_ctl")
            .arg("-D")
            .arg(&data)
            .args(["-m", "immediate", "-w", "stop"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        if std::env::var_os("MUSTER_KEEP_POSTGRES").is_none() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}
