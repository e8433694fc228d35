//! Backups while the bot runs: a consistent copy of the game database made with SQLite's
//! `VACUUM INTO` on a read-only connection of its own, so moves go on meanwhile (the copy holds
//! every move committed when it started, and no half of a later one). The copy is then opened
//! read-only and its games restored and checked, so a backup that would not restore is
//! reported at once. Restoring is a file copy: stop the bot, move the database (and its -wal
//! and -shm files) away, copy the backup in its place, start the bot.

use super::error::{Result, StoreError};
use super::{Store, StoreOptions};
use crate::data::GameData;
use rusqlite::{Connection, OpenFlags};
use std::path::Path;
use std::sync::Arc;

/// What a backup holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BackupReport {
    /// Bytes written.
    pub bytes: u64,
    /// Running games in the copy, all restored from it…
    pub running: usize,
    /// …of which this many were checked against a replay of their moves.
    pub verified: usize,
    /// Games in the copy set aside as damaged (already in the database, or on restoring).
    pub damaged: usize,
}

/// Writes a consistent copy of the database `db` to `out` (which must not exist yet) while
/// other connections may be writing, then restores the copy read-only to check it.
pub fn backup(db: &Path, out: &Path, data: Arc<GameData>) -> Result<BackupReport> {
    if out.exists() {
        return Err(StoreError::Invalid(format!(
            "{}: already exists; a backup never overwrites a file (choose a new name)",
            out.display()
        )));
    }
    if !db.is_file() {
        return Err(StoreError::Open {
            path: db.to_path_buf(),
            message: "no such database file".to_string(),
        });
    }
    let source = Connection::open_with_flags(
        db,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| StoreError::Open {
        path: db.to_path_buf(),
        message: e.to_string(),
    })?;
    source.busy_timeout(std::time::Duration::from_secs(10))?;
    let target = out.to_str().ok_or_else(|| {
        StoreError::Invalid(format!(
            "{}: the backup's name must be UTF-8",
            out.display()
        ))
    })?;
    source.execute("VACUUM INTO ?1", [target])?;
    drop(source);
    let checked = StoreOptions {
        read_only: true,
        ..StoreOptions::default()
    };
    let (copy, report) = Store::open(out, data, checked)?;
    let damaged = copy
        .admin()
        .games_with_status(super::GameStatus::Damaged)
        .map(|g| g.len())
        .unwrap_or(report.damaged.len());
    drop(copy);
    Ok(BackupReport {
        bytes: std::fs::metadata(out).map(|m| m.len()).unwrap_or(0),
        running: report.restored,
        verified: report.verified,
        damaged: damaged.max(report.damaged.len()),
    })
}
