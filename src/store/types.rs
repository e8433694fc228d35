//! The store's plain types that its lower layers share (the SQL layer, the two databases,
//! the migrations, the errors and the schedule's writes): game ids and statuses, the options,
//! the test hooks' fail points, what a change implies for the schedule ([`WaitPlan`]), and the
//! mutex helper. It depends on no other file of the store, so those layers depend on nothing
//! above them (the store's other public types are in `mod.rs`).

use super::shards::ShardFilter;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// A game's row id.
pub type GameId = i64;

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

/// What a change of who a game waits on implies for the schedule, worked out by the chat
/// layer before the game's lock is taken (from the seats and the users' settings) and stored
/// by the store in the same transaction as the change: a move, an undo, a rollback, a new
/// game, a resume, a seat taken over. The store applies it to the state the change leads to:
///
/// - a seat that state does not wait on: no longer waited on (`waiting_since` cleared), its
///   reminders and deadline gone;
/// - a seat it waits on whose wait starts now (it was not waited on, or `fresh`): waited on
///   since `now`, with exactly the reminders listed for it here (none for a computer player);
/// - a seat it waits on still: its wait and reminders stay as they are.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WaitPlan {
    /// When the waits that start now start (the chat layer's clock, Unix ms).
    pub now: i64,
    /// Every wait starts afresh, also of a seat waited on already (a new phase or round, a
    /// turn that passed, a resume).
    pub fresh: bool,
    /// The reminders each seat's wait starts with: (kind, due time in Unix ms).
    pub reminders: BTreeMap<usize, Vec<(String, i64)>>,
}

/// Test hooks (with the `test-support` feature, see [`Store::fail_next`]): the next write fails
/// at this point inside its transaction, which rolls back.
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

/// The default bound on the SQLite WAL file ([`StoreOptions::wal_limit`]): 64 MiB.
pub const DEFAULT_WAL_LIMIT: u64 = 64 << 20;

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
    /// The bound on the SQLite WAL file, in bytes (0: none): a write that leaves it past half
    /// of this copies the whole log into the file and empties it before it returns (see
    /// `sqlite`), which happens only under sustained writes.
    pub wal_limit: u64,
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
            wal_limit: DEFAULT_WAL_LIMIT,
        }
    }
}

/// Locks a mutex; a panic elsewhere while it was held leaves data that is still consistent
/// (state changes are single assignments after a commit), so poisoning is ignored.
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
