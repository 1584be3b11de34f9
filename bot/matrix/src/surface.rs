//! How Matrix shows what the core says: UTC times with the time left, rooms linked through
//! matrix.to, users named by their display names (the adapter makes the pills), an 8 MiB file,
//! a room opened for each event board — and, when the syncer takes the platform over, the
//! adapter itself posts what another instance stored and never posted. Served by this process
//! (logged in), it knows a Matrix id (`@alice:example.org`) for a challenge from another
//! platform, and asks the homeserver whether that account exists.

use std::time::Duration;

use matrix_sdk::Client;
use matrix_sdk::ruma::UserId;

use super::PLATFORM;
use muster_core::desk::{Opening, Place, Surface, User};

/// How long a challenge from another platform waits for the homeserver to say whether an
/// account exists.
const ASK: Duration = Duration::from_secs(10);

/// Matrix's surface; with the logged-in client when this process serves Matrix.
#[derive(Default)]
pub struct MatrixSurface {
    client: Option<(Client, tokio::runtime::Handle)>,
}

impl MatrixSurface {
    /// The surface of a process that serves Matrix through `client`.
    pub fn serving(client: Client, runtime: tokio::runtime::Handle) -> MatrixSurface {
        MatrixSurface {
            client: Some((client, runtime)),
        }
    }
}

impl Surface for MatrixSurface {
    fn platform(&self) -> &str {
        PLATFORM
    }

    /// A full Matrix id, named by its local part ([`Surface::reachable`] says whether this
    /// process serves Matrix).
    fn account(&self, text: &str) -> Option<User> {
        let id = UserId::parse(text.trim()).ok()?;
        Some(User::new(id.to_string(), id.localpart()))
    }

    /// Asks the homeserver for the account's profile: an account it does not know is refused
    /// before anything is made (called off the async threads, it waits for the answer).
    fn reachable(&self, user: &User) -> Result<(), String> {
        let Some((client, runtime)) = &self.client else {
            return Err(
                "this Muster does not serve Matrix (an operator can set it up in the settings)"
                    .into(),
            );
        };
        let Ok(id) = UserId::parse(user.id.as_str()) else {
            return Err(format!("{} is not a Matrix id", user.id));
        };
        let account = client.account();
        let asked = runtime.block_on(async {
            tokio::time::timeout(ASK, account.fetch_user_profile_of(&id)).await
        });
        match asked {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(e)) => {
                let missing = e
                    .as_client_api_error()
                    .is_some_and(|a| a.status_code.as_u16() == 404);
                if missing {
                    Err(format!("there is no Matrix account {id}"))
                } else {
                    tracing::warn!(user = %id, "a Matrix account could not be looked up: {e}");
                    Err(format!(
                        "Matrix did not say whether {id} exists ({e}); try again later"
                    ))
                }
            }
            Err(_) => Err(format!(
                "Matrix did not say in time whether {id} exists; try again later"
            )),
        }
    }

    fn channel_link(&self, channel: &str) -> String {
        format!("https://matrix.to/#/{channel}")
    }

    /// Under what homeservers commonly accept (Synapse's default is 50 MiB; many set less).
    fn upload_limit(&self) -> usize {
        8 << 20
    }

    fn place(&self, _: &Opening) -> Place {
        Place::Opened
    }

    fn posts_owed_notices(&self) -> bool {
        true
    }

    fn private_replies(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rooms_are_linked_through_matrix_to_and_times_are_utc() {
        let s = MatrixSurface::default();
        assert_eq!(
            s.channel_link("!room:example.org"),
            "https://matrix.to/#/!room:example.org"
        );
        assert_eq!(
            s.time(1_800_003_600, 1_800_000_000),
            "2027-01-15 09:00:00 UTC (in 1h)"
        );
    }
}
