//! What the PostgreSQL backend does not hold yet: each of these refuses with
//! [`StoreError::Unsupported`] naming itself. As each gets its SQL, it moves to the module of
//! its duty and leaves this list; [`Database::require_full_store`] refuses to start the bot on
//! PostgreSQL while anything is listed here.
//!
//! [`Database::require_full_store`]: crate::store::Database::require_full_store

use super::PgStore;
use crate::engine::{Decision, GameState};
use crate::store::backend::CampaignOptions;
use crate::store::error::{Result, StoreError};
use crate::store::replay::History;
use crate::store::{
    ArchiveReason, CampaignId, CampaignRecord, CampaignStatus, ChapterWrite, GameExport, GameId,
    GameRecord, IdleWatch, Location, MoveOutcome, NewGame, Notify, RollbackOutcome, SeatOwner,
    StatusMessage, UserSettings,
};
use std::sync::Arc;

fn not_yet(what: &str) -> StoreError {
    StoreError::Unsupported(format!("{what} is not on the PostgreSQL store yet"))
}

impl PgStore {
    pub fn create_game_with_bots(
        &self,
        _new: NewGame,
        _bot_level: &str,
    ) -> Result<(GameId, Arc<GameState>)> {
        Err(not_yet("create_game_with_bots"))
    }

    pub fn apply_at(
        &self,
        _game: GameId,
        _seat: usize,
        _decisions: &[Decision],
        _seq: u64,
    ) -> Result<MoveOutcome> {
        Err(not_yet("apply_at"))
    }

    pub fn is_live(&self, game: GameId) -> bool {
        self.live.contains(game)
    }

    pub fn last_finished_in_channel(&self, _channel: u64) -> Result<Option<GameId>> {
        Err(not_yet("last_finished_in_channel"))
    }

    pub fn set_notify(&self, _game: GameId, _seat: usize, _notify: Notify) -> Result<()> {
        Err(not_yet("set_notify"))
    }

    pub fn log_marks(&self, _game: GameId, _seat: usize) -> Result<(u64, u64)> {
        Err(not_yet("log_marks"))
    }

    pub fn export(&self, _game: GameId) -> Result<GameExport> {
        Err(not_yet("export"))
    }

    pub fn import(
        &self,
        _doc: &GameExport,
        _location: Location,
        _owners: &[SeatOwner],
    ) -> Result<(GameId, Arc<GameState>)> {
        Err(not_yet("import"))
    }

    pub fn clear_reminders(&self, _game: GameId, _seat: Option<usize>) -> Result<()> {
        Err(not_yet("clear_reminders"))
    }

    pub fn clear_reminder(&self, _game: GameId, _seat: usize, _kind: &str) -> Result<()> {
        Err(not_yet("clear_reminder"))
    }

    pub fn vacate_seat(&self, _game: GameId, _seat: usize) -> Result<()> {
        Err(not_yet("vacate_seat"))
    }

    pub fn bot_level(&self, _game: GameId) -> Result<String> {
        Err(not_yet("bot_level"))
    }

    pub fn take_seat(&self, _game: GameId, _seat: usize, _user: u64, _name: &str) -> Result<()> {
        Err(not_yet("take_seat"))
    }

    pub fn set_waiting_since(
        &self,
        _game: GameId,
        _seat: usize,
        _since: Option<i64>,
    ) -> Result<()> {
        Err(not_yet("set_waiting_since"))
    }

    pub fn waiting_since(&self, _game: GameId, _seat: usize) -> Result<Option<i64>> {
        Err(not_yet("waiting_since"))
    }

    pub fn set_paused(&self, _game: GameId, _since: Option<i64>) -> Result<()> {
        Err(not_yet("set_paused"))
    }

    pub fn paused_at(&self, _game: GameId) -> Result<Option<i64>> {
        Err(not_yet("paused_at"))
    }

    pub fn archived_reason(&self, _game: GameId) -> Result<Option<String>> {
        Err(not_yet("archived_reason"))
    }

    pub fn archive(&self, _game: GameId, _reason: ArchiveReason) -> Result<()> {
        Err(not_yet("archive"))
    }

    pub fn archive_channel(&self, _channel: u64) -> Result<Vec<GameId>> {
        Err(not_yet("archive_channel"))
    }

    pub fn archive_guild(&self, _guild: u64) -> Result<Vec<GameId>> {
        Err(not_yet("archive_guild"))
    }

    pub fn user_settings(&self, _user: u64) -> Result<UserSettings> {
        Err(not_yet("user_settings"))
    }

    pub fn set_user_settings(&self, _user: u64, _settings: &UserSettings) -> Result<()> {
        Err(not_yet("set_user_settings"))
    }

    pub fn user_language(&self, _user: u64) -> Result<Option<String>> {
        Err(not_yet("user_language"))
    }

    pub fn set_user_language(&self, _user: u64, _language: &str) -> Result<()> {
        Err(not_yet("set_user_language"))
    }

    pub fn game_language(&self, _game: GameId) -> Result<Option<String>> {
        Err(not_yet("game_language"))
    }

    pub fn channel_language(&self, _channel: u64) -> Result<Option<String>> {
        Err(not_yet("channel_language"))
    }

    pub fn set_game_language(&self, _game: GameId, _language: &str) -> Result<()> {
        Err(not_yet("set_game_language"))
    }

    pub fn save_lobby(&self, _channel: u64, _body: &str) -> Result<()> {
        Err(not_yet("save_lobby"))
    }

    pub fn delete_lobby(&self, _channel: u64) -> Result<()> {
        Err(not_yet("delete_lobby"))
    }

    pub fn lobbies(&self) -> Result<Vec<(u64, String)>> {
        Err(not_yet("lobbies"))
    }

    pub fn create_campaign(
        &self,
        _location: Location,
        _options: &serde_json::Value,
    ) -> Result<CampaignId> {
        Err(not_yet("create_campaign"))
    }

    pub fn create_campaign_game(
        &self,
        _new: NewGame,
        _options: CampaignOptions<'_>,
    ) -> Result<(CampaignId, GameId, Arc<GameState>)> {
        Err(not_yet("create_campaign_game"))
    }

    pub fn create_chapter_game(
        &self,
        _new: NewGame,
        _campaign: CampaignId,
        _chapter: u8,
        _options: CampaignOptions<'_>,
    ) -> Result<(GameId, Arc<GameState>)> {
        Err(not_yet("create_chapter_game"))
    }

    pub fn set_chapter_game(
        &self,
        _campaign: CampaignId,
        _chapter: u8,
        _game: GameId,
    ) -> Result<()> {
        Err(not_yet("set_chapter_game"))
    }

    pub fn record_chapter_result(
        &self,
        _campaign: CampaignId,
        _chapter: u8,
        _result: &serde_json::Value,
    ) -> Result<()> {
        Err(not_yet("record_chapter_result"))
    }

    pub fn set_campaign_status(
        &self,
        _campaign: CampaignId,
        _status: CampaignStatus,
    ) -> Result<()> {
        Err(not_yet("set_campaign_status"))
    }

    pub fn save_campaign(
        &self,
        _campaign: CampaignId,
        _options: &serde_json::Value,
        _status: CampaignStatus,
        _chapter: Option<ChapterWrite<'_>>,
    ) -> Result<()> {
        Err(not_yet("save_campaign"))
    }

    pub fn campaign(&self, _campaign: CampaignId) -> Result<Option<CampaignRecord>> {
        Err(not_yet("campaign"))
    }

    pub fn last_campaign_in_channel(&self, _channel: u64) -> Result<Option<CampaignId>> {
        Err(not_yet("last_campaign_in_channel"))
    }

    pub fn campaign_in_channel(&self, _channel: u64) -> Result<Option<CampaignId>> {
        Err(not_yet("campaign_in_channel"))
    }

    pub fn discord_status(&self, _game: GameId) -> Result<Option<StatusMessage>> {
        Err(not_yet("discord_status"))
    }

    pub fn set_discord_status(&self, _game: GameId, _status: StatusMessage) -> Result<()> {
        Err(not_yet("set_discord_status"))
    }

    pub fn set_status_pinned(&self, _game: GameId, _pinned: bool) -> Result<()> {
        Err(not_yet("set_status_pinned"))
    }

    pub fn pinned_status_of_ended_games(&self) -> Result<Vec<(GameId, StatusMessage)>> {
        Err(not_yet("pinned_status_of_ended_games"))
    }

    pub fn discord_meta(&self, _key: &str) -> Result<Option<String>> {
        Err(not_yet("discord_meta"))
    }

    pub fn set_discord_meta(&self, _key: &str, _value: &str) -> Result<()> {
        Err(not_yet("set_discord_meta"))
    }

    pub fn dm_refused_at(&self, _user: u64) -> Result<Option<i64>> {
        Err(not_yet("dm_refused_at"))
    }

    pub fn set_dm_refused(&self, _user: u64, _refused: bool) -> Result<bool> {
        Err(not_yet("set_dm_refused"))
    }

    pub fn list_games(&self, _guild: Option<u64>, _limit: usize) -> Result<Vec<GameRecord>> {
        Err(not_yet("list_games"))
    }

    pub fn history(&self, _game: GameId) -> Result<History> {
        Err(not_yet("history"))
    }

    pub fn rollback(&self, _game: GameId, _back_to: u64, _by: u64) -> Result<RollbackOutcome> {
        Err(not_yet("rollback"))
    }

    pub fn idle_watches(&self) -> Result<Vec<IdleWatch>> {
        Err(not_yet("idle_watches"))
    }

    pub fn set_idle_watch(&self, _watch: &IdleWatch) -> Result<()> {
        Err(not_yet("set_idle_watch"))
    }

    pub fn clear_idle_watch(&self, _game: GameId) -> Result<()> {
        Err(not_yet("clear_idle_watch"))
    }
}
