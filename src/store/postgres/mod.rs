//! The PostgreSQL backend of [`GameStore`]: the same games, log, snapshots, restore, board
//! images, outbox and reminders as the SQLite [`Store`](super::Store), and the rest of the
//! store the chat layer and the Discord adapter use, on a server that several bot processes
//! share. Only backups are SQLite's ([`super::backend::POSTGRES_MISSING`]).
//!
//! # Layout
//!
//! This file holds the pool, the transaction helpers ([`PgStore`]'s `write` and `read`), the
//! move's common tail, restore and the [`GameStore`] implementation; each other duty has the
//! module of its SQLite twin: `games` (creating games, seats, ending a game), `moves`
//! (a batch, `apply_at`), `seats`, `languages`, `shown`, `lobbies`, `campaigns`, `discord`, `admin`,
//! `export`, `migrate`. What both backends decide the same way (a move, an undo, a rollback,
//! an export's document and an import's replay) is the shared pure code of the SQLite
//! modules; only the SQL differs.
//!
//! # Many processes, one database
//!
//! - A move is ONE transaction. It first locks the game's row (`SELECT … FOR UPDATE`: per-game
//!   work of other processes waits) and checks that the game is still as this process saw it
//!   (the same rule as SQLite's `moves::check_unchanged`); a game that changed is refused
//!   (`Changed`, nothing written) and reloaded, so the caller retries against the fresh state.
//!   The log's primary key (game, sequence number) is the second guard: two writers can never
//!   both store move N of a game (the loser's INSERT fails: `Conflict`).
//! - Reminders and queued messages are claimed with `FOR UPDATE SKIP LOCKED`: one process gets
//!   each, for a lease (a reminder's due time moves on, a message gets `claimed_until`), so a
//!   process that dies mid-way leaves them to be claimed again, not lost.
//! - Blocking client: call it from blocking threads only (as [`GameHub`](super::GameHub) does),
//!   never from an async task (the client runs its own runtime and panics inside another).
//!
//! # Connections
//!
//! A small fixed pool of connections, each with its own cache of prepared statements (a move
//! is a handful of round trips over the socket, no re-parsing), opened on first need. A
//! connection that broke is replaced on its next use. `lock_timeout` is the store's
//! `busy_timeout`: a row lock held too long makes the move fail with `Busy` (nothing written).
//!
//! Durability follows the store's [`Synchronous`] setting, as on SQLite. `Normal` (the default)
//! is `synchronous_commit = off`: a commit returns once it is in the server's WAL buffers,
//! which the server writes out within a fraction of a second. Nothing is lost when the bot
//! dies (its commits are the server's), nor ever corrupted; a crash of the database server's
//! machine may roll back the last moves before it, each game still whole — SQLite's NORMAL
//! promise. `Full` is `synchronous_commit = on`: every commit waits for its WAL flush (on the
//! reference VM that flush is most of a move's time: `cargo bench --bench store`).

mod admin;
mod campaigns;
mod discord;
mod export;
mod games;
mod languages;
mod lobbies;
mod migrate;
mod moves;
mod seats;
mod shown;

pub use migrate::PG_MIGRATIONS;

use super::backend::{redact_url, Backend, CampaignOptions, GameStore};
use super::error::{Result, StoreError};
use super::live::{Live, LiveSet};
use super::moves::{
    entry_from_row, entry_values, prepare_undo, unchanged_verdict, Verdict, ENTRY_COLUMNS,
};
use super::outbox::{due_reminders_sql, unsent_sql};
use super::replay::History;
use super::restore::{restore_into, restore_raw, RawGame, Restored};
use super::shards;
use super::{
    fire, from_db, json, lock, now_ms, replay, to_db, FailPoint, GameId, GameRecord, GameStatus,
    Location, LogEntry, MoveEffects, MoveOutcome, NewGame, Outbound, Reminder, RestoreReport,
    SeatRecord, StoreOptions, Synchronous, UndoOutcome,
};
use super::{
    ArchiveReason, CampaignId, CampaignRecord, CampaignStatus, ChapterWrite, GameExport, IdleWatch,
    Notify, RollbackOutcome, SeatOwner, StatusMessage, UserSettings,
};
use crate::data::GameData;
use crate::engine::{Decision, Event, GameOptions, GameState, ENGINE_VERSION};
use postgres::error::SqlState;
use postgres::types::ToSql;
use postgres::{Client, NoTls, Row, Statement};
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Connections per store: enough for moves of different games in parallel on a few cores.
const POOL_SIZE: usize = 8;

/// Games read per round trip at start-up.
const RESTORE_CHUNK: usize = 500;

/// Connections reading the games at start-up: while the server answers one chunk, this
/// process decodes another (one reader left the server and the decoding waiting on each
/// other: 8 s to read 10,000 games for 3 s of processor time).
const RESTORE_READERS: usize = 2;

const GAME_COLUMNS: &str =
    "id, guild, channel, status, options, seed, seat_names, engine_version, \
     data_hash, last_seq, damage_report, created_at, updated_at";

/// One pooled connection and its prepared statements.
struct PgConn {
    client: Client,
    statements: HashMap<String, Statement>,
}

/// A transaction on a pooled connection, preparing each statement once per connection.
struct Db<'a> {
    tx: postgres::Transaction<'a>,
    statements: &'a mut HashMap<String, Statement>,
}

type Params<'p> = &'p [&'p (dyn ToSql + Sync)];

impl Db<'_> {
    fn statement(&mut self, sql: &str) -> Result<Statement> {
        if let Some(s) = self.statements.get(sql) {
            return Ok(s.clone());
        }
        let s = self.tx.prepare(sql)?;
        self.statements.insert(sql.to_string(), s.clone());
        Ok(s)
    }

    fn execute(&mut self, sql: &str, params: Params<'_>) -> Result<u64> {
        let s = self.statement(sql)?;
        Ok(self.tx.execute(&s, params)?)
    }

    fn query(&mut self, sql: &str, params: Params<'_>) -> Result<Vec<Row>> {
        let s = self.statement(sql)?;
        Ok(self.tx.query(&s, params)?)
    }

    fn query_opt(&mut self, sql: &str, params: Params<'_>) -> Result<Option<Row>> {
        let s = self.statement(sql)?;
        Ok(self.tx.query_opt(&s, params)?)
    }
}

/// The PostgreSQL store.
pub struct PgStore {
    config: postgres::Config,
    /// The server for messages, without user name or password.
    target: String,
    data: Arc<GameData>,
    options: StoreOptions,
    pool: Vec<Mutex<Option<PgConn>>>,
    next_slot: AtomicUsize,
    live: LiveSet,
    fail: Mutex<Option<FailPoint>>,
}

/// The blocking client closes a connection by blocking on its own runtime, which panics on an
/// async worker thread: a store whose last handle goes there (e.g. with a Discord client's
/// task) closes its connections on a thread of their own.
impl Drop for PgStore {
    fn drop(&mut self) {
        if tokio::runtime::Handle::try_current().is_err() {
            return;
        }
        let open: Vec<PgConn> = self
            .pool
            .iter_mut()
            .filter_map(|slot| slot.get_mut().unwrap_or_else(|e| e.into_inner()).take())
            .collect();
        if !open.is_empty() {
            let _ = std::thread::Builder::new()
                .name("pg-close".to_string())
                .spawn(move || drop(open));
        }
    }
}

impl std::fmt::Debug for PgStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PgStore")
            .field("target", &self.target)
            .field("live_games", &self.live.len())
            .finish_non_exhaustive()
    }
}

fn db_u64(row: &Row, i: usize) -> Result<u64> {
    Ok(from_db(row.try_get::<_, i64>(i)?))
}

impl PgStore {
    /// Connects to the server at `url` (`postgres://…`), applies pending migrations and
    /// restores every active game, as [`Store::open`](super::Store::open) does for a file.
    pub fn open(
        url: &str,
        data: Arc<GameData>,
        options: StoreOptions,
    ) -> Result<(PgStore, RestoreReport)> {
        let started = Instant::now();
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
        let mut options = options;
        options.snapshot_every = options.snapshot_every.max(1);
        let store = PgStore {
            config,
            target,
            data,
            options,
            pool: (0..POOL_SIZE).map(|_| Mutex::new(None)).collect(),
            next_slot: AtomicUsize::new(0),
            live: LiveSet::default(),
            fail: Mutex::new(None),
        };
        let (from, to) = {
            let mut conn = store.conn()?;
            let c = conn.as_mut().ok_or_else(|| store.lost())?;
            migrate::migrate(&mut c.client, &store.target)?
        };
        let mut report = store.restore_all()?;
        report.schema_from = from;
        report.schema = to;
        report.elapsed = started.elapsed();
        Ok((store, report))
    }

    pub fn options(&self) -> &StoreOptions {
        &self.options
    }

    /// The server, for messages (no user name or password).
    pub fn target(&self) -> &str {
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
        let synchronous_commit = match self.options.synchronous {
            Synchronous::Normal => "off",
            Synchronous::Full => "on",
        };
        client
            .batch_execute(&format!(
                "SET lock_timeout = '{}ms'; SET synchronous_commit = {synchronous_commit}",
                self.options.busy_timeout.as_millis()
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
    fn write<T>(&self, f: impl FnOnce(&mut Db<'_>) -> Result<T>) -> Result<T> {
        let mut guard = self.conn()?;
        let conn = guard.as_mut().ok_or_else(|| self.lost())?;
        let tx = conn.client.transaction()?;
        let mut db = Db {
            tx,
            statements: &mut conn.statements,
        };
        let value = f(&mut db)?;
        db.tx.commit()?;
        Ok(value)
    }

    /// Runs `f` in one read-only REPEATABLE READ transaction: all its statements see the same
    /// committed state (a game read half before and half after another process's move would
    /// look damaged).
    fn read<T>(&self, f: impl FnOnce(&mut Db<'_>) -> Result<T>) -> Result<T> {
        let mut guard = self.conn()?;
        let conn = guard.as_mut().ok_or_else(|| self.lost())?;
        let tx = conn
            .client
            .build_transaction()
            .isolation_level(postgres::IsolationLevel::RepeatableRead)
            .read_only(true)
            .start()?;
        let mut db = Db {
            tx,
            statements: &mut conn.statements,
        };
        let value = f(&mut db)?;
        db.tx.commit()?;
        Ok(value)
    }

    fn hit(&self, at: FailPoint) -> Result<()> {
        fire(&self.fail, at)
    }

    fn restore_all(&self) -> Result<RestoreReport> {
        let ids: Vec<GameId> = self.read(|db| {
            Ok(db
                .query(
                    &format!(
                        "SELECT id FROM games WHERE status = 'active' AND {} ORDER BY id",
                        shards::condition(self.options.shards, "guild")
                    ),
                    &[],
                )?
                .iter()
                .map(|r| r.try_get(0))
                .collect::<std::result::Result<_, _>>()?)
        })?;
        let report = restore_into(
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
                                let games = self.read(|db| read_raw_games(db, chunk));
                                let failed = games.is_err();
                                // A closed channel: the restore stopped (an error, no workers).
                                if tx.send(games).is_err() || failed {
                                    return;
                                }
                            }
                        });
                    }
                    drop(tx);
                    for games in rx {
                        for (id, raw) in games? {
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
        Ok(report)
    }

    fn mark_damaged(&self, games: &[(GameId, String)]) -> Result<()> {
        let now = now_ms();
        self.write(|db| {
            for (id, report) in games {
                db.execute(
                    "UPDATE games SET status = 'damaged', damage_report = $2, updated_at = $3 WHERE id = $1",
                    &[id, report, &now],
                )?;
            }
            Ok(())
        })
    }

    /// Loads one active game that is not in memory (created or moved by another process).
    fn load_live(&self, game: GameId) -> Result<Arc<Mutex<Live>>> {
        let rec = self.read(|db| read_game(db, game))?;
        match rec.status {
            GameStatus::Active => {}
            GameStatus::Damaged => {
                return Err(StoreError::Damaged {
                    game,
                    report: rec.damage_report.unwrap_or_default(),
                })
            }
            status => return Err(StoreError::NotActive { game, status }),
        }
        let raw = self
            .read(|db| read_raw_games(db, &[game]))?
            .pop()
            .map(|(_, raw)| raw)
            .ok_or(StoreError::NoSuchGame(game))?;
        let verdict = match raw {
            Ok(raw) => match restore_raw(&self.data, &raw, self.options.verify_on_restore) {
                Restored::Ok { state, .. } => {
                    return Ok(self.live.insert_loaded(
                        game,
                        *state,
                        raw.record.seq,
                        self.options.visiting(&raw.record),
                    ))
                }
                Restored::Damaged(report) => report,
            },
            Err(StoreError::Corrupt { message, .. }) => message,
            Err(e) => return Err(e),
        };
        self.mark_damaged(&[(game, verdict.clone())])?;
        Err(StoreError::Damaged {
            game,
            report: verdict,
        })
    }

    fn with_live<T>(&self, game: GameId, f: impl FnMut(&mut Live) -> Result<T>) -> Result<T> {
        self.live.with(game, || self.load_live(game), f)
    }

    /// The move's common tail: the row lock and the check that the game is unchanged
    /// (`verdict` on the locked row), then the log entry (its number unique per game).
    fn lock_and_append(
        &self,
        db: &mut Db<'_>,
        game: GameId,
        seen: u64,
        verdict: Verdict,
        entry: &LogEntry,
    ) -> Result<()> {
        let row = db
            .query_opt(
                "SELECT status, last_seq, paused_at FROM games WHERE id = $1 FOR UPDATE",
                &[&game],
            )?
            .map(|r| -> Result<_> { Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?)) })
            .transpose()?;
        verdict(game, seen, row)?;
        insert_entry(db, game, entry)?;
        self.hit(FailPoint::AfterDecisions)
    }

    /// The snapshot (and pruning), image row and effects of a move, with the fail points.
    fn write_state(
        &self,
        db: &mut Db<'_>,
        game: GameId,
        seq: u64,
        snapshot: Option<&str>,
        fx: &MoveEffects,
        now: i64,
    ) -> Result<()> {
        if let Some(state) = snapshot {
            db.execute(
                "INSERT INTO snapshots (game_id, seq, engine_version, state, at) VALUES ($1, $2, $3, $4, $5)",
                &[&game, &to_db(seq), &i64::from(ENGINE_VERSION), &state, &now],
            )?;
            let window = self.options.snapshot_window;
            if window > 0 && seq > window {
                db.execute(
                    "DELETE FROM snapshots WHERE game_id = $1 AND seq > 0 AND seq < $2",
                    &[&game, &to_db(seq - window)],
                )?;
            }
        }
        self.hit(FailPoint::AfterSnapshot)?;
        db.execute(
            "INSERT INTO board_images (game_id, version) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            &[&game, &to_db(seq)],
        )?;
        for payload in &fx.notifications {
            db.execute(
                "INSERT INTO outbox (game_id, payload, created_at) VALUES ($1, $2, $3)",
                &[&game, &json(payload), &now],
            )?;
        }
        if let Some(reminders) = &fx.reminders {
            db.execute("DELETE FROM reminders WHERE game_id = $1", &[&game])?;
            for (seat, kind, due) in reminders {
                db.execute(UPSERT_REMINDER, &[&game, &(*seat as i64), kind, due])?;
            }
        }
        Ok(())
    }
}

const UPSERT_REMINDER: &str =
    "INSERT INTO reminders (game_id, seat, kind, due_at) VALUES ($1, $2, $3, $4) \
     ON CONFLICT (game_id, seat, kind) DO UPDATE SET due_at = EXCLUDED.due_at";

fn insert_entry(db: &mut Db<'_>, game: GameId, entry: &LogEntry) -> Result<()> {
    let (kind, seat, decisions, undoes, at, back_to, by) = entry_values(entry);
    let r = db.execute(
        "INSERT INTO moves (game_id, seq, kind, seat, decisions, undoes, at, back_to, by_user) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        &[
            &game,
            &to_db(entry.seq()),
            &kind,
            &seat,
            &decisions,
            &undoes,
            &at,
            &back_to,
            &by,
        ],
    );
    match r {
        Err(StoreError::Postgres(e)) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => {
            Err(StoreError::Conflict(game))
        }
        other => other.map(|_| ()),
    }
}

fn game_from_row(row: &Row) -> Result<GameRecord> {
    let id: GameId = row.try_get(0)?;
    let corrupt = |message: String| StoreError::Corrupt { game: id, message };
    let status_text: String = row.try_get(3)?;
    let status = GameStatus::parse(&status_text)
        .ok_or_else(|| corrupt(format!("unknown status `{status_text}`")))?;
    let options: std::result::Result<GameOptions, _> =
        serde_json::from_str(&row.try_get::<_, String>(4)?);
    let seat_names: std::result::Result<Vec<String>, _> =
        serde_json::from_str(&row.try_get::<_, String>(6)?);
    let (options, seat_names) = match (options, seat_names) {
        (Ok(o), Ok(n)) => (o, n),
        // A game set aside as damaged is still listed with what of its row reads.
        _ if status == GameStatus::Damaged => Default::default(),
        (Err(e), _) => return Err(corrupt(format!("options: {e}"))),
        (_, Err(e)) => return Err(corrupt(format!("seat names: {e}"))),
    };
    Ok(GameRecord {
        id,
        location: Location {
            guild: row.try_get::<_, Option<i64>>(1)?.map(from_db),
            channel: db_u64(row, 2)?,
        },
        status,
        options,
        seed: db_u64(row, 5)?,
        seat_names,
        engine_version: u32::try_from(row.try_get::<_, i64>(7)?).unwrap_or(u32::MAX),
        data_hash: row.try_get(8)?,
        seq: db_u64(row, 9)?,
        damage_report: row.try_get(10)?,
        created_at: row.try_get(11)?,
        updated_at: row.try_get(12)?,
    })
}

fn read_game(db: &mut Db<'_>, game: GameId) -> Result<GameRecord> {
    let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
    let row = db
        .query_opt(&sql, &[&game])?
        .ok_or(StoreError::NoSuchGame(game))?;
    game_from_row(&row)
}

fn entry_from_pg(game: GameId, r: &Row) -> Result<LogEntry> {
    entry_from_row(
        game,
        (
            r.try_get(0)?,
            r.try_get(1)?,
            r.try_get(2)?,
            r.try_get(3)?,
            r.try_get(4)?,
            r.try_get(5)?,
            r.try_get(6)?,
            r.try_get(7)?,
        ),
    )
}

fn read_log(db: &mut Db<'_>, game: GameId) -> Result<Vec<LogEntry>> {
    let sql = format!("SELECT {ENTRY_COLUMNS} FROM moves WHERE game_id = $1 ORDER BY seq");
    db.query(&sql, &[&game])?
        .iter()
        .map(|r| entry_from_pg(game, r))
        .collect()
}

fn snapshot_seqs(db: &mut Db<'_>, game: GameId) -> Result<Vec<u64>> {
    db.query("SELECT seq FROM snapshots WHERE game_id = $1", &[&game])?
        .iter()
        .map(|r| db_u64(r, 0))
        .collect()
}

fn read_snapshot(db: &mut Db<'_>, game: GameId, seq: u64) -> Result<String> {
    db.query_opt(
        "SELECT state FROM snapshots WHERE game_id = $1 AND seq = $2",
        &[&game, &to_db(seq)],
    )?
    .map(|r| r.try_get(0))
    .transpose()?
    .ok_or_else(|| StoreError::Corrupt {
        game,
        message: format!("the snapshot of move {seq} is missing"),
    })
}

/// Everything start-up needs of the games `ids`, in four round trips whatever their number:
/// the rows, the logs, the snapshot numbers, then the usable snapshot of each.
fn read_raw_games(db: &mut Db<'_>, ids: &[GameId]) -> Result<Vec<(GameId, Result<RawGame>)>> {
    let ids = ids.to_vec();
    let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ANY($1) ORDER BY id");
    let records: Vec<(GameId, Result<GameRecord>)> = db
        .query(&sql, &[&ids])?
        .iter()
        .map(|r| Ok((r.try_get(0)?, game_from_row(r))))
        .collect::<Result<_>>()?;
    let sql = format!(
        "SELECT {ENTRY_COLUMNS}, game_id FROM moves WHERE game_id = ANY($1) ORDER BY game_id, seq"
    );
    let mut logs: HashMap<GameId, Result<Vec<LogEntry>>> = HashMap::new();
    for r in db.query(&sql, &[&ids])? {
        let game: GameId = r.try_get(8)?;
        let entry = entry_from_pg(game, &r);
        let log = logs.entry(game).or_insert_with(|| Ok(Vec::new()));
        match (log, entry) {
            (Ok(list), Ok(e)) => list.push(e),
            (log @ Ok(_), Err(e)) => *log = Err(e),
            (Err(_), _) => {}
        }
    }
    let mut snaps: HashMap<GameId, Vec<u64>> = HashMap::new();
    for r in db.query(
        "SELECT game_id, seq FROM snapshots WHERE game_id = ANY($1)",
        &[&ids],
    )? {
        snaps.entry(r.try_get(0)?).or_default().push(db_u64(&r, 1)?);
    }
    let mut out = Vec::new();
    let (mut wanted_games, mut wanted_seqs) = (Vec::new(), Vec::new());
    for (id, record) in records {
        let raw = record.and_then(|record| {
            let entries = logs.remove(&id).unwrap_or_else(|| Ok(Vec::new()))?;
            let at = replay::usable_snapshot(snaps.get(&id).map_or(&[][..], |s| s), &entries)
                .ok_or(StoreError::Corrupt {
                    game: id,
                    message: "no usable snapshot".to_string(),
                })?;
            wanted_games.push(id);
            wanted_seqs.push(to_db(at));
            Ok(RawGame {
                record,
                entries,
                snapshot_seq: at,
                snapshot: String::new(),
            })
        });
        out.push((id, raw));
    }
    let mut states: HashMap<GameId, String> = HashMap::new();
    for r in db.query(
        "SELECT s.game_id, s.state FROM snapshots s \
         JOIN unnest($1::BIGINT[], $2::BIGINT[]) AS w (game_id, seq) \
         ON s.game_id = w.game_id AND s.seq = w.seq",
        &[&wanted_games, &wanted_seqs],
    )? {
        states.insert(r.try_get(0)?, r.try_get(1)?);
    }
    for (id, raw) in &mut out {
        if let Ok(game) = raw {
            match states.remove(id) {
                Some(s) => game.snapshot = s,
                None => {
                    *raw = Err(StoreError::Corrupt {
                        game: *id,
                        message: format!("the snapshot of move {} is missing", game.snapshot_seq),
                    })
                }
            }
        }
    }
    Ok(out)
}

fn reminder_from_row(r: &Row) -> Result<Reminder> {
    Ok(Reminder {
        game: r.try_get(0)?,
        seat: r.try_get::<_, i64>(1)? as usize,
        kind: r.try_get(2)?,
        due_at: r.try_get(3)?,
    })
}

impl GameStore for PgStore {
    fn backend(&self) -> Backend {
        Backend::Postgres
    }

    fn data(&self) -> &Arc<GameData> {
        &self.data
    }

    fn create_game(&self, new: NewGame) -> Result<(GameId, Arc<GameState>)> {
        self.create_game_and(new, |_, _| Ok(()))
    }

    fn apply_with(
        &self,
        game: GameId,
        seat: usize,
        decisions: &[Decision],
        effects: &dyn Fn(&GameState, &[Event]) -> MoveEffects,
    ) -> Result<MoveOutcome> {
        self.apply_checked(game, seat, decisions, None, effects)
    }

    fn undo_with(
        &self,
        game: GameId,
        seat: usize,
        effects: &dyn Fn(&GameState) -> MoveEffects,
    ) -> Result<UndoOutcome> {
        self.with_live(game, |live| {
            if seat >= live.state.seats.len() {
                return Err(StoreError::NoSuchSeat(seat));
            }
            // The log, the snapshot numbers and the base snapshot from one consistent view.
            let u = self.read(|db| {
                let log = (read_log(db, game)?, snapshot_seqs(db, game)?);
                prepare_undo(
                    &self.data,
                    game,
                    seat,
                    live,
                    log,
                    |base| read_snapshot(db, game, base),
                    effects,
                )
            })?;
            let seq = u.record.seq();
            let now = now_ms();
            self.write(|db| {
                self.lock_and_append(db, game, seq - 1, unchanged_verdict, &u.record)?;
                self.write_state(db, game, seq, Some(&u.snapshot), &u.fx, now)?;
                db.execute(
                    "UPDATE games SET last_seq = $2, updated_at = $3 WHERE id = $1",
                    &[&game, &to_db(seq), &now],
                )?;
                self.hit(FailPoint::BeforeCommit)
            })
            .inspect_err(|e| {
                if matches!(e, StoreError::Conflict(_) | StoreError::Changed(_)) {
                    self.live.evict(game, live);
                }
            })?;
            Ok(u.commit_to(live))
        })
    }

    fn live_state(&self, game: GameId) -> Result<(Arc<GameState>, u64)> {
        self.with_live(game, |live| Ok((live.state.clone(), live.seq)))
    }

    fn state(&self, game: GameId) -> Result<Arc<GameState>> {
        match self.with_live(game, |live| Ok(live.state.clone())) {
            Err(StoreError::NotActive { .. }) => {}
            other => return other,
        }
        let (_, raw) = self
            .read(|db| read_raw_games(db, &[game]))?
            .pop()
            .ok_or(StoreError::NoSuchGame(game))?;
        match restore_raw(&self.data, &raw?, false) {
            Restored::Ok { state, .. } => Ok(Arc::new(*state)),
            Restored::Damaged(report) => Err(StoreError::Corrupt {
                game,
                message: report,
            }),
        }
    }

    fn live_games(&self) -> Vec<GameId> {
        self.live.ids()
    }

    fn game(&self, game: GameId) -> Result<GameRecord> {
        self.read(|db| read_game(db, game))
    }

    fn game_in_channel(&self, channel: u64) -> Result<Option<GameId>> {
        self.read(|db| {
            db.query_opt(
                "SELECT id FROM games WHERE channel = $1 AND status IN ('active', 'damaged')",
                &[&to_db(channel)],
            )?
            .map(|r| r.try_get(0))
            .transpose()
            .map_err(StoreError::from)
        })
    }

    fn seats(&self, game: GameId) -> Result<Vec<SeatRecord>> {
        self.read(|db| games::read_seats(db, game))
    }

    fn log(&self, game: GameId) -> Result<Vec<LogEntry>> {
        self.read(|db| read_log(db, game))
    }

    fn last_entry(&self, game: GameId) -> Result<Option<LogEntry>> {
        self.read(|db| {
            let sql = format!(
                "SELECT {ENTRY_COLUMNS} FROM moves WHERE game_id = $1 ORDER BY seq DESC LIMIT 1"
            );
            db.query_opt(&sql, &[&game])?
                .map(|r| entry_from_pg(game, &r))
                .transpose()
        })
    }

    fn abandon(&self, game: GameId) -> Result<()> {
        self.set_aside(game, GameStatus::Abandoned, None)
    }

    fn queue_notification(&self, game: Option<GameId>, payload: &serde_json::Value) -> Result<i64> {
        let now = now_ms();
        self.write(|db| {
            Ok(db
                .query_opt(
                    "INSERT INTO outbox (game_id, payload, created_at) VALUES ($1, $2, $3) RETURNING id",
                    &[&game, &payload.to_string(), &now],
                )?
                .ok_or_else(|| self.lost())?
                .try_get(0)?)
        })
    }

    fn claim_notifications(&self, limit: usize, lease: Duration) -> Result<Vec<Outbound>> {
        let now = now_ms();
        let until = now + lease.as_millis() as i64;
        let sql = format!(
            "UPDATE outbox SET claimed_until = $1 WHERE id IN ( \
             SELECT o.id FROM {} AND (o.claimed_until IS NULL OR o.claimed_until <= $2) \
             ORDER BY o.id LIMIT $3 FOR UPDATE OF o SKIP LOCKED) \
             RETURNING id, game_id, payload, created_at",
            unsent_sql(self.options.shards)
        );
        let mut out: Vec<Outbound> = self.write(|db| {
            db.query(&sql, &[&until, &now, &(limit as i64)])?
                .iter()
                .map(|r| {
                    let payload: String = r.try_get(2)?;
                    Ok(Outbound {
                        id: r.try_get(0)?,
                        game: r.try_get(1)?,
                        payload: serde_json::from_str(&payload)
                            .unwrap_or(serde_json::Value::String(payload)),
                        created_at: r.try_get(3)?,
                    })
                })
                .collect::<Result<_>>()
        })?;
        out.sort_by_key(|o| o.id);
        Ok(out)
    }

    fn mark_sent(&self, id: i64) -> Result<()> {
        let now = now_ms();
        self.write(|db| {
            db.execute(
                "UPDATE outbox SET sent = 1, sent_at = $2 WHERE id = $1",
                &[&id, &now],
            )?;
            Ok(())
        })
    }

    fn set_reminder(&self, game: GameId, seat: usize, kind: &str, due_at: i64) -> Result<()> {
        self.write(|db| {
            db.execute(UPSERT_REMINDER, &[&game, &(seat as i64), &kind, &due_at])?;
            Ok(())
        })
    }

    fn reminders(&self, game: GameId) -> Result<Vec<Reminder>> {
        self.read(|db| {
            db.query(
                "SELECT game_id, seat, kind, due_at FROM reminders WHERE game_id = $1 ORDER BY seat, kind",
                &[&game],
            )?
            .iter()
            .map(reminder_from_row)
            .collect()
        })
    }

    fn claim_due_reminders(&self, now: i64, lease_ms: i64) -> Result<Vec<Reminder>> {
        let sql = format!(
            "UPDATE reminders SET due_at = $2 FROM ({} FOR UPDATE OF r SKIP LOCKED) d \
             WHERE reminders.game_id = d.game_id AND reminders.seat = d.seat AND reminders.kind = d.kind \
             RETURNING d.game_id, d.seat, d.kind, d.due_at",
            due_reminders_sql(self.options.shards)
        );
        let mut due: Vec<Reminder> = self.write(|db| {
            db.query(&sql, &[&now, &(now + lease_ms)])?
                .iter()
                .map(reminder_from_row)
                .collect::<Result<_>>()
        })?;
        due.sort_by_key(|r| (r.due_at, r.game, r.seat));
        Ok(due)
    }

    fn board_png(&self, game: GameId, version: u64) -> Result<Option<Vec<u8>>> {
        self.read(|db| {
            Ok(db
                .query_opt(
                    "SELECT png FROM board_images WHERE game_id = $1 AND version = $2",
                    &[&game, &to_db(version)],
                )?
                .map(|r| r.try_get::<_, Option<Vec<u8>>>(0))
                .transpose()?
                .flatten())
        })
    }

    fn store_board_png(&self, game: GameId, version: u64, png: &[u8]) -> Result<()> {
        let now = now_ms();
        self.write(|db| {
            db.execute(
                "INSERT INTO board_images (game_id, version, png, rendered_at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (game_id, version) DO UPDATE SET png = EXCLUDED.png, rendered_at = EXCLUDED.rendered_at",
                &[&game, &to_db(version), &png, &now],
            )?;
            Ok(())
        })
    }

    fn pending_renders(&self, limit: usize) -> Result<Vec<(GameId, u64)>> {
        self.read(|db| {
            db.query(
                "SELECT game_id, version FROM board_images WHERE png IS NULL ORDER BY game_id, version LIMIT $1",
                &[&(limit as i64)],
            )?
            .iter()
            .map(|r| Ok((r.try_get(0)?, db_u64(r, 1)?)))
            .collect()
        })
    }

    fn fail_next(&self, at: FailPoint) {
        *lock(&self.fail) = Some(at);
    }

    crate::store::backend::forward_store_surface!(PgStore);
}
