//! The process's open files. Every web connection, the store's files, the chats' connections
//! and each board written take one; the soft limit (1,024 by default on Linux) is raised at the
//! start to the hard limit the system allows (`LimitNOFILE=` in the systemd unit,
//! docs/deploy.md), and the web listener keeps its connections to half of it
//! (`web::listen::Limits::within_open_files`).

/// Raises the soft open-files limit to the hard one; the limit now in force, if it can be read.
pub fn raise_open_files() -> Option<u64> {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => {
            tracing::debug!(limit, "the open-files limit");
            Some(limit)
        }
        Err(e) => {
            tracing::warn!("the open-files limit could not be raised: {e}");
            None
        }
    }
}
