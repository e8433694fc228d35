//! The live set: the state and version of every active game in memory, one mutex per game held
//! for a whole move (lock order: game, then connection). A game not in memory is loaded (and
//! checked) on first use; a finished, abandoned or conflicting game leaves the set and waiters
//! retry. Finished games' states are rebuilt from their snapshots on request.

use super::error::{Result, StoreError};
use super::games::read_game;
use super::restore::{read_raw, restore_raw, Restored};
use super::{lock, GameId, GameStatus, Store};
use crate::engine::GameState;
use std::sync::{Arc, Mutex};

/// A game in memory.
pub(super) struct Live {
    pub(super) state: Arc<GameState>,
    pub(super) seq: u64,
    /// Set when the game left the live set (finished, abandoned, reloaded): waiters retry.
    pub(super) closed: bool,
}

impl Store {
    /// Loads one active game that is not in memory (created by another path, or reloaded).
    fn load_live(&self, game: GameId) -> Result<Arc<Mutex<Live>>> {
        let raw = self.read(|c| {
            let rec = read_game(c, game)?;
            match rec.status {
                GameStatus::Active => read_raw(c, rec).map(Some),
                GameStatus::Damaged => Err(StoreError::Damaged {
                    game,
                    report: rec.damage_report.unwrap_or_default(),
                }),
                status => Err(StoreError::NotActive { game, status }),
            }
        });
        let raw = match raw {
            Ok(Some(raw)) => raw,
            Ok(None) => return Err(StoreError::NoSuchGame(game)),
            Err(StoreError::Corrupt { message, .. }) => {
                self.mark_damaged(&[(game, message.clone())])?;
                return Err(StoreError::Damaged {
                    game,
                    report: message,
                });
            }
            Err(e) => return Err(e),
        };
        match restore_raw(&self.data, &raw, self.options.verify_on_restore) {
            Restored::Ok { state, .. } => {
                let mut live = self.live.write().unwrap_or_else(|e| e.into_inner());
                let entry = live.entry(game).or_insert_with(|| {
                    Arc::new(Mutex::new(Live {
                        state: Arc::new(*state),
                        seq: raw.record.seq,
                        closed: false,
                    }))
                });
                Ok(entry.clone())
            }
            Restored::Damaged(report) => {
                self.mark_damaged(&[(game, report.clone())])?;
                Err(StoreError::Damaged { game, report })
            }
        }
    }

    pub(super) fn live_game(&self, game: GameId) -> Result<Arc<Mutex<Live>>> {
        let found = self
            .live
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(&game)
            .cloned();
        match found {
            Some(l) => Ok(l),
            None => self.load_live(game),
        }
    }

    /// Runs `f` with the game's live entry locked, retrying when the entry closed meanwhile.
    pub(super) fn with_live<T>(
        &self,
        game: GameId,
        mut f: impl FnMut(&mut Live) -> Result<T>,
    ) -> Result<T> {
        for _ in 0..3 {
            let entry = self.live_game(game)?;
            let mut live = lock(&entry);
            if live.closed {
                continue;
            }
            return f(&mut live);
        }
        Err(StoreError::Conflict(game))
    }

    /// Takes a game out of the live set (finished, abandoned, or to be reloaded).
    pub(super) fn evict(&self, game: GameId, live: &mut Live) {
        live.closed = true;
        self.live
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&game);
    }

    /// Puts a game into the live set.
    pub(super) fn insert_live(&self, game: GameId, state: Arc<GameState>, seq: u64) {
        self.live.write().unwrap_or_else(|e| e.into_inner()).insert(
            game,
            Arc::new(Mutex::new(Live {
                state,
                seq,
                closed: false,
            })),
        );
    }

    /// The current state of a game: the live one for active games, else rebuilt from its
    /// latest snapshot (finished, abandoned games).
    pub fn state(&self, game: GameId) -> Result<Arc<GameState>> {
        match self.with_live(game, |live| Ok(live.state.clone())) {
            Err(StoreError::NotActive { .. }) => {}
            other => return other,
        }
        let raw = self.read(|c| read_raw(c, read_game(c, game)?))?;
        match restore_raw(&self.data, &raw, false) {
            Restored::Ok { state, .. } => Ok(Arc::new(*state)),
            Restored::Damaged(report) => Err(StoreError::Corrupt {
                game,
                message: report,
            }),
        }
    }

    /// The current state and its version (log sequence number) of an active game.
    pub fn live_state(&self, game: GameId) -> Result<(Arc<GameState>, u64)> {
        self.with_live(game, |live| Ok((live.state.clone(), live.seq)))
    }

    /// Whether a game is in memory (active and restored or created).
    pub fn is_live(&self, game: GameId) -> bool {
        self.live
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .contains_key(&game)
    }

    /// The ids of the games in memory (the active ones restored or created).
    pub fn live_games(&self) -> Vec<GameId> {
        let mut ids: Vec<GameId> = self
            .live
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .keys()
            .copied()
            .collect();
        ids.sort_unstable();
        ids
    }
}
