//! What every handler shares: the chat layer and the store (reached through [`Lanes`], the one
//! path from the async bot to them: per-place ordering, tokio's blocking pool), the REST
//! client, the status board and the DM channels opened so far.

use super::error::DiscordError;
use super::failures::PermissionLog;
use super::lanes::{blocking, Lanes, OrderKey};
use super::status::StatusBoard;
use crate::chat::{self, Chat, Reply, Request};
use crate::store::{GameId, Store};
use serenity::all::{ChannelId, Http, Member, UserId};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

/// poise's user data and error types.
pub(crate) type Data = Arc<Shared>;
pub(crate) type Error = DiscordError;
pub(crate) type Ctx<'a> = poise::Context<'a, Data, Error>;

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
    pub store: Arc<Store>,
    pub http: Arc<Http>,
    pub status: Arc<StatusBoard>,
    /// Channels the bot was refused permissions in (logged once each).
    pub permissions: Arc<PermissionLog>,
    /// Channels with messages waiting in the outbox.
    pub waiting: Waiting,
    owners: HashSet<u64>,
    dms: Mutex<HashMap<u64, ChannelId>>,
    channels: Mutex<HashMap<GameId, u64>>,
    /// The requests of one place in order, all blocking work on the blocking pool.
    pub lanes: Lanes,
    pub ticker: Mutex<Option<tokio::task::JoinHandle<()>>>,
    /// The guild the commands are registered in (None: globally).
    pub dev_guild: Option<u64>,
    /// When a command mismatch last caused a registration.
    reregistered: Mutex<Option<std::time::Instant>>,
}

impl Shared {
    pub fn new(
        chat: Arc<Chat>,
        store: Arc<Store>,
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
            lanes: Lanes::new(),
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
        self.lanes
            .ordered(key, || async {
                let chat = self.chat.clone();
                let user = req.user.id;
                let replies = blocking(move || chat.handle(&req))
                    .await
                    .unwrap_or_else(|e| {
                        tracing::error!(error = %e, "the chat layer failed");
                        vec![Reply::private(user, self.chat.texts().t("error.internal"))]
                    });
                self.take_status(replies).await
            })
            .await
    }

    /// The reminders and deadlines due now (the timer's work), off the async threads.
    pub async fn tick(&self) -> Batch {
        let chat = self.chat.clone();
        let replies = blocking(move || chat.tick()).await.unwrap_or_else(|e| {
            tracing::error!(error = %e, "the timer's tick failed");
            Vec::new()
        });
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
        let record = match blocking(move || store.games().game(game)).await {
            Ok(Ok(record)) => record,
            Ok(Err(e)) => {
                tracing::warn!(game, error = %e, "cannot read a game's channel");
                return None;
            }
            Err(e) => {
                tracing::error!(game, error = %e, "reading a game's channel failed");
                return None;
            }
        };
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
        blocking(move || chat.dms_closed(user))
            .await
            .unwrap_or_else(|e| {
                tracing::error!(user, error = %e, "asking whether DMs are closed failed");
                false
            })
    }

    /// Discord refused a DM to `user`: the chat records it and returns its one notice.
    pub async fn dms_refused(&self, user: u64, game: Option<GameId>) -> Vec<Reply> {
        let chat = self.chat.clone();
        blocking(move || chat.dms_refused(user, game))
            .await
            .unwrap_or_else(|e| {
                tracing::error!(user, error = %e, "recording a refused DM failed");
                Vec::new()
            })
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

/// The channels with queued messages (how many each), so newer ones wait behind them.
#[derive(Default)]
pub(crate) struct Waiting {
    channels: Mutex<HashMap<u64, usize>>,
}

impl Waiting {
    pub(super) fn has(&self, channel: u64) -> bool {
        self.lock().contains_key(&channel)
    }

    pub(super) fn add(&self, channel: u64) {
        *self.lock().entry(channel).or_default() += 1;
    }

    pub(super) fn done(&self, channel: u64) {
        let mut map = self.lock();
        if let Some(n) = map.get_mut(&channel) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                map.remove(&channel);
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, usize>> {
        self.channels.lock().unwrap_or_else(|e| e.into_inner())
    }
}
