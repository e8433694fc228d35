//! Answering interactions within Discord's 3-second limit: every slash command is deferred at
//! once (ephemerally for private flows: the first response fixes the visibility), every click
//! is acknowledged at once (a deferred update); only then does the synchronous chat run, on
//! the blocking pool, and its replies are delivered by editing the deferred message and
//! following up. Buttons are handled here, from their custom ids, not by in-process
//! collectors, so they keep working after a restart.

use super::deliver::{deliver, Answer, Origin, Slot};
use super::error::describe;
use super::lanes::OrderKey;
use super::shared::Shared;
use super::shared::{Ctx, Error};
use crate::chat::{self, Input, Request};
use crate::store::Location;
use serenity::all::{
    AutocompleteChoice, ComponentInteraction, CreateInteractionResponse,
    CreateInteractionResponseMessage, InteractionResponseFlags, MessageFlags, ResolvedValue,
};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Commands whose answer is the requester's own business (deferred ephemerally).
fn is_private(name: &str, options: &BTreeMap<String, String>) -> bool {
    match name {
        "skymines new" | "skymines join" | "skymines start" | "skymines abort"
        | "skymines status" | "skymines scores" | "skymines kick" | "skymines pause"
        | "skymines resume" => false,
        "skymines log" => {
            options.contains_key("since")
                || options.get("since_my_turn").is_some_and(|v| v == "yes")
                || options.get("mode").is_some_and(|v| v == "since-my-turn")
        }
        _ => true,
    }
}

/// A slash command: defer, run the chat, deliver.
pub(crate) async fn command(
    ctx: Ctx<'_>,
    name: &str,
    options: Vec<(String, String)>,
) -> Result<(), Error> {
    let poise::Context::Application(app) = ctx else {
        return Ok(());
    };
    let shared: &Arc<Shared> = app.data;
    let interaction = app.interaction;
    let options: BTreeMap<String, String> = options.into_iter().collect();
    let in_dm = interaction.guild_id.is_none();
    let ephemeral = !in_dm && is_private(name, &options);
    let defer = CreateInteractionResponse::Defer(
        CreateInteractionResponseMessage::new()
            .flags(InteractionResponseFlags::SUPPRESS_EMBEDS)
            .ephemeral(ephemeral),
    );
    interaction.create_response(&shared.http, defer).await?;
    app.has_sent_initial_response
        .store(true, std::sync::atomic::Ordering::SeqCst);
    let user = shared.user(&interaction.user, interaction.member.as_deref());
    let channel = interaction.channel_id.get();
    let req = Request {
        place: Location {
            guild: interaction.guild_id.map(|g| g.get()),
            channel,
        },
        user,
        input: Input::Command {
            name: name.to_string(),
            options,
        },
        in_dm,
    };
    let origin = Origin {
        user: req.user.id,
        channel,
        in_dm,
        answer: Some(Answer {
            token: interaction.token.clone(),
            slot: if in_dm {
                Slot::Any
            } else if ephemeral {
                Slot::Private
            } else {
                Slot::Public
            },
            component: false,
            unanswered: None,
        }),
    };
    let batch = shared.handle(req, OrderKey::Channel(channel)).await;
    deliver(shared, &origin, batch).await;
    Ok(())
}

/// How long a click on a private prompt waits for the chat before it is acknowledged: an
/// answer within this time replaces the prompt as the click's own response (one request
/// instead of two), well inside Discord's three seconds.
const ANSWER_IN_PLACE: std::time::Duration = std::time::Duration::from_millis(1500);

/// A button click or a select-menu choice: run the chat and deliver; a click on a private
/// prompt is answered in place when the chat is quick enough, any other click is
/// acknowledged at once.
pub(crate) async fn component(shared: &Arc<Shared>, click: &ComponentInteraction) {
    let in_dm = click.guild_id.is_none();
    let clicked_private = in_dm
        || click
            .message
            .flags
            .is_some_and(|f| f.contains(MessageFlags::EPHEMERAL));
    // A select menu of choices: the option picked carries the choice's own id.
    let custom_id = match &click.data.kind {
        serenity::all::ComponentInteractionDataKind::StringSelect { values }
            if click.data.custom_id.starts_with(super::message::MENU_ID) =>
        {
            // Several picks (the planning menu) reach the chat together, space-separated.
            values.join(" ")
        }
        _ => click.data.custom_id.clone(),
    };
    let channel = click.channel_id.get();
    let key = chat::click_game(&custom_id)
        .map(OrderKey::Game)
        .unwrap_or(OrderKey::Channel(channel));
    let user = shared.user(&click.user, click.member.as_ref());
    let req = Request {
        place: Location {
            guild: click.guild_id.map(|g| g.get()),
            channel,
        },
        user,
        input: Input::Click { custom_id },
        in_dm,
    };
    let acknowledge = || async {
        let ack = click.create_response(&shared.http, CreateInteractionResponse::Acknowledge);
        match ack.await {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(error = %describe(&e), "cannot acknowledge a click");
                false
            }
        }
    };
    let user_id = req.user.id;
    let (batch, unanswered) = if clicked_private {
        let worker = shared.clone();
        let mut running = tokio::spawn(async move { worker.handle(req, key).await });
        match tokio::time::timeout(ANSWER_IN_PLACE, &mut running).await {
            Ok(Ok(batch)) => (batch, Some(click.id)),
            Ok(Err(e)) => {
                tracing::error!(error = %e, "the chat failed on a click");
                acknowledge().await;
                return;
            }
            Err(_) => {
                if !acknowledge().await {
                    return;
                }
                match running.await {
                    Ok(batch) => (batch, None),
                    Err(e) => {
                        tracing::error!(error = %e, "the chat failed on a click");
                        return;
                    }
                }
            }
        }
    } else {
        if !acknowledge().await {
            return;
        }
        (shared.handle(req, key).await, None)
    };
    let origin = Origin {
        user: user_id,
        channel,
        in_dm,
        answer: Some(Answer {
            token: click.token.clone(),
            slot: if clicked_private {
                Slot::Private
            } else {
                Slot::Public
            },
            component: true,
            unanswered,
        }),
    };
    deliver(shared, &origin, batch).await;
}

/// Suggestions for the focused option of a command being typed.
pub(crate) async fn autocomplete(ctx: Ctx<'_>, partial: &str) -> Vec<AutocompleteChoice> {
    let poise::Context::Application(app) = ctx else {
        return Vec::new();
    };
    let shared: &Arc<Shared> = app.data;
    let interaction = app.interaction;
    let Some(focused) = interaction.data.autocomplete() else {
        return Vec::new();
    };
    let option = focused.name.to_string();
    let mut options = BTreeMap::new();
    for o in app.args {
        let value = match &o.value {
            ResolvedValue::String(s) => s.to_string(),
            ResolvedValue::Integer(i) => i.to_string(),
            ResolvedValue::Boolean(b) => if *b { "yes" } else { "no" }.to_string(),
            ResolvedValue::Number(n) => n.to_string(),
            ResolvedValue::Autocomplete { value, .. } => value.to_string(),
            _ => continue,
        };
        let key = if o.name == "type" { "type" } else { o.name };
        options.insert(key.to_string(), value);
    }
    let req = Request {
        place: Location {
            guild: interaction.guild_id.map(|g| g.get()),
            channel: interaction.channel_id.get(),
        },
        user: shared.user(&interaction.user, interaction.member.as_deref()),
        input: Input::Command {
            name: ctx.command().qualified_name.clone(),
            options,
        },
        in_dm: interaction.guild_id.is_none(),
    };
    let chat = shared.chat.clone();
    let partial = partial.to_string();
    let suggestions = super::lanes::blocking(move || chat.autocomplete(&req, &option, &partial))
        .await
        .unwrap_or_default();
    suggestions
        .into_iter()
        .map(|s| AutocompleteChoice::new(s.name, s.value))
        .collect()
}
