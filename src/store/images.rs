//! Public board images of stored state versions (DECISIONS B8). Each stored state (version =
//! log sequence number, 0 = the start) gets a row with an empty image in the transaction that
//! stores the state; the renderer fills it in later and later requests read it back. Only
//! public images are stored here; private ones are rendered on demand and never stored.

use super::error::Result;
use super::sql::{args, Tx};
use super::{now_ms, GameId, Store};

/// The board images of stored state versions (see [`Store::images`]).
#[derive(Clone, Copy)]
pub struct Images<'s>(pub(super) &'s Store);

impl Store {
    /// The public board images of stored state versions.
    pub fn images(&self) -> Images<'_> {
        Images(self)
    }
}

impl Images<'_> {
    /// The stored PNG of a state version, if the renderer has drawn it.
    pub fn board_png(&self, game: GameId, version: u64) -> Result<Option<Vec<u8>>> {
        Ok(self
            .0
            .db
            .read(|tx| {
                tx.query_opt(
                    "SELECT png FROM board_images WHERE game_id = $1 AND version = $2",
                    args![game, version],
                    |r| r.get::<Option<Vec<u8>>>(0),
                )
            })?
            .flatten())
    }

    /// Stores the rendered PNG of a state version.
    pub fn store_board_png(&self, game: GameId, version: u64, png: &[u8]) -> Result<()> {
        let now = now_ms();
        self.0.db.write(|tx| {
            tx.execute(
                "INSERT INTO board_images (game_id, version, png, rendered_at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (game_id, version) DO UPDATE SET png = excluded.png, rendered_at = excluded.rendered_at",
                args![game, version, png, now],
            )?;
            Ok(())
        })
    }

    /// State versions still waiting for their image, oldest first (the latest per game is the
    /// one worth rendering; older ones may be skipped).
    pub fn pending_renders(&self, limit: usize) -> Result<Vec<(GameId, u64)>> {
        self.0.db.read(|tx| {
            tx.query(
                "SELECT game_id, version FROM board_images WHERE png IS NULL \
                 ORDER BY game_id, version LIMIT $1",
                args![limit],
                |r| Ok((r.get(0)?, r.u64(1)?)),
            )
        })
    }
}

/// The empty image row of a stored state version (inside the caller's transaction).
pub(super) fn insert_image_row(tx: &mut Tx<'_>, game: GameId, version: u64) -> Result<()> {
    tx.execute(
        "INSERT INTO board_images (game_id, version) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        args![game, version],
    )?;
    Ok(())
}

/// Clears the drawn images of `game` (of `version` only, or every one): they are drawn again
/// when next asked for (a seat taken over, another language).
pub(super) fn clear_drawn(tx: &mut Tx<'_>, game: GameId, version: Option<u64>) -> Result<()> {
    match version {
        Some(v) => tx.execute(
            "UPDATE board_images SET png = NULL, rendered_at = NULL \
             WHERE game_id = $1 AND version = $2",
            args![game, v],
        )?,
        None => tx.execute(
            "UPDATE board_images SET png = NULL, rendered_at = NULL \
             WHERE game_id = $1 AND png IS NOT NULL",
            args![game],
        )?,
    };
    Ok(())
}
