//! Registering the slash commands: globally, or in the development guild when one is
//! configured. The command set is serialized and hashed; the hash last registered for this
//! application and scope is kept in the store (`discord_meta`), so a start whose command set
//! did not change registers nothing. When Discord holds another version of a command than the
//! stored hash says (two deployments on one application, a restored database), poise raises
//! a command-structure mismatch: the user gets a clear private answer and the commands are
//! registered again, whatever the hash says (at most once every ten minutes).

use super::error::DiscordError;
use super::shared::Data;
use crate::store::Store;
use serenity::all::{
    Command, CreateInteractionResponse, CreateInteractionResponseMessage, GuildId, Http,
};
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
    let stored = super::lanes::blocking(move || s.discord().meta(&k))
        .await
        .map_err(|e| DiscordError::Worker(e.to_string()))??;
    if stored.as_deref() == Some(hash.as_str()) {
        tracing::info!(scope = %key, "commands unchanged: not registering");
        return Ok(false);
    }
    put_commands(http, commands, guild).await?;
    let s = store.clone();
    super::lanes::blocking(move || s.discord().set_meta(&key, &hash))
        .await
        .map_err(|e| DiscordError::Worker(e.to_string()))??;
    tracing::info!("commands registered");
    Ok(true)
}

/// Sends the command set to Discord (globally, or to the development guild).
async fn put_commands(
    http: &Http,
    commands: &[poise::Command<Data, DiscordError>],
    guild: Option<u64>,
) -> Result<(), DiscordError> {
    let create = poise::builtins::create_application_commands(commands);
    match guild {
        Some(g) => {
            GuildId::new(g.max(1)).set_commands(http, create).await?;
        }
        None => {
            Command::set_global_commands(http, create).await?;
        }
    }
    Ok(())
}

/// The least time between two registrations caused by mismatches.
const REREGISTER_EVERY: std::time::Duration = std::time::Duration::from_secs(600);

/// An interaction whose options do not fit the command poise knows (issue 20 point 6): a
/// private answer that says so, and the commands registered again.
pub(crate) async fn command_mismatch(
    ctx: poise::ApplicationContext<'_, Data, DiscordError>,
    description: &str,
) {
    let shared = ctx.data;
    tracing::warn!(
        command = %ctx.command.qualified_name,
        description,
        "a command differs from the registered one: answering privately, registering again"
    );
    let chat = shared.chat.clone();
    let user = ctx.interaction.user.id.get();
    let text =
        super::lanes::blocking(move || chat.reader_texts(user, None).t("error.command_outdated"))
            .await
            .unwrap_or_else(|_| shared.chat.texts().t("error.command_outdated"));
    let answer = CreateInteractionResponse::Message(
        CreateInteractionResponseMessage::new()
            .content(text)
            .ephemeral(true),
    );
    if let Err(e) = ctx.interaction.create_response(&shared.http, answer).await {
        tracing::warn!(error = %super::error::describe(&e), "cannot answer a mismatched command");
    }
    if !shared.may_reregister(REREGISTER_EVERY) {
        return;
    }
    let commands = &ctx.framework.options().commands;
    match put_commands(&shared.http, commands, shared.dev_guild).await {
        Ok(()) => tracing::info!("commands registered again"),
        Err(e) => tracing::error!(error = %e, "registering the commands again failed"),
    }
}
