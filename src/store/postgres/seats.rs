//! What a game needs to live for days, on PostgreSQL (the twin of [`crate::store::seats`]):
//! seats that fall vacant and are taken over, the computer players' level, since when the game
//! waits on each seat, a host's pause, archiving, and per-user settings. Whatever changes a
//! game's seats takes the game's row lock first, as a move does.

use super::{Db, PgStore};
use crate::engine::GameState;
use crate::store::backend::GameStore;
use crate::store::error::{Result, StoreError};
use crate::store::seats::{archive_each, names_after_take_over, settings_from_row};
use crate::store::{
    json, now_ms, replay, to_db, ArchiveReason, GameId, GameStatus, NewGame, UserSettings,
};
use std::sync::Arc;

/// Locks a game's row (inside the caller's transaction): per-game work of other processes
/// waits until this transaction ends.
fn lock_game(db: &mut Db<'_>, game: GameId) -> Result<()> {
    db.query_opt("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", &[&game])?
        .map(|_| ())
        .ok_or(StoreError::NoSuchGame(game))
}

impl PgStore {
    /// Makes a person's seat vacant: a computer player plays it from now on; its reminders go.
    /// The game's last person cannot leave it ([`StoreError::NoPerson`], nothing changed).
    pub fn vacate_seat(&self, game: GameId, seat: usize) -> Result<()> {
        let n = self.write(|db| {
            lock_game(db, game)?;
            let n = db.execute(
                "UPDATE seats SET kind = 'vacant', user_id = NULL, waiting_since = NULL \
                 WHERE game_id = $1 AND seat = $2 AND kind = 'discord'",
                &[&game, &(seat as i64)],
            )?;
            let people: i64 = db
                .query_opt(
                    "SELECT COUNT(*) FROM seats WHERE game_id = $1 AND kind IN ('discord', 'local')",
                    &[&game],
                )?
                .ok_or_else(|| self.lost())?
                .try_get(0)?;
            if n > 0 && people == 0 {
                // Rolls the transaction back.
                return Err(StoreError::NoPerson);
            }
            db.execute(
                "DELETE FROM reminders WHERE game_id = $1 AND seat = $2",
                &[&game, &(seat as i64)],
            )?;
            Ok(n)
        })?;
        if n == 0 {
            return Err(StoreError::NoSuchSeat(seat));
        }
        Ok(())
    }

    /// Starts a game whose vacant seats are computer players at `bot_level` (`easy`, `normal`
    /// or `hard`; the database refuses another value): the game and its level in one
    /// transaction.
    pub fn create_game_with_bots(
        &self,
        new: NewGame,
        bot_level: &str,
    ) -> Result<(GameId, Arc<GameState>)> {
        self.create_game_and(new, |db, game| {
            db.execute(
                "UPDATE games SET bot_level = $2 WHERE id = $1",
                &[&game, &bot_level],
            )?;
            Ok(())
        })
    }

    /// The level of a game's computer players.
    pub fn bot_level(&self, game: GameId) -> Result<String> {
        self.read(|db| {
            db.query_opt("SELECT bot_level FROM games WHERE id = $1", &[&game])?
                .ok_or(StoreError::NoSuchGame(game))?
                .try_get(0)
                .map_err(StoreError::from)
        })
    }

    /// Gives a vacant seat of an active game to a user: the seat, the game row's seat names and
    /// the live state carry their name from now on, and the current board is drawn again (see
    /// [`crate::store::Store::take_seat`]); `NoSuchSeat` when the seat is not vacant (someone
    /// else took it first).
    pub fn take_seat(&self, game: GameId, seat: usize, user: u64, name: &str) -> Result<()> {
        self.with_live(game, |live| {
            let names = self.write(|db| {
                lock_game(db, game)?;
                let n = db.execute(
                    "UPDATE seats SET kind = 'discord', user_id = $3, name = $4, notify = 'ephemeral' \
                     WHERE game_id = $1 AND seat = $2 AND kind = 'vacant'",
                    &[&game, &(seat as i64), &to_db(user), &name],
                )?;
                if n == 0 {
                    return Err(StoreError::NoSuchSeat(seat));
                }
                let stored: String = db
                    .query_opt("SELECT seat_names FROM games WHERE id = $1", &[&game])?
                    .ok_or(StoreError::NoSuchGame(game))?
                    .try_get(0)?;
                let names = names_after_take_over(game, &stored, seat, name)?;
                db.execute(
                    "UPDATE games SET seat_names = $2 WHERE id = $1",
                    &[&game, &json(&names)],
                )?;
                db.execute(
                    "UPDATE board_images SET png = NULL, rendered_at = NULL \
                     WHERE game_id = $1 AND version = $2",
                    &[&game, &to_db(live.seq)],
                )?;
                Ok(names)
            })?;
            live.state = Arc::new(replay::with_seat_names((*live.state).clone(), &names));
            Ok(())
        })
    }

    /// Records since when the game waits on a seat (None: it does not).
    pub fn set_waiting_since(&self, game: GameId, seat: usize, since: Option<i64>) -> Result<()> {
        self.write(|db| {
            db.execute(
                "UPDATE seats SET waiting_since = $3 WHERE game_id = $1 AND seat = $2",
                &[&game, &(seat as i64), &since],
            )?;
            Ok(())
        })
    }

    /// Since when the game waits on a seat (Unix ms), if it does.
    pub fn waiting_since(&self, game: GameId, seat: usize) -> Result<Option<i64>> {
        self.read(|db| {
            Ok(db
                .query_opt(
                    "SELECT waiting_since FROM seats WHERE game_id = $1 AND seat = $2",
                    &[&game, &(seat as i64)],
                )?
                .map(|r| r.try_get::<_, Option<i64>>(0))
                .transpose()?
                .flatten())
        })
    }

    /// Pauses (Some: since when) or resumes (None) an active game. A move of any process
    /// checks the pause under the game's row lock, so none is accepted while it is paused.
    pub fn set_paused(&self, game: GameId, since: Option<i64>) -> Result<()> {
        let now = now_ms();
        let n = self.write(|db| {
            db.execute(
                "UPDATE games SET paused_at = $2, updated_at = $3 WHERE id = $1 AND status = 'active'",
                &[&game, &since, &now],
            )
        })?;
        if n == 0 {
            let status = GameStore::game(self, game)?.status;
            return Err(StoreError::NotActive { game, status });
        }
        Ok(())
    }

    /// Since when a game is paused (Unix ms), if it is.
    pub fn paused_at(&self, game: GameId) -> Result<Option<i64>> {
        self.read(|db| {
            db.query_opt("SELECT paused_at FROM games WHERE id = $1", &[&game])?
                .ok_or(StoreError::NoSuchGame(game))?
                .try_get(0)
                .map_err(StoreError::from)
        })
    }

    /// Why a game was archived, if it was.
    pub fn archived_reason(&self, game: GameId) -> Result<Option<String>> {
        self.read(|db| {
            db.query_opt("SELECT archived_reason FROM games WHERE id = $1", &[&game])?
                .ok_or(StoreError::NoSuchGame(game))?
                .try_get(0)
                .map_err(StoreError::from)
        })
    }

    /// Sets an active or damaged game aside as `archived` (see
    /// [`crate::store::Store::archive`]).
    pub fn archive(&self, game: GameId, reason: ArchiveReason) -> Result<()> {
        self.set_aside(game, GameStatus::Archived, Some(reason.as_str()))
    }

    /// Archives the active (or damaged) game of a deleted channel; returns it.
    pub fn archive_channel(&self, channel: u64) -> Result<Vec<GameId>> {
        let games = self.running_games(
            "SELECT id FROM games WHERE channel = $1 AND status IN ('active', 'damaged')",
            channel,
        )?;
        archive_each(&games, |game| {
            self.archive(game, ArchiveReason::ChannelDeleted)
        })
    }

    /// Archives every active (or damaged) game of a server the bot was removed from.
    pub fn archive_guild(&self, guild: u64) -> Result<Vec<GameId>> {
        let games = self.running_games(
            "SELECT id FROM games WHERE guild = $1 AND status IN ('active', 'damaged')",
            guild,
        )?;
        archive_each(&games, |game| {
            self.archive(game, ArchiveReason::GuildRemoved)
        })
    }

    fn running_games(&self, sql: &str, place: u64) -> Result<Vec<GameId>> {
        self.read(|db| {
            db.query(sql, &[&to_db(place)])?
                .iter()
                .map(|r| r.try_get(0).map_err(StoreError::from))
                .collect()
        })
    }

    /// A user's settings (the defaults when they never set any).
    pub fn user_settings(&self, user: u64) -> Result<UserSettings> {
        self.read(|db| {
            let row = db.query_opt(
                "SELECT away_until, utc_offset_min, quiet_from, quiet_to, reminders_off, \
                 remind_after_min, time_zone FROM user_settings WHERE user_id = $1",
                &[&to_db(user)],
            )?;
            Ok(match row {
                None => UserSettings::default(),
                Some(r) => settings_from_row((
                    r.try_get(0)?,
                    r.try_get(1)?,
                    r.try_get(2)?,
                    r.try_get(3)?,
                    r.try_get::<_, i64>(4)? != 0,
                    r.try_get(5)?,
                    r.try_get(6)?,
                )),
            })
        })
    }

    /// Stores a user's settings (the database refuses out-of-range values).
    pub fn set_user_settings(&self, user: u64, settings: &UserSettings) -> Result<()> {
        let now = now_ms();
        self.write(|db| {
            db.execute(
                "INSERT INTO user_settings \
                 (user_id, away_until, utc_offset_min, quiet_from, quiet_to, reminders_off, \
                 remind_after_min, time_zone, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
                 ON CONFLICT (user_id) DO UPDATE SET away_until = EXCLUDED.away_until, \
                 utc_offset_min = EXCLUDED.utc_offset_min, quiet_from = EXCLUDED.quiet_from, \
                 quiet_to = EXCLUDED.quiet_to, reminders_off = EXCLUDED.reminders_off, \
                 remind_after_min = EXCLUDED.remind_after_min, time_zone = EXCLUDED.time_zone, \
                 updated_at = EXCLUDED.updated_at",
                &[
                    &to_db(user),
                    &settings.away_until,
                    &i64::from(settings.utc_offset_min),
                    &settings.quiet.map(|q| i64::from(q.0)),
                    &settings.quiet.map(|q| i64::from(q.1)),
                    &i64::from(settings.reminders_off),
                    &settings.remind_after_min.map(i64::from),
                    &settings.time_zone.map(|z| z.name()),
                    &now,
                ],
            )?;
            Ok(())
        })
    }
}
