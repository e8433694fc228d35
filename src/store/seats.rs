//! What a game needs to live for days (migration `0003_seats.sql`): seats that fall vacant and
//! are taken over, the level of the computer players who play vacant seats (migration
//! `0011_computer_players.sql`), the time the game started waiting on each seat, a host's pause, archiving
//! a game whose channel or server is gone, and per-user settings (away until, a fixed UTC
//! offset, quiet hours). The chat layer decides who may do what; this module only keeps it.

use super::error::{Result, StoreError};
use super::{json, now_ms, replay, to_db, GameId, GameStatus, NewGame, Store};
use crate::engine::GameState;
use rusqlite::{params, Connection, OptionalExtension};
use std::sync::Arc;

/// Records the level of a game's computer players (inside the caller's transaction).
fn write_bot_level(tx: &Connection, game: GameId, level: &str) -> Result<()> {
    tx.prepare_cached("UPDATE games SET bot_level = ?2 WHERE id = ?1")?
        .execute(params![game, level])?;
    Ok(())
}

/// Why a game was archived.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveReason {
    /// Its channel was deleted.
    ChannelDeleted,
    /// The bot was removed from its server.
    GuildRemoved,
}

impl ArchiveReason {
    pub fn as_str(self) -> &'static str {
        match self {
            ArchiveReason::ChannelDeleted => "channel_deleted",
            ArchiveReason::GuildRemoved => "guild_removed",
        }
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

impl Store {
    /// Makes a person's seat vacant (its player left or was kicked): a computer player plays
    /// it from now on; its reminders go. The game's last person cannot leave it
    /// ([`StoreError::NoPerson`], nothing changed).
    pub fn vacate_seat(&self, game: GameId, seat: usize) -> Result<()> {
        let n = self.write(|tx| {
            let n = tx
                .prepare_cached(
                    "UPDATE seats SET kind = 'vacant', user_id = NULL, waiting_since = NULL \
                     WHERE game_id = ?1 AND seat = ?2 AND kind = 'discord'",
                )?
                .execute(params![game, seat as i64])?;
            let people: i64 = tx
                .prepare_cached(
                    "SELECT COUNT(*) FROM seats WHERE game_id = ?1 AND kind IN ('discord', 'local')",
                )?
                .query_row([game], |r| r.get(0))?;
            if n > 0 && people == 0 {
                // Rolls the transaction back.
                return Err(StoreError::NoPerson);
            }
            tx.prepare_cached("DELETE FROM reminders WHERE game_id = ?1 AND seat = ?2")?
                .execute(params![game, seat as i64])?;
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
        self.create_game_and(new, |tx, game| write_bot_level(tx, game, bot_level))
    }

    /// The level of a game's computer players (`easy`, `normal` or `hard`).
    pub fn bot_level(&self, game: GameId) -> Result<String> {
        self.read(|c| {
            c.prepare_cached("SELECT bot_level FROM games WHERE id = ?1")?
                .query_row([game], |r| r.get::<_, String>(0))
                .optional()?
                .ok_or(StoreError::NoSuchGame(game))
        })
    }

    /// Gives a vacant seat of an active game to a user: the seat, the game row's seat names and
    /// the live state all carry their name from now on (see [`replay::with_seat_names`]), and
    /// the current board is drawn again. Fails with `NoSuchSeat` when the seat is not vacant
    /// (someone else took it first).
    pub fn take_seat(&self, game: GameId, seat: usize, user: u64, name: &str) -> Result<()> {
        self.with_live(game, |live| {
            let names = self.write(|tx| {
                let n = tx
                    .prepare_cached(
                        "UPDATE seats SET kind = 'discord', user_id = ?3, name = ?4, notify = 'ephemeral' \
                         WHERE game_id = ?1 AND seat = ?2 AND kind = 'vacant'",
                    )?
                    .execute(params![game, seat as i64, to_db(user), name])?;
                if n == 0 {
                    return Err(StoreError::NoSuchSeat(seat));
                }
                let stored: String = tx
                    .prepare_cached("SELECT seat_names FROM games WHERE id = ?1")?
                    .query_row([game], |r| r.get(0))?;
                let names = names_after_take_over(game, &stored, seat, name)?;
                tx.prepare_cached("UPDATE games SET seat_names = ?2 WHERE id = ?1")?
                    .execute(params![game, json(&names)])?;
                tx.prepare_cached(
                    "UPDATE board_images SET png = NULL, rendered_at = NULL \
                     WHERE game_id = ?1 AND version = ?2",
                )?
                .execute(params![game, to_db(live.seq)])?;
                Ok(names)
            })?;
            live.state = Arc::new(replay::with_seat_names((*live.state).clone(), &names));
            Ok(())
        })
    }

    /// Records since when the game waits on a seat (None: it does not).
    pub fn set_waiting_since(&self, game: GameId, seat: usize, since: Option<i64>) -> Result<()> {
        self.write(|tx| {
            tx.prepare_cached(
                "UPDATE seats SET waiting_since = ?3 WHERE game_id = ?1 AND seat = ?2",
            )?
            .execute(params![game, seat as i64, since])?;
            Ok(())
        })
    }

    /// Since when the game waits on a seat (Unix ms), if it does.
    pub fn waiting_since(&self, game: GameId, seat: usize) -> Result<Option<i64>> {
        self.read(|c| {
            Ok(c.prepare_cached(
                "SELECT waiting_since FROM seats WHERE game_id = ?1 AND seat = ?2",
            )?
            .query_row(params![game, seat as i64], |r| r.get::<_, Option<i64>>(0))
            .optional()?
            .flatten())
        })
    }

    /// Pauses (Some: since when, Unix ms) or resumes (None) a game. Paused games get no
    /// reminders and no deadlines ([`Store::due_reminders`] leaves them out).
    pub fn set_paused(&self, game: GameId, since: Option<i64>) -> Result<()> {
        let now = now_ms();
        let n = self.write(|tx| {
            Ok(tx
                .prepare_cached(
                    "UPDATE games SET paused_at = ?2, updated_at = ?3 WHERE id = ?1 AND status = 'active'",
                )?
                .execute(params![game, since, now])?)
        })?;
        if n == 0 {
            let status = self.game(game)?.status;
            return Err(StoreError::NotActive { game, status });
        }
        Ok(())
    }

    /// Since when a game is paused (Unix ms), if it is.
    pub fn paused_at(&self, game: GameId) -> Result<Option<i64>> {
        self.read(|c| {
            c.prepare_cached("SELECT paused_at FROM games WHERE id = ?1")?
                .query_row([game], |r| r.get::<_, Option<i64>>(0))
                .optional()?
                .ok_or(StoreError::NoSuchGame(game))
        })
    }

    /// Why a game was archived, if it was.
    pub fn archived_reason(&self, game: GameId) -> Result<Option<String>> {
        self.read(|c| {
            c.prepare_cached("SELECT archived_reason FROM games WHERE id = ?1")?
                .query_row([game], |r| r.get::<_, Option<String>>(0))
                .optional()?
                .ok_or(StoreError::NoSuchGame(game))
        })
    }

    /// Archives the active (or damaged) game of a deleted channel; returns it.
    pub fn archive_channel(&self, channel: u64) -> Result<Vec<GameId>> {
        let games = self.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT id FROM games WHERE channel = ?1 AND status IN ('active', 'damaged')",
            )?;
            let rows = stmt.query_map([to_db(channel)], |r| r.get::<_, GameId>(0))?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })?;
        self.archive_all(&games, ArchiveReason::ChannelDeleted)
    }

    /// Archives every active (or damaged) game of a server the bot was removed from.
    pub fn archive_guild(&self, guild: u64) -> Result<Vec<GameId>> {
        let games = self.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT id FROM games WHERE guild = ?1 AND status IN ('active', 'damaged')",
            )?;
            let rows = stmt.query_map([to_db(guild)], |r| r.get::<_, GameId>(0))?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })?;
        self.archive_all(&games, ArchiveReason::GuildRemoved)
    }

    fn archive_all(&self, games: &[GameId], reason: ArchiveReason) -> Result<Vec<GameId>> {
        archive_each(games, |game| self.archive(game, reason))
    }

    /// Sets an active or damaged game aside as `archived`: kept whole (its log, snapshots and
    /// export), out of memory, no reminders, its channel free.
    pub fn archive(&self, game: GameId, reason: ArchiveReason) -> Result<()> {
        self.set_aside(game, GameStatus::Archived, Some(reason.as_str()))
    }

    /// A user's settings (the defaults when they never set any).
    pub fn user_settings(&self, user: u64) -> Result<UserSettings> {
        self.read(|c| {
            let row = c
                .prepare_cached(
                    "SELECT away_until, utc_offset_min, quiet_from, quiet_to, reminders_off, \
                     remind_after_min, time_zone FROM user_settings WHERE user_id = ?1",
                )?
                .query_row([to_db(user)], |r| {
                    Ok((
                        r.get::<_, Option<i64>>(0)?,
                        r.get::<_, i64>(1)?,
                        r.get::<_, Option<i64>>(2)?,
                        r.get::<_, Option<i64>>(3)?,
                        r.get::<_, bool>(4)?,
                        r.get::<_, Option<i64>>(5)?,
                        r.get::<_, Option<String>>(6)?,
                    ))
                })
                .optional()?;
            Ok(row.map(settings_from_row).unwrap_or_default())
        })
    }

    /// Stores a user's settings (the database refuses out-of-range values).
    pub fn set_user_settings(&self, user: u64, settings: &UserSettings) -> Result<()> {
        let now = now_ms();
        self.write(|tx| {
            tx.prepare_cached(
                "INSERT OR REPLACE INTO user_settings \
                 (user_id, away_until, utc_offset_min, quiet_from, quiet_to, reminders_off, \
                 remind_after_min, time_zone, updated_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )?
            .execute(params![
                to_db(user),
                settings.away_until,
                i64::from(settings.utc_offset_min),
                settings.quiet.map(|q| i64::from(q.0)),
                settings.quiet.map(|q| i64::from(q.1)),
                i64::from(settings.reminders_off),
                settings.remind_after_min.map(i64::from),
                settings.time_zone.map(|z| z.name()),
                now
            ])?;
            Ok(())
        })
    }
}

/// Archives each of `games` with `archive`; returns those archived (one that finished or was
/// abandoned meanwhile has nothing to keep and is passed over).
pub(super) fn archive_each(
    games: &[GameId],
    archive: impl Fn(GameId) -> Result<()>,
) -> Result<Vec<GameId>> {
    let mut done = Vec::new();
    for game in games {
        match archive(*game) {
            Ok(()) => done.push(*game),
            Err(StoreError::NotActive { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(done)
}

/// The game row's seat names (`stored`, its JSON) once `name` took `seat` over (either
/// backend).
pub(super) fn names_after_take_over(
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

/// A `user_settings` row: away_until, utc_offset_min, quiet_from, quiet_to, reminders_off,
/// remind_after_min, time_zone.
pub(super) type SettingsRow = (
    Option<i64>,
    i64,
    Option<i64>,
    Option<i64>,
    bool,
    Option<i64>,
    Option<String>,
);

/// A user's settings from their row (either backend).
pub(super) fn settings_from_row(row: SettingsRow) -> UserSettings {
    let (away_until, offset, from, to, reminders_off, remind_after, zone) = row;
    UserSettings {
        away_until,
        utc_offset_min: i32::try_from(offset).unwrap_or(0),
        // A name this build's zone table lacks falls back to the fixed offset.
        time_zone: zone.and_then(|z| z.parse().ok()),
        quiet: match (from, to) {
            (Some(f), Some(t)) => Some((f as u8, t as u8)),
            _ => None,
        },
        reminders_off,
        remind_after_min: remind_after.and_then(|m| u32::try_from(m).ok()),
    }
}
