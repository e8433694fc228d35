//! The Planning phase (rulebook, "1) Planning phase", pp. 9–10): every human at once and in
//! secret places cards from the hand face down into its switched-on action slots, may take them
//! all back until everyone has planned, and says when it is done; once all have planned the cards
//! turn face up together — Luna deals hers first and fills her majority slots after the reveal
//! (Luna booklet, "1) Planning phase", steps a and b) — and the Action phase begins.

use super::decision::Decision;
use super::flow::Ctx;
use super::state::{GameState, SlotCard};
use super::{illegal, luna, round, Message, RuleError};
use crate::data::numbering;
use crate::data::GameData;

/// Every planning choice of a seat, in a fixed order (the legal ones are found by `check`).
pub(crate) fn candidates(state: &GameState, seat: usize) -> Vec<Decision> {
    let s = &state.seats[seat];
    let mut out = vec![Decision::PlanDone, Decision::PlanClear];
    for card in &s.hand {
        for slot in 0..5u8 {
            out.push(Decision::PlanCard { card: *card, slot });
        }
    }
    out
}

/// Validates a planning decision.
pub(crate) fn check(
    data: &GameData,
    state: &GameState,
    seat: usize,
    d: Decision,
) -> Result<(), RuleError> {
    let s = &state.seats[seat];
    match d {
        Decision::PlanCard { card, slot } => {
            if s.planned {
                return Err(illegal("rule.planning_done_clear", &[]));
            }
            if !s.hand.contains(&card) {
                return Err(illegal("rule.card_not_in_hand", &[]));
            }
            if !data.card(card).is_playable() {
                return Err(illegal("rule.single_share_slot", &[]));
            }
            if slot as usize >= s.slots.len() || !s.slot_on[slot as usize] {
                return Err(illegal(
                    "rule.slot_off",
                    &[("slot", &numbering::slot(usize::from(slot)))],
                ));
            }
            if s.slots[slot as usize].is_some() {
                return Err(illegal(
                    "rule.slot_taken",
                    &[("slot", &numbering::slot(usize::from(slot)))],
                ));
            }
            Ok(())
        }
        Decision::PlanClear => {
            if !s.planned && s.slots.iter().all(Option::is_none) {
                return Err(illegal("rule.nothing_planned", &[]));
            }
            Ok(())
        }
        Decision::PlanDone => {
            if s.planned {
                return Err(illegal("rule.planning_done", &[]));
            }
            Ok(())
        }
        _ => Err(RuleError::NotNow(Message::new("rule.planning_phase", &[]))),
    }
}

/// Carries out a validated planning decision.
pub(crate) fn perform(ctx: &mut Ctx, st: &mut GameState, seat: usize, d: Decision) {
    match d {
        Decision::PlanCard { card, slot } => {
            st.seats[seat].hand.retain(|c| *c != card);
            st.seats[seat].slots[slot as usize] = Some(SlotCard::Planned(card));
        }
        Decision::PlanClear => {
            let seat_state = &mut st.seats[seat];
            for slot in seat_state.slots.iter_mut() {
                if let Some(c) = slot.take() {
                    seat_state.hand.push(c.card());
                }
            }
            seat_state.planned = false;
        }
        Decision::PlanDone => {
            st.seats[seat].planned = true;
            let name = st.seats[seat].name.clone();
            let n = st.seats[seat].slots.iter().flatten().count();
            // An empty plan is said once, here: the reveal has nothing of this seat to show.
            let key = if n == 0 {
                "event.planned_nothing"
            } else {
                "event.planned"
            };
            ctx.say(key, &[("name", &name), ("n", &n)]);
            maybe_reveal(ctx, st);
        }
        _ => {}
    }
}

/// Once every seat has planned, all cards are revealed together and the Action phase begins.
fn maybe_reveal(ctx: &mut Ctx, state: &mut GameState) {
    if state.seats.iter().any(|s| !s.planned && !s.is_luna()) {
        return;
    }
    // Luna deals her face-down cards after the humans have placed theirs.
    luna::deal(ctx, state);
    for s in state.seats.iter_mut() {
        for slot in s.slots.iter_mut() {
            if let Some(SlotCard::Planned(c)) = *slot {
                *slot = Some(SlotCard::Up(c));
            }
        }
    }
    let data = ctx.data;
    for i in (0..state.seats.len()).filter(|i| !state.seats[*i].is_luna()) {
        let cards: Vec<String> = state.seats[i]
            .slots
            .iter()
            .flatten()
            .map(|c| data.card_label(c.card()))
            .collect();
        if !cards.is_empty() {
            ctx.say(
                "event.reveals",
                &[("name", &state.seats[i].name), ("cards", &cards.join(", "))],
            );
        }
    }
    // After the humans' cards are face up, Luna fills her majority slots.
    luna::reveal_majority(ctx, state);
    round::start_action_phase(ctx, state);
}
