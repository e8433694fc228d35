//! What the Discord adapter keeps on PostgreSQL (the twin of [`crate::store::discord`]): each
//! game's status message and whether it is pinned, small named facts, and the users whose DMs
//! Discord refused. Snowflakes are stored bit for bit.

use super::PgStore;
use crate::store::discord::pinned_of_ended_sql;
use crate::store::error::Result;
use crate::store::{from_db, now_ms, to_db, GameId, StatusMessage};
use postgres::Row;

fn status_message(r: &Row, first: usize) -> Result<StatusMessage> {
    Ok(StatusMessage {
        channel: from_db(r.try_get(first)?),
        message: from_db(r.try_get(first + 1)?),
    })
}

impl PgStore {
    /// The status message of a game, if one was sent.
    pub fn discord_status(&self, game: GameId) -> Result<Option<StatusMessage>> {
        self.read(|db| {
            db.query_opt(
                "SELECT channel_id, message_id FROM discord_status WHERE game_id = $1",
                &[&game],
            )?
            .map(|r| status_message(&r, 0))
            .transpose()
        })
    }

    /// Remembers (or replaces) the status message of a game, not pinned.
    pub fn set_discord_status(&self, game: GameId, status: StatusMessage) -> Result<()> {
        let now = now_ms();
        self.write(|db| {
            db.execute(
                "INSERT INTO discord_status (game_id, channel_id, message_id, updated_at, pinned) \
                 VALUES ($1, $2, $3, $4, 0) \
                 ON CONFLICT (game_id) DO UPDATE SET channel_id = EXCLUDED.channel_id, \
                 message_id = EXCLUDED.message_id, updated_at = EXCLUDED.updated_at, pinned = 0",
                &[&game, &to_db(status.channel), &to_db(status.message), &now],
            )?;
            Ok(())
        })
    }

    /// Records whether the status message of `game` is pinned.
    pub fn set_status_pinned(&self, game: GameId, pinned: bool) -> Result<()> {
        self.write(|db| {
            db.execute(
                "UPDATE discord_status SET pinned = $2 WHERE game_id = $1",
                &[&game, &i64::from(pinned)],
            )?;
            Ok(())
        })
    }

    /// The pinned status messages of games that are over (finished, abandoned or archived).
    pub fn pinned_status_of_ended_games(&self) -> Result<Vec<(GameId, StatusMessage)>> {
        self.read(|db| {
            db.query(&pinned_of_ended_sql(self.options.shards), &[])?
                .iter()
                .map(|r| Ok((r.try_get(0)?, status_message(r, 1)?)))
                .collect()
        })
    }

    /// A named fact of the adapter.
    pub fn discord_meta(&self, key: &str) -> Result<Option<String>> {
        self.read(|db| {
            Ok(db
                .query_opt("SELECT value FROM discord_meta WHERE key = $1", &[&key])?
                .map(|r| r.try_get(0))
                .transpose()?)
        })
    }

    /// Sets a named fact of the adapter.
    pub fn set_discord_meta(&self, key: &str, value: &str) -> Result<()> {
        let now = now_ms();
        self.write(|db| {
            db.execute(
                "INSERT INTO discord_meta (key, value, updated_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at",
                &[&key, &value, &now],
            )?;
            Ok(())
        })
    }

    /// When Discord first refused a DM to `user` (None: DMs are not known to be closed).
    pub fn dm_refused_at(&self, user: u64) -> Result<Option<i64>> {
        self.read(|db| {
            Ok(db
                .query_opt(
                    "SELECT refused_at FROM dm_refusals WHERE user_id = $1",
                    &[&to_db(user)],
                )?
                .map(|r| r.try_get(0))
                .transpose()?)
        })
    }

    /// Records that DMs to `user` are refused (an earlier time is kept) or that the user asked
    /// for DMs again. Returns whether anything changed.
    pub fn set_dm_refused(&self, user: u64, refused: bool) -> Result<bool> {
        let now = now_ms();
        self.write(|db| {
            let changed = if refused {
                db.execute(
                    "INSERT INTO dm_refusals (user_id, refused_at) VALUES ($1, $2) \
                     ON CONFLICT (user_id) DO NOTHING",
                    &[&to_db(user), &now],
                )?
            } else {
                db.execute(
                    "DELETE FROM dm_refusals WHERE user_id = $1",
                    &[&to_db(user)],
                )?
            };
            Ok(changed > 0)
        })
    }
}
