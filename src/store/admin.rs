//! What the admin tools need of the store: every game of a server, a game's history checked
//! move by move (the damage report), a rollback to an earlier move (appended to the log, never
//! erased; it also brings a damaged game back), and the idle-game watch of the cleanup timer.

use super::games::{game_from_row, read_game, readable_games, GAME_COLUMNS};
use super::images::insert_image_row;
use super::live::{Live, LiveSet};
use super::moves::{entry_at, insert_entry, read_log};
use super::replay::{self, History};
use super::shards;
use super::snapshots::{insert_snapshot, prune_snapshots};
use super::{
    from_db, json, lock, now_ms, to_db, GameId, GameRecord, GameStatus, LogEntry, Result, Store,
    StoreError,
};
use crate::data::GameData;
use crate::engine::{GameState, Phase, ENGINE_VERSION};
use rusqlite::{params, Connection};
use std::collections::BTreeMap;
use std::sync::Arc;

/// A stored rollback.
#[derive(Debug, Clone)]
pub struct RollbackOutcome {
    /// The rollback record's sequence number: the version of the new state.
    pub seq: u64,
    pub back_to: u64,
    pub state: Arc<GameState>,
    /// The game was damaged and is playable again.
    pub revived: bool,
}

/// The cleanup timer's view of one idle game (times on the chat layer's clock).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdleWatch {
    pub game: GameId,
    /// The log version last seen: a move changes it.
    pub seq: u64,
    /// Since when the game has been at that version (as far as the timer knows).
    pub since: i64,
    /// The warning posted: when, and when the game is deleted unless someone moves.
    pub warning: Option<(i64, i64)>,
}

/// The idle watches of this process's shards' games (both backends).
pub(crate) fn idle_watches_sql(filter: Option<shards::ShardFilter>) -> String {
    format!(
        "SELECT w.game_id, w.seq, w.since, w.warned_at, w.delete_at FROM idle_watch w \
         JOIN games g ON g.id = w.game_id WHERE {} ORDER BY w.game_id",
        shards::condition(filter, "g.guild")
    )
}

impl Store {
    /// Games, most recently active first, running and damaged ones before the rest: those of
    /// `guild` (None: of every server and the local mode), at most `limit`.
    pub fn list_games(&self, guild: Option<u64>, limit: usize) -> Result<Vec<GameRecord>> {
        self.read(|c| {
            let sql = format!(
                "SELECT {GAME_COLUMNS} FROM games WHERE ?1 IS NULL OR guild = ?1 \
                 ORDER BY status IN ('active', 'damaged') DESC, updated_at DESC, id DESC LIMIT ?2"
            );
            let mut stmt = c.prepare(&sql)?;
            let rows = stmt.query_map(
                params![guild.map(to_db), i64::try_from(limit).unwrap_or(i64::MAX)],
                game_from_row,
            )?;
            readable_games(rows)
        })
    }

    /// Replays the game's log from the seed and compares it with its stored snapshots (those
    /// written by this engine): how far its history holds up.
    pub fn history(&self, game: GameId) -> Result<History> {
        let (record, entries, snapshots) = self.read(|c| {
            Ok((
                read_game(c, game)?,
                read_log(c, game)?,
                current_snapshots(c, game)?,
            ))
        })?;
        Ok(replay::check_history(
            &self.data,
            &record.options,
            &record.seat_names,
            &entries,
            &snapshots,
        ))
    }

    /// Returns an active or damaged game to its state after log entry `back_to` (0: the set-up)
    /// by appending a rollback record (ordered by user `by`) with a snapshot of that state, in
    /// one transaction. The state is a replay from the seed, and `back_to` must be within the
    /// part of the history that replays and agrees with the stored snapshots; a damaged game
    /// becomes active again.
    pub fn rollback(&self, game: GameId, back_to: u64, by: u64) -> Result<RollbackOutcome> {
        let record = self.game(game)?;
        let entry = match record.status {
            GameStatus::Active => Some(self.live_game(game)?),
            GameStatus::Damaged => None,
            status => return Err(StoreError::NotActive { game, status }),
        };
        // Hold the game's lock (if live) so no move slips in between.
        let mut guard = entry.as_ref().map(|e| lock(e));
        if guard.as_deref().is_some_and(|l| l.closed) {
            return Err(StoreError::Conflict(game));
        }
        let (entries, snapshots) =
            self.read(|c| Ok((read_log(c, game)?, current_snapshots(c, game)?)))?;
        let RollbackPlan {
            seq,
            rollback,
            state,
            snapshot,
            finished,
            revived,
        } = plan_rollback(&self.data, &record, back_to, by, &entries, &snapshots)?;
        let now = entry_at(&rollback);
        self.write(|tx| {
            insert_entry(tx, game, &rollback)?;
            // A damaged game may hold snapshots and images of versions its log never reached.
            tx.prepare_cached("DELETE FROM snapshots WHERE game_id = ?1 AND seq >= ?2")?
                .execute(params![game, to_db(seq)])?;
            tx.prepare_cached("DELETE FROM board_images WHERE game_id = ?1 AND version >= ?2")?
                .execute(params![game, to_db(seq)])?;
            insert_snapshot(tx, game, seq, &snapshot, now)?;
            prune_snapshots(tx, game, seq, self.options.snapshot_window)?;
            insert_image_row(tx, game, seq)?;
            tx.prepare_cached(
                "UPDATE games SET last_seq = ?2, updated_at = ?3, status = ?4, \
                 damage_report = NULL WHERE id = ?1",
            )?
            .execute(params![
                game,
                to_db(seq),
                now,
                if finished { "finished" } else { "active" }
            ])?;
            Ok(())
        })
        .inspect_err(|e| {
            if let (StoreError::Conflict(_), Some(live)) = (e, guard.as_deref_mut()) {
                self.evict(game, live);
            }
        })?;
        let state = Arc::new(state);
        settle_live(
            &self.live,
            game,
            guard.as_deref_mut(),
            &state,
            seq,
            finished,
        );
        Ok(RollbackOutcome {
            seq,
            back_to,
            state,
            revived,
        })
    }

    /// Every idle-game watch (of this process's shards).
    pub fn idle_watches(&self) -> Result<Vec<IdleWatch>> {
        self.read(|c| {
            let mut stmt = c.prepare_cached(&idle_watches_sql(self.options.shards))?;
            let rows = stmt.query_map([], |r| {
                let warned: Option<i64> = r.get(3)?;
                let delete: Option<i64> = r.get(4)?;
                Ok(IdleWatch {
                    game: r.get(0)?,
                    seq: from_db(r.get(1)?),
                    since: r.get(2)?,
                    warning: warned.zip(delete),
                })
            })?;
            rows.map(|r| r.map_err(StoreError::from)).collect()
        })
    }

    /// Stores (replaces) a game's idle-game watch.
    pub fn set_idle_watch(&self, watch: &IdleWatch) -> Result<()> {
        self.write(|tx| {
            tx.prepare_cached(
                "INSERT OR REPLACE INTO idle_watch (game_id, seq, since, warned_at, delete_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                watch.game,
                to_db(watch.seq),
                watch.since,
                watch.warning.map(|w| w.0),
                watch.warning.map(|w| w.1)
            ])?;
            Ok(())
        })
    }

    /// Forgets a game's idle-game watch.
    pub fn clear_idle_watch(&self, game: GameId) -> Result<()> {
        self.write(|tx| {
            tx.prepare_cached("DELETE FROM idle_watch WHERE game_id = ?1")?
                .execute([game])?;
            Ok(())
        })
    }
}

/// The stored snapshots written by this engine, by sequence number (older engines' snapshots
/// are not comparable with a replay by this one).
fn current_snapshots(c: &Connection, game: GameId) -> Result<BTreeMap<u64, String>> {
    let mut stmt = c.prepare_cached(
        "SELECT seq, state FROM snapshots WHERE game_id = ?1 AND engine_version = ?2",
    )?;
    let rows = stmt.query_map(params![game, ENGINE_VERSION], |r| {
        Ok((from_db(r.get::<_, i64>(0)?), r.get::<_, String>(1)?))
    })?;
    rows.map(|r| r.map_err(StoreError::from)).collect()
}

/// A rollback worked out in memory, not yet stored (either backend).
pub(super) struct RollbackPlan {
    pub(super) seq: u64,
    pub(super) rollback: LogEntry,
    pub(super) state: GameState,
    /// The state as JSON, its snapshot.
    pub(super) snapshot: String,
    pub(super) finished: bool,
    pub(super) revived: bool,
}

/// Checks a rollback of the game `record` (active or damaged) with log `entries` and stored
/// `snapshots` to entry `back_to`, and replays the state it returns to from the seed.
pub(super) fn plan_rollback(
    data: &GameData,
    record: &GameRecord,
    back_to: u64,
    by: u64,
    entries: &[LogEntry],
    snapshots: &BTreeMap<u64, String>,
) -> Result<RollbackPlan> {
    let game = record.id;
    let last = entries.len() as u64;
    if back_to > last {
        return Err(StoreError::NoSuchMove {
            game,
            back_to,
            last,
        });
    }
    let revived = record.status == GameStatus::Damaged;
    if !revived && back_to == last {
        return Err(StoreError::NothingToRollBack { game, back_to });
    }
    let history = replay::check_history(
        data,
        &record.options,
        &record.seat_names,
        entries,
        snapshots,
    );
    let unverified = |problem: String| StoreError::RollbackUnverified {
        game,
        back_to,
        last_good: history.last_good,
        problem,
    };
    if back_to > history.last_good {
        return Err(unverified(history.problem.clone().unwrap_or_default()));
    }
    let prefix = &entries[..back_to as usize];
    let state = replay::replay_from_seed(data, &record.options, &record.seat_names, prefix)
        .map_err(|e| unverified(e.to_string()))?;
    let seq = last + 1;
    let rollback = LogEntry::Rollback {
        seq,
        back_to,
        by,
        at: now_ms(),
    };
    Ok(RollbackPlan {
        seq,
        rollback,
        snapshot: json(&state),
        finished: state.phase == Phase::Finished,
        state,
        revived,
    })
}

/// After a rollback's commit: the game's live entry (`live`, when it was in memory) takes the
/// new state, or leaves the set when the game is over; a revived game enters it.
pub(super) fn settle_live(
    set: &LiveSet,
    game: GameId,
    live: Option<&mut Live>,
    state: &Arc<GameState>,
    seq: u64,
    finished: bool,
) {
    match live {
        Some(live) if finished => set.evict(game, live),
        Some(live) => {
            live.state = state.clone();
            live.seq = seq;
        }
        None if finished => {}
        None => set.insert(game, state.clone(), seq),
    }
}
