//! Boards drawn for the pages, kept so that a board many readers look at is drawn once: the
//! position after a number of decisions of a version of a game, in a theme; and a game's replay.
//! The newest 128 are kept.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use muster_render::{Style, Theme};

use muster_core::desk::{Board, Drawn};
use muster_core::kernel::replayable::Replayable;
use muster_core::kernel::store::GameRecord;

/// What is drawn: a game's id and version, the decisions shown (`None`: its replay), the theme.
type Key = (String, u64, Option<usize>, Theme);

/// How many drawn boards are kept.
const KEPT: usize = 128;

/// The largest replay drawn for a page, in bytes.
const REPLAY_CAP: usize = 8 * 1024 * 1024;

/// The kept boards, newest last.
#[derive(Default)]
pub struct Boards {
    kept: Mutex<Drawings>,
}

/// The boards by what they show, and their keys oldest first.
type Drawings = (HashMap<Key, Arc<Drawn>>, VecDeque<Key>);

impl Boards {
    fn kept(&self, key: &Key) -> Option<Arc<Drawn>> {
        let kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        kept.0.get(key).cloned()
    }

    fn keep(&self, key: Key, drawn: Arc<Drawn>) {
        let mut kept = self.kept.lock().unwrap_or_else(|p| p.into_inner());
        if kept.0.insert(key.clone(), drawn).is_none() {
            kept.1.push_back(key);
        }
        while kept.1.len() > KEPT {
            if let Some(old) = kept.1.pop_front() {
                kept.0.remove(&old);
            }
        }
    }

    /// The board of `record` after `ply` decisions (at most all of them), the last of them
    /// marked, in `theme`: drawn once, then kept.
    pub fn board(
        &self,
        record: &GameRecord,
        ply: usize,
        theme: Theme,
    ) -> Result<Arc<Drawn>, String> {
        let ply = ply.min(record.moves.len());
        let key = (record.id.clone(), record.version, Some(ply), theme);
        if let Some(drawn) = self.kept(&key) {
            return Ok(drawn);
        }
        // Drawn as it was then: who was to play, the clocks as they ran (GameRecord::as_after).
        let shown = record.as_after(ply);
        let style = Style {
            theme,
            ..Style::default()
        };
        let board = Board::new(&shown, ply.saturating_sub(1)).styled(style);
        let drawn = Arc::new(board.drawn()?.clone());
        self.keep(key, Arc::clone(&drawn));
        Ok(drawn)
    }

    /// The replay of `record` (an animated GIF), in `theme`: drawn once, then kept.
    pub fn replay(&self, record: &GameRecord, theme: Theme) -> Result<Arc<Drawn>, String> {
        let key = (record.id.clone(), record.version, None, theme);
        if let Some(drawn) = self.kept(&key) {
            return Ok(drawn);
        }
        let style = Style {
            theme,
            ..Style::default()
        };
        let board = Board::replay(record, REPLAY_CAP).styled(style);
        let drawn = Arc::new(board.drawn()?.clone());
        self.keep(key, Arc::clone(&drawn));
        Ok(drawn)
    }
}
