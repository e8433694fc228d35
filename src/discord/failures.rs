//! What a failed Discord request means for the bot, decided in one place:
//! - worth sending again later: a server error (5xx), a rate limit serenity did not absorb
//!   (429), a request that never got an answer (timeout, lost connection);
//! - the bot lacks a permission in the channel (50013): said in the log once per channel, in
//!   one line naming what to grant, until a message there goes through again;
//! - the channel is gone (10003), or the message is (10008);
//! - the user refuses DMs (50007);
//! - anything else (logged by the caller, not retried).

use super::lanes;
use crate::chat::Chat;
use serenity::all::HttpError;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// Discord's error codes the bot acts on.
const UNKNOWN_CHANNEL: isize = 10003;
const UNKNOWN_MESSAGE: isize = 10008;
const DM_REFUSED: isize = 50007;
pub(crate) const MISSING_PERMISSIONS: isize = 50013;

/// The kind of a failed request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Failure {
    /// Discord (or the way to it) failed for now: send again later.
    Transient,
    MissingPermissions,
    UnknownChannel,
    UnknownMessage,
    DmRefused,
    Other,
}

/// What `e` means.
pub(crate) fn classify(e: &serenity::Error) -> Failure {
    match e {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(r)) => match r.error.code {
            UNKNOWN_CHANNEL => Failure::UnknownChannel,
            UNKNOWN_MESSAGE => Failure::UnknownMessage,
            DM_REFUSED => Failure::DmRefused,
            MISSING_PERMISSIONS => Failure::MissingPermissions,
            _ if r.status_code.is_server_error() || r.status_code.as_u16() == 429 => {
                Failure::Transient
            }
            _ => Failure::Other,
        },
        serenity::Error::Http(HttpError::Request(_)) => Failure::Transient,
        _ => Failure::Other,
    }
}

/// The channels the bot has said it lacks permissions in (once each).
#[derive(Default)]
pub(crate) struct PermissionLog {
    said: Mutex<HashSet<u64>>,
}

impl PermissionLog {
    /// Logs, once per channel, that the bot may not post there and what to grant.
    pub fn missing(&self, channel: u64) {
        let first = self
            .said
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(channel);
        if first {
            tracing::warn!(
                channel,
                "missing permissions (Discord error 50013) in channel {channel}: grant the bot \
                 View Channel, Send Messages (Send Messages in Threads for a thread), Embed \
                 Links, Attach Files and Read Message History there; its messages to that \
                 channel are dropped until then"
            );
        }
    }

    /// A message went through in `channel`: a later refusal is logged again.
    pub fn works(&self, channel: u64) {
        let mut said = self.said.lock().unwrap_or_else(|e| e.into_inner());
        if !said.is_empty() {
            said.remove(&channel);
        }
    }
}

/// What disappeared from Discord.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Gone {
    Channel(u64),
    Guild(u64),
}

/// Archives the games of a vanished channel or server (on the blocking pool: the store is
/// synchronous): a delete event, or Discord answering "unknown channel" (10003) to a message
/// for a game (the delete happened while the bot was away).
pub(crate) async fn archive(chat: &Arc<Chat>, gone: Gone) {
    let chat = chat.clone();
    let archived = lanes::blocking(move || match gone {
        Gone::Channel(c) => chat.channel_gone(c),
        Gone::Guild(g) => chat.guild_gone(g),
    })
    .await
    .unwrap_or_default();
    if !archived.is_empty() {
        tracing::info!(?gone, games = ?archived, "games archived");
    }
}
