//! What the test binaries check below the conversation's public face: the offers and labels a
//! seat is shown, the merged lines of a turn, the score text. Built only with the
//! `test-support` feature (on for tests and benchmarks, never in the bot's release build).

use super::{Chat, Choice, GameData, GameId};
use crate::engine::{Decision, GameState};
use std::sync::Arc;

pub use super::offers::{offers, Offer};
pub use super::prompt::{belt_column_matters, offered};
pub use super::turn::{log_start, merge_repeats};

/// The rule data the conversation reads.
pub fn data(chat: &Chat) -> Arc<GameData> {
    chat.data.clone()
}

/// A decision's option label, as `seat` is shown it.
pub fn label(chat: &Chat, state: &GameState, seat: usize, decision: Decision) -> String {
    chat.label(state, seat, decision)
}

/// The question `seat` is asked now.
pub fn question(chat: &Chat, state: &GameState, seat: usize) -> String {
    chat.question(state, seat)
}

/// The scores as the channel reads them.
pub fn scores_text(chat: &Chat, state: &GameState) -> String {
    chat.scores_text(state)
}

/// A decision as the numbered choice (button or menu entry) it becomes.
pub fn decision_choice(
    chat: &Chat,
    game: GameId,
    version: u64,
    state: &GameState,
    seat: usize,
    decision: Decision,
    number: usize,
) -> Choice {
    chat.decision_choice(game, version, state, seat, decision, number)
}
