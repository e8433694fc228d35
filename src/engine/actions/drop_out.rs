//! Action 6: Drop out of the Action phase (rulebook, "6) Drop out of Action phase", p. 18): the
//! face-down cards of the action area turn face up, the seat takes one resting deck into its hand,
//! moves each action-slot card to a different resting slot (with the "Gameplay variant: Linked
//! slots", p. 23, straight up into the slot above; each move said, as resting decks are public)
//! and returns its bonus tiles; from then on its turns are skipped.

use super::turn::{begin_action, replace_top};
use super::wrong;
use crate::data::numbering;
use crate::data::GameData;
use crate::engine::decision::{Decision, Task};
use crate::engine::flow::Ctx;
use crate::engine::state::{GameState, SlotCard, TileKind, TileState};
use crate::engine::{illegal, round, RuleError};

/// Starts dropping out: a resting deck to take, then the cards to rest.
pub(super) fn begin(ctx: &mut Ctx, state: &mut GameState, seat: usize) {
    let name = state.seats[seat].name.clone();
    begin_action(state, seat);
    // Turn the face-down cards face up again before they go to the resting slots.
    for slot in state.seats[seat].slots.iter_mut() {
        if let Some(c) = *slot {
            *slot = Some(SlotCard::Up(c.card()));
        }
    }
    state.agenda.push(Task::RestCards {
        seat,
        used_slots: Vec::new(),
    });
    state.agenda.push(Task::TakeRestingDeck { seat });
    ctx.say("event.drop_out", &[("name", &name)]);
}

pub(super) fn candidates(_data: &GameData, state: &GameState, task: &Task) -> Vec<Decision> {
    let s = &state.seats[task.seat()];
    match task {
        Task::TakeRestingDeck { .. } => (0..5)
            .map(|slot| Decision::TakeRestingDeck { slot })
            .collect(),
        Task::RestCards { .. } => s
            .slots
            .iter()
            .flatten()
            .flat_map(|c| {
                (0..5).map(move |slot| Decision::RestCard {
                    card: c.card(),
                    slot,
                })
            })
            .collect(),
        _ => Vec::new(),
    }
}

pub(super) fn check(
    _data: &GameData,
    state: &GameState,
    seat: usize,
    task: &Task,
    d: Decision,
) -> Result<(), RuleError> {
    let s = &state.seats[seat];
    match (task, d) {
        (Task::TakeRestingDeck { .. }, Decision::TakeRestingDeck { slot }) => {
            if s.resting.get(slot as usize).is_none_or(|d| d.is_empty()) {
                return Err(illegal(
                    "rule.resting_slot_empty",
                    &[("slot", &numbering::slot(usize::from(slot)))],
                ));
            }
            Ok(())
        }
        (Task::RestCards { used_slots, .. }, Decision::RestCard { card, slot }) => {
            let Some(from) = s.slot_of(card) else {
                return Err(illegal("rule.card_not_in_slots", &[]));
            };
            if slot > 4 {
                return Err(illegal("rule.five_resting_slots", &[]));
            }
            if used_slots.contains(&slot) {
                return Err(illegal(
                    "rule.resting_slot_used",
                    &[("slot", &numbering::slot(usize::from(slot)))],
                ));
            }
            if state.options.linked_slots && from != slot as usize {
                return Err(illegal(
                    "rule.linked_slots",
                    &[("slot", &numbering::slot(from))],
                ));
            }
            Ok(())
        }
        (task, _) => Err(wrong(task)),
    }
}

pub(super) fn perform(ctx: &mut Ctx, state: &mut GameState, seat: usize, task: Task, d: Decision) {
    let name = state.seats[seat].name.clone();
    match (task, d) {
        (Task::TakeRestingDeck { .. }, Decision::TakeRestingDeck { slot }) => {
            let deck = std::mem::take(&mut state.seats[seat].resting[slot as usize]);
            ctx.say(
                "event.take_resting_deck",
                &[
                    ("name", &name),
                    ("slot", &numbering::slot(usize::from(slot))),
                    ("count", &deck.len()),
                ],
            );
            state.seats[seat].hand.extend(deck);
            state.agenda.pop();
        }
        (Task::RestCards { mut used_slots, .. }, Decision::RestCard { card, slot }) => {
            if let Some(from) = state.seats[seat].slot_of(card) {
                state.seats[seat].slots[from] = None;
            }
            state.seats[seat].resting[slot as usize].push(card);
            used_slots.push(slot);
            replace_top(state, Task::RestCards { seat, used_slots });
            // Where each card goes is public (a resting deck is): one line per card, which the
            // chat layer reads as one list ("alice rests X on resting slot 1, Y on …").
            let data = ctx.data;
            let rested = crate::text::Deferred(|| {
                crate::text::name_ref(
                    "event.rested_card",
                    &[
                        ("card", &data.card_label(card)),
                        ("slot", &numbering::slot(usize::from(slot))),
                    ],
                    &format!(
                        "card on resting slot {}",
                        numbering::slot(usize::from(slot))
                    ),
                )
            });
            ctx.say("event.rests", &[("name", &name), ("cards", &rested)]);
        }
        _ => {}
    }
}

/// In the last round (from engine version 4) the choices of dropping out change nothing — no
/// turn follows and every owned card counts for shares wherever it lies — so the seat is not
/// asked: it takes the first resting deck and rests each card in the first slot it may use.
fn answered_for_the_seat(state: &GameState) -> bool {
    state.engine_version >= LAST_ROUND_DROP_OUT_ANSWERED && round::is_last_round(state)
}

/// The engine version from which dropping out in the last round asks nothing.
const LAST_ROUND_DROP_OUT_ANSWERED: u32 = 4;

/// With every action slot empty the seat has dropped out: its bonus tiles go back.
pub(super) fn run_auto(ctx: &mut Ctx, state: &mut GameState, task: &Task) -> Option<bool> {
    if answered_for_the_seat(state) && matches!(task, Task::TakeRestingDeck { .. }) {
        let seat = task.seat();
        let d = candidates(ctx.data, state, task)
            .into_iter()
            .find(|d| check(ctx.data, state, seat, task, *d).is_ok())?;
        ctx.count("last_round_drop_out_answered");
        let name = state.seats[seat].name.clone();
        ctx.say("event.drop_out_last_round", &[("name", &name)]);
        perform(ctx, state, seat, task.clone(), d);
        // Every card then goes to the first resting slot it may use (its line says where).
        while let Some(task @ Task::RestCards { .. }) = state.agenda.last().cloned() {
            let rest = candidates(ctx.data, state, &task)
                .into_iter()
                .find(|d| check(ctx.data, state, seat, &task, *d).is_ok());
            match rest {
                Some(d) => perform(ctx, state, seat, task, d),
                None => break,
            }
        }
        return Some(true);
    }
    match task.clone() {
        Task::RestCards { seat, .. } if state.seats[seat].slots.iter().all(Option::is_none) => {
            state.agenda.pop();
            let mut returned = Vec::new();
            for (i, tile) in state.tiles.iter_mut().enumerate() {
                if matches!(*tile, TileState::Held { seat: h, .. } if h == seat) {
                    *tile = TileState::Supply;
                    returned.push(TileKind::ALL[i]);
                }
            }
            let name = state.seats[seat].name.clone();
            for kind in returned {
                ctx.say(
                    "event.tile_returned",
                    &[
                        ("name", &name),
                        ("tile", &ctx.data.tile_name(kind.data_id())),
                        ("tile_id", &kind.data_id()),
                    ],
                );
            }
            state.seats[seat].dropped_out = true;
            Some(true)
        }
        _ => None,
    }
}
