//! What every handler shares: the chat layer (run on tokio's blocking pool, never on the async
//! workers), the store, the REST client, the status board, the DM channels opened so far, and
//! per-place ordering locks so the requests of one channel (or one game) are handled in order.

use super::failures::PermissionLog;
use super::outbox::Waiting;
use super::status::StatusBoard;
use crate::chat::{self, Chat, Reply, Request};
use crate::store::{GameId, GameStore};
use serenity::all::{ChannelId, Http, Member, UserId};
use std::collections::{HashMap, HashSet};
use std::hash::Hash;
use std::sync::{Arc, Mutex};

/// What a request is ordered by: the game its click names, else its channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum OrderKey {
    Game(GameId),
    Channel(u64),
}

/// Replies to send, the status already taken out (it goes to the status board).
#[derive(Debug, Default)]
pub(crate) struct Batch {
    pub replies: Vec<Reply>,
    /// The game the batch is about, if any reply says.
    pub game: Option<GameId>,
    /// The batch changed a game (it carried a status).
    pub moved: bool,
}

pub(crate) struct Shared {
    pub chat: Arc<Chat>,
    pub store: Arc<dyn GameStore>,
    pub http: Arc<Http>,
    pub status: Arc<StatusBoard>,
    /// Channels the bot was refused permissions in (logged once each).
    pub permissions: Arc<PermissionLog>,
    /// Channels with messages waiting in the outbox.
    pub waiting: Waiting,
    owners: HashSet<u64>,
    dms: Mutex<HashMap<u64, ChannelId>>,
    channels: Mutex<HashMap<GameId, u64>>,
    order: Mutex<HashMap<OrderKey, Arc<tokio::sync::Mutex<()>>>>,
    pub ticker: Mutex<Option<tokio::task::JoinHandle<()>>>,
    /// The guild the commands are registered in (None: globally).
    pub dev_guild: Option<u64>,
    /// When a command mismatch last caused a registration.
    reregistered: Mutex<Option<std::time::Instant>>,
}

impl Shared {
    pub fn new(
        chat: Arc<Chat>,
        store: Arc<dyn GameStore>,
        http: Arc<Http>,
        owners: &[u64],
        debounce: std::time::Duration,
    ) -> Shared {
        let permissions = Arc::new(PermissionLog::default());
        Shared {
            status: Arc::new(StatusBoard::new(
                http.clone(),
                store.clone(),
                chat.clone(),
                permissions.clone(),
                debounce,
            )),
            permissions,
            waiting: Waiting::default(),
            chat,
            store,
            http,
            owners: owners.iter().copied().collect(),
            dms: Mutex::new(HashMap::new()),
            channels: Mutex::new(HashMap::new()),
            order: Mutex::new(HashMap::new()),
            ticker: Mutex::new(None),
            dev_guild: None,
            reregistered: Mutex::new(None),
        }
    }

    /// The chat layer's user for a Discord user (display name, moderator rights, ownership).
    pub fn user(&self, user: &serenity::all::User, member: Option<&Member>) -> chat::User {
        let name = member
            .and_then(|m| m.nick.clone())
            .or_else(|| user.global_name.clone())
            .unwrap_or_else(|| user.name.clone());
        let moderator = member
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.administrator() || p.manage_messages() || p.manage_channels());
        chat::User {
            id: user.id.get(),
            name,
            moderator,
            owner: self.owners.contains(&user.id.get()),
        }
    }

    /// Runs the chat on the blocking pool, in order with the other requests of `key`; the
    /// status goes to the status board before the lock is released.
    pub async fn handle(&self, req: Request, key: OrderKey) -> Batch {
        let lock = lock_for(&self.order, key);
        let batch = {
            let _guard = lock.lock().await;
            let chat = self.chat.clone();
            let user = req.user.id;
            let replies = tokio::task::spawn_blocking(move || chat.handle(&req))
                .await
                .unwrap_or_else(|e| {
                    tracing::error!(error = %e, "the chat layer failed");
                    vec![Reply::private(user, self.chat.texts().t("error.internal"))]
                });
            self.take_status(replies).await
        };
        prune(&self.order, key, &lock);
        batch
    }

    /// The reminders and deadlines due now (the timer's work), off the async threads.
    pub async fn tick(&self) -> Batch {
        let chat = self.chat.clone();
        let replies = tokio::task::spawn_blocking(move || chat.tick())
            .await
            .unwrap_or_default();
        self.take_status(replies).await
    }

    async fn take_status(&self, replies: Vec<Reply>) -> Batch {
        let game = replies.iter().find_map(Reply::game);
        let mut rest = Vec::with_capacity(replies.len());
        let mut moved = false;
        for r in replies {
            match r.status_of {
                Some(g) if r.audience == chat::Audience::Public => match self.channel_of(g).await {
                    Some(channel) => {
                        moved = true;
                        self.status.update(g, channel, r)
                    }
                    None => tracing::warn!(game = g, "status of a game without a channel"),
                },
                _ => rest.push(r),
            }
        }
        Batch {
            replies: rest,
            game,
            moved,
        }
    }

    /// The channel a game is played in.
    pub async fn channel_of(&self, game: GameId) -> Option<u64> {
        if let Some(c) = self
            .channels
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&game)
        {
            return Some(*c);
        }
        let store = self.store.clone();
        let record = tokio::task::spawn_blocking(move || store.game(game))
            .await
            .ok()?
            .ok()?;
        let channel = record.location.channel;
        self.channels
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(game, channel);
        Some(channel)
    }

    /// The DM channel with a user (opened once, then remembered).
    pub async fn dm_channel(&self, user: u64) -> Result<ChannelId, serenity::Error> {
        if let Some(c) = self
            .dms
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&user)
        {
            return Ok(*c);
        }
        let channel = UserId::new(user.max(1))
            .create_dm_channel(&self.http)
            .await?
            .id;
        self.dms
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(user, channel);
        Ok(channel)
    }
}

// ---------------------------------------------------------------- closed DMs (issue 20 point 2)

impl Shared {
    /// Whether DMs to `user` are known to be refused (asked of the store, off the async threads).
    pub async fn dms_closed(&self, user: u64) -> bool {
        let chat = self.chat.clone();
        tokio::task::spawn_blocking(move || chat.dms_closed(user))
            .await
            .unwrap_or(false)
    }

    /// Discord refused a DM to `user`: the chat records it and returns its one notice.
    pub async fn dms_refused(&self, user: u64, game: Option<GameId>) -> Vec<Reply> {
        let chat = self.chat.clone();
        tokio::task::spawn_blocking(move || chat.dms_refused(user, game))
            .await
            .unwrap_or_default()
    }
}

impl Shared {
    /// Whether a command mismatch may register the commands now (at most once per `every`).
    pub fn may_reregister(&self, every: std::time::Duration) -> bool {
        let mut last = self.reregistered.lock().unwrap_or_else(|e| e.into_inner());
        let now = std::time::Instant::now();
        if last.is_some_and(|t| now.duration_since(t) < every) {
            return false;
        }
        *last = Some(now);
        true
    }
}

fn lock_for<K: Eq + Hash + Copy>(
    map: &Mutex<HashMap<K, Arc<tokio::sync::Mutex<()>>>>,
    key: K,
) -> Arc<tokio::sync::Mutex<()>> {
    map.lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry(key)
        .or_default()
        .clone()
}

/// Forgets a lock nobody else holds or waits for (the map and `lock` are its only owners).
fn prune<K: Eq + Hash + Copy>(
    map: &Mutex<HashMap<K, Arc<tokio::sync::Mutex<()>>>>,
    key: K,
    lock: &Arc<tokio::sync::Mutex<()>>,
) {
    let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
    if Arc::strong_count(lock) == 2 {
        map.remove(&key);
    }
}
