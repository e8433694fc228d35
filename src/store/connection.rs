//! The database connection: opening the file and setting it up (WAL, `synchronous`, foreign
//! keys), the checkpointer thread that copies the WAL into the file outside of moves, reads and
//! IMMEDIATE write transactions (a read-only error reconnects next time), the tests' fail points
//! and the page cap. Every other room of the store reaches SQLite through [`Store::read`] and
//! [`Store::write`].

use super::error::{Result, StoreError};
use super::{lock, migrate, FailPoint, Store, StoreOptions, Synchronous};
use rusqlite::{Connection, OpenFlags, TransactionBehavior};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

pub(super) struct Conn {
    pub(super) conn: Connection,
    /// Reopen before the next use (after a read-only error: the file may be writable again).
    pub(super) reopen: bool,
    pub(super) page_limit: Option<u64>,
}

/// Copies the WAL into the database file on its own thread and connection, so that no move
/// waits for a checkpoint's disk flushes (the writer's automatic checkpoints are off).
pub(super) struct Checkpointer {
    stop: Arc<(Mutex<bool>, std::sync::Condvar)>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// How often the checkpointer looks at the WAL.
const CHECKPOINT_EVERY: Duration = Duration::from_millis(250);

impl Checkpointer {
    pub(super) fn start(path: &Path, options: &StoreOptions) -> Option<Checkpointer> {
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

pub(super) fn open_connection(path: &Path, options: &StoreOptions) -> Result<Connection> {
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
pub(super) fn configure(conn: &Connection, path: &Path, options: &StoreOptions) -> Result<()> {
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

impl Store {
    pub(super) fn conn(&self) -> Result<MutexGuard<'_, Conn>> {
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
    pub(super) fn read<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        let guard = self.conn()?;
        f(&guard.conn)
    }

    /// Runs `f` inside one read transaction, so that all its statements see the same
    /// committed state: another process may commit between two plain reads, and a game read
    /// half before and half after a move (its log without the move, its snapshots with it)
    /// would look damaged.
    pub(super) fn read_consistent<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        let guard = self.conn()?;
        let tx = guard.conn.unchecked_transaction()?;
        let value = f(&tx)?;
        tx.commit()?;
        Ok(value)
    }

    /// Runs `f` inside one IMMEDIATE transaction and commits; any error rolls everything back.
    pub(super) fn write<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
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
    pub(super) fn hit(&self, at: FailPoint) -> Result<()> {
        super::fire(&self.fail, at)
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
}
