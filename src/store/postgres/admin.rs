//! What the admin tools need, on PostgreSQL (the twin of [`crate::store::admin`]): the games of
//! a server, a game's history checked move by move, a rollback (appended to the log, never
//! erased) and the idle-game watch. History and rollback hold the game's row lock, so no move
//! of any process slips in while they read or write the log.

use super::{db_u64, game_from_row, insert_entry, read_game, read_log, Db, PgStore, GAME_COLUMNS};
use crate::engine::ENGINE_VERSION;
use crate::store::admin::{idle_watches_sql, plan_rollback, settle_live, RollbackPlan};
use crate::store::backend::GameStore;
use crate::store::error::{Result, StoreError};
use crate::store::games::keep_readable;
use crate::store::moves::entry_at;
use crate::store::replay::{self, History};
use crate::store::{
    lock, to_db, GameId, GameRecord, GameStatus, IdleWatch, MoveEffects, RollbackOutcome,
};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Locks the game's row for the rest of the transaction (`lock`: `FOR SHARE` to read,
/// `FOR UPDATE` to write); its status and last move.
fn lock_game(db: &mut Db<'_>, game: GameId, lock: &str) -> Result<(String, u64)> {
    let sql = format!("SELECT status, last_seq FROM games WHERE id = $1 {lock}");
    let row = db
        .query_opt(&sql, &[&game])?
        .ok_or(StoreError::NoSuchGame(game))?;
    Ok((row.try_get(0)?, db_u64(&row, 1)?))
}

impl PgStore {
    /// Games, most recently active first, running and damaged ones before the rest: those of
    /// `guild` (None: of every server and the local mode), at most `limit`.
    pub fn list_games(&self, guild: Option<u64>, limit: usize) -> Result<Vec<GameRecord>> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE $1::BIGINT IS NULL OR guild = $1 \
             ORDER BY status IN ('active', 'damaged') DESC, updated_at DESC, id DESC LIMIT $2"
        );
        self.read(|db| {
            let rows = db.query(
                &sql,
                &[&guild.map(to_db), &i64::try_from(limit).unwrap_or(i64::MAX)],
            )?;
            keep_readable(rows.iter().map(game_from_row))
        })
    }

    /// Replays the game's log from the seed and compares it with its stored snapshots (those
    /// written by this engine): how far its history holds up.
    pub fn history(&self, game: GameId) -> Result<History> {
        let (record, entries, snapshots) = self.write(|db| {
            lock_game(db, game, "FOR SHARE")?;
            Ok((
                read_game(db, game)?,
                read_log(db, game)?,
                current_snapshots(db, game)?,
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

    /// Returns an active or damaged game to its state after log entry `back_to` (see
    /// [`crate::store::Store::rollback`]), in one transaction under the game's row lock. The
    /// game must still be as this process knows it (else `Changed`: its copy is reloaded).
    pub fn rollback(&self, game: GameId, back_to: u64, by: u64) -> Result<RollbackOutcome> {
        let record = GameStore::game(self, game)?;
        let entry = match record.status {
            GameStatus::Active => Some(match self.live.get(game) {
                Some(live) => live,
                None => self.load_live(game)?,
            }),
            GameStatus::Damaged => None,
            status => return Err(StoreError::NotActive { game, status }),
        };
        // Hold the game's live entry so no move of this process slips in between.
        let mut guard = entry.as_ref().map(|e| lock(e));
        if guard.as_deref().is_some_and(|l| l.closed) {
            return Err(StoreError::Conflict(game));
        }
        let seen = guard.as_deref().map(|l| l.seq);
        let written = self.write(|db| {
            let (status, last) = lock_game(db, game, "FOR UPDATE")?;
            if status != record.status.as_str() || seen.is_some_and(|seq| seq != last) {
                return Err(StoreError::Changed(game));
            }
            let entries = read_log(db, game)?;
            let snapshots = current_snapshots(db, game)?;
            let plan = plan_rollback(&self.data, &record, back_to, by, &entries, &snapshots)?;
            let (seq, now) = (plan.seq, entry_at(&plan.rollback));
            insert_entry(db, game, &plan.rollback)?;
            // A damaged game may hold snapshots and images of versions its log never reached.
            db.execute(
                "DELETE FROM snapshots WHERE game_id = $1 AND seq >= $2",
                &[&game, &to_db(seq)],
            )?;
            db.execute(
                "DELETE FROM board_images WHERE game_id = $1 AND version >= $2",
                &[&game, &to_db(seq)],
            )?;
            self.write_state(
                db,
                game,
                seq,
                Some(&plan.snapshot),
                &MoveEffects::default(),
                now,
            )?;
            db.execute(
                "UPDATE games SET last_seq = $2, updated_at = $3, status = $4, \
                 damage_report = NULL WHERE id = $1",
                &[
                    &game,
                    &to_db(seq),
                    &now,
                    &if plan.finished { "finished" } else { "active" },
                ],
            )?;
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
                self.live.evict(game, live);
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

    /// Every idle-game watch.
    pub fn idle_watches(&self) -> Result<Vec<IdleWatch>> {
        self.read(|db| {
            db.query(&idle_watches_sql(self.options.shards), &[])?
                .iter()
                .map(|r| {
                    let warned: Option<i64> = r.try_get(3)?;
                    let delete: Option<i64> = r.try_get(4)?;
                    Ok(IdleWatch {
                        game: r.try_get(0)?,
                        seq: db_u64(r, 1)?,
                        since: r.try_get(2)?,
                        warning: warned.zip(delete),
                    })
                })
                .collect()
        })
    }

    /// Stores (replaces) a game's idle-game watch.
    pub fn set_idle_watch(&self, watch: &IdleWatch) -> Result<()> {
        self.write(|db| {
            db.execute(
                "INSERT INTO idle_watch (game_id, seq, since, warned_at, delete_at) \
                 VALUES ($1, $2, $3, $4, $5) \
                 ON CONFLICT (game_id) DO UPDATE SET seq = EXCLUDED.seq, since = EXCLUDED.since, \
                 warned_at = EXCLUDED.warned_at, delete_at = EXCLUDED.delete_at",
                &[
                    &watch.game,
                    &to_db(watch.seq),
                    &watch.since,
                    &watch.warning.map(|w| w.0),
                    &watch.warning.map(|w| w.1),
                ],
            )?;
            Ok(())
        })
    }

    /// Forgets a game's idle-game watch.
    pub fn clear_idle_watch(&self, game: GameId) -> Result<()> {
        self.write(|db| {
            db.execute("DELETE FROM idle_watch WHERE game_id = $1", &[&game])?;
            Ok(())
        })
    }
}

/// The stored snapshots written by this engine, by sequence number.
fn current_snapshots(db: &mut Db<'_>, game: GameId) -> Result<BTreeMap<u64, String>> {
    db.query(
        "SELECT seq, state FROM snapshots WHERE game_id = $1 AND engine_version = $2",
        &[&game, &i64::from(ENGINE_VERSION)],
    )?
    .iter()
    .map(|r| Ok((db_u64(r, 0)?, r.try_get(1)?)))
    .collect()
}
