//! Export and import of a whole game on PostgreSQL (the twin of [`crate::store::export`]): the
//! document is built and checked by the same code; only the reading and writing differ.

use super::games::read_seats;
use super::{insert_entry, read_game, read_log, Db, PgStore};
use crate::engine::{GameState, ENGINE_VERSION};
use crate::store::backend::GameStore;
use crate::store::error::{Result, StoreError};
use crate::store::export::{
    export_document, finish_export, import_owner, prepare_import, PreparedImport,
};
use crate::store::games::GameRows;
use crate::store::replay;
use crate::store::{
    now_ms, to_db, GameExport, GameId, GameStatus, Location, MoveEffects, SeatOwner,
};
use std::sync::Arc;

/// A game's row, seats and log as one consistent document (inside the caller's transaction).
fn export_rows(db: &mut Db<'_>, game: GameId) -> Result<GameExport> {
    Ok(export_document(
        read_game(db, game)?,
        read_seats(db, game)?,
        read_log(db, game)?,
    ))
}

impl PgStore {
    /// The whole game as one document. An active game is exported under its live lock; when
    /// another process moved in it meanwhile, the state is the replay of the document's own
    /// log (and this process's copy, behind, is reloaded on next use).
    pub fn export(&self, game: GameId) -> Result<GameExport> {
        let locked = self.with_live(game, |live| {
            let doc = self.read(|db| export_rows(db, game))?;
            if doc.log.len() as u64 == live.seq {
                return Ok((doc, Some(live.state.clone())));
            }
            self.live.evict(game, live);
            let state =
                replay::replay_from_seed(&self.data, &doc.options, &doc.seat_names, &doc.log)
                    .map_err(|e| StoreError::Corrupt {
                        game,
                        message: e.to_string(),
                    })?;
            Ok((doc, Some(Arc::new(state))))
        });
        finish_export(locked, || {
            Ok((
                self.read(|db| export_rows(db, game))?,
                GameStore::state(self, game).ok(),
            ))
        })
    }

    /// Stores an exported game as a new game in `location`, after replaying its log from the
    /// seed (see [`crate::store::Store::import`]).
    pub fn import(
        &self,
        doc: &GameExport,
        location: Location,
        owners: &[SeatOwner],
    ) -> Result<(GameId, Arc<GameState>)> {
        let PreparedImport {
            state,
            start,
            last_seq,
            status,
            snapshots,
        } = prepare_import(&self.data, self.options.snapshot_every, doc)?;
        let finished = status == GameStatus::Finished;
        let now = now_ms();
        let owner = import_owner(owners);
        let id = self.write(|db| {
            let id = self.insert_game_rows(
                db,
                &GameRows {
                    location: &location,
                    options: &doc.options,
                    names: &doc.seat_names,
                    state: &start,
                    status,
                    last_seq,
                    now,
                },
                &owner,
            )?;
            for entry in &doc.log {
                insert_entry(db, id, entry)?;
            }
            for (seq, s) in snapshots.range(..last_seq) {
                db.execute(
                    "INSERT INTO snapshots (game_id, seq, engine_version, state, at) VALUES ($1, $2, $3, $4, $5)",
                    &[&id, &to_db(*seq), &i64::from(ENGINE_VERSION), s, &now],
                )?;
            }
            // The last move's snapshot, the pruning and the image row, as after a move.
            let last = snapshots.get(&last_seq).map(String::as_str);
            self.write_state(db, id, last_seq, last, &MoveEffects::default(), now)?;
            Ok(id)
        })?;
        let state = Arc::new(state);
        if !finished {
            self.live.insert(id, state.clone(), last_seq);
        }
        Ok((id, state))
    }
}
