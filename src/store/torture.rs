//! Crash-safety torture: a deterministic driver that plays seeded games through the store (the
//! `skymines store-torture` helper the kill tests spawn and SIGKILL), and the same games played
//! on the bare engine without any store, to compare restored games against.
//!
//! Move `n` of game `seed` depends only on the seed, `n` and the state before it, so a run that
//! is killed and started again continues the very same game, and the engine-only reference
//! after `n` moves is what the store must restore after `n` committed moves.

use super::error::Result;
use super::{
    Database, GameId, Location, LogEntry, NewGame, NewSeat, Notify, SeatOwner, Store, StoreError,
    StoreOptions,
};
use crate::data::GameData;
use crate::engine::{self, Decision, GameOptions, GameState, Phase, TokenSetup, TrackSetup};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::io::Write;
use std::sync::Arc;

/// One move of the driver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Move {
    Batch {
        seat: usize,
        decisions: Vec<Decision>,
    },
    /// Undo the seat's last batch (offered only right after that batch).
    Undo { seat: usize },
}

/// The options of torture game `seed`: 2–4 players, some with random tracks, drafted tokens
/// or linked slots.
pub fn torture_options(seed: u64) -> GameOptions {
    GameOptions {
        players: 2 + (seed % 3) as usize,
        tracks: if seed % 4 == 1 {
            TrackSetup::Random
        } else {
            TrackSetup::Default
        },
        tokens: if seed % 3 == 2 {
            TokenSetup::Draft
        } else {
            TokenSetup::Fixed
        },
        linked_slots: seed % 5 == 3,
        seed,
        ..GameOptions::default()
    }
}

/// Move number `step` (0-based: the number of log entries so far) of game `seed`.
/// `undoable`: the seat whose batch is the last log entry, if it is a batch. None when the
/// game is over.
pub fn next_move(
    data: &GameData,
    state: &GameState,
    undoable: Option<usize>,
    seed: u64,
    step: u64,
) -> Option<Move> {
    if state.phase == Phase::Finished {
        return None;
    }
    let mut rng =
        ChaCha8Rng::seed_from_u64(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ step.rotate_left(17));
    if let Some(seat) = undoable {
        if rng.gen_ratio(1, 8) {
            return Some(Move::Undo { seat });
        }
    }
    let waiting = engine::waiting_on(state);
    let seat = *waiting.get(rng.gen_range(0..waiting.len().max(1)))?;
    let want = rng.gen_range(1..=3);
    let mut scratch = state.clone();
    let mut decisions = Vec::new();
    while decisions.len() < want && engine::waiting_on(&scratch).contains(&seat) {
        let legal = engine::legal_decisions(data, &scratch, seat);
        let Some(d) = crate::bots::weighted::choose(&mut rng, data, &scratch, seat, &legal) else {
            break;
        };
        if engine::apply(data, &mut scratch, seat, d).is_err() {
            break;
        }
        decisions.push(d);
    }
    (!decisions.is_empty()).then_some(Move::Batch { seat, decisions })
}

/// Game `seed` after `moves` driver moves on the bare engine (fewer if it ends first): the
/// state an uninterrupted run reaches, and the number of moves made.
pub fn reference(data: &GameData, seed: u64, moves: u64) -> (GameState, u64) {
    let mut trace = reference_trace(data, seed, moves);
    let made = trace.len() as u64 - 1;
    (trace.pop().unwrap_or_else(|| unreachable_setup(seed)), made)
}

fn unreachable_setup(seed: u64) -> GameState {
    panic!("torture options of seed {seed} do not set up")
}

/// The states of game `seed` on the bare engine after 0, 1, 2, … `moves` driver moves (fewer
/// if it ends first).
pub fn reference_trace(data: &GameData, seed: u64, moves: u64) -> Vec<GameState> {
    let options = torture_options(seed);
    let names = crate::sim::seat_names(options.players);
    let Ok(start) = engine::new_game(data, &options, &names) else {
        return vec![unreachable_setup(seed)];
    };
    let mut trace = vec![start];
    // Per log entry: the seat of a batch (None for an undo record).
    let mut seats: Vec<Option<usize>> = Vec::new();
    // Per log entry: the index in `trace` of the state before it.
    let mut before: Vec<usize> = Vec::new();
    for step in 0..moves {
        let Some(state) = trace.last() else { break };
        let undoable = seats.last().copied().flatten();
        match next_move(data, state, undoable, seed, step) {
            None => break,
            Some(Move::Batch { seat, decisions }) => {
                let mut next = state.clone();
                if let Err(e) = engine::apply_batch(data, &mut next, seat, &decisions) {
                    panic!("seed {seed} move {step}: the driver chose a refused batch: {e}");
                }
                before.push(trace.len() - 1);
                seats.push(Some(seat));
                trace.push(next);
            }
            Some(Move::Undo { .. }) => {
                let undone = before.last().map_or(0, |&i| i);
                let back = trace[undone].clone();
                before.push(trace.len() - 1);
                seats.push(None);
                trace.push(back);
            }
        }
    }
    trace
}

/// Finds or creates torture game `seed` (in channel `seed`).
pub fn torture_game(store: &Store, seed: u64) -> Result<GameId> {
    if let Some(id) = store.games().game_in_channel(seed)? {
        return Ok(id);
    }
    let options = torture_options(seed);
    let seats = crate::sim::seat_names(options.players)
        .into_iter()
        .map(|name| NewSeat {
            owner: SeatOwner::Local,
            name,
            notify: Notify::Ephemeral,
        })
        .collect();
    let location = Location {
        guild: None,
        channel: seed,
    };
    let (id, _) = store
        .games()
        .create_game(NewGame::new(location, options, seats))?;
    Ok(id)
}

/// Plays game `seed` through the store until it has `moves` log entries (or ends), calling
/// `after` with each committed sequence number. Returns the last sequence number.
pub fn drive(
    store: &Store,
    game: GameId,
    seed: u64,
    moves: u64,
    mut after: impl FnMut(u64),
) -> Result<u64> {
    let games = store.games();
    loop {
        let (state, seq) = match games.live_state(game) {
            Ok(x) => x,
            Err(StoreError::NotActive { .. }) => return Ok(games.game(game)?.seq),
            Err(e) => return Err(e),
        };
        if seq >= moves {
            return Ok(seq);
        }
        let undoable = match games.last_entry(game)? {
            Some(LogEntry::Batch { seat, .. }) => Some(seat),
            _ => None,
        };
        let done = match next_move(store.data(), &state, undoable, seed, seq) {
            None => return Ok(seq),
            Some(Move::Batch { seat, decisions }) => games.apply(game, seat, &decisions)?.seq,
            Some(Move::Undo { seat }) => games.undo(game, seat)?.seq,
        };
        after(done);
    }
}

/// `skymines store-torture` (options parsed in `crate::cli`): opens (and restores) the store
/// (an SQLite file or a PostgreSQL database), plays game `seed` to N moves printing
/// `move <seq>` after each commit, then `done <seq>`. A test helper: the kill tests SIGKILL it
/// at random points.
pub fn run(db: &Database, seed: u64, moves: u64, snapshot_every: u64, out: &mut dyn Write) -> i32 {
    let data = match GameData::embedded() {
        Ok(d) => Arc::new(d),
        Err(e) => {
            eprintln!("data check failed: {e}");
            return 1;
        }
    };
    let options = StoreOptions {
        snapshot_every,
        ..StoreOptions::default()
    };
    let run = || -> Result<u64> {
        let (store, report) = db.open(data, options)?;
        if let Some((id, why)) = report.damaged.first() {
            return Err(StoreError::Damaged {
                game: *id,
                report: why.clone(),
            });
        }
        let game = torture_game(&store, seed)?;
        let _ = writeln!(out, "ready {}", store.games().game(game)?.seq);
        let _ = out.flush();
        drive(&store, game, seed, moves, |seq| {
            let _ = writeln!(out, "move {seq}");
            let _ = out.flush();
        })
    };
    match run() {
        Ok(seq) => {
            let _ = writeln!(out, "done {seq}");
            0
        }
        Err(e) => {
            eprintln!("store-torture: {e}");
            1
        }
    }
}
