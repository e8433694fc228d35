//! Registering the slash commands: globally, or in the development guild when one is
//! configured. The command set is serialized and hashed; the hash last registered for this
//! application and scope is kept in the store (`discord_meta`), so a start whose command set
//! did not change registers nothing.

use super::{Data, DiscordError};
use crate::store::Store;
use serenity::all::{Command, GuildId, Http};
use sha2::{Digest, Sha256};
use std::sync::Arc;

/// The hash of a command set as Discord receives it.
pub(crate) fn command_hash(commands: &[poise::Command<Data, DiscordError>]) -> String {
    let create = poise::builtins::create_application_commands(commands);
    let json = serde_json::to_string(&create).unwrap_or_default();
    let digest = Sha256::digest(json.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Registers `commands` unless the same set is already registered; returns whether it did.
pub(crate) async fn register(
    http: &Http,
    store: &Arc<Store>,
    commands: &[poise::Command<Data, DiscordError>],
    application: u64,
    guild: Option<u64>,
) -> Result<bool, DiscordError> {
    let hash = command_hash(commands);
    let key = match guild {
        Some(g) => format!("commands:{application}:guild:{g}"),
        None => format!("commands:{application}:global"),
    };
    let s = store.clone();
    let k = key.clone();
    let stored = tokio::task::spawn_blocking(move || s.discord_meta(&k))
        .await
        .map_err(|e| DiscordError::Worker(e.to_string()))??;
    if stored.as_deref() == Some(hash.as_str()) {
        tracing::info!(scope = %key, "commands unchanged: not registering");
        return Ok(false);
    }
    let create = poise::builtins::create_application_commands(commands);
    match guild {
        Some(g) => {
            GuildId::new(g.max(1)).set_commands(http, create).await?;
        }
        None => {
            Command::set_global_commands(http, create).await?;
        }
    }
    let s = store.clone();
    tokio::task::spawn_blocking(move || s.set_discord_meta(&key, &hash))
        .await
        .map_err(|e| DiscordError::Worker(e.to_string()))??;
    tracing::info!("commands registered");
    Ok(true)
}
