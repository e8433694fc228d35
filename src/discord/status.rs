//! The status message of each game: an ordinary channel message sent and edited with the bot
//! token (interaction tokens expire after 15 minutes), pinned where the bot may. Updates are
//! coalesced per game: the first change of a quiet game schedules one flush after the debounce
//! delay, later changes only replace what that flush will show, so a burst of moves makes one
//! edit. The message id is kept in the store, so a restart edits the same message. A status
//! message someone deleted (10008) is sent anew; a gone channel (10003) archives its game; a
//! passing failure (a server error, a lost connection) is tried again after a pause. Once a
//! game is over (finished, aborted, archived) the timer unpins its status message, which stays
//! with the final result, so pins do not pile up; a pin refused for the channel's pin limit
//! (30003) or a missing permission (50013) is logged once per channel in plain words.

use super::failures::{classify, Failure, PermissionLog, MISSING_PERMISSIONS};
use super::message::Outgoing;
use crate::chat::{Chat, Reply};
use crate::store::{GameId, StatusMessage, Store};
use serenity::all::{ChannelId, Http, HttpError, MessageId};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A status Discord failed to take for now is tried again after this many debounce delays.
const RETRY_DELAYS: u32 = 5;

/// Discord's "Maximum number of pins reached" and "Missing Access".
const PIN_LIMIT: isize = 30003;
const MISSING_ACCESS: isize = 50001;

/// A change waiting for its flush.
struct Pending {
    channel: u64,
    reply: Reply,
}

/// Coalesced status edits of every game.
pub(crate) struct StatusBoard {
    http: Arc<Http>,
    store: Arc<Store>,
    chat: Arc<Chat>,
    permissions: Arc<PermissionLog>,
    debounce: Duration,
    pending: Mutex<HashMap<GameId, Pending>>,
    /// One lock per game so two flushes of a game never overlap; it caches the message.
    games: Mutex<HashMap<GameId, Arc<tokio::sync::Mutex<Option<StatusMessage>>>>>,
    /// Flushes that have run (for tests and the benchmark).
    pub flushes: std::sync::atomic::AtomicU64,
    /// (channel, error code) pairs already logged: a pin problem is said once per channel.
    pin_warnings: Mutex<HashSet<(u64, isize)>>,
}

impl StatusBoard {
    pub fn new(
        http: Arc<Http>,
        store: Arc<Store>,
        chat: Arc<Chat>,
        permissions: Arc<PermissionLog>,
        debounce: Duration,
    ) -> StatusBoard {
        StatusBoard {
            http,
            store,
            chat,
            permissions,
            debounce,
            pending: Mutex::new(HashMap::new()),
            games: Mutex::new(HashMap::new()),
            flushes: std::sync::atomic::AtomicU64::new(0),
            pin_warnings: Mutex::new(HashSet::new()),
        }
    }

    /// Records the newest status of `game` (shown in `channel`); schedules a flush if none is.
    pub fn update(self: &Arc<Self>, game: GameId, channel: u64, reply: Reply) {
        let first = {
            let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            pending.insert(game, Pending { channel, reply }).is_none()
        };
        if first {
            let board = self.clone();
            tokio::spawn(async move {
                tokio::time::sleep(board.debounce).await;
                board.flush(game).await;
            });
        }
    }

    /// Puts back a status Discord did not take (unless a newer one waits) and flushes it
    /// again later.
    fn retry(self: &Arc<Self>, game: GameId, pending: Pending) {
        let again = {
            let mut waiting = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            match waiting.entry(game) {
                std::collections::hash_map::Entry::Occupied(_) => false,
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(pending);
                    true
                }
            }
        };
        if again {
            let board = self.clone();
            tokio::spawn(async move {
                tokio::time::sleep(board.debounce * RETRY_DELAYS).await;
                board.flush(game).await;
            });
        }
    }

    /// What a failed status request means: `true` when a new message should be sent.
    async fn failed(
        self: &Arc<Self>,
        game: GameId,
        pending: &Pending,
        e: &serenity::Error,
    ) -> bool {
        match classify(e) {
            Failure::UnknownMessage => return true,
            Failure::UnknownChannel => {
                super::failures::archive(
                    &self.chat,
                    super::failures::Gone::Channel(pending.channel),
                )
                .await
            }
            Failure::MissingPermissions => self.permissions.missing(pending.channel),
            Failure::Transient => {
                tracing::info!(game, error = %super::error::describe(e), "status delayed: Discord did not take it for now");
                let again = Pending {
                    channel: pending.channel,
                    reply: pending.reply.clone(),
                };
                self.retry(game, again);
            }
            Failure::DmRefused | Failure::Other => {
                tracing::warn!(game, error = %super::error::describe(e), "status failed")
            }
        }
        false
    }

    /// Sends every pending status now (at shutdown).
    pub async fn flush_all(self: &Arc<Self>) {
        let games: Vec<GameId> = self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .keys()
            .copied()
            .collect();
        for game in games {
            self.flush(game).await;
        }
    }

    fn game_lock(&self, game: GameId) -> Arc<tokio::sync::Mutex<Option<StatusMessage>>> {
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(game)
            .or_default()
            .clone()
    }

    /// Shows the pending status of `game`: edits its message, or sends (and pins) a new one.
    async fn flush(self: &Arc<Self>, game: GameId) {
        let lock = self.game_lock(game);
        let mut known = lock.lock().await;
        let Some(pending) = self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&game)
        else {
            return;
        };
        self.flushes
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if known.is_none() {
            let store = self.store.clone();
            *known = super::lanes::blocking(move || store.discord().status(game))
                .await
                .ok()
                .and_then(|r| r.ok())
                .flatten();
        }
        let channel = ChannelId::new(pending.channel.max(1));
        if let Some(msg) = *known {
            if msg.channel == pending.channel {
                let edit = Outgoing::from_reply(&pending.reply, &[]).into_edit();
                match channel
                    .edit_message(&self.http, MessageId::new(msg.message.max(1)), edit)
                    .await
                {
                    Ok(_) => {
                        self.permissions.works(pending.channel);
                        return;
                    }
                    Err(e) => {
                        if !self.failed(game, &pending, &e).await {
                            return;
                        }
                    }
                }
            }
        }
        let message = Outgoing::from_reply(&pending.reply, &[]).into_message();
        match channel.send_message(&self.http, message).await {
            Ok(sent) => {
                self.permissions.works(pending.channel);
                let pinned = match channel.pin(&self.http, sent.id).await {
                    Ok(()) => true,
                    Err(e) => {
                        self.pin_failed(game, pending.channel, "pin", &e);
                        false
                    }
                };
                let status = StatusMessage {
                    channel: pending.channel,
                    message: sent.id.get(),
                };
                *known = Some(status);
                let store = self.store.clone();
                let saved = super::lanes::blocking(move || {
                    store.discord().set_status(game, status)?;
                    store.discord().set_pinned(game, pinned)
                })
                .await;
                if !matches!(saved, Ok(Ok(()))) {
                    tracing::warn!(game, "cannot remember the status message");
                }
            }
            Err(e) => {
                self.failed(game, &pending, &e).await;
            }
        }
    }
}

// ---------------------------------------------------------------- pins (issue 20 point 5)

impl StatusBoard {
    /// Unpins the status messages of games that are over (the timer calls this); a message
    /// that is gone, or that the bot may not unpin, is given up on (logged), a passing failure
    /// is tried again on the next call.
    pub async fn unpin_ended(&self) {
        let store = self.store.clone();
        let ended =
            match super::lanes::blocking(move || store.discord().pinned_of_ended_games()).await {
                Ok(Ok(list)) => list,
                _ => {
                    tracing::warn!("cannot list the status messages to unpin");
                    return;
                }
            };
        for (game, msg) in ended {
            // After a flush of this game that may be running (its final status).
            let lock = self.game_lock(game);
            let _guard = lock.lock().await;
            let result = ChannelId::new(msg.channel.max(1))
                .unpin(&self.http, MessageId::new(msg.message.max(1)))
                .await;
            match &result {
                Ok(()) => tracing::debug!(game, "status message unpinned"),
                Err(e) if is_gone(e) || code_of(e) == Some(MISSING_ACCESS) => {
                    tracing::debug!(game, error = %super::error::describe(e), "nothing to unpin")
                }
                Err(e) if code_of(e) == Some(MISSING_PERMISSIONS) => {
                    self.pin_failed(game, msg.channel, "unpin", e)
                }
                Err(e) => {
                    tracing::warn!(game, error = %super::error::describe(e), "unpin failed; tried again later");
                    continue;
                }
            }
            let store = self.store.clone();
            let saved =
                super::lanes::blocking(move || store.discord().set_pinned(game, false)).await;
            if !matches!(saved, Ok(Ok(()))) {
                tracing::warn!(game, "cannot record the unpinned status message");
            }
        }
    }

    /// One clear log line per channel and cause for a pin or unpin Discord refused.
    fn pin_failed(&self, game: GameId, channel: u64, what: &str, e: &serenity::Error) {
        let code = code_of(e).unwrap_or(0);
        let first = self
            .pin_warnings
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert((channel, code));
        if !first {
            return;
        }
        match code {
            PIN_LIMIT => tracing::warn!(
                game,
                channel,
                "cannot {what} the status message: the channel has reached Discord's pin limit \
                 (error 30003); a moderator can unpin old messages (the game goes on unpinned)"
            ),
            MISSING_PERMISSIONS => tracing::warn!(
                game,
                channel,
                "cannot {what} the status message: the bot lacks the Pin Messages (or Manage \
                 Messages) permission in this channel (error 50013); see /skymines help server"
            ),
            _ => tracing::warn!(
                game,
                channel,
                error = %super::error::describe(e),
                "cannot {what} the status message"
            ),
        }
    }
}

/// The JSON error code of a Discord error response.
fn code_of(e: &serenity::Error) -> Option<isize> {
    match e {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => Some(r.error.code),
        _ => None,
    }
}

/// Whether Discord says the message (or its channel) no longer exists.
fn is_gone(e: &serenity::Error) -> bool {
    matches!(
        classify(e),
        Failure::UnknownMessage | Failure::UnknownChannel
    ) || matches!(
        e,
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) if r.status_code.as_u16() == 404
    )
}
