//! The SQLite side of the SQL layer: opening the file and setting it up (WAL, `synchronous`,
//! foreign keys), the checkpointer thread that copies the WAL into the file outside of moves,
//! the WAL's bound ([`SqliteDb::bound_wal`]), reads and IMMEDIATE write transactions on one
//! connection (a read-only error reconnects next time), and the page cap.
//!
//! One process serves the file (DECISIONS B22): [`claim`] takes an exclusive lock on
//! `<file>.lock` beside it (the process id written inside), which the bot and every tool that
//! writes hold for the store's whole life (see `Database::open`); a second process is refused
//! before it reads or writes anything. Read-only opens (the backup, inspection tools) take none.

use super::error::{Result, StoreError};
use super::migrate;
use super::sql::Tx;
use super::types::{lock, StoreOptions, Synchronous};
use super::watch::FileWatch;
use rusqlite::{Connection, OpenFlags, TransactionBehavior};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The lock file beside the database: `skymines.db` → `skymines.db.lock`.
fn owner_lock_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(".lock");
    PathBuf::from(name)
}

/// How long a claim waits for the process holding the file to let go before it is refused.
const CLAIM_PATIENCE: Duration = Duration::from_secs(2);

/// Takes the exclusive lock that makes this process the file's one writer, or says which
/// process holds it. The lock is the operating system's (`flock`): a killed process drops it,
/// so a stale lock file never blocks a restart.
pub(crate) fn claim(path: &Path) -> Result<std::fs::File> {
    use std::io::{Read, Seek, Write};
    let lock_path = owner_lock_path(path);
    let cannot = |e: std::io::Error| StoreError::Open {
        path: path.to_path_buf(),
        message: format!("cannot use the lock file {}: {e}", lock_path.display()),
    };
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&lock_path)
        .map_err(cannot)?;
    // A process that is ending (a restart's old bot, or a child of ours between fork and exec,
    // which shares the lock for that instant) lets go within moments: wait that long.
    let patience = Instant::now() + CLAIM_PATIENCE;
    let mut held = file.try_lock();
    while matches!(held, Err(std::fs::TryLockError::WouldBlock)) && Instant::now() < patience {
        std::thread::sleep(Duration::from_millis(20));
        held = file.try_lock();
    }
    match held {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut holder = String::new();
            // Best effort: the holder wrote its process id; the refusal stands without it.
            let _ = file.read_to_string(&mut holder);
            let holder = holder.trim();
            return Err(StoreError::InUse {
                path: path.to_path_buf(),
                owner: if holder.is_empty() {
                    String::new()
                } else {
                    format!(" (process {holder})")
                },
            });
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(cannot(e)),
    }
    file.set_len(0).map_err(cannot)?;
    file.rewind().map_err(cannot)?;
    write!(file, "{}", std::process::id()).map_err(cannot)?;
    Ok(file)
}

/// Statements kept prepared on the connection: more than the store has, so none is prepared
/// twice (rusqlite's default keeps 16).
const STATEMENT_CACHE: usize = 256;

struct Conn {
    conn: Connection,
    /// Reopen before the next use (after a read-only error: the file may be writable again).
    reopen: bool,
    page_limit: Option<u64>,
    /// A truncation of the WAL found it in use: when to try again.
    truncate_later: Option<TruncateLater>,
}

/// When a truncation that found the WAL in use is tried again: after [`TRUNCATE_BACKOFF`],
/// after the WAL file grew by a quarter of its bound, or after [`TRUNCATE_RETRY_COMMITS`]
/// commits, whichever comes first. The commits count because once the reader lets go the
/// checkpointer's PASSIVE checkpoint lets the log start again from the file's beginning: the
/// file then stays as large as it was without growing, until a truncation shrinks it.
struct TruncateLater {
    at: Instant,
    size: u64,
    commits: u32,
}

/// How long a truncation of the WAL waits for a reader before it is left for later.
const TRUNCATE_WAIT: Duration = Duration::from_millis(50);
/// How long a truncation that found the WAL in use is left at most (see [`TruncateLater`]: on a
/// fast disk a second of writes is hundreds of megabytes).
const TRUNCATE_BACKOFF: Duration = Duration::from_secs(1);
/// How many commits a truncation that found the WAL in use is left at most.
const TRUNCATE_RETRY_COMMITS: u32 = 32;

/// The database file and its one connection.
pub(crate) struct SqliteDb {
    path: PathBuf,
    /// The WAL file beside it.
    wal: PathBuf,
    options: StoreOptions,
    conn: Mutex<Conn>,
    /// Held by whoever runs a checkpoint in this process (the checkpointer's PASSIVE ones, the
    /// writer's TRUNCATE): SQLite answers a second checkpoint at the same time with BUSY at
    /// once, without waiting, so without it the bound fails whenever the two meet.
    checkpointing: Arc<Mutex<()>>,
    /// The file and its WAL must stay the ones opened (see `watch`; None when read-only).
    watch: Option<Arc<FileWatch>>,
    checkpointer: Option<Checkpointer>,
}

/// What opening the file found.
pub(crate) struct Opened {
    pub(crate) db: SqliteDb,
    /// Schema versions before and after the migrations.
    pub(crate) schema_from: u32,
    pub(crate) schema: u32,
    /// The file existed but was empty (0 bytes).
    pub(crate) found_empty: bool,
}

impl SqliteDb {
    /// Opens (or creates) the file and applies pending migrations. A file from a newer
    /// version, or another program's file, is refused untouched.
    pub(crate) fn open(path: &Path, options: &StoreOptions) -> Result<Opened> {
        let found_empty = std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == 0);
        let mut conn = open_connection(path, options)?;
        // Nothing may write before the version check.
        let from = migrate::check(&conn, path, migrate::MIGRATIONS)?;
        configure(&conn, path, options)?;
        let schema = if options.read_only {
            if from != migrate::latest_version() {
                return Err(StoreError::ReadOnly);
            }
            from
        } else {
            migrate::migrate(&mut conn, path, migrate::MIGRATIONS)?.to
        };
        let watch = (!options.read_only).then(|| Arc::new(FileWatch::new(path, &wal_path(path))));
        Ok(Opened {
            db: SqliteDb {
                watch,
                path: path.to_path_buf(),
                wal: wal_path(path),
                options: options.clone(),
                conn: Mutex::new(Conn {
                    conn,
                    reopen: false,
                    page_limit: None,
                    truncate_later: None,
                }),
                checkpointing: Arc::new(Mutex::new(())),
                checkpointer: None,
            },
            schema_from: from,
            schema,
            found_empty,
        })
    }

    /// Starts the checkpointer once the games are restored (no thread for it: the writer
    /// checkpoints as SQLite does by default).
    pub(crate) fn start_checkpoints(&mut self) -> Result<()> {
        if self.options.read_only {
            return Ok(());
        }
        self.checkpointer = Checkpointer::start(
            &self.path,
            &self.options,
            self.checkpointing.clone(),
            self.watch.clone(),
        );
        if self.checkpointer.is_none() {
            self.conn()?
                .conn
                .pragma_update(None, "wal_autocheckpoint", 1000)?;
        }
        Ok(())
    }

    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    fn conn(&self) -> Result<MutexGuard<'_, Conn>> {
        let mut guard = lock(&self.conn);
        if guard.reopen {
            // Opening the path again would make a new, empty file where the old one was.
            if let Some(gone) = self.watch.as_ref().and_then(|w| w.refused()) {
                return Err(gone);
            }
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

    /// One DEFERRED transaction: its statements see one committed state (another process may
    /// commit between two plain reads).
    pub(crate) fn read<T>(&self, f: impl FnOnce(&mut Tx<'_>) -> Result<T>) -> Result<T> {
        let mut guard = self.conn()?;
        let mut tx = Tx::Sqlite(guard.conn.transaction()?);
        let value = f(&mut tx)?;
        if let Tx::Sqlite(tx) = tx {
            tx.commit()?;
        }
        Ok(value)
    }

    /// One IMMEDIATE transaction, committed when `f` succeeds and the file and its WAL are
    /// still the ones opened (see `watch`: else it rolls back, and every later write is
    /// refused).
    pub(crate) fn write<T>(&self, f: impl FnOnce(&mut Tx<'_>) -> Result<T>) -> Result<T> {
        let watch = self.watch.as_deref();
        if let Some(gone) = watch.and_then(FileWatch::refused) {
            // Refused once what can be saved is saved (the rescue holds this lock).
            drop(lock(&self.checkpointing));
            return Err(gone);
        }
        let mut guard = self.conn()?;
        let mut moved = false;
        let result = (|| {
            let mut tx = Tx::Sqlite(
                guard
                    .conn
                    .transaction_with_behavior(TransactionBehavior::Immediate)?,
            );
            let value = f(&mut tx)?;
            if watch.is_some_and(FileWatch::has_changed) {
                // Rolled back when `tx` drops; the watch saves what it can once it has.
                moved = true;
                return Err(StoreError::Busy);
            }
            if let Tx::Sqlite(tx) = tx {
                tx.commit()?;
            }
            Ok(value)
        })();
        if let (true, Some(watch)) = (moved, watch) {
            let _checkpointing = lock(&self.checkpointing);
            return Err(match watch.check(&guard.conn) {
                Err(gone) => gone,
                Ok(()) => StoreError::FileGone {
                    path: self.path.clone(),
                    what: "the database file or its WAL changed".to_string(),
                },
            });
        }
        if result.is_ok() {
            self.bound_wal(&mut guard);
        }
        if matches!(result, Err(StoreError::ReadOnly)) {
            // The file may become writable again (an admin fixes the mode): reconnect next time.
            guard.reopen = true;
        }
        result
    }

    /// Keeps the WAL under [`StoreOptions::wal_limit`], after a commit, on the writer's
    /// connection. The checkpointer's PASSIVE checkpoints never block a move, but while writes
    /// keep coming they never reach the end of the log, so the log never starts again from its
    /// beginning and grows for as long as the writes go on. Past half of the limit, a TRUNCATE
    /// checkpoint copies the rest of the log into the file and empties it: the write that
    /// crossed the mark (one in thousands under sustained writes, none otherwise) waits for
    /// that copy, and for a PASSIVE checkpoint under way. When a reader (another process)
    /// holds it up for longer than [`TRUNCATE_WAIT`] it is left for a while ([`TruncateLater`]:
    /// no move waits long on a reader, and fast writes cannot outrun the bound meanwhile).
    fn bound_wal(&self, guard: &mut Conn) {
        let limit = self.options.wal_limit;
        if limit == 0 {
            return;
        }
        let size = std::fs::metadata(&self.wal).map_or(0, |m| m.len());
        if size <= limit / 2 {
            return;
        }
        if let Some(later) = &mut guard.truncate_later {
            later.commits = later.commits.saturating_sub(1);
            if Instant::now() < later.at && size < later.size && later.commits > 0 {
                return;
            }
        }
        let _checkpointing = lock(&self.checkpointing);
        let conn = &guard.conn;
        let busy = conn.busy_timeout(TRUNCATE_WAIT).and_then(|()| {
            conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
                r.get::<_, i64>(0)
            })
        });
        let restored = conn.busy_timeout(self.options.busy_timeout);
        let retry = TruncateLater {
            at: Instant::now() + TRUNCATE_BACKOFF,
            size: size + limit / 4,
            commits: TRUNCATE_RETRY_COMMITS,
        };
        guard.truncate_later = match busy.and_then(|busy| restored.map(|()| busy)) {
            Ok(0) => None,
            Ok(_) => {
                tracing::debug!(wal_bytes = size, "the WAL is in use; truncating it later");
                Some(retry)
            }
            Err(e) => {
                tracing::warn!(error = %e, wal_bytes = size, "cannot truncate the WAL; trying again later");
                Some(retry)
            }
        };
    }

    /// Caps the file at `pages` pages (`PRAGMA max_page_count`; None lifts the cap).
    pub(crate) fn set_page_limit(&self, pages: Option<u64>) -> Result<()> {
        let mut guard = self.conn()?;
        let n = pages.unwrap_or(0xFFFF_FFFE) as i64;
        guard.conn.pragma_update(None, "max_page_count", n)?;
        guard.page_limit = pages;
        Ok(())
    }

    /// The file's size in pages.
    pub(crate) fn page_count(&self) -> Result<u64> {
        let n: i64 = self
            .conn()?
            .conn
            .pragma_query_value(None, "page_count", |r| r.get(0))?;
        Ok(n as u64)
    }
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
    fn start(
        path: &Path,
        options: &StoreOptions,
        checkpointing: Arc<Mutex<()>>,
        watch: Option<Arc<FileWatch>>,
    ) -> Option<Checkpointer> {
        // Its connection is opened, and holds the WAL open, before the store takes a move:
        // the watch's rescue of a removed WAL copies from it (see `watch`).
        let first = open_connection(path, options).ok().filter(|c| {
            let _checkpointing = lock(&checkpointing);
            c.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()))
                .is_ok()
        });
        let stop = Arc::new((Mutex::new(false), std::sync::Condvar::new()));
        let flag = stop.clone();
        let path = path.to_path_buf();
        let options = options.clone();
        let thread = std::thread::Builder::new()
            .name("store-checkpoint".to_string())
            .spawn(move || {
                let mut conn = first;
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
                    // The watch's round: a file removed or replaced is noticed (and what can
                    // be saved is saved) within one round, also while nothing is written; the
                    // path is not opened again then (that would make a new, empty file).
                    if let Some(watch) = &watch {
                        let _checkpointing = lock(&checkpointing);
                        let checked = match &conn {
                            Some(c) => watch.check(c).is_ok(),
                            None => !watch.has_changed(),
                        };
                        if !checked {
                            continue;
                        }
                    }
                    if conn.is_none() {
                        conn = open_connection(&path, &options).ok();
                    }
                    // PASSIVE: copies what it can without blocking the writer. On an error (a
                    // full or read-only disk) the WAL stays as it is and the next round opens a
                    // fresh connection and tries again.
                    if let Some(c) = &conn {
                        let _checkpointing = lock(&checkpointing);
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
            if t.join().is_err() {
                tracing::warn!("the checkpoint thread panicked");
            }
        }
    }
}

/// The WAL file beside the database file.
fn wal_path(path: &Path) -> PathBuf {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    PathBuf::from(wal)
}

pub(crate) fn open_connection(path: &Path, options: &StoreOptions) -> Result<Connection> {
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
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
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
