//! PostgreSQL schema migrations: the numbered SQL files of `migrations/postgres/`, built into
//! the binary, and the runner that brings a database up to date at start-up.
//!
//! Every SQLite migration of `migrations/` has its PostgreSQL twin here with the same number
//! and name (a test checks the two lists agree), so a schema version means the same tables on
//! both backends. The version lives in the table `skymines_schema`. Pending migrations run in
//! ONE transaction under an advisory lock (two processes starting at once migrate once), each
//! followed by its version bump; a failure leaves the database at its old version. A database
//! of a newer version, or another program's tables without `skymines_schema`, is refused
//! untouched.

use super::super::error::{Result, StoreError};
use super::super::migrate::{Migration, APPLICATION_ID};
use std::path::PathBuf;

/// Every PostgreSQL migration, oldest first: the twins of [`super::super::migrate::MIGRATIONS`].
pub const PG_MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "0001_initial.sql",
        sql: include_str!("../../../migrations/postgres/0001_initial.sql"),
    },
    Migration {
        version: 2,
        name: "0002_discord.sql",
        sql: include_str!("../../../migrations/postgres/0002_discord.sql"),
    },
    Migration {
        version: 3,
        name: "0003_languages.sql",
        sql: include_str!("../../../migrations/postgres/0003_languages.sql"),
    },
    Migration {
        version: 4,
        name: "0004_seats.sql",
        sql: include_str!("../../../migrations/postgres/0004_seats.sql"),
    },
    Migration {
        version: 5,
        name: "0005_admin.sql",
        sql: include_str!("../../../migrations/postgres/0005_admin.sql"),
    },
    Migration {
        version: 6,
        name: "0006_reminder_settings.sql",
        sql: include_str!("../../../migrations/postgres/0006_reminder_settings.sql"),
    },
    Migration {
        version: 7,
        name: "0007_lobbies.sql",
        sql: include_str!("../../../migrations/postgres/0007_lobbies.sql"),
    },
    Migration {
        version: 8,
        name: "0008_time_zones.sql",
        sql: include_str!("../../../migrations/postgres/0008_time_zones.sql"),
    },
    Migration {
        version: 9,
        name: "0009_dm_refusals.sql",
        sql: include_str!("../../../migrations/postgres/0009_dm_refusals.sql"),
    },
    Migration {
        version: 10,
        name: "0010_status_pins.sql",
        sql: include_str!("../../../migrations/postgres/0010_status_pins.sql"),
    },
    Migration {
        version: 11,
        name: "0011_computer_players.sql",
        sql: include_str!("../../../migrations/postgres/0011_computer_players.sql"),
    },
    Migration {
        version: 12,
        name: "0012_shown_lists.sql",
        sql: include_str!("../../../migrations/postgres/0012_shown_lists.sql"),
    },
];

/// Brings the database up to date; returns the version before and after.
pub(super) fn migrate(client: &mut postgres::Client, target: &str) -> Result<(u32, u32)> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::migrate::MIGRATIONS;

    /// Each SQLite migration needs its PostgreSQL twin (same number, same name) and the
    /// folder holds exactly the listed files.
    #[test]
    fn every_sqlite_migration_has_its_postgres_twin() {
        let sqlite: Vec<(u32, &str)> = MIGRATIONS.iter().map(|m| (m.version, m.name)).collect();
        let pg: Vec<(u32, &str)> = PG_MIGRATIONS.iter().map(|m| (m.version, m.name)).collect();
        assert_eq!(
            pg, sqlite,
            "add migrations/postgres/<name> for every migrations/<name>"
        );
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations/postgres");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .expect("migrations/postgres")
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".sql"))
            .collect();
        files.sort();
        let listed: Vec<String> = PG_MIGRATIONS.iter().map(|m| m.name.to_string()).collect();
        assert_eq!(files, listed);
    }
}
