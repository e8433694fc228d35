//! The live set: the state and version of every active game in memory, one mutex per game held
//! for a whole move (lock order: game, then connection). A game not in memory is loaded (and
//! checked) on first use; a finished, abandoned or conflicting game leaves the set and waiters
//! retry. Finished games' states are rebuilt from their snapshots on request.

use super::error::{Result, StoreError};
use super::games::{read_game, GameLog};
use super::restore::{read_raw_games, restore_raw, Restored};
use super::{lock, GameId, GameStatus, Store};
use crate::engine::GameState;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, RwLock};

/// A game in memory.
pub(super) struct Live {
    pub(super) state: Arc<GameState>,
    pub(super) seq: u64,
    /// Set when the game left the live set (finished, abandoned, reloaded): waiters retry.
    pub(super) closed: bool,
}

impl Store {
    /// Loads one active game that is not in memory (created or moved by another process, or
    /// reloaded); a game that does not restore is set aside as damaged.
    pub(super) fn load_live(&self, game: GameId) -> Result<Arc<Mutex<Live>>> {
        let raw = self.db.read(|tx| {
            let rec = read_game(tx, game)?;
            match rec.status {
                GameStatus::Active => {}
                GameStatus::Damaged => {
                    return Err(StoreError::Damaged {
                        game,
                        report: rec.damage_report.unwrap_or_default(),
                    })
                }
                status => return Err(StoreError::NotActive { game, status }),
            }
            read_raw_games(tx, &[game])
        })?;
        let verdict = match raw.into_iter().next().map(|(_, raw)| raw) {
            None => return Err(StoreError::NoSuchGame(game)),
            Some(Ok(raw)) => match restore_raw(&self.data, &raw, self.options.verify_on_restore) {
                Restored::Ok { state, .. } => {
                    return Ok(self.live.insert_loaded(
                        game,
                        *state,
                        raw.record.seq,
                        visiting(&self.options, &raw.record),
                    ))
                }
                Restored::Damaged(report) => report,
            },
            Some(Err(StoreError::Corrupt { message, .. })) => message,
            Some(Err(e)) => return Err(e),
        };
        self.mark_damaged(&[(game, verdict.clone())])?;
        Err(StoreError::Damaged {
            game,
            report: verdict,
        })
    }

    pub(super) fn live_game(&self, game: GameId) -> Result<Arc<Mutex<Live>>> {
        match self.live.get(game) {
            Some(l) => Ok(l),
            None => self.load_live(game),
        }
    }

    /// Runs `f` with the game's live entry locked, retrying when the entry closed meanwhile.
    pub(super) fn with_live<T>(
        &self,
        game: GameId,
        f: impl FnMut(&mut Live) -> Result<T>,
    ) -> Result<T> {
        self.live.with(game, || self.load_live(game), f)
    }
}

impl GameLog<'_> {
    /// The current state of a game: the live one for active games, else rebuilt from its
    /// latest snapshot (finished, abandoned games).
    pub fn state(&self, game: GameId) -> Result<Arc<GameState>> {
        let store = self.0;
        match store.with_live(game, |live| Ok(live.state.clone())) {
            Err(StoreError::NotActive { .. }) => {}
            other => return other,
        }
        let raw = store
            .db
            .read(|tx| read_raw_games(tx, &[game]))?
            .into_iter()
            .next()
            .map(|(_, raw)| raw)
            .ok_or(StoreError::NoSuchGame(game))??;
        match restore_raw(&store.data, &raw, false) {
            Restored::Ok { state, .. } => Ok(Arc::new(*state)),
            Restored::Damaged(report) => Err(StoreError::Corrupt {
                game,
                message: report,
            }),
        }
    }

    /// The current state and its version (log sequence number) of an active game.
    pub fn live_state(&self, game: GameId) -> Result<(Arc<GameState>, u64)> {
        self.0
            .with_live(game, |live| Ok((live.state.clone(), live.seq)))
    }

    /// Whether a game is in memory (active and restored, loaded or created here).
    pub fn is_live(&self, game: GameId) -> bool {
        self.0.live.contains(game)
    }

    /// The ids of this process's games in memory (the active ones restored or created; not the
    /// games of other shards loaded for a request).
    pub fn live_games(&self) -> Vec<GameId> {
        self.0.live.ids()
    }
}

/// The games in memory of one store (either backend), by id.
#[derive(Default)]
pub(super) struct LiveSet {
    games: RwLock<HashMap<GameId, Arc<Mutex<Live>>>>,
    /// Games of other processes' shards, loaded because a request for one came here (a DM
    /// click: Discord sends DMs to shard 0). Moves work on them as on any game, but they are
    /// not among [`LiveSet::ids`]: their own process's timers remind, resume and sweep them.
    visiting: Mutex<HashSet<GameId>>,
}

impl LiveSet {
    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<GameId, Arc<Mutex<Live>>>> {
        self.games.read().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn write(
        &self,
    ) -> std::sync::RwLockWriteGuard<'_, HashMap<GameId, Arc<Mutex<Live>>>> {
        self.games.write().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn get(&self, game: GameId) -> Option<Arc<Mutex<Live>>> {
        self.read().get(&game).cloned()
    }

    /// Runs `f` with the game's entry locked (loading it with `load` when it is not in memory),
    /// retrying when the entry closed meanwhile.
    pub(super) fn with<T>(
        &self,
        game: GameId,
        load: impl Fn() -> Result<Arc<Mutex<Live>>>,
        mut f: impl FnMut(&mut Live) -> Result<T>,
    ) -> Result<T> {
        for _ in 0..3 {
            let entry = match self.get(game) {
                Some(e) => e,
                None => load()?,
            };
            let mut live = lock(&entry);
            if live.closed {
                continue;
            }
            return f(&mut live);
        }
        Err(StoreError::Conflict(game))
    }

    /// Adds a loaded game unless another thread did first; the entry in the set either way.
    /// `visiting`: a game of another process's shards (see [`LiveSet::visiting`]).
    pub(super) fn insert_loaded(
        &self,
        game: GameId,
        state: GameState,
        seq: u64,
        visiting: bool,
    ) -> Arc<Mutex<Live>> {
        if visiting {
            lock(&self.visiting).insert(game);
        }
        self.write()
            .entry(game)
            .or_insert_with(|| Arc::new(Mutex::new(Live::new(Arc::new(state), seq))))
            .clone()
    }

    pub(super) fn insert(&self, game: GameId, state: Arc<GameState>, seq: u64) {
        self.write()
            .insert(game, Arc::new(Mutex::new(Live::new(state, seq))));
    }

    pub(super) fn evict(&self, game: GameId, live: &mut Live) {
        live.closed = true;
        self.write().remove(&game);
        lock(&self.visiting).remove(&game);
    }

    pub(super) fn contains(&self, game: GameId) -> bool {
        self.read().contains_key(&game)
    }

    pub(super) fn len(&self) -> usize {
        self.read().len()
    }

    /// This process's games in memory (not the visiting ones).
    pub(super) fn ids(&self) -> Vec<GameId> {
        let visiting = lock(&self.visiting).clone();
        let mut ids: Vec<GameId> = self
            .read()
            .keys()
            .filter(|id| !visiting.contains(id))
            .copied()
            .collect();
        ids.sort_unstable();
        ids
    }
}

impl Live {
    pub(super) fn new(state: Arc<GameState>, seq: u64) -> Live {
        Live {
            state,
            seq,
            closed: false,
        }
    }
}

/// Whether `game` belongs to another process's shards (it is loaded here only for a request
/// that came to this process, see [`LiveSet`]).
fn visiting(options: &super::StoreOptions, game: &super::GameRecord) -> bool {
    options
        .shards
        .is_some_and(|f| !f.holds(game.location.guild))
}
