//! Helpers shared by the store tests: stores with a given K, and seeded games played through
//! the store or on the bare engine.

use super::{data, shared_data};
use skymines::engine::GameState;
use skymines::store::torture::{next_move, reference, torture_game, Move};
use skymines::store::{GameId, LogEntry, RestoreReport, Store, StoreError, StoreOptions};
use std::path::{Path, PathBuf};

pub fn options(k: u64) -> StoreOptions {
    StoreOptions {
        snapshot_every: k,
        ..StoreOptions::default()
    }
}

pub fn open(path: &Path, k: u64) -> (Store, RestoreReport) {
    Store::open(path, shared_data(), options(k)).expect("the store opens")
}

/// One driver move of torture game `seed` through the store (None: the game is over).
pub fn step(store: &Store, game: GameId, seed: u64) -> Option<Result<u64, StoreError>> {
    let (state, seq) = store.games().live_state(game).ok()?;
    let undoable = match store.games().last_entry(game) {
        Ok(Some(LogEntry::Batch { seat, .. })) => Some(seat),
        Ok(_) => None,
        Err(e) => return Some(Err(e)),
    };
    Some(
        match next_move(store.data(), &state, undoable, seed, seq)? {
            Move::Batch { seat, decisions } => {
                store.games().apply(game, seat, &decisions).map(|o| o.seq)
            }
            Move::Undo { seat } => store.games().undo(game, seat).map(|o| o.seq),
        },
    )
}

/// Plays torture game `seed` to `moves` log entries; returns the game.
pub fn play(store: &Store, seed: u64, moves: u64) -> GameId {
    let game = torture_game(store, seed).expect("the game is created");
    skymines::store::torture::drive(store, game, seed, moves, |_| {}).expect("the moves store");
    game
}

/// Torture game `seed` after `moves` moves on the bare engine.
pub fn expected(seed: u64, moves: u64) -> GameState {
    let (state, made) = reference(data(), seed, moves);
    assert_eq!(made, moves, "seed {seed}: the reference game ended early");
    state
}

/// The file's bytes (with its WAL, if any).
pub fn bytes(path: &Path) -> (Vec<u8>, Option<Vec<u8>>) {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    (
        std::fs::read(path).expect("the file reads"),
        std::fs::read(PathBuf::from(wal)).ok(),
    )
}

/// Rewrites the latest snapshot of `game` with 7 more coins for seat 0 (a disk fault or a hand
/// edit the start-up replay must catch); returns the snapshot's move and its new text.
pub fn tamper_latest_snapshot(conn: &rusqlite::Connection, game: i64) -> (i64, String) {
    let (seq, text): (i64, String) = conn
        .query_row(
            "SELECT seq, state FROM snapshots WHERE game_id = ?1 ORDER BY seq DESC LIMIT 1",
            [game],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("snapshot");
    let mut state: GameState = serde_json::from_str(&text).expect("state");
    state.seats[0].coins += 7;
    let text = serde_json::to_string(&state).expect("json");
    conn.execute(
        "UPDATE snapshots SET state = ?3 WHERE game_id = ?1 AND seq = ?2",
        rusqlite::params![game, seq, text],
    )
    .expect("tamper");
    (seq, text)
}
