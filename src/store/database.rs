//! Where the configuration says the games live ([`Database`]): an SQLite file (the embedded
//! default: one process owns the file) or a PostgreSQL server (several processes share it).
//! The store is the same on both ([`Store`]: every operation written once over the SQL
//! layer); only backups are SQLite's (`skymines backup` copies the file; a PostgreSQL server is
//! backed up with its own tools, e.g. `pg_dump`): see [`POSTGRES_MISSING`].

use super::error::{Result, StoreError};
use super::postgres::redact_url;
use super::{RestoreReport, Store, StoreOptions};
use crate::data::GameData;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Which database a store runs on (see the `test-support` hook `Store::backend`).
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

/// What the PostgreSQL backend does not have (see the module comment): the rest of the store
/// is on both.
pub const POSTGRES_MISSING: &str =
    "backups (`skymines backup` copies an SQLite file; back a PostgreSQL database up with pg_dump)";

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

    /// Opens the store (migrations, then restoring the active games of `options.shards`), as
    /// the bot, the local mode and every command-line tool do: an SQLite file is first claimed
    /// for this process, and refused ([`StoreError::InUse`]) while another one serves it. On
    /// PostgreSQL this blocks on the server: call it from a blocking thread.
    pub fn open(
        &self,
        data: Arc<GameData>,
        options: StoreOptions,
    ) -> Result<(Arc<Store>, RestoreReport)> {
        let (store, report) = match self {
            Database::Sqlite(path) => {
                // One process serves a file (DECISIONS B22): claimed before anything in it is
                // read or written, and held as long as the store lives.
                let owner = (!options.read_only)
                    .then(|| super::sqlite::claim(path))
                    .transpose()?;
                let (mut store, report) = Store::open(path, data, options)?;
                store.owner = owner;
                (store, report)
            }
            Database::Postgres(url) => Store::open_postgres(url, data, options)?,
        };
        Ok((Arc::new(store), report))
    }

    /// The SQLite file, for what works on the file itself (`what`: e.g. the backup); refused
    /// on PostgreSQL, naming the server's own tool.
    pub fn sqlite_file(&self, what: &str) -> Result<&Path> {
        match self {
            Database::Sqlite(path) => Ok(path),
            Database::Postgres(url) => Err(StoreError::Unsupported(format!(
                "{}: {what} copies an SQLite file; the games are on PostgreSQL, use the \
                 server's tools there (pg_dump to copy, pg_restore to restore)",
                redact_url(url)
            ))),
        }
    }

    /// The database the bot and the local mode run on: either backend holds the whole store
    /// they use, so this refuses nothing now (it did while the PostgreSQL backend lacked
    /// parts); it stays the one place start-up asks.
    pub fn require_full_store(&self) -> Result<Database> {
        Ok(self.clone())
    }
}

pub fn is_postgres_url(s: &str) -> bool {
    s.starts_with("postgres://") || s.starts_with("postgresql://")
}

impl Store {
    /// Test hook (`test-support` feature): which database the store runs on.
    #[cfg(feature = "test-support")]
    pub fn backend(&self) -> Backend {
        match self.db.dialect() {
            super::sql::Dialect::Sqlite => Backend::Sqlite,
            super::sql::Dialect::Postgres => Backend::Postgres,
        }
    }
}
