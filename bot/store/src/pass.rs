//! The parts a store that wears another passes on: for each part it does not change, every
//! method asks the store worn ([`Wears::worn`]), so that a wrapper writes only what it changes.

use crate::backup;
use crate::changes::Changes;
use crate::interface::{
    ChannelKey, Lists, Notes, PassLists, PassNotes, PassReceipts, PassUpkeep, Receipts, StoreError,
    Upkeep,
};
use crate::record::GameRecord;

impl<T: PassLists> Lists for T {
    fn set_aside(&self, key: &ChannelKey) -> Result<(), StoreError> {
        self.worn().set_aside(key)
    }
    fn live_games_of(&self, platform: &str, player: &str) -> Result<Vec<GameRecord>, StoreError> {
        self.worn().live_games_of(platform, player)
    }
    fn timed_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        self.worn().timed_games()
    }
    fn bot_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        self.worn().bot_games()
    }
    fn away_games(&self) -> Result<Vec<GameRecord>, StoreError> {
        self.worn().away_games()
    }
    fn live_games(&self, platform: &str) -> Result<Vec<GameRecord>, StoreError> {
        self.worn().live_games(platform)
    }
    fn games_of(&self, player: &str) -> Result<Vec<GameRecord>, StoreError> {
        self.worn().games_of(player)
    }
    fn archived(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.worn().archived(id)
    }
    fn archive_ids(&self) -> Result<Vec<String>, StoreError> {
        self.worn().archive_ids()
    }
    fn live_count(&self) -> Result<usize, StoreError> {
        self.worn().live_count()
    }
}

impl<T: PassNotes> Notes for T {
    fn note(&self, key: &ChannelKey, name: &str) -> Result<Option<String>, StoreError> {
        self.worn().note(key, name)
    }
    fn set_note(
        &self,
        key: &ChannelKey,
        name: &str,
        value: Option<&str>,
    ) -> Result<(), StoreError> {
        self.worn().set_note(key, name, value)
    }
    fn swap_note(
        &self,
        key: &ChannelKey,
        name: &str,
        expected: Option<&str>,
        value: Option<&str>,
    ) -> Result<bool, StoreError> {
        self.worn().swap_note(key, name, expected, value)
    }
}

impl<T: PassReceipts> Receipts for T {
    fn receipt(&self, platform: &str, id: &str) -> Result<Option<String>, StoreError> {
        self.worn().receipt(platform, id)
    }
    fn receipts(&self, platform: &str) -> Result<Vec<(String, String)>, StoreError> {
        self.worn().receipts(platform)
    }
    fn set_receipt(&self, platform: &str, id: &str, body: Option<&str>) -> Result<(), StoreError> {
        self.worn().set_receipt(platform, id, body)
    }
}

impl<T: PassUpkeep> Upkeep for T {
    fn snapshot(
        &self,
        created: &str,
        out: &mut dyn std::io::Write,
    ) -> Result<backup::Summary, String> {
        self.worn().snapshot(created, out)
    }
    fn shared(&self) -> bool {
        self.worn().shared()
    }
    fn listen(&self, changes: std::sync::Arc<Changes>) {
        self.worn().listen(changes);
    }
    fn entries(&self) -> Result<Vec<backup::Entry>, StoreError> {
        self.worn().entries()
    }
    fn import(&self, entries: &[backup::Entry], replace: bool) -> Result<(), StoreError> {
        self.worn().import(entries, replace)
    }
}
