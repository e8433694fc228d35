//! The SQLite file's watch: the database file and its WAL must stay the files the process
//! opened. A file removed or replaced under a running process is the quietest way to lose
//! games: SQLite goes on writing into the open handle of a file nobody can open any more (so
//! everything after the removal is gone at the next start), and a WAL removed before it was
//! copied into the database takes its moves along when the process stops without closing.
//!
//! The watch compares the files' identity (device and inode) with the one they had when the
//! store opened them: before every write commits (so no move is confirmed after the change)
//! and on the checkpointer's rounds (so a bot with nothing to write notices within a second).
//! On the first change it saves what can be saved through the connection it still holds:
//!
//! - the WAL removed or replaced: a checkpoint copies every committed frame (the open handle
//!   still holds them) into the database file at once;
//! - the database file removed or replaced: `VACUUM INTO` writes everything the process can
//!   still read into a new file beside it (`<file>.rescued-<time>`), since the old one is
//!   gone from the directory.
//!
//! Then the store refuses every write ([`StoreError::FileGone`], nothing saved) until the
//! process restarts, and the log says what happened and what to do. Reads go on (they read the
//! handle the process holds).

use super::error::StoreError;
use super::types::lock;
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A file's identity: its device and inode (None: it is not there).
fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// What changed under the process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Change {
    DatabaseRemoved,
    DatabaseReplaced,
    WalRemoved,
    WalReplaced,
}

impl Change {
    fn what(self) -> &'static str {
        match self {
            Change::DatabaseRemoved => "the database file was removed",
            Change::DatabaseReplaced => "the database file was replaced by another file",
            Change::WalRemoved => "its WAL file (-wal) was removed",
            Change::WalReplaced => "its WAL file (-wal) was replaced by another file",
        }
    }
}

/// The watch over one SQLite file and its WAL (shared by the writer and the checkpointer).
pub(crate) struct FileWatch {
    path: PathBuf,
    wal: PathBuf,
    database: Option<(u64, u64)>,
    state: Mutex<Watched>,
}

struct Watched {
    /// The WAL's identity once it was seen (it appears with the first write).
    wal: Option<(u64, u64)>,
    /// The change found, once found: every write is refused from then on.
    gone: Option<Change>,
}

impl FileWatch {
    /// Watches `path` and its WAL `wal` as they are now.
    pub(crate) fn new(path: &Path, wal: &Path) -> FileWatch {
        FileWatch {
            path: path.to_path_buf(),
            wal: wal.to_path_buf(),
            database: identity(path),
            state: Mutex::new(Watched {
                wal: identity(wal),
                gone: None,
            }),
        }
    }

    /// The refusal for writes once a change was found.
    fn refusal(&self, change: Change) -> StoreError {
        StoreError::FileGone {
            path: self.path.clone(),
            what: change.what().to_string(),
        }
    }

    /// Checks the files, and on the first change saves what can be saved through `conn` (a
    /// connection of this process, outside any transaction) and logs it. Err once the files
    /// changed (now or before).
    pub(crate) fn check(&self, conn: &Connection) -> Result<(), StoreError> {
        let mut watched = lock(&self.state);
        if let Some(change) = watched.gone {
            return Err(self.refusal(change));
        }
        let Some(change) = self.changed(&mut watched) else {
            return Ok(());
        };
        watched.gone = Some(change);
        drop(watched);
        self.rescue(change, conn);
        Err(self.refusal(change))
    }

    /// The refusal once a change was found (no file access: the writer asks it first).
    pub(crate) fn refused(&self) -> Option<StoreError> {
        lock(&self.state).gone.map(|change| self.refusal(change))
    }

    /// Whether the files changed since they were opened (noting the WAL the first time it is
    /// there).
    pub(crate) fn has_changed(&self) -> bool {
        let mut watched = lock(&self.state);
        watched.gone.is_some() || self.changed(&mut watched).is_some()
    }

    fn changed(&self, watched: &mut Watched) -> Option<Change> {
        let database = self.database?;
        match identity(&self.path) {
            None => return Some(Change::DatabaseRemoved),
            Some(id) if id != database => return Some(Change::DatabaseReplaced),
            Some(_) => {}
        }
        match (watched.wal, identity(&self.wal)) {
            (None, now) => {
                watched.wal = now;
                None
            }
            (Some(_), None) => Some(Change::WalRemoved),
            (Some(was), Some(now)) if was != now => Some(Change::WalReplaced),
            (Some(_), Some(_)) => None,
        }
    }

    /// Saves what can be saved after `change` through `conn`, and says so in the log.
    fn rescue(&self, change: Change, conn: &Connection) {
        let (path, wal) = (self.path.display(), self.wal.display());
        match change {
            Change::WalRemoved | Change::WalReplaced => {
                let copied = conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, i64>(2)?,
                    ))
                });
                match copied {
                    Ok((0, frames, done)) if frames == done => tracing::error!(
                        "{path}: {} while the bot was running. Every confirmed move was copied \
                         into {path} through the open connection, so none is lost; the bot takes no more moves until it is restarted (restart \
                         it now: a new {wal} is made then)",
                        change.what()
                    ),
                    other => tracing::error!(
                        "{path}: {} while the bot was running, and copying its moves into \
                         {path} through the open connection did not finish ({other:?}). The \
                         bot takes no more moves. Do NOT stop it yet: run `skymines backup` \
                         first if you can, then restart it and check the games with \
                         /skymines admin report",
                        change.what()
                    ),
                }
            }
            Change::DatabaseRemoved | Change::DatabaseReplaced => {
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_millis());
                let rescued = PathBuf::from(format!("{}.rescued-{now}", self.path.display()));
                let target = rescued.to_string_lossy().into_owned();
                match conn.execute("VACUUM INTO ?1", [&target]) {
                    Ok(_) => tracing::error!(
                        "{path}: {} while the bot was running. Everything the bot had stored \
                         was written to {} through the open connection; the bot takes no more \
                         moves. Stop it, put that file at {path} (after moving away whatever is \
                         there now, if it is not the file you want), and start it again",
                        change.what(),
                        rescued.display()
                    ),
                    Err(e) => tracing::error!(
                        "{path}: {} while the bot was running, and writing what it had stored \
                         to {} failed ({e}). The bot takes no more moves; what it confirmed \
                         since the last backup may be lost. Restore a backup",
                        change.what(),
                        rescued.display()
                    ),
                }
            }
        }
    }
}
