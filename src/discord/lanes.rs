//! The one path from the async bot to the synchronous chat layer and store. The store blocks
//! (SQLite, and the PostgreSQL client, which panics inside the async runtime) and the engine
//! thinks, so every piece of that work runs on tokio's blocking pool ([`blocking`]), never on
//! the runtime's worker threads. Requests about one place — one game (a click names its
//! game), else one channel — are handled in the order they came, one at a time, with an
//! async lock per place ([`Lanes::ordered`]); requests about different places run in
//! parallel. A lock is forgotten once nobody holds or waits for it. (The bot's handlers run to
//! completion; a caller that stopped waiting would free its place while the blocking work it
//! started goes on, still serialized with that game's other moves by the store's own locks.)
//!
//! Under this ordering the store keeps its own promises whatever the path: each game's live
//! state has its own lock for a whole move, and every write is one transaction.

use crate::store::GameId;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex};

/// What a request is ordered by: the game its click names, else its channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OrderKey {
    Game(GameId),
    Channel(u64),
}

/// The per-place ordering locks.
#[derive(Default)]
pub struct Lanes {
    order: Mutex<HashMap<OrderKey, Arc<tokio::sync::Mutex<()>>>>,
}

/// Runs blocking work (the chat layer, the store) on tokio's blocking pool; Err when it
/// panicked (the panic's message).
pub async fn blocking<T, F>(f: F) -> Result<T, String>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| e.to_string())
}

impl Lanes {
    pub fn new() -> Lanes {
        Lanes::default()
    }

    /// Runs `work` in order with the other work of `key`: after the work of `key` that came
    /// before has finished, and before the work that comes after starts.
    pub async fn ordered<T, F, Fut>(&self, key: OrderKey, work: F) -> T
    where
        F: FnOnce() -> Fut,
        Fut: Future<Output = T>,
    {
        let lock = self.lock_for(key);
        let value = {
            let _guard = lock.clone().lock_owned().await;
            work().await
        };
        self.prune(key, &lock);
        value
    }

    fn lock_for(&self, key: OrderKey) -> Arc<tokio::sync::Mutex<()>> {
        self.order
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(key)
            .or_default()
            .clone()
    }

    /// Forgets a lock nobody else holds or waits for (the map and `lock` are its only owners).
    fn prune(&self, key: OrderKey, lock: &Arc<tokio::sync::Mutex<()>>) {
        let mut map = self.order.lock().unwrap_or_else(|e| e.into_inner());
        if Arc::strong_count(lock) == 2 {
            map.remove(&key);
        }
    }

    /// How many places have a lock now (held or waited for).
    pub fn busy_places(&self) -> usize {
        self.order.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}
