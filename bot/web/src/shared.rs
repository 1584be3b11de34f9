//! What the pages' handlers share: the core, the store's changes, the drawn boards, the live
//! streams; and finding a page by its token.

use std::sync::Arc;

use super::boards::Boards;
use super::cards::Cards;
use super::hub::Hub;
use super::listen::Limits;
use muster_core::desk::Core;
use muster_core::kernel::pages::{self, Page};
use muster_core::kernel::store::Changes;

/// What the pages' handlers share.
pub struct Shared {
    /// The core whose store and settings the pages read.
    pub core: Arc<Core>,
    /// Where the store tells of its changes.
    pub changes: Arc<Changes>,
    /// Boards drawn for the pages.
    pub boards: Boards,
    /// Link cards drawn for the pages.
    pub cards: Cards,
    /// The live streams.
    pub live: Arc<Hub>,
    /// What the listener allows.
    pub limits: Limits,
}

impl Shared {
    /// What the pages share, over `core`, told of changes by `changes`, the listener allowing
    /// what `limits` allow (within the process's open files).
    pub fn new(core: Arc<Core>, changes: Arc<Changes>, limits: Limits) -> Arc<Shared> {
        let limits = limits.within_open_files();
        Arc::new(Shared {
            core,
            changes,
            boards: Boards::default(),
            cards: Cards::default(),
            live: Arc::new(Hub::new(limits.streams_per_address, limits.streams())),
            limits,
        })
    }

    /// The page `token` names, if it is one this instance shows; store errors are logged and
    /// shown as nothing found.
    pub fn page(&self, token: &str) -> Option<Page> {
        match pages::page_of(self.core.store_arc().as_ref(), token) {
            Ok(page) => page,
            Err(e) => {
                tracing::warn!("a page's token could not be read: {e}");
                None
            }
        }
    }

    /// The address the site is reached at (`https://games.example.org`), which links and
    /// previews begin with.
    pub fn base(&self) -> String {
        self.core.web_base().unwrap_or_default()
    }

    /// Whether the place (`channel` of `platform`'s `community`) shows pages.
    pub fn shows(&self, platform: &str, community: &str, channel: &str) -> bool {
        self.core.visibility(platform, community, channel) != muster_config::Visibility::Off
    }

    /// The address of `page`, its token made if it has none (a page linking to another).
    pub fn link(&self, page: &Page) -> Option<String> {
        match pages::token_for(self.core.store_arc().as_ref(), page) {
            Ok(token) => Some(format!("/{}/{token}", page.path())),
            Err(e) => {
                tracing::warn!("a page's link could not be made: {e}");
                None
            }
        }
    }
}
