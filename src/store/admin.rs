//! What the admin tools need of the store: every game of a server, a game's history checked
//! move by move (the damage report), export and import (`export`), the file's size; and, of
//! the game log, a rollback to an earlier move (appended to the log, never erased; it also
//! brings a damaged game back), under the game's row lock so no move of any process slips in.

use super::db::Db;
use super::games::{game_from_row, keep_readable, lock_game, row_problem, GameLog, GAME_COLUMNS};
use super::live::{Live, LiveSet};
use super::moves::{entry_at, game_over, insert_entry, read_log_prefix, LogPrefix};
use super::replay::{self, History};
use super::snapshots::current_snapshots;
use super::sql::args;
use super::{
    json, lock, now_ms, GameId, GameRecord, GameStatus, LogEntry, Result, Store, StoreError,
    WaitPlan,
};
use crate::data::GameData;
use crate::engine::{GameState, Phase};
use std::sync::Arc;

/// The admin tools' role (see [`Store::admin`]).
#[derive(Clone, Copy)]
pub struct Admin<'s>(pub(super) &'s Store);

impl Store {
    /// Listings, history reports, export and import, the file's size.
    pub fn admin(&self) -> Admin<'_> {
        Admin(self)
    }
}

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

impl Admin<'_> {
    /// Games, most recently active first, running and damaged ones before the rest: those of
    /// `guild` (None: of every server and the local mode), at most `limit`.
    pub fn list_games(&self, guild: Option<u64>, limit: usize) -> Result<Vec<GameRecord>> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE CAST($1 AS BIGINT) IS NULL OR guild = $1 \
             ORDER BY status IN ('active', 'damaged') DESC, updated_at DESC, id DESC LIMIT $2"
        );
        let rows = self.0.db.read(|tx| {
            tx.query(
                &sql,
                args![guild, i64::try_from(limit).unwrap_or(i64::MAX)],
                game_from_row,
            )
        })?;
        keep_readable(rows)
    }

    /// Every game in a status, oldest first.
    pub fn games_with_status(&self, status: GameStatus) -> Result<Vec<GameRecord>> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE status = $1 ORDER BY id");
        let rows = self
            .0
            .db
            .read(|tx| tx.query(&sql, args![status.as_str()], game_from_row))?;
        keep_readable(rows)
    }

    /// Replays the game's log from the seed and compares it with its stored snapshots (those
    /// written by this engine): how far its history holds up (the history of
    /// [`Admin::check`], changing nothing).
    pub fn history(&self, game: GameId) -> Result<History> {
        self.examine(game).map(|c| c.history)
    }

    /// The SQLite file's size in pages (`Unsupported` on PostgreSQL).
    pub fn page_count(&self) -> Result<u64> {
        match &self.0.db {
            Db::Sqlite(db) => db.page_count(),
            Db::Postgres(_) => Err(sqlite_only("the page count")),
        }
    }

    /// Caps the SQLite file at `pages` pages (`PRAGMA max_page_count`; None lifts the cap):
    /// an operator may bound the file this way (the full-disk test uses it).
    pub fn set_page_limit(&self, pages: Option<u64>) -> Result<()> {
        match &self.0.db {
            Db::Sqlite(db) => db.set_page_limit(pages),
            Db::Postgres(_) => Err(sqlite_only("a page limit")),
        }
    }
}

fn sqlite_only(what: &str) -> StoreError {
    StoreError::Unsupported(format!(
        "{what} is an SQLite file's; a PostgreSQL server's size is its own to set"
    ))
}

impl GameLog<'_> {
    /// Returns an active or damaged game to its state after log entry `back_to` (0: the set-up)
    /// by appending a rollback record (ordered by user `by`) with a snapshot of that state, and
    /// `waits` applied to it (who the game waits on from there), in one transaction under the
    /// game's row lock. The state is a replay from the seed, and `back_to` must be within the
    /// part of the history that replays and agrees with the stored snapshots; a damaged game
    /// becomes active again, with its seat rows and seed rewritten from the game (a missing
    /// seat comes back open; see `integrity::repair_seats`). The game must still be as this
    /// process knows it (else `Changed`: its copy is reloaded).
    pub fn rollback(
        &self,
        game: GameId,
        back_to: u64,
        by: u64,
        waits: Option<&WaitPlan>,
    ) -> Result<RollbackOutcome> {
        let store = self.0;
        let record = self.game(game)?;
        let entry = match record.status {
            GameStatus::Active => Some(store.live_game(game)?),
            GameStatus::Damaged => None,
            status => return Err(StoreError::NotActive { game, status }),
        };
        // Hold the game's live entry so no move of this process slips in between.
        let mut guard = entry.as_ref().map(|e| lock(e));
        if guard.as_deref().is_some_and(|l| l.closed) {
            return Err(StoreError::Conflict(game));
        }
        let seen = guard.as_deref().map(|l| l.seq);
        let written = store.db.write(|tx| {
            let (status, last, _) = lock_game(tx, game)?.ok_or(StoreError::NoSuchGame(game))?;
            if status != record.status.as_str() || seen.is_some_and(|seq| seq != last) {
                return Err(StoreError::Changed(game));
            }
            // A game row that does not read cannot be replayed: only a backup mends it.
            if let Some(problem) = row_problem(tx, game)? {
                return Err(StoreError::RollbackUnverified {
                    game,
                    back_to,
                    last_good: 0,
                    problem,
                });
            }
            // A damaged game's log may not read to its end: what reads, and where it stops.
            let log = read_log_prefix(tx, game)?;
            let snapshots = current_snapshots(tx, game)?;
            let plan = plan_rollback(&store.data, &record, back_to, by, log, &snapshots)?;
            let (seq, now) = (plan.seq, entry_at(&plan.rollback));
            insert_entry(tx, game, &plan.rollback)?;
            // A damaged game may hold snapshots and images of versions its log never reached.
            tx.execute(
                "DELETE FROM snapshots WHERE game_id = $1 AND seq >= $2",
                args![game, seq],
            )?;
            tx.execute(
                "DELETE FROM board_images WHERE game_id = $1 AND version >= $2",
                args![game, seq],
            )?;
            store.write_state(tx, game, seq, Some(&plan.snapshot), now)?;
            if plan.revived {
                // What a damaged game's moves do not hold: its seats and seed, from the game.
                let mended = super::integrity::repair_seats(tx, game, &plan.state)?;
                if !mended.is_empty() {
                    tracing::warn!(game, "the rollback rewrote seats: {}", mended.join("; "));
                }
                tx.execute(
                    "UPDATE games SET seed = $2 WHERE id = $1",
                    args![game, record.options.seed],
                )?;
            }
            tx.execute(
                "UPDATE games SET last_seq = $2, updated_at = $3, status = $4, \
                 damage_report = NULL WHERE id = $1",
                args![
                    game,
                    seq,
                    now,
                    if plan.finished { "finished" } else { "active" }
                ],
            )?;
            if plan.finished {
                game_over(tx, game)?;
            } else if let Some(waits) = waits {
                super::waits::apply_waits(tx, game, &plan.state, waits)?;
            }
            Ok(plan)
        });
        let RollbackPlan {
            seq,
            state,
            finished,
            revived,
            ..
        } = written.inspect_err(|e| {
            if let (StoreError::Conflict(_) | StoreError::Changed(_), Some(live)) =
                (e, guard.as_deref_mut())
            {
                store.live.evict(game, live);
            }
        })?;
        let state = Arc::new(state);
        settle_live(
            &store.live,
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
}

/// A rollback worked out in memory, not yet stored (either backend).
struct RollbackPlan {
    seq: u64,
    rollback: LogEntry,
    state: GameState,
    /// The state as JSON, its snapshot.
    snapshot: String,
    finished: bool,
    revived: bool,
}

/// Checks a rollback of the game `record` (active or damaged) with `log` (the entries that
/// read, the first row that does not and why, the number of rows) and stored `snapshots` to
/// entry `back_to`, and replays the state it returns to from the seed.
fn plan_rollback(
    data: &GameData,
    record: &GameRecord,
    back_to: u64,
    by: u64,
    (entries, unreadable, last): LogPrefix,
    snapshots: &replay::StoredSnapshots,
) -> Result<RollbackPlan> {
    let game = record.id;
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
        &entries,
        snapshots,
    );
    let problem = history
        .problem
        .clone()
        .or(unreadable.map(|(_, why)| why))
        .unwrap_or_default();
    let unverified = |problem: String| StoreError::RollbackUnverified {
        game,
        back_to,
        last_good: history.last_good,
        problem,
    };
    if back_to > history.last_good {
        return Err(unverified(problem));
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
fn settle_live(
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
