//! Snapshots: the whole `GameState` as JSON at a log sequence number, written at set-up, every
//! K moves, after every undo and rollback and when a game ends; older ones beyond the window are
//! pruned (the set-up snapshot always stays). Restore and undo start from the latest usable one.

use super::error::{Result, StoreError};
use super::{from_db, to_db, GameId};
use crate::engine::ENGINE_VERSION;
use rusqlite::{params, Connection, OptionalExtension};

pub(super) fn snapshot_seqs(conn: &Connection, game: GameId) -> Result<Vec<u64>> {
    let mut stmt = conn.prepare_cached("SELECT seq FROM snapshots WHERE game_id = ?1")?;
    let rows = stmt.query_map([game], |r| r.get::<_, i64>(0))?;
    rows.map(|r| {
        r.map(from_db)
            .map_err(|e| StoreError::decoding(game, "a snapshot's number", e))
    })
    .collect()
}

pub(super) fn read_snapshot(conn: &Connection, game: GameId, seq: u64) -> Result<String> {
    conn.prepare_cached("SELECT state FROM snapshots WHERE game_id = ?1 AND seq = ?2")?
        .query_row(params![game, to_db(seq)], |r| r.get(0))
        .optional()
        .map_err(|e| StoreError::decoding(game, &format!("the snapshot of move {seq}"), e))?
        .ok_or_else(|| StoreError::Corrupt {
            game,
            message: format!("the snapshot of move {seq} is missing"),
        })
}

pub(super) fn insert_snapshot(
    tx: &Connection,
    game: GameId,
    seq: u64,
    state: &str,
    at: i64,
) -> Result<()> {
    tx.prepare_cached(
        "INSERT INTO snapshots (game_id, seq, engine_version, state, at) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![game, to_db(seq), ENGINE_VERSION, state, at])?;
    Ok(())
}

/// Deletes the snapshots more than `window` moves before `seq`, except the set-up one.
pub(super) fn prune_snapshots(tx: &Connection, game: GameId, seq: u64, window: u64) -> Result<()> {
    if window > 0 && seq > window {
        tx.prepare_cached("DELETE FROM snapshots WHERE game_id = ?1 AND seq > 0 AND seq < ?2")?
            .execute(params![game, to_db(seq - window)])?;
    }
    Ok(())
}
