//! Persistence: every game, seat, move, snapshot, board image, campaign, reminder and queued
//! message in one SQLite file, so that a restart, a crash, an upgrade or a full disk never loses
//! a move or corrupts a game. This module owns the database file and the live state of every
//! active game; the chat layer owns who may do what, the Discord adapter owns sending.
//!
//! # Model
//!
//! - A game is its options, seed and seat names plus an append-only log of decision batches and
//!   undo records, numbered 1, 2, 3, … per game ([`LogEntry`]). Seat names are not history: a
//!   seat taken over carries its new person's name in every state, replayed or restored
//!   ([`replay::with_seat_names`]).
//! - A move is ONE transaction: the log entry, the snapshot when one is due, a board-image row
//!   for the new state version, the outbound notifications and reminders the caller derived
//!   from the new state ([`Store::apply_with`]), and the game row's new sequence number. If the
//!   process dies or a write fails mid-way, all of it is there or none of it; the in-memory
//!   state changes only after the commit.
//! - Snapshots (the whole `GameState` as JSON) are written at set-up, every K moves
//!   ([`StoreOptions::snapshot_every`]), after every undo and when a game ends. The latest
//!   usable snapshot is authoritative: at start-up each active game is that snapshot plus a
//!   replay of the later batches. When the engine version and the data hash are the ones the
//!   game started with, a replay of the whole log from the seed is compared with it; a
//!   difference marks the game `damaged` with a report and sets it aside, never "repairs" it.
//!   After an engine upgrade (or with other data), games continue from their snapshots.
//! - Undo appends a record reverting a seat's last batch (DECISIONS B6); the state is rebuilt
//!   from an earlier snapshot skipping the reverted batch, and stored as a snapshot.
//!
//! # Durability: WAL with `synchronous = NORMAL`
//!
//! The file runs in WAL mode with `synchronous = NORMAL` (the default of [`Synchronous`]). A
//! commit then writes the WAL without waiting for the disk; the WAL is synced at checkpoints.
//! That is fully durable against everything that kills the bot while the machine stays up (a
//! crash, SIGKILL, a restart, an upgrade: the kill tests), and WAL never corrupts the file:
//! after a power cut or kernel crash the file is consistent and at worst the last moves before
//! the cut roll back, each game still whole (its log, snapshot and messages commit together).
//! `FULL` syncs the WAL on every commit and would survive a power cut too, but that sync is
//! the whole cost of a move and depends on the host: on the reference VM a FULL move took a
//! median of 0.36 ms when the host was quiet and 3.9 ms under load (the flush is rounded to
//! 4 ms), past the 2 ms budget, while NORMAL stays at ~0.05 ms either way (see
//! `benches/store.rs`). An operator with fast flushes may choose `Synchronous::Full`.
//! Checkpoints (copying the WAL into the file, with its flushes) run on a background thread,
//! never inside a move.
//!
//! # Concurrency
//!
//! [`Store`] is synchronous and `Sync`: one SQLite connection behind a mutex (SQLite has one
//! writer anyway), one mutex per live game held for a whole move, so moves of one game are
//! serialized and engine work of different games runs in parallel. Lock order: game, then
//! connection. [`hub::GameHub`] wraps it for async code (per-game async locks, blocking work on
//! `spawn_blocking`). One process owns a database file; should a second one write to it, every
//! move's transaction first checks that the game is still as this process saw it (active, not
//! paused, at the same move: `moves::check_unchanged`); a move against a game another process
//! ended, paused, rolled back or moved in is refused ([`StoreError::Changed`], nothing saved)
//! and the game is reloaded.
//!
//! # Damage is one game's
//!
//! A stored value of one game that does not decode (a game row, seat, move or snapshot) makes
//! that game unreadable (`Corrupt`): start-up sets it aside as `damaged` with the reason and
//! restores the others. A game set aside as damaged is still listed and reported with what of
//! its row can be read; a listing leaves out (and logs) only a game whose row cannot be read.
//!
//! # Layout
//!
//! This file holds the public types and [`Store::open`]; each duty has its own module:
//! `connection` (the SQLite file, transactions, checkpoints), `games` (game and seat rows),
//! `moves` (the log, moves and undo), `snapshots`, `restore` (start-up and its check against
//! a replay), `live` (the games in memory), `replay` (rebuilding states from a log), `migrate`,
//! `images`, `outbox`, `seats`, `lobbies`, `campaigns`, `admin`, `export`, `backup` (copies
//! while the bot runs), `hub` (async access), `discord`, `languages`, `shown` (the list each
//! user was last shown), `config`, `shards` (which games a process serves), `torture`;
//! `backend` (the [`GameStore`] interface over both backends) and `postgres` (the PostgreSQL
//! backend, one module per duty like these, sharing their pure code).

mod admin;
pub mod backend;
pub mod backup;
mod campaigns;
pub mod config;
mod connection;
mod discord;
mod error;
pub mod export;
mod games;
pub mod hub;
mod images;
mod languages;
mod live;
mod lobbies;
pub mod migrate;
mod moves;
mod outbox;
pub mod postgres;
pub mod replay;
mod restore;
mod seats;
pub mod shards;
mod shown;
mod snapshots;
pub mod torture;

pub use admin::{IdleWatch, RollbackOutcome};
pub use backend::{Backend, Database, GameStore};
pub use campaigns::{CampaignId, CampaignRecord, CampaignStatus, ChapterRecord, ChapterWrite};
pub use discord::StatusMessage;
pub use error::{Result, StoreError};
pub use export::GameExport;
pub use hub::GameHub;
pub use moves::undo_target;
pub use outbox::{Outbound, Reminder};
pub use postgres::PgStore;
pub use seats::{ArchiveReason, UserSettings};
pub use shards::ShardFilter;

use crate::data::GameData;
use crate::engine::{Decision, Event, GameOptions, GameState};
use connection::{configure, open_connection, Checkpointer, Conn};
use live::LiveSet;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// A game's row id.
pub type GameId = i64;

/// Where a game is played. Discord snowflakes are unique across guilds, so the channel alone
/// identifies the place; local mode uses any number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Location {
    pub guild: Option<u64>,
    pub channel: u64,
}

/// Who plays a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeatOwner {
    /// A Discord user id.
    Discord(u64),
    /// A player at the local terminal.
    Local,
    /// The automa.
    Luna,
    /// No person holds it (it was set up for a computer player, or its player left or was
    /// kicked): a computer player plays it at the game's level until someone joins it.
    Vacant,
}

impl SeatOwner {
    /// Whether a person plays the seat (a Discord user or the terminal's player).
    pub fn is_person(self) -> bool {
        matches!(self, SeatOwner::Discord(_) | SeatOwner::Local)
    }
}

/// How a seat wants private messages pushed (DECISIONS B1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Notify {
    #[default]
    Ephemeral,
    Dm,
}

impl Notify {
    fn as_str(self) -> &'static str {
        match self {
            Notify::Ephemeral => "ephemeral",
            Notify::Dm => "dm",
        }
    }
}

/// A seat of a new game, in seat order (a person's, or `Vacant` for a computer player).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSeat {
    pub owner: SeatOwner,
    pub name: String,
    pub notify: Notify,
}

/// Everything needed to start a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewGame {
    pub location: Location,
    /// The options; `options.seed` is the game's seed.
    pub options: GameOptions,
    /// The players' seats in seat order, at least one a person's (Luna, if any, is added by
    /// the engine).
    pub seats: Vec<NewSeat>,
}

impl NewGame {
    /// A game needs at least one person among its players (DECISIONS B16): every backend
    /// refuses a new game of computer players only with [`StoreError::NoPerson`].
    pub(crate) fn check_has_person(&self) -> Result<()> {
        if self.seats.iter().any(|s| s.owner.is_person()) {
            Ok(())
        } else {
            Err(StoreError::NoPerson)
        }
    }
}

/// A game's life cycle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameStatus {
    Active,
    Finished,
    Abandoned,
    /// Set aside at start-up: the stored state disagrees with its log (see the report).
    Damaged,
    /// Its channel was deleted or the bot left its server: kept whole and exportable, no longer
    /// played.
    Archived,
}

impl GameStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
            GameStatus::Abandoned => "abandoned",
            GameStatus::Damaged => "damaged",
            GameStatus::Archived => "archived",
        }
    }

    pub fn parse(s: &str) -> Option<GameStatus> {
        [
            GameStatus::Active,
            GameStatus::Finished,
            GameStatus::Abandoned,
            GameStatus::Damaged,
            GameStatus::Archived,
        ]
        .into_iter()
        .find(|g| g.as_str() == s)
    }
}

impl std::fmt::Display for GameStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A game's stored row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRecord {
    pub id: GameId,
    pub location: Location,
    pub status: GameStatus,
    pub options: GameOptions,
    pub seed: u64,
    /// The human seats' current names, given to `engine::new_game` on every replay (a
    /// take-over rewrites its seat's: see [`replay::with_seat_names`]).
    pub seat_names: Vec<String>,
    /// The engine version and data hash the game started with.
    pub engine_version: u32,
    pub data_hash: String,
    /// The last log sequence number: the version of the current state.
    pub seq: u64,
    pub damage_report: Option<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A stored seat.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRecord {
    pub seat: usize,
    pub owner: SeatOwner,
    pub name: String,
    pub colour: usize,
    pub notify: Notify,
    /// Since when the game waits on this seat (Unix ms, the chat layer's clock).
    pub waiting_since: Option<i64>,
}

/// One entry of a game's append-only log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LogEntry {
    /// Decisions of one seat applied atomically.
    Batch {
        seq: u64,
        seat: usize,
        decisions: Vec<Decision>,
        /// Unix milliseconds.
        at: i64,
    },
    /// Reverts batch `undoes` (an earlier batch of the same seat).
    Undo {
        seq: u64,
        seat: usize,
        undoes: u64,
        at: i64,
    },
    /// Returns the game to its state after entry `back_to` (a moderator's or owner's order):
    /// every batch in effect then is in effect again, every later one is reverted.
    Rollback {
        seq: u64,
        back_to: u64,
        /// Who ordered it (a Discord user id).
        by: u64,
        at: i64,
    },
}

impl LogEntry {
    pub fn seq(&self) -> u64 {
        match self {
            LogEntry::Batch { seq, .. }
            | LogEntry::Undo { seq, .. }
            | LogEntry::Rollback { seq, .. } => *seq,
        }
    }

    /// The seat that acted (a rollback is no seat's action).
    pub fn seat(&self) -> Option<usize> {
        match self {
            LogEntry::Batch { seat, .. } | LogEntry::Undo { seat, .. } => Some(*seat),
            LogEntry::Rollback { .. } => None,
        }
    }
}

/// What the caller wants stored with a move, in the same transaction.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MoveEffects {
    /// Messages to send (the Discord adapter's JSON payloads).
    pub notifications: Vec<serde_json::Value>,
    /// `Some`: replaces every reminder of the game (seat, kind, due time in Unix ms).
    pub reminders: Option<Vec<(usize, String, i64)>>,
}

/// A stored move.
#[derive(Debug, Clone)]
pub struct MoveOutcome {
    /// The move's log sequence number: the version of the new state.
    pub seq: u64,
    pub events: Vec<Event>,
    pub state: Arc<GameState>,
    /// Whether a snapshot was written with it.
    pub snapshot: bool,
    /// Whether the game ended (its status is now `finished`).
    pub finished: bool,
}

/// A stored undo.
#[derive(Debug, Clone)]
pub struct UndoOutcome {
    pub seq: u64,
    /// The reverted batch.
    pub undone: u64,
    pub state: Arc<GameState>,
}

/// Test hooks: the next write fails at this point inside its transaction, which rolls back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailPoint {
    /// After the log entry is inserted, before the snapshot.
    AfterDecisions,
    /// After the snapshot (if one is due), before the notifications and the game row.
    AfterSnapshot,
    /// Everything written, just before COMMIT.
    BeforeCommit,
}

/// `PRAGMA synchronous` in WAL mode (see the module comment for the choice); on PostgreSQL
/// `synchronous_commit` off (`Normal`) or on (`Full`), the same promises (see `postgres`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Synchronous {
    #[default]
    Normal,
    Full,
}

/// How the store runs.
#[derive(Debug, Clone)]
pub struct StoreOptions {
    /// K: a snapshot every K moves (at least 1).
    pub snapshot_every: u64,
    /// Snapshots more than this many moves older than a new one are deleted (the set-up
    /// snapshot always stays: undoing further back replays from it); 0 keeps them all.
    pub snapshot_window: u64,
    pub synchronous: Synchronous,
    /// Compare each restored game with a replay from its seed when versions match.
    pub verify_on_restore: bool,
    /// Open the file read-only: for inspection tools, and the tests' stand-in for a
    /// write-protected file (root ignores file modes). Writes fail with `ReadOnly`.
    pub read_only: bool,
    pub busy_timeout: Duration,
    /// Threads restoring games at start-up (0: one per core).
    pub restore_threads: usize,
    /// Only the games of these shards (see `shards`): restored, kept live and returned by the
    /// timers' queries. None: every game (one process).
    pub shards: Option<ShardFilter>,
}

impl StoreOptions {
    /// Whether `game` belongs to another process's shards (it is loaded here only for a
    /// request that came to this process, see `live::LiveSet`).
    pub(crate) fn visiting(&self, game: &GameRecord) -> bool {
        self.shards.is_some_and(|f| !f.holds(game.location.guild))
    }
}

impl Default for StoreOptions {
    fn default() -> StoreOptions {
        StoreOptions {
            snapshot_every: 16,
            snapshot_window: 64,
            synchronous: Synchronous::Normal,
            verify_on_restore: true,
            read_only: false,
            busy_timeout: Duration::from_secs(5),
            restore_threads: 0,
            shards: None,
        }
    }
}

/// What start-up found.
#[derive(Debug, Clone, Default)]
pub struct RestoreReport {
    /// Schema version before and after the migrations.
    pub schema_from: u32,
    pub schema: u32,
    /// Active games now playable.
    pub restored: usize,
    /// Of those, the ones checked against a replay from the seed.
    pub verified: usize,
    /// Restored from their snapshots without that check, and why (engine upgrade, other data).
    pub unverified: Vec<(GameId, String)>,
    /// Games set aside as damaged, with the report.
    pub damaged: Vec<(GameId, String)>,
    pub elapsed: Duration,
    /// The file existed but was empty (0 bytes): opened as a new database, though games may
    /// have been expected there.
    pub found_empty: bool,
}

impl RestoreReport {
    /// What start-up tells the operator: the file opened and the games restored, then a
    /// warning for an existing empty file and for every game set aside as damaged, each with
    /// what to do. (false, line) is information, (true, line) a warning.
    pub fn startup_lines(&self, path: &Path) -> Vec<(bool, String)> {
        let path = path.display();
        // In the order it happened: the schema is upgraded before any game is restored.
        let mut lines = Vec::new();
        if self.schema_from != self.schema {
            lines.push((
                false,
                format!(
                    "database {path}: schema upgraded from version {} to {}",
                    self.schema_from, self.schema
                ),
            ));
        }
        lines.push((
            false,
            format!(
                "database {path}: {} running game(s) restored ({} checked against a replay of their moves), {} set aside as damaged",
                self.restored,
                self.verified,
                self.damaged.len()
            ),
        ));
        if self.found_empty {
            lines.push((
                true,
                format!(
                    "WARNING: {path} existed but was EMPTY (0 bytes); it now starts as a new database with no games. \
                     If games were expected there, stop now and restore a backup (see `skymines backup`) \
                     or recover them from {path}-wal if that file is still there."
                ),
            ));
        }
        for (game, reason) in &self.damaged {
            lines.push((
                true,
                format!(
                    "WARNING: game #{game} in {path} cannot be read and was set aside as damaged: {reason}. \
                     The other games run. See /skymines admin report game:{game}; roll it back to its last good move \
                     or restore a backup."
                ),
            ));
        }
        lines
    }
}

/// The synchronous store: local mode, tests, and the engine room of [`GameHub`].
pub struct Store {
    path: PathBuf,
    data: Arc<GameData>,
    options: StoreOptions,
    conn: Mutex<Conn>,
    live: LiveSet,
    fail: Mutex<Option<FailPoint>>,
    checkpointer: Option<Checkpointer>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("path", &self.path)
            .field("live_games", &self.live_games().len())
            .finish_non_exhaustive()
    }
}

/// Locks a mutex; a panic elsewhere while it was held leaves data that is still consistent
/// (state changes are single assignments after a commit), so poisoning is ignored.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Fires the armed fail point if it is `at` (both backends' test hook).
fn fire(armed: &Mutex<Option<FailPoint>>, at: FailPoint) -> Result<()> {
    let mut armed = lock(armed);
    if *armed == Some(at) {
        *armed = None;
        return Err(StoreError::Injected(at));
    }
    Ok(())
}

pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// u64 ids and seeds are stored bit for bit in i64 columns.
fn to_db(v: u64) -> i64 {
    v as i64
}

fn from_db(v: i64) -> u64 {
    v as u64
}

fn json<T: Serialize + ?Sized>(v: &T) -> String {
    // Serializing plain data structs to a string cannot fail.
    serde_json::to_string(v).unwrap_or_default()
}

impl Store {
    /// Opens (or creates) the database, applies pending migrations and restores every active
    /// game. A file from a newer version, or another program's file, is refused untouched.
    pub fn open(
        path: impl AsRef<Path>,
        data: Arc<GameData>,
        options: StoreOptions,
    ) -> Result<(Store, RestoreReport)> {
        let started = Instant::now();
        let path = path.as_ref().to_path_buf();
        let mut options = options;
        options.snapshot_every = options.snapshot_every.max(1);
        let found_empty = std::fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() == 0);
        let mut conn = open_connection(&path, &options)?;
        // Nothing may write before the version check.
        let from = migrate::check(&conn, &path, migrate::MIGRATIONS)?;
        configure(&conn, &path, &options)?;
        let schema = if options.read_only {
            if from != migrate::latest_version() {
                return Err(StoreError::ReadOnly);
            }
            from
        } else {
            migrate::migrate(&mut conn, &path, migrate::MIGRATIONS)?.to
        };
        let mut store = Store {
            path,
            data,
            options,
            conn: Mutex::new(Conn {
                conn,
                reopen: false,
                page_limit: None,
            }),
            live: LiveSet::default(),
            fail: Mutex::new(None),
            checkpointer: None,
        };
        let mut report = store.restore_all()?;
        if !store.options.read_only {
            store.checkpointer = Checkpointer::start(&store.path, &store.options);
            if store.checkpointer.is_none() {
                // No thread for it: let the writer checkpoint as SQLite does by default.
                store.read(|c| Ok(c.pragma_update(None, "wal_autocheckpoint", 1000)?))?;
            }
        }
        report.schema_from = from;
        report.schema = schema;
        report.found_empty = found_empty;
        report.elapsed = started.elapsed();
        Ok((store, report))
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The component data games are played with.
    pub fn data(&self) -> &Arc<GameData> {
        &self.data
    }

    pub fn options(&self) -> &StoreOptions {
        &self.options
    }
}
