//! Game rows and their seats on PostgreSQL (the twin of [`crate::store::games`]): creating a
//! game (its row, seats and set-up snapshot in one transaction; one active game per channel,
//! which the database's unique index also guards across processes), a game's seats and how
//! they are notified, ending a game without a result (under the game's row lock), and the log
//! marks and reminders the chat layer reads and clears.

use super::{db_u64, Db, PgStore};
use crate::engine::{self, GameState, ENGINE_VERSION};
use crate::store::error::{Result, StoreError};
use crate::store::games::{new_seat_owners, owner_columns, seat_owner, seat_record, GameRows};
use crate::store::{
    json, lock, now_ms, to_db, GameId, GameStatus, MoveEffects, NewGame, Notify, SeatOwner,
    SeatRecord,
};
use postgres::error::SqlState;
use std::sync::Arc;

impl PgStore {
    /// Creates a game and, in the same transaction, runs `also` with its id (a campaign
    /// records its chapter game this way): see [`crate::store::Store::create_game_and`].
    pub(super) fn create_game_and(
        &self,
        new: NewGame,
        also: impl FnOnce(&mut Db<'_>, GameId) -> Result<()>,
    ) -> Result<(GameId, Arc<GameState>)> {
        new.check_has_person()?;
        let names: Vec<String> = new.seats.iter().map(|s| s.name.clone()).collect();
        let state = engine::new_game(&self.data, &new.options, &names)?;
        let owner = new_seat_owners(&new);
        let now = now_ms();
        let snapshot = json(&state);
        let id = self.write(|db| {
            let id = self.insert_game_rows(
                db,
                &GameRows {
                    location: &new.location,
                    options: &new.options,
                    names: &names,
                    state: &state,
                    status: GameStatus::Active,
                    last_seq: 0,
                    now,
                },
                &owner,
            )?;
            self.write_state(db, id, 0, Some(&snapshot), &MoveEffects::default(), now)?;
            also(db, id)?;
            Ok(id)
        })?;
        let state = Arc::new(state);
        self.live.insert(id, state.clone(), 0);
        Ok((id, state))
    }

    /// Inserts a game row and its seats (inside the caller's transaction); the seats come from
    /// the set-up state `rows.state`. An active game needs a free channel (`ChannelBusy`).
    pub(super) fn insert_game_rows(
        &self,
        db: &mut Db<'_>,
        rows: &GameRows<'_>,
        owner: &dyn Fn(usize) -> (SeatOwner, Notify),
    ) -> Result<GameId> {
        let channel = to_db(rows.location.channel);
        if rows.status == GameStatus::Active {
            let busy = db.query_opt(
                "SELECT 1 FROM games WHERE channel = $1 AND status IN ('active', 'damaged')",
                &[&channel],
            )?;
            if busy.is_some() {
                return Err(StoreError::ChannelBusy);
            }
        }
        let row = db.query_opt(
            "INSERT INTO games (guild, channel, status, options, seed, seat_names, \
             engine_version, data_hash, last_seq, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) RETURNING id",
            &[
                &rows.location.guild.map(to_db),
                &channel,
                &rows.status.as_str(),
                &json(rows.options),
                &to_db(rows.options.seed),
                &json(rows.names),
                &i64::from(ENGINE_VERSION),
                &self.data.hash,
                &to_db(rows.last_seq),
                &rows.now,
            ],
        );
        let id: GameId = match row {
            // Another process started a game in the channel meanwhile.
            Err(StoreError::Postgres(e)) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => {
                return Err(StoreError::ChannelBusy)
            }
            r => r?.ok_or(StoreError::ChannelBusy)?.try_get(0)?,
        };
        for (i, seat) in rows.state.seats.iter().enumerate() {
            let (seat_owner, notify) = seat_owner(seat, i, owner);
            let (kind, user) = owner_columns(seat_owner);
            db.execute(
                "INSERT INTO seats (game_id, seat, kind, user_id, name, colour, notify) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
                &[
                    &id,
                    &(i as i64),
                    &kind,
                    &user,
                    &seat.name,
                    &(seat.colour as i64),
                    &notify.as_str(),
                ],
            )?;
        }
        Ok(id)
    }

    /// Ends an active or damaged game with `status` (and why it was archived): its reminders
    /// go, it leaves memory, its channel is free. The game's row lock and its live entry are
    /// held throughout, so no move of any process slips in between.
    pub(super) fn set_aside(
        &self,
        game: GameId,
        status: GameStatus,
        archived_reason: Option<&str>,
    ) -> Result<()> {
        let entry = self.live.get(game);
        let mut guard = entry.as_ref().map(|e| lock(e));
        let now = now_ms();
        self.write(|db| {
            let current: Option<String> = db
                .query_opt(
                    "SELECT status FROM games WHERE id = $1 FOR UPDATE",
                    &[&game],
                )?
                .map(|r| r.try_get(0))
                .transpose()?;
            let current = current.ok_or(StoreError::NoSuchGame(game))?;
            let current = GameStatus::parse(&current).ok_or_else(|| StoreError::Corrupt {
                game,
                message: format!("unknown status `{current}`"),
            })?;
            if !matches!(current, GameStatus::Active | GameStatus::Damaged) {
                return Err(StoreError::NotActive {
                    game,
                    status: current,
                });
            }
            db.execute(
                "UPDATE games SET status = $2, archived_reason = $3, updated_at = $4 WHERE id = $1",
                &[&game, &status.as_str(), &archived_reason, &now],
            )?;
            db.execute("DELETE FROM reminders WHERE game_id = $1", &[&game])?;
            Ok(())
        })?;
        if let Some(live) = guard.as_deref_mut() {
            self.live.evict(game, live);
        }
        Ok(())
    }

    /// Whether a game is in memory (active and restored, loaded or created here).
    pub fn is_live(&self, game: GameId) -> bool {
        self.live.contains(game)
    }

    /// The channel's most recent game when it has finished (see
    /// [`crate::store::Store::last_finished_in_channel`]).
    pub fn last_finished_in_channel(&self, channel: u64) -> Result<Option<GameId>> {
        self.read(|db| {
            let last = db
                .query_opt(
                    "SELECT id, status FROM games WHERE channel = $1 ORDER BY id DESC LIMIT 1",
                    &[&to_db(channel)],
                )?
                .map(|r| -> Result<(GameId, String)> { Ok((r.try_get(0)?, r.try_get(1)?)) })
                .transpose()?;
            Ok(last
                .filter(|(_, status)| status == GameStatus::Finished.as_str())
                .map(|(id, _)| id))
        })
    }

    /// Changes how a seat gets private messages.
    pub fn set_notify(&self, game: GameId, seat: usize, notify: Notify) -> Result<()> {
        let n = self.write(|db| {
            db.execute(
                "UPDATE seats SET notify = $3 WHERE game_id = $1 AND seat = $2",
                &[&game, &(seat as i64), &notify.as_str()],
            )
        })?;
        if n == 0 {
            return Err(StoreError::NoSuchSeat(seat));
        }
        Ok(())
    }

    /// The last log sequence number of a game and the last one of `seat`'s own entries (0
    /// where there is none).
    pub fn log_marks(&self, game: GameId, seat: usize) -> Result<(u64, u64)> {
        self.read(|db| {
            let row = db
                .query_opt(
                    "SELECT COALESCE(MAX(seq), 0), COALESCE(MAX(CASE WHEN seat = $2 THEN seq END), 0) \
                     FROM moves WHERE game_id = $1",
                    &[&game, &(seat as i64)],
                )?
                .ok_or_else(|| self.lost())?;
            Ok((db_u64(&row, 0)?, db_u64(&row, 1)?))
        })
    }

    /// Clears a game's reminders: one seat's, or all of them.
    pub fn clear_reminders(&self, game: GameId, seat: Option<usize>) -> Result<()> {
        self.write(|db| {
            match seat {
                Some(s) => db.execute(
                    "DELETE FROM reminders WHERE game_id = $1 AND seat = $2",
                    &[&game, &(s as i64)],
                )?,
                None => db.execute("DELETE FROM reminders WHERE game_id = $1", &[&game])?,
            };
            Ok(())
        })
    }

    /// Removes one kind of reminder of one seat.
    pub fn clear_reminder(&self, game: GameId, seat: usize, kind: &str) -> Result<()> {
        self.write(|db| {
            db.execute(
                "DELETE FROM reminders WHERE game_id = $1 AND seat = $2 AND kind = $3",
                &[&game, &(seat as i64), &kind],
            )?;
            Ok(())
        })
    }
}

/// A game's seats in seat order (inside the caller's transaction).
pub(super) fn read_seats(db: &mut Db<'_>, game: GameId) -> Result<Vec<SeatRecord>> {
    db.query(
        "SELECT seat, kind, user_id, name, colour, notify, waiting_since FROM seats \
         WHERE game_id = $1 ORDER BY seat",
        &[&game],
    )?
    .iter()
    .map(|r| {
        Ok(seat_record((
            r.try_get(0)?,
            r.try_get(1)?,
            r.try_get(2)?,
            r.try_get(3)?,
            r.try_get(4)?,
            r.try_get(5)?,
            r.try_get(6)?,
        )))
    })
    .collect()
}
