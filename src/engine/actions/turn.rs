//! The frame around an action (rulebook, "2) Action phase", p. 10): starting an action puts the
//! end-of-turn steps under it — placing acquired plans ("Research points", p. 14), claiming
//! mission tasks, then the end of the turn — and the cards or tiles an action used are flipped
//! face down after its rewards.

use crate::data::cards::CardDef;
use crate::data::{CardId, GameData};
use crate::engine::decision::{ActionSource, Task};
use crate::engine::effects;
use crate::engine::flow::Ctx;
use crate::engine::state::{GameState, TileKind, TileState};
use crate::engine::{illegal, missions, round, RuleError};

/// Replaces the task on top of the agenda (a task that continues with new values).
pub(super) fn replace_top(state: &mut GameState, task: Task) {
    state.agenda.pop();
    state.agenda.push(task);
}

/// Starts an action: the end-of-turn steps go under it.
pub(super) fn begin_action(state: &mut GameState, seat: usize) {
    state.agenda.pop();
    state.agenda.push(Task::EndTurn { seat });
    if missions::has_open_tasks(state, seat) {
        state.agenda.push(Task::ClaimTasks { seat });
    }
    state.agenda.push(Task::PlacePlans { seat });
    state.seats[seat].tank_steps_this_action = 0;
    missions::begin_action(state, seat);
}

/// What an action flips when it ends: the card in the slot, or the action tile `tile` (the
/// tile of the action being taken, even when the seat holds other action tiles).
pub(super) fn source_flip(
    state: &GameState,
    seat: usize,
    source: ActionSource,
    tile: TileKind,
) -> (Vec<CardId>, Vec<TileKind>) {
    match source {
        ActionSource::Slot(_) => (
            state.source_card(seat, source).into_iter().collect(),
            Vec::new(),
        ),
        ActionSource::Tile => (Vec::new(), vec![tile]),
        ActionSource::Discarded(_) => (Vec::new(), Vec::new()),
    }
}

/// Whether `source` names a face-up scientist of the seat of the action that `tile` (the
/// research or the field scientist tile) stands for, or that unused tile itself.
pub(super) fn check_scientist(
    data: &GameData,
    state: &GameState,
    seat: usize,
    source: ActionSource,
    tile: TileKind,
) -> Result<(), RuleError> {
    let (fits, not_there, no_tile): (fn(&CardDef) -> bool, _, _) = match tile {
        TileKind::ResearchScientist => (
            CardDef::is_research_scientist,
            "rule.no_research_scientist_there",
            "rule.no_research_tile",
        ),
        _ => (
            CardDef::is_field_scientist,
            "rule.no_field_scientist_there",
            "rule.no_field_tile",
        ),
    };
    match source {
        ActionSource::Tile if state.holds_unused_tile(seat, tile) => Ok(()),
        ActionSource::Slot(i) => match effects::up_card_in_slot(state, seat, i) {
            Some(c) if fits(data.card(c)) => Ok(()),
            _ => Err(illegal(not_there, &[])),
        },
        _ => Err(illegal(no_tile, &[])),
    }
}

pub(super) fn run_auto(ctx: &mut Ctx, state: &mut GameState, task: &Task) -> Option<bool> {
    match task.clone() {
        Task::FlipUsed { seat, cards, tiles } => {
            state.agenda.pop();
            for card in cards {
                effects::flip_used(state, seat, card);
                if matches!(state.tile(TileKind::PlusOne), TileState::Held { seat: h, on_card: Some(c), .. } if h == seat && c == card)
                {
                    effects::use_tile(state, TileKind::PlusOne);
                }
            }
            for t in tiles {
                effects::use_tile(state, t);
            }
            Some(true)
        }
        Task::EndTurn { seat } => {
            state.agenda.pop();
            round::end_turn(ctx, state, seat);
            Some(true)
        }
        _ => None,
    }
}
