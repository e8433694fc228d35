//! Start-up: every active game is rebuilt from its latest usable snapshot plus the later
//! batches, on worker threads. When the engine version and the data hash are the ones the game
//! started with, it is checked against a replay of its log from the seed; a game that disagrees
//! is marked `damaged` with a report and set aside, never repaired.
//!
//! The whole-game check at start-up (DECISIONS B23), each on every active game: the game row
//! decodes (options, seed, seat names); its seed is its options' seed; every seat row decodes
//! and the rows match the game's seats (count, Luna's or a player's, names: `integrity`);
//! every log row decodes and matches its checksum, numbered 1, 2, … without gaps and as many
//! as the game row says; the latest usable snapshot decodes and agrees with a replay from the
//! seed, and the later batches apply to it. Older snapshots are checked by the admin report
//! only (reading them would read most of the file). A game whose status is none the bot knows
//! is set aside too. What these add to a restore is small beside the replay it already made:
//! the seat rows it already read, a 64-bit checksum of each move row it already read, one
//! query for unknown statuses (see `benches/store.rs`).
//!
//! The games are read in chunks, a few statements per chunk whatever its size (the rows, the
//! seats, the logs, the snapshot numbers, then the usable snapshot of each), by two reader
//! threads: while the database answers one chunk, this process decodes another, and worker
//! threads replay what has been read.

use super::error::{Result, StoreError};
use super::games::{game_from_row, seat_from_row, GAME_COLUMNS, SEAT_COLUMNS};
use super::integrity::{seat_problem, seed_problem, SeatFacts};
use super::live::{Live, LiveSet};
use super::moves::{log_row, settle_log, ENTRY_COLUMNS};
use super::replay;
use super::shards;
use super::sql::{args, Tx};
use super::{json, lock, now_ms, GameId, GameRecord, LogEntry, RestoreReport, Store};
use crate::data::GameData;
use crate::engine::{GameState, ENGINE_VERSION};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Games read per chunk at start-up.
const RESTORE_CHUNK: usize = 500;

/// Threads reading the chunks at start-up (one reader left the server and the decoding
/// waiting on each other: 8 s to read 10,000 games for 3 s of processor time).
const RESTORE_READERS: usize = 2;

/// Everything start-up needs of one game, read from the file.
pub(super) struct RawGame {
    pub(super) record: GameRecord,
    /// Its seat rows, as the whole-game check compares them with the state.
    pub(super) seats: Vec<SeatFacts>,
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

/// The result of one game of a chunk: its pieces, or why they do not read.
type Read<T> = std::result::Result<T, StoreError>;

/// Folds a row's result into its game's result: the first error stands.
fn gather<T>(into: &mut HashMap<GameId, Read<Vec<T>>>, game: GameId, item: Result<T>) {
    let list = into.entry(game).or_insert_with(|| Ok(Vec::new()));
    match (list, item) {
        (Ok(list), Ok(x)) => list.push(x),
        (list @ Ok(_), Err(e)) => *list = Err(e),
        (Err(_), _) => {}
    }
}

/// Everything start-up needs of the games `ids`, in five statements whatever their number:
/// the rows, the seats (every command reads them: a game whose seats do not decode is
/// unreadable too), the logs, the snapshot numbers, then the usable snapshot of each. A game
/// whose stored values do not decode is `Corrupt` (its own result), never the chunk.
pub(super) fn read_raw_games(
    tx: &mut Tx<'_>,
    ids: &[GameId],
) -> Result<Vec<(GameId, Result<RawGame>)>> {
    let d = tx.dialect();
    let ids: Vec<i64> = ids.to_vec();
    let sql = format!(
        "SELECT {GAME_COLUMNS} FROM games WHERE {} ORDER BY id",
        d.in_list("id", 1)
    );
    let records: Vec<(GameId, Result<GameRecord>)> =
        tx.query(&sql, args![&ids], |r| Ok((r.get(0)?, game_from_row(r)?)))?;
    let mut seats: HashMap<GameId, Read<Vec<SeatFacts>>> = HashMap::new();
    let sql = format!(
        "SELECT {SEAT_COLUMNS}, game_id FROM seats WHERE {}",
        d.in_list("game_id", 1)
    );
    for (game, seat) in tx.query(&sql, args![&ids], |r| {
        let game: GameId = r.get(7)?;
        Ok((
            game,
            seat_from_row(r)
                .map(|s| SeatFacts {
                    seat: s.seat,
                    luna: s.owner == super::SeatOwner::Luna,
                    name: s.name,
                })
                .map_err(|e| e.decoding(game, "a seat")),
        ))
    })? {
        gather(&mut seats, game, seat);
    }
    let sql = format!(
        "SELECT {ENTRY_COLUMNS}, game_id FROM moves WHERE {} ORDER BY game_id, seq",
        d.in_list("game_id", 1)
    );
    let mut logs: HashMap<GameId, Vec<(u64, Result<LogEntry>)>> = HashMap::new();
    for (game, row) in tx.query(&sql, args![&ids], |r| {
        let game: GameId = r.get(9)?;
        Ok((game, log_row(game, r)?))
    })? {
        logs.entry(game).or_default().push(row);
    }
    let sql = format!(
        "SELECT game_id, seq FROM snapshots WHERE {}",
        d.in_list("game_id", 1)
    );
    let mut snaps: HashMap<GameId, Read<Vec<u64>>> = HashMap::new();
    for (game, seq) in tx.query(&sql, args![&ids], |r| {
        let game: GameId = r.get(0)?;
        Ok((
            game,
            r.u64(1)
                .map_err(|e| e.decoding(game, "a snapshot's number")),
        ))
    })? {
        gather(&mut snaps, game, seq);
    }
    let mut out = Vec::new();
    let (mut wanted_games, mut wanted_seqs) = (Vec::new(), Vec::new());
    for (id, record) in records {
        let raw = record.and_then(|record| {
            let seats = seats.remove(&id).unwrap_or_else(|| Ok(Vec::new()))?;
            let entries = settle_log(logs.remove(&id).unwrap_or_default())?;
            let snapshots = snaps.remove(&id).unwrap_or_else(|| Ok(Vec::new()))?;
            let at = replay::usable_snapshot(&snapshots, &entries).ok_or(StoreError::Corrupt {
                game: id,
                message: "no usable snapshot".to_string(),
            })?;
            wanted_games.push(id);
            wanted_seqs.push(at as i64);
            Ok(RawGame {
                record,
                seats,
                entries,
                snapshot_seq: at,
                snapshot: String::new(),
            })
        });
        out.push((id, raw));
    }
    let sql = format!(
        "SELECT s.game_id, s.state FROM snapshots s JOIN {} \
         ON s.game_id = w.game_id AND s.seq = w.seq",
        d.pairs(1, 2, "w", "game_id", "seq")
    );
    let mut states: HashMap<GameId, Result<String>> = HashMap::new();
    for (game, state) in tx.query(&sql, args![&wanted_games, &wanted_seqs], |r| {
        let game: GameId = r.get(0)?;
        Ok((game, r.get::<String>(1)))
    })? {
        states.insert(game, state);
    }
    for (id, raw) in &mut out {
        if let Ok(game) = raw {
            let at = game.snapshot_seq;
            match states.remove(id) {
                Some(Ok(s)) => game.snapshot = s,
                Some(Err(e)) => *raw = Err(e.decoding(*id, &format!("the snapshot of move {at}"))),
                None => {
                    *raw = Err(StoreError::Corrupt {
                        game: *id,
                        message: format!("the snapshot of move {at} is missing"),
                    })
                }
            }
        }
    }
    Ok(out)
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
    if let Some(problem) = seed_problem(rec.seed, rec.options.seed) {
        return Restored::Damaged(problem);
    }
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
        Ok(state) => match seat_problem(&raw.seats, &state) {
            Some(problem) => Restored::Damaged(problem),
            None => Restored::Ok {
                state: Box::new(state),
                verified: checked,
                note,
            },
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
    /// Restores every active game (of this process's shards): reader threads read the games
    /// in chunks and hand them to worker threads that rebuild and check them (reading and
    /// replaying overlap). A chunk the file cannot give (a damaged page) is read again game by
    /// game, so the damage sets aside the games it is in and no more. A game whose status is
    /// none the bot knows is set aside too (see [`Store::odd_statuses`]).
    pub(super) fn restore_all(&self) -> Result<RestoreReport> {
        let sql = format!(
            "SELECT id FROM games WHERE status = 'active' AND {} ORDER BY id",
            shards::condition(self.options.shards, "guild")
        );
        let ids: Vec<GameId> = self.db.read(|tx| tx.query(&sql, args![], |r| r.get(0)))?;
        let odd = self.odd_statuses()?;
        let mut report = restore_into(
            &self.data,
            &self.live,
            self.options.restore_threads,
            self.options.verify_on_restore,
            |send, damaged| {
                let chunks: Vec<&[GameId]> = ids.chunks(RESTORE_CHUNK).collect();
                let next = AtomicUsize::new(0);
                let (tx, rx) = std::sync::mpsc::sync_channel(RESTORE_READERS);
                std::thread::scope(|scope| {
                    for _ in 0..RESTORE_READERS {
                        let (tx, chunks, next) = (tx.clone(), &chunks, &next);
                        scope.spawn(move || {
                            while let Some(chunk) = chunks.get(next.fetch_add(1, Ordering::Relaxed))
                            {
                                let games = self.db.read(|db| read_raw_games(db, chunk));
                                let failed = matches!(&games, Err(e) if !file_damage(e));
                                // A closed channel: the restore stopped (an error, no workers).
                                if tx.send((*chunk, games)).is_err() || failed {
                                    return;
                                }
                            }
                        });
                    }
                    drop(tx);
                    for (chunk, games) in rx {
                        let games = match games {
                            Err(e) if file_damage(&e) => self.read_one_by_one(chunk),
                            other => other?,
                        };
                        for (id, raw) in games {
                            match raw {
                                Ok(raw) => {
                                    if !send(raw) {
                                        return Ok(());
                                    }
                                }
                                Err(StoreError::Corrupt { message, .. }) => {
                                    damaged.push((id, message))
                                }
                                Err(e) => return Err(e),
                            }
                        }
                    }
                    Ok(())
                })
            },
        )?;
        if !report.damaged.is_empty() {
            self.mark_damaged(&report.damaged)?;
        }
        if !odd.is_empty() {
            self.mark_odd_damaged(&odd)?;
            report.damaged.extend(odd);
            report.damaged.sort_by_key(|(id, _)| *id);
        }
        Ok(report)
    }

    /// The games of a chunk the file could not give at once, read one by one: a game whose
    /// rows the file cannot give is `Corrupt` with SQLite's word for it.
    fn read_one_by_one(&self, chunk: &[GameId]) -> Vec<(GameId, Result<RawGame>)> {
        let mut out = Vec::new();
        for &id in chunk {
            match self.db.read(|tx| read_raw_games(tx, &[id])) {
                Ok(games) => out.extend(games),
                Err(e) => out.push((
                    id,
                    Err(StoreError::Corrupt {
                        game: id,
                        message: format!("its rows cannot be read from the file: {e}"),
                    }),
                )),
            }
        }
        out
    }

    /// The games (of this process's shards) whose status is none the bot knows: a damaged
    /// status byte would otherwise make a running game vanish from start-up silently.
    fn odd_statuses(&self) -> Result<Vec<(GameId, String)>> {
        let sql = format!(
            "SELECT id, status FROM games WHERE status NOT IN \
             ('active', 'finished', 'abandoned', 'damaged', 'archived') AND {}",
            shards::condition(self.options.shards, "guild")
        );
        self.db.read(|tx| {
            tx.query(&sql, args![], |r| {
                let status = r
                    .get::<String>(1)
                    .map(|s| crate::text::quote(&s))
                    .unwrap_or_else(|_| "(not text)".to_string());
                Ok((
                    r.get(0)?,
                    format!(
                        "its status `{status}` is none the bot knows (its row was changed): it \
                         may have been running or over"
                    ),
                ))
            })
        })
    }

    /// Sets the games of [`Store::odd_statuses`] aside as damaged where their channel is free
    /// (a damaged game keeps its channel; one that holds a newer game keeps it).
    fn mark_odd_damaged(&self, games: &[(GameId, String)]) -> Result<()> {
        let now = now_ms();
        let r = self.db.write(|tx| {
            for (id, report) in games {
                tx.execute(
                    "UPDATE games SET status = 'damaged', damage_report = $2, updated_at = $3 \
                     WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM games g WHERE \
                     g.channel = games.channel AND g.status IN ('active', 'damaged'))",
                    args![*id, report, now],
                )?;
            }
            Ok(())
        });
        match r {
            Err(StoreError::ReadOnly) => Ok(()),
            other => other,
        }
    }

    /// Sets games aside as damaged. On a read-only file, or one too damaged to write, the
    /// verdict stays in memory only (logged).
    pub(super) fn mark_damaged(&self, games: &[(GameId, String)]) -> Result<()> {
        let now = now_ms();
        let r = self.db.write(|tx| {
            for (id, report) in games {
                tx.execute(
                    "UPDATE games SET status = 'damaged', damage_report = $2, updated_at = $3 \
                     WHERE id = $1",
                    args![*id, report, now],
                )?;
            }
            Ok(())
        });
        match r {
            Err(StoreError::ReadOnly) => Ok(()),
            Err(e) if file_damage(&e) => {
                tracing::error!(error = %e, "cannot record damaged games in the file: they are set aside until the bot stops");
                Ok(())
            }
            other => other,
        }
    }
}

/// Whether an error is damage to what is stored, which a read game by game confines.
fn file_damage(e: &StoreError) -> bool {
    e.is_stored_damage()
}
