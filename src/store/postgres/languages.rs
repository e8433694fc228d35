//! The languages replies are written in, on PostgreSQL (the twin of
//! [`crate::store::languages`]): each user's own and each game's.

use super::PgStore;
use crate::store::error::Result;
use crate::store::{now_ms, to_db, GameId};

impl PgStore {
    /// The language a user chose, if any.
    pub fn user_language(&self, user: u64) -> Result<Option<String>> {
        self.read(|db| {
            Ok(db
                .query_opt(
                    "SELECT language FROM user_languages WHERE user_id = $1",
                    &[&to_db(user)],
                )?
                .map(|r| r.try_get(0))
                .transpose()?)
        })
    }

    /// Sets (or replaces) a user's language.
    pub fn set_user_language(&self, user: u64, language: &str) -> Result<()> {
        let now = now_ms();
        self.write(|db| {
            db.execute(
                "INSERT INTO user_languages (user_id, language, updated_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (user_id) DO UPDATE SET language = EXCLUDED.language, updated_at = EXCLUDED.updated_at",
                &[&to_db(user), &language, &now],
            )?;
            Ok(())
        })
    }

    /// The language a game was set to, if any.
    pub fn game_language(&self, game: GameId) -> Result<Option<String>> {
        self.read(|db| {
            Ok(db
                .query_opt(
                    "SELECT language FROM game_languages WHERE game_id = $1",
                    &[&game],
                )?
                .map(|r| r.try_get(0))
                .transpose()?)
        })
    }

    /// The language of the latest game in a channel (running or over), if it was set.
    pub fn channel_language(&self, channel: u64) -> Result<Option<String>> {
        self.read(|db| {
            Ok(db
                .query_opt(
                    "SELECT (SELECT language FROM game_languages WHERE game_id = g.id) \
                     FROM games g WHERE g.channel = $1 ORDER BY g.id DESC LIMIT 1",
                    &[&to_db(channel)],
                )?
                .map(|r| r.try_get::<_, Option<String>>(0))
                .transpose()?
                .flatten())
        })
    }

    /// Sets (or replaces) a game's language; its stored board images (in the old language's
    /// words) are cleared in the same transaction, to be drawn again when next asked for.
    pub fn set_game_language(&self, game: GameId, language: &str) -> Result<()> {
        let now = now_ms();
        self.write(|db| {
            let before: Option<String> = db
                .query_opt(
                    "SELECT language FROM game_languages WHERE game_id = $1 FOR UPDATE",
                    &[&game],
                )?
                .map(|r| r.try_get(0))
                .transpose()?;
            db.execute(
                "INSERT INTO game_languages (game_id, language, updated_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (game_id) DO UPDATE SET language = EXCLUDED.language, updated_at = EXCLUDED.updated_at",
                &[&game, &language, &now],
            )?;
            if before.as_deref() != Some(language) {
                db.execute(
                    "UPDATE board_images SET png = NULL, rendered_at = NULL \
                     WHERE game_id = $1 AND png IS NOT NULL",
                    &[&game],
                )?;
            }
            Ok(())
        })
    }
}
