//! The async face of the store for the Discord adapter, on either backend ([`GameStore`]).
//! [`GameHub`] serializes the commands of one game with a per-game async lock (commands of
//! different games run in parallel) and runs every piece of blocking store and engine work
//! (SQLite, or the blocking PostgreSQL client, which panics inside the async runtime) on
//! tokio's blocking pool, never on the runtime's worker threads. The lock is held until the blocking work has finished, even if the
//! caller stops waiting.

use super::error::{Result, StoreError};
use super::{
    Database, GameExport, GameId, GameStore, MoveEffects, MoveOutcome, NewGame, RestoreReport,
    StoreOptions, UndoOutcome,
};
use crate::data::GameData;
use crate::engine::{Decision, Event, GameState};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The store shared by async tasks.
pub struct GameHub {
    store: Arc<dyn GameStore>,
    locks: Mutex<HashMap<GameId, Arc<tokio::sync::Mutex<()>>>>,
}

impl GameHub {
    pub fn new(store: impl GameStore + 'static) -> GameHub {
        GameHub::from_arc(Arc::new(store))
    }

    pub fn from_arc(store: Arc<dyn GameStore>) -> GameHub {
        GameHub {
            store,
            locks: Mutex::new(HashMap::new()),
        }
    }

    /// Opens the store (migrations, restoring every active game of its shards) on a blocking
    /// thread.
    pub async fn open(
        database: Database,
        data: Arc<GameData>,
        options: StoreOptions,
    ) -> Result<(GameHub, RestoreReport)> {
        let (store, report) = run_blocking(move || database.open(data, options)).await?;
        Ok((GameHub::from_arc(store), report))
    }

    /// The synchronous store (for work that is already on a blocking thread).
    pub fn store(&self) -> &Arc<dyn GameStore> {
        &self.store
    }

    fn lock_for(&self, game: GameId) -> Arc<tokio::sync::Mutex<()>> {
        self.locks
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(game)
            .or_default()
            .clone()
    }

    /// Forgets the lock of a game that left the live set, unless someone is using it.
    fn prune(&self, game: GameId, lock: &Arc<tokio::sync::Mutex<()>>) {
        if self.store.is_live(game) {
            return;
        }
        let mut locks = self.locks.lock().unwrap_or_else(|e| e.into_inner());
        // The map and `lock` hold the only references: nobody else waits on it.
        if Arc::strong_count(lock) == 2 {
            locks.remove(&game);
        }
    }

    /// Runs `f` on the store with the game's lock held, on a blocking thread.
    pub async fn with_game<T, F>(&self, game: GameId, f: F) -> Result<T>
    where
        F: FnOnce(&dyn GameStore) -> Result<T> + Send + 'static,
        T: Send + 'static,
    {
        let lock = self.lock_for(game);
        let guard = lock.clone().lock_owned().await;
        let store = self.store.clone();
        let result = run_blocking(move || {
            let _guard = guard;
            f(store.as_ref())
        })
        .await;
        self.prune(game, &lock);
        result
    }

    /// Runs `f` on the store on a blocking thread, without a game lock (queues, reminders,
    /// campaigns, new games: the store's own transactions keep those consistent).
    pub async fn blocking<T, F>(&self, f: F) -> Result<T>
    where
        F: FnOnce(&dyn GameStore) -> Result<T> + Send + 'static,
        T: Send + 'static,
    {
        let store = self.store.clone();
        run_blocking(move || f(store.as_ref())).await
    }

    pub async fn create_game(&self, new: NewGame) -> Result<(GameId, Arc<GameState>)> {
        self.blocking(move |s| s.create_game(new)).await
    }

    pub async fn apply(
        &self,
        game: GameId,
        seat: usize,
        decisions: Vec<Decision>,
    ) -> Result<MoveOutcome> {
        self.with_game(game, move |s| s.apply(game, seat, &decisions))
            .await
    }

    /// [`GameStore::apply_with`]: `effects` derives the notifications and reminders stored in the
    /// move's transaction.
    pub async fn apply_with<F>(
        &self,
        game: GameId,
        seat: usize,
        decisions: Vec<Decision>,
        effects: F,
    ) -> Result<MoveOutcome>
    where
        F: Fn(&GameState, &[Event]) -> MoveEffects + Send + 'static,
    {
        self.with_game(game, move |s| {
            s.apply_with(game, seat, &decisions, &effects)
        })
        .await
    }

    pub async fn undo(&self, game: GameId, seat: usize) -> Result<UndoOutcome> {
        self.with_game(game, move |s| s.undo(game, seat)).await
    }

    /// The current state and its version.
    pub async fn state(&self, game: GameId) -> Result<(Arc<GameState>, u64)> {
        self.with_game(game, move |s| s.live_state(game)).await
    }

    pub async fn export(&self, game: GameId) -> Result<GameExport> {
        self.with_game(game, move |s| s.export(game)).await
    }

    pub async fn abandon(&self, game: GameId) -> Result<()> {
        self.with_game(game, move |s| s.abandon(game)).await
    }
}

async fn run_blocking<T, F>(f: F) -> Result<T>
where
    F: FnOnce() -> Result<T> + Send + 'static,
    T: Send + 'static,
{
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| StoreError::Worker(e.to_string()))?
}
