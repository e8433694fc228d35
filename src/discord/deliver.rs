//! Sends a batch of chat replies where their audiences say (DECISIONS B1):
//! - `Private(user)` answers the user's own interaction: its deferred (ephemeral) message, or an
//!   ephemeral follow-up; a private reply with no interaction to answer becomes a DM;
//! - `Dm(user)` is a direct message; the first time Discord refuses it (error 50007) the user
//!   is switched to ephemeral prompts (kept in the store) and mentioned once in the game's
//!   channel with a button that opens the private flow there; no DM is tried again until the
//!   user asks for DMs again;
//! - `Public` and `Ping(user)` go to the channel: follow-ups of the interaction when it was made
//!   there, otherwise (the timer, a click in a DM) ordinary messages in the game's channel;
//!   a ping mentions its user and allowed mentions permit only that user; ordinary messages
//!   go through the outbox ([`super::outbox`]), so Discord's passing failures lose none.
//!
//! The interaction's own message (the "slot") shows the first reply that fits its visibility;
//! a click on a private prompt replaces that prompt in place — as the click's own response
//! (an update of the message, one request) when the chat answered before the click was
//! acknowledged — and a stale click loses its buttons and is refused privately.

use super::failures;
use super::message::Outgoing;
use super::outbox::{self, Posted};
use super::shared::{Batch, Shared};
use crate::chat::{Audience, Reply};
use crate::store::GameId;
use serenity::all::{
    CreateInteractionResponse, CreateInteractionResponseFollowup, CreateInteractionResponseMessage,
    EditInteractionResponse, InteractionId, InteractionResponseFlags,
};
use serenity::builder::Builder;

/// What the interaction's own message may show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Slot {
    /// Only the requester (an ephemeral deferral, or a private prompt that was clicked).
    Private,
    /// Everyone in the channel.
    Public,
    /// A DM: everything for the requester.
    Any,
}

/// The interaction being answered.
pub(crate) struct Answer {
    pub token: String,
    pub slot: Slot,
    /// A button click (its own message is the clicked one; nothing was deferred visibly).
    pub component: bool,
    /// A click not acknowledged yet: its response updates the clicked message (or only
    /// acknowledges it) before anything else is sent.
    pub unanswered: Option<InteractionId>,
}

impl Answer {
    /// Changes the interaction's own message: the click's response while it has none, else an
    /// edit of the response. Returns whether Discord took it.
    async fn change(&self, shared: &Shared, out: Outgoing) -> bool {
        let result = match self.unanswered {
            Some(id) => {
                let mentions = out.allowed_mentions();
                let mut update = CreateInteractionResponseMessage::new()
                    .flags(InteractionResponseFlags::SUPPRESS_EMBEDS)
                    .content(out.content)
                    .components(out.rows)
                    .allowed_mentions(mentions);
                if !out.files.is_empty() {
                    update = update.files(out.files);
                }
                CreateInteractionResponse::UpdateMessage(update)
                    .execute(&shared.http, (id, self.token.as_str()))
                    .await
            }
            None => out
                .into_response_edit()
                .execute(&shared.http, &self.token)
                .await
                .map(|_| ()),
        };
        match result {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(error = %super::error::describe(&e), "cannot change the interaction's message");
                false
            }
        }
    }

    /// Removes the buttons of the interaction's own message, keeping its text.
    async fn clear_buttons(&self, shared: &Shared) {
        let result = match self.unanswered {
            Some(id) => {
                let update = CreateInteractionResponseMessage::new().components(Vec::new());
                CreateInteractionResponse::UpdateMessage(update)
                    .execute(&shared.http, (id, self.token.as_str()))
                    .await
            }
            None => EditInteractionResponse::new()
                .components(Vec::new())
                .execute(&shared.http, &self.token)
                .await
                .map(|_| ()),
        };
        if let Err(e) = result {
            tracing::debug!(error = %super::error::describe(&e), "cannot clear the clicked message");
        }
    }

    /// Acknowledges a click that has no response yet (nothing to change in its message).
    async fn acknowledge(&self, shared: &Shared) {
        if let Some(id) = self.unanswered {
            if let Err(e) = CreateInteractionResponse::Acknowledge
                .execute(&shared.http, (id, self.token.as_str()))
                .await
            {
                tracing::warn!(error = %super::error::describe(&e), "cannot acknowledge a click");
            }
        }
    }
}

/// Where a batch comes from.
pub(crate) struct Origin {
    pub user: u64,
    /// The channel the interaction came from (0 for the timer).
    pub channel: u64,
    pub in_dm: bool,
    pub answer: Option<Answer>,
}

impl Origin {
    /// The timer: no user, no interaction.
    pub fn timer() -> Origin {
        Origin {
            user: 0,
            channel: 0,
            in_dm: false,
            answer: None,
        }
    }
}

/// Sends every reply of `batch`.
pub(crate) async fn deliver(shared: &Shared, origin: &Origin, batch: Batch) {
    let Batch {
        replies,
        game,
        moved,
    } = batch;
    if let Some(answer) = &origin.answer {
        if answer.component && replies.len() == 1 && shared.chat.is_stale_refusal(&replies[0]) {
            // Drop the buttons of the clicked message, then refuse privately.
            answer.clear_buttons(shared).await;
            let out = Outgoing::from_reply(&replies[0], &[]);
            followup(shared, answer, out, !origin.in_dm).await;
            return;
        }
    }
    let slot = origin
        .answer
        .as_ref()
        .and_then(|a| slot_reply(a, origin, &replies, game));
    // A command's deferral that could not be replaced or removed: Discord turns the next
    // follow-up into it, with the deferral's visibility (see [`Deferral`]).
    let mut deferral = Deferral::Done;
    let mut shown = slot;
    if let Some(answer) = &origin.answer {
        let waiting = Deferral::Waiting {
            private: answer.slot == Slot::Private,
        };
        match slot {
            Some(i) => {
                let changed = answer
                    .change(shared, Outgoing::from_reply(&replies[i], &[]))
                    .await;
                if !changed && !answer.component {
                    // The reply is sent below like the others.
                    shown = None;
                    deferral = waiting;
                }
            }
            None if !answer.component => {
                // Nothing fits the deferred message's visibility: remove it before following up.
                if let Err(e) = shared
                    .http
                    .delete_original_interaction_response(&answer.token)
                    .await
                {
                    tracing::warn!(error = %super::error::describe(&e), "cannot delete the deferral");
                    deferral = waiting;
                }
            }
            None if answer.slot == Slot::Private && moved => {
                // The prompt was answered and no new question replaces it: its buttons go.
                answer.clear_buttons(shared).await;
            }
            None => answer.acknowledge(shared).await,
        }
    }
    for (i, reply) in replies.iter().enumerate() {
        if Some(i) == shown {
            continue;
        }
        let game = reply.game().or(game);
        // A reply about a game (an admin's announcement) goes to that game's channel, not to
        // the channel the command came from.
        let timer = Origin::timer();
        let public_origin = if reply.about.is_some() {
            &timer
        } else {
            origin
        };
        match reply.audience {
            Audience::Private(u) if u == origin.user => match &origin.answer {
                Some(answer) => {
                    let out = Outgoing::from_reply(reply, &[]);
                    deferral
                        .follow_up(shared, origin, answer, out, !origin.in_dm, game)
                        .await;
                }
                None => send_dm(shared, u, reply, game).await,
            },
            Audience::Private(u) | Audience::Dm(u) => send_dm(shared, u, reply, game).await,
            Audience::Public => {
                let out = Outgoing::from_reply(reply, &[]);
                send_public(shared, public_origin, out, game, &mut deferral).await
            }
            Audience::Ping(users) => {
                let out = Outgoing::from_reply(reply, users.users());
                send_public(shared, public_origin, out, game, &mut deferral).await
            }
        }
    }
}

/// Which reply the interaction's own message shows.
fn slot_reply(
    answer: &Answer,
    origin: &Origin,
    replies: &[Reply],
    game: Option<GameId>,
) -> Option<usize> {
    let fits = |r: &Reply| match (answer.slot, r.audience) {
        (Slot::Private | Slot::Any, Audience::Private(u)) => u == origin.user,
        (Slot::Public, Audience::Public) => true,
        // In a DM, public lines about a game belong in its channel.
        (Slot::Any, Audience::Public) => game.is_none(),
        _ => false,
    };
    if answer.component && answer.slot == Slot::Private {
        // A clicked prompt is replaced only by the next question; anything else (a refusal,
        // a private event) follows up and leaves the prompt as it is.
        return replies
            .iter()
            .position(|r| fits(r) && !r.choices.is_empty());
    }
    replies.iter().position(fits)
}

/// Sends a follow-up; returns whether Discord took it.
async fn followup(shared: &Shared, answer: &Answer, out: Outgoing, ephemeral: bool) -> bool {
    let message: CreateInteractionResponseFollowup = out.into_followup(ephemeral);
    match message
        .execute(&shared.http, (None, answer.token.as_str()))
        .await
    {
        Ok(_) => true,
        Err(e) => {
            tracing::warn!(error = %super::error::describe(&e), "follow-up failed");
            false
        }
    }
}

/// Whether a command's type-5 deferral still waits for its content (issue 20 point 3). After
/// a deferral Discord makes the next follow-up an edit of the deferred message and ignores the
/// follow-up's own ephemeral flag; so while a deferral waits (its edit or deletion failed), a
/// follow-up whose visibility differs from the deferral's is never sent: public output goes to
/// the channel as an ordinary message, and private output is withheld rather than shown to
/// everyone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Deferral {
    /// Replaced or removed (or nothing was deferred): follow-ups are new messages.
    Done,
    /// Still waiting; `private` when it was deferred ephemerally.
    Waiting { private: bool },
}

impl Deferral {
    /// Sends `out` as a follow-up when that cannot change its visibility.
    async fn follow_up(
        &mut self,
        shared: &Shared,
        origin: &Origin,
        answer: &Answer,
        out: Outgoing,
        ephemeral: bool,
        game: Option<GameId>,
    ) {
        let Deferral::Waiting { private } = *self else {
            followup(shared, answer, out, ephemeral).await;
            return;
        };
        if private == ephemeral {
            // It takes the deferral's place; later follow-ups are new messages.
            if followup(shared, answer, out, ephemeral).await {
                *self = Deferral::Done;
            }
        } else if ephemeral {
            tracing::warn!(
                "a private reply withheld: the public deferral could not be replaced, and a \
                 follow-up would show it to everyone"
            );
        } else {
            let channel = match game {
                Some(g) => shared.channel_of(g).await,
                None => Some(origin.channel),
            };
            match channel {
                Some(c) if c != 0 => channel_message(shared, c, game, out).await,
                _ => tracing::warn!(game, "no channel for a public reply"),
            }
        }
    }
}

/// A message in a channel (of `game`, if any); Discord's passing failures queue it in the
/// outbox.
async fn channel_message(shared: &Shared, channel: u64, game: Option<GameId>, out: Outgoing) {
    if let Posted::Failed(e) = outbox::post(shared, channel, game, out).await {
        tracing::warn!(channel, error = %super::error::describe(&e), "message failed");
    }
}

/// A public message: a follow-up when the interaction was made in the channel, otherwise a
/// message in the game's channel.
async fn send_public(
    shared: &Shared,
    origin: &Origin,
    out: Outgoing,
    game: Option<GameId>,
    deferral: &mut Deferral,
) {
    if let Some(answer) = &origin.answer {
        if !origin.in_dm || game.is_none() {
            deferral
                .follow_up(shared, origin, answer, out, false, game)
                .await;
            return;
        }
    }
    let Some(game) = game else {
        tracing::warn!("a public reply without a game or a channel");
        return;
    };
    match shared.channel_of(game).await {
        Some(channel) => channel_message(shared, channel, Some(game), out).await,
        None => tracing::warn!(game, "no channel for the game"),
    }
}

/// A direct message (DECISIONS B14): none is tried to a user whose DMs are known to be
/// closed (the channel ping's button opens their prompt instead); the first refusal (50007)
/// is recorded by the chat layer, which switches the user to ephemeral prompts and gives the
/// one notice, posted in the game's channel.
async fn send_dm(shared: &Shared, user: u64, reply: &Reply, game: Option<GameId>) {
    if shared.dms_closed(user).await {
        tracing::debug!(game, "DMs closed: no DM tried");
        return;
    }
    let sent = match shared.dm_channel(user).await {
        Ok(channel) => {
            let out = Outgoing::from_reply(reply, &[]);
            match outbox::post(shared, channel.get(), game, out).await {
                Posted::Failed(e) => Err(e),
                Posted::Sent | Posted::Queued | Posted::Dropped => Ok(()),
            }
        }
        Err(e) => Err(e),
    };
    let error = match sent {
        Ok(()) => return,
        Err(e) => e,
    };
    if !dm_refused(&error) {
        tracing::warn!(error = %super::error::describe(&error), "DM failed");
        return;
    }
    tracing::info!(game, "DMs refused: prompts open in the channel from now on");
    for notice in shared.dms_refused(user, game).await {
        let pinged = match &notice.audience {
            Audience::Ping(p) => p.users(),
            _ => &[],
        };
        let out = Outgoing::from_reply(&notice, pinged);
        let game = notice.game().or(game);
        send_public(shared, &Origin::timer(), out, game, &mut Deferral::Done).await;
    }
}

/// Whether Discord refused a DM (the user's privacy settings).
pub(crate) fn dm_refused(e: &serenity::Error) -> bool {
    failures::classify(e) == failures::Failure::DmRefused
}
