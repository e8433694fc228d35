//! Schema migrations: the numbered SQL files, built into the binary, and the runners that bring
//! a database up to date at start-up. The DDL of the two databases differs (SQLite rebuilds a
//! table to change a constraint, PostgreSQL alters it; INTEGER against BIGINT, BLOB against
//! BYTEA), so there are two trees: `migrations/` for SQLite ([`MIGRATIONS`]) and
//! `migrations/postgres/` ([`PG_MIGRATIONS`]), with the same numbers and names, so a schema
//! version means the same tables and columns on both (a test checks the two trees reach the
//! same tables and columns).
//!
//! SQLite: the schema version is `PRAGMA user_version` (0 for a new file). The runner reads it
//! before anything else touches the file: a version newer than this binary knows is refused
//! with [`StoreError::TooNew`] and the file is not modified (not even switched to WAL). Pending
//! migrations run in order inside ONE `BEGIN IMMEDIATE` transaction, each followed by its
//! `user_version` bump, so a failure or a crash leaves the file at its old version.
//!
//! PostgreSQL: the version lives in the table `skymines_schema`. Pending migrations run in ONE
//! transaction under an advisory lock (two processes starting at once migrate once), each
//! followed by its version bump; a failure leaves the database at its old version. A database
//! of a newer version, or another program's tables without `skymines_schema`, is refused
//! untouched.
//!
//! To change the schema, add `migrations/000N_what.sql` and its twin
//! `migrations/postgres/000N_what.sql`, and one line to each list; the tests fail until the
//! lists, the folders and the tables agree.

use super::error::{Result, StoreError};
use rusqlite::{Connection, TransactionBehavior};
use std::path::{Path, PathBuf};

/// One schema step.
#[derive(Debug, Clone, Copy)]
pub struct Migration {
    /// The schema version after this step: 1, 2, 3, … in order.
    pub version: u32,
    /// The file name in `migrations/`.
    pub name: &'static str,
    pub sql: &'static str,
}

/// Every migration, oldest first.
pub const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "0001_initial.sql",
        sql: include_str!("../../migrations/0001_initial.sql"),
    },
    Migration {
        version: 2,
        name: "0002_discord.sql",
        sql: include_str!("../../migrations/0002_discord.sql"),
    },
    Migration {
        version: 3,
        name: "0003_languages.sql",
        sql: include_str!("../../migrations/0003_languages.sql"),
    },
    Migration {
        version: 4,
        name: "0004_seats.sql",
        sql: include_str!("../../migrations/0004_seats.sql"),
    },
    Migration {
        version: 5,
        name: "0005_admin.sql",
        sql: include_str!("../../migrations/0005_admin.sql"),
    },
    Migration {
        version: 6,
        name: "0006_reminder_settings.sql",
        sql: include_str!("../../migrations/0006_reminder_settings.sql"),
    },
    Migration {
        version: 7,
        name: "0007_lobbies.sql",
        sql: include_str!("../../migrations/0007_lobbies.sql"),
    },
    Migration {
        version: 8,
        name: "0008_time_zones.sql",
        sql: include_str!("../../migrations/0008_time_zones.sql"),
    },
    Migration {
        version: 9,
        name: "0009_dm_refusals.sql",
        sql: include_str!("../../migrations/0009_dm_refusals.sql"),
    },
    Migration {
        version: 10,
        name: "0010_status_pins.sql",
        sql: include_str!("../../migrations/0010_status_pins.sql"),
    },
    Migration {
        version: 11,
        name: "0011_computer_players.sql",
        sql: include_str!("../../migrations/0011_computer_players.sql"),
    },
    Migration {
        version: 12,
        name: "0012_outbox_claims.sql",
        sql: include_str!("../../migrations/0012_outbox_claims.sql"),
    },
    Migration {
        version: 13,
        name: "0013_shown_lists.sql",
        sql: include_str!("../../migrations/0013_shown_lists.sql"),
    },
    Migration {
        version: 14,
        name: "0014_move_checksums.sql",
        sql: include_str!("../../migrations/0014_move_checksums.sql"),
    },
];

/// `PRAGMA application_id` of a Skymines database ("SkyM").
pub const APPLICATION_ID: i32 = 0x536b_794d;

/// The schema version this binary writes.
pub fn latest_version() -> u32 {
    latest(MIGRATIONS)
}

fn latest(migrations: &[Migration]) -> u32 {
    migrations.last().map(|m| m.version).unwrap_or(0)
}

/// The schema version recorded in the file (0 for a new file).
pub fn schema_version(conn: &Connection) -> Result<u32> {
    let v: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    Ok(u32::try_from(v).unwrap_or(u32::MAX))
}

/// What the runner did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MigrationReport {
    pub from: u32,
    pub to: u32,
}

/// Reads the file's version and owner without writing anything: a newer version or another
/// application's database is refused.
pub fn check(conn: &Connection, path: &Path, migrations: &[Migration]) -> Result<u32> {
    let not_ours = |reason: String| StoreError::NotOurs {
        path: path.to_path_buf(),
        reason,
    };
    let read = |e: rusqlite::Error| match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::NotADatabase) => {
            not_ours("the file is not an SQLite database".into())
        }
        _ => StoreError::from(e),
    };
    let version: i64 = conn
        .pragma_query_value(None, "user_version", |r| r.get(0))
        .map_err(read)?;
    let app: i32 = conn
        .pragma_query_value(None, "application_id", |r| r.get(0))
        .map_err(read)?;
    if app != 0 && app != APPLICATION_ID {
        return Err(not_ours(format!("application id {app:#x}")));
    }
    let version =
        u32::try_from(version).map_err(|_| not_ours(format!("user_version {version}")))?;
    let supported = latest(migrations);
    if version > supported {
        return Err(StoreError::TooNew {
            path: path.to_path_buf(),
            found: version,
            supported,
        });
    }
    if version == 0 && app == 0 {
        let tables: i64 = conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'",
                [],
                |r| r.get(0),
            )
            .map_err(read)?;
        if tables > 0 {
            return Err(not_ours(format!(
                "it already holds {tables} tables or indexes of another program"
            )));
        }
    }
    Ok(version)
}

/// Applies every migration of `migrations` newer than the file's version.
pub fn migrate(
    conn: &mut Connection,
    path: &Path,
    migrations: &[Migration],
) -> Result<MigrationReport> {
    migrate_to(conn, path, migrations, latest(migrations))
}

/// Applies the migrations up to and including version `target` (tests use it to build files
/// at every earlier version).
pub fn migrate_to(
    conn: &mut Connection,
    path: &Path,
    migrations: &[Migration],
    target: u32,
) -> Result<MigrationReport> {
    check_list(migrations)?;
    let from = check(conn, path, migrations)?;
    if from >= target {
        return Ok(MigrationReport { from, to: from });
    }
    // A migration may rebuild a table (SQLite cannot change a constraint in place); that needs
    // foreign keys off, which only takes effect outside a transaction. They are checked before
    // the commit and switched back on afterwards.
    let foreign_keys: i64 = conn.pragma_query_value(None, "foreign_keys", |r| r.get(0))?;
    conn.pragma_update(None, "foreign_keys", "OFF")?;
    let result = run_migrations(conn, path, migrations, target);
    conn.pragma_update(None, "foreign_keys", foreign_keys)?;
    result
}

fn run_migrations(
    conn: &mut Connection,
    path: &Path,
    migrations: &[Migration],
    target: u32,
) -> Result<MigrationReport> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    // Read again under the write lock: another process may have migrated meanwhile.
    let from = check(&tx, path, migrations)?;
    if from == 0 {
        tx.pragma_update(None, "application_id", APPLICATION_ID)?;
    }
    let mut at = from;
    for m in migrations
        .iter()
        .filter(|m| m.version > from && m.version <= target)
    {
        tx.execute_batch(m.sql).map_err(|e| StoreError::Migration {
            name: m.name.to_string(),
            at: from,
            message: e.to_string(),
        })?;
        tx.pragma_update(None, "user_version", m.version)?;
        at = m.version;
    }
    let dangling: i64 = tx.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
        r.get(0)
    })?;
    if dangling > 0 {
        return Err(StoreError::Migration {
            name: format!("up to version {at}"),
            at: from,
            message: format!("{dangling} row(s) would refer to missing rows"),
        });
    }
    tx.commit()?;
    Ok(MigrationReport { from, to: at })
}

/// The list must number its steps 1, 2, 3, … in order.
fn check_list(migrations: &[Migration]) -> Result<()> {
    for (i, m) in migrations.iter().enumerate() {
        if m.version as usize != i + 1 {
            return Err(StoreError::Migration {
                name: m.name.to_string(),
                at: 0,
                message: format!("is listed as version {} at position {}", m.version, i + 1),
            });
        }
    }
    Ok(())
}

/// Every PostgreSQL migration, oldest first: the twins of [`MIGRATIONS`].
pub const PG_MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "0001_initial.sql",
        sql: include_str!("../../migrations/postgres/0001_initial.sql"),
    },
    Migration {
        version: 2,
        name: "0002_discord.sql",
        sql: include_str!("../../migrations/postgres/0002_discord.sql"),
    },
    Migration {
        version: 3,
        name: "0003_languages.sql",
        sql: include_str!("../../migrations/postgres/0003_languages.sql"),
    },
    Migration {
        version: 4,
        name: "0004_seats.sql",
        sql: include_str!("../../migrations/postgres/0004_seats.sql"),
    },
    Migration {
        version: 5,
        name: "0005_admin.sql",
        sql: include_str!("../../migrations/postgres/0005_admin.sql"),
    },
    Migration {
        version: 6,
        name: "0006_reminder_settings.sql",
        sql: include_str!("../../migrations/postgres/0006_reminder_settings.sql"),
    },
    Migration {
        version: 7,
        name: "0007_lobbies.sql",
        sql: include_str!("../../migrations/postgres/0007_lobbies.sql"),
    },
    Migration {
        version: 8,
        name: "0008_time_zones.sql",
        sql: include_str!("../../migrations/postgres/0008_time_zones.sql"),
    },
    Migration {
        version: 9,
        name: "0009_dm_refusals.sql",
        sql: include_str!("../../migrations/postgres/0009_dm_refusals.sql"),
    },
    Migration {
        version: 10,
        name: "0010_status_pins.sql",
        sql: include_str!("../../migrations/postgres/0010_status_pins.sql"),
    },
    Migration {
        version: 11,
        name: "0011_computer_players.sql",
        sql: include_str!("../../migrations/postgres/0011_computer_players.sql"),
    },
    Migration {
        version: 12,
        name: "0012_outbox_claims.sql",
        sql: include_str!("../../migrations/postgres/0012_outbox_claims.sql"),
    },
    Migration {
        version: 13,
        name: "0013_shown_lists.sql",
        sql: include_str!("../../migrations/postgres/0013_shown_lists.sql"),
    },
    Migration {
        version: 14,
        name: "0014_move_checksums.sql",
        sql: include_str!("../../migrations/postgres/0014_move_checksums.sql"),
    },
];

/// Brings the database up to date; returns the version before and after.
pub(super) fn migrate_postgres(client: &mut postgres::Client, target: &str) -> Result<(u32, u32)> {
    let latest = PG_MIGRATIONS.last().map_or(0, |m| m.version);
    let place = || PathBuf::from(target);
    let mut tx = client.transaction()?;
    tx.execute(
        "SELECT pg_advisory_xact_lock($1)",
        &[&i64::from(APPLICATION_ID)],
    )?;
    let known: bool = tx
        .query_one("SELECT to_regclass('skymines_schema') IS NOT NULL", &[])?
        .try_get(0)?;
    if !known {
        let tables: i64 = tx
            .query_one(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()",
                &[],
            )?
            .try_get(0)?;
        if tables > 0 {
            return Err(StoreError::NotOurs {
                path: place(),
                reason: format!("it already holds {tables} tables of another program"),
            });
        }
        tx.batch_execute(
            "CREATE TABLE skymines_schema (version BIGINT NOT NULL); \
             INSERT INTO skymines_schema (version) VALUES (0);",
        )?;
    }
    let from: i64 = tx
        .query_one("SELECT version FROM skymines_schema", &[])?
        .try_get(0)?;
    let from = u32::try_from(from).unwrap_or(u32::MAX);
    if from > latest {
        return Err(StoreError::TooNew {
            path: place(),
            found: from,
            supported: latest,
        });
    }
    let mut at = from;
    for m in PG_MIGRATIONS.iter().filter(|m| m.version > from) {
        tx.batch_execute(m.sql).map_err(|e| StoreError::Migration {
            name: format!("postgres/{}", m.name),
            at: from,
            message: e.to_string(),
        })?;
        tx.execute(
            "UPDATE skymines_schema SET version = $1",
            &[&i64::from(m.version)],
        )?;
        at = m.version;
    }
    tx.commit()?;
    Ok((from, at))
}
