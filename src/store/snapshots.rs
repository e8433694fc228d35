//! Snapshots: the whole `GameState` as JSON at a log sequence number, written at set-up, every
//! K moves, after every undo and rollback and when a game ends; older ones beyond the window are
//! pruned (the set-up snapshot always stays). Restore and undo start from the latest usable one.

use super::error::{Result, StoreError};
use super::sql::{args, Tx};
use super::GameId;
use crate::engine::ENGINE_VERSION;
use std::collections::BTreeMap;

/// A game's stored snapshots: the JSON text, or why it does not read (`replay::StoredSnapshots`).
type StoredSnapshots = BTreeMap<u64, std::result::Result<String, String>>;

pub(super) fn snapshot_seqs(tx: &mut Tx<'_>, game: GameId) -> Result<Vec<u64>> {
    tx.query(
        "SELECT seq FROM snapshots WHERE game_id = $1",
        args![game],
        |r| {
            r.u64(0)
                .map_err(|e| e.decoding(game, "a snapshot's number"))
        },
    )
}

pub(super) fn read_snapshot(tx: &mut Tx<'_>, game: GameId, seq: u64) -> Result<String> {
    tx.query_opt(
        "SELECT state FROM snapshots WHERE game_id = $1 AND seq = $2",
        args![game, seq],
        |r| r.get(0),
    )
    .map_err(|e| e.decoding(game, &format!("the snapshot of move {seq}")))?
    .ok_or_else(|| StoreError::Corrupt {
        game,
        message: format!("the snapshot of move {seq} is missing"),
    })
}

pub(super) fn insert_snapshot(
    tx: &mut Tx<'_>,
    game: GameId,
    seq: u64,
    state: &str,
    at: i64,
) -> Result<()> {
    tx.execute(
        "INSERT INTO snapshots (game_id, seq, engine_version, state, at) VALUES ($1, $2, $3, $4, $5)",
        args![game, seq, ENGINE_VERSION, state, at],
    )?;
    Ok(())
}

/// Deletes the snapshots more than `window` moves before `seq`, except the set-up one.
pub(super) fn prune_snapshots(tx: &mut Tx<'_>, game: GameId, seq: u64, window: u64) -> Result<()> {
    if window > 0 && seq > window {
        tx.execute(
            "DELETE FROM snapshots WHERE game_id = $1 AND seq > 0 AND seq < $2",
            args![game, seq - window],
        )?;
    }
    Ok(())
}

/// The stored snapshots written by this engine, by sequence number (older engines' snapshots
/// are not comparable with a replay by this one); a snapshot whose text the database cannot
/// give (not UTF-8, not text) is there as the reason, so the history check stops at it.
pub(super) fn current_snapshots(tx: &mut Tx<'_>, game: GameId) -> Result<StoredSnapshots> {
    tx.query(
        "SELECT seq, state FROM snapshots WHERE game_id = $1 AND engine_version = $2",
        args![game, ENGINE_VERSION],
        |r| {
            let text = r.get::<String>(1).map_err(|e| match e {
                StoreError::Sqlite(e) => e.to_string(),
                other => other.to_string(),
            });
            Ok((r.u64(0)?, text))
        },
    )
    .map(|rows| rows.into_iter().collect())
}
