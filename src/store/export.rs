//! Export and import of a whole game as one JSON document: options, seed, seat names, every
//! log entry (decision batches with their seats, undo records), the data hash and engine
//! version, and a digest of the final state. Importing replays the log from the seed, so the
//! document is the basis for bug reports and `/skymines export`.
//!
//! The document holds the seed, from which the deck order follows: exporting a running game is
//! for the bot's owners only (DECISIONS B4); the chat layer enforces that.

use super::admin::Admin;
use super::error::{Result, StoreError};
use super::games::{insert_game_rows, read_game, read_seats, GameRows};
use super::moves::{insert_entry, read_log, read_log_prefix};
use super::replay;
use super::snapshots::insert_snapshot;
use super::sql::Tx;
use super::{
    json, now_ms, GameId, GameRecord, GameStatus, Location, LogEntry, Notify, SeatOwner, SeatRecord,
};
use crate::data::GameData;
use crate::engine::{GameOptions, GameState, Phase, ENGINE_VERSION};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The `format` field of every export.
pub const FORMAT: &str = "skymines-game";
/// The newest document layout this version reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// A whole game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameExport {
    pub format: String,
    pub format_version: u32,
    /// The engine version and data hash the game was played with.
    pub engine_version: u32,
    pub data_hash: String,
    pub options: GameOptions,
    pub seed: u64,
    /// The names given to `engine::new_game` (human seats, in order, as they are now: a seat
    /// taken over under its new person's name).
    pub seat_names: Vec<String>,
    pub seats: Vec<ExportSeat>,
    pub status: GameStatus,
    pub log: Vec<LogEntry>,
    /// SHA-256 of the final state's JSON (absent for a damaged game): import checks its replay
    /// against it.
    pub state_sha256: Option<String>,
    pub exported_at: i64,
}

/// A seat as exported (no Discord ids: an export names players, it does not identify them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportSeat {
    pub seat: usize,
    pub name: String,
    pub luna: bool,
    pub colour: usize,
}

impl GameExport {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<GameExport> {
        serde_json::from_str(text).map_err(|e| StoreError::BadExport(e.to_string()))
    }
}

/// SHA-256 (hex) of a state's JSON.
pub fn state_digest(state: &GameState) -> String {
    Sha256::digest(json(state).as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A game's row, seats and log as one consistent document (inside the caller's transaction).
/// A damaged game's log is exported as far as it reads (for the bug report).
fn export_rows(tx: &mut Tx<'_>, game: GameId) -> Result<GameExport> {
    let record = read_game(tx, game)?;
    let seats = read_seats(tx, game)?;
    let log = if record.status == GameStatus::Damaged {
        read_log_prefix(tx, game)?.0
    } else {
        read_log(tx, game)?
    };
    Ok(export_document(record, seats, log))
}

impl Admin<'_> {
    /// The whole game as one document. An active game is exported under its live lock; when
    /// another process moved in it meanwhile, the state is the replay of the document's own
    /// log (and this process's copy, behind, is reloaded on next use).
    pub fn export(&self, game: GameId) -> Result<GameExport> {
        let store = self.0;
        let locked = store.with_live(game, |live| {
            let doc = store.db.read(|tx| export_rows(tx, game))?;
            if doc.log.len() as u64 == live.seq {
                return Ok((doc, Some(live.state.clone())));
            }
            store.live.evict(game, live);
            let state =
                replay::replay_from_seed(&store.data, &doc.options, &doc.seat_names, &doc.log)
                    .map_err(|e| StoreError::Corrupt {
                        game,
                        message: e.to_string(),
                    })?;
            Ok((doc, Some(Arc::new(state))))
        });
        finish_export(locked, || {
            Ok((
                store.db.read(|tx| export_rows(tx, game))?,
                store.games().state(game).ok(),
            ))
        })
    }

    /// Stores an exported game as a new game in `location`, after replaying its log from the
    /// seed (and checking the result against the document's digest). `owners` gives the human
    /// seats' players in seat order; missing ones are local. An unfinished game becomes active
    /// (the channel must be free), a finished one stays finished.
    pub fn import(
        &self,
        doc: &GameExport,
        location: Location,
        owners: &[SeatOwner],
    ) -> Result<(GameId, Arc<GameState>)> {
        let store = self.0;
        let PreparedImport {
            state,
            start,
            last_seq,
            status,
            snapshots,
        } = prepare_import(&store.data, store.options.snapshot_every, doc)?;
        let finished = status == GameStatus::Finished;
        let now = now_ms();
        let owner = import_owner(owners);
        let id = store.db.write(|tx| {
            let id = insert_game_rows(
                tx,
                &store.data.hash,
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
                insert_entry(tx, id, entry)?;
            }
            for (seq, s) in snapshots.range(..last_seq) {
                insert_snapshot(tx, id, *seq, s, now)?;
            }
            // The last move's snapshot, the pruning and the image row, as after a move.
            let last = snapshots.get(&last_seq).map(String::as_str);
            store.write_state(tx, id, last_seq, last, now)?;
            Ok(id)
        })?;
        let state = Arc::new(state);
        if !finished {
            store.live.insert(id, state.clone(), last_seq);
        }
        Ok((id, state))
    }
}

/// An export and the state it ends in (None: it does not replay).
type ExportedRows = (GameExport, Option<Arc<GameState>>);

/// The document of a game (either backend) with its final state's digest: `locked`, the export
/// of an active game made under its live lock; else (an ended or damaged game) `unlocked`.
fn finish_export(
    locked: Result<ExportedRows>,
    unlocked: impl FnOnce() -> Result<ExportedRows>,
) -> Result<GameExport> {
    let (mut doc, state) = match locked {
        Ok(x) => x,
        Err(StoreError::NotActive { .. }) | Err(StoreError::Damaged { .. }) => unlocked()?,
        Err(e) => return Err(e),
    };
    doc.state_sha256 = state.map(|s| state_digest(&s));
    Ok(doc)
}

/// The document of a game from its stored row, seats and log (either backend; the digest is
/// the caller's, from the state it holds).
fn export_document(rec: GameRecord, seats: Vec<SeatRecord>, log: Vec<LogEntry>) -> GameExport {
    GameExport {
        format: FORMAT.to_string(),
        format_version: FORMAT_VERSION,
        engine_version: rec.engine_version,
        data_hash: rec.data_hash,
        seed: rec.seed,
        options: rec.options,
        seat_names: rec.seat_names,
        seats: seats
            .into_iter()
            .map(|s| ExportSeat {
                seat: s.seat,
                name: s.name,
                luna: s.owner == SeatOwner::Luna,
                colour: s.colour,
            })
            .collect(),
        status: rec.status,
        log,
        state_sha256: None,
        exported_at: now_ms(),
    }
}

/// An exported game checked and replayed, ready to be stored (either backend).
struct PreparedImport {
    /// The state after the whole log.
    state: GameState,
    /// The set-up state (the seats come from it).
    start: GameState,
    last_seq: u64,
    /// Finished when the log ends the game, else active.
    status: GameStatus,
    /// The snapshots to store (JSON by sequence number), the last move's among them.
    snapshots: BTreeMap<u64, String>,
}

/// Checks an exported document and replays its log from the seed (checking the result against
/// the document's digest): what [`Admin::import`] stores.
fn prepare_import(
    data: &GameData,
    snapshot_every: u64,
    doc: &GameExport,
) -> Result<PreparedImport> {
    let bad = |m: String| StoreError::BadExport(m);
    if doc.format != FORMAT || doc.format_version == 0 || doc.format_version > FORMAT_VERSION {
        return Err(bad(format!(
            "not a {FORMAT} document of version 1 to {FORMAT_VERSION} (found {} version {})",
            doc.format, doc.format_version
        )));
    }
    if doc.options.seed != doc.seed {
        return Err(bad(format!(
            "the seed {} differs from the options' seed {}",
            doc.seed, doc.options.seed
        )));
    }
    replay::check_log(&doc.log).map_err(bad)?;
    let every = snapshot_every;
    let (snapshots, state) =
        replay::states_along(data, &doc.options, &doc.seat_names, &doc.log, |e| {
            matches!(e, LogEntry::Undo { .. } | LogEntry::Rollback { .. }) || e.seq() % every == 0
        })
        .map_err(|e| bad(format!("its moves do not replay: {e}")))?;
    if let Some(expected) = &doc.state_sha256 {
        if *expected != state_digest(&state) {
            return Err(bad(format!(
                    "replaying its moves gives another state than the exported game had \
                     (exported with engine {} and data {}; this is engine {ENGINE_VERSION} with data {})",
                    doc.engine_version, doc.data_hash, data.hash
                )));
        }
    }
    let last_seq = doc.log.len() as u64;
    let status = if state.phase == Phase::Finished {
        GameStatus::Finished
    } else {
        GameStatus::Active
    };
    let mut snapshots = snapshots.into_iter();
    let start = snapshots
        .next()
        .map(|(_, s)| s)
        .ok_or_else(|| bad("no set-up state".to_string()))?;
    let mut snapshot_json: BTreeMap<u64, String> = std::iter::once((0, json(&start)))
        .chain(snapshots.map(|(seq, s)| (seq, json(&s))))
        .collect();
    snapshot_json
        .entry(last_seq)
        .or_insert_with(|| json(&state));
    Ok(PreparedImport {
        state,
        start,
        last_seq,
        status,
        snapshots: snapshot_json,
    })
}

/// Who plays each seat of an imported game: `owners` in seat order, local players past them.
fn import_owner(owners: &[SeatOwner]) -> impl Fn(usize) -> (SeatOwner, Notify) + '_ {
    |seat: usize| {
        (
            owners.get(seat).copied().unwrap_or(SeatOwner::Local),
            Notify::Ephemeral,
        )
    }
}
