//! Persistence: every game, seat, move, snapshot, board image, campaign, reminder and queued
//! message, in one SQLite file (the embedded default) or on a PostgreSQL server that several
//! bot processes share, so that a restart, a crash, an upgrade or a full disk never loses a
//! move or corrupts a game. This module owns the database and the live state of every active
//! game; the chat layer owns who may do what, the Discord adapter owns sending.
//!
//! # Written once, for both databases
//!
//! Every operation is one function over the SQL layer ([`sql`]: a transaction of either
//! client, placeholders written one way, a [`sql::Dialect`] hook for the few statements that
//! differ: row locks, `SKIP LOCKED`, list parameters). The connections are the databases' own
//! (`sqlite`: one file, its connection and checkpointer; `postgres`: a pool). The numbered
//! migrations are two trees where the DDL differs (`migrate`), reaching the same tables.
//!
//! # Model
//!
//! - A game is its options, seed and seat names plus an append-only log of decision batches and
//!   undo records, numbered 1, 2, 3, … per game ([`LogEntry`]). Seat names are not history: a
//!   seat taken over carries its new person's name in every state, replayed or restored
//!   ([`replay::with_seat_names`]).
//! - A move is ONE transaction: the log entry, the snapshot when one is due, a board-image row
//!   for the new state version, its effects — the notifications and what it implies for the
//!   schedule ([`MoveEffects`], [`WaitPlan`]: who is waited on since when, the reminders and
//!   deadlines to set or clear), worked out by the caller before the game's lock is taken —
//!   and the game row's new sequence number; when the game ends, what its end writes. If the
//!   process dies or a write fails mid-way, all of it is there or none of it; the in-memory
//!   state changes only after the commit. Undo, rollback, a new game, a resume and a seat
//!   taken over write their schedule in their own transaction the same way.
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
//! The SQLite file runs in WAL mode with `synchronous = NORMAL` (the default of
//! [`Synchronous`]). A commit then writes the WAL without waiting for the disk; the WAL is
//! synced at checkpoints. That is fully durable against everything that kills the bot while
//! the machine stays up (a crash, SIGKILL, a restart, an upgrade: the kill tests), and WAL
//! never corrupts the file: after a power cut or kernel crash the file is consistent and at
//! worst the last moves before the cut roll back, each game still whole (its log, snapshot
//! and messages commit together). `FULL` syncs the WAL on every commit and would survive a
//! power cut too, but that sync is the whole cost of a move and depends on the host: on the
//! reference VM a FULL move took a median of 0.36 ms when the host was quiet and 3.9 ms under
//! load (the flush is rounded to 4 ms), past the 2 ms budget, while NORMAL stays at ~0.05 ms
//! either way (see `benches/store.rs`). An operator with fast flushes may choose
//! `Synchronous::Full`. Checkpoints (copying the WAL into the file, with its flushes) run on a
//! background thread, never inside a move, except that the WAL has a bound
//! ([`StoreOptions::wal_limit`], 64 MiB): under sustained writes those checkpoints never
//! catch up with the log, and the write that leaves it past half the bound empties it.
//! PostgreSQL keeps the same promises with `synchronous_commit` (see `postgres`).
//!
//! # Concurrency
//!
//! [`Store`] is synchronous and `Sync`: call it from blocking threads (the Discord adapter
//! reaches it, and the chat layer, through `discord::lanes`). One mutex per live game
//! is held for a whole move, so moves of one game are serialized and engine work of different
//! games runs in parallel; on SQLite one connection behind a mutex (SQLite has one writer
//! anyway), on PostgreSQL a pool. Lock order: game, then connection. Every move's transaction
//! first locks the game's row (on PostgreSQL; SQLite's write transaction holds the file) and
//! checks that the game is still as this process saw it (active, not paused, at the same
//! move); a move against a game another process ended, paused, rolled back or moved in is
//! refused ([`StoreError::Changed`], nothing saved) and the game is reloaded. The log's primary
//! key (game, sequence number) is the second guard: two writers never both store move N.
//! Reminders and queued messages are claimed by one process at a time (`SKIP LOCKED` and a
//! lease on PostgreSQL). One process owns an SQLite file; several may share a PostgreSQL
//! database, each serving its shards' games ([`ShardFilter`]).
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
//! This file holds the public types and [`Store`]; each role is a view of the store with one
//! job, its accessor and its methods written by duty in these modules: `games` (the game log's
//! rows: creating and ending games), `moves` (moves, undo and the log), `admin` (rollback,
//! listings, history reports), `checkup` (the admin's whole-game check), `export` (export
//! and import), `live` (the games in memory),
//! `restore` (start-up and its check against a replay), `snapshots`, `schedule` (reminders,
//! pauses, idle watches, the outbox), `waits` (what a change of who a game waits on writes, in
//! the change's transaction), `people` (seats, settings, languages, refused DMs), `campaigns`
//! (campaigns and lobbies), `discord`, `images`, `shown` (the list each user was last shown
//! in a game, for `/choose N`). Below them, depending on none of them: `sql`
//! (the SQL layer), `db`, `sqlite` and `postgres` (the two databases), `migrate`, `error` and
//! `types` (the plain types those layers share). Besides: `replay` (rebuilding states from a
//! log), `integrity` (the rest of the whole-game check: seats, seed, the move rows'
//! checksums), `watch` (the SQLite file and its WAL must stay the files the process opened),
//! `database` (where the configuration says the games live), `backup` (SQLite copies
//! while the bot runs), `config`, `shards` (which games a process serves),
//! `torture`. Finished games' results, for players' records and ratings, belong in the game
//! log: written by `moves::game_over` in the transaction of the move that ends the game.

mod admin;
pub mod backup;
mod campaigns;
mod checkup;
pub mod config;
mod database;
mod db;
mod discord;
mod error;
pub mod export;
mod games;
mod images;
mod integrity;
mod live;
pub mod migrate;
mod moves;
mod people;
mod postgres;
pub mod replay;
mod restore;
mod schedule;
pub mod shards;
mod shown;
mod snapshots;
// The SQL layer is the store's own; the test binaries reach it (with the `test-support`
// feature) to run one statement on both databases.
#[cfg(feature = "test-support")]
#[doc(hidden)]
pub mod sql;
#[cfg(not(feature = "test-support"))]
mod sql;
mod sqlite;
pub mod torture;
mod types;
mod waits;
mod watch;

pub use admin::{Admin, RollbackOutcome};
pub use campaigns::{
    CampaignId, CampaignOptions, CampaignRecord, CampaignStatus, Campaigns, ChapterRecord,
    ChapterWrite,
};
pub use checkup::{Checkup, Mend};
pub use database::{is_postgres_url, Backend, Database, POSTGRES_MISSING};
pub use discord::{DiscordFacts, StatusMessage};
pub use error::{Result, StoreError};
pub use export::GameExport;
pub use games::{ArchiveReason, GameLog};
pub use images::Images;
pub use moves::{no_effects, undo_target, Effects, UndoEffects};
pub use people::{People, UserSettings};
pub use postgres::redact_url;
pub use schedule::{IdleWatch, Outbound, Reminder, Schedule};
pub use shards::ShardFilter;
pub use types::{
    FailPoint, GameId, GameStatus, StoreOptions, Synchronous, WaitPlan, DEFAULT_WAL_LIMIT,
};

use crate::data::GameData;
use crate::engine::{Decision, Event, GameOptions, GameState};
use db::Db;
use live::LiveSet;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use types::lock;

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
    /// The level its computer players play at (`easy`, `normal`, `hard`; None: `normal`).
    pub bot_level: Option<String>,
    /// The language of its public replies (a catalog code; None: the configured default).
    pub language: Option<String>,
    /// Who it waits on from the start, and their reminders (see [`WaitPlan`]); stored in the
    /// game's creating transaction.
    pub waits: Option<WaitPlan>,
}

impl NewGame {
    /// A new game at `location` with these options and seats, nothing else set.
    pub fn new(location: Location, options: GameOptions, seats: Vec<NewSeat>) -> NewGame {
        NewGame {
            location,
            options,
            seats,
            bot_level: None,
            language: None,
            waits: None,
        }
    }

    /// A game needs at least one person among its players (DECISIONS B16): the store refuses
    /// a new game of computer players only with [`StoreError::NoPerson`].
    pub(crate) fn check_has_person(&self) -> Result<()> {
        if self.seats.iter().any(|s| s.owner.is_person()) {
            Ok(())
        } else {
            Err(StoreError::NoPerson)
        }
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
    /// What the move implies for the schedule (None: it stays as it is).
    pub waits: Option<WaitPlan>,
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

/// The store: one set of operations over the SQL layer ([`sql`]) on either database, an SQLite
/// file ([`Store::open`]) or a PostgreSQL server ([`Store::open_postgres`]), with the live
/// state of every active game. Synchronous and `Sync`: call it from blocking threads.
///
/// Its interface is by role, each a view of the store with one job:
/// [`games`](Store::games) (the game log: creating games, moves with their effects, undo,
/// rollback, the states and records), [`schedule`](Store::schedule) (reminders, deadlines,
/// waiting times, pauses, idle watches and the outbox, claimed by one process),
/// [`people`](Store::people) (seats, user settings, languages, refused DMs),
/// [`campaigns`](Store::campaigns) (campaigns and lobbies), [`discord`](Store::discord) (the
/// Discord adapter's facts: status messages and pins), [`images`](Store::images) (board images)
/// and [`admin`](Store::admin) (listings, history reports, export and import).
pub struct Store {
    db: Db,
    data: Arc<GameData>,
    options: StoreOptions,
    live: LiveSet,
    fail: FailSwitch,
    /// The claim on an SQLite file that makes this process its one server (DECISIONS B22; set
    /// by `Database::open`). Declared last: it is released after the connection closes.
    owner: Option<std::fs::File>,
}

impl std::fmt::Debug for Store {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Store")
            .field("database", &self.db.describe())
            .field("live_games", &self.live.len())
            .finish_non_exhaustive()
    }
}

/// The armed fail point of the tests' hook ([`Store::fail_next`]); without the `test-support`
/// feature there is none and [`Store::hit`] is a no-op.
#[derive(Default)]
struct FailSwitch {
    #[cfg(feature = "test-support")]
    armed: std::sync::Mutex<Option<FailPoint>>,
}

pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

fn json<T: Serialize + ?Sized>(v: &T) -> String {
    // Serializing plain data structs to a string cannot fail.
    serde_json::to_string(v).unwrap_or_default()
}

impl Store {
    /// Opens (or creates) the SQLite file, applies pending migrations and restores every
    /// active game. A file from a newer version, or another program's file, is refused
    /// untouched.
    pub fn open(
        path: impl AsRef<Path>,
        data: Arc<GameData>,
        options: StoreOptions,
    ) -> Result<(Store, RestoreReport)> {
        let started = Instant::now();
        let options = checked(options);
        let opened = sqlite::SqliteDb::open(path.as_ref(), &options)?;
        let mut store = Store::new(Db::Sqlite(opened.db), data, options);
        let mut report = store.restore_all()?;
        if let Db::Sqlite(db) = &mut store.db {
            db.start_checkpoints()?;
        }
        report.schema_from = opened.schema_from;
        report.schema = opened.schema;
        report.found_empty = opened.found_empty;
        report.elapsed = started.elapsed();
        Ok((store, report))
    }

    /// Connects to the PostgreSQL server at `url` (`postgres://…`), applies pending migrations
    /// and restores every active game (of `options.shards`), as [`Store::open`] does for a
    /// file. Blocks on the server: call it from a blocking thread.
    pub fn open_postgres(
        url: &str,
        data: Arc<GameData>,
        options: StoreOptions,
    ) -> Result<(Store, RestoreReport)> {
        let started = Instant::now();
        let options = checked(options);
        let (db, from, to) = postgres::PgDb::open(url, &options)?;
        let store = Store::new(Db::Postgres(db), data, options);
        let mut report = store.restore_all()?;
        report.schema_from = from;
        report.schema = to;
        report.elapsed = started.elapsed();
        Ok((store, report))
    }

    fn new(db: Db, data: Arc<GameData>, options: StoreOptions) -> Store {
        Store {
            db,
            data,
            options,
            live: LiveSet::default(),
            fail: FailSwitch::default(),
            owner: None,
        }
    }

    /// The component data games are played with.
    pub fn data(&self) -> &Arc<GameData> {
        &self.data
    }

    pub fn options(&self) -> &StoreOptions {
        &self.options
    }

    /// Where the games live, for messages: the file, or the server without user name or
    /// password.
    pub fn describe(&self) -> String {
        self.db.describe()
    }

    /// Fires the armed fail point if it is `at` (the tests' hook; a no-op without the
    /// `test-support` feature).
    fn hit(&self, at: FailPoint) -> Result<()> {
        #[cfg(feature = "test-support")]
        {
            let mut armed = lock(&self.fail.armed);
            if *armed == Some(at) {
                *armed = None;
                return Err(StoreError::Injected(at));
            }
        }
        #[cfg(not(feature = "test-support"))]
        let _unused = (at, &self.fail);
        Ok(())
    }

    /// Test hook (`test-support` feature): the next write that reaches `at` fails there and
    /// rolls back.
    #[cfg(feature = "test-support")]
    pub fn fail_next(&self, at: FailPoint) {
        *lock(&self.fail.armed) = Some(at);
    }
}

/// The options with K at least 1.
fn checked(mut options: StoreOptions) -> StoreOptions {
    options.snapshot_every = options.snapshot_every.max(1);
    options
}
