//! One store interface, two backends. [`GameStore`] is what a game needs of its store — games
//! and seats, moves and undos (one transaction each), the log, snapshots and restore, board
//! images, the outbox and reminders — with the same semantics on SQLite ([`Store`], the
//! embedded default: one process owns the file) and on PostgreSQL ([`PgStore`], several
//! processes share one server). [`Database`] is where the configuration says the games live.
//!
//! The PostgreSQL backend covers this interface only, not yet the rest of [`Store`] (lobbies,
//! campaigns, seat management, user settings, languages, Discord status messages, the admin
//! tools, export and import, backups), which the chat layer and the Discord adapter use:
//! [`Database::require_full_store`] refuses to start the bot or the local mode on PostgreSQL
//! with an error naming what is missing, rather than letting a command fail later.

use super::error::{Result, StoreError};
use super::{
    FailPoint, GameId, GameRecord, LogEntry, MoveEffects, MoveOutcome, NewGame, Outbound, Reminder,
    SeatRecord, Store, UndoOutcome,
};
use crate::data::GameData;
use crate::engine::{Decision, Event, GameState};
use std::path::PathBuf;
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

/// What the PostgreSQL backend does not have yet (see the module comment).
pub const POSTGRES_MISSING: &str = "lobbies, campaigns, seat management and user settings, \
     languages, Discord status messages, the admin tools (pause, rollback, idle games), export \
     and import, and backups";

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

    /// The SQLite file the bot and the local mode run on; PostgreSQL is refused here, at
    /// start-up, naming what its backend lacks.
    pub fn require_full_store(&self) -> Result<PathBuf> {
        match self {
            Database::Sqlite(p) => Ok(p.clone()),
            Database::Postgres(url) => Err(StoreError::Unsupported(format!(
                "{}: the PostgreSQL store backend holds games, moves, undos, snapshots, restore, \
                 board images, the outbox and reminders, but not yet {POSTGRES_MISSING}, which the \
                 bot needs; it refuses to start rather than fail on those commands later. \
                 Use an SQLite database_path for now (see README, \"Running at scale\").",
                redact_url(url)
            ))),
        }
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
}

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
        let refusal = db.require_full_store().unwrap_err().to_string();
        assert!(
            refusal.contains("lobbies") && refusal.contains("campaigns"),
            "{refusal}"
        );
        assert!(!refusal.contains("secret"), "{refusal}");
    }
}
