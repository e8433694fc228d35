//! Rebuilding a game's state from its log: pure functions, no database. It owns the meaning of
//! the log: batches apply atomically with `engine::apply_batch`; an undo record reverts one
//! earlier batch, and "replay" is a rebuild that skips every reverted batch (DECISIONS B6).
//! The state after the log prefix 1..=n honours only the undo records inside that prefix.

use super::LogEntry;
use crate::data::GameData;
use crate::engine::{self, GameOptions, GameState};
use std::collections::BTreeSet;

/// A replay that stopped: which log entry failed and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayError {
    /// Log sequence number of the entry that failed (0: setting the game up).
    pub seq: u64,
    pub message: String,
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.seq == 0 {
            write!(f, "setting the game up failed: {}", self.message)
        } else {
            write!(f, "move {} failed: {}", self.seq, self.message)
        }
    }
}

/// The sequence numbers of every batch an undo record reverts.
pub fn undone_set<'a>(entries: impl IntoIterator<Item = &'a LogEntry>) -> BTreeSet<u64> {
    entries
        .into_iter()
        .filter_map(|e| match e {
            LogEntry::Undo { undoes, .. } => Some(*undoes),
            LogEntry::Batch { .. } => None,
        })
        .collect()
}

/// Applies the batches of `entries` (in order) that are not in `undone` to `state`.
pub fn replay_onto<'a>(
    data: &GameData,
    mut state: GameState,
    entries: impl IntoIterator<Item = &'a LogEntry>,
    undone: &BTreeSet<u64>,
) -> Result<GameState, ReplayError> {
    for entry in entries {
        if let LogEntry::Batch {
            seq,
            seat,
            decisions,
            ..
        } = entry
        {
            if undone.contains(seq) {
                continue;
            }
            engine::apply_batch(data, &mut state, *seat, decisions).map_err(|e| ReplayError {
                seq: *seq,
                message: format!("seat {seat}: {e}"),
            })?;
        }
    }
    Ok(state)
}

/// The game as `new_game` sets it up.
pub fn initial_state(
    data: &GameData,
    options: &GameOptions,
    names: &[String],
) -> Result<GameState, ReplayError> {
    engine::new_game(data, options, names).map_err(|e| ReplayError {
        seq: 0,
        message: e.to_string(),
    })
}

/// Rebuilds the state after all of `entries` from the seed: set up, then every batch that no
/// undo record reverts.
pub fn replay_from_seed(
    data: &GameData,
    options: &GameOptions,
    names: &[String],
    entries: &[LogEntry],
) -> Result<GameState, ReplayError> {
    let start = initial_state(data, options, names)?;
    replay_onto(data, start, entries, &undone_set(entries))
}

/// Of the stored snapshots (sequence numbers, any order), the latest one the log can be
/// replayed from: no undo record after it reverts a batch at or before it. Snapshot 0 (the
/// set-up state) always qualifies.
pub fn usable_snapshot(snapshots: &[u64], entries: &[LogEntry]) -> Option<u64> {
    snapshots
        .iter()
        .copied()
        .filter(|&s| {
            entries.iter().all(|e| match e {
                LogEntry::Undo { seq, undoes, .. } => *seq <= s || *undoes > s,
                LogEntry::Batch { .. } => true,
            })
        })
        .max()
}

/// Checks the shape of a log: numbered 1, 2, 3, … without gaps; every undo record reverts an
/// earlier batch of the same seat, at most once.
pub fn check_log(entries: &[LogEntry]) -> Result<(), String> {
    let mut undone = BTreeSet::new();
    for (i, e) in entries.iter().enumerate() {
        let expected = i as u64 + 1;
        if e.seq() != expected {
            return Err(format!(
                "log entry {} has number {}, expected {expected}",
                i + 1,
                e.seq()
            ));
        }
        if let LogEntry::Undo {
            seq, seat, undoes, ..
        } = e
        {
            let target = undoes
                .checked_sub(1)
                .and_then(|k| entries.get(k as usize))
                .filter(|t| t.seq() < *seq);
            match target {
                Some(LogEntry::Batch { seat: s, .. }) if s == seat => {}
                _ => {
                    return Err(format!(
                        "undo record {seq} reverts {undoes}, which is not an earlier move of seat {seat}"
                    ))
                }
            }
            if !undone.insert(*undoes) {
                return Err(format!("move {undoes} is undone twice"));
            }
        }
    }
    Ok(())
}

/// The top-level fields in which two states differ (for damage reports: names only, never the
/// hidden contents).
pub fn differing_fields(a: &GameState, b: &GameState) -> Vec<String> {
    let (Ok(serde_json::Value::Object(a)), Ok(serde_json::Value::Object(b))) =
        (serde_json::to_value(a), serde_json::to_value(b))
    else {
        return vec!["(the states cannot be compared)".to_string()];
    };
    let keys: BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    keys.into_iter()
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| k.to_string())
        .collect()
}

/// Replays a whole log from the seed, step by step, and returns the state after every prefix
/// `keep` asks for (by sequence number; 0 = the set-up state), plus the final state. Each
/// undo record rebuilds from the seed over its prefix, so prefix states honour only the undo
/// records inside the prefix.
pub fn states_along(
    data: &GameData,
    options: &GameOptions,
    names: &[String],
    entries: &[LogEntry],
    keep: impl Fn(&LogEntry) -> bool,
) -> Result<(Vec<(u64, GameState)>, GameState), ReplayError> {
    let start = initial_state(data, options, names)?;
    let mut kept = vec![(0, start.clone())];
    let mut state = start;
    let mut prefix_undone = BTreeSet::new();
    for (i, entry) in entries.iter().enumerate() {
        state = match entry {
            LogEntry::Batch { .. } => {
                replay_onto(data, state, std::iter::once(entry), &BTreeSet::new())?
            }
            LogEntry::Undo { undoes, .. } => {
                prefix_undone.insert(*undoes);
                let start = initial_state(data, options, names)?;
                replay_onto(data, start, &entries[..=i], &prefix_undone)?
            }
        };
        if keep(entry) {
            kept.push((entry.seq(), state.clone()));
        }
    }
    Ok((kept, state))
}
