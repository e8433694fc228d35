//! The PostgreSQL side of the SQL layer: a server that several bot processes share.
//!
//! # Connections
//!
//! A small fixed pool of connections, each with its own cache of prepared statements (a move
//! is a handful of round trips over the socket, no re-parsing), opened on first need. A
//! connection that broke is replaced on its next use. `lock_timeout` is the store's
//! `busy_timeout`: a row lock held too long makes the move fail with `Busy` (nothing written).
//! Reads run in one REPEATABLE READ read-only transaction, so all their statements see one
//! committed state.
//!
//! Durability follows the store's [`Synchronous`] setting, as on SQLite. `Normal` (the default)
//! is `synchronous_commit = off`: a commit returns once it is in the server's WAL buffers,
//! which the server writes out within a fraction of a second. Nothing is lost when the bot
//! dies (its commits are the server's), nor ever corrupted; a crash of the database server's
//! machine may roll back the last moves before it, each game still whole — SQLite's NORMAL
//! promise. `Full` is `synchronous_commit = on`: every commit waits for its WAL flush (on the
//! reference VM that flush is most of a move's time: `cargo bench --bench store`).
//!
//! The blocking client runs its own runtime: call it from blocking threads only, never from
//! an async task (it panics inside another runtime).

use super::error::{Result, StoreError};
use super::migrate;
use super::sql::Tx;
use super::types::{lock, StoreOptions, Synchronous};
use postgres::{Client, NoTls, Statement};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Connections per store: enough for moves of different games in parallel on a few cores.
const POOL_SIZE: usize = 8;

/// One pooled connection and its prepared statements.
struct PgConn {
    client: Client,
    statements: HashMap<String, Statement>,
}

/// The server and the pool.
pub(crate) struct PgDb {
    config: postgres::Config,
    /// The server for messages, without user name or password.
    target: String,
    synchronous: Synchronous,
    busy_timeout: std::time::Duration,
    pool: Vec<Mutex<Option<PgConn>>>,
    next_slot: AtomicUsize,
}

/// The blocking client closes a connection by blocking on its own runtime, which panics on an
/// async worker thread: a store whose last handle goes there (e.g. with a Discord client's
/// task) closes its connections on a thread of their own.
impl Drop for PgDb {
    fn drop(&mut self) {
        if tokio::runtime::Handle::try_current().is_err() {
            return;
        }
        let open: Vec<PgConn> = self
            .pool
            .iter_mut()
            .filter_map(|slot| slot.get_mut().unwrap_or_else(|e| e.into_inner()).take())
            .collect();
        if !open.is_empty()
            && std::thread::Builder::new()
                .name("pg-close".to_string())
                .spawn(move || drop(open))
                .is_err()
        {
            tracing::warn!("no thread to close the PostgreSQL connections on");
        }
    }
}

impl PgDb {
    /// Connects to the server at `url` (`postgres://…`) and applies pending migrations; the
    /// schema versions before and after.
    pub(crate) fn open(url: &str, options: &StoreOptions) -> Result<(PgDb, u32, u32)> {
        let target = redact_url(url);
        if options.read_only {
            return Err(StoreError::Unsupported(format!(
                "{target}: the PostgreSQL backend has no read-only mode (use a read-only \
                 database role instead)"
            )));
        }
        let config: postgres::Config =
            url.parse()
                .map_err(|e: postgres::Error| StoreError::Server {
                    target: target.clone(),
                    message: format!("not a usable PostgreSQL URL: {e}"),
                })?;
        let db = PgDb {
            config,
            target,
            synchronous: options.synchronous,
            busy_timeout: options.busy_timeout,
            pool: (0..POOL_SIZE).map(|_| Mutex::new(None)).collect(),
            next_slot: AtomicUsize::new(0),
        };
        let (from, to) = {
            let mut conn = db.conn()?;
            let c = conn.as_mut().ok_or_else(|| db.lost())?;
            migrate::migrate_postgres(&mut c.client, &db.target)?
        };
        Ok((db, from, to))
    }

    /// The server, for messages (no user name or password).
    pub(crate) fn target(&self) -> &str {
        &self.target
    }

    fn lost(&self) -> StoreError {
        StoreError::Server {
            target: self.target.clone(),
            message: "no connection".to_string(),
        }
    }

    fn connect(&self) -> Result<PgConn> {
        let server = |e: postgres::Error| StoreError::Server {
            target: self.target.clone(),
            message: e.to_string(),
        };
        let mut client = self.config.connect(NoTls).map_err(server)?;
        let synchronous_commit = match self.synchronous {
            Synchronous::Normal => "off",
            Synchronous::Full => "on",
        };
        client
            .batch_execute(&format!(
                "SET lock_timeout = '{}ms'; SET synchronous_commit = {synchronous_commit}",
                self.busy_timeout.as_millis()
            ))
            .map_err(server)?;
        Ok(PgConn {
            client,
            statements: HashMap::new(),
        })
    }

    /// A free pooled connection (or, when all are busy, waits for one), opened or reopened
    /// as needed.
    fn conn(&self) -> Result<MutexGuard<'_, Option<PgConn>>> {
        let free = self.pool.iter().find_map(|slot| match slot.try_lock() {
            Ok(g) => Some(g),
            Err(std::sync::TryLockError::Poisoned(p)) => Some(p.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => None,
        });
        let mut guard = match free {
            Some(g) => g,
            None => {
                let i = self.next_slot.fetch_add(1, Ordering::Relaxed) % self.pool.len();
                lock(&self.pool[i])
            }
        };
        if guard.as_ref().is_none_or(|c| c.client.is_closed()) {
            *guard = Some(self.connect()?);
        }
        Ok(guard)
    }

    /// Runs `f` inside one transaction and commits; any error rolls everything back.
    pub(crate) fn write<T>(&self, f: impl FnOnce(&mut Tx<'_>) -> Result<T>) -> Result<T> {
        let mut guard = self.conn()?;
        let conn = guard.as_mut().ok_or_else(|| self.lost())?;
        let mut tx = Tx::Postgres {
            tx: conn.client.transaction()?,
            statements: &mut conn.statements,
        };
        let value = f(&mut tx)?;
        if let Tx::Postgres { tx, .. } = tx {
            tx.commit()?;
        }
        Ok(value)
    }

    /// Runs `f` in one read-only REPEATABLE READ transaction.
    pub(crate) fn read<T>(&self, f: impl FnOnce(&mut Tx<'_>) -> Result<T>) -> Result<T> {
        let mut guard = self.conn()?;
        let conn = guard.as_mut().ok_or_else(|| self.lost())?;
        let mut tx = Tx::Postgres {
            tx: conn
                .client
                .build_transaction()
                .isolation_level(postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()?,
            statements: &mut conn.statements,
        };
        let value = f(&mut tx)?;
        if let Tx::Postgres { tx, .. } = tx {
            tx.commit()?;
        }
        Ok(value)
    }
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
