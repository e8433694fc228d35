//! The game log, its moves: reading and writing log entries (batches, undo records, rollback
//! records), and the two moves a seat makes: a batch of decisions ([`GameLog::apply_with`])
//! and an undo of its last batch ([`GameLog::undo_with`], DECISIONS B6). Each is ONE
//! transaction that first locks the game's row and checks the game is still as this process
//! saw it, then writes the log entry (its number unique per game: a concurrent writer's move
//! with the same number fails), the snapshot when due, the image row, the move's effects (its
//! notifications and what it implies for the schedule) and the game row; when the game ends,
//! what its end writes (`game_over`).

use super::error::{Result, StoreError};
use super::games::{lock_game, GameLog};
use super::integrity;
use super::live::Live;
use super::replay::{self, ReplayError};
use super::snapshots::{insert_snapshot, prune_snapshots, read_snapshot, snapshot_seqs};
use super::sql::{args, is_unique_violation, Row, Tx};
use super::{
    json, now_ms, FailPoint, GameId, LogEntry, MoveEffects, MoveOutcome, Store, UndoOutcome,
};
use crate::engine::{self, Decision, Event, GameState, Phase};
use std::collections::BTreeSet;
use std::sync::Arc;

/// What a move writes besides itself, worked out from the state before it, the state after it
/// and its events, without calling the store (see [`MoveEffects`]).
pub type Effects<'a> = &'a dyn Fn(&GameState, &GameState, &[Event]) -> MoveEffects;

/// What an undo writes besides itself, from the states before and after it.
pub type UndoEffects<'a> = &'a dyn Fn(&GameState, &GameState) -> MoveEffects;

/// A move without effects.
pub fn no_effects(_: &GameState, _: &GameState, _: &[Event]) -> MoveEffects {
    MoveEffects::default()
}

/// The columns of a log entry (the last its checksum, see [`integrity::entry_checksum`]).
pub(super) const ENTRY_COLUMNS: &str =
    "seq, kind, seat, decisions, undoes, at, back_to, by_user, checksum";

/// A log entry (of [`ENTRY_COLUMNS`]) of `game`: one that does not decode, or whose columns
/// no longer match their checksum, makes the game `Corrupt`.
pub(super) fn entry_from_row(game: GameId, r: &Row<'_>) -> Result<LogEntry> {
    let read = || -> Result<_> {
        Ok((
            r.u64(0)?,
            r.get::<String>(1)?,
            r.get::<i64>(2)?,
            r.get::<Option<String>>(3)?,
            r.opt_u64(4)?,
            r.get::<i64>(5)?,
            r.opt_u64(6)?,
            r.opt_u64(7)?,
            r.get::<Option<i64>>(8)?,
        ))
    };
    let (seq, kind, seat, decisions, undoes, at, back_to, by, checksum) =
        read().map_err(|e| e.decoding(game, "a move of the log"))?;
    let corrupt = |message: String| StoreError::Corrupt {
        game,
        message: format!("log entry {seq}: {message}"),
    };
    let columns = integrity::EntryColumns {
        seq,
        kind: &kind,
        seat,
        decisions: decisions.as_deref(),
        undoes,
        at,
        back_to,
        by,
    };
    // Rows written before the checksums came in carry none.
    if checksum.is_some_and(|c| c != integrity::entry_checksum(&columns)) {
        return Err(corrupt(
            "the row does not match its checksum: it was changed after it was written".to_string(),
        ));
    }
    let seat = usize::try_from(seat).map_err(|_| corrupt(format!("seat {seat}")))?;
    Ok(match (kind.as_str(), decisions, undoes) {
        ("batch", Some(d), None) => LogEntry::Batch {
            seq,
            seat,
            decisions: serde_json::from_str(&d).map_err(|e| corrupt(e.to_string()))?,
            at,
        },
        ("undo", None, Some(undoes)) => LogEntry::Undo {
            seq,
            seat,
            undoes,
            at,
        },
        ("rollback", None, None) => LogEntry::Rollback {
            seq,
            back_to: back_to.ok_or_else(|| corrupt("a rollback without its target".to_string()))?,
            by: by.unwrap_or(0),
            at,
        },
        _ => return Err(corrupt(format!("malformed `{kind}` entry"))),
    })
}

pub(super) fn read_log(tx: &mut Tx<'_>, game: GameId) -> Result<Vec<LogEntry>> {
    let sql = format!("SELECT {ENTRY_COLUMNS} FROM moves WHERE game_id = $1 ORDER BY seq");
    settle_log(tx.query(&sql, args![game], |r| log_row(game, r))?)
}

/// One row of a game's log: its number (as far as it reads) and its entry, or why the entry
/// does not read (`Corrupt`); an error of the database itself is the query's.
pub(super) fn log_row(game: GameId, r: &Row<'_>) -> Result<(u64, Result<LogEntry>)> {
    let seq = r.u64(0).unwrap_or(0);
    match entry_from_row(game, r) {
        Err(e @ StoreError::Corrupt { .. }) => Ok((seq, Err(e))),
        other => other.map(|entry| (seq, Ok(entry))),
    }
}

/// The first row of a log that does not read and that no later rollback went back before
/// (None: every row reads, or stands as a reverted batch: see [`settle_log`]).
fn first_unmended(rows: &[(u64, Result<LogEntry>)]) -> Option<usize> {
    let mut earliest = u64::MAX;
    let mut first = None;
    for (i, (seq, entry)) in rows.iter().enumerate().rev() {
        match entry {
            Ok(LogEntry::Rollback { back_to, .. }) => earliest = earliest.min(*back_to),
            Err(_) if earliest >= *seq => first = Some(i),
            _ => {}
        }
    }
    first
}

/// The entries of rows that all read or stand as reverted batches.
fn mended(rows: impl IntoIterator<Item = (u64, Result<LogEntry>)>) -> Vec<LogEntry> {
    rows.into_iter()
        .map(|(seq, entry)| {
            entry.unwrap_or(LogEntry::Batch {
                seq,
                seat: 0,
                decisions: Vec::new(),
                at: 0,
            })
        })
        .collect()
}

/// A game's log from its rows (in order). A row that does not read is harmless once a later
/// rollback went back before it (the rollback that mended the damaged game): it stands in the
/// log as a reverted batch of no decisions. Any other makes the game `Corrupt`.
pub(super) fn settle_log(rows: Vec<(u64, Result<LogEntry>)>) -> Result<Vec<LogEntry>> {
    match first_unmended(&rows) {
        Some(i) => match rows.into_iter().nth(i) {
            Some((_, Err(e))) => Err(e),
            _ => Err(StoreError::Invalid(
                "the log's rows changed while read".to_string(),
            )),
        },
        None => Ok(mended(rows)),
    }
}

/// A log as far as it reads: its entries up to the first row that does not read, that row's
/// number and why (None: every row reads), and how many rows it has.
pub(super) type LogPrefix = (Vec<LogEntry>, Option<(u64, String)>, u64);

/// A game's log as far as it reads (the admin's check): the entries before the first row that
/// does not decode or match its checksum (see [`settle_log`]), that row's number and why
/// (None: the whole log reads), and how many rows the log has.
pub(super) fn read_log_prefix(tx: &mut Tx<'_>, game: GameId) -> Result<LogPrefix> {
    let sql = format!("SELECT {ENTRY_COLUMNS} FROM moves WHERE game_id = $1 ORDER BY seq");
    let mut rows = tx.query(&sql, args![game], |r| log_row(game, r))?;
    let total = rows.len() as u64;
    let Some(i) = first_unmended(&rows) else {
        return Ok((mended(rows), None, total));
    };
    let bad = rows.split_off(i).into_iter().next();
    let why = match bad {
        Some((seq, Err(StoreError::Corrupt { message, .. }))) => (seq.max(i as u64 + 1), message),
        Some((seq, Err(e))) => (seq.max(i as u64 + 1), e.to_string()),
        _ => (i as u64 + 1, "the row does not read".to_string()),
    };
    Ok((mended(rows), Some(why), total))
}

/// Appends a log entry; another writer's entry with the same number first: `Conflict`.
pub(super) fn insert_entry(tx: &mut Tx<'_>, game: GameId, entry: &LogEntry) -> Result<()> {
    let (kind, seat, decisions, undoes, at, back_to, by) = match entry {
        LogEntry::Batch {
            seat,
            decisions,
            at,
            ..
        } => ("batch", *seat, Some(json(decisions)), None, *at, None, None),
        LogEntry::Undo {
            seat, undoes, at, ..
        } => ("undo", *seat, None, Some(*undoes), *at, None, None),
        LogEntry::Rollback {
            back_to, by, at, ..
        } => ("rollback", 0, None, None, *at, Some(*back_to), Some(*by)),
    };
    let checksum = integrity::entry_checksum(&integrity::EntryColumns {
        seq: entry.seq(),
        kind,
        seat: seat as i64,
        decisions: decisions.as_deref(),
        undoes,
        at,
        back_to,
        by,
    });
    let r = tx.execute(
        "INSERT INTO moves (game_id, seq, kind, seat, decisions, undoes, at, back_to, by_user, \
         checksum) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        args![
            game,
            entry.seq(),
            kind,
            seat,
            decisions.as_ref(),
            undoes,
            at,
            back_to,
            by,
            checksum
        ],
    );
    match r {
        Err(e) if is_unique_violation(&e) => Err(StoreError::Conflict(game)),
        other => other.map(|_| ()),
    }
}

/// The rule every move's transaction checks first, under the game's row lock: the stored game
/// is still the one this process saw — active, not paused, at move `seq`. Another process (or
/// connection) may have ended, paused or rolled it back, or moved in it, since it was loaded;
/// a move written then would bring an ended game back or build on a state that is gone, so it
/// is refused ([`StoreError::Changed`]) and nothing is written. A batch worked out at move
/// `seq` (`worked_out`: a computer player's, thought out without the game's lock) is refused
/// with [`StoreError::MovedOn`] when the game's last move is no longer `seq`.
pub(super) fn check_unchanged(
    tx: &mut Tx<'_>,
    game: GameId,
    seq: u64,
    worked_out: bool,
) -> Result<()> {
    match lock_game(tx, game)? {
        Some((_, last, _)) if worked_out && last != seq => Err(StoreError::MovedOn(game)),
        Some((status, last, None)) if status == "active" && last == seq => Ok(()),
        Some(_) => Err(StoreError::Changed(game)),
        None => Err(StoreError::NoSuchGame(game)),
    }
}

/// What a game's end writes in the transaction of the move that ends it (or of its
/// rollback): it waits on nobody, its reminders and deadlines go. (A finished game's result,
/// for records and ratings, is written here too once it is kept.)
pub(super) fn game_over(tx: &mut Tx<'_>, game: GameId) -> Result<()> {
    super::waits::end_waits(tx, game)
}

/// The move's effects, in its transaction: its notifications, and what it implies for the
/// schedule applied to `state` (the state it leads to).
fn write_effects(
    tx: &mut Tx<'_>,
    game: GameId,
    state: &GameState,
    fx: &MoveEffects,
    at: i64,
) -> Result<()> {
    for payload in &fx.notifications {
        tx.execute(
            "INSERT INTO outbox (game_id, payload, created_at) VALUES ($1, $2, $3)",
            args![game, &json(payload), at],
        )?;
    }
    if let Some(waits) = &fx.waits {
        super::waits::apply_waits(tx, game, state, waits)?;
    }
    Ok(())
}

impl Store {
    /// A stored state's snapshot (when one is given, with the pruning of older ones) and its
    /// image row, inside the caller's transaction.
    pub(super) fn write_state(
        &self,
        tx: &mut Tx<'_>,
        game: GameId,
        seq: u64,
        snapshot: Option<&str>,
        now: i64,
    ) -> Result<()> {
        if let Some(state) = snapshot {
            insert_snapshot(tx, game, seq, state, now)?;
            prune_snapshots(tx, game, seq, self.options.snapshot_window)?;
        }
        super::images::insert_image_row(tx, game, seq)
    }
}

/// A move worked out in memory, not yet stored: the new state, its events, the log entry, the
/// snapshot when due and what the caller derived from it.
struct PreparedMove {
    next: GameState,
    events: Vec<Event>,
    fx: MoveEffects,
    entry: LogEntry,
    finished: bool,
    /// The new state as JSON when a snapshot is due (every K moves, and when the game ends).
    snapshot: Option<String>,
}

/// Applies a batch to a copy of the live state with the engine (a rule error changes nothing)
/// and derives the effects from the result.
fn prepare_move(
    data: &crate::data::GameData,
    snapshot_every: u64,
    live: &Live,
    seat: usize,
    decisions: &[Decision],
    effects: Effects<'_>,
) -> Result<PreparedMove> {
    let mut next = (*live.state).clone();
    let events = engine::apply_batch(data, &mut next, seat, decisions)?;
    let fx = effects(&live.state, &next, &events);
    let seq = live.seq + 1;
    let finished = next.phase == Phase::Finished;
    let snapshot = (finished || seq.is_multiple_of(snapshot_every)).then(|| json(&next));
    let entry = LogEntry::Batch {
        seq,
        seat,
        decisions: decisions.to_vec(),
        at: now_ms(),
    };
    Ok(PreparedMove {
        next,
        events,
        fx,
        entry,
        finished,
        snapshot,
    })
}

/// The batch `/undo` of `seat` takes back (DECISIONS B6), by the log alone: the seat's last
/// batch in effect (`undone`: the batches that are not), provided no batch of another seat in
/// effect and no rollback lies after it. Whether that batch revealed something or passed the
/// turn is the engine's [`crate::engine::undo_barrier`], asked by the chat layer.
pub fn undo_target(entries: &[LogEntry], undone: &BTreeSet<u64>, seat: usize) -> Result<u64> {
    let target = entries
        .iter()
        .rev()
        .find(|e| {
            matches!(e, LogEntry::Batch { seat: s, seq, .. } if *s == seat && !undone.contains(seq))
        })
        .map(LogEntry::seq)
        .ok_or(StoreError::NothingToUndo { seat })?;
    let later_of_others = entries.iter().any(|e| match e {
        LogEntry::Batch { seat: s, seq, .. } => {
            *seq > target && *s != seat && !undone.contains(seq)
        }
        LogEntry::Rollback { seq, .. } => *seq > target,
        LogEntry::Undo { .. } => false,
    });
    if later_of_others {
        return Err(StoreError::UndoAfterOthers { seat });
    }
    Ok(target)
}

/// An undo worked out in memory: its record, the batch it reverts and the rebuilt state
/// (always stored as a snapshot).
struct PreparedUndo {
    next: GameState,
    record: LogEntry,
    undone: u64,
    fx: MoveEffects,
    snapshot: String,
}

/// Finds `seat`'s last batch not undone yet in `entries` (the whole log) and rebuilds the state
/// without it from the latest usable of `snapshots` (read with `read_snapshot`).
fn prepare_undo(
    data: &crate::data::GameData,
    game: GameId,
    seat: usize,
    live: &Live,
    (mut entries, snapshots): (Vec<LogEntry>, Vec<u64>),
    read_snapshot: impl FnOnce(u64) -> Result<String>,
    effects: UndoEffects<'_>,
) -> Result<PreparedUndo> {
    if seat >= live.state.seats.len() {
        return Err(StoreError::NoSuchSeat(seat));
    }
    let undone = replay::undone_set(&entries);
    let target = undo_target(&entries, &undone, seat)?;
    if entries
        .iter()
        .any(|e| matches!(e, LogEntry::Undo { undoes, .. } if *undoes == target))
    {
        // A rollback brought back a batch that was undone once; the log keeps one undo per
        // batch, so this one stays.
        return Err(StoreError::UndoBlocked(format!(
            "move {target} was undone once already, before a rollback brought it back"
        )));
    }
    let record = LogEntry::Undo {
        seq: live.seq + 1,
        seat,
        undoes: target,
        at: now_ms(),
    };
    entries.push(record.clone());
    let base = replay::usable_snapshot(&snapshots, &entries).ok_or(StoreError::Corrupt {
        game,
        message: "no usable snapshot".to_string(),
    })?;
    let base_json = read_snapshot(base)?;
    // The live state carries the game's current seat names.
    let names: Vec<String> = live.state.seats.iter().map(|s| s.name.clone()).collect();
    let base_state =
        replay::read_snapshot(&base_json, &names).map_err(|e| StoreError::Corrupt {
            game,
            message: format!("the snapshot of move {base}: {e}"),
        })?;
    let mut all_undone: BTreeSet<u64> = undone;
    all_undone.insert(target);
    let next = replay::replay_onto(
        data,
        base_state,
        entries.iter().filter(|e| e.seq() > base),
        &all_undone,
    )
    .map_err(|e: ReplayError| StoreError::UndoBlocked(e.to_string()))?;
    let fx = effects(&live.state, &next);
    let snapshot = json(&next);
    Ok(PreparedUndo {
        next,
        record,
        undone: target,
        fx,
        snapshot,
    })
}

/// When an entry was made (Unix ms).
pub(super) fn entry_at(entry: &LogEntry) -> i64 {
    match entry {
        LogEntry::Batch { at, .. } | LogEntry::Undo { at, .. } | LogEntry::Rollback { at, .. } => {
            *at
        }
    }
}

/// Whether a failed write means the stored game is not the one in memory (reloaded on next
/// use).
fn stale(e: &StoreError) -> bool {
    matches!(
        e,
        StoreError::Conflict(_) | StoreError::Changed(_) | StoreError::MovedOn(_)
    )
}

impl GameLog<'_> {
    /// Applies a batch of one seat's decisions and stores it, without effects: see
    /// [`GameLog::apply_with`].
    pub fn apply(&self, game: GameId, seat: usize, decisions: &[Decision]) -> Result<MoveOutcome> {
        self.apply_checked(game, seat, decisions, None, &no_effects)
    }

    /// Applies a batch atomically with the engine, then stores in ONE transaction the log
    /// entry, the snapshot when due, the image row, and the effects `effects` derives from the
    /// states before and after and the events (notifications, and what the move implies for
    /// the schedule). A rule error, or any failure to write, changes nothing. `effects` runs
    /// under the game's lock: it must not call the store.
    pub fn apply_with(
        &self,
        game: GameId,
        seat: usize,
        decisions: &[Decision],
        effects: Effects<'_>,
    ) -> Result<MoveOutcome> {
        self.apply_checked(game, seat, decisions, None, effects)
    }

    /// [`GameLog::apply_with`] of decisions worked out on the game at move `seq` (a computer
    /// player's turn, thought out without the game's lock): refused with
    /// [`StoreError::MovedOn`], nothing written, when the game has moved on since — in this
    /// process, or in another one (checked under the game's row lock).
    pub fn apply_at(
        &self,
        game: GameId,
        seat: usize,
        decisions: &[Decision],
        seq: u64,
        effects: Effects<'_>,
    ) -> Result<MoveOutcome> {
        self.apply_checked(game, seat, decisions, Some(seq), effects)
    }

    fn apply_checked(
        &self,
        game: GameId,
        seat: usize,
        decisions: &[Decision],
        expected: Option<u64>,
        effects: Effects<'_>,
    ) -> Result<MoveOutcome> {
        let store = self.0;
        store.with_live(game, |live| {
            if expected.is_some_and(|seq| seq != live.seq) {
                return Err(StoreError::MovedOn(game));
            }
            let m = prepare_move(
                &store.data,
                store.options.snapshot_every,
                live,
                seat,
                decisions,
                effects,
            )?;
            let (seq, now) = (m.entry.seq(), entry_at(&m.entry));
            let result = store.db.write(|tx| {
                check_unchanged(tx, game, live.seq, expected.is_some())?;
                insert_entry(tx, game, &m.entry)?;
                store.hit(FailPoint::AfterDecisions)?;
                store.write_state(tx, game, seq, m.snapshot.as_deref(), now)?;
                store.hit(FailPoint::AfterSnapshot)?;
                write_effects(tx, game, &m.next, &m.fx, now)?;
                let status = if m.finished { "finished" } else { "active" };
                tx.execute(
                    "UPDATE games SET last_seq = $2, updated_at = $3, status = $4 WHERE id = $1",
                    args![game, seq, now, status],
                )?;
                if m.finished {
                    game_over(tx, game)?;
                }
                store.hit(FailPoint::BeforeCommit)
            });
            if let Err(e) = result {
                if stale(&e) {
                    store.live.evict(game, live);
                }
                return Err(e);
            }
            let finished = m.finished;
            let outcome = commit_move(m, live);
            if finished {
                store.live.evict(game, live);
            }
            Ok(outcome)
        })
    }

    /// Reverts `seat`'s last batch that is not undone yet, without effects: see
    /// [`GameLog::undo_with`].
    pub fn undo(&self, game: GameId, seat: usize) -> Result<UndoOutcome> {
        self.undo_with(game, seat, &|_, _| MoveEffects::default())
    }

    /// Appends an undo record for `seat`'s last batch not undone yet and stores the rebuilt
    /// state as a snapshot, with the effects `effects` derives from the states before and
    /// after, in one transaction. Whether the seat may undo now is the chat layer's call; here
    /// it fails only when later moves of others no longer apply without it (`UndoBlocked`) or
    /// there is nothing to undo.
    pub fn undo_with(
        &self,
        game: GameId,
        seat: usize,
        effects: UndoEffects<'_>,
    ) -> Result<UndoOutcome> {
        let store = self.0;
        store.with_live(game, |live| {
            if seat >= live.state.seats.len() {
                return Err(StoreError::NoSuchSeat(seat));
            }
            // The log, the snapshot numbers and the base snapshot from one consistent view.
            let u = store.db.read(|tx| {
                let log = (read_log(tx, game)?, snapshot_seqs(tx, game)?);
                prepare_undo(
                    &store.data,
                    game,
                    seat,
                    live,
                    log,
                    |base| read_snapshot(tx, game, base),
                    effects,
                )
            })?;
            let (seq, now) = (u.record.seq(), entry_at(&u.record));
            store
                .db
                .write(|tx| {
                    check_unchanged(tx, game, seq - 1, false)?;
                    insert_entry(tx, game, &u.record)?;
                    store.hit(FailPoint::AfterDecisions)?;
                    store.write_state(tx, game, seq, Some(&u.snapshot), now)?;
                    store.hit(FailPoint::AfterSnapshot)?;
                    write_effects(tx, game, &u.next, &u.fx, now)?;
                    tx.execute(
                        "UPDATE games SET last_seq = $2, updated_at = $3 WHERE id = $1",
                        args![game, seq, now],
                    )?;
                    store.hit(FailPoint::BeforeCommit)
                })
                .inspect_err(|e| {
                    if stale(e) {
                        store.live.evict(game, live);
                    }
                })?;
            let state = Arc::new(u.next);
            live.state = state.clone();
            live.seq = seq;
            Ok(UndoOutcome {
                seq,
                undone: u.undone,
                state,
            })
        })
    }

    /// A game's whole log.
    pub fn log(&self, game: GameId) -> Result<Vec<LogEntry>> {
        self.0.db.read(|tx| read_log(tx, game))
    }

    /// The last log entry of a game.
    pub fn last_entry(&self, game: GameId) -> Result<Option<LogEntry>> {
        let sql = format!(
            "SELECT {ENTRY_COLUMNS} FROM moves WHERE game_id = $1 ORDER BY seq DESC LIMIT 1"
        );
        self.0
            .db
            .read(|tx| tx.query_opt(&sql, args![game], |r| entry_from_row(game, r)))
    }

    /// The last log sequence number of a game and the last one of `seat`'s own entries
    /// (batches and undo records; 0 where there is none).
    pub fn log_marks(&self, game: GameId, seat: usize) -> Result<(u64, u64)> {
        self.0.db.read(|tx| {
            tx.query_one(
                "SELECT COALESCE(MAX(seq), 0), COALESCE(MAX(CASE WHEN seat = $2 THEN seq END), 0) \
                 FROM moves WHERE game_id = $1",
                args![game, seat],
                |r| Ok((r.u64(0)?, r.u64(1)?)),
            )
        })
    }
}

/// After the commit: the live game takes the new state and version.
fn commit_move(m: PreparedMove, live: &mut Live) -> MoveOutcome {
    let state = Arc::new(m.next);
    live.state = state.clone();
    live.seq = m.entry.seq();
    MoveOutcome {
        seq: live.seq,
        events: m.events,
        state,
        snapshot: m.snapshot.is_some(),
        finished: m.finished,
    }
}
