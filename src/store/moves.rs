//! The append-only move log: reading and writing its entries (batches, undo records, rollback
//! records), and the two moves a seat makes: a batch of decisions ([`Store::apply_with`]) and
//! an undo of its last batch ([`Store::undo_with`], DECISIONS B6), each ONE transaction with
//! its snapshot when due, its image row and the notifications and reminders derived from it.

use super::error::{Result, StoreError};
use super::images::insert_image_row;
use super::live::Live;
use super::replay::{self, ReplayError};
use super::snapshots::{insert_snapshot, prune_snapshots, read_snapshot, snapshot_seqs};
use super::{
    from_db, json, now_ms, to_db, FailPoint, GameId, LogEntry, MoveEffects, MoveOutcome, Store,
    UndoOutcome,
};
use crate::engine::{self, Decision, Event, GameState, Phase};
use rusqlite::{params, Connection, OptionalExtension};
use std::collections::BTreeSet;
use std::sync::Arc;

pub(super) fn read_log(conn: &Connection, game: GameId) -> Result<Vec<LogEntry>> {
    let sql = format!("SELECT {ENTRY_COLUMNS} FROM moves WHERE game_id = ?1 ORDER BY seq");
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([game], entry_row)?;
    rows.map(|row| {
        entry_from_row(
            game,
            row.map_err(|e| StoreError::decoding(game, "a move of the log", e))?,
        )
    })
    .collect()
}

/// The columns of a log entry, read into an [`EntryRow`].
pub(super) const ENTRY_COLUMNS: &str = "seq, kind, seat, decisions, undoes, at, back_to, by_user";

/// seq, kind, seat, decisions, undoes, at, back_to, by_user.
pub(super) type EntryRow = (
    i64,
    String,
    i64,
    Option<String>,
    Option<i64>,
    i64,
    Option<i64>,
    Option<i64>,
);

fn entry_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<EntryRow> {
    Ok((
        r.get(0)?,
        r.get(1)?,
        r.get(2)?,
        r.get(3)?,
        r.get(4)?,
        r.get(5)?,
        r.get(6)?,
        r.get(7)?,
    ))
}

pub(super) fn entry_from_row(game: GameId, row: EntryRow) -> Result<LogEntry> {
    let (seq, kind, seat, decisions, undoes, at, back_to, by) = row;
    let corrupt = |message: String| StoreError::Corrupt {
        game,
        message: format!("log entry {seq}: {message}"),
    };
    let seq = from_db(seq);
    let seat = usize::try_from(seat).map_err(|_| corrupt(format!("seat {seat}")))?;
    Ok(match (kind.as_str(), decisions, undoes) {
        ("batch", Some(d), None) => LogEntry::Batch {
            seq,
            seat,
            decisions: serde_json::from_str(&d).map_err(|e| corrupt(e.to_string()))?,
            at,
        },
        ("undo", None, Some(u)) => LogEntry::Undo {
            seq,
            seat,
            undoes: from_db(u),
            at,
        },
        ("rollback", None, None) => LogEntry::Rollback {
            seq,
            back_to: back_to
                .map(from_db)
                .ok_or_else(|| corrupt("a rollback without its target".to_string()))?,
            by: by.map(from_db).unwrap_or(0),
            at,
        },
        _ => return Err(corrupt(format!("malformed `{kind}` entry"))),
    })
}

/// The columns of a log entry after `game_id, seq`: kind, seat, decisions, undoes, at,
/// back_to, by_user (the order of [`insert_entry`]'s statement).
pub(super) type EntryValues = (
    &'static str,
    i64,
    Option<String>,
    Option<i64>,
    i64,
    Option<i64>,
    Option<i64>,
);

pub(super) fn entry_values(entry: &LogEntry) -> EntryValues {
    match entry {
        LogEntry::Batch {
            seat,
            decisions,
            at,
            ..
        } => (
            "batch",
            *seat as i64,
            Some(json(decisions)),
            None,
            *at,
            None,
            None,
        ),
        LogEntry::Undo {
            seat, undoes, at, ..
        } => (
            "undo",
            *seat as i64,
            None,
            Some(to_db(*undoes)),
            *at,
            None,
            None,
        ),
        LogEntry::Rollback {
            back_to, by, at, ..
        } => (
            "rollback",
            0,
            None,
            None,
            *at,
            Some(to_db(*back_to)),
            Some(to_db(*by)),
        ),
    }
}

pub(super) fn insert_entry(tx: &Connection, game: GameId, entry: &LogEntry) -> Result<()> {
    let (kind, seat, decisions, undoes, at, back_to, by) = entry_values(entry);
    let r = tx
        .prepare_cached(
            "INSERT INTO moves (game_id, seq, kind, seat, decisions, undoes, at, back_to, by_user) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        )?
        .execute(params![
            game,
            to_db(entry.seq()),
            kind,
            seat,
            decisions,
            undoes,
            at,
            back_to,
            by
        ]);
    match r {
        Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::ConstraintViolation) => {
            Err(StoreError::Conflict(game))
        }
        Err(e) => Err(e.into()),
        Ok(_) => Ok(()),
    }
}

/// The rule every move's transaction checks first: the stored game is still the one this
/// process saw — active, not paused, at move `seq`. Another process (or connection) may have
/// ended, paused or rolled it back, or moved in it, since it was loaded; a move written then
/// would bring an ended game back or build on a state that is gone, so it is refused
/// ([`StoreError::Changed`]) and nothing is written.
pub(super) fn check_unchanged(tx: &Connection, game: GameId, seq: u64) -> Result<()> {
    check_row(tx, game, seq, unchanged_verdict)
}

/// Reads the game row inside the transaction and gives `verdict` on it.
fn check_row(tx: &Connection, game: GameId, seq: u64, verdict: Verdict) -> Result<()> {
    let row = tx
        .prepare_cached("SELECT status, last_seq, paused_at FROM games WHERE id = ?1")?
        .query_row([game], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, Option<i64>>(2)?,
            ))
        })
        .optional()?;
    verdict(game, seq, row)
}

/// A move's check of the game row read under its lock (status, last_seq, paused_at) against
/// the move it was built on: [`unchanged_verdict`] or [`moved_on_verdict`].
pub(super) type Verdict = fn(GameId, u64, Option<(String, i64, Option<i64>)>) -> Result<()>;

/// [`check_unchanged`]'s verdict on the game row read inside the transaction (status,
/// last_seq, paused_at), for every backend.
pub(super) fn unchanged_verdict(
    game: GameId,
    seq: u64,
    row: Option<(String, i64, Option<i64>)>,
) -> Result<()> {
    match row {
        Some((status, last, None)) if status == "active" && from_db(last) == seq => Ok(()),
        Some(_) => Err(StoreError::Changed(game)),
        None => Err(StoreError::NoSuchGame(game)),
    }
}

/// The verdict under the game's row lock on a move worked out on the game at move `seq`
/// ([`Store::apply_at`]'s rule, for a backend shared by processes): refused with
/// [`StoreError::MovedOn`] when the game's last move is no longer `seq` (another process moved
/// meanwhile), else [`unchanged_verdict`]'s.
pub(super) fn moved_on_verdict(
    game: GameId,
    seq: u64,
    row: Option<(String, i64, Option<i64>)>,
) -> Result<()> {
    match &row {
        Some((_, last, _)) if from_db(*last) != seq => Err(StoreError::MovedOn(game)),
        _ => unchanged_verdict(game, seq, row),
    }
}

/// The check a batch's transaction makes: [`moved_on_verdict`] for a batch worked out at a
/// given move (`expected`, [`Store::apply_at`]), else [`unchanged_verdict`].
pub(super) fn verdict_for(expected: Option<u64>) -> Verdict {
    if expected.is_some() {
        moved_on_verdict
    } else {
        unchanged_verdict
    }
}

pub(super) fn write_effects(
    tx: &Connection,
    game: GameId,
    fx: &MoveEffects,
    at: i64,
) -> Result<()> {
    for payload in &fx.notifications {
        tx.prepare_cached("INSERT INTO outbox (game_id, payload, created_at) VALUES (?1, ?2, ?3)")?
            .execute(params![game, json(payload), at])?;
    }
    if let Some(reminders) = &fx.reminders {
        tx.prepare_cached("DELETE FROM reminders WHERE game_id = ?1")?
            .execute([game])?;
        for (seat, kind, due) in reminders {
            tx.prepare_cached(
                "INSERT OR REPLACE INTO reminders (game_id, seat, kind, due_at) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![game, *seat as i64, kind, due])?;
        }
    }
    Ok(())
}

/// A move worked out in memory, not yet stored: the new state, its events, the log entry, the
/// snapshot when due and what the caller derived from it. Both backends store it the same way.
pub(super) struct PreparedMove {
    pub(super) next: GameState,
    pub(super) events: Vec<Event>,
    pub(super) fx: MoveEffects,
    pub(super) entry: LogEntry,
    pub(super) finished: bool,
    /// The new state as JSON when a snapshot is due (every K moves, and when the game ends).
    pub(super) snapshot: Option<String>,
}

/// Applies a batch to a copy of the live state with the engine (a rule error changes nothing)
/// and derives the effects from the result.
pub(super) fn prepare_move(
    data: &crate::data::GameData,
    snapshot_every: u64,
    live: &Live,
    seat: usize,
    decisions: &[Decision],
    effects: impl FnOnce(&GameState, &[Event]) -> MoveEffects,
) -> Result<PreparedMove> {
    let mut next = (*live.state).clone();
    let events = engine::apply_batch(data, &mut next, seat, decisions)?;
    let fx = effects(&next, &events);
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
pub(super) struct PreparedUndo {
    pub(super) next: GameState,
    pub(super) record: LogEntry,
    pub(super) undone: u64,
    pub(super) fx: MoveEffects,
    pub(super) snapshot: String,
}

/// Finds `seat`'s last batch not undone yet in `entries` (the whole log) and rebuilds the state
/// without it from the latest usable of `snapshots` (read with `read_snapshot`).
pub(super) fn prepare_undo(
    data: &crate::data::GameData,
    game: GameId,
    seat: usize,
    live: &Live,
    (mut entries, snapshots): (Vec<LogEntry>, Vec<u64>),
    read_snapshot: impl FnOnce(u64) -> Result<String>,
    effects: impl FnOnce(&GameState) -> MoveEffects,
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
    let fx = effects(&next);
    let snapshot = json(&next);
    Ok(PreparedUndo {
        next,
        record,
        undone: target,
        fx,
        snapshot,
    })
}

impl Store {
    /// Applies a batch of one seat's decisions and stores it: see [`Store::apply_with`].
    pub fn apply(&self, game: GameId, seat: usize, decisions: &[Decision]) -> Result<MoveOutcome> {
        self.apply_with(game, seat, decisions, |_, _| MoveEffects::default())
    }

    /// Applies a batch atomically with the engine, then stores in ONE transaction the log
    /// entry, the snapshot when due, and the notifications and reminders `effects` derives from
    /// the new state and its events. A rule error, or any failure to write, changes nothing.
    pub fn apply_with(
        &self,
        game: GameId,
        seat: usize,
        decisions: &[Decision],
        effects: impl FnOnce(&GameState, &[Event]) -> MoveEffects,
    ) -> Result<MoveOutcome> {
        self.apply_checked(game, seat, decisions, None, effects)
    }

    /// [`Store::apply`] of decisions worked out on the game at move `seq` (a computer player's
    /// turn, thought out without the game's lock): refused with [`StoreError::MovedOn`], nothing
    /// written, when the game has moved on since.
    pub fn apply_at(
        &self,
        game: GameId,
        seat: usize,
        decisions: &[Decision],
        seq: u64,
    ) -> Result<MoveOutcome> {
        self.apply_checked(game, seat, decisions, Some(seq), |_, _| {
            MoveEffects::default()
        })
    }

    fn apply_checked(
        &self,
        game: GameId,
        seat: usize,
        decisions: &[Decision],
        expected: Option<u64>,
        effects: impl FnOnce(&GameState, &[Event]) -> MoveEffects,
    ) -> Result<MoveOutcome> {
        let mut effects = Some(effects);
        self.with_live(game, |live| {
            if expected.is_some_and(|seq| seq != live.seq) {
                return Err(StoreError::MovedOn(game));
            }
            let effects = effects.take().ok_or(StoreError::Conflict(game))?;
            let m = prepare_move(
                &self.data,
                self.options.snapshot_every,
                live,
                seat,
                decisions,
                effects,
            )?;
            let (seq, now) = (m.entry.seq(), entry_at(&m.entry));
            let result = self.write(|tx| {
                check_row(tx, game, live.seq, verdict_for(expected))?;
                insert_entry(tx, game, &m.entry)?;
                self.hit(FailPoint::AfterDecisions)?;
                if let Some(s) = &m.snapshot {
                    insert_snapshot(tx, game, seq, s, now)?;
                    prune_snapshots(tx, game, seq, self.options.snapshot_window)?;
                }
                self.hit(FailPoint::AfterSnapshot)?;
                insert_image_row(tx, game, seq)?;
                write_effects(tx, game, &m.fx, now)?;
                let status = if m.finished { "finished" } else { "active" };
                tx.prepare_cached(
                    "UPDATE games SET last_seq = ?2, updated_at = ?3, status = ?4 WHERE id = ?1",
                )?
                .execute(params![game, to_db(seq), now, status])?;
                self.hit(FailPoint::BeforeCommit)?;
                Ok(())
            });
            if let Err(e) = result {
                // The stored game is not the one in memory: reloaded on next use.
                if matches!(
                    e,
                    StoreError::Conflict(_) | StoreError::Changed(_) | StoreError::MovedOn(_)
                ) {
                    self.evict(game, live);
                }
                return Err(e);
            }
            let finished = m.finished;
            let outcome = m.commit_to(live);
            if finished {
                self.evict(game, live);
            }
            Ok(outcome)
        })
    }

    /// Reverts `seat`'s last batch that is not undone yet: see [`Store::undo_with`].
    pub fn undo(&self, game: GameId, seat: usize) -> Result<UndoOutcome> {
        self.undo_with(game, seat, |_| MoveEffects::default())
    }

    /// Appends an undo record for `seat`'s last batch not undone yet and stores the rebuilt
    /// state as a snapshot, in one transaction. Whether the seat may undo now is the chat
    /// layer's call; here it fails only when later moves of others no longer apply without it
    /// (`UndoBlocked`) or there is nothing to undo.
    pub fn undo_with(
        &self,
        game: GameId,
        seat: usize,
        effects: impl FnOnce(&GameState) -> MoveEffects,
    ) -> Result<UndoOutcome> {
        let mut effects = Some(effects);
        self.with_live(game, |live| {
            let effects = effects.take().ok_or(StoreError::Conflict(game))?;
            if seat >= live.state.seats.len() {
                return Err(StoreError::NoSuchSeat(seat));
            }
            let log =
                self.read_consistent(|c| Ok((read_log(c, game)?, snapshot_seqs(c, game)?)))?;
            let u = prepare_undo(
                &self.data,
                game,
                seat,
                live,
                log,
                |base| self.read(|c| read_snapshot(c, game, base)),
                effects,
            )?;
            let (seq, now) = (u.record.seq(), entry_at(&u.record));
            self.write(|tx| {
                check_unchanged(tx, game, seq - 1)?;
                insert_entry(tx, game, &u.record)?;
                self.hit(FailPoint::AfterDecisions)?;
                insert_snapshot(tx, game, seq, &u.snapshot, now)?;
                prune_snapshots(tx, game, seq, self.options.snapshot_window)?;
                self.hit(FailPoint::AfterSnapshot)?;
                insert_image_row(tx, game, seq)?;
                write_effects(tx, game, &u.fx, now)?;
                tx.prepare_cached("UPDATE games SET last_seq = ?2, updated_at = ?3 WHERE id = ?1")?
                    .execute(params![game, to_db(seq), now])?;
                self.hit(FailPoint::BeforeCommit)?;
                Ok(())
            })
            .inspect_err(|e| {
                if matches!(e, StoreError::Conflict(_) | StoreError::Changed(_)) {
                    self.evict(game, live);
                }
            })?;
            Ok(u.commit_to(live))
        })
    }

    /// A game's whole log.
    pub fn log(&self, game: GameId) -> Result<Vec<LogEntry>> {
        self.read(|c| read_log(c, game))
    }

    /// The last log entry of a game.
    pub fn last_entry(&self, game: GameId) -> Result<Option<LogEntry>> {
        self.read(|c| {
            let sql = format!(
                "SELECT {ENTRY_COLUMNS} FROM moves WHERE game_id = ?1 ORDER BY seq DESC LIMIT 1"
            );
            let row = c
                .prepare_cached(&sql)?
                .query_row([game], entry_row)
                .optional()?;
            row.map(|r| entry_from_row(game, r)).transpose()
        })
    }

    /// The last log sequence number of a game and the last one of `seat`'s own entries
    /// (batches and undo records; 0 where there is none).
    pub fn log_marks(&self, game: GameId, seat: usize) -> Result<(u64, u64)> {
        self.read(|c| {
            let (last, own) = c
                .prepare_cached(
                    "SELECT COALESCE(MAX(seq), 0), COALESCE(MAX(CASE WHEN seat = ?2 THEN seq END), 0) \
                     FROM moves WHERE game_id = ?1",
                )?
                .query_row(params![game, seat as i64], |r| {
                    Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))
                })?;
            Ok((from_db(last), from_db(own)))
        })
    }
}

/// When an entry was made (Unix ms).
pub(super) fn entry_at(entry: &LogEntry) -> i64 {
    match entry {
        LogEntry::Batch { at, .. } | LogEntry::Undo { at, .. } | LogEntry::Rollback { at, .. } => {
            *at
        }
    }
}

impl PreparedMove {
    /// After the commit: the live game takes the new state and version.
    pub(super) fn commit_to(self, live: &mut Live) -> MoveOutcome {
        let state = Arc::new(self.next);
        live.state = state.clone();
        live.seq = self.entry.seq();
        MoveOutcome {
            seq: live.seq,
            events: self.events,
            state,
            snapshot: self.snapshot.is_some(),
            finished: self.finished,
        }
    }
}

impl PreparedUndo {
    /// After the commit: the live game takes the rebuilt state and version.
    pub(super) fn commit_to(self, live: &mut Live) -> UndoOutcome {
        let state = Arc::new(self.next);
        live.state = state.clone();
        live.seq = self.record.seq();
        UndoOutcome {
            seq: live.seq,
            undone: self.undone,
            state,
        }
    }
}
