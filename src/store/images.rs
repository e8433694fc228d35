//! Public board images of stored state versions (DECISIONS B8). Each stored state (version =
//! log sequence number, 0 = the start) gets a row with an empty image in the move's
//! transaction; the renderer fills it in later and later requests read it back. Only public
//! images are stored here; private ones are rendered on demand and never stored.

use super::error::Result;
use super::{from_db, now_ms, to_db, GameId, Store};
use rusqlite::{params, Connection, OptionalExtension};

impl Store {
    /// The stored PNG of a state version, if the renderer has drawn it.
    pub fn board_png(&self, game: GameId, version: u64) -> Result<Option<Vec<u8>>> {
        self.read(|c| {
            Ok(c.prepare_cached(
                "SELECT png FROM board_images WHERE game_id = ?1 AND version = ?2",
            )?
            .query_row(params![game, to_db(version)], |r| {
                r.get::<_, Option<Vec<u8>>>(0)
            })
            .optional()?
            .flatten())
        })
    }

    /// Stores the rendered PNG of a state version.
    pub fn store_board_png(&self, game: GameId, version: u64, png: &[u8]) -> Result<()> {
        let now = now_ms();
        self.write(|tx| {
            tx.prepare_cached(
                "INSERT INTO board_images (game_id, version, png, rendered_at) VALUES (?1, ?2, ?3, ?4) \
                 ON CONFLICT (game_id, version) DO UPDATE SET png = excluded.png, rendered_at = excluded.rendered_at",
            )?
            .execute(params![game, to_db(version), png, now])?;
            Ok(())
        })
    }

    /// State versions still waiting for their image, oldest first (the latest per game is the
    /// one worth rendering; older ones may be skipped).
    pub fn pending_renders(&self, limit: usize) -> Result<Vec<(GameId, u64)>> {
        self.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT game_id, version FROM board_images WHERE png IS NULL ORDER BY game_id, version LIMIT ?1",
            )?;
            let rows = stmt.query_map([limit as i64], |r| {
                Ok((r.get::<_, GameId>(0)?, from_db(r.get(1)?)))
            })?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }
}

pub(super) fn insert_image_row(tx: &Connection, game: GameId, version: u64) -> Result<()> {
    tx.prepare_cached("INSERT OR IGNORE INTO board_images (game_id, version) VALUES (?1, ?2)")?
        .execute(params![game, to_db(version)])?;
    Ok(())
}
