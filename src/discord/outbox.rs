//! Channel messages (public lines, pings, DMs) survive Discord's passing failures: a message
//! Discord does not take for a passing reason ([`Failure::Transient`]: a server error, a rate
//! limit serenity did not absorb, a lost connection) is written to the store's outbox and the
//! timer sends it again, in order, until Discord takes it; meanwhile newer messages to the
//! same channel queue behind it, so the channel reads in order. A channel that is gone
//! archives its games (the chat layer's one archive path); missing permissions are said once
//! per channel in the log and the message is dropped.

use super::failures::{classify, Failure};
use super::message::{Outgoing, Stored};
use super::shared::Shared;
use crate::store::GameId;
use serde::{Deserialize, Serialize};
use serenity::all::ChannelId;
use std::collections::HashSet;

/// At most this many queued messages are tried per timer tick.
const BATCH: usize = 50;

/// Queued messages a flush took are offered to no other process for this long (sent ones are
/// marked sent well before; the rest, e.g. of a channel still failing, come back after it).
const CLAIM_LEASE: std::time::Duration = std::time::Duration::from_secs(60);

/// A queued message: where it goes and what it says.
#[derive(Debug, Serialize, Deserialize)]
struct Letter {
    /// Always `discord_message` (the outbox may hold other kinds one day).
    kind: String,
    channel: u64,
    message: Stored,
}

const KIND: &str = "discord_message";

/// How a send ended.
#[derive(Debug)]
pub(crate) enum Posted {
    /// Discord took it.
    Sent,
    /// Queued in the outbox: the timer sends it later.
    Queued,
    /// Dropped for a reason already logged (missing permissions, a gone channel).
    Dropped,
    /// Failed otherwise; the caller decides (a refused DM falls back to the channel).
    Failed(serenity::Error),
}

/// Sends `out` to `channel` (a game's channel or a DM channel); on a passing failure, or
/// while older messages to the channel wait, queues it instead.
pub(crate) async fn post(
    shared: &Shared,
    channel: u64,
    game: Option<GameId>,
    out: Outgoing,
) -> Posted {
    if shared.waiting.has(channel) {
        queue(shared, channel, game, out.stored()).await;
        return Posted::Queued;
    }
    let stored = out.stored();
    match send(shared, channel, out).await {
        Posted::Failed(e) if classify(&e) == Failure::Transient => {
            tracing::info!(channel, error = %super::error::describe(&e), "message queued: Discord did not take it for now");
            queue(shared, channel, game, stored).await;
            Posted::Queued
        }
        other => other,
    }
}

/// One attempt; missing permissions and a gone channel are handled here.
async fn send(shared: &Shared, channel: u64, out: Outgoing) -> Posted {
    let result = ChannelId::new(channel.max(1))
        .send_message(&shared.http, out.into_message())
        .await;
    let e = match result {
        Ok(_) => {
            shared.permissions.works(channel);
            return Posted::Sent;
        }
        Err(e) => e,
    };
    match classify(&e) {
        Failure::MissingPermissions => {
            shared.permissions.missing(channel);
            Posted::Dropped
        }
        Failure::UnknownChannel => {
            super::failures::archive(&shared.chat, super::failures::Gone::Channel(channel)).await;
            Posted::Dropped
        }
        _ => Posted::Failed(e),
    }
}

async fn queue(shared: &Shared, channel: u64, game: Option<GameId>, message: Stored) {
    let letter = Letter {
        kind: KIND.to_string(),
        channel,
        message,
    };
    let payload = match serde_json::to_value(&letter) {
        Ok(p) => p,
        Err(e) => {
            tracing::error!(channel, error = %e, "cannot queue a message");
            return;
        }
    };
    let store = shared.store.clone();
    match super::lanes::blocking(move || store.schedule().queue_notification(game, &payload)).await
    {
        Ok(Ok(_)) => shared.waiting.add(channel),
        _ => tracing::error!(channel, "cannot queue a message: it is lost"),
    }
}

/// Sends the queued messages, oldest first (the timer's work). A channel whose oldest message
/// still fails keeps the rest of its messages for the next round.
pub(crate) async fn flush(shared: &Shared) {
    let store = shared.store.clone();
    let pending = match super::lanes::blocking(move || {
        store.schedule().claim_notifications(BATCH, CLAIM_LEASE)
    })
    .await
    {
        Ok(Ok(p)) => p,
        _ => return,
    };
    let mut blocked: HashSet<u64> = HashSet::new();
    for entry in pending {
        let letter = match serde_json::from_value::<Letter>(entry.payload) {
            Ok(l) if l.kind == KIND => l,
            _ => {
                tracing::warn!(
                    id = entry.id,
                    "an outbox entry the bot cannot read: dropped"
                );
                mark_sent(shared, entry.id).await;
                continue;
            }
        };
        if blocked.contains(&letter.channel) {
            continue;
        }
        let channel = letter.channel;
        match send(shared, channel, letter.message.into_outgoing()).await {
            Posted::Failed(e) if classify(&e) == Failure::Transient => {
                blocked.insert(channel);
                continue;
            }
            Posted::Failed(e) => {
                tracing::warn!(channel, error = %super::error::describe(&e), "a queued message failed: dropped");
            }
            Posted::Sent | Posted::Queued | Posted::Dropped => {}
        }
        mark_sent(shared, entry.id).await;
        shared.waiting.done(channel);
    }
}

async fn mark_sent(shared: &Shared, id: i64) {
    let store = shared.store.clone();
    if !matches!(
        super::lanes::blocking(move || store.schedule().mark_sent(id)).await,
        Ok(Ok(()))
    ) {
        tracing::warn!(id, "cannot mark a queued message sent");
    }
}
