//! The numbered list each user was last shown in a game (migration `0012_shown_lists.sql`,
//! DECISIONS B19): the click version it belongs to and its options, so `/choose N` means after
//! a restart what it meant before. One row per (game, user), replaced by each new list; the
//! options are a document only the chat layer reads (the store keeps it as text).

use super::error::Result;
use super::{from_db, now_ms, to_db, GameId, Store};
use rusqlite::{params, OptionalExtension};

impl Store {
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
        self.write(|tx| {
            tx.prepare_cached(
                "INSERT OR REPLACE INTO shown_lists (game_id, user_id, version, options, shown_at) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![game, to_db(user), to_db(version), options, now])?;
            Ok(())
        })
    }

    /// The list `user` was last shown in `game`: its click version and options.
    pub fn shown_list(&self, game: GameId, user: u64) -> Result<Option<(u64, String)>> {
        self.read(|c| {
            Ok(c.prepare_cached(
                "SELECT version, options FROM shown_lists WHERE game_id = ?1 AND user_id = ?2",
            )?
            .query_row(params![game, to_db(user)], |r| {
                Ok((from_db(r.get::<_, i64>(0)?), r.get::<_, String>(1)?))
            })
            .optional()?)
        })
    }

    /// Forgets the lists shown in `game` (it ended: nothing is left to choose).
    pub fn clear_shown_lists(&self, game: GameId) -> Result<()> {
        self.write(|tx| {
            tx.prepare_cached("DELETE FROM shown_lists WHERE game_id = ?1")?
                .execute([game])?;
            Ok(())
        })
    }
}
