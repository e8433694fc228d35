//! Persistence: every game, seat, move, snapshot, board image, campaign, reminder and queued
//! message in one SQLite file, so that a restart, a crash, an upgrade or a full disk never loses
//! a move or corrupts a game. This module owns the database file and the live state of every
//! active game; the chat layer owns who may do what, the Discord adapter owns sending.
//!
//! # Model
//!
//! - A game is its options, seed and seat names plus an append-only log of decision batches and
//!   undo records, numbered 1, 2, 3, … per game ([`LogEntry`]).
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
//! `spawn_blocking`). One process owns a database file; a second writer is detected through
//! the log's primary key ([`StoreError::Conflict`]) and the game is reloaded.

mod admin;
mod campaigns;
pub mod config;
mod discord;
mod error;
pub mod export;
pub mod hub;
mod images;
mod languages;
mod lobbies;
pub mod migrate;
mod outbox;
pub mod replay;
mod seats;
pub mod torture;

pub use admin::{IdleWatch, RollbackOutcome};
pub use campaigns::{CampaignId, CampaignRecord, CampaignStatus, ChapterRecord, ChapterWrite};
pub use discord::StatusMessage;
pub use error::{Result, StoreError};
pub use export::GameExport;
pub use hub::GameHub;
pub use outbox::{Outbound, Reminder};
pub use seats::{ArchiveReason, UserSettings};

use crate::data::GameData;
use crate::engine::{self, Decision, Event, GameOptions, GameState, Phase, ENGINE_VERSION};
use replay::ReplayError;
use rusqlite::{params, Connection, OpenFlags, OptionalExtension, TransactionBehavior};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, RwLock};
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
    /// Its player left or was kicked: the bot plays it safely until someone joins it.
    Vacant,
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

/// A human seat of a new game, in seat order.
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
    /// The human seats in seat order (Luna, if any, is added by the engine).
    pub seats: Vec<NewSeat>,
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
    /// The names given to `engine::new_game`.
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

/// `PRAGMA synchronous` in WAL mode (see the module comment for the choice).
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
}

/// A game in memory.
struct Live {
    state: Arc<GameState>,
    seq: u64,
    /// Set when the game left the live set (finished, abandoned, reloaded): waiters retry.
    closed: bool,
}

struct Conn {
    conn: Connection,
    /// Reopen before the next use (after a read-only error: the file may be writable again).
    reopen: bool,
    page_limit: Option<u64>,
}

/// The synchronous store: local mode, tests, and the engine room of [`GameHub`].
pub struct Store {
    path: PathBuf,
    data: Arc<GameData>,
    options: StoreOptions,
    conn: Mutex<Conn>,
    live: RwLock<HashMap<GameId, Arc<Mutex<Live>>>>,
    fail: Mutex<Option<FailPoint>>,
    checkpointer: Option<Checkpointer>,
}

/// Copies the WAL into the database file on its own thread and connection, so that no move
/// waits for a checkpoint's disk flushes (the writer's automatic checkpoints are off).
struct Checkpointer {
    stop: Arc<(Mutex<bool>, std::sync::Condvar)>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// How often the checkpointer looks at the WAL.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(250);

impl Checkpointer {
    fn start(path: &Path, options: &StoreOptions) -> Option<Checkpointer> {
        let stop = Arc::new((Mutex::new(false), std::sync::Condvar::new()));
        let flag = stop.clone();
        let path = path.to_path_buf();
        let options = options.clone();
        let thread = std::thread::Builder::new()
            .name("store-checkpoint".to_string())
            .spawn(move || {
                let mut conn: Option<Connection> = None;
                loop {
                    let (stopped, wake) = &*flag;
                    let mut stopped = lock(stopped);
                    if !*stopped {
                        stopped = wake
                            .wait_timeout(stopped, CHECKPOINT_EVERY)
                            .unwrap_or_else(|e| e.into_inner())
                            .0;
                    }
                    if *stopped {
                        return;
                    }
                    drop(stopped);
                    if conn.is_none() {
                        conn = open_connection(&path, &options).ok();
                    }
                    // PASSIVE: copies what it can without blocking the writer. On an error (a
                    // full or read-only disk) the WAL stays as it is and the next round opens a
                    // fresh connection and tries again.
                    if let Some(c) = &conn {
                        if c.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
                            .is_err()
                        {
                            conn = None;
                        }
                    }
                }
            })
            .ok()?;
        Some(Checkpointer {
            stop,
            thread: Some(thread),
        })
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        let (flag, wake) = &*self.stop;
        *lock(flag) = true;
        wake.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
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

fn open_connection(path: &Path, options: &StoreOptions) -> Result<Connection> {
    let flags = if options.read_only {
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX
    } else {
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
    };
    let conn = Connection::open_with_flags(path, flags).map_err(|e| StoreError::Open {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    conn.busy_timeout(options.busy_timeout)?;
    Ok(conn)
}

/// Connection settings once the file is known to be ours: WAL, synchronous, foreign keys.
fn configure(conn: &Connection, path: &Path, options: &StoreOptions) -> Result<()> {
    conn.pragma_update(None, "foreign_keys", "ON")?;
    if !options.read_only {
        let mode: String =
            conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))?;
        if !mode.eq_ignore_ascii_case("wal") {
            return Err(StoreError::Open {
                path: path.to_path_buf(),
                message: format!("cannot switch to WAL mode (the file stays in {mode} mode)"),
            });
        }
    }
    let sync = match options.synchronous {
        Synchronous::Normal => "NORMAL",
        Synchronous::Full => "FULL",
    };
    conn.pragma_update(None, "synchronous", sync)?;
    if !options.read_only {
        // Checkpoints run on the checkpointer's thread (and when the store closes).
        conn.pragma_update(None, "wal_autocheckpoint", 0)?;
    }
    Ok(())
}

const GAME_COLUMNS: &str =
    "id, guild, channel, status, options, seed, seat_names, engine_version, \
     data_hash, last_seq, damage_report, created_at, updated_at";

fn game_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Result<GameRecord>> {
    let id: GameId = r.get(0)?;
    let status: String = r.get(3)?;
    let options: String = r.get(4)?;
    let names: String = r.get(6)?;
    let corrupt = |message: String| StoreError::Corrupt { game: id, message };
    let parsed = (|| -> Result<GameRecord> {
        Ok(GameRecord {
            id,
            location: Location {
                guild: r.get::<_, Option<i64>>(1)?.map(from_db),
                channel: from_db(r.get(2)?),
            },
            status: GameStatus::parse(&status)
                .ok_or_else(|| corrupt(format!("unknown status `{status}`")))?,
            options: serde_json::from_str(&options)
                .map_err(|e| corrupt(format!("options: {e}")))?,
            seed: from_db(r.get(5)?),
            seat_names: serde_json::from_str(&names)
                .map_err(|e| corrupt(format!("seat names: {e}")))?,
            engine_version: u32::try_from(r.get::<_, i64>(7)?).unwrap_or(u32::MAX),
            data_hash: r.get(8)?,
            seq: from_db(r.get(9)?),
            damage_report: r.get(10)?,
            created_at: r.get(11)?,
            updated_at: r.get(12)?,
        })
    })();
    Ok(parsed)
}

fn read_game(conn: &Connection, game: GameId) -> Result<GameRecord> {
    let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1");
    conn.prepare_cached(&sql)?
        .query_row([game], game_from_row)
        .optional()?
        .ok_or(StoreError::NoSuchGame(game))?
}

fn read_log(conn: &Connection, game: GameId) -> Result<Vec<LogEntry>> {
    let mut stmt = conn.prepare_cached(
        "SELECT seq, kind, seat, decisions, undoes, at, back_to, by_user FROM moves \
         WHERE game_id = ?1 ORDER BY seq",
    )?;
    let rows = stmt.query_map([game], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, i64>(2)?,
            r.get::<_, Option<String>>(3)?,
            r.get::<_, Option<i64>>(4)?,
            r.get::<_, i64>(5)?,
            r.get::<_, Option<i64>>(6)?,
            r.get::<_, Option<i64>>(7)?,
        ))
    })?;
    rows.map(|row| entry_from_row(game, row?)).collect()
}

/// seq, kind, seat, decisions, undoes, at, back_to, by_user.
type EntryRow = (
    i64,
    String,
    i64,
    Option<String>,
    Option<i64>,
    i64,
    Option<i64>,
    Option<i64>,
);

fn entry_from_row(game: GameId, row: EntryRow) -> Result<LogEntry> {
    let (seq, kind, seat, decisions, undoes, at, back_to, by) = row;
    let corrupt = |message: String| StoreError::Corrupt {
        game,
        message: format!("log entry {seq}: {message}"),
    };
    let seq = from_db(seq);
    let seat = usize::try_from(seat).map_err(|_| corrupt(format!("seat {seat}")))?;
    Ok(match (kind.as_str(), decisions, undoes) {
        ("batch", Some(d), None) => LogEntry::Batch {
            seq,
            seat,
            decisions: serde_json::from_str(&d).map_err(|e| corrupt(e.to_string()))?,
            at,
        },
        ("undo", None, Some(u)) => LogEntry::Undo {
            seq,
            seat,
            undoes: from_db(u),
            at,
        },
        ("rollback", None, None) => LogEntry::Rollback {
            seq,
            back_to: back_to
                .map(from_db)
                .ok_or_else(|| corrupt("a rollback without its target".to_string()))?,
            by: by.map(from_db).unwrap_or(0),
            at,
        },
        _ => return Err(corrupt(format!("malformed `{kind}` entry"))),
    })
}

fn snapshot_seqs(conn: &Connection, game: GameId) -> Result<Vec<u64>> {
    let mut stmt = conn.prepare_cached("SELECT seq FROM snapshots WHERE game_id = ?1")?;
    let rows = stmt.query_map([game], |r| r.get::<_, i64>(0))?;
    rows.map(|r| r.map(from_db).map_err(StoreError::from))
        .collect()
}

fn read_snapshot(conn: &Connection, game: GameId, seq: u64) -> Result<String> {
    conn.prepare_cached("SELECT state FROM snapshots WHERE game_id = ?1 AND seq = ?2")?
        .query_row(params![game, to_db(seq)], |r| r.get(0))
        .optional()?
        .ok_or_else(|| StoreError::Corrupt {
            game,
            message: format!("the snapshot of move {seq} is missing"),
        })
}

fn insert_snapshot(tx: &Connection, game: GameId, seq: u64, state: &str, at: i64) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO snapshots (game_id, seq, engine_version, state, at) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![game, to_db(seq), ENGINE_VERSION, state, at])?;
    Ok(())
}

/// Deletes the snapshots more than `window` moves before `seq`, except the set-up one.
fn prune_snapshots(tx: &Connection, game: GameId, seq: u64, window: u64) -> Result<()> {
    if window > 0 && seq > window {
        tx.prepare_cached("DELETE FROM snapshots WHERE game_id = ?1 AND seq > 0 AND seq < ?2")?
            .execute(params![game, to_db(seq - window)])?;
    }
    Ok(())
}

fn insert_image_row(tx: &Connection, game: GameId, version: u64) -> Result<()> {
    tx.prepare_cached("INSERT OR IGNORE INTO board_images (game_id, version) VALUES (?1, ?2)")?
        .execute(params![game, to_db(version)])?;
    Ok(())
}

fn insert_entry(tx: &Connection, game: GameId, entry: &LogEntry) -> Result<()> {
    let mut stmt = tx.prepare_cached(
        "INSERT INTO moves (game_id, seq, kind, seat, decisions, undoes, at, back_to, by_user) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    )?;
    let r = match entry {
        LogEntry::Batch {
            seq,
            seat,
            decisions,
            at,
        } => stmt.execute(params![
            game,
            to_db(*seq),
            "batch",
            *seat as i64,
            json(decisions),
            None::<i64>,
            at,
            None::<i64>,
            None::<i64>
        ]),
        LogEntry::Undo {
            seq,
            seat,
            undoes,
            at,
        } => stmt.execute(params![
            game,
            to_db(*seq),
            "undo",
            *seat as i64,
            None::<String>,
            to_db(*undoes),
            at,
            None::<i64>,
            None::<i64>
        ]),
        LogEntry::Rollback {
            seq,
            back_to,
            by,
            at,
        } => stmt.execute(params![
            game,
            to_db(*seq),
            "rollback",
            0i64,
            None::<String>,
            None::<i64>,
            at,
            to_db(*back_to),
            to_db(*by)
        ]),
    };
    match r {
        Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::ConstraintViolation) => {
            Err(StoreError::Conflict(game))
        }
        Err(e) => Err(e.into()),
        Ok(_) => Ok(()),
    }
}

fn write_effects(tx: &Connection, game: GameId, fx: &MoveEffects, at: i64) -> Result<()> {
    for payload in &fx.notifications {
        tx.prepare_cached("INSERT INTO outbox (game_id, payload, created_at) VALUES (?1, ?2, ?3)")?
            .execute(params![game, json(payload), at])?;
    }
    if let Some(reminders) = &fx.reminders {
        tx.prepare_cached("DELETE FROM reminders WHERE game_id = ?1")?
            .execute([game])?;
        for (seat, kind, due) in reminders {
            tx.prepare_cached(
                "INSERT OR REPLACE INTO reminders (game_id, seat, kind, due_at) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![game, *seat as i64, kind, due])?;
        }
    }
    Ok(())
}

/// The columns of a new game row.
struct GameRows<'a> {
    location: &'a Location,
    options: &'a GameOptions,
    names: &'a [String],
    state: &'a GameState,
    status: GameStatus,
    last_seq: u64,
    now: i64,
}

/// Everything start-up needs of one game, read from the file.
struct RawGame {
    record: GameRecord,
    entries: Vec<LogEntry>,
    snapshot_seq: u64,
    snapshot: String,
}

/// How a restore went.
enum Restored {
    Ok {
        state: Box<GameState>,
        verified: bool,
        note: Option<String>,
    },
    Damaged(String),
}

fn read_raw(conn: &Connection, record: GameRecord) -> Result<RawGame> {
    let entries = read_log(conn, record.id)?;
    let snaps = snapshot_seqs(conn, record.id)?;
    let snapshot_seq = replay::usable_snapshot(&snaps, &entries).ok_or(StoreError::Corrupt {
        game: record.id,
        message: "no usable snapshot".to_string(),
    })?;
    let snapshot = read_snapshot(conn, record.id, snapshot_seq)?;
    Ok(RawGame {
        record,
        entries,
        snapshot_seq,
        snapshot,
    })
}

/// Snapshot + later batches; when the versions match, checked against a replay from the seed.
/// Pure: the caller stores the verdict.
///
/// The check replays the log from the seed up to the snapshot and compares the result with the
/// snapshot (as JSON text first, as a state if the texts differ); the later batches are then
/// replayed once, on a state both agree on. That is the same verdict as comparing the restored
/// state with a full replay, for one replay instead of two.
fn restore_raw(data: &GameData, raw: &RawGame, verify: bool) -> Restored {
    let rec = &raw.record;
    let at = raw.snapshot_seq;
    if let Err(e) = replay::check_log(&raw.entries) {
        return Restored::Damaged(format!("the move log is broken: {e}"));
    }
    if raw.entries.len() as u64 != rec.seq {
        return Restored::Damaged(format!(
            "the game row says {} moves but the log holds {}",
            rec.seq,
            raw.entries.len()
        ));
    }
    let unreadable =
        |e: serde_json::Error| format!("the snapshot of move {at} cannot be read: {e}");
    let undone = replay::undone_set(&raw.entries);
    let note = if rec.engine_version != ENGINE_VERSION {
        Some(format!(
            "started under engine version {}, running {ENGINE_VERSION}: continued from the snapshot of move {at}",
            rec.engine_version
        ))
    } else if rec.data_hash != data.hash {
        Some(format!(
            "started with game data {}, running with {}: continued from the snapshot of move {at}",
            rec.data_hash, data.hash
        ))
    } else {
        None
    };
    let checked = verify && note.is_none();
    let base = if checked {
        let head = raw.entries.iter().filter(|e| e.seq() <= at);
        let replayed = match replay::initial_state(data, &rec.options, &rec.seat_names)
            .and_then(|start| replay::replay_onto(data, start, head, &undone))
        {
            Ok(s) => s,
            Err(e) => return Restored::Damaged(format!("a replay from the seed fails: {e}")),
        };
        if json(&replayed) != raw.snapshot {
            let snap: GameState = match serde_json::from_str(&raw.snapshot) {
                Ok(s) => s,
                Err(e) => return Restored::Damaged(unreadable(e)),
            };
            if snap != replayed {
                return Restored::Damaged(format!(
                    "the snapshot of move {at} differs from a replay of the log from the seed in: {}",
                    replay::differing_fields(&snap, &replayed).join(", ")
                ));
            }
        }
        replayed
    } else {
        match serde_json::from_str(&raw.snapshot) {
            Ok(s) => s,
            Err(e) => return Restored::Damaged(unreadable(e)),
        }
    };
    let tail = raw.entries.iter().filter(|e| e.seq() > at);
    match replay::replay_onto(data, base, tail, &undone) {
        Ok(state) => Restored::Ok {
            state: Box::new(state),
            verified: checked,
            note,
        },
        Err(e) => Restored::Damaged(format!(
            "the moves after the snapshot of move {at} do not apply to it: {e}"
        )),
    }
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
            live: RwLock::new(HashMap::new()),
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

    // ---- connection plumbing

    fn conn(&self) -> Result<MutexGuard<'_, Conn>> {
        let mut guard = lock(&self.conn);
        if guard.reopen {
            let conn = open_connection(&self.path, &self.options)?;
            let version = migrate::check(&conn, &self.path, migrate::MIGRATIONS)?;
            if version != migrate::latest_version() {
                return Err(StoreError::Open {
                    path: self.path.clone(),
                    message: format!("the schema version changed to {version} meanwhile"),
                });
            }
            configure(&conn, &self.path, &self.options)?;
            if let Some(pages) = guard.page_limit {
                conn.pragma_update(None, "max_page_count", pages as i64)?;
            }
            guard.conn = conn;
            guard.reopen = false;
        }
        Ok(guard)
    }

    /// Runs `f` on the connection (reads).
    fn read<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        let guard = self.conn()?;
        f(&guard.conn)
    }

    /// Runs `f` inside one IMMEDIATE transaction and commits; any error rolls everything back.
    fn write<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        let mut guard = self.conn()?;
        let result = (|| {
            let tx = guard
                .conn
                .transaction_with_behavior(TransactionBehavior::Immediate)?;
            let value = f(&tx)?;
            tx.commit()?;
            Ok(value)
        })();
        if matches!(result, Err(StoreError::ReadOnly)) {
            // The file may become writable again (an admin fixes the mode): reconnect next time.
            guard.reopen = true;
        }
        result
    }

    /// Fires the armed fail point if it is `at`.
    fn hit(&self, at: FailPoint) -> Result<()> {
        let mut armed = lock(&self.fail);
        if *armed == Some(at) {
            *armed = None;
            return Err(StoreError::Injected(at));
        }
        Ok(())
    }

    /// Test hook: the next write that reaches `at` fails there and rolls back.
    pub fn fail_next(&self, at: FailPoint) {
        *lock(&self.fail) = Some(at);
    }

    /// Caps the file at `pages` pages (`PRAGMA max_page_count`; None lifts the cap). The
    /// full-disk test uses it; an operator may use it to bound the file.
    pub fn set_page_limit(&self, pages: Option<u64>) -> Result<()> {
        let mut guard = self.conn()?;
        let n = pages.unwrap_or(0xFFFF_FFFE) as i64;
        guard.conn.pragma_update(None, "max_page_count", n)?;
        guard.page_limit = pages;
        Ok(())
    }

    /// The file's size in pages.
    pub fn page_count(&self) -> Result<u64> {
        self.read(|c| {
            let n: i64 = c.pragma_query_value(None, "page_count", |r| r.get(0))?;
            Ok(n as u64)
        })
    }

    // ---- start-up

    /// Restores every active game: this thread reads the games from the file and hands them
    /// to worker threads that rebuild and check them (reading and replaying overlap).
    fn restore_all(&self) -> Result<RestoreReport> {
        let mut report = RestoreReport::default();
        let ids: Vec<GameId> = self.read(|c| {
            let mut stmt = c.prepare("SELECT id FROM games WHERE status = 'active' ORDER BY id")?;
            let ids = stmt.query_map([], |r| r.get(0))?;
            ids.collect::<rusqlite::Result<Vec<GameId>>>()
                .map_err(StoreError::from)
        })?;
        let threads = match self.options.restore_threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let verify = self.options.verify_on_restore;
        let data = &*self.data;
        let mut damaged = Vec::new();
        let (work_tx, work_rx) = std::sync::mpsc::sync_channel::<RawGame>(256);
        let work_rx = Mutex::new(work_rx);
        let (done_tx, done_rx) = std::sync::mpsc::channel::<(GameId, u64, Restored)>();
        let read_result = std::thread::scope(|s| {
            for _ in 0..threads {
                let done_tx = done_tx.clone();
                let work_rx = &work_rx;
                s.spawn(move || loop {
                    let next = lock(work_rx).recv();
                    let Ok(raw) = next else { return };
                    let restored = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        restore_raw(data, &raw, verify)
                    }))
                    .unwrap_or_else(|_| {
                        Restored::Damaged("the engine panicked while restoring it".to_string())
                    });
                    if done_tx
                        .send((raw.record.id, raw.record.seq, restored))
                        .is_err()
                    {
                        return;
                    }
                });
            }
            drop(done_tx);
            let result = self.read(|c| {
                for &id in &ids {
                    match read_game(c, id).and_then(|rec| read_raw(c, rec)) {
                        Ok(raw) => {
                            if work_tx.send(raw).is_err() {
                                break;
                            }
                        }
                        Err(StoreError::Corrupt { message, .. }) => damaged.push((id, message)),
                        Err(e) => return Err(e),
                    }
                }
                Ok(())
            });
            drop(work_tx);
            result
        });
        read_result?;
        let mut live = self.live.write().unwrap_or_else(|e| e.into_inner());
        for (id, seq, restored) in done_rx {
            match restored {
                Restored::Ok {
                    state,
                    verified,
                    note,
                } => {
                    report.restored += 1;
                    report.verified += usize::from(verified);
                    if let Some(n) = note {
                        report.unverified.push((id, n));
                    }
                    live.insert(
                        id,
                        Arc::new(Mutex::new(Live {
                            state: Arc::new(*state),
                            seq,
                            closed: false,
                        })),
                    );
                }
                Restored::Damaged(r) => damaged.push((id, r)),
            }
        }
        drop(live);
        damaged.sort_by_key(|(id, _)| *id);
        report.unverified.sort_by_key(|(id, _)| *id);
        if !damaged.is_empty() {
            self.mark_damaged(&damaged)?;
            report.damaged = damaged;
        }
        Ok(report)
    }

    /// Sets games aside as damaged. On a read-only file the verdict stays in memory only.
    fn mark_damaged(&self, games: &[(GameId, String)]) -> Result<()> {
        let now = now_ms();
        let r = self.write(|tx| {
            for (id, report) in games {
                tx.prepare_cached(
                    "UPDATE games SET status = 'damaged', damage_report = ?2, updated_at = ?3 WHERE id = ?1",
                )?
                .execute(params![id, report, now])?;
            }
            Ok(())
        });
        match r {
            Err(StoreError::ReadOnly) => Ok(()),
            other => other,
        }
    }

    /// Loads one active game that is not in memory (created by another path, or reloaded).
    fn load_live(&self, game: GameId) -> Result<Arc<Mutex<Live>>> {
        let raw = self.read(|c| {
            let rec = read_game(c, game)?;
            match rec.status {
                GameStatus::Active => read_raw(c, rec).map(Some),
                GameStatus::Damaged => Err(StoreError::Damaged {
                    game,
                    report: rec.damage_report.unwrap_or_default(),
                }),
                status => Err(StoreError::NotActive { game, status }),
            }
        });
        let raw = match raw {
            Ok(Some(raw)) => raw,
            Ok(None) => return Err(StoreError::NoSuchGame(game)),
            Err(StoreError::Corrupt { message, .. }) => {
                self.mark_damaged(&[(game, message.clone())])?;
                return Err(StoreError::Damaged {
                    game,
                    report: message,
                });
            }
            Err(e) => return Err(e),
        };
        match restore_raw(&self.data, &raw, self.options.verify_on_restore) {
            Restored::Ok { state, .. } => {
                let mut live = self.live.write().unwrap_or_else(|e| e.into_inner());
                let entry = live.entry(game).or_insert_with(|| {
                    Arc::new(Mutex::new(Live {
                        state: Arc::new(*state),
                        seq: raw.record.seq,
                        closed: false,
                    }))
                });
                Ok(entry.clone())
            }
            Restored::Damaged(report) => {
                self.mark_damaged(&[(game, report.clone())])?;
                Err(StoreError::Damaged { game, report })
            }
        }
    }

    fn live_game(&self, game: GameId) -> Result<Arc<Mutex<Live>>> {
        let found = self
            .live
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&game)
            .cloned();
        match found {
            Some(l) => Ok(l),
            None => self.load_live(game),
        }
    }

    /// Runs `f` with the game's live entry locked, retrying when the entry closed meanwhile.
    fn with_live<T>(&self, game: GameId, mut f: impl FnMut(&mut Live) -> Result<T>) -> Result<T> {
        for _ in 0..3 {
            let entry = self.live_game(game)?;
            let mut live = lock(&entry);
            if live.closed {
                continue;
            }
            return f(&mut live);
        }
        Err(StoreError::Conflict(game))
    }

    /// Takes a game out of the live set (finished, abandoned, or to be reloaded).
    fn evict(&self, game: GameId, live: &mut Live) {
        live.closed = true;
        self.live
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&game);
    }

    // ---- games

    /// Starts a game: checks the options with the engine, stores the game, its seats and the
    /// set-up snapshot. Fails with `ChannelBusy` if the channel has an active game.
    pub fn create_game(&self, new: NewGame) -> Result<(GameId, Arc<GameState>)> {
        self.create_game_and(new, |_, _| Ok(()))
    }

    /// Creates a game and, in the same transaction, runs `also` with its id (a campaign records
    /// its chapter game this way, so a crash never leaves one without the other).
    pub(crate) fn create_game_and(
        &self,
        new: NewGame,
        also: impl FnOnce(&Connection, GameId) -> Result<()>,
    ) -> Result<(GameId, Arc<GameState>)> {
        let names: Vec<String> = new.seats.iter().map(|s| s.name.clone()).collect();
        let state = engine::new_game(&self.data, &new.options, &names)?;
        let owner = |seat: usize| {
            new.seats
                .get(seat)
                .map(|s| (s.owner, s.notify))
                .unwrap_or((SeatOwner::Luna, Notify::Ephemeral))
        };
        let id = self.insert_game(&new.location, &new.options, &names, &state, owner, also)?;
        let state = Arc::new(state);
        self.insert_live(id, state.clone(), 0);
        Ok((id, state))
    }

    fn insert_game(
        &self,
        location: &Location,
        options: &GameOptions,
        names: &[String],
        state: &GameState,
        owner: impl Fn(usize) -> (SeatOwner, Notify),
        also: impl FnOnce(&Connection, GameId) -> Result<()>,
    ) -> Result<GameId> {
        let now = now_ms();
        let snapshot = json(state);
        self.write(|tx| {
            let id = self.insert_game_rows(
                tx,
                &GameRows {
                    location,
                    options,
                    names,
                    state,
                    status: GameStatus::Active,
                    last_seq: 0,
                    now,
                },
                &owner,
            )?;
            insert_snapshot(tx, id, 0, &snapshot, now)?;
            insert_image_row(tx, id, 0)?;
            also(tx, id)?;
            Ok(id)
        })
    }

    /// Inserts a game row and its seats (inside the caller's transaction). The seats come from
    /// the set-up state `rows.state`.
    fn insert_game_rows(
        &self,
        tx: &Connection,
        rows: &GameRows<'_>,
        owner: &dyn Fn(usize) -> (SeatOwner, Notify),
    ) -> Result<GameId> {
        if matches!(rows.status, GameStatus::Active) {
            let busy: bool = tx
                .prepare_cached(
                    "SELECT EXISTS (SELECT 1 FROM games WHERE channel = ?1 AND status IN ('active', 'damaged'))",
                )?
                .query_row([to_db(rows.location.channel)], |r| r.get(0))?;
            if busy {
                return Err(StoreError::ChannelBusy);
            }
        }
        tx.prepare_cached(
            "INSERT INTO games (guild, channel, status, options, seed, seat_names, \
             engine_version, data_hash, last_seq, created_at, updated_at) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?10)",
        )?
        .execute(params![
            rows.location.guild.map(to_db),
            to_db(rows.location.channel),
            rows.status.as_str(),
            json(rows.options),
            to_db(rows.options.seed),
            json(rows.names),
            ENGINE_VERSION,
            self.data.hash,
            to_db(rows.last_seq),
            rows.now
        ])?;
        let id = tx.last_insert_rowid();
        for (i, seat) in rows.state.seats.iter().enumerate() {
            let (owner, notify) = if seat.is_luna() {
                (SeatOwner::Luna, Notify::Ephemeral)
            } else {
                owner(i)
            };
            let (kind, user) = match owner {
                SeatOwner::Discord(u) => ("discord", Some(to_db(u))),
                SeatOwner::Local => ("local", None),
                SeatOwner::Luna => ("luna", None),
                SeatOwner::Vacant => ("vacant", None),
            };
            tx.prepare_cached(
                "INSERT INTO seats (game_id, seat, kind, user_id, name, colour, notify) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?
            .execute(params![
                id,
                i as i64,
                kind,
                user,
                seat.name,
                seat.colour as i64,
                notify.as_str()
            ])?;
        }
        Ok(id)
    }

    /// Puts a game into the live set.
    fn insert_live(&self, game: GameId, state: Arc<GameState>, seq: u64) {
        self.live.write().unwrap_or_else(|e| e.into_inner()).insert(
            game,
            Arc::new(Mutex::new(Live {
                state,
                seq,
                closed: false,
            })),
        );
    }

    /// Applies a batch of one seat's decisions and stores it: see [`Store::apply_with`].
    pub fn apply(&self, game: GameId, seat: usize, decisions: &[Decision]) -> Result<MoveOutcome> {
        self.apply_with(game, seat, decisions, |_, _| MoveEffects::default())
    }

    /// Applies a batch atomically with the engine, then stores in ONE transaction the log
    /// entry, the snapshot when due, and the notifications and reminders `effects` derives from
    /// the new state and its events. A rule error, or any failure to write, changes nothing.
    pub fn apply_with(
        &self,
        game: GameId,
        seat: usize,
        decisions: &[Decision],
        effects: impl FnOnce(&GameState, &[Event]) -> MoveEffects,
    ) -> Result<MoveOutcome> {
        let mut effects = Some(effects);
        self.with_live(game, |live| {
            let mut next = (*live.state).clone();
            let events = engine::apply_batch(&self.data, &mut next, seat, decisions)?;
            let fx = effects
                .take()
                .map(|f| f(&next, &events))
                .unwrap_or_default();
            let seq = live.seq + 1;
            let finished = next.phase == Phase::Finished;
            let snapshot = finished || seq % self.options.snapshot_every == 0;
            let snapshot_json = snapshot.then(|| json(&next));
            let now = now_ms();
            let entry = LogEntry::Batch {
                seq,
                seat,
                decisions: decisions.to_vec(),
                at: now,
            };
            let result = self.write(|tx| {
                insert_entry(tx, game, &entry)?;
                self.hit(FailPoint::AfterDecisions)?;
                if let Some(s) = &snapshot_json {
                    insert_snapshot(tx, game, seq, s, now)?;
                    prune_snapshots(tx, game, seq, self.options.snapshot_window)?;
                }
                self.hit(FailPoint::AfterSnapshot)?;
                insert_image_row(tx, game, seq)?;
                write_effects(tx, game, &fx, now)?;
                let status = if finished { "finished" } else { "active" };
                tx.prepare_cached(
                    "UPDATE games SET last_seq = ?2, updated_at = ?3, status = ?4 WHERE id = ?1",
                )?
                .execute(params![game, to_db(seq), now, status])?;
                self.hit(FailPoint::BeforeCommit)?;
                Ok(())
            });
            if let Err(e) = result {
                if matches!(e, StoreError::Conflict(_)) {
                    self.evict(game, live);
                }
                return Err(e);
            }
            let state = Arc::new(next);
            live.state = state.clone();
            live.seq = seq;
            if finished {
                self.evict(game, live);
            }
            Ok(MoveOutcome {
                seq,
                events: events.clone(),
                state,
                snapshot,
                finished,
            })
        })
    }

    /// Reverts `seat`'s last batch that is not undone yet: see [`Store::undo_with`].
    pub fn undo(&self, game: GameId, seat: usize) -> Result<UndoOutcome> {
        self.undo_with(game, seat, |_| MoveEffects::default())
    }

    /// Appends an undo record for `seat`'s last batch not undone yet and stores the rebuilt
    /// state as a snapshot, in one transaction. Whether the seat may undo now is the chat
    /// layer's call; here it fails only when later moves of others no longer apply without it
    /// (`UndoBlocked`) or there is nothing to undo.
    pub fn undo_with(
        &self,
        game: GameId,
        seat: usize,
        effects: impl FnOnce(&GameState) -> MoveEffects,
    ) -> Result<UndoOutcome> {
        let mut effects = Some(effects);
        self.with_live(game, |live| {
            if seat >= live.state.seats.len() {
                return Err(StoreError::NoSuchSeat(seat));
            }
            let (mut entries, snaps) =
                self.read(|c| Ok((read_log(c, game)?, snapshot_seqs(c, game)?)))?;
            let undone = replay::undone_set(&entries);
            let target = entries
                .iter()
                .rev()
                .find(|e| {
                    matches!(e, LogEntry::Batch { seat: s, seq, .. } if *s == seat && !undone.contains(seq))
                })
                .map(LogEntry::seq)
                .ok_or(StoreError::NothingToUndo { seat })?;
            if entries
                .iter()
                .any(|e| matches!(e, LogEntry::Undo { undoes, .. } if *undoes == target))
            {
                // A rollback brought back a batch that was undone once; the log keeps one undo
                // per batch, so this one stays.
                return Err(StoreError::UndoBlocked(format!(
                    "move {target} was undone once already, before a rollback brought it back"
                )));
            }
            let seq = live.seq + 1;
            let now = now_ms();
            let record = LogEntry::Undo {
                seq,
                seat,
                undoes: target,
                at: now,
            };
            entries.push(record.clone());
            let base = replay::usable_snapshot(&snaps, &entries).ok_or(StoreError::Corrupt {
                game,
                message: "no usable snapshot".to_string(),
            })?;
            let base_json = self.read(|c| read_snapshot(c, game, base))?;
            let base_state: GameState =
                serde_json::from_str(&base_json).map_err(|e| StoreError::Corrupt {
                    game,
                    message: format!("the snapshot of move {base}: {e}"),
                })?;
            let mut all_undone: BTreeSet<u64> = undone;
            all_undone.insert(target);
            let next = replay::replay_onto(
                &self.data,
                base_state,
                entries.iter().filter(|e| e.seq() > base),
                &all_undone,
            )
            .map_err(|e: ReplayError| StoreError::UndoBlocked(e.to_string()))?;
            let fx = effects.take().map(|f| f(&next)).unwrap_or_default();
            let snapshot = json(&next);
            self.write(|tx| {
                insert_entry(tx, game, &record)?;
                self.hit(FailPoint::AfterDecisions)?;
                insert_snapshot(tx, game, seq, &snapshot, now)?;
                prune_snapshots(tx, game, seq, self.options.snapshot_window)?;
                self.hit(FailPoint::AfterSnapshot)?;
                insert_image_row(tx, game, seq)?;
                write_effects(tx, game, &fx, now)?;
                tx.prepare_cached("UPDATE games SET last_seq = ?2, updated_at = ?3 WHERE id = ?1")?
                    .execute(params![game, to_db(seq), now])?;
                self.hit(FailPoint::BeforeCommit)?;
                Ok(())
            })
            .inspect_err(|e| {
                if matches!(e, StoreError::Conflict(_)) {
                    self.evict(game, live);
                }
            })?;
            let state = Arc::new(next);
            live.state = state.clone();
            live.seq = seq;
            Ok(UndoOutcome {
                seq,
                undone: target,
                state,
            })
        })
    }

    /// The current state of a game: the live one for active games, else rebuilt from its
    /// latest snapshot (finished, abandoned games).
    pub fn state(&self, game: GameId) -> Result<Arc<GameState>> {
        match self.with_live(game, |live| Ok(live.state.clone())) {
            Err(StoreError::NotActive { .. }) => {}
            other => return other,
        }
        let raw = self.read(|c| read_raw(c, read_game(c, game)?))?;
        match restore_raw(&self.data, &raw, false) {
            Restored::Ok { state, .. } => Ok(Arc::new(*state)),
            Restored::Damaged(report) => Err(StoreError::Corrupt {
                game,
                message: report,
            }),
        }
    }

    /// The current state and its version (log sequence number) of an active game.
    pub fn live_state(&self, game: GameId) -> Result<(Arc<GameState>, u64)> {
        self.with_live(game, |live| Ok((live.state.clone(), live.seq)))
    }

    /// A game's stored row.
    pub fn game(&self, game: GameId) -> Result<GameRecord> {
        self.read(|c| read_game(c, game))
    }

    /// Every game in a status, oldest first.
    pub fn games_with_status(&self, status: GameStatus) -> Result<Vec<GameRecord>> {
        self.read(|c| {
            let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE status = ?1 ORDER BY id");
            let mut stmt = c.prepare(&sql)?;
            let rows = stmt.query_map([status.as_str()], game_from_row)?;
            let mut out = Vec::new();
            for r in rows {
                out.push(r??);
            }
            Ok(out)
        })
    }

    /// Whether a game is in memory (active and restored or created).
    pub fn is_live(&self, game: GameId) -> bool {
        self.live
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(&game)
    }

    /// The last log entry of a game.
    pub fn last_entry(&self, game: GameId) -> Result<Option<LogEntry>> {
        self.read(|c| {
            let row = c
                .prepare_cached(
                    "SELECT seq, kind, seat, decisions, undoes, at, back_to, by_user FROM moves \
                     WHERE game_id = ?1 ORDER BY seq DESC LIMIT 1",
                )?
                .query_row([game], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, i64>(2)?,
                        r.get::<_, Option<String>>(3)?,
                        r.get::<_, Option<i64>>(4)?,
                        r.get::<_, i64>(5)?,
                        r.get::<_, Option<i64>>(6)?,
                        r.get::<_, Option<i64>>(7)?,
                    ))
                })
                .optional()?;
            row.map(|r| entry_from_row(game, r)).transpose()
        })
    }

    /// The last log sequence number of a game and the last one of `seat`'s own entries
    /// (batches and undo records; 0 where there is none).
    pub fn log_marks(&self, game: GameId, seat: usize) -> Result<(u64, u64)> {
        self.read(|c| {
            let (last, own) = c
                .prepare_cached(
                    "SELECT COALESCE(MAX(seq), 0), COALESCE(MAX(CASE WHEN seat = ?2 THEN seq END), 0) \
                     FROM moves WHERE game_id = ?1",
                )?
                .query_row(params![game, seat as i64], |r| {
                    Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))
                })?;
            Ok((from_db(last), from_db(own)))
        })
    }

    /// The ids of the games in memory (the active ones restored or created).
    pub fn live_games(&self) -> Vec<GameId> {
        let mut ids: Vec<GameId> = self
            .live
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .keys()
            .copied()
            .collect();
        ids.sort_unstable();
        ids
    }

    /// The active (or damaged) game of a channel.
    pub fn game_in_channel(&self, channel: u64) -> Result<Option<GameId>> {
        self.read(|c| {
            c.prepare_cached(
                "SELECT id FROM games WHERE channel = ?1 AND status IN ('active', 'damaged')",
            )?
            .query_row([to_db(channel)], |r| r.get(0))
            .optional()
            .map_err(StoreError::from)
        })
    }

    /// A game's seats in seat order.
    pub fn seats(&self, game: GameId) -> Result<Vec<SeatRecord>> {
        self.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT seat, kind, user_id, name, colour, notify, waiting_since FROM seats \
                 WHERE game_id = ?1 ORDER BY seat",
            )?;
            let rows = stmt.query_map([game], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, Option<i64>>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, i64>(4)?,
                    r.get::<_, String>(5)?,
                    r.get::<_, Option<i64>>(6)?,
                ))
            })?;
            let mut out = Vec::new();
            for row in rows {
                let (seat, kind, user, name, colour, notify, waiting_since) = row?;
                let owner = match (kind.as_str(), user) {
                    ("discord", Some(u)) => SeatOwner::Discord(from_db(u)),
                    ("local", _) => SeatOwner::Local,
                    ("vacant", _) => SeatOwner::Vacant,
                    _ => SeatOwner::Luna,
                };
                out.push(SeatRecord {
                    seat: seat as usize,
                    owner,
                    name,
                    colour: colour as usize,
                    notify: if notify == "dm" {
                        Notify::Dm
                    } else {
                        Notify::Ephemeral
                    },
                    waiting_since,
                });
            }
            Ok(out)
        })
    }

    /// Changes how a seat gets private messages.
    pub fn set_notify(&self, game: GameId, seat: usize, notify: Notify) -> Result<()> {
        let n = self.write(|tx| {
            Ok(tx
                .prepare_cached("UPDATE seats SET notify = ?3 WHERE game_id = ?1 AND seat = ?2")?
                .execute(params![game, seat as i64, notify.as_str()])?)
        })?;
        if n == 0 {
            return Err(StoreError::NoSuchSeat(seat));
        }
        Ok(())
    }

    /// A game's whole log.
    pub fn log(&self, game: GameId) -> Result<Vec<LogEntry>> {
        self.read(|c| read_log(c, game))
    }

    /// Ends an active or damaged game without a result; its channel is free again.
    pub fn abandon(&self, game: GameId) -> Result<()> {
        self.set_aside(game, GameStatus::Abandoned, None)
    }

    /// Ends an active or damaged game with `status` (and why it was archived): its reminders
    /// go, it leaves memory, its channel is free. The game's lock is held throughout so no
    /// move slips in between.
    pub(crate) fn set_aside(
        &self,
        game: GameId,
        status: GameStatus,
        archived_reason: Option<&str>,
    ) -> Result<()> {
        let entry = self
            .live
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&game)
            .cloned();
        let mut guard = entry.as_ref().map(|e| lock(e));
        let current = self.game(game)?.status;
        if !matches!(current, GameStatus::Active | GameStatus::Damaged) {
            return Err(StoreError::NotActive {
                game,
                status: current,
            });
        }
        let now = now_ms();
        self.write(|tx| {
            tx.prepare_cached(
                "UPDATE games SET status = ?2, archived_reason = ?3, updated_at = ?4 WHERE id = ?1",
            )?
            .execute(params![game, status.as_str(), archived_reason, now])?;
            tx.prepare_cached("DELETE FROM reminders WHERE game_id = ?1")?
                .execute([game])?;
            Ok(())
        })?;
        if let Some(live) = guard.as_deref_mut() {
            self.evict(game, live);
        }
        Ok(())
    }
}
