//! The languages replies are written in (migration `0003_languages.sql`): each user's own, for
//! their private replies and DMs, and each game's, for its public replies and pings. The store
//! keeps catalog codes (`en`, `de`); the chat layer checks them before they get here.

use super::error::Result;
use super::{now_ms, to_db, GameId, Store};
use rusqlite::{params, OptionalExtension};

impl Store {
    /// The language a user chose, if any.
    pub fn user_language(&self, user: u64) -> Result<Option<String>> {
        self.read(|c| {
            Ok(
                c.prepare_cached("SELECT language FROM user_languages WHERE user_id = ?1")?
                    .query_row([to_db(user)], |r| r.get(0))
                    .optional()?,
            )
        })
    }

    /// Sets (or replaces) a user's language.
    pub fn set_user_language(&self, user: u64, language: &str) -> Result<()> {
        let now = now_ms();
        self.write(|tx| {
            tx.prepare_cached(
                "INSERT OR REPLACE INTO user_languages (user_id, language, updated_at) \
                 VALUES (?1, ?2, ?3)",
            )?
            .execute(params![to_db(user), language, now])?;
            Ok(())
        })
    }

    /// The language a game was set to, if any.
    pub fn game_language(&self, game: GameId) -> Result<Option<String>> {
        self.read(|c| {
            Ok(
                c.prepare_cached("SELECT language FROM game_languages WHERE game_id = ?1")?
                    .query_row([game], |r| r.get(0))
                    .optional()?,
            )
        })
    }

    /// The language of the latest game in a channel (running or over), if it was set: a
    /// channel keeps speaking its last game's language after the game ends.
    pub fn channel_language(&self, channel: u64) -> Result<Option<String>> {
        self.read(|c| {
            Ok(c.prepare_cached(
                "SELECT (SELECT language FROM game_languages WHERE game_id = g.id) \
                 FROM games g WHERE g.channel = ?1 ORDER BY g.id DESC LIMIT 1",
            )?
            .query_row([to_db(channel)], |r| r.get::<_, Option<String>>(0))
            .optional()?
            .flatten())
        })
    }

    /// Sets (or replaces) a game's language. Its stored board images show the old language's
    /// words, so they are cleared in the same transaction and drawn again when next asked for.
    pub fn set_game_language(&self, game: GameId, language: &str) -> Result<()> {
        let now = now_ms();
        self.write(|tx| {
            let before: Option<String> = tx
                .prepare_cached("SELECT language FROM game_languages WHERE game_id = ?1")?
                .query_row([game], |r| r.get(0))
                .optional()?;
            tx.prepare_cached(
                "INSERT OR REPLACE INTO game_languages (game_id, language, updated_at) \
                 VALUES (?1, ?2, ?3)",
            )?
            .execute(params![game, language, now])?;
            if before.as_deref() != Some(language) {
                tx.prepare_cached(
                    "UPDATE board_images SET png = NULL, rendered_at = NULL \
                     WHERE game_id = ?1 AND png IS NOT NULL",
                )?
                .execute([game])?;
            }
            Ok(())
        })
    }
}
