//! The store's typed errors. Every message is written for the player or the operator who reads
//! it in chat or in the log: it says what happened and whether anything was saved. Messages
//! name the database file at most, never a token or other secret.

use crate::engine::{RuleError, SetupError};
use std::path::PathBuf;

use super::types::{FailPoint, GameId, GameStatus};

/// Why a store operation failed. Whenever one is returned from a write, nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The rules refused the decision (not your turn, illegal, …). Nothing was written.
    #[error("{0}")]
    Rule(#[from] RuleError),
    #[error("the game cannot be set up: {0}")]
    Setup(#[from] SetupError),
    #[error(
        "the game database is read-only, so your command was not saved and nothing changed; \
         it will work again once an admin makes the database writable"
    )]
    ReadOnly,
    #[error(
        "the game database is full (no space left), so your command was not saved and nothing \
         changed; it will work again once space is freed"
    )]
    DiskFull,
    #[error("the game database is busy; nothing was saved, please try again")]
    Busy,
    #[error(
        "{path}: this database was written by a newer version of the bot (schema version \
         {found}; this version knows up to {supported}); it was left untouched: run the newer \
         version or restore a backup"
    )]
    TooNew {
        path: PathBuf,
        found: u32,
        supported: u32,
    },
    #[error(
        "{path}: not a Skymines game database ({reason}); it was left untouched. If it should \
         hold games, restore a backup (see `skymines backup`) or recover it with its -wal file; \
         or give another --db / database_path"
    )]
    NotOurs { path: PathBuf, reason: String },
    #[error("{path}: cannot open the game database: {message}")]
    Open { path: PathBuf, message: String },
    /// Another process serves this SQLite file (DECISIONS B22).
    #[error(
        "{path}: this game database is in use by another running Skymines process{owner}; run \
         one bot (or local game) per SQLite file, or use PostgreSQL (database_url) for several \
         processes. Read-only tools (`skymines backup`, `data check`) still work on it"
    )]
    InUse { path: PathBuf, owner: String },
    #[error("migration {name} failed, the database was left at schema version {at}: {message}")]
    Migration {
        name: String,
        at: u32,
        message: String,
    },
    #[error("there is already a game in this channel")]
    ChannelBusy,
    #[error("there is no game {0}")]
    NoSuchGame(GameId),
    #[error("game {game} is {status}, it takes no more moves")]
    NotActive { game: GameId, status: GameStatus },
    #[error("game {game} was set aside as damaged: {report}")]
    Damaged { game: GameId, report: String },
    #[error("seat {seat} has no move to undo")]
    NothingToUndo { seat: usize },
    #[error("that move cannot be undone: a later move depends on it ({0})")]
    UndoBlocked(String),
    /// DECISIONS B6: a seat's last move in effect has a later move of another seat (or a
    /// moderator's rollback) after it, so it is no longer the seat's to take back.
    #[error("seat {seat}'s last move has a later move of another seat after it")]
    UndoAfterOthers { seat: usize },
    #[error("seat {0} is not in this game")]
    NoSuchSeat(usize),
    /// A game needs at least one person (DECISIONS B16): a new game of computer players only,
    /// or the last person leaving a running game, is refused. Nothing was written.
    #[error("a game needs at least one person among its players")]
    NoPerson,
    /// A move worked out on an earlier state of the game ([`crate::store::GameLog::apply_at`]): the game has
    /// moved on since. Nothing was written.
    #[error("game {0} moved on before this move was stored")]
    MovedOn(GameId),
    #[error("game {game} has no move {back_to}: its log holds moves 0 to {last}")]
    NoSuchMove {
        game: GameId,
        back_to: u64,
        last: u64,
    },
    #[error("game {game} is at move {back_to} already: there is nothing to roll back")]
    NothingToRollBack { game: GameId, back_to: u64 },
    #[error(
        "game {game} cannot go back to move {back_to}: its history holds up to move {last_good} \
         only ({problem})"
    )]
    RollbackUnverified {
        game: GameId,
        back_to: u64,
        last_good: u64,
        problem: String,
    },
    /// A request the store cannot carry out as asked (a chapter number out of range, …).
    #[error("{0}")]
    Invalid(String),
    #[error("the game export cannot be imported: {0}")]
    BadExport(String),
    #[error("stored data of game {game} cannot be read: {message}")]
    Corrupt { game: GameId, message: String },
    /// SQLite found the file itself damaged (a page that does not parse: a flipped bit on the
    /// disk, a file changed by hand or cut short). Nothing was written.
    #[error(
        "the game database file is damaged ({0}); nothing was saved. Stop the bot and restore \
         a backup (see `skymines backup`), or rescue what still reads with `sqlite3 FILE \
         .recover`"
    )]
    FileDamaged(String),
    /// The SQLite file or its WAL was removed or replaced under the running process (see
    /// `store::watch`): it takes no more writes, nothing was written.
    #[error(
        "{path}: {what} while the bot was running, so it takes no more moves until it is \
         restarted; nothing was saved"
    )]
    FileGone { path: PathBuf, what: String },
    #[error("another process wrote to game {0}; it was reloaded, please try again")]
    Conflict(GameId),
    /// The game is no longer as this process saw it: another process ended, paused or rolled
    /// it back, or moved in it. The move was refused and the game reloaded.
    #[error(
        "game {0} has changed: it was ended, paused or moved on elsewhere, so your move was not \
         saved and nothing changed; it was reloaded"
    )]
    Changed(GameId),
    #[error("{path}: cannot read the configuration: {message}")]
    Config { path: PathBuf, message: String },
    /// A test hook fired (the `test-support` feature's `Store::fail_next`); the transaction was rolled back.
    #[error("injected failure at {0:?}; nothing was saved")]
    Injected(FailPoint),
    #[error("the store's worker thread stopped: {0}")]
    Worker(String),
    #[error("database error: {0}")]
    Sqlite(rusqlite::Error),
    #[error("PostgreSQL error: {}", postgres_message(.0))]
    Postgres(postgres::Error),
    /// The PostgreSQL server cannot be reached or refused the connection (`target` is the
    /// address without any password).
    #[error("{target}: cannot open the game database: {message}")]
    Server { target: String, message: String },
    /// The configured backend lacks a store feature this program needs.
    #[error("{0}")]
    Unsupported(String),
}

impl StoreError {
    /// Whether the error leaves the game as it was and may go away by itself or once an admin
    /// fixes the disk (read-only, full, busy): the chat layer says "try again".
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            StoreError::ReadOnly
                | StoreError::DiskFull
                | StoreError::Busy
                | StoreError::Conflict(_)
                | StoreError::Changed(_)
        )
    }
}

impl StoreError {
    /// Whether the error is damage to what is stored (a page of the file that does not parse,
    /// a value that no longer has its column's type), not a fault of this process: said as
    /// such to players and operators, and at start-up confined to the games it is in.
    pub fn is_stored_damage(&self) -> bool {
        matches!(
            self,
            StoreError::FileDamaged(_)
                | StoreError::Sqlite(
                    rusqlite::Error::FromSqlConversionFailure(..)
                        | rusqlite::Error::InvalidColumnType(..)
                        | rusqlite::Error::IntegralValueOutOfRange(..)
                        | rusqlite::Error::Utf8Error(..)
                )
        )
    }

    /// A stored value of `game` that does not decode (text that is not UTF-8, a number that
    /// is text, …) makes that one game unreadable (`Corrupt`, saying `what`); every other
    /// error stays what it is.
    pub(crate) fn decoding(self, game: GameId, what: &str) -> StoreError {
        match self {
            StoreError::Sqlite(
                e @ (rusqlite::Error::FromSqlConversionFailure(..)
                | rusqlite::Error::InvalidColumnType(..)
                | rusqlite::Error::IntegralValueOutOfRange(..)
                | rusqlite::Error::Utf8Error(..)),
            ) => StoreError::Corrupt {
                game,
                message: format!("{what} cannot be read: {e}"),
            },
            other => other,
        }
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        use rusqlite::ErrorCode as C;
        match e.sqlite_error_code() {
            Some(C::ReadOnly) => StoreError::ReadOnly,
            Some(C::DiskFull) => StoreError::DiskFull,
            Some(C::DatabaseBusy) | Some(C::DatabaseLocked) => StoreError::Busy,
            Some(C::DatabaseCorrupt) | Some(C::NotADatabase) => {
                StoreError::FileDamaged(e.to_string())
            }
            _ => StoreError::Sqlite(e),
        }
    }
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

impl From<postgres::Error> for StoreError {
    fn from(e: postgres::Error) -> StoreError {
        use postgres::error::SqlState;
        match e.code() {
            // Another transaction holds what this one needs (a lock wait timed out, a
            // deadlock, a serialization failure): nothing was written, try again.
            Some(c)
                if *c == SqlState::LOCK_NOT_AVAILABLE
                    || *c == SqlState::T_R_DEADLOCK_DETECTED
                    || *c == SqlState::T_R_SERIALIZATION_FAILURE
                    || *c == SqlState::QUERY_CANCELED =>
            {
                StoreError::Busy
            }
            Some(c) if *c == SqlState::DISK_FULL => StoreError::DiskFull,
            Some(c) if *c == SqlState::READ_ONLY_SQL_TRANSACTION => StoreError::ReadOnly,
            _ => StoreError::Postgres(e),
        }
    }
}

/// The server's own message: a `postgres::Error` shows only "db error" for those.
fn postgres_message(e: &postgres::Error) -> String {
    match e.as_db_error() {
        Some(db) => format!("{}: {}", db.severity(), db.message()),
        None => e.to_string(),
    }
}
