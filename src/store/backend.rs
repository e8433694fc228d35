//! One store interface, two backends. [`GameStore`] is what a game needs of its store — games
//! and seats, moves and undos (one transaction each), the log, snapshots and restore, board
//! images, the outbox and reminders — with the same semantics on SQLite ([`Store`], the
//! embedded default: one process owns the file) and on PostgreSQL ([`PgStore`], several
//! processes share one server). [`Database`] is where the configuration says the games live.
//!
//! Both backends hold the whole store the chat layer and the Discord adapter use: games and
//! seats, moves and undos, lobbies, campaigns, seat management, user settings, languages,
//! Discord status messages, the admin tools, export and import. Only backups are SQLite's
//! (`skymines backup` copies the file; a PostgreSQL server is backed up with its own tools,
//! e.g. `pg_dump`): see [`POSTGRES_MISSING`].

use super::error::{Result, StoreError};
use super::replay::History;
use super::{
    ArchiveReason, CampaignId, CampaignRecord, CampaignStatus, ChapterWrite, FailPoint, GameExport,
    GameId, GameRecord, IdleWatch, Location, LogEntry, MoveEffects, MoveOutcome, NewGame, Notify,
    Outbound, PgStore, Reminder, RestoreReport, RollbackOutcome, SeatOwner, SeatRecord,
    StatusMessage, Store, StoreOptions, UndoOutcome, UserSettings,
};
use crate::data::GameData;
use crate::engine::{Decision, Event, GameState};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Which backend a store runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Where the games live: an SQLite file or a PostgreSQL server.
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    Sqlite(PathBuf),
    /// A `postgres://` or `postgresql://` URL (it may hold a password: never printed, see
    /// [`Database::describe`]).
    Postgres(String),
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

/// What the PostgreSQL backend does not have (see the module comment): the rest of the store
/// is on both.
pub const POSTGRES_MISSING: &str =
    "backups (`skymines backup` copies an SQLite file; back a PostgreSQL database up with pg_dump)";

impl Database {
    /// `database_url` (or the `DATABASE_URL` environment variable, which wins) when set: a
    /// `postgres://`/`postgresql://` URL selects PostgreSQL, anything else is an SQLite path;
    /// otherwise the SQLite file `database_path`.
    pub fn select(database_url: Option<&str>, env_url: Option<&str>, path: PathBuf) -> Database {
        let url = env_url
            .map(str::trim)
            .filter(|u| !u.is_empty())
            .or(database_url.map(str::trim).filter(|u| !u.is_empty()));
        match url {
            Some(u) if is_postgres_url(u) => Database::Postgres(u.to_string()),
            Some(u) => Database::Sqlite(PathBuf::from(u.strip_prefix("sqlite://").unwrap_or(u))),
            None => Database::Sqlite(path),
        }
    }

    /// For messages and logs: the file, or the server without user name or password.
    pub fn describe(&self) -> String {
        match self {
            Database::Sqlite(p) => p.display().to_string(),
            Database::Postgres(url) => redact_url(url),
        }
    }

    /// Opens the store (migrations, then restoring the active games of `options.shards`). On
    /// PostgreSQL this blocks on the server: call it from a blocking thread.
    pub fn open(
        &self,
        data: Arc<GameData>,
        options: StoreOptions,
    ) -> Result<(Arc<dyn GameStore>, RestoreReport)> {
        Ok(match self {
            Database::Sqlite(path) => {
                let (store, report) = Store::open(path, data, options)?;
                (Arc::new(store), report)
            }
            Database::Postgres(url) => {
                let (store, report) = PgStore::open(url, data, options)?;
                (Arc::new(store), report)
            }
        })
    }

    /// The SQLite file, for what works on the file itself (`what`: e.g. the backup); refused
    /// on PostgreSQL, naming the server's own tool.
    pub fn sqlite_file(&self, what: &str) -> Result<&Path> {
        match self {
            Database::Sqlite(path) => Ok(path),
            Database::Postgres(url) => Err(StoreError::Unsupported(format!(
                "{}: {what} copies an SQLite file; the games are on PostgreSQL, use the \
                 server's tools there (pg_dump to copy, pg_restore to restore)",
                redact_url(url)
            ))),
        }
    }

    /// The database the bot and the local mode run on: either backend holds the whole store
    /// they use, so this refuses nothing now (it did while the PostgreSQL backend lacked
    /// parts); it stays the one place start-up asks.
    pub fn require_full_store(&self) -> Result<Database> {
        Ok(self.clone())
    }
}

pub fn is_postgres_url(s: &str) -> bool {
    s.starts_with("postgres://") || s.starts_with("postgresql://")
}

/// A URL without its user information (user name and password).
pub fn redact_url(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, rest)) => {
            let rest = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
            format!("{scheme}://{rest}")
        }
        None => "<database url>".to_string(),
    }
}

/// What a game needs of its store, on either backend. Every write is one transaction; an error
/// from a write means nothing was written.
pub trait GameStore: Send + Sync {
    fn backend(&self) -> Backend;
    fn data(&self) -> &Arc<GameData>;
    /// Starts a game (its row, seats and set-up snapshot); `ChannelBusy` if the channel has
    /// an active game.
    fn create_game(&self, new: NewGame) -> Result<(GameId, Arc<GameState>)>;
    /// One move in one transaction: the log entry (its number unique per game: a concurrent
    /// writer's move with the same number fails), the snapshot when due, the image row, the
    /// effects and the game row. A move against a game that changed since this process saw it
    /// is refused (`Changed`, the game reloaded).
    fn apply_with(
        &self,
        game: GameId,
        seat: usize,
        decisions: &[Decision],
        effects: &dyn Fn(&GameState, &[Event]) -> MoveEffects,
    ) -> Result<MoveOutcome>;
    fn apply(&self, game: GameId, seat: usize, decisions: &[Decision]) -> Result<MoveOutcome> {
        self.apply_with(game, seat, decisions, &|_, _| MoveEffects::default())
    }
    /// Undoes `seat`'s last batch (DECISIONS B6), with a snapshot, in one transaction.
    fn undo_with(
        &self,
        game: GameId,
        seat: usize,
        effects: &dyn Fn(&GameState) -> MoveEffects,
    ) -> Result<UndoOutcome>;
    fn undo(&self, game: GameId, seat: usize) -> Result<UndoOutcome> {
        self.undo_with(game, seat, &|_| MoveEffects::default())
    }
    /// The state and version of an active game (loaded and checked on first use).
    fn live_state(&self, game: GameId) -> Result<(Arc<GameState>, u64)>;
    /// The current state of any game (ended ones rebuilt from their snapshots).
    fn state(&self, game: GameId) -> Result<Arc<GameState>>;
    fn live_games(&self) -> Vec<GameId>;
    fn game(&self, game: GameId) -> Result<GameRecord>;
    fn game_in_channel(&self, channel: u64) -> Result<Option<GameId>>;
    fn seats(&self, game: GameId) -> Result<Vec<SeatRecord>>;
    fn log(&self, game: GameId) -> Result<Vec<LogEntry>>;
    fn last_entry(&self, game: GameId) -> Result<Option<LogEntry>>;
    /// Ends a game without a result; its reminders go, its channel is free.
    fn abandon(&self, game: GameId) -> Result<()>;
    fn queue_notification(&self, game: Option<GameId>, payload: &serde_json::Value) -> Result<i64>;
    /// Claims up to `limit` unsent messages for `lease`: no other process gets them until the
    /// lease ends (then they are offered again, unless marked sent). SQLite has one process,
    /// so there it is the oldest unsent ones.
    fn claim_notifications(&self, limit: usize, lease: Duration) -> Result<Vec<Outbound>>;
    fn mark_sent(&self, id: i64) -> Result<()>;
    fn set_reminder(&self, game: GameId, seat: usize, kind: &str, due_at: i64) -> Result<()>;
    fn reminders(&self, game: GameId) -> Result<Vec<Reminder>>;
    /// Claims the reminders due at `now` (of active, unpaused games): each is returned to one
    /// caller only, its due time moved `lease_ms` on, so that it fires again only if the
    /// claimer died before setting or clearing it.
    fn claim_due_reminders(&self, now: i64, lease_ms: i64) -> Result<Vec<Reminder>>;
    fn board_png(&self, game: GameId, version: u64) -> Result<Option<Vec<u8>>>;
    fn store_board_png(&self, game: GameId, version: u64, png: &[u8]) -> Result<()>;
    fn pending_renders(&self, limit: usize) -> Result<Vec<(GameId, u64)>>;
    /// Test hook: the next write that reaches `at` fails there and rolls back.
    fn fail_next(&self, at: FailPoint);

    // The rest of the store, which the chat layer and the Discord adapter use: games and seats,
    // languages, lobbies, campaigns, Discord's messages and the admin tools.

    /// Starts a game whose seats without a person are computer players at `bot_level`.
    fn create_game_with_bots(
        &self,
        new: NewGame,
        bot_level: &str,
    ) -> Result<(GameId, Arc<GameState>)>;
    /// [`GameStore::apply`], refused (`MovedOn`) unless the game's last move is `seq`: a click on an outdated message changes nothing.
    fn apply_at(
        &self,
        game: GameId,
        seat: usize,
        decisions: &[Decision],
        seq: u64,
    ) -> Result<MoveOutcome>;
    /// Whether the game is active and held in memory.
    fn is_live(&self, game: GameId) -> bool;
    /// The channel's most recently ended game.
    fn last_finished_in_channel(&self, channel: u64) -> Result<Option<GameId>>;
    /// Where a seat's private messages go.
    fn set_notify(&self, game: GameId, seat: usize, notify: Notify) -> Result<()>;
    /// The seat's log marks (see `Store::log_marks`).
    fn log_marks(&self, game: GameId, seat: usize) -> Result<(u64, u64)>;
    /// A game as a self-contained document.
    fn export(&self, game: GameId) -> Result<GameExport>;
    /// Starts a game from an exported document, checked by replaying it.
    fn import(
        &self,
        doc: &GameExport,
        location: Location,
        owners: &[SeatOwner],
    ) -> Result<(GameId, Arc<GameState>)>;
    /// Clears a game's reminders: one seat's, or all of them.
    fn clear_reminders(&self, game: GameId, seat: Option<usize>) -> Result<()>;
    /// Removes one kind of reminder of one seat.
    fn clear_reminder(&self, game: GameId, seat: usize, kind: &str) -> Result<()>;
    /// A seat left or kicked: played by a computer player from now on.
    fn vacate_seat(&self, game: GameId, seat: usize) -> Result<()>;
    /// The level the game's computer players play at.
    fn bot_level(&self, game: GameId) -> Result<String>;
    /// A person takes over a computer player's seat.
    fn take_seat(&self, game: GameId, seat: usize, user: u64, name: &str) -> Result<()>;
    /// Since when the game waits on the seat (None: not waiting).
    fn set_waiting_since(&self, game: GameId, seat: usize, since: Option<i64>) -> Result<()>;
    /// Since when the game waits on the seat.
    fn waiting_since(&self, game: GameId, seat: usize) -> Result<Option<i64>>;
    /// Pauses (since a time) or resumes a game.
    fn set_paused(&self, game: GameId, since: Option<i64>) -> Result<()>;
    /// Since when a game is paused.
    fn paused_at(&self, game: GameId) -> Result<Option<i64>>;
    /// Why a game was archived, if it was.
    fn archived_reason(&self, game: GameId) -> Result<Option<String>>;
    /// Archives one game (its channel or server is gone).
    fn archive(&self, game: GameId, reason: ArchiveReason) -> Result<()>;
    /// Archives the games of a deleted channel.
    fn archive_channel(&self, channel: u64) -> Result<Vec<GameId>>;
    /// Archives the games of a server the bot left.
    fn archive_guild(&self, guild: u64) -> Result<Vec<GameId>>;
    /// A user's settings (defaults when never set).
    fn user_settings(&self, user: u64) -> Result<UserSettings>;
    /// Saves a user's settings.
    fn set_user_settings(&self, user: u64, settings: &UserSettings) -> Result<()>;
    /// A user's language, if chosen.
    fn user_language(&self, user: u64) -> Result<Option<String>>;
    /// Sets a user's language.
    fn set_user_language(&self, user: u64, language: &str) -> Result<()>;
    /// A game's language, if chosen.
    fn game_language(&self, game: GameId) -> Result<Option<String>>;
    /// The language of the channel's latest game, if chosen.
    fn channel_language(&self, channel: u64) -> Result<Option<String>>;
    /// Sets a game's language.
    fn set_game_language(&self, game: GameId, language: &str) -> Result<()>;
    /// Saves a channel's lobby (JSON).
    fn save_lobby(&self, channel: u64, body: &str) -> Result<()>;
    /// Deletes a channel's lobby.
    fn delete_lobby(&self, channel: u64) -> Result<()>;
    /// Every saved lobby: its channel and JSON.
    fn lobbies(&self) -> Result<Vec<(u64, String)>>;
    /// Starts a campaign.
    fn create_campaign(
        &self,
        location: Location,
        options: &serde_json::Value,
    ) -> Result<CampaignId>;
    /// Starts a campaign and its first chapter's game in one transaction; `options` gets the game's id.
    fn create_campaign_game(
        &self,
        new: NewGame,
        options: CampaignOptions<'_>,
    ) -> Result<(CampaignId, GameId, Arc<GameState>)>;
    /// Starts a chapter's game of a campaign in one transaction; `options` gets the game's id.
    fn create_chapter_game(
        &self,
        new: NewGame,
        campaign: CampaignId,
        chapter: u8,
        options: CampaignOptions<'_>,
    ) -> Result<(GameId, Arc<GameState>)>;
    /// Links a chapter to its game.
    fn set_chapter_game(&self, campaign: CampaignId, chapter: u8, game: GameId) -> Result<()>;
    /// Records a chapter's result.
    fn record_chapter_result(
        &self,
        campaign: CampaignId,
        chapter: u8,
        result: &serde_json::Value,
    ) -> Result<()>;
    /// Sets a campaign's status.
    fn set_campaign_status(&self, campaign: CampaignId, status: CampaignStatus) -> Result<()>;
    /// Saves a campaign's options, status and a chapter in one transaction.
    fn save_campaign(
        &self,
        campaign: CampaignId,
        options: &serde_json::Value,
        status: CampaignStatus,
        chapter: Option<ChapterWrite<'_>>,
    ) -> Result<()>;
    /// A campaign with its chapters.
    fn campaign(&self, campaign: CampaignId) -> Result<Option<CampaignRecord>>;
    /// The channel's latest campaign.
    fn last_campaign_in_channel(&self, channel: u64) -> Result<Option<CampaignId>>;
    /// The channel's running campaign.
    fn campaign_in_channel(&self, channel: u64) -> Result<Option<CampaignId>>;
    /// The game's status message on Discord.
    fn discord_status(&self, game: GameId) -> Result<Option<StatusMessage>>;
    /// Records the game's status message.
    fn set_discord_status(&self, game: GameId, status: StatusMessage) -> Result<()>;
    /// Records whether the status message is pinned.
    fn set_status_pinned(&self, game: GameId, pinned: bool) -> Result<()>;
    /// Status messages still pinned of games that ended.
    fn pinned_status_of_ended_games(&self) -> Result<Vec<(GameId, StatusMessage)>>;
    /// A value the Discord adapter keeps (e.g. the registered commands' hash).
    fn discord_meta(&self, key: &str) -> Result<Option<String>>;
    /// Sets a value the Discord adapter keeps.
    fn set_discord_meta(&self, key: &str, value: &str) -> Result<()>;
    /// Since when a user's DMs are refused.
    fn dm_refused_at(&self, user: u64) -> Result<Option<i64>>;
    /// Records whether DMs to a user are refused; true when that changed.
    fn set_dm_refused(&self, user: u64, refused: bool) -> Result<bool>;
    /// Games, newest first (of one server, or all).
    fn list_games(&self, guild: Option<u64>, limit: usize) -> Result<Vec<GameRecord>>;
    /// A game's history: every state version with its entry.
    fn history(&self, game: GameId) -> Result<History>;
    /// Rolls a game back to move `back_to` (a record in the log, by a moderator).
    fn rollback(&self, game: GameId, back_to: u64, by: u64) -> Result<RollbackOutcome>;
    /// The idle-game watches.
    fn idle_watches(&self) -> Result<Vec<IdleWatch>>;
    /// Sets a game's idle watch.
    fn set_idle_watch(&self, watch: &IdleWatch) -> Result<()>;
    /// Clears a game's idle watch.
    fn clear_idle_watch(&self, game: GameId) -> Result<()>;
    /// Keeps the numbered list a user was shown in a game, at a click version (DECISIONS B19).
    fn save_shown_list(&self, game: GameId, user: u64, version: u64, options: &str) -> Result<()>;
    /// The list a user was last shown in a game: its click version and options.
    fn shown_list(&self, game: GameId, user: u64) -> Result<Option<(u64, String)>>;
    /// Forgets the lists shown in a game.
    fn clear_shown_lists(&self, game: GameId) -> Result<()>;
}

/// How a campaign's options are made once its game has an id (see
/// [`GameStore::create_campaign_game`]).
pub type CampaignOptions<'a> =
    Box<dyn FnOnce(GameId) -> std::result::Result<serde_json::Value, String> + 'a>;

/// The store surface both backends have as inherent methods of the same names (seats,
/// languages, lobbies, campaigns, Discord's messages, the admin tools, export and import): each
/// [`GameStore`] method of this list calls `$backend`'s own. One list for both backends; the
/// trait above documents each method.
macro_rules! forward_store_surface {
    ($backend:ident) => {
        $crate::store::backend::forward_to_inherent! { $backend;
            fn create_game_with_bots(&self, new: NewGame, bot_level: &str) -> Result<(GameId, Arc<GameState>)>;
            fn apply_at(&self, game: GameId, seat: usize, decisions: &[Decision], seq: u64) -> Result<MoveOutcome>;
            fn is_live(&self, game: GameId) -> bool;
            fn last_finished_in_channel(&self, channel: u64) -> Result<Option<GameId>>;
            fn set_notify(&self, game: GameId, seat: usize, notify: Notify) -> Result<()>;
            fn log_marks(&self, game: GameId, seat: usize) -> Result<(u64, u64)>;
            fn export(&self, game: GameId) -> Result<GameExport>;
            fn import(&self, doc: &GameExport, location: Location, owners: &[SeatOwner]) -> Result<(GameId, Arc<GameState>)>;
            fn clear_reminders(&self, game: GameId, seat: Option<usize>) -> Result<()>;
            fn clear_reminder(&self, game: GameId, seat: usize, kind: &str) -> Result<()>;
            fn vacate_seat(&self, game: GameId, seat: usize) -> Result<()>;
            fn bot_level(&self, game: GameId) -> Result<String>;
            fn take_seat(&self, game: GameId, seat: usize, user: u64, name: &str) -> Result<()>;
            fn set_waiting_since(&self, game: GameId, seat: usize, since: Option<i64>) -> Result<()>;
            fn waiting_since(&self, game: GameId, seat: usize) -> Result<Option<i64>>;
            fn set_paused(&self, game: GameId, since: Option<i64>) -> Result<()>;
            fn paused_at(&self, game: GameId) -> Result<Option<i64>>;
            fn archived_reason(&self, game: GameId) -> Result<Option<String>>;
            fn archive(&self, game: GameId, reason: ArchiveReason) -> Result<()>;
            fn archive_channel(&self, channel: u64) -> Result<Vec<GameId>>;
            fn archive_guild(&self, guild: u64) -> Result<Vec<GameId>>;
            fn user_settings(&self, user: u64) -> Result<UserSettings>;
            fn set_user_settings(&self, user: u64, settings: &UserSettings) -> Result<()>;
            fn user_language(&self, user: u64) -> Result<Option<String>>;
            fn set_user_language(&self, user: u64, language: &str) -> Result<()>;
            fn game_language(&self, game: GameId) -> Result<Option<String>>;
            fn channel_language(&self, channel: u64) -> Result<Option<String>>;
            fn set_game_language(&self, game: GameId, language: &str) -> Result<()>;
            fn save_lobby(&self, channel: u64, body: &str) -> Result<()>;
            fn delete_lobby(&self, channel: u64) -> Result<()>;
            fn lobbies(&self) -> Result<Vec<(u64, String)>>;
            fn create_campaign(&self, location: Location, options: &serde_json::Value) -> Result<CampaignId>;
            fn create_campaign_game(&self, new: NewGame, options: CampaignOptions<'_>) -> Result<(CampaignId, GameId, Arc<GameState>)>;
            fn create_chapter_game(&self, new: NewGame, campaign: CampaignId, chapter: u8, options: CampaignOptions<'_>) -> Result<(GameId, Arc<GameState>)>;
            fn set_chapter_game(&self, campaign: CampaignId, chapter: u8, game: GameId) -> Result<()>;
            fn record_chapter_result(&self, campaign: CampaignId, chapter: u8, result: &serde_json::Value) -> Result<()>;
            fn set_campaign_status(&self, campaign: CampaignId, status: CampaignStatus) -> Result<()>;
            fn save_campaign(&self, campaign: CampaignId, options: &serde_json::Value, status: CampaignStatus, chapter: Option<ChapterWrite<'_>>) -> Result<()>;
            fn campaign(&self, campaign: CampaignId) -> Result<Option<CampaignRecord>>;
            fn last_campaign_in_channel(&self, channel: u64) -> Result<Option<CampaignId>>;
            fn campaign_in_channel(&self, channel: u64) -> Result<Option<CampaignId>>;
            fn discord_status(&self, game: GameId) -> Result<Option<StatusMessage>>;
            fn set_discord_status(&self, game: GameId, status: StatusMessage) -> Result<()>;
            fn set_status_pinned(&self, game: GameId, pinned: bool) -> Result<()>;
            fn pinned_status_of_ended_games(&self) -> Result<Vec<(GameId, StatusMessage)>>;
            fn discord_meta(&self, key: &str) -> Result<Option<String>>;
            fn set_discord_meta(&self, key: &str, value: &str) -> Result<()>;
            fn dm_refused_at(&self, user: u64) -> Result<Option<i64>>;
            fn set_dm_refused(&self, user: u64, refused: bool) -> Result<bool>;
            fn list_games(&self, guild: Option<u64>, limit: usize) -> Result<Vec<GameRecord>>;
            fn history(&self, game: GameId) -> Result<History>;
            fn rollback(&self, game: GameId, back_to: u64, by: u64) -> Result<RollbackOutcome>;
            fn idle_watches(&self) -> Result<Vec<IdleWatch>>;
            fn set_idle_watch(&self, watch: &IdleWatch) -> Result<()>;
            fn clear_idle_watch(&self, game: GameId) -> Result<()>;
            fn save_shown_list(&self, game: GameId, user: u64, version: u64, options: &str) -> Result<()>;
            fn shown_list(&self, game: GameId, user: u64) -> Result<Option<(u64, String)>>;
            fn clear_shown_lists(&self, game: GameId) -> Result<()>;
        }
    };
}
pub(crate) use forward_store_surface;

/// `fn name(&self, arg: Type, …) -> Ret;` … as trait methods that call `$backend::name(self,
/// arg, …)`.
macro_rules! forward_to_inherent {
    ($backend:ident; $(fn $name:ident(&self $(, $arg:ident: $ty:ty)*) -> $ret:ty;)*) => {
        $(
            fn $name(&self $(, $arg: $ty)*) -> $ret {
                $backend::$name(self $(, $arg)*)
            }
        )*
    };
}
pub(crate) use forward_to_inherent;

impl GameStore for Store {
    fn backend(&self) -> Backend {
        Backend::Sqlite
    }
    fn data(&self) -> &Arc<GameData> {
        Store::data(self)
    }
    fn create_game(&self, new: NewGame) -> Result<(GameId, Arc<GameState>)> {
        Store::create_game(self, new)
    }
    fn apply_with(
        &self,
        game: GameId,
        seat: usize,
        decisions: &[Decision],
        effects: &dyn Fn(&GameState, &[Event]) -> MoveEffects,
    ) -> Result<MoveOutcome> {
        Store::apply_with(self, game, seat, decisions, effects)
    }
    fn undo_with(
        &self,
        game: GameId,
        seat: usize,
        effects: &dyn Fn(&GameState) -> MoveEffects,
    ) -> Result<UndoOutcome> {
        Store::undo_with(self, game, seat, effects)
    }
    fn live_state(&self, game: GameId) -> Result<(Arc<GameState>, u64)> {
        Store::live_state(self, game)
    }
    fn state(&self, game: GameId) -> Result<Arc<GameState>> {
        Store::state(self, game)
    }
    fn live_games(&self) -> Vec<GameId> {
        Store::live_games(self)
    }
    fn game(&self, game: GameId) -> Result<GameRecord> {
        Store::game(self, game)
    }
    fn game_in_channel(&self, channel: u64) -> Result<Option<GameId>> {
        Store::game_in_channel(self, channel)
    }
    fn seats(&self, game: GameId) -> Result<Vec<SeatRecord>> {
        Store::seats(self, game)
    }
    fn log(&self, game: GameId) -> Result<Vec<LogEntry>> {
        Store::log(self, game)
    }
    fn last_entry(&self, game: GameId) -> Result<Option<LogEntry>> {
        Store::last_entry(self, game)
    }
    fn abandon(&self, game: GameId) -> Result<()> {
        Store::abandon(self, game)
    }
    fn queue_notification(&self, game: Option<GameId>, payload: &serde_json::Value) -> Result<i64> {
        Store::queue_notification(self, game, payload)
    }
    fn claim_notifications(&self, limit: usize, _lease: Duration) -> Result<Vec<Outbound>> {
        Store::pending_notifications(self, limit)
    }
    fn mark_sent(&self, id: i64) -> Result<()> {
        Store::mark_sent(self, id)
    }
    fn set_reminder(&self, game: GameId, seat: usize, kind: &str, due_at: i64) -> Result<()> {
        Store::set_reminder(self, game, seat, kind, due_at)
    }
    fn reminders(&self, game: GameId) -> Result<Vec<Reminder>> {
        Store::reminders(self, game)
    }
    fn claim_due_reminders(&self, now: i64, lease_ms: i64) -> Result<Vec<Reminder>> {
        Store::claim_due_reminders(self, now, lease_ms)
    }
    fn board_png(&self, game: GameId, version: u64) -> Result<Option<Vec<u8>>> {
        Store::board_png(self, game, version)
    }
    fn store_board_png(&self, game: GameId, version: u64, png: &[u8]) -> Result<()> {
        Store::store_board_png(self, game, version, png)
    }
    fn pending_renders(&self, limit: usize) -> Result<Vec<(GameId, u64)>> {
        Store::pending_renders(self, limit)
    }
    fn fail_next(&self, at: FailPoint) {
        Store::fail_next(self, at)
    }

    crate::store::backend::forward_store_surface!(Store);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_postgres_url_selects_postgres_and_anything_else_sqlite() {
        let path = PathBuf::from("skymines.db");
        assert_eq!(
            Database::select(None, None, path.clone()),
            Database::Sqlite(path.clone())
        );
        assert_eq!(
            Database::select(Some(" "), None, path.clone()),
            Database::Sqlite(path.clone())
        );
        assert_eq!(
            Database::select(Some("games.db"), None, path.clone()),
            Database::Sqlite(PathBuf::from("games.db"))
        );
        let url = "postgres://bot:secret@db.example/skymines";
        assert_eq!(
            Database::select(Some(url), None, path.clone()),
            Database::Postgres(url.to_string())
        );
        // The environment wins over the file.
        assert_eq!(
            Database::select(Some("games.db"), Some("postgresql:///x"), path.clone()),
            Database::Postgres("postgresql:///x".to_string())
        );
        let db = Database::select(Some(url), None, path);
        assert_eq!(db.describe(), "postgres://db.example/skymines");
        assert!(!format!("{db:?}").contains("secret"));
        // The bot may start on PostgreSQL: every backend holds the whole store.
        assert_eq!(
            db.require_full_store().expect("accepted"),
            Database::Postgres(url.to_string())
        );
    }
}
