//! Link cards: what a chat shows when a page's link is posted. Each page says what its card
//! says (a [`Preview`]); here its picture is given an address that changes with what it shows
//! (`/g/<token>/card-<version>.png`), so that a chat's cached preview of an earlier position
//! is never taken for the current one, and drawn once for every reader (the newest 32 kept).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use muster_render::Theme;
use muster_render::card::{self, Card, Picture};

use super::html::CardImage;
use super::hub::version;
use muster_core::kernel::store::GameRecord;

/// How many drawn cards are kept.
const KEPT: usize = 32;

/// What a page's link shows in a chat: a line of words under its title, and its card.
#[derive(Clone, Debug)]
pub struct Preview {
    /// The words under the title.
    pub description: String,
    /// What the card says.
    pub card: Card,
    /// The game whose newest board the card shows, if it shows one.
    pub board: Option<GameRecord>,
}

impl Preview {
    /// What the card shows, as a short fingerprint: part of its address.
    pub fn version(&self) -> String {
        let board = self
            .board
            .as_ref()
            .map_or(String::new(), |r| format!("{}:{}", r.id, r.version));
        let c = &self.card;
        version(&format!(
            "{board}\u{1f}{}\u{1f}{}\u{1f}{}\u{1f}{}",
            c.title,
            c.status,
            c.lines.join("\u{1e}"),
            c.footer
        ))
    }

    /// The card's picture as a page names it: under the page's address `path` (`/g/<token>`).
    pub fn image(&self, path: &str) -> CardImage {
        let mut alt = self.card.title.clone();
        for part in std::iter::once(&self.card.status).chain(&self.card.lines) {
            let part = part.trim_end_matches('.');
            if !part.is_empty() {
                alt.push_str(". ");
                alt.push_str(part);
            }
        }
        if self.board.is_some() {
            alt.push_str(". The board beside it.");
        } else {
            alt.push('.');
        }
        CardImage {
            path: format!("{path}/card-{}.png", self.version()),
            size: (card::WIDTH, card::HEIGHT),
            alt,
        }
    }
}

/// Whether `file` (the last part of an address) names a card: `card-<version>.png`.
pub fn is_card(file: &str) -> bool {
    file.strip_prefix("card-")
        .and_then(|rest| rest.strip_suffix(".png"))
        .is_some_and(|v| !v.is_empty() && v.len() <= 32 && v.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Cards drawn, by what they show, newest last.
#[derive(Default)]
pub struct Cards {
    kept: Mutex<VecDeque<(String, Arc<Vec<u8>>)>>,
}

impl Cards {
    /// The card of `preview` as a PNG, its board drawn by `boards`: drawn once, then kept.
    pub fn draw(
        &self,
        preview: &Preview,
        boards: &super::boards::Boards,
    ) -> Result<Arc<Vec<u8>>, String> {
        let key = preview.version();
        {
            let kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
            if let Some((_, png)) = kept.iter().find(|(k, _)| *k == key) {
                return Ok(Arc::clone(png));
            }
        }
        let drawn = match &preview.board {
            Some(record) => Some(boards.board(record, record.moves.len(), Theme::Classic)?),
            None => None,
        };
        let decoded = match &drawn {
            Some(d) => Some(
                muster_render::encode::decode_rgb(&d.png)
                    .ok_or("the board's picture does not decode")?,
            ),
            None => None,
        };
        let picture = decoded.as_ref().map(|(width, height, rgb)| Picture {
            width: *width,
            height: *height,
            rgb,
        });
        let png = Arc::new(card::png(picture.as_ref(), &preview.card, Theme::Classic));
        let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        if !kept.iter().any(|(k, _)| *k == key) {
            kept.push_back((key, Arc::clone(&png)));
        }
        while kept.len() > KEPT {
            kept.pop_front();
        }
        Ok(png)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cards_address_is_its_version_and_nothing_else_is_one() {
        assert!(is_card("card-9f86d081884c7d65.png"));
        for other in [
            "card-.png",
            "card-xyz.png",
            "card-12.gif",
            "board.png",
            "card-12",
        ] {
            assert!(!is_card(other), "{other}");
        }
        let p = Preview {
            description: "d".into(),
            card: Card {
                title: "t".into(),
                ..Card::default()
            },
            board: None,
        };
        let image = p.image("/e/abc");
        assert!(image.path.starts_with("/e/abc/card-"), "{}", image.path);
        assert!(is_card(image.path.rsplit('/').next().unwrap()));
        let mut q = p.clone();
        q.card.status = "changed".into();
        assert_ne!(q.image("/e/abc").path, image.path);
    }
}
