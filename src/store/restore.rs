//! Start-up: every active game is rebuilt from its latest usable snapshot plus the later
//! batches, on worker threads. When the engine version and the data hash are the ones the game
//! started with, it is checked against a replay of its log from the seed; a game that disagrees
//! is marked `damaged` with a report and set aside, never repaired.

use super::error::{Result, StoreError};
use super::games::{read_game, read_seats};
use super::live::{Live, LiveSet};
use super::moves::read_log;
use super::replay;
use super::shards;
use super::snapshots::{read_snapshot, snapshot_seqs};
use super::{json, lock, now_ms, GameId, GameRecord, LogEntry, RestoreReport, Store};
use crate::data::GameData;
use crate::engine::{GameState, ENGINE_VERSION};
use rusqlite::{params, Connection};
use std::sync::{Arc, Mutex};

/// Everything start-up needs of one game, read from the file.
pub(super) struct RawGame {
    pub(super) record: GameRecord,
    pub(super) entries: Vec<LogEntry>,
    pub(super) snapshot_seq: u64,
    pub(super) snapshot: String,
}

/// How a restore went.
pub(super) enum Restored {
    Ok {
        state: Box<GameState>,
        verified: bool,
        note: Option<String>,
    },
    Damaged(String),
}

pub(super) fn read_raw(conn: &Connection, record: GameRecord) -> Result<RawGame> {
    // Every command reads the seats: a game whose seats do not decode is unreadable too.
    read_seats(conn, record.id)?;
    let entries = read_log(conn, record.id)?;
    let snaps = snapshot_seqs(conn, record.id)?;
    let snapshot_seq = replay::usable_snapshot(&snaps, &entries).ok_or(StoreError::Corrupt {
        game: record.id,
        message: "no usable snapshot".to_string(),
    })?;
    let snapshot = read_snapshot(conn, record.id, snapshot_seq)?;
    Ok(RawGame {
        record,
        entries,
        snapshot_seq,
        snapshot,
    })
}

/// Snapshot + later batches; when the versions match, checked against a replay from the seed.
/// Pure: the caller stores the verdict.
///
/// The check replays the log from the seed up to the snapshot and compares the result with the
/// snapshot (as JSON text first, as a state if the texts differ); the later batches are then
/// replayed once, on a state both agree on. That is the same verdict as comparing the restored
/// state with a full replay, for one replay instead of two.
pub(super) fn restore_raw(data: &GameData, raw: &RawGame, verify: bool) -> Restored {
    let rec = &raw.record;
    let at = raw.snapshot_seq;
    if let Err(e) = replay::check_log(&raw.entries) {
        return Restored::Damaged(format!("the move log is broken: {e}"));
    }
    if raw.entries.len() as u64 != rec.seq {
        return Restored::Damaged(format!(
            "the game row says {} moves but the log holds {}",
            rec.seq,
            raw.entries.len()
        ));
    }
    let unreadable =
        |e: serde_json::Error| format!("the snapshot of move {at} cannot be read: {e}");
    let undone = replay::undone_set(&raw.entries);
    let note = if rec.engine_version != ENGINE_VERSION {
        Some(format!(
            "started under engine version {}, running {ENGINE_VERSION}: continued from the snapshot of move {at}",
            rec.engine_version
        ))
    } else if rec.data_hash != data.hash {
        Some(format!(
            "started with game data {}, running with {}: continued from the snapshot of move {at}",
            rec.data_hash, data.hash
        ))
    } else {
        None
    };
    let checked = verify && note.is_none();
    let base = if checked {
        let head = raw.entries.iter().filter(|e| e.seq() <= at);
        let replayed = match replay::initial_state(data, &rec.options, &rec.seat_names)
            .and_then(|start| replay::replay_onto(data, start, head, &undone))
        {
            Ok(s) => s,
            Err(e) => return Restored::Damaged(format!("a replay from the seed fails: {e}")),
        };
        if json(&replayed) != raw.snapshot {
            let snap = match replay::read_snapshot(&raw.snapshot, &rec.seat_names) {
                Ok(s) => s,
                Err(e) => return Restored::Damaged(unreadable(e)),
            };
            if snap != replayed {
                return Restored::Damaged(format!(
                    "the snapshot of move {at} differs from a replay of the log from the seed in: {}",
                    replay::differing_fields(&snap, &replayed).join(", ")
                ));
            }
        }
        replayed
    } else {
        match replay::read_snapshot(&raw.snapshot, &rec.seat_names) {
            Ok(s) => s,
            Err(e) => return Restored::Damaged(unreadable(e)),
        }
    };
    let tail = raw.entries.iter().filter(|e| e.seq() > at);
    match replay::replay_onto(data, base, tail, &undone) {
        Ok(state) => Restored::Ok {
            state: Box::new(state),
            verified: checked,
            note,
        },
        Err(e) => Restored::Damaged(format!(
            "the moves after the snapshot of move {at} do not apply to it: {e}"
        )),
    }
}

/// Start-up's pipeline for either backend: `read_games` reads the games (handing each to
/// `send`, which says false once the workers are gone, and noting the unreadable ones in its
/// second argument) while `threads` worker threads rebuild and check them into `live`.
/// Returns the report and the games found damaged, sorted (the caller marks them).
pub(super) fn restore_into(
    data: &GameData,
    live: &LiveSet,
    threads: usize,
    verify: bool,
    read_games: impl FnOnce(&mut dyn FnMut(RawGame) -> bool, &mut Vec<(GameId, String)>) -> Result<()>,
) -> Result<RestoreReport> {
    let mut report = RestoreReport::default();
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let mut damaged = Vec::new();
    let (work_tx, work_rx) = std::sync::mpsc::sync_channel::<RawGame>(256);
    let work_rx = Mutex::new(work_rx);
    let (done_tx, done_rx) = std::sync::mpsc::channel::<(GameId, u64, Restored)>();
    let read_result = std::thread::scope(|s| {
        for _ in 0..threads {
            let done_tx = done_tx.clone();
            let work_rx = &work_rx;
            s.spawn(move || loop {
                let next = lock(work_rx).recv();
                let Ok(raw) = next else { return };
                let restored = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    restore_raw(data, &raw, verify)
                }))
                .unwrap_or_else(|_| {
                    Restored::Damaged("the engine panicked while restoring it".to_string())
                });
                if done_tx
                    .send((raw.record.id, raw.record.seq, restored))
                    .is_err()
                {
                    return;
                }
            });
        }
        drop(done_tx);
        let mut send = |raw: RawGame| work_tx.send(raw).is_ok();
        let result = read_games(&mut send, &mut damaged);
        drop(work_tx);
        result
    });
    read_result?;
    let mut games = live.write();
    for (id, seq, restored) in done_rx {
        match restored {
            Restored::Ok {
                state,
                verified,
                note,
            } => {
                report.restored += 1;
                report.verified += usize::from(verified);
                if let Some(n) = note {
                    report.unverified.push((id, n));
                }
                games.insert(id, Arc::new(Mutex::new(Live::new(Arc::new(*state), seq))));
            }
            Restored::Damaged(r) => damaged.push((id, r)),
        }
    }
    drop(games);
    damaged.sort_by_key(|(id, _)| *id);
    report.unverified.sort_by_key(|(id, _)| *id);
    report.damaged = damaged;
    Ok(report)
}

impl Store {
    /// Restores every active game: this thread reads the games from the file and hands them
    /// to worker threads that rebuild and check them (reading and replaying overlap).
    pub(super) fn restore_all(&self) -> Result<RestoreReport> {
        let ids: Vec<GameId> = self.read(|c| {
            let mut stmt = c.prepare(&format!(
                "SELECT id FROM games WHERE status = 'active' AND {} ORDER BY id",
                shards::condition(self.options.shards, "guild")
            ))?;
            let ids = stmt.query_map([], |r| r.get(0))?;
            ids.collect::<rusqlite::Result<Vec<GameId>>>()
                .map_err(StoreError::from)
        })?;
        let report = restore_into(
            &self.data,
            &self.live,
            self.options.restore_threads,
            self.options.verify_on_restore,
            |send, damaged| {
                self.read_consistent(|c| {
                    for &id in &ids {
                        match read_game(c, id).and_then(|rec| read_raw(c, rec)) {
                            Ok(raw) => {
                                if !send(raw) {
                                    break;
                                }
                            }
                            Err(StoreError::Corrupt { message, .. }) => damaged.push((id, message)),
                            Err(e) => return Err(e),
                        }
                    }
                    Ok(())
                })
            },
        )?;
        if !report.damaged.is_empty() {
            self.mark_damaged(&report.damaged)?;
        }
        Ok(report)
    }

    /// Sets games aside as damaged. On a read-only file the verdict stays in memory only.
    pub(super) fn mark_damaged(&self, games: &[(GameId, String)]) -> Result<()> {
        let now = now_ms();
        let r = self.write(|tx| {
            for (id, report) in games {
                tx.prepare_cached(
                    "UPDATE games SET status = 'damaged', damage_report = ?2, updated_at = ?3 WHERE id = ?1",
                )?
                .execute(params![id, report, now])?;
            }
            Ok(())
        });
        match r {
            Err(StoreError::ReadOnly) => Ok(()),
            other => other,
        }
    }
}
