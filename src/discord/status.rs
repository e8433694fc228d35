//! The status message of each game: an ordinary channel message sent and edited with the bot
//! token (interaction tokens expire after 15 minutes), pinned where the bot may. Updates are
//! coalesced per game: the first change of a quiet game schedules one flush after the debounce
//! delay, later changes only replace what that flush will show, so a burst of moves makes one
//! edit. The message id is kept in the store, so a restart edits the same message.

use super::message::Outgoing;
use crate::chat::Reply;
use crate::store::{GameId, StatusMessage, Store};
use serenity::all::{ChannelId, Http, HttpError, MessageId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Discord's "Unknown Message" and "Unknown Channel" error codes.
const UNKNOWN_MESSAGE: isize = 10008;
const UNKNOWN_CHANNEL: isize = 10003;

/// A change waiting for its flush.
struct Pending {
    channel: u64,
    reply: Reply,
}

/// Coalesced status edits of every game.
pub(crate) struct StatusBoard {
    http: Arc<Http>,
    store: Arc<Store>,
    debounce: Duration,
    pending: Mutex<HashMap<GameId, Pending>>,
    /// One lock per game so two flushes of a game never overlap; it caches the message.
    games: Mutex<HashMap<GameId, Arc<tokio::sync::Mutex<Option<StatusMessage>>>>>,
    /// Flushes that have run (for tests and the benchmark).
    pub flushes: std::sync::atomic::AtomicU64,
}

impl StatusBoard {
    pub fn new(http: Arc<Http>, store: Arc<Store>, debounce: Duration) -> StatusBoard {
        StatusBoard {
            http,
            store,
            debounce,
            pending: Mutex::new(HashMap::new()),
            games: Mutex::new(HashMap::new()),
            flushes: std::sync::atomic::AtomicU64::new(0),
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

    /// Sends every pending status now (at shutdown).
    pub async fn flush_all(&self) {
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
    async fn flush(&self, game: GameId) {
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
            *known = tokio::task::spawn_blocking(move || store.discord_status(game))
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
                    Ok(_) => return,
                    Err(e) if is_gone(&e) => {}
                    Err(e) => {
                        tracing::warn!(game, error = %super::describe(&e), "status edit failed");
                        return;
                    }
                }
            }
        }
        let message = Outgoing::from_reply(&pending.reply, &[]).into_message();
        match channel.send_message(&self.http, message).await {
            Ok(sent) => {
                if let Err(e) = channel.pin(&self.http, sent.id).await {
                    tracing::debug!(game, error = %super::describe(&e), "cannot pin the status");
                }
                let status = StatusMessage {
                    channel: pending.channel,
                    message: sent.id.get(),
                };
                *known = Some(status);
                let store = self.store.clone();
                let saved =
                    tokio::task::spawn_blocking(move || store.set_discord_status(game, status))
                        .await;
                if !matches!(saved, Ok(Ok(()))) {
                    tracing::warn!(game, "cannot remember the status message");
                }
            }
            Err(e) => tracing::warn!(game, error = %super::describe(&e), "status send failed"),
        }
    }
}

/// Whether Discord says the message (or its channel) no longer exists.
fn is_gone(e: &serenity::Error) -> bool {
    matches!(
        e,
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r))
            if r.error.code == UNKNOWN_MESSAGE || r.error.code == UNKNOWN_CHANNEL
                || r.status_code.as_u16() == 404
    )
}
