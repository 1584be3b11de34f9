//! The web pages of games, events and players (docs/web.md): what a page shows, and the token
//! by which its address names it. A token is 128 random bits from the system, made when the
//! page is first linked and kept beside no platform (`\u{1e}pages`): `t:<token>` names the
//! page, and the page's own key (`game:g12`) names its token, so that a page has one address
//! however often it is linked. Nothing of a channel's, room's or user's id is in a token.

use serde::{Deserialize, Serialize};

use super::store::{ChannelKey, GameStore, StoreError};

/// Where the tokens are kept (beside no platform).
pub const HOME: &str = "\u{1e}pages";

/// What a page shows.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Page {
    /// A game: live in `channel` of `platform` while it runs, then in the archive by `id`.
    Game {
        /// The game's id (`g12`).
        id: String,
        /// The platform of its home.
        platform: String,
        /// Its home channel.
        channel: String,
    },
    /// A tournament, by its record's place.
    Event {
        /// The platform whose notes keep it.
        platform: String,
        /// Its community there.
        community: String,
        /// Its name.
        name: String,
    },
    /// A player in a community: his ratings there and his recent games.
    Player {
        /// The platform of the place he was linked from.
        platform: String,
        /// That place's community on its platform.
        community: String,
        /// That place (its ratings' table is the one shown).
        channel: String,
        /// His account's id on the platform.
        user: String,
    },
    /// A community's leaderboard of one game.
    Leaders {
        /// The platform of the place it was linked from.
        platform: String,
        /// That place's community on its platform.
        community: String,
        /// That place.
        channel: String,
        /// The game (`lanrick`).
        game: String,
    },
}

impl Page {
    /// The page's own key: what names its token.
    fn key(&self) -> String {
        match self {
            Page::Game { id, .. } => format!("game:{id}"),
            Page::Event {
                platform,
                community,
                name,
            } => format!("event:{platform}\u{1f}{community}\u{1f}{name}"),
            Page::Player {
                platform,
                community,
                user,
                ..
            } => format!("player:{platform}\u{1f}{community}\u{1f}{user}"),
            Page::Leaders {
                platform,
                community,
                game,
                ..
            } => format!("leaders:{platform}\u{1f}{community}\u{1f}{game}"),
        }
    }

    /// The first letter of its address: `/g/`, `/e/`, `/p/`, `/l/`.
    pub fn path(&self) -> &'static str {
        match self {
            Page::Game { .. } => "g",
            Page::Event { .. } => "e",
            Page::Player { .. } => "p",
            Page::Leaders { .. } => "l",
        }
    }
}

fn home() -> ChannelKey {
    ChannelKey::new("", HOME)
}

/// Whether `token` has a token's shape: 32 lower-case hexadecimal digits.
pub fn well_formed(token: &str) -> bool {
    token.len() == 32
        && token
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// 128 random bits from the system, as 32 hexadecimal digits.
fn fresh() -> Result<String, StoreError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes)
        .map_err(|e| StoreError::Io(format!("no random bits for a page's token: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The token of `page`, made (and kept) if it has none yet. Two instances linking the same page
/// at once agree on one token: the page's key is taken by compare-and-swap, and the loser's
/// token is taken back.
pub fn token_for(store: &dyn GameStore, page: &Page) -> Result<String, StoreError> {
    let key = page.key();
    if let Some(token) = store.note(&home(), &key)? {
        return Ok(token);
    }
    let token = fresh()?;
    let body = serde_json::to_string(page).map_err(|e| StoreError::Io(e.to_string()))?;
    let named = format!("t:{token}");
    store.set_note(&home(), &named, Some(&body))?;
    if store.swap_note(&home(), &key, None, Some(&token))? {
        return Ok(token);
    }
    store.set_note(&home(), &named, None)?;
    store
        .note(&home(), &key)?
        .ok_or_else(|| StoreError::Io("a page's token was taken back while it was made".into()))
}

/// The page `token` names, if any (`None` for a token never made, or not shaped as one).
pub fn page_of(store: &dyn GameStore, token: &str) -> Result<Option<Page>, StoreError> {
    if !well_formed(token) {
        return Ok(None);
    }
    let Some(body) = store.note(&home(), &format!("t:{token}"))? else {
        return Ok(None);
    };
    serde_json::from_str(&body)
        .map(Some)
        .map_err(|e| StoreError::Corrupt(format!("the page of a token: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::store::MemoryStore;

    fn game(id: &str) -> Page {
        Page::Game {
            id: id.into(),
            platform: "console".into(),
            channel: "general".into(),
        }
    }

    #[test]
    fn a_page_has_one_random_token_that_names_it() {
        let store = MemoryStore::default();
        let first = token_for(&store, &game("g1")).unwrap();
        assert!(well_formed(&first), "{first}");
        assert_eq!(token_for(&store, &game("g1")).unwrap(), first);
        let other = token_for(&store, &game("g2")).unwrap();
        assert_ne!(other, first);
        assert_eq!(page_of(&store, &first).unwrap(), Some(game("g1")));
        assert_eq!(page_of(&store, &other).unwrap(), Some(game("g2")));
        // Nothing of the game's id or its channel is in the token.
        assert!(!first.contains("g1") && !first.contains("general"));
        assert_eq!(page_of(&store, &"0".repeat(32)).unwrap(), None);
        assert_eq!(page_of(&store, "g1").unwrap(), None);
        assert_eq!(page_of(&store, &first.to_uppercase()).unwrap(), None);
        assert_eq!(page_of(&store, &"1".repeat(32)).unwrap(), None);
    }
}
