//! Games being gathered on PostgreSQL (the twin of [`crate::store::lobbies`]): one JSON
//! document per channel.

use super::PgStore;
use crate::store::error::Result;
use crate::store::{from_db, now_ms, to_db};

impl PgStore {
    /// Saves (or replaces) the lobby of `channel`.
    pub fn save_lobby(&self, channel: u64, body: &str) -> Result<()> {
        let now = now_ms();
        self.write(|db| {
            db.execute(
                "INSERT INTO lobbies (channel, body, updated_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (channel) DO UPDATE SET body = EXCLUDED.body, updated_at = EXCLUDED.updated_at",
                &[&to_db(channel), &body, &now],
            )?;
            Ok(())
        })
    }

    /// Forgets the lobby of `channel`.
    pub fn delete_lobby(&self, channel: u64) -> Result<()> {
        self.write(|db| {
            db.execute("DELETE FROM lobbies WHERE channel = $1", &[&to_db(channel)])?;
            Ok(())
        })
    }

    /// Every stored lobby as (channel, document).
    pub fn lobbies(&self) -> Result<Vec<(u64, String)>> {
        self.read(|db| {
            db.query("SELECT channel, body FROM lobbies ORDER BY channel", &[])?
                .iter()
                .map(|r| Ok((from_db(r.try_get(0)?), r.try_get(1)?)))
                .collect()
        })
    }
}
