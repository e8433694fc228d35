//! The numbered list each user was last shown in a game, on PostgreSQL (the twin of
//! [`crate::store::shown`]).

use super::PgStore;
use crate::store::error::Result;
use crate::store::{from_db, now_ms, to_db, GameId};

impl PgStore {
    /// Keeps the list `user` was shown in `game` at click version `version` (replacing the
    /// one before).
    pub fn save_shown_list(
        &self,
        game: GameId,
        user: u64,
        version: u64,
        options: &str,
    ) -> Result<()> {
        let now = now_ms();
        self.write(|db| {
            db.execute(
                "INSERT INTO shown_lists (game_id, user_id, version, options, shown_at) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id, user_id) DO UPDATE SET \
                 version = EXCLUDED.version, options = EXCLUDED.options, shown_at = EXCLUDED.shown_at",
                &[&game, &to_db(user), &to_db(version), &options, &now],
            )?;
            Ok(())
        })
    }

    /// The list `user` was last shown in `game`: its click version and options.
    pub fn shown_list(&self, game: GameId, user: u64) -> Result<Option<(u64, String)>> {
        self.read(|db| {
            db.query_opt(
                "SELECT version, options FROM shown_lists WHERE game_id = $1 AND user_id = $2",
                &[&game, &to_db(user)],
            )?
            .map(|r| Ok((from_db(r.try_get::<_, i64>(0)?), r.try_get::<_, String>(1)?)))
            .transpose()
        })
    }

    /// Forgets the lists shown in `game` (it ended: nothing is left to choose).
    pub fn clear_shown_lists(&self, game: GameId) -> Result<()> {
        self.write(|db| {
            db.execute("DELETE FROM shown_lists WHERE game_id = $1", &[&game])?;
            Ok(())
        })
    }
}
