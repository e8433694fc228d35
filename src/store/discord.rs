//! What the Discord adapter keeps in the database (migration `0002_discord.sql`): the status
//! message of each game, so that it is edited in place after a restart, and small named facts
//! such as the hash of the registered command set; and (migration `0010_status_pins.sql`)
//! whether each status message is pinned, so it is unpinned once its game is over. Discord
//! snowflakes are stored bit for bit.

use super::error::Result;
use super::shards;
use super::sql::{args, Row};
use super::{now_ms, GameId, Store};

/// The Discord adapter's facts (see [`Store::discord`]).
#[derive(Clone, Copy)]
pub struct DiscordFacts<'s>(pub(super) &'s Store);

impl Store {
    /// What the Discord adapter keeps: status messages, pins, named facts.
    pub fn discord(&self) -> DiscordFacts<'_> {
        DiscordFacts(self)
    }
}

/// Where a game's status message is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatusMessage {
    pub channel: u64,
    pub message: u64,
}

fn status_from_row(r: &Row<'_>, at: usize) -> Result<StatusMessage> {
    Ok(StatusMessage {
        channel: r.u64(at)?,
        message: r.u64(at + 1)?,
    })
}

impl DiscordFacts<'_> {
    /// The status message of a game, if one was sent.
    pub fn status(&self, game: GameId) -> Result<Option<StatusMessage>> {
        self.0.db.read(|tx| {
            tx.query_opt(
                "SELECT channel_id, message_id FROM discord_status WHERE game_id = $1",
                args![game],
                |r| status_from_row(r, 0),
            )
        })
    }

    /// Remembers (or replaces) the status message of a game, not pinned (see
    /// [`DiscordFacts::set_pinned`]).
    pub fn set_status(&self, game: GameId, status: StatusMessage) -> Result<()> {
        let now = now_ms();
        self.0.db.write(|tx| {
            tx.execute(
                "INSERT INTO discord_status (game_id, channel_id, message_id, updated_at, pinned) \
                 VALUES ($1, $2, $3, $4, 0) \
                 ON CONFLICT (game_id) DO UPDATE SET channel_id = excluded.channel_id, \
                 message_id = excluded.message_id, updated_at = excluded.updated_at, pinned = 0",
                args![game, status.channel, status.message, now],
            )?;
            Ok(())
        })
    }

    /// Records whether the status message of `game` is pinned.
    pub fn set_pinned(&self, game: GameId, pinned: bool) -> Result<()> {
        self.0.db.write(|tx| {
            tx.execute(
                "UPDATE discord_status SET pinned = $2 WHERE game_id = $1",
                args![game, pinned],
            )?;
            Ok(())
        })
    }

    /// The pinned status messages of games that are over (of this process's shards): finished,
    /// abandoned (aborted) or archived (a damaged game may come back, so its pin stays).
    pub fn pinned_of_ended_games(&self) -> Result<Vec<(GameId, StatusMessage)>> {
        let sql = format!(
            "SELECT s.game_id, s.channel_id, s.message_id FROM discord_status s \
             JOIN games g ON g.id = s.game_id \
             WHERE s.pinned = 1 AND g.status IN ('finished', 'abandoned', 'archived') AND {} \
             ORDER BY s.game_id",
            shards::condition(self.0.options.shards, "g.guild")
        );
        self.0
            .db
            .read(|tx| tx.query(&sql, args![], |r| Ok((r.get(0)?, status_from_row(r, 1)?))))
    }

    /// A named fact of the adapter.
    pub fn meta(&self, key: &str) -> Result<Option<String>> {
        self.0.db.read(|tx| {
            tx.query_opt(
                "SELECT value FROM discord_meta WHERE key = $1",
                args![key],
                |r| r.get(0),
            )
        })
    }

    /// Sets a named fact of the adapter.
    pub fn set_meta(&self, key: &str, value: &str) -> Result<()> {
        let now = now_ms();
        self.0.db.write(|tx| {
            tx.execute(
                "INSERT INTO discord_meta (key, value, updated_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value, \
                 updated_at = excluded.updated_at",
                args![key, value, now],
            )?;
            Ok(())
        })
    }
}
