//! The numbered list each user was last shown in a game (migration `0013_shown_lists.sql`,
//! DECISIONS B19), a duty of the people's role: the click version it belongs to and its
//! options, so `/choose N` means after a restart what it meant before. One row per
//! (game, user), replaced by each new list; the options are a document only the chat layer
//! reads (the store keeps it as text). Written once for both databases.

use super::error::Result;
use super::people::People;
use super::sql::args;
use super::{now_ms, GameId};

impl People<'_> {
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
        self.0.db.write(|tx| {
            tx.execute(
                "INSERT INTO shown_lists (game_id, user_id, version, options, shown_at) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (game_id, user_id) DO UPDATE SET \
                 version = excluded.version, options = excluded.options, \
                 shown_at = excluded.shown_at",
                args![game, user, version, options, now],
            )?;
            Ok(())
        })
    }

    /// The list `user` was last shown in `game`: its click version and options.
    pub fn shown_list(&self, game: GameId, user: u64) -> Result<Option<(u64, String)>> {
        self.0.db.read(|tx| {
            tx.query_opt(
                "SELECT version, options FROM shown_lists WHERE game_id = $1 AND user_id = $2",
                args![game, user],
                |r| Ok((r.u64(0)?, r.get::<String>(1)?)),
            )
        })
    }

    /// Forgets the lists shown in `game` (it ended: nothing is left to choose).
    pub fn clear_shown_lists(&self, game: GameId) -> Result<()> {
        self.0.db.write(|tx| {
            tx.execute("DELETE FROM shown_lists WHERE game_id = $1", args![game])?;
            Ok(())
        })
    }
}
