//! Rebuilding a game's state from its log: pure functions, no database. It owns the meaning of
//! the log: a batch is one unit (accepted whole by `engine::apply_batch`, replayed with
//! `engine::replay_batch`, the same rules without the events); an undo record reverts one
//! earlier batch, and "replay" is a rebuild that skips every reverted batch (DECISIONS B6).
//! A rollback record (an admin's order) returns the game to the state after an earlier entry:
//! the batches in effect then are in effect again and every later batch is reverted. So the
//! batches in effect after any log are a subset of its batches, applied in log order.
//! The state after the log prefix 1..=n honours only the undo and rollback records inside it.

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

/// The sequence numbers of every batch that is not in effect after `entries` (in log order):
/// reverted by an undo record, or by a rollback to a point before it (or where it was undone).
pub fn undone_set<'a>(entries: impl IntoIterator<Item = &'a LogEntry>) -> BTreeSet<u64> {
    let entries: Vec<&LogEntry> = entries.into_iter().collect();
    let targets: BTreeSet<u64> = entries
        .iter()
        .filter_map(|e| match e {
            LogEntry::Rollback { back_to, .. } => Some(*back_to),
            _ => None,
        })
        .collect();
    // The batches in effect after each rollback target (0: the set-up, none).
    let mut in_effect_at: std::collections::BTreeMap<u64, BTreeSet<u64>> =
        std::collections::BTreeMap::new();
    let mut in_effect = BTreeSet::new();
    let mut batches = BTreeSet::new();
    for e in &entries {
        match e {
            LogEntry::Batch { seq, .. } => {
                in_effect.insert(*seq);
                batches.insert(*seq);
            }
            LogEntry::Undo { undoes, .. } => {
                in_effect.remove(undoes);
            }
            LogEntry::Rollback { back_to, .. } => {
                in_effect = in_effect_at.get(back_to).cloned().unwrap_or_default();
            }
        }
        if targets.contains(&e.seq()) {
            in_effect_at.insert(e.seq(), in_effect.clone());
        }
    }
    batches.difference(&in_effect).copied().collect()
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
            engine::replay_batch(data, &mut state, *seat, decisions).map_err(|e| ReplayError {
                seq: *seq,
                message: format!("seat {seat}: {e}"),
            })?;
        }
    }
    Ok(state)
}

/// Gives a state the game's current seat names (`names`: the human seats, in order; Luna keeps
/// hers).
///
/// Seat names are not history: a seat a person takes over carries their name in every state
/// from then on, so moves are announced and boards drawn with it. The game row's `seat_names`
/// hold the current names (taking a seat over rewrites them in the same transaction as the
/// seat), so a replay from the seed starts with them; a stored snapshot may predate the
/// take-over, so every snapshot is read through [`read_snapshot`] and given them too. One rule
/// in one place: a restart, an undo, a rollback, an import and the check of a snapshot against
/// a replay all see the same names, and no log entry (nor a new state version that would stale
/// the other players' buttons) is needed for a rename.
pub fn with_seat_names(mut state: GameState, names: &[String]) -> GameState {
    for (seat, name) in state.seats.iter_mut().zip(names) {
        if !seat.is_luna() {
            seat.name.clone_from(name);
        }
    }
    state
}

/// A stored snapshot's state, with the game's current seat names (see [`with_seat_names`]).
pub fn read_snapshot(text: &str, names: &[String]) -> serde_json::Result<GameState> {
    serde_json::from_str(text).map(|state| with_seat_names(state, names))
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
/// replayed from: no undo record after it reverts a batch at or before it, and no rollback
/// after it goes back to a point before it. Snapshot 0 (the set-up state) always qualifies.
pub fn usable_snapshot(snapshots: &[u64], entries: &[LogEntry]) -> Option<u64> {
    snapshots
        .iter()
        .copied()
        .filter(|&s| {
            entries.iter().all(|e| match e {
                LogEntry::Undo { seq, undoes, .. } => *seq <= s || *undoes > s,
                LogEntry::Rollback { seq, back_to, .. } => *seq <= s || *back_to >= s,
                LogEntry::Batch { .. } => true,
            })
        })
        .max()
}

/// Checks the shape of a log: numbered 1, 2, 3, … without gaps; every undo record reverts an
/// earlier batch of the same seat, at most once; every rollback goes back to an earlier entry.
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
        if let LogEntry::Rollback { seq, back_to, .. } = e {
            if back_to >= seq {
                return Err(format!(
                    "rollback {seq} goes forward to {back_to}, not back"
                ));
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
/// undo or rollback record rebuilds from the seed over its prefix, so prefix states honour
/// only the records inside the prefix.
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
    for (i, entry) in entries.iter().enumerate() {
        state = match entry {
            LogEntry::Batch { .. } => {
                replay_onto(data, state, std::iter::once(entry), &BTreeSet::new())?
            }
            LogEntry::Undo { .. } | LogEntry::Rollback { .. } => {
                let prefix = &entries[..=i];
                let start = initial_state(data, options, names)?;
                replay_onto(data, start, prefix, &undone_set(prefix))?
            }
        };
        if keep(entry) {
            kept.push((entry.seq(), state.clone()));
        }
    }
    Ok((kept, state))
}

/// How far a game's history holds up (the admin report, and the check before a rollback).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct History {
    /// Entries in the log.
    pub entries: u64,
    /// The last entry whose state a replay from the seed rebuilds and every stored snapshot up
    /// to it agrees with (0: only the set-up state).
    pub last_good: u64,
    /// Why the entry after `last_good` is not good (None: the whole log is good).
    pub problem: Option<String>,
}

/// A game's stored snapshots by sequence number: the JSON text, or why the database cannot
/// give it.
pub type StoredSnapshots = std::collections::BTreeMap<u64, Result<String, String>>;

/// Replays `entries` from the seed entry by entry, comparing the state after each entry that
/// has a stored snapshot (`snapshots`: sequence number and JSON text) with it. A snapshot that
/// disagrees, or does not read, makes its entry the first bad one: what the players saw from
/// then on is in doubt.
pub fn check_history(
    data: &GameData,
    options: &GameOptions,
    names: &[String],
    entries: &[LogEntry],
    snapshots: &StoredSnapshots,
) -> History {
    let total = entries.len() as u64;
    let verdict = |last_good: u64, problem: String| History {
        entries: total,
        last_good,
        problem: Some(problem),
    };
    let shape_ok = (0..=entries.len())
        .rev()
        .find(|&n| check_log(&entries[..n]).is_ok())
        .unwrap_or(0);
    let agrees = |seq: u64, state: &GameState| -> Result<(), String> {
        let text = match snapshots.get(&seq) {
            None => return Ok(()),
            Some(Err(e)) => return Err(format!("the snapshot of move {seq} cannot be read: {e}")),
            Some(Ok(text)) => text,
        };
        if serde_json::to_string(state).ok().as_deref() == Some(text.as_str()) {
            return Ok(());
        }
        match read_snapshot(text, names) {
            Ok(snap) if snap == *state => Ok(()),
            Ok(snap) => Err(format!(
                "the snapshot of move {seq} differs from a replay of the log from the seed in: {}",
                differing_fields(&snap, state).join(", ")
            )),
            Err(e) => Err(format!("the snapshot of move {seq} cannot be read: {e}")),
        }
    };
    let mut state = match initial_state(data, options, names) {
        Ok(s) => s,
        Err(e) => return verdict(0, e.to_string()),
    };
    if let Err(e) = agrees(0, &state) {
        return verdict(0, e);
    }
    for (i, entry) in entries[..shape_ok].iter().enumerate() {
        let next = match entry {
            LogEntry::Batch { .. } => {
                replay_onto(data, state, std::iter::once(entry), &BTreeSet::new())
            }
            LogEntry::Undo { .. } | LogEntry::Rollback { .. } => {
                let prefix = &entries[..=i];
                initial_state(data, options, names)
                    .and_then(|start| replay_onto(data, start, prefix, &undone_set(prefix)))
            }
        };
        state = match next {
            Ok(s) => s,
            Err(e) => return verdict(i as u64, e.to_string()),
        };
        if let Err(e) = agrees(entry.seq(), &state) {
            return verdict(i as u64, e);
        }
    }
    if shape_ok < entries.len() {
        let problem = check_log(entries).err().unwrap_or_default();
        return verdict(
            shape_ok as u64,
            format!("the move log is broken: {problem}"),
        );
    }
    History {
        entries: total,
        last_good: total,
        problem: None,
    }
}
