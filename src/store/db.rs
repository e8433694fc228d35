//! Where the games live: an SQLite file (`sqlite`) or a PostgreSQL server several processes
//! share (`postgres`), each running the store's closures over the SQL layer's transactions
//! (`sql`), and the kill tests' crash point after a commit. (Apart from `sql` so that the SQL
//! layer depends on neither database: the databases' files depend on it.)

use super::error::Result;
use super::sql::{Dialect, Tx};

/// Where the games live: an SQLite file, or a PostgreSQL server several processes share.
pub(crate) enum Db {
    Sqlite(super::sqlite::SqliteDb),
    Postgres(super::postgres::PgDb),
}

impl Db {
    pub(crate) fn dialect(&self) -> Dialect {
        match self {
            Db::Sqlite(_) => Dialect::Sqlite,
            Db::Postgres(_) => Dialect::Postgres,
        }
    }

    /// Runs `f` in one read transaction: all its statements see the same committed state (a
    /// game read half before and half after another process's move would look damaged).
    pub(crate) fn read<T>(&self, f: impl FnOnce(&mut Tx<'_>) -> Result<T>) -> Result<T> {
        match self {
            Db::Sqlite(db) => db.read(f),
            Db::Postgres(db) => db.read(f),
        }
    }

    /// Runs `f` in one write transaction and commits; any error rolls everything back.
    pub(crate) fn write<T>(&self, f: impl FnOnce(&mut Tx<'_>) -> Result<T>) -> Result<T> {
        let value = match self {
            Db::Sqlite(db) => db.write(f),
            Db::Postgres(db) => db.write(f),
        }?;
        #[cfg(feature = "test-support")]
        crash_after_commit();
        Ok(value)
    }

    /// For messages: the file, or the server without user name or password.
    pub(crate) fn describe(&self) -> String {
        match self {
            Db::Sqlite(db) => db.path().display().to_string(),
            Db::Postgres(db) => db.target().to_string(),
        }
    }
}

/// The kill tests' exact crash point (`test-support` feature): with
/// `SKYMINES_TEST_CRASH_AFTER_COMMITS=N` in its environment, the process aborts right after
/// its Nth write transaction committed, before anything else happens (as a SIGKILL there
/// would), so a test can show what every commit leaves behind.
#[cfg(feature = "test-support")]
fn crash_after_commit() {
    use std::sync::atomic::{AtomicU64, Ordering};
    static AT: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
    static COMMITS: AtomicU64 = AtomicU64::new(0);
    let at = AT.get_or_init(|| {
        std::env::var("SKYMINES_TEST_CRASH_AFTER_COMMITS")
            .ok()
            .and_then(|n| n.trim().parse().ok())
    });
    if let Some(at) = *at {
        if COMMITS.fetch_add(1, Ordering::SeqCst) + 1 == at {
            std::process::abort();
        }
    }
}
