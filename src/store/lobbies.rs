//! Games being gathered (migration `0007_lobbies.sql`): one JSON document per channel that the
//! chat layer defines, written on every change so a restart keeps them.

use super::error::Result;
use super::{from_db, now_ms, to_db, Store};
use rusqlite::params;

impl Store {
    /// Saves (or replaces) the lobby of `channel`.
    pub fn save_lobby(&self, channel: u64, body: &str) -> Result<()> {
        let now = now_ms();
        self.write(|tx| {
            tx.prepare_cached(
                "INSERT OR REPLACE INTO lobbies (channel, body, updated_at) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![to_db(channel), body, now])?;
            Ok(())
        })
    }

    /// Forgets the lobby of `channel` (started, closed or dropped).
    pub fn delete_lobby(&self, channel: u64) -> Result<()> {
        self.write(|tx| {
            tx.prepare_cached("DELETE FROM lobbies WHERE channel = ?1")?
                .execute([to_db(channel)])?;
            Ok(())
        })
    }

    /// Every stored lobby as (channel, document).
    pub fn lobbies(&self) -> Result<Vec<(u64, String)>> {
        self.read(|c| {
            let mut stmt =
                c.prepare_cached("SELECT channel, body FROM lobbies ORDER BY channel")?;
            let rows = stmt.query_map([], |r| Ok((from_db(r.get(0)?), r.get(1)?)))?;
            Ok(rows.collect::<std::result::Result<Vec<_>, _>>()?)
        })
    }
}
