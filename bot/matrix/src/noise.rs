//! What matrix-sdk logs that is no news to an operator, left out of the log
//! ([`muster_core::telemetry::logging::quiet`]) so that a warning always means something to act on:
//!
//! - its HTTP client's `error` for every `404 Not Found` the homeserver answers — though a 404
//!   is how the Matrix API says that an account-data item or a key backup does not exist yet,
//!   which the SDK asks about at every start and handles, and how a homeserver says that an
//!   account does not exist (Synapse's profile lookup answers 404 with no error code of its
//!   own). A request that really fails is reported by the code that made it; other statuses
//!   and every other error are kept;
//! - its crypto's `warn` that it has room keys to back up but no backup key, which it repeats
//!   after every sync while the key backup is not open on the device. Muster says once, at
//!   start, whether the backup is open and, if not, what to give it ([`super::trust`]);
//! - its crypto's `warn` for each event it cannot decrypt: those sent before the bot joined a
//!   room, or before a new device had its keys back from the backup, can never or not yet be
//!   read, which is no fault; a command the bot cannot read is answered to its sender, and
//!   logged, by the adapter ([`super::inbound`]);
//! - its crypto's `warn` that "our own device might have been deleted", which a new device's
//!   first sync writes whenever the homeserver answers its query for the account's devices
//!   before it has taken the device's own keys (the SDK sends both at once). A device that was
//!   really deleted is logged out, and the adapter reports the refused access token.

use muster_core::telemetry::logging::{Quiet, quiet};

/// The kinds of line, by target and message.
pub const NOISE: [Quiet; 4] = [
    Quiet {
        target: "matrix_sdk::http_client",
        message: not_found,
    },
    Quiet {
        target: "matrix_sdk_crypto::backups",
        message: no_backup_key,
    },
    Quiet {
        target: "matrix_sdk_crypto::machine",
        message: undecryptable,
    },
    Quiet {
        target: "matrix_sdk_crypto::identities::manager",
        message: own_device_unseen,
    },
];

fn not_found(message: &str) -> bool {
    message.contains("status_code: 404")
}

fn no_backup_key(message: &str) -> bool {
    message == "Trying to backup room keys but no backup key was found"
}

fn undecryptable(message: &str) -> bool {
    message.starts_with("Failed to decrypt a room event")
}

fn own_device_unseen(message: &str) -> bool {
    message == "Our own device might have been deleted"
}

/// Leaves those lines out from now on (once a process, however often the adapter starts).
pub fn quiet_the_noise() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for kind in NOISE {
            quiet(kind);
        }
    });
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use tracing_subscriber::layer::SubscriberExt as _;

    use super::*;
    use muster_core::telemetry::logging::Quieted;

    /// Counts the events that reach it.
    struct Seen(Arc<AtomicUsize>);

    impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Seen {
        fn on_event(&self, _: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
            self.0.fetch_add(1, Ordering::SeqCst);
        }
    }

    #[test]
    fn the_sdks_expected_404s_and_known_noise_are_left_out_and_real_errors_kept() {
        quiet_the_noise();
        let seen = Arc::new(AtomicUsize::new(0));
        // How many of the events `f` logs get through.
        let run = |f: &dyn Fn()| {
            seen.store(0, Ordering::SeqCst);
            let subscriber = tracing_subscriber::registry()
                .with(Quieted)
                .with(Seen(Arc::clone(&seen)));
            tracing::subscriber::with_default(subscriber, f);
            seen.load(Ordering::SeqCst)
        };
        let not_found = || {
            tracing::error!(target: "matrix_sdk::http_client", "Error while sending request: Api(Server(MatrixError(Error {{ status_code: 404, body: Standard(StandardErrorBody {{ kind: NotFound, message: \"Account data not found\" }}) }})))");
        };
        let failed = || {
            tracing::error!(target: "matrix_sdk::http_client", "Error while sending request: Api(Server(MatrixError(Error {{ status_code: 500, body: Standard(StandardErrorBody {{ kind: Unknown, message: \"Internal error\" }}) }})))");
        };
        let no_backup = || {
            tracing::warn!(target: "matrix_sdk_crypto::backups", "Trying to backup room keys but no backup key was found");
        };
        let other_backup = || {
            tracing::warn!(target: "matrix_sdk_crypto::backups", "Trying to backup room keys but the backup key wasn't uploaded");
        };
        let deleted = || {
            tracing::warn!(target: "matrix_sdk_crypto::identities::manager", user_id = "@m:h", "Our own device might have been deleted");
        };
        let ours = || {
            tracing::warn!(target: "muster_matrix::trust", "status_code: 404 NotFound");
        };
        assert_eq!(run(&not_found), 0);
        assert_eq!(run(&no_backup), 0);
        assert_eq!(run(&deleted), 0);
        assert_eq!(run(&failed), 1);
        assert_eq!(run(&other_backup), 1);
        assert_eq!(run(&ours), 1);
    }
}
