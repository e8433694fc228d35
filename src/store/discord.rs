//! What the Discord adapter keeps in the database (migration `0002_discord.sql`): the status
//! message of each game, so that it is edited in place after a restart, and small named facts
//! such as the hash of the registered command set; and (migration `0009_dm_refusals.sql`) the
//! users whose DMs Discord refused; and (migration `0010_status_pins.sql`) whether each status
//! message is pinned, so it is unpinned once its game is over. Discord snowflakes are stored
//! bit for bit.

use super::error::Result;
use super::shards;
use super::{from_db, now_ms, to_db, GameId, Store};
use rusqlite::{params, OptionalExtension};

/// Where a game's status message is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatusMessage {
    pub channel: u64,
    pub message: u64,
}

/// The pinned status messages of this process's shards' games that are over (both backends).
pub(crate) fn pinned_of_ended_sql(filter: Option<shards::ShardFilter>) -> String {
    format!(
        "SELECT s.game_id, s.channel_id, s.message_id FROM discord_status s \
         JOIN games g ON g.id = s.game_id \
         WHERE s.pinned = 1 AND g.status IN ('finished', 'abandoned', 'archived') AND {} \
         ORDER BY s.game_id",
        shards::condition(filter, "g.guild")
    )
}

impl Store {
    /// The status message of a game, if one was sent.
    pub fn discord_status(&self, game: GameId) -> Result<Option<StatusMessage>> {
        self.read(|c| {
            Ok(c.prepare_cached(
                "SELECT channel_id, message_id FROM discord_status WHERE game_id = ?1",
            )?
            .query_row([game], |r| {
                Ok(StatusMessage {
                    channel: from_db(r.get(0)?),
                    message: from_db(r.get(1)?),
                })
            })
            .optional()?)
        })
    }

    /// Remembers (or replaces) the status message of a game, not pinned (see
    /// [`Store::set_status_pinned`]).
    pub fn set_discord_status(&self, game: GameId, status: StatusMessage) -> Result<()> {
        let now = now_ms();
        self.write(|tx| {
            tx.prepare_cached(
                "INSERT OR REPLACE INTO discord_status (game_id, channel_id, message_id, updated_at, pinned) \
                 VALUES (?1, ?2, ?3, ?4, 0)",
            )?
            .execute(params![
                game,
                to_db(status.channel),
                to_db(status.message),
                now
            ])?;
            Ok(())
        })
    }

    /// Records whether the status message of `game` is pinned.
    pub fn set_status_pinned(&self, game: GameId, pinned: bool) -> Result<()> {
        self.write(|tx| {
            tx.prepare_cached("UPDATE discord_status SET pinned = ?2 WHERE game_id = ?1")?
                .execute(params![game, pinned])?;
            Ok(())
        })
    }

    /// The pinned status messages of games that are over (of this process's shards): finished,
    /// abandoned (aborted) or archived (a damaged game may come back, so its pin stays).
    pub fn pinned_status_of_ended_games(&self) -> Result<Vec<(GameId, StatusMessage)>> {
        self.read(|c| {
            let mut stmt = c.prepare_cached(&pinned_of_ended_sql(self.options.shards))?;
            let rows = stmt.query_map([], |r| {
                Ok((
                    r.get(0)?,
                    StatusMessage {
                        channel: from_db(r.get(1)?),
                        message: from_db(r.get(2)?),
                    },
                ))
            })?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    /// A named fact of the adapter.
    pub fn discord_meta(&self, key: &str) -> Result<Option<String>> {
        self.read(|c| {
            Ok(
                c.prepare_cached("SELECT value FROM discord_meta WHERE key = ?1")?
                    .query_row([key], |r| r.get(0))
                    .optional()?,
            )
        })
    }

    /// Sets a named fact of the adapter.
    pub fn set_discord_meta(&self, key: &str, value: &str) -> Result<()> {
        let now = now_ms();
        self.write(|tx| {
            tx.prepare_cached(
                "INSERT OR REPLACE INTO discord_meta (key, value, updated_at) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![key, value, now])?;
            Ok(())
        })
    }

    /// When Discord first refused a DM to `user` (None: DMs are not known to be closed).
    pub fn dm_refused_at(&self, user: u64) -> Result<Option<i64>> {
        self.read(|c| {
            Ok(
                c.prepare_cached("SELECT refused_at FROM dm_refusals WHERE user_id = ?1")?
                    .query_row([to_db(user)], |r| r.get(0))
                    .optional()?,
            )
        })
    }

    /// Records that DMs to `user` are refused (true; an earlier time is kept) or that the user
    /// asked for DMs again (false). Returns whether anything changed.
    pub fn set_dm_refused(&self, user: u64, refused: bool) -> Result<bool> {
        let now = now_ms();
        self.write(|tx| {
            let changed = if refused {
                tx.prepare_cached(
                    "INSERT OR IGNORE INTO dm_refusals (user_id, refused_at) VALUES (?1, ?2)",
                )?
                .execute(params![to_db(user), now])?
            } else {
                tx.prepare_cached("DELETE FROM dm_refusals WHERE user_id = ?1")?
                    .execute([to_db(user)])?
            };
            Ok(changed > 0)
        })
    }
}
