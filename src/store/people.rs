//! People: a game's seats (who plays each, how they are notified; seats that fall vacant and
//! are taken over, migrations `0004_seats.sql` and `0011_computer_players.sql`), each user's
//! settings across games (away until, time zone, quiet hours, reminders), the languages
//! replies are written in (migration `0003_languages.sql`: each user's own for their private
//! replies and DMs, each game's for its public replies; catalog codes the chat layer checks
//! before they get here), and the users whose DMs Discord refused (migration
//! `0009_dm_refusals.sql`). The chat layer decides who may do what; this module only keeps it.
//! Whatever changes a game's seats takes the game's row lock first, as a move does.

use super::error::{Result, StoreError};
use super::games::{lock_game, read_seats, write_game_language};
use super::sql::args;
use super::waits::apply_waits;
use super::{json, now_ms, replay, GameId, Notify, SeatRecord, Store, WaitPlan};
use std::sync::Arc;

/// The people's role (see [`Store::people`]).
#[derive(Clone, Copy)]
pub struct People<'s>(pub(super) &'s Store);

impl Store {
    /// Seats, user settings, languages and refused DMs.
    pub fn people(&self) -> People<'_> {
        People(self)
    }
}

/// A user's settings across all their games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct UserSettings {
    /// Reminders wait until this time (Unix ms).
    pub away_until: Option<i64>,
    /// The user's time zone as a fixed offset from UTC, in minutes (used when `time_zone` is
    /// None).
    pub utc_offset_min: i32,
    /// The user's named time zone, whose offset follows daylight-saving time.
    pub time_zone: Option<chrono_tz::Tz>,
    /// Local hours `[from, to)` without reminders (wrapping past midnight when from > to).
    pub quiet: Option<(u8, u8)>,
    /// The user turned reminders off (deadlines still apply).
    pub reminders_off: bool,
    /// Minutes from when a game waits on the user to the reminder (None: the bot's default).
    pub remind_after_min: Option<u32>,
}

/// The game row's seat names (`stored`, its JSON) once `name` took `seat` over.
fn names_after_take_over(
    game: GameId,
    stored: &str,
    seat: usize,
    name: &str,
) -> Result<Vec<String>> {
    let mut names: Vec<String> = serde_json::from_str(stored).map_err(|e| StoreError::Corrupt {
        game,
        message: format!("seat names: {e}"),
    })?;
    let slot = names.get_mut(seat).ok_or(StoreError::NoSuchSeat(seat))?;
    *slot = name.to_string();
    Ok(names)
}

impl People<'_> {
    /// A game's seats in seat order.
    pub fn seats(&self, game: GameId) -> Result<Vec<SeatRecord>> {
        self.0.db.read(|tx| read_seats(tx, game))
    }

    /// Changes how a seat gets private messages.
    pub fn set_notify(&self, game: GameId, seat: usize, notify: Notify) -> Result<()> {
        let n = self.0.db.write(|tx| {
            tx.execute(
                "UPDATE seats SET notify = $3 WHERE game_id = $1 AND seat = $2",
                args![game, seat, notify.as_str()],
            )
        })?;
        if n == 0 {
            return Err(StoreError::NoSuchSeat(seat));
        }
        Ok(())
    }

    /// Makes a person's seat vacant (its player left or was kicked): a computer player plays
    /// it from now on; its wait and reminders go. The game's last person cannot leave it
    /// ([`StoreError::NoPerson`], nothing changed).
    pub fn vacate_seat(&self, game: GameId, seat: usize) -> Result<()> {
        let n = self.0.db.write(|tx| {
            lock_game(tx, game)?.ok_or(StoreError::NoSuchGame(game))?;
            let n = tx.execute(
                "UPDATE seats SET kind = 'vacant', user_id = NULL, waiting_since = NULL \
                 WHERE game_id = $1 AND seat = $2 AND kind = 'discord'",
                args![game, seat],
            )?;
            let people: i64 = tx.query_one(
                "SELECT COUNT(*) FROM seats WHERE game_id = $1 AND kind IN ('discord', 'local')",
                args![game],
                |r| r.get(0),
            )?;
            if n > 0 && people == 0 {
                // Rolls the transaction back.
                return Err(StoreError::NoPerson);
            }
            tx.execute(
                "DELETE FROM reminders WHERE game_id = $1 AND seat = $2",
                args![game, seat],
            )?;
            Ok(n)
        })?;
        if n == 0 {
            return Err(StoreError::NoSuchSeat(seat));
        }
        Ok(())
    }

    /// Gives a vacant seat of an active game to a user: the seat, the game row's seat names and
    /// the live state all carry their name from now on (see [`replay::with_seat_names`]), and
    /// the current board is drawn again. With `waits`, the newcomer's wait starts now (when
    /// the game waits on the seat) with its reminders, in the same transaction. Fails with
    /// `NoSuchSeat` when the seat is not vacant (someone else took it first).
    pub fn take_seat(
        &self,
        game: GameId,
        seat: usize,
        user: u64,
        name: &str,
        waits: Option<&WaitPlan>,
    ) -> Result<()> {
        let store = self.0;
        store.with_live(game, |live| {
            let names = store.db.write(|tx| {
                lock_game(tx, game)?.ok_or(StoreError::NoSuchGame(game))?;
                let n = tx.execute(
                    "UPDATE seats SET kind = 'discord', user_id = $3, name = $4, \
                     notify = 'ephemeral', waiting_since = NULL \
                     WHERE game_id = $1 AND seat = $2 AND kind = 'vacant'",
                    args![game, seat, user, name],
                )?;
                if n == 0 {
                    return Err(StoreError::NoSuchSeat(seat));
                }
                let stored: String = tx
                    .query_opt(
                        "SELECT seat_names FROM games WHERE id = $1",
                        args![game],
                        |r| r.get(0),
                    )?
                    .ok_or(StoreError::NoSuchGame(game))?;
                let names = names_after_take_over(game, &stored, seat, name)?;
                tx.execute(
                    "UPDATE games SET seat_names = $2 WHERE id = $1",
                    args![game, &json(&names)],
                )?;
                super::images::clear_drawn(tx, game, Some(live.seq))?;
                if let Some(waits) = waits {
                    apply_waits(tx, game, &live.state, waits)?;
                }
                Ok(names)
            })?;
            live.state = Arc::new(replay::with_seat_names((*live.state).clone(), &names));
            Ok(())
        })
    }

    /// A user's settings (the defaults when they never set any).
    pub fn user_settings(&self, user: u64) -> Result<UserSettings> {
        let row = self.0.db.read(|tx| {
            tx.query_opt(
                "SELECT away_until, utc_offset_min, quiet_from, quiet_to, reminders_off, \
                 remind_after_min, time_zone FROM user_settings WHERE user_id = $1",
                args![user],
                |r| {
                    let quiet = match (r.get::<Option<i64>>(2)?, r.get::<Option<i64>>(3)?) {
                        (Some(f), Some(t)) => Some((f as u8, t as u8)),
                        _ => None,
                    };
                    Ok(UserSettings {
                        away_until: r.get(0)?,
                        utc_offset_min: i32::try_from(r.get::<i64>(1)?).unwrap_or(0),
                        // A name this build's zone table lacks falls back to the fixed offset.
                        time_zone: r.get::<Option<String>>(6)?.and_then(|z| z.parse().ok()),
                        quiet,
                        reminders_off: r.get::<i64>(4)? != 0,
                        remind_after_min: r
                            .get::<Option<i64>>(5)?
                            .and_then(|m| u32::try_from(m).ok()),
                    })
                },
            )
        })?;
        Ok(row.unwrap_or_default())
    }

    /// Stores a user's settings (the database refuses out-of-range values).
    pub fn set_user_settings(&self, user: u64, settings: &UserSettings) -> Result<()> {
        let now = now_ms();
        self.0.db.write(|tx| {
            tx.execute(
                "INSERT INTO user_settings \
                 (user_id, away_until, utc_offset_min, quiet_from, quiet_to, reminders_off, \
                 remind_after_min, time_zone, updated_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) \
                 ON CONFLICT (user_id) DO UPDATE SET away_until = excluded.away_until, \
                 utc_offset_min = excluded.utc_offset_min, quiet_from = excluded.quiet_from, \
                 quiet_to = excluded.quiet_to, reminders_off = excluded.reminders_off, \
                 remind_after_min = excluded.remind_after_min, time_zone = excluded.time_zone, \
                 updated_at = excluded.updated_at",
                args![
                    user,
                    settings.away_until,
                    settings.utc_offset_min,
                    settings.quiet.map(|q| q.0),
                    settings.quiet.map(|q| q.1),
                    settings.reminders_off,
                    settings.remind_after_min,
                    settings.time_zone.map(|z| z.name()),
                    now
                ],
            )?;
            Ok(())
        })
    }

    /// The language a user chose, if any.
    pub fn user_language(&self, user: u64) -> Result<Option<String>> {
        self.0.db.read(|tx| {
            tx.query_opt(
                "SELECT language FROM user_languages WHERE user_id = $1",
                args![user],
                |r| r.get(0),
            )
        })
    }

    /// Sets (or replaces) a user's language.
    pub fn set_user_language(&self, user: u64, language: &str) -> Result<()> {
        let now = now_ms();
        self.0.db.write(|tx| {
            tx.execute(
                "INSERT INTO user_languages (user_id, language, updated_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (user_id) DO UPDATE SET language = excluded.language, \
                 updated_at = excluded.updated_at",
                args![user, language, now],
            )?;
            Ok(())
        })
    }

    /// The language a game was set to, if any.
    pub fn game_language(&self, game: GameId) -> Result<Option<String>> {
        self.0.db.read(|tx| {
            tx.query_opt(
                "SELECT language FROM game_languages WHERE game_id = $1",
                args![game],
                |r| r.get(0),
            )
        })
    }

    /// The language of the latest game in a channel (running or over), if it was set: a
    /// channel keeps speaking its last game's language after the game ends.
    pub fn channel_language(&self, channel: u64) -> Result<Option<String>> {
        Ok(self
            .0
            .db
            .read(|tx| {
                tx.query_opt(
                    "SELECT (SELECT language FROM game_languages WHERE game_id = g.id) \
                     FROM games g WHERE g.channel = $1 ORDER BY g.id DESC LIMIT 1",
                    args![channel],
                    |r| r.get::<Option<String>>(0),
                )
            })?
            .flatten())
    }

    /// Sets (or replaces) a game's language; its stored board images are drawn again in it.
    pub fn set_game_language(&self, game: GameId, language: &str) -> Result<()> {
        let now = now_ms();
        self.0
            .db
            .write(|tx| write_game_language(tx, game, language, now))
    }

    /// When Discord first refused a DM to `user` (None: DMs are not known to be closed).
    pub fn dm_refused_at(&self, user: u64) -> Result<Option<i64>> {
        self.0.db.read(|tx| {
            tx.query_opt(
                "SELECT refused_at FROM dm_refusals WHERE user_id = $1",
                args![user],
                |r| r.get(0),
            )
        })
    }

    /// Records that DMs to `user` are refused (true; an earlier time is kept) or that the user
    /// asked for DMs again (false). Returns whether anything changed.
    pub fn set_dm_refused(&self, user: u64, refused: bool) -> Result<bool> {
        let now = now_ms();
        self.0.db.write(|tx| {
            let changed = if refused {
                tx.execute(
                    "INSERT INTO dm_refusals (user_id, refused_at) VALUES ($1, $2) \
                     ON CONFLICT DO NOTHING",
                    args![user, now],
                )?
            } else {
                tx.execute("DELETE FROM dm_refusals WHERE user_id = $1", args![user])?
            };
            Ok(changed > 0)
        })
    }
}
